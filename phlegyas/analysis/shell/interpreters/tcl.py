"""Tcl and expect code (``tclsh``, ``expect -c``, ``wish``): the commands it runs.

Tcl has no expressions outside its commands: a script is commands separated by newlines and ``;``,
each a list of words split at blanks, where ``{…}`` is literal, ``"…"`` groups (with ``$`` and ``[…]``
substituted) and ``[…]`` is a nested script whose result becomes (part of) a word. That is simple
enough to read exactly, so this module does not guess from tokens as the other languages' reader does:

- ``exec ARG…`` runs a program (``-ignorestderr``, ``-keepnewline`` and ``--`` first; ``|`` pipes to
  the next program; ``<``/``>`` redirect; a last ``&`` runs it in the background); expect's
  ``spawn ARG…`` runs one too (its own options first: ``-noecho``, ``-open ID`` …);
  ``open "|cmd …"`` and ``open |cmd`` start a pipeline;
- ``file delete -force PATH`` deletes recursively (``-force`` empties directories), ``file delete PATH``
  deletes a file or empty directory; ``file rename A B`` moves;
- ``socket`` and ``http::geturl`` reach the network;
- commands inside ``[…]``, ``{…}`` bodies of ``if``/``while``/``for``/``foreach``/``proc``/``catch``/
  ``eval``/``after``/``uplevel`` are read as scripts too (a body given as a brace word is code).

A word with ``$`` or ``[`` in it is computed: a command with a computed program or path is reported as
running unknown code (``executes``), which Tier 2 never allows.
"""
from __future__ import annotations

import shlex

from phlegyas.analysis.shell.interpreters.code_report import CodeReport

_BODIES = frozenset({"if", "elseif", "else", "then", "while", "for", "foreach", "proc", "catch", "eval", "after",
                     "uplevel", "time", "namespace", "switch", "try", "interact", "expect"})
"""Commands whose brace-word arguments are scripts that may run (``if {…} {exec rm …}``)."""
_EXEC_OPTIONS = frozenset({"-ignorestderr", "-keepnewline", "--"})
_SPAWN_OPTIONS = frozenset({"-noecho", "-console", "-nottycopy", "-nottyinit", "-pty", "-ignore", "-leaveopen",
                            "-open"})
_SPAWN_VALUE_OPTIONS = frozenset({"-open", "-leaveopen", "-ignore"})
MAX_DEPTH = 8
_HOMES = ("$env(HOME)", "$::env(HOME)", "${env(HOME)}", "$::env(USERPROFILE)")


class _Word:
    __slots__ = ("text", "computed", "braced")

    def __init__(self, text: str, computed: bool, braced: bool):
        self.text, self.computed, self.braced = text, computed, braced


def _close(code: str, i: int, opening: str, closing: str) -> int:
    """The index just past the ``closing`` that matches ``code[i] == opening`` (nesting counted,
    backslash escapes skipped), or len(code) when it never closes."""
    depth = 0
    n = len(code)
    while i < n:
        c = code[i]
        if c == "\\":
            i += 2
            continue
        if c == opening:
            depth += 1
        elif c == closing:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def commands(code: str) -> list[tuple[list[_Word], list[str]]]:
    """The commands of a Tcl script, each as (its words, the nested scripts of its ``[…]``)."""
    out: list[tuple[list[_Word], list[str]]] = []
    words: list[_Word] = []
    nested: list[str] = []
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c in " \t":
            i += 1
            continue
        if c in "\n;":
            if words:
                out.append((words, nested))
            words, nested = [], []
            i += 1
            continue
        if c == "#" and not words:  # a comment, to the end of the line
            end = code.find("\n", i)
            i = n if end < 0 else end
            continue
        if c == "\\" and i + 1 < n and code[i + 1] == "\n":
            i += 2
            continue
        if c == "{":
            end = _close(code, i, "{", "}")
            words.append(_Word(code[i + 1:end - 1], False, True))
            i = end
            continue
        start = i
        quoted = c == '"'
        i, text, computed = _word(code, i + 1 if quoted else i, '"' if quoted else " \t\n;", nested)
        if quoted:
            i += 1  # the closing quote
        if i == start:
            i += 1
        words.append(_Word(text, computed, False))
    if words:
        out.append((words, nested))
    return out


def _word(code: str, i: int, stops: str, nested: list[str]) -> tuple[int, str, bool]:
    """One word from ``code[i]`` to a character of ``stops``: (where it ends, its text with backslash escapes
    resolved, whether ``$`` or ``[…]`` computes part of it); the ``[…]`` scripts go to ``nested``."""
    n = len(code)
    text: list[str] = []
    computed = False
    while i < n and code[i] not in stops:
        ch = code[i]
        if ch == "\\" and i + 1 < n:
            text.append(code[i + 1])
            i += 2
            continue
        if ch == "[":
            end = _close(code, i, "[", "]")
            nested.append(code[i + 1:end - 1])
            computed = True
            i = end
            continue
        home = next((h for h in _HOMES if code.startswith(h, i)), None)
        if home is not None and not text:  # `$env(HOME)/proj`: the home directory, as `~/proj`
            text.append("~")
            i += len(home)
            continue
        if ch == "$":
            computed = True
        text.append(ch)
        i += 1
    return i, "".join(text), computed


def analyze_tcl(code: str, report: CodeReport, depth: int = 0) -> None:
    """Add to ``report`` what Tcl ``code`` runs, deletes, moves and reaches (see the module docstring)."""
    if depth > MAX_DEPTH:
        report.problems.append(f"Tcl scripts nested deeper than {MAX_DEPTH} levels")
        return
    for words, nested in commands(code):
        for script in nested:
            analyze_tcl(script, report, depth + 1)
        name = words[0].text
        args = words[1:]
        if words[0].computed:
            report.notes.append(("executes", "a Tcl command whose name is computed"))
            continue
        if name in ("exec", "spawn"):
            _runs(name, args, report)
        elif name == "open" and args and args[0].text.startswith("|"):
            _pipeline(args[0], report)
        elif name == "file" and args and args[0].text == "delete":
            _delete(args[1:], report)
        elif name == "file" and len(args) >= 3 and args[0].text == "rename":
            rest = [a for a in args[1:] if a.text not in ("-force", "--")]
            if len(rest) >= 2 and not any(a.computed for a in rest):
                report.argvs.append(["mv", rest[0].text, rest[1].text])
        elif name in ("socket", "http::geturl", "::http::geturl"):
            report.notes.append(("network", "tcl"))
        if name in _BODIES:
            for word in args:
                if word.braced:
                    analyze_tcl(word.text, report, depth + 1)


def _runs(name: str, args: list[_Word], report: CodeReport) -> None:
    options = _EXEC_OPTIONS if name == "exec" else _SPAWN_OPTIONS
    i = 0
    while i < len(args) and args[i].text in options:
        i += 2 if name == "spawn" and args[i].text in _SPAWN_VALUE_OPTIONS else 1
        if args[i - 1].text == "--":
            break
    argv = args[i:]
    if argv and argv[-1].text == "&":
        argv = argv[:-1]
    if not argv:
        return
    if any(w.computed for w in argv):
        report.notes.append(("executes", f"a program Tcl's {name} is given as a computed word"))
        return
    line: list[str] = []
    for w in argv:  # exec's own pipes and redirections, as a shell would read them
        line.append(w.text if w.text in ("|", "|&", "<", ">", ">>", "2>", "2>@1", ">&", "<<") or
                    w.text.startswith(("<", ">", "2>")) and name == "exec" else shlex.quote(w.text))
    report.shell.append(" ".join(line))


def _pipeline(word: _Word, report: CodeReport) -> None:
    if word.computed:
        report.notes.append(("executes", "a pipeline Tcl's open is given as a computed word"))
        return
    report.shell.append(word.text[1:].strip())


def _delete(args: list[_Word], report: CodeReport) -> None:
    force = False
    paths: list[_Word] = []
    for w in args:
        if w.text == "-force":
            force = True
        elif w.text != "--":
            paths.append(w)
    for w in paths:
        if w.computed:
            report.notes.append(("executes", "Tcl deletes a computed path"))
            continue
        report.argvs.append(["rm", "-r", w.text] if force else ["rm", w.text])  # `~` is the home in Tcl 8 too

