"""``phlegyas dashboard``: the web dashboard (pending approvals, history, statistics, trust, policy)."""
from __future__ import annotations

import argparse
import os
from typing import TextIO


def register(sub) -> None:
    """Add ``dashboard`` to the ``phlegyas`` subparsers ``sub``."""
    cmd = sub.add_parser(
        "dashboard", help="serve the web dashboard: approve from a browser or a phone, history, charts",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Serve the dashboard and print its URL, http://127.0.0.1:PORT/?token=…, with a fresh random "
                    "token (open it once: the browser keeps a session cookie and the token leaves the address "
                    "bar). Pages: Pending (live; Approve / Deny with a reason, on the same queue as `phlegyas "
                    "approve`, the MCP tools and Slack), History (filters, search), Stats (charts, the most-asked "
                    "calls with a ready allow rule), Trust (verify, revoke), Policy (read-only).\n\n"
                    "It listens on loopback unless --host says otherwise (then anyone who can reach it and learns "
                    "the token can approve: a warning says so). Needs pip install 'phlegyas[web]'.",
        epilog="examples:\n  phlegyas dashboard\n  phlegyas dashboard --port 8765 --no-browser\n"
               "  phlegyas dashboard --host 0.0.0.0   # a phone on the same network; mind who else is on it\n")
    cmd.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    cmd.add_argument("--port", type=int, default=0, help="the port (default: any free one)")
    cmd.add_argument("--no-browser", action="store_true", help="print the URL only; do not open a browser")
    cmd.set_defaults(func=cmd_dashboard)


def cmd_dashboard(args, out: TextIO, err: TextIO) -> int:
    from phlegyas.hosts.dashboard.server import serve  # lean start-up: only this command loads the web stack

    return serve(os.environ, os.getcwd(), host=args.host, port=args.port, open_browser=not args.no_browser,
                 out=out, err=err)
