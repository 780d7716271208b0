"""The gate: one pipeline that turns a ToolCall into a Decision.

The engine reads no environment, file or network. Its steps are small checkers with one method,
injected by the caller; the order below is DESIGN.md's pipeline. Later tiers (2.5, 3, human) plug in
as further checkers without changing this module.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable, Final, Protocol

from phlegyas.core.analysis import Analysis, AnalysisEnv
from phlegyas.core.model import MODES, Decision, Finding, InvalidCall, ToolCall, Verdict

MAX_COMMAND_BYTES: Final = 256 * 1024
MAX_INPUT_DEPTH: Final = 64
_ALLOW, _ASK = Verdict.ALLOW, Verdict.ASK  # bound once: looking a member up on the enum class is slow


class Checker(Protocol):
    """One step of the pipeline: a decision, or None to let the next step decide."""

    def check(self, ctx: "Context") -> Decision | None: ...


class Escalation(Protocol):
    """Who answers an ask: called with every call whose pipeline ended in ask (a Tier 1 ask class, a
    protected path, an ask rule, Tier 3, the fallback), e.g. a person through the approvals queue."""

    def escalate(self, ctx: "Context", asked: Decision) -> Decision: ...


class Analyzer(Protocol):
    """What turns a call into its ``Analysis`` (``phlegyas.analysis.dispatch.analyze``); ``script`` is the
    call's command already parsed by the gate's ``parser``, or None."""

    def __call__(self, call: ToolCall, env: AnalysisEnv, script: Any = None) -> Analysis: ...


Parser = Callable[[str], Any]  # a Bash command → its parse (``phlegyas.analysis.shell.parse.parse``)


@dataclass(slots=True, init=False)
class Context:
    """Everything the checkers share for one call; the parse and the analysis are done once, lazily."""

    call: ToolCall
    policy: Any  # policy.Policy (Any, not object: a compiled dataclass resolves field types by name)
    mode: str
    env: AnalysisEnv
    analyzer: Analyzer | None = None
    parser: Parser | None = None
    _analysis: Analysis | None = field(default=None, repr=False)
    _script: Any = field(default=None, repr=False)
    warnings: list[str] = field(default_factory=list)  # what a step could not do (a broken store): audited, shown

    def __init__(self, call: ToolCall, policy: Any, mode: str, env: AnalysisEnv, analyzer: Analyzer | None = None,
                 parser: Parser | None = None, _analysis: Analysis | None = None, _script: Any = None) -> None:
        # hand-written (``init=False``): mypyc compiles it, a dataclass's generated one stays interpreted
        self.call = call
        self.policy = policy
        self.mode = mode
        self.env = env
        self.analyzer = analyzer
        self.parser = parser
        self._analysis = _analysis
        self._script = _script
        self.warnings = []

    @property
    def script(self) -> Any:
        """The parsed Bash command (``phlegyas.analysis.shell.parse.Script``), or None for other tools
        and for a gate without a parser. The analysis's own parse is reused when it has run, so a call
        is parsed once."""
        if self._script is None and self.call.command is not None:
            shared = getattr(self._analysis, "script", None)
            if shared is not None:
                self._script = shared
            elif self.parser is not None:
                self._script = self.parser(self.call.command)
        return self._script

    @property
    def analysis(self) -> Analysis:
        if self._analysis is None:
            if self.analyzer is None:
                self._analysis = Analysis(understood=False)
            else:  # it takes the parse the rules already made, if any
                self._analysis = self.analyzer(self.call, self.env, self._script)
        return self._analysis


def validate(call: ToolCall) -> None:
    """Step 0: shape, types and size of the call. Raises InvalidCall."""
    if not isinstance(call.tool_name, str) or not call.tool_name.strip():
        raise InvalidCall("tool_name must be a non-empty string")
    if not isinstance(call.tool_input, dict):
        raise InvalidCall(f"tool_input must be an object, got {type(call.tool_input).__name__}")
    if call.mode is not None and call.mode not in MODES:
        raise InvalidCall(f"unknown permission mode {call.mode!r} (expected one of {', '.join(MODES)})")
    for value in call.tool_input.values():
        if isinstance(value, (dict, list)):  # only nested containers can be too deep
            _check_depth(call.tool_input, 0)
            break
    if call.tool_name == "Bash":
        command = call.tool_input.get("command")
        if not isinstance(command, str):
            raise InvalidCall("Bash needs a string 'command'")
        # a code point is at most 4 bytes in UTF-8: short commands need no encoding to be measured
        if len(command) > MAX_COMMAND_BYTES // 4 and len(command.encode("utf-8", "surrogatepass")) > MAX_COMMAND_BYTES:
            raise InvalidCall(f"command longer than {MAX_COMMAND_BYTES // 1024} KiB")
        if "\x00" in command:
            raise InvalidCall("command contains a NUL byte")


def _check_depth(value: object, depth: int) -> None:
    if depth > MAX_INPUT_DEPTH:
        raise InvalidCall(f"tool_input nested deeper than {MAX_INPUT_DEPTH} levels")
    if isinstance(value, dict):
        for v in value.values():
            _check_depth(v, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _check_depth(v, depth + 1)


class Gate:
    """``Gate(policy, checkers).decide(call) -> Decision``.

    ``interactive`` says whether a human can answer an ask; when not (headless, CI), and in ``dontAsk``
    mode, a final ask becomes deny. ``escalation``, when given, answers every final ask first (not in
    ``dontAsk``); what it still leaves as ask follows the same rule.
    """

    def __init__(self, policy, checkers: list[Checker], *, analyzer: Analyzer | None = None,
                 parser: Parser | None = None, env: Callable[[ToolCall], AnalysisEnv] | None = None,
                 interactive: bool = True, default_mode: str = "default", escalation: Escalation | None = None):
        self.policy = policy
        self.checkers = list(checkers)
        self.escalation = escalation
        self.analyzer = analyzer
        self.parser = parser
        self.env = env or _default_env
        self.interactive = interactive
        self.default_mode = default_mode

    def mode_for(self, call: ToolCall) -> str:
        return call.mode or getattr(self.policy, "default_mode", None) or self.default_mode

    def decide(self, call: ToolCall) -> Decision:
        return self.explain(call)[0]

    def explain(self, call: ToolCall) -> tuple[Decision, Context | None]:
        """The decision and the context it was made in (its analysis shows per subcommand why)."""
        started = time.perf_counter_ns()
        decision, ctx = self._decide(call)
        d = decision
        elapsed = (time.perf_counter_ns() - started) // 1000
        return Decision(d.verdict, d.tier, d.reason, d.rule, d.findings, d.confidence, elapsed, d.details, d.audit), ctx

    def context(self, call: ToolCall) -> Context:
        return Context(call=call, policy=self.policy, mode=self.mode_for(call), env=self.env(call),
                       analyzer=self.analyzer, parser=self.parser)

    def _decide(self, call: ToolCall) -> tuple[Decision, Context | None]:
        try:
            validate(call)
        except InvalidCall as exc:
            return Decision(Verdict.DENY, "error", f"invalid input: {exc}"), None
        try:
            ctx = self.context(call)
        except Exception as exc:  # noqa: BLE001 - fail closed on anything
            return Decision(Verdict.DENY, "error", f"internal error: {type(exc).__name__}: {exc}"), None
        decision = None
        for checker in self.checkers:
            try:
                decision = checker.check(ctx)
            except Exception as exc:  # noqa: BLE001 - a broken checker must deny, not crash
                name = type(checker).__name__
                why = f"internal error in {name}: {type(exc).__name__}: {exc}"
                return Decision(Verdict.DENY, "error", why), ctx
            if decision is not None:
                break
        if decision is None:
            decision = Decision(_ASK, "fallback", "no rule or tier decided this call")
        if decision.verdict is _ASK and self.escalation is not None and ctx.mode != "dontAsk":
            try:
                decision = self.escalation.escalate(ctx, decision)
            except Exception as exc:  # noqa: BLE001 - fail closed
                why = f"internal error while escalating: {type(exc).__name__}: {exc}"
                return Decision(Verdict.DENY, "error", why), ctx
        if decision.verdict is _ASK and (ctx.mode == "dontAsk" or not self.interactive):
            why = "dontAsk mode" if ctx.mode == "dontAsk" else "no one can answer (headless)"
            decision = _with(decision, verdict=Verdict.DENY, reason=f"{decision.reason}; denied: {why}")
        if ctx.warnings:  # the audit line and the hook say what went wrong on the way
            decision = _with(decision, audit={**(decision.audit or {}), "warnings": list(dict.fromkeys(ctx.warnings))})
        return decision, ctx


def _default_env(call: ToolCall) -> AnalysisEnv:
    return _env_in(call.cwd or "/")


@lru_cache(maxsize=64)
def _env_in(cwd: str) -> AnalysisEnv:
    return AnalysisEnv(cwd=cwd, home="/nonexistent-home", project_root=cwd)


def _with(decision: Decision, **changes) -> Decision:
    return replace(decision, **changes)


def strictest(findings: list[Finding], severity: Callable[[Finding], Verdict]) -> tuple[Verdict, list[Finding]]:
    """The highest effective severity among ``findings`` and the findings that carry it."""
    top = _ALLOW
    worst: list[Finding] = []
    for finding in findings:
        level = severity(finding)
        if level > top:
            top, worst = level, [finding]
        elif level == top and level > _ALLOW:
            worst.append(finding)
    return top, worst
