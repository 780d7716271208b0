"""Tier 2.5: scripts a person trusted, by the SHA-256 of their content (the store and the checker)."""
