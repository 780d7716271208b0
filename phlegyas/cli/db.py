"""``phlegyas db``: the shared PostgreSQL store of a team or a fleet (PHLEGYAS_DATABASE_URL).

``upgrade`` applies the schema's migrations, ``status`` shows what is there and what this machine still
has to send, ``prune`` deletes old rows, ``flush`` sends this machine's waiting audit rows now.
docs/FLEET.md explains the deployment (roles, TLS, sizing).
"""
from __future__ import annotations

import argparse
import json
import time
from typing import TextIO

from phlegyas.cli.common import CliError, settings_here


def register(sub) -> None:
    """Add ``db`` (upgrade, status, prune, flush) to the ``phlegyas`` subparsers ``sub``."""
    db = sub.add_parser(
        "db", help="the shared PostgreSQL store: upgrade, status, prune, flush",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="With PHLEGYAS_DATABASE_URL (or database_url under [settings] in the user policy), the "
                    "approvals queue, the Tier 3 cache and a copy of every machine's audit log live in one "
                    "PostgreSQL database (docs/FLEET.md). These commands look after it; the URL is always "
                    "shown with its password hidden.",
        epilog="examples:\n  PHLEGYAS_DATABASE_URL=postgresql://phlegyas_owner@db/phlegyas phlegyas db upgrade\n"
               "  phlegyas db status\n  phlegyas db prune --older-than 90d\n  phlegyas db flush\n\n"
               "exit status: 0 done, 3 no database configured, unreachable, or a schema this phlegyas "
               "cannot use\n")
    actions = db.add_subparsers(dest="action", metavar="ACTION", required=True)
    upgrade = actions.add_parser("upgrade", help="create or upgrade the schema (run once per release, as a role "
                                                 "that may create tables)")
    upgrade.set_defaults(func=cmd_upgrade)
    status = actions.add_parser("status", help="the database, its schema, its rows, and this machine's unsent "
                                               "audit rows")
    status.add_argument("--json", action="store_true", help="print the status as JSON")
    status.set_defaults(func=cmd_status)
    prune = actions.add_parser("prune", help="delete audit rows and finished requests older than an age")
    prune.add_argument("--older-than", required=True, metavar="AGE",
                       help="an age: 90d, 12h, 2w (units s, m, h, d, w); pending requests are kept")
    prune.set_defaults(func=cmd_prune)
    flush = actions.add_parser("flush", help="send this machine's waiting audit rows to the database now")
    flush.set_defaults(func=cmd_flush)


def _settings():
    settings = settings_here()
    if not settings.database_url:
        raise CliError("no shared database configured: set PHLEGYAS_DATABASE_URL=postgresql://… (or database_url "
                       "under [settings] in the user policy); see docs/FLEET.md")
    return settings


def _database(settings):
    from phlegyas.store.backends import database  # psycopg: only the db commands load it

    return database(settings)


def _guarded(fn, *args, **kwargs):
    from phlegyas.store.approvals import StoreError  # only when `phlegyas db` runs

    try:
        return fn(*args, **kwargs)
    except StoreError as exc:
        raise CliError(str(exc)) from None


def cmd_upgrade(args, out: TextIO, err: TextIO) -> int:
    from phlegyas.store import pg_schema  # only when `phlegyas db` runs

    settings = _settings()
    db = _database(settings)
    try:
        conn = _guarded(db.connect)
        with conn:
            before, after, applied = _guarded(lambda: _wrapped(db, pg_schema.upgrade, conn))
    finally:
        db.close()
    if not applied:
        out.write(f"{db.shown}: schema version {after}, up to date\n")
        return 0
    out.write(f"{db.shown}: schema version {before} → {after}\n")
    for line in applied:
        out.write(f"  applied {line}\n")
    return 0


def _wrapped(db, fn, *args):
    """``fn(*args)`` with the driver's errors as the store's (they name the database, password hidden)."""
    import psycopg  # only when `phlegyas db` runs

    try:
        return fn(*args)
    except psycopg.Error as exc:
        raise db.failed(exc) from exc


def cmd_status(args, out: TextIO, err: TextIO) -> int:
    from phlegyas.store import pg_schema  # only when `phlegyas db` runs
    from phlegyas.store.approvals import StoreError
    from phlegyas.store.backends import machine_name
    from phlegyas.store.pg_audit import pending, table_counts

    settings = _settings()
    db = _database(settings)
    unsent = pending(settings.audit_log_file) if settings.enable_audit_log else 0
    status = {"database": db.shown, "machine": machine_name(settings), "schema_needed": pg_schema.SCHEMA_VERSION,
              "unsent_audit_rows": unsent, "audit_log": settings.audit_log_file}
    try:
        with db.connect() as conn:
            status["schema_version"] = _wrapped(db, pg_schema.current_version, conn)
        if status["schema_version"] == pg_schema.SCHEMA_VERSION:
            status.update(table_counts(db))
    except StoreError as exc:  # unreachable: what waits on this machine is still worth saying
        status["error"] = str(exc)
    finally:
        db.close()
    if "error" in status:
        if args.json:
            out.write(json.dumps(status, indent=2) + "\n")
        else:
            out.write(f"database      {status['database']}\nthis machine  {status['machine']}: {unsent} audit row"
                      f"{'s' if unsent != 1 else ''} not sent yet (kept in {status['audit_log']})\n")
        err.write(f"phlegyas: {status['error']}\n")
        return 3
    if args.json:
        out.write(json.dumps(status, indent=2) + "\n")
        return 0
    version = status["schema_version"]
    note = "" if version == pg_schema.SCHEMA_VERSION else f" (this phlegyas needs {pg_schema.SCHEMA_VERSION}: run " \
                                                          "`phlegyas db upgrade`)"
    out.write(f"database      {status['database']}\nschema        version {version}{note}\n"
              f"this machine  {status['machine']}: {unsent} audit row{'s' if unsent != 1 else ''} not sent yet\n")
    if "rows" in status:
        rows = ", ".join(f"{name.removeprefix('phlegyas_')} {'(not readable)' if count is None else f'{count:,}'}"
                         for name, count in status["rows"].items())
        out.write(f"rows          {rows}\nmachines      {', '.join(status['machines']) or '-'}\n"
                  f"size          {status['database_bytes'] / 1048576:.1f} MiB\n")
    return 0


def cmd_prune(args, out: TextIO, err: TextIO) -> int:
    from phlegyas.store import pg_schema  # only when `phlegyas db` runs

    try:
        age = pg_schema.parse_age(args.older_than)
    except ValueError as exc:
        raise CliError(f"--older-than: {exc}") from None
    settings = _settings()
    db = _database(settings)
    try:
        deleted = _guarded(_prune, db, age)
    finally:
        db.close()
    out.write(f"{db.shown}: deleted {deleted['audit']:,} audit rows, {deleted['requests']:,} finished requests, "
              f"{deleted['cache']:,} expired cache entries older than {args.older_than}\n")
    return 0


def _prune(db, age: float) -> dict[str, int]:
    from phlegyas.store import pg_schema  # only when `phlegyas db` runs

    with db.connection() as conn:
        return _wrapped(db, pg_schema.prune, conn, age, time.time())


def cmd_flush(args, out: TextIO, err: TextIO) -> int:
    from phlegyas.store.backends import machine_name  # only when `phlegyas db` runs
    from phlegyas.store.pg_audit import pending, ship

    settings = _settings()
    if not settings.enable_audit_log:
        raise CliError("the audit log is off (ENABLE_AUDIT_LOG=false): nothing to send")
    db = _database(settings)
    try:
        sent = _guarded(ship, db, settings.audit_log_file, machine_name(settings))
    finally:
        db.close()
    left = pending(settings.audit_log_file)
    out.write(f"sent {sent:,} audit row{'s' if sent != 1 else ''} from {settings.audit_log_file} to {db.shown}"
              f"{f'; {left:,} still waiting' if left else ''}\n")
    return 0
