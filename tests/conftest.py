"""Shared fixtures: an isolated home so no test reads or writes the real ~/.claude."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import phlegyas


def pytest_terminal_summary(terminalreporter):
    """Which phlegyas the tests ran against (tests/test_compiled.py runs them on a compiled install)."""
    terminalreporter.write_line(f"phlegyas analysis: {phlegyas.analysis_build()}")


@pytest.fixture
def isolated_env(tmp_path):
    """Environment variables for a phlegyas process that sees only tmp_path as its home."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PHLEGYAS_", "ANTHROPIC_", "OPENAI_", "CLAUDE_")) and k not in (
               "APPROVAL_CONFIDENCE_THRESHOLD", "DENIAL_CONFIDENCE_THRESHOLD", "AUDIT_LOG_FILE",
               "ENABLE_AUDIT_LOG", "CACHE_TTL_SECONDS", "PENDING_TTL_SECONDS", "LOG_LEVEL")}
    env["HOME"] = str(home)
    env["PHLEGYAS_HOME"] = str(home / ".claude" / "phlegyas")
    return env


@pytest.fixture
def run_cli(isolated_env, tmp_path):
    """Run `python -m phlegyas ARGS` as a real process in an isolated home; returns CompletedProcess."""
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)

    def run(*args: str, input: str | None = None, cwd=None, env_extra=None):
        env = dict(isolated_env, **(env_extra or {}))
        return subprocess.run([sys.executable, "-m", "phlegyas", *args], input=input, capture_output=True,
                              text=True, cwd=cwd or project, env=env, timeout=120)

    run.project = project
    run.home = isolated_env["HOME"]
    return run
