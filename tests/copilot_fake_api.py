"""A loopback fake of the OpenAI chat-completions API, enough to drive the real Copilot CLI offline in
its BYOK mode (PROTOCOLS.md §6: ``COPILOT_OFFLINE=true COPILOT_PROVIDER_BASE_URL=…/v1
COPILOT_PROVIDER_TYPE=openai COPILOT_MODEL=fake-model``).

``FakeChatAPI(script)`` answers ``POST /v1/chat/completions`` (streamed as server-sent events when
``"stream": true``, else one JSON object) with the tool calls of ``script``, one per model turn: while
fewer ``role: "tool"`` messages than script entries have come back, the answer is the next
``tool_calls`` entry; then a text message with ``finish_reason: "stop"``. A request that offers no tool
of the needed name (a side request, such as a session title) gets a short text answer.
``GET /v1/models`` lists ``fake-model``. Every request is recorded.

Used as a context manager it serves on 127.0.0.1 on a free port, in a thread::

    with FakeChatAPI([("bash", {"command": "ls"})]) as api:
        env["COPILOT_PROVIDER_BASE_URL"] = api.base_url
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar, Sequence

from fake_api_base import ChatHandler, FakeServer, chat_offered, chat_tool_messages, data_events

MODEL = "fake-model"
FINAL_TEXT = "All done."


@dataclass
class FakeChatAPI(FakeServer):
    script: Sequence[tuple[str, dict]]
    url_path: ClassVar[str] = "/v1"

    def chat_requests(self) -> list[dict]:
        """The bodies of the main-loop requests (those that offered the script's tools)."""
        names = {name for name, _ in self.script}
        return self.bodies(lambda r: r.path.split("?")[0].endswith("/chat/completions")
                           and isinstance(r.body, dict) and bool(names & chat_offered(r.body)))

    def tool_results(self) -> list[dict]:
        """Every ``role: "tool"`` message Copilot sent back, in order (the last request's view)."""
        bodies = self.chat_requests()
        return chat_tool_messages(bodies[-1]) if bodies else []

    def answer(self, body: dict) -> dict:
        """The assistant message (and finish reason) for one chat-completions request."""
        index = len(chat_tool_messages(body))
        if index < len(self.script) and self.script[index][0] in chat_offered(body):
            name, arguments = self.script[index]
            call = {"id": f"call_fake{index:04d}", "type": "function",
                    "function": {"name": name, "arguments": json.dumps(arguments)}}
            return {"message": {"role": "assistant", "content": None, "tool_calls": [call]},
                    "finish_reason": "tool_calls"}
        return {"message": {"role": "assistant", "content": FINAL_TEXT}, "finish_reason": "stop"}


def content_text(message: dict) -> str:
    """A tool message's content as text (a string, or a list of text parts)."""
    content = message.get("content")
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else ""


_USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def completion(answer: dict) -> dict:
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 1, "model": MODEL,
            "choices": [{"index": 0, **answer}], "usage": _USAGE}


def sse_chunks(answer: dict) -> bytes:
    """The server-sent events that stream ``answer``: a role chunk, the content or the tool calls (name
    first, arguments in a second chunk, as OpenAI streams them), the finish reason, usage, ``[DONE]``."""
    message = answer["message"]

    def chunk(delta: dict, finish: str | None = None, **extra) -> dict:
        return {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": MODEL,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra}

    chunks = [chunk({"role": "assistant", "content": ""})]
    for i, call in enumerate(message.get("tool_calls") or ()):
        head = {"index": i, "id": call["id"], "type": "function",
                "function": {"name": call["function"]["name"], "arguments": ""}}
        chunks.append(chunk({"tool_calls": [head]}))
        chunks.append(chunk({"tool_calls": [{"index": i, "function": {"arguments": call["function"]["arguments"]}}]}))
    if message.get("content"):
        chunks.append(chunk({"content": message["content"]}))
    chunks.append(chunk({}, answer["finish_reason"]))
    chunks.append({**chunk({}), "choices": [], "usage": _USAGE})
    return data_events(chunks, done=True)


class _Handler(ChatHandler):
    model = MODEL

    def do_POST(self) -> None:
        body = self.read_body()
        self.fake.record("POST", self.path, body)
        if self.path.split("?")[0].endswith("/chat/completions") and isinstance(body, dict):
            answer = self.fake.answer(body)
            if body.get("stream"):
                self.send(200, "text/event-stream", sse_chunks(answer))
            else:
                self.send(200, "application/json", json.dumps(completion(answer)).encode())
        else:
            self.not_found()


FakeChatAPI.handler = _Handler
