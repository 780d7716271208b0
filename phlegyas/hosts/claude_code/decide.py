"""Decide one Claude Code hook event: parse it, ask the gate, audit, and answer (PROTOCOLS.md §1, §2).

``handle(raw, environ, cwd)`` is the whole hook, minus the process: the thin client (``phlegyas.hosts.claude_code.hook``)
calls it in-process, and the resident server (``phlegyas.hosts.claude_code.server``) calls it for the clients it serves.

- ``PreToolUse``: the fast path (rules, modes, Tier 1, protected paths, Tier 2, Tier 2.5; no AI, no
  waiting for a human). deny / allow → ``permissionDecision``; a real ask (an ask rule, a Tier 1 ask
  class, a protected path) → ``"ask"``; undecided (the fallback) → no output, so Claude Code's own
  flow goes on, or ``"ask"`` with ``PHLEGYAS_HOOK_UNDECIDED=ask``.
- ``PermissionRequest``: the full pipeline. allow → ``{"behavior": "allow", "updatedInput": …}``,
  deny → ``{"behavior": "deny", "message": …}``; any ask → no output, so the user's dialog appears.
- Malformed input, an unknown event, any internal error: PreToolUse → exit 2 with a one-line reason
  on stderr; PermissionRequest → the deny decision.

Each audit entry says which path decided it (``hook_path``: ``server`` or ``in-process``). The server
passes an ``Audit`` whose ``claim`` is asked right before the decision is audited: when its client
has gone (and decides by itself), the decision is dropped unaudited, so no call is audited twice.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Callable, Mapping, NamedTuple

from phlegyas.core.engine import validate
from phlegyas.core.model import Decision, InvalidCall, ToolCall, Verdict
from phlegyas.policy.settings import ConfigError, Settings
from phlegyas.runtime import fast_gate, load_runtime
from phlegyas.store.audit import AuditError, AuditLog
from phlegyas.store.backends import kick_shipper

MAX_EVENT_BYTES = 16 * 1024 * 1024
PRE_TOOL_USE = "PreToolUse"
PERMISSION_REQUEST = "PermissionRequest"
EVENTS = (PRE_TOOL_USE, PERMISSION_REQUEST)


class HookResult(NamedTuple):
    """What the hook process does: its exit status, and the bytes it writes to stdout and stderr."""

    code: int
    stdout: bytes = b""
    stderr: bytes = b""


class Dropped(Exception):
    """The caller's ``claim`` said no: nobody waits for this decision any more."""


class BadEvent(Exception):
    """The event cannot be decided as sent; ``event`` is its hook_event_name when that was readable."""

    def __init__(self, message: str, event: str | None = None, data: dict | None = None):
        super().__init__(message)
        self.event = event
        self.data = data or {}


# -- input -----------------------------------------------------------------------------------------

def parse_event(raw: bytes) -> tuple[str, ToolCall]:
    """The event name and the call of a hook event. Raises BadEvent with a clear message."""
    if len(raw) > MAX_EVENT_BYTES:
        raise BadEvent(f"event larger than {MAX_EVENT_BYTES // (1024 * 1024)} MiB",
                       PERMISSION_REQUEST if b'"PermissionRequest"' in raw[:4096] else None)
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
    event = data.get("hook_event_name")
    if event not in EVENTS:
        shown = repr(event)[:80]
        raise BadEvent(f"unknown hook_event_name {shown}: phlegyas answers PreToolUse and PermissionRequest",
                       data=data)
    for key in ("tool_name", "tool_input"):
        if key not in data:
            raise BadEvent(f"missing '{key}'", event, data)
    try:
        call = ToolCall.from_json(data)
        _check_cwd(call.cwd)
        validate(call)
    except InvalidCall as exc:
        raise BadEvent(str(exc), event, data) from None
    return event, call


def _check_cwd(cwd: str | None) -> None:
    if cwd is not None and not cwd.startswith("/"):
        raise InvalidCall(f"'cwd' must be an absolute path, got {cwd[:200]!r}")


# -- deciding --------------------------------------------------------------------------------------

class Audit(NamedTuple):
    """How a decision is audited: ``path`` names who decided (the audit's ``hook_path``); ``claim``,
    when given, is asked right before the entry is written, and False drops the decision."""

    path: str = "in-process"
    claim: Callable[[], bool] | None = None

    def check(self) -> None:
        if self.claim is not None and not self.claim():
            raise Dropped()


def handle(raw: bytes, environ: Mapping[str, str], cwd: str, *, defer: tuple[str, ...] = (),
           audit: Audit = Audit()) -> HookResult | None:
    """Decide the event ``raw`` (the bytes Claude Code wrote on stdin) with the settings of ``environ``;
    ``cwd`` is used when the event has none. Returns None for an event listed in ``defer`` (the
    server leaves those to the client), and for a decision ``audit.claim`` dropped (nothing
    audited). Never raises an Exception."""
    event = None
    try:
        try:
            event, call = parse_event(raw)
            if event in defer:
                return None
            return decide_event(event, call, environ, call.cwd or cwd, audit)
        except BadEvent as exc:
            reason = f"invalid hook input: {exc}"
            warning = _audit_failure(exc, reason, environ, cwd, audit)
            return failure(exc.event, reason, warning)
    except Dropped:
        return None
    except Exception as exc:  # noqa: BLE001 - fail closed, with the error in the reason
        return failure(event, f"internal error: {type(exc).__name__}: {exc}")


def decide_event(event: str, call: ToolCall, environ: Mapping[str, str], cwd: str,
                 audit: Audit = Audit()) -> HookResult:
    if call.cwd is None:
        call = replace(call, cwd=cwd)
    try:
        runtime = load_runtime(environ, cwd, interactive=True)
    except ConfigError as exc:
        return failure(event, f"configuration error: {exc}")
    gate = runtime.gate(cwd)
    if event == PRE_TOOL_USE:
        gate = fast_gate(gate)
    decision = gate.decide(call)
    warning = record(runtime.settings, call, decision, gate.mode_for(call), audit)
    if audit.path == "server" and not runtime.settings.database_url and \
            (getattr(gate.policy, "settings", None) or {}).get("database_url"):
        kick_shipper(runtime.settings_for(cwd))  # the database named by the user policy's [settings]
    result = render(event, call, decision, undecided_ask=runtime.settings.hook_undecided == "ask")
    return result._replace(stderr=result.stderr + warning) if warning else result


# -- output ----------------------------------------------------------------------------------------

def render(event: str, call: ToolCall, decision: Decision, *, undecided_ask: bool = False) -> HookResult:
    """The hook's answer for a decision, in Claude Code's terms. A warning of the decision (a broken trust
    store) goes to the user as ``systemMessage``, with or without a decision, and to stderr."""
    reason = f"phlegyas: {decision.reason}"
    note = _warning(decision)
    if event == PERMISSION_REQUEST:
        if decision.verdict is Verdict.ALLOW:
            return _json(PERMISSION_REQUEST, note, decision={"behavior": "allow", "updatedInput": call.tool_input})
        if decision.verdict is Verdict.DENY:
            return _json(PERMISSION_REQUEST, note, decision={"behavior": "deny", "message": reason})
        return _only(note)  # ask: the user's dialog decides
    if decision.verdict is Verdict.ASK and decision.tier == "fallback" and not undecided_ask:
        return _only(note)  # undecided: Claude Code's own permission flow goes on
    return _json(PRE_TOOL_USE, note, permissionDecision=str(decision.verdict), permissionDecisionReason=reason)


def _warning(decision: Decision) -> str | None:
    warnings = (decision.audit or {}).get("warnings")
    return "phlegyas: warning: " + "; ".join(warnings) if warnings else None


def _only(note: str | None) -> HookResult:
    """No decision (Claude Code's flow goes on), but the warning shown when there is one."""
    if note is None:
        return HookResult(0)
    return HookResult(0, json.dumps({"systemMessage": note}).encode("ascii") + b"\n",
                      note.encode("utf-8", "backslashreplace") + b"\n")


def failure(event: str | None, reason: str, warning: bytes = b"") -> HookResult:
    """Block: the deny decision for PermissionRequest (exit 2 is ignored there), else exit 2."""
    line = " ".join(f"phlegyas: {reason}".split())
    if event == PERMISSION_REQUEST:
        result = _json(PERMISSION_REQUEST, decision={"behavior": "deny", "message": line})
        return result._replace(stderr=warning)
    if warning:
        line += " (" + warning.decode("utf-8", "replace").strip().removeprefix("phlegyas: ") + ")"
    return HookResult(2, b"", line.encode("utf-8", "backslashreplace") + b"\n")


def _json(event: str, note: str | None = None, **fields) -> HookResult:
    body: dict = {"hookSpecificOutput": {"hookEventName": event, **fields}}
    if note is None:
        return HookResult(0, json.dumps(body).encode("ascii") + b"\n")
    body["systemMessage"] = note
    return HookResult(0, json.dumps(body).encode("ascii") + b"\n", note.encode("utf-8", "backslashreplace") + b"\n")


# -- audit -----------------------------------------------------------------------------------------

def record(settings, call: ToolCall, decision: Decision, mode: str, audit: Audit = Audit()) -> bytes:
    """Append the decision to the audit log; returns a warning line when that failed (the decision
    stands: a log that cannot be written never turns a deny into an allow). Raises Dropped when
    ``audit.claim`` says nobody waits for the decision."""
    audit.check()
    if not settings.enable_audit_log:
        return b""
    try:
        extra = {**(decision.audit or {}), "hook_path": audit.path}
        AuditLog(settings.audit_log_file).record(call, decision, mode=mode, extra=extra)
    except (AuditError, ValueError) as exc:
        return f"phlegyas: warning: audit log not written: {exc}\n".encode("utf-8", "backslashreplace")
    if settings.database_url and audit.path == "server":
        kick_shipper(settings)  # the shared database gets the row soon; in-process calls leave it to the server
    return b""


def _audit_failure(exc: BadEvent, reason: str, environ: Mapping[str, str], cwd: str, audit: Audit) -> bytes:
    """Log a rejected event as a deny (tier ``error``), with whatever of it was readable."""
    try:
        try:
            settings = Settings.load(environ, cwd=cwd)
        except ConfigError as err:
            return f"phlegyas: warning: audit log not written: configuration error: {err}\n".encode()
        data = exc.data
        name = data.get("tool_name")
        tool_input = data.get("tool_input")
        call = ToolCall(name if isinstance(name, str) else "(invalid)",
                        tool_input if isinstance(tool_input, dict) else {},
                        cwd=_text(data.get("cwd")) or cwd, session_id=_text(data.get("session_id")),
                        tool_use_id=_text(data.get("tool_use_id")))
        mode = _text(data.get("permission_mode")) or "default"
        return record(settings, call, Decision(Verdict.DENY, "error", reason), mode, audit)
    except Dropped:
        raise
    except Exception as err:  # noqa: BLE001 - the block stands whatever happens here
        return f"phlegyas: warning: audit log not written: {type(err).__name__}\n".encode()


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
