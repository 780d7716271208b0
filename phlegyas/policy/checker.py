"""Steps 1, 5 and 6 of the pipeline: the policy's deny, ask and allow rules (Claude Code syntax)."""
from __future__ import annotations

from phlegyas.core.engine import Context
from phlegyas.core.model import Decision, Verdict
from phlegyas.policy.rules import find_match


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
