"""Slack approvals against the loopback fake Slack, with the real ``slack_sdk`` (Web API and Socket Mode).

Each test parks real requests in a real SQLite approvals store and waits for them as the MCP server and
the PermissionRequest hook do (``ask_human``); a click is a real ``block_actions`` envelope delivered over
the app's Socket Mode websocket. What is checked is what a person and an auditor see: the decision, the
message in the channel (asked, then how it ended), the ephemeral answer to a refused click, the audit line.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time

import pytest
from fake_slack import FakeSlack

from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.human.queue import ask_human
from phlegyas.human.slack import SlackApprovals, SlackConfigError, start_slack
from phlegyas.human.slack_link import SlackUnreachable
from phlegyas.policy.settings import Settings
from phlegyas.store.audit import AuditLog, compute_stats
from phlegyas.store.sqlite import SQLiteApprovalStore, default_path

ASKED = Decision(Verdict.ASK, "fallback", "no rule or tier decided this call")
APPROVER = "U0APPROVER"


@pytest.fixture
def fake():
    with FakeSlack() as slack:
        yield slack


def slack_env(isolated_env: dict, fake: FakeSlack, **extra: str) -> dict:
    return {**isolated_env, "SLACK_BOT_TOKEN": fake.bot_token, "SLACK_APP_TOKEN": fake.app_token,
            "SLACK_APPROVAL_CHANNEL": "#approvals", "SLACK_APPROVERS": APPROVER, "PHLEGYAS_SLACK_API_URL": fake.api_url,
            **extra}


class Rig:
    """Settings, store and audit log of one isolated home, and the Slack link of one process."""

    def __init__(self, env: dict, tmp_path):
        self.env = env
        self.settings = Settings.load(env, cwd=str(tmp_path))
        self.store = SQLiteApprovalStore(default_path(self.settings.data_dir))
        self.audit = AuditLog(self.settings.audit_log_file)
        self.links: list[SlackApprovals] = []

    def link(self, **kw) -> SlackApprovals:
        slack = start_slack(self.settings, self.store, audit=self.audit, **kw)
        self.links.append(slack)
        return slack

    def close(self) -> None:
        for slack in self.links:
            slack.close()
        self.store.close()

    def audited(self) -> list[dict]:
        try:
            with open(self.settings.audit_log_file, encoding="utf-8") as fh:
                return [json.loads(line) for line in fh]
        except FileNotFoundError:
            return []


@pytest.fixture
def rig(fake, isolated_env, tmp_path):
    rig = Rig(slack_env(isolated_env, fake), tmp_path)
    yield rig
    rig.close()


def bash(command: str) -> ToolCall:
    return ToolCall("Bash", {"command": command}, cwd="/proj", session_id="sess-1")


class Waiter:
    """A call waiting for a person in a thread, as permissions__approve waits."""

    def __init__(self, rig: Rig, slack, command: str, wait: float = 30):
        self.decision: Decision | None = None
        self.thread = threading.Thread(target=self._run, args=(rig, slack, command, wait), daemon=True)
        self.thread.start()

    def _run(self, rig: Rig, slack, command: str, wait: float) -> None:
        self.decision = ask_human(rig.store, bash(command), ASKED, wait_seconds=wait, ttl_seconds=3600, notify=None,
                                  channels=[slack], details=["1. frobnicate --all   [frobnicate; not known safe]"])

    def result(self, timeout: float = 30) -> Decision:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the waiting call did not return"
        assert self.decision is not None
        return self.decision


def posted(fake: FakeSlack, rig: Rig, count: int = 1) -> list[str]:
    """The ids of the ``count`` pending requests, once each one's message is in the channel."""
    fake.wait_for(lambda: len(rig.store.list_pending()) >= count
                  and all(fake.message_for(r.id) for r in rig.store.list_pending()), what="the requests posted")
    return [r.id for r in rig.store.list_pending()]


def current_text(fake: FakeSlack, request_id: str) -> str:
    message = fake.message_for(request_id)
    assert message is not None
    return json.dumps(message.get("blocks")) + message.get("text", "")


def has_buttons(fake: FakeSlack, request_id: str) -> bool:
    return '"phlegyas_approve"' in current_text(fake, request_id)


# --- approve, deny, timeout ------------------------------------------------------------------------------

@pytest.mark.parametrize("action, verdict, status", [("approve", Verdict.ALLOW, "approved"),
                                                     ("deny", Verdict.DENY, "denied")])
def test_a_click_decides_the_waiting_call(fake, rig, action, verdict, status):
    slack = rig.link()
    waiter = Waiter(rig, slack, "frobnicate --all")
    (rid,) = posted(fake, rig)
    message = fake.message_for(rid)
    assert message["channel"] == "C0APPROVALS"  # the name was resolved to the ID once
    assert "frobnicate --all" in current_text(fake, rid) and "sess-1" in current_text(fake, rid)
    ack = fake.click(rid, action, user=APPROVER)
    assert ack["acked_after_seconds"] < 2
    decision = waiter.result()
    assert decision.verdict is verdict and APPROVER in decision.reason
    fake.wait_for(lambda: not has_buttons(fake, rid), what="the message updated")
    shown = current_text(fake, rid)
    assert status.upper() in shown and f"<@{APPROVER}>" in shown and "via slack" in shown
    assert any(c[0] == "chat.update" and c[1].get("channel") == "C0APPROVALS" for c in fake.calls)
    (line,) = [e for e in rig.audited() if e["tier"].startswith("tier3_slack")]
    assert line["tier"] == f"tier3_slack_{status}" and line["decision"] == ("allow" if status == "approved" else "deny")
    assert line["slack"]["user_id"] == APPROVER and line["slack"]["wait_seconds"] >= 0
    assert compute_stats(rig.settings.audit_log_file)["by_tier"][f"tier3_slack_{status}"] == 1


def test_nobody_clicking_denies_at_the_timeout_and_the_message_says_so(fake, rig):
    slack = rig.link()
    waiter = Waiter(rig, slack, "frobnicate --all", wait=1.5)
    (rid,) = posted(fake, rig)
    decision = waiter.result()
    assert decision.verdict is Verdict.DENY and "nobody answered within 1.5 s" in decision.reason
    fake.wait_for(lambda: not has_buttons(fake, rid), what="the message updated")
    assert "NOT DECIDED" in current_text(fake, rid) and "nobody answered" in current_text(fake, rid)
    ack = fake.click(rid, "approve", user=APPROVER, force=True)  # a late click changes nothing
    assert ack["envelope_id"] in fake.acks
    assert rig.store.get(rid).status == "expired"


# --- one queue: answered elsewhere ------------------------------------------------------------------------

def test_an_answer_from_the_cli_updates_the_slack_message(fake, rig):
    slack = rig.link()
    waiter = Waiter(rig, slack, "frobnicate --all")
    (rid,) = posted(fake, rig)
    cli = subprocess.run([sys.executable, "-m", "phlegyas", "approve", rid, "--approver", "dana"], env=rig.env,
                         capture_output=True, text=True, timeout=60)
    assert cli.returncode == 0, cli.stderr
    assert waiter.result().verdict is Verdict.ALLOW
    fake.wait_for(lambda: not has_buttons(fake, rid), what="the message updated")
    assert "APPROVED" in current_text(fake, rid) and "dana" in current_text(fake, rid) and "via cli" in current_text(fake, rid)


def test_a_watcher_updates_messages_of_requests_answered_or_expired_elsewhere(fake, rig):
    slack = rig.link(watch=True)
    answered = rig.store.create(bash("frobnicate one"), ASKED, ttl=3600)
    expiring = rig.store.create(bash("frobnicate two"), ASKED, ttl=1)
    for request in (answered, expiring):
        assert slack.announce(request) is None
    rig.store.resolve(answered.id, False, approver_id="mcp-client", reason="not now", via="mcp")
    fake.wait_for(lambda: not has_buttons(fake, answered.id) and not has_buttons(fake, expiring.id),
                  what="both messages updated")
    assert "DENIED" in current_text(fake, answered.id) and "not now" in current_text(fake, answered.id)
    assert "NOT DECIDED" in current_text(fake, expiring.id)
    updates = [c for c in fake.calls if c[0] == "chat.update"]
    time.sleep(2.5)  # more refreshes: each message is updated once
    assert [c for c in fake.calls if c[0] == "chat.update"] == updates


# --- clicks that must not count -----------------------------------------------------------------------

@pytest.mark.parametrize("who", [dict(user="U0INTRUDER"), dict(user=APPROVER, team="T0OTHER")],
                         ids=["not-an-approver", "another-team"])
def test_a_click_from_someone_not_trusted_is_refused_and_the_request_stays_pending(fake, rig, who):
    slack = rig.link()
    waiter = Waiter(rig, slack, "frobnicate --all")
    (rid,) = posted(fake, rig)
    fake.click(rid, "approve", **who)
    fake.wait_for(lambda: fake.ephemerals, what="the clicker told")
    assert fake.ephemerals[-1]["user"] == who["user"] and "did not take" in fake.ephemerals[-1]["text"]
    assert rig.store.get(rid).is_pending and has_buttons(fake, rid)
    fake.click(rid, "deny", user=APPROVER)  # the approver still can
    assert waiter.result().verdict is Verdict.DENY


def test_a_second_click_after_the_decision_changes_nothing(fake, rig):
    slack = rig.link()
    waiter = Waiter(rig, slack, "frobnicate --all")
    (rid,) = posted(fake, rig)
    fake.click(rid, "approve", user=APPROVER)
    assert waiter.result().verdict is Verdict.ALLOW
    fake.click(rid, "deny", user=APPROVER, force=True)
    fake.wait_for(lambda: fake.ephemerals, what="the clicker told")
    assert "already approved" in fake.ephemerals[-1]["text"]
    assert rig.store.get(rid).status == "approved"
    assert len([e for e in rig.audited() if e["tier"].startswith("tier3_slack")]) == 1


def test_any_member_may_answer_when_no_approvers_are_set(fake, isolated_env, tmp_path, caplog):
    env = slack_env(isolated_env, fake)
    del env["SLACK_APPROVERS"]
    rig = Rig(env, tmp_path)
    try:
        with caplog.at_level("WARNING", logger="phlegyas.slack"):
            slack = rig.link()
        assert "SLACK_APPROVERS is not set" in caplog.text
        waiter = Waiter(rig, slack, "frobnicate --all")
        (rid,) = posted(fake, rig)
        fake.click(rid, "approve", user="U0ANYONE")
        assert waiter.result().verdict is Verdict.ALLOW
    finally:
        rig.close()


# --- connections, restarts, outages ---------------------------------------------------------------------

@pytest.mark.parametrize("cut", ["send_disconnect", "drop_connections"])
def test_a_lost_connection_mid_wait_loses_no_answer(fake, rig, cut):
    slack = rig.link()
    waiter = Waiter(rig, slack, "frobnicate --all")
    (rid,) = posted(fake, rig)
    opened = len([c for c in fake.calls if c[0] == "apps.connections.open"])
    getattr(fake, cut)()
    fake.wait_for(lambda: len([c for c in fake.calls if c[0] == "apps.connections.open"]) > opened
                  and fake.connections() >= 1 and slack.connected(), timeout=20, what="the client reconnected")
    fake.click(rid, "approve", user=APPROVER)
    assert waiter.result().verdict is Verdict.ALLOW


def test_a_restarted_process_picks_up_the_open_messages(fake, rig):
    first = rig.link()
    request = rig.store.create(bash("frobnicate --all"), ASKED, ttl=3600)  # validate_operation: fire and forget
    assert first.announce(request) is None
    first.close()  # the server went away with the message still up
    fake.wait_for(lambda: fake.connections() == 0, what="the old connection closed")
    rig.link(watch=True)  # its replacement
    fake.wait_connected(1)
    fake.click(request.id, "approve", user=APPROVER)
    fake.wait_for(lambda: rig.store.get(request.id).status == "approved", what="the click stored")
    fake.wait_for(lambda: not has_buttons(fake, request.id), what="the message updated")


def test_slack_down_at_post_time_leaves_the_request_parked_and_says_so(fake, rig):
    slack = rig.link()
    fake.down = True
    waiter = Waiter(rig, slack, "frobnicate --all")
    fake.wait_for(lambda: rig.store.list_pending(), what="the request parked")
    (request,) = rig.store.list_pending()
    rig.store.resolve(request.id, True, approver_id="dana", via="cli")  # answered from the terminal instead
    decision = waiter.result()
    assert decision.verdict is Verdict.ALLOW and "Slack failed" in decision.reason


def test_twenty_requests_answered_out_of_order(fake, rig):
    slack = rig.link()
    waiters = {}
    for i in range(20):
        waiters[i] = Waiter(rig, slack, f"frobnicate --job {i}")
    ids = posted(fake, rig, 20)
    by_command = {rig.store.get(rid).tool_input["command"]: rid for rid in ids}
    order = list(range(20))
    random.Random(14).shuffle(order)
    for i in order:
        fake.click(by_command[f"frobnicate --job {i}"], "approve" if i % 2 else "deny", user=APPROVER)
    for i, waiter in waiters.items():
        assert waiter.result().verdict is (Verdict.ALLOW if i % 2 else Verdict.DENY), i
    fake.wait_for(lambda: not any(has_buttons(fake, rid) for rid in ids), what="every message updated")


# --- configuration errors ----------------------------------------------------------------------------------

@pytest.mark.parametrize("change, variable", [
    (dict(SLACK_BOT_TOKEN="xoxb-1-not-the-bot-token"), "SLACK_BOT_TOKEN"),
    (dict(SLACK_APP_TOKEN="xapp-1-A0PHLEGYAS-1-not-the-app"), "SLACK_APP_TOKEN"),
    (dict(SLACK_APPROVAL_CHANNEL="#nowhere"), "SLACK_APPROVAL_CHANNEL"),
    (dict(SLACK_APPROVAL_CHANNEL="C0NOSUCHCHAN"), "SLACK_APPROVAL_CHANNEL"),
])
def test_a_configuration_slack_refuses_is_an_error_naming_the_variable(fake, isolated_env, tmp_path, change, variable):
    rig = Rig(slack_env(isolated_env, fake, **change), tmp_path)
    try:
        with pytest.raises(SlackConfigError, match=variable) as raised:
            rig.link()
        assert fake.bot_token not in str(raised.value) and fake.app_token not in str(raised.value)
    finally:
        rig.close()


def test_a_channel_id_is_used_as_is_and_a_private_channel_is_found_by_name(fake, isolated_env, tmp_path):
    for channel, expected in (("C0GENERAL", "C0GENERAL"), ("general", "C0GENERAL")):
        rig = Rig(slack_env(isolated_env, fake, SLACK_APPROVAL_CHANNEL=channel), tmp_path)
        try:
            assert rig.link().identity.channel_id == expected
        finally:
            rig.close()


def test_slack_out_of_reach_at_start_is_unreachable_not_a_config_error(fake, rig):
    fake.down = True
    with pytest.raises(SlackUnreachable):
        rig.link()


def test_what_slack_would_refuse_is_never_posted(fake, rig):
    """Slack's limits, checked by the fake as Slack checks them: a long MCP tool name, a huge input, a
    reason and details past every limit still make a message Slack takes."""
    slack = rig.link()
    call = ToolCall("mcp__" + "x" * 300 + "__delete", {"sql": "DROP TABLE t; " * 2000, "note": "é" * 5000},
                    cwd="/proj/" + "d" * 500, session_id="s" * 300, agent_id="a" * 300, workflow_id="w" * 300)
    request = rig.store.create(call, Decision(Verdict.ASK, "fallback", "why " * 2000), ttl=60)
    assert slack.announce(request, ["line " * 200] * 40) is None
    rig.store.resolve(request.id, False, approver_id="dana " * 100, reason="no " * 2000, via="cli")
    slack.settle(rig.store.get(request.id))
    assert [c for c in fake.calls if c[0] == "chat.update"]
    assert not has_buttons(fake, request.id)


# --- deny with a reason ------------------------------------------------------------------------------------

def test_deny_with_a_reason_opens_a_form_and_the_agent_is_told_why(fake, rig):
    slack = rig.link()
    waiter = Waiter(rig, slack, "frobnicate --all")
    (rid,) = posted(fake, rig)
    fake.click(rid, "phlegyas_deny_reason", user=APPROVER)
    fake.wait_for(lambda: fake.views, what="the reason form opened")
    assert fake.views[-1]["private_metadata"] == rid and rig.store.get(rid).is_pending  # nothing decided yet
    fake.submit_view(values={"reason_text": "  not on a Friday  "}, user=APPROVER)
    decision = waiter.result()
    assert decision.verdict is Verdict.DENY and "not on a Friday" in decision.reason
    final = rig.store.get(rid)
    assert (final.status, final.approver_id, final.resolution_reason) == ("denied", APPROVER, "not on a Friday")
    fake.wait_for(lambda: not has_buttons(fake, rid), what="the message updated")
    assert "not on a Friday" in current_text(fake, rid)


def test_the_reason_form_is_refused_to_whoever_may_not_answer(fake, rig):
    slack = rig.link()
    waiter = Waiter(rig, slack, "frobnicate --all", wait=20)
    (rid,) = posted(fake, rig)
    fake.click(rid, "phlegyas_deny_reason", user="U0INTRUDER")
    fake.wait_for(lambda: fake.ephemerals, what="the clicker told")
    assert fake.views == [] and rig.store.get(rid).is_pending
    fake.click(rid, "phlegyas_deny_reason", user=APPROVER)  # the approver opens it …
    fake.wait_for(lambda: fake.views, what="the reason form opened")
    fake.close_view(user=APPROVER)  # … and cancels: still pending
    assert rig.store.get(rid).is_pending
    fake.click(rid, "approve", user=APPROVER)
    assert waiter.result().verdict is Verdict.ALLOW


def test_tokens_never_reach_a_log_the_audit_log_or_a_message(fake, rig, caplog):
    with caplog.at_level("DEBUG"):  # even with everything logged, the SDK's own loggers included
        slack = rig.link()
        waiter = Waiter(rig, slack, f"echo {fake.bot_token}")  # an agent that quotes the token, too
        (rid,) = posted(fake, rig)
        fake.click(rid, "approve", user="U0INTRUDER")
        fake.click(rid, "approve", user=APPROVER)
        assert waiter.result().verdict is Verdict.ALLOW
        fake.wait_for(lambda: not has_buttons(fake, rid), what="the message updated")
    with open(rig.settings.audit_log_file, encoding="utf-8") as fh:
        audit = fh.read()
    shown = json.dumps([fake.messages, fake.ephemerals])
    for token in (fake.bot_token, fake.app_token):
        assert token not in caplog.text and token not in audit and token not in shown
