"""Tier 1: environment assignments that are dangerous whatever the command (class ``env.code_injection``).

``LD_PRELOAD=/tmp/x.so ls`` makes every program started load the library first; ``BASH_ENV=/tmp/x`` makes
every non-interactive bash source the file; ``PYTHONPATH=/tmp/evil`` puts a shared temp directory before
the project's modules. Tier 2 already refuses them; a finding keeps them from being allowed by a mode or
a broad allow rule. Commands a variable carries (``GIT_SSH_COMMAND='curl … | sh'``) are expanded as code by
the walk, so the usual detectors see them. Messages name the variable and the path, never other values.
"""
from __future__ import annotations

from typing import Final

from phlegyas.analysis import paths
from phlegyas.analysis.shell import env_vars as V
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Word
from phlegyas.analysis.tier1.base import Out, add, env_for
from phlegyas.analysis.tier1.words import in_project, resolve
from phlegyas.analysis.urls import foreign_code_host, host_of
from phlegyas.core.analysis import AnalysisEnv

_ENV_WRAPPERS: Final = frozenset({"env", "sudo", "doas"})


def assignments_of(inv: Invocation) -> list[tuple[str, Word]]:
    """The prefix assignments of ``inv``'s command, those of ``export``/``declare``, and the ``NAME=value``
    operands ``env`` (or ``sudo``) passes on."""
    pairs = list(inv.command.assignments)
    if inv.program in _ENV_WRAPPERS or inv.program in ("export", "declare", "typeset", "local"):
        for a in inv.args:
            name, eq, value = a.text.partition("=")
            if eq and name.isidentifier():
                pairs.append((name, Word(value, a.dynamic, a.glob, a.quoted)))
            elif inv.program in _ENV_WRAPPERS and not a.text.startswith("-"):
                break
    return pairs


def detect_environment(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    pairs = assignments_of(inv)
    if not pairs:
        return
    env = env_for(inv, env)
    for name, value in pairs:
        if (sent := _keyed_endpoint(name, value)) is not None:
            add(out, "net.exfiltration", inv, sent)
        elif name in V.INJECTION_VARS:
            if value.text.strip() or value.dynamic:
                add(out, "env.code_injection", inv, f"{name} makes every program it starts load "
                                                    f"{_shown(value)} first")
        elif name in V.STARTUP_FILE_VARS:
            if _elsewhere(value, env):
                add(out, "env.code_injection", inv, f"{name} makes the shell or Python run {_shown(value)}, "
                                                    "which is not in the project")
        elif name in V.TIER1_PATH_VARS:
            for part in value.text.split(":"):
                if part and not value.dynamic and paths.is_temp_path(resolve(part, env)):
                    add(out, "env.code_injection", inv, f"{name} loads code from {part}, a shared temp directory")
                    break


_KEYED_ENDPOINTS: Final = {
    "OPENAI_BASE_URL": "the OpenAI API key", "OPENAI_API_BASE": "the OpenAI API key",
    "ANTHROPIC_BASE_URL": "the Anthropic API key", "AZURE_OPENAI_ENDPOINT": "the Azure OpenAI key",
    "GOOGLE_GEMINI_BASE_URL": "the Gemini API key", "GEMINI_BASE_URL": "the Gemini API key",
    "MISTRAL_BASE_URL": "the Mistral API key", "GROQ_BASE_URL": "the Groq API key",
    "HF_ENDPOINT": "the Hugging Face token", "GITHUB_API_URL": "the GitHub token", "VAULT_ADDR": "the Vault token", "AWS_ENDPOINT_URL": "AWS-signed requests",
    "CONSUL_HTTP_ADDR": "the Consul token", "NOMAD_ADDR": "the Nomad token", "SENTRY_URL": "the Sentry token",
}
"""Variables that tell an SDK or CLI where to send its requests, each with the credential it sends along."""
_KNOWN_APIS: Final = ("openai.com", "anthropic.com", "azure.com", "openrouter.ai", "groq.com", "together.xyz",
                      "mistral.ai", "deepseek.com", "fireworks.ai", "googleapis.com", "x.ai", "perplexity.ai",
                      "cohere.ai", "cohere.com", "huggingface.co", "amazonaws.com", "cloudflare.com", "hf-mirror.com",
                      "sentry.io", "hashicorp.cloud", "ghe.com")
"""Hosts of the providers those variables are set to every day (a gateway, a region, a mirror)."""


def _keyed_endpoint(name: str, value: Word) -> str | None:
    """``OPENAI_BASE_URL=https://evil.example/v1``: the credential that goes to a host that is neither a known
    provider, a forge or registry, nor this machine or a private network; None otherwise."""
    sent = _KEYED_ENDPOINTS.get(name) or (_KEYED_ENDPOINTS["AWS_ENDPOINT_URL"]
                                          if name.startswith("AWS_ENDPOINT_URL_") else None)
    if sent is None or value.dynamic:
        return None
    _, host = host_of(value.text)
    if host is None or any(host == k or host.endswith("." + k) for k in _KNOWN_APIS) or not foreign_code_host(host):
        return None
    return f"{name} sends {sent} with every request to {host}"


def _elsewhere(value: Word, env: AnalysisEnv) -> bool:
    """Computed, in a temp directory, or outside the project."""
    if value.dynamic:
        return True
    if not value.text.strip():
        return False
    path = resolve(value.text, env)
    return paths.is_temp_path(path) or not in_project(path, env)


def _shown(value: Word) -> str:
    return "a computed path" if value.dynamic else (value.text[:80] or "nothing")
