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

import copy
import os
from typing import Mapping

from phlegyas.hosts.config_files import FileChange, InstallError, ShapeError, list_at, object_at, plan, read_json
from phlegyas.hosts.hook.command import hook_command, is_phlegyas_command

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
    """``doc`` with one phlegyas hook per event in a ``*`` group: the first phlegyas entry of such a group
    updated in place, any other phlegyas entry dropped (with its group when that empties it), else a new
    group appended; everything else kept."""
    out = copy.deepcopy(doc)
    hooks = object_at(out, "hooks", ())
    for event in HOOK_EVENTS:
        groups = list_at(hooks, event, ("hooks",))
        wanted = hook_entry(command, timeouts[event])
        placed, kept_groups = False, []
        for index, group in enumerate(groups):
            if not isinstance(group, dict):
                raise ShapeError(("hooks", event, index), "an object with 'matcher' and 'hooks'")
            entries = group.get("hooks", [])
            if not isinstance(entries, list):
                raise ShapeError(("hooks", event, index, "hooks"), "a list")
            star = group.get("matcher", "*") in ("*", "")
            updated = []
            for entry in entries:
                if not is_phlegyas_hook(entry):
                    updated.append(entry)
                elif star and not placed:
                    updated.append(wanted)
                    placed = True
            if updated or not entries:
                kept_groups.append({**group, "hooks": updated})
        if not placed:
            kept_groups.append({"matcher": "*", "hooks": [wanted]})
        groups[:] = kept_groups
    return out


def remove_hooks(doc: dict) -> dict:
    """``doc`` without phlegyas's hooks; groups, events and ``hooks`` emptied by the removal are dropped."""
    out = copy.deepcopy(doc)
    hooks = out.get("hooks")
    if not isinstance(hooks, dict):
        return out
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept, changed = [], False
        for group in groups:
            entries = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(entries, list) or not any(is_phlegyas_hook(e) for e in entries):
                kept.append(group)
                continue
            changed = True
            rest = [e for e in entries if not is_phlegyas_hook(e)]
            if rest:
                kept.append({**group, "hooks": rest})
        groups[:] = kept
        if changed and not groups:
            del hooks[event]
    if not hooks and doc.get("hooks"):
        del out["hooks"]
    return out


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
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    groups = hooks.get("PreToolUse") if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else ():
        entries = group.get("hooks") if isinstance(group, dict) else None
        if isinstance(entries, list) and any(is_phlegyas_hook(e) for e in entries):
            return path
    return None
