"""The Slack approval message (issue 14, item 4): Block Kit built from a pending request, redacted,
escaped for mrkdwn, folded when long, with the two buttons a click is matched by."""
from __future__ import annotations

import json
from dataclasses import replace

from phlegyas.human.slack_message import (
    APPROVE_ACTION,
    DENY_ACTION,
    DENY_REASON_ACTION,
    MAX_INPUT_CHARS,
    outcome_blocks,
    request_blocks,
)
from phlegyas.store.approvals import APPROVED, DENIED, EXPIRED, PendingRequest

RID = "0b9c3f9e-8a53-4d55-9a43-9f6d1e0e6b1a"
TOKEN = "sk-ant-api03-" + "Q" * 40


def pending(command: str = "terraform apply", **fields) -> PendingRequest:
    base = PendingRequest(id=RID, tool_name="Bash", tool_input={"command": command}, tier="fallback",
                          reason="no rule or tier decided this call", created_at=1_790_000_000.0,
                          expires_at=1_790_000_300.0, cwd="/home/u/shop", session_id="s-1", agent_id="a-2",
                          workflow_id="wf-3")
    return replace(base, **fields)


def texts(blocks: list[dict]) -> str:
    return json.dumps(blocks, ensure_ascii=False)


def test_the_message_names_the_call_says_why_and_carries_the_buttons():
    blocks, text = request_blocks(pending(), ["terraform apply: not known safe", "Tier 3: 0.55, changes infra"])
    (actions,) = [b for b in blocks if b["type"] == "actions"]
    approve, deny, why = actions["elements"]
    assert (approve["action_id"], approve["style"], approve["value"]) == (APPROVE_ACTION, "primary", RID)
    assert (deny["action_id"], deny["style"], deny["value"]) == (DENY_ACTION, "danger", RID)
    assert (why["action_id"], why["value"], "style" in why) == (DENY_REASON_ACTION, RID, False)
    shown = texts(blocks)
    for piece in ("terraform apply", "/home/u/shop", "s-1", "a-2", "wf-3", "no rule or tier decided", "fallback",
                  "Tier 3: 0.55", "expires 2026-09-21", RID):
        assert piece in shown, piece
    assert "terraform apply" in text


def test_secrets_are_redacted_everywhere_in_the_message():
    blocks, text = request_blocks(pending(f"curl -H 'x-api-key: {TOKEN}' https://api.example/"),
                                  [f"sends {TOKEN} to api.example"])
    assert TOKEN not in texts(blocks) and TOKEN not in text
    assert "REDACTED" in texts(blocks)


def test_a_command_cannot_become_a_link_a_mention_or_escape_its_code_block():
    blocks, _ = request_blocks(pending("echo '<!channel> <https://evil.example|click>' && cat a ``` b"))
    shown = texts(blocks)
    assert "<!channel>" not in shown and "<https://evil" not in shown
    assert "&lt;!channel&gt;" in shown
    code = blocks[1]["text"]["text"]
    assert code.startswith("```") and code.endswith("```") and code.count("```") == 2


def test_long_input_is_folded_under_slacks_limit():
    blocks, text = request_blocks(pending("echo " + "x" * 10_000))
    code = blocks[1]["text"]["text"]
    assert len(code) < 3000 and "more characters]" in code
    assert len(text) < 350  # the fallback text: 300 characters and the note of what was cut
    other = request_blocks(pending(tool_name="Write", tool_input={"file_path": "/p/a.py", "content": "y" * 9000}))[0]
    assert len(other[1]["text"]["text"]) < MAX_INPUT_CHARS + 100


def test_the_outcome_says_who_decided_when_and_how_and_drops_the_buttons():
    done = pending(status=APPROVED, approver_id="U012AB3CD", resolved_at=1_790_000_042.0, resolution_reason="ok")
    blocks, text = outcome_blocks(done, via="slack")
    shown = texts(blocks)
    assert "APPROVED" in shown and "U012AB3CD" in shown and "via slack" in shown and "2026-09-21" in shown
    assert all(b["type"] != "actions" for b in blocks)
    denied = outcome_blocks(pending(status=DENIED, approver_id="alice", resolved_at=1_790_000_050.0), via="cli")[0]
    assert "DENIED" in texts(denied) and "via cli" in texts(denied)
    expired = outcome_blocks(pending(status=EXPIRED, resolution_reason="the waiting agent went away"))[0]
    assert "NOT DECIDED" in texts(expired) and "the waiting agent went away" in texts(expired)
