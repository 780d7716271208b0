"""Human escalation: park a call the gate would ask about, and wait for a person to answer it.

The request goes into the shared approvals store; a person sees it with ``phlegyas pending`` and
answers with ``phlegyas approve ID`` / ``phlegyas deny ID`` (or an orchestrator through the MCP tool
``submit_approval``), from any process or machine. The waiter waits on the store (SQLite: polls without
spinning; PostgreSQL: woken by LISTEN/NOTIFY) and denies when nobody answers in time. ``HumanChecker`` is the last step of the pipeline when
``APPROVAL_WAIT_SECONDS`` > 0; ``ask_human`` is the same path for adapters that hold an ask from an
earlier step (the MCP permission tool).
"""
from __future__ import annotations

import json
import logging
from dataclasses import replace
from typing import Callable, Protocol, Sequence

from phlegyas.core.analysis import Analysis, explain_lines, not_understood
from phlegyas.core.engine import Context
from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.core.text import printable
from phlegyas.store.approvals import (
    APPROVED,
    DENIED,
    PENDING,
    ApprovalError,
    ApprovalStore,
    PendingRequest,
    StoreUnavailable,
)
from phlegyas.store.backends import open_store

TIER = "human"
ENABLE_HINT = ("set APPROVAL_WAIT_SECONDS (e.g. APPROVAL_WAIT_SECONDS=120) to park such calls and answer "
               "them with `phlegyas pending` and `phlegyas approve ID` / `phlegyas deny ID`")

Notify = Callable[[PendingRequest, float], None]
_log = logging.getLogger("phlegyas.human")


class Channel(Protocol):
    """Somewhere people are shown a parked request and can answer it (Slack): ``announce`` shows it
    (None, or what went wrong: the request stays parked for the other ways to answer), ``settle`` shows
    how it ended once the waiter has its answer."""

    def announce(self, request: PendingRequest, details: Sequence[str] = ()) -> str | None: ...

    def settle(self, request: PendingRequest) -> None: ...


def details_for(asked: Decision, analysis: Analysis | None) -> list[str]:
    """What a person is shown under the reason: the analysis per subcommand (as ``phlegyas check``
    prints it), why the call is not understood, and Tier 3's confidence when Tier 3 asked."""
    lines = explain_lines(analysis) if analysis is not None else []
    note = not_understood(analysis) if analysis is not None else None
    if note:
        lines.append(note)
    if asked.tier == "tier3_ai" and asked.confidence is not None:
        lines.append(f"Tier 3 (AI) confidence {asked.confidence:.2f}: {asked.reason}")
    return lines


def announce(request: PendingRequest, wait_seconds: float) -> None:
    """The default notifier: one warning line (stderr when logging is not configured)."""
    _log.warning("phlegyas: waiting up to %s s for a human decision on %s (request %s); answer with "
                 "`phlegyas approve %s` or `phlegyas deny %s`", _seconds(wait_seconds), summary(request),
                 request.id, request.id, request.id)


def ask_human(store: ApprovalStore, call: ToolCall, asked: Decision, *, wait_seconds: float,
              ttl_seconds: float, notify: Notify | None = announce, channels: Sequence[Channel] = (),
              details: Sequence[str] = ()) -> Decision:
    """Park ``call`` (``asked`` says why the gate asks), show it on ``channels`` (with ``details``) and
    wait up to ``wait_seconds`` for a person.

    The request lives no longer than the wait: when nobody answers it is withdrawn (so it leaves the
    pending list) and the call is denied. A decision that lands during the withdrawal still counts. A
    channel that could not show the request is named in the decision's reason.
    """
    request = store.create(call, asked, workflow_id=call.workflow_id, agent_id=call.agent_id,
                           ttl=min(ttl_seconds, wait_seconds))
    problems: list[str] = []
    try:
        if notify is not None:
            notify(request, wait_seconds)
        for channel in channels:
            problem = channel.announce(request, details)
            if problem:
                problems.append(problem)
        final = store.wait(request.id, wait_seconds)
    except StoreUnavailable:
        raise  # nothing can be withdrawn or settled now; the request expires with the wait
    except BaseException:
        _withdraw_quietly(store, request.id, "the waiting process stopped")
        _settle_quietly(channels, store, request.id)
        raise
    if final.status not in (APPROVED, DENIED):  # still pending, or it expired as the wait ended
        final = store.withdraw(request.id, reason=f"nobody answered within {_seconds(wait_seconds)} s")
    for channel in channels:
        channel.settle(final)
    decision = decision_for(final, asked)
    if problems:
        decision = replace(decision, reason=f"{decision.reason}; {'; '.join(problems)}")
    return decision


def _settle_quietly(channels: Sequence[Channel], store: ApprovalStore, request_id: str) -> None:
    try:
        final = store.get(request_id)
        for channel in channels:
            channel.settle(final)
    except Exception:  # noqa: BLE001 - best effort: a watcher elsewhere updates the message later
        pass


def _withdraw_quietly(store: ApprovalStore, request_id: str, reason: str) -> None:
    try:
        store.withdraw(request_id, reason=reason)
    except Exception:  # noqa: BLE001 - best effort: the request expires on its own anyway
        pass


def decision_for(request: PendingRequest, asked: Decision | None = None) -> Decision:
    """The gate's decision once a request is settled: approved → allow, anything else → deny."""
    audit = {"human": {"request_id": request.id, "status": request.status, "approver_id": request.approver_id}}
    because = f": {request.resolution_reason}" if request.resolution_reason else ""
    if request.status == APPROVED:
        return Decision(Verdict.ALLOW, TIER, f"approved by {request.approver_id}{because}", audit=audit)
    if request.status == DENIED:
        return Decision(Verdict.DENY, TIER, f"denied by {request.approver_id}{because}", audit=audit)
    asked_why = f"; asked because: {asked.reason}" if asked is not None else ""
    if request.status == PENDING:
        return Decision(Verdict.ASK, TIER, f"waiting for a human decision (request {request.id}){asked_why}",
                        audit=audit)
    what = request.resolution_reason or "the request expired"
    return Decision(Verdict.DENY, TIER, f"no human decision: {what} (request {request.id}){asked_why}",
                    audit=audit)


def cannot_ask(asked: Decision, problem: Exception) -> Decision:
    """The deny for an ask when the approvals store failed (a shared database out of reach)."""
    return Decision(Verdict.DENY, "error", f"cannot ask a human: {problem}; {asked.reason}", rule=asked.rule,
                    findings=asked.findings, audit=asked.audit)


def no_human(asked: Decision) -> Decision:
    """The deny for an ask when no human can be asked (APPROVAL_WAIT_SECONDS is 0)."""
    return Decision(Verdict.DENY, asked.tier,
                    f"{asked.reason}; denied: no human could be asked (APPROVAL_WAIT_SECONDS is 0): {ENABLE_HINT}",
                    rule=asked.rule, findings=asked.findings, confidence=asked.confidence, audit=asked.audit)


def resolution_entry(request: PendingRequest, via: str) -> tuple[ToolCall, Decision]:
    """The call and decision to write to the audit log when a person resolves ``request`` through
    ``via`` (``cli``, ``mcp``); the decision's audit extras name the request, the approver and ``via``."""
    call = ToolCall(request.tool_name, dict(request.tool_input), cwd=request.cwd, mode=request.mode,
                    session_id=request.session_id, agent_id=request.agent_id, workflow_id=request.workflow_id,
                    tool_use_id=request.tool_use_id)
    decision = decision_for(request)
    return call, replace(decision, audit={"human": {**decision.audit["human"], "via": via}})


def summary(request: PendingRequest, width: int = 60) -> str:
    """``Bash: rm -rf build`` — the tool and the gist of its input, on one line."""
    return f"{shorten(request.tool_name, 40)}: {gist(request.tool_input, width)}"


GIST_KEYS = ("command", "file_path", "notebook_path", "url", "path", "pattern", "query")


def gist(tool_input: dict, width: int = 60) -> str:
    """The most telling field of a tool input (the command, the path, the URL…), else its JSON, cut
    to ``width`` printable characters."""
    for key in GIST_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            return shorten(value, width)
    return shorten(json.dumps(tool_input, ensure_ascii=False), width)


def shorten(text: str, width: int) -> str:
    """One printable line of at most ``width`` characters: control characters escaped, the rest cut."""
    flat = printable(text)
    return flat if len(flat) <= width else flat[:max(1, width - 1)] + "…"


def _seconds(value: float) -> str:
    return f"{value:g}"


class HumanChecker:
    """The gate's escalation: a call the pipeline asked about waits for a person (denied on timeout).

    The store is opened on first use, so building a gate costs nothing. In ``dontAsk`` mode nobody
    may be asked: the checker stands aside and the engine denies.
    """

    def __init__(self, open_store: Callable[[], ApprovalStore], *, wait_seconds: float, ttl_seconds: float,
                 notify: Notify | None = announce, open_channels: OpenChannels | None = None):
        if wait_seconds <= 0:
            raise ValueError("HumanChecker needs wait_seconds > 0")
        self._open_store = open_store
        self._store: ApprovalStore | None = None
        self.wait_seconds = wait_seconds
        self.ttl_seconds = ttl_seconds
        self.notify = notify
        self.open_channels = open_channels

    def escalate(self, ctx: "Context", asked: Decision) -> Decision:
        """Park the call the pipeline asked about, show it where people answer, and wait."""
        if ctx.mode == "dontAsk":
            return asked
        try:
            if self._store is None:
                self._store = self._open_store()
            channels, problems, close = self._channels(self._store)
            try:
                decision = ask_human(self._store, ctx.call, asked, wait_seconds=self.wait_seconds,
                                     ttl_seconds=self.ttl_seconds, notify=self.notify, channels=channels,
                                     details=details_for(asked, ctx._analysis))
            finally:
                close()
        except ApprovalError as exc:  # the store is out of reach (a database that went away): fail closed
            return cannot_ask(asked, exc)
        if problems:
            decision = replace(decision, reason=f"{decision.reason}; {'; '.join(problems)}")
        return decision

    def _channels(self, store: ApprovalStore) -> tuple[list[Channel], list[str], Callable[[], None]]:
        if self.open_channels is None:
            return [], [], lambda: None
        return self.open_channels(store)


OpenChannels = Callable[[ApprovalStore], "tuple[list[Channel], list[str], Callable[[], None]]"]
"""Opens the channels of one wait: ``(channels, problems opening them, close)``."""


def human_checker(settings, open_channels: OpenChannels | None = None) -> HumanChecker:
    """The checker for ``settings`` (the person's wait, PENDING_TTL_SECONDS, the data dir); ``open_channels``
    opens the places people answer besides the terminal (Slack) for each wait."""
    return HumanChecker(lambda: open_store(settings), wait_seconds=settings.person_wait_seconds,
                        ttl_seconds=settings.pending_ttl_seconds, open_channels=open_channels)
