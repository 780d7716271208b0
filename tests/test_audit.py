"""The audit log: entries, redaction on the way in, concurrent writers, reading, stats and --since."""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest

from phlegyas.core.model import Decision, Finding, ToolCall, Verdict
from phlegyas.store.audit import (
    MAX_INPUT_BYTES,
    MAX_TEXT_CHARS,
    AuditError,
    AuditLog,
    MemoryAuditLog,
    audit_entry,
    compute_stats,
    empty_stats,
    format_stats,
    parse_since,
    read_entries,
    seed_tier,
)

NOW = datetime(2026, 11, 5, 12, 30, 0, 123456, tzinfo=timezone.utc)
ANTHROPIC_BODY = "Zq8vK2xW9mR4tY7uB1nC5eH3jL6pA0sD-fG8hJ2kL4zX6cV9bN1mQ3wE5rT7yU_Ab12Cd"
ANTHROPIC = "sk-ant-api03-" + ANTHROPIC_BODY
FIELDS = ["timestamp", "tool_name", "input", "decision", "tier", "reason", "confidence", "session_id",
          "agent_id", "cwd", "mode", "rule", "findings", "elapsed_us"]


def bash(command: str, **kw) -> ToolCall:
    return ToolCall("Bash", {"command": command, "description": "test"}, cwd="/proj", session_id="s-1", **kw)


def deny(reason: str = "dangerous", **kw) -> Decision:
    return Decision(Verdict.DENY, "tier1_dangerous", reason, **kw)


def lines(path) -> list[bytes]:
    with open(path, "rb") as f:
        return f.read().splitlines(keepends=True)


# --- entries -------------------------------------------------------------------------------------

def test_entry_fields_in_order():
    finding = Finding("delete.recursive_root", Verdict.DENY, "rm -rf /", "deletes everything")
    decision = Decision(Verdict.DENY, "tier1_dangerous", "deletes everything", rule="Bash(rm *)",
                        findings=(finding,), elapsed_us=42)
    entry = audit_entry(bash("rm -rf /", agent_id="a-7"), decision, mode="default", now=NOW)
    assert list(entry) == FIELDS
    assert entry == {
        "timestamp": "2026-11-05T12:30:00.123456Z", "tool_name": "Bash",
        "input": {"command": "rm -rf /", "description": "test"}, "decision": "deny",
        "tier": "tier1_dangerous", "reason": "deletes everything", "confidence": None, "session_id": "s-1",
        "agent_id": "a-7", "cwd": "/proj", "mode": "default", "rule": "Bash(rm *)",
        "findings": ["delete.recursive_root"], "elapsed_us": 42,
    }


@pytest.mark.parametrize("tier, confidence, expected", [
    ("tier3_ai", 0.93, 0.93),
    ("tier2_safe", 0.93, None),  # only Tier 3 reports a confidence
    ("tier3_ai", None, None),
    ("tier3_ai", float("nan"), None),
])
def test_confidence_only_for_tier3(tier, confidence, expected):
    decision = Decision(Verdict.ALLOW, tier, "ok", confidence=confidence)
    assert audit_entry(bash("ls"), decision, mode="default", now=NOW)["confidence"] == expected


def test_naive_now_is_utc_and_aware_now_is_converted():
    naive = datetime(2026, 1, 2, 3, 4, 5)
    plus2 = datetime(2026, 1, 2, 5, 4, 5, tzinfo=timezone(timedelta(hours=2)))
    assert audit_entry(bash("ls"), deny(), mode="plan", now=naive)["timestamp"] == "2026-01-02T03:04:05.000000Z"
    assert audit_entry(bash("ls"), deny(), mode="plan", now=plus2)["timestamp"] == "2026-01-02T03:04:05.000000Z"


def test_entry_redacts_input_reason_and_rule():
    call = ToolCall("mcp__db__query", {"sql": "select 1", "password": "hunter2", "dsn": "pg://u:pw9@h/db"})
    decision = deny(f"saw {ANTHROPIC}", rule="Bash(curl -H 'Authorization: Bearer abc123xyz' *)")
    entry = audit_entry(call, decision, mode="default", now=NOW)
    assert entry["input"] == {"sql": "select 1", "password": "[REDACTED:password]",
                              "dsn": "pg://u:[REDACTED:url_password]@h/db"}
    assert entry["reason"] == "saw [REDACTED:anthropic_key]"
    assert entry["rule"] == "Bash(curl -H 'Authorization: Bearer [REDACTED:authorization]' *)"


def test_extra_fields_follow_and_cannot_overwrite():
    usage = {"cached": False, "cost_usd": 0.002, "input_tokens": 900, "output_tokens": 40}
    entry = audit_entry(bash("ls"), deny(), mode="default", now=NOW, extra={"tier3": usage})
    assert list(entry) == FIELDS + ["tier3"]
    assert entry["tier3"] == usage
    with pytest.raises(ValueError, match="decision"):
        audit_entry(bash("ls"), deny(), mode="default", extra={"decision": "allow"})


def test_large_input_is_truncated_to_valid_json(tmp_path):
    log = AuditLog(str(tmp_path / "audit.jsonl"))
    content = "line of text\n" * 20_000  # 260 KB
    log.record(ToolCall("Write", {"file_path": "/proj/big.txt", "content": content}), deny(), mode="default")
    (raw,) = lines(log.path)
    entry = json.loads(raw)
    assert len(json.dumps(entry["input"], ensure_ascii=False, separators=(",", ":")).encode()) <= MAX_INPUT_BYTES
    assert entry["input"]["file_path"] == "/proj/big.txt"
    kept, _, marker = entry["input"]["content"].partition("...[truncated ")
    assert content.startswith(kept) and len(kept) > MAX_INPUT_BYTES // 2
    assert marker == f"{len(content) - len(kept)} chars]"


def test_input_too_wide_to_truncate_gets_a_preview(tmp_path):
    wide = {f"k{i}": i for i in range(20_000)}  # many small fields: cutting strings cannot help
    entry = audit_entry(ToolCall("mcp__x__y", wide), deny(), mode="default", now=NOW)
    assert set(entry["input"]) == {"_truncated", "_preview"}
    assert "larger than the 65536-byte log limit" in entry["input"]["_truncated"]
    assert entry["input"]["_preview"].startswith('{"k0":0,"k1":1')


def test_long_reason_is_truncated():
    entry = audit_entry(bash("ls"), deny("r" * 50_000), mode="default", now=NOW)
    assert entry["reason"] == "r" * MAX_TEXT_CHARS + f"...[truncated {50_000 - MAX_TEXT_CHARS} chars]"


def test_input_just_under_the_limit_is_kept():
    content = "x" * (MAX_INPUT_BYTES - 100)
    entry = audit_entry(ToolCall("Write", {"content": content}), deny(), mode="default", now=NOW)
    assert entry["input"]["content"] == content


# --- writing -------------------------------------------------------------------------------------

def test_anthropic_key_in_a_bash_command_never_reaches_the_file(tmp_path):
    log = AuditLog(str(tmp_path / "audit.jsonl"))
    command = f"curl https://api.anthropic.com/v1/messages -H 'x-api-key: {ANTHROPIC}' -d @req.json"
    log.record(bash(command), deny(f"exfiltration of {ANTHROPIC}"), mode="default")
    data = (tmp_path / "audit.jsonl").read_bytes()
    assert ANTHROPIC_BODY[:12].encode() not in data
    assert b"sk-ant" not in data
    entry = json.loads(data)
    assert entry["input"]["command"] == (
        "curl https://api.anthropic.com/v1/messages -H 'x-api-key: [REDACTED:anthropic_key]' -d @req.json")


def test_file_and_directory_modes(tmp_path):
    path = tmp_path / "state" / "phlegyas" / "audit.jsonl"
    AuditLog(str(path)).record(bash("ls"), deny(), mode="default")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_each_record_appends_one_line(tmp_path):
    log = AuditLog(str(tmp_path / "audit.jsonl"))
    for i in range(3):
        log.record(bash(f"echo {i}"), deny(), mode="default")
    assert [json.loads(raw)["input"]["command"] for raw in lines(log.path)] == ["echo 0", "echo 1", "echo 2"]


def test_newlines_and_undecodable_text_stay_on_one_valid_line(tmp_path):
    log = AuditLog(str(tmp_path / "audit.jsonl"))
    command = "printf 'a\nb\u2028c' caf\u00e9 " + b"\xff\xfe".decode("utf-8", "surrogateescape")
    log.record(bash(command), deny(), mode="default")
    (raw,) = lines(log.path)
    assert raw.endswith(b"\n") and raw.count(b"\n") == 1
    assert json.loads(raw)["input"]["command"] == command


def test_unwritable_path_raises_audit_error_with_path_and_cause(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    path = str(blocker / "audit.jsonl")
    with pytest.raises(AuditError) as err:
        AuditLog(path).record(bash("ls"), deny(), mode="default")
    assert err.value.path == path
    assert isinstance(err.value.cause, NotADirectoryError)
    assert str(err.value) == f"cannot write audit log {path}: Not a directory"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_disk_full_raises_audit_error():
    with pytest.raises(AuditError, match="No space left on device") as err:
        AuditLog("/dev/full").record(bash("ls"), deny(), mode="default")
    assert err.value.path == "/dev/full"


PARTIAL = r"""
import resource, signal, sys
from phlegyas.store.audit import AuditError, AuditLog
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the limit, write() fails with EFBIG instead
resource.setrlimit(resource.RLIMIT_FSIZE, (10_000, 10_000))
log = AuditLog(sys.argv[1])
log.write({"n": 1, "pad": "a" * 6000})
try:
    log.write({"n": 2, "pad": "b" * 6000})  # the kernel writes 4,000 bytes of it, then refuses
except AuditError as exc:
    print(exc)
"""


def test_a_write_cut_short_is_rolled_back(tmp_path):
    path = tmp_path / "audit.jsonl"
    out = subprocess.run([sys.executable, "-c", PARTIAL, str(path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout == f"cannot write audit log {path}: File too large\n"
    (raw,) = lines(path)  # the first line only: the partial second line was cut off again
    assert json.loads(raw)["n"] == 1


def test_unserializable_entry_raises_audit_error(tmp_path):
    log = AuditLog(str(tmp_path / "audit.jsonl"))
    with pytest.raises(AuditError, match="not JSON-serializable"):
        log.write({"when": object()})
    assert not (tmp_path / "audit.jsonl").exists()


def test_a_half_written_line_does_not_swallow_the_next_entry(tmp_path):
    path = tmp_path / "audit.jsonl"
    log = AuditLog(str(path))
    log.record(bash("echo before"), deny(), mode="default")
    with open(path, "ab") as f:
        f.write(b'{"timestamp": "2026-11-05T12:00:00Z", "tool_na')  # a writer killed mid-line
    log.record(bash("echo after"), deny(), mode="default")
    reader = read_entries(str(path))
    assert [e["input"]["command"] for e in reader] == ["echo before", "echo after"]
    assert reader.corrupt_lines == 1


def test_memory_log_holds_the_same_entries_as_the_file(tmp_path):
    memory, log = MemoryAuditLog(), AuditLog(str(tmp_path / "audit.jsonl"))
    call, decision = bash(f"TOKEN={ANTHROPIC} ./x"), deny()
    memory.record(call, decision, mode="default")
    log.record(call, decision, mode="default")
    (entry,) = read_entries(log.path)
    assert {**memory.entries[0], "timestamp": None} == {**entry, "timestamp": None}
    assert memory.entries[0]["input"]["command"] == "TOKEN=[REDACTED:anthropic_key] ./x"


# --- many processes ------------------------------------------------------------------------------

WRITER = r"""
import os, sys, time
from phlegyas.store.audit import AuditLog
from phlegyas.core.model import Decision, ToolCall, Verdict
path, proc, count, go, pause, report = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5]), int(sys.argv[6])
log = AuditLog(path)
decision = Decision(Verdict.ALLOW, "tier2_safe", "safe")
print("ready", flush=True)
while not os.path.exists(go):
    time.sleep(0.001)
seq = 0
while count < 0 or seq < count:
    if count < 0:  # the victim: huge raw lines, forever
        log.write({"timestamp": "2026-11-05T00:00:00Z", "proc": proc, "seq": seq, "pad": "v" * 262144})
    else:
        pad = "x" * (9000 + 700 * (seq % 9)) if seq % 4 == 0 else ""
        log.record(ToolCall("Write", {"file_path": f"/p/{proc}/{seq}", "content": pad}), decision, mode="default")
    seq += 1
    if seq == report:
        print("progress", flush=True)
    if pause:
        time.sleep(pause)
"""


@pytest.fixture
def start_writers():
    """Start one `python -c` writer per (proc, count, pause, report); all are ready when it returns.
    Whatever still runs at the end of the test is killed."""
    started: list[subprocess.Popen] = []

    def start(path, go, specs):
        procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(proc), str(count), str(go),
                                   str(pause), str(report)], stdout=subprocess.PIPE, text=True)
                 for proc, count, pause, report in specs]
        started.extend(procs)
        for p in procs:
            assert p.stdout.readline() == "ready\n"
        return procs

    yield start
    for p in started:
        if p.poll() is None:
            p.kill()
        p.wait()
        p.stdout.close()


def written_pairs(raw_lines: list[bytes]) -> list[tuple[int, int]]:
    pairs = []
    for raw in raw_lines:
        entry = json.loads(raw)
        if "proc" in entry:
            pairs.append((entry["proc"], entry["seq"]))
        else:
            _, proc, seq = entry["input"]["file_path"].rsplit("/", 2)
            pairs.append((int(proc), int(seq)))
    return pairs


def test_four_processes_append_without_interleaving(tmp_path, start_writers):
    path, go = tmp_path / "audit.jsonl", tmp_path / "go"
    procs = start_writers(path, go, [(proc, 500, 0, 0) for proc in range(4)])
    go.touch()
    for p in procs:
        assert p.wait(timeout=120) == 0
    raw_lines = lines(path)
    assert len(raw_lines) == 2000
    assert all(raw.endswith(b"\n") for raw in raw_lines)
    assert sum(len(raw) > 8192 for raw in raw_lines) == 4 * 125  # every 4th entry is above 8 KiB
    assert sorted(written_pairs(raw_lines)) == [(proc, seq) for proc in range(4) for seq in range(500)]


def test_a_killed_writer_does_not_corrupt_earlier_lines(tmp_path, start_writers):
    path, go = tmp_path / "audit.jsonl", tmp_path / "go"
    victim, *others = start_writers(path, go, [(9, -1, 0, 20)] + [(proc, 300, 0.0003, 0) for proc in range(3)])
    go.touch()
    assert victim.stdout.readline() == "progress\n"  # 20 lines of 256 KiB written
    before = path.read_bytes()
    before = before[:before.rindex(b"\n") + 1]
    victim.send_signal(signal.SIGKILL)
    assert victim.wait(timeout=30) == -signal.SIGKILL
    for p in others:
        assert p.wait(timeout=120) == 0
    after = path.read_bytes()
    assert after.startswith(before)
    good, bad = [], []
    for raw in after.splitlines(keepends=True):
        try:
            json.loads(raw)
            good.append(raw)
        except ValueError:
            bad.append(raw)
    assert len(bad) <= 1  # at most the victim's last, cut-off line
    pairs = written_pairs(good)
    assert sorted(p for p in pairs if p[0] != 9) == [(proc, seq) for proc in range(3) for seq in range(300)]
    victim_seqs = [seq for proc, seq in pairs if proc == 9]
    assert victim_seqs == list(range(len(victim_seqs))) and len(victim_seqs) >= 20
    reader = read_entries(str(path))
    assert sum(1 for _ in reader) == len(good)
    assert reader.corrupt_lines == len(bad)


# --- reading -------------------------------------------------------------------------------------

def write_known_log(path) -> None:
    """Seven decisions over three days, one Tier 3 call cached, one not, plus damage."""
    log = AuditLog(str(path))
    day = timedelta(days=1)
    t0 = datetime(2026, 11, 1, 9, 0, tzinfo=timezone.utc)
    usage = {"cached": False, "cost_usd": 0.0125, "input_tokens": 1200, "output_tokens": 80}
    cached = {"cached": True, "cost_usd": 0, "input_tokens": 0, "output_tokens": 0}
    rows = [
        (t0, "Bash", Verdict.ALLOW, "tier2_safe", None),
        (t0 + timedelta(hours=1), "Read", Verdict.ALLOW, "tier2_safe", None),
        (t0 + day, "Bash", Verdict.DENY, "tier1_dangerous", None),
        (t0 + day, "Bash", Verdict.ASK, "fallback", None),
        (t0 + 2 * day, "Write", Verdict.ALLOW, "tier3_ai", usage),
        (t0 + 2 * day, "Bash", Verdict.DENY, "tier3_ai", cached),
        (t0 + 2 * day + timedelta(hours=5), "WebFetch", Verdict.ASK, "protected_path", None),
    ]
    for when, tool, verdict, tier, tier3 in rows:
        extra = {"tier3": tier3} if tier3 else None
        log.write(audit_entry(ToolCall(tool, {}), Decision(verdict, tier, "r"), mode="default", now=when, extra=extra))
    with open(path, "ab") as f:
        f.write(b"\n")                                 # blank: ignored
        f.write(b"[1, 2, 3]\n")                        # not an object
        f.write(b'{"tool_name": "Bash"}\n')            # no timestamp
        f.write(b'{"timestamp": "2026-11-04T00:0')     # cut off


def test_read_entries_skips_and_counts_corrupt_lines(tmp_path):
    path = tmp_path / "audit.jsonl"
    write_known_log(path)
    reader = read_entries(str(path))
    assert [e["tool_name"] for e in reader] == ["Bash", "Read", "Bash", "Bash", "Write", "Bash", "WebFetch"]
    assert reader.corrupt_lines == 3


def test_read_entries_since(tmp_path):
    path = tmp_path / "audit.jsonl"
    write_known_log(path)
    since = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)
    assert [e["decision"] for e in read_entries(str(path), since=since)] == ["deny", "ask", "allow", "deny", "ask"]


def test_read_entries_of_a_missing_log_is_empty(tmp_path):
    reader = read_entries(str(tmp_path / "nope.jsonl"))
    assert list(reader) == [] and reader.corrupt_lines == 0


def test_read_entries_of_a_directory_raises_audit_error(tmp_path):
    with pytest.raises(AuditError, match="cannot read audit log"):
        list(read_entries(str(tmp_path)))


def test_compute_stats_on_a_known_log(tmp_path):
    path = tmp_path / "audit.jsonl"
    write_known_log(path)
    assert compute_stats(str(path)) == {
        "total": 7, "approved": 3, "denied": 2, "asked": 2,
        # the seed's labels where they apply: Tier 3's allow and deny are tier3_ai_approve / tier3_ai_deny
        "by_tier": {"tier2_safe": 2, "fallback": 1, "protected_path": 1, "tier1_dangerous": 1,
                    "tier3_ai_approve": 1, "tier3_ai_deny": 1},
        "by_tool": {"Bash": 4, "Read": 1, "WebFetch": 1, "Write": 1},
        "by_decision": {"allow": 3, "ask": 2, "deny": 2},
        "corrupt_lines": 3, "since": None,
        "first": "2026-11-01T09:00:00.000000Z", "last": "2026-11-03T14:00:00.000000Z",
        "tier3": {"calls": 2, "cache_hits": 1, "cost_usd": 0.0125, "input_tokens": 1200, "output_tokens": 80},
    }


def test_compute_stats_since_and_empty(tmp_path):
    path = tmp_path / "audit.jsonl"
    write_known_log(path)
    stats = compute_stats(str(path), since=datetime(2026, 11, 3, 12, 0, tzinfo=timezone.utc))
    assert (stats["total"], stats["asked"], stats["since"], stats["first"]) == (
        1, 1, "2026-11-03T12:00:00.000000Z", "2026-11-03T14:00:00.000000Z")
    assert stats["tier3"] == {"calls": 0, "cache_hits": 0, "cost_usd": 0.0, "input_tokens": 0, "output_tokens": 0}
    empty = compute_stats(str(tmp_path / "none.jsonl"))
    assert (empty["total"], empty["first"], empty["by_decision"]) == (0, None, {"allow": 0, "ask": 0, "deny": 0})
    assert empty == empty_stats()


@pytest.mark.parametrize("tier, decision, label", [
    ("tier1_dangerous", "deny", "tier1_dangerous"), ("tier2_safe", "allow", "tier2_safe"),
    ("tier3_ai", "allow", "tier3_ai_approve"), ("tier3_ai", "deny", "tier3_ai_deny"),
    ("tier3_ai", "ask", "tier3_needs_human"), ("human", "allow", "human"), ("tier2_5_trusted", "allow", "tier2_5_trusted"),
    ("fallback", "ask", "fallback"), (None, "deny", "(none)"),
])
def test_by_tier_uses_the_seeds_labels_where_they_apply(tier, decision, label):
    assert seed_tier(tier, decision) == label


def test_tier3_sums_ignore_malformed_fields(tmp_path):
    log = AuditLog(str(tmp_path / "audit.jsonl"))
    for usage in ({"cached": "yes", "cost_usd": "1", "input_tokens": True}, {"cost_usd": 0.5, "output_tokens": 7}, "x"):
        log.write(audit_entry(bash("ls"), deny(), mode="default", now=NOW, extra={"tier3": usage}))
    assert compute_stats(log.path)["tier3"] == {
        "calls": 2, "cache_hits": 0, "cost_usd": 0.5, "input_tokens": 0, "output_tokens": 7}


def test_format_stats_table(tmp_path):
    path = tmp_path / "audit.jsonl"
    write_known_log(path)
    assert format_stats(compute_stats(str(path))) == """\
7 decisions (from 2026-11-01T09:00:00.000000Z to 2026-11-03T14:00:00.000000Z)

Decision          Count      %
allow                 3  42.9%
ask                   2  28.6%
deny                  2  28.6%

Tier              Count      %
tier2_safe            2  28.6%
fallback              1  14.3%
protected_path        1  14.3%
tier1_dangerous       1  14.3%
tier3_ai_approve      1  14.3%
tier3_ai_deny         1  14.3%

Tool              Count      %
Bash                  4  57.1%
Read                  1  14.3%
WebFetch              1  14.3%
Write                 1  14.3%

Tier 3 (AI) calls  2
cache hits         1 (50.0%)
cost               $0.0125
input tokens       1,200
output tokens      80

Corrupt lines skipped: 3"""


def test_format_stats_empty_and_many_tools():
    empty = {"total": 0, "since": "2026-11-01T00:00:00.000000Z", "corrupt_lines": 0, "tier3": {"calls": 0}}
    assert format_stats(empty) == "No decisions recorded since 2026-11-01T00:00:00.000000Z."
    tools = {f"mcp__s__t{i:02d}": 20 - i for i in range(20)}
    stats = {"total": sum(tools.values()), "since": None, "first": "a", "last": "b", "corrupt_lines": 0,
             "by_decision": {"allow": 210}, "by_tier": {"rules": 210}, "by_tool": tools, "tier3": {}}
    rows = format_stats(stats).splitlines()
    assert rows[-2:] == ["mcp__s__t13          7    3.3%", "(6 other tools)     21   10.0%"]
    assert rows[2:4] == ["Decision         Count       %", "allow              210  100.0%"]


# --- --since -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("30m", NOW - timedelta(minutes=30)),
    ("2h", NOW - timedelta(hours=2)),
    ("7d", NOW - timedelta(days=7)),
    ("1w", NOW - timedelta(days=7)),
    ("45s", NOW - timedelta(seconds=45)),
    (" 0m ", NOW),
    ("2026-11-01", datetime(2026, 11, 1, tzinfo=timezone.utc)),
    ("2026-11-01T10:00:00Z", datetime(2026, 11, 1, 10, tzinfo=timezone.utc)),
    ("2026-11-01T10:00:00", datetime(2026, 11, 1, 10, tzinfo=timezone.utc)),
    ("2026-11-01T12:00:00+02:00", datetime(2026, 11, 1, 10, tzinfo=timezone.utc)),
])
def test_parse_since(text, expected):
    assert parse_since(text, now=NOW) == expected


@pytest.mark.parametrize("text", ["", "30", "m", "yesterday", "-5m", "30M", "2 h", "1y", "2026-13-01",
                                  "2026-11-01T25:00", "999999999w", "T10:00"])
def test_parse_since_errors(text):
    with pytest.raises(ValueError, match=r"cannot read the time .*expected a duration such as 30m"):
        parse_since(text, now=NOW)


def test_parse_since_defaults_to_the_current_time():
    before = datetime.now(timezone.utc)
    moment = parse_since("1h")
    assert before - timedelta(hours=1) <= moment <= datetime.now(timezone.utc) - timedelta(hours=1)
    assert moment.tzinfo is not None
