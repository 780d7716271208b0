"""Variables set by builtins rather than by ``NAME=value``: ``read`` and ``printf -v``.

``read x <<< rm`` sets ``x`` to ``rm``; ``printf -v c '%s' 'rm -rf ~'`` sets ``c`` to ``rm -rf ~``. When the
input (a here-string or heredoc) or the format and its arguments are literal, the value is learnt like a
literal assignment; otherwise the names become unknown (a value assigned earlier no longer holds:
``line=x; read line < f``). ``mapfile -t``/``readarray -t`` of literal input fills the array with its lines;
any other makes the array unknown. A ``read`` in a
pipeline runs in a subshell and sets nothing in this one; its names are made unknown too (zsh does set them).
"""
from __future__ import annotations

import re
from typing import Callable, Final

from phlegyas.analysis.shell.parse import ARRAY_SEPARATOR
from phlegyas.analysis.shell.syntax import SimpleCommand, decode_ansi_c

ASSIGNING_BUILTINS: Final = frozenset({"read", "printf", "mapfile", "readarray"})
_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_READ_VALUED: Final = frozenset("adinNptu")
DEFAULT_IFS: Final = " \t\n"
"""The IFS bash sets at start-up (it does not take one from the environment)."""


def learn_builtin(cmd: SimpleCommand, values: dict[str, str], conflicting: set[str],
                  produced: Callable[[str], str | None] | None = None, piped: str | None = None) -> None:
    """Record what ``cmd`` (``read``, ``printf -v``, ``mapfile``) assigns into ``values``; ``produced`` says
    what a ``$(…)`` of literals prints (``stdin.substitution_output``, handed in: it reads variables);
    ``piped``, a stand-in for each line of the command piped in, when their kind is known
    (``shell.typed_output``: ``git log --format=%H | while read -r c``: each line a commit id)."""
    words = cmd.words
    if not words or words[0].dynamic:
        return
    program = words[0].text
    if program == "read" and piped is not None and cmd.upstream and not cmd.redirects:
        names = [w.text for w in words[1:] if not w.text.startswith("-")]
        if len(names) == 1 and _NAME.fullmatch(names[0]) and all(w.text in ("-r",) for w in words[1:-1]):
            _set(names[0], piped, values, conflicting)  # one field per line, of a known plain kind
            return
        _read(cmd, values, conflicting)
    elif program == "read":
        _read(cmd, values, conflicting)
    elif program == "printf":
        _printf(cmd, values, conflicting)
    else:  # mapfile / readarray: the lines of a literal input (`-t`), else the array is unknown
        names = [w.text for w in words[1:] if _NAME.fullmatch(w.text)]
        name = (names[-1:] or ["MAPFILE"])[0]
        text = _mapped_input(cmd, produced) if produced is not None and [
            w.text for w in words[1:] if w.text.startswith("-")] == ["-t"] else None
        if text is None:
            _unknown(name, values, conflicting)
        else:
            _set(name, ARRAY_SEPARATOR.join(text.rstrip("\n").split("\n")), values, conflicting)


def _mapped_input(cmd: SimpleCommand, produced: Callable[[str], str | None]) -> str | None:
    """What ``mapfile`` reads when it is literal: a here-string or heredoc, or ``< <(printf …)`` of literals."""
    if cmd.upstream:
        return None
    if cmd.stdin_text is not None:
        return None if cmd.stdin_dynamic else cmd.stdin_text
    for r in cmd.redirects:
        if r.op == "<" and r.target is not None and r.target.text.startswith("<(") and r.target.text.endswith(")"):
            return produced("$(" + r.target.text[2:])
    return None


def _unknown(name: str, values: dict[str, str], conflicting: set[str]) -> None:
    values.pop(name, None)
    conflicting.add(name)


def _set(name: str, value: str, values: dict[str, str], conflicting: set[str]) -> None:
    if name in conflicting:
        return
    if name in values and values[name] != value:
        _unknown(name, values, conflicting)
        return
    values[name] = value


def _read(cmd: SimpleCommand, values: dict[str, str], conflicting: set[str]) -> None:
    args = cmd.words[1:]
    known = True
    names: list[str] = []
    array: str | None = None
    i = 0
    while i < len(args):
        a = args[i]
        t = a.text
        if a.dynamic:
            known = False
        elif t == "--":
            names.extend(w.text for w in args[i + 1:])
            break
        elif t.startswith("-") and len(t) > 1 and not names:
            letters = t[1:]
            for k, letter in enumerate(letters):
                if letter in _READ_VALUED:
                    if letter == "a":  # read -a NAME: an array of every field of the line
                        array = letters[k + 1:] or (args[i + 1].text if i + 1 < len(args) else "")
                    if letter not in ("p", "a"):
                        known = False  # -d -n -N -t -u -i: another delimiter, a length, another input
                    if k == len(letters) - 1:
                        i += 1
                    break
            i += 1
            continue
        else:
            names.append(t)
        i += 1
    raw = any(w.text.startswith("-") and "r" in w.text for w in args if not w.dynamic)
    names = [n for n in names if _NAME.fullmatch(n)] or ["REPLY"]
    text = cmd.stdin_text if (cmd.stdin_text is not None and not cmd.stdin_dynamic and not cmd.upstream) else None
    if array is not None:  # `read -ra c <<< "rm -rf ~"; "${c[@]}"`: c holds the words of the line
        if text is None or not known or not _NAME.fullmatch(array):
            _unknown(array, values, conflicting)
        else:
            items = _first_line(text, raw).split() if values.get("IFS", DEFAULT_IFS) == DEFAULT_IFS else None
            _set(array, ARRAY_SEPARATOR.join(items), values, conflicting) if items else _unknown(
                array, values, conflicting)
        return
    if text is None or not known:
        for name in names:
            _unknown(name, values, conflicting)
        return
    line = _first_line(text, raw)
    ifs = values.get("IFS", DEFAULT_IFS)
    for name, value in zip(names, _fields(line, ifs, len(names))):
        _set(name, value, values, conflicting)


def _first_line(text: str, raw: bool) -> str:
    """The line ``read`` takes: up to the first newline; without ``-r`` a backslash escapes the next
    character and a backslash-newline continues the line."""
    if raw:
        return text.split("\n", 1)[0]
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        if ch == "\n":
            break
        out.append(ch)
        i += 1
    return "".join(out)


def _fields(line: str, ifs: str, count: int) -> list[str]:
    """``read``'s split of ``line`` into ``count`` names: the last one gets the rest of the line."""
    blanks = "".join(c for c in ifs if c in " \t\n")
    line = line.strip(blanks) if blanks else line
    out: list[str] = []
    rest = line
    while len(out) < count - 1 and rest:
        k = next((j for j, c in enumerate(rest) if c in ifs), -1)
        if k < 0:
            break
        out.append(rest[:k])
        j = k
        while j < len(rest) and rest[j] in blanks:
            j += 1
        if j < len(rest) and rest[j] in ifs and rest[j] not in blanks and rest[k] in blanks:
            j += 1
            while j < len(rest) and rest[j] in blanks:
                j += 1
        elif rest[k] not in blanks:
            j = k + 1
            while j < len(rest) and rest[j] in blanks:
                j += 1
        rest = rest[j:]
    out.append(rest.rstrip(blanks) if blanks else rest)
    while len(out) < count:
        out.append("")
    return out


def _printf(cmd: SimpleCommand, values: dict[str, str], conflicting: set[str]) -> None:
    args = cmd.words[1:]
    if len(args) < 2 or args[0].dynamic or not args[0].text.startswith("-v"):
        return
    if args[0].text == "-v":
        name_word, rest = args[1], args[2:]
        name = name_word.text
    else:
        name, rest = args[0].text[2:], args[1:]
        name_word = args[0]
    if rest and rest[0].text == "--":
        rest = rest[1:]
    if name_word.dynamic or not _NAME.fullmatch(name):
        return  # printf -v "$n": some variable, not known which (the line's other analysis sees the words)
    if not rest or any(w.dynamic for w in rest):
        _unknown(name, values, conflicting)
        return
    got = printf_format(rest[0].text, [w.text for w in rest[1:]])
    if got is None:
        _unknown(name, values, conflicting)
    else:
        _set(name, got, values, conflicting)


_NUMERIC: Final = {"d": "d", "i": "d", "u": "d", "o": "o", "x": "x", "X": "X"}
_SPEC: Final = re.compile(r"%([-+ #0]*)([0-9]*)(?:\.([0-9]*))?([sbcdiouxXq%]|\()")


def printf_format(fmt: str, args: list[str]) -> str | None:
    """What ``printf FMT ARGS…`` prints, for the conversions ``%s %b %c %d %i %u %o %x %X %%`` (the format
    is reused while arguments remain); None for one it does not evaluate (``%q``, ``%(…)T``, a float)."""
    out: list[str] = []
    queue = list(args)
    for _ in range(64):
        used = 0
        pos = 0
        for m in _SPEC.finditer(fmt):
            out.append(decode_ansi_c(fmt[pos:m.start()]))
            pos = m.end()
            flags, width, precision, conv = m.groups()
            if conv == "%":
                out.append("%")
                continue
            if conv in ("q", "("):
                return None
            arg = queue.pop(0) if queue else ""
            used += 1
            if conv in ("s", "b"):
                text = decode_ansi_c(arg) if conv == "b" else arg
                if precision:
                    text = text[:int(precision)]
            elif conv == "c":
                text = arg[:1]
            else:
                try:
                    number = int(arg or "0", 0)
                except ValueError:
                    return None
                text = format(number, _NUMERIC[conv])
            if width:
                if "-" in flags:
                    text = text.ljust(int(width))
                elif "0" in flags and conv not in ("s", "b", "c"):
                    text = text.zfill(int(width))
                else:
                    text = text.rjust(int(width))
            out.append(text)
        out.append(decode_ansi_c(fmt[pos:]))
        if not queue or not used:
            break
    text = "".join(out)
    cut = text.find("\\c")
    return text if cut < 0 else text[:cut]
