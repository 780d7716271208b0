"""The decision tables of ``tests/cases/*.tsv``: hand-written calls, each with the verdict it must get.

One case per line, tab-separated: ``VERDICT<TAB>COMMAND`` for a Bash call, or
``VERDICT<TAB>TOOL<TAB>JSON-INPUT`` for any other tool. ``VERDICT`` is ``allow``, ``ask`` or ``deny``, the
decision in the default permission mode with an empty policy and no Tier 3, for an agent whose project is
``/home/u/proj`` (also the cwd) and whose home is ``/home/u``. ``#`` starts a comment line. Each file
covers one subject with a safe and an unsafe form of the same program, so that a change that moves a
whole class shows up here, not only in one row.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from phlegyas.analysis.dispatch import analyze
from phlegyas.analysis.shell.parse import parse
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.engine import Gate
from phlegyas.core.model import ToolCall
from phlegyas.policy.files import empty_policy
from phlegyas.runtime import default_checkers

ENV = AnalysisEnv(cwd="/home/u/proj", home="/home/u", project_root="/home/u/proj")
CASES_DIR = Path(__file__).parent / "cases"
VERDICTS = ("allow", "ask", "deny")


def load_cases() -> list[tuple[str, str, str, dict]]:
    """Every case as (``file:line``, verdict, tool, input)."""
    out = []
    for path in sorted(CASES_DIR.glob("*.tsv")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            where = f"{path.name}:{number}"
            fields = line.split("\t")
            if fields[0] not in VERDICTS or len(fields) not in (2, 3):
                raise ValueError(f"{where}: expected VERDICT<TAB>COMMAND or VERDICT<TAB>TOOL<TAB>JSON")
            if len(fields) == 2:
                out.append((where, fields[0], "Bash", {"command": fields[1]}))
            else:
                out.append((where, fields[0], fields[1], json.loads(fields[2])))
    return out


CASES = load_cases()
_GATE = Gate(empty_policy(), default_checkers(), analyzer=analyze, parser=parse, env=lambda call: ENV)


def test_the_tables_are_large_and_two_sided():
    assert len(CASES) >= 400
    by_file: dict[str, set[str]] = {}
    for where, verdict, _, _ in CASES:
        by_file.setdefault(where.split(":")[0], set()).add(verdict)
    one_sided = [name for name, verdicts in by_file.items() if "allow" not in verdicts or verdicts == {"allow"}]
    assert one_sided == []


@pytest.mark.parametrize("where, verdict, tool, data", CASES, ids=[c[0] for c in CASES])
def test_case(where: str, verdict: str, tool: str, data: dict):
    decision = _GATE.decide(ToolCall(tool, data, cwd=ENV.cwd))
    assert str(decision.verdict) == verdict, f"{where}: {tool} {data} → {decision.verdict}: {decision.reason}"
