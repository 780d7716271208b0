"""The approvals store under load: many processes and threads opening one new file at the same moment
and then creating, listing, resolving, waiting on and withdrawing requests. No operation may fail with
"database is locked" (or anything else): SQLite's locking, the busy timeout, IMMEDIATE transactions and
statements finished at once must absorb every collision (issue 13, item 6)."""
from __future__ import annotations

import multiprocessing
import os
import threading

from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.store.approvals import AlreadyResolved, Expired
from phlegyas.store.sqlite import SQLiteApprovalStore, default_path

ASKED = Decision(Verdict.ASK, "protected_path", "writes .git/config")
ROUNDS = 12


def _work(path: str, rounds: int) -> list[str]:
    """One contender's rounds; the errors it met, as text."""
    store = SQLiteApprovalStore(path)
    errors: list[str] = []
    for i in range(rounds):
        try:
            mine = store.create(ToolCall("Bash", {"command": f"frobnicate {i}"}, cwd="/proj"), ASKED, ttl=60)
            for other in store.list_pending()[:2]:
                try:
                    store.resolve(other.id, i % 2 == 0, approver_id="load", reason="load test")
                except (AlreadyResolved, Expired):
                    pass  # another contender answered first: the expected outcome of a race
            store.get(mine.id)
            store.wait(mine.id, 0.005)
            store.withdraw(mine.id, reason="load test done")
            store.stats()
        except Exception as exc:  # noqa: BLE001 - every error is the finding
            errors.append(f"{type(exc).__name__}: {exc}")
    store.close()
    return errors


def _process(path: str, barrier, results) -> None:
    barrier.wait(30)
    results.put(_work(path, ROUNDS))


def test_processes_opening_one_new_store_at_once_never_fail(tmp_path):
    path = default_path(str(tmp_path / "data"))  # not created yet: the first opens race on the schema
    ctx = multiprocessing.get_context("spawn")  # fresh interpreters, as hook processes are
    n = 8
    barrier, results = ctx.Barrier(n), ctx.Queue()
    procs = [ctx.Process(target=_process, args=(path, barrier, results)) for _ in range(n)]
    for p in procs:
        p.start()
    errors = [e for _ in procs for e in results.get(timeout=120)]
    for p in procs:
        p.join(30)
    assert errors == []
    assert all(p.exitcode == 0 for p in procs)
    stats = SQLiteApprovalStore(path).stats()
    assert stats["total"] == n * ROUNDS and stats["pending"] == 0


def test_threads_sharing_a_process_and_a_new_store_never_fail(tmp_path):
    """The gate and a person in one process (the MCP server's case), each with its own connection."""
    path = default_path(str(tmp_path / "data"))
    n = 6
    barrier = threading.Barrier(n)
    errors: list[str] = []

    def run() -> None:
        barrier.wait(30)
        errors.extend(_work(path, ROUNDS))

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    assert SQLiteApprovalStore(path).stats()["total"] == n * ROUNDS


def test_a_read_leaves_no_snapshot_behind_for_the_next_write(tmp_path):
    """Read on one connection, write on another, then write on the first: the first connection's read
    must be over (an open statement would make its write fail at once, whatever the busy timeout)."""
    path = default_path(str(tmp_path / "data"))
    gate, person = SQLiteApprovalStore(path), SQLiteApprovalStore(path)
    first = gate.create(ToolCall("Bash", {"command": "a"}, cwd="/p"), ASKED, ttl=60)
    second = gate.create(ToolCall("Bash", {"command": "b"}, cwd="/p"), ASKED, ttl=60)
    assert gate.get(first.id).is_pending and gate.stats()["pending"] == 2
    person.resolve(first.id, True, approver_id="alice")
    assert gate.withdraw(second.id, reason="done").status == "expired"
    assert gate.get(first.id).status == "approved"
    assert os.path.exists(path)
