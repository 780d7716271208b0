"""The engine on its own: validation, checker order, fail-closed errors, modes and the final ask."""
from __future__ import annotations

import pytest

from phlegyas.core.analysis import Analysis
from phlegyas.core.checkers import ModeChecker, ProtectedPathChecker, Tier1Checker, Tier2Checker
from phlegyas.core.engine import Gate, strictest
from phlegyas.core.model import Decision, Finding, InvalidCall, ToolCall, Verdict


class Fixed:
    """A checker that always answers the same (or None)."""

    def __init__(self, verdict: Verdict | None, tier: str = "rules"):
        self.verdict, self.tier, self.calls = verdict, tier, 0

    def check(self, ctx):
        self.calls += 1
        return None if self.verdict is None else Decision(self.verdict, self.tier, f"fixed {self.verdict}")


class Boom:
    def check(self, ctx):
        raise RuntimeError("kaput")


class Policy:
    default_mode = None
    allow = ask = deny = ()

    def __init__(self, overrides=None):
        self.overrides = overrides or {}

    def severity(self, finding):
        return self.overrides.get(finding.id, finding.severity)


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def bash(cmd: str, mode: str | None = None) -> ToolCall:
    return ToolCall("Bash", {"command": cmd}, cwd="/p", mode=mode)


def analyzer_returning(analysis: Analysis):
    return lambda call, env, script=None: analysis


@pytest.mark.parametrize("call, message", [
    (ToolCall("", {}), "tool_name"),
    (ToolCall("Bash", "ls"), "tool_input must be an object"),  # type: ignore[arg-type]
    (ToolCall("Bash", {}), "string 'command'"),
    (ToolCall("Bash", {"command": 42}), "string 'command'"),
    (ToolCall("Bash", {"command": "echo " + "a" * (1 << 20)}), "longer than"),
    (ToolCall("Bash", {"command": "ls\x00rm -rf /"}), "NUL"),
    (ToolCall("Bash", {"command": "ls"}, mode="yolo"), "unknown permission mode"),
    (ToolCall("Read", {"a": _nested(100)}), "nested deeper"),
])
def test_invalid_calls_are_denied_with_a_clear_message(call, message):
    allow_all = Fixed(Verdict.ALLOW)
    decision = Gate(Policy(), [allow_all]).decide(call)
    assert decision.verdict is Verdict.DENY
    assert decision.tier == "error"
    assert message in decision.reason
    assert allow_all.calls == 0


def test_first_checker_with_an_opinion_wins_and_later_ones_do_not_run():
    first, second, third = Fixed(None), Fixed(Verdict.DENY), Fixed(Verdict.ALLOW)
    decision = Gate(Policy(), [first, second, third]).decide(bash("ls"))
    assert decision.verdict is Verdict.DENY
    assert (first.calls, second.calls, third.calls) == (1, 1, 0)


def test_no_opinion_falls_back_to_ask():
    decision = Gate(Policy(), [Fixed(None)]).decide(bash("ls"))
    assert (decision.verdict, decision.tier) == (Verdict.ASK, "fallback")


def test_a_checker_that_raises_denies_with_the_error_in_the_reason():
    decision = Gate(Policy(), [Fixed(None), Boom(), Fixed(Verdict.ALLOW)]).decide(bash("ls"))
    assert (decision.verdict, decision.tier) == (Verdict.DENY, "error")
    assert "Boom" in decision.reason and "kaput" in decision.reason


def test_an_analyzer_that_raises_denies():
    def broken(call, env, script=None):
        raise ValueError("cannot analyse")

    decision = Gate(Policy(), [Tier1Checker()], analyzer=broken).decide(bash("ls"))
    assert decision.verdict is Verdict.DENY and "cannot analyse" in decision.reason


@pytest.mark.parametrize("mode, interactive, expected", [
    ("default", True, Verdict.ASK),
    ("dontAsk", True, Verdict.DENY),
    ("default", False, Verdict.DENY),
    ("auto", False, Verdict.DENY),
])
def test_a_final_ask_becomes_deny_when_no_one_can_answer(mode, interactive, expected):
    decision = Gate(Policy(), [Fixed(Verdict.ASK)], interactive=interactive).decide(bash("ls", mode))
    assert decision.verdict is expected


def test_allow_and_deny_are_not_changed_by_dont_ask():
    for verdict in (Verdict.ALLOW, Verdict.DENY):
        assert Gate(Policy(), [Fixed(verdict)]).decide(bash("ls", "dontAsk")).verdict is verdict


def test_mode_comes_from_the_call_then_the_policy_then_the_default():
    policy = Policy()
    gate = Gate(policy, [], default_mode="acceptEdits")
    assert gate.mode_for(bash("ls")) == "acceptEdits"
    policy.default_mode = "plan"
    assert gate.mode_for(bash("ls")) == "plan"
    assert gate.mode_for(bash("ls", "dontAsk")) == "dontAsk"


class Slow(Fixed):
    def check(self, ctx):
        import time

        time.sleep(0.005)
        return super().check(ctx)


def test_elapsed_time_is_measured():
    assert Gate(Policy(), [Slow(Verdict.ALLOW)]).decide(bash("ls")).elapsed_us >= 5000


def test_the_analysis_is_computed_once_per_call():
    calls = []

    def counting(call, env, script=None):
        calls.append(call)
        return Analysis(readonly=True, safe="read-only")

    gate = Gate(Policy(), [Tier1Checker(), ProtectedPathChecker(), ModeChecker(), Tier2Checker()], analyzer=counting)
    assert gate.decide(bash("ls", "plan")).verdict is Verdict.ALLOW
    assert len(calls) == 1


DANGER = Finding("delete.catastrophic", Verdict.DENY, "rm -rf /", "deletes /")
NEEDS_HUMAN = Finding("git.reset_hard", Verdict.ASK, "git reset --hard", "discards work")
PROTECTED = Finding("protected.write", Verdict.ASK, "~/.bashrc", "writes a shell start-up file")
PIPELINE = [Tier1Checker(), ProtectedPathChecker(), ModeChecker(), Tier2Checker()]


@pytest.mark.parametrize("analysis, mode, verdict, tier", [
    (Analysis(findings=[DANGER], safe=None), "default", Verdict.DENY, "tier1_dangerous"),
    (Analysis(findings=[DANGER]), "bypassPermissions", Verdict.DENY, "tier1_dangerous"),
    (Analysis(findings=[NEEDS_HUMAN]), "default", Verdict.ASK, "tier1_dangerous"),
    (Analysis(findings=[NEEDS_HUMAN, DANGER]), "default", Verdict.DENY, "tier1_dangerous"),
    (Analysis(findings=[PROTECTED]), "bypassPermissions", Verdict.ASK, "protected_path"),
    (Analysis(findings=[PROTECTED]), "acceptEdits", Verdict.ASK, "protected_path"),
    (Analysis(readonly=False), "plan", Verdict.DENY, "mode"),
    (Analysis(readonly=True, safe="read-only"), "plan", Verdict.ALLOW, "tier2_safe"),
    (Analysis(readonly=True), "plan", Verdict.ASK, "fallback"),
    (Analysis(readonly=False), "bypassPermissions", Verdict.ALLOW, "mode"),
    (Analysis(readonly=False, understood=False), "bypassPermissions", Verdict.ASK, "mode"),
    (Analysis(safe="test/build"), "default", Verdict.ALLOW, "tier2_safe"),
    (Analysis(safe="test/build", understood=False), "default", Verdict.ASK, "fallback"),
    (Analysis(edit_in_project=True), "default", Verdict.ASK, "fallback"),
    (Analysis(edit_in_project=True), "acceptEdits", Verdict.ALLOW, "mode"),
    (Analysis(edit_in_project=True), "dontAsk", Verdict.DENY, "fallback"),
    (Analysis(), "auto", Verdict.ASK, "fallback"),
])
def test_modes_and_tiers_over_the_analysis(analysis, mode, verdict, tier):
    decision = Gate(Policy(), PIPELINE, analyzer=analyzer_returning(analysis)).decide(bash("x", mode))
    assert (decision.verdict, decision.tier) == (verdict, tier)


def test_policy_can_move_a_finding_class():
    analysis = Analysis(findings=[NEEDS_HUMAN], safe=None)
    gate = Gate(Policy({"git.reset_hard": Verdict.DENY}), PIPELINE, analyzer=analyzer_returning(analysis))
    assert gate.decide(bash("git reset --hard")).verdict is Verdict.DENY
    gate = Gate(Policy({"git.reset_hard": Verdict.ALLOW}), PIPELINE, analyzer=analyzer_returning(analysis))
    assert gate.decide(bash("git reset --hard")).tier == "fallback"


def test_strictest_picks_the_highest_severity_and_its_findings():
    top, worst = strictest([NEEDS_HUMAN, DANGER, PROTECTED], lambda f: f.severity)
    assert top is Verdict.DENY and worst == [DANGER]
    assert strictest([], lambda f: f.severity) == (Verdict.ALLOW, [])


@pytest.mark.parametrize("data, message", [
    ("ls", "JSON object"),
    ({"tool_input": {}}, "tool_name"),
    ({"tool_name": 3, "tool_input": {}}, "tool_name"),
    ({"tool_name": "Bash", "tool_input": []}, "tool_input"),
    ({"tool_name": "Bash", "tool_input": {}, "cwd": 5}, "cwd"),
    ({"tool_name": "Bash", "tool_input": {}, "permission_mode": ["plan"]}, "permission_mode"),
])
def test_tool_call_from_json_rejects_bad_shapes(data, message):
    with pytest.raises(InvalidCall, match=message):
        ToolCall.from_json(data)


def test_tool_call_from_json_reads_hook_events_and_shorthand():
    call = ToolCall.from_json({"session_id": "s", "cwd": "/p", "permission_mode": "plan", "hook_event_name": "PreToolUse",
                               "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "toolu_1"})
    assert (call.tool_name, call.command, call.cwd, call.mode, call.tool_use_id) == ("Bash", "ls", "/p", "plan", "toolu_1")
    assert ToolCall.from_json({"id": 3, "command": "pwd"}).command == "pwd"
    assert ToolCall.from_json({"tool_name": "permissions", "input": {"a": 1}}, input_key="input").tool_input == {"a": 1}


class Peek:
    """A checker that looks at the parse and the analysis, in the order given, and has no opinion."""

    def __init__(self, order: tuple[str, ...]):
        self.order, self.seen = order, {}

    def check(self, ctx):
        for name in self.order:
            self.seen[name] = getattr(ctx, name)
        return None


@pytest.mark.parametrize("order", [("analysis", "script"), ("script", "analysis")])
def test_the_command_is_parsed_once_per_call(order):
    from phlegyas.analysis.dispatch import analyze
    from phlegyas.analysis.shell.parse import parse

    peek = Peek(order)
    Gate(Policy(), [peek], analyzer=analyze, parser=parse).decide(bash("find . -name '*.py' | xargs grep -l TODO"))
    assert peek.seen["analysis"].script is peek.seen["script"]


def test_the_analysis_leaves_the_shared_parse_as_written():
    from phlegyas.analysis.dispatch import analyze
    from phlegyas.core.analysis import AnalysisEnv

    env = AnalysisEnv(cwd="/p", home="/home/u", project_root="/p")
    analysis = analyze(bash("x=/etc; rm -rf $x"), env)
    assert any("/etc" in f.message for f in analysis.findings)  # the expansion did substitute $x …
    word = analysis.script.commands[1].words[2]
    assert (word.text, word.dynamic) == ("$x", True)  # … into a copy: other checkers see the line as written


@pytest.mark.parametrize("cls", [Decision, Finding])
def test_hand_written_inits_take_exactly_the_fields(cls):
    import dataclasses
    import inspect

    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields]
    values = {f.name: object() for f in fields}
    built = cls(**values)
    assert all(getattr(built, name) is value for name, value in values.items())
