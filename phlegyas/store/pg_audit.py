"""The audit trail in PostgreSQL: each machine's JSONL log, shipped to the shared database.

The JSONL log stays the record on each machine (every decision is appended there first, by the hook, as
always). The log is also the outbox: a shipper reads it from the position it last shipped, inserts the
complete lines it finds (in batches, each row with the machine's name, the log's identity and the line's
byte position), and only after the commit moves its position forward (``<log>.shipped``, written
atomically). A shipper killed between the commit and the move ships the same lines again: the unique
``(machine, source, position)`` key makes that a no-op, so a row is never lost and never doubled. While
the database is out of reach nothing moves: the rows wait in the log and ``pending()`` counts them
(``phlegyas doctor`` and ``phlegyas db status`` show it). A replaced or truncated log starts over at 0.

``Shipper`` is used by the long-lived processes (the hook server, the MCP server): a background thread
that ships soon after ``kick()``, retries every ``RETRY_SECONDS`` while failing, and closes its one
connection after ``IDLE_SECONDS`` without anything to send.
"""
from __future__ import annotations

import fcntl
import json
import os
import threading
import time
from typing import Any, Iterator

from phlegyas.store.approvals import StoreError
from phlegyas.store.audit import append_line, parse_line
from phlegyas.store.pg_connect import Database

BATCH_ROWS = 500
RETRY_SECONDS = 5.0
IDLE_SECONDS = 30.0  # a shipper with nothing to send for this long closes its connection
DELAY_SECONDS = 0.2  # after a kick: decisions that come together go in one batch
READ_BYTES = 4 * 1024 * 1024


def _position_file(log_path: str) -> str:
    return log_path + ".shipped"


def _source(log_path: str, stat: os.stat_result) -> str:
    return f"{log_path}#{stat.st_dev}:{stat.st_ino}"


def _read_position(log_path: str, source: str) -> int:
    try:
        with open(_position_file(log_path), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return 0
    if not isinstance(data, dict) or data.get("source") != source or not isinstance(data.get("position"), int):
        return 0
    return max(0, data["position"])


def _write_position(log_path: str, source: str, position: int) -> None:
    target = _position_file(log_path)
    temporary = f"{target}.{os.getpid()}.tmp"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump({"source": source, "position": position}, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(temporary, target)


def pending(log_path: str) -> int:
    """How many complete lines of the log have not reached the database yet."""
    try:
        stat = os.stat(log_path)
    except OSError:
        return 0
    position = _read_position(log_path, _source(log_path, stat))
    if position > stat.st_size:
        position = 0
    count = 0
    with open(log_path, "rb") as fh:
        fh.seek(position)
        for chunk in iter(lambda: fh.read(READ_BYTES), b""):
            count += chunk.count(b"\n")
    return count


def ship(db: Database, log_path: str, machine: str, *, limit: int | None = None) -> int:
    """Send the log's unsent complete lines to the database; the number of lines sent. Raises StoreError
    (DatabaseUnavailable when out of reach) with nothing moved. One shipper per log at a time (flock)."""
    try:
        stat = os.stat(log_path)
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise StoreError(f"cannot read audit log {log_path}: {exc.strerror or exc}") from exc
    source = _source(log_path, stat)
    try:
        lock_fd = os.open(_position_file(log_path) + ".lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    except OSError as exc:
        raise StoreError(f"cannot keep the shipping position beside {log_path}: {exc.strerror or exc}") from exc
    try:
        fcntl.flock(lock_fd, fcntl.LOCK_EX)
        position = _read_position(log_path, source)
        if position > stat.st_size:
            position = 0  # truncated in place: it is a new log
        sent = 0
        with open(log_path, "rb") as fh:
            while limit is None or sent < limit:
                fh.seek(position)
                rows, position_after = _batch(fh, position, min(BATCH_ROWS, (limit - sent) if limit else BATCH_ROWS))
                if position_after == position:
                    break
                if rows:
                    _insert(db, machine, source, rows)
                _write_position(log_path, source, position_after)
                sent += len(rows)
                position = position_after
        return sent
    finally:
        os.close(lock_fd)


def _batch(fh: Any, position: int, size: int) -> tuple[list[tuple[int, Any, dict]], int]:
    """Up to ``size`` parsed complete lines from ``position``: ``([(position, time, entry)], end)``. Lines
    that are not entries (a torn write, garbage) are stepped over."""
    rows: list[tuple[int, Any, dict]] = []
    offset = position
    while len(rows) < size:
        raw = fh.readline()
        if not raw or not raw.endswith(b"\n"):
            break  # the end, or a line still being written
        parsed = parse_line(raw)
        if parsed is not None:
            rows.append((offset, parsed[0], parsed[1]))
        offset += len(raw)
    return rows, offset


def _insert(db: Database, machine: str, source: str, rows: list[tuple[int, Any, dict]]) -> None:
    params = [(machine, source, position, moment, _text(entry.get("tool_name")), _text(entry.get("decision")),
               _text(entry.get("tier")), _text(entry.get("session_id")),
               json.dumps({**entry, "machine": machine}, ensure_ascii=False, default=str))
              for position, moment, entry in rows]
    with db.connection() as conn:
        try:
            with conn.transaction(), conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO phlegyas_audit (machine, source, position, at, tool_name, decision, tier, session_id, "
                    "entry) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb) "
                    "ON CONFLICT (machine, source, position) DO NOTHING", params)
        except Exception as exc:  # noqa: BLE001 - the driver's errors become the store's
            if isinstance(exc, StoreError):
                raise
            raise db.failed(exc) from exc


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


class Shipper:
    """Ships one log in the background: soon after ``kick()``, and again every RETRY_SECONDS while the
    database is out of reach. ``last_error`` says why the last attempt failed (None after a success)."""

    def __init__(self, db: Database, log_path: str, machine: str):
        self.db = db
        self.log_path = log_path
        self.machine = machine
        self.last_error: str | None = None
        self.shipped = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="phlegyas-audit-shipper", daemon=True)
        self._thread.start()
        self.kick()

    def kick(self) -> None:
        self._wake.set()

    def close(self, timeout: float = 5.0) -> None:
        """Ship what is left (bounded by ``timeout``) and stop."""
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        failing = False
        while True:
            if not self._wake.wait(RETRY_SECONDS if failing else IDLE_SECONDS) and not failing:
                self.db.close()  # idle: a fleet's machines do not each hold a connection open for nothing
                continue
            stopping = self._stop.is_set()
            if not stopping:
                time.sleep(DELAY_SECONDS)
            self._wake.clear()
            try:
                self.shipped += ship(self.db, self.log_path, self.machine)
                self.last_error, failing = None, False
            except (StoreError, OSError) as exc:
                self.last_error, failing = str(exc), True
            if stopping:
                return


def fleet_entries(db: Database, *, since: Any = None, machine: str | None = None) -> Iterator[tuple[Any, dict]]:
    """``(time, entry)`` of the shared audit trail, oldest first (each entry names its machine), read with
    a server-side cursor so a large trail is not loaded at once."""
    query = "SELECT at, entry FROM phlegyas_audit WHERE true"
    params: list[Any] = []
    if since is not None:
        query += " AND at >= %s"
        params.append(since)
    if machine is not None:
        query += " AND machine = %s"
        params.append(machine)
    with db.connection() as conn, conn.transaction():
        try:
            with conn.cursor(name="phlegyas_fleet_entries") as cursor:
                cursor.itersize = 2000
                cursor.execute(query + " ORDER BY at, id", params)
                for moment, entry in cursor:
                    yield moment, entry
        except StoreError:
            raise
        except Exception as exc:  # noqa: BLE001 - the driver's errors become the store's
            raise db.failed(exc) from exc


def table_counts(db: Database) -> dict[str, Any]:
    """Rows per table, the machines seen, and the size on disk (for ``phlegyas db status``); a table the
    role may not read counts as None."""
    with db.connection() as conn:
        counts = {table: _count(conn, f"SELECT count(*) FROM {table}")
                  for table in ("phlegyas_requests", "phlegyas_notices", "phlegyas_cache", "phlegyas_audit")}
        machines = sorted({row[0] for sql in ("SELECT DISTINCT machine FROM phlegyas_requests",
                                              "SELECT DISTINCT machine FROM phlegyas_audit")
                           for row in _rows(conn, sql)})
        size = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
    return {"rows": counts, "machines": machines, "database_bytes": size}


def _count(conn: Any, sql: str) -> int | None:
    rows = _rows(conn, sql)
    return rows[0][0] if rows else None


def _rows(conn: Any, sql: str) -> list[tuple]:
    """The rows of ``sql``, or none when the role may not read the table."""
    from psycopg.errors import InsufficientPrivilege  # (psycopg: loaded by pg_connect already)

    try:
        return conn.execute(sql).fetchall()
    except InsufficientPrivilege:
        return []


def mirror(db: Database, path: str, *, limit: int = 20000) -> int:
    """Append to the local JSONL file ``path`` the fleet's audit rows it lacks (a dashboard indexes that
    file with ``AuditIndex``, as it does a machine's own log); the number of rows appended.

    Rows are read by the transaction that wrote them, up to the oldest transaction still running
    (``pg_snapshot_xmin``): a shipper's insert that commits late is read by the next call, never skipped.
    Each appended line carries that bound (``fleet_snap``), so the file itself says where to go on: one
    write per batch, no second file to keep in step.
    """
    lock_fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(lock_fd, fcntl.LOCK_EX)  # one mirroring process at a time, or lines would be doubled
        return _mirror_locked(db, path, limit)
    finally:
        os.close(lock_fd)


def _mirror_locked(db: Database, path: str, limit: int) -> int:
    start = _mirror_cursor(path)
    with db.connection() as conn:
        try:
            with conn.transaction():
                snap = conn.execute("SELECT pg_snapshot_xmin(pg_current_snapshot())::text").fetchone()[0]
                query = "SELECT entry FROM phlegyas_audit WHERE tx < %s::xid8"
                params: list[Any] = [snap]
                if start is not None:
                    query += " AND tx >= %s::xid8"
                    params.append(start)
                rows = conn.execute(query + " ORDER BY tx, id LIMIT %s", [*params, limit]).fetchall()
        except Exception as exc:  # noqa: BLE001 - the driver's errors become the store's
            raise exc if isinstance(exc, StoreError) else db.failed(exc) from exc
    if len(rows) == limit:
        raise StoreError(f"more than {limit} new audit rows in one transaction range: call mirror again")
    if not rows:
        return 0
    data = b"".join(json.dumps({**entry, "fleet_snap": snap}, ensure_ascii=False, separators=(",", ":"))
                    .encode("utf-8", "backslashreplace") + b"\n" for (entry,) in rows)
    append_line(path, data)
    return len(rows)


def _mirror_cursor(path: str) -> str | None:
    """The ``fleet_snap`` of the mirror's last complete line (where the next read starts), or None."""
    try:
        with open(path, "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            tail = b""
            step = 65536
            while size > 0 and tail.count(b"\n") < 2:
                read = min(step, size)
                size -= read
                fh.seek(size)
                tail = fh.read(read) + tail
    except FileNotFoundError:
        return None
    for line in reversed(tail.split(b"\n")[:-1]):  # the piece after the last newline is empty or torn
        try:
            snap = json.loads(line).get("fleet_snap")
        except (ValueError, AttributeError):
            continue
        if isinstance(snap, str) and snap.isdigit():
            return snap
    return None
