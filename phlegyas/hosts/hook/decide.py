"""Decide one hook event of any agent host: parse it in its host's dialect, ask the gate, audit, answer.

``handle(raw, environ, cwd)`` is the whole hook, minus the process: the thin client (``phlegyas.hosts.hook.client``)
calls it in-process, and the resident server (``phlegyas.hosts.hook.server``) calls it for the clients it serves.

The host is ``PHLEGYAS_AGENT`` in ``environ`` (the client's ``--agent``), else the one whose dialect
recognises the event's shape; an event no dialect recognises is an error, blocked. Its dialect
(``phlegyas.hosts.hook.dialects``) maps the event to a ``ToolCall`` of one of three kinds:

- PRE (before a tool runs: Claude Code's ``PreToolUse``, Gemini's ``BeforeTool``, …): the fast path (rules,
  modes, Tier 1, protected paths, Tier 2, Tier 2.5; no AI, no waiting for a human);
- PERMISSION (the host is about to ask its user: ``PermissionRequest``): the full pipeline;
- NOTICE (the host reports its own denial: ``PermissionDenied``): audited as the host's deny, no answer.

and renders the decision in the host's answer format. Malformed input, an unknown event, any internal
error: the dialect's ``failure`` (a block in the host's way).

Each audit entry says which host sent the call (``host``), its event (``hook_event``) and which path
decided it (``hook_path``: ``server`` or ``in-process``). The server passes an ``Audit`` whose ``claim`` is
asked right before the decision is audited: when its client has gone (and decides by itself), the
decision is dropped unaudited, so no call is audited twice.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Mapping, NamedTuple

from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.hosts.hook.dialects import registry
from phlegyas.hosts.hook.dialects.base import NOTICE, PERMISSION, PRE, BadEvent, Event, HookResult, load_event, text
from phlegyas.policy.settings import ConfigError, Settings
from phlegyas.runtime import fast_gate, load_runtime
from phlegyas.store.audit import AuditError, AuditLog
from phlegyas.store.backends import kick_shipper

AGENT_VARIABLE = "PHLEGYAS_AGENT"  # as the client sets it


class Dropped(Exception):
    """The caller's ``claim`` said no: nobody waits for this decision any more."""


# -- input -----------------------------------------------------------------------------------------

def parse_event(raw: bytes, agent: str | None = None):
    """The dialect and the event of a hook event's bytes. Raises BadEvent (with the dialect of the
    named host, or of the one the shape suggests, as ``exc.dialect``) with a clear message."""
    dialect = registry.by_name(agent) if agent else None
    try:
        data = load_event(raw)
        if dialect is None:
            dialect = registry.recognize(data) or registry.closest(data)
        if dialect is None:
            raise BadEvent("an event of no host phlegyas knows (" + ", ".join(registry.names()) +
                           "): give the host with --agent", data=data)
        return dialect, dialect.parse(data)
    except BadEvent as exc:
        exc.dialect = dialect or registry.guess(raw)  # type: ignore[attr-defined]
        raise


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
    """Decide the event ``raw`` (the bytes the host wrote on stdin) with the settings of ``environ``;
    ``cwd`` is used when the event has none. Returns None for an event whose kind is listed in ``defer``
    (the server leaves those to the client), and for a decision ``audit.claim`` dropped (nothing
    audited). Never raises an Exception."""
    dialect, kind = None, None
    try:
        try:
            dialect, event = parse_event(raw, environ.get(AGENT_VARIABLE) or None)
            kind = event.kind
            if kind in defer:
                return None
            return decide_event(dialect, event, environ, event.call.cwd or cwd, audit)
        except BadEvent as exc:
            dialect = getattr(exc, "dialect", None) or registry.fallback()
            reason = f"invalid hook input: {exc}"
            warning = _audit_failure(exc, dialect.NAME, reason, environ, cwd, audit)
            return failure(dialect, exc.kind, reason, warning)
    except Dropped:
        return None
    except Exception as exc:  # noqa: BLE001 - fail closed, with the error in the reason
        return failure(dialect or registry.fallback(), kind, f"internal error: {type(exc).__name__}: {exc}")


def decide_event(dialect, event: Event, environ: Mapping[str, str], cwd: str,
                 audit: Audit = Audit()) -> HookResult:
    call = event.call if event.call.cwd is not None else replace(event.call, cwd=cwd)
    event = event._replace(call=call)
    try:
        runtime = load_runtime(environ, cwd, interactive=True)
    except ConfigError as exc:
        return failure(dialect, event.kind, f"configuration error: {exc}")
    gate = runtime.gate(cwd)
    extra = {"host": dialect.NAME, "hook_event": event.name}
    if event.kind == NOTICE:
        decision = _host_denial(dialect, event)
        warning = record(runtime.settings, call, decision, call.mode or "default", audit, extra)
        return dialect.render(event, decision)._replace(stderr=warning) if warning else dialect.render(event, decision)
    if event.kind == PRE:
        gate = fast_gate(gate)
    decision = gate.decide(call)
    warning = record(runtime.settings, call, decision, gate.mode_for(call), audit, extra)
    if audit.path == "server" and not runtime.settings.database_url and \
            (getattr(gate.policy, "settings", None) or {}).get("database_url"):
        kick_shipper(runtime.settings_for(cwd))  # the database named by the user policy's [settings]
    result = dialect.render(event, decision, undecided_ask=runtime.settings.hook_undecided == "ask")
    return result._replace(stderr=result.stderr + warning) if warning else result


def _host_denial(dialect, event: Event) -> Decision:
    """A NOTICE: the host denied the call itself (Claude Code's auto-mode classifier); phlegyas records it."""
    said = next((t for t in (text(event.data.get(k)) for k in ("reason", "message")) if t), None)
    reason = f"{dialect.HOST} denied it itself ({event.name})" + (f": {said[:500]}" if said else "")
    return Decision(Verdict.DENY, "host", reason)


# -- output ----------------------------------------------------------------------------------------

def failure(dialect, kind: str | None, reason: str, warning: bytes = b"") -> HookResult:
    """Block in the host's way; a warning (the audit log not written) goes with the reason."""
    if warning and kind != PERMISSION:
        reason += " (" + warning.decode("utf-8", "replace").strip().removeprefix("phlegyas: ") + ")"
    result = dialect.failure(kind, reason)
    return result._replace(stderr=result.stderr + warning) if warning and kind == PERMISSION else result


# -- audit -----------------------------------------------------------------------------------------

def record(settings, call: ToolCall, decision: Decision, mode: str, audit: Audit = Audit(),
           extra: Mapping[str, str] | None = None) -> bytes:
    """Append the decision to the audit log; returns a warning line when that failed (the decision
    stands: a log that cannot be written never turns a deny into an allow). Raises Dropped when
    ``audit.claim`` says nobody waits for the decision."""
    audit.check()
    if not settings.enable_audit_log:
        return b""
    try:
        fields = {**(decision.audit or {}), **(extra or {}), "hook_path": audit.path}
        AuditLog(settings.audit_log_file).record(call, decision, mode=mode, extra=fields)
    except (AuditError, ValueError) as exc:
        return f"phlegyas: warning: audit log not written: {exc}\n".encode("utf-8", "backslashreplace")
    if settings.database_url and audit.path == "server":
        kick_shipper(settings)  # the shared database gets the row soon; in-process calls leave it to the server
    return b""


def _audit_failure(exc: BadEvent, host: str, reason: str, environ: Mapping[str, str], cwd: str,
                   audit: Audit) -> bytes:
    """Log a rejected event as a deny (tier ``error``), with whatever of it was readable."""
    try:
        try:
            settings = Settings.load(environ, cwd=cwd)
        except ConfigError as err:
            return f"phlegyas: warning: audit log not written: configuration error: {err}\n".encode()
        data = exc.data
        name = _first(data, ("tool_name", "toolName", "tool"), str)
        tool_input = _first(data, ("tool_input", "toolArgs", "args"), dict)
        call = ToolCall(name or "(invalid)", tool_input or {}, cwd=text(data.get("cwd")) or cwd,
                        session_id=_first(data, ("session_id", "sessionId", "sessionID", "conversation_id"), str),
                        tool_use_id=_first(data, ("tool_use_id", "callID"), str))
        mode = text(data.get("permission_mode")) or "default"
        return record(settings, call, Decision(Verdict.DENY, "error", reason), mode, audit, {"host": host})
    except Dropped:
        raise
    except Exception as err:  # noqa: BLE001 - the block stands whatever happens here
        return f"phlegyas: warning: audit log not written: {type(err).__name__}\n".encode()


def _first(data: dict, keys: tuple[str, ...], kind: type):
    """The first of ``keys`` (the hosts' spellings of one field) whose value is a ``kind``, else None."""
    return next((data[k] for k in keys if isinstance(data.get(k), kind)), None)
