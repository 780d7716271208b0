"""Codex's hook dialect through the real hook process, and ``phlegyas install --agent codex``'s files.

The events are the shape Codex 0.171.0 sent a logging hook (captured offline with the real binary, as in
tests/test_e2e_codex.py): Claude Code's PreToolUse plus ``turn_id`` and ``model``, ``tool_name: "Bash"``
and ``tool_input: {"command": …}``. The answers are checked against Codex's own output schema (it is in
the binary: ``additionalProperties: false`` at each level) and against what the binary was seen to obey:
PreToolUse ``permissionDecision: "deny"`` with a non-empty reason blocks, ``"allow"`` and ``"ask"`` are
rejected as unsupported (the hook "fails" and the call runs), so phlegyas never sends them.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime

import pytest

from phlegyas.hosts.codex import install
from phlegyas.hosts.config_files import InstallError, apply
from phlegyas.hosts.hook.command import hook_command
from phlegyas.hosts.hook.dialects import claude, codex

LAUNCHER = "from phlegyas.hosts.hook.client import main; raise SystemExit(main())"
SESSION = "01a234c0-008d-74f1-a69c-4df548372210"
TOP_KEYS = {"continue", "decision", "hookSpecificOutput", "reason", "stopReason", "suppressOutput",
            "systemMessage"}
"""The keys Codex 0.171.0's pre-tool-use / permission-request output schemas allow at the top."""
PRE_KEYS = {"additionalContext", "hookEventName", "permissionDecision", "permissionDecisionReason",
            "updatedInput"}
DECISION_KEYS = {"behavior", "message"}
"""Of PermissionRequest's decision keys, the ones that do not make Codex fail closed."""


def event(command, *, name="PreToolUse", tool="Bash", cwd=None, **extra) -> dict:
    """An event as Codex 0.171.0 sends it (PermissionRequest has no tool_use_id, and a description)."""
    data = {"session_id": SESSION, "turn_id": "01a234c0-00be-7bf0-83b7-760875200c9b",
            "transcript_path": f"/home/u/.codex/sessions/2026/12/02/rollout-{SESSION}.jsonl",
            "cwd": cwd or "/tmp", "hook_event_name": name, "model": "gpt-5.5",
            "permission_mode": "default", "tool_name": tool,
            "tool_input": command if isinstance(command, dict) else {"command": command}}
    if name == "PreToolUse":
        data["tool_use_id"] = "call_1"
    elif isinstance(data["tool_input"], dict):  # the model's justification for the approval, as 0.171.0 sends it
        data["tool_input"] = {**data["tool_input"], "description": "needs it"}
    return {**data, **extra}


@pytest.fixture
def hook(tmp_path):
    """Run the hook process on one event: (exit code, stdout's JSON or None, stderr, new audit rows)."""
    home = tmp_path / "home"
    data_dir = home / ".phlegyas"
    data_dir.mkdir(parents=True)
    (data_dir / "policy.toml").write_text('[classes]\n"publish.package" = "ask"\n')
    project = tmp_path / "project"
    project.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PHLEGYAS_", "CODEX_", "ANTHROPIC_", "OPENAI_", "CLAUDE_"))
           and k not in ("AUDIT_LOG_FILE", "ENABLE_AUDIT_LOG", "APPROVAL_WAIT_SECONDS")}
    env.update(HOME=str(home), PHLEGYAS_HOME=str(data_dir), PHLEGYAS_HOOK_SERVER="off")
    audit_log = data_dir / "audit.jsonl"

    def run(data, *, agent: str | None = "codex", extra_env: dict | None = None):
        raw = data if isinstance(data, bytes) else json.dumps(data).encode()
        before = audit_log.read_text().count("\n") if audit_log.exists() else 0
        proc = subprocess.run([sys.executable, "-P", "-c", LAUNCHER, *(["--agent", agent] if agent else [])],
                              input=raw, capture_output=True, env={**env, **(extra_env or {})},
                              cwd=str(project), timeout=60)
        rows = audit_log.read_text().splitlines()[before:] if audit_log.exists() else []
        out = proc.stdout.decode()
        body = json.loads(out) if out.strip() else None
        if body is not None:
            assert out.count("\n") == 1 and set(body) <= TOP_KEYS, out
        return proc.returncode, body, proc.stderr.decode(), [json.loads(r) for r in rows]

    run.project = str(project)
    return run


def pre_denial(body: dict) -> str:
    """The reason of a PreToolUse deny as Codex reads it, after checking every field is one it accepts."""
    out = body["hookSpecificOutput"]
    assert set(out) <= PRE_KEYS and out["hookEventName"] == "PreToolUse", body
    assert out["permissionDecision"] == "deny", body  # the only value Codex 0.171.0 supports
    assert out["permissionDecisionReason"].startswith("phlegyas: "), body  # empty = the hook failed
    return out["permissionDecisionReason"]


def permission_decision(body: dict) -> dict:
    out = body["hookSpecificOutput"]
    assert set(out) == {"hookEventName", "decision"} and out["hookEventName"] == "PermissionRequest", body
    assert set(out["decision"]) <= DECISION_KEYS and out["decision"]["behavior"] in ("allow", "deny"), body
    return out["decision"]


# -- PreToolUse --------------------------------------------------------------------------------------

def test_a_dangerous_command_is_denied_and_audited_as_codex(hook):
    code, body, _, rows = hook(event("rm -rf /", cwd=hook.project))
    assert code == 0
    assert "phlegyas" in pre_denial(body)
    assert [r["decision"] for r in rows] == ["deny"] and rows[0]["host"] == "codex"
    assert rows[0]["input"]["command"] == "rm -rf /"


@pytest.mark.parametrize("command", ["ls", "git status"])
def test_allow_is_no_output_since_codex_rejects_allow(hook, command):
    code, body, _, rows = hook(event(command, cwd=hook.project))
    assert (code, body) == (0, None)
    assert [r["decision"] for r in rows] == ["allow"] and rows[0]["host"] == "codex"


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "plan", "bypassPermissions"])
def test_an_ask_is_a_deny_since_a_hook_cannot_make_codex_ask(hook, mode):
    """Codex 0.171.0 rejects ``"ask"``, and does not ask on its own about what phlegyas asks about: a real
    ask (an ask class of the user's policy) is denied, with the reason and what to do."""
    code, body, _, rows = hook(event("npm publish", cwd=hook.project, permission_mode=mode))
    reason = pre_denial(body)
    assert code == 0 and "publish" in reason and "cannot make Codex ask" in reason
    assert [r["decision"] for r in rows] == ["ask"] and rows[0]["tier"] != "fallback"


def test_undecided_is_no_output_unless_undecided_should_ask(hook):
    """Undecided goes on to Codex's own flow (whose approval prompt runs the PermissionRequest hook);
    with ``PHLEGYAS_HOOK_UNDECIDED=ask`` it is an ask, so a deny."""
    unknown = event({"query": "x"}, tool="SomeNewTool", cwd=hook.project)
    code, body, _, rows = hook(unknown)
    assert (code, body) == (0, None)
    assert [(r["decision"], r["tier"]) for r in rows] == [("ask", "fallback")]
    assert rows[0]["tool_name"] == "SomeNewTool"  # an unknown tool keeps its name
    code, body, _, rows = hook(unknown, extra_env={"PHLEGYAS_HOOK_UNDECIDED": "ask"})
    assert code == 0 and "cannot make Codex ask" in pre_denial(body)
    code, body, _, rows = hook({**unknown, "permission_mode": "dontAsk"})  # the gate denies it itself
    assert code == 0 and "dontAsk" in pre_denial(body)


@pytest.mark.parametrize("tool,tool_input", [
    ("shell", {"command": ["bash", "-lc", "rm -rf /"]}),
    ("shell", {"command": ["/bin/sh", "-c", "rm -rf / && true"], "workdir": "/tmp"}),
    ("exec_command", {"cmd": "rm -rf /"}),
    ("local_shell", {"command": ["rm", "-rf", "/"]}),
])
def test_older_shell_tools_are_bash_with_the_command_the_shell_runs(hook, tool, tool_input):
    code, body, _, rows = hook(event(tool_input, tool=tool, cwd=hook.project))
    assert code == 0 and pre_denial(body)
    assert rows[0]["tool_name"] == "Bash" and rows[0]["input"]["command"].startswith("rm -rf /")


def test_an_argv_list_is_the_command_string():
    assert codex.shell_command(["bash", "-lc", "ls -la | wc -l"]) == "ls -la | wc -l"
    assert codex.shell_command(["/usr/bin/zsh", "-c", "echo hi"]) == "echo hi"
    assert codex.shell_command(["rm", "-rf", "my dir"]) == "rm -rf 'my dir'"
    assert codex.shell_command(["bash", "-lc", "x", "extra"]) == "bash -lc x extra"


def test_a_safe_looking_shell_list_is_still_read_whole(hook):
    """``["bash", "-lc", …]`` is read as the string bash runs, not as ``bash`` alone."""
    code, body, _, rows = hook(event({"command": ["bash", "-lc", "ls; rm -rf /"]}, tool="shell",
                                     cwd=hook.project))
    assert code == 0 and pre_denial(body) and rows[0]["input"]["command"] == "ls; rm -rf /"


# -- PermissionRequest ---------------------------------------------------------------------------

def test_permission_request_allow_has_no_updated_input(hook):
    code, body, _, rows = hook(event("ls", name="PermissionRequest", cwd=hook.project))
    assert code == 0 and permission_decision(body) == {"behavior": "allow"}
    assert rows[0]["decision"] == "allow" and rows[0]["host"] == "codex"


def test_permission_request_deny_has_the_reason(hook):
    code, body, _, rows = hook(event("rm -rf /", name="PermissionRequest", cwd=hook.project))
    decision = permission_decision(body)
    assert code == 0 and decision["behavior"] == "deny" and decision["message"].startswith("phlegyas: ")


def test_permission_request_that_cannot_be_read_is_denied(hook):
    code, body, stderr, _ = hook(event("ls", name="PermissionRequest", tool_input="ls"))
    decision = permission_decision(body)
    assert code == 0 and decision["behavior"] == "deny" and "tool" in decision["message"]


# -- input that cannot be decided: exit 2 with the reason (exit 1 or bad JSON would let the call run) --

@pytest.mark.parametrize("raw", [b"not json", b"[1, 2]", b"", "\u00e9".encode("latin-1")])
def test_unreadable_input_blocks(hook, raw):
    code, body, stderr, _ = hook(raw)
    assert code == 2 and body is None and stderr.startswith("phlegyas: ")


@pytest.mark.parametrize("changes", [
    {"tool_input": "rm -rf /"},
    {"tool_input": {"command": 42}},
    {"tool_input": {"command": ["bash", "-lc", 7]}},
    {"tool_input": {"command": []}},
    {"tool_name": 5},
    {"cwd": "relative/dir"},
    {"hook_event_name": "PostToolUse"},
])
def test_wrong_types_block(hook, changes):
    code, body, stderr, _ = hook({**event("ls"), **changes})
    assert code == 2 and body is None and stderr.startswith("phlegyas: "), (changes, stderr)


def test_a_relative_workdir_blocks(hook):
    code, _, stderr, _ = hook(event({"command": ["bash", "-lc", "ls"], "workdir": "x"}, tool="shell"))
    assert code == 2 and "workdir" in stderr


def test_a_huge_event_blocks(hook):
    code, body, stderr, _ = hook(json.dumps(event("ls " + "a" * (17 * 1024 * 1024))).encode())
    assert code == 2 and body is None and "MiB" in stderr


# -- detection without --agent ----------------------------------------------------------------------

def test_codex_events_are_recognised_by_their_turn_id(hook):
    code, body, _, rows = hook(event("rm -rf /", cwd=hook.project), agent=None)
    assert code == 0 and pre_denial(body) and rows[0]["host"] == "codex"
    code, body, _, rows = hook(event("ls", name="PermissionRequest", cwd=hook.project), agent=None)
    assert permission_decision(body) == {"behavior": "allow"} and rows[0]["host"] == "codex"


def test_each_dialect_claims_only_its_own_events():
    ours = event("ls")
    claude_event = {k: v for k, v in ours.items() if k not in ("turn_id", "model")}
    assert codex.recognizes(ours) and not claude.recognizes(ours)
    assert claude.recognizes(claude_event) and not codex.recognizes(claude_event)
    for other in ({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {}},
                  {"toolName": "bash", "toolArgs": {"command": "ls"}, "sessionId": "s"},
                  {"hook_event_name": "tool.execute.before", "tool": "bash", "args": {}, "turn_id": "t"}):
        assert not codex.recognizes(other)


# -- install / uninstall ---------------------------------------------------------------------------

PY = "/opt/venv/bin/python"


def write_all(changes) -> None:
    for change in changes:
        if change.changed:
            apply(change, datetime(2026, 12, 2, 3, 0, 0))


def test_user_install_writes_codex_home_hooks_json(tmp_path):
    environ = {"HOME": str(tmp_path / "home"), "CODEX_HOME": str(tmp_path / "ch")}
    changes = install.install_changes(user=True, project=str(tmp_path), environ=environ, python=PY, timeout=330)
    assert [c.path for c in changes] == [str(tmp_path / "ch" / "hooks.json")]
    write_all(changes)
    doc = json.loads((tmp_path / "ch" / "hooks.json").read_text())
    command = hook_command(PY, "codex")
    assert doc == {"hooks": {
        "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": command, "timeout": 30}]}],
        "PermissionRequest": [{"matcher": "*", "hooks": [{"type": "command", "command": command,
                                                          "timeout": 330}]}]}}
    assert install.wired(user=True, project=str(tmp_path), environ=environ) == str(tmp_path / "ch" / "hooks.json")
    assert install.wired(user=False, project=str(tmp_path), environ=environ) is None


def test_user_scope_without_codex_home_is_under_home(tmp_path):
    environ = {"HOME": str(tmp_path)}
    changes = install.install_changes(user=True, project="/nonexistent", environ=environ, python=PY, timeout=30)
    assert changes[0].path == str(tmp_path / ".codex" / "hooks.json")
    with pytest.raises(InstallError):
        install.install_changes(user=True, project="/", environ={"HOME": ""}, python=PY, timeout=30)


def test_project_install_merges_is_idempotent_and_uninstall_removes_only_phlegyas(tmp_path):
    path = tmp_path / ".codex" / "hooks.json"
    path.parent.mkdir()
    theirs = {"type": "command", "command": "/usr/local/bin/audit-tool", "timeout": 5}
    old = {"type": "command", "command": "phlegyas-hook", "timeout": 9}
    original = {"note": "kept", "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [theirs]}, {"matcher": "*", "hooks": [old]}],
        "Stop": [{"hooks": [theirs]}]}}
    path.write_text(json.dumps(original))
    args = dict(user=False, project=str(tmp_path), environ={"HOME": "/nowhere"})
    write_all(install.install_changes(**args, python=PY, timeout=60))
    doc = json.loads(path.read_text())
    pre = doc["hooks"]["PreToolUse"]
    assert pre[0] == {"matcher": "Bash", "hooks": [theirs]}
    assert pre[1]["hooks"] == [install.hook_entry(hook_command(PY, "codex"), 30)]  # updated in place
    assert doc["note"] == "kept" and doc["hooks"]["Stop"] == original["hooks"]["Stop"]
    assert doc["hooks"]["PermissionRequest"][0]["hooks"][0]["timeout"] == 60
    again = install.install_changes(**args, python=PY, timeout=60)
    assert not any(c.changed for c in again)  # a second run changes nothing
    assert install.wired(**args) == str(path)
    assert any("trust" in step for step in install.next_steps(**args))
    assert any(str(path) in step for step in install.next_steps(**args))
    write_all(install.uninstall_changes(**args))
    assert json.loads(path.read_text()) == {"note": "kept", "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [theirs]}], "Stop": [{"hooks": [theirs]}]}}
    assert install.wired(**args) is None


def test_uninstall_of_a_phlegyas_only_file_removes_it(tmp_path):
    args = dict(user=False, project=str(tmp_path), environ={})
    (tmp_path / ".codex").mkdir()
    write_all(install.install_changes(**args, python=PY, timeout=30))
    changes = install.uninstall_changes(**args)
    assert changes[0].removes_file
    write_all(changes)
    assert not (tmp_path / ".codex" / "hooks.json").exists()


@pytest.mark.parametrize("text,line", [('{\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}\n', 3),
                                       ('{\n  "hooks": {\n    "PreToolUse": {"x": 1}\n  }\n}\n', 3)])
def test_a_malformed_file_is_reported_with_its_line_and_nothing_is_written(tmp_path, text, line):
    path = tmp_path / ".codex" / "hooks.json"
    path.parent.mkdir()
    path.write_text(text)
    with pytest.raises(InstallError) as info:
        install.install_changes(user=False, project=str(tmp_path), environ={}, python=PY, timeout=30)
    assert str(info.value).startswith(f"{path}:{line}")
    assert path.read_text() == text and os.listdir(path.parent) == ["hooks.json"]
    assert install.wired(user=False, project=str(tmp_path), environ={}) is None


def test_user_install_says_how_to_trust_the_hooks(tmp_path):
    steps = install.next_steps(user=True, project=str(tmp_path), environ={"HOME": str(tmp_path)})
    assert len(steps) == 1 and "Trust all and continue" in steps[0] and "/hooks" in steps[0]
