"""GitHub Copilot CLI's hook dialect (PROTOCOLS.md §6; verified against ``@github/copilot`` 1.0.102, offline).

A ``preToolUse`` hook gets ``{sessionId, timestamp (ms), cwd, toolName, toolArgs}`` and no event name (the
config's key says which event it is), so the shape is recognised by ``toolName`` + ``toolArgs`` without a
``hook_event_name``. ``toolArgs`` is an object (what 1.0.102 sends) or a JSON string of one (what earlier
versions sent); a string that is not a JSON object is a BadEvent.

Tool names map to the gate's vocabulary where the input maps faithfully (names and schemas read from the
tools 1.0.102 offers its model): ``bash`` → ``Bash``; ``create`` {path, file_text} → ``Write``; ``edit``
{path, old_str, new_str} → ``Edit``; ``view`` {path} → ``Read``; ``glob``/``grep`` {pattern, paths} →
``Glob``/``Grep`` when ``paths`` names at most one directory; ``web_fetch`` {url} → ``WebFetch``. Any
other tool (or a ``glob``/``grep`` over several directories) keeps its own name, so the gate asks.

What 1.0.102 does with the answers (each run against the real binary):

- ``{"permissionDecision": "deny", "permissionDecisionReason": R}`` → not run; the model reads "Denied by
  preToolUse hook: R". Exit 2 blocks too (with the JSON's reason when there is one), and so does exit 1.
- ``"allow"`` → run without Copilot's own prompt, and **even against the user's ``--deny-tool`` rule**.
  So phlegyas never answers allow: an allow prints nothing, and Copilot's own rules and prompt go on.
- ``"ask"`` → Copilot's "Hook permission request" dialog with the reason, even under
  ``--allow-all-tools``; under ``-p`` nobody can answer, and the call is denied ("unable to ask user for
  confirmation"). A real ask (an ask rule, a Tier 1 ask class) is rendered as ``"ask"``.
- no output → Copilot's own flow: what undecided (the fallback tier) prints, unless
  ``PHLEGYAS_HOOK_UNDECIDED=ask``.
- Fails OPEN: output that is not JSON, an unknown ``permissionDecision``, and a hook past its
  ``timeoutSec`` all let the tool run. So a failure here is the JSON deny *and* exit 2, and the hook's
  timeout must stay above the client's decision time.
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

NAME = "copilot"
HOST = "Copilot CLI"
PRE_TOOL_USE = "preToolUse"

_RENAMES = {  # Copilot's tool → (the gate's tool, {Copilot's argument: the gate's})
    "bash": ("Bash", {}),
    "create": ("Write", {"path": "file_path", "file_text": "content"}),
    "edit": ("Edit", {"path": "file_path", "old_str": "old_string", "new_str": "new_string"}),
    "view": ("Read", {"path": "file_path"}),
    "glob": ("Glob", {"paths": "path"}),
    "grep": ("Grep", {"paths": "path"}),
    "web_fetch": ("WebFetch", {}),
}


def recognizes(data: dict) -> bool:
    return "toolName" in data and "toolArgs" in data and "hook_event_name" not in data


def parse(data: dict) -> Event:
    for key in ("toolName", "toolArgs"):
        if key not in data:
            raise BadEvent(f"missing '{key}'", PRE, data)
    tool, args = data["toolName"], _args(data)
    gate_name, tool_input = tool, args
    if isinstance(tool, str) and tool in _RENAMES and _faithful(args):
        gate_name, keys = _RENAMES[tool]
        tool_input = {keys.get(k, k): v for k, v in args.items()}
        if isinstance(tool_input.get("path"), list):  # glob/grep over one directory
            tool_input["path"] = tool_input["path"][0] if tool_input["path"] else None
            if tool_input["path"] is None:
                del tool_input["path"]
    call = make_call(data, PRE, gate_name, tool_input, cwd=text(data.get("cwd")),
                     session_id=data.get("sessionId"))
    return Event(PRE, PRE_TOOL_USE, call, data)


def _args(data: dict) -> dict:
    """``toolArgs`` as an object (it may come as a JSON string of one)."""
    args = data["toolArgs"]
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except (ValueError, RecursionError):
            raise BadEvent("'toolArgs' is a string that is not JSON", PRE, data) from None
    if not isinstance(args, dict):
        raise BadEvent(f"'toolArgs' must be an object (or a JSON string of one), got {type(args).__name__}",
                       PRE, data)
    return args


def _faithful(args: dict) -> bool:
    """Whether the gate's tool says what Copilot's does: ``paths`` (glob, grep) names at most one directory."""
    paths = args.get("paths")
    return paths is None or isinstance(paths, str) or (
        isinstance(paths, list) and len(paths) <= 1 and all(isinstance(p, str) for p in paths))


def render(event: Event, decision: Decision, undecided_ask: bool = False) -> HookResult:
    note = warning_of(decision)
    undecided = decision.verdict is Verdict.ASK and decision.tier == "fallback" and not undecided_ask
    if decision.verdict is Verdict.ALLOW or undecided:
        return answer(None, note)  # Copilot's own rules and prompt go on (an allow would override them)
    return answer({"permissionDecision": str(decision.verdict),
                   "permissionDecisionReason": reason_of(decision)}, note)


def failure(kind: str | None, reason: str) -> HookResult:
    line = one_line(reason)
    return answer({"permissionDecision": "deny", "permissionDecisionReason": line}, line, code=2)
