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
import math
import os
import shlex
from dataclasses import dataclass
from typing import Mapping

from phlegyas.hosts.config_files import (  # noqa: F401 - the cli and the tests use these names from here too
    FileChange,
    InstallError,
    ShapeError,
    apply,
    backup_path,
    list_at,
    object_at,
    plan,
    read_json,
)
from phlegyas.hosts.hook.command import HOOK_LAUNCHER, HOOK_MODULE, HOOK_MODULES, is_phlegyas_command  # noqa: F401 - as above
from phlegyas.hosts.hook.command import hook_command as shared_hook_command
from phlegyas.hosts.hook_entries import place_grouped, remove_grouped

SERVER_NAME = "phlegyas"
HOOK_EVENTS = ("PreToolUse", "PermissionRequest", "PermissionDenied")
"""PermissionDenied (2.1.332: the auto-mode classifier denied a call) is only audited: `stats` shows it."""
HOOK_TIMEOUT_SECONDS = 30
HOOK_MARGIN_SECONDS = 30
"""Time a PermissionRequest hook needs besides the person's wait: start-up, Tier 3, the store."""
PROMPT_TOOL = "mcp__phlegyas__permissions__approve"
MCP_MODULE = "phlegyas.hosts.mcp.server"
EXIT_ERROR = 3


# -- what to write ---------------------------------------------------------------------------------

def hook_command(python: str) -> str:
    """The command line Claude Code runs for each hook (``phlegyas.hosts.hook.command``), naming its host:
    the client need not recognise Claude Code's events by their shape."""
    return shared_hook_command(python, "claude")


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
    """Whether a hook entry runs phlegyas (``is_phlegyas_command``), so that install updates it and
    uninstall removes it."""
    return isinstance(entry, dict) and is_phlegyas_command(entry.get("command"))


# -- merging (pure: dict in, dict out) --------------------------------------------------------------

def add_hooks(settings: dict, command: str, timeouts: Mapping[str, int] | None = None) -> dict:
    """``settings`` with one phlegyas hook (matcher ``*``) per event, each with its timeout (``timeouts``,
    default ``HOOK_TIMEOUT_SECONDS``); other hooks are kept (``hook_entries.place_grouped``)."""
    wanted = {event: hook_entry(command, (timeouts or {}).get(event, HOOK_TIMEOUT_SECONDS)) for event in HOOK_EVENTS}
    return place_grouped(settings, wanted, is_ours=is_phlegyas_hook)


def remove_hooks(settings: dict) -> dict:
    """``settings`` without any phlegyas hook; containers emptied by the removal are dropped."""
    return remove_grouped(settings, is_ours=is_phlegyas_hook)


def add_server(config: dict, server: dict) -> dict:
    """``config`` with ``mcpServers.phlegyas`` set to ``server`` (keys such as ``env`` are kept)."""
    out = copy.deepcopy(config)
    servers = object_at(out, "mcpServers", ())
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
    enabled = list_at(out, "enabledMcpjsonServers", ())
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
