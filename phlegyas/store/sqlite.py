"""The approvals store in one SQLite file, shared safely by many processes.

``<data_dir>/approvals.sqlite3``: WAL journal (readers never block the writer), a busy timeout (a
writer waits for the lock instead of failing), the file created 0600 in a 0700 directory, and a
``meta`` table holding the schema version. Every write is one ``BEGIN IMMEDIATE`` transaction, so two
processes resolving the same request serialize on the write lock: the first wins, the second sees
it resolved and gets ``AlreadyResolved``. Rows that finished more than ``RETENTION_SECONDS`` ago are
purged when a new request is created.

One connection per store object, used under a lock, so one store may be shared by threads.
"""
from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Callable, Iterator

from phlegyas.core.model import Decision, ToolCall
from phlegyas.store.approvals import (
    COLUMNS,
    EXPIRED,
    PENDING,
    STATUSES,
    PendingRequest,
    StoreError,
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

FILE_NAME = "approvals.sqlite3"
SCHEMA_VERSION = 3
BUSY_TIMEOUT_MS = 5000
RETENTION_SECONDS = 7 * 86400
FILE_MODE = 0o600
DIR_MODE = 0o700
FIRST_POLL_SECONDS = 0.05
MAX_POLL_SECONDS = 0.5

_SCHEMA_V1 = (f"""
CREATE TABLE requests (
    id TEXT PRIMARY KEY,
    tool_name TEXT NOT NULL,
    tool_input TEXT NOT NULL,
    tier TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ({", ".join(repr(s) for s in STATUSES)})),
    cwd TEXT, mode TEXT, session_id TEXT, workflow_id TEXT, agent_id TEXT, tool_use_id TEXT,
    resolved_at REAL, approver_id TEXT, resolution_reason TEXT
)""",
              "CREATE INDEX requests_by_status ON requests (status, expires_at)")

_SCHEMA_V2 = (
    # how the answer came (cli, mcp, slack, dashboard), for the message that says who decided and how
    "ALTER TABLE requests ADD COLUMN resolved_via TEXT",
    # where a request is shown to people (a Slack message), so any process can keep it current
    """CREATE TABLE notices (
    request_id TEXT NOT NULL, channel TEXT NOT NULL, ref TEXT NOT NULL, closed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (request_id, channel)
)""",
    "CREATE INDEX notices_open ON notices (channel, closed)")

_SCHEMA_V3 = (
    # the host name of the machine that parked the request (a shared PostgreSQL store serves many)
    "ALTER TABLE requests ADD COLUMN machine TEXT",)


def default_path(data_dir: str) -> str:
    return os.path.join(data_dir, FILE_NAME)


class SQLiteApprovalStore:
    """``ApprovalStore`` on SQLite. ``clock`` (epoch seconds) and ``sleep`` are injectable for tests."""

    def __init__(self, path: str, *, clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], None] = time.sleep, machine: str | None = None):
        self.path = path
        self.machine = machine if machine is not None else socket.gethostname()
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    # -- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> "SQLiteApprovalStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the protocol --------------------------------------------------------------------------

    def create(self, call: "ToolCall", decision: "Decision", *, workflow_id: str | None = None,
               agent_id: str | None = None, ttl: float) -> PendingRequest:
        now = self._clock()
        request, row = new_request(call, decision, workflow_id=workflow_id, agent_id=agent_id, ttl=ttl, now=now,
                                   machine=self.machine)
        with self._write() as conn:
            conn.execute("DELETE FROM notices WHERE request_id IN (SELECT id FROM requests WHERE "
                         "coalesce(resolved_at, expires_at) < ?)", (now - RETENTION_SECONDS,))
            conn.execute("DELETE FROM requests WHERE coalesce(resolved_at, expires_at) < ?",
                         (now - RETENTION_SECONDS,))
            conn.execute(f"INSERT INTO requests ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
                         [row[c] for c in COLUMNS])
        return request

    def get(self, request_id: str) -> PendingRequest:
        rid = parse_request_id(request_id)
        with self._read() as conn:
            row = _one(conn, "SELECT * FROM requests WHERE id = ?", (rid,))
        if row is None:
            raise not_found(rid)
        return request_from_row(row, self._clock())

    def list_pending(self, workflow_id: str | None = None, agent_id: str | None = None) -> list[PendingRequest]:
        query = "SELECT * FROM requests WHERE status = ? AND expires_at > ?"
        now = self._clock()
        params: list[Any] = [PENDING, now]
        for column, value in pending_filters(workflow_id, agent_id):
            query += f" AND {column} = ?"
            params.append(value)
        with self._read() as conn:
            rows = conn.execute(query + " ORDER BY created_at, rowid", params).fetchall()
        return [request_from_row(row, now) for row in rows]

    def resolve(self, request_id: str, approve: bool, *, reason: str | None = None,
                approver_id: str, via: str | None = None) -> PendingRequest:
        rid = parse_request_id(request_id)
        status, approver, why, how = resolution(approve, reason, approver_id, via)
        with self._write() as conn:
            now = self._clock()
            current = self._current(conn, rid, now)
            if current.status != PENDING:
                raise refusal(current)
            conn.execute("UPDATE requests SET status = ?, resolved_at = ?, approver_id = ?, resolution_reason = ?, "
                         "resolved_via = ? WHERE id = ? AND status = ?", (status, now, approver, why, how, rid, PENDING))
        return replace(current, status=status, resolved_at=now, approver_id=approver, resolution_reason=why,
                       resolved_via=how)

    def withdraw(self, request_id: str, *, reason: str) -> PendingRequest:
        rid = parse_request_id(request_id)
        why = stored_text(reason)
        with self._write() as conn:
            now = self._clock()
            row = _one(conn, "SELECT * FROM requests WHERE id = ?", (rid,))
            if row is None:
                raise not_found(rid)
            if row["status"] != PENDING:
                return request_from_row(row, now)
            conn.execute("UPDATE requests SET status = ?, resolved_at = ?, resolution_reason = ? WHERE id = ?",
                         (EXPIRED, now, why, rid))
            return replace(request_from_row(row, now), status=EXPIRED, resolved_at=now, resolution_reason=why)

    def wait(self, request_id: str, timeout: float) -> PendingRequest:
        """Poll with a backoff (FIRST_POLL_SECONDS growing to MAX_POLL_SECONDS), never past the
        timeout or the request's expiry, so a decision is seen within MAX_POLL_SECONDS."""
        deadline = time.monotonic() + max(0.0, float(timeout))
        delay = FIRST_POLL_SECONDS
        while True:
            request = self.get(request_id)
            remaining = deadline - time.monotonic()
            if not request.is_pending or remaining <= 0:
                return request
            until_expiry = request.expires_at - self._clock()
            self._sleep(max(0.001, min(delay, remaining, until_expiry + 0.001)))
            delay = min(delay * 1.5, MAX_POLL_SECONDS)

    def stats(self) -> dict[str, Any]:
        now = self._clock()
        with self._read() as conn:
            rows = conn.execute(
                "SELECT CASE WHEN status = ? AND expires_at <= ? THEN ? ELSE status END AS s, count(*) "
                "FROM requests GROUP BY s", (PENDING, now, EXPIRED)).fetchall()
            oldest = _one(conn, "SELECT min(created_at) FROM requests WHERE status = ? AND expires_at > ?",
                          (PENDING, now))[0]
        return stats_report("sqlite", self.path, dict(rows), oldest, now, RETENTION_SECONDS)

    def add_notice(self, request_id: str, channel: str, ref: dict[str, Any]) -> None:
        rid = parse_request_id(request_id)
        text = json.dumps(ref, separators=(",", ":"), sort_keys=True)
        with self._write() as conn:
            self._current(conn, rid, self._clock())
            conn.execute("INSERT INTO notices (request_id, channel, ref, closed) VALUES (?, ?, ?, 0) "
                         "ON CONFLICT (request_id, channel) DO UPDATE SET ref = excluded.ref, closed = 0",
                         (rid, required_text(channel, "channel"), text))

    def open_notices(self, channel: str) -> list[tuple[PendingRequest, dict[str, Any]]]:
        now = self._clock()
        with self._read() as conn:
            rows = conn.execute("SELECT r.*, n.ref AS notice_ref FROM notices n JOIN requests r ON r.id = n.request_id "
                                "WHERE n.channel = ? AND n.closed = 0 ORDER BY r.created_at, r.rowid",
                                (channel,)).fetchall()
        return [(request_from_row(row, now), load_object(row["notice_ref"])) for row in rows]

    def close_notice(self, request_id: str, channel: str) -> bool:
        rid = parse_request_id(request_id)
        with self._write() as conn:
            done = conn.execute("UPDATE notices SET closed = 1 WHERE request_id = ? AND channel = ? AND closed = 0",
                                (rid, channel))
            return done.rowcount == 1

    # -- plumbing ------------------------------------------------------------------------------

    def _current(self, conn: sqlite3.Connection, rid: str, now: float) -> PendingRequest:
        row = _one(conn, "SELECT * FROM requests WHERE id = ?", (rid,))
        if row is None:
            raise not_found(rid)
        return request_from_row(row, now)

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._connection()
            except sqlite3.Error as exc:
                raise self._error(exc) from exc

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction: the write lock is taken first, so read-then-write is atomic."""
        with self._lock:
            try:
                conn = self._connection()
                conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                raise self._error(exc) from exc

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = self._open()
        return self._conn

    def _open(self) -> sqlite3.Connection:
        """A connection in WAL mode with the schema in place. Two processes opening a new file at once can
        meet "database is locked" without SQLite's busy handler being asked (switching the journal to
        WAL, or reading the schema while the other writes it), so that is retried until the busy timeout."""
        _prepare_file(self.path)
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while True:
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                   check_same_thread=False)
            try:
                conn.row_factory = sqlite3.Row
                conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
                _migrate(conn, self.path)
                return conn
            except sqlite3.OperationalError as exc:
                conn.close()
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
            except BaseException:
                conn.close()
                raise
            time.sleep(0.01)

    def _error(self, exc: sqlite3.Error) -> StoreError:
        hint = ""
        if isinstance(exc, sqlite3.DatabaseError) and "not a database" in str(exc):
            hint = " (the file is not an SQLite database: move it away and retry)"
        return StoreError(f"approvals store {self.path}: {exc}{hint}")


def _one(conn: sqlite3.Connection, sql: str, params: tuple = ()) -> Any:
    """The first row of ``sql``, its statement finished at once. A statement left open (a cursor read
    with ``fetchone`` that outlives the call) keeps its read snapshot; the connection's next write then
    fails with "database is locked" at once (SQLITE_BUSY_SNAPSHOT: the busy timeout cannot help)."""
    cursor = conn.execute(sql, params)
    try:
        return cursor.fetchone()
    finally:
        cursor.close()


def _prepare_file(path: str) -> None:
    """Create the directory (0700) and an empty file (0600) before SQLite does, never via a symlink."""
    try:
        parent = os.path.dirname(path)
        if parent:
            os.makedirs(parent, mode=DIR_MODE, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, FILE_MODE)
        os.close(fd)
    except OSError as exc:
        raise StoreError(f"approvals store {path}: cannot open: {exc.strerror or exc}") from exc


def _migrate(conn: sqlite3.Connection, path: str) -> None:
    """Create or check the schema in one IMMEDIATE transaction (safe when processes start together)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        row = _one(conn, "SELECT value FROM meta WHERE key = 'schema_version'")
        version = _version(row[0] if row else "0", path)
        if version > SCHEMA_VERSION:
            raise StoreError(f"approvals store {path} has schema version {version}, newer than this phlegyas "
                             f"understands ({SCHEMA_VERSION}): upgrade phlegyas or use another PHLEGYAS_HOME")
        if version < 1:
            for statement in _SCHEMA_V1:
                conn.execute(statement)
        if version < 2:
            for statement in _SCHEMA_V2:
                conn.execute(statement)
        if version < 3:
            for statement in _SCHEMA_V3:
                conn.execute(statement)
        if version < SCHEMA_VERSION:
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
                         (str(SCHEMA_VERSION),))
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _version(text: object, path: str) -> int:
    try:
        return int(str(text))
    except ValueError:
        raise StoreError(f"approvals store {path}: schema_version {text!r} is not a number") from None
