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
from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

from fake_api_base import FakeHandler, FakeServer, named_events

MODEL = "fake-model"
FINAL_TEXT = "All done."


@dataclass
class FakeResponsesAPI(FakeServer):
    commands: Sequence[str | dict]
    """Each a command, or exec_command's whole arguments (``{"cmd": …, "sandbox_permissions": …}``)."""
    url_path: ClassVar[str] = "/v1"

    def model_requests(self) -> list[dict]:
        return self.bodies(lambda r: r.path.endswith("/responses") and isinstance(r.body, dict))

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


class _Handler(FakeHandler):
    def do_GET(self) -> None:
        self.fake.record("GET", self.path, None)
        self.send_json(200, {"models": [], "data": []} if "/models" in self.path else {})

    def do_POST(self) -> None:
        body = self.read_body(empty=b"null")
        path = self.path.split("?", 1)[0]
        self.fake.record("POST", path, body)
        if not path.endswith("/responses") or not isinstance(body, dict):
            self.send_json(200, {})
            return
        self.send(200, "text/event-stream", named_events(self.fake.answer(body)))


FakeResponsesAPI.handler = _Handler
