"""Acceptance checks on the public corpora and on wrapped dangerous commands, through the whole gate."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_analyze import DENIED, WRAPS, _wrap

from phlegyas.core.model import ToolCall, Verdict
from phlegyas.runtime import load_runtime

CORPUS = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus")
HOOK_ROWS = os.path.join(CORPUS, "dcg_hook.jsonl")


def _hook_rows() -> list[dict]:
    if not os.path.exists(HOOK_ROWS):
        return []
    with open(HOOK_ROWS, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.mark.skipif(not os.path.exists(HOOK_ROWS), reason="shared corpora not present")
@pytest.mark.parametrize("row", _hook_rows(), ids=lambda r: r["id"])
def test_dcg_hook_payloads_are_blocked_without_a_crash(row, isolated_env, tmp_path):
    """Empty, invalid, wrongly typed payloads and one without its event name: a block (exit 2) with one
    clear line, never a traceback, never an allow, and a Read payload is never run as a command."""
    env = dict(isolated_env, PHLEGYAS_HOOK_SERVER="off")
    proc = subprocess.run([sys.executable, "-P", "-m", "phlegyas.hosts.claude_code.hook"], input=row["raw_input"].encode(),
                          capture_output=True, env=env, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2, proc
    assert proc.stdout == b""
    err = proc.stderr.decode()
    assert err.strip() and err.count("\n") <= 1 and "Traceback" not in err


@pytest.fixture(scope="module")
def gate(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    project = home / "project"
    project.mkdir()
    env = {"HOME": str(home), "PHLEGYAS_HOME": str(home / ".claude" / "phlegyas"), "ENABLE_AUDIT_LOG": "false"}
    runtime = load_runtime(env, str(project))
    return lambda command, mode=None: runtime.decide(ToolCall("Bash", {"command": command}, cwd=str(project),
                                                                     mode=mode))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(DENIED), st.lists(st.sampled_from(WRAPS), min_size=1, max_size=3),
       st.sampled_from(["default", "acceptEdits", "auto", "bypassPermissions"]))
def test_wrapping_a_denied_command_never_yields_allow(gate, command, templates, mode):
    assert gate(command).verdict is Verdict.DENY
    for template in templates:
        command = _wrap(template, command)
    decision = gate(command, mode)
    assert decision.verdict is not Verdict.ALLOW, (command, mode, decision.reason)
