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

import copy
import os
from typing import Mapping

from phlegyas.hosts.config_files import FileChange, InstallError, ShapeError, list_at, object_at, plan, read_json
from phlegyas.hosts.hook.command import hook_command, is_phlegyas_command

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
    or the entry appended; everything else kept."""
    out = copy.deepcopy(doc)
    out.setdefault("version", VERSION)
    hooks = object_at(out, "hooks", ())
    for event in EVENTS:
        entries = list_at(hooks, event, ("hooks",))
        placed, kept = False, []
        for index, current in enumerate(entries):
            if not isinstance(current, dict):
                raise ShapeError(("hooks", event, index), "an object with 'command'")
            if not is_phlegyas_hook(current):
                kept.append(current)
            elif not placed:
                kept.append(entry)
                placed = True
        entries[:] = kept if placed else [*kept, entry]
    return out


def remove_hooks(doc: dict) -> dict:
    """``doc`` without phlegyas's entries; emptied containers are dropped, and a document left with
    nothing but its ``version`` becomes empty (the file is removed)."""
    out = copy.deepcopy(doc)
    hooks = out.get("hooks")
    if not isinstance(hooks, dict):
        return out
    changed = False
    for event in list(hooks):
        entries = hooks[event]
        if not isinstance(entries, list) or not any(is_phlegyas_hook(e) for e in entries):
            continue
        changed = True
        entries[:] = [e for e in entries if not is_phlegyas_hook(e)]
        if not entries:
            del hooks[event]
    if not changed:
        return out
    if not hooks:
        del out["hooks"]
    return {} if set(out) <= {"version"} else out


def install_changes(*, user: bool, project: str, environ: Mapping[str, str], python: str,
                    timeout: int) -> list[FileChange]:
    if not isinstance(timeout, int) or timeout <= 0:
        raise InstallError(f"the hook timeout must be a positive number of seconds, got {timeout!r}")
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
    hooks = (doc or {}).get("hooks")
    entries = hooks.get(EVENTS[0]) if isinstance(hooks, dict) else None
    if isinstance(entries, list) and any(is_phlegyas_hook(e) for e in entries):
        return path
    return None
