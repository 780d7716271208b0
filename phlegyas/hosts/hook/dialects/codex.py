"""Codex's hook dialect (PROTOCOLS.md §6): Claude Code's event shape plus ``turn_id`` and ``model``.

Verified with the real Codex 0.171.0, offline:

- ``PreToolUse`` (PRE): deny → ``permissionDecision: "deny"`` with a non-empty reason (Codex blocks the
  call and tells the model "Command blocked by PreToolUse hook: <reason>"); allow and undecided → no
  output, so Codex's own approval policy and sandbox decide; ask → deny with the reason (see ``render``).
- ``PermissionRequest`` (PERMISSION; the TUI runs it when it is about to ask its user for an approval,
  ``codex exec`` never does): allow → ``decision: {"behavior": "allow"}``, deny → ``{"behavior": "deny",
  "message": …}``; never ``updatedInput``, ``updatedPermissions`` or ``interrupt`` (Codex fails closed on
  them); an ask → no output, so the user is asked.
- Input that cannot be decided: PreToolUse → exit 2 with a one-line reason on stderr, which Codex reads as
  a block; exit 1, output that is not JSON, a deny without a reason and a timeout all let the call run;
  PermissionRequest → the deny decision.

Tool names: 0.171.0 sends ``Bash`` ``{command}`` (its ``exec_command`` tool) and, for PermissionRequest,
``{command, description}``. Other shell tool names (``shell``, ``exec_command``, ``local_shell``) with an
argv list (``["bash", "-lc", X]``) or ``cmd`` become ``Bash {command: X}``; others keep their name.
"""
from __future__ import annotations

import shlex

from phlegyas.core.model import MODES, Decision, Verdict
from phlegyas.hosts.hook.dialects.base import (
    PERMISSION,
    PRE,
    BadEvent,
    Event,
    HookResult,
    blocked,
    hook_specific,
    make_call,
    no_decision,
    one_line,
    reason_of,
    text,
    warning_of,
)

NAME = "codex"
HOST = "Codex"
PRE_TOOL_USE = "PreToolUse"
PERMISSION_REQUEST = "PermissionRequest"
KINDS = {PRE_TOOL_USE: PRE, PERMISSION_REQUEST: PERMISSION}
ASK_DENIED = (" (phlegyas asks about this, and a hook cannot make Codex ask: allow it in phlegyas's policy, "
              "or run it yourself)")
SHELL_TOOLS = ("Bash", "shell", "exec_command", "local_shell", "container.exec", "unified_exec")
_SHELLS = ("bash", "sh", "zsh", "dash")


def recognizes(data: dict) -> bool:
    return data.get("hook_event_name") in KINDS and "tool_name" in data and "turn_id" in data


def shell_command(argv: list) -> str:
    """The command string a shell runs for ``argv``: X for ``bash -lc X`` (any of bash/sh/zsh/dash with
    ``-c``/``-lc``), else the words joined with shell quoting, as the shell would receive them."""
    if not argv or not all(isinstance(word, str) for word in argv):
        raise ValueError("a command list must hold strings only, and at least one")
    if len(argv) == 3 and argv[0].rsplit("/", 1)[-1] in _SHELLS and argv[1] in ("-c", "-lc", "-cl"):
        return argv[2]
    return shlex.join(argv)


def _tool(data: dict, kind: str) -> tuple[str, dict]:
    name, tool_input = data.get("tool_name"), data.get("tool_input")
    if name not in SHELL_TOOLS or not isinstance(tool_input, dict):
        return name, tool_input  # make_call reports wrong types
    command = tool_input.get("command", tool_input.get("cmd"))
    if isinstance(command, list):
        try:
            command = shell_command(command)
        except ValueError as exc:
            raise BadEvent(f"{name}: {exc}", kind, data) from None
    if not isinstance(command, str):
        raise BadEvent(f"{name}: 'command' must be a string or a list of strings, got "
                       f"{type(command).__name__}", kind, data)
    rest = {k: v for k, v in tool_input.items() if k not in ("command", "cmd")}
    return "Bash", {"command": command, **rest}


def parse(data: dict) -> Event:
    name = data.get("hook_event_name")
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise BadEvent(f"unknown hook_event_name {repr(name)[:80]}: phlegyas answers {', '.join(KINDS)}",
                       data=data)
    for key in ("tool_name", "tool_input"):
        if key not in data:
            raise BadEvent(f"missing '{key}'", kind, data)
    tool_name, tool_input = _tool(data, kind)
    cwd = text(data.get("cwd"))
    workdir = tool_input.get("workdir") if isinstance(tool_input, dict) and tool_name == "Bash" else None
    if workdir is not None:
        if not isinstance(workdir, str) or not workdir.startswith("/"):
            raise BadEvent(f"'workdir' must be an absolute path, got {repr(workdir)[:200]}", kind, data)
        cwd = workdir
    mode = text(data.get("permission_mode"))
    call = make_call(data, kind, tool_name, tool_input, cwd=cwd, session_id=data.get("session_id"),
                     tool_use_id=data.get("tool_use_id"), transcript_path=data.get("transcript_path"),
                     mode=mode if mode in MODES else None)
    return Event(kind, name, call, data)


def render(event: Event, decision: Decision, undecided_ask: bool = False) -> HookResult:
    """PreToolUse answers deny only: Codex 0.171.0 rejects ``"allow"`` and ``"ask"`` there as unsupported
    (verified: the hook counts as failed, and a failed hook lets the call run), so allow is no output and
    Codex's own approval policy and sandbox still apply. An ask (a real one, or an undecided call with
    ``undecided_ask``) is a deny with the reason: a hook cannot make Codex ask, and Codex does not ask on
    its own about what phlegyas asks about (verified: ``rm -r`` of a directory in /tmp ran unasked with
    approval "on-request", in the "workspace-write" sandbox as in "danger-full-access"; ``codex exec`` asks
    nobody at all). Undecided without ``undecided_ask`` is no output: Codex's flow goes on, and when Codex
    asks its user, phlegyas's PermissionRequest hook decides with the whole pipeline."""
    note = warning_of(decision)
    if event.kind == PERMISSION:
        if decision.verdict is Verdict.ALLOW:
            return hook_specific(PERMISSION_REQUEST, note, decision={"behavior": "allow"})
        if decision.verdict is Verdict.DENY:
            return hook_specific(PERMISSION_REQUEST, note, decision={"behavior": "deny", "message": reason_of(decision)})
        return no_decision(note)  # ask: the user's approval prompt decides
    reason = reason_of(decision)
    if decision.verdict is Verdict.ASK:
        if decision.tier == "fallback" and not undecided_ask:
            return no_decision(note)  # undecided: Codex's own flow goes on
        reason += ASK_DENIED
    elif decision.verdict is Verdict.ALLOW:
        return no_decision(note)
    return hook_specific(PRE_TOOL_USE, note, permissionDecision="deny", permissionDecisionReason=reason)


def failure(kind: str | None, reason: str) -> HookResult:
    if kind == PERMISSION:
        return hook_specific(PERMISSION_REQUEST, decision={"behavior": "deny", "message": one_line(reason)})
    return blocked(reason)
