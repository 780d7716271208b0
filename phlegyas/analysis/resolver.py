"""The one path resolver: what a command or a file tool names → the absolute path it reaches.

Nothing runs: ``~``, ``~user`` (``~root`` is ``/root``, another user's name is that user's home next to
yours), ``~+`` (the cwd), ``$HOME`` and ``${HOME}`` are expanded, relative paths are joined to the
call's cwd, ``..`` is resolved lexically (``/tmp/../etc/cron.d/x`` is ``/etc/cron.d/x``), and the
``/proc`` links that lead back into the file system are followed as the kernel follows them:
``/proc/self/cwd`` is the cwd, ``/proc/self/root`` and ``/proc/<pid>/root`` are ``/``, and ``..`` after
them climbs from there. ``/proc/<pid>/cwd`` (another process's working directory) cannot be known: it
stays as written, and ``paths.sensitive_reason`` says so. Symlinks are followed only by ``real``, for
paths that exist, as a second opinion that can add a reason, never lift one.

``phlegyas.analysis.paths`` re-exports these; every check (reads, writes, deletes, file tools) uses them.
"""
from __future__ import annotations

import os
import posixpath
import re
import stat
from functools import lru_cache
from typing import Final

_HOME_PREFIXES: Final = ("$HOME", "${HOME}")
_USER_NAME: Final = re.compile(r"[A-Za-z0-9._][A-Za-z0-9._-]*\$?")


def expand_home(path: str, home: str) -> str:
    """Expand a leading ``~``, ``~/``, ``$HOME`` or ``${HOME}``; other ``~user`` forms are left alone
    (``normalize`` resolves them; the policy's rule syntax has only ``~/``)."""
    if path == "~" or path.startswith("~/"):
        return home + path[1:]
    for prefix in _HOME_PREFIXES:
        if path == prefix or path.startswith(prefix + "/"):
            return home + path[len(prefix):]
    return path


def user_home(user: str, home: str) -> str:
    """The home directory ``~user`` names: yours for your own name, ``/root`` for root, else the
    directory next to yours (``/home/bob`` when yours is ``/home/u``)."""
    if user == posixpath.basename(home):
        return home
    if user == "root":
        return "/root"
    parent = posixpath.dirname(home)
    return posixpath.join(parent if parent not in ("", "/") else "/home", user)


def expand_tilde(path: str, home: str, cwd: str) -> str:
    """``expand_home`` plus ``~user`` and ``~+`` (bash's ``$PWD``)."""
    if not path.startswith("~"):
        return expand_home(path, home)
    head, sep, rest = path[1:].partition("/")
    if head == "":
        return home + sep + rest
    if head == "+":
        return cwd + sep + rest
    if _USER_NAME.fullmatch(head):
        return user_home(head.rstrip("$"), home) + sep + rest
    return path


_PROC_WHO: Final = re.compile(r"self|thread-self|\d+")


def _lexical(path: str) -> str:
    norm = posixpath.normpath(path)
    if norm.startswith("//"):  # posixpath keeps a leading '//' (POSIX allows it); bash treats it as '/'
        norm = "/" + norm.lstrip("/")
    return norm


def _walk(path: str, cwd: str) -> str:
    """Resolve ``.`` and ``..`` component by component, following the ``/proc`` links as the kernel
    does: ``/proc/self/root/..`` is ``/``, not ``/proc/self``. After another process's ``cwd`` the
    rest is kept as written: where it leads is not known."""
    out: list[str] = []
    parts = path.split("/")
    for i, comp in enumerate(parts):
        if comp in ("", "."):
            continue
        if comp == "..":
            if out:
                out.pop()
            continue
        out.append(comp)
        n = len(out)
        if out[0] != "proc" or comp not in ("root", "cwd") or n not in (3, 5) or not _PROC_WHO.fullmatch(out[1]):
            continue
        if n == 5 and (out[2] != "task" or not out[3].isdigit()):
            continue
        if comp == "root":
            out = []
        elif out[1] in ("self", "thread-self"):
            out = [p for p in cwd.split("/") if p]
        else:
            rest = "/".join(p for p in parts[i + 1:] if p)
            return "/" + "/".join(out) + ("/" + rest if rest else "")
    return "/" + "/".join(out)


@lru_cache(maxsize=8192)
def normalize(path: str, cwd: str, home: str) -> str:
    """An absolute, normalized form of ``path`` as the shell or a file tool would resolve it (see the
    module docstring); pure, so memoized."""
    path = expand_tilde(path, home, cwd)
    if not path.startswith("/"):
        path = posixpath.join(cwd or "/", path)
    if "/proc" not in path:
        return _lexical(path)
    return _walk(path, _lexical(cwd or "/"))


def real(path: str, home: str = "", root: str = "", cwd: str = "", write: bool = False) -> str | None:
    """Where normalized ``path`` really is when a symlink on the way makes it differ, else None.

    Links are looked for where someone else may have planted one: in the project (a cloned repository
    can carry ``notes.txt -> ~/.ssh/id_rsa``), the cwd and the temp directories; system directories'
    links are root's. Only a path that exists is looked at (for a write, one whose directory exists),
    one ``lstat`` per component, remembered for the rest of one decision (``one_decision``) and no longer,
    since a link can change between two calls. The
    real forms of ``home``, ``root`` and the system's own aliases (``/tmp`` is ``/private/tmp`` on
    macOS) are mapped back, so a place is judged by the name the checks know it by."""
    if path.startswith(("/dev/", "/proc/", "/sys/")):
        return None  # /dev/stdout is a pipe of this very process: where it leads says nothing of the command
    if root and root != "/" and is_within(path, root):
        base = root
    elif cwd and cwd != "/" and is_within(path, cwd):
        base = cwd
    elif path.startswith(("/tmp/", "/var/tmp/")):
        base = path[:path.index("/", 1)]
    elif root == "/" or cwd == "/":
        base = ""
    else:
        return None
    if not _link_below(path, base):
        return None
    try:
        resolved = os.path.realpath(path)
    except (OSError, ValueError):
        return None
    for alias, name in _aliases(home, root):
        if resolved == alias or resolved.startswith(alias + "/"):
            resolved = name + resolved[len(alias):]
            break
    return resolved if resolved != path else None


def _link_below(path: str, base: str) -> bool:
    """Whether a component of ``path`` below ``base`` is a symlink: one ``lstat`` per component under the
    base (the base itself is mapped through ``_aliases``), and none past the first that does not exist,
    since nothing below a missing directory can lead elsewhere. ``src/app.py`` in the project costs two."""
    rest = path[len(base):].strip("/")
    if not rest:
        return False
    current = base
    seen = _seen
    for part in rest.split("/"):
        current = current + "/" + part
        kind = seen.get(current, -1) if seen is not None else -1
        if kind < 0:
            try:
                kind = _LINK if stat.S_ISLNK(os.lstat(current).st_mode) else _OTHER
            except (OSError, ValueError):
                kind = _MISSING
            if seen is not None:
                seen[current] = kind
        if kind != _OTHER:
            return kind == _LINK
    return False


_MISSING, _LINK, _OTHER = 0, 1, 2
_seen: dict[str, int] | None = None
"""What ``lstat`` found for each path component looked at during the decision being made, or None
between decisions (then every call looks again)."""


def one_decision() -> bool:
    """Start remembering ``lstat`` results (one decision looks at a path several times: as a read, a
    write and a protected place); True when this call started it and must call ``end_decision``."""
    global _seen
    if _seen is not None:
        return False
    _seen = {}
    return True


def end_decision(started: bool) -> None:
    """Forget what ``one_decision`` remembered, if this caller started it."""
    global _seen
    if started:
        _seen = None


@lru_cache(maxsize=64)
def _aliases(home: str, root: str) -> tuple[tuple[str, str], ...]:
    """(real path, the name checks use) for the roots that are themselves reached through a link."""
    out = []
    for name in (root, home, "/tmp", "/var", "/etc"):
        if not name or name == "/":
            continue
        try:
            alias = os.path.realpath(name)
        except (OSError, ValueError):
            continue
        if alias != name:
            out.append((alias, name))
    return tuple(sorted(out, key=lambda pair: -len(pair[0])))


def is_within(path: str, root: str) -> bool:
    """True if normalized ``path`` is ``root`` itself or lies below it."""
    if root == "/":
        return path.startswith("/")
    return path == root or path.startswith(root.rstrip("/") + "/")
