"""Wiring at the entry points: settings → policy → gate, once per working directory.

The CLI, the hook and the MCP server build one ``Runtime`` from the environment and ask it for the
gate of a call's cwd. A policy that cannot load yields a gate that denies everything and says why, so
a broken file never means running without a policy.
"""
from __future__ import annotations

import gc
import os
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from phlegyas.ai.tier3 import tier3_checker
from phlegyas.analysis.dispatch import analyze
from phlegyas.analysis.shell.parse import parse
from phlegyas.analysis.tier2 import DEFAULT_SAFE_WRITE_DIRS, SafePatternStore
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.checkers import ModeChecker, ProtectedPathChecker, Tier1Checker, Tier2Checker
from phlegyas.core.engine import Checker, Context, Gate
from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.policy.checker import RuleChecker
from phlegyas.policy.files import PolicyError, empty_policy, load_policy
from phlegyas.policy.settings import ConfigError, Settings
from phlegyas.trust.checker import TrustedScriptChecker
from phlegyas.trust.store import TrustStore


class BrokenPolicy:
    """The only checker of a gate whose policy or settings failed to load: deny, naming the error."""

    def __init__(self, error: Exception):
        self.error = error

    def check(self, ctx: Context) -> Decision:
        return Decision(Verdict.DENY, "error", f"policy error: {self.error}")


@dataclass
class Runtime:
    settings: object  # policy.settings.Settings
    cwd: str
    environ: Mapping[str, str] = field(default_factory=dict)
    policy_files: tuple[str, ...] = ()
    interactive: bool = True
    extra_checkers: tuple = ()
    _gates: dict[str, Gate] = field(default_factory=dict, repr=False)
    _safe_patterns: object | None = field(default=None, repr=False)

    def gate(self, cwd: str | None = None) -> Gate:
        """The gate for calls made in ``cwd`` (the project's policy depends on where the call runs)."""
        key = os.path.abspath(cwd or self.cwd)
        gate = self._gates.get(key)
        if gate is None:
            gate = self._gates[key] = self._build(key)
        return gate

    def decide(self, call: ToolCall) -> Decision:
        return self.gate(call.cwd).decide(call)

    def settings_for(self, cwd: str | None = None):
        """The settings that apply in ``cwd``: the environment's, over the policies' ``[settings]`` and the
        user policy's ``[slack]`` (the environment's alone when the policy does not load: its gate denies)."""
        key = os.path.abspath(cwd or self.cwd)
        overrides = getattr(self.gate(key).policy, "settings", None)
        if not overrides:
            return self.settings
        try:
            return Settings.load(self.environ, cwd=key, overrides=overrides)
        except ConfigError:
            return self.settings

    def _build(self, cwd: str) -> Gate:
        settings = self.settings
        try:
            policy = load_policy(cwd, home=settings.home, data_dir=settings.data_dir, files=self.policy_files)
            if policy.settings:
                settings = Settings.load(self.environ, cwd=cwd, overrides=policy.settings)
            patterns = self._user_patterns()
        except (PolicyError, ConfigError, OSError, ValueError) as exc:
            return Gate(empty_policy(), [BrokenPolicy(exc)], interactive=self.interactive)
        root = policy.project_root or cwd
        # the seed's safe places plus the policy's; tier2_safe resolves relative ones against the root
        safe_dirs = (*DEFAULT_SAFE_WRITE_DIRS, *policy.safe_write_dirs)
        # the gate's own data directory is a secret place wherever PHLEGYAS_HOME puts it
        secret_places = (*settings.sensitive_paths, settings.data_dir.rstrip("/") + "/")
        # … and, with the files that decide what is trusted, a place no agent may change (gate.self_approval)
        gate_state = (settings.data_dir.rstrip("/") + "/", settings.audit_log_file, settings.trust_store,
                      settings.safe_patterns_file)

        envs: dict[str, AnalysisEnv] = {}  # AnalysisEnv is frozen: one per working directory is enough

        def env(call: ToolCall) -> AnalysisEnv:
            where = call.cwd or cwd
            got = envs.get(where)
            if got is None:
                if len(envs) >= 256:
                    envs.clear()
                got = envs[where] = AnalysisEnv(cwd=where, home=settings.home, project_root=root,
                                                safe_write_dirs=safe_dirs, user_patterns=patterns,
                                                sensitive_paths=secret_places, local_ports=settings.local_ports,
                                                gate_state=gate_state)
            return got

        checkers = default_checkers((*tier_checkers(settings, interactive=self.interactive), *self.extra_checkers))
        return Gate(policy, checkers, analyzer=analyze, parser=parse, env=env, interactive=self.interactive,
                    default_mode=settings.mode, escalation=escalation(settings, interactive=self.interactive))

    def _user_patterns(self):
        if self._safe_patterns is None:
            path = getattr(self.settings, "safe_patterns_file", None)
            if path and os.path.exists(path):
                self._safe_patterns = SafePatternStore(path)
        return self._safe_patterns


SLOW_TIERS = frozenset({"tier3_ai", "human"})
"""Tiers a fast decision leaves out (the PreToolUse hook, an explanation): they call a model or wait for a person."""
SLOW_MODULES = frozenset({"phlegyas.ai.tier3", "phlegyas.human.queue"})


def is_slow(checker: object) -> bool:
    """Whether a checker belongs to a slow tier: it says so with a ``tier`` attribute, or it is defined in
    the Tier 3 or human-escalation module."""
    return getattr(checker, "tier", None) in SLOW_TIERS or type(checker).__module__ in SLOW_MODULES


def fast_gate(gate: Gate) -> Gate:
    """The same gate without the slow tiers: no Tier 3 (AI) checker and no escalation to a person."""
    checkers = [c for c in gate.checkers if not is_slow(c)]
    if len(checkers) == len(gate.checkers) and getattr(gate, "escalation", None) is None:
        return gate
    return Gate(gate.policy, checkers, analyzer=gate.analyzer, parser=gate.parser, env=gate.env,
                interactive=gate.interactive, default_mode=gate.default_mode)


def tier_checkers(settings, *, interactive: bool) -> list:
    """The tiers after Tier 2, in order (Tier 2.5 trusted scripts, Tier 3 AI), as the settings enable
    them. Each is built here, at the entry point, with the settings it needs."""
    checkers: list = [TrustedScriptChecker(TrustStore(settings.trust_store))]
    tier3 = tier3_checker(settings)  # None when no key / model is configured
    if tier3 is not None:
        checkers.append(tier3)
    return checkers


def escalation(settings, *, interactive: bool):
    """A person answers every final ask, through the approvals queue (and Slack, when it is configured),
    when APPROVAL_WAIT_SECONDS > 0 or Slack approvals are on."""
    if settings.person_wait_seconds > 0 and interactive:
        from phlegyas.human.queue import human_checker  # only when a person is asked: keeps sqlite3 off start-up

        channels = None
        if settings.slack_configured:
            from phlegyas.human.slack import wait_channels  # and slack_sdk, only when Slack is configured

            channels = wait_channels(settings)
        return human_checker(settings, channels)
    return None


def load_runtime(environ: Mapping[str, str], cwd: str, *, policy_files: Sequence[str] = (),
                 interactive: bool = True, extra_checkers: Sequence = ()) -> Runtime:
    """Build the runtime from the environment; raises settings.ConfigError on a bad setting."""
    settings = Settings.load(environ, cwd=cwd)
    return Runtime(settings=settings, cwd=cwd, environ=dict(environ), policy_files=tuple(policy_files), interactive=interactive,
                   extra_checkers=tuple(extra_checkers))


def default_checkers(extra: list[Checker] | tuple[Checker, ...] = ()) -> list[Checker]:
    """The pipeline in DESIGN.md's order; ``extra`` (Tier 2.5, Tier 3, a human) runs after Tier 2."""
    return [
        RuleChecker("deny"),
        Tier1Checker(),
        ProtectedPathChecker(),
        ModeChecker(),
        RuleChecker("ask"),
        RuleChecker("allow"),
        Tier2Checker(),
        *extra,
    ]


def settle_heap() -> None:
    """For a long-lived process, once its gate is loaded and warmed: move every object alive (program
    tables, option specs, compiled patterns, the parser) into the collector's permanent generation.
    A decision allocates thousands of short-lived objects; without this, every collection of an older
    generation walks those tables again, which cost a quarter of a decision's time
    (``benchmarks/latency.py`` settles the same way)."""
    gc.collect()
    gc.freeze()
