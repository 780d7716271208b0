"""Estimated cost of a Tier 3 request from its token counts: a small table of list prices.

Prices are US dollars per million tokens (input, output), as published by the providers; a model
that is not in the table (a local model, a new release) has no cost estimate (None), though its
tokens are still counted. A dated snapshot (``claude-haiku-4-5-20251001``, ``gpt-4o-mini-2024-07-18``)
is priced as its alias.
"""
from __future__ import annotations

import re

PRICES_PER_MTOK: dict[str, tuple[float, float]] = {
    "claude-haiku-4-5": (1.00, 5.00),
    "claude-sonnet-4-5": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-opus-4-5": (5.00, 25.00),
    "claude-opus-4-1": (15.00, 75.00),
    "claude-opus-4": (15.00, 75.00),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-3-haiku": (0.25, 1.25),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1": (2.00, 8.00),
}

_SNAPSHOT = re.compile(r"-(?:\d{8}|\d{4}-\d{2}-\d{2})$")


def price_of(model: str) -> tuple[float, float] | None:
    """(input, output) dollars per million tokens for ``model``, or None when unknown."""
    name = _SNAPSHOT.sub("", model.strip().lower())
    if name.endswith("-latest"):
        name = name[: -len("-latest")]
    return PRICES_PER_MTOK.get(name)


def estimate_cost(model: str, input_tokens: int | None, output_tokens: int | None) -> float | None:
    """Dollars for one request, or None when the model's price or the token counts are unknown."""
    price = price_of(model)
    if price is None or input_tokens is None or output_tokens is None:
        return None
    return round((input_tokens * price[0] + output_tokens * price[1]) / 1_000_000, 8)
