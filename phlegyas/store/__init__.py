"""Stores shared across processes: pending approvals and the Tier 3 cache (SQLite by default)."""
