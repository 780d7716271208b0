"""The program table's own examples, run through the full analysis, and the table's consistency."""
from __future__ import annotations

import pytest

from phlegyas.analysis import programs as P
from phlegyas.analysis.dispatch import analyze
from phlegyas.analysis.shell.effects import check_handlers
from phlegyas.core.analysis import Analysis, AnalysisEnv
from phlegyas.core.model import ToolCall

ENV = AnalysisEnv(cwd="/home/u/proj", home="/home/u", project_root="/home/u/proj")
LABELS = {"readonly", "safe", "notsafe", "reads", "writes", "deletes", "executes", "network", "upload",
          "mutates", "unknown"}


def run(command: str) -> Analysis:
    return analyze(ToolCall("Bash", {"command": command}, cwd=ENV.cwd), ENV)


def effects(a: Analysis) -> list[str]:
    return [e for s in a.subcommands for e in s.effects]


def holds(label: str, a: Analysis) -> bool:
    """What each example label promises about the analysis."""
    eff = effects(a)
    if label == "readonly":
        return a.readonly
    if label == "safe":
        return a.safe is not None
    if label == "notsafe":
        return a.safe is None
    if label == "mutates":
        return not a.readonly
    prefixes = {"reads": ("reads",), "writes": ("writes",), "deletes": ("deletes",), "upload": ("uploads",),
                "executes": ("executes", "runs a file", "starts "), "network": ("network",),
                "unknown": ("unknown program",)}[label]
    return any(e.startswith(prefixes) for e in eff)


EXAMPLES = P.all_examples()


def test_every_entry_has_examples():
    seen: set[int] = set()
    missing = []
    for table in (P.PROGRAMS, P.WRAPPERS):
        for name, entry in table.items():
            if id(entry) not in seen:
                seen.add(id(entry))
                if not entry.examples:
                    missing.append(name)
    assert missing == []


def test_table_covers_the_common_toolbox():
    must = ("ls cat head tail grep find wc tree du df ps which echo pwd date uname whoami env stat file diff jq "
            "sort uniq cut awk sed git npm yarn pnpm pip uv poetry pytest cargo go dotnet mvn gradle ruff black "
            "eslint prettier tsc mypy flake8 curl wget tar rm cp mv docker kubectl terraform gh make").split()
    known = set(P.PROGRAMS) | set(P.WRAPPERS)
    assert [m for m in must if m not in known] == []
    assert len(set(P.PROGRAMS) | set(P.WRAPPERS)) >= 150


def test_handlers_exist_and_operand_modes_are_known():
    assert check_handlers() == []
    for name, spec in P.PROGRAMS.items():
        assert spec.operands in P.OPERAND_MODES, name


@pytest.mark.parametrize("program,command,expected", EXAMPLES, ids=[f"{p}:{c}" for p, c, _ in EXAMPLES])
def test_example(program: str, command: str, expected: str):
    labels = expected.split()
    assert set(labels) <= LABELS, f"unknown label in {expected!r}"
    a = run(command)
    failed = [label for label in labels if not holds(label, a)]
    assert not failed, f"{command!r}: {failed} do not hold; safe={a.safe} readonly={a.readonly} effects={effects(a)}"


@pytest.mark.parametrize("written,expected", [
    ("/usr/bin/rm", ("rm", True)), ("/bin/ls", ("ls", True)), ("./gradlew", ("gradlew", True)),
    ("node_modules/.bin/eslint", ("eslint", True)), (".venv/bin/pytest", ("pytest", True)),
    ("./deploy.sh", ("deploy.sh", False)), ("/opt/tools/x", ("x", False)), ("rm", ("rm", True)),
])
def test_resolve_path_program(written, expected):
    assert P.resolve_path_program(written) == expected


@pytest.mark.parametrize("name,canonical", [
    ("python3", "python"), ("python3.12", "python"), ("pip3", "pip"), ("ruby3.2", "ruby"), ("git", "git"),
    ("pypy3", "pypy"), ("ls", "ls"),
])
def test_canonical(name, canonical):
    assert P.canonical(name) == canonical
