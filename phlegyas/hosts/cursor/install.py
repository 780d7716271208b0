"""What ``phlegyas install --agent cursor`` / ``uninstall`` write: Cursor's ``hooks.json``.

From Cursor's hooks documentation (cursor.com/docs/agent/hooks; Cursor is not on npm, so this was not
run against a binary): ``<project>/.cursor/hooks.json`` or, with ``--user``, ``~/.cursor/hooks.json``:

``{"version": 1, "hooks": {"beforeShellExecution": [{"command": CMD, "timeout": N, "failClosed": true}],
"beforeReadFile": […], "beforeMCPExecution": […]}}``

- ``timeout`` is in seconds;
- ``failClosed: true``: without it Cursor lets the action through when the hook crashes, times out or
  prints something that is not an answer (documented as fail-open); phlegyas never fails open.

The file is shared with the user's other hooks, so it is merged (``phlegyas.hosts.config_files``): other
events and entries are kept, a phlegyas entry (any whose ``command`` runs phlegyas,
``is_phlegyas_command``) is updated in place, a second run changes nothing, and uninstall removes exactly
phlegyas's entries (the file too when nothing else is left in it).
"""
from __future__ import annotations

import os
from typing import Mapping

from phlegyas.hosts.config_files import FileChange, InstallError, check_timeout, plan, read_json
from phlegyas.hosts.hook.command import hook_command, is_phlegyas_command
from phlegyas.hosts.hook_entries import holds_flat, place_flat, remove_flat

HOST = "Cursor"
NAME = "cursor"
EVENTS = ("beforeShellExecution", "beforeReadFile", "beforeMCPExecution")
VERSION = 1


def hooks_path(*, user: bool, project: str, environ: Mapping[str, str]) -> str:
    if not user:
        return os.path.join(os.path.abspath(project), ".cursor", "hooks.json")
    home = environ.get("HOME", "").strip()
    if not home.startswith("/"):
        raise InstallError("HOME is not an absolute path: cannot find Cursor's user hooks.json")
    return os.path.join(home, ".cursor", "hooks.json")


def hook_entry(command: str, timeout: int) -> dict:
    return {"command": command, "timeout": timeout, "failClosed": True}


def is_phlegyas_hook(entry: object) -> bool:
    return isinstance(entry, dict) and is_phlegyas_command(entry.get("command"))


def add_hooks(doc: dict, entry: dict) -> dict:
    """``doc`` with one phlegyas entry per event: the first one there updated in place, any other dropped,
    or the entry appended; everything else kept (``hook_entries.place_flat``)."""
    return place_flat(doc, dict.fromkeys(EVENTS, entry), is_ours=is_phlegyas_hook, version=VERSION,
                      shape="an object with 'command'")


def remove_hooks(doc: dict) -> dict:
    """``doc`` without phlegyas's entries (under any event); emptied containers are dropped, and a document
    left with nothing but its ``version`` becomes empty (the file is removed)."""
    return remove_flat(doc, is_ours=is_phlegyas_hook)


def install_changes(*, user: bool, project: str, environ: Mapping[str, str], python: str,
                    timeout: int) -> list[FileChange]:
    check_timeout(timeout)
    path = hooks_path(user=user, project=project, environ=environ)
    command = hook_command(python, NAME)
    return [plan(path, [(lambda d: add_hooks(d, hook_entry(command, timeout)),
                         f"hooks {', '.join(EVENTS)} → {command} (timeout {timeout} s, failClosed)")])]


def uninstall_changes(*, user: bool, project: str, environ: Mapping[str, str]) -> list[FileChange]:
    path = hooks_path(user=user, project=project, environ=environ)
    return [plan(path, [(remove_hooks, "removed the phlegyas hooks")])]


def next_steps(*, user: bool, project: str, environ: Mapping[str, str]) -> list[str]:
    return ["  Cursor reads hooks.json when it starts: restart it, then check Settings → Hooks.",
            "  In Auto-review mode Cursor is reported to ignore a hook's ask: only phlegyas's deny blocks there."]


def wired(*, user: bool, project: str, environ: Mapping[str, str]) -> str | None:
    """The hooks.json that wires phlegyas in this scope (for shell commands), or None."""
    try:
        path = hooks_path(user=user, project=project, environ=environ)
        doc, _ = read_json(path)
    except InstallError:
        return None
    return path if holds_flat(doc, EVENTS[0], is_ours=is_phlegyas_hook) else None
