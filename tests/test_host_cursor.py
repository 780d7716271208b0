"""Cursor's hook dialect through the real hook process, and ``phlegyas install --agent cursor``'s files.

Cursor is not on npm, so nothing here was captured from a real Cursor: the events below are written to
the DOCUMENTED shapes (Cursor's hooks documentation, PROTOCOLS.md §6) — common fields
``hook_event_name``, ``conversation_id``, ``generation_id``, ``workspace_roots`` (and the optional
``model``, ``cursor_version``, ``user_email``), plus each event's own — and the answers are checked
against the documented answer ``{"permission": "allow"|"deny"|"ask", "user_message", "agent_message"}``.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime

import pytest

from phlegyas.hosts.config_files import InstallError, apply
from phlegyas.hosts.cursor import install
from phlegyas.hosts.hook.command import hook_command
from phlegyas.hosts.hook.dialects import cursor, registry

LAUNCHER = "from phlegyas.hosts.hook.client import main; raise SystemExit(main())"
CONVERSATION = "668320d2-2fd8-4888-b33c-2a466fec86e7"


def documented(name: str, project: str, **fields) -> dict:
    """An event of the documented shape (not a captured one)."""
    return {"hook_event_name": name, "conversation_id": CONVERSATION,
            "generation_id": "490b90b7-a2ce-4c2c-bb76-cb77b125df2f", "workspace_roots": [project],
            "model": "claude-4.5-sonnet", "cursor_version": "2.0.77", "user_email": "dev@example.com", **fields}


def shell(command: str, project: str, **extra) -> dict:
    return documented("beforeShellExecution", project, command=command, cwd=project, **extra)


@pytest.fixture
def hook(tmp_path):
    """Run the hook process on one event; returns (exit code, stdout's JSON or None, new audit rows)."""
    home = tmp_path / "home"
    data_dir = home / ".claude" / "phlegyas"
    data_dir.mkdir(parents=True)
    (data_dir / "policy.toml").write_text('[classes]\n"publish.package" = "ask"\n')
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("hello\n")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PHLEGYAS_", "ANTHROPIC_", "OPENAI_", "CLAUDE_", "CURSOR_"))
           and k not in ("AUDIT_LOG_FILE", "ENABLE_AUDIT_LOG", "APPROVAL_WAIT_SECONDS")}
    env.update(HOME=str(home), PHLEGYAS_HOME=str(data_dir), PHLEGYAS_HOOK_SERVER="off")
    audit_log = data_dir / "audit.jsonl"

    def run(event, *, agent: str | None = "cursor", extra_env: dict | None = None):
        raw = event if isinstance(event, bytes) else json.dumps(event).encode()
        before = audit_log.read_text().count("\n") if audit_log.exists() else 0
        proc = subprocess.run([sys.executable, "-P", "-c", LAUNCHER, *(["--agent", agent] if agent else [])],
                              input=raw, capture_output=True, env={**env, **(extra_env or {})},
                              cwd=str(project), timeout=60)
        rows = audit_log.read_text().splitlines()[before:] if audit_log.exists() else []
        out = proc.stdout.decode()
        # Cursor reads one JSON object; with failClosed an empty answer would be a failure: always one
        assert out.count("\n") == 1, out
        body = json.loads(out)
        assert body["permission"] in ("allow", "deny", "ask"), out
        assert set(body) <= {"permission", "user_message", "agent_message"}, out
        if body["permission"] != "allow":
            assert body["user_message"].startswith("phlegyas: ") and body["agent_message"].startswith("phlegyas: ")
        return proc.returncode, body, [json.loads(r) for r in rows]

    run.project = str(project)
    run.home = str(home)
    return run


# -- decisions -------------------------------------------------------------------------------------

def test_deny_is_cursors_deny_with_the_reason_for_user_and_agent(hook):
    code, body, rows = hook(shell("rm -rf /", hook.project))
    assert code == 0 and body["permission"] == "deny"
    assert "delete.catastrophic" in body["agent_message"]
    (row,) = rows
    assert (row["decision"], row["host"], row["hook_event"]) == ("deny", "cursor", "beforeShellExecution")
    assert row["tool_name"] == "Bash" and row["session_id"] == CONVERSATION and row["cwd"] == hook.project


@pytest.mark.parametrize("command", ["ls", "git status"])
def test_allow_is_cursors_allow(hook, command):
    code, body, rows = hook(shell(command, hook.project))
    assert (code, body) == (0, {"permission": "allow"})
    assert rows[0]["decision"] == "allow" and rows[0]["host"] == "cursor"


def test_a_real_ask_is_cursors_ask(hook):
    code, body, rows = hook(shell("npm publish", hook.project))
    assert code == 0 and body["permission"] == "ask"
    assert rows[0]["tier"] != "fallback"


def test_undecided_is_an_ask_too(hook):
    # an MCP tool phlegyas knows nothing about: Cursor has no answer meaning "no opinion"
    event = documented("beforeMCPExecution", hook.project, tool_name="frobnicate",
                       tool_input=json.dumps({"x": 1}), command="npx -y some-mcp-server")
    code, body, rows = hook(event)
    assert code == 0 and body["permission"] == "ask"
    assert rows[0]["tier"] == "fallback" and rows[0]["tool_name"] == "frobnicate"
    assert rows[0]["input"] == {"x": 1} and rows[0]["hook_event"] == "beforeMCPExecution"


def test_mcp_tool_input_may_be_an_object(hook):
    event = documented("beforeMCPExecution", hook.project, tool_name="query", tool_input={"sql": "SELECT 1"},
                       url="http://localhost:3000/mcp")
    code, _, rows = hook(event)
    assert code == 0 and rows[0]["input"] == {"sql": "SELECT 1"}


def test_read_file_maps_to_read_and_its_ask_is_a_deny(hook):
    notes = os.path.join(hook.project, "notes.txt")
    code, body, rows = hook(documented("beforeReadFile", hook.project, file_path=notes, content="hello\n",
                                       attachments=[]))
    assert (code, body["permission"]) == (0, "allow")
    assert (rows[0]["tool_name"], rows[0]["input"]) == ("Read", {"file_path": notes})
    # the documented beforeReadFile answer is allow or deny: what phlegyas would ask about is denied
    secret = os.path.join(hook.home, ".ssh", "id_rsa")
    code, body, rows = hook(documented("beforeReadFile", hook.project, file_path=secret, content="KEY"))
    assert code == 0 and body["permission"] == "deny", body
    assert "a person would have to approve this read" in body["agent_message"]
    assert rows[0]["decision"] == "ask" and "sensitive.read" in rows[0]["findings"]


def test_a_missing_cwd_is_the_first_workspace_root(hook):
    event = shell("ls", hook.project)
    del event["cwd"]
    _, _, rows = hook(event)
    assert rows[0]["cwd"] == hook.project


# -- input that cannot be decided ----------------------------------------------------------------------

@pytest.mark.parametrize("raw, says", [
    (b"not json", "not valid JSON"),
    (b"", "empty input"),
    (b'"a string"', "expected a JSON object"),
    (json.dumps({"hook_event_name": "beforeShellExecution", "cwd": "/tmp"}).encode(), "'command' must be"),
    (json.dumps({"hook_event_name": "beforeShellExecution", "command": 7}).encode(), "'command' must be"),
    (json.dumps({"hook_event_name": "beforeReadFile", "file_path": None}).encode(), "'file_path' must be"),
    (json.dumps({"hook_event_name": "beforeMCPExecution", "tool_name": "q", "tool_input": "{oops"}).encode(),
     "'tool_input' is a string that is not JSON"),
    (json.dumps({"hook_event_name": "beforeMCPExecution", "tool_name": "q", "tool_input": [1]}).encode(),
     "'tool_input' must be an object"),
    (json.dumps({"hook_event_name": "beforeShellExecution", "command": "ls", "cwd": "rel"}).encode(),
     "absolute path"),
    (json.dumps({"hook_event_name": "afterFileEdit", "file_path": "/x"}).encode(), "unknown hook_event_name"),
])
def test_malformed_input_is_blocked_in_cursors_terms(hook, raw, says):
    code, body, _ = hook(raw)
    assert code == 2 and body["permission"] == "deny", body
    assert says in body["agent_message"], body


def test_a_huge_event_is_blocked(hook):
    code, body, _ = hook(json.dumps(shell("echo " + "a" * (17 * 1024 * 1024), "/tmp")).encode())
    assert code == 2 and body["permission"] == "deny" and "larger than 16 MiB" in body["agent_message"]


# -- detection without --agent ------------------------------------------------------------------------

def test_cursors_events_are_recognised_without_agent(hook):
    code, body, rows = hook(shell("rm -rf /", hook.project), agent=None)
    assert code == 0 and body["permission"] == "deny" and rows[0]["host"] == "cursor"


def test_recognizes_only_cursors_shape():
    for name in cursor.EVENTS:
        assert registry.recognize(documented(name, "/p")) is cursor
    others = [
        {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}},
        {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": "ls"}},
        {"sessionId": "s", "timestamp": 1, "cwd": "/p", "toolName": "bash", "toolArgs": {"command": "ls"}},
        {"hook_event_name": "tool.execute.before", "tool": "bash", "args": {"command": "ls"}},
        {"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": "ls"}},
    ]
    for data in others:
        assert not cursor.recognizes(data), data


# -- install ---------------------------------------------------------------------------------------

def _write(changes) -> None:
    for change in changes:
        if change.changed:
            apply(change, datetime(2026, 12, 1, 12, 0, 0))


def test_install_writes_the_three_hooks_fail_closed(tmp_path):
    environ = {"HOME": str(tmp_path / "home")}
    changes = install.install_changes(user=True, project=str(tmp_path), environ=environ, python=sys.executable,
                                      timeout=40)
    path = str(tmp_path / "home" / ".cursor" / "hooks.json")
    assert [c.path for c in changes] == [path]
    _write(changes)
    entry = {"command": hook_command(sys.executable, "cursor"), "timeout": 40, "failClosed": True}
    with open(path) as fh:
        assert json.load(fh) == {"version": 1, "hooks": {e: [entry] for e in install.EVENTS}}
    assert install.wired(user=True, project=str(tmp_path), environ=environ) == path
    assert not any(c.changed for c in install.install_changes(user=True, project=str(tmp_path), environ=environ,
                                                               python=sys.executable, timeout=40))
    (project_change,) = install.install_changes(user=False, project=str(tmp_path), environ=environ,
                                                python=sys.executable, timeout=40)
    assert project_change.path == str(tmp_path / ".cursor" / "hooks.json")


def test_install_merges_and_uninstall_removes_only_phlegyas(tmp_path):
    path = tmp_path / ".cursor" / "hooks.json"
    path.parent.mkdir()
    theirs = {"command": "./hooks/audit.sh"}
    old = {"command": "/old/bin/phlegyas-hook --agent cursor", "timeout": 5}
    path.write_text(json.dumps({"version": 1, "hooks": {"beforeShellExecution": [theirs, old],
                                                        "afterFileEdit": [{"command": "./fmt.sh"}]}}))
    project = str(tmp_path)
    _write(install.install_changes(user=False, project=project, environ={}, python=sys.executable, timeout=30))
    doc = json.loads(path.read_text())
    ours = {"command": hook_command(sys.executable, "cursor"), "timeout": 30, "failClosed": True}
    assert doc["hooks"]["beforeShellExecution"] == [theirs, ours]
    assert doc["hooks"]["beforeReadFile"] == [ours] and doc["hooks"]["afterFileEdit"] == [{"command": "./fmt.sh"}]
    _write(install.uninstall_changes(user=False, project=project, environ={}))
    assert json.loads(path.read_text()) == {"version": 1, "hooks": {"beforeShellExecution": [theirs],
                                                                      "afterFileEdit": [{"command": "./fmt.sh"}]}}
    assert install.wired(user=False, project=project, environ={}) is None
    assert not any(c.changed for c in install.uninstall_changes(user=False, project=project, environ={}))


def test_uninstall_removes_a_file_left_with_nothing(tmp_path):
    _write(install.install_changes(user=False, project=str(tmp_path), environ={}, python=sys.executable,
                                   timeout=30))
    (change,) = install.uninstall_changes(user=False, project=str(tmp_path), environ={})
    assert change.removes_file
    _write([change])
    assert not (tmp_path / ".cursor" / "hooks.json").exists()


@pytest.mark.parametrize("text, where", [
    ('{"version": 1,\n "hooks": [\n', ":3:1: not valid JSON"),
    ('{"version": 1,\n "hooks": []}\n', ":2:"),
    ('{"version": 1,\n "hooks": {\n  "beforeReadFile": "x"}}\n', ":3:"),
    ('{"version": 1,\n "hooks": {\n  "beforeShellExecution": [\n   7]}}\n', ":4:"),
])
def test_a_malformed_file_is_reported_and_nothing_written(tmp_path, text, where):
    path = tmp_path / ".cursor" / "hooks.json"
    path.parent.mkdir()
    path.write_text(text)
    with pytest.raises(InstallError) as caught:
        install.install_changes(user=False, project=str(tmp_path), environ={}, python=sys.executable, timeout=30)
    assert str(path) + where in str(caught.value), caught.value
    assert path.read_text() == text
