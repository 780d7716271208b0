"""The Slack approval message (Block Kit) for one pending request, and its text once decided.

Pure functions: a ``PendingRequest`` in, the ``blocks`` and fallback ``text`` of ``chat.postMessage`` /
``chat.update`` out. What is shown comes from the approvals store, where the input is already redacted;
it is redacted again here (a reason or an explanation line may quote the command), escaped for Slack's
mrkdwn (``&``, ``<``, ``>``: a command cannot become a link or a mention) and folded when long.

The buttons: ``action_id`` ``phlegyas_approve`` (primary) and ``phlegyas_deny`` (danger), each with
``value`` = the request id, which is all a click needs to find the request again.
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timezone

from phlegyas.core.redact import redact
from phlegyas.store.approvals import APPROVED, DENIED, PendingRequest

APPROVE_ACTION = "phlegyas_approve"
DENY_ACTION = "phlegyas_deny"
DENY_REASON_ACTION = "phlegyas_deny_reason"  # opens the modal that asks why, then denies
REASON_CALLBACK = "phlegyas_deny_reason"
REASON_BLOCK, REASON_INPUT = "reason", "reason_text"
MAX_REASON_CHARS = 1000
ACTIONS_BLOCK = "phlegyas_decision"
MAX_INPUT_CHARS = 2500  # a section's text may hold 3000 characters
MAX_LINE_CHARS = 300
MAX_DETAIL_LINES = 12
HEADER_CHARS = 150
SECTION_CHARS = 3000
_SLACK_USER = re.compile(r"[UW][A-Z0-9]{2,20}")


def escape(text: str) -> str:
    """``text`` safe inside mrkdwn: ``&``, ``<`` and ``>`` escaped as Slack asks."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def fold(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit} more characters]"


def shown_input(request: PendingRequest) -> str:
    """The command, for a Bash call; else the input as JSON. Redacted, folded."""
    command = request.tool_input.get("command")
    text = command if request.tool_name == "Bash" and isinstance(command, str) else json.dumps(
        request.tool_input, ensure_ascii=False, indent=1, sort_keys=True)
    return fold(redact(text), MAX_INPUT_CHARS)


def _header(text: str) -> dict:
    """A header block: plain text, at most HEADER_CHARS characters in all (Slack refuses more)."""
    shown = text if len(text) <= HEADER_CHARS else text[:HEADER_CHARS - 1] + "…"
    return {"type": "header", "text": {"type": "plain_text", "text": shown}}


def _code(text: str) -> str:
    return "```" + escape(text.replace("```", "` ` `")) + "```"


def _who(approver: str | None, via: str | None) -> str:
    """The approver: a Slack user ID answered in Slack becomes a mention (Slack shows the name)."""
    if via == "slack" and approver and _SLACK_USER.fullmatch(approver):
        return f"<@{approver}>"
    return escape(approver or "someone")


def _when(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def request_blocks(request: PendingRequest, details: list[str] | tuple[str, ...] = ()) -> tuple[list[dict], str]:
    """``(blocks, text)`` of the message asking about ``request``; ``details`` are the analysis's lines
    (per subcommand, Tier 3's reasoning and confidence) shown under the reason."""
    context = [f"*cwd* `{escape(fold(request.cwd or '-', 200))}`"]
    for label, value in (("session", request.session_id), ("agent", request.agent_id),
                         ("workflow", request.workflow_id)):
        if value:
            context.append(f"*{label}* `{escape(fold(value, 80))}`")
    why = f"*Why it asks* ({escape(fold(request.tier, 40))}): {escape(fold(redact(request.reason), MAX_LINE_CHARS))}"
    shown = 0
    for line in list(details)[:MAX_DETAIL_LINES]:
        item = "\n• " + escape(fold(redact(line), MAX_LINE_CHARS))
        if len(why) + len(item) > SECTION_CHARS - 40:  # room for the "more" line: a section holds 3000
            break
        why += item
        shown += 1
    if len(details) > shown:
        why += f"\n… {len(details) - shown} more"
    blocks: list[dict] = [
        _header(f"phlegyas asks: {request.tool_name}"),
        {"type": "section", "text": {"type": "mrkdwn", "text": _code(shown_input(request))}},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": "   ".join(context)}]},
        {"type": "section", "text": {"type": "mrkdwn", "text": why}},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": f"expires {_when(request.expires_at)} · "
                                                                      f"request `{request.id}`"}]},
        {"type": "actions", "block_id": ACTIONS_BLOCK, "elements": [
            {"type": "button", "action_id": APPROVE_ACTION, "style": "primary", "value": request.id,
             "text": {"type": "plain_text", "text": "Approve"}},
            {"type": "button", "action_id": DENY_ACTION, "style": "danger", "value": request.id,
             "text": {"type": "plain_text", "text": "Deny"}},
            {"type": "button", "action_id": DENY_REASON_ACTION, "value": request.id,
             "text": {"type": "plain_text", "text": "Deny with a reason…"}},
        ]},
    ]
    text = fold(f"phlegyas asks about {request.tool_name}: {redact(shown_input(request))}", 300)
    return blocks, text


def reason_modal(request: PendingRequest) -> dict:
    """The modal of "Deny with a reason…": the call, and a text field; submitting it denies ``request``
    (its id travels in ``private_metadata``) with that reason, which the agent is told."""
    return {
        "type": "modal", "callback_id": REASON_CALLBACK, "private_metadata": request.id,
        "title": {"type": "plain_text", "text": "Deny with a reason"},
        "submit": {"type": "plain_text", "text": "Deny"},
        "close": {"type": "plain_text", "text": "Cancel"},
        "blocks": [
            {"type": "section", "text": {"type": "mrkdwn", "text": _code(fold(shown_input(request), 1500))}},
            {"type": "input", "block_id": REASON_BLOCK, "label": {"type": "plain_text", "text": "Why not?"},
             "element": {"type": "plain_text_input", "action_id": REASON_INPUT, "multiline": True,
                         "max_length": MAX_REASON_CHARS,
                         "placeholder": {"type": "plain_text", "text": "The agent reads this"}}},
        ],
    }


def outcome_blocks(request: PendingRequest, via: str | None = None) -> tuple[list[dict], str]:
    """``(blocks, text)`` once ``request`` is settled: who decided, when and how (``via``: slack, cli,
    mcp, dashboard), or that it expired or was withdrawn. The buttons are gone."""
    if request.status in (APPROVED, DENIED):
        verb = "APPROVED" if request.status == APPROVED else "DENIED"
        how = f" via {via}" if via else ""
        at = f" at {_when(request.resolved_at)}" if request.resolved_at else ""
        why = f": {escape(fold(redact(request.resolution_reason), MAX_LINE_CHARS))}" if request.resolution_reason else ""
        summary = f"*{verb}* by {_who(request.approver_id, via)}{how}{at}{why}"
    else:
        reason = request.resolution_reason or "no decision before it expired"
        summary = f"*NOT DECIDED*: {escape(fold(redact(reason), MAX_LINE_CHARS))} (denied)"
    blocks = [
        _header(f"phlegyas asked: {request.tool_name}"),
        {"type": "section", "text": {"type": "mrkdwn", "text": _code(shown_input(request))}},
        {"type": "section", "text": {"type": "mrkdwn", "text": summary}},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": f"request `{request.id}`"}]},
    ]
    return blocks, fold(f"{request.tool_name}: {summary}", 300)
