"""End to end with the real Gemini CLI (``@google/gemini-cli``, PROTOCOLS.md §6), offline.

Gemini CLI is installed from npm into a cache directory once (``~/.cache/phlegyas-tests/gemini``, or
``$PHLEGYAS_TEST_GEMINI_DIR``), pinned, and talks to a loopback fake of the Gemini API
(``gemini_fake_api``, through ``GOOGLE_GEMINI_BASE_URL`` with an API key) that plays the model: it asks
for the ``run_shell_command`` calls of each test, then ends the turn. ``gemini -p go --yolo`` runs them
without asking (so Gemini's own approval is out of the way), in a temporary home;
``GEMINI_CLI_TRUST_WORKSPACE=true`` stands for the user trusting the folder, without which Gemini CLI runs
no hooks (``--skip-trust`` is not used: 0.61.0 reads the project's settings before it applies that flag,
so they, and the project's hooks, are left out). The tests skip only when npm
itself is missing (a failure under CI=true).

- (a) control: without phlegyas, the model's ``rm -rf ~/.ssh`` deletes it (so it is phlegyas, not Gemini's
  own checks, that saves it below);
- (b) with ``phlegyas install --agent gemini`` in the project (``.gemini/settings.json``), the same ``rm``
  is denied: the directory survives, the model reads phlegyas's reason as the tool's error, and the audit
  log has the deny with ``"host": "gemini"``; an ``rm`` phlegyas asks about is blocked too (the run ends:
  Gemini's own "ask" would have hung it); ``ls`` runs, its output reaching the model;
- (c) with ``phlegyas install --agent gemini --user`` (``~/.gemini/settings.json``), the same.
"""
from __future__ import annotations

import json
import os
import subprocess

import pytest
from e2e_hosts import HostSession, npm_install_once, reported_version
from gemini_fake_api import FakeGeminiAPI

VERSION = "0.61.0"
PACKAGE = f"@google/gemini-cli@{VERSION}"
CACHE = os.environ.get("PHLEGYAS_TEST_GEMINI_DIR") or os.path.join(
    os.path.expanduser("~"), ".cache", "phlegyas-tests", "gemini")
SHELL = "run_shell_command"


def _binary() -> str:
    return os.path.join(CACHE, "node_modules", ".bin", "gemini")


def _works(binary: str) -> bool:
    return reported_version(binary) == VERSION


@pytest.fixture(scope="session")
def gemini_cli() -> str:
    """The path of a working ``gemini`` of VERSION, installed from npm into the cache on first use."""
    binary = _binary()
    if not _works(binary):
        npm_install_once(CACHE, "Gemini CLI", [(CACHE, PACKAGE, lambda: _works(binary))])
        assert _works(binary), f"{binary} does not run after npm install"
    return binary


class Session(HostSession):
    """A temporary home and project, and ways to run phlegyas and Gemini CLI there."""

    def __init__(self, root, gemini: str):
        super().__init__(root)
        self.gemini = gemini
        self.data_dir = os.path.join(self.home, ".claude", "phlegyas")  # PHLEGYAS_HOME's default
        os.makedirs(self.data_dir)
        os.makedirs(os.path.join(self.home, ".gemini"))
        os.makedirs(self.project)
        with open(os.path.join(self.project, "marker-file.txt"), "w") as fh:
            fh.write("x\n")
        with open(os.path.join(self.home, ".gemini", "settings.json"), "w") as fh:  # the offline recipe
            json.dump({"security": {"auth": {"selectedType": "gemini-api-key"}},
                       "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
                       "privacy": {"usageStatisticsEnabled": False}}, fh)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("PHLEGYAS_", "GEMINI_", "GOOGLE_", "ANTHROPIC_", "OPENAI_", "CLAUDE_"))
                    and k not in ("AUDIT_LOG_FILE", "ENABLE_AUDIT_LOG", "APPROVAL_WAIT_SECONDS",
                                  "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")}
        self.env.update(HOME=self.home, GEMINI_API_KEY="fake", GEMINI_CLI_TRUST_WORKSPACE="true", NO_COLOR="1",
                        TERM="dumb",
                        PHLEGYAS_HOOK_SERVER_IDLE="120")

    def victim(self) -> str:
        """``~/.ssh`` with a key in it: deleting it is a deny in phlegyas's default policy."""
        path = os.path.join(self.home, ".ssh")
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "id_ed25519"), "w") as fh:
            fh.write("keep me\n")
        return path

    def run_gemini(self, commands: list[str]) -> tuple[dict, FakeGeminiAPI]:
        """``gemini -p go --yolo --output-format json`` with the fake model asking for each of
        ``commands``; returns Gemini's JSON result and the fake (which saw the tool results)."""
        script = [(SHELL, {"command": c, "description": "Run it"}) for c in commands]
        with FakeGeminiAPI(script) as api:
            env = dict(self.env, GOOGLE_GEMINI_BASE_URL=api.base_url)
            proc = subprocess.run([self.gemini, "-p", "go", "--yolo", "--output-format", "json"],
                                  capture_output=True, text=True, env=env, cwd=self.project, timeout=120)
        assert proc.returncode == 0, f"gemini exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr[-4000:]}"
        responses = api.function_responses()
        assert [r.get("name") for r in responses] == [SHELL] * len(commands), (
            f"the model's calls did not all come back:\n{proc.stdout}\n{proc.stderr[-4000:]}")
        return json.loads(proc.stdout), api


@pytest.fixture
def session(tmp_path, gemini_cli):
    box = Session(tmp_path, gemini_cli)
    yield box
    box.stop_hook_servers()


def _check_blocked_and_ls_ran(session: Session, victim: str) -> None:
    """``rm -rf ~/.ssh`` (a deny) and ``rm -rf`` of a temporary directory outside the project (an ask, which
    must come out as a block: Gemini's own "ask" would hang this headless run) are blocked; ``ls`` runs."""
    temp_victim = os.path.join(session.root, "outside", "precious")
    os.makedirs(temp_victim)
    output, api = session.run_gemini([f"rm -rf {victim}", f"rm -rf {temp_victim}", "ls"])
    rm_result, ask_result, ls_result = (r["response"] for r in api.function_responses())
    assert os.path.isfile(os.path.join(victim, "id_ed25519")), "phlegyas let the rm run"
    assert os.path.isdir(temp_victim), "phlegyas let the rm it asks about run"
    assert rm_result.get("error", "").startswith("Tool execution blocked: phlegyas: "), rm_result
    assert "delete.catastrophic" in rm_result["error"]
    assert ask_result.get("error", "").startswith("Tool execution blocked: phlegyas: "), ask_result
    assert "delete.temp_dir" in ask_result["error"] and "wants a person to approve" in ask_result["error"]
    assert "marker-file.txt" in ls_result.get("output", ""), ls_result
    assert output["stats"]["tools"]["byName"][SHELL]["count"] == 3
    entries = {e["input"].get("command"): e for e in session.audit()}
    assert entries[f"rm -rf {victim}"]["decision"] == "deny"
    assert entries[f"rm -rf {victim}"]["host"] == "gemini"
    assert entries[f"rm -rf {victim}"]["hook_event"] == "BeforeTool"
    assert entries[f"rm -rf {temp_victim}"]["decision"] == "ask"
    assert entries["ls"]["decision"] == "allow" and entries["ls"]["host"] == "gemini"


def test_without_phlegyas_the_rm_runs(session):
    victim = session.victim()
    session.run_gemini([f"rm -rf {victim}"])
    assert not os.path.exists(victim), "without phlegyas the rm must run (the control failed)"
    assert session.audit() == []


def test_project_install_denies_the_rm_and_lets_ls_run(session):
    victim = session.victim()
    installed = session.phlegyas("install", "--agent", "gemini", "--project", session.project)
    settings = os.path.join(session.project, ".gemini", "settings.json")
    assert settings in installed.stdout and "trusted_hooks.json" in installed.stdout
    _check_blocked_and_ls_ran(session, victim)
    with open(os.path.join(session.home, ".gemini", "trusted_hooks.json")) as fh:  # Gemini's fingerprint of it
        trusted = json.load(fh)[session.project]
    with open(settings) as fh:
        command = json.load(fh)["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
    assert trusted == [f"phlegyas:{command}"]


def test_user_install_denies_the_rm_and_lets_ls_run(session):
    victim = session.victim()
    session.phlegyas("install", "--agent", "gemini", "--user")
    assert not os.path.exists(os.path.join(session.project, ".gemini"))
    _check_blocked_and_ls_ran(session, victim)
