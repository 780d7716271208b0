"""End to end with the real Claude Code and Slack approvals: ``claude -p`` with
``--permission-prompt-tool mcp__phlegyas__permissions__approve``, the fake Messages API playing the model
(``claude_fake_api``) and the loopback fake Slack (``fake_slack``) playing a person on a phone.

The model runs a project script phlegyas cannot judge (so it asks); the request is posted to the approval
channel; a click on Approve lets it run — its file appears — and a click on Deny blocks the next one.
"""
from __future__ import annotations

import json
import os
import threading

import test_e2e_claude as e2e
from fake_slack import FakeSlack
from test_e2e_claude import PROMPT_TOOL, denied_ids, results_by_id, text_of
from test_slack import APPROVER
from test_slack_hosts import _request_id

claude, session = e2e.claude, e2e.session  # the fixtures: Claude Code from npm, a temporary home and project


def test_a_click_in_slack_decides_what_claude_code_asks_about(session):
    tools = os.path.join(session.project, "tools")
    os.makedirs(tools)
    with open(os.path.join(tools, "mark"), "w") as fh:  # a project script: phlegyas cannot know what it does
        fh.write('#!/bin/sh\ntouch "$1"\n')
    os.chmod(os.path.join(tools, "mark"), 0o755)
    session.phlegyas("install", "--project", session.project, "--mcp")
    script = [("Bash", {"command": "./tools/mark approved-marker", "description": "Mark it"}),
              ("Bash", {"command": "./tools/mark denied-marker", "description": "Mark it again"})]
    with FakeSlack() as fake:
        session.env.update(SLACK_BOT_TOKEN=fake.bot_token, SLACK_APP_TOKEN=fake.app_token,
                           SLACK_APPROVAL_CHANNEL="approvals", SLACK_APPROVERS=APPROVER,
                           PHLEGYAS_SLACK_API_URL=fake.api_url, SLACK_APPROVAL_TIMEOUT_SECONDS="120",
                           MCP_CONNECTION_NONBLOCKING="false")  # see test_e2e_claude: wait for the server
        clicks: list[str] = []

        def person() -> None:
            for count, action in ((1, "approve"), (2, "deny")):
                fake.wait_for(lambda: len(fake.messages) >= count, timeout=240, what=f"request {count} posted")
                fake.click(_request_id(fake.messages[count - 1]), action, user=APPROVER)
                clicks.append(action)

        clicker = threading.Thread(target=person, daemon=True)
        clicker.start()
        output, api = session.run_claude(script, "--permission-prompt-tool", PROMPT_TOOL)
        clicker.join(30)
        messages = [json.dumps(m["updates"][-1]["blocks"]) if m["updates"] else "" for m in fake.messages]

    assert clicks == ["approve", "deny"]
    results = results_by_id(api)
    assert os.path.exists(os.path.join(session.project, "approved-marker")), text_of(results["toolu_fake0000"])
    assert not os.path.exists(os.path.join(session.project, "denied-marker"))
    assert denied_ids(output) == {"toolu_fake0001"}
    assert APPROVER in text_of(results["toolu_fake0001"])
    assert "APPROVED" in messages[0] and "DENIED" in messages[1]  # both messages say how they ended
    tiers = [e["tier"] for e in session.audit() if e["tier"].startswith("tier3_slack")]
    assert tiers == ["tier3_slack_approved", "tier3_slack_denied"]
