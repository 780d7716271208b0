"""Every host's dialect, and which one an event comes from.

``DIALECTS`` is in the order ``recognize`` tries them: the more specific shapes first (Codex's events are
Claude Code's plus ``turn_id``; Cursor's, Gemini's and OpenCode's carry their own event names; Copilot's
have ``toolName``/``toolArgs`` and no event name at all).
"""
from __future__ import annotations

from types import ModuleType

from phlegyas.hosts.hook.dialects import claude, codex, copilot, cursor, gemini, opencode

DIALECTS: tuple[ModuleType, ...] = (codex, gemini, cursor, opencode, copilot, claude)
_BY_NAME = {d.NAME: d for d in DIALECTS}


def names() -> list[str]:
    return [d.NAME for d in DIALECTS]


def by_name(name: str) -> ModuleType:
    """The dialect ``--agent name`` means; KeyError-free: an unknown name is a ValueError with the list."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown agent host {name!r} (one of: {', '.join(_BY_NAME)})") from None


def recognize(data: dict) -> ModuleType | None:
    """The dialect whose shape ``data`` has, or None."""
    for dialect in DIALECTS:
        if dialect.recognizes(data):
            return dialect
    return None


def closest(data: dict) -> ModuleType | None:
    """For an event no dialect recognises: the one whose parser will say best what is wrong with it (an
    unknown ``hook_event_name``, a missing ``tool_input``), or None when it looks like no host's event."""
    if "hook_event_name" in data or "tool_name" in data:
        return codex if "turn_id" in data and codex in DIALECTS else claude
    return None


def fallback() -> ModuleType:
    """Whose failure answer is used when nothing says which host sent the bytes: Claude Code's (exit 2 with
    the reason), which every host here treats as "do not run the tool"."""
    return claude


def guess(raw: bytes) -> ModuleType:
    """For bytes that are not a readable event: the dialect whose event names appear in them (so that
    a PermissionRequest cut short is still answered with a deny decision), else the fallback."""
    head = raw[:4096]
    if b'"PermissionRequest"' in head:
        return codex if b'"turn_id"' in head else claude
    return fallback()
