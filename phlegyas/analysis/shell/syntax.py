"""The words and commands a shell line is made of, as the parsers (``parse`` on tree-sitter, ``plain`` the
fast path) build them, and the word-level rules both follow: escapes, ``$'…'``, what may glob.

Data and pure functions only, so that both parsers import this module and neither imports the other's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

# The records below are built thousands of times per second: each writes its ``__init__`` by hand
# (``init=False``), which mypyc compiles, where a dataclass's generated one stays interpreted (8x slower).


@dataclass(slots=True, init=False)
class Word:
    """One shell word: ``text`` is its value with quotes and escapes resolved; parts that only the
    running shell knows (``$x``, ``$(…)``, ``$((…))``) stay in their source form and make it dynamic."""

    text: str
    dynamic: bool = False
    glob: bool = False  # unquoted * ? [ or a brace expansion: the shell may turn it into several words
    quoted: bool = False

    def __init__(self, text: str, dynamic: bool = False, glob: bool = False, quoted: bool = False) -> None:
        self.text = text
        self.dynamic = dynamic
        self.glob = glob
        self.quoted = quoted


@dataclass(slots=True, init=False)
class Redirect:
    op: str  # > >> < &> &>> >& <& >| <> << <<< <<-
    target: Word | None
    fd: str | None = None

    def __init__(self, op: str, target: Word | None, fd: str | None = None) -> None:
        self.op = op
        self.target = target
        self.fd = fd


@dataclass(slots=True, init=False)
class SimpleCommand:
    """One command the shell will run. ``words[0]`` is the program as written (maybe dynamic)."""

    words: list[Word]
    assignments: list[tuple[str, Word]] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    stdin_text: str | None = None  # heredoc or here-string body fed to it
    stdin_dynamic: bool = False
    upstream: list[int] = field(default_factory=list)  # indices of commands piped into this one
    origin: str = "top"  # top | substitution | process_substitution | heredoc | function
    text: str = ""

    def __init__(self, words: list[Word], assignments: list[tuple[str, Word]] | None = None,
                 redirects: list[Redirect] | None = None, stdin_text: str | None = None, stdin_dynamic: bool = False,
                 upstream: list[int] | None = None, origin: str = "top", text: str = "") -> None:
        self.words = words
        self.assignments = [] if assignments is None else assignments
        self.redirects = [] if redirects is None else redirects
        self.stdin_text = stdin_text
        self.stdin_dynamic = stdin_dynamic
        self.upstream = [] if upstream is None else upstream
        self.origin = origin
        self.text = text

    @property
    def argv(self) -> list[str]:
        return [w.text for w in self.words]

    @property
    def program(self) -> str | None:
        """The program name (``/bin/rm`` → ``rm``), or None when it is dynamic or absent."""
        if not self.words or self.words[0].dynamic:
            return None
        name = self.words[0].text
        return name.rsplit("/", 1)[-1] if "/" in name and not name.endswith("/") else name


@dataclass(slots=True, init=False)
class Script:
    """The result of parsing one command line."""

    source: str
    commands: list[SimpleCommand] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # parse errors and constructs not understood
    functions: list[str] = field(default_factory=list)  # names the script defines as functions
    bodies: dict[str, str] = field(default_factory=dict, compare=False)  # name → its body's source text

    def __init__(self, source: str, commands: list[SimpleCommand] | None = None, problems: list[str] | None = None,
                 functions: list[str] | None = None, bodies: dict[str, str] | None = None) -> None:
        self.source = source
        self.commands = [] if commands is None else commands
        self.problems = [] if problems is None else problems
        self.functions = [] if functions is None else functions
        self.bodies = {} if bodies is None else bodies

    @property
    def understood(self) -> bool:
        return not self.problems


_ANSI_ESCAPES: Final = {
    "n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
    "e": "\x1b", "E": "\x1b", "\\": "\\", "'": "'", '"': '"', "?": "?",
}


def decode_ansi_c(body: str) -> str:
    """Decode the inside of ``$'…'`` as bash does (``\\x72\\x6d`` → ``rm``)."""
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _ANSI_ESCAPES:
            out.append(_ANSI_ESCAPES[nxt])
            i += 2
        elif nxt == "x" or nxt in "uU":
            width = {"x": 2, "u": 4, "U": 8}[nxt]
            j = i + 2
            digits = ""
            while j < n and len(digits) < width and body[j] in "0123456789abcdefABCDEF":
                digits += body[j]
                j += 1
            if digits:
                try:
                    out.append(chr(int(digits, 16)))
                except (ValueError, OverflowError):
                    out.append("\ufffd")
            else:
                out.append("\\" + nxt)
            i = j
        elif nxt in "01234567":
            j = i + 1
            digits = ""
            while j < n and len(digits) < 3 and body[j] in "01234567":
                digits += body[j]
                j += 1
            out.append(chr(int(digits, 8) & 0xFF))
            i = j
        elif nxt == "c" and i + 2 < n:
            out.append(chr(ord(body[i + 2]) & 0x1F))
            i += 3
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out)


def unescape_unquoted(text: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            if text[i + 1] != "\n":  # backslash-newline is a line continuation
                out.append(text[i + 1])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def unescape_double(text: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


_GLOB_CHARS: Final = frozenset("*?[")


def is_glob(raw: str) -> bool:
    """Unquoted ``*``, ``?``, ``[`` or a brace expansion: the shell may turn the word into several."""
    return "*" in raw or "?" in raw or "[" in raw or ("{" in raw and ("," in raw or ".." in raw))


EXPANDS: Final = re.compile(r"\$[A-Za-z_{(0-9@*#?!$-]")
"""A ``$`` that starts an expansion; any other (``"^$"``, ``a$/b``, a ``$`` at the end) is a dollar sign."""
