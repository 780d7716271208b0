"""``phlegyas doctor``'s look at Claude Code: what each of its settings files wires, and whether what
they run is there.

The files ``phlegyas install`` knows (``install.user_scope`` / ``install.project_scope``), plus the
project's ``.claude/settings.local.json`` and the per-project entries of ``~/.claude.json``, which a
person may have edited by hand or with ``claude mcp add``:

- hooks (``PreToolUse``, ``PermissionRequest``): in the user, project and local settings files;
- the MCP permission-prompt server ``phlegyas``: user (``~/.claude.json`` ``mcpServers``), local
  (``~/.claude.json`` ``projects.<dir>.mcpServers``) and project (``.mcp.json``, started only when
  ``enabledMcpjsonServers`` names it or ``enableAllProjectMcpServers`` is set).

For each entry found: every event wired, ``onFailure: block`` (without it a crash fails open), the
interpreter it names exists and imports what it must run (this install's is looked up here, another
one is asked in a subprocess). ``checks`` is the host's entry for the doctor: the wiring, then the
resident server (``hookd_check``).
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Mapping

from phlegyas.core.health import Check, guarded, ok, problem, shown, warning
from phlegyas.hosts.claude_code.install import (
    HOOK_EVENTS,
    HOOK_MODULE,
    MCP_MODULE,
    SERVER_NAME,
    InstallError,
    is_phlegyas_hook,
    permission_request_timeout,
    project_scope,
    read_json,
    user_scope,
)
from phlegyas.hosts.hook import server_check as hookd_check
from phlegyas.policy.settings import ConfigError, Settings

HOST = "Claude Code"
OLD_HOOK_MODULE = "phlegyas.hook"  # what installs before 0.2 wrote (install.HOOK_MODULES)
PROBE_TIMEOUT_SECONDS = 15.0
MCP_EXTRA = "pip install 'phlegyas[mcp]'"


@dataclass(frozen=True)
class Place:
    """One settings file: which scope it is, where, and the command that wires it."""

    scope: str  # user | project | local
    path: str
    install: str


@dataclass
class Wiring:
    """What the settings files wire, all together (the server check needs to know about the hooks)."""

    hooks: int = 0
    servers: int = 0
    wait_seconds: float = 0.0  # APPROVAL_WAIT_SECONDS: how long a PermissionRequest hook may wait for a person


def checks(environ: Mapping[str, str], project: str, *, start_server: bool = False) -> list[Check]:
    """Claude Code's part of ``phlegyas doctor``: the wiring of each settings file, then the hook server."""
    wiring = Wiring(wait_seconds=_person_wait(environ, project))
    found = guarded(f"{HOST} wiring", lambda: wiring_checks(environ, project, wiring))
    found += guarded(f"{HOST} hook server",
                     lambda: [hookd_check.server_check(environ, project, hooks_wired=wiring.hooks > 0,
                                                       start=start_server)])
    return found


def places(environ: Mapping[str, str], project: str) -> tuple[Place, Place, Place, str, str]:
    """The user, project and local settings files, the user's ``.claude.json`` and the project's ``.mcp.json``."""
    user = user_scope(environ)
    here = os.path.abspath(project) == os.path.abspath(os.getcwd())
    wire_project = "phlegyas install" if here else f"phlegyas install --project {shlex.quote(project)}"
    try:
        scope = project_scope(project)
        project_settings, mcp_json = scope.settings, scope.mcp
    except InstallError:
        project_settings = os.path.join(os.path.abspath(project), ".claude", "settings.json")
        mcp_json = os.path.join(os.path.abspath(project), ".mcp.json")
    local = os.path.join(os.path.dirname(project_settings), "settings.local.json")
    return (Place("user", user.settings, "phlegyas install --user"),
            Place("project", project_settings, wire_project),
            Place("local", local, wire_project),
            user.mcp, mcp_json)


def wiring_checks(environ: Mapping[str, str], project: str, wiring: Wiring) -> list[Check]:
    home = environ.get("HOME") or os.path.expanduser("~")
    user, proj, local, claude_json, mcp_json = places(environ, project)
    out: list[Check] = []
    docs: dict[str, dict] = {}
    for place in (user, proj, local):
        doc, check = _read(f"{HOST} hooks ({place.scope} settings)", place.path, home)
        if doc is None:
            out.append(check)
            continue
        docs[place.scope] = doc
        out.append(_hooks(place, doc, home, wiring))
    root = os.path.realpath(project)
    state, check = _read(f"{HOST} MCP server (user, local)", claude_json, home)
    entry: dict = {}
    if state is None:
        out.append(check)
    else:
        projects = state.get("projects")
        found = projects.get(root) if isinstance(projects, dict) else None
        entry = found if isinstance(found, dict) else {}
        out.append(_server(f"{HOST} MCP server (user)", claude_json, state, user.install, home, wiring))
        out.append(_server(f"{HOST} MCP server (local)", f"{claude_json} projects[{shown(root, home)}]", entry,
                           proj.install, home, wiring))
    project_mcp, check = _read(f"{HOST} MCP server (project)", mcp_json, home)
    if project_mcp is None:
        out.append(check)
    else:
        check = _server(f"{HOST} MCP server (project)", mcp_json, project_mcp, proj.install, home, wiring)
        if SERVER_NAME in _servers(project_mcp) and check.ok:
            check = _enabled(check, [docs.get("project", {}), docs.get("local", {}), entry], proj.install)
        out.append(check)
    if not wiring.hooks:
        fix = f"run `{proj.install}` (this project) or `{user.install}` (every project)"
        what = "the MCP server alone is wired: interactive sessions are not gated" if wiring.servers else \
            "no settings file wires the phlegyas hooks or MCP server: Claude Code does not ask phlegyas"
        out.append(problem(f"{HOST} wiring", what, fix) if not wiring.servers else warning(f"{HOST} wiring", what, fix))
    return out


def _read(name: str, path: str, home: str) -> tuple[dict | None, Check]:
    try:
        doc, _text = read_json(path)
    except InstallError as exc:
        return None, problem(name, f"{exc}".replace("; fix it and run again, nothing was changed", ""),
                             f"fix {shown(path, home)}: Claude Code cannot read it either")
    if doc is None:
        return None, ok(name, f"no {shown(path, home)}")
    return doc, ok(name, "")


# -- hooks -----------------------------------------------------------------------------------------

def _person_wait(environ: Mapping[str, str], project: str) -> float:
    """APPROVAL_WAIT_SECONDS as the settings for ``project`` say (0 when they do not load: the settings
    check reports that)."""
    try:
        return Settings.load(environ, cwd=os.path.abspath(project)).person_wait_seconds
    except ConfigError:
        return 0.0


def _hooks(place: Place, doc: dict, home: str, wiring: Wiring) -> Check:
    name = f"{HOST} hooks ({place.scope} settings)"
    where = shown(place.path, home)
    found: dict[str, list[tuple[str, dict]]] = {}
    hooks = doc.get("hooks")
    for event in HOOK_EVENTS:
        groups = hooks.get(event) if isinstance(hooks, dict) else None
        for group in groups if isinstance(groups, list) else ():
            entries = group.get("hooks") if isinstance(group, dict) else None
            for entry in entries if isinstance(entries, list) else ():
                if is_phlegyas_hook(entry):
                    found.setdefault(event, []).append((str(group.get("matcher", "*")), entry))
    if not found:
        return ok(name, f"{where}: no phlegyas hook")
    wiring.hooks += 1
    missing = [e for e in HOOK_EVENTS if e not in found]
    if missing:
        return problem(name, f"{where} wires {', '.join(found)} but not {', '.join(missing)}",
                       f"run `{place.install}`")
    entries = [entry for pairs in found.values() for _matcher, entry in pairs]
    command = entries[0]["command"]
    runs = _command_problem(command, HOOK_MODULE, home)
    if runs is not None:
        return problem(name, f"{where}: {runs}", f"run `{place.install}` (it writes this interpreter's path)")
    narrow = sorted({m for pairs in found.values() for m, _e in pairs if m not in ("*", "")})
    if narrow:
        return warning(name, f"{where}: the phlegyas hooks only see tools matching {', '.join(narrow)}",
                       f"run `{place.install}` (it wires them for every tool, matcher *)")
    if any(e.get("onFailure") != "block" for e in entries):
        return warning(name, f"{where}: a phlegyas hook without \"onFailure\": \"block\": if it crashes or "
                             "times out, Claude Code runs the tool anyway", f"run `{place.install}`")
    short = [e.get("timeout") for _m, e in found.get("PermissionRequest", ())
             if isinstance(e.get("timeout"), (int, float)) and e["timeout"] < permission_request_timeout(wiring.wait_seconds)]
    if short:
        return problem(name, f"{where}: the PermissionRequest hook times out after {short[0]:g} s, but a person may "
                             f"be given {wiring.wait_seconds:g} s (APPROVAL_WAIT_SECONDS or SLACK_APPROVAL_TIMEOUT_SECONDS): "
                             "Claude Code would kill it "
                             "and the person's answer would be lost", f"run `{place.install}` (it writes "
                                                                      f"{permission_request_timeout(wiring.wait_seconds)} s)")
    if _hook_module(command) == OLD_HOOK_MODULE:
        return warning(name, f"{where}: written by an older phlegyas (module phlegyas.hook)",
                       f"run `{place.install}` (it rewrites the entry)")
    other = _other_install(command)
    if other:
        return warning(name, f"{where}: {' and '.join(found)} run {other}, another install than this "
                             f"phlegyas ({sys.executable})", f"run `{place.install}` to wire this one, or run "
                                                             f"`{other} -m phlegyas doctor`")
    return ok(name, f"{where}: {' and '.join(found)} → {_program(command)}")


# -- the MCP server --------------------------------------------------------------------------------

def _servers(doc: dict) -> dict:
    servers = doc.get("mcpServers")
    return servers if isinstance(servers, dict) else {}


def _server(name: str, where_path: str, doc: dict, install: str, home: str, wiring: Wiring) -> Check:
    where = shown(where_path, home)
    entry = _servers(doc).get(SERVER_NAME)
    if entry is None:
        return ok(name, f"{where}: no {SERVER_NAME} server")
    wiring.servers += 1
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return problem(name, f"{where}: mcpServers.{SERVER_NAME} has no command", f"run `{install}`")
    args = entry.get("args") if isinstance(entry.get("args"), list) else []
    command = shlex.join([entry["command"], *map(str, args)])
    runs = _command_problem(command, MCP_MODULE, home, needs=("mcp",))
    if runs is not None:
        fix = MCP_EXTRA if "mcp SDK" in runs else f"run `{install}`"
        if "mcp SDK" in runs and _other_install(command):
            fix = f"{_program(command)} -m {MCP_EXTRA}"
        return problem(name, f"{where}: {runs}", fix)
    return ok(name, f"{where}: {SERVER_NAME} → {_program(command)}")


def _enabled(check: Check, settings: list[dict], install: str) -> Check:
    """A project ``.mcp.json`` server starts only when a settings file enables it."""
    for doc in settings:
        disabled = doc.get("disabledMcpjsonServers")
        if isinstance(disabled, list) and SERVER_NAME in disabled:
            return warning(check.name, f"{check.detail}, but disabledMcpjsonServers names it: Claude Code "
                                       "does not start it", f"remove {SERVER_NAME} from disabledMcpjsonServers")
    for doc in settings:
        enabled = doc.get("enabledMcpjsonServers")
        if doc.get("enableAllProjectMcpServers") is True or (isinstance(enabled, list) and SERVER_NAME in enabled):
            return check
    return warning(check.name, f"{check.detail}, but no settings file enables it: interactive Claude Code asks "
                               "before starting it (claude -p starts it anyway)", f"run `{install}`")


# -- what a command runs ---------------------------------------------------------------------------

def _program(command: str) -> str:
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    return words[0] if words else command


def _same_python(a: str, b: str) -> bool:
    """One virtual environment's interpreters (``bin/python``, ``bin/python3``) are one install."""
    return (os.path.dirname(os.path.abspath(a)) == os.path.dirname(os.path.abspath(b))
            and os.path.realpath(a) == os.path.realpath(b))


def _other_install(command: str) -> str | None:
    """The interpreter a command names when it is not this one (None for this one or a script)."""
    program = _program(command)
    if os.path.basename(program).startswith("python") and not _same_python(program, sys.executable):
        return program
    return None


def _command_problem(command: str, module: str, home: str, needs: tuple[str, ...] = ()) -> str | None:
    """What stops ``command`` from running phlegyas's ``module`` (and importing ``needs``), or None."""
    program = _program(command)
    path = program if os.path.isabs(program) else _which(program)
    if path is None or not os.access(path, os.X_OK):
        return f"it runs {shown(program, home)}, which does not exist (was that environment removed?)"
    if not os.path.basename(program).startswith("python"):
        return None  # a console script (phlegyas-hook, phlegyas hook): it exists, it is phlegyas's own
    wanted = (module, *needs)
    if _same_python(path, sys.executable):
        have = {name: _importable(name) for name in wanted}
    else:
        have = _probe(path, wanted)
        if have is None:
            return f"{shown(path, home)} does not start (it was asked which modules it has)"
    if not have[module]:
        return f"{shown(path, home)} cannot import {module}: phlegyas is not installed there"
    missing = [name for name in needs if not have[name]]
    if missing:
        return f"{shown(path, home)} has no {', '.join(missing)} SDK: the server cannot start"
    return None


def _importable(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except (ImportError, ValueError):  # a parent package that is missing or broken
        return False


PROBE = ("import sys\nfrom importlib.util import find_spec\n"
         "def has(n):\n    try:\n        return find_spec(n) is not None\n    except (ImportError, ValueError):\n"
         "        return False\nprint(' '.join(str(int(has(n))) for n in sys.argv[1:]))\n")


def _probe(python: str, modules: tuple[str, ...]) -> dict[str, bool] | None:
    """Ask another interpreter which of ``modules`` it can import (without importing them)."""
    try:
        proc = subprocess.run([python, "-P", "-c", PROBE, *modules], capture_output=True, text=True,
                              timeout=PROBE_TIMEOUT_SECONDS, stdin=subprocess.DEVNULL, cwd="/")
    except (OSError, subprocess.SubprocessError):
        return None
    flags = proc.stdout.split()
    if proc.returncode != 0 or len(flags) != len(modules):
        return None
    return {name: flag == "1" for name, flag in zip(modules, flags)}


def _which(program: str) -> str | None:
    return shutil.which(program)


def _hook_module(command: str) -> str | None:
    """The module a ``python -m X`` or ``python -c 'from X import …'`` hook command runs."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    for flag, value in zip(words, words[1:]):
        if flag == "-m":
            return value
        if flag == "-c" and value.startswith("from "):
            return value.split()[1]
    return None
