"""What ``phlegyas install`` / ``uninstall`` write into Claude Code's files (the commands themselves, their
arguments and output, are ``phlegyas.cli.install``).

What ``install`` writes (PROTOCOLS.md §1-§3; checked against the real Claude Code):

- the hooks ``PreToolUse`` and ``PermissionRequest`` (matcher ``*``, ``"onFailure": "block"``, the
  timeout in seconds) in ``<project>/.claude/settings.json``, or ``~/.claude/settings.json`` with
  ``--user`` (``$CLAUDE_CONFIG_DIR/settings.json`` when that is set, as Claude Code does);
- the MCP server ``phlegyas`` in ``<project>/.mcp.json`` plus ``"enabledMcpjsonServers": ["phlegyas"]``
  in the project settings (Claude Code honours it once the project is trusted; ``claude -p`` uses
  ``.mcp.json`` servers anyway), or, with ``--user``, in ``mcpServers`` of ``~/.claude.json``
  (``$CLAUDE_CONFIG_DIR/.claude.json``).

Every change merges with what is there: other keys, hooks and servers are kept, a phlegyas entry that
is already present is updated in place, and a second run changes nothing. Each changed file is backed
up first (``FILE.phlegyas-backup-YYYYmmdd-HHMMSS``) and written atomically (temporary file + rename).
A file that is not valid JSON, or whose shape is not what Claude Code reads, is reported as
``file:line:column`` and nothing is written. ``uninstall`` removes exactly the phlegyas entries.

Entries an earlier install wrote with an older module path (``HOOK_MODULES``, the MCP server's args) are
recognised as phlegyas's own, so ``install`` rewrites them to today's paths and ``uninstall`` removes them.
"""
from __future__ import annotations

import copy
import difflib
import json
import math
import os
import shlex
import shutil
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Mapping

from phlegyas.policy.positions import json_lines
from phlegyas.store.files import write_atomic

SERVER_NAME = "phlegyas"
HOOK_EVENTS = ("PreToolUse", "PermissionRequest")
HOOK_TIMEOUT_SECONDS = 30
HOOK_MARGIN_SECONDS = 30
"""Time a PermissionRequest hook needs besides the person's wait: start-up, Tier 3, the store."""
PROMPT_TOOL = "mcp__phlegyas__permissions__approve"
MCP_MODULE = "phlegyas.hosts.mcp.server"
EXIT_ERROR = 3


class InstallError(Exception):
    """A settings file cannot be read, parsed or written; the message names the file (and line)."""


# -- what to write ---------------------------------------------------------------------------------

HOOK_MODULE = "phlegyas.hosts.claude_code.hook"
HOOK_LAUNCHER = f"from {HOOK_MODULE} import main; raise SystemExit(main())"
"""What the hook command runs: the ``phlegyas-hook`` console script without pip's wrapper, whose
``import re`` costs more than the rest of the hook (benchmarks/hook_latency.py: 1.4x ``python -c
pass`` this way, 2.1x through the wrapper)."""

HOOK_MODULES = (HOOK_MODULE, "phlegyas.hook")
"""Every module path a phlegyas hook command has named: ``phlegyas.hook`` is what installs before 0.2
wrote (it still forwards to the hook), so ``install`` rewrites those entries and ``uninstall`` removes them."""


def hook_command(python: str) -> str:
    """The command line Claude Code runs for each hook: ``python -P -c 'from phlegyas.hosts.claude_code.hook import …'``.

    ``-P`` keeps the working directory (the project, which may be hostile) off ``sys.path``: without it
    a ``phlegyas/`` directory in the project would be imported instead.
    """
    return shlex.join([os.path.abspath(python), "-P", "-c", HOOK_LAUNCHER])


def hook_entry(command: str, timeout: int = HOOK_TIMEOUT_SECONDS) -> dict:
    return {"type": "command", "command": command, "timeout": timeout, "onFailure": "block"}


def permission_request_timeout(wait_seconds: float) -> int:
    """The PermissionRequest hook's timeout: it may wait ``wait_seconds`` for a person (APPROVAL_WAIT_SECONDS,
    Slack's timeout), and Claude Code kills a hook past its timeout — the person's answer would be lost."""
    return max(HOOK_TIMEOUT_SECONDS, math.ceil(wait_seconds) + HOOK_MARGIN_SECONDS)


def mcp_server_problem() -> str | None:
    """Why the MCP server could not start in this environment (its SDK does not import), or None.
    ``install`` writes no server entry that cannot run."""
    try:
        import mcp.server.mcpserver  # noqa: F401 - the import the server makes
    except ImportError as exc:
        return f"the mcp package does not import ({exc})"
    return None


def mcp_server_entry(python: str) -> dict:
    """The MCP server's config; ``-P`` as in ``hook_command`` (Claude Code starts it in the project)."""
    return {"command": os.path.abspath(python), "args": ["-P", "-m", MCP_MODULE]}


def is_phlegyas_hook(entry: object) -> bool:
    """Whether a hook entry runs phlegyas (``HOOK_LAUNCHER``, any path to ``phlegyas-hook``,
    ``phlegyas hook``, ``python -m`` or ``-c 'from … import'`` of any of ``HOOK_MODULES``), so that
    install updates it and uninstall removes it."""
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    try:
        words = shlex.split(entry["command"])
    except ValueError:
        return False
    if not words:
        return False
    program = os.path.basename(words[0])
    if program == "phlegyas-hook":
        return True
    if program == "phlegyas" and words[1:2] == ["hook"]:
        return True
    for flag, value in zip(words, words[1:]):
        if flag == "-m" and value in HOOK_MODULES:
            return True
        if flag == "-c" and any(f"from {module} import" in value for module in HOOK_MODULES):
            return True
    return False


# -- merging (pure: dict in, dict out) --------------------------------------------------------------

class ShapeError(ValueError):
    """The document holds something Claude Code would not read at this key path."""

    def __init__(self, path: tuple, expected: str):
        self.path = path
        super().__init__(f"{'.'.join(map(str, path)) or 'the document'} must be {expected}")


def _object(doc: dict, key: str, path: tuple) -> dict:
    value = doc.setdefault(key, {})
    if not isinstance(value, dict):
        raise ShapeError((*path, key), "an object")
    return value


def _list(doc: dict, key: str, path: tuple) -> list:
    value = doc.setdefault(key, [])
    if not isinstance(value, list):
        raise ShapeError((*path, key), "a list")
    return value


def add_hooks(settings: dict, command: str, timeouts: Mapping[str, int] | None = None) -> dict:
    """``settings`` with one phlegyas hook (matcher ``*``) per event, each with its timeout (``timeouts``,
    default ``HOOK_TIMEOUT_SECONDS``); other hooks are kept."""
    out = copy.deepcopy(settings)
    hooks = _object(out, "hooks", ())
    for event in HOOK_EVENTS:
        groups = _list(hooks, event, ("hooks",))
        _place_hook(groups, hook_entry(command, (timeouts or {}).get(event, HOOK_TIMEOUT_SECONDS)),
                    ("hooks", event))
    return out


def _place_hook(groups: list, wanted: dict, path: tuple) -> None:
    """Update the first phlegyas hook of a ``*`` group in place, drop any other, or add a group."""
    kept = False
    emptied = set()
    for index, group in enumerate(groups):
        if not isinstance(group, dict):
            raise ShapeError((*path, index), "an object with 'matcher' and 'hooks'")
        entries = group.get("hooks", [])
        if not isinstance(entries, list):
            raise ShapeError((*path, index, "hooks"), "a list")
        star = group.get("matcher", "*") in ("*", "")
        updated = []
        for entry in entries:
            if not is_phlegyas_hook(entry):
                updated.append(entry)
            elif star and not kept:
                updated.append(wanted)
                kept = True
        if entries and not updated:
            emptied.add(index)
        entries[:] = updated
    groups[:] = [g for i, g in enumerate(groups) if i not in emptied]
    if not kept:
        groups.append({"matcher": "*", "hooks": [wanted]})


def remove_hooks(settings: dict) -> dict:
    """``settings`` without any phlegyas hook; containers emptied by the removal are dropped."""
    out = copy.deepcopy(settings)
    hooks = out.get("hooks")
    if not isinstance(hooks, dict):
        return out
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        changed = False
        for group in list(groups):
            entries = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(entries, list) or not any(is_phlegyas_hook(e) for e in entries):
                continue
            changed = True
            entries[:] = [e for e in entries if not is_phlegyas_hook(e)]
            if not entries:
                groups.remove(group)
        if changed and not groups:
            del hooks[event]
    if not hooks and settings.get("hooks"):
        del out["hooks"]
    return out


def add_server(config: dict, server: dict) -> dict:
    """``config`` with ``mcpServers.phlegyas`` set to ``server`` (keys such as ``env`` are kept)."""
    out = copy.deepcopy(config)
    servers = _object(out, "mcpServers", ())
    current = servers.get(SERVER_NAME)
    if current is not None and not isinstance(current, dict):
        raise ShapeError(("mcpServers", SERVER_NAME), "an object")
    servers[SERVER_NAME] = {**(current or {}), **server}
    return out


def remove_server(config: dict) -> dict:
    out = copy.deepcopy(config)
    servers = out.get("mcpServers")
    if isinstance(servers, dict) and SERVER_NAME in servers:
        del servers[SERVER_NAME]
        if not servers:
            del out["mcpServers"]
    return out


def enable_mcpjson_server(settings: dict) -> dict:
    """``settings`` that let Claude Code start the ``.mcp.json`` server ``phlegyas`` without asking."""
    out = copy.deepcopy(settings)
    if out.get("enableAllProjectMcpServers") is True:
        return out
    enabled = _list(out, "enabledMcpjsonServers", ())
    if SERVER_NAME not in enabled:
        enabled.append(SERVER_NAME)
    return out


def disable_mcpjson_server(settings: dict) -> dict:
    out = copy.deepcopy(settings)
    enabled = out.get("enabledMcpjsonServers")
    if isinstance(enabled, list) and SERVER_NAME in enabled:
        enabled[:] = [n for n in enabled if n != SERVER_NAME]
        if not enabled:
            del out["enabledMcpjsonServers"]
    return out


# -- files -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Scope:
    """Where install writes: the settings file, the MCP file, and what each change means."""

    settings: str  # .claude/settings.json (project) or the user's settings.json
    mcp: str  # .mcp.json (project) or ~/.claude.json (user)
    project: bool
    private: bool = False  # the MCP file holds the user's state: keep it 0600


def project_scope(directory: str) -> Scope:
    root = os.path.abspath(directory)
    if not os.path.isdir(root):
        raise InstallError(f"{root}: no such directory (give the project with --project DIR)")
    return Scope(os.path.join(root, ".claude", "settings.json"), os.path.join(root, ".mcp.json"), project=True)


def user_scope(environ: Mapping[str, str]) -> Scope:
    """Claude Code's user files: ``$CLAUDE_CONFIG_DIR/{settings.json,.claude.json}`` when it is set,
    else ``~/.claude/settings.json`` and ``~/.claude.json``."""
    home = environ.get("HOME") or os.path.expanduser("~")
    config_dir = environ.get("CLAUDE_CONFIG_DIR")
    if config_dir:
        base = os.path.abspath(os.path.expanduser(config_dir))
        return Scope(os.path.join(base, "settings.json"), os.path.join(base, ".claude.json"), project=False,
                     private=True)
    return Scope(os.path.join(home, ".claude", "settings.json"), os.path.join(home, ".claude.json"),
                 project=False, private=True)


@dataclass
class FileChange:
    """One file: what it holds now (None when it does not exist) and what it will hold."""

    path: str
    before: dict | None
    before_text: str | None
    after: dict
    what: list[str]
    private: bool = False

    @property
    def changed(self) -> bool:
        return self.before != self.after and not (self.before is None and not self.after)

    @property
    def removes_file(self) -> bool:
        return self.before is not None and not self.after

    def after_text(self) -> str:
        return "" if self.removes_file else json.dumps(self.after, indent=2, ensure_ascii=False) + "\n"

    def diff(self) -> str:
        old = (self.before_text or "").splitlines(keepends=True)
        new = self.after_text().splitlines(keepends=True)
        a = self.path if self.before is not None else "/dev/null"
        b = self.path if not self.removes_file else "/dev/null"
        return "".join(difflib.unified_diff(old, new, a, b))


def read_json(path: str) -> tuple[dict | None, str | None]:
    """(document, text) of a JSON settings file, (None, None) when it does not exist."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        return None, None
    except UnicodeDecodeError:
        raise InstallError(f"{path}: not UTF-8 text; fix or move it, nothing was changed") from None
    except OSError as exc:
        raise InstallError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not text.strip():
        return {}, text
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InstallError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); "
                           "fix it and run again, nothing was changed") from None
    except RecursionError:
        raise InstallError(f"{path}: JSON nested too deeply to read; nothing was changed") from None
    if not isinstance(doc, dict):
        raise InstallError(f"{path}:1:1: expected a JSON object, found {type(doc).__name__}; nothing was changed")
    return doc, text


def _line_of(text: str, path: tuple) -> int:
    """The line where the key path starts in ``text`` (best effort: 1 when unknown)."""
    try:
        return json_lines(text).get(tuple(path), 1) or 1
    except Exception:  # noqa: BLE001 - only used to point at a line in an error message
        return 1


def plan(path: str, edits: list[tuple[Callable[[dict], dict], str]], private: bool = False) -> FileChange:
    """Apply ``edits`` (function, description) to the file's document, without writing anything."""
    before, text = read_json(path)
    doc = before if before is not None else {}
    what = []
    for edit, description in edits:
        try:
            new = edit(doc)
        except ShapeError as exc:
            line = _line_of(text or "", exc.path)
            raise InstallError(f"{path}:{line}: {exc}; fix it and run again, nothing was changed") from None
        if new != doc:
            what.append(description)
        doc = new
    return FileChange(path, before, text, doc, what, private)


def backup_path(path: str, now: datetime) -> str:
    stem = f"{path}.phlegyas-backup-{now:%Y%m%d-%H%M%S}"
    candidate, n = stem, 1
    while os.path.exists(candidate):
        n += 1
        candidate = f"{stem}-{n}"
    return candidate


def apply(change: FileChange, now: datetime) -> str | None:
    """Write one change (backup first); returns the backup's path, if one was made."""
    backup = None
    try:
        if change.before is not None:
            mode = os.stat(change.path).st_mode & 0o777
            backup = backup_path(change.path, now)
            shutil.copy2(change.path, backup)
        else:
            mode = 0o600 if change.private else 0o644
        if change.removes_file:
            os.unlink(change.path)
        else:
            write_atomic(change.path, change.after_text(), mode=mode)
    except OSError as exc:
        raise InstallError(f"{change.path}: cannot write: {exc.strerror or exc}") from None
    return backup


# -- the commands ----------------------------------------------------------------------------------

def install_changes(scope: Scope, *, hook: bool, mcp: bool, python: str,
                    permission_timeout: int = HOOK_TIMEOUT_SECONDS) -> list[FileChange]:
    """The changes ``install`` makes; the PermissionRequest hook gets ``permission_timeout`` seconds
    (``permission_request_timeout`` of the longest wait for a person), PreToolUse never waits."""
    settings_edits: list = []
    changes: list[FileChange] = []
    if hook:
        command = hook_command(python)
        timeouts = {"PreToolUse": HOOK_TIMEOUT_SECONDS, "PermissionRequest": permission_timeout}
        settings_edits.append((lambda d: add_hooks(d, command, timeouts),
                               f"hooks {' and '.join(HOOK_EVENTS)} → {command} (PermissionRequest timeout "
                               f"{permission_timeout} s)"))
    if mcp:
        server = mcp_server_entry(python)
        if scope.project:
            settings_edits.append((enable_mcpjson_server, f"enabledMcpjsonServers += {SERVER_NAME}"))
        changes.append(plan(scope.mcp, [(lambda d: add_server(d, server),
                                         f"MCP server {SERVER_NAME} → {shlex.join([server['command'], *server['args']])}")],
                            scope.private))
    if settings_edits:
        changes.insert(0, plan(scope.settings, settings_edits))
    return changes


def uninstall_changes(scope: Scope, *, hook: bool, mcp: bool) -> list[FileChange]:
    settings_edits: list = []
    changes: list[FileChange] = []
    if hook:
        settings_edits.append((remove_hooks, "removed the phlegyas hooks"))
    if mcp:
        if scope.project:
            settings_edits.append((disable_mcpjson_server, f"enabledMcpjsonServers -= {SERVER_NAME}"))
        changes.append(plan(scope.mcp, [(remove_server, f"removed MCP server {SERVER_NAME}")], scope.private))
    if settings_edits:
        changes.insert(0, plan(scope.settings, settings_edits))
    return changes
