"""The build tools' option specs: complete, consistent, and judged for what each option's value is.

The examples in the table (tests/test_programs.py) and tests/cases/build.tsv cover the calls; these
tests cover what holds for every entry of the family at once, the Tier 1 detector for ``delete_flags``
and the values whose parse could swallow an operand.
"""
from __future__ import annotations

import pytest

from phlegyas.analysis.dispatch import analyze
from phlegyas.analysis.programs.build import BUILD_TOOLS
from phlegyas.analysis.programs.spec import Spec
from phlegyas.analysis.tier1.dispatch import DETECTORS
from phlegyas.analysis.tier1.options import detect_delete_flags
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import ToolCall, Verdict

ENV = AnalysisEnv(cwd="/home/u/proj", home="/home/u", project_root="/home/u/proj")


def run(command: str):
    return analyze(ToolCall("Bash", {"command": command}, cwd=ENV.cwd), ENV)


def _specs() -> list[tuple[str, Spec]]:
    out, seen = [], set()
    for name, spec in BUILD_TOOLS.items():
        stack = [(name, spec)]
        while stack:
            where, s = stack.pop()
            if id(s) in seen:
                continue
            seen.add(id(s))
            out.append((where, s))
            for sub, child in (s.subcommands or {}).items():
                stack.append((f"{where} {sub or '(none)'}", child))
    return out


SPECS = _specs()


def _values(s: Spec) -> frozenset[str]:
    return (s.value_opts | s.target_opts | s.write_flags | s.upload_flags | s.data_flags | s.read_flags
            | s.exec_flags | s.load_flags | s.delete_flags | s.source_flags)


def test_every_entry_tier2_may_allow_has_an_option_spec():
    missing = [where for where, s in SPECS if (s.readonly or s.category is not None) and s.flags is None]
    assert missing == []


def test_no_option_is_both_a_flag_and_a_value_option():
    """A flag listed as a value option swallows the next word (``cat -n FILE`` once read FILE as -n's value)."""
    both = [(where, sorted((s.flags or frozenset()) & _values(s))) for where, s in SPECS]
    assert [b for b in both if b[1]] == []


def test_the_delete_detector_is_registered_for_every_program_with_delete_flags():
    names = [name for name, s in BUILD_TOOLS.items()
             if s.delete_flags or any(c.delete_flags for c in (s.subcommands or {}).values())]
    assert "pytest" in names and "cargo" in names
    assert all(detect_delete_flags in DETECTORS.get(name, ()) for name in names)


@pytest.mark.parametrize("command,class_id,severity", [
    ("pytest --basetemp=/home/u", "delete.catastrophic", Verdict.DENY),
    ("pytest --basetemp ~", "delete.catastrophic", Verdict.DENY),
    ("python -m pytest --basetemp=/", "delete.catastrophic", Verdict.DENY),
    ("pytest --basetemp=/home/u/proj", "delete.catastrophic", Verdict.DENY),
    ("uv run pytest --basetemp=/usr/lib", "delete.catastrophic", Verdict.DENY),
    ("pytest --basetemp=/home/u/other", "delete.outside_project", Verdict.DENY),
    ("pytest --basetemp=/tmp/pytest-run", "delete.temp_dir", Verdict.ASK),
    ("pytest --basetemp=build/tmp", "delete.in_project", Verdict.ASK),
    ("cargo clean --target-dir /", "delete.catastrophic", Verdict.DENY),
    ("cargo clean --target-dir=target/x", "delete.in_project", Verdict.ASK),
    ("cmake -E rm -rf /", "delete.catastrophic", Verdict.DENY),
    ("cmake -E remove_directory /home/u", "delete.catastrophic", Verdict.DENY),
    ("cmake -E rm -rf build", "delete.in_project", Verdict.ASK),
])
def test_deletion_through_an_option_is_judged_like_rm_rf(command, class_id, severity):
    found = [f for f in run(command).findings if f.id.startswith("delete.")]
    assert [(f.id, f.severity) for f in found] == [(class_id, severity)]


def test_a_test_name_after_basetemp_is_no_deletion():
    a = run("pytest -k basetemp tests/test_tmp.py")
    assert not [f for f in a.findings if f.id.startswith("delete.")]
    assert a.safe is not None


@pytest.mark.parametrize("command", [
    "make -j install",          # -j takes an optional number: the next word is a goal, not its value
    "make -l deploy",
    "gcc -O -o /etc/x a.c",      # -O is a flag here: -o still writes /etc/x
    "gcc -W -o /etc/x a.c",      # a bare -W would take -o as its value
    "pytest -p no:x -c /tmp/p.ini",
    "go run ./cmd/app -exec /bin/sh",  # arguments after the package are the program's; the package is judged
])
def test_a_value_never_hides_what_comes_after(command):
    a = run(command)
    if command.startswith("go run"):
        assert a.safe is not None  # -exec here is the program's own argument, not go's
    else:
        assert a.safe is None


@pytest.mark.parametrize("command,effect", [
    ("pytest --cov-report=xml:build/cov.xml", "writes build/cov.xml"),
    ("javac -cp lib/a.jar:/tmp/b.jar A.java", "loads /tmp/b.jar"),
    ("cmake -DCMAKE_TOOLCHAIN_FILE=/tmp/t.cmake -B build", "loads /tmp/t.cmake"),
    ("rustc -C linker=/tmp/ld main.rs", "loads /tmp/ld"),
    ("make -C /tmp/other test", "loads /tmp/other"),
])
def test_a_path_inside_a_value_is_seen(command, effect):
    effects = [e for s in run(command).subcommands for e in s.effects]
    assert effect in effects


@pytest.mark.parametrize("command", [
    "pytest --runslow", "cargo build --relase", "eslint --fx src", "mypy --strictt src", "make --evl=x",
])
def test_an_option_not_in_the_spec_is_not_automatic(command):
    a = run(command)
    assert a.safe is None
    assert any("is an option phlegyas does not know" in e for s in a.subcommands for e in s.effects)
