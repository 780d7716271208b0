"""What the dashboard shows and does, without HTTP: the pending requests (with the analysis a person
needs), answering them, the history and statistics from the audit index, the trust store, the policy.

Answers go into the same approvals store as the CLI, the MCP tools and Slack (``via="dashboard"``), and
each is one audit line, as ``phlegyas approve`` writes one.
"""
from __future__ import annotations

import os
import pwd
import threading
import time
from dataclasses import dataclass
from typing import Any

from phlegyas.core.model import ToolCall
from phlegyas.human.queue import details_for, resolution_entry
from phlegyas.runtime import fast_gate
from phlegyas.store.approvals import ApprovalStore, PendingRequest
from phlegyas.store.audit import AuditError, AuditLog
from phlegyas.store.audit_index import AuditIndex
from phlegyas.trust.store import TrustStore, TrustStoreError, hash_file

FLEET_LOG = "fleet-audit.jsonl"
"""With a shared database: the local mirror of every machine's audit rows that the dashboard indexes."""
RECENT_SECONDS = 60.0
"""How long a request answered elsewhere is still shown as "answered by … via …"."""
EXPLAIN_CACHE = 512


@dataclass(frozen=True)
class Answered:
    """A request that left the pending list, and how."""

    request: PendingRequest
    seen_at: float


class DashboardService:
    """The dashboard's logic over a runtime (for explanations and the policy), the approvals store, the
    audit index and the trust store."""

    def __init__(self, runtime, store: ApprovalStore, *, cwd: str, fleet: Any = None):
        """``fleet``: the shared database (``pg_connect.Database``) whose audit trail the history and the
        statistics show, mirrored into ``<data_dir>/fleet-audit.jsonl``; None: this machine's log."""
        self.runtime = runtime
        self.settings = runtime.settings_for(cwd)
        self.store = store
        self.cwd = cwd
        self.audit = AuditLog(self.settings.audit_log_file) if self.settings.enable_audit_log else None
        self.fleet = fleet
        self.fleet_error: str | None = None
        self.history_path = (os.path.join(self.settings.data_dir, FLEET_LOG) if fleet is not None
                             else self.settings.audit_log_file)
        self.index = AuditIndex(self.history_path)
        self.trust_store = TrustStore(self.settings.trust_store)
        self._lock = threading.Lock()
        self._explained: dict[str, list[str]] = {}
        self._last_pending: dict[str, PendingRequest] = {}
        self._answered: dict[str, Answered] = {}
        self.user = _user_name()

    # -- pending -----------------------------------------------------------------------------------

    def pending(self) -> dict[str, Any]:
        """The pending requests (oldest first, each with what the analysis says) and those answered
        elsewhere in the last minute (who, how)."""
        now = time.time()
        requests = self.store.list_pending()
        current = {r.id: r for r in requests}
        with self._lock:
            for rid in set(self._last_pending) - set(current):
                try:
                    self._answered[rid] = Answered(self.store.get(rid), now)
                except Exception:  # noqa: BLE001 - purged meanwhile: nothing to say about it
                    pass
            self._last_pending = current
            for rid in [k for k, v in self._answered.items() if now - v.seen_at > RECENT_SECONDS]:
                del self._answered[rid]
            answered = sorted(self._answered.values(), key=lambda a: -a.seen_at)
        return {"requests": [self._shown(r, now) for r in requests],
                "answered": [_answer(a.request) for a in answered]}

    def _shown(self, request: PendingRequest, now: float) -> dict[str, Any]:
        out = request.to_json()
        if self.fleet is None:  # one machine: its own name says nothing
            out["machine"] = None
        out["expires_in"] = max(0, round(request.expires_at - now))
        out["details"] = self._details(request)
        return out

    def _details(self, request: PendingRequest) -> list[str]:
        """What ``phlegyas check`` says about the call, per subcommand (decided once per request)."""
        with self._lock:
            cached = self._explained.get(request.id)
        if cached is not None:
            return cached
        try:
            call = ToolCall(request.tool_name, dict(request.tool_input), cwd=request.cwd or self.cwd,
                            mode=request.mode)
            # no Tier 3 call and no person asked: an explanation must not cost money or park another request
            decision, ctx = fast_gate(self.runtime.gate(call.cwd)).explain(call)
            lines = details_for(decision, ctx._analysis if ctx is not None else None)
        except Exception as exc:  # noqa: BLE001 - the explanation is extra: say why it is missing
            lines = [f"(no explanation: {type(exc).__name__})"]
        with self._lock:
            if len(self._explained) >= EXPLAIN_CACHE:
                self._explained.clear()
            self._explained[request.id] = lines
        return lines

    def resolve(self, request_id: str, approve: bool, reason: str | None) -> PendingRequest:
        """Approve or deny from the dashboard (raises ApprovalError: unknown, expired, already answered)."""
        request = self.store.resolve(request_id, approve, reason=reason or None,
                                     approver_id=f"{self.user} (dashboard)", via="dashboard")
        if self.audit is not None:
            call, decision = resolution_entry(request, "dashboard")
            try:
                self.audit.record(call, decision, mode=request.mode or self.settings.mode, extra=decision.audit)
            except (AuditError, ValueError):
                pass  # the decision stands; the audit log's own problem shows in `phlegyas doctor`
        return request

    # -- history and statistics ----------------------------------------------------------------------

    def refresh_index(self) -> None:
        if self.fleet is not None:
            self._mirror_fleet()
        if os.path.exists(self.history_path):
            self.index.refresh()

    def _mirror_fleet(self) -> None:
        """Bring the fleet's new audit rows into the local mirror (this machine's own first); a database
        out of reach leaves the mirror as it was and says why (``fleet_error``)."""
        from phlegyas.store.approvals import StoreError  # the PostgreSQL modules: only with a database
        from phlegyas.store.backends import ship_now
        from phlegyas.store.pg_audit import mirror

        problem = ship_now(self.settings)
        try:
            while mirror(self.fleet, self.history_path):
                pass
            self.fleet_error = problem
        except (StoreError, AuditError) as exc:
            self.fleet_error = f"the fleet's history is not current: {exc}"

    # -- trust and policy ----------------------------------------------------------------------------

    def trusted(self) -> tuple[list[dict[str, Any]], str | None]:
        """Every trusted script with whether its file still matches (``ok``, ``changed``, ``missing``)."""
        try:
            entries = self.trust_store.load()
        except TrustStoreError as exc:
            return [], str(exc)
        out = []
        for path, entry in sorted(entries.items()):
            try:
                digest, _ = hash_file(path)
                status = "ok" if digest == entry.sha256 else "changed"
            except Exception:  # noqa: BLE001 - ScriptFileError, OSError: gone or unreadable
                status = "missing"
            out.append({"path": path, "status": status, **entry.to_json()})
        return out, None

    def revoke(self, path: str) -> bool:
        return self.trust_store.remove(path, by=f"{self.user} (dashboard)") is not None

    def policy(self) -> dict[str, Any]:
        """The effective rules of the dashboard's project, each with the file it came from."""
        gate = self.runtime.gate(self.cwd)
        policy = gate.policy
        rules = {kind: [{"rule": r.text, "source": r.source or "-"} for r in getattr(policy, kind, ())]
                 for kind in ("deny", "ask", "allow")}
        sources = getattr(policy, "class_sources", {})
        classes = [{"class": k, "verdict": str(v), "scope": "project" if project else "user",
                    "source": sources.get((project, k), "-")}
                   for project, table in ((False, getattr(policy, "classes", {})),
                                          (True, getattr(policy, "project_classes", {})))
                   for k, v in sorted(table.items())]
        broken = next((str(c.error) for c in gate.checkers if type(c).__name__ == "BrokenPolicy"), None)
        return {"rules": rules, "classes": classes, "sources": list(getattr(policy, "sources", ())),
                "default_mode": getattr(policy, "default_mode", None) or self.settings.mode,
                "project_root": getattr(policy, "project_root", None) or self.cwd, "error": broken}

    def close(self) -> None:
        self.index.close()
        if self.fleet is not None:
            self.fleet.close()


def _answer(request: PendingRequest) -> dict[str, Any]:
    return {"request_id": request.id, "status": request.status, "approver_id": request.approver_id,
            "resolved_via": request.resolved_via, "tool_name": request.tool_name,
            "reason": request.resolution_reason}


def _user_name() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return f"uid {os.getuid()}"
