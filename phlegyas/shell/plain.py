"""A fast path for plain command lines: ``git status``, ``ls -la src | grep foo 2>/dev/null``.

Most commands an agent runs are a few words joined by ``&& || ; | &`` with simple quoting and maybe a
redirection at the end. For exactly that subset this lexer builds the same ``Script`` that the
tree-sitter walk (``shell.parse``) builds, in a fraction of the time. Lines of words and separators
only (``find . \\( -name a -o -name b \\) | xargs grep x``) take the quickest route: the separators split
the line (or one regex match per command when there are quotes or escapes) instead of a step per token.
Anything outside the subset (``$``, backquotes, braces and brackets other than ``find``'s ``{}``,
parentheses, ``#``, newlines, heredocs, assignments, reserved words and a few words tree-sitter reads
oddly, declaration builtins, redirections before or between words, escaped blanks, non-ASCII outside
quotes) returns None and the caller uses tree-sitter. tests/test_parse.py checks that both agree on
every command of the corpora the fast path accepts, and on generated ones.
"""
from __future__ import annotations

import re

from .parse import Redirect, Script, SimpleCommand, Word, _is_glob, _unescape_unquoted

_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,@%+-*?~^!")
_FIRST_OK = _WORD - frozenset("=%@^?*!")  # tree-sitter reads these oddly at the start of a command
_BAD_IN_DOUBLE = frozenset('$`\\!')
_RESERVED = frozenset({
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "function", "select",
    "time", "coproc", "in", "export", "local", "declare", "typeset", "readonly", "unset", "let", "[", "[[", "]]",
    "{", "}", "!", "test",
})

_NOT_PROGRAMS = _RESERVED | {"-"}
"""First words the fast path leaves to tree-sitter (which reads ``- x=1`` as an assignment, ``- a?b`` as an error)."""
_OPERATOR_STARTS = ("==", "=~")
"""Tree-sitter reads these as test operators, which the walk then drops (``echo a == b`` → ``echo a b``,
``echo =="x"`` → ``echo x``): a word starting with one is left to it."""


def _operator_word(tokens: list[str]) -> bool:
    for t in tokens:
        if t[:1] == "=" and t.startswith(_OPERATOR_STARTS):
            return True
    return False


class _Reject(Exception):
    """The line is outside the plain subset."""


# The lexer scans with regexes (one C call per word instead of a Python loop per character).
_WORD_CLASS = "A-Za-z0-9_./=:,@%+*?~^!-"  # exactly the characters of _WORD
_WORD_PATTERN = f"(?>(?:[{_WORD_CLASS}]+|'[^']*'|\"[^\"]*\")+)"  # atomic: a failing line cannot backtrack into it
_WORD_RE = re.compile(_WORD_PATTERN)
_PART_RE = re.compile(f"([{_WORD_CLASS}]+)|'([^']*)'|\"([^\"]*)\"")
_SPACES_RE = re.compile("[ \t]*")
_FD_RE = re.compile("[0-9]+(?=[<>])")  # digits right before < or >: a redirection's file descriptor


def _word(src: str, i: int, n: int) -> tuple[Word, int]:
    """Read one word starting at ``src[i]``; returns it and the index after it."""
    m = _WORD_RE.match(src, i)
    if m is None:
        raise _Reject  # an unterminated quote
    token = m.group()
    if "'" not in token and '"' not in token:
        return Word(token, False, "*" in token or "?" in token, False), m.end()
    return _quoted_word(token), m.end()


def _quoted_word(token: str) -> Word:
    """A word with quotes in it: the quotes go, only unquoted ``*``/``?`` make it a glob."""
    parts: list[str] = []
    glob = False
    for chunk, single, double in _PART_RE.findall(token):
        if chunk:
            if not glob and ("*" in chunk or "?" in chunk):
                glob = True
            parts.append(chunk)
        elif double and not _BAD_IN_DOUBLE.isdisjoint(double):
            raise _Reject
        else:
            parts.append(single or double)
    return Word("".join(parts), False, glob, True)


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
    i = _SPACES_RE.match(src, i + len(op)).end()  # type: ignore[union-attr]  # `[ \t]*` always matches
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
            return _parse_list(src) or _parse(src)  # both check every character outside the quotes themselves
        if not _ALLOWED.issuperset(src) and ("\\" not in src or not _ALLOWED.issuperset(_ESCAPE_RE.sub("", src))):
            return None  # characters outside the subset, unless escaped (`find . \( -a -o -b \)`)
        if not _OPERATOR_CHARS.isdisjoint(src):
            return _parse_list(src) or _parse(src)
        return _parse_words(src)
    except _Reject:
        return None


def _parse_words(src: str) -> Script:
    """The commonest case, one command of unquoted words (``git status``, ``ls -la src``)."""
    toks = src.split()
    if not toks or _operator_word(toks):
        raise _Reject
    first = toks[0]
    if first in _NOT_PROGRAMS or not _FIRST_OK.issuperset(first):
        raise _Reject
    words = [Word(t, False, "*" in t or "?" in t, False) for t in toks]
    start = src.find(first)
    end = src.rfind(toks[-1]) + len(toks[-1])
    return Script(src, [SimpleCommand(words, [], [], None, False, [], "top", src[start:end])], [], [])


_ESCAPE = r"\\[!-~]"  # a backslash and the printable ASCII character it escapes (`\(`, `\!`, `\;`)
_ESCAPE_RE = re.compile(_ESCAPE)
_QUOTED_RE = re.compile("'[^']*'|\"[^\"]*\"")
_BAD_ESCAPE_RE = re.compile(r"\\(?![!-~])")  # before a blank, a non-ASCII character or the end: not for the fast path
_LIST_WORD = f"(?:(?>(?:[{_WORD_CLASS}]+|{_ESCAPE}|'[^']*'|\"[^\"]*\")+)|\\{{\\}})"  # a word, or a standalone `{{}}`
_LIST_COMMAND_RE = re.compile(f"[ \t]*({_LIST_WORD}(?:[ \t]+{_LIST_WORD})*)[ \t]*(\\|\\||&&|[|&;]|\\Z)")
_LIST_WORDS_RE = re.compile(_LIST_WORD)
_STANDALONE_SPECIAL_RE = re.compile(r"(?:^|(?<=[ \t]))(?:\{\}|\\;)(?=[ \t]|$)")
_BRACES = frozenset("{}\\")


def _parse_list(src: str) -> Script | None:
    """``_parse`` for the commonest lines, words joined by ``| || && ; &`` (no redirection, no ``{}``):
    a regex match per command instead of a step per token. None when the line is not of that shape
    (``_parse`` then decides); what it accepts, ``_parse`` builds the same way."""
    if "<" in src or ">" in src:
        return None
    escapes = False
    if not _BRACES.isdisjoint(src):
        if "\\" in src and _BAD_ESCAPE_RE.search(src):
            return None
        rest = _STANDALONE_SPECIAL_RE.sub("", src)  # `{}` and `\;` words (`find -exec … {} \;`)
        escapes = "\\" in rest
        if escapes:
            rest = _ESCAPE_RE.sub("", rest)
        if not _BRACES.isdisjoint(rest):
            return None  # other braces: brace expansion, groups
    if not escapes and "'" not in src and '"' not in src:
        return _parse_unquoted_list(src)
    commands: list[SimpleCommand] = []
    upstream: list[int] = []
    n = len(src)
    pos = pipes = lists = 0
    while True:
        m = _LIST_COMMAND_RE.match(src, pos)
        if m is None:
            return None
        tokens = _LIST_WORDS_RE.findall(m.group(1))
        if _operator_word(tokens):
            raise _Reject
        words = [_list_word(t) for t in tokens]
        first = words[0].text
        if first in _NOT_PROGRAMS or not first or not _FIRST_OK.issuperset(first):
            raise _Reject
        start, end = m.span(1)
        commands.append(SimpleCommand(words, [], [], None, False, upstream, "top", src[start:end]))
        sep = m.group(2)
        upstream = [len(commands) - 1] if sep == "|" else []
        pos = m.end()
        if sep == "|":
            pipes += 1
        elif sep == "||" or sep == "&&":
            lists += 1
        elif pos >= n or not src[pos:].strip(" \t"):  # the end, maybe after a last `;` or `&`
            break
    if pipes > 1 and lists:
        raise _Reject  # as in _parse
    return Script(src, commands, [], [])


def _list_word(token: str) -> Word:
    special = _SPECIAL.get(token)
    if special is not None:
        return special
    if "'" in token or '"' in token:
        if "\\" in token and "\\" in _QUOTED_RE.sub("", token):
            raise _Reject  # escapes and quotes in one word: a concatenation, left to tree-sitter
        return _quoted_word(token)
    if "\\" in token:  # escapes: what the tree-sitter walk makes of an unquoted word
        return Word(_unescape_unquoted(token), False, _is_glob(token), False)
    return Word(token, False, "*" in token or "?" in token, False)


_SEPARATOR_RE = re.compile(r"(\|\||&&|[|&]|(?<!\\);)")  # a `;` after a backslash is the `\;` word


def _parse_unquoted_list(src: str) -> Script | None:
    """``_parse_list`` without quotes or escapes: the separators split the line, ``str.split`` the words."""
    parts = _SEPARATOR_RE.split(src)  # command, separator, command, …, command
    last = len(parts) - 1
    commands: list[SimpleCommand] = []
    upstream: list[int] = []
    pipes = lists = 0
    for k in range(0, last + 1, 2):
        segment = parts[k]
        tokens = segment.split()
        sep = parts[k + 1] if k < last else ""
        if not tokens:
            if k == last and k > 0 and parts[k - 1] in (";", "&"):
                break  # a last `;` or `&`, maybe followed by blanks
            return None
        first = tokens[0]
        if first in _NOT_PROGRAMS or not _FIRST_OK.issuperset(first) or _operator_word(tokens):
            raise _Reject
        text = segment.strip(" \t")  # from the first word to the last, as in the line
        words = [_list_word(t) for t in tokens] if "{" in segment or "\\" in segment else [
            Word(t, False, "*" in t or "?" in t, False) for t in tokens]
        commands.append(SimpleCommand(words, [], [], None, False, upstream, "top", text))
        upstream = [len(commands) - 1] if sep == "|" else []
        if sep == "|":
            pipes += 1
        elif sep == "||" or sep == "&&":
            lists += 1
    if pipes > 1 and lists:
        raise _Reject  # as in _parse
    return Script(src, commands, [], [])


def _parse(src: str) -> Script:
    commands: list[SimpleCommand] = []
    script = Script(src, commands, [], [])
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
        if first.text in _NOT_PROGRAMS or not first.text or not _FIRST_OK.issuperset(first.text):
            raise _Reject
        commands.append(SimpleCommand(words, [], redirects, None, False, upstream, "top", src[start:end]))
        upstream = [len(commands) - 1] if sep == "|" else []
        words, redirects, start = [], [], -1

    while i < n:
        ch = src[i]
        if ch == " " or ch == "\t":
            i = _SPACES_RE.match(src, i).end()  # type: ignore[union-attr]  # `[ \t]*` always matches
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
            fd = _FD_RE.match(src, i) if "0" <= ch <= "9" else None
            if fd is not None:
                if not words:
                    raise _Reject
                redirect, i = _redirect(src, fd.end(), n, fd.group())
                redirects.append(redirect)
                continue
            if redirects:
                raise _Reject  # `cmd > f arg`: leave the odd orders to tree-sitter
            if start < 0:
                start = i
            m = _WORD_RE.match(src, i)  # _word(), inlined: this is the lexer's innermost step
            if m is None:
                raise _Reject
            token = m.group()
            if token.startswith(_OPERATOR_STARTS):
                raise _Reject
            if "'" in token or '"' in token:
                words.append(_quoted_word(token))
            else:
                words.append(Word(token, False, "*" in token or "?" in token, False))
            i = end = m.end()
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

