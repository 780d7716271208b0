"""Pending approvals: calls parked until a human approves or denies them, shared by every process.

An MCP server, the PermissionRequest hook and ``phlegyas pending/approve/deny`` all open the same store
(SQLite by default: ``<data_dir>/approvals.sqlite3``; a PostgreSQL database shared by a fleet with
``PHLEGYAS_DATABASE_URL``), so a request parked by one process — or machine — can be resolved from
another. This module holds the vocabulary: ``PendingRequest``, the ``ApprovalStore`` protocol a backend
implements, the errors, request-id validation and the row helpers both backends share. It does no I/O.

Lifecycle of a request: ``pending`` → ``approved`` | ``denied`` (by someone, once) or ``expired``
(its time to live ran out, or the waiting process gave up on it). Only a pending request can be
resolved; a second resolution raises ``AlreadyResolved`` naming who resolved it and when.
"""
from __future__ import annotations

import json
import math
import uuid
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any, Protocol

from phlegyas.core.model import Decision, ToolCall
from phlegyas.core.redact import redact, redact_value

PENDING, APPROVED, DENIED, EXPIRED = "pending", "approved", "denied", "expired"
STATUSES = (PENDING, APPROVED, DENIED, EXPIRED)
MAX_STORED_INPUT_BYTES = 64 * 1024
"""A tool input larger than this (serialized) has its long strings cut before it is stored."""
MAX_TEXT_CHARS = 4096
"""Reasons and names longer than this are cut before they are stored."""


class ApprovalError(Exception):
    """Anything that went wrong with an approval request; the message says what, for a person."""


class InvalidRequestId(ApprovalError, ValueError):
    """The id is not a canonical UUID (rejected before the store is touched)."""


class NotFound(ApprovalError):
    """No request has this id in this store."""


class AlreadyResolved(ApprovalError):
    """The request was already approved, denied or expired; ``request`` is its current state."""

    def __init__(self, message: str, request: "PendingRequest"):
        super().__init__(message)
        self.request = request


class Expired(ApprovalError):
    """The request's time to live ran out before anyone resolved it; ``request`` is its state."""

    def __init__(self, message: str, request: "PendingRequest"):
        super().__init__(message)
        self.request = request


class StoreError(ApprovalError):
    """The store itself failed (cannot open or write the database, schema from a newer version)."""


class StoreUnavailable(StoreError):
    """The store cannot be reached at all (a shared database out of reach): nothing can be written to it
    until it is back, so there is no point in trying to tidy up (a request expires on its own)."""


def parse_request_id(value: object) -> str:
    """The canonical (lower-case, hyphenated) form of a UUID given as text; InvalidRequestId otherwise.

    Only the 36-character ``8-4-4-4-12`` form is accepted (any case): no braces, no ``urn:uuid:``, no
    missing hyphens, no surrounding space.
    """
    if not isinstance(value, str):
        raise InvalidRequestId(f"request id must be a string (a UUID), got {type(value).__name__}")
    try:
        canonical = str(uuid.UUID(value)) if len(value) == 36 else None
    except ValueError:
        canonical = None
    if canonical is None or canonical != value.lower():
        shown = value if len(value) <= 60 else value[:57] + "..."
        raise InvalidRequestId(
            f"request id must be a UUID such as 0b8e7c52-3f4d-4b8a-9c1e-2d6f5a7b8c9d, got {shown!r}")
    return canonical


def new_request_id() -> str:
    return str(uuid.uuid4())


def format_time(epoch: float | None) -> str | None:
    """ISO 8601 UTC with a ``Z`` (second precision) for an epoch time; None stays None."""
    if epoch is None:
        return None
    moment = datetime.fromtimestamp(epoch, tz=timezone.utc)
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class PendingRequest:
    """One parked call and what became of it. Times are epoch seconds (UTC); the input is redacted.

    ``tier`` and ``reason`` say why the gate asked; ``approver_id``, ``resolved_at`` and
    ``resolution_reason`` say who resolved it, when and why (for ``expired``: why it expired), and
    ``resolved_via`` through what (``cli``, ``mcp``, ``slack``, ``dashboard``); ``machine`` is the host
    name of the machine that parked it (one shared database serves a fleet).
    """

    id: str
    tool_name: str
    tool_input: dict[str, Any]
    tier: str
    reason: str
    created_at: float
    expires_at: float
    status: str = PENDING
    cwd: str | None = None
    mode: str | None = None
    session_id: str | None = None
    workflow_id: str | None = None
    agent_id: str | None = None
    tool_use_id: str | None = None
    resolved_at: float | None = None
    approver_id: str | None = None
    resolution_reason: str | None = None
    resolved_via: str | None = None
    machine: str | None = None

    @property
    def is_pending(self) -> bool:
        return self.status == PENDING

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict, times as ISO 8601 strings (the shape the MCP tools and ``--json`` print)."""
        return {
            "request_id": self.id,
            "status": self.status,
            "tool_name": self.tool_name,
            "tool_input": self.tool_input,
            "tier": self.tier,
            "reason": self.reason,
            "cwd": self.cwd,
            "mode": self.mode,
            "session_id": self.session_id,
            "workflow_id": self.workflow_id,
            "agent_id": self.agent_id,
            "tool_use_id": self.tool_use_id,
            "created_at": format_time(self.created_at),
            "expires_at": format_time(self.expires_at),
            "resolved_at": format_time(self.resolved_at),
            "approver_id": self.approver_id,
            "resolution_reason": self.resolution_reason,
            "resolved_via": self.resolved_via,
            "machine": self.machine,
        }

    def describe(self) -> str:
        """``approved by alice at 2026-…Z`` — what happened to it, for error messages."""
        if self.status == PENDING:
            return f"pending until {format_time(self.expires_at)}"
        if self.status == EXPIRED:
            why = f" ({self.resolution_reason})" if self.resolution_reason else ""
            return f"expired at {format_time(self.resolved_at or self.expires_at)}{why}"
        return f"{self.status} by {self.approver_id or 'unknown'} at {format_time(self.resolved_at)}"


class ApprovalStore(Protocol):
    """Where pending requests live. Every method is safe to call from many processes at once.

    Ids are checked with ``parse_request_id`` first: a malformed id raises InvalidRequestId.
    """

    def create(self, call: "ToolCall", decision: "Decision", *, workflow_id: str | None = None,
               agent_id: str | None = None, ttl: float) -> PendingRequest:
        """Park ``call`` (the gate asked, ``decision`` says why) for ``ttl`` seconds."""
        ...

    def get(self, request_id: str) -> PendingRequest:
        """The request's current state (``expired`` once its time ran out). Raises NotFound."""
        ...

    def list_pending(self, workflow_id: str | None = None, agent_id: str | None = None) -> list[PendingRequest]:
        """Unexpired pending requests, oldest first, optionally only one workflow's or agent's."""
        ...

    def resolve(self, request_id: str, approve: bool, *, reason: str | None = None,
                approver_id: str, via: str | None = None) -> PendingRequest:
        """Approve or deny a pending request, once (``via``: the way the answer came). Raises NotFound,
        AlreadyResolved or Expired."""
        ...

    def withdraw(self, request_id: str, *, reason: str) -> PendingRequest:
        """Expire a still-pending request now (its waiter gave up); returns the final state, which is
        the human's decision if one landed first. Raises NotFound."""
        ...

    def wait(self, request_id: str, timeout: float) -> PendingRequest:
        """Block until the request is resolved or expires, or ``timeout`` seconds pass (then it is
        returned still pending). Sleeps between checks; never spins. Raises NotFound."""
        ...

    def stats(self) -> dict[str, Any]:
        """Counts by status, and the age of the oldest pending request."""
        ...

    def add_notice(self, request_id: str, channel: str, ref: dict[str, Any]) -> None:
        """Remember where the request is shown to people (``channel`` ``slack``: the message's channel ID
        and ts), so any process can keep that message current — also after a restart. Raises NotFound."""
        ...

    def open_notices(self, channel: str) -> list[tuple[PendingRequest, dict[str, Any]]]:
        """The requests shown on ``channel`` whose notice is still open (the message still asks), with
        their refs, oldest first."""
        ...

    def close_notice(self, request_id: str, channel: str) -> bool:
        """Mark the notice final (its message now says how the request ended). True for the one caller
        that closed it, False when it was closed already; ``add_notice`` reopens it."""
        ...


# --- helpers for backends ------------------------------------------------------------------------

COLUMNS = ("id", "tool_name", "tool_input", "tier", "reason", "created_at", "expires_at", "status", "cwd",
           "mode", "session_id", "workflow_id", "agent_id", "tool_use_id", "resolved_at", "approver_id",
           "resolution_reason", "resolved_via", "machine")
"""A request's stored columns, in the order both backends store them."""


def new_request(call: "ToolCall", decision: "Decision", *, workflow_id: str | None, agent_id: str | None,
                ttl: float, now: float, machine: str | None) -> tuple[PendingRequest, dict[str, Any]]:
    """The request ``create`` parks and its row (column → value, the input as stored JSON); ApprovalError
    for a call without a tool name or a ttl that is not a positive number."""
    if not isinstance(call.tool_name, str) or not call.tool_name:
        raise ApprovalError("cannot park a call without a tool name")
    if isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not math.isfinite(ttl) or ttl <= 0:
        raise ApprovalError(f"ttl must be a number of seconds greater than 0, got {ttl!r}")
    request = PendingRequest(
        id=new_request_id(), tool_name=stored_text(call.tool_name), tool_input={},
        tier=stored_text(decision.tier), reason=stored_text(decision.reason), created_at=now,
        expires_at=now + float(ttl), cwd=call.cwd, mode=call.mode, session_id=call.session_id,
        workflow_id=optional_text(workflow_id if workflow_id is not None else call.workflow_id, "workflow_id"),
        agent_id=optional_text(agent_id if agent_id is not None else call.agent_id, "agent_id"),
        tool_use_id=call.tool_use_id, machine=optional_text(machine, "machine"))
    row = {column: getattr(request, column) for column in COLUMNS}
    row["tool_input"] = stored_input(call.tool_input)
    return replace(request, tool_input=load_object(row["tool_input"])), row


def resolution(approve: object, reason: object, approver_id: object, via: object) -> tuple[str, str, str | None,
                                                                                          str | None]:
    """``(status, approver, reason, via)`` as ``resolve`` stores them; ApprovalError for a bad argument."""
    if not isinstance(approve, bool):
        raise ApprovalError(f"approve must be true or false, got {approve!r}")
    approver = required_text(approver_id, "approver_id")
    why = stored_text(reason) if reason is not None and str(reason).strip() else None
    return (APPROVED if approve else DENIED), approver, why, optional_text(via, "via")


def request_from_row(row: Any, now: float) -> PendingRequest:
    """The request of a stored row (anything indexable by column name); a pending row past its expiry
    reads as expired."""
    values = {column: row[column] for column in COLUMNS}
    values["tool_input"] = load_object(values["tool_input"])
    if values["id"] is not None and not isinstance(values["id"], str):
        values["id"] = str(values["id"])  # PostgreSQL's uuid
    if values["status"] == PENDING and now >= values["expires_at"]:
        values["status"] = EXPIRED
        values["resolution_reason"] = "no decision before it expired"
    return PendingRequest(**values)


def refusal(current: PendingRequest) -> ApprovalError:
    """Why ``current`` cannot be resolved: Expired or AlreadyResolved."""
    if current.status == EXPIRED:
        return Expired(f"request {current.id} {current.describe()}; it can no longer be approved or denied", current)
    return AlreadyResolved(f"request {current.id} is already {current.describe()}", current)


def pending_filters(workflow_id: object, agent_id: object) -> list[tuple[str, str]]:
    """``list_pending``'s filters as (column, value) pairs, the values checked as they are stored."""
    return [(column, optional_text(value, column) or "") for column, value in
            (("workflow_id", workflow_id), ("agent_id", agent_id)) if value is not None]


def stats_report(backend: str, path: str, counts: dict[str, int], oldest: float | None, now: float,
                 retention_seconds: int, **extra: Any) -> dict[str, Any]:
    """``stats()``'s answer: the backend and where it is, ``extra`` facts, counts by status (every status,
    0 when none), the oldest pending request's time and age, and the retention."""
    by_status = {status: 0 for status in STATUSES}
    by_status.update(counts)
    return {
        "backend": backend,
        "path": path,
        **extra,
        "total": sum(by_status.values()),
        **by_status,
        "oldest_pending_at": format_time(oldest),
        "oldest_pending_age_seconds": round(now - oldest, 3) if oldest is not None else None,
        "retention_days": retention_seconds // 86400,
    }


def load_object(text: str) -> dict[str, Any]:
    """A stored JSON object (an input, a notice's ref); something else is shown as what it is."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError, TypeError):
        return {"_unreadable": "stored input is not valid JSON"}
    return value if isinstance(value, dict) else {"_value": value}


def optional_text(value: object, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApprovalError(f"{name} must be a string, got {type(value).__name__}")
    return stored_text(value)


def required_text(value: object, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ApprovalError(f"{name} must be a non-empty string, got {value!r}")
    return stored_text(value.strip())


def not_found(rid: str) -> NotFound:
    return NotFound(f"no approval request {rid} (it may have expired and been purged, or it lives in another "
                    "PHLEGYAS_HOME or database)")


def stored_input(tool_input: object) -> str:
    """The redacted tool input as compact JSON, its long strings cut to stay under the size limit."""
    value = redact_value(tool_input)
    text = _dumps(value)
    cap = MAX_TEXT_CHARS
    while len(text.encode("utf-8", "backslashreplace")) > MAX_STORED_INPUT_BYTES and cap >= 16:
        text = _dumps(_cut_strings(value, cap))
        cap //= 2
    if len(text.encode("utf-8", "backslashreplace")) > MAX_STORED_INPUT_BYTES:
        text = _dumps({"_truncated": f"tool input too large to store ({len(text)} characters)"})
    return text


def stored_text(text: object) -> str:
    """A reason or name as stored: redacted, one bounded string."""
    value = redact(text if isinstance(text, str) else str(text))
    return value if len(value) <= MAX_TEXT_CHARS else value[:MAX_TEXT_CHARS] + "...[truncated]"


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=repr)


def _cut_strings(value: object, cap: int) -> object:
    if isinstance(value, str):
        return value if len(value) <= cap else f"{value[:cap]}...[truncated {len(value) - cap} chars]"
    if isinstance(value, dict):
        return {k: _cut_strings(v, cap) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut_strings(v, cap) for v in value]
    return value
