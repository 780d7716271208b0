"""Acceptance checks on the public corpora and on wrapped dangerous commands, through the whole gate.

The corpora (../shared/corpus) carry labels, and the targets on them live in benchmarks/_common.py, which
benchmarks/accuracy.py prints: here each is asserted, deciding every row in process with a default gate.
"""
from __future__ import annotations

import collections
import os
import subprocess
import sys
import time

import pytest
from conftest import benchmarks_common, require_corpus
from hypothesis import given, settings
from hypothesis import strategies as st
from test_analyze import DENIED, WRAPS, _wrap

from phlegyas.core.model import ToolCall, Verdict
from phlegyas.runtime import load_runtime


def _hook_rows() -> list[dict | None]:
    if not os.path.exists(benchmarks_common.corpus_path("dcg_hook")):
        return [None]  # the test then skips, or fails under CI=true (require_corpus)
    return benchmarks_common.load_corpus("dcg_hook")


@pytest.mark.parametrize("row", _hook_rows(), ids=lambda r: r["id"] if r else "absent")
def test_dcg_hook_payloads_are_blocked_without_a_crash(row, isolated_env, tmp_path):
    """Empty, invalid, wrongly typed payloads and one without its event name: a block (exit 2) with one
    clear line, never a traceback, never an allow, and a Read payload is never run as a command."""
    require_corpus("dcg_hook")
    env = dict(isolated_env, PHLEGYAS_HOOK_SERVER="off")
    proc = subprocess.run([sys.executable, "-P", "-m", "phlegyas.hosts.hook.client"], input=row["raw_input"].encode(),
                          capture_output=True, env=env, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2, proc
    assert proc.stdout == b""
    err = proc.stderr.decode()
    assert err.strip() and err.count("\n") <= 1 and "Traceback" not in err


@pytest.fixture(scope="module")
def default_gate():
    """Default settings, an empty home, no audit log, the project dir as cwd: as accuracy.py decides."""
    runtime, project = benchmarks_common.default_runtime()
    return lambda command: runtime.decide(ToolCall("Bash", {"command": command}, cwd=project))


@pytest.mark.parametrize("target", benchmarks_common.TARGETS, ids=lambda t: t.key)
def test_the_corpus_targets_are_met(default_gate, target):
    """GTFOBins' strong functions and RedCode's side effects: none allowed; dcg's destructive commands: none
    allowed, at least 90% denied; dcg's harmless ones: at most 3% denied; NL2Bash and tldr: every row
    decided. And no internal error on any row (an error denies, which would hide a miss)."""
    require_corpus(target.corpus)
    counts: collections.Counter = collections.Counter()
    offending = []
    started = time.perf_counter()
    for row in benchmarks_common.load_corpus(target.corpus):
        if not target.member(row):
            continue
        decision = default_gate(row["command"])
        verdict, error = str(decision.verdict), decision.tier == "error"
        counts[verdict] += 1
        counts["error"] += error
        if target.offending(verdict, error):
            offending.append(f"{row['id']}: {row['command'][:100]!r} -> {verdict} ({decision.reason[:100]})")
    seconds = time.perf_counter() - started
    misses = target.misses(counts)
    assert not misses, "; ".join(misses) + f" ({dict(counts)}, {seconds:.1f} s); for instance:\n" + "\n".join(
        offending[:15])


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
