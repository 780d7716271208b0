"""A loopback fake of the Anthropic Messages API, enough to drive the real Claude Code offline.

``FakeMessagesAPI(script)`` answers ``POST /v1/messages`` (streamed or not) with the tool calls of
``script``, one per model turn: while fewer ``tool_result`` blocks than script entries have come
back, the answer is the next ``tool_use``; then a text block with ``end_turn``. A request that offers
no tool of the needed name (Claude Code's side requests, such as a title) gets a short text answer.
``tool_answers`` maps a tool name to the input of a call of it: a request that offers that tool
(phlegyas' own Tier 3 judge offers ``record_verdict``) gets that call as its answer.
``POST /v1/messages/count_tokens`` answers ``{"input_tokens": 10}``. Every request is recorded.

Used as a context manager it serves on 127.0.0.1 on a free port, in a thread::

    with FakeMessagesAPI([("Bash", {"command": "ls"})]) as api:
        env["ANTHROPIC_BASE_URL"] = api.base_url
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Sequence

from fake_api_base import FakeHandler, FakeServer, named_events

MODEL = "claude-sonnet-4-5"
FINAL_TEXT = "All done."


@dataclass
class FakeMessagesAPI(FakeServer):
    script: Sequence[tuple[str, dict]]
    tool_answers: dict[str, dict] = field(default_factory=dict)

    def message_requests(self) -> list[dict]:
        """The bodies of the main-loop ``/v1/messages`` requests (those that offered the script's tools)."""
        names = {name for name, _ in self.script}
        return self.bodies(lambda r: r.path.split("?")[0] == "/v1/messages" and isinstance(r.body, dict)
                           and bool(names & {t.get("name") for t in r.body.get("tools") or () if isinstance(t, dict)}))

    def tool_results(self) -> list[dict]:
        """Every ``tool_result`` block Claude Code sent back, in order (last request's view)."""
        bodies = self.message_requests()
        return _tool_results(bodies[-1]) if bodies else []

    def answer(self, body: dict) -> dict:
        """The assistant message for one ``/v1/messages`` request."""
        index = len(_tool_results(body))
        offered = {t.get("name") for t in body.get("tools") or () if isinstance(t, dict)}
        for name, tool_input in self.tool_answers.items():
            if name in offered:
                return _message([{"type": "tool_use", "id": "toolu_answer", "name": name, "input": tool_input}],
                                "tool_use")
        if index < len(self.script) and self.script[index][0] in offered:
            name, tool_input = self.script[index]
            block = {"type": "tool_use", "id": f"toolu_fake{index:04d}", "name": name, "input": tool_input}
            return _message([block], "tool_use")
        return _message([{"type": "text", "text": FINAL_TEXT}], "end_turn")


def _tool_results(body: dict) -> list[dict]:
    out = []
    for message in body.get("messages") or ():
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            out.extend(b for b in content if isinstance(b, dict) and b.get("type") == "tool_result")
    return out


def _message(content: list[dict], stop_reason: str) -> dict:
    return {"id": "msg_fake", "type": "message", "role": "assistant", "model": MODEL, "content": content,
            "stop_reason": stop_reason, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5}}


def sse_events(message: dict) -> bytes:
    """The server-sent events that stream ``message``."""
    start = {**message, "content": [], "stop_reason": None, "usage": {"input_tokens": 10, "output_tokens": 1}}
    events: list[tuple[str, dict]] = [("message_start", {"type": "message_start", "message": start})]
    for index, block in enumerate(message["content"]):
        if block["type"] == "tool_use":
            opening = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            opening = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        events += [
            ("content_block_start", {"type": "content_block_start", "index": index, "content_block": opening}),
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        ("message_delta", {"type": "message_delta",
                           "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                           "usage": {"output_tokens": 5}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    return named_events(events)


class _Handler(FakeHandler):
    extra_headers = {"request-id": "req_fake"}

    def do_GET(self) -> None:
        self.fake.record("GET", self.path, None)
        self.send(404, "application/json", b'{"type":"error","error":{"type":"not_found_error","message":"fake"}}')

    def do_POST(self) -> None:
        body = self.read_body()
        self.fake.record("POST", self.path, body)
        path = self.path.split("?")[0]
        if path.endswith("/count_tokens"):
            self.send(200, "application/json", b'{"input_tokens": 10}')
        elif path == "/v1/messages" and isinstance(body, dict):
            message = self.fake.answer(body)
            if body.get("stream"):
                self.send(200, "text/event-stream", sse_events(message))
            else:
                self.send(200, "application/json", json.dumps(message).encode())
        else:
            self.send(404, "application/json", b'{"type":"error","error":{"type":"not_found_error","message":"fake"}}')


FakeMessagesAPI.handler = _Handler
