"""``phlegyas doctor``'s look at Tier 2.5: the trust store parses, and how many scripts it trusts."""
from __future__ import annotations

import os

from phlegyas.core.health import Check, ok, problem, shown
from phlegyas.trust.store import TrustStore, TrustStoreError


def trust_check(path: str, home: str) -> Check:
    name = "trust store"
    where = shown(path, home)
    if not os.path.lexists(path):
        return ok(name, f"{where} not created yet (phlegyas-trust SCRIPT makes it)")
    try:
        entries = TrustStore(path).load()
    except TrustStoreError as exc:
        return problem(name, f"{exc}", f"fix {where} or move it away; `phlegyas-trust --list` reads it")
    return ok(name, f"{where} parses; {len(entries)} trusted script(s)")
