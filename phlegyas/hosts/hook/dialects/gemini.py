"""Gemini CLI's hook dialect (PROTOCOLS.md §6; checked against ``@google/gemini-cli`` 0.61.0).

A ``BeforeTool`` hook gets ``{session_id, transcript_path, cwd, hook_event_name: "BeforeTool", timestamp,
tool_name, tool_input}`` (+ ``mcp_context`` for MCP tools). Gemini resolves relative paths against the
event's ``cwd``; so does the dialect (the gate judges absolute paths), and a shell ``dir_path`` becomes the
call's cwd, where the command runs. 0.61.0 passes the older ``directory`` on but ignores it (checked);
earlier versions ran the command there, so one naming another folder than the effective one is refused.

Tools: ``run_shell_command`` → ``Bash``, ``write_file``/``replace``/``read_file`` → ``Write``/``Edit``/
``Read``, ``glob`` → ``Glob``, ``grep_search`` (old name ``search_file_content``) → ``Grep``,
``list_directory`` → ``LS``, MCP tools → ``mcp__server__tool``, ``web_fetch`` → ``WebFetch`` when it fetches
ONE URL (its ``url``, or the one in its ``prompt``, found as Gemini finds them: words holding ``://``). A
prompt with several URLs and ``read_many_files`` keep their names: one gate call cannot stand for each of
their targets, so the gate treats them as tools it does not know.

Answers, as 0.61.0 treated them: ``{"decision": "deny", "reason": …}`` blocks, even under ``--yolo``, and
the model reads the reason; ``"allow"`` does not skip Gemini's policy engine (a policy deny still won). The
gate's asks are NOT sent as ``"ask"``: 0.61.0 shows its dialog only outside YOLO mode; under ``--yolo``
(Ctrl+Y switches it on mid-session) it ran the call at once, and ``gemini -p`` waited for ever for an
answer. The event does not say the mode, so an ask is a deny saying a person was wanted (as ``claude -p``
turns an ask into a denial). Undecided → no output (Gemini's policy decides), or that deny with
``PHLEGYAS_HOOK_UNDECIDED=ask``. Undecidable input: the deny JSON and exit 2 (any status but 0 and 1
blocks). A hook that times out or exits 1 lets the call run. With stdout empty Gemini reads stderr as the
answer, so a warning goes out as JSON.
"""
from __future__ import annotations

import os
import re
from urllib.parse import urlsplit

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

NAME = "gemini"
HOST = "Gemini CLI"
BEFORE_TOOL = "BeforeTool"
ASKED = (" (phlegyas wants a person to approve this; Gemini CLI cannot be relied on to ask one, so it is "
         "blocked: allow it in the phlegyas policy, or run it yourself)")

_RENAMES = {  # Gemini's tool → (the gate's tool, {Gemini's argument: the gate's})
    "run_shell_command": ("Bash", {}),
    "write_file": ("Write", {}),
    "replace": ("Edit", {"allow_multiple": "replace_all"}),
    "read_file": ("Read", {"absolute_path": "file_path"}),
    "glob": ("Glob", {"dir_path": "path"}),
    "grep_search": ("Grep", {"dir_path": "path", "include_pattern": "glob", "include": "glob"}),
    "list_directory": ("LS", {"dir_path": "path"}),
}
_RENAMES["search_file_content"] = _RENAMES["grep_search"]
_PLAIN_HOST = re.compile(r"[a-z0-9.-]+|[0-9a-f:.]+")
_PATHS = {"Write": "file_path", "Edit": "file_path", "Read": "file_path", "Glob": "path", "Grep": "path",
          "LS": "path"}  # where each works; Glob, Grep and LS default to the cwd


def recognizes(data: dict) -> bool:
    return data.get("hook_event_name") == BEFORE_TOOL and "tool_name" in data and "tool_input" in data


def parse(data: dict) -> Event:
    name = data.get("hook_event_name")
    if name != BEFORE_TOOL:
        raise BadEvent(f"unknown hook_event_name {repr(name)[:80]}: phlegyas answers {BEFORE_TOOL}", data=data)
    for key in ("tool_name", "tool_input"):
        if key not in data:
            raise BadEvent(f"missing '{key}'", PRE, data)
    tool, args, cwd = data["tool_name"], data["tool_input"], text(data.get("cwd"))
    if not isinstance(tool, str) or not isinstance(args, dict):
        return Event(PRE, BEFORE_TOOL, make_call(data, PRE, tool, args), data)  # make_call says what is wrong
    gate_name, tool_input = tool, args
    if tool in _RENAMES:
        gate_name, keys = _RENAMES[tool]
        tool_input = _renamed(args, keys, data)
        if gate_name == "Bash":
            cwd = _where(tool_input, "dir_path", cwd, data) or cwd
            older = _where(tool_input, "directory", cwd, data)
            if older is not None and older != cwd:  # 0.61.0 ignores it, older versions ran there
                raise BadEvent(f"run_shell_command names two folders: 'directory' {older[:200]!r} is not "
                               f"where it runs ({str(cwd)[:200]!r})", PRE, data)
        elif gate_name in _PATHS:
            key = _PATHS[gate_name]
            tool_input[key] = _where(tool_input, key, cwd, data) or (cwd if key == "path" else None)
    elif tool == "web_fetch":
        gate_name, tool_input = _web_fetch(args)
    elif isinstance(data.get("mcp_context"), dict):
        server, own = (text(data["mcp_context"].get(k)) for k in ("server_name", "tool_name"))
        if server and own:
            gate_name = f"mcp__{server}__{own}"
    call = make_call(data, PRE, gate_name, tool_input, cwd=cwd, session_id=data.get("session_id"),
                     transcript_path=data.get("transcript_path"))
    return Event(PRE, BEFORE_TOOL, call, data)


def _renamed(args: dict, keys: dict, data: dict) -> dict:
    """``args`` in the gate's argument names; an old name beside another value under the new one
    (``absolute_path``, ``file_path``) is refused: which one counts depends on Gemini's version."""
    out = {k: v for k, v in args.items() if k not in keys}
    for old, new in keys.items():
        if old in args:
            if new in out and out[new] != args[old]:
                raise BadEvent(f"both '{old}' and '{new}' given, with different values", PRE, data)
            out[new] = args[old]
    return out


def _where(tool_input: dict, key: str, cwd: str | None, data: dict) -> str | None:
    """``tool_input[key]`` as an absolute path (a relative one is taken from ``cwd``, as Gemini does);
    None when it is absent or empty; BadEvent when it cannot be resolved."""
    value = tool_input.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise BadEvent(f"'{key}' must be a string, got {type(value).__name__}", PRE, data)
    if not value.startswith("/"):
        if not (cwd and cwd.startswith("/")):
            raise BadEvent(f"relative '{key}' {value[:200]!r} without an absolute 'cwd'", PRE, data)
        value = os.path.join(cwd, value)
    return os.path.normpath(value)


def urls_of(prompt: str) -> list[str] | None:
    """The distinct URLs Gemini's web_fetch fetches for ``prompt`` (its whitespace-separated words with
    ``://``), or None when one is not a plain http(s) URL: one Gemini refuses, or one whose host Python
    could read otherwise than Gemini's WHATWG parser (a backslash, %-escapes, non-ASCII)."""
    found: list[str] = []
    for word in prompt.split():
        if "://" not in word:
            continue
        if not _plain(word):
            return None
        if word not in found:
            found.append(word)
    return found


def _plain(url: str) -> bool:
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return False
    return (parts.scheme.lower() in ("http", "https") and "\\" not in url and host is not None
            and _PLAIN_HOST.fullmatch(host) is not None)


def _web_fetch(args: dict) -> tuple[str, dict]:
    url, prompt = args.get("url"), args.get("prompt")
    if isinstance(url, str) and url:  # Gemini fetches ``url`` alone when it is given
        gate_input = {"url": url, "prompt": prompt if isinstance(prompt, str) else ""}
        return ("WebFetch", gate_input) if _plain(url) else ("web_fetch", args)
    urls = urls_of(prompt) if isinstance(prompt, str) else None
    if urls is not None and len(urls) == 1:
        return "WebFetch", {"url": urls[0], "prompt": prompt}
    return "web_fetch", args


def render(event: Event, decision: Decision, undecided_ask: bool = False) -> HookResult:
    note = warning_of(decision)
    if decision.verdict is Verdict.ASK and decision.tier == "fallback" and not undecided_ask:
        return answer({"systemMessage": note} if note else None, note)  # undecided: Gemini's policy goes on
    reason = reason_of(decision)
    if decision.verdict is Verdict.ASK:
        reason += ASKED
    body: dict = {"decision": "allow" if decision.verdict is Verdict.ALLOW else "deny", "reason": reason}
    if note is not None:
        body["systemMessage"] = note
    return answer(body, note)


def failure(kind: str | None, reason: str) -> HookResult:
    line = one_line(reason)
    return answer({"decision": "deny", "reason": line}, line, code=2)
