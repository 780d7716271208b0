"""The steps of the pipeline that are views over the call's ``Analysis``, one small class each.

Each checker has one method, ``check(ctx) -> Decision | None`` (``engine.Checker``). The rule steps are
``phlegyas.policy.checker.RuleChecker``; ``phlegyas.runtime.default_checkers`` puts them all in the
order of the design (DESIGN.md, "The pipeline").
"""
from __future__ import annotations

from typing import Final

from phlegyas.core.engine import Context, strictest
from phlegyas.core.model import Decision, Finding, Verdict

PROTECTED_PREFIX: Final = "protected."
_ALLOW: Final = Verdict.ALLOW  # bound once: looking a member up on the enum class is slow


def _own_severity(finding: Finding) -> Verdict:
    return finding.severity


def _severity(ctx: Context):
    override = getattr(ctx.policy, "severity", None)
    return override if override is not None else _own_severity


def _describe(findings: list[Finding]) -> str:
    return "; ".join(f"{f.message} [{f.id}]" for f in findings[:3])


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
