"""benchmarks/store_roundtrip.py runs end to end with tiny numbers against the suite's PostgreSQL."""
from __future__ import annotations

import json
import subprocess
import sys
from numbers import Real
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "store_roundtrip.py"


def test_store_roundtrip_benchmark_reports_both_backends(postgres_url, tmp_path):
    out = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(BENCHMARK), "--requests", "20", "--audit-rows", "200",
                           "--database-url", postgres_url, "--json", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "backend" in done.stdout and "audit: local JSONL append" in done.stdout
    figures = json.loads(out.read_text())
    assert set(figures["backends"]) == {"sqlite", "postgresql"}
    for name, backend in figures["backends"].items():
        assert backend["requests"] == 20 and backend["approved"] == 20 and backend["failures"] == 0, name
        for group in ("wake_ms", "cycle_ms"):
            for key in ("p50", "p99"):
                assert isinstance(backend[group][key], Real), (name, group, key)
        assert backend["cycles_per_second"] > 0, name
    audit = figures["audit"]
    for key in ("local_append", "postgresql_ship", "postgresql_ship_batch_1"):
        assert audit[key]["rows"] == 200 and audit[key]["rows_per_second"] > 0, key
    assert audit["postgresql_ship"]["batch_rows"] == 500 and audit["postgresql_ship_batch_1"]["batch_rows"] == 1
    assert figures["problems"] == []
    assert figures["machine"]["postgresql"].startswith("PostgreSQL")
