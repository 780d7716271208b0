"""The backend object for a configuration: Anthropic or any OpenAI-compatible server.

Neither backend module imports its SDK until it sends a request, so building one is cheap.
"""
from __future__ import annotations

from phlegyas.ai.llm.anthropic_backend import AnthropicBackend
from phlegyas.ai.llm.base import BackendConfig, LLMBackend, backend_config
from phlegyas.ai.llm.openai_backend import OpenAIBackend


def make_backend(config: BackendConfig) -> LLMBackend:
    """The backend object for ``config`` (no SDK is imported until it sends a request)."""
    if config.provider == "openai":
        return OpenAIBackend(config)
    return AnthropicBackend(config)


def backend_from_settings(settings) -> LLMBackend | None:
    """``make_backend(backend_config(settings))``, or None when Tier 3 is off."""
    config = backend_config(settings)
    return make_backend(config) if config is not None else None
