"""Tier 3: a language model judges the calls the earlier tiers left open (the checker and its backends)."""
