"""The Bash rule: a specifier such as ``git log *`` lexed into words the way the shell would, and
compiled into one regex over a subcommand's words joined by single spaces (linear on long commands).
What it is matched against, one string per subcommand, comes from ``commands``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from phlegyas.policy.rules.rule import Rule
from phlegyas.policy.rules.view import CallView, Matcher

_WILD = object()  # an unquoted `*` in a Bash pattern


def _lex_pattern(spec: str, fail) -> list[list[object]]:
    """Split a Bash pattern into words the way the shell would: quotes and backslashes are removed,
    an unquoted ``*`` becomes a wildcard, unquoted whitespace separates words."""
    words: list[list[object]] = []
    current: list[object] | None = None
    i, n = 0, len(spec)
    while i < n:
        ch = spec[i]
        if ch.isspace():
            if current is not None:
                words.append(current)
                current = None
            i += 1
            continue
        current = [] if current is None else current
        if ch == "\\" and i + 1 < n:
            current.append(spec[i + 1])
            i += 2
        elif ch == "'":
            end = spec.find("'", i + 1)
            if end == -1:
                raise fail("unterminated ' quote in the command pattern")
            current.append(spec[i + 1:end])
            i = end + 1
        elif ch == '"':
            end, text = _double_quoted(spec, i + 1)
            if end == -1:
                raise fail('unterminated " quote in the command pattern')
            current.append(text)
            i = end + 1
        elif ch == "*":
            current.append(_WILD)
            i += 1
        else:
            current.append(ch)
            i += 1
    if current is not None:
        words.append(current)
    return words


def _double_quoted(spec: str, i: int) -> tuple[int, str]:
    out: list[str] = []
    while i < len(spec):
        ch = spec[i]
        if ch == '"':
            return i, "".join(out)
        if ch == "\\" and i + 1 < len(spec) and spec[i + 1] in '"\\$`':
            out.append(spec[i + 1])
            i += 2
            continue
        out.append(ch)
        i += 1
    return -1, ""


@dataclass(frozen=True)
class BashMatcher(Matcher):
    regex: re.Pattern

    @classmethod
    def compile(cls, spec: str, fail) -> "BashMatcher":
        text = spec.strip()
        if text.endswith(":*") and not text.endswith("\\:*"):
            text = text[:-2] + " *"  # legacy prefix form: `npm run test:*` ≡ `npm run test *`
        words = _lex_pattern(text, fail)
        if not words:
            raise fail("empty command pattern: write Bash alone to match every command")
        return cls(re.compile(_pattern_regex(words), re.DOTALL))

    def matches(self, rule: Rule, view: CallView, each: bool) -> bool:
        if view.call.tool_name != "Bash":
            return False
        if each:
            strings = view.allow_strings
            return strings is not None and all(self.regex.fullmatch(s) for s in strings)
        if view.call.command is None:
            return True  # no command to read: fail closed for deny and ask
        return any(self.regex.fullmatch(s) for s in view.deny_strings)


def _pattern_regex(words: list[list[object]]) -> str:
    """Words of a pattern → a regex over words joined by single spaces.

    It means ``" ".join(words)`` with ``*`` → ``.*`` and a lone `` *`` word → ``(?: .*)?`` (so
    ``ls *`` matches ``ls`` and ``ls -la`` but not ``lsof``), but it is built to stay linear on a long
    command: each literal between wildcards is taken at the first place it fits, inside an atomic
    group. That is exact for wildcards that match anything, and ``a * b * c`` cannot make the regex
    engine backtrack quadratically.
    """
    elements = _elements(words)
    out: list[str] = []
    k = 0
    if elements and elements[0][0] == "lit":
        out.append(re.escape(elements[0][1]))
        k = 1
    while k < len(elements):
        kind = elements[k][0]
        if kind == "opt_end":
            out.append("(?: .*)?")
            k += 1
            continue
        if k + 1 >= len(elements):
            out.append(".*")  # a trailing `*`
            break
        gap = ".*?" if kind == "star" else "(?:|.*? )"
        literal = re.escape(elements[k + 1][1])
        rest = elements[k + 2:]
        if not rest:  # the last literal ends the string
            out.append((".*" if kind == "star" else "(?:.* )?") + literal)
        elif rest == [("opt_end", "")]:
            out.append(f"{gap}{literal}(?: .*)?")
            k += 1
        else:  # commit to the first place the literal fits
            out.append(f"(?>{gap}{literal})")
        k += 2
    return "".join(out)


def _elements(words: list[list[object]]) -> list[tuple[str, str]]:
    """The pattern as literals between wildcards: ``star`` (anything), ``space_star`` (nothing, or
    anything ending in a space: what the middle `` * `` of ``A * B`` leaves once its spaces are
    literals) and ``opt_end`` (a final `` *``: nothing, or a space and anything)."""
    words = [w for i, w in enumerate(words) if not (i and w == [_WILD] and words[i - 1] == [_WILD])]
    elements: list[tuple[str, str]] = []

    def literal(text: str) -> None:
        if elements and elements[-1][0] == "lit":
            elements[-1] = ("lit", elements[-1][1] + text)
        else:
            elements.append(("lit", text))

    def star() -> None:
        if elements and elements[-1][0] in ("star", "space_star"):
            elements[-1] = ("star", "")  # `(?:.* )?.*` is `.*`
        else:
            elements.append(("star", ""))

    separator = False
    for index, word in enumerate(words):
        if index and word == [_WILD]:
            if index == len(words) - 1:
                if elements[-1][0] != "star":
                    elements.append(("opt_end", ""))
            else:  # `A * B` is `A` + " " + (nothing | anything + " ") + `B`
                literal(" ")
                elements.append(("space_star", ""))
                separator = False
            continue
        if separator:
            literal(" ")
        separator = True
        for part in word:
            if isinstance(part, str):
                literal(part)
            else:  # _WILD
                star()
    return elements
