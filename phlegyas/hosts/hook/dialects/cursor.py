"""Cursor's hook dialect (PROTOCOLS.md §6). Cursor is not on npm and was not run here: this follows the
shapes of Cursor's hooks documentation (cursor.com/docs/agent/hooks), not captured events.

Events (common fields ``hook_event_name``, ``conversation_id``, ``generation_id``, ``workspace_roots``):

- ``beforeShellExecution`` ``{command, cwd}`` → ``Bash`` ``{command}``;
- ``beforeReadFile`` ``{file_path, content, attachments}`` → ``Read`` ``{file_path}`` (the content is not
  the gate's business, and would only weigh on the audit);
- ``beforeMCPExecution`` ``{tool_name, tool_input, url | command}`` → the tool under its own name: the
  event names the server's URL or command, not its name, so ``mcp__<server>__<tool>`` cannot be known
  (policies name such a tool as Cursor sends it). ``tool_input`` is a JSON string or an object.

A missing ``cwd`` is the first workspace root. Answers: ``{"permission": "allow"|"deny"|"ask",
"user_message": …, "agent_message": …}`` (the user reads the one, the model the other; both get the
reason). Choices, since Cursor documents no answer meaning "no opinion" (and an empty answer is a
hook failure once ``failClosed`` is set, which install sets):

- allow → ``"allow"``; deny → ``"deny"``; ask → ``"ask"``, except for ``beforeReadFile``, whose answer is
  documented as allow or deny only: there an ask is a deny saying a person would have to approve it;
- undecided (the fallback tier) → ``"ask"``: unknown means not understood, and saying nothing is not
  an option here. Cursor is reported to ignore ``ask`` in its Auto-review mode (the call then goes on):
  there only deny blocks;
- input that cannot be decided → ``"deny"`` and exit 2 (documented to block as well).
"""
from __future__ import annotations

import json

from phlegyas.core.model import Decision, Verdict
from phlegyas.hosts.hook.dialects.base import (
    PRE,
    BadEvent,
    Event,
    HookResult,
    answer,
    make_call,
    one_line,
    reason_of,
    text,
    warning_of,
)

NAME = "cursor"
HOST = "Cursor"
SHELL = "beforeShellExecution"
READ = "beforeReadFile"
MCP = "beforeMCPExecution"
EVENTS = (SHELL, READ, MCP)


def recognizes(data: dict) -> bool:
    return data.get("hook_event_name") in EVENTS


def parse(data: dict) -> Event:
    name = data.get("hook_event_name")
    if name not in EVENTS:
        raise BadEvent(f"unknown hook_event_name {repr(name)[:80]}: phlegyas answers {', '.join(EVENTS)}",
                       data=data)
    if name == SHELL:
        tool, tool_input = "Bash", {"command": _required(data, "command")}
    elif name == READ:
        tool, tool_input = "Read", {"file_path": _required(data, "file_path")}
    else:
        tool, tool_input = _required(data, "tool_name"), _mcp_input(data)
    call = make_call(data, PRE, tool, tool_input, cwd=_cwd(data), session_id=data.get("conversation_id"),
                     tool_use_id=data.get("generation_id"))
    return Event(PRE, name, call, data)


def _required(data: dict, key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise BadEvent(f"'{key}' must be a non-empty string, got {type(value).__name__}", PRE, data)
    return value


def _mcp_input(data: dict) -> dict:
    value = data.get("tool_input", {})
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else {}
        except (ValueError, RecursionError):
            raise BadEvent("'tool_input' is a string that is not JSON", PRE, data) from None
    if not isinstance(value, dict):
        raise BadEvent(f"'tool_input' must be an object (or a JSON string of one), got {type(value).__name__}",
                       PRE, data)
    return value


def _cwd(data: dict) -> str | None:
    cwd = text(data.get("cwd"))
    if cwd:
        return cwd
    roots = data.get("workspace_roots")
    return roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) and roots[0] else None


def render(event: Event, decision: Decision, undecided_ask: bool = False) -> HookResult:
    note = warning_of(decision)
    reason = reason_of(decision)
    if decision.verdict is Verdict.ALLOW:
        body: dict = {"permission": "allow"}
        if note is not None:
            body["user_message"] = note
        return answer(body, note)
    permission = str(decision.verdict)
    if permission == "ask" and event.name == READ:
        permission = "deny"
        reason += " (a person would have to approve this read, and Cursor cannot ask about one)"
    user = reason if note is None else f"{reason}\n{note}"
    return answer({"permission": permission, "user_message": user, "agent_message": reason}, note)


def failure(kind: str | None, reason: str) -> HookResult:
    line = one_line(reason)
    return answer({"permission": "deny", "user_message": line, "agent_message": line}, line, code=2)
