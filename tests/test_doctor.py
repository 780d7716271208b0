"""`phlegyas doctor`, run as a real process in a scratch home: healthy after a real `phlegyas install` and
with the hook server up, then with one problem planted at a time, each reported with a fix.

What is planted is real: a policy file that does not parse, garbage in the approvals store, the hook
server stopped (SIGTERM: it cleans up) or killed (SIGKILL: its socket stays), no API key, a virtual
environment where ``mcp`` is not installed (this environment's packages, all but ``mcp``, linked into
a fresh venv), a hook whose interpreter is gone, a settings file that is not JSON.
"""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest
from processes import alive

from phlegyas.core.health import PROBLEM, WARNING, Check, guarded, scrubbed, secrets_in

API_KEY = "sk-ant-api03-" + "doctortest" * 5 + "-XYZW"
HOOK_LAUNCHER = "from phlegyas.hosts.hook.client import main; raise SystemExit(main())"




class Scratch:
    """A home, its data directory and a project; runs phlegyas there with ``python``."""

    def __init__(self, root: Path, env: dict, python: str = sys.executable):
        self.root, self.python = root, python
        self.home = Path(env["HOME"])
        self.data = Path(env["PHLEGYAS_HOME"])
        self.project = root / "project"
        self.project.mkdir(exist_ok=True)
        (self.project / ".git").mkdir(exist_ok=True)
        self.env = dict(env, ANTHROPIC_API_KEY=API_KEY, PHLEGYAS_HOOK_SERVER_IDLE="300")

    def run(self, *args: str, env: dict | None = None, drop: tuple[str, ...] = (), stdin: str | None = None):
        environ = {k: v for k, v in dict(self.env, **(env or {})).items() if k not in drop}
        return subprocess.run([self.python, "-m", "phlegyas", *args], input=stdin, capture_output=True, text=True,
                              cwd=self.project, env=environ, timeout=120)

    def doctor(self, *args: str, **kw) -> tuple[int, dict, str]:
        """(exit status, the JSON report by check name, the text report)."""
        as_json = self.run("doctor", "--json", *args, **kw)
        text = self.run("doctor", *args, **kw)
        assert "Traceback" not in as_json.stderr + text.stderr, as_json.stderr + text.stderr
        assert as_json.returncode == text.returncode, (as_json.stdout, text.stdout)
        report = json.loads(as_json.stdout)
        return as_json.returncode, {c["name"]: c for c in report["checks"]}, text.stdout

    def hook(self, command: str = "ls") -> None:
        event = {"hook_event_name": "PreToolUse", "cwd": str(self.project), "tool_name": "Bash",
                 "tool_input": {"command": command}, "session_id": "s"}
        proc = subprocess.run([self.python, "-P", "-c", HOOK_LAUNCHER], input=json.dumps(event), text=True,
                              capture_output=True, cwd=self.project, env=self.env, timeout=60)
        assert proc.returncode == 0, proc.stderr

    def server_pid(self) -> int | None:
        hookd = self.data / "hookd"
        for pid_file in hookd.glob("*.pid") if hookd.is_dir() else ():
            text = pid_file.read_text().strip()
            if text.isdigit() and alive(int(text)):
                return int(text)
        return None

    def start_server(self) -> int:
        """The way Claude Code starts it: a hook call finds no server, decides in-process, spawns one (at
        most one spawn every few seconds: the next calls try again, as Claude Code's next tool calls do)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            self.hook()
            tried = time.monotonic()
            while time.monotonic() - tried < 4:
                pid = self.server_pid()
                if pid is not None:
                    return pid
                time.sleep(0.05)
        raise AssertionError("no hook server started")

    def stop_server(self, sig: int = signal.SIGTERM) -> None:
        pid = self.server_pid()
        if pid is None:
            return
        os.kill(pid, sig)
        deadline = time.monotonic() + 20
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not alive(pid)


@pytest.fixture
def scratch(tmp_path, isolated_env):
    """Installed into the project (hooks and MCP server), the approvals store made, the server up."""
    box = Scratch(tmp_path, isolated_env)
    proc = box.run("install")
    assert proc.returncode == 0, proc.stderr
    assert box.run("pending").returncode == 0  # opens (so creates) the approvals store
    box.start_server()
    yield box
    box.stop_server()


def problems(report: dict) -> dict:
    return {name: c for name, c in report.items() if c["level"] == PROBLEM}


def warnings(report: dict) -> dict:
    return {name: c for name, c in report.items() if c["level"] == WARNING}


# -- healthy -----------------------------------------------------------------------------------------

def test_healthy_after_install_with_the_server_up(scratch):
    audit = scratch.data / "audit.jsonl"
    logged = audit.read_bytes()
    status, report, text = scratch.doctor()
    assert status == 0, text
    assert not problems(report) and not warnings(report), text
    assert text.startswith("phlegyas doctor: healthy")
    assert "answers: `rm -rf /` → deny" in report["Claude Code hook server"]["detail"]
    assert "PreToolUse and PermissionRequest" in report["Claude Code hooks (project settings)"]["detail"]
    assert "phlegyas →" in report["Claude Code MCP server (project)"]["detail"]
    assert "ANTHROPIC_API_KEY set" in report["Tier 3 (AI)"]["detail"]
    assert "passes its integrity check" in report["approvals store"]["detail"]
    assert "writable" in report["audit log"]["detail"]
    assert report["extra mcp"]["detail"].startswith("installed")
    assert API_KEY not in text and API_KEY[-8:] not in text
    assert audit.read_bytes() == logged  # the server's answer to the doctor was not audited
    assert all(set(c) == {"name", "ok", "level", "detail", "fix"} for c in report.values())


def test_policy_files_are_listed_with_their_rule_counts(scratch):
    (scratch.data / "policy.toml").write_text('[permissions]\nallow = ["Bash(npm test *)", "Read"]\n'
                                              'deny = ["Bash(make deploy *)"]\n')
    status, report, text = scratch.doctor()
    assert status == 0, text
    assert report["policy file ~/.claude/phlegyas/policy.toml"]["detail"] == "parses; 2 allow, 0 ask, 1 deny rules"


# -- one problem at a time ---------------------------------------------------------------------------

def test_a_wait_for_a_person_longer_than_the_hook_timeout(scratch):
    """Installed with no wait (30 s), then APPROVAL_WAIT_SECONDS raised: the PermissionRequest hook
    would be killed before the person answers. Installing again fixes it."""
    status, report, text = scratch.doctor(env={"APPROVAL_WAIT_SECONDS": "120"})
    assert status == 1
    hooks = report["Claude Code hooks (project settings)"]
    assert hooks["level"] == PROBLEM and "times out after 30 s" in hooks["detail"]
    assert "be given 120 s (APPROVAL_WAIT_SECONDS" in hooks["detail"] and "writes 150 s" in hooks["fix"]
    assert scratch.run("install", env={"APPROVAL_WAIT_SECONDS": "120"}).returncode == 0
    status, report, text = scratch.doctor(env={"APPROVAL_WAIT_SECONDS": "120"})
    assert status == 0, text


def test_a_broken_policy_file_names_its_line(scratch):
    (scratch.data / "policy.toml").write_text('[permissions]\nallow = ["Read"]\ndeny = [\n')
    status, report, text = scratch.doctor()
    assert status == 1
    broken = report["policy file ~/.claude/phlegyas/policy.toml"]
    assert broken["level"] == PROBLEM and not broken["ok"]
    assert "every call is denied" in broken["detail"]
    assert broken["fix"].startswith("fix line 3 of ~/.claude/phlegyas/policy.toml: TOML syntax error")
    assert list(problems(report)) == ["policy file ~/.claude/phlegyas/policy.toml"]
    assert text.splitlines()[2].startswith("✗ policy file") and "    fix: fix line 3" in text


def test_a_corrupt_store_fails_its_integrity_check(scratch):
    store = scratch.data / "approvals.sqlite3"
    sqlite3.connect(store).close()
    store.write_bytes(b"this is not an SQLite database, it was overwritten" * 100)
    status, report, text = scratch.doctor()
    assert status == 1
    assert list(problems(report)) == ["approvals store"], text
    assert "not a database" in report["approvals store"]["detail"]
    assert report["approvals store"]["fix"].startswith("move it away (mv ~/.claude/phlegyas/approvals.sqlite3")


def test_a_damaged_page_fails_the_integrity_check(scratch):
    """A file SQLite still opens, with a page overwritten: only the integrity check finds it."""
    store = scratch.data / "approvals.sqlite3"
    conn = sqlite3.connect(store)
    conn.executescript("PRAGMA journal_mode = DELETE; CREATE TABLE filler (x TEXT); CREATE INDEX f ON filler (x);")
    conn.executemany("INSERT INTO filler VALUES (?)", [(f"row {i} " * 20,) for i in range(2000)])
    conn.commit()
    conn.close()
    data = bytearray(store.read_bytes())
    page = 4096
    data[page * 4: page * 4 + 8] = b"\xff" * 8  # the header of one B-tree page
    store.write_bytes(bytes(data))
    with sqlite3.connect(store) as conn:
        assert conn.execute("SELECT value FROM meta").fetchall()  # it still opens and reads
    status, report, _ = scratch.doctor()
    assert status == 1
    assert report["approvals store"]["level"] == PROBLEM, report["approvals store"]
    assert "malformed" in report["approvals store"]["detail"] or "integrity" in report["approvals store"]["detail"]


def test_a_killed_server_is_a_problem_a_stopped_one_a_warning(scratch):
    scratch.stop_server(signal.SIGTERM)  # it removes its socket on the way out
    status, report, text = scratch.doctor()
    server = report["Claude Code hook server"]
    assert server["level"] == WARNING and "not running" in server["detail"], server
    assert "--start-server" in server["fix"]
    assert status == 0 and scratch.doctor("--strict")[0] == 1
    scratch.start_server()
    scratch.stop_server(signal.SIGKILL)  # the socket stays, nobody listens
    status, report, text = scratch.doctor()
    server = report["Claude Code hook server"]
    assert status == 1 and server["level"] == PROBLEM, text
    assert "no server listens" in server["detail"] and "--start-server" in server["fix"]
    status, report, text = scratch.doctor("--start-server")
    assert status == 0, text
    assert "(started by doctor)" in report["Claude Code hook server"]["detail"]


def test_tier3_off_says_why_and_how(scratch):
    status, report, text = scratch.doctor(drop=("ANTHROPIC_API_KEY",))
    tier3 = report["Tier 3 (AI)"]
    assert tier3["level"] == WARNING
    assert "ANTHROPIC_API_KEY environment variable is not set" in tier3["detail"]
    assert "ANTHROPIC_API_KEY" in tier3["fix"]
    assert status == 0  # a valid way to run: a person decides
    assert scratch.doctor("--strict", drop=("ANTHROPIC_API_KEY",))[0] == 1
    status, report, _ = scratch.doctor(env={"PHLEGYAS_LLM_PROVIDER": "openai"}, drop=("ANTHROPIC_API_KEY",))
    assert status == 1 and report["Tier 3 (AI)"]["level"] == PROBLEM  # meant to be on, and cannot be
    assert "PHLEGYAS_LLM_BASE_URL" in report["Tier 3 (AI)"]["fix"]


def test_a_setting_that_does_not_parse(scratch):
    status, report, _ = scratch.doctor(env={"PHLEGYAS_MODE": "yolo"})
    assert status == 1
    assert report["settings"]["level"] == PROBLEM and "PHLEGYAS_MODE" in report["settings"]["detail"]


def test_a_hook_whose_interpreter_is_gone(scratch):
    settings = scratch.project / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace(json.dumps(sys.executable)[1:-1], "/nonexistent/venv/bin/python"))
    status, report, _ = scratch.doctor()
    hooks = report["Claude Code hooks (project settings)"]
    assert status == 1 and hooks["level"] == PROBLEM
    assert "does not exist" in hooks["detail"] and hooks["fix"] == "run `phlegyas install` (it writes this " \
                                                                  "interpreter's path)"


def test_a_settings_file_that_is_not_json(scratch):
    (scratch.project / ".claude" / "settings.local.json").write_text('{"hooks": {\n  "PreToolUse": [,]\n}}\n')
    status, report, _ = scratch.doctor()
    local = report["Claude Code hooks (local settings)"]
    assert status == 1 and local["level"] == PROBLEM
    assert "settings.local.json:2:" in local["detail"] and "not valid JSON" in local["detail"]


def test_nothing_wired(tmp_path, isolated_env):
    box = Scratch(tmp_path, isolated_env)
    status, report, text = box.doctor()
    assert status == 1
    wiring = report["Claude Code wiring"]
    assert wiring["level"] == PROBLEM
    assert "`phlegyas install`" in wiring["fix"] and "`phlegyas install --user`" in wiring["fix"]
    assert report["Claude Code hook server"]["level"] == "ok"  # nothing starts it: nothing to report


# -- an environment without the mcp extra --------------------------------------------------------------

def venv_without(root: Path, hidden: str) -> str:
    """A fresh virtual environment holding links to this environment's packages, all but ``hidden``:
    to it, ``hidden`` is not installed. Directories this environment adds through ``.pth`` lines are
    linked entry by entry too, so ``hidden`` cannot come in through them."""
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    sources = [Path(sysconfig.get_path("purelib"))]
    for pth in sorted(sources[0].glob("*.pth")):
        sources += [Path(line.strip()) for line in pth.read_text().splitlines()
                    if line.strip() and not line.startswith(("#", "import")) and Path(line.strip()).is_dir()]
    for source in sources:
        for entry in source.iterdir():
            name = entry.name.split("-")[0] if entry.name.endswith(".dist-info") else entry.name
            keep = not (entry.suffix == ".pth" and source != sources[0])
            if name != hidden and keep and not (site / entry.name).exists() and entry.name != "__pycache__":
                if entry.suffix == ".pth" and any(not line.startswith(("#", "import")) and line.strip()
                                                  for line in entry.read_text().splitlines()):
                    continue  # a .pth adding directories: its entries were linked above
                (site / entry.name).symlink_to(entry)
    return python


def test_a_wired_mcp_server_without_the_mcp_extra(tmp_path, isolated_env):
    python = venv_without(tmp_path, "mcp")
    probe = subprocess.run([python, "-P", "-c", "import importlib.util as u; print(u.find_spec('mcp'), "
                                                "u.find_spec('phlegyas.hosts.mcp.server') is not None)"],
                           capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert probe.stdout.split() == ["None", "True"], probe.stdout + probe.stderr
    box = Scratch(tmp_path, isolated_env, python=python)
    refused = box.run("install")  # install writes no server that cannot start …
    assert refused.returncode == 3 and "the MCP server cannot start" in refused.stderr
    assert box.run("install", "--hook").returncode == 0
    from phlegyas.hosts.claude_code.install import SERVER_NAME, mcp_server_entry  # … so plant what an older one wrote

    (box.project / ".mcp.json").write_text(json.dumps({"mcpServers": {SERVER_NAME: mcp_server_entry(python)}}))
    box.start_server()
    try:
        status, report, text = box.doctor()
    finally:
        box.stop_server()
    assert status == 1, text
    server = report["Claude Code MCP server (project)"]
    assert server["level"] == PROBLEM and "has no mcp SDK" in server["detail"]
    assert server["fix"] == "pip install 'phlegyas[mcp]'"
    assert report["extra mcp"]["detail"].startswith("not installed (pip install 'phlegyas[mcp]'")
    assert list(problems(report)) == ["Claude Code MCP server (project)"], text


# -- never a crash, never a secret -----------------------------------------------------------------------

def test_a_check_that_raises_becomes_a_problem_line():
    def broken():
        raise KeyError("boom")

    (check,) = guarded("trust store", broken)
    assert check.level == PROBLEM and "KeyError" in check.detail and check.fix


def test_secrets_are_never_printed(scratch):
    """An API key pasted into the wrong variable ends up in an error message: it is masked there."""
    status, report, text = scratch.doctor(env={"PHLEGYAS_LLM_BASE_URL": API_KEY,
                                               "ANTHROPIC_BASE_URL": "https://me:hunter2hunter2@llm.example/"})
    assert status == 1 and report["settings"]["level"] == PROBLEM
    assert API_KEY not in text and "hunter2" not in text
    assert API_KEY not in json.dumps(report)


def test_scrubbing_masks_secret_variables_values():
    environ = {"ANTHROPIC_API_KEY": API_KEY, "GITHUB_TOKEN": "ghp_" + "a" * 36, "HOME": "/home/u"}
    check = scrubbed(Check("x", PROBLEM, f"got {API_KEY} and ghp_{'a' * 36}", f"unset {API_KEY}"), secrets_in(environ))
    assert API_KEY not in check.detail + check.fix and "ghp_" + "a" * 36 not in check.detail
    assert "/home/u" not in secrets_in(environ)


def test_help_explains_levels_and_exit_status(run_cli):
    proc = run_cli("doctor", "--help")
    assert proc.returncode == 0
    for words in ("exit status", "problem:", "warning:", "--json", "--strict", "--start-server", "--project"):
        assert words in proc.stdout
