"""Slack approvals where they are asked: the MCP server (a spawned ``phlegyas mcp`` driven by the SDK's
real client) and the PermissionRequest hook (a real ``phlegyas-hook`` process), against the loopback fake
Slack. The PreToolUse fast path never waits for Slack.
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import anyio
import pytest
from fake_slack import FakeSlack
from test_mcp import LAUNCHERS, UNKNOWN, approve_json, call_json, connect
from test_slack import APPROVER, slack_env

from phlegyas.store.sqlite import SQLiteApprovalStore, default_path


@pytest.fixture
def fake():
    with FakeSlack() as slack:
        yield slack


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "project"
    path.mkdir()
    return path


def click_when_posted(fake: FakeSlack, action: str, *, count: int = 1) -> threading.Thread:
    """Click ``action`` on the ``count``-th message once it is in the channel (a person on a phone)."""

    def run() -> None:
        fake.wait_for(lambda: len(fake.messages) >= count, timeout=60, what="the request posted")
        request_id = _request_id(fake.messages[count - 1])
        fake.click(request_id, action, user=APPROVER)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _request_id(message: dict) -> str:
    for block in message["blocks"]:
        for element in block.get("elements", ()):
            if element.get("action_id") == "phlegyas_approve":
                return element["value"]
    raise AssertionError(f"no buttons in {message}")


# --- the MCP server -----------------------------------------------------------------------------------

@pytest.mark.parametrize("action, behavior", [("approve", "allow"), ("deny", "deny")])
def test_permissions_approve_waits_for_the_click(fake, isolated_env, project, action, behavior):
    env = slack_env(isolated_env, fake, SLACK_APPROVAL_TIMEOUT_SECONDS="60")
    tool_input = {"command": UNKNOWN, "description": "frobnicate everything"}

    async def scenario():
        async with connect(env, project, "cli") as session:
            clicker = click_when_posted(fake, action)
            answer = await approve_json(session, "Bash", tool_input)
            clicker.join(10)
            return answer

    answer = anyio.run(scenario)
    assert answer["behavior"] == behavior
    if behavior == "allow":
        assert answer["updatedInput"] == tool_input  # the call as asked, never an empty input
    else:
        assert APPROVER in answer["message"]
    log = (project.parent / "server-cli.log").read_text()
    assert "Slack approvals on" in log and fake.bot_token not in log and fake.app_token not in log


def test_validate_operation_posts_and_returns_at_once_and_a_restarted_server_takes_the_click(fake, isolated_env,
                                                                                              project):
    env = slack_env(isolated_env, fake)

    async def park() -> dict:
        async with connect(env, project, "module") as session:
            started = time.monotonic()
            pending = await call_json(session, "validate_operation", {
                "tool_name": "Bash", "input": {"command": UNKNOWN}, "workflow_id": "wf-1", "timeout_seconds": 120})
            assert time.monotonic() - started < 5  # fire and forget: nobody waits for the click
            return pending

    pending = anyio.run(park)  # … and the server is gone (its client closed it)
    assert pending["status"] == "pending" and pending["slack"] == "posted"
    message = fake.message_for(pending["request_id"])
    assert message is not None and "wf-1" in json.dumps(message["blocks"])
    fake.wait_for(lambda: fake.connections() == 0, what="the first server's connection closed")

    async def restarted() -> dict:
        async with connect(env, project, "cli") as session:
            fake.wait_connected(1, timeout=30)
            fake.click(pending["request_id"], "approve", user=APPROVER)
            deadline = time.monotonic() + 20
            while (state := await call_json(session, "poll_approval", {"request_id": pending["request_id"]}))[
                    "status"] == "pending":
                assert time.monotonic() < deadline, "the click never reached the store"
                await anyio.sleep(0.1)
            fake.wait_for(lambda: '"phlegyas_approve"' not in json.dumps(fake.message_for(pending["request_id"])),
                          what="the message updated")
            return state

    state = anyio.run(restarted)
    assert (state["status"], state["approver_id"], state["resolved_via"]) == ("approved", APPROVER, "slack")


def test_slack_down_when_validate_operation_posts_says_so_and_parks_the_request(fake, isolated_env, project):
    env = slack_env(isolated_env, fake)

    async def scenario() -> dict:
        async with connect(env, project, "module") as session:
            fake.down = True
            return await call_json(session, "validate_operation", {"tool_name": "Bash", "input": {"command": UNKNOWN}})

    pending = anyio.run(scenario)
    assert pending["status"] == "pending" and pending["slack"].startswith("Slack failed")
    assert "Slack failed" in pending["reason"]
    store = SQLiteApprovalStore(default_path(isolated_env["PHLEGYAS_HOME"]))
    assert [r.id for r in store.list_pending()] == [pending["request_id"]]  # still there for the CLI


@pytest.mark.parametrize("change, variable", [(dict(SLACK_BOT_TOKEN="xoxb-1-not-the-bot-token"), "SLACK_BOT_TOKEN"),
                                              (dict(SLACK_APPROVAL_CHANNEL="#nowhere"), "SLACK_APPROVAL_CHANNEL")])
def test_a_slack_configuration_error_stops_the_server_naming_the_variable(fake, isolated_env, project, change,
                                                                          variable):
    proc = subprocess.run(LAUNCHERS["cli"], env=slack_env(isolated_env, fake, **change), cwd=project,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 3, proc.stderr
    assert variable in proc.stderr and "Traceback" not in proc.stderr and proc.stdout == ""
    assert "xoxb-1-not-the-bot-token" not in proc.stderr


# --- the hook -----------------------------------------------------------------------------------------

def _hook(env: dict, project, event: str, command: str) -> subprocess.CompletedProcess:
    payload = {"hook_event_name": event, "session_id": "s-1", "cwd": str(project), "permission_mode": "default",
               "tool_name": "Bash", "tool_input": {"command": command}}
    return subprocess.run([sys.executable, "-m", "phlegyas.hosts.hook.client"], input=json.dumps(payload),
                          env=dict(env, PHLEGYAS_HOOK_SERVER="off"), cwd=project, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("action, behavior", [("approve", "allow"), ("deny", "deny")])
def test_the_permission_request_hook_waits_for_the_click(fake, isolated_env, project, action, behavior):
    env = slack_env(isolated_env, fake, SLACK_APPROVAL_TIMEOUT_SECONDS="60")
    clicker = click_when_posted(fake, action)
    proc = _hook(env, project, "PermissionRequest", UNKNOWN)
    clicker.join(10)
    assert proc.returncode == 0, proc.stderr
    decision = json.loads(proc.stdout)["hookSpecificOutput"]["decision"]
    assert decision["behavior"] == behavior
    if behavior == "allow":
        assert decision["updatedInput"] == {"command": UNKNOWN}  # the call as asked, never an empty input
    else:
        assert APPROVER in decision["message"]
    fake.wait_for(lambda: fake.connections() == 0, what="the hook's Socket Mode connection closed with it")


def test_the_pre_tool_use_fast_path_never_waits_for_slack(fake, isolated_env, project):
    env = slack_env(isolated_env, fake, SLACK_APPROVAL_TIMEOUT_SECONDS="60")
    started = time.monotonic()
    proc = _hook(env, project, "PreToolUse", UNKNOWN)
    assert time.monotonic() - started < 30 and proc.returncode == 0, proc.stderr
    assert fake.messages == [] and not [c for c in fake.calls if c[0] == "auth.test"]


# --- phlegyas slack test, phlegyas doctor --------------------------------------------------------------

def _phlegyas(env: dict, project, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "phlegyas", *args], env=env, cwd=project, capture_output=True,
                          text=True, timeout=120)


def test_slack_test_posts_a_harmless_request_and_reports_the_click(fake, isolated_env, project):
    clicker = click_when_posted(fake, "approve")
    proc = _phlegyas(slack_env(isolated_env, fake), project, "slack", "test", "--wait", "30")
    clicker.join(10)
    assert proc.returncode == 0, proc.stderr
    assert "channel #approvals (C0APPROVALS)" in proc.stdout
    assert f"approved by {APPROVER} via slack" in proc.stdout and "the wiring works" in proc.stdout
    assert '"phlegyas_approve"' not in json.dumps(fake.messages[0]["updates"][-1]["blocks"])  # the message says so


def test_slack_test_says_when_nobody_clicks(fake, isolated_env, project):
    proc = _phlegyas(slack_env(isolated_env, fake), project, "slack", "test", "--wait", "1")
    assert proc.returncode == 1 and "nobody clicked within 1 s" in proc.stderr
    assert "NOT DECIDED" in json.dumps(fake.messages[0]["updates"][-1]["blocks"])


def test_slack_test_without_slack_configured_says_what_to_set(isolated_env, project):
    proc = _phlegyas(isolated_env, project, "slack", "test")
    assert proc.returncode == 3 and "SLACK_BOT_TOKEN, SLACK_APP_TOKEN and SLACK_APPROVAL_CHANNEL" in proc.stderr


def test_doctor_reports_the_slack_wiring(fake, isolated_env, project):
    good = _phlegyas(slack_env(isolated_env, fake), project, "doctor")
    assert "Slack approvals" in good.stdout and "team T0PHLEGYAS, channel #approvals (C0APPROVALS)" in good.stdout
    assert fake.bot_token not in good.stdout and fake.messages == []  # doctor posts nothing
    bad = _phlegyas(slack_env(isolated_env, fake, SLACK_BOT_TOKEN="xoxb-1-not-the-bot-token"), project, "doctor")
    assert bad.returncode == 1
    assert "SLACK_BOT_TOKEN is not accepted: Slack's auth.test answered invalid_auth" in bad.stdout
    assert "xoxb-1-not-the-bot-token" not in bad.stdout
    half = _phlegyas(dict(isolated_env, SLACK_BOT_TOKEN=fake.bot_token), project, "doctor")
    assert "half configured" in half.stdout and half.returncode == 1
