"""The approvals store, on both backends (SQLite, and a real PostgreSQL server the suite starts): ids,
expiry, one resolution, waiting without spinning, processes sharing it. The SQLite file's own properties
(mode, WAL, upgrades in place, locking) are tested on SQLite only."""
from __future__ import annotations

import json
import os
import socket
import sqlite3
import stat
import subprocess
import sys
import textwrap
import time
import uuid

import pytest

from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.store.approvals import (
    MAX_STORED_INPUT_BYTES,
    AlreadyResolved,
    ApprovalError,
    Expired,
    InvalidRequestId,
    NotFound,
    StoreError,
    parse_request_id,
)
from phlegyas.store.sqlite import MAX_POLL_SECONDS, RETENTION_SECONDS, SCHEMA_VERSION, SQLiteApprovalStore, default_path

ASKED = Decision(Verdict.ASK, "fallback", "no rule or tier decided this call")


class Clock:
    """A settable wall clock (epoch seconds) for expiry and retention."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


OPEN = """
import sys
def open_store(target):
    if target.startswith("postgresql://"):
        from phlegyas.store.pg_connect import Database
        from phlegyas.store.postgres import PostgresApprovalStore
        return PostgresApprovalStore(Database(target))
    from phlegyas.store.sqlite import SQLiteApprovalStore
    return SQLiteApprovalStore(target)
"""
"""Code a child process starts with: ``open_store(target)`` opens the store a test names (path or URL)."""


class Backend:
    """One backend under test: ``make()`` opens a store on it (closed at the end of the test), ``target`` is
    what another process opens it by (``OPEN``), ``wake`` how soon a waiter sees another's decision."""

    def __init__(self, name: str, target: str):
        self.name = name
        self.target = target
        self.wake = MAX_POLL_SECONDS if name == "sqlite" else 0.1
        self._opened: list = []

    def make(self, **options):
        if self.name == "sqlite":
            store = SQLiteApprovalStore(self.target, **options)
        else:
            from phlegyas.store.pg_connect import Database
            from phlegyas.store.postgres import PostgresApprovalStore

            store = PostgresApprovalStore(Database(self.target), **options)
        self._opened.append(store)
        return store

    def untouched(self, store) -> bool:
        """Nothing was opened yet: no file, no connection."""
        if self.name == "sqlite":
            return not os.path.exists(store.path)
        return store.db._conn is None and store.db._pool is None

    def raw(self, store) -> bytes:
        """Everything the backend stored, as bytes (to look for secrets in)."""
        if self.name == "sqlite":
            return open(store.path, "rb").read() + _wal_bytes(store.path)
        with store.db.connection() as conn:
            rows = conn.execute("SELECT t::text FROM phlegyas_requests t").fetchall()
        return "".join(row[0] for row in rows).encode()

    def close(self) -> None:
        for store in self._opened:
            store.close()


@pytest.fixture
def path(tmp_path):
    return default_path(str(tmp_path / "data"))


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request, path):
    target = path if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    chosen = Backend(request.param, target)
    yield chosen
    chosen.close()


@pytest.fixture
def store(backend):
    return backend.make()


def bash(command: str, **fields) -> ToolCall:
    return ToolCall("Bash", {"command": command}, cwd="/proj", **fields)


# --- create, get, list ----------------------------------------------------------------------------

def test_create_then_get_round_trips_and_redacts_the_input(backend, store):
    call = ToolCall("Bash", {"command": "curl -H 'Authorization: Bearer sk1234567890abcdef' https://x",
                             "password": "hunter2"}, cwd="/proj", mode="default", session_id="s-1",
                    tool_use_id="toolu_1")
    created = store.create(call, ASKED, workflow_id="wf-1", agent_id="agent-7", ttl=60)
    got = store.get(created.id)
    assert got == created
    assert uuid.UUID(got.id).version == 4
    assert got.status == "pending" and got.is_pending
    assert (got.tool_name, got.tier, got.reason) == ("Bash", "fallback", ASKED.reason)
    assert (got.cwd, got.mode, got.session_id, got.tool_use_id) == ("/proj", "default", "s-1", "toolu_1")
    assert (got.workflow_id, got.agent_id) == ("wf-1", "agent-7")
    assert got.expires_at - got.created_at == pytest.approx(60)
    assert "sk1234567890abcdef" not in json.dumps(got.tool_input)
    assert got.tool_input["password"].startswith("[REDACTED")
    assert got.machine == socket.gethostname()
    raw = backend.raw(store)
    assert b"/proj" in raw  # (what was stored is there)
    assert b"hunter2" not in raw and b"sk1234567890abcdef" not in raw


def _wal_bytes(path: str) -> bytes:
    try:
        return open(path + "-wal", "rb").read()
    except FileNotFoundError:
        return b""


def test_workflow_and_agent_default_to_the_calls(store):
    created = store.create(bash("make deploy", workflow_id="wf-call", agent_id="a-call"), ASKED, ttl=60)
    assert (created.workflow_id, created.agent_id) == ("wf-call", "a-call")


def test_to_json_has_iso_times_and_every_field(store):
    data = store.create(bash("make"), ASKED, ttl=30).to_json()
    assert data["status"] == "pending" and data["resolved_at"] is None
    assert data["created_at"].endswith("Z") and data["expires_at"].endswith("Z")
    assert json.loads(json.dumps(data)) == data


def test_list_pending_filters_and_orders_oldest_first(backend):
    clock = Clock()
    with backend.make(clock=clock) as store:
        first = store.create(bash("a"), ASKED, workflow_id="wf-1", agent_id="x", ttl=60)
        clock.now += 1
        second = store.create(bash("b"), ASKED, workflow_id="wf-2", agent_id="x", ttl=60)
        clock.now += 1
        third = store.create(bash("c"), ASKED, workflow_id="wf-1", agent_id="y", ttl=60)
        store.resolve(second.id, False, approver_id="alice")
        assert [r.id for r in store.list_pending()] == [first.id, third.id]
        assert [r.id for r in store.list_pending(workflow_id="wf-1")] == [first.id, third.id]
        assert [r.id for r in store.list_pending(workflow_id="wf-1", agent_id="y")] == [third.id]
        assert store.list_pending(agent_id="nobody") == []


def test_a_huge_input_is_cut_before_it_is_stored(store):
    created = store.create(ToolCall("Write", {"file_path": "/p/big.txt", "content": "x" * 2_000_000}), ASKED, ttl=60)
    assert len(json.dumps(created.tool_input)) <= MAX_STORED_INPUT_BYTES
    assert created.tool_input["file_path"] == "/p/big.txt"
    assert "truncated" in created.tool_input["content"]


@pytest.mark.parametrize("ttl", [0, -5, float("nan"), float("inf"), True, "60"])
def test_ttl_must_be_a_positive_number(store, ttl):
    with pytest.raises(ApprovalError, match="ttl"):
        store.create(bash("ls"), ASKED, ttl=ttl)


# --- ids --------------------------------------------------------------------------------------------

GOOD = "0b8e7c52-3f4d-4b8a-9c1e-2d6f5a7b8c9d"


@pytest.mark.parametrize("bad", [
    "", "abc", GOOD[:-1], GOOD + "0", "{" + GOOD + "}", "urn:uuid:" + GOOD, GOOD.replace("-", ""),
    " " + GOOD, GOOD + "\n", GOOD.replace("-", "_"), "'; DROP TABLE requests; --", "../../etc/passwd",
    "0b8e7c52-3f4d-4b8a-9c1e-2d6f5a7b8c9g", None, 5, ["x"],
])
def test_anything_but_a_canonical_uuid_is_rejected_before_the_store(backend, store, bad):
    for operation in (lambda: store.get(bad), lambda: store.resolve(bad, True, approver_id="a"),
                      lambda: store.withdraw(bad, reason="r"), lambda: store.wait(bad, 0)):
        with pytest.raises(InvalidRequestId, match="UUID|string"):
            operation()
    assert backend.untouched(store)  # rejected before the database was even opened


def test_uppercase_uuid_is_the_same_id():
    assert parse_request_id(GOOD.upper()) == GOOD


def test_unknown_id_is_not_found(store):
    with pytest.raises(NotFound, match="no approval request"):
        store.get(str(uuid.uuid4()))
    with pytest.raises(NotFound):
        store.resolve(str(uuid.uuid4()), True, approver_id="alice")


# --- resolving ----------------------------------------------------------------------------------

@pytest.mark.parametrize("approve, status", [(True, "approved"), (False, "denied")])
def test_resolve_records_who_when_and_why(backend, approve, status):
    clock = Clock()
    with backend.make(clock=clock) as store:
        created = store.create(bash("make deploy"), ASKED, ttl=60)
        clock.now += 5
        resolved = store.resolve(created.id, approve, reason="looked at it", approver_id="alice")
        assert resolved == store.get(created.id)
        assert (resolved.status, resolved.approver_id, resolved.resolution_reason) == (status, "alice", "looked at it")
        assert resolved.resolved_at == clock.now
        assert store.list_pending() == []


def test_a_request_is_resolved_once(store):
    created = store.create(bash("make deploy"), ASKED, ttl=60)
    store.resolve(created.id, True, approver_id="alice")
    with pytest.raises(AlreadyResolved, match="already approved by alice") as info:
        store.resolve(created.id, False, approver_id="bob")
    assert info.value.request.approver_id == "alice"
    assert store.get(created.id).status == "approved"


@pytest.mark.parametrize("approver", ["", "   ", None, 7])
def test_an_approver_must_be_named(store, approver):
    created = store.create(bash("make"), ASKED, ttl=60)
    with pytest.raises(ApprovalError, match="approver_id"):
        store.resolve(created.id, True, approver_id=approver)
    assert store.get(created.id).is_pending


def test_expired_request_reads_expired_and_cannot_be_resolved(backend):
    clock = Clock()
    with backend.make(clock=clock) as store:
        created = store.create(bash("make deploy"), ASKED, ttl=10)
        clock.now += 9.9
        assert store.get(created.id).status == "pending"
        clock.now += 0.2
        assert store.get(created.id).status == "expired"
        assert store.list_pending() == []
        for approve in (True, False):
            with pytest.raises(Expired, match="expired"):
                store.resolve(created.id, approve, approver_id="alice")
        assert store.stats()["expired"] == 1 and store.stats()["pending"] == 0


def test_withdraw_expires_a_pending_request_but_keeps_a_decision(store):
    waiting = store.create(bash("a"), ASKED, ttl=60)
    withdrawn = store.withdraw(waiting.id, reason="nobody answered within 5 s")
    assert withdrawn.status == "expired" and withdrawn == store.get(waiting.id)
    assert withdrawn.resolution_reason == "nobody answered within 5 s"
    with pytest.raises(Expired):
        store.resolve(waiting.id, True, approver_id="alice")
    decided = store.create(bash("b"), ASKED, ttl=60)
    store.resolve(decided.id, True, approver_id="alice")
    assert store.withdraw(decided.id, reason="late").status == "approved"


def test_finished_requests_are_purged_after_the_retention(backend):
    clock = Clock()
    with backend.make(clock=clock) as store:
        old = store.create(bash("a"), ASKED, ttl=60)
        store.resolve(old.id, True, approver_id="alice")
        clock.now += RETENTION_SECONDS - 10
        recent = store.create(bash("b"), ASKED, ttl=60)
        assert store.get(old.id).status == "approved"  # not yet
        clock.now += 20
        store.create(bash("c"), ASKED, ttl=60)
        with pytest.raises(NotFound):
            store.get(old.id)
        assert store.get(recent.id).is_pending


def test_stats_count_by_status(backend):
    clock = Clock()
    with backend.make(clock=clock) as store:
        ids = [store.create(bash(str(i)), ASKED, ttl=100).id for i in range(5)]
        store.resolve(ids[0], True, approver_id="a")
        store.resolve(ids[1], False, approver_id="a")
        store.withdraw(ids[2], reason="gave up")
        clock.now += 30
        stats = store.stats()
    assert {k: stats[k] for k in ("total", "pending", "approved", "denied", "expired")} == {
        "total": 5, "pending": 2, "approved": 1, "denied": 1, "expired": 1}
    assert stats["oldest_pending_age_seconds"] == pytest.approx(30)


# --- waiting -----------------------------------------------------------------------------------------

def test_wait_returns_at_once_for_a_settled_request(store):
    created = store.create(bash("make"), ASKED, ttl=60)
    store.resolve(created.id, False, approver_id="alice")
    started = time.monotonic()
    assert store.wait(created.id, 10).status == "denied"
    assert time.monotonic() - started < 2


def test_wait_times_out_with_the_request_still_pending_and_sleeps_with_backoff(path):
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        time.sleep(seconds)

    with SQLiteApprovalStore(path, sleep=sleep) as store:
        created = store.create(bash("make"), ASKED, ttl=60)
        started = time.monotonic()
        result = store.wait(created.id, 1.2)
        elapsed = time.monotonic() - started
    assert result.status == "pending"
    assert 1.2 <= elapsed < 3
    assert len(sleeps) <= 12  # a backoff, not a spin
    assert sleeps[0] <= 0.05 + 1e-9 and max(sleeps) <= MAX_POLL_SECONDS + 1e-9
    assert sleeps[:4] == sorted(sleeps[:4])


def test_wait_times_out_with_the_request_still_pending(store):
    created = store.create(bash("make"), ASKED, ttl=60)
    started = time.monotonic()
    assert store.wait(created.id, 0.6).status == "pending"
    assert 0.6 <= time.monotonic() - started < 3
    assert store.wait(created.id, 0).status == "pending"  # no wait at all


def test_wait_stops_when_the_request_expires(store):
    created = store.create(bash("make"), ASKED, ttl=0.3)
    started = time.monotonic()
    assert store.wait(created.id, 10).status == "expired"
    assert time.monotonic() - started < 3


def _python(code: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_wait_sees_a_decision_made_by_another_process_promptly(backend, store):
    created = store.create(bash("make deploy"), ASKED, ttl=60)
    child = _python(OPEN + """
import time
other = open_store(sys.argv[1])
other.stats()  # connected before the clock starts
time.sleep(0.4)
other.resolve(sys.argv[2], True, reason="ok", approver_id="other-process")
print(time.time())
    """, backend.target, created.id)
    try:
        result = store.wait(created.id, 15)
        returned = time.time()
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 0, err
    assert (result.status, result.approver_id) == ("approved", "other-process")
    assert returned - float(out) < backend.wake + 1.0  # a poll interval (SQLite) or a notification, not 15 s


def test_processes_racing_to_resolve_one_request_exactly_one_wins(backend, store, tmp_path):
    created = store.create(bash("make deploy"), ASKED, ttl=60)
    go = tmp_path / "go"
    racers = [_python(OPEN + """
import os, time
from phlegyas.store.approvals import AlreadyResolved
store = open_store(sys.argv[1])
store.stats()  # open the database before the start signal
while not os.path.exists(sys.argv[3]):
    time.sleep(0.002)
try:
    store.resolve(sys.argv[2], sys.argv[4] == "approve", approver_id="racer-" + sys.argv[4] + sys.argv[5])
    print("won")
except AlreadyResolved as exc:
    print("lost:", exc)
    """, backend.target, created.id, str(go), "approve" if i % 2 else "deny", str(i)) for i in range(4)]
    time.sleep(0.5)
    go.touch()
    outputs = []
    for racer in racers:
        out, err = racer.communicate(timeout=60)
        assert racer.returncode == 0, err
        outputs.append(out.strip())
    winners = [o for o in outputs if o == "won"]
    assert len(winners) == 1, outputs
    assert all(o.startswith("lost: ") and "already" in o for o in outputs if o != "won")
    final = store.get(created.id)
    assert final.approver_id.startswith("racer-")
    assert final.status == ("approved" if "approve" in final.approver_id else "denied")



def test_two_resolvers_never_both_read_a_request_pending(path, monkeypatch):
    """The race above, made deterministic. Each resolver, about to write its answer (its UPDATE), waits
    until the other is about to write too, for at most a second. Under BEGIN IMMEDIATE the second cannot
    even read the request while the first's transaction is open: the first waits alone, writes, and the
    second then reads the answer and gets AlreadyResolved. Were the lock taken only at the write (BEGIN
    DEFERRED), both would read the request pending and meet before writing, every time."""
    import threading

    with SQLiteApprovalStore(path) as setup:
        created = setup.create(bash("make deploy"), ASKED, ttl=60)
    before_write = threading.Barrier(2, timeout=1.0)
    met: list[str] = []  # resolvers that passed the barrier: both were about to write at once
    writes: list[str] = []  # resolvers about to write (the hook is in place: the winner's write is seen)
    real_connect = sqlite3.connect

    def connect(*args, **kwargs):
        conn = real_connect(*args, **kwargs)

        def trace(statement: str) -> None:  # called as each statement starts, before it takes a lock
            name = threading.current_thread().name
            if name.startswith("resolver") and statement.lstrip().upper().startswith("UPDATE REQUESTS"):
                writes.append(name)
                try:
                    before_write.wait()
                    met.append(name)
                except threading.BrokenBarrierError:
                    pass

        conn.set_trace_callback(trace)
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    stores = [SQLiteApprovalStore(path) for _ in range(2)]
    for store in stores:
        store.stats()  # open both databases before racing
    outcomes: dict[str, str] = {}

    def resolve(store: SQLiteApprovalStore, approve: bool) -> None:
        name = threading.current_thread().name
        try:
            store.resolve(created.id, approve, approver_id=name)
            outcomes[name] = "won"
        except AlreadyResolved:
            outcomes[name] = "lost"
        except Exception as exc:  # a write refused as "database is locked": the lock came too late
            outcomes[name] = repr(exc)

    racers = [threading.Thread(target=resolve, args=(store, approve), name=f"resolver-{approve}")
              for store, approve in zip(stores, (True, False))]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(30)
    for store in stores:
        store.close()
    assert met == [], f"both resolvers read the request pending and went on to write it: {outcomes}"
    assert len(writes) == 1, writes
    assert sorted(outcomes.values()) == ["lost", "won"], outcomes
    winner = next(name for name, outcome in outcomes.items() if outcome == "won")
    final = SQLiteApprovalStore(path).get(created.id)
    assert (final.approver_id, final.status) == (winner, "approved" if winner.endswith("True") else "denied")

# --- the file -----------------------------------------------------------------------------------------

def test_file_is_private_wal_and_versioned(path):
    store = SQLiteApprovalStore(path)
    store.create(bash("ls"), ASKED, ttl=60)
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
    for name in (path, path + "-wal", path + "-shm"):
        if os.path.exists(name):
            assert stat.S_IMODE(os.stat(name).st_mode) == 0o600, name
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)


def test_a_newer_schema_is_refused(path):
    with SQLiteApprovalStore(path) as store:
        store.stats()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    with SQLiteApprovalStore(path) as store:
        with pytest.raises(StoreError, match="newer"):
            store.stats()


def test_a_file_that_is_not_a_database_is_a_clear_error(path):
    os.makedirs(os.path.dirname(path))
    with open(path, "wb") as fh:
        fh.write(b"this is not sqlite" * 100)
    with SQLiteApprovalStore(path) as store:
        with pytest.raises(StoreError, match="not an SQLite database"):
            store.list_pending()


def test_the_database_is_never_opened_through_a_symlink(tmp_path):
    target = tmp_path / "elsewhere.sqlite3"
    link = tmp_path / "data" / "approvals.sqlite3"
    link.parent.mkdir()
    link.symlink_to(target)
    with SQLiteApprovalStore(str(link)) as store:
        with pytest.raises(StoreError, match="cannot open"):
            store.create(bash("ls"), ASKED, ttl=60)
    assert not target.exists()


def test_stores_opened_at_once_on_a_new_file_all_work(tmp_path):
    """Two parties opening a fresh store together (the person's CLI and the gate) both get a working store:
    the switch to WAL and the schema can meet 'database is locked' before SQLite's busy handler applies."""
    import threading

    errors: list[str] = []
    for round_ in range(40):
        path = str(tmp_path / f"round{round_}.sqlite3")
        barrier = threading.Barrier(6)

        def party(n: int) -> None:
            store = SQLiteApprovalStore(path)
            barrier.wait()
            try:
                if n % 2:
                    store.list_pending()
                else:
                    store.create(ToolCall("Bash", {"command": f"echo {n}"}), ASKED, ttl=60)
            except StoreError as exc:
                errors.append(str(exc))

        threads = [threading.Thread(target=party, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert len(SQLiteApprovalStore(path).list_pending()) == 3
    assert errors == []


# --- schema 2: how an answer came, and where a request is shown ------------------------------------

def test_a_resolution_records_how_it_came(store):
    created = store.create(bash("frobnicate"), ASKED, ttl=60)
    resolved = store.resolve(created.id, True, approver_id="U0APPROVER", via="slack")
    assert resolved.resolved_via == "slack" and store.get(created.id).resolved_via == "slack"
    assert store.get(created.id).to_json()["resolved_via"] == "slack"
    other = store.create(bash("frobnicate"), ASKED, ttl=60)
    assert store.resolve(other.id, False, approver_id="alice").resolved_via is None


def test_notices_are_closed_once_and_reopened_by_adding_them_again(store):
    first = store.create(bash("one"), ASKED, ttl=60)
    second = store.create(bash("two"), ASKED, ttl=60)
    store.add_notice(first.id, "slack", {"channel": "C0APPROVALS", "ts": "1.000100"})
    store.add_notice(second.id, "slack", {"channel": "C0APPROVALS", "ts": "1.000200"})
    assert [(r.id, ref["ts"]) for r, ref in store.open_notices("slack")] == [(first.id, "1.000100"),
                                                                              (second.id, "1.000200")]
    assert store.open_notices("dashboard") == []
    assert store.close_notice(first.id, "slack") is True
    assert store.close_notice(first.id, "slack") is False  # a second process finds it done
    assert [r.id for r, _ in store.open_notices("slack")] == [second.id]
    store.add_notice(first.id, "slack", {"channel": "C0APPROVALS", "ts": "1.000100"})  # the update failed
    assert {r.id for r, _ in store.open_notices("slack")} == {first.id, second.id}
    with pytest.raises(NotFound):
        store.add_notice(str(uuid.uuid4()), "slack", {"ts": "1"})


def test_open_notices_show_the_current_state(backend):
    clock = Clock()
    with backend.make(clock=clock) as store:
        created = store.create(bash("frobnicate"), ASKED, ttl=60)
        store.add_notice(created.id, "slack", {"ts": "1"})
        assert store.open_notices("slack")[0][0].is_pending
        clock.now += 61
        assert store.open_notices("slack")[0][0].status == "expired"


def test_a_version_1_store_is_upgraded_in_place(path):
    os.makedirs(os.path.dirname(path), mode=0o700)
    from phlegyas.store import sqlite as backend

    with sqlite3.connect(path) as conn:  # the store as phlegyas 0.2 wrote it
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        for statement in backend._SCHEMA_V1:
            conn.execute(statement)
        conn.execute("INSERT INTO meta VALUES ('schema_version', '1')")
        conn.execute("INSERT INTO requests (id, tool_name, tool_input, tier, reason, created_at, expires_at, status) "
                     "VALUES (?, 'Bash', '{\"command\": \"ls\"}', 'fallback', 'why', ?, ?, 'pending')",
                     (str(uuid.UUID(int=1)), time.time(), time.time() + 60))
    with SQLiteApprovalStore(path) as store:
        old = store.get(str(uuid.UUID(int=1)))
        assert old.is_pending and old.resolved_via is None and old.machine is None
        assert store.create(bash("ls"), ASKED, ttl=60).machine == socket.gethostname()
        assert store.resolve(old.id, True, approver_id="alice", via="cli").resolved_via == "cli"
        store.add_notice(old.id, "slack", {"ts": "1"})
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
