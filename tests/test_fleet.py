"""Two "machines" sharing one PostgreSQL database, end to end with real processes: each has its own data
directory and name (PHLEGYAS_HOME, PHLEGYAS_MACHINE) and the same PHLEGYAS_DATABASE_URL. A call parked by
A's MCP server is listed and approved from B's CLI and A wakes at once; many processes on both park and
resolve without losing or doubling a request; a database that dies mid-wait denies with the reason, and
after its restart the calls work again and A's audit rows kept meanwhile arrive."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import anyio
import psycopg
import pytest
from test_mcp import UNKNOWN, approve_json, connect, run_phlegyas

from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.store.pg_connect import Database
from phlegyas.store.postgres import PostgresApprovalStore


@pytest.fixture
def machines(isolated_env, tmp_path, postgres_url):
    """``{"A": env, "B": env}``: two data directories, one database."""
    envs = {}
    for name in ("A", "B"):
        home = tmp_path / f"home-{name}"
        home.mkdir()
        envs[name] = dict(isolated_env, HOME=str(home), PHLEGYAS_HOME=str(home / ".claude" / "phlegyas"),
                          PHLEGYAS_MACHINE=f"machine-{name}", PHLEGYAS_DATABASE_URL=postgres_url,
                          APPROVAL_WAIT_SECONDS="20")
    return envs


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "project"
    path.mkdir()
    return path


def _wait_for_pending(store: PostgresApprovalStore, seconds: float = 15):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pending = store.list_pending()
        if pending:
            return pending
        time.sleep(0.02)
    raise AssertionError("nothing was parked")


def test_a_call_parked_on_a_is_approved_from_bs_cli_and_a_wakes_within_100_ms(machines, project, postgres_url):
    store = PostgresApprovalStore(Database(postgres_url))
    seen: dict = {}

    def approve_from_b() -> None:
        parked = _wait_for_pending(store)[0]
        seen["listed"] = run_phlegyas(machines["B"], project, "pending")
        seen["approved"] = run_phlegyas(machines["B"], project, "approve", parked.id, "--approver", "bob")
        seen["id"] = parked.id

    async def scenario():
        async with connect(machines["A"], project, "host-module") as session:
            async with anyio.create_task_group() as tg:
                tg.start_soon(anyio.to_thread.run_sync, approve_from_b)
                answer = await approve_json(session, "Bash", {"command": UNKNOWN})
                seen["returned_at"] = time.time()
            return answer

    answer = anyio.run(scenario)
    assert answer == {"behavior": "allow", "updatedInput": {"command": UNKNOWN}}
    listed = seen["listed"]
    assert listed.returncode == 0, listed.stderr
    header, row = listed.stdout.splitlines()[:2]
    assert header.split()[-1] == "MACHINE" and row.split()[-1] == "machine-A" and seen["id"] in row
    assert seen["approved"].returncode == 0, seen["approved"].stderr
    final = store.get(seen["id"])
    assert (final.status, final.approver_id, final.resolved_via, final.machine) == (
        "approved", "bob", "cli", "machine-A")
    assert seen["returned_at"] - final.resolved_at < 0.1  # A woke within 100 ms of B's commit
    # the fleet's one audit trail: A's decision (shipped by its MCP server) and B's approval (by B's CLI)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        stats = json.loads(run_phlegyas(machines["B"], project, "stats", "--json").stdout)
        if set(stats.get("by_machine", {})) == {"machine-A", "machine-B"}:
            break
        time.sleep(0.5)
    assert set(stats["by_machine"]) == {"machine-A", "machine-B"}, stats
    store.close()


CYCLER = """
import json, os, sys, time
from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.store.approvals import AlreadyResolved, Expired
from phlegyas.store.pg_connect import Database
from phlegyas.store.postgres import PostgresApprovalStore

url, role, machine, cycles = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
store = PostgresApprovalStore(Database(url, pooled=role == "resolver"), machine=machine)
asked = Decision(Verdict.ASK, "fallback", "load test")
out = {"role": role, "machine": machine, "results": [], "won": [], "lost": 0}
if role == "parker":
    for i in range(cycles):
        created = store.create(ToolCall("Bash", {"command": f"cycle {machine} {os.getpid()} {i}"}, cwd="/p"),
                               asked, ttl=120)
        final = store.wait(created.id, 60)
        out["results"].append([created.id, final.status, final.approver_id])
else:
    stop_at = time.monotonic() + 120
    while time.monotonic() < stop_at:
        if os.path.exists(sys.argv[5]):
            break
        for request in store.list_pending():
            try:
                store.resolve(request.id, hash(request.id) % 2 == 0, approver_id=f"{machine}-{os.getpid()}")
                out["won"].append(request.id)
            except (AlreadyResolved, Expired):
                out["lost"] += 1
print(json.dumps(out))
"""


def test_eight_processes_on_two_machines_park_and_resolve_1600_times_with_none_lost_or_doubled(postgres_url,
                                                                                               tmp_path):
    cycles = 200
    done = tmp_path / "parkers-done"

    def start(role: str, machine: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-c", textwrap.dedent(CYCLER), postgres_url, role, machine,
                                 str(cycles), str(done)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    parkers = [start("parker", m) for m in ("machine-A", "machine-A", "machine-B", "machine-B")]
    resolvers = [start("resolver", m) for m in ("machine-A", "machine-A", "machine-B", "machine-B")]
    reports = []
    try:
        for proc in parkers:
            out, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err
            reports.append(json.loads(out))
        done.touch()
        for proc in resolvers:
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
            reports.append(json.loads(out))
    finally:
        for proc in parkers + resolvers:
            proc.kill()
    results = [r for report in reports for r in report["results"]]
    won = [rid for report in reports for rid in report["won"]]
    assert len(results) == 4 * cycles
    assert all(status in ("approved", "denied") for _, status, _ in results), "a waiter was left without an answer"
    assert len(won) == len(set(won)) == 4 * cycles  # each request resolved exactly once
    assert {rid for rid, _, _ in results} == set(won)
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute("SELECT status, count(*) FROM phlegyas_requests GROUP BY status").fetchall()
        assert dict(rows) == {"approved": sum(s == "approved" for _, s, _ in results),
                              "denied": sum(s == "denied" for _, s, _ in results)}
    by_id = {rid: (status, approver) for rid, status, approver in results}
    store = PostgresApprovalStore(Database(postgres_url))
    for rid in list(by_id)[:50]:  # what each waiter was told is what the store holds
        final = store.get(rid)
        assert (final.status, final.approver_id) == by_id[rid]
    store.close()


def test_a_database_killed_mid_wait_denies_with_the_reason_and_after_a_restart_the_kept_rows_arrive(
        machines, project, postgres_cluster, postgres_url):
    env = dict(machines["A"], APPROVAL_WAIT_SECONDS="30")
    store = PostgresApprovalStore(Database(postgres_url))

    def kill_when_parked() -> None:
        _wait_for_pending(store)
        time.sleep(0.3)
        postgres_cluster.kill()

    async def scenario():
        async with connect(env, project, "host-module") as session:
            async with anyio.create_task_group() as tg:
                tg.start_soon(anyio.to_thread.run_sync, kill_when_parked)
                started = time.monotonic()
                denied = await approve_json(session, "Bash", {"command": UNKNOWN}, "toolu_killed")
                took = time.monotonic() - started
            rules = await approve_json(session, "Bash", {"command": "ls"}, "toolu_down")  # tiers still decide
            await anyio.to_thread.run_sync(postgres_cluster.start)
            after = await approve_json(session, "Bash", {"command": "git status"}, "toolu_back")
            return denied, took, rules, after

    try:
        denied, took, rules, after = anyio.run(scenario)
    finally:
        postgres_cluster.start_if_stopped()
    assert denied["behavior"] == "deny" and took < 20
    assert "cannot ask a human" in denied["message"] and "unreachable" in denied["message"]
    assert rules == {"behavior": "allow", "updatedInput": {"command": "ls"}}
    assert after == {"behavior": "allow", "updatedInput": {"command": "git status"}}
    deadline = time.monotonic() + 15  # the server's shipper sends what it kept, with the next decision
    while time.monotonic() < deadline:
        with psycopg.connect(postgres_url) as conn:
            commands = {row[0] for row in conn.execute(
                "SELECT entry->'input'->>'command' FROM phlegyas_audit WHERE machine = 'machine-A'").fetchall()}
        if {UNKNOWN, "ls", "git status"} <= commands:
            break
        time.sleep(0.2)
    assert {UNKNOWN, "ls", "git status"} <= commands  # the rows decided while it was down arrived
    status = run_phlegyas(machines["A"], project, "db", "status")
    assert status.returncode == 0 and "0 audit rows not sent yet" in status.stdout, status.stdout
    store.close()


def test_the_dashboard_shows_the_fleets_pending_requests_and_history_with_their_machines(machines, project,
                                                                                         postgres_url, postgres_cluster):
    from starlette.testclient import TestClient
    from test_dashboard_http import BASE, PORT, TOKEN

    from phlegyas.hosts.dashboard.app import build_app
    from phlegyas.hosts.dashboard.security import allowed_hosts
    from phlegyas.hosts.dashboard.service import DashboardService
    from phlegyas.runtime import load_runtime
    from phlegyas.store import pg_audit
    from phlegyas.store.backends import database, open_store

    for name, command in (("A", "rm -rf /"), ("B", "git status")):  # each machine decides, logs, ships
        run_phlegyas(machines[name], project, "check", "--", command)
        settings = load_runtime(machines[name], str(project)).settings
        pg_audit.ship(database(settings), settings.audit_log_file, settings.machine_name)
    parked = PostgresApprovalStore(Database(postgres_url), machine="machine-A").create(
        ToolCall("Bash", {"command": UNKNOWN}, cwd=str(project)), Decision(Verdict.ASK, "fallback", "why"), ttl=600)
    runtime = load_runtime(machines["B"], str(project))
    settings = runtime.settings
    service = DashboardService(runtime, open_store(settings, pooled=True), cwd=str(project), fleet=database(settings))
    client = TestClient(build_app(service, token=TOKEN, hosts=allowed_hosts("127.0.0.1", PORT)), base_url=BASE,
                        follow_redirects=False)
    try:
        assert client.get(f"/?token={TOKEN}").status_code == 303
        pending = client.get("/api/pending").json()
        assert [(r["request_id"], r["machine"]) for r in pending["requests"]] == [(parked.id, "machine-A")]
        history = client.get("/history").text
        assert "machine-A" in history and "machine-B" in history and "rm -rf /" in history
        only_a = client.get("/history?machine=machine-A").text
        assert "rm -rf /" in only_a and "git status" not in only_a
        postgres_cluster.kill()
        try:
            down = client.get("/history").text
        finally:
            postgres_cluster.start()
        assert 'id="fleet-error"' in down and "not current" in down and "machine-A" in down  # the mirror stays
    finally:
        service.close()


def test_a_permission_request_hook_on_a_waits_for_bs_answer(machines, project, postgres_url):
    """The other waiting path: Claude Code's PermissionRequest hook process on A parks the call, B denies it."""
    event = {"session_id": "6472e0a1-93f2-4c1e-9b55-2f1b0c3d4e5f", "cwd": str(project),
             "transcript_path": str(project / "t.jsonl"), "permission_mode": "default",
             "hook_event_name": "PermissionRequest", "tool_name": "Bash",
             "tool_input": {"command": UNKNOWN, "description": "run it"}}
    hook = subprocess.Popen([sys.executable, "-m", "phlegyas.hosts.hook.client"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=machines["A"], cwd=project, text=True)
    hook.stdin.write(json.dumps(event))
    hook.stdin.close()
    store = PostgresApprovalStore(Database(postgres_url))
    try:
        parked = _wait_for_pending(store)[0]
        assert parked.machine == "machine-A"
        denied = run_phlegyas(machines["B"], project, "deny", parked.id, "--reason", "not on a Friday")
        assert denied.returncode == 0, denied.stderr
        out = hook.stdout.read()
        assert hook.wait(30) == 0, hook.stderr.read()
    finally:
        hook.kill()
        store.close()
    decision = json.loads(out)["hookSpecificOutput"]["decision"]
    assert decision["behavior"] == "deny" and "not on a Friday" in decision["message"]


def test_the_database_may_be_named_in_the_user_policy_instead(machines, project, postgres_url):
    env = {k: v for k, v in machines["A"].items() if k != "PHLEGYAS_DATABASE_URL"}
    data = env["PHLEGYAS_HOME"]
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "policy.toml"), "w", encoding="utf-8") as fh:
        fh.write(f'[settings]\ndatabase_url = "{postgres_url}"\n')
    parked = PostgresApprovalStore(Database(postgres_url), machine="machine-B").create(
        ToolCall("Bash", {"command": UNKNOWN}, cwd=str(project)), Decision(Verdict.ASK, "fallback", "why"), ttl=600)
    listed = run_phlegyas(env, project, "pending", "--json")
    assert listed.returncode == 0, listed.stderr
    assert [(r["request_id"], r["machine"]) for r in json.loads(listed.stdout)] == [(parked.id, "machine-B")]
    run_phlegyas(env, project, "check", "--", "ls")
    status = run_phlegyas(env, project, "db", "status")
    assert status.returncode == 0 and "machine-A: 1 audit row not sent yet" in status.stdout, status.stdout
    assert run_phlegyas(env, project, "db", "flush").stdout.startswith("sent 1 audit row ")
    assert "reachable, schema version" in run_phlegyas(env, project, "doctor").stdout  # doctor reads the policy
