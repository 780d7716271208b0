"""Gemini CLI's hook dialect through the real hook process, and ``phlegyas install --agent gemini``'s files.

The events are the shapes Gemini CLI 0.61.0 sent a logging hook (captured offline with the real binary
and tests/gemini_fake_api.py): ``{session_id, transcript_path, cwd, hook_event_name: "BeforeTool",
timestamp, tool_name, tool_input}`` for ``run_shell_command`` (with ``dir_path``, and the older
``directory``), ``write_file``, ``replace``, ``read_file``, ``web_fetch`` (a ``prompt`` holding the URLs),
``glob``, ``grep_search``, ``list_directory``. The answers are checked against what 0.61.0 reads (see the
dialect's docstring): one JSON object ``{"decision": "deny"|"allow", "reason": …}``, or nothing at all;
exit 2 with the deny for input that cannot be decided. The gate's asks are denies saying a person was
wanted: 0.61.0's ``"ask"`` ran the call under ``--yolo`` and hung ``gemini -p``.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime

import pytest

from phlegyas.hosts.config_files import InstallError, apply
from phlegyas.hosts.gemini import install
from phlegyas.hosts.hook.command import hook_command
from phlegyas.hosts.hook.dialects import claude, gemini, registry

LAUNCHER = "from phlegyas.hosts.hook.client import main; raise SystemExit(main())"
SESSION = "b3501447-47e0-45f3-9894-b9f10bfe3064"
ANSWER_KEYS = {"decision", "reason", "systemMessage"}


@pytest.fixture
def hook(tmp_path):
    """Run the hook process on one event; returns (exit code, stdout's JSON or None, stderr, new audit rows)."""
    home = tmp_path / "home"
    data_dir = home / ".claude" / "phlegyas"
    data_dir.mkdir(parents=True)
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "notes.txt").write_text("hello\n")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PHLEGYAS_", "GEMINI_", "GOOGLE_", "ANTHROPIC_", "OPENAI_", "CLAUDE_"))
           and k not in ("AUDIT_LOG_FILE", "ENABLE_AUDIT_LOG", "APPROVAL_WAIT_SECONDS")}
    env.update(HOME=str(home), PHLEGYAS_HOME=str(data_dir), PHLEGYAS_HOOK_SERVER="off")
    audit_log = data_dir / "audit.jsonl"

    def run(event, *, agent: str | None = "gemini", extra_env: dict | None = None):
        raw = event if isinstance(event, bytes) else json.dumps(event).encode()
        before = audit_log.read_text().count("\n") if audit_log.exists() else 0
        proc = subprocess.run([sys.executable, "-P", "-c", LAUNCHER, *(["--agent", agent] if agent else [])],
                              input=raw, capture_output=True, env={**env, **(extra_env or {})},
                              cwd=str(project), timeout=60)
        rows = audit_log.read_text().splitlines()[before:] if audit_log.exists() else []
        out = proc.stdout.decode()
        body = json.loads(out) if out.strip() else None
        if body is not None:  # what Gemini reads: one JSON object; a decision always with its reason
            assert out.count("\n") == 1 and set(body) <= ANSWER_KEYS, out
            if "decision" in body:
                assert body["decision"] in ("deny", "allow"), out
                assert body["reason"].startswith("phlegyas: "), out
        return proc.returncode, body, proc.stderr.decode(), [json.loads(r) for r in rows]

    run.project = str(project)
    run.home = str(home)
    run.tmp = str(tmp_path)
    return run


def event(tool: str, tool_input, cwd: str, **extra) -> dict:
    return {"session_id": SESSION, "transcript_path": f"/tmp/home/.gemini/tmp/project/chats/session-{SESSION}.jsonl",
            "cwd": cwd, "hook_event_name": "BeforeTool", "timestamp": "2026-12-02T03:25:18.668Z",
            "tool_name": tool, "tool_input": tool_input, **extra}


def shell(command: str, cwd: str, **tool_input) -> dict:
    return event("run_shell_command", {"command": command, "description": "Run it", **tool_input}, cwd)


# -- decisions -------------------------------------------------------------------------------------

def test_deny_is_geminis_deny_with_the_reason(hook):
    code, body, _, rows = hook(shell("rm -rf /", hook.project))
    assert code == 0 and body["decision"] == "deny" and "systemMessage" not in body
    assert "delete.catastrophic" in body["reason"]
    (row,) = rows
    assert row["decision"] == "deny" and row["host"] == "gemini" and row["hook_event"] == "BeforeTool"
    assert row["tool_name"] == "Bash" and row["input"]["command"] == "rm -rf /"
    assert row["session_id"] == SESSION and row["cwd"] == hook.project


@pytest.mark.parametrize("command", ["ls", "git status"])
def test_safe_commands_are_allowed(hook, command):
    code, body, _, rows = hook(shell(command, hook.project))
    assert code == 0 and body["decision"] == "allow"
    assert rows[0]["decision"] == "allow" and rows[0]["host"] == "gemini"


def asked(body: dict) -> bool:
    """A gate's ask as Gemini gets it: a deny that says a person was wanted."""
    return body["decision"] == "deny" and body["reason"].endswith(gemini.ASKED) and "person" in gemini.ASKED


def test_a_real_ask_is_a_deny_saying_a_person_was_wanted(hook):
    victim = os.path.join(hook.tmp, "outside", "precious")
    code, body, _, rows = hook(shell(f"rm -rf {victim}", hook.project))
    assert code == 0 and asked(body) and "delete.temp_dir" in body["reason"]
    assert rows[0]["decision"] == "ask" and rows[0]["tier"] != "fallback"
    code, body, _, _ = hook(shell("rm -rf /", hook.project))
    assert body["decision"] == "deny" and not body["reason"].endswith(gemini.ASKED)


def test_undecided_prints_nothing_unless_configured_to_ask(hook):
    code, body, err, rows = hook(event("frobnicate", {"x": 1}, hook.project))
    assert (code, body) == (0, None) and err == ""
    assert rows[0]["tool_name"] == "frobnicate" and rows[0]["tier"] == "fallback"
    code, body, _, _ = hook(event("frobnicate", {"x": 1}, hook.project),
                            extra_env={"PHLEGYAS_HOOK_UNDECIDED": "ask"})
    assert code == 0 and asked(body)


def test_detected_without_agent(hook):
    code, body, _, rows = hook(shell("rm -rf /", hook.project), agent=None)
    assert code == 0 and body["decision"] == "deny"
    assert rows[0]["host"] == "gemini"


def test_recognizes_only_geminis_shape():
    ours = shell("ls", "/p")
    assert gemini.recognizes(ours) and registry.recognize(ours) is gemini
    claude_event = {"session_id": "s", "transcript_path": "/t", "cwd": "/p", "hook_event_name": "PreToolUse",
                    "tool_name": "Bash", "tool_input": {"command": "ls"}}
    assert not gemini.recognizes(claude_event) and registry.recognize(claude_event) is claude
    assert not gemini.recognizes({"hook_event_name": "beforeShellExecution", "command": "ls", "cwd": "/p"})
    assert not gemini.recognizes({"hook_event_name": "tool.execute.before", "tool": "bash", "args": {}})
    assert not gemini.recognizes({"toolName": "bash", "toolArgs": {}})


# -- tools mapped to the gate's vocabulary ---------------------------------------------------------

def test_relative_file_paths_are_judged_where_gemini_resolves_them(hook):
    for tool, tool_input, gate_tool in [
        ("write_file", {"file_path": "new.txt", "content": "hi\n"}, "Write"),
        ("replace", {"file_path": "notes.txt", "old_string": "hello", "new_string": "bye",
                     "instruction": "change it"}, "Edit"),
        ("read_file", {"file_path": "sub/../notes.txt"}, "Read"),
    ]:
        code, _, _, rows = hook(event(tool, tool_input, hook.project))
        assert code == 0 and rows[0]["tool_name"] == gate_tool, rows
        name = "new.txt" if tool == "write_file" else "notes.txt"
        assert rows[0]["input"]["file_path"] == os.path.join(hook.project, name)
    _, _, _, rows = hook(event("replace", {"file_path": "notes.txt", "old_string": "a", "new_string": "b",
                                           "allow_multiple": True}, hook.project))
    assert rows[0]["input"]["replace_all"] is True


def test_reading_a_private_key_asks(hook):
    code, body, _, rows = hook(event("read_file", {"absolute_path": os.path.join(hook.home, ".ssh", "id_rsa")},
                                     hook.project))
    assert code == 0 and asked(body) and "sensitive.read" in body["reason"]
    assert rows[0]["tool_name"] == "Read"


def test_search_tools_default_to_the_cwd(hook):
    for tool, tool_input, gate_tool in [("glob", {"pattern": "**/*.txt"}, "Glob"),
                                        ("grep_search", {"pattern": "hello", "dir_path": "."}, "Grep"),
                                        ("search_file_content", {"pattern": "hello"}, "Grep"),
                                        ("list_directory", {"dir_path": "sub"}, "LS")]:
        code, _, _, rows = hook(event(tool, tool_input, hook.project))
        expected = os.path.join(hook.project, "sub") if tool == "list_directory" else hook.project
        assert code == 0 and rows[0]["tool_name"] == gate_tool and rows[0]["input"]["path"] == expected, rows
    _, _, _, rows = hook(event("grep_search", {"pattern": "x", "include_pattern": "*.py"}, hook.project))
    assert rows[0]["input"]["glob"] == "*.py"


def test_dir_path_is_where_the_command_runs(hook):
    _, _, _, rows = hook(shell("ls", hook.project, dir_path="sub"))
    assert rows[0]["cwd"] == os.path.join(hook.project, "sub")
    # `rm -rf ..` run in sub deletes the project itself (from the project it would delete its parent)
    code, body, _, rows = hook(shell("rm -rf ..", hook.project, dir_path=os.path.join(hook.project, "sub")))
    assert rows[0]["cwd"] == os.path.join(hook.project, "sub")
    assert body["decision"] == "deny" and f"rm deletes {hook.project} recursively" in body["reason"]


def test_a_directory_other_than_where_it_runs_is_refused(hook):
    code, body, _, rows = hook(shell("pwd", hook.project, directory="sub"))
    assert code == 2 and body["decision"] == "deny" and "directory" in body["reason"]
    assert rows[0]["decision"] == "deny"
    code, body, _, _ = hook(shell("pwd", hook.project, directory=hook.project))
    assert code == 0 and body["decision"] == "allow"


def test_web_fetch_of_one_url_is_judged_by_its_url(hook):
    code, body, _, rows = hook(event("web_fetch", {"prompt": "Summarise http://169.254.169.254/latest/meta-data"},
                                     hook.project))
    assert code == 0 and asked(body) and "net.internal_address" in body["reason"]
    assert rows[0]["tool_name"] == "WebFetch" and rows[0]["input"]["url"] == "http://169.254.169.254/latest/meta-data"
    _, body, _, rows = hook(event("web_fetch", {"prompt": "Summarise https://example.com/a please"}, hook.project))
    assert body["decision"] == "allow" and rows[0]["input"]["url"] == "https://example.com/a"
    _, body, _, rows = hook(event("web_fetch", {"url": "http://127.0.0.1:9/x"}, hook.project))
    assert rows[0]["input"]["url"] == "http://127.0.0.1:9/x" and asked(body)


def test_web_fetch_of_several_urls_is_not_judged_by_one_of_them(hook):
    prompt = "Compare https://example.com/a and http://169.254.169.254/latest"
    code, body, _, rows = hook(event("web_fetch", {"prompt": prompt}, hook.project))
    assert rows[0]["tool_name"] == "web_fetch" and rows[0]["tier"] == "fallback"
    assert (code, body) == (0, None)  # undecided: Gemini's own policy (which asks for web_fetch) decides
    assert gemini.urls_of(prompt) == ["https://example.com/a", "http://169.254.169.254/latest"]
    assert gemini.urls_of("see ftp://x.example/f") is None


@pytest.mark.parametrize("url", ["https://example.com\\@evil.example/", "https://ex%61mple.com/", "https://exämple.com/"])
def test_web_fetch_of_a_url_python_could_read_otherwise_is_not_judged_by_it(hook, url):
    """Gemini's WHATWG parser reads these hosts otherwise than Python's (``\\`` is ``/``, escapes and
    non-ASCII are decoded): the gate must not judge a host Gemini does not fetch."""
    for tool_input in ({"prompt": f"Summarise {url}"}, {"url": url}):
        _, _, _, rows = hook(event("web_fetch", tool_input, hook.project))
        assert rows[0]["tool_name"] == "web_fetch", rows


def test_mcp_tools_get_the_gates_mcp_names(hook):
    data = event("mcp_files_delete", {"path": "/x"}, hook.project,
                 mcp_context={"server_name": "files", "tool_name": "delete", "command": "files-mcp"})
    _, _, _, rows = hook(data)
    assert rows[0]["tool_name"] == "mcp__files__delete"


# -- input that cannot be decided: deny, exit 2 ----------------------------------------------------

@pytest.mark.parametrize("raw", [
    b"not json",
    b"",
    b"[1, 2]",
    json.dumps({**shell("ls", "/p"), "tool_input": ["ls"]}).encode(),
    json.dumps({**shell("ls", "/p"), "tool_name": 7}).encode(),
    json.dumps({k: v for k, v in shell("ls", "/p").items() if k != "tool_input"}).encode(),
    json.dumps({**shell("ls", "/p"), "hook_event_name": "AfterTool"}).encode(),
    json.dumps(shell("ls", "relative/cwd")).encode(),
    json.dumps(event("read_file", {"file_path": 3}, "/p")).encode(),
    json.dumps(event("read_file", {"file_path": "notes.txt"}, "relative")).encode(),
    json.dumps(event("read_file", {"file_path": "/a", "absolute_path": "/b"}, "/p")).encode(),
    json.dumps(shell("ls", "/p", dir_path=["sub"])).encode(),
])
def test_malformed_input_is_denied_with_exit_2(hook, raw):
    code, body, err, _ = hook(raw)
    assert code == 2 and body["decision"] == "deny"
    assert body["reason"].startswith("phlegyas: invalid hook input: "), body
    assert err.startswith("phlegyas: ")


def test_a_huge_event_is_denied(hook):
    raw = json.dumps(shell("echo " + "x" * (17 * 1024 * 1024), hook.project)).encode()
    code, body, _, _ = hook(raw)
    assert code == 2 and body["decision"] == "deny" and "16 MiB" in body["reason"]


# -- install ---------------------------------------------------------------------------------------

def _install(tmp_path, **kw):
    environ = {"HOME": str(tmp_path / "home")}
    options = dict(user=False, project=str(tmp_path / "project"), environ=environ)
    options.update(kw)
    return [c for c in install.install_changes(python=sys.executable, timeout=30, **options)]


def _apply(changes):
    for change in changes:
        if change.changed:
            apply(change, datetime(2026, 12, 2, 3, 30, 0))


def _settings(tmp_path):
    return json.loads((tmp_path / "project" / ".gemini" / "settings.json").read_text())


def test_install_writes_the_hook_in_milliseconds(tmp_path):
    (tmp_path / "project").mkdir()
    changes = _install(tmp_path)
    assert [c.path for c in changes] == [str(tmp_path / "project" / ".gemini" / "settings.json")]
    _apply(changes)
    doc = _settings(tmp_path)
    assert doc == {"hooks": {"BeforeTool": [{"matcher": ".*", "hooks": [
        {"type": "command", "name": "phlegyas", "command": hook_command(sys.executable, "gemini"),
         "timeout": 30000}]}]}}
    env = {"HOME": str(tmp_path / "home")}
    assert install.wired(user=False, project=str(tmp_path / "project"), environ=env) == changes[0].path
    assert not any(c.changed for c in _install(tmp_path)), "a second install must change nothing"
    steps = install.next_steps(user=False, project=str(tmp_path / "project"), environ=env)
    assert any("trust" in s for s in steps) and any("trusted_hooks.json" in s for s in steps)


def test_the_installed_command_runs_the_hook(tmp_path):
    (tmp_path / "project").mkdir()
    _apply(_install(tmp_path))
    command = _settings(tmp_path)["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
    home = tmp_path / "home"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
           "PHLEGYAS_HOME": str(home / ".claude" / "phlegyas"), "PHLEGYAS_HOOK_SERVER": "off"}
    proc = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(shell("rm -rf /", str(tmp_path))).encode(),
                          capture_output=True, env=env, cwd=str(tmp_path), timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout)["decision"] == "deny", proc


def test_install_merges_and_updates_in_place(tmp_path):
    path = tmp_path / "project" / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True)
    other = {"type": "command", "name": "audit", "command": "/usr/local/bin/audit-tool", "timeout": 5000}
    old = {"type": "command", "name": "phlegyas", "command": "phlegyas-hook", "timeout": 10000}
    path.write_text(json.dumps({
        "model": {"name": "gemini-2.5-pro"}, "security": {"auth": {"selectedType": "gemini-api-key"}},
        "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [other]},
                                 {"matcher": ".*", "hooks": [other, old]}],
                  "AfterTool": [{"matcher": ".*", "hooks": [other]}]}}, indent=2))
    _apply(_install(tmp_path))
    doc = _settings(tmp_path)
    assert doc["model"] == {"name": "gemini-2.5-pro"} and doc["security"]["auth"]["selectedType"] == "gemini-api-key"
    assert doc["hooks"]["AfterTool"] == [{"matcher": ".*", "hooks": [other]}]
    first, second = doc["hooks"]["BeforeTool"]
    assert first == {"matcher": "write_file", "hooks": [other]}
    assert second["hooks"][0] == other and len(second["hooks"]) == 2
    assert second["hooks"][1]["command"] == hook_command(sys.executable, "gemini")
    assert second["hooks"][1]["timeout"] == 30000
    assert list(path.parent.glob("settings.json.phlegyas-backup-*")), "the old file is backed up"
    assert not any(c.changed for c in _install(tmp_path))

    changes = install.uninstall_changes(user=False, project=str(tmp_path / "project"),
                                        environ={"HOME": str(tmp_path / "home")})
    _apply(changes)
    doc = _settings(tmp_path)
    assert doc["hooks"]["BeforeTool"] == [{"matcher": "write_file", "hooks": [other]},
                                          {"matcher": ".*", "hooks": [other]}]
    assert doc["hooks"]["AfterTool"] == [{"matcher": ".*", "hooks": [other]}] and doc["model"]
    assert install.wired(user=False, project=str(tmp_path / "project"), environ={"HOME": "/x"}) is None


def test_uninstall_of_phlegyas_alone_removes_the_file(tmp_path):
    (tmp_path / "project").mkdir()
    _apply(_install(tmp_path))
    changes = install.uninstall_changes(user=False, project=str(tmp_path / "project"), environ={})
    assert changes[0].removes_file
    _apply(changes)
    assert not (tmp_path / "project" / ".gemini" / "settings.json").exists()


@pytest.mark.parametrize("text, where", [
    ('{\n  "hooks": {\n    "BeforeTool": [,]\n  }\n}\n', ":3:"),
    ('{\n  // a comment\n  "hooks": {}\n}\n', ":2:"),
    ('{\n  "hooks": {\n    "BeforeTool": {"matcher": ".*"}\n  }\n}\n', ":3:"),
])
def test_a_malformed_file_is_reported_and_left_alone(tmp_path, text, where):
    path = tmp_path / "project" / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(InstallError) as info:
        _install(tmp_path)
    assert f"{path}{where}" in str(info.value) and "nothing was changed" in str(info.value)
    assert path.read_text() == text and len(list(path.parent.iterdir())) == 1


def test_user_scope_honours_gemini_cli_home(tmp_path):
    home = tmp_path / "home"
    changes = install.install_changes(user=True, project="/nonexistent", environ={"HOME": str(home)},
                                      python=sys.executable, timeout=45)
    assert changes[0].path == str(home / ".gemini" / "settings.json")
    assert changes[0].after["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"] == 45000
    other = tmp_path / "gemini-home"
    environ = {"HOME": str(home), "GEMINI_CLI_HOME": str(other)}
    changes = install.install_changes(user=True, project="/nonexistent", environ=environ,
                                      python=sys.executable, timeout=30)
    assert changes[0].path == str(other / ".gemini" / "settings.json")
    _apply(changes)
    assert install.wired(user=True, project="/nonexistent", environ=environ) == changes[0].path
    assert install.wired(user=True, project="/nonexistent", environ={"HOME": str(home)}) is None
    with pytest.raises(InstallError):
        install.install_changes(user=True, project="/x", environ={}, python=sys.executable, timeout=30)


def test_hooks_switched_off_are_not_wired(tmp_path):
    (tmp_path / "project").mkdir()
    _apply(_install(tmp_path))
    path = tmp_path / "project" / ".gemini" / "settings.json"
    for config in ({"enabled": False}, {"disabled": ["phlegyas"]}):
        path.write_text(json.dumps({**_settings(tmp_path), "hooksConfig": config}))
        assert install.wired(user=False, project=str(tmp_path / "project"), environ={}) is None
    path.write_text(json.dumps({**_settings(tmp_path), "hooksConfig": {"enabled": True}}))
    assert install.wired(user=False, project=str(tmp_path / "project"), environ={}) == str(path)
