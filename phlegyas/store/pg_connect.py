"""Connections to the shared PostgreSQL database (psycopg 3), for the stores that live there.

``Database(url, pooled=...)`` hands out autocommit connections: from a small pool (psycopg_pool) in the
long-lived processes (hook server, MCP server, dashboard), or one connection opened on first use in a
short-lived process (a CLI command, an in-process hook). A connection that fails is dropped and the next
use reconnects, so a database that comes back is used again without a restart. Every failure becomes
``DatabaseUnavailable`` (a ``StoreError``) naming the URL with its password hidden — libpq's own messages
are passed through ``redact`` as well. The schema version is checked on the first connection
(``pg_schema.check``).

The URL is libpq's (``postgresql://user@host:port/db?sslmode=verify-full&sslrootcert=…``, or
``host=… dbname=…``): every libpq option passes through; only ``connect_timeout`` (3 s) and
``application_name`` (phlegyas) get defaults when the URL does not set them.

psycopg is imported here only, when a database is configured: the hook's start-up never pays for it.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Iterator

from phlegyas.core.redact import redact
from phlegyas.store import pg_schema
from phlegyas.store.approvals import StoreError, StoreUnavailable

CONNECT_TIMEOUT_SECONDS = 3
POOL_MAX = 8
POOL_WAIT_SECONDS = 3.0  # as long as a connection attempt may take: a busy pool, or a server gone
POOL_IDLE_SECONDS = 60.0
INSTALL_HINT = "pip install 'phlegyas[postgres]'"


class DatabaseUnavailable(StoreUnavailable):
    """The database cannot be reached or failed mid-operation (the message names it, password hidden)."""


def shown_url(url: str) -> str:
    """The URL as it may be printed and logged: any password hidden."""
    return redact(url)


def _psycopg() -> Any:
    try:
        import psycopg  # lean start-up: only a configured database pays for the driver
    except ImportError:
        raise StoreError(f"PHLEGYAS_DATABASE_URL is set but psycopg is not installed: {INSTALL_HINT}") from None
    return psycopg


def conninfo(url: str) -> str:
    """``url`` with phlegyas's defaults for the options it leaves unset (StoreError when it is malformed)."""
    psycopg = _psycopg()
    try:
        given = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        raise StoreError(f"PHLEGYAS_DATABASE_URL is not a valid libpq URL ({shown_url(url)}): "
                         f"{redact(str(exc))}") from None
    extra = {}
    if "connect_timeout" not in given:
        extra["connect_timeout"] = CONNECT_TIMEOUT_SECONDS
    if "application_name" not in given:
        extra["application_name"] = "phlegyas"
    return psycopg.conninfo.make_conninfo(url, **extra)


class Database:
    """Connections to one database; thread-safe. ``close()`` ends them (and the pool)."""

    def __init__(self, url: str, *, pooled: bool = False):
        self.url = url
        self.shown = shown_url(url)
        self.pooled = pooled
        self._conninfo: str | None = None
        self._lock = threading.Lock()
        self._conn: Any = None
        self._pool: Any = None
        self._checked = False

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                _close_quietly(self._conn)
                self._conn = None
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    @contextmanager
    def connection(self) -> Iterator[Any]:
        """An autocommit connection with the right schema; errors become DatabaseUnavailable/StoreError."""
        psycopg = _psycopg()
        if self.pooled:
            pool = self._the_pool()
            try:
                with pool.connection(timeout=POOL_WAIT_SECONDS) as conn:
                    self._check(conn)
                    yield conn
            except psycopg.Error as exc:
                raise self.failed(exc) from exc
            except _pool_timeout() as exc:
                raise DatabaseUnavailable(f"database {self.shown} is unreachable: {redact(str(exc))}") from exc
            return
        with self._lock:
            try:
                if self._conn is None or self._conn.closed:
                    self._conn = self.connect()
                self._check(self._conn)
                yield self._conn
            except psycopg.Error as exc:
                if self._conn is not None and (self._conn.closed or self._conn.broken):
                    _close_quietly(self._conn)
                    self._conn = None
                raise self.failed(exc) from exc

    def connect(self, **options: Any) -> Any:
        """A new connection of its own (a listener's), autocommit; DatabaseUnavailable when out of reach."""
        psycopg = _psycopg()
        if self._conninfo is None:
            self._conninfo = conninfo(self.url)
        try:
            return psycopg.connect(self._conninfo, autocommit=True, **options)
        except psycopg.Error as exc:
            raise self.failed(exc) from exc

    def failed(self, exc: BaseException) -> StoreError:
        """The StoreError for a driver error: unreachable (connection-level) or failed (a statement)."""
        psycopg = _psycopg()
        detail = " ".join(redact(str(exc)).split()) or type(exc).__name__
        if isinstance(exc, psycopg.OperationalError):
            return DatabaseUnavailable(f"database {self.shown} is unreachable: {detail}")
        return StoreError(f"database {self.shown}: {detail}")

    def _check(self, conn: Any) -> None:
        if not self._checked:
            pg_schema.check(conn, self.shown)
            self._checked = True

    def _the_pool(self) -> Any:
        with self._lock:
            if self._pool is None:
                try:
                    from psycopg_pool import ConnectionPool  # (same: only with a database)
                except ImportError:
                    raise StoreError(f"psycopg_pool is not installed: {INSTALL_HINT}") from None
                if self._conninfo is None:
                    self._conninfo = conninfo(self.url)
                # a pooled connection is checked before it is handed out: one the server dropped is replaced
                # none held while idle: a fleet of long-lived processes must not exhaust max_connections
                self._pool = ConnectionPool(self._conninfo, min_size=0, max_size=POOL_MAX, max_idle=POOL_IDLE_SECONDS,
                                            open=False, kwargs={"autocommit": True},
                                            check=ConnectionPool.check_connection, name="phlegyas")
                self._pool.open(wait=False)
            return self._pool


def _pool_timeout() -> type[BaseException]:
    from psycopg_pool import PoolTimeout  # (same)

    return PoolTimeout


def _close_quietly(conn: Any) -> None:
    try:
        conn.close()
    except Exception:  # noqa: BLE001 - a broken connection may fail to close; it is dropped either way
        pass
