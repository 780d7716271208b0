"""Issue 11, item 2: a program Tier 2 may allow is allowed only with the options its entry lists.

Property (b): adding any option that is not in a program's option spec to an allowed command never keeps it
Tier-2 safe. The commands are the table's own allowed examples; the option is put right after the program
name and its subcommands, where the program reads its options.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phlegyas.analysis import programs as P
from phlegyas.analysis.dispatch import analyze
from phlegyas.analysis.shell.effects import _option_sets
from phlegyas.analysis.shell.options import parse_options
from phlegyas.analysis.shell.parse import parse
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import ToolCall

ENV = AnalysisEnv(cwd="/home/u/proj", home="/home/u", project_root="/home/u/proj")


def safe(command: str) -> bool:
    return analyze(ToolCall("Bash", {"command": command}, cwd=ENV.cwd), ENV).safe is not None


def known_options(spec: P.Spec) -> frozenset[str]:
    sets = _option_sets(spec)
    return (sets[2] or frozenset()) | sets[0] | (spec.flags or frozenset()) | spec.whole


def insertion_point(command: str) -> tuple[list[str], int, frozenset[str]] | None:
    """The words of a one-command example, where options go (after program and subcommands) and every
    option name the specs on the way know; None for examples that are not one plain table program."""
    script = parse(command)
    if len(script.commands) != 1 or script.commands[0].redirects or script.commands[0].assignments:
        return None
    words = script.commands[0].words
    if any(w.dynamic or w.quoted for w in words):
        return None
    name, known_tool = P.resolve_path_program(words[0].text)
    spec = P.spec_for(name) if known_tool else None
    if spec is None:
        return None
    texts = [w.text for w in words]
    at, known = 1, known_options(spec)
    while spec.subcommands is not None:
        parsed = parse_options(list(words[at:]), _option_sets(spec)[0], spec.whole, True)
        if parsed.rest < 0:
            return None
        sub = texts[at + parsed.rest]
        nxt = spec.subcommands.get(sub) or spec.subcommands.get("*")
        if nxt is None:
            return None
        at += parsed.rest + 1
        spec = nxt
        known |= known_options(spec)
    if not (spec.readonly or spec.category) or spec.handler == "words_only":
        return None  # ``echo -A`` prints "-A": for echo and test an unknown option is a plain word
    return texts, at, known


ALLOWED = []
for _program, _command, _expect in P.all_examples():
    if "safe" in _expect.split() and safe(_command):
        point = insertion_point(_command)
        if point is not None:
            ALLOWED.append((_command, point))


def test_there_are_allowed_examples_to_vary():
    assert len(ALLOWED) >= 60


LONG = st.from_regex(r"\A--[a-z][a-z0-9]{2,10}(-[a-z]{2,6})?\Z")
SHORT = st.sampled_from([f"-{c}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(ALLOWED), option=st.one_of(LONG, SHORT))
def test_an_option_outside_the_spec_is_never_tier2_safe(case, option):
    command, (texts, at, known) = case
    if option in known:
        return  # a listed option: the property is about the others
    varied = " ".join([*texts[:at], option, *texts[at:]])
    assert not safe(varied), f"{varied!r} stayed Tier-2 safe although {option} is not in its option spec"


@pytest.mark.parametrize("command", [
    "cat -n ~/.ssh/id_ecdsa", "head -n 5 ~/.aws/credentials", "cat -A ~/.netrc",
])
def test_options_never_swallow_the_file_read(command):
    a = analyze(ToolCall("Bash", {"command": command}, cwd=ENV.cwd), ENV)
    assert a.safe is None
    assert any(f.id == "sensitive.read" for f in a.findings)


@pytest.mark.parametrize("command, allowed", [
    ("tar czf out.tgz *", False), ("tar czf out.tgz ./*", True), ("grep -n foo *", True),
    ("find * -name x", False), ("sed -i s/a/b/ *.txt", False), ("sed -i s/a/b/ ./*.txt", True),
])
def test_a_leading_glob_may_spell_an_option(command, allowed):
    assert safe(command) is allowed
