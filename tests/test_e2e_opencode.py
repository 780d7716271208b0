"""End to end with the real OpenCode binary (PROTOCOLS.md §6), offline but for the npm registry.

OpenCode (``opencode-ai``, pinned) is installed from npm into a cache directory once
(``~/.cache/phlegyas-tests/opencode``, or ``$PHLEGYAS_TEST_OPENCODE_DIR``), and talks to a loopback fake
of the OpenAI chat-completions API (``opencode_fake_api``) that plays the model: it asks for the bash
calls of each test, then ends the turn. Everything runs in a temporary home and project.

At start OpenCode npm-installs ``@opencode-ai/plugin`` into each of its config directories
(``~/.config/opencode`` and the project's ``.opencode``) unless their ``node_modules`` and lock file
already hold it. That install (tens of seconds, from the registry) is made once into the cache, with
the same pinned version, and each test's directories get it (a symlink and the two package files), so
OpenCode finds it done, as on a second start.

- (a) without phlegyas, OpenCode (with its own permissions set to allow bash and directories outside
  the project) runs the model's ``rm -rf`` of a directory outside the project: the control;
- (b) with ``phlegyas install --agent opencode`` (the real CLI) the same ``rm -rf`` is stopped by the
  plugin (phlegyas asks about a delete in a shared temp directory, and OpenCode cannot ask from a
  plugin, so it is blocked with the reason), a ``rm -rf`` a user deny rule names is denied (audited
  with ``"host": "opencode"``), and ``ls`` runs, its output reaching the model;
- (c) a plugin whose hook cannot start blocks the call (fail closed), in OpenCode's own runtime.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from e2e_hosts import HostSession, npm_install_once, reported_version, victim_dir
from opencode_fake_api import FakeChatAPI

VERSION = "1.18.33"
PACKAGE = f"opencode-ai@{VERSION}"
PLUGIN_PACKAGE = f"@opencode-ai/plugin@{VERSION}"
CACHE = os.environ.get("PHLEGYAS_TEST_OPENCODE_DIR") or os.path.join(
    os.path.expanduser("~"), ".cache", "phlegyas-tests", "opencode")
RUN_TIMEOUT = 120


def _binary() -> str:
    return os.path.join(CACHE, "node_modules", ".bin", "opencode")


def _deps() -> str:
    """Where ``@opencode-ai/plugin`` is installed once, as OpenCode installs it into its config dirs."""
    return os.path.join(CACHE, "plugin-deps")


def _works(binary: str) -> bool:
    return reported_version(binary) == VERSION


def _deps_ready() -> bool:
    try:
        with open(os.path.join(_deps(), "node_modules", "@opencode-ai", "plugin", "package.json")) as fh:
            return json.load(fh).get("version") == VERSION and os.path.isfile(
                os.path.join(_deps(), "package-lock.json"))
    except (OSError, ValueError):
        return False


@pytest.fixture(scope="session")
def opencode() -> str:
    """The path of a working ``opencode`` of VERSION, installed from npm into the cache on first use."""
    binary = _binary()
    if not (_works(binary) and _deps_ready()):
        npm_install_once(CACHE, "OpenCode", [(CACHE, PACKAGE, lambda: _works(binary)),
                                             (_deps(), PLUGIN_PACKAGE, _deps_ready)],
                         npm_args=["--save-exact"],
                         env=dict(os.environ, npm_config_cache=os.path.join(CACHE, "npm-cache")))
        assert _works(binary), f"{binary} does not run after npm install"
        assert _deps_ready(), f"{PLUGIN_PACKAGE} is not in {_deps()} after npm install"
    return binary


class Session(HostSession):
    """A temporary home and project, and ways to run phlegyas and OpenCode there."""

    def __init__(self, root, binary: str):
        super().__init__(root)
        self.binary = binary
        self.config_dir = os.path.join(self.home, ".config", "opencode")
        for directory in (self.config_dir, os.path.join(self.project, ".opencode")):
            _give_plugin_deps(directory)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("PHLEGYAS_", "OPENCODE_", "OPENAI_", "ANTHROPIC_", "XDG_", "npm_"))
                    and k not in ("AUDIT_LOG_FILE", "ENABLE_AUDIT_LOG", "APPROVAL_WAIT_SECONDS", "OLDPWD")}
        self.env.update(
            PWD=self.project,  # OpenCode reads $PWD: the test runner's would make it ignore the project's config
            HOME=self.home, XDG_CONFIG_HOME=os.path.join(self.home, ".config"),
            XDG_DATA_HOME=os.path.join(self.home, ".local", "share"),
            XDG_STATE_HOME=os.path.join(self.home, ".local", "state"),
            XDG_CACHE_HOME=os.path.join(CACHE, "xdg-cache"),  # what OpenCode downloads stays cached
            npm_config_cache=os.path.join(CACHE, "npm-cache"),
            OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_MODELS_FETCH="1", OPENCODE_DISABLE_LSP_DOWNLOAD="1",
            OPENCODE_DISABLE_CLAUDE_CODE="1", PHLEGYAS_HOOK_SERVER_IDLE="120")
        self.data_dir = os.path.join(self.home, ".claude", "phlegyas")  # the default, under HOME

    def run(self, script: list[tuple[str, dict]]) -> tuple[str, FakeChatAPI]:
        """``opencode run go`` with the fake model playing ``script``; returns OpenCode's output."""
        with FakeChatAPI(script) as api:
            config = {
                "$schema": "https://opencode.ai/config.json", "autoupdate": False, "share": "disabled",
                "model": "fake/fake-model",
                # OpenCode alone would run these calls: the control shows it, so phlegyas is what stops them
                "permission": {"bash": "allow", "external_directory": "allow"},
                "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Fake",
                                      "options": {"baseURL": api.base_url + "/v1", "apiKey": "fake"},
                                      "models": {"fake-model": {"name": "Fake model", "tool_call": True}}}}}
            with open(os.path.join(self.project, "opencode.json"), "w") as fh:
                json.dump(config, fh)
            try:
                proc = subprocess.run([self.binary, "run", "--print-logs", "go"], capture_output=True, text=True,
                                      env=self.env, cwd=self.project, timeout=RUN_TIMEOUT)
            except subprocess.TimeoutExpired as exc:
                pytest.fail(f"opencode run took over {RUN_TIMEOUT} s:\n{_text(exc.stdout)}\n{_text(exc.stderr)[-4000:]}")
        output = proc.stdout + proc.stderr
        assert proc.returncode == 0, f"opencode exited {proc.returncode}:\n{output[-6000:]}"
        assert api.chat_requests(), f"OpenCode never asked the fake model:\n{output[-6000:]}"
        return output, api


def _give_plugin_deps(directory: str) -> None:
    """``directory`` as OpenCode leaves it after installing ``@opencode-ai/plugin`` there (from the cache)."""
    os.makedirs(directory, exist_ok=True)
    os.symlink(os.path.join(_deps(), "node_modules"), os.path.join(directory, "node_modules"))
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(os.path.join(_deps(), name), os.path.join(directory, name))


def _text(data) -> str:
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else (data or "")


@pytest.fixture
def session(tmp_path, opencode):
    box = Session(tmp_path, opencode)
    yield box
    box.stop_hook_servers()


def _bash(command: str) -> tuple[str, dict]:
    return ("bash", {"command": command, "description": "Run it"})


# -- (a) the control --------------------------------------------------------------------------------

def test_without_phlegyas_opencode_runs_the_rm(session):
    victim = victim_dir(session.root, "precious-control")
    output, api = session.run([_bash(f"rm -rf {victim}")])
    assert not os.path.exists(victim), f"without phlegyas the rm must run (the control failed):\n{output[-4000:]}"
    assert len(api.tool_results()) == 1
    assert session.audit() == []


# -- (b) the plugin ------------------------------------------------------------------------------

def test_the_plugin_blocks_rm_and_lets_ls_run(session):
    asked = victim_dir(session.root, "precious")
    denied = victim_dir(session.root, "precious-denied")
    with open(os.path.join(session.project, "marker-file.txt"), "w") as fh:
        fh.write("x\n")
    os.makedirs(session.data_dir, exist_ok=True)
    with open(os.path.join(session.data_dir, "policy.toml"), "w") as fh:
        fh.write(f'[permissions]\ndeny = ["Bash(rm -rf {denied})"]\n')

    installed = session.phlegyas("install", "--agent", "opencode", "--project", session.project)
    plugin = os.path.join(session.project, ".opencode", "plugin", "phlegyas.js")
    assert plugin in installed.stdout and os.path.isfile(plugin)

    output, api = session.run([_bash(f"rm -rf {asked}"), _bash(f"rm -rf {denied}"), _bash("ls")])
    assert os.path.isfile(os.path.join(asked, "data.txt")), f"phlegyas let the rm run:\n{output[-4000:]}"
    assert os.path.isfile(os.path.join(denied, "data.txt")), f"phlegyas let the rm run:\n{output[-4000:]}"
    results = api.tool_results()
    assert len(results) == 3, results
    assert results[0].startswith("phlegyas asks: rm deletes ") and \
        results[0].endswith("(OpenCode cannot ask from a plugin)"), results[0]
    assert "delete.temp_dir" in results[0]
    assert results[1].startswith(f"phlegyas: deny rule Bash(rm -rf {denied})"), results[1]
    assert "marker-file.txt" in results[2], results[2]

    entries = {e["input"].get("command"): e for e in session.audit()}
    assert entries[f"rm -rf {asked}"]["decision"] == "ask"
    assert entries[f"rm -rf {denied}"]["decision"] == "deny"
    assert entries["ls"]["decision"] == "allow"
    for entry in entries.values():
        assert entry["host"] == "opencode" and entry["hook_event"] == "tool.execute.before"
        assert entry["tool_name"] == "Bash" and entry["cwd"] == session.project
        assert (entry["session_id"] or "").startswith("ses_")


# -- (c) failing closed ------------------------------------------------------------------------------

def test_a_plugin_whose_hook_cannot_start_blocks(session):
    victim = victim_dir(session.root, "precious-broken")
    session.phlegyas("install", "--agent", "opencode", "--project", session.project)
    plugin = os.path.join(session.project, ".opencode", "plugin", "phlegyas.js")
    with open(plugin, encoding="utf-8") as fh:
        text = fh.read()
    missing = os.path.join(session.root, "no-such-python")
    broken = text.replace(json.dumps(os.path.abspath(sys.executable)), json.dumps(missing), 1)
    assert broken != text
    with open(plugin, "w", encoding="utf-8") as fh:
        fh.write(broken)

    output, api = session.run([_bash(f"rm -rf {victim}")])
    assert os.path.isfile(os.path.join(victim, "data.txt")), f"a broken hook let the rm run:\n{output[-4000:]}"
    results = api.tool_results()
    assert len(results) == 1 and results[0].startswith("phlegyas: cannot run the hook"), results
    assert results[0].endswith("; blocked"), results
