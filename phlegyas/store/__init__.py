"""Stores shared across processes: pending approvals, the Tier 3 cache and the audit log (SQLite and
JSONL files by default), and atomic file writes."""
