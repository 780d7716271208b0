"""The steps of the pipeline, one small class each (DESIGN.md, "The pipeline").

Each checker has one method, ``check(ctx) -> Decision | None``. ``default_checkers`` puts them in the
order of the design; later tiers are passed in ``extra`` and run after Tier 2.
"""
from __future__ import annotations

from .engine import Checker, Context, strictest
from .model import Decision, Finding, Verdict
from .rules import find_match

PROTECTED_PREFIX = "protected."
_ALLOW = Verdict.ALLOW  # bound once: looking a member up on the enum class is slow


def _own_severity(finding: Finding) -> Verdict:
    return finding.severity


def _severity(ctx: Context):
    override = getattr(ctx.policy, "severity", None)
    return override if override is not None else _own_severity


def _describe(findings: list[Finding]) -> str:
    return "; ".join(f"{f.message} [{f.id}]" for f in findings[:3])


class RuleChecker:
    """Steps 1, 5 and 6: the policy's deny, ask and allow rules (Claude Code syntax)."""

    def __init__(self, kind: str):
        assert kind in ("deny", "ask", "allow")
        self.kind = kind
        self.verdict = {"deny": Verdict.DENY, "ask": Verdict.ASK, "allow": Verdict.ALLOW}[kind]

    def check(self, ctx: Context) -> Decision | None:
        rules = getattr(ctx.policy, self.kind, ())
        if not rules:
            return None
        rule = find_match(rules, ctx.call, ctx.script, home=ctx.env.home, each=self.kind == "allow")
        if rule is None:
            return None
        where = f" ({rule.source})" if getattr(rule, "source", None) else ""
        return Decision(self.verdict, "rules", f"{self.kind} rule {rule.text}{where}", rule=rule.text)


class Tier1Checker:
    """Step 2: built-in dangerous findings; each class denies or asks as the policy says."""

    def check(self, ctx: Context) -> Decision | None:
        if not ctx.analysis.findings:
            return None
        findings = [f for f in ctx.analysis.findings if not f.id.startswith(PROTECTED_PREFIX)]
        top, worst = strictest(findings, _severity(ctx))
        if top is _ALLOW:
            return None
        return Decision(top, "tier1_dangerous", _describe(worst), findings=tuple(findings))


class ProtectedPathChecker:
    """Step 3: writes to protected paths (.git/, .claude/, shell rc files, ~/.ssh, /etc …) ask, even in bypass."""

    def check(self, ctx: Context) -> Decision | None:
        if not ctx.analysis.findings:
            return None
        findings = [f for f in ctx.analysis.findings if f.id.startswith(PROTECTED_PREFIX)]
        top, worst = strictest(findings, _severity(ctx))
        if top is _ALLOW:
            return None
        return Decision(top, "protected_path", _describe(worst), findings=tuple(findings))


class ModeChecker:
    """Step 4: ``plan`` denies what is not read-only; ``bypassPermissions`` allows the rest, except what
    the gate does not understand (a parse error, a dynamic program, code it cannot read), which is never
    allowed, in any mode: it asks."""

    def check(self, ctx: Context) -> Decision | None:
        if ctx.mode == "plan" and not ctx.analysis.readonly:
            return Decision(Verdict.DENY, "mode", "plan mode allows only read-only calls")
        if ctx.mode == "bypassPermissions":
            analysis = ctx.analysis
            if not analysis.understood:
                why = "; ".join(getattr(analysis, "problems", None) or ()) or "not fully understood"
                return Decision(Verdict.ASK, "mode", f"bypassPermissions, but the call is not understood: {why}")
            return Decision(Verdict.ALLOW, "mode", "bypassPermissions: no deny rule, Tier 1 finding or protected path")
        return None


class Tier2Checker:
    """Step 7: calls the analysis found safe; ``acceptEdits`` adds edits and fs commands in the project."""

    def check(self, ctx: Context) -> Decision | None:
        analysis = ctx.analysis
        if not analysis.understood:
            return None
        if analysis.safe:
            return Decision(_ALLOW, "tier2_safe", f"safe: {analysis.safe}")
        if ctx.mode == "acceptEdits" and analysis.edit_in_project:
            return Decision(Verdict.ALLOW, "mode", "acceptEdits: file edit inside the project")
        return None


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
