"""Claude Code's hook dialect (PROTOCOLS.md §1, §2, §8).

- ``PreToolUse`` (PRE): deny / allow → ``permissionDecision`` with the reason; a real ask (an ask rule, a
  Tier 1 ask class, a protected path) → ``"ask"``; undecided (the fallback) → no output, so Claude Code's
  own flow goes on, or ``"ask"`` with ``PHLEGYAS_HOOK_UNDECIDED=ask``.
- ``PermissionRequest`` (PERMISSION): allow → ``{"behavior": "allow", "updatedInput": …}``, deny →
  ``{"behavior": "deny", "message": …}``; any ask → no output, so the user's dialog appears. Since
  2.1.268 it fires in ``-p`` runs too, so headless runs reach the slow tiers through it.
- ``PermissionDenied`` (NOTICE, 2.1.332: the auto-mode classifier denied a call): audited, no answer.
- A warning of the decision (a broken trust store) is shown as ``systemMessage`` and on stderr.
- Input that cannot be decided: PreToolUse → exit 2 with a one-line reason; PermissionRequest → the
  deny decision (exit 2 is not a block there).
"""
from __future__ import annotations

from phlegyas.core.model import Decision, InvalidCall, ToolCall, Verdict
from phlegyas.hosts.hook.dialects.base import (
    NOTICE,
    PERMISSION,
    PRE,
    BadEvent,
    Event,
    HookResult,
    blocked,
    checked_call,
    hook_specific,
    no_decision,
    one_line,
    reason_of,
    warning_of,
)

NAME = "claude"
HOST = "Claude Code"
PRE_TOOL_USE = "PreToolUse"
PERMISSION_REQUEST = "PermissionRequest"
PERMISSION_DENIED = "PermissionDenied"
KINDS = {PRE_TOOL_USE: PRE, PERMISSION_REQUEST: PERMISSION, PERMISSION_DENIED: NOTICE}


def recognizes(data: dict) -> bool:
    return data.get("hook_event_name") in KINDS and "tool_name" in data and "turn_id" not in data


def parse(data: dict) -> Event:
    name = data.get("hook_event_name")
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise BadEvent(f"unknown hook_event_name {repr(name)[:80]}: phlegyas answers "
                       f"{', '.join(KINDS)}", data=data)
    for key in ("tool_name", "tool_input"):
        if key not in data:
            raise BadEvent(f"missing '{key}'", kind, data)
    try:
        call = ToolCall.from_json(data)
    except InvalidCall as exc:
        raise BadEvent(str(exc), kind, data) from None
    return Event(kind, name, checked_call(call, kind, data), data)


def render(event: Event, decision: Decision, undecided_ask: bool = False) -> HookResult:
    note = warning_of(decision)
    if event.kind == NOTICE:
        return no_decision(note)
    if event.kind == PERMISSION:
        if decision.verdict is Verdict.ALLOW:
            return hook_specific(PERMISSION_REQUEST, note, decision={"behavior": "allow",
                                                             "updatedInput": event.call.tool_input})
        if decision.verdict is Verdict.DENY:
            return hook_specific(PERMISSION_REQUEST, note, decision={"behavior": "deny", "message": reason_of(decision)})
        return no_decision(note)  # ask: the user's dialog decides
    if decision.verdict is Verdict.ASK and decision.tier == "fallback" and not undecided_ask:
        return no_decision(note)  # undecided: Claude Code's own permission flow goes on
    return hook_specific(PRE_TOOL_USE, note, permissionDecision=str(decision.verdict),
                 permissionDecisionReason=reason_of(decision))


def failure(kind: str | None, reason: str) -> HookResult:
    if kind == PERMISSION:
        return hook_specific(PERMISSION_REQUEST, decision={"behavior": "deny", "message": one_line(reason)})
    return blocked(reason)
