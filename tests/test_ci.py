"""Under CI=true a test that misses what it needs fails instead of skipping (tests/conftest.py), and .ci/run
sets CI=true and stops when tmux cannot be installed."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import in_ci, require, require_corpus

CI_RUN = Path(__file__).resolve().parent.parent / ".ci" / "run"


@pytest.mark.parametrize("value, ci", [("true", True), ("TRUE", True), ("1", True), ("", False), ("false", False),
                                       (None, False)])
def test_in_ci_reads_the_ci_variable(monkeypatch, value, ci):
    if value is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", value)
    assert in_ci() is ci


def test_a_missing_requirement_skips_but_fails_under_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    require("present", True)
    with pytest.raises(pytest.skip.Exception, match="tmux is not installed"):
        require("tmux is not installed", False)
    monkeypatch.setenv("CI", "true")
    require("present", True)
    with pytest.raises(pytest.fail.Exception, match="tmux is not installed; CI=true, so this is a failure"):
        require("tmux is not installed", False)


def test_missing_corpora_skip_but_fail_under_ci(monkeypatch, tmp_path):
    monkeypatch.setenv("PHLEGYAS_CORPUS", str(tmp_path / "absent"))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no directory .*absent"):
        require_corpus("dcg")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no directory .*absent"):
        require_corpus("dcg")
    monkeypatch.setenv("PHLEGYAS_CORPUS", str(tmp_path))
    (tmp_path / "dcg.jsonl").write_text("{}\n")
    assert require_corpus("dcg") == tmp_path
    with pytest.raises(pytest.fail.Exception, match="tldr not in"):
        require_corpus("dcg", "tldr")


def test_ci_run_fails_when_tmux_cannot_be_installed(tmp_path):
    """.ci/run up to the install step, with no tmux on PATH and an apt-get that fails: it stops, non-zero."""
    script = CI_RUN.read_text()
    assert "export CI=true" in script
    head = script[:script.index("python3 -m venv")]  # everything before the venv and the tests
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "apt-get").write_text("#!/bin/sh\necho 'E: no network' >&2\nexit 100\n")
    (fake / "apt-get").chmod(0o755)
    dirname = shutil.which("dirname")
    if dirname:
        (fake / "dirname").symlink_to(dirname)
    (tmp_path / "run").write_text(head + "echo REACHED-THE-TESTS\n")
    proc = subprocess.run(["/bin/bash", str(tmp_path / "run")], capture_output=True, text=True, timeout=60,
                          env={"PATH": str(fake)}, cwd=tmp_path)
    assert proc.returncode != 0 and "REACHED-THE-TESTS" not in proc.stdout, proc
    assert "cannot install tmux" in proc.stderr
