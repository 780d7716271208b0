"""``phlegyas doctor``'s look at Tier 3: on or off, with which backend and model, and why not.

No request is sent (it would cost money and time): a key that is set is reported as "set", never
shown, and not verified. Tier 3 off is a warning, not a problem: the calls the earlier tiers leave open
then go to a person, which is a valid way to run. It is a problem when Tier 3 was clearly meant to be on
(a provider, model or base URL is configured) but cannot be, or when the SDK its backend needs is
missing.
"""
from __future__ import annotations

from importlib.util import find_spec

from phlegyas.ai.llm.base import OFF_NOTE, backend_config, off_reason
from phlegyas.core.health import Check, ok, problem, warning

NAME = "Tier 3 (AI)"
SDKS = {"anthropic": "anthropic", "openai": "openai"}
"""The SDK each backend imports when it sends a request (the ``ai`` extra installs both)."""


def tier3_check(settings) -> Check:
    reason = off_reason(settings)
    if reason is not None:
        return _off(settings, reason)
    config = backend_config(settings)
    sdk = SDKS[config.provider]
    if find_spec(sdk) is None:
        return problem(NAME, f"on ({config.provider}, model {config.model}) but the {sdk} SDK is not installed: "
                             "every call that reaches Tier 3 goes to a person", "pip install 'phlegyas[ai]'")
    key = _key_state(settings, config.provider)
    described = settings.describe()  # URLs without their credentials
    url = described.get("llm_base_url") or (described.get("anthropic_base_url") if config.provider == "anthropic" else None)
    where = f", base URL {url}" if url else ""
    return ok(NAME, f"on: {config.provider} backend, model {config.model}{where}, {key} "
                    f"(not contacted: doctor sends no request)")


def _off(settings, reason: str) -> Check:
    if settings.llm_provider == "openai":
        missing = ("PHLEGYAS_LLM_MODEL is not set" if settings.llm_base_url or settings.openai_api_key
                   else "neither PHLEGYAS_LLM_BASE_URL nor OPENAI_API_KEY is set")
        return problem(NAME, f"off: PHLEGYAS_LLM_PROVIDER=openai but {missing}", reason.split(": ", 1)[-1])
    why = "off: the ANTHROPIC_API_KEY environment variable is not set"
    consequence = ("; the calls the rules and Tiers 1, 2 and 2.5 leave open go to a person "
                   "(Claude Code's dialog, or the approvals queue)")
    fix = OFF_NOTE.split(": ", 1)[-1] + " (or leave it off: a person decides those calls)"
    if settings.llm_model or settings.llm_base_url:
        return problem(NAME, why + ", though PHLEGYAS_LLM_MODEL or PHLEGYAS_LLM_BASE_URL is" + consequence, fix)
    return warning(NAME, why + consequence, fix)


def _key_state(settings, provider: str) -> str:
    if provider == "anthropic":
        return "ANTHROPIC_API_KEY set"
    return "OPENAI_API_KEY set" if settings.openai_api_key else "no API key (a local server)"

