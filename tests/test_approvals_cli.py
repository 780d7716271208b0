"""`phlegyas pending | approve | deny`, run as real processes against the store of an isolated home."""
from __future__ import annotations

import json
import os
import uuid

import pytest

from phlegyas.cli.approvals import duration, format_table
from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.store.sqlite import SQLiteApprovalStore, default_path

ASKED = Decision(Verdict.ASK, "fallback", "no rule or tier decided this call")


@pytest.fixture
def store(isolated_env):
    with SQLiteApprovalStore(default_path(isolated_env["PHLEGYAS_HOME"])) as s:
        yield s


def park(store, command: str, **fields) -> str:
    return store.create(ToolCall("Bash", {"command": command}, cwd="/proj", **fields), ASKED, ttl=3600).id


def audit_lines(isolated_env) -> list[dict]:
    path = os.path.join(isolated_env["PHLEGYAS_HOME"], "audit.jsonl")
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def test_pending_with_nothing_parked(run_cli):
    proc = run_cli("pending")
    assert proc.returncode == 0 and proc.stdout == "No pending approval requests.\n"
    assert json.loads(run_cli("pending", "--json").stdout) == []


def test_pending_table_json_and_filters(run_cli, store):
    first = park(store, "make deploy", workflow_id="wf-1", agent_id="agent-7")
    second = park(store, "terraform apply -auto-approve", workflow_id="wf-2")
    proc = run_cli("pending")
    assert proc.returncode == 0, proc.stderr
    header, *rows = proc.stdout.splitlines()
    assert header.split() == ["REQUEST_ID", "CREATED_AT", "TOOL_NAME", "TOOL_INPUT", "WORKFLOW_ID/AGENT_ID",
                              "EXPIRES_AT"]
    assert rows[0].startswith(first) and "make deploy" in rows[0] and "wf-1/agent-7" in rows[0]
    assert rows[1].startswith(second) and "terraform apply" in rows[1]
    assert " ago " in rows[0] and rows[0].rstrip().split()[-2] == "in"
    listed = json.loads(run_cli("pending", "--json").stdout)
    names = {part.lower() for column in header.split() for part in column.split("/")}
    assert names <= set(listed[0])  # the table and --json use the same names
    assert [r["request_id"] for r in listed] == [first, second]
    assert listed[0]["tool_input"] == {"command": "make deploy"} and listed[0]["status"] == "pending"
    only = json.loads(run_cli("pending", "--json", "--workflow", "wf-2").stdout)
    assert [r["request_id"] for r in only] == [second]


def test_pending_escapes_terminal_control_sequences(run_cli, store):
    request_id = park(store, "echo safe\x1b[2K\x1b[1A\rrm -rf ~\nmore")
    for args in (("pending",), ("pending", "--full")):
        out = run_cli(*args).stdout
        assert "\x1b" not in out and "\r" not in out
        assert "\\x1b[2K" in out and request_id in out


def test_pending_full_shows_the_whole_input(run_cli, store):
    long_command = "deploy " + " ".join(f"--flag-{i}" for i in range(40))
    park(store, long_command)
    out = run_cli("pending", "--full").stdout
    assert long_command in out and "reason" in out and "expires_at" in out


@pytest.mark.parametrize("verb, status", [("approve", "approved"), ("deny", "denied")])
def test_approve_and_deny_resolve_record_and_audit(run_cli, store, isolated_env, verb, status):
    request_id = park(store, "make deploy", agent_id="agent-7")
    proc = run_cli(verb, request_id, "--reason", "checked the target", "--approver", "alice")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{status} {request_id}: Bash: make deploy")
    final = store.get(request_id)
    assert (final.status, final.approver_id, final.resolution_reason) == (status, "alice", "checked the target")
    entry = audit_lines(isolated_env)[-1]
    assert entry["tier"] == "human" and entry["decision"] == ("allow" if verb == "approve" else "deny")
    assert entry["input"] == {"command": "make deploy"} and entry["agent_id"] == "agent-7"
    assert entry["human"]["request_id"] == request_id and entry["human"]["via"] == "cli"
    assert json.loads(run_cli("pending", "--json").stdout) == []


def test_the_default_approver_is_the_user(run_cli, store):
    import pwd

    request_id = park(store, "make deploy")
    assert run_cli("approve", request_id).returncode == 0
    assert store.get(request_id).approver_id == pwd.getpwuid(os.getuid()).pw_name


@pytest.mark.parametrize("make_id, message", [
    (lambda store: "not-a-uuid", "must be a UUID"),
    (lambda store: str(uuid.uuid4()), "no approval request"),
    (lambda store: _resolved(store), "already approved by alice"),
    (lambda store: _expired(store), "expired"),
])
def test_bad_ids_exit_3_with_one_clear_line(run_cli, store, make_id, message):
    request_id = make_id(store)
    for verb in ("approve", "deny"):
        proc = run_cli(verb, request_id)
        assert proc.returncode == 3, proc.stdout
        assert message in proc.stderr and proc.stderr.count("\n") == 1
        assert "Traceback" not in proc.stderr


def _resolved(store) -> str:
    request_id = park(store, "make")
    store.resolve(request_id, True, approver_id="alice")
    return request_id


def _expired(store) -> str:
    request_id = park(store, "make")
    store.withdraw(request_id, reason="nobody answered within 5 s")
    return request_id


@pytest.mark.parametrize("command, words", [
    ("pending", ["--json", "--full", "--workflow", "phlegyas approve"]),
    ("approve", ["--reason", "--approver", "resolved once", "exit status 3"]),
    ("deny", ["--reason", "refuse"]),
    ("mcp", ["permission-prompt-tool", "permissions__approve", "stderr"]),
])
def test_help_texts(run_cli, command, words):
    proc = run_cli(command, "--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    for word in words:
        assert word in text


@pytest.mark.parametrize("seconds, shown", [
    (0, "0s"), (59.9, "59s"), (60, "1m"), (3599, "59m"), (3600, "1h00m"), (3 * 3600 + 300, "3h05m"),
    (2 * 86400 + 5, "2d"), (-1, "expired"),
])
def test_duration(seconds, shown):
    assert duration(seconds) == shown


def test_table_columns_line_up(store):
    park(store, "a", workflow_id="w")
    park(store, "a much longer command line here", agent_id="agent-with-a-long-name")
    lines = format_table(store.list_pending(), now=store.list_pending()[0].created_at + 90).splitlines()
    starts = {line.index("Bash") for line in lines[1:]}
    assert len(starts) == 1 and lines[0].index("TOOL") == starts.pop()
    assert all(" 1m " in line for line in lines[1:])
