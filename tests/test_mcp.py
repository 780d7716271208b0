"""The MCP permission server, driven by the SDK's real client over stdio against spawned servers."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters  # a dependency of phlegyas: never a quiet skip
from mcp.client.stdio import stdio_client

import phlegyas
from phlegyas.store.sqlite import SQLiteApprovalStore, default_path

TOOLS = {"permissions__approve", "validate_operation", "submit_approval", "poll_approval",
         "get_pending_approvals", "get_approval_stats"}
PACKAGE_DIR = Path(phlegyas.__file__).resolve().parent
UNKNOWN = "frobnicate --all"  # a program no tier knows: the gate asks


def _console_script() -> list[str]:
    script = Path(sys.executable).with_name("phlegyas")
    return [str(script)] if script.exists() else [sys.executable, "-m", "phlegyas"]


LAUNCHERS = {
    "module": [sys.executable, "-m", "phlegyas.approver_mcp"],  # the seed's module path (a shim)
    "host-module": [sys.executable, "-m", "phlegyas.hosts.mcp.server"],  # what phlegyas install writes
    "script": [sys.executable, str(PACKAGE_DIR / "approver_mcp.py")],
    "cli": [*_console_script(), "mcp"],
}


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "project"
    path.mkdir()
    return path


@pytest.fixture
def server_env(isolated_env):
    return dict(isolated_env, APPROVAL_WAIT_SECONDS="0")


@asynccontextmanager
async def connect(env: dict, cwd: Path, how: str = "module"):
    """A client session with a freshly spawned server; its stderr goes to ``cwd/../<how>.log``."""
    command = LAUNCHERS[how]
    params = StdioServerParameters(command=command[0], args=command[1:], env=env, cwd=str(cwd))
    with open(cwd.parent / f"server-{how}.log", "a", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                session.initialized = await session.initialize()
                yield session


def text_of(result) -> str:
    """The single text block of a result (and nothing else: no structured content)."""
    assert len(result.content) == 1 and result.content[0].type == "text", result.content
    return result.content[0].text


async def approve_json(session, tool_name: str, tool_input: dict, tool_use_id: str = "toolu_01") -> dict:
    result = await session.call_tool("permissions__approve", {"tool_name": tool_name, "input": tool_input,
                                                               "tool_use_id": tool_use_id})
    assert not result.is_error, result.content
    assert result.structured_content is None
    return json.loads(text_of(result))


async def call_json(session, name: str, arguments: dict) -> dict:
    result = await session.call_tool(name, arguments)
    assert not result.is_error, result.content
    return json.loads(text_of(result))


def run_phlegyas(env: dict, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "phlegyas", *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=60)


# --- the permission prompt tool ------------------------------------------------------------------

def test_tools_and_permission_answers_over_stdio(server_env, project):
    async def scenario():
        async with connect(server_env, project, "script") as session:
            listed = await session.list_tools()
            assert {tool.name for tool in listed.tools} == TOOLS
            bash = {"command": "ls -la", "description": "List files"}
            assert await approve_json(session, "Bash", bash) == {"behavior": "allow", "updatedInput": bash}
            read = {"file_path": str(project / "README.md"), "offset": 1}
            assert await approve_json(session, "Read", read) == {"behavior": "allow", "updatedInput": read}
            denied = await approve_json(session, "Bash", {"command": "rm -rf /"})
            assert set(denied) == {"behavior", "message"} and denied["behavior"] == "deny"
            assert "tier1_dangerous" in denied["message"]
            asked = await approve_json(session, "Bash", {"command": UNKNOWN})
            assert asked["behavior"] == "deny"
            assert "no human could be asked" in asked["message"] and "APPROVAL_WAIT_SECONDS" in asked["message"]
            own = await approve_json(session, "mcp__phlegyas__submit_approval",
                                     {"request_id": "0b8e7c52-3f4d-4b8a-9c1e-2d6f5a7b8c9d", "decision": "approve"})
            assert own["behavior"] == "deny" and "gate.self_approval" in own["message"]

    anyio.run(scenario)
    log = (project.parent / "server-script.log").read_text()
    assert "Traceback" not in log


def test_every_decision_is_audited(server_env, project, isolated_env):
    async def scenario():
        async with connect(server_env, project) as session:
            await approve_json(session, "Bash", {"command": "ls"})
            await approve_json(session, "Bash", {"command": "rm -rf /"})
            pending = await call_json(session, "validate_operation", {"tool_name": "Bash", "input": {"command": UNKNOWN}})
            await call_json(session, "submit_approval", {"request_id": pending["request_id"], "decision": "deny",
                                                         "reason": "no", "approver_id": "carol"})

    anyio.run(scenario)
    with open(os.path.join(isolated_env["PHLEGYAS_HOME"], "audit.jsonl"), encoding="utf-8") as fh:
        entries = [json.loads(line) for line in fh]
    assert [(e["decision"], e["tier"], e["mcp"]["tool"]) for e in entries] == [
        ("allow", "tier2_safe", "permissions__approve"),
        ("deny", "tier1_dangerous", "permissions__approve"),
        ("ask", "fallback", "validate_operation"),
        ("deny", "human", "submit_approval"),
    ]
    assert all(e["cwd"] == str(project) for e in entries)
    assert entries[3]["human"]["approver_id"] == "carol" and entries[3]["input"] == {"command": UNKNOWN}


BAD_ARGUMENTS = [  # (tool, arguments, what the error message says)
    ("permissions__approve", {"tool_name": "Bash", "input": 5}, "'input' must be an object, got int"),
    ("permissions__approve", {"tool_name": "Bash", "input": ["ls"]}, "'input' must be an object"),
    ("permissions__approve", {"tool_name": "", "input": {}}, "'tool_name' must be a non-empty string"),
    ("permissions__approve", {"tool_name": 7, "input": {}}, "'tool_name' must be a non-empty string"),
    ("permissions__approve", {"input": {"command": "ls"}}, "tool_name"),
    ("permissions__approve", {"tool_name": "Bash", "input": {}, "tool_use_id": 3}, "'tool_use_id' must be a string"),
    ("validate_operation", {"tool_name": "Bash"}, "input"),
    ("validate_operation", {"tool_name": "Bash", "input": {}, "agent_id": {}}, "'agent_id' must be a string"),
    ("submit_approval", {"request_id": "abc", "decision": "approve"}, "request id must be a UUID"),
    ("submit_approval", {"request_id": 5, "decision": "approve"}, "request id must be a string"),
    ("submit_approval", {"request_id": "0b8e7c52-3f4d-4b8a-9c1e-2d6f5a7b8c9d", "decision": "maybe"},
     "decision must be 'approve' or 'deny'"),
    ("submit_approval", {"request_id": "0b8e7c52-3f4d-4b8a-9c1e-2d6f5a7b8c9d", "decision": "approve"},
     "no approval request"),
    ("submit_approval", {"decision": "approve"}, "request_id"),
    ("poll_approval", {"request_id": "0B8E7C52-3F4D-4B8A-9C1E-2D6F5A7B8C9D"}, "no approval request"),
    ("poll_approval", {"request_id": "'; DROP TABLE requests; --"}, "request id must be a UUID"),
    ("get_pending_approvals", {"workflow_id": ["x"]}, "'workflow_id' must be a string"),
]


def test_bad_arguments_are_tool_errors_with_a_message(server_env, project):
    """Every row in one server session (a server start costs about a second)."""
    async def scenario():
        failures = []
        async with connect(server_env, project) as session:
            for name, arguments, message in BAD_ARGUMENTS:
                result = await session.call_tool(name, arguments)
                text = " ".join(getattr(block, "text", "") for block in result.content)
                if not (result.is_error and len(result.content) == 1 and message in text and "Traceback" not in text):
                    failures.append((name, arguments, result.is_error, text))
            # the server is still fine afterwards
            assert await approve_json(session, "Bash", {"command": "ls"}) == {
                "behavior": "allow", "updatedInput": {"command": "ls"}}
        return failures

    assert anyio.run(scenario) == []


# --- approvals shared across processes -----------------------------------------------------------

def test_a_request_parked_by_one_server_is_approved_by_the_cli_and_seen_by_a_third(server_env, project):
    async def park() -> dict:
        async with connect(server_env, project, "module") as session:
            pending = await call_json(session, "validate_operation", {
                "tool_name": "Bash", "input": {"command": UNKNOWN}, "workflow_id": "wf-9", "agent_id": "agent-2"})
            listed = await call_json(session, "get_pending_approvals", {"workflow_id": "wf-9"})
            assert [r["request_id"] for r in listed["requests"]] == [pending["request_id"]]
            assert (await call_json(session, "poll_approval", {"request_id": pending["request_id"]}))["status"] == "pending"
            return pending

    pending = anyio.run(park)
    assert pending["status"] == "pending" and pending["tier"] == "fallback"
    assert pending["expires_at"].endswith("Z") and pending["reason"]

    approved = run_phlegyas(server_env, project, "approve", pending["request_id"], "--reason", "fine",
                            "--approver", "dana")
    assert approved.returncode == 0, approved.stderr

    async def poll() -> tuple[dict, dict]:
        async with connect(server_env, project, "cli") as session:
            state = await call_json(session, "poll_approval", {"request_id": pending["request_id"]})
            again = await session.call_tool("submit_approval", {"request_id": pending["request_id"], "decision": "deny"})
            assert again.is_error and "already approved by dana" in text_of(again)
            stats = await call_json(session, "get_approval_stats", {})
            return state, stats

    state, stats = anyio.run(poll)
    assert (state["status"], state["approver_id"], state["resolution_reason"]) == ("approved", "dana", "fine")
    assert (state["workflow_id"], state["agent_id"], state["tool_input"]) == ("wf-9", "agent-2", {"command": UNKNOWN})
    assert stats["store"]["approved"] == 1 and stats["store"]["pending"] == 0
    assert list(stats)[:5] == ["total", "approved", "denied", "by_tier", "by_tool"] or {
        "total", "approved", "denied", "by_tier", "by_tool"} <= set(stats)  # the seed's top-level keys
    assert stats["total"] >= 2 and stats["by_tier"]["human"] == 1 and stats["by_tool"]["Bash"] >= 2


def test_validate_then_submit_through_mcp(server_env, project):
    async def scenario():
        async with connect(server_env, project) as session:
            allowed = await call_json(session, "validate_operation", {"tool_name": "Bash", "input": {"command": "git status"}})
            assert allowed["status"] == "approved" and "request_id" not in allowed
            denied = await call_json(session, "validate_operation", {"tool_name": "Bash", "input": {"command": "rm -rf ~"}})
            assert denied["status"] == "denied" and denied["tier"] == "tier1_dangerous"
            for decision, status in (("approve", "approved"), ("deny", "denied")):
                pending = await call_json(session, "validate_operation", {"tool_name": "Bash", "input": {"command": UNKNOWN}})
                assert pending["status"] == "pending"
                resolved = await call_json(session, "submit_approval", {"request_id": pending["request_id"],
                                                                        "decision": decision, "reason": "ok"})
                assert resolved["status"] == status and resolved["approver_id"] == "mcp-client"
                assert resolved["resolution_reason"] == "ok"
            assert (await call_json(session, "get_pending_approvals", {}))["count"] == 0

    anyio.run(scenario)


# --- waiting for a human ---------------------------------------------------------------------------

def test_permission_waits_for_a_human_in_another_process(isolated_env, project):
    env = dict(isolated_env, APPROVAL_WAIT_SECONDS="10")
    store = SQLiteApprovalStore(default_path(isolated_env["PHLEGYAS_HOME"]))
    cli_result: dict = {}

    def approve_when_parked() -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not (pending := store.list_pending()):
            time.sleep(0.05)
        cli_result["proc"] = run_phlegyas(env, project, "approve", pending[0].id, "--approver", "erin")

    async def scenario():
        async with connect(env, project, "module") as session:
            async with anyio.create_task_group() as tg:
                tg.start_soon(anyio.to_thread.run_sync, approve_when_parked)
                started = time.monotonic()
                answer = await approve_json(session, "Bash", {"command": UNKNOWN})
                elapsed = time.monotonic() - started
            assert await approve_json(session, "Bash", {"command": "ls"}) == {
                "behavior": "allow", "updatedInput": {"command": "ls"}}
            return answer, elapsed

    answer, elapsed = anyio.run(scenario)
    assert cli_result["proc"].returncode == 0, cli_result["proc"].stderr
    assert answer == {"behavior": "allow", "updatedInput": {"command": UNKNOWN}}
    assert elapsed < 10  # answered by the person (a timeout would have denied)
    log = (project.parent / "server-module.log").read_text()
    assert "phlegyas approve" in log  # the server said how to answer


def test_permission_denies_when_nobody_answers_in_time(isolated_env, project):
    env = dict(isolated_env, APPROVAL_WAIT_SECONDS="1")

    async def scenario():
        async with connect(env, project) as session:
            started = time.monotonic()
            answer = await approve_json(session, "Bash", {"command": UNKNOWN})
            return answer, time.monotonic() - started

    answer, elapsed = anyio.run(scenario)
    assert answer["behavior"] == "deny" and "nobody answered within 1 s" in answer["message"]
    assert 1 <= elapsed < 10
    assert SQLiteApprovalStore(default_path(isolated_env["PHLEGYAS_HOME"])).list_pending() == []


def test_the_server_stays_responsive_while_a_call_waits(isolated_env, project):
    env = dict(isolated_env, APPROVAL_WAIT_SECONDS="30")

    async def scenario():
        async with connect(env, project) as session:
            answers: dict = {}

            async def slow():
                answers["slow"] = await approve_json(session, "Bash", {"command": UNKNOWN})

            async with anyio.create_task_group() as tg:
                tg.start_soon(slow)
                deadline = time.monotonic() + 20
                while not (listed := await call_json(session, "get_pending_approvals", {}))["count"]:
                    assert time.monotonic() < deadline, "the waiting call never parked its request"
                    await anyio.sleep(0.05)
                answers["quick"] = await approve_json(session, "Bash", {"command": "ls"})
                answers["slow_done_before_quick"] = "slow" in answers
                await call_json(session, "submit_approval", {"request_id": listed["requests"][0]["request_id"],
                                                             "decision": "deny", "reason": "nope"})
            return answers

    answers = anyio.run(scenario)
    assert answers["quick"]["behavior"] == "allow" and answers["slow_done_before_quick"] is False
    assert answers["slow"]["behavior"] == "deny" and "denied by mcp-client: nope" in answers["slow"]["message"]


# --- starting it ---------------------------------------------------------------------------------

def test_the_script_makes_its_package_importable(isolated_env, project):
    """``python path/to/phlegyas/approver_mcp.py`` without site-packages: phlegyas itself imports from
    the file's parent dir, so the only complaint is the missing ``mcp`` package, with the fix."""
    proc = subprocess.run([sys.executable, "-S", str(PACKAGE_DIR / "approver_mcp.py")], env=isolated_env,
                          cwd=project, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 3, proc.stderr
    assert "pip install 'phlegyas[mcp]'" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_a_bad_setting_stops_the_server_with_a_clear_message(isolated_env, project):
    env = dict(isolated_env, APPROVAL_WAIT_SECONDS="soon")
    proc = subprocess.run(LAUNCHERS["cli"], env=env, cwd=project, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 3
    assert "APPROVAL_WAIT_SECONDS must be an integer" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""


# --- the service behind the tools, in process ------------------------------------------------------

def _service(isolated_env, project, runtime=None, **env_extra):
    from phlegyas.hosts.mcp.server import ApprovalService
    from phlegyas.runtime import load_runtime
    from phlegyas.store.audit import MemoryAuditLog

    env = dict(isolated_env, **env_extra)
    runtime = runtime or load_runtime(env, str(project), interactive=True)
    path = default_path(isolated_env["PHLEGYAS_HOME"])
    return ApprovalService(runtime, lambda sleep: SQLiteApprovalStore(path, sleep=sleep), audit=MemoryAuditLog(),
                           cwd=str(project))


def test_stopping_the_service_releases_a_waiting_call(isolated_env, project):
    import threading

    from phlegyas.hosts.mcp.server import ShuttingDown, make_call

    service = _service(isolated_env, project, APPROVAL_WAIT_SECONDS="30")
    outcome: dict = {}

    def wait():
        try:
            outcome["result"] = service.permission(make_call("Bash", {"command": UNKNOWN}, cwd=str(project)))
        except ShuttingDown as exc:
            outcome["stopped"] = exc

    thread = threading.Thread(target=wait)
    thread.start()
    deadline = time.monotonic() + 10
    while not service.store.list_pending() and time.monotonic() < deadline:
        time.sleep(0.02)
    parked = service.store.list_pending()
    assert len(parked) == 1
    service.stop()
    thread.join(2)
    assert not thread.is_alive() and "stopped" in outcome
    assert service.store.get(parked[0].id).resolution_reason == "the waiting process stopped"


def test_a_gate_that_cannot_be_built_denies(isolated_env, project):
    from phlegyas.hosts.mcp.server import make_call

    class BrokenRuntime:
        settings = None

        def gate(self, cwd=None):
            raise RuntimeError("tier module missing")

    service = _service(isolated_env, project, runtime=BrokenRuntime())
    call = make_call("Bash", {"command": "ls"}, cwd=str(project))
    answer = service.permission(call)
    assert answer["behavior"] == "deny" and "cannot build the gate" in answer["message"]
    assert "tier module missing" in answer["message"]
    assert service.validate(call)["status"] == "denied"
    assert [e["decision"] for e in service.audit.entries] == ["deny", "deny"]


@pytest.mark.parametrize("extra, expected", [
    ({}, "Tier 3 (AI) is off: set ANTHROPIC_API_KEY"),
    ({"ANTHROPIC_API_KEY": "sk-ant-api03-" + "x" * 40}, "Tier 3 (AI) is on (anthropic, model claude-haiku-4-5-20251001)"),
    ({"PHLEGYAS_LLM_PROVIDER": "openai", "PHLEGYAS_LLM_BASE_URL": "http://127.0.0.1:9/v1"},
     "Tier 3 (AI) is off: set PHLEGYAS_LLM_MODEL"),
])
def test_the_server_says_at_start_whether_tier3_is_on(server_env, project, extra, expected):
    proc = subprocess.run([sys.executable, "-P", "-m", "phlegyas.hosts.mcp.server"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, cwd=project, env=dict(server_env, **extra), timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert expected in proc.stderr
    assert "sk-ant-api03" not in proc.stderr  # the key itself is never logged


def test_the_server_reports_its_name_and_version_in_initialize(server_env, project):
    from phlegyas import __version__

    async def scenario():
        async with connect(server_env, project) as session:
            return session.initialized.server_info

    info = anyio.run(scenario)
    assert (info.name, info.version) == ("phlegyas", __version__) and __version__
