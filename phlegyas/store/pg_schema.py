"""The PostgreSQL schema: versioned migrations, the check at start, and pruning by time.

``phlegyas db upgrade`` applies every migration newer than the database's version, each in its own
transaction under an advisory lock (two upgrades at once wait for each other), and records the version in
``phlegyas_meta``. Every process checks the version when it first connects: a database without the
schema, or an older one, is a clear error naming the command to run (the processes of a fleet usually
connect with a role that may not create tables); a newer one is refused (an older phlegyas must not write
rows it does not understand).

Times of requests and cache entries are epoch seconds (``double precision``), as in the SQLite store;
audit rows carry a ``timestamptz`` for the dashboard's queries and ``phlegyas db prune``.
"""
from __future__ import annotations

import re
from typing import Any

from phlegyas.store.approvals import STATUSES, StoreError

SCHEMA_VERSION = 1
LOCK_KEY = 0x70686C65  # pg_advisory_xact_lock: one upgrade at a time ("phle")
NOTIFY_CHANNEL = "phlegyas_resolved"
"""LISTEN/NOTIFY channel: the payload is the id of a request that stopped being pending."""

_STATUS_CHECK = ", ".join(f"'{s}'" for s in STATUSES)

MIGRATIONS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (1, "requests, notices, the Tier 3 cache and the audit trail", (
        """CREATE TABLE phlegyas_requests (
    id uuid PRIMARY KEY,
    machine text NOT NULL,
    tool_name text NOT NULL,
    tool_input text NOT NULL,
    tier text NOT NULL,
    reason text NOT NULL,
    created_at double precision NOT NULL,
    expires_at double precision NOT NULL,
    status text NOT NULL CHECK (status IN (""" + _STATUS_CHECK + """)),
    cwd text, mode text, session_id text, workflow_id text, agent_id text, tool_use_id text,
    resolved_at double precision, approver_id text, resolution_reason text, resolved_via text
)""",
        # the pending list (and the watcher that settles messages) reads only pending rows
        "CREATE INDEX phlegyas_requests_pending ON phlegyas_requests (created_at) WHERE status = 'pending'",
        # retention and prune: finished rows by the time they finished
        "CREATE INDEX phlegyas_requests_finished ON phlegyas_requests (coalesce(resolved_at, expires_at))",
        """CREATE TABLE phlegyas_notices (
    request_id uuid NOT NULL REFERENCES phlegyas_requests (id) ON DELETE CASCADE,
    channel text NOT NULL,
    ref text NOT NULL,
    closed boolean NOT NULL DEFAULT false,
    PRIMARY KEY (request_id, channel)
)""",
        "CREATE INDEX phlegyas_notices_open ON phlegyas_notices (channel) WHERE NOT closed",
        """CREATE TABLE phlegyas_cache (
    key text PRIMARY KEY,
    value text NOT NULL,
    created double precision NOT NULL,
    expires double precision NOT NULL
)""",
        "CREATE INDEX phlegyas_cache_expires ON phlegyas_cache (expires)",
        """CREATE TABLE phlegyas_audit (
    id bigserial PRIMARY KEY,
    machine text NOT NULL,
    source text NOT NULL,
    position bigint NOT NULL,
    at timestamptz NOT NULL,
    tool_name text,
    decision text,
    tier text,
    session_id text,
    entry jsonb NOT NULL,
    tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
    UNIQUE (machine, source, position)
)""",
        # the dashboards' mirrors read rows by the transaction that wrote them (see pg_audit.mirror)
        "CREATE INDEX phlegyas_audit_tx ON phlegyas_audit (tx)",
        # the dashboard's history and stats: by time, by decision over time, by machine over time
        "CREATE INDEX phlegyas_audit_at ON phlegyas_audit (at)",
        "CREATE INDEX phlegyas_audit_decision_at ON phlegyas_audit (decision, at)",
        "CREATE INDEX phlegyas_audit_machine_at ON phlegyas_audit (machine, at)",
    )),
)

TABLES = ("phlegyas_notices", "phlegyas_requests", "phlegyas_cache", "phlegyas_audit")


def current_version(conn: Any) -> int:
    """The schema version recorded in the database (0: no phlegyas schema)."""
    exists = conn.execute("SELECT to_regclass('phlegyas_meta') IS NOT NULL").fetchone()[0]
    if not exists:
        return 0
    row = conn.execute("SELECT value FROM phlegyas_meta WHERE key = 'schema_version'").fetchone()
    try:
        return int(row[0]) if row else 0
    except ValueError:
        raise StoreError(f"phlegyas_meta.schema_version {row[0]!r} is not a number") from None


def check(conn: Any, where: str) -> None:
    """Raise StoreError unless the database has exactly this phlegyas's schema version."""
    version = current_version(conn)
    if version > SCHEMA_VERSION:
        raise StoreError(f"database {where} has phlegyas schema version {version}, newer than this phlegyas "
                         f"understands ({SCHEMA_VERSION}): upgrade phlegyas on this machine")
    if version < SCHEMA_VERSION:
        had = "no phlegyas schema" if version == 0 else f"phlegyas schema version {version}"
        raise StoreError(f"database {where} has {had}, this phlegyas needs version {SCHEMA_VERSION}: run "
                         "`phlegyas db upgrade` (as a role that may create tables)")


def upgrade(conn: Any) -> tuple[int, int, list[str]]:
    """Apply the migrations the database lacks: ``(version before, version after, what was applied)``.
    Refuses (StoreError) a database newer than this phlegyas."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
        conn.execute("CREATE TABLE IF NOT EXISTS phlegyas_meta (key text PRIMARY KEY, value text NOT NULL)")
        before = current_version(conn)
        if before > SCHEMA_VERSION:
            raise StoreError(f"the database has phlegyas schema version {before}, newer than this phlegyas "
                             f"({SCHEMA_VERSION}): upgrade phlegyas, not the database")
        applied = []
        for version, title, statements in MIGRATIONS:
            if version <= before:
                continue
            for statement in statements:
                conn.execute(statement)
            conn.execute("INSERT INTO phlegyas_meta (key, value) VALUES ('schema_version', %s) "
                         "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (str(version),))
            applied.append(f"{version}: {title}")
    return before, max(before, SCHEMA_VERSION), applied


_AGE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$")
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_age(text: str) -> float:
    """``90d`` → seconds (units s, m, h, d, w); ValueError naming the expected form otherwise."""
    match = _AGE.match(text or "")
    if not match or float(match.group(1)) <= 0:
        raise ValueError(f"expected an age such as 90d, 12h or 2w (units s, m, h, d, w), got {text!r}")
    return float(match.group(1)) * _UNIT[match.group(2)]


def prune(conn: Any, older_than_seconds: float, now: float) -> dict[str, int]:
    """Delete audit rows, finished requests and expired cache entries older than the age: counts by table.
    A request still pending (its expiry not yet passed) is never pruned."""
    cutoff = now - older_than_seconds
    with conn.transaction():
        audit = conn.execute("DELETE FROM phlegyas_audit WHERE at < to_timestamp(%s)", (cutoff,)).rowcount
        # a pending row past its expiry is finished too: it can no longer be resolved
        requests = conn.execute("DELETE FROM phlegyas_requests WHERE coalesce(resolved_at, expires_at) < %s",
                                (cutoff,)).rowcount
        cache = conn.execute("DELETE FROM phlegyas_cache WHERE expires < %s", (now,)).rowcount
    return {"audit": audit, "requests": requests, "cache": cache}
