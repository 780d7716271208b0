"""Copilot CLI's hook dialect through the real hook process, and ``phlegyas install --agent copilot``'s files.

The events are the shapes Copilot CLI 1.0.102 sent a logging hook (captured offline with the real binary,
tests/test_e2e_copilot.py's setup): ``{sessionId, timestamp, cwd, toolName, toolArgs}`` for ``bash``,
``create``, ``edit``, ``view``, ``glob``, ``grep``; ``toolArgs`` also as a JSON string, as earlier
versions sent it. The answers are checked against what 1.0.102 reads (see the dialect's docstring):
``{"permissionDecision": "deny"|"ask", "permissionDecisionReason": …}``, or nothing at all.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime

import pytest

from phlegyas.hosts.config_files import InstallError, apply
from phlegyas.hosts.copilot import install
from phlegyas.hosts.hook.command import hook_command
from phlegyas.hosts.hook.dialects import claude, copilot, registry

LAUNCHER = "from phlegyas.hosts.hook.client import main; raise SystemExit(main())"
SESSION = "eae6d1c6-0650-465c-ad89-a68108fc6937"


@pytest.fixture
def hook(tmp_path):
    """Run the hook process on one event; returns (exit code, stdout's JSON or None, stderr, new audit rows)."""
    home = tmp_path / "home"
    data_dir = home / ".claude" / "phlegyas"
    data_dir.mkdir(parents=True)
    (data_dir / "policy.toml").write_text('[classes]\n"publish.package" = "ask"\n')
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("hello\n")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PHLEGYAS_", "COPILOT_", "ANTHROPIC_", "OPENAI_", "CLAUDE_"))
           and k not in ("AUDIT_LOG_FILE", "ENABLE_AUDIT_LOG", "APPROVAL_WAIT_SECONDS")}
    env.update(HOME=str(home), PHLEGYAS_HOME=str(data_dir), PHLEGYAS_HOOK_SERVER="off")
    audit_log = data_dir / "audit.jsonl"

    def run(event, *, agent: str | None = "copilot", extra_env: dict | None = None):
        raw = event if isinstance(event, bytes) else json.dumps(event).encode()
        before = audit_log.read_text().count("\n") if audit_log.exists() else 0
        proc = subprocess.run([sys.executable, "-P", "-c", LAUNCHER, *(["--agent", agent] if agent else [])],
                              input=raw, capture_output=True, env={**env, **(extra_env or {})},
                              cwd=str(project), timeout=60)
        rows = audit_log.read_text().splitlines()[before:] if audit_log.exists() else []
        out = proc.stdout.decode()
        body = json.loads(out) if out.strip() else None
        if body is not None:  # what Copilot reads: one JSON object with these two fields
            assert out.count("\n") == 1 and set(body) == {"permissionDecision", "permissionDecisionReason"}, out
            assert body["permissionDecision"] in ("deny", "ask"), out
            assert body["permissionDecisionReason"].startswith("phlegyas: "), out
        return proc.returncode, body, proc.stderr.decode(), [json.loads(r) for r in rows]

    run.project = str(project)
    run.home = str(home)
    return run


def event(tool: str, args, cwd: str) -> dict:
    return {"sessionId": SESSION, "timestamp": 1796181279985, "cwd": cwd, "toolName": tool, "toolArgs": args}


def bash(command: str, cwd: str) -> dict:
    return event("bash", {"command": command, "description": "Run it"}, cwd)


# -- decisions -------------------------------------------------------------------------------------

def test_deny_is_copilots_deny_with_the_reason(hook):
    code, body, _, rows = hook(bash("rm -rf /", hook.project))
    assert code == 0 and body["permissionDecision"] == "deny"
    assert "delete.catastrophic" in body["permissionDecisionReason"]
    (row,) = rows
    assert row["decision"] == "deny" and row["host"] == "copilot" and row["hook_event"] == "preToolUse"
    assert row["tool_name"] == "Bash" and row["session_id"] == SESSION and row["cwd"] == hook.project


def test_tool_args_as_a_json_string_is_read_the_same(hook):
    code, body, _, rows = hook(event("bash", json.dumps({"command": "rm -rf /"}), hook.project))
    assert code == 0 and body["permissionDecision"] == "deny"
    assert rows[0]["input"] == {"command": "rm -rf /"}


@pytest.mark.parametrize("command", ["ls", "git status"])
def test_allow_prints_nothing_so_copilots_own_rules_still_apply(hook, command):
    # 1.0.102 runs a hook-allowed call even against the user's --deny-tool rule: phlegyas never says allow
    code, body, stderr, rows = hook(bash(command, hook.project))
    assert (code, body, stderr) == (0, None, "")
    assert rows[0]["decision"] == "allow" and rows[0]["host"] == "copilot"


def test_a_real_ask_is_copilots_ask(hook):
    code, body, _, rows = hook(bash("npm publish", hook.project))
    assert code == 0 and body["permissionDecision"] == "ask"
    assert rows[0]["decision"] == "ask" and rows[0]["tier"] != "fallback"


def test_undecided_prints_nothing_unless_asked_to_ask(hook):
    unknown = event("frobnicate", {"x": 1}, hook.project)
    code, body, _, rows = hook(unknown)
    assert (code, body) == (0, None)
    assert rows[0]["tier"] == "fallback" and rows[0]["tool_name"] == "frobnicate"
    code, body, _, _ = hook(unknown, extra_env={"PHLEGYAS_HOOK_UNDECIDED": "ask"})
    assert code == 0 and body["permissionDecision"] == "ask"


# -- Copilot's file tools in the gate's vocabulary ---------------------------------------------------

def test_file_tools_map_to_the_gates_tools(hook):
    notes = os.path.join(hook.project, "notes.txt")
    cases = [
        (event("view", {"path": notes}, hook.project), "Read", {"file_path": notes}),
        (event("create", {"path": os.path.join(hook.project, "new.txt"), "file_text": "hi"}, hook.project),
         "Write", {"file_path": os.path.join(hook.project, "new.txt"), "content": "hi"}),
        (event("edit", {"path": notes, "old_str": "hello", "new_str": "bye"}, hook.project),
         "Edit", {"file_path": notes, "old_string": "hello", "new_string": "bye"}),
        (event("glob", {"pattern": "*.txt"}, hook.project), "Glob", {"pattern": "*.txt"}),
        (event("grep", {"pattern": "m", "paths": [hook.project]}, hook.project), "Grep",
         {"pattern": "m", "path": hook.project}),
        (event("web_fetch", {"url": "https://docs.python.org/3/"}, hook.project), "WebFetch",
         {"url": "https://docs.python.org/3/"}),
        # over several directories Grep would say less than Copilot's grep: the name is kept
        (event("grep", {"pattern": "m", "paths": ["/etc", "/srv"]}, hook.project), "grep",
         {"pattern": "m", "paths": ["/etc", "/srv"]}),
    ]
    for data, tool, tool_input in cases:
        code, _, _, rows = hook(data)
        assert code == 0 and (rows[0]["tool_name"], rows[0]["input"]) == (tool, tool_input), rows


def test_a_write_to_a_protected_path_asks(hook):
    code, body, _, _ = hook(event("create", {"path": os.path.join(hook.home, ".bashrc"), "file_text": "x"},
                                  hook.project))
    assert code == 0 and body["permissionDecision"] == "ask"
    assert "persistence.shell_rc" in body["permissionDecisionReason"]


# -- input that cannot be decided: Copilot's deny and exit 2 (Copilot fails OPEN on non-JSON output) ----

@pytest.mark.parametrize("raw, says", [
    (b"not json", "not valid JSON"),
    (b"", "empty input"),
    (b"[1, 2]", "expected a JSON object"),
    (json.dumps(event("bash", "not json {", "/tmp")).encode(), "'toolArgs' is a string that is not JSON"),
    (json.dumps(event("bash", "[1]", "/tmp")).encode(), "'toolArgs' must be an object"),
    (json.dumps(event("bash", 7, "/tmp")).encode(), "'toolArgs' must be an object"),
    (json.dumps(event(["bash"], {"command": "ls"}, "/tmp")).encode(), "non-empty string"),
    (json.dumps(event("bash", {"command": ["ls"]}, "/tmp")).encode(), "Bash needs a string 'command'"),
    (json.dumps(event("bash", {"command": "ls"}, "relative/dir")).encode(), "absolute path"),
    (json.dumps({"sessionId": SESSION, "toolName": "bash"}).encode(), "missing 'toolArgs'"),
])
def test_malformed_input_is_blocked_in_copilots_terms(hook, raw, says):
    code, body, stderr, _ = hook(raw)
    assert code == 2 and body["permissionDecision"] == "deny", (code, body, stderr)
    assert says in body["permissionDecisionReason"], body


def test_a_huge_event_is_blocked(hook):
    big = json.dumps(bash("echo " + "a" * (17 * 1024 * 1024), "/tmp")).encode()
    code, body, _, _ = hook(big)
    assert code == 2 and body["permissionDecision"] == "deny"
    assert "larger than 16 MiB" in body["permissionDecisionReason"]


# -- detection without --agent ------------------------------------------------------------------------

def test_copilots_events_are_recognised_without_agent(hook):
    code, body, _, rows = hook(bash("rm -rf /", hook.project), agent=None)
    assert code == 0 and body["permissionDecision"] == "deny"
    assert rows[0]["host"] == "copilot"


def test_recognizes_only_copilots_shape():
    assert copilot.recognizes(bash("ls", "/tmp"))
    assert registry.recognize(bash("ls", "/tmp")) is copilot
    others = [
        {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}},
        {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": "ls"}},
        {"hook_event_name": "beforeShellExecution", "command": "ls", "cwd": "/tmp"},
        {"hook_event_name": "tool.execute.before", "tool": "bash", "args": {"command": "ls"}},
        {"toolName": "bash", "toolArgs": {}, "hook_event_name": "PreToolUse"},
    ]
    for data in others:
        assert not copilot.recognizes(data), data
    assert registry.recognize(others[0]) is claude


# -- install ---------------------------------------------------------------------------------------

def _write(changes) -> None:
    for change in changes:
        if change.changed:
            apply(change, datetime(2026, 12, 1, 12, 0, 0))


def _entries(path: str) -> list:
    with open(path) as fh:
        return json.load(fh)["hooks"]["preToolUse"]


def test_install_user_writes_copilots_hooks_file(tmp_path):
    environ = {"HOME": str(tmp_path)}
    changes = install.install_changes(user=True, project=str(tmp_path), environ=environ, python=sys.executable,
                                      timeout=45)
    path = str(tmp_path / ".copilot" / "hooks" / "phlegyas.json")
    assert [c.path for c in changes] == [path]
    _write(changes)
    with open(path) as fh:
        doc = json.load(fh)
    assert doc == {"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": hook_command(sys.executable, "copilot"), "timeoutSec": 45}]}}
    assert install.wired(user=True, project=str(tmp_path), environ=environ) == path
    again = install.install_changes(user=True, project=str(tmp_path), environ=environ, python=sys.executable,
                                    timeout=45)
    assert not any(c.changed for c in again)


def test_install_honours_copilot_home_and_the_project_scope(tmp_path):
    copilot_home = tmp_path / "ch"
    (changes,) = install.install_changes(user=True, project=str(tmp_path), python=sys.executable, timeout=30,
                                         environ={"HOME": str(tmp_path), "COPILOT_HOME": str(copilot_home)})
    assert changes.path == str(copilot_home / "hooks" / "phlegyas.json")
    (changes,) = install.install_changes(user=False, project=str(tmp_path), environ={}, python=sys.executable,
                                         timeout=30)
    assert changes.path == str(tmp_path / ".github" / "hooks" / "phlegyas.json")
    steps = install.next_steps(user=False, project=str(tmp_path), environ={})
    assert any("--trust-folder" in s for s in steps) and any("3345" in s for s in steps)


def test_install_merges_and_uninstall_removes_only_phlegyas(tmp_path):
    path = tmp_path / ".github" / "hooks" / "phlegyas.json"
    path.parent.mkdir(parents=True)
    theirs = {"type": "command", "bash": "./audit.sh", "timeoutSec": 5}
    old = {"type": "command", "bash": "/old/python -P -m phlegyas.hosts.claude_code.hook", "timeoutSec": 9}
    path.write_text(json.dumps({"version": 1, "hooks": {"preToolUse": [theirs, old, dict(old)],
                                                        "sessionStart": [{"type": "command", "bash": "./hi"}]}}))
    project = str(tmp_path)
    _write(install.install_changes(user=False, project=project, environ={}, python=sys.executable, timeout=30))
    ours = {"type": "command", "bash": hook_command(sys.executable, "copilot"), "timeoutSec": 30}
    assert _entries(str(path)) == [theirs, ours]  # updated in place, the duplicate dropped
    assert json.loads(path.read_text())["hooks"]["sessionStart"] == [{"type": "command", "bash": "./hi"}]
    assert list(tmp_path.glob(".github/hooks/phlegyas.json.phlegyas-backup-*"))
    _write(install.uninstall_changes(user=False, project=project, environ={}))
    assert _entries(str(path)) == [theirs]
    assert install.wired(user=False, project=project, environ={}) is None
    assert not any(c.changed for c in install.uninstall_changes(user=False, project=project, environ={}))


def test_uninstall_removes_a_file_left_with_nothing(tmp_path):
    environ = {"HOME": str(tmp_path)}
    _write(install.install_changes(user=True, project=str(tmp_path), environ=environ, python=sys.executable,
                                   timeout=30))
    (change,) = install.uninstall_changes(user=True, project=str(tmp_path), environ=environ)
    assert change.removes_file
    _write([change])
    assert not (tmp_path / ".copilot" / "hooks" / "phlegyas.json").exists()


@pytest.mark.parametrize("text, where", [
    ('{"version": 1,\n "hooks": {\n', ":3:"),
    ('{"version": 1,\n "hooks": {\n  "preToolUse": {"bash": "x"}}}\n', ":3:"),
    ('{"version": 1,\n "hooks": {\n  "preToolUse": [\n   "not an object"]}}\n', ":4:"),
])
def test_a_malformed_file_is_reported_and_nothing_written(tmp_path, text, where):
    path = tmp_path / ".github" / "hooks" / "phlegyas.json"
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(InstallError) as caught:
        install.install_changes(user=False, project=str(tmp_path), environ={}, python=sys.executable, timeout=30)
    assert str(path) + where in str(caught.value), caught.value
    assert path.read_text() == text
    assert install.wired(user=False, project=str(tmp_path), environ={}) is None
