"""What every host's dialect module provides, and the pieces they share.

A dialect module defines:

- ``NAME``: the ``--agent`` name (``claude``, ``codex``, …); ``HOST``: how people call it ("Gemini CLI");
- ``recognizes(data) -> bool``: whether a decoded event has this host's shape (used without ``--agent``);
- ``parse(data) -> Event``: the host's event as the gate's ``ToolCall`` (tool names and inputs mapped to the
  gate's vocabulary: ``Bash`` ``{command}``, ``Write`` ``{file_path, content}``, ``Edit``, ``Read``,
  ``WebFetch`` ``{url, prompt}``, ``mcp__server__tool``); raises ``BadEvent``;
- ``render(event, decision, undecided_ask) -> HookResult``: the decision in the host's answer format;
- ``failure(kind, reason) -> HookResult``: a block in the host's way, for input that cannot be decided
  (``kind`` is the event's kind when it was readable, else None).
"""
from __future__ import annotations

import json
from typing import Any, NamedTuple

from phlegyas.core.engine import validate
from phlegyas.core.model import Decision, InvalidCall, ToolCall

MAX_EVENT_BYTES = 16 * 1024 * 1024

PRE = "pre"
"""Before a tool runs: the fast gate decides (rules, modes, Tier 1, Tier 2, Tier 2.5; no AI, no person)."""
PERMISSION = "permission"
"""The host is about to ask its user: the whole pipeline (Tier 3, a person through the approvals queue)."""
NOTICE = "notice"
"""The host reports a decision of its own (Claude Code's PermissionDenied): audited, not decided."""


class HookResult(NamedTuple):
    """What the hook process does: its exit status, and the bytes it writes to stdout and stderr."""

    code: int
    stdout: bytes = b""
    stderr: bytes = b""


class Event(NamedTuple):
    kind: str
    """PRE, PERMISSION or NOTICE."""
    name: str
    """The host's own name of the event (``PreToolUse``, ``BeforeTool``, ``preToolUse``, …): audited."""
    call: ToolCall
    data: dict = {}
    """The decoded event, for what the dialect's ``render`` needs of it."""


class BadEvent(Exception):
    """The event cannot be decided as sent; ``kind`` is its kind when that was readable, ``data`` the
    decoded event when it was one (the audit records what it can of it)."""

    def __init__(self, message: str, kind: str | None = None, data: dict | None = None):
        super().__init__(message)
        self.kind = kind
        self.data = data or {}


def load_event(raw: bytes) -> dict:
    """The JSON object on the hook's stdin. Raises BadEvent with a clear message."""
    if len(raw) > MAX_EVENT_BYTES:
        raise BadEvent(f"event larger than {MAX_EVENT_BYTES // (1024 * 1024)} MiB")
    if not raw.strip():
        raise BadEvent("empty input: expected one JSON event on stdin")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadEvent("input is not UTF-8") from None
    except (ValueError, RecursionError) as exc:
        raise BadEvent(f"input is not valid JSON: {str(exc)[:200]}") from None
    if not isinstance(data, dict):
        raise BadEvent(f"expected a JSON object, got {type(data).__name__}")
    return data


def text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def checked_call(call: ToolCall, kind: str, data: dict) -> ToolCall:
    """``call`` once it passes the gate's input checks (an absolute ``cwd`` among them); else BadEvent."""
    try:
        if call.cwd is not None and not call.cwd.startswith("/"):
            raise InvalidCall(f"'cwd' must be an absolute path, got {call.cwd[:200]!r}")
        validate(call)
    except InvalidCall as exc:
        raise BadEvent(str(exc), kind, data) from None
    return call


def make_call(data: dict, kind: str, tool_name: object, tool_input: object, **fields: Any) -> ToolCall:
    """A checked ``ToolCall`` from a host's tool name and input; string fields (``cwd``, ``session_id``,
    ``tool_use_id``, ``mode``, ``transcript_path``) that are not strings are left out."""
    if not isinstance(tool_name, str) or not tool_name.strip():
        raise BadEvent("the tool's name must be a non-empty string", kind, data)
    if not isinstance(tool_input, dict):
        raise BadEvent(f"the tool's input must be an object, got {type(tool_input).__name__}", kind, data)
    kept = {k: v for k, v in fields.items() if isinstance(v, str)}
    return checked_call(ToolCall(tool_name, tool_input, **kept), kind, data)


def reason_of(decision: Decision) -> str:
    return f"phlegyas: {decision.reason}"


def warning_of(decision: Decision) -> str | None:
    """The decision's warning (a broken trust store), for the user, or None."""
    warnings = (decision.audit or {}).get("warnings")
    return "phlegyas: warning: " + "; ".join(warnings) if warnings else None


def one_line(reason: str) -> str:
    return " ".join(f"phlegyas: {reason}".split())


def answer(body: dict | None, note: str | None = None, code: int = 0) -> HookResult:
    """Print ``body`` as one JSON line (nothing when None), with ``note`` on stderr."""
    out = b"" if body is None else json.dumps(body).encode("ascii") + b"\n"
    err = b"" if note is None else note.encode("utf-8", "backslashreplace") + b"\n"
    return HookResult(code, out, err)


def blocked(reason: str) -> HookResult:
    """Exit 2 with the reason on stderr: every host here reads that as "do not run the tool"."""
    return HookResult(2, b"", one_line(reason).encode("utf-8", "backslashreplace") + b"\n")


# -- Claude Code's answer shape (Codex answers in it too) ------------------------------------------

def no_decision(note: str | None) -> HookResult:
    """No decision (the host's own flow goes on), but the warning shown (``systemMessage``) when there is one."""
    return HookResult(0) if note is None else answer({"systemMessage": note}, note)


def hook_specific(event: str, note: str | None = None, **fields) -> HookResult:
    """``{"hookSpecificOutput": {"hookEventName": event, **fields}}``, with the warning as ``systemMessage``."""
    body: dict = {"hookSpecificOutput": {"hookEventName": event, **fields}}
    if note is not None:
        body["systemMessage"] = note
    return answer(body, note)
