"""The Tier 3 verdict cache in PostgreSQL: a verdict paid for on one machine serves the whole fleet.

The same ``get``/``put`` as ``store.cache.VerdictCache``. A cache that fails answers like an empty one
and says why in ``last_error``; ``unavailable`` is set while the database is out of reach, so that Tier 3
can fail closed (it denies instead of asking the model what the fleet's shared cache would have said).
"""
from __future__ import annotations

import json
import time
from typing import Any, Callable

from phlegyas.store.approvals import StoreError
from phlegyas.store.cache import decoded
from phlegyas.store.pg_connect import Database, DatabaseUnavailable

PRUNE_EVERY = 50  # writes between two deletions of expired rows


class PostgresVerdictCache:
    def __init__(self, db: Database, *, ttl_seconds: int, clock: Callable[[], float] = time.time):
        self.db = db
        self.path = db.shown
        self.ttl_seconds = ttl_seconds
        self.clock = clock
        self.last_error: str | None = None
        self.unavailable: str | None = None
        self._writes = 0

    def get(self, key: str) -> dict[str, Any] | None:
        if self.ttl_seconds <= 0:
            return None
        try:
            with self.db.connection() as conn:
                row = conn.execute("SELECT value FROM phlegyas_cache WHERE key = %s AND expires > %s",
                                   (key, self.clock())).fetchone()
        except StoreError as exc:
            self._failed(exc)
            return None
        self.unavailable = None
        return None if row is None else decoded(row[0])

    def put(self, key: str, value: dict[str, Any]) -> None:
        if self.ttl_seconds <= 0:
            return
        now = self.clock()
        data = json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False)
        try:
            with self.db.connection() as conn, conn.transaction():
                conn.execute("INSERT INTO phlegyas_cache (key, value, created, expires) VALUES (%s, %s, %s, %s) "
                             "ON CONFLICT (key) DO UPDATE SET value = excluded.value, created = excluded.created, "
                             "expires = excluded.expires", (key, data, now, now + self.ttl_seconds))
                self._writes += 1
                if self._writes % PRUNE_EVERY == 1:
                    conn.execute("DELETE FROM phlegyas_cache WHERE expires <= %s", (now,))
        except StoreError as exc:
            self._failed(exc)

    def close(self) -> None:
        self.db.close()

    def _failed(self, exc: StoreError) -> None:
        self.last_error = str(exc)
        self.unavailable = str(exc) if isinstance(exc, DatabaseUnavailable) else None
