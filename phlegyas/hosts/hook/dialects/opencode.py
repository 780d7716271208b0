"""OpenCode's dialect (PROTOCOLS.md §6): OpenCode has no command hooks, so phlegyas ships a JavaScript
plugin (``phlegyas/hosts/opencode/plugin.js``) whose ``tool.execute.before`` handler runs this hook
process for every tool call with an event of phlegyas's own making:

``{"hook_event_name": "tool.execute.before", "tool": "bash", "sessionID": …, "callID": …,
"args": {"command": …, "description": …}, "cwd": "/project"}``

and reads back one JSON line ``{"decision": "allow"|"ask"|"deny"|"undecided", "reason": …}``. The
plugin, not OpenCode, reads this answer, so its shape is ours: the plugin throws an Error with the reason
(OpenCode's only way for a plugin to stop a call) on deny and on ask (OpenCode gives a plugin no way to
make it ask its user about one call, see plugin.js), and lets the call go on for allow and undecided —
OpenCode's own permission settings still apply then, as a plugin cannot skip them.

- undecided (the fallback tier) → ``"undecided"``, or ``"ask"`` with ``PHLEGYAS_HOOK_UNDECIDED=ask``;
- input that cannot be decided → ``"deny"`` with the reason, exit 2 (the plugin throws on either).

Tool names map to the gate's vocabulary: ``bash`` → ``Bash``, ``write``/``edit``/``read`` → ``Write``/
``Edit``/``Read`` (``filePath`` → ``file_path``, ``oldString``/``newString`` → ``old_string``/
``new_string``), ``glob``/``grep`` → ``Glob``/``Grep``, ``webfetch`` → ``WebFetch``; any other tool keeps
its name (the gate asks about what it does not know). A bash ``workdir`` (relative to the project) becomes
the call's cwd, since that is where OpenCode runs the command: ``rm -rf .`` means that directory.
"""
from __future__ import annotations

import os

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

NAME = "opencode"
HOST = "OpenCode"
BEFORE = "tool.execute.before"

_RENAMES = {  # OpenCode's tool → (the gate's tool, {OpenCode's argument: the gate's})
    "bash": ("Bash", {"command": "command", "description": "description", "timeout": "timeout"}),
    "write": ("Write", {"filePath": "file_path", "content": "content"}),
    "edit": ("Edit", {"filePath": "file_path", "oldString": "old_string", "newString": "new_string",
                      "replaceAll": "replace_all"}),
    "read": ("Read", {"filePath": "file_path", "offset": "offset", "limit": "limit"}),
    "glob": ("Glob", {"pattern": "pattern", "path": "path"}),
    "grep": ("Grep", {"pattern": "pattern", "path": "path", "include": "glob"}),
    "webfetch": ("WebFetch", {"url": "url", "format": "format", "timeout": "timeout"}),
}


def recognizes(data: dict) -> bool:
    return data.get("hook_event_name") == BEFORE and "tool" in data and "tool_name" not in data


def parse(data: dict) -> Event:
    name = data.get("hook_event_name")
    if name != BEFORE:
        raise BadEvent(f"unknown hook_event_name {repr(name)[:80]}: phlegyas's OpenCode plugin sends {BEFORE}",
                       data=data)
    for key in ("tool", "args"):
        if key not in data:
            raise BadEvent(f"missing '{key}'", PRE, data)
    tool, args = data["tool"], data["args"]
    if not isinstance(tool, str) or not tool.strip():
        raise BadEvent("'tool' must be a non-empty string", PRE, data)
    if not isinstance(args, dict):
        raise BadEvent(f"'args' must be an object, got {type(args).__name__}", PRE, data)
    cwd = text(data.get("cwd"))
    gate_name, tool_input = tool, args
    if tool in _RENAMES:
        gate_name, keys = _RENAMES[tool]
        tool_input = {keys.get(k, k): v for k, v in args.items()}
        if tool == "bash" and "workdir" in args:
            cwd = _workdir(args["workdir"], cwd, data)
            del tool_input["workdir"]
    call = make_call(data, PRE, gate_name, tool_input, cwd=cwd, session_id=data.get("sessionID"),
                     tool_use_id=data.get("callID"))
    return Event(PRE, BEFORE, call, data)


def _workdir(workdir: object, cwd: str | None, data: dict) -> str:
    """Where OpenCode runs a bash call: its ``workdir``, relative to the project directory."""
    if not isinstance(workdir, str) or not workdir or "\x00" in workdir:
        raise BadEvent(f"bash 'workdir' must be a path, got {repr(workdir)[:200]}", PRE, data)
    if workdir.startswith("/"):
        return os.path.normpath(workdir)
    if workdir.startswith("~"):  # whether OpenCode expands it is not known: judging the wrong directory is worse
        raise BadEvent(f"bash 'workdir' {workdir[:200]!r} starts with '~': give an absolute path", PRE, data)
    if cwd is None or not cwd.startswith("/"):
        raise BadEvent(f"bash 'workdir' {workdir[:200]!r} is relative, and the event has no absolute 'cwd'", PRE, data)
    return os.path.normpath(os.path.join(cwd, workdir))


def render(event: Event, decision: Decision, undecided_ask: bool = False) -> HookResult:
    note = warning_of(decision)
    if decision.verdict is Verdict.ASK and decision.tier == "fallback" and not undecided_ask:
        verdict = "undecided"
    else:
        verdict = str(decision.verdict)
    body = {"decision": verdict, "reason": reason_of(decision)}
    if note is not None:
        body["warning"] = note
    return answer(body, note)


def failure(kind: str | None, reason: str) -> HookResult:
    line = one_line(reason)
    return answer({"decision": "deny", "reason": line}, line, code=2)
