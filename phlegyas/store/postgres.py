"""The approvals store in PostgreSQL: one queue for every machine of a team or a fleet.

Same protocol and semantics as the SQLite store (``store.approvals``), with these PostgreSQL ways:

- **First answer wins** with one conditional ``UPDATE … WHERE status = 'pending' AND expires_at > now
  RETURNING``: two machines resolving one request at once cannot both succeed; the loser reads who won.
- **Waiters wake at once.** A resolution (or a withdrawal) and its ``pg_notify`` are one transaction,
  so the notification is sent exactly when the new state is visible. A waiter first ``LISTEN``s on its
  request's channel, then re-reads the request, and only then waits for a notification: a resolution
  that lands between the read and the wait is not missed. The wait is cut into slices (``SLICE_SECONDS``)
  so that a process that stops (``sleep`` raises) ends it promptly, and a request's expiry ends it.
- **The machine**: every request records the host name of the machine that parked it.

A database that goes away mid-wait ends the wait with ``DatabaseUnavailable`` (the caller denies); the
next operation reconnects.
"""
from __future__ import annotations

import json
import socket
import time
from typing import Any, Callable

from phlegyas.core.model import Decision, ToolCall
from phlegyas.store.approvals import (
    COLUMNS,
    EXPIRED,
    PENDING,
    PendingRequest,
    load_object,
    new_request,
    not_found,
    parse_request_id,
    pending_filters,
    refusal,
    request_from_row,
    required_text,
    resolution,
    stats_report,
    stored_text,
)
from phlegyas.store.pg_connect import Database, DatabaseUnavailable
from phlegyas.store.pg_schema import SCHEMA_VERSION

RETENTION_SECONDS = 7 * 86400
"""Finished requests older than this are purged when a new request is created (as in SQLite)."""
SLICE_SECONDS = 0.5
_SELECT = f"SELECT {', '.join(COLUMNS)} FROM phlegyas_requests"


def channel_of(request_id: str) -> str:
    """The LISTEN/NOTIFY channel of one request (an identifier: the canonical id's hex digits)."""
    return "phlegyas_r_" + request_id.replace("-", "")


class PostgresApprovalStore:
    """``ApprovalStore`` on PostgreSQL (``db``: a ``pg_connect.Database``). ``clock`` and ``sleep`` as in the
    SQLite store; ``machine`` defaults to the host name."""

    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], None] = time.sleep, machine: str | None = None):
        self.db = db
        self.path = db.shown  # what error messages and ``stats`` name
        self.machine = machine if machine is not None else socket.gethostname()
        self._clock = clock
        self._sleep = sleep

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "PostgresApprovalStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the protocol --------------------------------------------------------------------------

    def create(self, call: "ToolCall", decision: "Decision", *, workflow_id: str | None = None,
               agent_id: str | None = None, ttl: float) -> PendingRequest:
        now = self._clock()
        request, row = new_request(call, decision, workflow_id=workflow_id, agent_id=agent_id, ttl=ttl, now=now,
                                   machine=self.machine)
        with self.db.connection() as conn, conn.transaction():
            conn.execute("DELETE FROM phlegyas_requests WHERE coalesce(resolved_at, expires_at) < %s",
                         (now - RETENTION_SECONDS,))
            conn.execute(f"INSERT INTO phlegyas_requests ({', '.join(COLUMNS)}) "
                         f"VALUES ({', '.join(['%s'] * len(COLUMNS))})", [row[c] for c in COLUMNS])
        return request

    def get(self, request_id: str) -> PendingRequest:
        rid = parse_request_id(request_id)
        with self.db.connection() as conn:
            row = _fetch(conn, _SELECT + " WHERE id = %s", (rid,))
        if row is None:
            raise not_found(rid)
        return request_from_row(row, self._clock())

    def list_pending(self, workflow_id: str | None = None, agent_id: str | None = None) -> list[PendingRequest]:
        query = _SELECT + " WHERE status = %s AND expires_at > %s"
        now = self._clock()
        params: list[Any] = [PENDING, now]
        for column, value in pending_filters(workflow_id, agent_id):
            query += f" AND {column} = %s"
            params.append(value)
        with self.db.connection() as conn:
            rows = _fetch_all(conn, query + " ORDER BY created_at, id", params)
        return [request_from_row(row, now) for row in rows]

    def resolve(self, request_id: str, approve: bool, *, reason: str | None = None,
                approver_id: str, via: str | None = None) -> PendingRequest:
        rid = parse_request_id(request_id)
        status, approver, why, how = resolution(approve, reason, approver_id, via)
        settled, current, now = self._settle(
            rid, status, "approver_id = %s, resolution_reason = %s, resolved_via = %s", (approver, why, how),
            "AND expires_at > %s")
        if settled is not None:
            return settled
        raise refusal(current)

    def withdraw(self, request_id: str, *, reason: str) -> PendingRequest:
        rid = parse_request_id(request_id)
        why = stored_text(reason)
        settled, current, _ = self._settle(rid, EXPIRED, "resolution_reason = %s", (why,), "")
        return settled if settled is not None else current

    def _settle(self, rid: str, status: str, assignments: str, values: tuple, condition: str
                ) -> tuple[PendingRequest | None, Any, float]:
        """Move a still-pending request to ``status`` (setting ``assignments`` too, and only if ``condition``
        holds, ``now`` its parameter) and notify its waiters, in one transaction: ``(the settled request,
        None, now)``; or, when it was not pending, ``(None, its current state, now)``. Raises NotFound."""
        with self.db.connection() as conn, conn.transaction():
            now = self._clock()  # once connected: the time of the commit, give or take the statement
            row = _fetch(conn, f"UPDATE phlegyas_requests SET status = %s, resolved_at = %s, {assignments} "
                               f"WHERE id = %s AND status = %s {condition} RETURNING {', '.join(COLUMNS)}",
                         (status, now, *values, rid, PENDING, *((now,) if condition else ())))
            if row is not None:
                conn.execute("SELECT pg_notify(%s, %s)", (channel_of(rid), status))
                return request_from_row(row, now), None, now
            current = _fetch(conn, _SELECT + " WHERE id = %s", (rid,))
        if current is None:
            raise not_found(rid)
        return None, request_from_row(current, now), now

    def wait(self, request_id: str, timeout: float) -> PendingRequest:
        """LISTEN, re-read, then wait for the request's notification (see the module's docstring)."""
        rid = parse_request_id(request_id)
        deadline = time.monotonic() + max(0.0, float(timeout))
        request = self.get(rid)
        if not request.is_pending or deadline <= time.monotonic():
            return request
        listener = self.db.connect()
        try:
            try:
                listener.execute(f"LISTEN {channel_of(rid)}")
            except Exception as exc:  # noqa: BLE001 - psycopg's errors, mapped to the store's
                raise self.db.failed(exc) from exc
            while True:
                request = self.get(rid)
                remaining = deadline - time.monotonic()
                if not request.is_pending or remaining <= 0:
                    return request
                until_expiry = request.expires_at - self._clock()
                slice_ = max(0.001, min(SLICE_SECONDS, remaining, until_expiry + 0.001))
                try:
                    for _ in listener.notifies(timeout=slice_, stop_after=1):
                        pass
                except Exception as exc:  # noqa: BLE001 - the database went away mid-wait
                    raise self.db.failed(exc) from exc
                if listener.closed or listener.broken:  # notifies() can end quietly on a lost connection
                    raise DatabaseUnavailable(f"database {self.db.shown} is unreachable: the connection was lost "
                                              "during the wait")
                self._sleep(0)  # a stopping process ends the wait here
        finally:
            try:
                listener.close()
            except Exception:  # noqa: BLE001 - a broken listener may fail to close
                pass

    def stats(self) -> dict[str, Any]:
        now = self._clock()
        with self.db.connection() as conn:
            rows = _fetch_all(conn, "SELECT CASE WHEN status = %s AND expires_at <= %s THEN %s ELSE status END AS s, "
                                    "count(*) AS n FROM phlegyas_requests GROUP BY 1", (PENDING, now, EXPIRED))
            oldest = _fetch(conn, "SELECT min(created_at) AS oldest FROM phlegyas_requests WHERE status = %s AND "
                                  "expires_at > %s", (PENDING, now))["oldest"]
            machines = _fetch(conn, "SELECT count(DISTINCT machine) AS n FROM phlegyas_requests")["n"]
        return stats_report("postgresql", self.path, {row["s"]: row["n"] for row in rows}, oldest, now,
                            RETENTION_SECONDS, schema_version=SCHEMA_VERSION, machine=self.machine, machines=machines)

    def add_notice(self, request_id: str, channel: str, ref: dict[str, Any]) -> None:
        rid = parse_request_id(request_id)
        text = json.dumps(ref, separators=(",", ":"), sort_keys=True)
        name = required_text(channel, "channel")
        with self.db.connection() as conn, conn.transaction():
            if _fetch(conn, "SELECT id FROM phlegyas_requests WHERE id = %s", (rid,)) is None:
                raise not_found(rid)
            conn.execute("INSERT INTO phlegyas_notices (request_id, channel, ref, closed) VALUES (%s, %s, %s, false) "
                         "ON CONFLICT (request_id, channel) DO UPDATE SET ref = excluded.ref, closed = false",
                         (rid, name, text))

    def open_notices(self, channel: str) -> list[tuple[PendingRequest, dict[str, Any]]]:
        now = self._clock()
        columns = ", ".join(f"r.{c}" for c in COLUMNS)
        with self.db.connection() as conn:
            rows = _fetch_all(conn, f"SELECT {columns}, n.ref AS notice_ref FROM phlegyas_notices n JOIN "
                                    "phlegyas_requests r ON r.id = n.request_id WHERE n.channel = %s AND NOT n.closed "
                                    "ORDER BY r.created_at, r.id", (channel,))
        return [(request_from_row(row, now), load_object(row["notice_ref"])) for row in rows]

    def close_notice(self, request_id: str, channel: str) -> bool:
        rid = parse_request_id(request_id)
        with self.db.connection() as conn:
            done = conn.execute("UPDATE phlegyas_notices SET closed = true WHERE request_id = %s AND channel = %s "
                                "AND NOT closed", (rid, channel))
            return done.rowcount == 1


def _fetch(conn: Any, sql: str, params: Any = ()) -> dict[str, Any] | None:
    from psycopg.rows import dict_row  # (psycopg: only with a database; pg_connect imported it already)

    with conn.cursor(row_factory=dict_row) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def _fetch_all(conn: Any, sql: str, params: Any = ()) -> list[dict[str, Any]]:
    from psycopg.rows import dict_row  # (same)

    with conn.cursor(row_factory=dict_row) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()

