"""A loopback fake of the OpenAI chat-completions API, enough to drive the real OpenCode offline.

OpenCode reaches it through an ``@ai-sdk/openai-compatible`` provider whose ``baseURL`` is
``FakeChatAPI.base_url`` (PROTOCOLS.md §6). ``FakeChatAPI(script)`` answers ``POST /v1/chat/completions``
(streamed as server-sent events, or as one JSON body) with the tool calls of ``script``, one per model
turn: while fewer ``tool`` messages than script entries have come back, the answer is the next call
(``("bash", {"command": …})``); then a short text. A request that offers no tool of the needed name
(OpenCode's side requests, such as a session title) gets a short text answer. ``GET /v1/models`` lists
the one model. Every request is recorded, so a test can read the tool results OpenCode sent back.

Used as a context manager it serves on 127.0.0.1 on a free port, in a thread::

    with FakeChatAPI([("bash", {"command": "ls", "description": "list"})]) as api:
        config["provider"]["fake"]["options"]["baseURL"] = api.base_url + "/v1"
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Sequence

from fake_api_base import ChatHandler, FakeServer, chat_offered, chat_tool_messages, data_events

MODEL = "fake-model"
FINAL_TEXT = "All done."
TITLE_TEXT = "Fake session"


@dataclass
class FakeChatAPI(FakeServer):
    script: Sequence[tuple[str, dict]]

    def chat_requests(self) -> list[dict]:
        """The bodies of the main-loop requests (those that offered the script's tools)."""
        names = {name for name, _ in self.script}
        return self.bodies(lambda r: r.path.endswith("/chat/completions") and isinstance(r.body, dict)
                           and bool(names & chat_offered(r.body)))

    def tool_results(self) -> list[str]:
        """The content of every ``tool`` message OpenCode sent back, in order (the last request's view)."""
        bodies = self.chat_requests()
        return [_content_text(m.get("content")) for m in chat_tool_messages(bodies[-1])] if bodies else []

    def answer(self, body: dict) -> dict:
        """The assistant message for one request: ``{"content": …}`` or ``{"tool_calls": […]}``."""
        index = len(chat_tool_messages(body))
        offered = chat_offered(body)
        if not offered:
            return {"content": TITLE_TEXT}
        if index < len(self.script) and self.script[index][0] in offered:
            name, arguments = self.script[index]
            return {"tool_calls": [{"id": f"call_fake{index:04d}", "type": "function",
                                    "function": {"name": name, "arguments": json.dumps(arguments)}}]}
        return {"content": FINAL_TEXT}


def _content_text(content: object) -> str:
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else json.dumps(content)


def _chunks(message: dict) -> list[dict]:
    """The streamed chunks of one assistant message (OpenAI's ``chat.completion.chunk`` shape)."""
    def chunk(delta: dict, finish: str | None = None, usage: dict | None = None) -> dict:
        out = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": MODEL,
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        if usage is not None:
            out["usage"] = usage
        return out

    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    if "tool_calls" in message:
        calls = [{"index": i, **c} for i, c in enumerate(message["tool_calls"])]
        return [chunk({"role": "assistant", "content": None, "tool_calls": calls}),
                chunk({}, "tool_calls", usage)]
    return [chunk({"role": "assistant", "content": message["content"]}), chunk({}, "stop", usage)]


class _Handler(ChatHandler):
    model = MODEL

    def do_POST(self) -> None:
        body = self.read_body()
        self.fake.record("POST", self.path, body)
        if not (self.path.split("?")[0].endswith("/chat/completions") and isinstance(body, dict)):
            self.not_found()
            return
        message = self.fake.answer(body)
        if body.get("stream"):
            self.send(200, "text/event-stream", data_events(_chunks(message), done=True))
            return
        finish = "tool_calls" if "tool_calls" in message else "stop"
        reply = {"id": "chatcmpl-fake", "object": "chat.completion", "created": 1, "model": MODEL,
                 "choices": [{"index": 0, "message": {"role": "assistant", "content": None, **message},
                              "finish_reason": finish}],
                 "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
        self.send_json(200, reply)


FakeChatAPI.handler = _Handler
