"""A fast path for plain command lines: ``git status``, ``ls -la src | grep foo 2>/dev/null``.

Most commands an agent runs are a few words joined by ``&& || ; | &`` with simple quoting and maybe a
redirection at the end. For exactly that subset this lexer builds the same ``Script`` that the
tree-sitter walk (``shell.parse``) builds, in a fraction of the time. Anything outside the subset
(``$``, backquotes, backslashes, braces, brackets, parentheses, ``#``, ``!``, newlines, heredocs,
assignments, reserved words, declaration builtins, redirections before or between words, non-ASCII
outside quotes)
returns None and the caller uses tree-sitter. tests/test_parse.py checks that both agree on every
command of the corpora the fast path accepts, and on generated ones.
"""
from __future__ import annotations

from .parse import Redirect, Script, SimpleCommand, Word

_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,@%+-*?~^")
_FIRST_OK = _WORD - frozenset("=%@^?*")  # tree-sitter reads these oddly at the start of a command
_BAD_IN_DOUBLE = frozenset('$`\\!')
_RESERVED = frozenset({
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "function", "select",
    "time", "coproc", "in", "export", "local", "declare", "typeset", "readonly", "unset", "let", "[", "[[", "]]",
    "{", "}", "!", "test",
})


class _Reject(Exception):
    """The line is outside the plain subset."""


def _word(src: str, i: int, n: int) -> tuple[Word, int]:
    """Read one word starting at ``src[i]``; returns it and the index after it."""
    parts: list[str] = []
    quoted = glob = False
    while i < n:
        ch = src[i]
        if ch in _WORD:
            j = i + 1
            while j < n and src[j] in _WORD:
                j += 1
            chunk = src[i:j]
            if not glob and ("*" in chunk or "?" in chunk):
                glob = True
            parts.append(chunk)
            i = j
        elif ch == "'":
            end = src.find("'", i + 1)
            if end < 0:
                raise _Reject
            parts.append(src[i + 1:end])
            quoted = True
            i = end + 1
        elif ch == '"':
            end = src.find('"', i + 1)
            if end < 0:
                raise _Reject
            body = src[i + 1:end]
            if not _BAD_IN_DOUBLE.isdisjoint(body):
                raise _Reject
            parts.append(body)
            quoted = True
            i = end + 1
        else:
            break
    return Word("".join(parts), False, glob, quoted), i


def _redirect(src: str, i: int, n: int, fd: str | None) -> tuple[Redirect, int]:
    ch = src[i]
    if ch == "&":  # &> or &>>
        op = "&>>" if src.startswith("&>>", i) else "&>"
    elif ch == ">":
        op = ">>" if src.startswith(">>", i) else (">&" if src.startswith(">&", i) else ">")
    else:
        op = "<&" if src.startswith("<&", i) else "<"
        if src.startswith(("<<", "<>"), i):
            raise _Reject
    if src.startswith((">|", ">>&", ">>|"), i) or (op in (">&", "<&") and fd is None):
        raise _Reject
    i += len(op)
    while i < n and src[i] in " \t":
        i += 1
    if i >= n or src[i] not in _WORD and src[i] not in "'\"":
        raise _Reject
    target, i = _word(src, i, n)
    if op in (">&", "<&") and not (target.text.isdigit() or target.text == "-") or not target.text:
        raise _Reject
    return Redirect(op, target, fd), i


_ALLOWED = _WORD | frozenset(" \t'\"|&;<>{}\\")
_OPERATOR_CHARS = frozenset("|&;<>{\\")
_SPECIAL = {"{}": Word("{}", False, True, False), "\\;": Word(";", False, False, False)}
"""Standalone ``{}`` and ``\\;`` (``find -exec … {} \\;``), as the tree-sitter walk reads them."""


def parse_plain(src: str) -> Script | None:
    """The ``Script`` of a plain command line, or None when the line is outside the plain subset."""
    if not src or "\n" in src or "\r" in src:
        return None
    try:
        if "'" in src or '"' in src:
            return _parse(src)  # checks every character outside the quotes itself
        if not _ALLOWED.issuperset(src):
            return None
        if not _OPERATOR_CHARS.isdisjoint(src):
            return _parse(src)
        return _parse_words(src)
    except _Reject:
        return None


def _parse_words(src: str) -> Script:
    """The commonest case, one command of unquoted words (``git status``, ``ls -la src``)."""
    toks = src.split()
    if not toks:
        raise _Reject
    first = toks[0]
    if first in _RESERVED or not _FIRST_OK.issuperset(first):
        raise _Reject
    words = [Word(t, False, "*" in t or "?" in t, False) for t in toks]
    start = src.find(first)
    end = src.rfind(toks[-1]) + len(toks[-1])
    script = Script(source=src)
    script.commands.append(SimpleCommand(words=words, origin="top", text=src[start:end]))
    return script


def _parse(src: str) -> Script:
    script = Script(source=src)
    commands = script.commands
    n = len(src)
    i = 0
    words: list[Word] = []
    redirects: list[Redirect] = []
    start = end = -1
    upstream: list[int] = []
    expect_command = False  # after && || | a command must follow
    pipes = lists = 0

    def finish(sep: str) -> None:
        nonlocal words, redirects, start, upstream
        if not words:
            raise _Reject
        if redirects and any(w.text == "-" for w in words):
            raise _Reject  # tree-sitter drops a lone `-` before a redirection
        first = words[0]
        if first.text in _RESERVED or not first.text or not _FIRST_OK.issuperset(first.text):
            raise _Reject
        commands.append(SimpleCommand(words=words, redirects=redirects, upstream=upstream, origin="top",
                                      text=src[start:end]))
        upstream = [len(commands) - 1] if sep == "|" else []
        words, redirects, start = [], [], -1

    while i < n:
        ch = src[i]
        if ch == " " or ch == "\t":
            i += 1
        elif (ch == "{" or ch == "\\") and src[i:i + 2] in _SPECIAL and (i + 2 == n or src[i + 2] in " \t") \
                and (i == 0 or src[i - 1] in " \t"):
            if redirects:
                raise _Reject
            if start < 0:
                start = i
            words.append(_SPECIAL[src[i:i + 2]])
            i += 2
            end = i
            expect_command = False
        elif ch in _WORD or ch == "'" or ch == '"':
            j = i
            while j < n and src[j].isdigit():
                j += 1
            if j > i and j < n and src[j] in "<>":
                if not words:
                    raise _Reject
                redirect, i = _redirect(src, j, n, src[i:j])
                redirects.append(redirect)
                continue
            if redirects:
                raise _Reject  # `cmd > f arg`: leave the odd orders to tree-sitter
            if start < 0:
                start = i
            word, i = _word(src, i, n)
            words.append(word)
            end = i
            expect_command = False
        elif ch == ">" or ch == "<" or (ch == "&" and src.startswith("&>", i)):
            if not words or src[i - 1] not in " \t":
                raise _Reject  # `-200>f`: tree-sitter and bash disagree on what the word before is
            redirect, i = _redirect(src, i, n, None)
            redirects.append(redirect)
        elif ch == "|":
            if src.startswith("||", i):
                finish("||")
                lists += 1
                i += 2
            elif src.startswith("|&", i):
                raise _Reject
            else:
                finish("|")
                pipes += 1
                i += 1
            expect_command = True
        elif ch == "&":
            if src.startswith("&&", i):
                finish("&&")
                lists += 1
                i += 2
                expect_command = True
            else:
                finish("&")
                i += 1
        elif ch == ";":
            if src.startswith(";;", i):
                raise _Reject
            finish(";")
            i += 1
        else:
            raise _Reject
    if words:
        finish("")
    elif expect_command or not commands or redirects:
        raise _Reject
    if pipes > 1 and lists:
        raise _Reject  # tree-sitter groups `a | b | c && d` oddly; let the full parser decide
    return script

