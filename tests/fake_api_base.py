"""What the loopback fakes of the model APIs (tests/*_fake_api.py) share: the recorded requests, serving on
127.0.0.1 on a free port in a thread (start/stop, or as a context manager), and the handler's plumbing
(quiet logging, reading a JSON body, writing a response, server-sent events).

A fake is a dataclass deriving from ``FakeServer``, its ``handler`` a ``FakeHandler`` subclass that reaches
the fake as ``self.fake``::

    @dataclass
    class FakeXAPI(FakeServer):
        script: Sequence[tuple[str, dict]]
        url_path: ClassVar[str] = "/v1"  # what base_url ends with

    class _Handler(FakeHandler):
        def do_POST(self): ...

    FakeXAPI.handler = _Handler
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, ClassVar, Iterable


@dataclass
class Recorded:
    """One request the fake received."""

    method: str
    path: str
    body: Any


@dataclass
class FakeServer:
    """Records every request and serves ``handler`` on a free loopback port while started."""

    handler: ClassVar[type[FakeHandler]]
    url_path: ClassVar[str] = ""
    requests: list[Recorded] = field(default_factory=list, kw_only=True)
    _server: ThreadingHTTPServer | None = field(default=None, kw_only=True, repr=False)
    _thread: threading.Thread | None = field(default=None, kw_only=True, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, kw_only=True, repr=False)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        handler = type(self.handler.__name__, (self.handler,), {"fake": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
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
        return f"http://127.0.0.1:{self._server.server_address[1]}{self.url_path}"

    def record(self, method: str, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append(Recorded(method, path, body))

    def bodies(self, keep: Callable[[Recorded], bool]) -> list[Any]:
        """The bodies of the recorded requests that ``keep`` selects, in order."""
        with self._lock:
            return [r.body for r in self.requests if keep(r)]


class FakeHandler(BaseHTTPRequestHandler):
    """HTTP/1.1, silent, with ``read_body`` and ``send``; ``extra_headers`` go on every response."""

    fake: Any
    protocol_version = "HTTP/1.1"
    extra_headers: ClassVar[dict[str, str]] = {}

    def log_message(self, format: str, *args) -> None:  # keep test output clean
        pass

    def read_body(self, empty: bytes = b"{}") -> Any:
        """The request's JSON body (``empty`` parsed when there is none); text when it is not JSON."""
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            return json.loads(raw or empty)
        except ValueError:
            return raw.decode("utf-8", "replace")

    def send(self, status: int, content_type: str, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def send_json(self, status: int, body: Any) -> None:
        self.send(status, "application/json", json.dumps(body).encode())


def named_events(events: Iterable[tuple[str, Any]]) -> bytes:
    """Server-sent events with names: ``event: NAME`` and ``data: JSON`` each."""
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events)


def data_events(chunks: Iterable[Any], done: bool = False) -> bytes:
    """Server-sent events of data alone (``data: JSON`` each), ending with ``data: [DONE]`` when ``done``."""
    stream = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks)
    return stream + b"data: [DONE]\n\n" if done else stream


# -- OpenAI chat completions (Copilot CLI's and OpenCode's fakes) ----------------------------------------

def chat_offered(body: dict) -> set:
    """The names of the function tools a chat-completions request offers."""
    return {(t.get("function") or {}).get("name") for t in body.get("tools") or () if isinstance(t, dict)}


def chat_tool_messages(body: dict) -> list[dict]:
    """The ``role: "tool"`` messages of a chat-completions request, in order."""
    return [m for m in body.get("messages") or () if isinstance(m, dict) and m.get("role") == "tool"]


class ChatHandler(FakeHandler):
    """``GET …/models`` lists the fake's ``MODEL`` (``model`` here); other GETs, and POSTs the fake does
    not serve (``not_found``), get OpenAI's 404."""

    model: ClassVar[str] = "fake-model"

    def do_GET(self) -> None:
        self.fake.record("GET", self.path, None)
        if self.path.split("?")[0].endswith("/models"):
            self.send(200, "application/json", json.dumps(
                {"object": "list", "data": [{"id": self.model, "object": "model", "owned_by": "fake"}]}).encode())
        else:
            self.not_found()

    def not_found(self) -> None:
        self.send(404, "application/json", b'{"error": {"message": "fake: not found"}}')
