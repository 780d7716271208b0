"""What ``phlegyas install --agent gemini`` / ``uninstall`` write: the ``BeforeTool`` hook in Gemini CLI's
``settings.json``.

Gemini CLI (0.61.0, checked with the real binary) reads ``{"hooks": {"BeforeTool": [{"matcher": ".*",
"hooks": [{"type": "command", "name": "phlegyas", "command": CMD, "timeout": MS}]}]}}`` — the timeout in
**milliseconds** (``timeout`` is given in seconds and converted). A hook that outlives its timeout, or
exits 1, lets the call run; phlegyas's own failures print a deny and exit 2, which blocks.

- ``--user``: ``~/.gemini/settings.json`` (``$GEMINI_CLI_HOME/.gemini/settings.json`` when that is set,
  as Gemini CLI does);
- project: ``<project>/.gemini/settings.json``.

Gemini CLI runs hooks only in a folder it trusts (folder trust is on by default): in an untrusted folder it
runs none, not even the user's own; headless runs there stop at start unless given ``--skip-trust`` or
``GEMINI_CLI_TRUST_WORKSPACE=true`` — and with ``--skip-trust`` 0.61.0 leaves the project's settings out
(it reads them before it applies the flag), so a project hook needs the variable. A project's hooks are fingerprinted by name and command: on the first
start after a new or changed one, Gemini CLI prints a warning naming it, records it in
``~/.gemini/trusted_hooks.json`` and runs it. ``next_steps`` says so.

The file is merged like every settings file (``phlegyas.hosts.config_files``): other settings and hooks are
kept, a phlegyas entry (``is_phlegyas_command``) is updated in place, a second run changes nothing, and
uninstall removes exactly phlegyas's entries (the file too when nothing else is left in it). Gemini CLI
also accepts comments in its settings; such a file is reported (file:line) and left alone.
"""
from __future__ import annotations

import os
from typing import Mapping

from phlegyas.hosts.config_files import FileChange, InstallError, plan, read_json
from phlegyas.hosts.hook.command import hook_command, is_phlegyas_command
from phlegyas.hosts.hook_entries import holds_grouped, place_grouped, remove_grouped

HOST = "Gemini CLI"
NAME = "gemini"
EVENT = "BeforeTool"
HOOK_NAME = "phlegyas"
MATCHER = ".*"
EVERY_TOOL = ("*", "", ".*")
"""Matchers Gemini CLI reads as "every tool" (``*`` and empty ones specially, ``.*`` as a regex)."""


def settings_path(*, user: bool, project: str, environ: Mapping[str, str]) -> str:
    if not user:
        return os.path.join(os.path.abspath(project), ".gemini", "settings.json")
    home = environ.get("GEMINI_CLI_HOME", "").strip() or environ.get("HOME", "").strip()
    if not home.startswith("/"):
        raise InstallError("HOME is not an absolute path: cannot find Gemini CLI's settings.json "
                           "(or set GEMINI_CLI_HOME)")
    return os.path.join(home, ".gemini", "settings.json")


def hook_entry(command: str, timeout_ms: int) -> dict:
    return {"type": "command", "name": HOOK_NAME, "command": command, "timeout": timeout_ms}


def is_phlegyas_hook(entry: object) -> bool:
    return isinstance(entry, dict) and is_phlegyas_command(entry.get("command"))


def every_tool(matcher: object) -> bool:
    return str(matcher).strip() in EVERY_TOOL


def add_hook(doc: dict, command: str, timeout_ms: int) -> dict:
    """``doc`` with one phlegyas hook in an every-tool ``BeforeTool`` group, laid over the keys of the
    phlegyas entry already there (``hook_entries.place_grouped``); everything else kept."""
    return place_grouped(doc, {EVENT: hook_entry(command, timeout_ms)}, is_ours=is_phlegyas_hook,
                         matcher=MATCHER, every_tool=every_tool, merge=True)


def remove_hook(doc: dict) -> dict:
    """``doc`` without phlegyas's hooks (under any event); groups, events and ``hooks`` emptied by the
    removal are dropped."""
    return remove_grouped(doc, is_ours=is_phlegyas_hook)


def install_changes(*, user: bool, project: str, environ: Mapping[str, str], python: str,
                    timeout: int) -> list[FileChange]:
    """The BeforeTool hook, with ``timeout`` seconds as Gemini's milliseconds."""
    path = settings_path(user=user, project=project, environ=environ)
    if not user and not os.path.isdir(os.path.abspath(project)):
        raise InstallError(f"{os.path.abspath(project)}: no such directory (give the project with --project DIR)")
    command = hook_command(python, NAME)
    timeout_ms = max(int(timeout), 1) * 1000
    what = f"hook {EVENT} (every tool) → {command} (timeout {timeout_ms} ms)"
    return [plan(path, [(lambda d: add_hook(d, command, timeout_ms), what)])]


def uninstall_changes(*, user: bool, project: str, environ: Mapping[str, str]) -> list[FileChange]:
    path = settings_path(user=user, project=project, environ=environ)
    return [plan(path, [(remove_hook, "removed the phlegyas hook")])]


def next_steps(*, user: bool, project: str, environ: Mapping[str, str]) -> list[str]:
    steps = ["Gemini CLI runs hooks only in folders it trusts: trust the project when `gemini` asks (in an "
             "untrusted folder it runs no hooks at all, this one included). Headless runs (`gemini -p`) need "
             "a trusted folder or GEMINI_CLI_TRUST_WORKSPACE=true"
             + ("." if user else " (not `--skip-trust`: with it Gemini CLI 0.61.0 ignores the project's "
                "settings, this hook included).")]
    if not user:
        steps.append(f"{settings_path(user=False, project=project, environ=environ)} holds a project hook: on "
                     "its first start there Gemini CLI warns that the project hook \"phlegyas\" will be "
                     "executed, and remembers it (~/.gemini/trusted_hooks.json); that warning is expected.")
    steps.append("Where phlegyas would ask a person, Gemini CLI gets a deny saying so (its own \"ask\" runs the "
                 "call under --yolo and hangs `gemini -p`): allow such calls in the phlegyas policy if you want "
                 "them to run.")
    return steps


def wired(*, user: bool, project: str, environ: Mapping[str, str]) -> str | None:
    """The settings file when it holds a phlegyas BeforeTool hook that Gemini CLI would run (hooks not
    switched off in that file by ``hooksConfig``), else None (a malformed file wires nothing)."""
    try:
        path = settings_path(user=user, project=project, environ=environ)
        doc, _ = read_json(path)
    except InstallError:
        return None
    config = doc.get("hooksConfig") if isinstance(doc, dict) else None
    if isinstance(config, dict):
        disabled = config.get("disabled")
        if config.get("enabled") is False or (isinstance(disabled, list) and HOOK_NAME in disabled):
            return None
    return path if holds_grouped(doc, EVENT, is_ours=is_phlegyas_hook) else None
