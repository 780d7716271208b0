"""What ``phlegyas install --agent copilot`` / ``uninstall`` write: one hooks file of Copilot CLI.

Copilot CLI (1.0.102, checked with the real binary) loads every ``*.json`` of its hooks directories:
``{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": CMD, "timeoutSec": N}]}}``.

- ``--user``: ``$COPILOT_HOME/hooks/phlegyas.json``, else ``~/.copilot/hooks/phlegyas.json`` (with
  ``COPILOT_HOME`` set, Copilot does not read ``~/.copilot`` at all);
- project: ``<project>/.github/hooks/phlegyas.json``, which Copilot runs only in a folder it trusts; a
  ``copilot -p`` run loads it only with ``--trust-folder`` (or ``COPILOT_ALLOW_ALL=true``), else the
  hook silently does not fire (verified; copilot-cli#3345). ``next_steps`` says so.

The file is merged like every settings file (``phlegyas.hosts.config_files``): other hooks in it are kept,
a phlegyas entry (any whose ``bash`` runs phlegyas, ``is_phlegyas_command``) is updated in place, a second
run changes nothing, and uninstall removes exactly phlegyas's entries (the file too when nothing else is
left in it). Copilot lets the tool run when a hook outlives ``timeoutSec``, so the timeout is given whole.
"""
from __future__ import annotations

import os
from typing import Mapping

from phlegyas.hosts.config_files import FileChange, InstallError, check_timeout, plan, read_json
from phlegyas.hosts.hook.command import hook_command, is_phlegyas_command
from phlegyas.hosts.hook_entries import holds_flat, place_flat, remove_flat

HOST = "Copilot CLI"
NAME = "copilot"
FILE_NAME = "phlegyas.json"
EVENT = "preToolUse"
VERSION = 1
COMMAND_KEYS = ("bash", "command", "powershell")
"""The keys of a Copilot hook entry that hold a command: an entry is phlegyas's when one of them runs it."""


def hooks_path(*, user: bool, project: str, environ: Mapping[str, str]) -> str:
    if not user:
        return os.path.join(os.path.abspath(project), ".github", "hooks", FILE_NAME)
    base = environ.get("COPILOT_HOME", "").strip()
    if not base:
        home = environ.get("HOME", "").strip()
        if not home.startswith("/"):
            raise InstallError("HOME is not an absolute path: cannot find Copilot CLI's hooks directory "
                               "(or set COPILOT_HOME)")
        base = os.path.join(home, ".copilot")
    return os.path.join(os.path.abspath(os.path.expanduser(base)), "hooks", FILE_NAME)


def hook_entry(command: str, timeout: int) -> dict:
    return {"type": "command", "bash": command, "timeoutSec": timeout}


def is_phlegyas_hook(entry: object) -> bool:
    return isinstance(entry, dict) and any(is_phlegyas_command(entry.get(k)) for k in COMMAND_KEYS)


def add_hook(doc: dict, entry: dict) -> dict:
    """``doc`` with one phlegyas ``preToolUse`` entry: the first one there updated in place, any other
    dropped, or the entry appended; everything else kept (``hook_entries.place_flat``)."""
    return place_flat(doc, {EVENT: entry}, is_ours=is_phlegyas_hook, version=VERSION,
                      shape="an object with 'type' and 'bash'")


def remove_hook(doc: dict) -> dict:
    """``doc`` without phlegyas's ``preToolUse`` entries; emptied containers are dropped, and a document
    left with nothing but its ``version`` becomes empty (the file is removed)."""
    return remove_flat(doc, is_ours=is_phlegyas_hook, events=(EVENT,))


def install_changes(*, user: bool, project: str, environ: Mapping[str, str], python: str,
                    timeout: int) -> list[FileChange]:
    check_timeout(timeout)
    path = hooks_path(user=user, project=project, environ=environ)
    command = hook_command(python, NAME)
    return [plan(path, [(lambda d: add_hook(d, hook_entry(command, timeout)),
                         f"hook {EVENT} → {command} (timeoutSec {timeout})")])]


def uninstall_changes(*, user: bool, project: str, environ: Mapping[str, str]) -> list[FileChange]:
    path = hooks_path(user=user, project=project, environ=environ)
    return [plan(path, [(remove_hook, f"removed the phlegyas {EVENT} hook")])]


def next_steps(*, user: bool, project: str, environ: Mapping[str, str]) -> list[str]:
    if user:
        lines = ["  Copilot CLI reads it in every session (`copilot -p` too)."]
        if not environ.get("COPILOT_HOME", "").strip():
            lines.append("  A Copilot started with COPILOT_HOME set reads $COPILOT_HOME/hooks instead: "
                         "install with that COPILOT_HOME too.")
        return lines
    return ["  Copilot CLI runs a repository's .github/hooks only in a folder you trust: answer its trust",
            "  question in an interactive session. `copilot -p` does not run them (copilot-cli#3345)",
            "  unless given --trust-folder (or COPILOT_ALLOW_ALL=true); for headless runs prefer",
            "  `phlegyas install --agent copilot --user`."]


def wired(*, user: bool, project: str, environ: Mapping[str, str]) -> str | None:
    """The hooks file that wires phlegyas in this scope, or None (also when it cannot be read)."""
    try:
        path = hooks_path(user=user, project=project, environ=environ)
        doc, _ = read_json(path)
    except InstallError:
        return None
    return path if holds_flat(doc, EVENT, is_ours=is_phlegyas_hook) else None
