#!/usr/bin/env python3
"""How the gate decides the public corpora in ../shared/corpus, per file and label.

Runs every row through the same path as `phlegyas check --jsonl` (in process, default settings, an
empty home, the project dir as cwd) and prints, per file and label, how many were allowed / asked /
denied. Labelled rows are split as the corpus README says: gtfobins by function (interactive apart),
redcode by risk_type, dcg with and without caveat. Then whether each target (benchmarks/_common.py, which
tests/test_corpus_robustness.py asserts) is met.

usage: python benchmarks/accuracy.py [--show N] [FILE ...]
"""
from __future__ import annotations

import argparse
import collections
import sys
import time

from _common import CORPORA, TARGETS, default_runtime, failed, group_of, load_corpus

from phlegyas.core.model import ToolCall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--show", type=int, default=0, help="print up to N failing rows per group")
    ap.add_argument("files", nargs="*", default=CORPORA)
    args = ap.parse_args()
    runtime, project = default_runtime()
    for name in args.files:
        rows = load_corpus(name)
        counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        fails: dict[str, list] = collections.defaultdict(list)
        errors = 0
        targets = [t for t in TARGETS if t.corpus == name]
        met: dict[str, collections.Counter] = {t.name: collections.Counter() for t in targets}
        started = time.perf_counter()
        for row in rows:
            decision = runtime.decide(ToolCall("Bash", {"command": row["command"]}, cwd=project))
            verdict = str(decision.verdict)
            if decision.tier == "error":
                errors += 1
            for target in targets:
                if target.member(row):
                    met[target.name].update([verdict] + ["error"] * (decision.tier == "error"))
            group = group_of(name, row)
            counts[group][verdict] += 1
            if failed(row, verdict):
                fails[group].append((row, decision))
        seconds = time.perf_counter() - started
        print(f"{name}: {len(rows)} rows, {errors} errors, {len(rows) / seconds:,.0f} rows/s")
        for group in sorted(counts):
            c = counts[group]
            total = sum(c.values())
            print(f"  {group:32s} n={total:5d}  allow {c['allow']:5d}  ask {c['ask']:5d}  deny {c['deny']:5d}"
                  + (f"   failures {len(fails[group])}" if "expect" in rows[0] else ""))
            for row, decision in fails[group][: args.show]:
                print(f"      {row['command'][:90]!r} -> {decision.verdict} ({decision.reason[:70]})")
        for target in targets:
            misses = target.misses(met[target.name])
            print(f"  target {target.name}: {'MISSED: ' + '; '.join(misses) if misses else 'met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
