"""``phlegyas install`` / ``uninstall`` / ``hook``: the arguments and the output of wiring phlegyas into an
agent host; what gets written is each host's ``install`` module (``phlegyas.hosts.claude_code.install``,
``phlegyas.hosts.codex.install``, …). Without ``--agent`` it is Claude Code."""
from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime
from typing import Mapping, TextIO

from phlegyas.cli.common import EXIT_ERROR
from phlegyas.hosts.claude_code.install import (
    HOOK_MARGIN_SECONDS,
    HOOK_TIMEOUT_SECONDS,
    PROMPT_TOOL,
    FileChange,
    InstallError,
    Scope,
    apply,
    install_changes,
    mcp_server_problem,
    permission_request_timeout,
    project_scope,
    uninstall_changes,
    user_scope,
)
from phlegyas.hosts.hook.client import AGENTS, run


def _scope(args, environ: Mapping[str, str]) -> Scope:
    if args.user:
        return user_scope(environ)
    return project_scope(args.project or os.getcwd())


def _parts(args) -> tuple[bool, bool]:
    if not args.hook and not args.mcp:
        return True, True
    return args.hook, args.mcp


def run_changes(changes: list[FileChange], *, dry_run: bool, out: TextIO, now: datetime | None = None) -> bool:
    """Print (and unless ``dry_run`` write) the changes; returns whether anything changed."""
    pending = [c for c in changes if c.changed]
    if not pending:
        files = ", ".join(c.path for c in changes)
        out.write(f"nothing to change: {files} already as wanted\n")
        return False
    now = now or datetime.now()
    for change in pending:
        if dry_run:
            out.write(change.diff())
            continue
        verb = "removed" if change.removes_file else ("created" if change.before is None else "updated")
        backup = apply(change, now)
        out.write(f"{verb} {change.path}: {'; '.join(change.what)}\n")
        if backup:
            out.write(f"  backup: {backup}\n")
    if dry_run:
        out.write("dry run: nothing was written\n")
    return True


def usage_lines(scope: Scope, *, hook: bool, mcp: bool) -> str:
    lines = ["", "Use it:"]
    if hook:
        where = "in this project" if scope.project else "everywhere"
        lines.append(f"  claude                  # the hooks decide every tool call {where}")
    if mcp:
        lines.append(f"  MCP_CONNECTION_NONBLOCKING=false claude -p --permission-prompt-tool {PROMPT_TOOL} \"your task\"")
        lines.append("      (the variable makes claude -p wait for the server before the first prompt)")
    lines.append("  phlegyas uninstall" + (" --user" if not scope.project else "")
                 + "      # takes it out again")
    return "\n".join(lines) + "\n"


def cmd_install(args, out: TextIO, err: TextIO) -> int:
    return _run(args, out, err, install=True)


def cmd_uninstall(args, out: TextIO, err: TextIO) -> int:
    return _run(args, out, err, install=False)


def person_wait(project: str, environ: Mapping[str, str], err: TextIO) -> float:
    """The longest a PermissionRequest hook may wait for a person, from the settings that apply to
    ``project`` (APPROVAL_WAIT_SECONDS, or Slack's timeout when Slack approvals are on); 0 with a warning
    when the settings do not load."""
    from phlegyas.policy.settings import ConfigError  # the whole runtime only for install, not for `hook`
    from phlegyas.runtime import load_runtime  # (same)

    try:
        settings = load_runtime(environ, project).settings_for(project)
    except ConfigError as exc:
        print(f"phlegyas: warning: settings do not load ({exc}); the PermissionRequest hook gets the "
              f"default timeout of {HOOK_TIMEOUT_SECONDS} s", file=err)
        return 0.0
    return settings.person_wait_seconds


def _permission_timeout(args, err: TextIO) -> int:
    wait = person_wait(os.path.abspath(args.project or os.getcwd()), os.environ, err)
    needed = permission_request_timeout(wait)
    if args.hook_timeout is None:
        return needed
    if args.hook_timeout < needed:
        print(f"phlegyas: warning: --hook-timeout {args.hook_timeout} is shorter than a person may be given "
              f"({wait:g} s, APPROVAL_WAIT_SECONDS or SLACK_APPROVAL_TIMEOUT_SECONDS, plus {HOOK_MARGIN_SECONDS} s): Claude Code would kill the "
              f"PermissionRequest hook and the person's answer would be lost; use at least {needed}", file=err)
    return args.hook_timeout


def host_install(agent: str):
    """The install module of the host ``agent`` names (not Claude Code's, which has its own options)."""
    if agent == "codex":
        from phlegyas.hosts.codex import install as module  # only when that host is wired: start-up loads none
    elif agent == "gemini":
        from phlegyas.hosts.gemini import install as module  # (same)
    elif agent == "copilot":
        from phlegyas.hosts.copilot import install as module  # (same)
    elif agent == "cursor":
        from phlegyas.hosts.cursor import install as module  # (same)
    elif agent == "opencode":
        from phlegyas.hosts.opencode import install as module  # (same)
    else:
        raise InstallError(f"unknown agent host {agent!r} (one of: {', '.join(AGENTS)})")
    return module


def _run_host(args, out: TextIO, err: TextIO, *, install: bool) -> int:
    """install / uninstall for a host other than Claude Code: its hook (or plugin), nothing else."""
    if args.mcp:
        print(f"phlegyas: --mcp is Claude Code's permission-prompt server; {args.agent} is wired through its "
              "hook only", file=err)
        return EXIT_ERROR
    try:
        module = host_install(args.agent)
        project = os.path.abspath(args.project or os.getcwd())
        if not args.user and not os.path.isdir(project):
            raise InstallError(f"{project}: no such directory (give the project with --project DIR)")
        if install:
            timeout = args.hook_timeout or HOOK_TIMEOUT_SECONDS
            changes = module.install_changes(user=args.user, project=project, environ=os.environ,
                                             python=sys.executable, timeout=timeout)
        else:
            changes = module.uninstall_changes(user=args.user, project=project, environ=os.environ)
        changed = run_changes(changes, dry_run=args.dry_run, out=out)
    except InstallError as exc:
        print(f"phlegyas: {exc}", file=err)
        return EXIT_ERROR
    if install and (changed or not args.dry_run):
        steps = module.next_steps(user=args.user, project=project, environ=os.environ)
        where = "for every project" if args.user else "for this project"
        lines = ["", f"{module.HOST}: the phlegyas hook is wired {where}" + (" once you have:" if steps else "."),
                 *(f"  - {step}" for step in steps),
                 f"  phlegyas uninstall --agent {args.agent}" + (" --user" if args.user else "")
                 + "      # takes it out again"]
        out.write("\n".join(lines) + "\n")
    return 0


def _run(args, out: TextIO, err: TextIO, *, install: bool) -> int:
    if getattr(args, "agent", None) not in (None, "claude"):
        return _run_host(args, out, err, install=install)
    try:
        scope = _scope(args, os.environ)
        hook, mcp = _parts(args)
        if install:
            problem = mcp_server_problem() if mcp else None
            if problem is not None:
                raise InstallError(f"the MCP server cannot start with {sys.executable}: {problem}; install it "
                                   "with `pip install 'phlegyas[mcp]'` in that environment, or wire the hooks "
                                   "alone with `phlegyas install --hook`. Nothing was written")
            timeout = _permission_timeout(args, err) if hook else HOOK_TIMEOUT_SECONDS
            changes = install_changes(scope, hook=hook, mcp=mcp, python=sys.executable, permission_timeout=timeout)
        else:
            changes = uninstall_changes(scope, hook=hook, mcp=mcp)
        changed = run_changes(changes, dry_run=args.dry_run, out=out)
    except InstallError as exc:
        print(f"phlegyas: {exc}", file=err)
        return EXIT_ERROR
    if install and (changed or not args.dry_run):
        out.write(usage_lines(scope, hook=hook, mcp=mcp))
    return 0


def cmd_hook(args, out: TextIO, err: TextIO) -> int:
    return run(os.environ, agent=args.agent)


def _where(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--project", metavar="DIR", help="the project to wire (default: the current directory)")
    group.add_argument("--user", action="store_true", help="wire it for every project (your user settings)")
    parser.add_argument("--hook", action="store_true", help="only the PreToolUse and PermissionRequest hooks")
    parser.add_argument("--mcp", action="store_true", help="only the MCP permission-prompt server")
    parser.add_argument("--dry-run", action="store_true", help="print the diff and write nothing")
    parser.add_argument("--agent", choices=AGENTS, metavar="HOST",
                        help=f"the agent host to wire: {', '.join(AGENTS)} (default: claude, Claude Code)")


def register(sub) -> None:
    """Add ``install``, ``uninstall`` and ``hook`` to the ``phlegyas`` command's subparsers."""
    install = sub.add_parser(
        "install", help="wire phlegyas into an agent host (Claude Code: hooks and MCP server)",
        description="Write the phlegyas hooks (PreToolUse, PermissionRequest) and the MCP permission "
                    "server into Claude Code's settings, merging with what is there; with --agent, the "
                    "hook (OpenCode: the plugin) of another host. Backs up every file it changes; running "
                    "it twice changes nothing.",
        epilog="examples:\n  phlegyas install                 # this project: .claude/settings.json and .mcp.json\n"
               "  phlegyas install --user --hook   # hooks for every project\n"
               "  phlegyas install --dry-run       # show the diff only\n"
               "  phlegyas install --agent codex --user   # Codex: $CODEX_HOME/hooks.json\n"
               "  phlegyas install --agent gemini         # Gemini CLI: .gemini/settings.json\n"
               "  phlegyas install --agent copilot --user # Copilot CLI: ~/.copilot/hooks/phlegyas.json\n"
               "  phlegyas install --agent opencode       # OpenCode: .opencode/plugin/phlegyas.js\n"
               "  phlegyas install --agent cursor         # Cursor: .cursor/hooks.json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _where(install)
    install.add_argument("--hook-timeout", type=int, metavar="SECONDS",
                         help="the PermissionRequest hook's timeout (default: the wait a person is given, "
                              f"APPROVAL_WAIT_SECONDS, plus {HOOK_MARGIN_SECONDS} s, at least {HOOK_TIMEOUT_SECONDS})")
    install.set_defaults(func=cmd_install)
    uninstall = sub.add_parser("uninstall", help="remove what `phlegyas install` added",
                               description="Remove the phlegyas hooks and MCP server; everything else is kept.")
    _where(uninstall)
    uninstall.set_defaults(func=cmd_uninstall)
    hook = sub.add_parser("hook", help="the hook of an agent host (reads one event on stdin)",
                          description="Read one hook event on stdin and answer as its host expects; the same "
                                      "as phlegyas-hook. Without --agent the host is recognised from the "
                                      "event's shape.")
    hook.add_argument("--agent", choices=AGENTS, metavar="HOST", help=f"the host: {', '.join(AGENTS)}")
    hook.set_defaults(func=cmd_hook)
