"""``phlegyas doctor``: what is installed, what is wired, and whether each part works, in one command.

Each layer looks at its own part: ``policy.health`` (settings, policy files, safe patterns),
``ai.health`` (Tier 3), ``human.health`` (Slack approvals), ``store.health`` (the SQLite stores, the
audit log), ``trust.health`` (the trust store), and one entry per agent host in ``HOSTS`` (``hosts.claude_code.doctor``: its settings
files and the resident hook server). This module adds what is installed (version, compiled or pure
analysis, extras), puts the checks together, and renders them: problems first, each with its fix,
then warnings, then the healthy checks. Every check is isolated (``core.health.guarded``) and every
line is scrubbed of secrets before it is printed.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Callable, Mapping, TextIO

from phlegyas.cli.common import CliError
from phlegyas.core.health import (
    PROBLEM,
    WARNING,
    Check,
    exit_status,
    guarded,
    in_order,
    ok,
    problem,
    scrubbed,
    secrets_in,
    shown,
    warning,
)


@dataclass(frozen=True)
class Extra:
    """An optional dependency group of ``pyproject.toml``: the modules that show it is installed."""

    name: str
    modules: tuple[str, ...]
    what: str


EXTRAS = (
    Extra("mcp", ("mcp",), "the MCP permission-prompt server"),
    Extra("ai", ("anthropic", "openai"), "the SDKs of Tier 3's model backends"),
    Extra("slack", ("slack_sdk",), "Slack approvals (Socket Mode)"),
    Extra("web", ("starlette", "jinja2", "uvicorn"), "the web dashboard"),
)
"""Looked up with ``find_spec``, never imported. A new extra (web, postgres) is one more entry."""

REQUIRED = ("tree_sitter", "tree_sitter_bash")


@dataclass(frozen=True)
class Host:
    """An agent host ``phlegyas install`` knows: its checks, given the environment and the project."""

    name: str
    checks: Callable[..., list[Check]]  # (environ, project, *, start_server) -> checks


def hosts() -> tuple[Host, ...]:
    from phlegyas.hosts.claude_code import doctor as claude_code  # lean start-up: only doctor loads it
    from phlegyas.hosts.codex import install as codex
    from phlegyas.hosts.copilot import install as copilot
    from phlegyas.hosts.cursor import install as cursor
    from phlegyas.hosts.gemini import install as gemini
    from phlegyas.hosts.opencode import install as opencode

    others = (("codex", codex), ("gemini", gemini), ("copilot", copilot), ("opencode", opencode), ("cursor", cursor))
    return (Host("Claude Code", claude_code.checks),
            *(Host(module.HOST, _wiring_checks(agent, module)) for agent, module in others))


def _wiring_checks(agent: str, module) -> Callable[..., list[Check]]:
    """What the host's files wire, user and project (not wired is no problem: the host may not be used)."""

    def checks(environ: Mapping[str, str], project: str, *, start_server: bool = False) -> list[Check]:
        home = environ.get("HOME") or os.path.expanduser("~")
        found = []
        for user in (True, False):
            scope = "user" if user else "project"
            name = f"{module.HOST} hook ({scope})"
            try:
                path = module.wired(user=user, project=project, environ=environ)
            except Exception as exc:  # noqa: BLE001 - a file doctor cannot read is reported, not fatal
                found.append(problem(name, f"cannot tell: {type(exc).__name__}: {exc}",
                                     f"look at the file, or run `phlegyas install --agent {agent}`"))
                continue
            flag = " --user" if user else ""
            found.append(ok(name, f"{shown(path, home)} wires phlegyas (`phlegyas uninstall --agent {agent}{flag}` "
                                  "takes it out)") if path else
                         ok(name, f"not wired (`phlegyas install --agent {agent}{flag}` wires it)"))
        return found

    return checks


# -- what is installed -----------------------------------------------------------------------------

def installed_checks() -> list[Check]:
    import phlegyas  # the package's own version and build record

    where = os.path.dirname(os.path.abspath(phlegyas.__file__))
    checks = []
    missing = [m for m in REQUIRED if not _importable(m)]
    if missing:
        checks.append(problem("phlegyas", f"{phlegyas.__version__} at {where}, but {', '.join(missing)} is not "
                                          "installed: the shell analysis cannot run", "pip install --force-reinstall phlegyas"))
    else:
        checks.append(ok("phlegyas", f"{phlegyas.__version__} at {where} (python {sys.version.split()[0]}, "
                                     f"{sys.executable})"))
    checks.append(_analysis(phlegyas))
    for extra in EXTRAS:
        absent = [m for m in extra.modules if not _importable(m)]
        state = "installed" if not absent else (f"not installed (pip install 'phlegyas[{extra.name}]' adds it; "
                                                "needed only if you use it)")
        checks.append(ok(f"extra {extra.name}", f"{state}: {extra.what}"))
    return checks


def _analysis(phlegyas) -> Check:
    build = phlegyas.analysis_build()
    hint = phlegyas.analysis_hint()
    if hint:
        return warning("analysis", f"{build}, though its build meant to compile it: decisions take about twice "
                                   "as long", hint)
    record = phlegyas.build_record()
    if record is None:
        how = "an editable install or a source checkout: edits take effect at once" if build == "pure Python" \
            else "no build record"
    else:
        how = "built with PHLEGYAS_PURE=1" if record.get("wanted") == "pure" else "as built"
    return ok("analysis", f"{build} ({how})")


def _importable(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except (ImportError, ValueError):
        return False


# -- all of it -------------------------------------------------------------------------------------

def _with_policy(settings, environ: Mapping[str, str], project: str):
    """The settings as the gate uses them in ``project``: the environment's over the policies' ``[settings]``
    and the user policy's ``[slack]``; the environment's alone when the policy does not load (its own check
    says why)."""
    from phlegyas.runtime import load_runtime  # (same as the checks: only `phlegyas doctor` loads it)

    try:
        return load_runtime(environ, project).settings_for(project)
    except Exception:  # noqa: BLE001 - a broken policy is the policy check's to report
        return settings


def collect(environ: Mapping[str, str], project: str, *, start_server: bool = False) -> list[Check]:
    """Every check, in the order they are looked at, scrubbed of secrets."""
    from phlegyas.ai.health import tier3_check  # lean start-up: only `phlegyas doctor` loads the checks
    from phlegyas.hosts.dashboard.health import dashboard_check
    from phlegyas.human.health import slack_check
    from phlegyas.policy.health import load_settings, policy_checks
    from phlegyas.store.health import audit_check, database_check, store_checks
    from phlegyas.trust.health import trust_check

    checks = guarded("phlegyas", installed_checks)
    loaded: list = []

    def settings_part() -> list[Check]:
        settings, check = load_settings(environ, project)
        loaded.append(settings)
        return [check]

    checks += guarded("settings", settings_part)
    settings = loaded[0] if loaded else None
    if settings is not None:
        checks += guarded("policy", lambda: policy_checks(settings, environ, project))
        checks += guarded("Tier 3 (AI)", lambda: [tier3_check(settings)])
        effective = _with_policy(settings, environ, project)  # the user policy's [settings] and [slack] count
        checks += guarded("Slack approvals", lambda: slack_check(effective))
        checks += guarded("dashboard", lambda: [dashboard_check(settings)])
        checks += guarded("stores", lambda: store_checks(settings.data_dir, settings.home))
        checks += guarded("shared database", lambda: [database_check(effective)])
        checks += guarded("trust store", lambda: [trust_check(settings.trust_store, settings.home)])
        checks += guarded("audit log", lambda: [audit_check(settings.enable_audit_log, settings.audit_log_file,
                                                            settings.home)])
    else:
        checks.append(warning("checks skipped", "the policy, Tier 3, store, trust store and audit log checks "
                                                "need the settings", "fix the settings first (see above)"))
    try:
        entries = hosts()
    except Exception as exc:  # noqa: BLE001 - a host module that does not import is a problem line
        entries = ()
        checks.append(problem("hosts", f"the host checks cannot load: {type(exc).__name__}: {exc}",
                              "reinstall phlegyas"))
    for host in entries:
        checks += guarded(host.name, lambda host=host: host.checks(environ, project, start_server=start_server))
    secrets = secrets_in(environ)
    return [scrubbed(c, secrets) for c in checks]


# -- rendering -------------------------------------------------------------------------------------

MARKS = {PROBLEM: "✗", WARNING: "!", "ok": "✓"}


def summary(checks: list[Check]) -> str:
    problems = sum(c.level == PROBLEM for c in checks)
    warnings = sum(c.level == WARNING for c in checks)
    if not problems and not warnings:
        return f"phlegyas doctor: healthy ({len(checks)} checks)"
    parts = [f"{problems} problem{'s' if problems != 1 else ''}"] if problems else []
    parts += [f"{warnings} warning{'s' if warnings != 1 else ''}"] if warnings else []
    return f"phlegyas doctor: {', '.join(parts)} ({len(checks)} checks)"


def render_text(checks: list[Check]) -> str:
    lines = [summary(checks), ""]
    ordered = in_order(checks)
    for i, check in enumerate(ordered):
        if i and check.ok and not ordered[i - 1].ok:
            lines.append("")
        lines.append(f"{MARKS[check.level]} {check.name}: {check.detail}" if check.detail else
                     f"{MARKS[check.level]} {check.name}")
        if check.fix and not check.ok:
            lines.append(f"    fix: {check.fix}")
    return "\n".join(lines) + "\n"


def render_json(checks: list[Check], status: int) -> str:
    body = {"ok": status == 0, "problems": sum(c.level == PROBLEM for c in checks),
            "warnings": sum(c.level == WARNING for c in checks), "checks": [c.to_json() for c in in_order(checks)]}
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def _write(out: TextIO, text: str) -> None:
    """Write ``text`` in whatever encoding ``out`` has: a character it cannot show becomes ``?``."""
    encoding = getattr(out, "encoding", None) or "utf-8"
    out.write(text.encode(encoding, "replace").decode(encoding))


def cmd_doctor(args, out: TextIO, err: TextIO) -> int:
    project = os.path.abspath(args.project or os.getcwd())
    if not os.path.isdir(project):
        raise CliError(f"{project}: no such directory (give the project with --project DIR)")
    try:
        checks = collect(os.environ, project, start_server=args.start_server)
    except Exception as exc:  # noqa: BLE001 - each check is guarded; this is the last line of defence
        checks = [problem("doctor", f"failed: {type(exc).__name__}: {exc}", "report this as a phlegyas bug")]
    status = exit_status(checks, strict=args.strict)
    _write(out, render_json(checks, status) if args.json else render_text(checks))
    return status


def register(sub) -> None:
    """Add ``doctor`` to the ``phlegyas`` command's subparsers."""
    doctor = sub.add_parser(
        "doctor", help="check what is installed, wired and working",
        description="Check the whole install in one go: the version and whether the analysis is compiled, "
                    "the optional extras, the settings, the policy files that apply here (with their rule "
                    "counts) and whether they parse, Tier 3 (backend, model, or why it is off), the SQLite "
                    "stores (integrity check), the trust store, the audit log, and for Claude Code what each "
                    "settings file wires (hooks, MCP server) and whether the resident hook server answers. "
                    "Problems come first, each with a fix; then warnings; then the healthy checks. "
                    "Nothing is changed (but with --start-server) and no secret is printed.",
        epilog="exit status: 0 healthy (warnings allowed), 1 a problem (or, with --strict, a warning), 3 usage error\n\n"
               "problem: something does not work as installed or configured (a policy file that does not\n"
               "  parse, a store that fails its integrity check, a hook whose interpreter is gone, a wired MCP\n"
               "  server without the mcp extra, a hook server that is stuck or died)\n"
               "warning: it works, but not as well as it could (Tier 3 off: undecided calls go to a person;\n"
               "  the hook server not running: it starts at the next hook call; the pure-Python analysis\n"
               "  where the build meant to compile it)\n\n"
               "examples:\n"
               "  phlegyas doctor\n"
               "  phlegyas doctor --project ~/src/app --json\n"
               "  phlegyas doctor --start-server   # start the hook server if it is not running, then check it",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    doctor.add_argument("--project", metavar="DIR",
                        help="the project whose settings files and policy to check (default: the current directory)")
    doctor.add_argument("--json", action="store_true",
                        help="print {ok, problems, warnings, checks: [{name, ok, level, detail, fix}]}")
    doctor.add_argument("--strict", action="store_true", help="exit 1 on a warning too")
    doctor.add_argument("--start-server", action="store_true",
                        help="start the resident hook server if it is not running, and check that it answers")
    doctor.set_defaults(func=cmd_doctor)
