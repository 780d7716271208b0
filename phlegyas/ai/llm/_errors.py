"""Turn an SDK exception into a short ``LLMError`` that says what went wrong.

Both official SDKs share one exception hierarchy (``APITimeoutError`` < ``APIConnectionError`` <
``APIError``; ``APIStatusError`` with ``status_code``), so one translation serves both; the SDK
module is passed in so that nothing here imports it.
"""
from __future__ import annotations

from phlegyas.ai.llm.base import LLMError

MAX_DETAIL = 200


def translate(sdk, exc: BaseException, *, timeout: float) -> LLMError:
    """The ``LLMError`` for ``exc`` raised by ``sdk`` (the ``anthropic`` or ``openai`` module)."""
    if isinstance(exc, sdk.APITimeoutError):
        return LLMError(f"timed out after {timeout:g} s")
    if isinstance(exc, sdk.APIConnectionError):
        return LLMError(f"connection error: {_short(exc)}")
    if isinstance(exc, sdk.RateLimitError):
        return LLMError(f"rate limited (HTTP 429): {_short(exc)}")
    if isinstance(exc, sdk.APIStatusError):
        return LLMError(f"HTTP {exc.status_code}: {_short(exc)}")
    if isinstance(exc, sdk.APIError):
        return LLMError(f"unreadable response: {_short(exc)}")
    return LLMError(f"unreadable response: {type(exc).__name__}: {_short(exc)}")


def _short(exc: BaseException) -> str:
    text = " ".join(str(_api_message(exc) or exc or type(exc).__name__).split())
    return text if len(text) <= MAX_DETAIL else text[:MAX_DETAIL - 1] + "…"


def _api_message(exc: BaseException) -> str | None:
    """The ``message`` of an API error body (``{"error": {"message": …}}``), when there is one."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return error["message"]
    return None
