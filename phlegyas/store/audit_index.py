"""The audit log's index: SQLite (WAL, FTS5) beside the JSONL log, kept up to date incrementally, so
that a dashboard can page, filter, search and chart a log of millions of lines without reading it.

``<log dir>/audit.index.sqlite3`` (0600, its directory 0700) holds one row per log line (its time,
decision × tier × tool, session, agent, cwd, the machine a fleet's entry came from, reason, the input's
one-line gist, and where the line is in the log), a full-text index of the gist, the reason and the
tool, and rollups maintained as lines are read: counts per hour and per day, the most-asked command
shapes, Tier 3 usage and the time people took to answer. ``refresh`` reads only the complete lines
after the last indexed byte; a log that was replaced or truncated (another inode, a size below the
offset, other first bytes) is indexed again from its start. Each batch is one ``BEGIN IMMEDIATE``
transaction that re-reads the offset inside it, so several processes may refresh one index at once
and every line is indexed exactly once.

Queries never scan the log: pages come newest first by keyset (``before`` = the last id of the
previous page), and the charts read the rollups (whole days, whole hours, and the rows of the partial
hours at the ends of a range, so that any ``[since, until)`` is answered exactly). Times are epoch
seconds (UTC); ``since`` is inclusive, ``until`` exclusive.

The tables, and how the rollups are written and read, are ``audit_rollup``'s; the gist, the shapes
and their rules ``audit_shapes``'.
"""
from __future__ import annotations

import hashlib
import heapq
import math
import os
import re
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

from phlegyas.store import audit_rollup as rollup
from phlegyas.store.audit import AuditError, parse_line
from phlegyas.store.audit_rollup import DATA_TABLES, HOUR, SCHEMA, BatchWriter, Caches, facet

__all__ = ["AuditIndex", "AuditIndexError", "Page", "Row", "SCHEMA_VERSION", "default_index_path"]

FILE_NAME = "audit.index.sqlite3"
SCHEMA_VERSION = 2  # 2: the machine an entry came from (a fleet's mirrored log)
FILE_MODE = 0o600
DIR_MODE = 0o700
BUSY_TIMEOUT_SECONDS = 30.0
BATCH_ROWS = 4000
"""Lines indexed per write transaction."""
BATCH_BYTES = 4 << 20
MAX_LINE_BYTES = 64 << 20
"""A longer line is skipped (and counted corrupt) without being read whole."""
FINGERPRINT_BYTES = 4096
MAX_LIMIT = 500
MAX_EPOCH = 1e12  # year 33658: times beyond are clamped (no integer overflow in SQLite)
_DECISIONS = ("allow", "ask", "deny")
_WORD = re.compile(r"\w", re.UNICODE)


class AuditIndexError(Exception):
    """The index file cannot be used; the message names it and says what to do."""


@dataclass(frozen=True)
class Row:
    """One decision as the history page lists it. Text comes from the (already redacted) log;
    ``summary`` is the input's gist on one printable line (at most 300 characters); ``machine`` the
    machine a fleet's entry came from (None in an ordinary, one-machine log)."""

    id: int
    timestamp: float
    tool_name: str
    decision: str
    tier: str
    reason: str
    summary: str
    session_id: str | None
    agent_id: str | None
    cwd: str | None
    machine: str | None


@dataclass(frozen=True)
class Page:
    rows: list[Row]
    next_before: int | None
    """Pass as ``before`` for the next (older) page; None when this page is the last."""


def default_index_path(audit_path: str) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(audit_path)), FILE_NAME)


def _epoch(value: float | None, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise ValueError(f"{name} must be epoch seconds (a number), got {value!r}")
    return max(-MAX_EPOCH, min(MAX_EPOCH, float(value)))


def phrases(text: str) -> str | None:
    """User text as an FTS5 query that is never FTS5 syntax: each blank-separated word a quoted phrase
    (all must match). Words with no letter or digit (``"``, ``*``, ``(``) cannot match a word index and
    are dropped; None when nothing is left."""
    words = [w for w in text.replace("\x00", " ").split() if _WORD.search(w)]  # FTS5 reads a NUL as the end
    return " ".join('"' + w.replace('"', '""') + '"' for w in words) or None


def _stat_key(st: os.stat_result | None) -> tuple | None:
    return None if st is None else (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _parse(raw: bytes) -> tuple[float, dict] | None:
    parsed = parse_line(raw)  # the audit log's own reading of a line
    return None if parsed is None else (parsed[0].timestamp(), parsed[1])


class AuditIndex:
    """The index of the audit log at ``audit_path`` (by default ``audit.index.sqlite3`` beside it).
    One connection, used under a lock: one object may serve many threads."""

    def __init__(self, audit_path: str, index_path: str | None = None):
        self.audit_path = os.path.abspath(audit_path)
        self.index_path = index_path or default_index_path(audit_path)
        self._lock = threading.Lock()
        self._caches = Caches()
        self._seen: tuple | None | bool = False  # the log's stat when it was last read to its end
        self._log_fd: int | None = None
        self._log_id: tuple[int, int] | None = None
        self._conn = self._open()

    # -- lifecycle ------------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None  # type: ignore[assignment]
            self._close_log()

    def __enter__(self) -> "AuditIndex":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> sqlite3.Connection:
        directory = os.path.dirname(os.path.abspath(self.index_path))
        try:
            if not os.path.isdir(directory):
                os.makedirs(directory, mode=DIR_MODE, exist_ok=True)
            os.close(os.open(self.index_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, FILE_MODE))
            conn = sqlite3.connect(self.index_path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None,
                                   check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise AuditIndexError(f"cannot open the audit index {self.index_path}: {exc}") from exc
        deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
        while True:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
                conn.execute("PRAGMA cache_size = -32768")
                self._check_schema(conn)
                return conn
            except sqlite3.OperationalError as exc:
                # two processes opening a new index at once: switching it to WAL (or reading the schema the
                # other is writing) can be refused at once, without SQLite's busy handler: try again
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    conn.close()
                    raise AuditIndexError(f"the audit index {self.index_path} cannot be opened ({exc})") from exc
            except sqlite3.DatabaseError as exc:
                conn.close()
                raise AuditIndexError(f"the audit index {self.index_path} is not a readable SQLite database "
                                      f"({exc}); delete it and it is rebuilt from the log") from exc
            except BaseException:
                conn.close()
                raise
            time.sleep(0.01)

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        """Create the schema in an empty file, rebuild an older one, refuse a newer one."""
        with _transaction(conn):
            tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            version = None
            if "meta" in tables:
                row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
                version = row[0] if row else None
            elif tables:
                raise AuditIndexError(f"{self.index_path} is a SQLite database but not an audit index; "
                                      "give AuditIndex another index_path")
            if isinstance(version, int) and version > SCHEMA_VERSION:
                raise AuditIndexError(
                    f"the audit index {self.index_path} has schema {version}, newer than this phlegyas reads "
                    f"({SCHEMA_VERSION}): upgrade phlegyas, or delete the file to rebuild it for this version")
            if version == SCHEMA_VERSION:
                return
            if "fts" in tables:
                conn.execute("DROP TABLE fts")
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                                        "'sqlite_%'").fetchall():
                conn.execute(f'DROP TABLE "{name}"')
            for statement in SCHEMA:
                conn.execute(statement)
            conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [
                ("schema_version", SCHEMA_VERSION), ("log_path", self.audit_path), ("offset", 0), ("device", None),
                ("inode", None), ("fp_len", 0), ("fp_hash", ""), ("corrupt_lines", 0), ("generation", 1),
                ("next_id", 1)])

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """The connection in one read transaction (one snapshot for all of a query's statements)."""
        with self._lock:
            if self._conn is None:
                raise AuditIndexError(f"the audit index {self.index_path} is closed")
            with _transaction(self._conn, "BEGIN"):
                yield self._conn

    # -- refreshing -----------------------------------------------------------------------------

    def refresh(self, *, max_rows: int | None = None) -> int:
        """Index the complete lines appended since the last refresh (at most ``max_rows`` of them, when
        given, to bound the time one call takes); returns how many rows were added. One ``os.stat``
        when the log has not changed."""
        try:
            st = os.stat(self.audit_path)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise AuditError(self.audit_path, exc, action="read") from exc
        if _stat_key(st) == self._seen:
            return 0
        added = 0
        with self._lock:
            if self._conn is None:
                raise AuditIndexError(f"the audit index {self.index_path} is closed")
            while max_rows is None or added < max_rows:
                cap = BATCH_ROWS if max_rows is None else min(BATCH_ROWS, max_rows - added)
                count, more, seen = self._batch(cap)
                added += count
                if not more:
                    self._seen = seen
                    break
        return added

    def _batch(self, cap: int) -> tuple[int, bool, tuple | None]:
        """One write transaction: check the log is still the one indexed, read up to ``cap`` complete
        lines after the offset, write them. Returns (rows added, lines were read, the log's stat)."""
        conn = self._conn
        with _transaction(conn, "BEGIN IMMEDIATE"):
            meta = dict(conn.execute("SELECT key, value FROM meta"))
            st = self._current_log()
            if st is None:
                if meta["inode"] is not None or meta["offset"]:
                    self._reset(conn, meta, None)
                return 0, False, None
            if self._replaced(meta, st):
                self._reset(conn, meta, st)
            self._caches.check(meta["generation"])
            lines, end = _read_lines(self._log_fd, meta["offset"], cap)
            writer = BatchWriter(conn, self._caches, meta["next_id"])
            corrupt = 0
            for pos, raw in lines:
                parsed = _parse(raw) if raw is not None else None
                if parsed is None:
                    corrupt += raw is None or bool(raw.strip())
                    continue
                writer.add(pos, len(raw), *parsed)
            count = writer.flush()
            updates = {"offset": end, "next_id": writer.next_id, "corrupt_lines": meta["corrupt_lines"] + corrupt}
            if meta["fp_len"] < FINGERPRINT_BYTES and end > meta["fp_len"]:
                updates["fp_len"] = min(end, FINGERPRINT_BYTES)
                updates["fp_hash"] = self._fingerprint(updates["fp_len"])
            _set_meta(conn, updates)
        return count, bool(lines), _stat_key(st)

    def _current_log(self) -> os.stat_result | None:
        """The stat of the file now at the log's path, with ``_log_fd`` open on that very file."""
        try:
            st = os.stat(self.audit_path)
            if self._log_fd is None or self._log_id != (st.st_dev, st.st_ino):
                self._close_log()
                self._log_fd = os.open(self.audit_path, os.O_RDONLY | os.O_CLOEXEC)
            st = os.fstat(self._log_fd)
            self._log_id = (st.st_dev, st.st_ino)
            return st
        except FileNotFoundError:
            self._close_log()
            return None
        except OSError as exc:
            raise AuditError(self.audit_path, exc, action="read") from exc

    def _close_log(self) -> None:
        if self._log_fd is not None:
            os.close(self._log_fd)
        self._log_fd = self._log_id = None

    def _fingerprint(self, length: int) -> str:
        return hashlib.blake2b(os.pread(self._log_fd, length, 0), digest_size=16).hexdigest()

    def _replaced(self, meta: dict, st: os.stat_result) -> bool:
        """The log is not the file the index was built from: another path or inode, cut below the
        offset, or other first bytes."""
        if meta["log_path"] != self.audit_path or (meta["device"], meta["inode"]) != (st.st_dev, st.st_ino):
            return True
        if st.st_size < meta["offset"]:
            return True
        return bool(meta["fp_len"]) and self._fingerprint(meta["fp_len"]) != meta["fp_hash"]

    def _reset(self, conn: sqlite3.Connection, meta: dict, st: os.stat_result | None) -> None:
        """Empty the index for a new log (``st``; None: no log). Row ids go on from where they were,
        so an id from before the reset never names another entry."""
        conn.execute("INSERT INTO fts (fts) VALUES ('delete-all')")
        for table in DATA_TABLES:
            conn.execute(f"DELETE FROM {table}")
        updates = {"log_path": self.audit_path, "offset": 0, "corrupt_lines": 0, "fp_len": 0, "fp_hash": "",
                   "generation": meta["generation"] + 1, "device": st.st_dev if st else None,
                   "inode": st.st_ino if st else None}
        _set_meta(conn, updates)
        meta.update(updates)

    # -- reading rows ---------------------------------------------------------------------------

    def search(self, *, text: str | None = None, decision: str | None = None, tier: str | None = None,
               tool: str | None = None, session: str | None = None, agent: str | None = None,
               machine: str | None = None, since: float | None = None, until: float | None = None,
               limit: int = 50, before: int | None = None) -> Page:
        """Rows newest first, filtered (every filter given must hold; an empty string is no filter).
        ``text`` is matched as words (each must occur, in any order, in the gist, the reason or the
        tool name); ``tier`` is a tier (``tier3_ai``) or a statistics label (``tier3_ai_approve``)."""
        limit = max(1, min(int(limit), MAX_LIMIT))
        since, until = _epoch(since, "since"), _epoch(until, "until")
        words = phrases(text) if text and text.strip() else ""
        with self._read() as conn:
            combos = _combo_ids(conn, decision, tier, tool) if decision or tier or tool else None
            where = _conditions(conn, since, until, before, session, agent, machine)
            if words is None or combos == [] or where is None:
                return Page([], None)
            query = ""
            if words:  # the words in the text columns, and every filter as its facet word
                filters = (("d", decision), ("t", tier), ("o", tool), ("s", session), ("a", agent),
                           ("m", machine))
                query = "{gist reason tool} : (" + words + ")" + "".join(
                    f" AND facets : {facet(kind, value)}" for kind, value in filters if value)
            ids = _find_ids(conn, query, combos, *where, limit + 1, session=bool(session), agent=bool(agent),
                            machine=bool(machine))
            rows = _rows(conn, ids[:limit])
        return Page(rows, ids[limit - 1] if len(ids) > limit else None)

    def entry(self, row_id: int) -> dict | None:
        """The full entry as logged, read back from the log; None when there is no such row or the log
        is no longer the one it was read from (refresh to index the new one)."""
        with self._read() as conn:
            found = conn.execute("SELECT pos, len FROM rows WHERE id = ?", (int(row_id),)).fetchone()
            ident = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('device', 'inode')"))
        if found is None:
            return None
        try:
            fd = os.open(self.audit_path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) != (ident["device"], ident["inode"]):
                return None
            raw = os.pread(fd, found[1], found[0])
        finally:
            os.close(fd)
        parsed = _parse(raw) if len(raw) == found[1] else None
        return parsed[1] if parsed else None

    @property
    def corrupt_lines(self) -> int:
        """Lines of the indexed log that were not a JSON object with a valid timestamp (skipped)."""
        with self._read() as conn:
            return int(conn.execute("SELECT value FROM meta WHERE key = 'corrupt_lines'").fetchone()[0])

    def facets(self) -> dict[str, list[str]]:
        """What the filters can be: ``decisions``, ``tiers`` (as logged), ``labels`` (the statistics'
        tier labels, which the ``tier`` filter takes too), ``tools`` and ``machines`` (empty for a log
        whose entries name no machine)."""
        with self._read() as conn:
            combos = conn.execute("SELECT decision, tier, label, tool FROM combos").fetchall()
            machines = conn.execute("SELECT s.text FROM machines m JOIN strings s ON s.id = m.id").fetchall()
        decisions = {c[0] for c in combos}
        return {"decisions": [d for d in _DECISIONS if d in decisions] + sorted(decisions - set(_DECISIONS)),
                "tiers": sorted({c[1] for c in combos}), "labels": sorted({c[2] for c in combos}),
                "tools": sorted({c[3] for c in combos}), "machines": sorted(m for (m,) in machines)}

    # -- charts and statistics (from the rollups) -----------------------------------------------

    def timeline(self, *, bucket: str = "hour", since: float | None = None, until: float | None = None) -> list[dict]:
        """Counts per UTC hour or day, oldest first, for the buckets that have any: ``{"start", "total",
        "allow", "ask", "deny", "by_tier"}`` (``by_tier`` by statistics label; another decision gets a key too)."""
        size = rollup.bucket_size(bucket)
        with self._read() as conn:
            return rollup.timeline(conn, size, _epoch(since, "since"), _epoch(until, "until"))

    def totals(self, *, since: float | None = None, until: float | None = None, top_tools: int | None = None) -> dict:
        """``compute_stats``'s numbers: total, approved, denied, asked, by_decision, by_tier (statistics
        labels), by_tool (most used first; only the first ``top_tools`` when given), first and last (epoch
        seconds), tier3 and corrupt_lines."""
        with self._read() as conn:
            stats = rollup.totals(conn, _epoch(since, "since"), _epoch(until, "until"))
        if top_tools is not None:
            stats["by_tool"] = dict(list(stats["by_tool"].items())[:max(0, int(top_tools))])
        return stats

    def asked_shapes(self, limit: int = 20, *, since: float | None = None, until: float | None = None) -> list[dict]:
        """The command shapes people were asked about most (an ``ask``, or a request a person answered,
        counted once per request), most asked first: ``{"tool", "shape", "rule", "count", "last",
        "example"}``. ``rule`` is a Claude Code allow rule that covers the shape, or None where none should
        be suggested (``sudo …``, ``bash -c …``, a command the gate does not understand)."""
        limit = max(1, min(int(limit), MAX_LIMIT))
        with self._read() as conn:
            return rollup.asked_shapes(conn, limit, _epoch(since, "since"), _epoch(until, "until"))

    def human_waits(self, *, since: float | None = None, until: float | None = None) -> dict:
        """How long people took to answer (Slack's ``wait_seconds``, or from a request's pending entry to
        its answer): ``count``, ``p50``, ``p90`` (nearest rank) and ``max`` seconds, and ``points``, the
        latest 500 (epoch, seconds) at most, oldest first."""
        with self._read() as conn:
            return rollup.human_waits(conn, _epoch(since, "since"), _epoch(until, "until"))

    def tier3_usage(self, *, bucket: str = "day", since: float | None = None, until: float | None = None) -> list[dict]:
        """Tier 3 (AI) use per UTC hour or day, for the buckets that have any: ``{"start", "calls",
        "cache_hits", "input_tokens", "output_tokens", "cost_usd"}``."""
        size = rollup.bucket_size(bucket)
        with self._read() as conn:
            return rollup.tier3(conn, _epoch(since, "since"), _epoch(until, "until"), size)


# --- helpers -------------------------------------------------------------------------------------

@contextmanager
def _transaction(conn: sqlite3.Connection, begin: str = "BEGIN IMMEDIATE") -> Iterator[None]:
    conn.execute(begin)
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _set_meta(conn: sqlite3.Connection, values: dict[str, Any]) -> None:
    conn.executemany("UPDATE meta SET value = ? WHERE key = ?", [(v, k) for k, v in values.items()])


def _read_lines(fd: int, offset: int, cap: int) -> tuple[list[tuple[int, bytes | None]], int]:
    """Up to ``cap`` complete lines from ``offset``: (position, bytes without the newline; None for a
    line too long to read), and the offset after the last one. A partial last line is left for later."""
    size = BATCH_BYTES
    while True:
        data = os.pread(fd, size, offset)
        cut = data.rfind(b"\n")
        if cut >= 0:
            break
        if len(data) < size:
            return [], offset  # nothing complete yet
        if size >= MAX_LINE_BYTES:
            end = _skip_line(fd, offset + len(data))
            return ([(offset, None)], end) if end is not None else ([], offset)
        size *= 2
    lines: list[tuple[int, bytes | None]] = []
    pos = offset
    for raw in data[:cut].split(b"\n"):
        if len(lines) == cap:
            break
        lines.append((pos, raw))
        pos += len(raw) + 1
    return lines, pos


def _skip_line(fd: int, offset: int) -> int | None:
    """The offset after the next newline at or after ``offset``; None if the line is not complete yet."""
    while True:
        data = os.pread(fd, BATCH_BYTES, offset)
        cut = data.find(b"\n")
        if cut >= 0:
            return offset + cut + 1
        if len(data) < BATCH_BYTES:
            return None
        offset += len(data)


def _combo_ids(conn: sqlite3.Connection, decision: str | None, tier: str | None, tool: str | None) -> list[int]:
    terms, params = ["1"], []
    if decision:
        terms.append("decision = ?")
        params.append(decision)
    if tier:
        terms.append("(tier = ? OR label = ?)")
        params += [tier, tier]
    if tool:
        terms.append("tool = ?")
        params.append(tool)
    return [c for (c,) in conn.execute(f"SELECT id FROM combos WHERE {' AND '.join(terms)}", params)]


def _id_span(conn: sqlite3.Connection, since: float | None, until: float | None,
             before: int | None) -> tuple[int, int] | None:
    """The ids a page may hold: below ``before``, within the hours ``[since, until)`` touches."""
    lo, hi = 1, (int(before) - 1) if before is not None else (1 << 62)
    if since is not None:
        found = conn.execute("SELECT min(first_id) FROM spans WHERE b >= ?", (math.floor(since / HOUR),)).fetchone()[0]
        if found is None:
            return None
        lo = max(lo, found)
    if until is not None:
        found = conn.execute("SELECT max(last_id) FROM spans WHERE b < ?", (math.ceil(until / HOUR),)).fetchone()[0]
        if found is None:
            return None
        hi = min(hi, found)
    return (lo, hi) if lo <= hi else None


def _conditions(conn: sqlite3.Connection, since: float | None, until: float | None, before: int | None,
                session: str | None, agent: str | None, machine: str | None) -> tuple[list[str], list] | None:
    """The conditions on ``rows r`` for the time, the page and the session, agent and machine (the
    first two always the id bounds), with their parameters; None when no row can meet them."""
    span = _id_span(conn, since, until, before)
    if span is None:
        return None
    terms, params = ["r.id >= ?", "r.id <= ?"], list(span)
    for term, value in (("r.ts >= ?", since), ("r.ts < ?", until)):
        if value is not None:
            terms.append(term)
            params.append(value)
    for column, value in (("session", session), ("agent", agent), ("machine", machine)):
        if value:
            found = conn.execute("SELECT id FROM strings WHERE text = ?", (value,)).fetchone()
            if found is None:
                return None
            terms.append(f"r.{column} = {int(found[0])}")
    return terms, params


def _find_ids(conn: sqlite3.Connection, query: str, combos: list[int] | None, terms: list[str], params: list,
              limit: int, *, session: bool, agent: bool, machine: bool) -> list[int]:
    """The ids of the first ``limit`` matching rows, newest first, driven by the narrowest index: the
    full-text index (which knows the filters too; they are checked again on the rows), a session's,
    an agent's or a machine's rows, each decision × tier × tool, or the ids alone."""
    combo_term = [f"r.combo IN ({','.join(str(c) for c in combos)})"] if combos is not None else []
    if query:
        sql = (f"SELECT r.id FROM fts CROSS JOIN rows r ON r.id = fts.rowid WHERE fts MATCH ? AND fts.rowid >= ? "
               f"AND fts.rowid <= ? AND {' AND '.join(terms + combo_term)} ORDER BY fts.rowid DESC LIMIT ?")
        return [i for (i,) in conn.execute(sql, (query, params[0], params[1], *params, limit))]
    if session or agent or machine:
        index = "rows_session" if session else "rows_agent" if agent else "rows_machine"
        sql = (f"SELECT r.id FROM rows r INDEXED BY {index} WHERE {' AND '.join(terms + combo_term)} "
               "ORDER BY r.id DESC LIMIT ?")
        return [i for (i,) in conn.execute(sql, (*params, limit))]
    if combos is not None:
        sql = (f"SELECT r.id FROM rows r INDEXED BY rows_combo WHERE r.combo = ? AND {' AND '.join(terms)} "
               "ORDER BY r.id DESC LIMIT ?")
        found = [[i for (i,) in conn.execute(sql, (combo, *params, limit))] for combo in combos]
        return heapq.nlargest(limit, (i for ids in found for i in ids))
    sql = f"SELECT r.id FROM rows r WHERE {' AND '.join(terms)} ORDER BY r.id DESC LIMIT ?"
    return [i for (i,) in conn.execute(sql, (*params, limit))]


def _rows(conn: sqlite3.Connection, ids: list[int]) -> list[Row]:
    if not ids:
        return []
    sql = ("SELECT r.id, r.ts, c.tool, c.decision, c.tier, r.reason, r.summary, s.text, a.text, w.text, m.text "
           "FROM rows r JOIN combos c ON c.id = r.combo LEFT JOIN strings s ON s.id = r.session "
           "LEFT JOIN strings a ON a.id = r.agent LEFT JOIN strings w ON w.id = r.cwd "
           "LEFT JOIN strings m ON m.id = r.machine "
           f"WHERE r.id IN ({','.join(str(int(i)) for i in ids)}) ORDER BY r.id DESC")
    return [Row(*row) for row in conn.execute(sql)]


