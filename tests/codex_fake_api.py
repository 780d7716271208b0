"""A loopback fake of the OpenAI Responses API, enough to drive the real Codex offline (PROTOCOLS.md §6).

``FakeResponsesAPI(commands)`` answers ``POST /v1/responses`` as server-sent events: while fewer
``function_call_output`` items than ``commands`` are in the request's input, the answer is a call of the
shell tool the request offers (``exec_command`` with ``{"cmd": …}``, or ``shell`` with
``{"command": ["bash", "-lc", …]}``) for the next command; then an assistant message. Every request is
recorded, so a test can read what the tool results said (``outputs()``). Other paths get ``{}`` or
``{"models": []}``: Codex's side requests must not stall a run.

Used as a context manager it serves on 127.0.0.1 on a free port, in a thread::

    with FakeResponsesAPI(["ls"]) as api:
        config = f'base_url = "{api.base_url}"'
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Sequence

MODEL = "fake-model"
FINAL_TEXT = "All done."


@dataclass
class Recorded:
    """One request the fake received."""

    method: str
    path: str
    body: Any


@dataclass
class FakeResponsesAPI:
    commands: Sequence[str | dict]
    """Each a command, or exec_command's whole arguments (``{"cmd": …, "sandbox_permissions": …}``)."""
    requests: list[Recorded] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __enter__(self) -> "FakeResponsesAPI":
        api = self

        class Handler(_Handler):
            fake = api

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    @property
    def base_url(self) -> str:
        assert self._server is not None, "the fake is not serving"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def record(self, method: str, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append(Recorded(method, path, body))

    def model_requests(self) -> list[dict]:
        with self._lock:
            return [r.body for r in self.requests if r.path.endswith("/responses") and isinstance(r.body, dict)]

    def outputs(self) -> list[str]:
        """The text of every tool result Codex sent back (the last request holds them all)."""
        requests = self.model_requests()
        if not requests:
            return []
        return [_output_text(item.get("output")) for item in _input_items(requests[-1])
                if item.get("type") == "function_call_output"]

    def answer(self, body: dict) -> list[tuple[str, dict]]:
        """The events answering one ``/responses`` request."""
        done = sum(1 for item in _input_items(body) if item.get("type") == "function_call_output")
        tools = {t.get("name") for t in body.get("tools") or () if isinstance(t, dict)}
        n = len(self.model_requests())
        if done < len(self.commands) and tools & {"exec_command", "shell"}:
            command = self.commands[done]
            extra = {} if isinstance(command, str) else dict(command)
            command = extra.pop("cmd") if extra else command
            if "exec_command" in tools:
                name, arguments = "exec_command", {"cmd": command, **extra}
            else:
                name, arguments = "shell", {"command": ["bash", "-lc", command]}
            item = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": name,
                    "arguments": json.dumps(arguments)}
        else:
            item = {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": FINAL_TEXT, "annotations": []}]}
        rid = f"resp_{n}"
        return [
            ("response.created", {"type": "response.created", "response": {"id": rid}}),
            ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0,
                                            "item": item}),
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0,
                                           "item": item}),
            ("response.completed", {"type": "response.completed", "response": {
                "id": rid, "usage": {"input_tokens": 10, "input_tokens_details": None, "output_tokens": 5,
                                     "output_tokens_details": None, "total_tokens": 15}}}),
        ]


def _input_items(body: dict) -> list[dict]:
    items = body.get("input")
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def _output_text(output: Any) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, list):  # content items
        return "".join(str(part.get("text", "")) for part in output if isinstance(part, dict))
    return json.dumps(output)


class _Handler(BaseHTTPRequestHandler):
    fake: FakeResponsesAPI
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet: pytest shows the test's own output
        pass

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return raw.decode("utf-8", "replace")

    def _json(self, status: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self.fake.record("GET", self.path, None)
        self._json(200, {"models": [], "data": []} if "/models" in self.path else {})

    def do_POST(self) -> None:
        body = self._body()
        path = self.path.split("?", 1)[0]
        self.fake.record("POST", path, body)
        if not path.endswith("/responses") or not isinstance(body, dict):
            self._json(200, {})
            return
        stream = b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
                          for name, data in self.fake.answer(body))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(stream)))
        self.end_headers()
        self.wfile.write(stream)
