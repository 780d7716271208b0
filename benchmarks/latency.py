#!/usr/bin/env python3
"""In-process latency of Gate.decide over the NL2Bash corpus: p50 / p99 / max per call.

The gate is warmed on the first 200 commands and the heap settled (``runtime.settle_heap``, as the
resident hook server does after its warm-up), then every command is decided once and timed with
perf_counter_ns. Figures are per call, on this machine, with default settings. The first line says
whether the analysis ran compiled (a wheel built by ``pip install .``) or as pure Python (an editable
install, as the tests use): run it with the interpreter of the install you want to measure.

On a shared virtual machine one run can be a third slower than the next; ``--runs N`` measures in N
fresh processes, one after the other, and prints each run and the median of their p50 and p99.
(``--repeat`` times the corpus several times in one process; later passes find the caches filled.)

usage: python benchmarks/latency.py [--corpus nl2bash] [--repeat 1] [--runs 1]
"""
from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time

from _common import default_runtime, load_corpus

from phlegyas import analysis_build
from phlegyas.core.model import ToolCall
from phlegyas.runtime import settle_heap


def percentile(sorted_values: list[int], q: float) -> int:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default="nl2bash")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--runs", type=int, default=1, help="fresh processes to measure in (default 1)")
    args = ap.parse_args()
    if args.runs > 1:
        return several_runs(args)
    runtime, project = default_runtime()
    gate = runtime.gate(project)
    calls = [ToolCall("Bash", {"command": r["command"]}, cwd=project) for r in load_corpus(args.corpus)]
    for call in calls[:200]:
        gate.decide(call)
    settle_heap()  # as the resident hook server does after its warm-up
    times: list[int] = []
    for _ in range(args.repeat):
        for call in calls:
            t0 = time.perf_counter_ns()
            gate.decide(call)
            times.append(time.perf_counter_ns() - t0)
    times.sort()
    print(f"analysis: {analysis_build()}")
    us = lambda ns: ns / 1000  # noqa: E731
    print(f"{args.corpus}: {len(times)} calls  p50 {us(percentile(times, 0.50)):.1f} µs  "
          f"p90 {us(percentile(times, 0.90)):.1f} µs  p99 {us(percentile(times, 0.99)):.1f} µs  "
          f"max {us(times[-1]):.1f} µs  mean {us(statistics.fmean(times)):.1f} µs")
    return 0


def several_runs(args: argparse.Namespace) -> int:
    p50s: list[float] = []
    p99s: list[float] = []
    for _ in range(args.runs):
        proc = subprocess.run([sys.executable, __file__, "--corpus", args.corpus, "--repeat", str(args.repeat)],
                              capture_output=True, text=True, check=True)
        print(proc.stdout.rstrip(), flush=True)
        m = re.search(r"p50 ([0-9.]+) µs .* p99 ([0-9.]+) µs", proc.stdout)
        if m is None:
            raise SystemExit(f"cannot read the figures of a run:\n{proc.stdout}{proc.stderr}")
        p50s.append(float(m.group(1)))
        p99s.append(float(m.group(2)))
    print(f"{args.corpus}: median of {args.runs} runs  p50 {statistics.median(p50s):.1f} µs "
          f"(range {min(p50s):.1f}-{max(p50s):.1f})  p99 {statistics.median(p99s):.1f} µs "
          f"(range {min(p99s):.1f}-{max(p99s):.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
