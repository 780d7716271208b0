"""``phlegyas pending | approve | deny | mcp``: answer parked calls from a terminal, run the MCP server.

``register(sub)`` adds the subcommands to ``phlegyas``'s parser. Errors (a malformed, unknown,
expired or already resolved id; a broken store) print one line and exit 3, like every ``phlegyas``
usage error.
"""
from __future__ import annotations

import argparse
import json
import os
import pwd
import textwrap
import time
from typing import TextIO

from phlegyas.cli.common import CliError, settings_here
from phlegyas.human.queue import gist, printable, resolution_entry, shorten, summary
from phlegyas.store.approvals import ApprovalError, PendingRequest
from phlegyas.store.audit import AuditError, AuditLog
from phlegyas.store.backends import open_store, ship_now

SUMMARY_WIDTH = 48


def register(sub) -> None:
    """Add ``pending``, ``approve``, ``deny`` and ``mcp`` to the ``phlegyas`` subparsers ``sub``."""
    raw = argparse.RawDescriptionHelpFormatter
    pending = sub.add_parser(
        "pending", help="list tool calls waiting for a human decision", formatter_class=raw,
        description=_wrap("List the tool calls parked for a human decision (by the MCP permission server or the "
                    "PermissionRequest hook when APPROVAL_WAIT_SECONDS > 0, or by validate_operation), "
                    "oldest first. Inputs are shown redacted; control characters are escaped."),
        epilog="examples:\n"
               "  phlegyas pending\n"
               "  phlegyas pending --full          # every field, the whole input\n"
               "  phlegyas pending --json --workflow deploy-42\n"
               "then: phlegyas approve ID  or  phlegyas deny ID --reason 'not on prod'")
    pending.add_argument("--json", action="store_true", help="print a JSON array of the requests")
    pending.add_argument("--full", action="store_true", help="show each request in full, not as a table row")
    pending.add_argument("--workflow", metavar="ID", help="only requests of this workflow")
    pending.add_argument("--agent", metavar="ID", help="only requests of this agent")
    pending.set_defaults(func=cmd_pending)

    for name, verb in (("approve", "allow"), ("deny", "refuse")):
        cmd = sub.add_parser(
            name, help=f"{name} a pending request (the waiting agent's call is {'allowed' if name == 'approve' else 'denied'})",
            formatter_class=raw,
            description=_wrap(f"{name.capitalize()} one pending request: {verb} the parked call. A request is resolved "
                        "once; an unknown, expired or already resolved id is an error (exit status 3). "
                        "The decision, who made it and why are stored with the request and written to "
                        "the audit log."),
            epilog=f"example:\n  phlegyas {name} 0b8e7c52-3f4d-4b8a-9c1e-2d6f5a7b8c9d --reason 'checked the target'")
        cmd.add_argument("id", metavar="ID", help="the request id (a UUID, as `phlegyas pending` shows it)")
        cmd.add_argument("--reason", metavar="TEXT", help="why (stored with the decision; the agent sees it)")
        cmd.add_argument("--approver", metavar="NAME", help="who decides (default: your user name)")
        cmd.set_defaults(func=cmd_approve if name == "approve" else cmd_deny)

    mcp = sub.add_parser(
        "mcp", help="run the MCP permission server on stdio", formatter_class=raw,
        description=_wrap("Run the MCP server (stdio) that Claude Code uses as --permission-prompt-tool, and that "
                    "orchestrators use to validate calls and resolve approvals. Tools: permissions__approve, "
                    "validate_operation, submit_approval, poll_approval, get_pending_approvals, "
                    "get_approval_stats. Logs go to stderr."),
        epilog="example MCP config (.mcp.json or --mcp-config):\n"
               '  {"mcpServers": {"phlegyas": {"command": "phlegyas", "args": ["mcp"]}}}\n'
               "then: claude -p --permission-prompt-tool mcp__phlegyas__permissions__approve '…'")
    mcp.add_argument("--cwd", metavar="DIR", help="decide calls for this project (default: the current dir)")
    mcp.set_defaults(func=cmd_mcp)


def _wrap(text: str) -> str:
    return textwrap.fill(text, width=88)


# --- commands -------------------------------------------------------------------------------------

def cmd_pending(args, out: TextIO, err: TextIO) -> int:
    settings = settings_here()
    with _store(settings) as store:
        requests = _guard(store.list_pending, args.workflow, args.agent)
    if args.json:
        out.write(json.dumps([r.to_json() for r in requests], indent=2, ensure_ascii=False) + "\n")
    elif not requests:
        out.write("No pending approval requests.\n")
    elif args.full:
        out.write("\n\n".join(format_full(r) for r in requests) + "\n")
    else:
        out.write(format_table(requests, now=time.time(), machines=bool(settings.database_url)) + "\n")
    return 0


def cmd_approve(args, out: TextIO, err: TextIO) -> int:
    return _resolve(args, True, out, err)


def cmd_deny(args, out: TextIO, err: TextIO) -> int:
    return _resolve(args, False, out, err)


def cmd_mcp(args, out: TextIO, err: TextIO) -> int:
    from phlegyas.hosts.mcp.server import (  # lean start-up: only `phlegyas mcp` loads the gate and the server
        configure_logging,
        serve,
    )

    configure_logging()
    return serve(os.environ, os.path.abspath(args.cwd or os.getcwd()))


def _resolve(args, approve: bool, out: TextIO, err: TextIO) -> int:
    settings = settings_here()
    with _store(settings) as store:
        request = _guard(store.resolve, args.id, approve, reason=args.reason,
                         approver_id=args.approver or _user_name(), via="cli")
    _audit(settings, *resolution_entry(request, "cli"), request.mode or settings.mode, err)
    word = "approved" if approve else "denied"
    why = f" ({request.resolution_reason})" if request.resolution_reason else ""
    out.write(f"{word} {request.id}: {summary(request, 70)}{why}\n")
    return 0


# --- plumbing -------------------------------------------------------------------------------------

def _store(settings):
    return open_store(settings)


def _guard(fn, *args, **kwargs):
    """Run a store operation; its errors become one-line CLI errors (exit status 3)."""

    try:
        return fn(*args, **kwargs)
    except ApprovalError as exc:
        raise CliError(str(exc)) from None


def _audit(settings, call, decision, mode: str, err: TextIO) -> None:
    if not settings.enable_audit_log:
        return

    try:
        AuditLog(settings.audit_log_file).record(call, decision, mode=mode, extra=decision.audit)
    except AuditError as exc:
        print(f"phlegyas: warning: audit log not written: {exc}", file=err)
        return
    problem = ship_now(settings)
    if problem:
        print(f"phlegyas: warning: {problem}", file=err)


def _user_name() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return f"uid {os.getuid()}"


# --- rendering ------------------------------------------------------------------------------------

def format_table(requests: list[PendingRequest], *, now: float, machines: bool = False) -> str:
    """One row per request: id, age, tool, input summary, workflow/agent, time left, and with ``machines``
    (a shared store) the machine that parked it. The columns carry the names of the ``--json`` keys they
    show (times relative to now)."""

    header = ("REQUEST_ID", "CREATED_AT", "TOOL_NAME", "TOOL_INPUT", "WORKFLOW_ID/AGENT_ID", "EXPIRES_AT")
    rows = [header + ("MACHINE",) if machines else header]
    for r in requests:
        owner = "/".join(printable(x) for x in (r.workflow_id, r.agent_id) if x) or "-"
        left = duration(r.expires_at - now)
        row = (r.id, f"{duration(now - r.created_at)} ago", shorten(r.tool_name, 24),
               gist(r.tool_input, SUMMARY_WIDTH), shorten(owner, 32), left if left == "expired" else f"in {left}")
        rows.append(row + (shorten(r.machine or "-", 32),) if machines else row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(lines)


def format_full(request: PendingRequest) -> str:
    """Every field of a request, the whole (redacted) input, escaped for the terminal."""

    data = request.to_json()
    tool_input = data.pop("tool_input")
    lines = [f"{key:<18} {printable(str(value))}" for key, value in data.items() if value is not None]
    lines.append("tool_input")
    for key, value in tool_input.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        lines.append(f"  {printable(str(key))}: {printable(text)}")
    return "\n".join(lines)


def duration(seconds: float) -> str:
    """``45s``, ``12m``, ``3h05m``, ``2d``; ``expired`` when negative."""
    if seconds < 0:
        return "expired"
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    if seconds < 86400:
        hours, rest = divmod(seconds, 3600)
        return f"{hours}h{rest // 60:02d}m"
    return f"{seconds // 86400}d"
