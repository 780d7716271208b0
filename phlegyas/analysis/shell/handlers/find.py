"""``find``: the start points, and the expression after them (``-delete``, ``-fprint``, ``-exec`` …); and
the name searches of ``fd`` and ``locate``, which hunt as ``find -name`` does."""
from __future__ import annotations

import re
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


_FIND_NAMES: Final = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename"})
_FIND_PATHS: Final = frozenset({"-path", "-ipath", "-wholename", "-iwholename"})


def hunted(starts: list[Word], pattern: Word, whole: bool = False) -> list[Word]:
    """What a name filter lists under each start, as a glob (``find ~ -name 'id_*'`` → ``~/**/id_*``): the
    report checks it like a Glob of that pattern, so a hunt for keys or credentials outside the project
    (or ``*.pem`` anywhere) is a secret read, while ``-name '*.py'`` spells nothing secret. ``whole``: the
    pattern matches the whole path (``-path '*/.aws/*'``)."""
    text = pattern.text
    if pattern.dynamic or not text:
        return []
    out = []
    for start in starts:
        where = start.text.rstrip("/") or "/" if not start.dynamic else ""
        if not where:
            continue
        if whole and text.startswith(where.rstrip("/") + "/"):
            out.append(Word(text, False, True, True))
        else:
            rest = text.lstrip("*/") if whole else text
            out.append(Word(f"{where.rstrip('/')}/**/{rest or '*'}", False, True, True))
    return out


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
        if t in ("-H", "-L", "-P", "-E", "-X", "-s", "-x", "-d") or (t[:2] == "-O" and t[2:].isdigit()):  # (BSD's too)
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
            excluded = i > 0 and args[i - 1].text in ("!", "-not") or "-prune" in [a.text for a in args[i + 2:i + 5]]
            if t in _FIND_NAMES and i + 1 < n and not excluded:  # (`-name x -prune`, `! -name x`: left out)
                eff.hunts.extend(hunted(starts, args[i + 1], t in _FIND_PATHS))
            i += 1
        elif t.startswith("-") and t not in _FIND_FLAGS and not args[i].dynamic:
            eff.blockers.append(f"find {t} is a primary phlegyas does not know for find")
        i += 1


_PLAIN_REGEX: Final = re.compile(r"\^?(?:[\w-]|\\\.)+\$?")


def _as_glob(pattern: str, glob: bool) -> str | None:
    """A name pattern of fd or locate as a glob: ``id_rsa`` (a regex, or locate's substring) → ``*id_rsa*``,
    ``^\\.env$`` → ``.env``; None when the regex says more than a plain name can."""
    if glob:
        return pattern
    if not _PLAIN_REGEX.fullmatch(pattern):
        return None
    core = pattern.strip("^$").replace("\\.", ".")
    return ("" if pattern.startswith("^") else "*") + core + ("" if pattern.endswith("$") else "*")


def name_hunt(c: Call) -> None:
    """``fd PATTERN [DIR…]``, ``fd -e pem . ~``, ``locate id_rsa``: what they list, as ``find -name`` globs
    (``hunted``). locate searches the whole file system's index."""
    p = c.parsed
    ops = p.operands
    if c.name in ("locate", "mlocate", "plocate"):
        literal_glob = not p.has(("-r", "--regex", "--regexp"))
        for op in [*ops, *p.values(("--regexp",))]:
            glob = _as_glob(op.text, literal_glob and any(ch in op.text for ch in "*?["))
            if glob is not None and not op.dynamic:
                name = glob if any(ch in op.text for ch in "*?[") or not literal_glob else f"*{op.text}*"
                c.eff.hunts.extend(hunted([Word("/")], Word(name, False, True, True), p.has(("-w", "--wholename"))
                                          or "/" in name))
        return
    where = [*ops[1:], *p.values(("--search-path", "--base-directory"))] or [Word(".")]
    names = []
    if ops and not ops[0].dynamic and ops[0].text not in ("", "."):
        glob = _as_glob(ops[0].text, p.has(("-g", "--glob")))
        if glob is not None:
            names.append(glob)
    names.extend(f"*.{e.text.lstrip('.')}" for e in p.values(("-e", "--extension")) if not e.dynamic)
    for name in names:
        c.eff.hunts.extend(hunted(where, Word(name, False, True, True), p.has(("-p", "--full-path"))))
