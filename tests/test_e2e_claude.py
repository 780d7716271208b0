"""End to end with the real Claude Code binary (PROTOCOLS.md §7), offline.

Claude Code is installed from npm into a cache directory once (``~/.cache/phlegyas-tests/claude``, or
``$PHLEGYAS_TEST_CLAUDE_DIR``), and talks to a loopback fake of the Messages API that plays the
model: it asks for the tool calls of each test, then ends the turn. Everything runs in a temporary
home. The tests skip only when npm itself is missing, and the interactive one when tmux is (under
CI=true that is a failure).

- (a) with ``phlegyas install --project`` wiring the hooks, the model's ``rm -rf`` of a directory
  outside the project is denied by phlegyas and the directory survives, while ``ls`` runs; the same
  run without phlegyas deletes it (so the hook, not Claude Code's own checks, is what saved it);
- (b) with ``--permission-prompt-tool mcp__phlegyas__permissions__approve`` and the MCP server that
  ``phlegyas install --mcp`` configures, calls Claude Code asks about are decided by phlegyas: one
  allowed (and run), one denied;
- (c) ``claude mcp list`` reports the phlegyas server connected;
- (d) in an interactive session (tmux), the PermissionRequest hook's allow and deny are obeyed.
"""
from __future__ import annotations

import fcntl
import json
import os
import shlex
import shutil
import subprocess
import time

import pytest
from claude_fake_api import FakeMessagesAPI
from conftest import require
from e2e_hosts import HostSession

CACHE = os.environ.get("PHLEGYAS_TEST_CLAUDE_DIR") or os.path.join(
    os.path.expanduser("~"), ".cache", "phlegyas-tests")
PACKAGE = "@anthropic-ai/claude-code"
VERSIONS = ("2.1.332", "2.1.197")
"""Pinned: the current release (it declares Node 22 but runs on Node 20, PROTOCOLS.md §7), and the last one a
plain ``npm install`` picks on Node 20 (its formats phlegyas still answers in). Every test runs on both."""
HEADLESS_PERMISSION_REQUEST = (2, 1, 268)
"""From this version on, ``claude -p`` runs the PermissionRequest hook too (PROTOCOLS.md §8)."""
PROMPT_TOOL = "mcp__phlegyas__permissions__approve"


def _claude_binary(version: str) -> str:
    return os.path.join(CACHE, f"claude-{version}", "node_modules", ".bin", "claude")


def _works(binary: str, version: str) -> bool:
    try:
        proc = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and "Claude Code" in proc.stdout and version in proc.stdout


@pytest.fixture(scope="session", params=VERSIONS, ids=[f"claude-{v}" for v in VERSIONS])
def claude(request) -> str:
    """The path of a working ``claude`` of each pinned version, installed from npm into the cache on first use."""
    version = request.param
    binary = _claude_binary(version)
    if _works(binary, version):
        return binary
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not available: cannot install Claude Code for the end-to-end tests")
    prefix = os.path.dirname(os.path.dirname(os.path.dirname(binary)))
    os.makedirs(prefix, exist_ok=True)
    with open(os.path.join(prefix, ".install.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another test run may be installing it right now
        if not _works(binary, version):
            proc = subprocess.run([npm, "install", "--prefix", prefix, "--no-audit", "--no-fund",
                                   f"{PACKAGE}@{version}"], capture_output=True, text=True, timeout=900)
            assert proc.returncode == 0, f"npm install {PACKAGE}@{version} failed:\n{proc.stdout}\n{proc.stderr}"
    assert _works(binary, version), f"{binary} does not run after npm install"
    return binary


def version_of(binary: str) -> tuple[int, ...]:
    """The version a cached binary is (its directory says it)."""
    name = binary.split(os.sep)[-4]  # …/claude-<version>/node_modules/.bin/claude
    return tuple(int(p) for p in name.removeprefix("claude-").split("."))


class Session(HostSession):
    """A temporary home and project, the fake API, and ways to run phlegyas and Claude Code there."""

    def __init__(self, root, claude: str):
        super().__init__(root)
        self.claude = claude
        self.config_dir = os.path.join(self.home, ".claude")
        os.makedirs(self.config_dir)
        os.makedirs(self.project)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("PHLEGYAS_", "ANTHROPIC_", "OPENAI_", "CLAUDE_", "CLAUDECODE"))
                    and k not in ("AUDIT_LOG_FILE", "ENABLE_AUDIT_LOG", "APPROVAL_WAIT_SECONDS")}
        self.env.update(HOME=self.home, CLAUDE_CONFIG_DIR=self.config_dir, ANTHROPIC_API_KEY="sk-ant-fake",
                        DISABLE_AUTOUPDATER="1", DISABLE_TELEMETRY="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                        PHLEGYAS_HOOK_SERVER_IDLE="120")
        self.data_dir = os.path.join(self.home, ".claude", "phlegyas")  # PHLEGYAS_HOME's default

    def run_claude(self, script: list[tuple[str, dict]], *args: str,
                   tool_answers: dict | None = None) -> tuple[dict, FakeMessagesAPI]:
        """``claude -p go --output-format json ARGS`` with the fake model playing ``script``."""
        debug = os.path.join(self.root, f"claude-debug-{len(os.listdir(self.root))}.log")
        with FakeMessagesAPI(script, tool_answers=tool_answers or {}) as api:
            env = dict(self.env, ANTHROPIC_BASE_URL=api.base_url)
            proc = subprocess.run([self.claude, "-p", "go", "--output-format", "json", "--debug-file", debug, *args],
                                  capture_output=True, text=True, env=env, cwd=self.project, timeout=300)
        assert proc.returncode == 0, (f"claude exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}\n"
                                      f"{_mcp_lines(debug)}")
        return json.loads(proc.stdout), api


def _mcp_lines(debug_log: str) -> str:
    """What Claude Code's debug log says about MCP servers (to explain a failure)."""
    try:
        with open(debug_log, encoding="utf-8", errors="replace") as fh:
            return "".join(line for line in fh if "MCP" in line or "mcp" in line)[-6000:]
    except OSError:
        return "(no debug log)"


@pytest.fixture
def session(tmp_path, claude):
    box = Session(tmp_path, claude)
    yield box
    box.stop_hook_servers()


def results_by_id(api: FakeMessagesAPI) -> dict[str, dict]:
    return {r["tool_use_id"]: r for r in api.tool_results()}


def text_of(result: dict) -> str:
    content = result.get("content")
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict))
    return content or ""


def denied_ids(output: dict) -> set[str]:
    return {d["tool_use_id"] for d in output.get("permission_denials", [])}


def _outside_dir(session: Session) -> tuple[str, str]:
    outside = os.path.join(session.root, "outside")
    victim = os.path.join(outside, "precious")
    os.makedirs(victim)
    with open(os.path.join(victim, "data.txt"), "w") as fh:
        fh.write("keep me\n")
    return outside, victim


# -- (a) the hooks ---------------------------------------------------------------------------------

def test_hooks_deny_rm_outside_the_project_and_let_ls_run(session):
    outside, victim = _outside_dir(session)
    with open(os.path.join(session.project, "marker-file.txt"), "w") as fh:
        fh.write("x\n")
    # What Claude Code alone would do with these flags: run the rm (it is allowed, in a working dir).
    flags = ("--add-dir", outside, "--allowedTools", "Bash(rm:*)")
    script = [("Bash", {"command": f"rm -rf {victim}", "description": "Clean up"}),
              ("Bash", {"command": "ls", "description": "List files"})]
    control_victim = victim + "-control"
    shutil.copytree(victim, control_victim)
    output, api = session.run_claude([("Bash", {"command": f"rm -rf {control_victim}"})], *flags)
    assert not os.path.exists(control_victim), "without phlegyas the rm must run (the control failed)"

    installed = session.phlegyas("install", "--project", session.project, "--hook")
    assert "PreToolUse" in installed.stdout
    output, api = session.run_claude(script, *flags)

    results = results_by_id(api)
    assert os.path.isfile(os.path.join(victim, "data.txt")), "phlegyas let the rm run"
    assert denied_ids(output) == {"toolu_fake0000"}
    rm_result = results["toolu_fake0000"]
    assert rm_result.get("is_error") is True
    assert text_of(rm_result).startswith("phlegyas: "), text_of(rm_result)
    ls_result = results["toolu_fake0001"]
    assert not ls_result.get("is_error") and "marker-file.txt" in text_of(ls_result)
    entries = {e["input"].get("command"): e for e in session.audit()}
    # the victim lies in a shared temp directory (the test's tmp_path): delete.temp_dir asks, and
    # claude -p, where nobody can answer, turns the hook's ask into the denial checked above
    assert entries[f"rm -rf {victim}"]["decision"] == "ask"
    assert "delete.temp_dir" in entries[f"rm -rf {victim}"]["findings"]
    assert entries["ls"]["decision"] == "allow"


def test_uninstall_takes_the_hooks_out(session):
    session.phlegyas("install", "--project", session.project, "--hook")
    session.phlegyas("uninstall", "--project", session.project)
    output, api = session.run_claude([("Bash", {"command": "ls", "description": "List files"})])
    assert not output.get("permission_denials")
    assert session.audit() == [], "the hook still ran after uninstall"


# -- (b) the permission-prompt tool ----------------------------------------------------------------

def test_the_permission_prompt_tool_decides_what_claude_code_asks_about(session):
    session.phlegyas("install", "--project", session.project, "--mcp")
    assert os.path.exists(os.path.join(session.project, ".mcp.json"))
    made = os.path.join(session.project, "made-by-claude")
    script = [
        ("Bash", {"command": "mkdir made-by-claude", "description": "Make a directory"}),
        ("Bash", {"command": "git push --force origin main", "description": "Publish"}),
    ]
    # Without MCP_CONNECTION_NONBLOCKING=false, claude -p does not wait for the server to start and
    # fails the first prompt ("tool not found") when the model answers first (verified: a race).
    session.env["MCP_CONNECTION_NONBLOCKING"] = "false"
    output, api = session.run_claude(script, "--permission-prompt-tool", PROMPT_TOOL)

    results = results_by_id(api)
    assert os.path.isdir(made), text_of(results["toolu_fake0000"])
    assert not results["toolu_fake0000"].get("is_error")
    assert denied_ids(output) == {"toolu_fake0001"}
    push = results["toolu_fake0001"]
    assert push.get("is_error") is True and "force" in text_of(push), text_of(push)
    # Both calls reached phlegyas through the MCP tool (no hook is installed: only it writes here).
    decided = {e["input"].get("command"): e["decision"] for e in session.audit()}
    assert decided == {"mkdir made-by-claude": "allow", "git push --force origin main": "deny"}


def test_without_phlegyas_claude_code_asks_and_headless_means_no(session):
    """The control for (b): the same calls, no prompt tool: Claude Code denies both itself."""
    output, api = session.run_claude([("Bash", {"command": "mkdir made-by-claude"})])
    assert denied_ids(output) == {"toolu_fake0000"}
    assert not os.path.exists(os.path.join(session.project, "made-by-claude"))


def _project_tool(session: Session) -> None:
    """A project script: a call phlegyas' fast path leaves undecided (PreToolUse prints nothing)."""
    script = os.path.join(session.project, "tool.sh")
    with open(script, "w") as fh:
        fh.write("#!/bin/sh\ntouch made-by-tool\n\"$@\"\n")  # "$@": a command Tier 2 cannot know
    os.chmod(script, 0o755)


def test_a_headless_run_takes_the_slow_tiers_through_the_permission_request_hook(session):
    """2.1.268 and later run the PermissionRequest hook in ``claude -p``: the call the fast path leaves to
    Claude Code reaches the full pipeline (here the AI tier, answered by the fake) instead of being denied
    for want of someone to ask. Earlier versions deny it without running the hook."""
    session.phlegyas("install", "--project", session.project, "--hook")
    _project_tool(session)
    verdict = {"decision": "approve", "confidence": 0.97, "reasoning": "judged by the fake", "risk": "low"}
    output, api = session.run_claude([("Bash", {"command": "./tool.sh", "description": "Run the project tool"})],
                                     tool_answers={"record_verdict": verdict})
    tiers = [(e["tier"], e["decision"]) for e in session.audit()]
    made = os.path.exists(os.path.join(session.project, "made-by-tool"))
    if version_of(session.claude) >= HEADLESS_PERMISSION_REQUEST:
        assert made and not output.get("permission_denials"), output
        assert tiers == [("fallback", "ask"), ("tier3_ai", "allow")], tiers
        assert [e.get("hook_event") for e in session.audit()] == ["PreToolUse", "PermissionRequest"]
    else:
        assert not made and denied_ids(output) == {"toolu_fake0000"}, output
        assert tiers == [("fallback", "ask")], tiers


# -- (c) claude mcp list ---------------------------------------------------------------------------

def _mcp_list(session: Session) -> str:
    # The fake API also answers (404) the managed-settings request `claude mcp list` makes first;
    # without a reachable base URL it waits ~20 s for the network.
    with FakeMessagesAPI([]) as api:
        env = dict(session.env, ANTHROPIC_BASE_URL=api.base_url)
        proc = subprocess.run([session.claude, "mcp", "list"], capture_output=True, text=True, env=env,
                              cwd=session.project, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _line(listing: str, name: str) -> str:
    return next((line for line in listing.splitlines() if line.startswith(f"{name}:")), "")


def test_mcp_list_reports_the_user_server_connected(session):
    session.phlegyas("install", "--user", "--mcp")
    line = _line(_mcp_list(session), "phlegyas")
    assert "phlegyas.hosts.mcp.server" in line and "Connected" in line, line


def test_mcp_list_reports_the_project_server_connected_once_trusted(session):
    session.phlegyas("install", "--project", session.project, "--mcp")
    # What the user's "trust this folder" answer stores; enabledMcpjsonServers then applies.
    state = os.path.join(session.config_dir, ".claude.json")
    with open(state, "w") as fh:
        json.dump({"projects": {session.project: {"hasTrustDialogAccepted": True}}}, fh)
    line = _line(_mcp_list(session), "phlegyas")
    assert "Connected" in line, line


def test_the_user_hook_and_server_survive_claude_code_rewriting_its_state(session):
    """Claude Code rewrites ~/.claude.json as it runs; a later install still finds its entry."""
    session.phlegyas("install", "--user")
    _mcp_list(session)
    again = session.phlegyas("install", "--user")
    assert "nothing to change" in again.stdout
    with open(os.path.join(session.config_dir, "settings.json")) as fh:
        hooks = json.load(fh)["hooks"]
    assert set(hooks) == {"PreToolUse", "PermissionRequest", "PermissionDenied"}


# -- (d) the PermissionRequest hook, in an interactive session -------------------------------------
#
# Claude Code runs PermissionRequest hooks only when it would show a dialog, which `claude -p` never
# does (verified: no event). So this drives the interactive UI in tmux. The call is one phlegyas'
# fast path leaves undecided (a project script), so PreToolUse prints nothing and Claude Code, about to
# ask, runs the PermissionRequest hook: the full pipeline, where the AI tier (answered by the fake)
# decides, and Claude Code follows the hook's decision without showing the dialog.

def _tmux(session: Session, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["tmux", "-L", f"phlegyas-e2e-{os.getpid()}", *args], capture_output=True, text=True,
                          timeout=30)


def _wait(predicate, timeout: float, what: str, pane=None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    screen = pane() if pane else ""
    raise AssertionError(f"timed out waiting for {what}\n{screen}")


def _interactive(session: Session, command: str, verdict: dict) -> tuple[FakeMessagesAPI, str]:
    state = {"hasCompletedOnboarding": True, "theme": "dark",
             "customApiKeyResponses": {"approved": ["sk-ant-fake"], "rejected": []},
             "projects": {session.project: {"hasTrustDialogAccepted": True, "hasCompletedProjectOnboarding": True}}}
    with open(os.path.join(session.config_dir, ".claude.json"), "w") as fh:
        json.dump(state, fh)
    session.phlegyas("install", "--project", session.project, "--hook")
    script = [("Bash", {"command": command, "description": "Run the project tool"})]
    with FakeMessagesAPI(script, tool_answers={"record_verdict": verdict}) as api:
        env = dict(session.env, ANTHROPIC_BASE_URL=api.base_url, TERM="xterm-256color")
        # 2.1.332 starts in auto mode (its classifier, not a dialog, decides): the dialog's mode is asked for
        line = " ".join(["env", "-i", *(shlex.quote(f"{k}={v}") for k, v in env.items()), shlex.quote(session.claude),
                         "--permission-mode", "default"])
        _tmux(session, "new-session", "-d", "-s", "cc", "-x", "150", "-y", "45", "-c", session.project, line)

        def pane() -> str:
            return _tmux(session, "capture-pane", "-p", "-t", "cc").stdout

        try:
            _wait(lambda: "for shortcuts" in pane() or "shift+tab to cycle" in pane(), 60, "the prompt", pane)
            _tmux(session, "send-keys", "-t", "cc", "go", "Enter")
            _wait(lambda: api.tool_results() and "by PermissionRequest hook" in pane(), 90,
                  "the hook's decision", pane)
            screen = pane()
        finally:
            _tmux(session, "kill-server")
    return api, screen


@pytest.fixture
def tmux():
    """tmux, or a skip (a failure under CI=true: .ci/run installs it)."""
    require("tmux is not installed: cannot drive Claude Code's interactive UI", shutil.which("tmux") is not None)


@pytest.mark.parametrize("decision, confidence, allowed", [("approve", 0.97, True), ("deny", 0.03, False)])
def test_permission_request_hook_decides_in_an_interactive_session(tmux, session, decision, confidence, allowed):
    _project_tool(session)
    verdict = {"decision": decision, "confidence": confidence, "reasoning": "judged by the fake", "risk": "low"}
    api, screen = _interactive(session, "./tool.sh", verdict)

    result = api.tool_results()[0]
    assert os.path.exists(os.path.join(session.project, "made-by-tool")) is allowed, screen
    assert bool(result.get("is_error")) is not allowed
    word = "Allowed" if allowed else "Denied"
    assert f"{word} by PermissionRequest hook" in screen, screen
    if not allowed:
        assert text_of(result).startswith("phlegyas: "), text_of(result)
    tiers = [(e["tier"], e["decision"]) for e in session.audit()]
    assert tiers == [("fallback", "ask"), ("tier3_ai", "allow" if allowed else "deny")], tiers
