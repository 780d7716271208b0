"""End to end with the real Codex binary (PROTOCOLS.md §6), offline.

Codex is installed from npm into a cache directory once (``~/.cache/phlegyas-tests/codex``, or
``$PHLEGYAS_TEST_CODEX_DIR``), pinned to the version these facts were checked with, and talks to a
loopback fake of the Responses API (tests/codex_fake_api.py) that plays the model: it asks for one shell
command, then ends the turn. Everything runs in a temporary home (``CODEX_HOME`` in it) and project; the
tests skip only when npm itself is missing.

``codex exec`` runs with ``--dangerously-bypass-hook-trust`` (Codex skips untrusted hooks silently; a user
trusts them once in the interactive ``codex``) and ``-s danger-full-access``, so that Codex's sandbox is not
what stops the command. The command is ``rm -r``, not ``rm -rf``: Codex 0.171.0 refuses "rm -f style"
commands itself under approval "never", which would make the control prove nothing.

- (a) without phlegyas, the model's ``rm -r`` of a directory outside the project deletes it;
- (b) with ``phlegyas install --agent codex --user`` wiring the hooks, the same ``rm -r`` is denied
  (phlegyas asks about a deletion outside the project, and a hook cannot make Codex ask, so its answer
  is a deny), the directory survives, the model is told why, and the audit log has the call with
  ``"host": "codex"``, decided through the resident hook server;
- (c) ``ls`` runs and its output reaches the model;
- (d) in the interactive TUI (tmux), the PermissionRequest hook's allow and deny are obeyed.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time

import pytest
from claude_fake_api import FakeMessagesAPI
from codex_fake_api import FakeResponsesAPI
from conftest import require
from e2e_hosts import HostSession, npm_install_once, reported_version, victim_dir

VERSION = "0.171.0"
PACKAGE = f"@openai/codex@{VERSION}"
CACHE = os.environ.get("PHLEGYAS_TEST_CODEX_DIR") or os.path.join(
    os.path.expanduser("~"), ".cache", "phlegyas-tests", "codex")


def _codex_binary() -> str:
    return os.path.join(CACHE, "node_modules", ".bin", "codex")


def _works(binary: str) -> bool:
    return reported_version(binary) == f"codex-cli {VERSION}"


@pytest.fixture(scope="session")
def codex() -> str:
    """The path of a working ``codex`` of VERSION, installed from npm into the cache on first use."""
    binary = _codex_binary()
    if not _works(binary):
        npm_install_once(CACHE, "Codex", [(CACHE, PACKAGE, lambda: _works(binary))])
        assert _works(binary), f"{binary} does not run after npm install"
    return binary


class Session(HostSession):
    """A temporary home (with ``CODEX_HOME``) and project, and ways to run phlegyas and Codex there."""

    def __init__(self, root, codex: str):
        super().__init__(root)
        self.codex = codex
        self.codex_home = os.path.join(self.home, ".codex")
        self.data_dir = os.path.join(self.home, ".phlegyas")
        os.makedirs(self.codex_home)
        os.makedirs(self.project)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("PHLEGYAS_", "CODEX_", "OPENAI_", "ANTHROPIC_", "CLAUDE_"))
                    and k not in ("AUDIT_LOG_FILE", "ENABLE_AUDIT_LOG", "APPROVAL_WAIT_SECONDS")}
        self.env.update(HOME=self.home, CODEX_HOME=self.codex_home, FAKE_KEY="fake-key",
                        PHLEGYAS_HOME=self.data_dir, PHLEGYAS_HOOK_SERVER_IDLE="120")

    def run_codex(self, command: str) -> tuple[subprocess.CompletedProcess, FakeResponsesAPI]:
        """``codex exec go`` with the fake model asking for ``command`` once."""
        with FakeResponsesAPI([command]) as api:
            with open(os.path.join(self.codex_home, "config.toml"), "w") as fh:
                fh.write(f'model = "fake-model"\nmodel_provider = "fake"\n\n[model_providers.fake]\n'
                         f'name = "fake"\nbase_url = "{api.base_url}"\nwire_api = "responses"\n'
                         f'env_key = "FAKE_KEY"\n')
            proc = subprocess.run([self.codex, "exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check",
                                   "-s", "danger-full-access", "go"], capture_output=True, text=True,
                                  env=self.env, cwd=self.project, timeout=120, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, f"codex exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
        assert api.model_requests(), f"codex never asked the fake model:\n{proc.stderr}"
        return proc, api

    def start_hook_server(self) -> None:
        """One hook call (which spawns the resident server), then wait until the server listens: the
        calls Codex makes next go through it, the normal path."""
        warm = {"session_id": "warm", "turn_id": "warm", "transcript_path": None, "cwd": self.project,
                "hook_event_name": "PreToolUse", "model": "fake-model", "permission_mode": "default",
                "tool_name": "Bash", "tool_input": {"command": "true"}, "tool_use_id": "warm"}
        proc = subprocess.run([sys.executable, "-m", "phlegyas", "hook", "--agent", "codex"], input=json.dumps(warm),
                              capture_output=True, text=True, env=self.env, cwd=self.project, timeout=60)
        assert proc.returncode == 0, proc.stderr
        hookd = os.path.join(self.data_dir, "hookd")
        deadline = time.monotonic() + 30
        while not any(n.endswith(".sock") for n in (os.listdir(hookd) if os.path.isdir(hookd) else ())):
            assert time.monotonic() < deadline, "the hook server did not start"
            time.sleep(0.1)


@pytest.fixture
def session(tmp_path, codex):
    box = Session(tmp_path, codex)
    yield box
    box.stop_hook_servers()


def test_rm_outside_the_project_runs_without_phlegyas_and_is_denied_with_it(session):
    control = victim_dir(session.root, "control")
    session.run_codex(f"rm -r {control}")
    assert not os.path.exists(control), "without phlegyas Codex must run the rm (the control failed)"
    assert session.audit() == []

    installed = session.phlegyas("install", "--agent", "codex", "--user")
    assert os.path.join(session.codex_home, "hooks.json") in installed.stdout + installed.stderr
    session.start_hook_server()
    victim = victim_dir(session.root, "precious")
    proc, api = session.run_codex(f"rm -r {victim}")
    assert os.path.isfile(os.path.join(victim, "data.txt")), f"phlegyas let the rm run:\n{proc.stderr}"
    (told,) = api.outputs()
    assert "blocked by PreToolUse hook: phlegyas: " in told, told
    (entry,) = [e for e in session.audit() if e["input"].get("command") == f"rm -r {victim}"]
    assert entry["host"] == "codex" and entry["hook_event"] == "PreToolUse" and entry["hook_path"] == "server"
    assert entry["mode"] == "bypassPermissions"  # what codex exec reports: approval "never"
    assert entry["decision"] == "ask" and "delete.temp_dir" in entry["findings"]  # answered as a deny
    assert "cannot make Codex ask" in told


def test_ls_runs_with_phlegyas_and_the_model_sees_its_output(session):
    with open(os.path.join(session.project, "marker-file.txt"), "w") as fh:
        fh.write("x\n")
    session.phlegyas("install", "--agent", "codex", "--user")
    proc, api = session.run_codex("ls")
    (told,) = api.outputs()
    assert "marker-file.txt" in told, told
    assert [(e["input"].get("command"), e["decision"], e["host"]) for e in session.audit()] == [
        ("ls", "allow", "codex")]


# -- (d) the PermissionRequest hook, in the interactive TUI ------------------------------------------
#
# ``codex exec`` forces approval "never", so Codex asks nobody and PermissionRequest never fires there.
# The TUI (in tmux) with approval "on-request" asks when the model wants a command run outside the
# sandbox (``sandbox_permissions: "require_escalated"``). The command is a project script, which the
# fast path leaves undecided (PreToolUse prints nothing); Codex, about to ask, runs the PermissionRequest
# hook: the whole pipeline, where the AI tier (a fake of the Messages API playing the judge) decides,
# and Codex obeys without showing its dialog.

def _tmux(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["tmux", "-L", f"phlegyas-e2e-codex-{os.getpid()}", *args], capture_output=True,
                          text=True, timeout=30)


def _wait(predicate, timeout: float, what: str, pane) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}\n{pane()}")


def _interactive(session: Session, verdict: dict) -> tuple[FakeResponsesAPI, str]:
    tool = os.path.join(session.project, "tool.sh")
    with open(tool, "w") as fh:
        fh.write("#!/bin/sh\ntouch made-by-tool\n\"$@\"\n")  # "$@": a command Tier 2 cannot know
    os.chmod(tool, 0o755)
    session.phlegyas("install", "--agent", "codex", "--user")
    escalated = {"cmd": "./tool.sh", "sandbox_permissions": "require_escalated", "justification": "Run the tool"}
    with FakeResponsesAPI([escalated]) as api, FakeMessagesAPI([], tool_answers={"record_verdict": verdict}) as judge:
        with open(os.path.join(session.codex_home, "config.toml"), "w") as fh:
            fh.write(f'model = "fake-model"\nmodel_provider = "fake"\napproval_policy = "on-request"\n'
                     f'sandbox_mode = "workspace-write"\n\n[model_providers.fake]\nname = "fake"\n'
                     f'base_url = "{api.base_url}"\nwire_api = "responses"\nenv_key = "FAKE_KEY"\n\n'
                     f'[projects."{session.project}"]\ntrust_level = "trusted"\n')
        env = dict(session.env, TERM="xterm-256color", ANTHROPIC_API_KEY="sk-ant-fake",
                   ANTHROPIC_BASE_URL=judge.base_url)
        line = " ".join(["env", "-i", *(shlex.quote(f"{k}={v}") for k, v in env.items()),
                         shlex.quote(session.codex), "--dangerously-bypass-hook-trust", "go"])
        _tmux("new-session", "-d", "-s", "cx", "-x", "160", "-y", "45", "-c", session.project, line)

        def pane() -> str:
            return _tmux("capture-pane", "-p", "-t", "cx").stdout

        try:
            _wait(lambda: api.outputs() and "All done." in pane(), 90, "the tool's result", pane)
            screen = pane()
        finally:
            _tmux("kill-server")
    return api, screen


@pytest.fixture
def tmux():
    """tmux, or a skip (a failure under CI=true)."""
    require("tmux is not installed: cannot drive Codex's interactive UI", shutil.which("tmux") is not None)


@pytest.mark.parametrize("decision, confidence, allowed", [("approve", 0.97, True), ("deny", 0.03, False)])
def test_permission_request_hook_decides_in_the_tui(tmux, session, decision, confidence, allowed):
    verdict = {"decision": decision, "confidence": confidence, "reasoning": "judged by the fake", "risk": "low"}
    api, screen = _interactive(session, verdict)
    (told,) = api.outputs()
    assert os.path.exists(os.path.join(session.project, "made-by-tool")) is allowed, screen
    assert "Would you like to run" not in screen, screen  # the hook answered: no dialog
    if not allowed:
        assert "phlegyas: " in told and "Blocked by hook" in screen, (told, screen)
    rows = [(e["hook_event"], e["tier"], e["decision"], e["host"]) for e in session.audit()]
    assert rows == [("PreToolUse", "fallback", "ask", "codex"),
                    ("PermissionRequest", "tier3_ai", "allow" if allowed else "deny", "codex")], rows
