"""``find``: the start points, and the expression after them (``-delete``, ``-fprint``, ``-exec`` …)."""
from __future__ import annotations

from typing import Final

from phlegyas.analysis.shell.effect_types import literal
from phlegyas.analysis.shell.handlers.base import Call
from phlegyas.analysis.shell.parse import Word

_FIND_VALUES: Final = frozenset({
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname",
    "-type", "-xtype", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-anewer",
    "-cnewer", "-perm", "-user", "-group", "-uid", "-gid", "-links", "-inum", "-maxdepth", "-mindepth",
    "-samefile", "-used", "-fstype", "-context", "-printf", "-regextype",
    "-newerXY", "-newermt", "-newerct", "-newerat", "-newermm", "-since", "-Bmin", "-Btime", "-Bnewer", "-mnewer",
    "-flags", "-xattrname", "-depth-n",
})
_FIND_READS: Final = frozenset({"-files0-from"})
"""Primaries whose value is a file ``find`` reads (the start points, NUL-separated)."""
_FIND_WRITES: Final = {"-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2}
FIND_EXEC: Final = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FIND_FLAGS: Final = frozenset({
    "-print", "-print0", "-ls", "-delete", "-prune", "-quit", "-true", "-false", "-empty", "-readable",
    "-writable", "-executable", "-nouser", "-nogroup", "-depth", "-mount", "-xdev", "-noleaf", "-daystart",
    "-follow", "-ignore_readdir_race", "-noignore_readdir_race", "-a", "-and", "-o", "-or", "-not", "-warn",
    "-nowarn", "-help", "--help", "-version", "--version", "-xattr", "-acl", "-d", "-x", "-s", "-E", "-X",
})
"""The primaries and operators without a value; with ``_FIND_VALUES``, ``_FIND_WRITES`` and ``FIND_EXEC``
they are find's option spec: any other ``-word`` in the expression is not understood."""


def find_exec_end(args: list[Word], i: int) -> int:
    """For ``-exec``/``-ok`` … at ``args[i]``: the index of its ``;``/``+`` (``len(args)`` when missing)."""
    n = len(args)
    j = i + 1
    while j < n and args[j].text not in (";", "+"):
        j += 1
    return j


def find_start_dirs(args: list[Word]) -> tuple[list[Word], int]:
    """The start points of a ``find`` and the index where its expression begins."""
    i = 0
    while i < len(args):  # the options before the start points, in any order: -H -L -P, -D DEBUGOPTS, -O3
        t = args[i].text
        if t in ("-H", "-L", "-P") or (t[:2] == "-O" and t[2:].isdigit()):
            i += 1
        elif t == "-D":
            i += 2
        else:
            break  # (a bare -O is not find's: the level is attached; it is left to the expression, unknown)
    starts: list[Word] = []
    while i < len(args):
        t = args[i].text
        if t.startswith("-") and len(t) > 1 or t in ("(", "!", ",", ")"):
            break
        starts.append(args[i])
        i += 1
    return starts or [literal(".")], i


def find(c: Call) -> None:
    eff = c.eff
    eff.reads.clear()
    starts, i = find_start_dirs(c.args)
    eff.lists.extend(starts)  # names and metadata, like ls -R; what -exec runs reads the files
    args = c.args
    n = len(args)
    while i < n:
        t = args[i].text
        if t in FIND_EXEC:
            i = find_exec_end(args, i) + 1  # the command itself is analysed by shell.analyze
            continue
        if t == "-delete":
            eff.deletes.extend((s, True) for s in starts)
        elif t in _FIND_WRITES:
            if i + 1 < n:
                eff.writes.append(args[i + 1])
                if any(s.text == "~" or s.text.startswith(("~/", "$HOME", "/home", "/root", "/")) and s.text != "/tmp"
                       for s in starts) and not args[i + 1].text.startswith((".", "build/", "out/")):
                    eff.blockers.append(f"find {t} saves a listing of files outside the project to "
                                        f"{args[i + 1].text}")  # `find ~ -name 'id_*' -fprint /tmp/keys`
            i += _FIND_WRITES[t]
        elif t in _FIND_READS:
            if i + 1 < n:
                eff.reads.append(args[i + 1])
            i += 1
        elif t in _FIND_VALUES or t.startswith("-newer"):
            i += 1
        elif t.startswith("-") and t not in _FIND_FLAGS and not args[i].dynamic:
            eff.blockers.append(f"find {t} is a primary phlegyas does not know for find")
        i += 1
