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
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Sequence

MODEL = "fake-model"
FINAL_TEXT = "All done."
TITLE_TEXT = "Fake session"


@dataclass
class Recorded:
    method: str
    path: str
    body: Any


@dataclass
class FakeChatAPI:
    script: Sequence[tuple[str, dict]]
    requests: list[Recorded] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __enter__(self) -> "FakeChatAPI":
        api = self

        class Handler(_Handler):
            fake = api

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "enter the fake first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def record(self, method: str, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append(Recorded(method, path, body))

    def chat_requests(self) -> list[dict]:
        """The bodies of the main-loop requests (those that offered the script's tools)."""
        names = {name for name, _ in self.script}
        with self._lock:
            return [r.body for r in self.requests if r.path.endswith("/chat/completions")
                    and isinstance(r.body, dict) and names & _offered(r.body)]

    def tool_results(self) -> list[str]:
        """The content of every ``tool`` message OpenCode sent back, in order (the last request's view)."""
        bodies = self.chat_requests()
        return [_content_text(m.get("content")) for m in _tool_messages(bodies[-1])] if bodies else []

    def answer(self, body: dict) -> dict:
        """The assistant message for one request: ``{"content": …}`` or ``{"tool_calls": […]}``."""
        index = len(_tool_messages(body))
        offered = _offered(body)
        if not offered:
            return {"content": TITLE_TEXT}
        if index < len(self.script) and self.script[index][0] in offered:
            name, arguments = self.script[index]
            return {"tool_calls": [{"id": f"call_fake{index:04d}", "type": "function",
                                    "function": {"name": name, "arguments": json.dumps(arguments)}}]}
        return {"content": FINAL_TEXT}


def _offered(body: dict) -> set:
    return {(t.get("function") or {}).get("name") for t in body.get("tools") or () if isinstance(t, dict)}


def _tool_messages(body: dict) -> list[dict]:
    return [m for m in body.get("messages") or () if isinstance(m, dict) and m.get("role") == "tool"]


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


class _Handler(BaseHTTPRequestHandler):
    fake: FakeChatAPI
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args) -> None:  # keep test output clean
        pass

    def do_GET(self) -> None:
        self.fake.record("GET", self.path, None)
        if self.path.split("?")[0].endswith("/models"):
            self._send(200, "application/json", json.dumps(
                {"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "fake"}]}).encode())
        else:
            self._send(404, "application/json", b'{"error": {"message": "fake: not found"}}')

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = raw.decode("utf-8", "replace")
        self.fake.record("POST", self.path, body)
        if not (self.path.split("?")[0].endswith("/chat/completions") and isinstance(body, dict)):
            self._send(404, "application/json", b'{"error": {"message": "fake: not found"}}')
            return
        message = self.fake.answer(body)
        if body.get("stream"):
            data = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in _chunks(message))
            self._send(200, "text/event-stream", data + b"data: [DONE]\n\n")
            return
        finish = "tool_calls" if "tool_calls" in message else "stop"
        reply = {"id": "chatcmpl-fake", "object": "chat.completion", "created": 1, "model": MODEL,
                 "choices": [{"index": 0, "message": {"role": "assistant", "content": None, **message},
                              "finish_reason": finish}],
                 "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
        self._send(200, "application/json", json.dumps(reply).encode())

    def _send(self, status: int, content_type: str, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
