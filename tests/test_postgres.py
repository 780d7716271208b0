"""The shared PostgreSQL store of a fleet, against a real server the suite starts (conftest's
``postgres_cluster``): the schema's versions, waking at once, surviving a server that dies, the Tier 3
cache, the audit trail shipped from each machine's log, and the ``phlegyas db`` commands. The protocol's
behaviour on both backends is tests/test_store.py's; two machines sharing one database end to end are
tests/test_fleet.py's."""
from __future__ import annotations

import json
import os
import threading
import time

import psycopg
import pytest

from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.store import pg_audit, pg_schema
from phlegyas.store.approvals import StoreError
from phlegyas.store.audit import AuditLog
from phlegyas.store.pg_cache import PostgresVerdictCache
from phlegyas.store.pg_connect import Database, DatabaseUnavailable
from phlegyas.store.postgres import PostgresApprovalStore

ASKED = Decision(Verdict.ASK, "fallback", "no rule or tier decided this call")


def bash(command: str) -> ToolCall:
    return ToolCall("Bash", {"command": command}, cwd="/proj")


# --- the schema ---------------------------------------------------------------------------------------

def test_a_database_without_the_schema_says_to_run_db_upgrade_then_works(fresh_database):
    with PostgresApprovalStore(Database(fresh_database)) as store:
        with pytest.raises(StoreError, match=r"no phlegyas schema.*phlegyas db upgrade"):
            store.list_pending()
    with psycopg.connect(fresh_database, autocommit=True) as conn:
        assert pg_schema.upgrade(conn)[:2] == (0, pg_schema.SCHEMA_VERSION)
        assert pg_schema.upgrade(conn) == (pg_schema.SCHEMA_VERSION, pg_schema.SCHEMA_VERSION, [])  # idempotent
    with PostgresApprovalStore(Database(fresh_database)) as store:
        assert store.list_pending() == []


def test_a_newer_schema_is_refused_by_the_store_and_by_upgrade(fresh_database):
    with psycopg.connect(fresh_database, autocommit=True) as conn:
        pg_schema.upgrade(conn)
        conn.execute("UPDATE phlegyas_meta SET value = %s WHERE key = 'schema_version'",
                     (str(pg_schema.SCHEMA_VERSION + 1),))
        with pytest.raises(StoreError, match="newer than this phlegyas"):
            pg_schema.upgrade(conn)
    with PostgresApprovalStore(Database(fresh_database)) as store:
        with pytest.raises(StoreError, match="newer than this phlegyas understands"):
            store.stats()


def test_upgrades_started_together_apply_the_schema_once(fresh_database):
    results, errors = [], []

    def upgrade():
        try:
            with psycopg.connect(fresh_database, autocommit=True) as conn:
                results.append(pg_schema.upgrade(conn)[:2])
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=upgrade) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert sorted(results) == [(0, 1)] + [(1, 1)] * 3


def test_prune_deletes_old_rows_but_never_a_pending_request(postgres_url, tmp_path):
    now = time.time()
    store = PostgresApprovalStore(Database(postgres_url))
    pending = store.create(bash("b"), ASKED, ttl=600)
    old = PostgresApprovalStore(Database(postgres_url), clock=lambda: now - 100 * 86400)
    finished = old.create(bash("a"), ASKED, ttl=60)
    old.resolve(finished.id, True, approver_id="alice")
    log = tmp_path / "audit.jsonl"
    AuditLog(str(log)).record(bash("ls"), Decision(Verdict.ALLOW, "tier2_safe", "read-only"), mode="default")
    db = Database(postgres_url)
    pg_audit.ship(db, str(log), "m1")
    with db.connection() as conn:
        conn.execute("INSERT INTO phlegyas_audit (machine, source, position, at, entry) VALUES "
                     "('m1', 'old', 0, now() - interval '100 days', '{}')")
        assert pg_schema.prune(conn, pg_schema.parse_age("90d"), now) == {"audit": 1, "requests": 1, "cache": 0}
        assert conn.execute("SELECT count(*) FROM phlegyas_audit").fetchone()[0] == 1
    assert store.get(pending.id).is_pending


@pytest.mark.parametrize("text, seconds", [("90d", 90 * 86400), ("12h", 43200), ("2w", 14 * 86400), ("30m", 1800)])
def test_ages_are_read_with_their_unit(text, seconds):
    assert pg_schema.parse_age(text) == seconds


@pytest.mark.parametrize("bad", ["", "90", "d", "-5d", "0d", "5y", "1e3d"])
def test_a_bad_age_names_the_expected_form(bad):
    with pytest.raises(ValueError, match="90d"):
        pg_schema.parse_age(bad)


# --- waking, failing, coming back ---------------------------------------------------------------------

def test_a_waiter_wakes_within_100_ms_of_the_commit(postgres_url):
    waiter = PostgresApprovalStore(Database(postgres_url), machine="A")
    approver = PostgresApprovalStore(Database(postgres_url, pooled=True), machine="B")
    approver.stats()
    lags = []
    for _ in range(5):
        created = waiter.create(bash("make deploy"), ASKED, ttl=60)
        committed = {}

        def approve(rid=created.id):
            time.sleep(0.2)
            approver.resolve(rid, True, approver_id="bob", via="cli")
            committed["at"] = time.monotonic()

        thread = threading.Thread(target=approve)
        thread.start()
        final = waiter.wait(created.id, 10)
        woke = time.monotonic()
        thread.join()
        assert (final.status, final.approver_id, final.machine) == ("approved", "bob", "A")
        lags.append(woke - committed["at"])
    assert max(lags) < 0.1, lags
    approver.close()
    waiter.close()


def test_killing_the_server_mid_wait_ends_the_wait_with_the_reason_and_a_restart_recovers(postgres_cluster,
                                                                                           postgres_url):
    store = PostgresApprovalStore(Database(postgres_url))
    pooled = PostgresApprovalStore(Database(postgres_url, pooled=True))
    pooled.stats()
    created = store.create(bash("make deploy"), ASKED, ttl=60)
    outcome = {}

    def wait():
        try:
            outcome["result"] = store.wait(created.id, 30)
        except StoreError as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=wait)
    thread.start()
    time.sleep(0.5)
    started = time.monotonic()
    postgres_cluster.kill()
    thread.join(30)
    assert isinstance(outcome.get("error"), DatabaseUnavailable), outcome
    assert time.monotonic() - started < 5
    assert "unreachable" in str(outcome["error"]) and "127.0.0.1" in str(outcome["error"])
    with pytest.raises(DatabaseUnavailable):
        store.list_pending()
    postgres_cluster.start()
    assert store.get(created.id).is_pending  # reconnected by itself
    assert pooled.resolve(created.id, True, approver_id="alice").status == "approved"  # the pool too
    store.close()
    pooled.close()


def test_an_unreachable_database_is_an_error_that_hides_the_password():
    url = "postgresql://fleet:hunter2-s3cret@127.0.0.1:1/phlegyas?connect_timeout=2"
    with PostgresApprovalStore(Database(url)) as store:
        with pytest.raises(DatabaseUnavailable) as info:
            store.list_pending()
    assert "hunter2" not in str(info.value) and "127.0.0.1:1" in str(info.value)


def test_libpq_options_pass_through(postgres_url):
    url = postgres_url + "?sslmode=disable&application_name=fleet-test&options=-cstatement_timeout%3D1234"
    db = Database(url)
    with db.connection() as conn:
        assert conn.execute("SHOW statement_timeout").fetchone()[0] == "1234ms"
        assert conn.execute("SELECT current_setting('application_name')").fetchone()[0] == "fleet-test"
    db.close()
    with Database(postgres_url).connection() as conn:  # unset: phlegyas's defaults
        assert conn.execute("SELECT current_setting('application_name')").fetchone()[0] == "phlegyas"


# --- the Tier 3 cache ---------------------------------------------------------------------------------

def test_a_verdict_cached_on_one_machine_serves_another_until_it_expires(postgres_url):
    clock = [1000.0]
    one = PostgresVerdictCache(Database(postgres_url), ttl_seconds=60, clock=lambda: clock[0])
    two = PostgresVerdictCache(Database(postgres_url), ttl_seconds=60, clock=lambda: clock[0])
    assert two.get("k") is None
    one.put("k", {"answer": {"decision": "approve"}})
    assert two.get("k") == {"answer": {"decision": "approve"}}
    one.put("k", {"answer": {"decision": "deny"}})
    assert two.get("k") == {"answer": {"decision": "deny"}}
    clock[0] += 61
    assert two.get("k") is None
    assert one.unavailable is None and two.last_error is None


def test_an_unreachable_cache_says_so_and_tier3_fails_closed(tmp_path):
    from phlegyas.ai.tier3 import Tier3Checker

    cache = PostgresVerdictCache(Database("postgresql://x@127.0.0.1:1/phlegyas?connect_timeout=2"), ttl_seconds=60)
    assert cache.get("k") is None and "unreachable" in cache.unavailable

    class NeverAsked:
        model = "m"

        async def complete(self, request):
            raise AssertionError("the model must not be asked while the shared cache is out of reach")

    from test_tier3 import context  # the Tier 3 tests' call context

    ctx = context("frobnicate --all")
    decision = Tier3Checker(NeverAsked(), cache=cache).check(ctx)
    assert decision.verdict is Verdict.DENY and "shared verdict cache is out of reach" in decision.reason


# --- the audit trail ----------------------------------------------------------------------------------

def _log(tmp_path, n: int, start: int = 0) -> str:
    path = str(tmp_path / "audit.jsonl")
    log = AuditLog(path)
    for i in range(start, start + n):
        log.record(bash(f"echo {i}"), Decision(Verdict.ALLOW, "tier2_safe", "read-only"), mode="default")
    return path


def _audit_rows(db: Database) -> list[tuple[str, str]]:
    with db.connection() as conn:
        return [(m, e["input"]["command"]) for m, e in conn.execute(
            "SELECT machine, entry FROM phlegyas_audit ORDER BY position").fetchall()]


def test_the_log_is_shipped_once_with_the_machine(postgres_url, tmp_path):
    path = _log(tmp_path, 3)
    db = Database(postgres_url)
    assert pg_audit.pending(path) == 3
    assert pg_audit.ship(db, path, "laptop-1") == 3
    assert pg_audit.pending(path) == 0 and pg_audit.ship(db, path, "laptop-1") == 0
    _log(tmp_path, 2, start=3)
    assert pg_audit.ship(db, path, "laptop-1") == 2
    assert _audit_rows(db) == [("laptop-1", f"echo {i}") for i in range(5)]
    with db.connection() as conn:
        entry = conn.execute("SELECT entry FROM phlegyas_audit LIMIT 1").fetchone()[0]
    assert entry["machine"] == "laptop-1" and entry["decision"] == "allow"


def test_a_shipper_that_died_before_moving_its_position_doubles_nothing(postgres_url, tmp_path):
    path = _log(tmp_path, 4)
    db = Database(postgres_url)
    pg_audit.ship(db, path, "m")
    os.remove(path + ".shipped")  # as if killed between the commit and the position's write
    assert pg_audit.pending(path) == 4
    pg_audit.ship(db, path, "m")
    assert len(_audit_rows(db)) == 4 and pg_audit.pending(path) == 0


def test_a_torn_last_line_waits_and_garbage_is_stepped_over(postgres_url, tmp_path):
    path = _log(tmp_path, 1)
    with open(path, "ab") as fh:
        fh.write(b"not json\n{\"timestamp\": \"2026-12-01T00:00:00Z\", \"tool_name\": \"Ba")
    db = Database(postgres_url)
    assert pg_audit.ship(db, path, "m") == 1
    assert pg_audit.pending(path) == 0  # the torn line is not complete yet


def test_rows_wait_in_the_log_while_the_database_is_down_and_arrive_after(postgres_cluster, postgres_url,
                                                                          tmp_path):
    path = _log(tmp_path, 2)
    db = Database(postgres_url)
    postgres_cluster.kill()
    try:
        with pytest.raises(DatabaseUnavailable):
            pg_audit.ship(db, path, "m")
        assert pg_audit.pending(path) == 2
    finally:
        postgres_cluster.start()
    assert pg_audit.ship(db, path, "m") == 2 and len(_audit_rows(db)) == 2


def test_the_background_shipper_sends_soon_after_a_kick(postgres_url, tmp_path):
    path = _log(tmp_path, 1)
    db = Database(postgres_url)
    shipper = pg_audit.Shipper(db, path, "m")
    try:
        deadline = time.monotonic() + 5
        while pg_audit.pending(path) and time.monotonic() < deadline:
            time.sleep(0.05)
        _log(tmp_path, 1, start=1)
        shipper.kick()
        while pg_audit.pending(path) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        shipper.close()
    assert len(_audit_rows(db)) == 2 and shipper.last_error is None


def test_the_fleet_mirror_gets_every_machines_rows_once(postgres_url, tmp_path):
    db = Database(postgres_url)
    for machine in ("a", "b"):
        directory = tmp_path / machine
        directory.mkdir()
        pg_audit.ship(db, _log(directory, 2), machine)
    mirror = str(tmp_path / "fleet.jsonl")
    assert pg_audit.mirror(db, mirror) == 4
    assert pg_audit.mirror(db, mirror) == 0
    pg_audit.ship(db, _log(tmp_path / "a", 1, start=2), "a")
    assert pg_audit.mirror(db, mirror) == 1
    lines = [json.loads(line) for line in open(mirror, encoding="utf-8")]
    assert sorted((e["machine"], e["input"]["command"]) for e in lines) == [
        ("a", "echo 0"), ("a", "echo 1"), ("a", "echo 2"), ("b", "echo 0"), ("b", "echo 1")]


def test_the_mirror_does_not_skip_a_row_whose_transaction_commits_late(postgres_url, tmp_path):
    db = Database(postgres_url)
    late = psycopg.connect(postgres_url)  # a shipper's transaction, still open
    late.execute("INSERT INTO phlegyas_audit (machine, source, position, at, entry) VALUES "
                 "('slow', 's', 0, now(), '{\"timestamp\": \"2026-12-01T00:00:00Z\", \"machine\": \"slow\"}')")
    pg_audit.ship(db, _log(tmp_path, 1), "fast")  # a later transaction commits first
    mirror = str(tmp_path / "fleet.jsonl")
    first = pg_audit.mirror(db, mirror)
    late.commit()
    late.close()
    second = pg_audit.mirror(db, mirror)
    machines = sorted(json.loads(line)["machine"] for line in open(mirror, encoding="utf-8"))
    assert machines == ["fast", "slow"] and first + second == 2


# --- the roles of docs/FLEET.md --------------------------------------------------------------------------

def _as(url: str, role: str) -> str:
    return url.replace("postgresql://phlegyas@", f"postgresql://{role}@", 1)


def test_the_documented_roles_let_an_agent_park_and_give_up_but_never_approve(postgres_cluster, postgres_url, tmp_path):
    import subprocess

    from phlegyas.store.approvals import ApprovalError

    sql = os.path.join(os.path.dirname(__file__), "..", "docs", "fleet-roles.sql")
    done = subprocess.run([os.path.join(postgres_cluster.bin_dir, "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1",
                           "-f", os.path.abspath(sql), postgres_url], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    agent = PostgresApprovalStore(Database(_as(postgres_url, "phlegyas_agent")), machine="ci-7")
    approver = PostgresApprovalStore(Database(_as(postgres_url, "phlegyas_approver")), machine="desk")
    parked = agent.create(bash("make deploy"), ASKED, ttl=60)
    assert [r.id for r in agent.list_pending()] == [parked.id]
    with pytest.raises(ApprovalError):  # the row-level policy: an agent cannot approve (nor deny)
        agent.resolve(parked.id, True, approver_id="the-agent-itself")
    assert approver.get(parked.id).is_pending
    assert approver.resolve(parked.id, True, approver_id="alice").status == "approved"
    given_up = agent.create(bash("make test"), ASKED, ttl=60)
    assert agent.withdraw(given_up.id, reason="nobody answered").status == "expired"
    agent.add_notice(given_up.id, "slack", {"ts": "1"})
    assert agent.close_notice(given_up.id, "slack") is True
    cache = PostgresVerdictCache(Database(_as(postgres_url, "phlegyas_agent")), ttl_seconds=60)
    cache.put("k", {"answer": 1})
    assert cache.get("k") == {"answer": 1} and cache.last_error is None
    path = _log(tmp_path, 2)
    assert pg_audit.ship(Database(_as(postgres_url, "phlegyas_agent")), path, "ci-7") == 2  # may add rows
    with pytest.raises(StoreError, match="permission denied"):  # but not read the fleet's trail
        list(pg_audit.fleet_entries(Database(_as(postgres_url, "phlegyas_agent"))))
    assert len(list(pg_audit.fleet_entries(Database(_as(postgres_url, "phlegyas_approver"))))) == 2
    counts = pg_audit.table_counts(Database(_as(postgres_url, "phlegyas_agent")))  # `db status` as an agent
    assert counts["rows"]["phlegyas_audit"] == 2 and counts["rows"]["phlegyas_requests"] == 2  # counted, not read
    assert counts["machines"] == ["ci-7"]
    with psycopg.connect(_as(postgres_url, "phlegyas_agent"), autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("DELETE FROM phlegyas_audit")
        with pytest.raises(psycopg.Error):  # a forged approved row is refused by the policy
            conn.execute("INSERT INTO phlegyas_requests (id, machine, tool_name, tool_input, tier, reason, created_at, "
                         "expires_at, status, approver_id) VALUES (gen_random_uuid(), 'x', 'Bash', '{}', 't', 'r', 0, "
                         "9e9, 'approved', 'me')")
    for store in (agent, approver):
        store.close()
