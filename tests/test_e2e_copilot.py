"""End to end with the real GitHub Copilot CLI (``@github/copilot``, PROTOCOLS.md §6), offline.

Copilot CLI is installed from npm into a cache directory once (``~/.cache/phlegyas-tests/copilot``, or
``$PHLEGYAS_TEST_COPILOT_DIR``), pinned, and runs in its BYOK offline mode against a loopback fake of
the OpenAI chat-completions API (``copilot_fake_api``) that plays the model: it asks for the ``bash``
calls of each test, then ends the turn. ``copilot -p go --allow-all-tools`` runs them without asking, in
a temporary home; the tests skip only when npm itself is missing (a failure under CI=true).

- (a) control: without phlegyas, the model's ``rm -rf`` of a directory outside the project deletes it
  (so it is phlegyas, not Copilot's own checks, that saves it below);
- (b) with ``phlegyas install --agent copilot --user``, the same ``rm -rf`` is denied (the user policy
  makes the victim's class, ``delete.temp_dir``, a deny: the test's directories are temporary) and the
  directory survives, the model reads phlegyas's reason, the audit log has the deny with
  ``"host": "copilot"``; and ``ls`` runs, its output reaching the model;
- (c) with ``phlegyas install --agent copilot`` in the project (``.github/hooks/``, which ``-p`` runs only
  with ``--trust-folder``), phlegyas's default ``ask`` for that ``rm`` is rendered as Copilot's ``ask``,
  which ``-p`` (nobody to ask) turns into a denial: the directory survives;
- (d) in an interactive session (tmux), the same ``ask`` opens Copilot's "Hook permission request" dialog
  with phlegyas's reason, even under ``--allow-all-tools``, and the rm waits for the person (skips
  without tmux; a failure under CI=true).
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import time

import pytest
from conftest import require
from copilot_fake_api import FakeChatAPI, content_text
from e2e_hosts import HostSession, npm_install_once, reported_version, victim_dir

VERSION = "1.0.102"
PACKAGE = f"@github/copilot@{VERSION}"
CACHE = os.environ.get("PHLEGYAS_TEST_COPILOT_DIR") or os.path.join(
    os.path.expanduser("~"), ".cache", "phlegyas-tests", "copilot")


def _binary() -> str:
    return os.path.join(CACHE, "node_modules", ".bin", "copilot")


def _works(binary: str) -> bool:
    reported = reported_version(binary, {**os.environ, "COPILOT_AUTO_UPDATE": "false"})
    return reported is not None and f"GitHub Copilot CLI {VERSION}" in reported


@pytest.fixture(scope="session")
def copilot() -> str:
    """The path of a working ``copilot`` of VERSION, installed from npm into the cache on first use."""
    binary = _binary()
    if not _works(binary):
        npm_install_once(CACHE, "Copilot CLI", [(CACHE, PACKAGE, lambda: _works(binary))])
        assert _works(binary), f"{binary} does not run after npm install"
    return binary


class Session(HostSession):
    """A temporary home and project, and ways to run phlegyas and Copilot CLI there."""

    def __init__(self, root, copilot: str):
        super().__init__(root)
        self.copilot = copilot
        self.data_dir = os.path.join(self.home, ".claude", "phlegyas")  # PHLEGYAS_HOME's default
        os.makedirs(self.data_dir)
        os.makedirs(self.project)
        with open(os.path.join(self.project, "marker-file.txt"), "w") as fh:
            fh.write("x\n")
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("PHLEGYAS_", "COPILOT_", "ANTHROPIC_", "OPENAI_", "CLAUDE_", "GH_"))
                    and k not in ("GITHUB_TOKEN", "AUDIT_LOG_FILE", "ENABLE_AUDIT_LOG", "APPROVAL_WAIT_SECONDS",
                                  "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")}
        self.env.update(HOME=self.home, COPILOT_OFFLINE="true", COPILOT_PROVIDER_TYPE="openai",
                        COPILOT_MODEL="fake-model", COPILOT_AUTO_UPDATE="false", NO_COLOR="1", TERM="dumb",
                        PHLEGYAS_HOOK_SERVER_IDLE="120")

    def run_copilot(self, commands: list[str], *flags: str) -> tuple[subprocess.CompletedProcess, FakeChatAPI]:
        """``copilot -p go --allow-all-tools FLAGS`` with the fake model asking for each of ``commands``."""
        script = [("bash", {"command": c, "description": "Run it"}) for c in commands]
        with FakeChatAPI(script) as api:
            env = dict(self.env, COPILOT_PROVIDER_BASE_URL=api.base_url)
            proc = subprocess.run([self.copilot, "-p", "go", "--allow-all-tools", "--no-auto-update", *flags],
                                  capture_output=True, text=True, env=env, cwd=self.project, timeout=120)
        assert proc.returncode == 0, f"copilot exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
        assert len(api.tool_results()) == len(commands), (
            f"the model's calls did not all come back:\n{proc.stdout}\n{proc.stderr}")
        return proc, api


@pytest.fixture
def session(tmp_path, copilot):
    box = Session(tmp_path, copilot)
    yield box
    box.stop_hook_servers()


def results(api: FakeChatAPI) -> list[str]:
    return [content_text(m) for m in api.tool_results()]


def test_user_hook_denies_rm_outside_the_project_and_lets_ls_run(session):
    control = victim_dir(session.root, "control")
    session.run_copilot([f"rm -rf {control}"])
    assert not os.path.exists(control), "without phlegyas Copilot must run the rm (the control failed)"

    installed = session.phlegyas("install", "--agent", "copilot", "--user")
    assert "preToolUse" in installed.stdout
    with open(os.path.join(session.data_dir, "policy.toml"), "w") as fh:
        fh.write('[classes]\n"delete.temp_dir" = "deny"\n')  # the victim is under the test's temp dir
    victim = victim_dir(session.root, "precious")
    proc, api = session.run_copilot([f"rm -rf {victim}", "ls"])

    assert os.path.isfile(os.path.join(victim, "data.txt")), f"phlegyas let the rm run:\n{proc.stdout}"
    rm_result, ls_result = results(api)
    assert rm_result.startswith("Denied by preToolUse hook: phlegyas: "), rm_result
    assert "delete.temp_dir" in rm_result
    assert "marker-file.txt" in ls_result, ls_result
    entries = {e["input"].get("command"): e for e in session.audit()}
    assert entries[f"rm -rf {victim}"]["decision"] == "deny"
    assert entries[f"rm -rf {victim}"]["host"] == "copilot"
    assert entries[f"rm -rf {victim}"]["hook_event"] == "preToolUse"
    assert entries["ls"]["decision"] == "allow" and entries["ls"]["host"] == "copilot"

    removed = session.phlegyas("uninstall", "--agent", "copilot", "--user")
    assert "removed" in removed.stdout
    assert not os.path.exists(os.path.join(session.home, ".copilot", "hooks", "phlegyas.json"))


def test_project_hook_ask_is_a_denial_in_prompt_mode(session):
    session.phlegyas("install", "--agent", "copilot", "--project", session.project)
    assert os.path.isfile(os.path.join(session.project, ".github", "hooks", "phlegyas.json"))
    victim = victim_dir(session.root, "precious")
    proc, api = session.run_copilot([f"rm -rf {victim}"], "--trust-folder")

    assert os.path.isfile(os.path.join(victim, "data.txt")), f"phlegyas let the rm run:\n{proc.stdout}"
    (rm_result,) = results(api)
    assert rm_result.startswith("Denied by preToolUse hook (unable to ask user for confirmation): phlegyas: "), \
        rm_result
    (entry,) = [e for e in session.audit() if e["input"].get("command") == f"rm -rf {victim}"]
    assert entry["decision"] == "ask" and entry["host"] == "copilot"
    assert "delete.temp_dir" in entry["findings"]


def test_interactive_ask_opens_copilots_dialog_with_the_reason(session):
    tmux = shutil.which("tmux")
    require("tmux is not available: cannot drive Copilot's interactive UI", tmux is not None)
    session.phlegyas("install", "--agent", "copilot", "--user")
    with open(os.path.join(session.home, ".copilot", "config.json"), "w") as fh:
        json.dump({"trustedFolders": [session.project], "banner": "never"}, fh)  # no folder-trust dialog
    victim = victim_dir(session.root, "precious")
    socket = os.path.join(session.root, "tmux.sock")
    script = [("bash", {"command": f"rm -rf {victim}", "description": "Clean up"})]
    with FakeChatAPI(script) as api:
        env = dict(session.env, COPILOT_PROVIDER_BASE_URL=api.base_url, TERM="xterm-256color")
        line = shlex.join(["env", "-i", *(f"{k}={v}" for k, v in env.items()), session.copilot,
                           "--no-auto-update", "--allow-all-tools", "-i", "go"])
        subprocess.run([tmux, "-S", socket, "new-session", "-d", "-x", "160", "-y", "50", "-c", session.project,
                        line + "; sleep 60"], check=True, timeout=30)
        try:
            pane, deadline = "", time.monotonic() + 90
            while time.monotonic() < deadline and not ("Hook permission request" in pane and "phlegyas: " in pane):
                time.sleep(0.5)
                pane = subprocess.run([tmux, "-S", socket, "capture-pane", "-p", "-J"], capture_output=True,
                                      text=True, timeout=30).stdout
            assert "Hook permission request" in pane and "Do you want to allow this tool call?" in pane, pane
            assert "delete.temp_dir" in pane, pane
            assert os.path.isfile(os.path.join(victim, "data.txt")), "the rm ran before anyone answered"
        finally:
            subprocess.run([tmux, "-S", socket, "kill-server"], capture_output=True, timeout=30)
    (entry,) = [e for e in session.audit() if e["input"].get("command") == f"rm -rf {victim}"]
    assert entry["decision"] == "ask" and entry["host"] == "copilot"
