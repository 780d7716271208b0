"""OpenAI-compatible backend: the official ``openai`` SDK, ``AsyncOpenAI``, Chat Completions.

The answer is forced with ``response_format={"type": "json_schema", …}``: OpenAI, vLLM (guided
decoding), llama.cpp's ``llama-server`` (a grammar built from the schema) and Ollama >= 0.5 (the same
grammar engine) all constrain generation to the schema this way, with no tool-calling chat template
needed. Forced function calls (``tool_choice`` naming a function) are less portable: Ollama ignores
``tool_choice``, and llama.cpp needs ``--jinja`` and a template that knows tools. Only the message's
JSON content is read. The SDK is imported on the first request.
"""
from __future__ import annotations

import json
from typing import Any

from phlegyas.ai.llm._errors import translate
from phlegyas.ai.llm.base import BackendConfig, LLMError, LLMReply, LLMRequest


class OpenAIBackend:
    """``complete()`` sends one Chat Completions request (streamed when ``config.stream``)."""

    def __init__(self, config: BackendConfig):
        self.config = config
        self.model = config.model

    async def complete(self, request: LLMRequest) -> LLMReply:
        import openai  # the optional SDK (phlegyas[ai]), loaded by the first request

        config = self.config
        try:
            async with openai.AsyncOpenAI(api_key=config.api_key, base_url=config.base_url,
                                          timeout=config.timeout_seconds,
                                          max_retries=config.max_retries) as client:
                if config.stream:
                    return await self._streamed(client, request)
                completion = await client.chat.completions.create(**self._params(request))
        except LLMError:
            raise
        except Exception as exc:  # noqa: BLE001 - every failure becomes a reason, never a crash
            raise translate(openai, exc, timeout=config.timeout_seconds) from exc
        return _reply(completion, self.model)

    def _params(self, request: LLMRequest) -> dict[str, Any]:
        return dict(
            model=self.model,
            max_tokens=request.max_tokens,
            messages=[{"role": "system", "content": request.system},
                      {"role": "user", "content": request.user}],
            response_format={"type": "json_schema",
                             "json_schema": {"name": request.answer_name, "description": request.answer_description,
                                             "schema": request.schema, "strict": True}},
        )

    async def _streamed(self, client, request: LLMRequest) -> LLMReply:
        stream = await client.chat.completions.create(**self._params(request), stream=True,
                                                      stream_options={"include_usage": True})
        parts: list[str] = []
        model, usage = self.model, None
        async for chunk in stream:
            model = getattr(chunk, "model", None) or model
            usage = getattr(chunk, "usage", None) or usage
            for choice in getattr(chunk, "choices", None) or ():
                piece = getattr(getattr(choice, "delta", None), "content", None)
                if isinstance(piece, str):
                    parts.append(piece)
        return _parse("".join(parts), model, _tokens(usage))


def _reply(completion: Any, model: str) -> LLMReply:
    model = getattr(completion, "model", None) or model
    tokens = _tokens(getattr(completion, "usage", None))
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        return LLMReply(None, model, problem="malformed answer: the response has no choices", **tokens)
    message = getattr(choices[0], "message", None)
    if getattr(message, "refusal", None):
        return LLMReply(None, model, problem="the model refused to answer", **tokens)
    return _parse(getattr(message, "content", None), model, tokens)


def _parse(content: object, model: str, tokens: dict) -> LLMReply:
    if not isinstance(content, str) or not content.strip():
        return LLMReply(None, model, problem="malformed answer: empty message", **tokens)
    try:
        answer = json.loads(content)
    except ValueError:
        return LLMReply(None, model, problem="malformed answer: the message is not JSON", **tokens)
    if not isinstance(answer, dict):
        return LLMReply(None, model, problem="malformed answer: the JSON is not an object", **tokens)
    return LLMReply(answer, model, **tokens)


def _tokens(usage: Any) -> dict:
    return dict(input_tokens=_int(getattr(usage, "prompt_tokens", None)),
                output_tokens=_int(getattr(usage, "completion_tokens", None)))


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
