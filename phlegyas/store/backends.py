"""Which store backend the settings name: SQLite files in the data directory today."""
from __future__ import annotations

from phlegyas.store.approvals import ApprovalStore
from phlegyas.store.sqlite import SQLiteApprovalStore, default_path


def open_store(settings) -> ApprovalStore:
    """The approvals store the settings name: SQLite at ``<data_dir>/approvals.sqlite3``."""
    return SQLiteApprovalStore(default_path(settings.data_dir))
