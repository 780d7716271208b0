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
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Sequence

MODEL = "claude-sonnet-4-5"
FINAL_TEXT = "All done."


@dataclass
class Recorded:
    """One request the fake received."""

    method: str
    path: str
    body: Any


@dataclass
class FakeMessagesAPI:
    script: Sequence[tuple[str, dict]]
    tool_answers: dict[str, dict] = field(default_factory=dict)
    requests: list[Recorded] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # -- lifecycle -------------------------------------------------------------------------------

    def __enter__(self) -> "FakeMessagesAPI":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        api = self

        class Handler(_Handler):
            fake = api

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "start() the fake first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    # -- what it answers -------------------------------------------------------------------------

    def record(self, method: str, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append(Recorded(method, path, body))

    def message_requests(self) -> list[dict]:
        """The bodies of the main-loop ``/v1/messages`` requests (those that offered the script's tools)."""
        names = {name for name, _ in self.script}
        with self._lock:
            return [r.body for r in self.requests
                    if r.path.split("?")[0] == "/v1/messages" and isinstance(r.body, dict)
                    and names & {t.get("name") for t in r.body.get("tools") or () if isinstance(t, dict)}]

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
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events)


class _Handler(BaseHTTPRequestHandler):
    fake: FakeMessagesAPI
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args) -> None:  # keep test output clean
        pass

    def do_GET(self) -> None:
        self.fake.record("GET", self.path, None)
        self._send(404, "application/json", b'{"type":"error","error":{"type":"not_found_error","message":"fake"}}')

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = raw.decode("utf-8", "replace")
        self.fake.record("POST", self.path, body)
        path = self.path.split("?")[0]
        if path.endswith("/count_tokens"):
            self._send(200, "application/json", b'{"input_tokens": 10}')
        elif path == "/v1/messages" and isinstance(body, dict):
            message = self.fake.answer(body)
            if body.get("stream"):
                self._send(200, "text/event-stream", sse_events(message))
            else:
                self._send(200, "application/json", json.dumps(message).encode())
        else:
            self._send(404, "application/json", b'{"type":"error","error":{"type":"not_found_error","message":"fake"}}')

    def _send(self, status: int, content_type: str, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", "req_fake")
        self.end_headers()
        self.wfile.write(data)
