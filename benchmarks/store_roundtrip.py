#!/usr/bin/env python3
"""The approvals store's two backends side by side: park → resolve → wake latency, and audit throughput.

**Round trip** (``--requests``, default 1000, per backend). The waiter (this process) parks a request
(``create``, ttl 60 s), hands its id to a resolver, and ``wait``s for it (30 s at most). The resolver is
another process (another "machine"): one child Python process that opens its own store on the same
backend (``stats()`` once, before any timing) and, for each id it reads on its stdin, ``resolve``s it
(approve, ``via="cli"``) and writes back ``time.time()`` taken as soon as ``resolve`` returned (the
commit). Per backend it reports

- *wake*: the waiter's ``wait`` returned − the resolver committed (ms, p50/p99/max): how late a waiter
  learns of a decision. SQLite's ``wait`` polls (50 ms growing to 500 ms); PostgreSQL's is woken by
  LISTEN/NOTIFY. The resolver waits ``--resolve-after`` (default 20 ms) before it answers, as a person
  would, so that the waiter is parked when the decision lands (with 0 it races the waiter's first read:
  how many resolutions committed before ``wait`` was even called is counted and printed — those waits
  return at once and say nothing about waking);
- *cycle*: ``create`` → ``wait`` returned (ms, p50/p99), and cycles per second.

Every wait must return ``approved``; any that does not is counted and the exit status is 1.

The SQLite store is a file in a temporary directory. The PostgreSQL waiter uses a pooled connection (as
the hook server and the MCP server do) and one listening connection per wait; the resolver one plain
connection.

**Audit throughput** (``--audit-rows``, default 20000). M entries are appended to a fresh JSONL log with
``AuditLog.record`` (what every machine does, and the whole audit sink of an SQLite deployment): rows/s.
With PostgreSQL, ``pg_audit.ship`` sends those M lines to the database (batches of ``BATCH_ROWS``, 500,
one transaction each): rows/s; then min(M, 2000) lines again from another log with batches of 1 row, to
show what batching buys. The database must then hold exactly the rows shipped (checked).

PostgreSQL is a throwaway cluster this starts itself (``benchmarks/_postgres.py``: initdb + pg_ctl on a
free loopback port, with ``fsync=off`` and ``synchronous_commit=off``, so commits cost less than on a
durable server), or the database ``--database-url`` names (its schema is upgraded first; the rows this
writes are deleted at the end, the database is left in place). Without a PostgreSQL server installed
and no ``--database-url``, only SQLite is measured.

usage: python benchmarks/store_roundtrip.py [--requests 1000] [--audit-rows 20000]
       [--backend sqlite|postgres|both] [--database-url URL] [--resolve-after MS] [--json FILE]
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _postgres import Cluster, find_bin_dir  # noqa: E402 - the tests' throwaway cluster

import phlegyas  # noqa: E402
from phlegyas.core.model import Decision, ToolCall, Verdict  # noqa: E402
from phlegyas.store import pg_audit  # noqa: E402
from phlegyas.store.audit import AuditLog  # noqa: E402
from phlegyas.store.sqlite import SQLiteApprovalStore  # noqa: E402

ASKED = Decision(Verdict.ASK, "fallback", "no rule or tier decided this call")
ALLOWED = Decision(Verdict.ALLOW, "tier2_safe", "read-only")
TTL_SECONDS = 60
WAIT_SECONDS = 30
UNBATCHED_ROWS = 2000
AUDIT_MACHINE = "bench"
WAITER, RESOLVER = "bench-waiter", "bench-resolver"
TARGET_ENV = "PHLEGYAS_BENCH_STORE"  # the resolver's store (a URL may hold a password: not on argv)

RESOLVER_CODE = r"""
import os, sys, time
from phlegyas.store.approvals import ApprovalError
backend, target, delay = sys.argv[1], os.environ["PHLEGYAS_BENCH_STORE"], float(sys.argv[2])
if backend == "sqlite":
    from phlegyas.store.sqlite import SQLiteApprovalStore
    store = SQLiteApprovalStore(target, machine="bench-resolver")
else:
    from phlegyas.store.pg_connect import Database
    from phlegyas.store.postgres import PostgresApprovalStore
    store = PostgresApprovalStore(Database(target, pooled=False), machine="bench-resolver")
store.stats()  # the store is open (file, connection, schema checked) before the first id comes
out = sys.stdout
out.write("ready\n")
out.flush()
for line in sys.stdin:
    rid = line.strip()
    if delay:
        time.sleep(delay)
    try:
        store.resolve(rid, True, approver_id="bench", via="cli")
        committed = time.time()
        out.write(repr(committed) + "\n")
    except ApprovalError as exc:
        out.write("error " + " ".join(str(exc).split()) + "\n")
    out.flush()
store.close()
"""


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def percentile(values: list[float], p: float) -> float | None:
    """The ``p`` (0..1) percentile of ``values``, linearly interpolated between the nearest ranks."""
    ordered = sorted(values)
    if not ordered:
        return None
    rank = p * (len(ordered) - 1)
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def rounded(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else rounded(seconds * 1000.0)


def shown_ms(value: float | None, width: int) -> str:
    return f"{'-':>{width}}   " if value is None else f"{value:>{width}.1f} ms"


# -- the round trip ------------------------------------------------------------------------------

def start_resolver(backend: str, target: str, delay: float) -> subprocess.Popen:
    """The resolver process, its store open (it said ``ready``)."""
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(phlegyas.__file__)))
    env = dict(os.environ, **{TARGET_ENV: target})
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    child = subprocess.Popen([sys.executable, "-c", RESOLVER_CODE, backend, repr(delay)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, bufsize=1, env=env)
    first = child.stdout.readline()
    if first.strip() != "ready":
        child.kill()
        child.wait()
        raise SystemExit(f"store_roundtrip: the {backend} resolver did not start (it said {first.strip()!r}; "
                         "see its error above)")
    return child


def stop_resolver(child: subprocess.Popen) -> None:
    try:
        child.stdin.close()
        child.wait(30)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


def round_trip(name: str, store, backend: str, target: str, requests: int, delay: float) -> dict:
    """``requests`` park → resolve → wake cycles of ``store`` (the waiter) with a resolver process."""
    store.stats()  # the waiter's store is open too before the timing starts
    child = start_resolver(backend, target, delay)
    wakes: list[float] = []
    cycles: list[float] = []
    failures: list[str] = []
    early = 0  # resolutions committed before wait() was called (that wait returns at its first read)
    step = max(1, requests // 10)
    try:
        began = time.perf_counter()
        for i in range(requests):
            call = ToolCall("Bash", {"command": f"frobnicate --job {i}"}, cwd="/p")
            started = time.perf_counter()
            request = store.create(call, ASKED, ttl=TTL_SECONDS)
            child.stdin.write(request.id + "\n")
            child.stdin.flush()
            wait_called_at = time.time()
            final = store.wait(request.id, WAIT_SECONDS)
            returned_at, returned = time.time(), time.perf_counter()
            answer = child.stdout.readline()
            if not answer:
                raise SystemExit(f"store_roundtrip: the {name} resolver stopped after {i} requests")
            cycles.append(returned - started)
            if answer.startswith("error "):
                failures.append(f"request {i}: the resolver failed: {answer[6:].strip()}")
            elif final.status != "approved":
                failures.append(f"request {i}: wait returned {final.status!r}")
            else:
                committed = float(answer)
                wakes.append(returned_at - committed)
                early += committed < wait_called_at
            if (i + 1) % step == 0 or i + 1 == requests:
                progress(f"  {name}: {i + 1}/{requests} cycles, {time.perf_counter() - began:.1f} s")
        elapsed = time.perf_counter() - began
    finally:
        stop_resolver(child)
    for failure in failures[:5]:
        progress(f"  {name}: {failure}")
    return {
        "requests": requests,
        "approved": len(wakes),
        "failures": len(failures),
        "resolved_before_wait": early,
        "wake_ms": {"p50": ms(percentile(wakes, 0.5)), "p99": ms(percentile(wakes, 0.99)),
                    "max": ms(max(wakes) if wakes else None)},
        "cycle_ms": {"p50": ms(percentile(cycles, 0.5)), "p99": ms(percentile(cycles, 0.99))},
        "seconds": rounded(elapsed),
        "cycles_per_second": rounded(requests / elapsed if elapsed > 0 else None, 1),
    }


# -- audit ---------------------------------------------------------------------------------------

def write_log(path: str, rows: int) -> float:
    """Append ``rows`` entries to ``path`` with ``AuditLog.record``; the seconds it took."""
    log = AuditLog(path)
    calls = [ToolCall("Bash", {"command": f"git log --oneline -{i % 50 + 1} -- src/module_{i % 97}.py"}, cwd="/p")
             for i in range(rows)]
    began = time.perf_counter()
    for call in calls:
        log.record(call, ALLOWED, mode="default")
    return time.perf_counter() - began


def copy_lines(source: str, target: str, rows: int) -> None:
    with open(source, "rb") as fh, open(target, "wb") as out:
        for _ in range(rows):
            out.write(fh.readline())


def shipped_rows(db, log_path: str) -> int:
    """Rows of the database that came from ``log_path`` (its source is ``<path>#<device>:<inode>``)."""
    with db.connection() as conn:
        return conn.execute("SELECT count(*) FROM phlegyas_audit WHERE machine = %s AND starts_with(source, %s)",
                            (AUDIT_MACHINE, log_path + "#")).fetchone()[0]


def ship_timed(db, log_path: str, batch_rows: int) -> tuple[int, float]:
    saved = pg_audit.BATCH_ROWS
    pg_audit.BATCH_ROWS = batch_rows
    try:
        began = time.perf_counter()
        sent = pg_audit.ship(db, log_path, AUDIT_MACHINE)
        return sent, time.perf_counter() - began
    finally:
        pg_audit.BATCH_ROWS = saved


def figure(rows: int, seconds: float, **extra) -> dict:
    return {"rows": rows, "seconds": rounded(seconds), **extra,
            "rows_per_second": rounded(rows / seconds if seconds > 0 else None, 1)}


# -- PostgreSQL ----------------------------------------------------------------------------------

def prepare_database(url: str) -> str:
    """Upgrade the schema of the database at ``url``; its ``version()``."""
    import psycopg  # (only with PostgreSQL)

    from phlegyas.store import pg_schema

    with psycopg.connect(url, autocommit=True) as conn:
        pg_schema.upgrade(conn)
        return conn.execute("SELECT version()").fetchone()[0]


def clean_database(url: str, parked_since: float | None, logs: list[str]) -> None:
    """Delete the rows this run wrote to a database it did not create."""
    import psycopg  # (same)

    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        if parked_since is not None:
            conn.execute("DELETE FROM phlegyas_requests WHERE machine = %s AND created_at >= %s",
                         (WAITER, parked_since))
        for log in logs:
            conn.execute("DELETE FROM phlegyas_audit WHERE machine = %s AND starts_with(source, %s)",
                         (AUDIT_MACHINE, log + "#"))


def short_version(version: str | None) -> str:
    if not version:
        return "-"
    return version.split(" on ")[0].split(",")[0]


# -- the run -------------------------------------------------------------------------------------

def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Prints a table (wake latency, cycle time, cycles/s per backend; audit rows/s); progress on stderr.")
    parser.add_argument("--requests", type=int, default=1000, metavar="N",
                        help="park → resolve → wake cycles per backend (default 1000)")
    parser.add_argument("--audit-rows", type=int, default=20000, metavar="M",
                        help="audit entries appended, then shipped to PostgreSQL (default 20000)")
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both",
                        help="which store to measure (default both)")
    parser.add_argument("--database-url", metavar="URL",
                        help="an existing PostgreSQL database (its schema is upgraded; it is not removed) instead "
                             "of a throwaway cluster")
    parser.add_argument("--resolve-after", type=float, default=20.0, metavar="MS",
                        help="the resolver waits this long after reading an id before resolving it (default 20)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON to FILE")
    args = parser.parse_args()
    if args.requests < 1 or args.audit_rows < 1 or args.resolve_after < 0:
        parser.error("--requests and --audit-rows must be at least 1, --resolve-after at least 0")

    want_sqlite = args.backend in ("sqlite", "both")
    want_postgres = args.backend in ("postgres", "both")
    if want_postgres and not args.database_url:
        why = None
        if importlib.util.find_spec("psycopg") is None:
            why = "psycopg is not installed (pip install 'phlegyas[postgres]')"
        elif find_bin_dir() is None:
            why = "no PostgreSQL server is installed (apt-get install -y postgresql) and no --database-url was given"
        if why:
            if args.backend == "postgres":
                progress(f"store_roundtrip: {why}")
                return 2
            progress(f"store_roundtrip: {why}: measuring SQLite only")
            want_postgres = False

    work = tempfile.mkdtemp(prefix="phlegyas-bench-store-")
    cluster_parent = None
    cluster = None
    url = args.database_url
    version = None
    results: dict = {"machine": {}, "settings": {}, "backends": {}, "audit": {}}
    problems: list[str] = []
    parked_since: float | None = None
    logs: list[str] = []
    try:
        if want_postgres:
            if url is None:
                progress("starting a throwaway PostgreSQL cluster …")
                cluster_parent = tempfile.mkdtemp(prefix="phlegyas-bench-pg-")
                os.chmod(cluster_parent, 0o711)  # the server's own user (postgres, when root) must reach it
                cluster = Cluster(os.path.join(cluster_parent, "cluster")).start()
                url = cluster.url
            version = prepare_database(url)

        delay = args.resolve_after / 1000.0
        if want_sqlite:
            progress(f"sqlite: {args.requests} park → resolve → wake cycles …")
            path = os.path.join(work, "approvals.sqlite3")
            store = SQLiteApprovalStore(path, machine=WAITER)
            try:
                results["backends"]["sqlite"] = round_trip("sqlite", store, "sqlite", path, args.requests, delay)
            finally:
                store.close()
        if want_postgres:
            from phlegyas.store.pg_connect import Database
            from phlegyas.store.postgres import PostgresApprovalStore

            progress(f"postgresql: {args.requests} park → resolve → wake cycles …")
            parked_since = time.time()  # (the rows the waiter parks from now on are this run's)
            store = PostgresApprovalStore(Database(url, pooled=True), machine=WAITER)
            try:
                results["backends"]["postgresql"] = round_trip("postgresql", store, "postgres", url, args.requests,
                                                               delay)
            finally:
                store.close()
        for name, figures in results["backends"].items():
            if figures["failures"]:
                problems.append(f"{name}: {figures['failures']} of {figures['requests']} waits did not end approved")

        progress(f"audit: appending {args.audit_rows} entries to a JSONL log …")
        log = os.path.join(work, "audit.jsonl")
        results["audit"]["local_append"] = figure(args.audit_rows, write_log(log, args.audit_rows))
        if want_postgres:
            from phlegyas.store.pg_connect import Database

            db = Database(url, pooled=True)
            try:
                logs.append(log)
                progress(f"audit: shipping {args.audit_rows} rows to PostgreSQL, batches of {pg_audit.BATCH_ROWS} …")
                batch = pg_audit.BATCH_ROWS
                sent, seconds = ship_timed(db, log, batch)
                results["audit"]["postgresql_ship"] = figure(sent, seconds, batch_rows=batch)
                small = min(args.audit_rows, UNBATCHED_ROWS)
                single = os.path.join(work, "audit-unbatched.jsonl")
                copy_lines(log, single, small)
                logs.append(single)
                progress(f"audit: shipping {small} rows to PostgreSQL, batches of 1 …")
                sent_single, seconds = ship_timed(db, single, 1)
                results["audit"]["postgresql_ship_batch_1"] = figure(sent_single, seconds, batch_rows=1)
                for path, expected, got in ((log, args.audit_rows, sent), (single, small, sent_single)):
                    stored = shipped_rows(db, path)
                    if got != expected or stored != expected:
                        problems.append(f"audit: {os.path.basename(path)}: {expected} lines, ship sent {got}, "
                                        f"the database holds {stored}")
            finally:
                db.close()
    finally:
        if args.database_url and want_postgres and url:
            try:
                clean_database(url, parked_since, logs)
            except Exception as exc:  # noqa: BLE001 - the figures stand; say what was left behind
                progress(f"store_roundtrip: could not delete this run's rows: {exc}")
        if cluster is not None:
            cluster.remove()
        if cluster_parent is not None:
            shutil.rmtree(cluster_parent, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)

    results["machine"] = {"cpus": os.cpu_count(), "platform": f"{platform.system()} {platform.machine()}",
                          "python": platform.python_version(), "postgresql": version}
    results["settings"] = {
        "requests": args.requests, "audit_rows": args.audit_rows, "resolve_after_ms": args.resolve_after,
        "ttl_seconds": TTL_SECONDS, "wait_seconds": WAIT_SECONDS,
        "postgresql": None if not want_postgres else (
            "given database" if args.database_url else "throwaway cluster (fsync=off, synchronous_commit=off)")}
    results["problems"] = problems

    print()
    print(f"machine: {os.cpu_count()} CPUs, {platform.system()} {platform.machine()}, Python "
          f"{platform.python_version()}, {short_version(version) if want_postgres else 'PostgreSQL not measured'}")
    if want_postgres:
        print(f"PostgreSQL: {results['settings']['postgresql']}")
    print(f"{args.requests} park → resolve → wake cycles per backend, the resolver another process"
          + (f" (resolving {args.resolve_after:g} ms after it reads the id)" if args.resolve_after else "") + ":")
    print(f"{'backend':<12}{'wake p50':>10}{'wake p99':>10}{'wake max':>10}{'cycle p50':>11}{'cycle p99':>11}"
          f"{'cycles/s':>10}{'failed':>8}")
    for name, r in results["backends"].items():
        wake, cycle = r["wake_ms"], r["cycle_ms"]
        cells = [shown_ms(wake["p50"], 7), shown_ms(wake["p99"], 7), shown_ms(wake["max"], 7),
                 shown_ms(cycle["p50"], 8), shown_ms(cycle["p99"], 8)]
        print(f"{name:<12}{''.join(cells)}{r['cycles_per_second']:>10.1f}{r['failures']:>8}")
    for name, r in results["backends"].items():
        if r["resolved_before_wait"]:
            print(f"  ({name}: {r['resolved_before_wait']} of {r['approved']} resolved before wait() was called, "
                  "so those waits returned at once; --resolve-after MS parks the waiter first)")
    audit = results["audit"]
    line = f"audit: local JSONL append {audit['local_append']['rows_per_second']:,.0f} rows/s"
    if "postgresql_ship" in audit:
        batched, single = audit["postgresql_ship"], audit["postgresql_ship_batch_1"]
        line += (f"; PostgreSQL ship {batched['rows_per_second']:,.0f} rows/s (batches of {batched['batch_rows']}), "
                 f"{single['rows_per_second']:,.0f} rows/s (batches of 1, {single['rows']} rows)")
    print(line)
    for problem in problems:
        print(f"PROBLEM: {problem}")

    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=2)
            fh.write("\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
