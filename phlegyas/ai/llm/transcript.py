"""The last few messages the *human* typed, read from a Claude Code transcript (JSONL).

Only lines with ``"type": "user"`` whose ``message.role`` is ``"user"`` count, and of those only the
text the person wrote: a string content, or the ``text`` blocks of a list content. Tool results are
also ``role: user`` in the transcript (their content is ``tool_result`` blocks, and the line carries
``toolUseResult``): they are output an attacker can shape, so they are skipped, as are the
assistant's lines, messages Claude Code injects itself (``isMeta``, compaction summaries) and
sub-agent conversations (``isSidechain``: their "user" is the main agent). Only the end of a long
file is read.
"""
from __future__ import annotations

import json
import os

DEFAULT_MESSAGES = 3
DEFAULT_MAX_CHARS = 1000
TAIL_BYTES = 512 * 1024


def last_user_messages(path: str | None, *, limit: int = DEFAULT_MESSAGES, max_chars: int = DEFAULT_MAX_CHARS,
                       tail_bytes: int = TAIL_BYTES) -> list[str]:
    """Up to ``limit`` of the latest human messages in ``path``, oldest first, each cut to ``max_chars``.

    A missing or unreadable file, or lines that are not JSON, give fewer messages, never an error.
    """
    if not path or limit <= 0:
        return []
    try:
        lines = _tail_lines(path, tail_bytes)
    except OSError:
        return []
    found: list[str] = []
    for line in reversed(lines):
        text = user_text(line)
        if text:
            found.append(_cap(text, max_chars))
            if len(found) == limit:
                break
    return found[::-1]


def user_text(line: bytes | str) -> str | None:
    """The text a person typed, if this transcript line is one of their messages; else None."""
    try:
        entry = json.loads(line)
    except ValueError:
        return None
    if not isinstance(entry, dict) or entry.get("type") != "user":
        return None
    if entry.get("isMeta") or entry.get("isSidechain") or entry.get("isCompactSummary") or "toolUseResult" in entry:
        return None
    message = entry.get("message")
    if not isinstance(message, dict) or message.get("role") != "user":
        return None
    content = message.get("content")
    if isinstance(content, str):
        return content.strip() or None
    if not isinstance(content, list):
        return None
    if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
        return None
    texts = [b["text"] for b in content
             if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
    return "\n".join(t.strip() for t in texts if t.strip()) or None


def _tail_lines(path: str, tail_bytes: int) -> list[bytes]:
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        start = max(0, size - tail_bytes)
        f.seek(start)
        data = f.read(tail_bytes)
    lines = data.split(b"\n")
    if start > 0:
        lines = lines[1:]  # the first line was cut in the middle
    return [line for line in lines if line.strip()]


def _cap(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    return text[:max_chars] + f" …[{len(text) - max_chars} more characters cut]"
