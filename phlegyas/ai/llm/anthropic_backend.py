"""Anthropic backend: the official ``anthropic`` SDK, ``AsyncAnthropic``, a forced tool for the answer.

The answer comes back as the input of a tool the model is forced to call (``tool_choice`` names
it), so only that object is read: any text the model writes around it is ignored. The SDK is
imported on the first request.
"""
from __future__ import annotations

from typing import Any

from phlegyas.ai.llm._errors import translate
from phlegyas.ai.llm.base import BackendConfig, LLMError, LLMReply, LLMRequest


class AnthropicBackend:
    """``complete()`` sends one Messages request (streamed when ``config.stream``)."""

    def __init__(self, config: BackendConfig):
        self.config = config
        self.model = config.model

    async def complete(self, request: LLMRequest) -> LLMReply:
        import anthropic  # the optional SDK (phlegyas[ai]), loaded by the first request

        config = self.config
        try:
            async with anthropic.AsyncAnthropic(api_key=config.api_key, base_url=config.base_url,
                                                timeout=config.timeout_seconds,
                                                max_retries=config.max_retries) as client:
                message = await self._send(client, request)
        except LLMError:
            raise
        except Exception as exc:  # noqa: BLE001 - every failure becomes a reason, never a crash
            raise translate(anthropic, exc, timeout=config.timeout_seconds) from exc
        return _reply(message, request.answer_name, self.model)

    async def _send(self, client, request: LLMRequest):
        params = dict(
            model=self.model,
            max_tokens=request.max_tokens,
            system=request.system,
            messages=[{"role": "user", "content": request.user}],
            tools=[{"name": request.answer_name, "description": request.answer_description,
                    "input_schema": request.schema}],
            tool_choice={"type": "tool", "name": request.answer_name},
        )
        if not self.config.stream:
            return await client.messages.create(**params)
        async with client.messages.stream(**params) as stream:
            return await stream.get_final_message()


def _reply(message: Any, tool_name: str, model: str) -> LLMReply:
    usage = getattr(message, "usage", None)
    tokens = dict(input_tokens=_int(getattr(usage, "input_tokens", None)),
                  output_tokens=_int(getattr(usage, "output_tokens", None)))
    model = getattr(message, "model", None) or model
    content = getattr(message, "content", None)
    if not isinstance(content, list):
        return LLMReply(None, model, problem="malformed answer: the response has no content", **tokens)
    for block in content:
        if getattr(block, "type", None) == "tool_use" and getattr(block, "name", None) == tool_name:
            answer = getattr(block, "input", None)
            if isinstance(answer, dict):
                return LLMReply(answer, model, **tokens)
            return LLMReply(None, model, problem="malformed answer: the tool input is not an object", **tokens)
    return LLMReply(None, model, problem=f"malformed answer: the model did not call {tool_name}", **tokens)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
