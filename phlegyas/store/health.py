"""``phlegyas doctor``'s look at the data directory: each SQLite store opens read-only and passes
``PRAGMA integrity_check``, and the audit log can be appended to. Nothing is created or written: a
store that does not exist yet is made on first use, and the log is only opened for appending."""
from __future__ import annotations

import os
import sqlite3
import stat
import urllib.parse
from dataclasses import dataclass

from phlegyas.core.health import Check, ok, problem, shown, warning
from phlegyas.store import cache, sqlite
from phlegyas.store.audit import FILE_MODE

INTEGRITY_ERRORS_SHOWN = 3
OPEN_TIMEOUT_SECONDS = 2.0


@dataclass(frozen=True)
class SQLiteStore:
    """One SQLite file of the data directory: where it is, the tables its schema makes, what to do
    when it is broken."""

    name: str
    file_name: str
    tables: tuple[str, ...]
    fix: str


STORES = (
    SQLiteStore("approvals store", sqlite.FILE_NAME, ("meta", "requests"),
                "move it away (mv {path} {path}.broken): phlegyas makes a new one on first use; "
                "the requests waiting in it are lost"),
    SQLiteStore("Tier 3 cache", cache.FILE_NAME, ("tier3_cache",),
                "delete it (rm {path}): it only holds cached Tier 3 verdicts"),
)


def store_checks(data_dir: str, home: str) -> list[Check]:
    return [sqlite_check(store, os.path.join(data_dir, store.file_name), home) for store in STORES]


def sqlite_check(store: SQLiteStore, path: str, home: str) -> Check:
    """Open ``path`` read-only and run ``PRAGMA integrity_check``; a missing file is healthy."""
    where = shown(path, home)
    if not os.path.lexists(path):
        return ok(store.name, f"{where} not created yet (made on first use)")
    fix = store.fix.format(path=where)
    if not os.path.isfile(path) or os.path.islink(path):
        return problem(store.name, f"{where} is not a regular file", fix)
    try:
        conn = sqlite3.connect(f"file:{urllib.parse.quote(path)}?mode=ro", uri=True, timeout=OPEN_TIMEOUT_SECONDS)
    except sqlite3.Error as exc:
        return problem(store.name, f"{where} cannot be opened: {exc}", fix)
    try:
        found = [row[0] for row in conn.execute(f"PRAGMA integrity_check({INTEGRITY_ERRORS_SHOWN})")]
        if found != ["ok"]:
            return problem(store.name, f"{where} fails its integrity check: {'; '.join(map(str, found))}", fix)
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return _schema(store, where, tables, conn, fix)
    except sqlite3.Error as exc:
        return problem(store.name, f"{where} is not a usable SQLite database: {exc}", fix)
    finally:
        conn.close()


def _schema(store: SQLiteStore, where: str, tables: set[str], conn: sqlite3.Connection, fix: str) -> Check:
    if not tables:
        return ok(store.name, f"{where} empty (its tables are made on first use)")
    missing = [t for t in store.tables if t not in tables]
    if missing:
        return problem(store.name, f"{where} is missing the table(s) {', '.join(missing)}: not a phlegyas "
                                   "store, or one that was damaged", fix)
    if store.file_name == sqlite.FILE_NAME:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        version = row[0] if row else None
        if version is not None and str(version).isdigit() and int(version) > sqlite.SCHEMA_VERSION:
            return problem(store.name, f"{where} has schema version {version}, newer than this phlegyas "
                                       f"reads ({sqlite.SCHEMA_VERSION})", "upgrade phlegyas, or use another PHLEGYAS_HOME")
        pending = conn.execute("SELECT count(*) FROM requests WHERE status = 'pending'").fetchone()[0]
        return ok(store.name, f"{where} passes its integrity check (schema {version}; {pending} pending)")
    rows = conn.execute(f"SELECT count(*) FROM {store.tables[0]}").fetchone()[0]
    return ok(store.name, f"{where} passes its integrity check ({rows} entries)")


def audit_check(enabled: bool, path: str, home: str) -> Check:
    """Whether the audit log at ``path`` can be appended to (it is only opened, never written)."""
    name = "audit log"
    where = shown(path, home)
    if not enabled:
        return ok(name, "off (ENABLE_AUDIT_LOG=false): decisions are not logged")
    fix = f"make {where} writable by you, or set AUDIT_LOG_FILE to a file you can write"
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return _creatable(name, path, where, fix)
    if not stat.S_ISREG(info.st_mode):
        return problem(name, f"{where} is not a regular file: decisions cannot be logged", fix)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC))
    except OSError as exc:
        return problem(name, f"{where} cannot be written ({exc.strerror or exc}): decisions are not logged", fix)
    mode = stat.S_IMODE(info.st_mode)
    if mode & ~FILE_MODE:
        return warning(name, f"{where} is writable but readable by other users (mode {mode:o}): it holds "
                             "every command the agent ran", f"chmod 600 {where}")
    return ok(name, f"{where} writable ({_size(info.st_size)})")


def _creatable(name: str, path: str, where: str, fix: str) -> Check:
    """A log not written yet: the nearest existing directory above it must let us create it."""
    parent = os.path.dirname(path)
    while parent and not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if os.path.isdir(parent) and os.access(parent, os.W_OK | os.X_OK):
        return ok(name, f"{where} not written yet; it can be created")
    return problem(name, f"{where} cannot be created ({parent} is not a directory you can write): "
                         "decisions are not logged", fix)


def _size(size: int) -> str:
    if size < 1024:
        return f"{size} bytes"
    return f"{size / 1024:.1f} KiB" if size < 1024 * 1024 else f"{size / (1024 * 1024):.1f} MiB"


def database_check(settings) -> Check:
    """The shared PostgreSQL store, when configured: reachable, the right schema, and how many of this
    machine's audit rows wait to be sent (rows kept while it was out of reach)."""
    name = "shared database"
    if not settings.database_url:
        return ok(name, "none (PHLEGYAS_DATABASE_URL unset): approvals and the Tier 3 cache are SQLite files in "
                        "the data directory")
    from phlegyas.store import pg_schema  # psycopg: only with a database
    from phlegyas.store.approvals import StoreError
    from phlegyas.store.backends import database, machine_name
    from phlegyas.store.pg_audit import pending

    unsent = pending(settings.audit_log_file) if settings.enable_audit_log else 0
    waiting = f"{unsent} audit row{'s' if unsent != 1 else ''} of this machine ({machine_name(settings)}) not sent yet"
    db = database(settings)
    try:
        with db.connection() as conn:
            version = pg_schema.current_version(conn)
    except StoreError as exc:
        fix = ("run `phlegyas db upgrade` as a role that may create tables" if "db upgrade" in str(exc) else
               "check the URL, the network and the server; calls that need a person are denied meanwhile, and "
               "audit rows are kept in the local log until it is back")
        return problem(name, f"{exc}; {waiting}", fix)
    finally:
        db.close()
    detail = f"{db.shown} reachable, schema version {version}; {waiting}"
    if unsent > 1000:
        return warning(name, detail, "run `phlegyas db flush` (the resident hook server and the MCP server send "
                                     "them in the background)")
    return ok(name, detail)
