"""A loopback HTTP server that speaks the Anthropic Messages API and the OpenAI Chat Completions API.

Tests point the real ``anthropic`` and ``openai`` SDKs at it (``base_url``). It records every request
and answers with what the test queued: a verdict (a forced ``record_verdict`` tool use for Anthropic,
a JSON message for OpenAI), free text, an arbitrary structured object, an HTTP error status, a
non-JSON body, or a reply delayed past the client's timeout. A request with ``"stream": true`` gets
server-sent events in the shape each SDK parses; otherwise a plain JSON body.

    with FakeLLMServer() as server:
        server.reply(verdict("approve", 0.9))
        ...  # AsyncAnthropic(base_url=server.url, api_key="sk-fake")
        server.requests[0].body["system"]
"""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

INPUT_TOKENS = 321
OUTPUT_TOKENS = 45


@dataclass(frozen=True)
class Reply:
    """What the fake model does with one request. Build it with the functions below."""

    kind: str  # "answer" | "text" | "status" | "garbage" | "hang"
    answer: dict[str, Any] | None = None
    text: str = ""
    status: int = 200
    delay: float = 0.0


def verdict(decision: str, confidence: float, reasoning: str = "fake model reasoning",
            risk: str = "low") -> Reply:
    """A well-formed structured answer."""
    answer = {"decision": decision, "confidence": confidence, "reasoning": reasoning, "risk": risk}
    return Reply("answer", answer=answer)


def structured(answer: dict[str, Any]) -> Reply:
    """Any object as the structured answer (to send fields that are missing or of the wrong type)."""
    return Reply("answer", answer=answer)


def text(content: str) -> Reply:
    """Free text instead of the structured answer."""
    return Reply("text", text=content)


def status(code: int, message: str = "fake error") -> Reply:
    """An HTTP error with the API's error body."""
    return Reply("status", status=code, text=message)


def garbage(body: str = "<html>this is not JSON</html>") -> Reply:
    """HTTP 200 with a body that is not the API's JSON."""
    return Reply("garbage", text=body)


def hang(seconds: float) -> Reply:
    """Wait ``seconds`` before answering a verdict (past the client's timeout)."""
    return Reply("hang", delay=seconds, answer=verdict("approve", 0.99).answer)


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any

    @property
    def api(self) -> str:
        return "anthropic" if self.path.split("?")[0].endswith("/messages") else "openai"


@dataclass
class FakeLLMServer:
    """Start with ``with FakeLLMServer() as server`` (or ``start()``/``stop()``); ``url`` is its base URL."""

    default: Reply = field(default_factory=lambda: verdict("ask_user", 0.5))
    requests: list[Recorded] = field(default_factory=list)
    _queue: deque = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _closing: threading.Event = field(default_factory=threading.Event)
    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    def reply(self, *replies: Reply) -> None:
        """Answer the next requests with ``replies`` in order, then with ``default``."""
        with self._lock:
            self._queue.extend(replies)

    def clear(self) -> None:
        with self._lock:
            self._queue.clear()
            self.requests.clear()

    @property
    def url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> "FakeLLMServer":
        handler = type("Handler", (_Handler,), {"fake": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="fake-llm", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._closing.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> "FakeLLMServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _next(self, request: Recorded) -> Reply:
        with self._lock:
            self.requests.append(request)
            return self._queue.popleft() if self._queue else self.default


class _Handler(BaseHTTPRequestHandler):
    fake: FakeLLMServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args) -> None:  # keep test output clean
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw.decode("utf-8", "replace")
        request = Recorded("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        reply = self.fake._next(request)
        try:
            self._answer(request, reply)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test)

    def _answer(self, request: Recorded, reply: Reply) -> None:
        if reply.kind == "hang" and self.fake._closing.wait(reply.delay):
            return
        if reply.kind == "status":
            return self._send(reply.status, "application/json", json.dumps(_error_body(request.api, reply)))
        if reply.kind == "garbage":
            return self._send(200, "application/json", reply.text)
        body = request.body if isinstance(request.body, dict) else {}
        builder = _anthropic_events if request.api == "anthropic" else _openai_events
        message, events = builder(body, reply)
        if body.get("stream"):
            return self._send_events(events)
        return self._send(200, "application/json", json.dumps(message))

    def _send(self, code: int, content_type: str, text: str) -> None:
        data = text.encode()
        self.send_response(code)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        retry = code in (429, 500, 502, 503, 529)
        self.send_header("x-should-retry", "true" if retry else "false")
        if retry:
            self.send_header("retry-after-ms", "20")  # both SDKs honour it: keeps retry tests fast
        self.end_headers()
        self.wfile.write(data)

    def _send_events(self, events: list[tuple[str | None, Any]]) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        for name, data in events:
            chunk = "" if name is None else f"event: {name}\n"
            chunk += f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n"
            self.wfile.write(chunk.encode())
            self.wfile.flush()
        self.close_connection = True


def _error_body(api: str, reply: Reply) -> dict:
    kinds = {429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}
    kind = kinds.get(reply.status, "invalid_request_error")
    if api == "anthropic":
        return {"type": "error", "error": {"type": kind, "message": reply.text}}
    return {"error": {"message": reply.text, "type": kind, "code": None, "param": None}}


# -- Anthropic Messages -------------------------------------------------------------------------

def _anthropic_events(body: dict, reply: Reply) -> tuple[dict, list]:
    model = body.get("model", "fake-model")
    if reply.answer is not None:
        choice = body.get("tool_choice") or {}
        name = choice.get("name") or "record_verdict"
        block = {"type": "tool_use", "id": "toolu_fake01", "name": name, "input": reply.answer}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": reply.text}
        stop = "end_turn"
    message = {"id": "msg_fake01", "type": "message", "role": "assistant", "model": model, "content": [block],
               "stop_reason": stop, "stop_sequence": None,
               "usage": {"input_tokens": INPUT_TOKENS, "output_tokens": OUTPUT_TOKENS}}
    start = dict(message, content=[], stop_reason=None, usage={"input_tokens": INPUT_TOKENS, "output_tokens": 1})
    if block["type"] == "tool_use":
        first = dict(block, input={})
        payload = json.dumps(block["input"])
        deltas = [{"type": "input_json_delta", "partial_json": part} for part in _split(payload)]
    else:
        first = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": part} for part in _split(block["text"])]
    events = [("message_start", {"type": "message_start", "message": start}),
              ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": first}),
              ("ping", {"type": "ping"})]
    events += [("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": d}) for d in deltas]
    events += [("content_block_stop", {"type": "content_block_stop", "index": 0}),
               ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                  "usage": {"output_tokens": OUTPUT_TOKENS}}),
               ("message_stop", {"type": "message_stop"})]
    return message, events


# -- OpenAI Chat Completions --------------------------------------------------------------------

def _openai_events(body: dict, reply: Reply) -> tuple[dict, list]:
    model = body.get("model", "fake-model")
    content = json.dumps(reply.answer) if reply.answer is not None else reply.text
    created = int(time.time())
    usage = {"prompt_tokens": INPUT_TOKENS, "completion_tokens": OUTPUT_TOKENS,
             "total_tokens": INPUT_TOKENS + OUTPUT_TOKENS}
    message = {"id": "chatcmpl-fake01", "object": "chat.completion", "created": created, "model": model,
               "choices": [{"index": 0, "finish_reason": "stop",
                            "message": {"role": "assistant", "content": content, "refusal": None}}],
               "usage": usage}
    base = {"id": "chatcmpl-fake01", "object": "chat.completion.chunk", "created": created, "model": model}

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": finish}])

    events: list = [(None, chunk({"role": "assistant", "content": ""}))]
    events += [(None, chunk({"content": part})) for part in _split(content)]
    events.append((None, chunk({}, "stop")))
    if (body.get("stream_options") or {}).get("include_usage"):
        events.append((None, dict(base, choices=[], usage=usage)))
    events.append((None, "[DONE]"))
    return message, events


def _split(text: str, size: int = 16) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]
