"""Fast paths answer as the slow code they replace: ``analysis/globs.matches`` as ``fnmatch.fnmatchcase``, on written
and generated patterns; the sed prefilter (``tier1.sed.sed_runs``) as the regex it guards; the lexer's
removal of standalone ``{}`` and ``\\;`` words as its regex."""
from __future__ import annotations

import fnmatch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phlegyas.analysis.globs import matches

WRITTEN = [
    ("id_rsa", "id_*"), ("id_rsa", "*"), ("", "*"), ("", "?"), ("a", ""), (".env", ".e?v"), ("x.pem", "*.pem"),
    ("x.pem", "*.[pP]em"), ("-delete", "-del*"), ("-delete", "*.py"), ("ab", "[!a]b"), ("bb", "[!a]b"),
    ("]", "[]]"), ("]a", "[]]a"), ("[", "["), ("[a", "[a"), ("a", "[a"), ("-", "[a-]"), ("b", "[a-c]"),
    ("d", "[a-c]"), ("-", "[-a]"), ("x", "[z-a]"), ("x", "[!z-a]"), ("c", "[az-bc]"), ("z", "[az-bc]"),
    ("a/b/c", "a*c"), ("aaa", "a**a"), ("abcabd", "*abd"), ("\\", "[\\]"), ("\\x", "\\x"), ("a", "[!]"),
    ("!", "[!]"), ("^", "[^]"), ("&", "[&&]"), ("node_modules", "node_*"), ("mississippi", "*ss*ss*"),
    ("mississippi", "*ss*ss*pi*x"), ("-", "[a--]"), ("b", "[]-a]"), ("-", "[!-a]"),
]


@pytest.mark.parametrize(("name", "pattern"), WRITTEN)
def test_written_patterns_match_as_fnmatch_does(name: str, pattern: str) -> None:
    assert matches(name, pattern) is fnmatch.fnmatchcase(name, pattern), (name, pattern)


_ALPHABET = st.sampled_from(list("ab-]![*?\\^.z/"))


@settings(max_examples=3000, deadline=None)
@given(st.text(_ALPHABET, max_size=8), st.text(_ALPHABET, max_size=8))
def test_generated_patterns_match_as_fnmatch_does(name: str, pattern: str) -> None:
    assert matches(name, pattern) is fnmatch.fnmatchcase(name, pattern)


@settings(max_examples=1000, deadline=None)
@given(st.text(_ALPHABET, max_size=8), st.text(st.sampled_from(list("ab.z/-")), max_size=6))
def test_a_pattern_matches_names_built_from_it(pattern: str, filler: str) -> None:
    """Names made by filling a pattern's wildcards: the matcher must find what fnmatch finds."""
    name = pattern.replace("*", filler).replace("?", "a")
    assert matches(name, pattern) is fnmatch.fnmatchcase(name, pattern)


# -- the sed prefilter: the same answers as the regex it guards ------------------------------------------

from phlegyas.analysis.tier1.sed import SED_RUNS as _SED_RUNS  # noqa: E402
from phlegyas.analysis.tier1.sed import sed_runs as _sed_runs  # noqa: E402


@settings(max_examples=4000, deadline=None)
@given(st.text(st.sampled_from(list("sge/|\\p1w;{} \nxa")), max_size=14))
def test_the_sed_prefilter_answers_as_the_regex(script: str) -> None:
    assert _sed_runs(script) is (_SED_RUNS.search(script) is not None)


# -- the lexer's removal of standalone {} and \; words -----------------------------------------------------

from phlegyas.analysis.shell.plain import _STANDALONE_SPECIAL_RE, _without_specials  # noqa: E402


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(["{}", "\\;", " ", "\t", "  ", "a", "{", "}", "\\", ";", "x{}"]), max_size=10))
def test_specials_are_removed_as_the_regex_removes_them(parts: list[str]) -> None:
    line = "".join(parts)
    assert _without_specials(line) == _STANDALONE_SPECIAL_RE.sub("", line)
