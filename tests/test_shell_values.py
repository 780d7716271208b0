"""Values the agent's shell always has (tests/cases/shell_values.tsv holds the verdicts): HOME and PWD
under parameter operators, paths that substitutions only compute, and the words the analysis may
write as those values (``tier1.words.known_words``)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phlegyas.analysis.dispatch import analyze
from phlegyas.analysis.shell.analyze import expand_command
from phlegyas.analysis.shell.parse import parse
from phlegyas.analysis.shell.syntax import Word
from phlegyas.analysis.tier1.words import known_words, word_targets
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.engine import Gate
from phlegyas.core.model import ToolCall, Verdict
from phlegyas.policy.files import empty_policy
from phlegyas.runtime import default_checkers

ENV = AnalysisEnv(cwd="/home/u/proj", home="/home/u", project_root="/home/u/proj")
_GATE = Gate(empty_policy(), default_checkers(), analyzer=analyze, parser=parse, env=lambda call: ENV)


def _paths(text: str) -> list[str | None]:
    return [t.path for t in word_targets(Word(text, True, False, True), ENV)]


@pytest.mark.parametrize("text, want", [
    ("${HOME:?}", "/home/u"), ("${HOME:-/tmp/x}", "/home/u"), ("${HOME-/tmp/x}", "/home/u"), ("${HOME%/}", "/home/u"),
    ("${HOME:=/x}/a", "/home/u/a"), ("${PWD:?}/..", "/home/u"), ("${HOME:+/srv}", "/srv"),
    ("$(dirname \"$PWD\")", "/home/u"), ("$(dirname $(dirname $(pwd)))", "/home"), ("$(realpath ..)", "/home/u"),
    ("$(readlink -f ~)", "/home/u"), ("$(cd .. && pwd)", "/home/u"), ("$(echo $HOME)/.ssh", "/home/u/.ssh"),
    ("$(git rev-parse --show-toplevel)/src", "/home/u/proj/src"), ("$(basename $PWD)", "/home/u/proj/proj"),
])
def test_values_the_shell_always_has(text: str, want: str) -> None:
    assert _paths(text) == [want]


@pytest.mark.parametrize("text", ["${OLDPWD}", "$(cat dirs.txt)", "$(dirname $X)", "${HOME/u/v}", "$(ls -d ~)",
                                  "$(dirname a b)", "$(cd $X && pwd)"])
def test_other_values_stay_unknown(text: str) -> None:
    assert known_words([Word(text, True, False, True)], ENV)[0].dynamic


def test_known_words_keeps_what_would_split_or_become_an_option() -> None:
    env = AnalysisEnv(cwd="/home/u/my proj", home="/home/u", project_root="/home/u/my proj")
    unquoted = Word("$(pwd)", True, False, False)
    assert known_words([unquoted], env)[0] is unquoted  # bash splits it at the blank
    assert known_words([Word("$(pwd)", True, False, True)], env)[0].text == "/home/u/my proj"
    assert known_words([Word("${HOME:+-rf}", True, False, True)], ENV)[0].dynamic  # an option, not a path


_OPERATORS = st.sampled_from(["${HOME}", "${HOME:?}", "${HOME:?unset}", "${HOME:-/tmp/safe}", "${HOME-/tmp/x}",
                              "${HOME:=/tmp/y}", "${HOME%/}", "$(echo $HOME)", "$(realpath ~)", "$(readlink -f ~)",
                              "$(cd ~ && pwd)", "$(dirname $(dirname $(pwd)))/u"])
_TAILS = st.sampled_from(["", "/", "/*", "/.ssh", "/.aws/credentials"])


@settings(max_examples=120, deadline=None)
@given(_OPERATORS, _TAILS, st.booleans())
def test_a_home_written_any_way_is_still_the_home(home: str, tail: str, quoted: bool) -> None:
    """``rm -rf`` of the home directory (or what it holds), the home spelled with any operator or
    substitution that gives it: never anything but deny."""
    word = f'"{home}{tail}"' if quoted else f"{home}{tail}"
    decision = _GATE.decide(ToolCall("Bash", {"command": f"rm -rf {word}"}, cwd=ENV.cwd))
    assert decision.verdict is Verdict.DENY, (word, decision.reason)


_PIECES = st.sampled_from(["a", "rm", "-", "-rf", "/", ".", "~", "$X", "${X}", "$IFS", "${IFS}", "$HOME", "$1", "x$", "_"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_PIECES, min_size=1, max_size=6).map("".join), min_size=1, max_size=5))
def test_a_word_without_blanks_is_one_word(words: list[str]) -> None:
    """Pieces with no blank or quote between them are one word for bash, however tree-sitter tokenizes the
    `$` in them (it ends `-rf$IFS/` at `$I`, and drops `-x$`); a word holding an expansion is dynamic."""
    line = "echo " + " ".join(words)
    script = parse(line)
    got = script.commands[0].words[1:]
    if script.problems:  # `x$/`: a word tree-sitter cannot read makes the line not understood, which is fine
        return
    assert [w.text for w in got] == words
    for w, text in zip(got, words):
        assert w.dynamic or not any(v in text for v in ("$X", "${X}", "$IFS", "${IFS}", "$HOME", "$1")), text


@pytest.mark.parametrize("line, want", [
    ("rm${IFS}-rf${IFS}/", ["rm", "-rf", "/"]), ("find / ${IFS}-delete", ["find", "/", "-delete"]),
    ("rm$IFS-rf$IFS$X", ["rm", "-rf", "$X"]), ('echo "a${IFS}b"', ["echo", "a \t\nb"]),
    ("IFS=,; x=rm,-rf,/; $x", ["rm", "-rf", "/"]), ("x=rm$IFS-rf$IFS/; $x", ["rm", "-rf", "/"]),
])
def test_ifs_is_bashs_own(line: str, want: list[str]) -> None:
    """bash sets IFS at start-up (never from the environment): unquoted, ``$IFS`` splits as blanks do."""
    runs = expand_command(line).runs
    assert runs[-1].argv == want


def test_a_word_tree_sitter_makes_a_lone_token_of_is_kept():
    """`-x$` comes out of tree-sitter as an anonymous `$` token, which a walk of named nodes would drop."""
    script = parse("rm -rf$ y")
    assert [w.text for w in script.commands[0].words] == ["rm", "-rf$", "y"]
    assert script.problems
