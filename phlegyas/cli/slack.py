"""``phlegyas slack test``: post a harmless request to the approval channel and wait for a click, to check
the whole wiring (both tokens, the channel, Socket Mode, who may answer) before an agent needs it."""
from __future__ import annotations

import argparse
import os
import time
from typing import TextIO

from phlegyas.cli.common import CliError, settings_here

TEST_COMMAND = "echo 'phlegyas slack test: nothing runs; click Approve or Deny'"
TEST_WAIT_SECONDS = 120


def register(sub) -> None:
    """Add ``slack`` (with its ``test`` action) to the ``phlegyas`` subparsers ``sub``."""
    slack = sub.add_parser(
        "slack", help="check the Slack approvals wiring",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Slack approvals: a call phlegyas asks about is posted to SLACK_APPROVAL_CHANNEL with Approve "
                    "and Deny buttons (examples/SLACK_SETUP.md sets the app up).\n\n"
                    "`phlegyas slack test` posts a harmless request (nothing runs, whatever is clicked) and waits "
                    "for a click, then says who clicked and updates the message — the same path a real request "
                    "takes, through the same approvals store (`phlegyas pending` lists it meanwhile).",
        epilog="examples:\n  phlegyas slack test\n  phlegyas slack test --wait 30\n  phlegyas slack test --no-wait"
               "\n\nexit status: 0 posted and answered (or posted, with --no-wait), 1 nobody clicked in time, "
               "3 configuration error or Slack unreachable\n")
    actions = slack.add_subparsers(dest="action", metavar="ACTION", required=True)
    test = actions.add_parser("test", help="post a harmless request and wait for a click")
    test.add_argument("--wait", type=float, default=TEST_WAIT_SECONDS, metavar="SECONDS",
                      help=f"how long to wait for the click (default {TEST_WAIT_SECONDS})")
    test.add_argument("--no-wait", action="store_true", help="post and return; the message stays live until "
                                                             "its request expires")
    test.set_defaults(func=cmd_slack_test)


def cmd_slack_test(args, out: TextIO, err: TextIO) -> int:
    from phlegyas.core.model import Decision, ToolCall, Verdict  # lean start-up: only this command loads them
    from phlegyas.human.slack import SlackError, start_slack
    from phlegyas.store.approvals import APPROVED, PENDING
    from phlegyas.store.backends import open_store

    settings = settings_here()
    if not settings.slack_configured:
        raise CliError("Slack approvals are off: set SLACK_BOT_TOKEN, SLACK_APP_TOKEN and SLACK_APPROVAL_CHANNEL "
                       "(see examples/SLACK_SETUP.md)")
    if args.wait <= 0:
        raise CliError(f"--wait must be more than 0 seconds, got {args.wait:g}")
    store = open_store(settings)
    try:
        slack = start_slack(settings, store)  # no audit: a test is not a decision
    except SlackError as exc:
        raise CliError(str(exc)) from None
    try:
        identity = slack.identity
        where = f"#{identity.channel_name}" if identity.channel_name else identity.channel_id
        out.write(f"connected: team {identity.team_id}, channel {where} ({identity.channel_id}), Socket Mode open\n")
        ttl = settings.slack_approval_timeout_seconds if args.no_wait else args.wait
        asked = Decision(Verdict.ASK, "test", "phlegyas slack test: a harmless request to check the wiring")
        call = ToolCall("Bash", {"command": TEST_COMMAND}, cwd=os.getcwd(), session_id="phlegyas-slack-test")
        request = store.create(call, asked, ttl=ttl)
        problem = slack.announce(request, ["nothing runs, whatever is clicked"])
        if problem:
            raise CliError(problem)
        out.write(f"posted request {request.id} to {where}\n")
        if args.no_wait:
            return 0
        out.write(f"waiting up to {args.wait:g} s for a click…\n")
        out.flush()
        started = time.monotonic()
        final = store.wait(request.id, args.wait)
        if final.status == PENDING:
            final = store.withdraw(request.id, reason="phlegyas slack test: nobody clicked in time")
        slack.settle(final)
        if final.status not in (APPROVED, "denied"):
            err.write(f"phlegyas slack test: nobody clicked within {args.wait:g} s (is the app's Socket Mode on, "
                      f"and are you in SLACK_APPROVERS?)\n")
            return 1
        out.write(f"{final.status} by {final.approver_id} via {final.resolved_via or 'another way'} after "
                  f"{time.monotonic() - started:.1f} s: the wiring works\n")
        return 0
    finally:
        slack.close()
        store.close()
