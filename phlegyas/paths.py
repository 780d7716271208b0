"""Path normalization: every path check sees an absolute, lexically normalized path.

``~``, ``$HOME`` and ``${HOME}`` are expanded, relative paths are joined to the call's cwd, and ``..``
is resolved lexically (so ``/tmp/../etc/cron.d/x`` is ``/etc/cron.d/x``). Symlinks are not followed
here: the gate decides on what the command names, before anything runs.
"""
from __future__ import annotations

import posixpath

_HOME_PREFIXES = ("$HOME", "${HOME}")


def expand_home(path: str, home: str) -> str:
    """Expand a leading ``~``, ``~/``, ``$HOME`` or ``${HOME}``; other ``~user`` forms are left alone."""
    if path == "~" or path.startswith("~/"):
        return home + path[1:]
    for prefix in _HOME_PREFIXES:
        if path == prefix or path.startswith(prefix + "/"):
            return home + path[len(prefix):]
    return path


def normalize(path: str, cwd: str, home: str) -> str:
    """An absolute, normalized form of ``path`` as the shell or a file tool would resolve it."""
    path = expand_home(path, home)
    if not path.startswith("/"):
        path = posixpath.join(cwd or "/", path)
    norm = posixpath.normpath(path)
    if norm.startswith("//"):  # posixpath keeps a leading '//' (POSIX allows it); bash treats it as '/'
        norm = "/" + norm.lstrip("/")
    return norm


def is_within(path: str, root: str) -> bool:
    """True if normalized ``path`` is ``root`` itself or lies below it."""
    if root == "/":
        return path.startswith("/")
    return path == root or path.startswith(root.rstrip("/") + "/")
