#!/usr/bin/env python3
"""The audit-log index (``phlegyas.store.audit_index``) on a large generated log: build time, an
incremental refresh, and the latency of every query the dashboard makes.

A realistic log is written into a temporary directory (``--lines``, default 1,000,000): 90 days of
varied tools, decisions, tiers and commands from thousands of sessions, with subagents, Tier 3 usage,
requests answered on the CLI or in Slack, and a few concurrent writers' out-of-order timestamps.
Lines are written with ``encode_entry``, in ``audit_entry``'s field order (without its redaction,
for speed). Then the index is built from nothing, 1,000 lines are appended and refreshed, and each
query is timed: the median of ``--runs`` (default 20) calls, in milliseconds.

usage: python benchmarks/audit_index.py [--lines 1000000] [--runs 20] [--keep DIR]
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta, timezone
from typing import Callable

from phlegyas.store.audit import encode_entry, format_timestamp
from phlegyas.store.audit_index import AuditIndex

END = datetime(2026, 11, 5, tzinfo=timezone.utc)
SPAN_DAYS = 90
PROJECTS = [f"/home/dev{i % 7}/src/project-{i}" for i in range(40)]
PROGRAMS = [
    ("git status", 9), ("git diff --stat", 5), ("git log --oneline -20", 4), ("git add -A", 3),
    ('git commit -m "fix: {word} handling"', 3), ("git push origin {branch}", 2), ("git checkout -b {branch}", 1),
    ("npm run storybook --port {port}", 2), ("npm test", 4), ("npm run build", 3), ("npm install {pkg}", 2),
    ("pytest -x tests/test_{word}.py", 5), ("pytest -q", 3), ("python -m pytest tests/ -k {word}", 2),
    ("make build", 2), ("make -j4 test", 2), ("cargo test --release", 2), ("cargo build", 2),
    ("docker compose up -d {word}", 1), ("docker ps -a", 1), ("ls -la {dir}", 5), ("cat {dir}/README.md", 3),
    ("rm -rf {dir}/build", 2), ("curl -s https://api.{word}.com/v1/status", 1),
    ("python scripts/{word}.py --dry-run", 2),
    ("cd {dir} && npm test", 3), ("grep -rn {word} src | head -20", 3), ("pip install {pkg}", 1),
    ("kubectl get pods -n {word}", 1), ("terraform plan -out tf.plan", 1), ("sudo apt-get install -y {pkg}", 1),
    ("find . -name '*.py' -newer setup.py", 1), ("echo $PATH", 1), ("./gradlew assemble{word}", 1),
]
WORDS = ["parser", "auth", "billing", "cache", "search", "storybook", "login", "upload", "metrics", "queue", "render",
         "config", "payments", "session", "export", "import", "sync", "router"]
TOOLS = [("Bash", 55), ("Read", 15), ("Edit", 8), ("Write", 3), ("Grep", 5), ("Glob", 4), ("WebFetch", 3),
         ("WebSearch", 1), ("Task", 1), ("mcp", 5)]
MCP_TOOLS = [f"mcp__{srv}__{op}" for srv in ("github", "linear", "postgres", "slack") for op in
             ("list", "get", "create", "update", "query")]
OUTCOMES = [  # (decision, tier, reason, weight)
    ("allow", "tier2_safe", "read-only command: {gist}", 55), ("allow", "rules", "allowed by rule Bash({word} *)", 9),
    ("allow", "tier3_ai", "Tier 3 (AI): routine project work (confidence 0.93)", 4),
    ("allow", "tier2_5_trusted", "trusted script (content hash matches)", 2), ("allow", "mode", "bypassPermissions", 3),
    ("ask", "fallback", "no tier could decide: a person must", 10), ("ask", "protected_path", "writes under .git/", 2),
    ("ask", "tier3_ai", "Tier 3 (AI) is not sure (confidence 0.55)", 2),
    ("ask", "rules", "ask rule Bash(git push *)", 1),
    ("deny", "tier1_dangerous", "deletes a directory tree recursively: {gist}", 5),
    ("deny", "rules", "denied by rule Bash(sudo *)", 2), ("deny", "tier3_ai", "Tier 3 (AI): exfiltrates data", 1),
    ("deny", "fallback", "no human could be asked", 2), ("deny", "error", "internal error: parse timeout", 1),
]


def _pick(rng: random.Random, table: list) -> tuple:
    return rng.choices(table, weights=[row[-1] for row in table])[0]


class Generator:
    def __init__(self, seed: int = 7):
        self.rng = random.Random(seed)
        self.sessions = [str(uuid.UUID(int=self.rng.getrandbits(128))) for _ in range(8)]
        self.pending: list[tuple[datetime, str, dict]] = []

    def _input(self, tool: str, cwd: str) -> tuple[str, dict]:
        rng, word = self.rng, self.rng.choice(WORDS)
        if tool == "Bash":
            template = _pick(rng, PROGRAMS)[0]
            command = template.format(word=word, branch=f"feature/{word}-{rng.randrange(100)}",
                                      port=rng.choice((6006, 3000, 8080)),
                                      pkg=rng.choice(("requests", "left-pad", "zod")),
                                      dir=rng.choice(("src", "web", "docs", "packages/core")))
            return tool, {"command": command, "description": f"{word} step"}
        if tool in ("Read", "Edit", "Write"):
            path = f"{cwd}/{rng.choice(('src', 'tests', 'docs'))}/{word}/{rng.choice(WORDS)}.py"
            extra = ({"old_string": "a", "new_string": "b"} if tool == "Edit" else
                     {"content": "x" * 40} if tool == "Write" else {})
            return tool, {"file_path": path, **extra}
        if tool in ("Grep", "Glob"):
            return tool, {"pattern": f"def {word}" if tool == "Grep" else "**/*.py", "path": f"{cwd}/src"}
        if tool == "WebFetch":
            return tool, {"url": f"https://{rng.choice(('docs.python.org', 'github.com', 'example.com'))}/{word}",
                          "prompt": "summarize"}
        if tool == "WebSearch":
            return tool, {"query": f"how to fix {word} error"}
        if tool == "Task":
            return tool, {"description": f"review {word}", "prompt": f"Review the {word} module"}
        return rng.choice(MCP_TOOLS), {"query": f"{word} issues", "limit": 20}

    def entry(self, moment: datetime) -> dict:
        rng = self.rng
        if rng.random() < 0.002:
            self.sessions[rng.randrange(len(self.sessions))] = str(uuid.UUID(int=rng.getrandbits(128)))
        session = rng.choice(self.sessions)
        cwd = PROJECTS[hash(session) % len(PROJECTS)]
        tool, tool_input = self._input(_pick(rng, TOOLS)[0], cwd)
        decision, tier, reason, _ = _pick(rng, OUTCOMES)
        gist = str(next(iter(tool_input.values())))[:80]
        extra: dict = {}
        if tier == "tier3_ai":
            cached = rng.random() < 0.3
            extra["tier3"] = {"cached": cached, "cost_usd": 0.0 if cached else round(rng.uniform(0.0005, 0.01), 6),
                              "input_tokens": 0 if cached else rng.randrange(800, 4000),
                              "output_tokens": 0 if cached else rng.randrange(20, 200), "model": "claude-haiku-4-5",
                              "latency_ms": round(rng.uniform(300, 2500), 1)}
        if decision == "ask" and rng.random() < 0.1:  # a request a person answers later
            rid = str(uuid.UUID(int=rng.getrandbits(128)))
            tier, reason = "human", f"waiting for a human decision (request {rid})"
            extra["human"] = {"request_id": rid, "status": "pending", "approver_id": None}
            self.pending.append((moment + timedelta(seconds=rng.expovariate(1 / 40)), rid, tool_input))
        return _entry(moment, tool, tool_input, decision, tier, reason.format(gist=gist, word=gist.split(" ")[0]),
                      session, rng.random() < 0.1 and f"agent-{rng.randrange(60)}" or None, cwd, extra,
                      confidence=0.9 if tier == "tier3_ai" else None)

    def answers(self, moment: datetime) -> list[dict]:
        """The requests whose answer is due by ``moment``: Slack clicks (with the wait) or CLI answers."""
        due = [p for p in self.pending if p[0] <= moment]
        self.pending = [p for p in self.pending if p[0] > moment]
        out = []
        for when, rid, tool_input in due:
            approve = self.rng.random() < 0.8
            status = "approved" if approve else "denied"
            extra = {"human": {"request_id": rid, "status": status, "approver_id": "U0123", "via": "slack"}}
            tier = "human"
            if self.rng.random() < 0.6:
                tier = "tier3_slack_approved" if approve else "tier3_slack_denied"
                extra["slack"] = {"user_id": "U0123", "wait_seconds": round(self.rng.expovariate(1 / 40), 3)}
            out.append(_entry(when, "Bash", tool_input, "allow" if approve else "deny", tier,
                              f"{status} by U0123", self.sessions[0], None, PROJECTS[0], extra))
        return out


def _entry(moment, tool, tool_input, decision, tier, reason, session, agent, cwd, extra, confidence=None) -> dict:
    return {"timestamp": format_timestamp(moment), "tool_name": tool, "input": tool_input, "decision": decision,
            "tier": tier, "reason": reason, "confidence": confidence, "session_id": session, "agent_id": agent,
            "cwd": cwd, "mode": "default", "rule": None, "findings": [], "elapsed_us": 180, **extra}


def generate(path: str, lines: int, *, start: datetime, end: datetime, seed: int = 7) -> None:
    gen = Generator(seed)
    step = (end - start).total_seconds() / max(1, lines)
    moment = start
    written = 0
    with open(path, "ab") as out:
        while written < lines:
            moment += timedelta(seconds=gen.rng.expovariate(1 / step))
            jitter = timedelta(seconds=-gen.rng.uniform(0, 2)) if gen.rng.random() < 0.01 else timedelta()
            batch = [gen.entry(moment + jitter)] + gen.answers(moment)
            for entry in batch[:lines - written]:
                out.write(encode_entry(entry))
            written += min(len(batch), lines - written)


def median_ms(call: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--keep", metavar="DIR",
                    help="write the log and the index here and keep them (default: a temporary directory)")
    args = ap.parse_args()
    workdir = args.keep or tempfile.mkdtemp(prefix="phlegyas-audit-index-")
    os.makedirs(workdir, exist_ok=True)
    log = os.path.join(workdir, "audit.jsonl")
    try:
        return run(log, args.lines, args.runs)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


def run(log: str, lines: int, runs: int) -> int:
    start = END - timedelta(days=SPAN_DAYS)
    if os.path.exists(log):
        os.unlink(log)
    index_file = os.path.join(os.path.dirname(log), "audit.index.sqlite3")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(index_file + suffix):
            os.unlink(index_file + suffix)
    began = time.perf_counter()
    generate(log, lines, start=start, end=END)
    took = time.perf_counter() - began
    print(f"log: {lines:,} lines, {os.path.getsize(log) / 2**20:,.0f} MiB, generated in {took:.1f} s")

    index = AuditIndex(log)
    began = time.perf_counter()
    built = index.refresh()
    took = time.perf_counter() - began
    print(f"full build: {built:,} rows in {took:.1f} s ({built / took:,.0f} rows/s)")

    generate(log, 1000, start=END, end=END + timedelta(minutes=30), seed=8)
    began = time.perf_counter()
    added = index.refresh()
    print(f"incremental refresh: +{added:,} rows in {(time.perf_counter() - began) * 1000:.0f} ms")
    print(f"refresh with nothing new: {median_ms(index.refresh, runs) * 1000:.0f} µs")

    cursor = None
    for _ in range(99):
        cursor = index.search(before=cursor).next_before
    week = (END - timedelta(days=7)).timestamp() + 1234.5
    session = index.search(limit=1).rows[0].session_id
    old = (start + timedelta(days=10)).timestamp() + 600
    queries: list[tuple[str, Callable[[], object]]] = [
        ("history: first page", lambda: index.search()),
        ("filtered page (tier + tool)", lambda: index.search(tier="tier1_dangerous", tool="Bash")),
        ("filtered page (decision)", lambda: index.search(decision="deny")),
        ("filtered page (rare: tier3_ai_deny + mcp)", lambda: index.search(tier="tier3_ai_deny", tool=MCP_TOOLS[0])),
        ("filtered page (session)", lambda: index.search(session=session)),
        ("filtered page (last 7 days, deny)", lambda: index.search(since=week, decision="deny")),
        ("text search (storybook)", lambda: index.search(text="storybook")),
        ("text search (common: git)", lambda: index.search(text="git")),
        ("text search (two words)", lambda: index.search(text="npm test")),
        ("text search + filter (git, deny)", lambda: index.search(text="git", decision="deny")),
        ("text search, no match", lambda: index.search(text="zzzyzzx")),
        ("text + filter never together (read-only, deny)", lambda: index.search(text="read-only", decision="deny")),
        ("text + session", lambda: index.search(text="git", session=session)),
        ("text, a 1-hour window 80 days ago", lambda: index.search(text="git", since=old, until=old + 3600)),
        ("page 100 via keyset", lambda: index.search(before=cursor)),
        ("facets", index.facets),
        ("timeline (day, everything)", lambda: index.timeline(bucket="day")),
        ("timeline (hour, last 7 days)", lambda: index.timeline(bucket="hour", since=week)),
        ("timeline (hour, everything: 2,000+ points)", lambda: index.timeline()),
        ("totals (everything)", index.totals),
        ("totals (last 7 days)", lambda: index.totals(since=week)),
        ("asked_shapes", index.asked_shapes),
        ("asked_shapes (last 7 days)", lambda: index.asked_shapes(since=week)),
        ("human_waits", index.human_waits),
        ("tier3_usage (day)", index.tier3_usage),
        ("entry", lambda: index.entry(built // 2)),
    ]
    width = max(len(name) for name, _ in queries)
    slowest = 0.0
    for name, call in queries:
        ms = median_ms(call, runs)
        slowest = max(slowest, ms)
        print(f"  {name:<{width}}  {ms:8.2f} ms")
    size = sum(os.path.getsize(index_file + s) for s in ("", "-wal") if os.path.exists(index_file + s))
    print(f"index file: {size / 2**20:,.0f} MiB ({size / max(1, built):.0f} bytes a row)")
    index.close()
    return 0 if slowest < 100 else 1


if __name__ == "__main__":
    sys.exit(main())
