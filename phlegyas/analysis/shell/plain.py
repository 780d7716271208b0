"""A fast path for plain command lines: ``git status``, ``ls -la src | grep foo 2>/dev/null``.

Most commands an agent runs are a few words joined by ``&& || ; | &`` with simple quoting and maybe a
redirection at the end. For exactly that subset this lexer builds the same ``Script`` that the
tree-sitter walk (``shell.parse``) builds, in a fraction of the time. Lines of words and separators
only (``find . \\( -name a -o -name b \\) | xargs grep x``) take the quickest route: the separators split
the line (or one regex match per command when there are quotes or escapes) instead of a step per token.
Simple parameter expansions are in the subset too: ``$NAME`` and ``${NAME}``, unquoted or in double quotes,
in any word but a command's first (``find "$DIR" -name x``, ``echo ${HOME}/x | wc -c``). Only lines with a
``$`` take that route (``_parse_dollar``: the same lexers, with patterns that take expansions), so the others
pay one scan for a ``$`` at most. Anything outside the subset (any other ``$`` outside single quotes:
``$1 $? ${A:-x} $( $'…'``, or an escaped ``\\$`` on a line with expansions; backquotes, braces and brackets
other than ``find``'s ``{}``, parentheses, ``#``, newlines, heredocs, assignments, reserved words and a few
words tree-sitter reads oddly (``- x=1``, ``$A/$B/x``), declaration builtins, redirections before or between
words, redirections tree-sitter reads oddly (``0<f``, ``2>&-``), escaped blanks, non-ASCII outside quotes, lone
surrogates) returns None and the caller uses tree-sitter.
tests/test_parse.py checks that both agree on every command of the corpora the fast path accepts, and on
generated ones.
"""
from __future__ import annotations

import re
from typing import Callable, Final

from phlegyas.analysis.shell.syntax import Redirect, Script, SimpleCommand, Word, is_glob, unescape_unquoted

_WORD: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,@%+-*?~^!")
_FIRST_OK: Final = _WORD - frozenset("=%@^?*!")  # tree-sitter reads these oddly at the start of a command
_BAD_IN_DOUBLE: Final = frozenset('$`\\!')
_BAD_IN_DOUBLE_DOLLAR = _BAD_IN_DOUBLE - {"$"}  # the dollar lexer lets `$` into double quotes only as an expansion
_RESERVED: Final = frozenset({
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "function", "select",
    "time", "coproc", "in", "export", "local", "declare", "typeset", "readonly", "unset", "let", "[", "[[", "]]",
    "{", "}", "!", "test",
})

_NOT_PROGRAMS: Final = _RESERVED | {"-"}
"""First words the fast path leaves to tree-sitter (which reads ``- x=1`` as an assignment, ``- a?b`` as an error)."""
_OPERATOR_STARTS: Final = ("==", "=~")
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
_WORD_CLASS: Final = "A-Za-z0-9_./=:,@%+*?~^!-"  # exactly the characters of _WORD
_WORD_PATTERN = f"(?>(?:[{_WORD_CLASS}]+|'[^']*'|\"[^\"]*\")+)"  # atomic: a failing line cannot backtrack into it
_WORD_RE: Final = re.compile(_WORD_PATTERN)
_PART_RE: Final = re.compile(f"([{_WORD_CLASS}]+)|'([^']*)'|\"([^\"]*)\"")
_SPACES_RE: Final = re.compile("[ \t]*")
_SURROGATE_RE: Final = re.compile(r"[\ud800-\udfff]")  # (the escapes for re: no surrogate in a literal)
_FD_RE: Final = re.compile("[1-9][0-9]*(?=[<>])")  # digits right before < or >: a redirection's file descriptor
# (tree-sitter-bash reads `0<f` as the word `0` and `<f`, and `00>f` as an error: a leading 0 is left to it)
_WORD_START: Final = _WORD | frozenset("'\"$")  # `$` starts a word for the dollar lexer; the plain regexes refuse it

# The same lexer for lines with `$`: a word may also hold `$NAME` and `${NAME}`, unquoted or in double quotes.
# Possessive and atomic, as bash reads a name (the longest): `$IFS` could otherwise also be `$I` `F` `S`,
# and a line that fails at its end (`"…$IFS$IFS…$"`) backtracked through every split: exponential.
_NAME: Final = "[A-Za-z_][A-Za-z0-9_]*+"
_EXPANSION: Final = f"\\$(?:{_NAME}|\\{{{_NAME}\\}})"
_DOUBLE_DOLLAR: Final = f'"(?>(?:[^"$]++|{_EXPANSION})*)"'
_DOLLAR_WORD_RE: Final = re.compile(f"(?>(?:[{_WORD_CLASS}]+|{_EXPANSION}|'[^']*'|{_DOUBLE_DOLLAR})+)")
_DOLLAR_PART_RE: Final = re.compile(f"([{_WORD_CLASS}]+)|({_EXPANSION})|'([^']*)'|\"((?:[^\"$]|{_EXPANSION})*)\"")


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


def _word(src: str, i: int, n: int, word_re: re.Pattern[str] = _WORD_RE,
          quoted_word: Callable[[str], Word] = _quoted_word) -> tuple[Word, int]:
    """Read one word starting at ``src[i]``; returns it and the index after it. ``word_re`` and
    ``quoted_word``: the dollar lexer's, for a line with ``$`` (see ``_parse_dollar``)."""
    m = word_re.match(src, i)
    if m is None:
        raise _Reject  # an unterminated quote, or a `$` the lexer does not take
    token = m.group()
    if "'" not in token and '"' not in token:
        return Word(token, False, "*" in token or "?" in token, False), m.end()
    return quoted_word(token), m.end()


_AFTER_SPLIT_OK: Final = frozenset("=:@%")
"""What may follow an unbraced ``$NAME`` after two parts of a word or more (``$U@$H:$D``); after any other
character tree-sitter splits the word after that ``$`` (``$A/$B/x`` → ``$A/$`` ``B/x``)."""


def _dollar_word(token: str) -> Word:
    """A word of the dollar lexer: its expansions keep their source form (``$HOME/x``, ``"${A}.txt"`` →
    ``${A}.txt``) and make it dynamic; quotes go; only unquoted ``*``/``?`` make it a glob."""
    parts: list[str] = []
    glob = dynamic = False
    split = False  # the last part is an unbraced `$NAME` after two parts or more
    for chunk, expansion, single, double in _DOLLAR_PART_RE.findall(token):
        if chunk:
            if split and chunk[0] not in _AFTER_SPLIT_OK:
                raise _Reject  # tree-sitter splits such a word (`$A.$B.x`, `a"b"$C*`) after the last `$`
            if not glob and ("*" in chunk or "?" in chunk):
                glob = True
            parts.append(chunk)
        elif expansion:
            dynamic = True
            split = len(parts) >= 2 and expansion[1] != "{"
            parts.append(expansion)
            continue
        elif double:
            if not _BAD_IN_DOUBLE_DOLLAR.isdisjoint(double):
                raise _Reject
            if "$" in double:  # only as an expansion: the lexer's double-quote pattern takes no other `$`
                dynamic = True
            parts.append(double)
        else:
            parts.append(single)
        split = False
    return Word("".join(parts), dynamic, glob, "'" in token or '"' in token)


def _redirect(src: str, i: int, n: int, fd: str | None, word_re: re.Pattern[str] = _WORD_RE,
              quoted_word: Callable[[str], Word] = _quoted_word) -> tuple[Redirect, int]:
    ch = src[i]
    if ch == "&":  # &> or &>>
        op = "&>>" if src.startswith("&>>", i) else "&>"
    elif ch == ">":
        op = ">>" if src.startswith(">>", i) else (">&" if src.startswith(">&", i) else ">")
    else:
        op = "<&" if src.startswith("<&", i) else "<"
        if src.startswith(("<<", "<>"), i):
            raise _Reject
    if src.startswith((">|", ">>&", ">>|"), i) or (op in (">&", "<&") and (fd is None or src.startswith("-", i + 2))):
        raise _Reject  # `2>&-` (close) is one token to tree-sitter, with no target word; `2>& -` is not
    i = _SPACES_RE.match(src, i + len(op)).end()  # type: ignore[union-attr]  # `[ \t]*` always matches
    if i >= n or src[i] not in _WORD_START:
        raise _Reject
    target, i = _word(src, i, n, word_re, quoted_word)
    if op in (">&", "<&") and not (target.text.isdigit() or target.text == "-") or not target.text:
        raise _Reject
    return Redirect(op, target, fd), i


_ALLOWED: Final = _WORD | frozenset(" \t'\"|&;<>{}\\")
_OPERATOR_CHARS: Final = frozenset("|&;<>{\\")
_SPECIAL: Final = {"{}": Word("{}", False, True, False), "\\;": Word(";", False, False, False)}
"""Standalone ``{}`` and ``\\;`` (``find -exec … {} \\;``), as the tree-sitter walk reads them."""


def parse_plain(src: str) -> Script | None:
    """The ``Script`` of a plain command line, or None when the line is outside the plain subset."""
    if not src or "\n" in src or "\r" in src or ("`" in src or "$(" in src) and "'" not in src:
        return None  # substitutions are never in the subset (but as literals in single quotes): no regex needed
    if not src.isascii() and _SURROGATE_RE.search(src):
        return None  # a lone surrogate (JSON's "\ud800"): the tree-sitter walk reads its bytes as U+FFFD
    try:
        if "'" in src or '"' in src:
            if "$" in src:
                return _parse_dollar(src)
            return _parse_list(src) or _parse(src)  # both check every character outside the quotes themselves
        if not _ALLOWED.issuperset(src) and ("\\" not in src or not _ALLOWED.issuperset(_ESCAPE_RE.sub("", src))):
            # characters outside the subset, unless escaped (`find . \( -a -o -b \)`), or expansions
            return _parse_dollar(src) if "$" in src else None
        if not _OPERATOR_CHARS.isdisjoint(src):
            return _parse_list(src) or _parse(src)
        return _parse_words(src)
    except _Reject:
        return None


def _parse_dollar(src: str) -> Script | None:
    """A line with ``$``: the regex lexers, taking ``$NAME`` and ``${NAME}`` as parts of words (and ``$`` as
    a literal in single quotes). Any other ``$`` (``$1``, ``${A:-x}``, ``$(``, ``\\$``) stops them: None."""
    script = _parse_list(src, True)
    if script is None:
        script = _parse(src, _DOLLAR_WORD_RE, _dollar_word)
        for command in script.commands:  # `_parse` reads an unquoted word as it is: resolve its expansions
            command.words = [_dollar_word(w.text) if not w.quoted and "$" in w.text else w for w in command.words]
            for r in command.redirects:
                if r.target is not None and not r.target.quoted and "$" in r.target.text:
                    r.target = _dollar_word(r.target.text)
    return script


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


_ESCAPE: Final = r"\\[!-~]"  # a backslash and the printable ASCII character it escapes (`\(`, `\!`, `\;`)
_ESCAPE_RE: Final = re.compile(_ESCAPE)
_QUOTED_RE: Final = re.compile("'[^']*'|\"[^\"]*\"")
_BAD_ESCAPE_RE = re.compile(r"\\(?![!-~])")  # before a blank, a non-ASCII character or the end: not for the fast path
_LIST_WORD = f"(?:(?>(?:[{_WORD_CLASS}]+|{_ESCAPE}|'[^']*'|\"[^\"]*\")+)|\\{{\\}})"  # a word, or a standalone `{{}}`
_LIST_COMMAND_RE: Final = re.compile(f"[ \t]*({_LIST_WORD}(?:[ \t]+{_LIST_WORD})*)[ \t]*(\\|\\||&&|[|&;]|\\Z)")
_LIST_WORDS_RE: Final = re.compile(_LIST_WORD)
_DOLLAR_ESCAPE: Final = r"\\[!-#%-~]"  # _ESCAPE but `\$`: an escaped `$` is not for the fast path
_DOLLAR_LIST_WORD: Final = (f"(?:(?>(?:[{_WORD_CLASS}]+|{_EXPANSION}|{_DOLLAR_ESCAPE}|'[^']*'|{_DOUBLE_DOLLAR})+)"
                            "|\\{\\})")
_DOLLAR_LIST_COMMAND_RE: Final = re.compile(
    f"[ \t]*({_DOLLAR_LIST_WORD}(?:[ \t]+{_DOLLAR_LIST_WORD})*)[ \t]*(\\|\\||&&|[|&;]|\\Z)")
_DOLLAR_LIST_WORDS_RE: Final = re.compile(_DOLLAR_LIST_WORD)
_STANDALONE_SPECIAL_RE: Final = re.compile(r"(?:^|(?<=[ \t]))(?:\{\}|\\;)(?=[ \t]|$)")
"""The ``{}`` and ``\\;`` words of a line; ``_without_specials`` removes them without it (a lookbehind at
every position was the lexer's slowest step), ``tests/test_fast_paths.py`` checks that both agree."""


def _without_specials(src: str) -> str:
    """``_STANDALONE_SPECIAL_RE.sub("", src)``: the line without its standalone ``{}`` and ``\\;`` words."""
    parts = _BLANK_SPLIT_RE.split(src)  # word, blank, word, …: the words at even places
    return "".join("" if i % 2 == 0 and (p == "{}" or p == "\\;") else p for i, p in enumerate(parts))


_BLANK_SPLIT_RE: Final = re.compile(r"([ \t])")
_BRACES: Final = frozenset("{}\\")


def _parse_list(src: str, dollar: bool = False) -> Script | None:
    """``_parse`` for the commonest lines, words joined by ``| || && ; &`` (no redirection, no ``{}``):
    a regex match per command instead of a step per token. None when the line is not of that shape
    (``_parse`` then decides); what it accepts, ``_parse`` builds the same way. ``dollar``: the line
    has a ``$``, lexed with the dollar patterns (``${NAME}`` has braces, so its lines go to ``_parse``)."""
    if "<" in src or ">" in src:
        return None
    escapes = False
    if not _BRACES.isdisjoint(src):
        if "\\" in src and _BAD_ESCAPE_RE.search(src):
            return None
        rest = _without_specials(src) if "{}" in src or "\\;" in src else src  # `find -exec … {} \;`
        escapes = "\\" in rest
        if escapes:
            rest = _ESCAPE_RE.sub("", rest)
        if not _BRACES.isdisjoint(rest):
            return None  # other braces: brace expansion, groups
    if dollar:
        command_re, words_re, word = _DOLLAR_LIST_COMMAND_RE, _DOLLAR_LIST_WORDS_RE, _dollar_list_word
    elif not escapes and "'" not in src and '"' not in src:
        return _parse_unquoted_list(src)
    else:
        command_re, words_re, word = _LIST_COMMAND_RE, _LIST_WORDS_RE, _list_word
    commands: list[SimpleCommand] = []
    upstream: list[int] = []
    n = len(src)
    pos = pipes = lists = 0
    while True:
        m = command_re.match(src, pos)
        if m is None:
            return None
        tokens = words_re.findall(m.group(1))
        if _operator_word(tokens):
            raise _Reject
        words = list(map(word, tokens))
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
        return Word(unescape_unquoted(token), False, is_glob(token), False)
    return Word(token, False, "*" in token or "?" in token, False)


def _dollar_list_word(token: str) -> Word:
    if "$" not in token:
        return _list_word(token)
    if "\\" in token and "\\" in _QUOTED_RE.sub("", token):
        raise _Reject  # escapes outside quotes and a `$` in one word: left to tree-sitter
    return _dollar_word(token)  # a backslash in double quotes is refused there


_SEPARATOR_RE: Final = re.compile(r"(\|\||&&|[|&]|(?<!\\);)")  # a `;` after a backslash is the `\;` word
_SEPARATOR_PLAIN_RE: Final = re.compile(r"(\|\||&&|[|&;])")  # the same without a backslash in the line: twice as fast


def _parse_unquoted_list(src: str) -> Script | None:
    """``_parse_list`` without quotes or escapes: the separators split the line, ``str.split`` the words."""
    parts = (_SEPARATOR_RE if "\\" in src else _SEPARATOR_PLAIN_RE).split(src)  # command, separator, …, command
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


def _parse(src: str, word_re: re.Pattern[str] = _WORD_RE, quoted_word: Callable[[str], Word] = _quoted_word) -> Script:
    """The general lexer, a step per token. ``word_re`` and ``quoted_word``: the dollar lexer's, for a line
    with ``$``; an unquoted word then still holds its expansions unresolved (``_parse_dollar`` resolves them)."""
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
        elif ch in _WORD_START:
            fd = _FD_RE.match(src, i) if "0" <= ch <= "9" else None
            if fd is not None:
                if not words:
                    raise _Reject
                redirect, i = _redirect(src, fd.end(), n, fd.group(), word_re, quoted_word)
                redirects.append(redirect)
                continue
            if redirects:
                raise _Reject  # `cmd > f arg`: leave the odd orders to tree-sitter
            if start < 0:
                start = i
            m = word_re.match(src, i)  # _word(), inlined: this is the lexer's innermost step
            if m is None:
                raise _Reject
            token = m.group()
            if token.startswith(_OPERATOR_STARTS):
                raise _Reject
            if "'" in token or '"' in token:
                words.append(quoted_word(token))
            else:
                words.append(Word(token, False, "*" in token or "?" in token, False))
            i = end = m.end()
            expect_command = False
        elif ch == ">" or ch == "<" or (ch == "&" and src.startswith("&>", i)):
            if not words or src[i - 1] not in " \t":
                raise _Reject  # `-200>f`: tree-sitter and bash disagree on what the word before is
            redirect, i = _redirect(src, i, n, None, word_re, quoted_word)
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

