"""Unit tests of the shell evaluation helpers: parameter operators, word splitting, read / printf -v, the
source rewrites for tree-sitter (tests/cases/shell_more.tsv holds the verdicts)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phlegyas.analysis.shell.lexfix import join_continuations, open_read_write
from phlegyas.analysis.shell.params import EXPANDED, UNKNOWN, expand_text, split_fields
from phlegyas.analysis.shell.parse import parse
from phlegyas.analysis.shell.readvars import learn_builtin, printf_format
from phlegyas.analysis.shell.syntax import Word
from phlegyas.analysis.shell.variables import head_readings

VALUES = {"x": "xm", "p": "/a/b/c.txt", "u": "RM", "e": "", "y": "x", "n": "3"}


def _value(text: str, mode: str = "known") -> str | None:
    segments = expand_text(text, VALUES, mode)
    if any(kind == UNKNOWN for _, kind in segments):
        return None
    return "".join(t for t, _ in segments)


@pytest.mark.parametrize("text, want", [
    ("${x/x/r}", "rm"), ("${x//m/q}", "xq"), ("${x/#x/r}", "rm"), ("${x/%m/s}", "xs"),
    ("${p##*/}", "c.txt"), ("${p#*/}", "a/b/c.txt"), ("${p%/*}", "/a/b"), ("${p%%/*}", ""),
    ("${u,,}", "rm"), ("${u,}", "rM"), ("${x^^}", "XM"), ("${x^}", "Xm"),
    ("${x:1}", "m"), ("${p:0:2}", "/a"), ("${p: -3}", "txt"), ("${p:(-3):1}", "t"), ("${p:1:n}", "a/b/c.txt"[:3]),
    ("${#p}", "10"), ("${!y}", "xm"), ("${e:-d}", "d"), ("${e-d}", ""), ("${e:+a}", ""), ("${x:+a}", "a"),
    ("${x:-'q z'}", "xm"), ("${N:-\"r\"m}", None), ("$(echo rm)", "rm"), ("`printf rm`", "rm"),
    ("$(printf '\\162\\155')", "rm"), ("a${x}b", "axmb"), ("${x@Q}", None), ("$((1+2))", None),
])
def test_known_values(text: str, want: str | None) -> None:
    assert _value(text) == want


def test_readings_of_names_the_line_does_not_set() -> None:
    assert _value("${N:-rm}", "unset") == "rm"
    assert _value("${N:-rm}", "set") is None
    assert _value("${N:+rm}", "set") == "rm"
    assert head_readings(Word("${N:-rm}", True), {}) == [["rm"]]
    assert head_readings(Word("$(cat f)", True), {}) == []


@pytest.mark.parametrize("value, ifs, want", [
    ("rm -rf  ~", " \t\n", ["rm", "-rf", "~"]), ("  a  ", " \t\n", ["a"]), ("rm,-rf,/", ",", ["rm", "-rf", "/"]),
    (",a,,b,", ",", ["", "a", "", "b"]), ("a , b", ", ", ["a", "b"]), ("a b", "", ["a b"]),
])
def test_split_fields(value: str, ifs: str, want: list[str]) -> None:
    assert split_fields([(value, EXPANDED)], ifs) == want


def test_literal_text_does_not_split() -> None:
    assert split_fields([("a,", 0), ("b,c", EXPANDED)], ",") == ["a,b", "c"]


def _learn(line: str, values: dict[str, str] | None = None) -> dict[str, str]:
    values = dict(values or {})
    conflicting: set[str] = set()
    for cmd in parse(line).commands:
        learn_builtin(cmd, values, conflicting)
    return values


def test_read_and_printf_v() -> None:
    assert _learn("read x <<< rm") == {"x": "rm"}
    assert _learn("read -r a b <<< 'rm -rf ~'") == {"a": "rm", "b": "-rf ~"}
    assert _learn("read -r line < VERSION", {"line": "x"}) == {}  # unknown now, no longer the old value
    assert _learn("echo rm | read x") == {}  # a pipeline's read runs in a subshell
    assert _learn("printf -v c '%s %s' rm -rf") == {"c": "rm -rf"}
    assert _learn("printf -v now '%(%F)T' -1") == {}
    assert printf_format("%s-%03d\\n", ["a", "7"]) == "a-007\n"
    assert printf_format("%s\\n", ["a", "b"]) == "a\nb\n"
    assert printf_format("%q", ["a"]) is None


def test_source_rewrites() -> None:
    assert join_continuations("r\\\nm -rf ~") == "rm -rf ~"
    assert join_continuations("echo 'a\\\nb'") == "echo 'a\\\nb'"  # single quotes keep it
    assert join_continuations("echo x # c\\\nls") == "echo x # c\\\nls"  # and a comment does
    assert open_read_write("exec 5<>/dev/tcp/h/1; echo '<>'") == ("exec 5< /dev/tcp/h/1; echo '<>'", [6])
    script = parse("cat > src/hello.py <<< 'print(1)'")
    assert not script.problems and script.commands[0].stdin_text == "print(1)"
    assert [r.op for r in parse("exec 5<>/dev/tcp/h/1").commands[0].redirects] == ["<>"]


@given(st.text(alphabet="ab '\"\\$#\n;<>", max_size=40))
def test_join_is_identity_without_continuations(text: str) -> None:
    if "\\\n" not in text:
        assert join_continuations(text) == text
