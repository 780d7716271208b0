"""``phlegyas doctor``'s look at the configuration: the settings, the policy files that apply to a
project (with their rule counts) and the user's safe-patterns file. A file that does not parse is a
problem named at its file and line: the gate denies every call while its policy cannot load."""
from __future__ import annotations

import os
from typing import Mapping

from phlegyas.analysis.tier2 import SafePatternError, SafePatternStore
from phlegyas.core.health import Check, ok, problem, shown
from phlegyas.policy.files import USER_POLICY, Policy, PolicyError, load_policy
from phlegyas.policy.settings import ConfigError, Settings

RULE_KINDS = ("allow", "ask", "deny")


def load_settings(environ: Mapping[str, str], cwd: str) -> tuple[Settings | None, Check]:
    """The settings of ``environ`` for a project, and the check saying whether they load."""
    try:
        settings = Settings.load(environ, cwd=cwd)
    except ConfigError as exc:
        return None, problem("settings", f"{exc}: every hook call is blocked until it is fixed",
                             "fix that environment variable (or the file and line named)")
    where = shown(settings.data_dir, settings.home)
    return settings, ok("settings", f"they load; data directory {where}")


def policy_checks(settings: Settings, environ: Mapping[str, str], cwd: str) -> list[Check]:
    """One check per policy file that applies in ``cwd`` (with its rule counts), or the broken one."""
    home = settings.home
    try:
        policy = load_policy(cwd, home=home, data_dir=settings.data_dir)
    except PolicyError as exc:
        return [_broken(exc, home)]
    checks = []
    if policy.settings:
        try:
            Settings.load(environ, cwd=cwd, overrides=policy.settings)
        except ConfigError as exc:
            checks.append(problem("policy [settings]", f"{exc}: every call is denied until it is fixed",
                                  "fix that value in the policy file's [settings] table"))
    for path in policy.sources:
        checks.append(ok(f"policy file {shown(path, home)}", _counts(policy, path)))
    mode = policy.default_mode or settings.mode
    root = shown(policy.project_root or cwd, home)
    if policy.sources:
        checks.append(ok("policy", f"{len(policy.sources)} file(s) apply in {root}; default mode {mode}"))
    else:
        user = shown(os.path.join(settings.data_dir, USER_POLICY), home)
        checks.append(ok("policy", f"no policy file applies in {root}: the built-in tiers decide alone "
                                   f"(rules go in {user} or the project's .phlegyas.toml); mode {mode}"))
    checks.append(_safe_patterns(settings))
    return checks


def _broken(exc: PolicyError, home: str) -> Check:
    where = shown(exc.path, home)
    fix = f"fix line {exc.line} of {where}: {exc.message}" if exc.line else f"fix {where}: {exc.message}"
    at = f" at line {exc.line}" if exc.line else ""
    return problem(f"policy file {where}", f"does not load{at}: {exc.message}; until it does, every call is denied",
                   fix)


def _counts(policy: Policy, path: str) -> str:
    def from_file(rule) -> bool:
        source = rule.source or ""
        return source == path or source.startswith(path + ":")

    counts = {kind: sum(1 for rule in getattr(policy, kind) if from_file(rule)) for kind in RULE_KINDS}
    return "parses; " + ", ".join(f"{n} {kind}" for kind, n in counts.items()) + " rules"


def _safe_patterns(settings: Settings) -> Check:
    path = settings.safe_patterns_file
    name = f"safe patterns {shown(path, settings.home)}"
    if not os.path.exists(path):
        return ok("safe patterns", f"no {shown(path, settings.home)} (optional)")
    try:
        store = SafePatternStore(path)
    except SafePatternError as exc:
        return problem(name, f"{exc}; until it loads, every call is denied",
                       f"fix {shown(path, settings.home)} (or move it away)")
    return ok(name, f"parses; {len(store.safe_bash)} command patterns, {len(store.safe_tools)} tools")
