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
from dataclasses import dataclass
from typing import Sequence

from fake_api_base import FakeHandler, FakeServer, data_events

MODEL = "gemini-2.5-flash"
FINAL_TEXT = "All done."


@dataclass
class FakeGeminiAPI(FakeServer):
    script: Sequence[tuple[str, dict]]

    def main_requests(self) -> list[dict]:
        """The bodies of the main-loop requests (those that offered one of the script's tools)."""
        names = {name for name, _ in self.script}
        return self.bodies(lambda r: isinstance(r.body, dict) and bool(names & _offered(r.body)))

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


class _Handler(FakeHandler):
    def do_GET(self) -> None:
        self.fake.record("GET", self.path, None)
        self.send(404, "application/json", b'{"error": {"code": 404, "message": "fake", "status": "NOT_FOUND"}}')

    def do_POST(self) -> None:
        body = self.read_body()
        self.fake.record("POST", self.path, body)
        path = self.path.split("?")[0]
        if path.endswith(":countTokens"):
            self.send(200, "application/json", b'{"totalTokens": 10}')
        elif path.endswith(":streamGenerateContent") and isinstance(body, dict):
            self.send(200, "text/event-stream", data_events([self.fake.answer(body)]))
        elif path.endswith(":generateContent") and isinstance(body, dict):
            self.send(200, "application/json", json.dumps(self.fake.answer(body)).encode())
        else:
            self.send(404, "application/json", b'{"error": {"code": 404, "message": "fake", "status": "NOT_FOUND"}}')


FakeGeminiAPI.handler = _Handler
