"""Slack approvals on loopback: post → click → the waiting call returns, with the real slack_sdk against
the fake Slack of the tests (``tests/fake_slack.py``), a real SQLite approvals store and real waits.

Run: ``python benchmarks/slack_roundtrip.py [--requests 50]``. Prints p50/p95/max of

- *post*: the call starts waiting → its message is in the channel (``chat.postMessage`` and the store);
- *click → return*: the click's envelope is sent → the waiting call has its decision (the envelope's
  trip, the trust checks, the store write, and the waiter noticing);
- *round trip*: the call starts waiting → it returns, a click being made as soon as the message shows;
- *start*, *close*: what a process pays once to ask in Slack (``auth.test``, the channel lookup, Socket
  Mode opened; then closed): the MCP server pays it at start, a PermissionRequest hook on every wait.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

from fake_slack import FakeSlack  # noqa: E402 - the tests' fake, on loopback

from phlegyas.core.model import Decision, ToolCall, Verdict  # noqa: E402
from phlegyas.human.queue import ask_human  # noqa: E402
from phlegyas.human.slack import start_slack  # noqa: E402
from phlegyas.policy.settings import Settings  # noqa: E402
from phlegyas.store.sqlite import SQLiteApprovalStore, default_path  # noqa: E402

APPROVER = "U0APPROVER"
ASKED = Decision(Verdict.ASK, "fallback", "no rule or tier decided this call")


def settings_for(fake: FakeSlack, home: str) -> Settings:
    env = {"HOME": home, "PHLEGYAS_HOME": os.path.join(home, "phlegyas"), "ENABLE_AUDIT_LOG": "false",
           "SLACK_BOT_TOKEN": fake.bot_token, "SLACK_APP_TOKEN": fake.app_token, "SLACK_APPROVAL_CHANNEL": "approvals",
           "SLACK_APPROVERS": APPROVER, "PHLEGYAS_SLACK_API_URL": fake.api_url}
    return Settings.load(env, cwd=home)


def one(fake: FakeSlack, store, slack, i: int) -> tuple[float, float, float]:
    result: dict = {}
    started = time.perf_counter()

    def wait() -> None:
        result["decision"] = ask_human(store, ToolCall("Bash", {"command": f"frobnicate --job {i}"}, cwd="/proj"),
                                       ASKED, wait_seconds=60, ttl_seconds=3600, notify=None, channels=[slack])
        result["returned"] = time.perf_counter()

    waiter = threading.Thread(target=wait)
    waiter.start()
    count = i + 1
    fake.wait_for(lambda: len(fake.messages) >= count, timeout=30, what="the message")
    posted = time.perf_counter()
    message = fake.messages[count - 1]
    request_id = next(e["value"] for b in message["blocks"] for e in b.get("elements", ())
                      if e.get("action_id") == "phlegyas_approve")
    clicked = time.perf_counter()
    fake.click(request_id, "approve", user=APPROVER)
    waiter.join(60)
    assert result["decision"].verdict is Verdict.ALLOW, result["decision"]
    return posted - started, result["returned"] - clicked, result["returned"] - started


def summary(name: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"{name:<16} p50 {statistics.median(ms):7.1f} ms   p95 {p95:7.1f} ms   max {ms[-1]:7.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--starts", type=int, default=10)
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="phlegyas-bench-slack-")
    with FakeSlack() as fake:
        settings = settings_for(fake, home)
        store = SQLiteApprovalStore(default_path(settings.data_dir))
        starts, closes = [], []
        for _ in range(args.starts):
            began = time.perf_counter()
            link = start_slack(settings, store)
            starts.append(time.perf_counter() - began)
            began = time.perf_counter()
            link.close()
            closes.append(time.perf_counter() - began)
        fake.wait_for(lambda: fake.connections() == 0, timeout=30, what="the connections closed")
        slack = start_slack(settings, store)
        try:
            rows = [one(fake, store, slack, i) for i in range(args.requests)]
        finally:
            slack.close()
    print(f"Slack approvals on loopback ({args.requests} requests, one listening process, real slack_sdk):")
    print(summary("post", [r[0] for r in rows]))
    print(summary("click → return", [r[1] for r in rows]))
    print(summary("round trip", [r[2] for r in rows]))
    print(summary("start (once)", starts))
    print(summary("close (once)", closes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
