"""Language-model backends for Tier 3, behind one small protocol.

``LLMBackend.complete(request) -> LLMReply`` is the only method: send one system prompt and one user
message, force a structured answer that follows ``request.schema``, and report the tokens used. Two
backends exist: Anthropic (the official ``anthropic`` SDK, a forced tool) and any OpenAI-compatible
server (the official ``openai`` SDK, ``response_format`` with a JSON schema), so a local model served
by Ollama, vLLM or llama.cpp works with no cloud at all.

This module imports no SDK: ``backend_from_settings`` only builds a backend object, and a backend
imports its SDK the first time it sends a request. The hook's fast path never pays for it.

``base`` holds the shared types and the configuration, ``backends`` builds a backend.
"""
