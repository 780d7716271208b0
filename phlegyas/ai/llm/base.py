"""What every Tier 3 backend shares: the request, the reply, the error, the protocol and its configuration.

``LLMBackend.complete(request) -> LLMReply`` is the only method (the package docstring says more);
``backend_config(settings)`` says which backend the settings ask for, ``off_reason`` why none.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

DEFAULT_TIMEOUT_SECONDS = 10.0
DEFAULT_MAX_RETRIES = 1
NO_KEY_PLACEHOLDER = "not-needed"  # OpenAI-compatible local servers ignore the key; the SDK wants one

OFF_NOTE = ("Tier 3 (AI) is off: set ANTHROPIC_API_KEY or PHLEGYAS_LLM_PROVIDER=openai with "
            "PHLEGYAS_LLM_BASE_URL")


@dataclass(frozen=True)
class LLMRequest:
    """One question to the model: instructions, the untrusted material, the answer's JSON schema."""

    system: str
    user: str
    schema: dict[str, Any]
    answer_name: str = "record_verdict"
    answer_description: str = "Record the verdict on the tool call."
    max_tokens: int = 600


@dataclass(frozen=True)
class LLMReply:
    """What came back. ``answer`` is the structured object, or None with ``problem`` saying why."""

    answer: dict[str, Any] | None
    model: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    problem: str | None = None


class LLMError(Exception):
    """The request failed (timeout, connection, HTTP status, unreadable body). The message is short
    and names the cause; it goes into the decision's reason."""


class LLMBackend(Protocol):
    """Anything that can answer an ``LLMRequest``; ``model`` names the model for the cache and the audit."""

    model: str

    async def complete(self, request: LLMRequest) -> LLMReply: ...


@dataclass(frozen=True)
class BackendConfig:
    """What a backend needs, resolved from the settings."""

    provider: str  # "anthropic" | "openai"
    model: str
    api_key: str
    base_url: str | None
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    max_retries: int = DEFAULT_MAX_RETRIES
    stream: bool = False


def backend_config(settings) -> BackendConfig | None:
    """The backend the settings ask for, or None when Tier 3 is off (see ``off_reason``).

    Anthropic: ``ANTHROPIC_API_KEY``; model ``PHLEGYAS_LLM_MODEL`` else ``CLAUDE_MODEL``; base URL
    ``PHLEGYAS_LLM_BASE_URL`` else ``ANTHROPIC_BASE_URL`` else the SDK's default.
    OpenAI-compatible: ``PHLEGYAS_LLM_PROVIDER=openai`` with ``PHLEGYAS_LLM_MODEL`` and either
    ``PHLEGYAS_LLM_BASE_URL`` (a local server; ``OPENAI_API_KEY`` optional) or ``OPENAI_API_KEY``.
    """
    if off_reason(settings) is not None:
        return None
    timeout = float(getattr(settings, "llm_timeout_seconds", DEFAULT_TIMEOUT_SECONDS))
    if settings.llm_provider == "openai":
        return BackendConfig("openai", settings.llm_model, settings.openai_api_key or NO_KEY_PLACEHOLDER,
                             settings.llm_base_url, timeout)
    return BackendConfig("anthropic", settings.llm_model or settings.claude_model, settings.anthropic_api_key,
                         settings.llm_base_url or settings.anthropic_base_url, timeout)


def off_reason(settings) -> str | None:
    """Why Tier 3 is off with these settings (a one-line note for the user), or None when it is on."""
    if settings.llm_provider == "openai":
        if not (settings.llm_base_url or settings.openai_api_key):
            return OFF_NOTE
        if not settings.llm_model:
            return "Tier 3 (AI) is off: set PHLEGYAS_LLM_MODEL to the model the OpenAI-compatible server runs"
        return None
    if not settings.anthropic_api_key:
        return OFF_NOTE
    return None
