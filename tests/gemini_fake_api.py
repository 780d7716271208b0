"""A loopback fake of the Gemini API (``generativelanguage``), enough to drive the real Gemini CLI offline.

Gemini CLI is pointed at it with ``GOOGLE_GEMINI_BASE_URL`` (PROTOCOLS.md §6). ``FakeGeminiAPI(script)``
answers ``POST /v1beta/models/M:streamGenerateContent?alt=sse`` with the function calls of ``script``, one
per model turn: while fewer ``functionResponse`` parts than script entries have come back, the answer is
the next ``functionCall``; then a text answer that ends the turn. A request that offers none of the
script's tools (Gemini CLI's side requests: the model router, the next-speaker check) gets a short text,
or ``{"next_speaker": "user"}`` when it asks for JSON, so the CLI stops after the script.
``:countTokens`` answers ``{"totalTokens": 10}``. Every request is recorded, so a test can read the
tool results the CLI sent back (``function_responses``).

Used as a context manager it serves on 127.0.0.1 on a free port, in a thread::

    with FakeGeminiAPI([("run_shell_command", {"command": "ls"})]) as api:
        env["GOOGLE_GEMINI_BASE_URL"] = api.base_url
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Sequence

MODEL = "gemini-2.5-flash"
FINAL_TEXT = "All done."


@dataclass
class Recorded:
    """One request the fake received."""

    method: str
    path: str
    body: Any


@dataclass
class FakeGeminiAPI:
    script: Sequence[tuple[str, dict]]
    requests: list[Recorded] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # -- lifecycle -------------------------------------------------------------------------------

    def __enter__(self) -> "FakeGeminiAPI":
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

    def main_requests(self) -> list[dict]:
        """The bodies of the main-loop requests (those that offered one of the script's tools)."""
        names = {name for name, _ in self.script}
        with self._lock:
            return [r.body for r in self.requests if isinstance(r.body, dict) and names & _offered(r.body)]

    def function_responses(self) -> list[dict]:
        """Every ``functionResponse`` the CLI sent back, in order (the last main request's view)."""
        bodies = self.main_requests()
        return _function_responses(bodies[-1]) if bodies else []

    def answer(self, body: dict) -> dict:
        """The ``GenerateContentResponse`` for one request."""
        offered = _offered(body)
        index = len(_function_responses(body))
        if offered and index < len(self.script) and self.script[index][0] in offered:
            name, args = self.script[index]
            return _response([{"functionCall": {"id": f"call_fake{index:04d}", "name": name, "args": args}}])
        config = body.get("generationConfig") or {}
        if not offered and config.get("responseMimeType") == "application/json":
            verdict = {"next_speaker": "user", "reasoning": "the turn is over",
                       "complexity_reasoning": "fake", "complexity_score": 1}
            return _response([{"text": json.dumps(verdict)}])
        return _response([{"text": FINAL_TEXT}])


def _offered(body: dict) -> set[str]:
    names = set()
    for tool in body.get("tools") or ():
        for declaration in (tool.get("functionDeclarations") or ()) if isinstance(tool, dict) else ():
            if isinstance(declaration, dict):
                names.add(declaration.get("name"))
    return names


def _function_responses(body: dict) -> list[dict]:
    out = []
    for content in body.get("contents") or ():
        for part in (content.get("parts") or ()) if isinstance(content, dict) else ():
            if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
                out.append(part["functionResponse"])
    return out


def _response(parts: list[dict]) -> dict:
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
            "modelVersion": MODEL}


class _Handler(BaseHTTPRequestHandler):
    fake: FakeGeminiAPI
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args) -> None:  # keep test output clean
        pass

    def do_GET(self) -> None:
        self.fake.record("GET", self.path, None)
        self._send(404, "application/json", b'{"error": {"code": 404, "message": "fake", "status": "NOT_FOUND"}}')

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = raw.decode("utf-8", "replace")
        self.fake.record("POST", self.path, body)
        path = self.path.split("?")[0]
        if path.endswith(":countTokens"):
            self._send(200, "application/json", b'{"totalTokens": 10}')
        elif path.endswith(":streamGenerateContent") and isinstance(body, dict):
            data = json.dumps(self.fake.answer(body))
            self._send(200, "text/event-stream", f"data: {data}\n\n".encode())
        elif path.endswith(":generateContent") and isinstance(body, dict):
            self._send(200, "application/json", json.dumps(self.fake.answer(body)).encode())
        else:
            self._send(404, "application/json", b'{"error": {"code": 404, "message": "fake", "status": "NOT_FOUND"}}')

    def _send(self, status: int, content_type: str, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
