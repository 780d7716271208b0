"""The Tier 3 verdict cache: a small SQLite file shared by every process of one user.

Each hook invocation is its own process, so the cache lives on disk: ``<data_dir>/cache.sqlite3``,
created with mode 0600 in a 0700 directory, in WAL mode with a busy timeout so that concurrent hook
processes read while one writes. Entries are JSON objects under an opaque key, valid for
``ttl_seconds``. A cache that cannot be opened, read or written behaves as an empty cache: it never
blocks a decision (``last_error`` says what happened).
"""
from __future__ import annotations

import json
import os
import threading
import time
from typing import Any, Callable

FILE_NAME = "cache.sqlite3"
BUSY_TIMEOUT_MS = 3000
PRUNE_EVERY = 50  # writes between two deletions of expired rows

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tier3_cache (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tier3_cache_expires ON tier3_cache (expires);
"""


def cache_path(data_dir: str) -> str:
    return os.path.join(data_dir, FILE_NAME)


class VerdictCache:
    """``get(key) -> dict | None`` and ``put(key, value)``; the connection opens on first use.

    Safe to share between threads of one process (one connection behind a lock) and between
    processes (SQLite's own locking). ``clock`` returns seconds (``time.time`` by default).
    """

    def __init__(self, path: str, *, ttl_seconds: int, clock: Callable[[], float] = time.time):
        self.path = path
        self.ttl_seconds = ttl_seconds
        self.clock = clock
        self.last_error: str | None = None
        self._conn = None
        self._lock = threading.Lock()
        self._writes = 0

    def get(self, key: str) -> dict[str, Any] | None:
        """The live entry under ``key``, or None (missing, expired, unreadable)."""
        if self.ttl_seconds <= 0:
            return None
        with self._lock:
            try:
                cursor = self._connect().execute(
                    "SELECT value FROM tier3_cache WHERE key = ? AND expires > ?", (key, self.clock()))
                try:  # finished at once: an open statement keeps a snapshot that makes the next write fail
                    row = cursor.fetchone()
                finally:
                    cursor.close()
            except Exception as exc:  # noqa: BLE001 - a broken cache is an empty cache
                self._failed(exc)
                return None
        return None if row is None else decoded(row[0])

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Store ``value`` under ``key`` for ``ttl_seconds`` (a no-op when the TTL is 0)."""
        if self.ttl_seconds <= 0:
            return
        now = self.clock()
        data = json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False)
        with self._lock:
            try:
                conn = self._connect()
                with conn:
                    conn.execute("INSERT OR REPLACE INTO tier3_cache (key, value, created, expires) "
                                 "VALUES (?, ?, ?, ?)", (key, data, now, now + self.ttl_seconds))
                    self._writes += 1
                    if self._writes % PRUNE_EVERY == 1:
                        conn.execute("DELETE FROM tier3_cache WHERE expires <= ?", (now,))
            except Exception as exc:  # noqa: BLE001 - a cache that cannot be written is not an error
                self._failed(exc)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _connect(self):
        if self._conn is None:
            import sqlite3  # lean start-up: the cache is opened only when Tier 3 is on

            _create_private(self.path)
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False,
                                   isolation_level=None)
            try:
                conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
                conn.executescript(_SCHEMA)
            except Exception:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    def _failed(self, exc: Exception) -> None:
        self.last_error = f"{type(exc).__name__}: {exc}"
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # noqa: BLE001
                pass
            self._conn = None


def decoded(text: str) -> dict[str, Any] | None:
    """A stored entry: a JSON object, or None for anything else (an entry that cannot be read is a miss)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _create_private(path: str) -> None:
    """Make the directory (0700) and an empty file (0600) before SQLite opens it, so that the cache
    (commands and verdicts) is never readable by other users, even for a moment."""
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        os.fchmod(fd, 0o600)  # a file left by an older version with a looser mode is tightened
    finally:
        os.close(fd)
