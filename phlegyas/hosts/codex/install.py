"""What ``phlegyas install --agent codex`` / ``uninstall`` write: Codex's ``hooks.json``.

Codex (0.171.0, checked with the real binary) reads Claude Code's hook layout from ``hooks.json``:
``{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": CMD,
"timeout": N}]}], "PermissionRequest": […]}}`` — the timeout in seconds.

- ``--user``: ``$CODEX_HOME/hooks.json``, else ``~/.codex/hooks.json``;
- project: ``<project>/.codex/hooks.json``, which Codex loads only in a project the user has trusted
  (verified: otherwise it warns "Untrusted project-local configuration is disabled" and skips it).

Codex runs a hook only once the user has trusted it: the interactive ``codex`` says "Hooks need review"
at start and offers "Trust all and continue" (``/hooks`` reviews them one by one); that stores a hash of
each hook in ``config.toml`` (``[hooks.state."<file>:pre_tool_use:0:0"] trusted_hash``). An untrusted or
changed hook (another Python path, another timeout) is skipped silently, even by ``codex exec``
(verified), so every install that changes the file needs that step again. ``next_steps`` says so.

Codex has no fail-closed option: a hook that exits 1, prints something it cannot read, or outlives its
timeout counts as "failed" and the call runs (verified). phlegyas's own failures exit 2, which blocks;
the PreToolUse timeout is generous so that a slow start-up is not a silent pass.

The file is merged like every settings file (``phlegyas.hosts.config_files``): other hooks are kept, a
phlegyas entry (``is_phlegyas_command``) is updated in place, a second run changes nothing, and uninstall
removes exactly phlegyas's entries (the file too when nothing else is left in it).
"""
from __future__ import annotations

import os
from typing import Mapping

from phlegyas.hosts.config_files import FileChange, InstallError, plan, read_json
from phlegyas.hosts.hook.command import hook_command, is_phlegyas_command
from phlegyas.hosts.hook_entries import holds_grouped, place_grouped, remove_grouped

HOST = "Codex"
NAME = "codex"
FILE_NAME = "hooks.json"
HOOK_EVENTS = ("PreToolUse", "PermissionRequest")
PRE_TOOL_USE_TIMEOUT = 30
"""PreToolUse never waits for a person; Codex lets the call run past the timeout, so it is not tight."""


def hooks_path(*, user: bool, project: str, environ: Mapping[str, str]) -> str:
    if not user:
        return os.path.join(os.path.abspath(project), ".codex", FILE_NAME)
    base = environ.get("CODEX_HOME", "").strip()
    if not base:
        home = environ.get("HOME", "").strip()
        if not home.startswith("/"):
            raise InstallError("HOME is not an absolute path: cannot find Codex's hooks.json (or set CODEX_HOME)")
        base = os.path.join(home, ".codex")
    return os.path.join(os.path.abspath(os.path.expanduser(base)), FILE_NAME)


def hook_entry(command: str, timeout: int) -> dict:
    return {"type": "command", "command": command, "timeout": timeout}


def is_phlegyas_hook(entry: object) -> bool:
    return isinstance(entry, dict) and is_phlegyas_command(entry.get("command"))


def add_hooks(doc: dict, command: str, timeouts: Mapping[str, int]) -> dict:
    """``doc`` with one phlegyas hook per event in a ``*`` group (``hook_entries.place_grouped``)."""
    wanted = {event: hook_entry(command, timeouts[event]) for event in HOOK_EVENTS}
    return place_grouped(doc, wanted, is_ours=is_phlegyas_hook)


def remove_hooks(doc: dict) -> dict:
    """``doc`` without phlegyas's hooks; groups, events and ``hooks`` emptied by the removal are dropped."""
    return remove_grouped(doc, is_ours=is_phlegyas_hook)


def install_changes(*, user: bool, project: str, environ: Mapping[str, str], python: str,
                    timeout: int) -> list[FileChange]:
    """The hooks PreToolUse and PermissionRequest; ``timeout`` (seconds, the longest wait for a person
    plus a margin) is the PermissionRequest hook's, which may wait for a person's answer."""
    path = hooks_path(user=user, project=project, environ=environ)
    if not user and not os.path.isdir(os.path.abspath(project)):
        raise InstallError(f"{os.path.abspath(project)}: no such directory (give the project with --project DIR)")
    command = hook_command(python, NAME)
    timeouts = {"PreToolUse": max(PRE_TOOL_USE_TIMEOUT, 1), "PermissionRequest": max(int(timeout), 1)}
    what = (f"hooks {' and '.join(HOOK_EVENTS)} → {command} (PermissionRequest timeout "
            f"{timeouts['PermissionRequest']} s)")
    return [plan(path, [(lambda d: add_hooks(d, command, timeouts), what)])]


def uninstall_changes(*, user: bool, project: str, environ: Mapping[str, str]) -> list[FileChange]:
    path = hooks_path(user=user, project=project, environ=environ)
    return [plan(path, [(remove_hooks, "removed the phlegyas hooks")])]


def next_steps(*, user: bool, project: str, environ: Mapping[str, str]) -> list[str]:
    steps = ["Codex runs a new or changed hook only once you trust it: start `codex` (interactive) and choose "
             "\"Trust all and continue\" when it says \"Hooks need review\" (or review them with /hooks). "
             "Until then `codex` and `codex exec` skip phlegyas's hooks silently; do it again after every "
             "install that changes them."]
    if not user:
        steps.append(f"Codex reads {os.path.join(os.path.abspath(project), '.codex', FILE_NAME)} only in a "
                     "project you trust: accept when `codex` asks to trust the folder (or run `codex exec "
                     "--trust` there once); untrusted, Codex ignores the project's .codex/ with a warning.")
    return steps


def wired(*, user: bool, project: str, environ: Mapping[str, str]) -> str | None:
    """The hooks file when it holds a phlegyas hook for PreToolUse, else None (a malformed file is not
    wiring anything Codex would run)."""
    try:
        path = hooks_path(user=user, project=project, environ=environ)
        doc, _ = read_json(path)
    except InstallError:
        return None
    return path if holds_grouped(doc, "PreToolUse", is_ours=is_phlegyas_hook) else None
