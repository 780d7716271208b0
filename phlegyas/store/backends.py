"""Which store backend the settings name: SQLite files in the data directory (the embedded default), or
one PostgreSQL database shared by a team or a fleet (``PHLEGYAS_DATABASE_URL`` / ``[settings]
database_url`` in the user policy).

With a database, the approvals queue and the Tier 3 cache live there, and each machine's JSONL audit log
is shipped there too (``pg_audit``); the trust store and the local audit log stay on the machine.
The PostgreSQL modules are imported only when a database is configured.
"""
from __future__ import annotations

import socket
import threading
from typing import Any, Callable

from phlegyas.store.approvals import ApprovalStore, StoreError
from phlegyas.store.sqlite import SQLiteApprovalStore, default_path


def machine_name(settings) -> str:
    """This machine's name in the shared store: PHLEGYAS_MACHINE, else the host name."""
    return settings.machine_name or socket.gethostname()


def database(settings, *, pooled: bool = False) -> Any:
    """A ``pg_connect.Database`` for the configured URL (pooled in long-lived processes), or None."""
    if not settings.database_url:
        return None
    from phlegyas.store.pg_connect import Database  # psycopg and friends: only with a database

    return Database(settings.database_url, pooled=pooled)


def open_store(settings, *, pooled: bool = False, sleep: Callable[[float], None] | None = None) -> ApprovalStore:
    """The approvals store the settings name: PostgreSQL when a database is configured, else SQLite at
    ``<data_dir>/approvals.sqlite3``. ``sleep`` lets a server end a wait when it stops."""
    options: dict[str, Any] = {"machine": machine_name(settings)}
    if sleep is not None:
        options["sleep"] = sleep
    db = database(settings, pooled=pooled)
    if db is not None:
        from phlegyas.store.postgres import PostgresApprovalStore  # (same)

        return PostgresApprovalStore(db, **options)
    return SQLiteApprovalStore(default_path(settings.data_dir), **options)


def open_cache(settings) -> Any:
    """The Tier 3 verdict cache (None when caching is off): shared in the database when one is configured."""
    if not (settings.enable_approval_cache and settings.cache_ttl_seconds > 0):
        return None
    db = database(settings)
    if db is not None:
        from phlegyas.store.pg_cache import PostgresVerdictCache  # (same)

        return PostgresVerdictCache(db, ttl_seconds=settings.cache_ttl_seconds)
    from phlegyas.store.cache import VerdictCache, cache_path  # sqlite3: only when Tier 3 is on

    return VerdictCache(cache_path(settings.data_dir), ttl_seconds=settings.cache_ttl_seconds)


def audit_shipper(settings) -> Any:
    """A background shipper of this machine's audit log to the database (``pg_audit.Shipper``), or None
    without a database or an audit log. For the long-lived processes; ``kick()`` it after each record."""
    if not settings.database_url or not settings.enable_audit_log:
        return None
    from phlegyas.store.pg_audit import Shipper  # (same)

    return Shipper(database(settings, pooled=False), settings.audit_log_file, machine_name(settings))


_shippers: dict[tuple[str, str, str], Any] = {}
_shippers_lock = threading.Lock()


def kick_shipper(settings) -> None:
    """In a long-lived process that serves many calls (the hook server): ship soon, in the background,
    with one shipper per database and log kept for the life of the process. No-op without a database."""
    if not settings.database_url or not settings.enable_audit_log:
        return
    key = (settings.database_url, settings.audit_log_file, machine_name(settings))
    with _shippers_lock:
        shipper = _shippers.get(key)
        if shipper is None:
            shipper = _shippers[key] = audit_shipper(settings)
    shipper.kick()


def ship_now(settings) -> str | None:
    """Ship this machine's unsent audit rows to the database now (a short-lived process's way); None when
    done or when there is no database, else what went wrong (the rows stay in the log for later)."""
    if not settings.database_url or not settings.enable_audit_log:
        return None
    from phlegyas.store.pg_audit import pending, ship  # (same)

    db = database(settings)
    try:
        ship(db, settings.audit_log_file, machine_name(settings))
        return None
    except (StoreError, OSError) as exc:
        return f"audit rows kept in {settings.audit_log_file} for the database ({pending(settings.audit_log_file)} " \
               f"waiting): {exc}"
    finally:
        db.close()


def where(settings) -> str:
    """Where the approvals live, for messages: ``postgresql://…`` (password hidden) or the SQLite file."""
    if settings.database_url:
        from phlegyas.store.pg_connect import shown_url  # (same)

        return shown_url(settings.database_url)
    return default_path(settings.data_dir)
