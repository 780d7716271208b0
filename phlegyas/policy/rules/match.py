"""Matching rules against a call: ``find_match`` (the first rule that matches) and ``rule_matches``,
over one per-call view; a ``Rule`` built by hand gets its matcher compiled on first use.
"""
from __future__ import annotations

from typing import Iterable

from phlegyas.core.model import ToolCall
from phlegyas.policy.rules.rule import Rule, RuleSyntaxError
from phlegyas.policy.rules.syntax import check_tool_name, compile_matcher
from phlegyas.policy.rules.view import CallView, Matcher


def _matcher_of(rule: Rule) -> Matcher:
    matcher = rule._matcher
    if matcher is None:  # a Rule built by hand: compile it once and keep it
        def fail(why: str) -> RuleSyntaxError:
            return RuleSyntaxError(f"rule {rule.text!r}: {why}")

        check_tool_name(rule.tool, fail)
        matcher = compile_matcher(rule.tool, rule.specifier, fail)
        object.__setattr__(rule, "_matcher", matcher)
    return matcher


def rule_matches(rule: Rule, call: ToolCall, script, *, home: str, each: bool) -> bool:
    """Does ``rule`` match ``call``? ``each=True`` for allow rules, False for deny and ask rules."""
    return _matches(rule, CallView(call, script, home), each)


def find_match(rules: Iterable[Rule], call: ToolCall, script, *, home: str, each: bool) -> Rule | None:
    """The first rule, in order, that matches ``call``; the call is parsed and resolved only once."""
    view = CallView(call, script, home)
    for rule in rules:
        if _matches(rule, view, each):
            return rule
    return None


def _matches(rule: Rule, view: CallView, each: bool) -> bool:
    matcher = _matcher_of(rule)
    if not matcher.applies_to(rule, view.call.tool_name):
        return False
    return matcher.matches(rule, view, each)
