"""Split a program's arguments into options and operands, the way getopt-style programs read them.

The caller says which options take a value (``-n 5``, ``-n5``, ``--lines=5``, ``--lines 5``); every
other ``-x`` is a flag. Short flags may be clustered (``-rf``). Options that are spelled with a single
dash but are long (``find -name``, ``java -jar``) are recognised whole when the caller lists them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Collection, Final

from phlegyas.analysis.shell.parse import Word

EMPTY: Final[frozenset[str]] = frozenset()


@dataclass(slots=True, init=False)
class Parsed:
    """Options in order (``name``, value word or None) and the operands that are not options."""

    opts: list[tuple[str, Word | None]] = field(default_factory=list)
    operands: list[Word] = field(default_factory=list)
    rest: int = -1  # with ``stop_at_operand``: index in ``args`` of the first operand, else -1

    def __init__(self, opts: list[tuple[str, Word | None]] | None = None, operands: list[Word] | None = None,
                 rest: int = -1) -> None:  # hand-written: mypyc compiles it (see shell.syntax)
        self.opts = [] if opts is None else opts
        self.operands = [] if operands is None else operands
        self.rest = rest

    def has(self, names: Collection[str]) -> bool:
        for name, _ in self.opts:
            if name in names:
                return True
        return False

    def values(self, names: Collection[str]) -> list[Word]:
        return [v for n, v in self.opts if n in names and v is not None]


def may_be_option(word: Word) -> bool:
    """An unquoted glob that starts with a glob character (``*``, ``*.txt``, ``?x``, ``[a-z]*``): it can match
    a file whose name starts with ``-``, so bash may hand the program an option (``tar cf x.tar *`` with a
    file named ``--checkpoint-action=exec=sh x.sh``); so can one that starts with ``-`` itself (``-d*``).
    ``./*`` and ``src/*`` cannot."""
    return word.glob and not word.dynamic and word.text[:1] in "*?[-"


def _sub(word: Word, text: str) -> Word:
    return Word(text, word.dynamic, word.glob, word.quoted)


def parse_options(args: list[Word], value_opts: frozenset[str] = EMPTY, whole: frozenset[str] = EMPTY,
                  stop_at_operand: bool = False, numeric: bool = False) -> Parsed:
    """Split ``args``. ``whole`` lists single-dash options to take as one name (``-exec``);
    ``stop_at_operand`` ends option parsing at the first operand (POSIX utilities, wrappers);
    ``numeric``: ``-20`` is one option (``head -20``), not the flags ``-2`` and ``-0``."""
    out = Parsed()
    opts, operands = out.opts, out.operands
    i, n = 0, len(args)
    while i < n:
        word = args[i]
        text = word.text
        if len(text) < 2 or text[0] != "-":
            if stop_at_operand:
                out.rest = i
                return out
            operands.append(word)
            i += 1
            continue
        if text == "--":
            if stop_at_operand:
                out.rest = i + 1 if i + 1 < n else -1
                return out
            operands.extend(args[i + 1:])
            return out
        if text[1] == "-":
            name, eq, value = text.partition("=")
            if not eq and ":" in name and name.partition(":")[0] in value_opts:  # dotnet's `--collect:"X Y"`
                name, eq, value = text.partition(":")
            if eq:
                opts.append((name, _sub(word, value)))
            elif name in value_opts and i + 1 < n:
                opts.append((name, args[i + 1]))
                i += 1
            else:
                opts.append((name, None))
            i += 1
            continue
        if numeric and text[1:].isdigit():
            opts.append((text, None))
            i += 1
            continue
        if text in whole or text in value_opts:
            if text in value_opts and i + 1 < n:
                opts.append((text, args[i + 1]))
                i += 2
            else:
                opts.append((text, None))
                i += 1
            continue
        if whole:
            name, eq, value = text.partition("=")
            if eq and name in value_opts:
                opts.append((name, _sub(word, value)))
                i += 1
                continue
        i = _cluster(args, i, value_opts, opts)
    return out


_FLAG_CLUSTERS: Final[dict[tuple[str, frozenset[str]], tuple[tuple[str, None], ...]]] = {}


def _flags_of(text: str, value_opts: frozenset[str]) -> tuple[tuple[str, None], ...]:
    """``-rfv`` → ``(("-r", None), ("-f", None), ("-v", None))`` when no letter takes a value, else ``()``.
    Memoized: clusters such as ``-la`` and ``-rf`` recur all the time."""
    key = (text, value_opts)
    got = _FLAG_CLUSTERS.get(key)
    if got is None:
        names = ["-" + ch for ch in text[1:]]
        got = () if any(name in value_opts for name in names) else tuple((name, None) for name in names)
        if len(_FLAG_CLUSTERS) < 4096:
            _FLAG_CLUSTERS[key] = got
    return got


def _cluster(args: list[Word], i: int, value_opts: frozenset[str], opts: list) -> int:
    """``-rfv``, ``-n5``, ``-o file``: one short option after another; returns the next index."""
    word = args[i]
    text = word.text
    flags = _flags_of(text, value_opts)
    if flags:
        opts.extend(flags)
        return i + 1
    for j in range(1, len(text)):
        name = "-" + text[j]
        if name in value_opts:
            if j + 1 < len(text):
                opts.append((name, _sub(word, text[j + 1:])))
                return i + 1
            if i + 1 < len(args):
                opts.append((name, args[i + 1]))
                return i + 2
            opts.append((name, None))
            return i + 1
        opts.append((name, None))
    return i + 1
