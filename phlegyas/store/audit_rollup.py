"""The audit index's tables: what is kept of each log entry, and the rollups kept up to date as the log
is read, and read back for the charts.

For every entry ``BatchWriter`` adds a row (its time, the decision × tier × tool ``combo``, the
interned session, agent, cwd and machine (the one a fleet's entry came from, when it names one), the
reason, the input's gist, where the line is in the log), its text for full-text search, and its share
of every rollup: counts per UTC hour and per UTC day by decision and tier, by tool, by asked command
shape, and Tier 3 usage (``ROLLUPS``, each described once, as data), plus the time people took to
answer (``waits``). One batch is one transaction, written with a few ``executemany`` calls.

``read`` answers any ``[since, until)`` exactly: whole days and whole hours from the rollups, and the
partial hours at its ends from the rows themselves (``pieces``).
"""
from __future__ import annotations

import hashlib
import json
import math
import sqlite3
from dataclasses import dataclass
from typing import Any, Iterator

from phlegyas.store.audit import seed_tier
from phlegyas.store.audit_shapes import SEARCH_CHARS, gist, search_text, shape_of

HOUR = 3600
DAY = 86400
HUMAN_STATUSES = ("approved", "denied")
MAX_POINTS = 500

SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID",
    # one row per log line that parsed; text that repeats (session, agent, cwd, machine) is interned in
    # `strings`, decision × tier × tool in `combos`; pos/len locate the line in the log (entry() reads it back)
    """CREATE TABLE rows (
    id INTEGER PRIMARY KEY, ts REAL NOT NULL, combo INTEGER NOT NULL, session INTEGER, agent INTEGER,
    cwd INTEGER, machine INTEGER, reason TEXT NOT NULL, summary TEXT NOT NULL, pos INTEGER NOT NULL,
    len INTEGER NOT NULL, shape INTEGER, t3_cached INTEGER, t3_in INTEGER, t3_out INTEGER, t3_cost REAL)""",
    "CREATE INDEX rows_ts ON rows (ts)",
    "CREATE INDEX rows_combo ON rows (combo)",
    "CREATE INDEX rows_session ON rows (session) WHERE session IS NOT NULL",
    "CREATE INDEX rows_agent ON rows (agent) WHERE agent IS NOT NULL",
    "CREATE INDEX rows_machine ON rows (machine) WHERE machine IS NOT NULL",
    "CREATE TABLE strings (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)",
    # the machines seen (their `strings` ids), so that the filters can list them without a scan
    "CREATE TABLE machines (id INTEGER PRIMARY KEY)",
    """CREATE TABLE combos (id INTEGER PRIMARY KEY, decision TEXT NOT NULL, tier TEXT NOT NULL,
    label TEXT NOT NULL, tool TEXT NOT NULL, UNIQUE (decision, tier, tool))""",
    # the text of each row for search: the input's gist, the reason and the tool (contentless: no copy),
    # and its filter values as `facet` words, so that text and filters are one intersection of the index
    "CREATE VIRTUAL TABLE fts USING fts5(gist, reason, tool, facets, content='', tokenize='unicode61')",
    # the row ids each hour spans (to bound a time-range search); the rollups' tables are ROLLUPS'
    "CREATE TABLE spans (b INTEGER PRIMARY KEY, first_id INTEGER NOT NULL, last_id INTEGER NOT NULL)",
    """CREATE TABLE shapes (id INTEGER PRIMARY KEY, tool TEXT NOT NULL, shape TEXT NOT NULL, rule TEXT,
    n INTEGER NOT NULL DEFAULT 0, last REAL, example TEXT, UNIQUE (tool, shape))""",
    "CREATE INDEX shapes_by_count ON shapes (n)",
    # how long a person took: one point per answered request; requests: what is known of each request id
    "CREATE TABLE waits (id INTEGER PRIMARY KEY, ts REAL NOT NULL, seconds REAL NOT NULL)",
    "CREATE INDEX waits_ts ON waits (ts, seconds)",
    "CREATE INDEX waits_seconds ON waits (seconds, ts)",
    "CREATE TABLE requests (rid TEXT PRIMARY KEY, pending_ts REAL, measured INTEGER NOT NULL) WITHOUT ROWID",
)


@dataclass(frozen=True)
class Rollup:
    """Counts kept per UTC hour (``<name>_h``) and day (``<name>_d``) by ``keys``: ``values`` are summed,
    but those in ``maxed`` keep the largest. ``raw`` computes the same from the rows of a partial hour
    (``ts >= ? AND ts < ?``), grouped by the keys."""

    name: str
    keys: tuple[str, ...]
    values: tuple[str, ...]
    raw: str
    maxed: frozenset[str] = frozenset()

    def tables(self) -> tuple[str, str]:
        return f"{self.name}_h", f"{self.name}_d"

    def ddl(self) -> list[str]:
        columns = ", ".join(("b INTEGER NOT NULL", *self.keys, *(f"{v} NOT NULL" for v in self.values)))
        return [f"CREATE TABLE {table} ({columns}, PRIMARY KEY ({', '.join(('b', *self.keys))})) WITHOUT ROWID"
                for table in self.tables()]

    def merge(self, old: list, new: tuple) -> None:
        for i, (name, value) in enumerate(zip(self.values, new)):
            old[i] = max(old[i], value) if name in self.maxed else old[i] + value

    def upsert(self, table: str) -> str:
        names = ", ".join(("b", *self.keys, *self.values))
        merged = ", ".join(f"{v} = max({v}, excluded.{v})" if v in self.maxed else f"{v} = {v} + excluded.{v}"
                           for v in self.values)
        return (f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * (1 + len(self.keys) + len(self.values)))}) "
                f"ON CONFLICT ({', '.join(('b', *self.keys))}) DO UPDATE SET {merged}")


_IN_HOUR = "WHERE r.ts >= ? AND r.ts < ?"
# The timeline is kept wide, one row a bucket ([{decision: n}, {tier label: n}] as JSON): a chart of
# thousands of hours reads thousands of rows, not one per hour and kind.
TIMELINE_TABLES = ("tl_h", "tl_d")
TIMELINE_RAW = (f"SELECT c.decision, c.label, count(*) FROM rows r INDEXED BY rows_ts CROSS JOIN combos c "
                f"ON c.id = r.combo {_IN_HOUR} GROUP BY c.decision, c.label")
TOOLS = Rollup("tool", ("tool",), ("n",),
               f"SELECT c.tool, count(*) FROM rows r INDEXED BY rows_ts CROSS JOIN combos c ON c.id = r.combo "
               f"{_IN_HOUR} GROUP BY c.tool")
SHAPES = Rollup("shape", ("shape",), ("n", "last"),
                f"SELECT r.shape, count(*), max(r.ts) FROM rows r INDEXED BY rows_ts {_IN_HOUR} "
                "AND r.shape IS NOT NULL GROUP BY r.shape", frozenset({"last"}))
TIER3 = Rollup("t3", (), ("calls", "cache_hits", "input_tokens", "output_tokens", "cost_usd"),
               "SELECT count(r.t3_cached), total(r.t3_cached), total(r.t3_in), total(r.t3_out), total(r.t3_cost) "
               f"FROM rows r INDEXED BY rows_ts {_IN_HOUR} HAVING count(r.t3_cached) > 0")
ROLLUPS = (TOOLS, SHAPES, TIER3)
SCHEMA += tuple(statement for rollup in ROLLUPS for statement in rollup.ddl())
SCHEMA += tuple(f"CREATE TABLE {table} (b INTEGER PRIMARY KEY, counts TEXT NOT NULL)" for table in TIMELINE_TABLES)
DATA_TABLES = ("rows", "strings", "machines", "combos", "spans", "shapes", "waits", "requests", *TIMELINE_TABLES,
               *(table for rollup in ROLLUPS for table in rollup.tables()))


# --- one entry -----------------------------------------------------------------------------------

def label(value: object) -> str:
    """A field as ``compute_stats`` counts it: a non-empty string, else ``(none)``."""
    return value if isinstance(value, str) and value else "(none)"


def text_or_none(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def facet(kind: str, value: str) -> str:
    """The word full-text search finds a filter value by: ``kind`` (``d`` decision, ``t`` tier or tier
    label, ``o`` tool, ``s`` session, ``a`` agent, ``m`` machine) and a hash of the value, one word to the tokenizer."""
    return f"x{kind}{hashlib.blake2b(value.encode('utf-8', 'surrogatepass'), digest_size=8).hexdigest()}"


def is_asked(entry: dict) -> bool:
    """A person was (or was to be) asked: decision ``ask``, or a human decision (``human``, ``tier3_slack_*``)."""
    tier = entry.get("tier")
    slack = isinstance(tier, str) and tier.startswith("tier3_slack_")
    return entry.get("decision") == "ask" or tier == "human" or slack


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    return value if math.isfinite(value) else 0


def _seconds(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        return None
    return float(value)


def tier3_usage(entry: dict) -> tuple[int, int, int, float] | None:
    """(cache hit 0/1, input tokens, output tokens, cost) of an entry's ``tier3`` extra, as compute_stats adds it."""
    usage = entry.get("tier3")
    if not isinstance(usage, dict):
        return None
    return (int(usage.get("cached") is True), int(_number(usage.get("input_tokens"))),
            int(_number(usage.get("output_tokens"))), float(_number(usage.get("cost_usd"))))


# --- time ranges ---------------------------------------------------------------------------------

def pieces(since: float | None, until: float | None, *, days: bool = True) -> list[tuple[str, Any, Any]]:
    """``[since, until)`` (epoch seconds, None: unbounded) as ``("raw", lo, hi)`` partial hours (epoch
    seconds, to be read from the rows), ``("hour", lo, hi)`` whole hours and ``("day", lo, hi)`` whole
    days (bucket numbers, ``hi`` exclusive, None: unbounded)."""
    if since is not None and until is not None and since >= until:
        return []
    first_hour = None if since is None else math.ceil(since / HOUR)
    end_hour = None if until is None else math.floor(until / HOUR)
    if first_hour is not None and end_hour is not None and first_hour > end_hour:
        return [("raw", since, until)]  # inside one hour
    out: list[tuple[str, Any, Any]] = []
    if first_hour is not None and since < first_hour * HOUR:
        out.append(("raw", since, first_hour * HOUR))
    if end_hour is not None and end_hour * HOUR < until:
        out.append(("raw", end_hour * HOUR, until))
    if first_hour is not None and first_hour == end_hour:
        return out
    first_day = None if first_hour is None else -(-first_hour // 24)
    end_day = None if end_hour is None else end_hour // 24
    if not days or (first_day is not None and end_day is not None and first_day >= end_day):
        return out + [("hour", first_hour, end_hour)]
    if first_hour is not None and first_hour < first_day * 24:
        out.append(("hour", first_hour, first_day * 24))
    if end_hour is not None and end_day * 24 < end_hour:
        out.append(("hour", end_day * 24, end_hour))
    return out + [("day", first_day, end_day)]


def bounds(column: str, lo: Any, hi: Any) -> tuple[str, list]:
    """``column >= lo AND column < hi`` (each side only when given), and its parameters."""
    terms, params = ["1"], []
    if lo is not None:
        terms.append(f"{column} >= ?")
        params.append(lo)
    if hi is not None:
        terms.append(f"{column} < ?")
        params.append(hi)
    return " AND ".join(terms), params


# --- writing a batch -----------------------------------------------------------------------------

class Caches:
    """Ids of interned strings, combos and shapes, valid for one ``generation`` of the index."""

    def __init__(self) -> None:
        self.generation: object = None
        self.strings: dict[str, int] = {}
        self.combos: dict[tuple[str, str, str], int] = {}
        self.kinds: dict[int, tuple[str, str, str]] = {}  # combo id: (decision, label, tool)
        self.facets: dict[object, str] = {}  # combo id or (kind, text): its facet words
        self.shapes: dict[tuple[str, str], int] = {}

    def check(self, generation: object) -> None:
        if generation != self.generation:
            self.strings.clear()
            self.combos.clear()
            self.kinds.clear()
            self.facets.clear()
            self.shapes.clear()
            self.generation = generation


class BatchWriter:
    """One transaction's entries: ``add`` each, then ``flush`` writes the rows, the search text and
    every rollup. Runs inside the caller's write transaction."""

    def __init__(self, conn: sqlite3.Connection, caches: Caches, next_id: int):
        self.conn = conn
        self.caches = caches
        self.next_id = next_id
        self.rows: list[tuple] = []
        self.texts: list[tuple] = []
        self.spans: dict[int, list[int]] = {}
        self.by_hour: dict[tuple[int, int], int] = {}  # (hour, combo): rows; the timeline and TOOLS come from it
        self.rolled: dict[str, dict[tuple, list]] = {table: {} for r in ROLLUPS for table in r.tables()}
        self.shapes: dict[int, list] = {}  # shape id: [count, last, example]
        self.waits: list[tuple[int, float, float]] = []
        self.requests: dict[str, list] = {}
        self.machines: set[int] = set()

    def add(self, pos: int, length: int, ts: float, entry: dict) -> None:
        row_id = self.next_id
        self.next_id += 1
        tool = label(entry.get("tool_name"))
        combo = self._combo(entry.get("decision"), entry.get("tier"), tool)
        tool_input = entry.get("input")
        reason = text_or_none(entry.get("reason")) or ""
        summary = gist(tool_input)
        hour = math.floor(ts / HOUR)
        shape = None
        if self._human(row_id, ts, entry) and is_asked(entry):
            shape = self._shape(tool, tool_input, entry.get("cwd"), ts, summary)
            self._roll(SHAPES, hour, (shape,), (1, ts))
        usage = tier3_usage(entry)
        if usage is not None:
            self._roll(TIER3, hour, (), (1, *usage))
        key = (hour, combo)
        self.by_hour[key] = self.by_hour.get(key, 0) + 1
        session, agent = text_or_none(entry.get("session_id")), text_or_none(entry.get("agent_id"))
        machine = text_or_none(entry.get("machine")) or None  # an ordinary log's entries have none
        machine_id = self._string(machine)
        if machine_id is not None:
            self.machines.add(machine_id)
        self.rows.append((row_id, ts, combo, self._string(session), self._string(agent), self._string(entry.get("cwd")),
                          machine_id, reason, summary, pos, length, shape, *(usage or (None, None, None, None))))
        words = self.caches.facets[combo]
        for kind, value in (("s", session), ("a", agent), ("m", machine)):
            if value is not None:
                words = f"{words} {self._facet(kind, value)}"
        self.texts.append((row_id, search_text(tool_input), reason[:SEARCH_CHARS], tool, words))
        span = self.spans.get(hour)
        if span is None:
            self.spans[hour] = [row_id, row_id]
        else:
            span[1] = row_id

    def _roll(self, rollup: Rollup, hour: int, keys: tuple, values: tuple) -> None:
        for table, b in zip(rollup.tables(), (hour, hour // 24)):
            counts = self.rolled[table]
            known = counts.get((b, *keys))
            if known is None:
                counts[(b, *keys)] = list(values)
            else:
                rollup.merge(known, values)

    # -- interning ------------------------------------------------------------------------------

    def _string(self, value: object) -> int | None:
        text = text_or_none(value)
        if text is None:
            return None
        known = self.caches.strings.get(text)
        if known is None:
            row = self.conn.execute("SELECT id FROM strings WHERE text = ?", (text,)).fetchone()
            known = row[0] if row else self.conn.execute("INSERT INTO strings (text) VALUES (?)", (text,)).lastrowid
            self.caches.strings[text] = known
        return known

    def _combo(self, decision: object, tier: object, tool: str) -> int:
        key = (label(decision), label(tier), tool)
        known = self.caches.combos.get(key)
        if known is None:
            row = self.conn.execute("SELECT id FROM combos WHERE decision = ? AND tier = ? AND tool = ?",
                                    key).fetchone()
            seed = seed_tier(tier, decision)
            known = row[0] if row else self.conn.execute(
                "INSERT INTO combos (decision, tier, label, tool) VALUES (?, ?, ?, ?)",
                (*key[:2], seed, tool)).lastrowid
            self.caches.combos[key] = known
            self.caches.kinds[known] = (key[0], seed, tool)
            values = [("d", key[0]), ("t", key[1])] + ([("t", seed)] if seed != key[1] else []) + [("o", tool)]
            self.caches.facets[known] = " ".join(facet(kind, value) for kind, value in values)
        return known

    def _facet(self, kind: str, text: str) -> str:
        known = self.caches.facets.get((kind, text))
        if known is None:
            known = self.caches.facets[(kind, text)] = facet(kind, text)
        return known

    def _shape(self, tool: str, tool_input: object, cwd: object, ts: float, summary: str) -> int:
        shape, rule = shape_of(tool, tool_input, cwd)
        key = (tool, shape)
        known = self.caches.shapes.get(key)
        if known is None:
            row = self.conn.execute("SELECT id FROM shapes WHERE tool = ? AND shape = ?", key).fetchone()
            known = row[0] if row else self.conn.execute(
                "INSERT INTO shapes (tool, shape, rule) VALUES (?, ?, ?)", (tool, shape, rule)).lastrowid
            self.caches.shapes[key] = known
        seen = self.shapes.get(known)
        if seen is None:
            self.shapes[known] = [1, ts, summary]
        else:
            seen[0] += 1
            if ts >= seen[1]:
                seen[1:] = [ts, summary]
        return known

    # -- people ---------------------------------------------------------------------------------

    def _human(self, row_id: int, ts: float, entry: dict) -> bool:
        """Note the request an entry is about and the wait it shows; False when the entry is not the
        first one seen for its request (so a request counts once among the asked shapes)."""
        human, slack = entry.get("human"), entry.get("slack")
        rid = human.get("request_id") if isinstance(human, dict) else None
        status = human.get("status") if isinstance(human, dict) else None
        waited = _seconds(slack.get("wait_seconds")) if isinstance(slack, dict) else None
        if not isinstance(rid, str) or not rid:
            if waited is not None:
                self.waits.append((row_id, ts, waited))
            return True
        state = self._request(rid)
        first = state is None
        if state is None:
            state = self.requests[rid] = [None, 0]
        if status == "pending" and state[0] is None:
            state[0] = ts
        elif not state[1] and waited is not None:
            self.waits.append((row_id, ts, waited))
            state[1] = 1
        elif not state[1] and status in HUMAN_STATUSES and state[0] is not None:
            self.waits.append((row_id, ts, max(0.0, ts - state[0])))
            state[1] = 1
        return first

    def _request(self, rid: str) -> list | None:
        if rid in self.requests:
            return self.requests[rid]
        row = self.conn.execute("SELECT pending_ts, measured FROM requests WHERE rid = ?", (rid,)).fetchone()
        if row is None:
            return None
        state = self.requests[rid] = [row[0], row[1]]
        return state

    # -- writing --------------------------------------------------------------------------------

    def flush(self) -> int:
        """Write what was added; returns the number of rows."""
        run = self.conn.executemany
        run("INSERT INTO rows (id, ts, combo, session, agent, cwd, machine, reason, summary, pos, len, shape, "
            "t3_cached, t3_in, t3_out, t3_cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", self.rows)
        run("INSERT OR IGNORE INTO machines (id) VALUES (?)", [(m,) for m in sorted(self.machines)])
        run("INSERT INTO fts (rowid, gist, reason, tool, facets) VALUES (?, ?, ?, ?, ?)", self.texts)
        run("INSERT INTO spans (b, first_id, last_id) VALUES (?, ?, ?) ON CONFLICT (b) DO UPDATE SET "
            "first_id = min(first_id, excluded.first_id), last_id = max(last_id, excluded.last_id)",
            [(b, lo, hi) for b, (lo, hi) in self.spans.items()])
        kinds = self.caches.kinds
        wide: dict[tuple[str, int], list[dict[str, int]]] = {}
        for (hour, combo), n in self.by_hour.items():
            decision, seed, tool = kinds[combo]
            self._roll(TOOLS, hour, (tool,), (n,))
            for key in (("tl_h", hour), ("tl_d", hour // 24)):
                _add_counts(wide.setdefault(key, [{}, {}]), [{decision: n}, {seed: n}])
        for (table, b), counts in wide.items():
            old = self.conn.execute(f"SELECT counts FROM {table} WHERE b = ?", (b,)).fetchone()
            if old is not None:
                _add_counts(counts, json.loads(old[0]))
            self.conn.execute(f"INSERT OR REPLACE INTO {table} (b, counts) VALUES (?, ?)", (b, json.dumps(counts)))
        for rollup in ROLLUPS:
            for table in rollup.tables():
                run(rollup.upsert(table), [(*key, *values) for key, values in self.rolled[table].items()])
        run("UPDATE shapes SET n = n + ?, example = CASE WHEN coalesce(last, ?) <= ? THEN ? ELSE example END, "
            "last = max(coalesce(last, ?), ?) WHERE id = ?",
            [(n, last, last, example, last, last, s) for s, (n, last, example) in self.shapes.items()])
        run("INSERT INTO waits (id, ts, seconds) VALUES (?, ?, ?)", self.waits)
        run("INSERT INTO requests (rid, pending_ts, measured) VALUES (?, ?, ?) ON CONFLICT (rid) DO UPDATE SET "
            "pending_ts = excluded.pending_ts, measured = excluded.measured",
            [(rid, pending, measured) for rid, (pending, measured) in self.requests.items()])
        return len(self.rows)


def _add_counts(into: list[dict[str, int]], counts: list[dict[str, int]]) -> None:
    for total, more in zip(into, counts):
        for key, n in more.items():
            total[key] = total.get(key, 0) + n


# --- reading the rollups -------------------------------------------------------------------------

def read(conn: sqlite3.Connection, rollup: Rollup, since: float | None, until: float | None,
         size: int | None) -> dict[tuple, list]:
    """``rollup``'s values over ``[since, until)`` by (bucket start, *keys): buckets of ``size`` seconds
    (HOUR or DAY), or one bucket (None) when ``size`` is None."""
    out: dict[tuple, list] = {}
    width = len(rollup.keys)
    for kind, lo, hi in pieces(since, until, days=size != HOUR):
        if kind == "raw":
            start = math.floor(lo / HOUR) * HOUR
            rows: Iterator = ((start, *row) for row in conn.execute(rollup.raw, (lo, hi)))
        else:
            rows = conn.execute(*_rollup_sql(rollup, kind, lo, hi, grouped=size is None))
        for start, *rest in rows:
            if rest[width] is None:
                continue  # an aggregate over no rows
            key = (None if size is None else start // size * size, *rest[:width])
            known = out.get(key)
            if known is None:
                out[key] = list(rest[width:])
            else:
                rollup.merge(known, rest[width:])
    return out


def _rollup_sql(rollup: Rollup, kind: str, lo: Any, hi: Any, *, grouped: bool) -> tuple[str, list]:
    table = rollup.tables()[kind == "day"]
    where, params = bounds("b", lo, hi)
    keys = "".join(f", {k}" for k in rollup.keys)
    if not grouped:
        values = ", ".join(rollup.values)
        return f"SELECT b * {DAY if kind == 'day' else HOUR}{keys}, {values} FROM {table} WHERE {where}", params
    values = ", ".join(f"max({v})" if v in rollup.maxed else f"sum({v})" for v in rollup.values)
    group = f" GROUP BY {keys[2:]}" if keys else ""
    return f"SELECT NULL{keys}, {values} FROM {table} WHERE {where}{group}", params


def bucket_size(bucket: str) -> int:
    sizes = {"hour": HOUR, "day": DAY}
    if bucket not in sizes:
        raise ValueError(f"bucket must be 'hour' or 'day', got {bucket!r}")
    return sizes[bucket]


def read_timeline(conn: sqlite3.Connection, since: float | None, until: float | None,
                  size: int | None) -> dict[int | None, list[dict[str, int]]]:
    """[{decision: n}, {tier label: n}] over ``[since, until)`` by bucket start (one bucket, None, when
    ``size`` is None)."""
    out: dict[int | None, list[dict[str, int]]] = {}
    for kind, lo, hi in pieces(since, until, days=size != HOUR):
        if kind == "raw":
            start = math.floor(lo / HOUR) * HOUR
            counts = out.setdefault(None if size is None else start // size * size, [{}, {}])
            for decision, seed, n in conn.execute(TIMELINE_RAW, (lo, hi)):
                _add_counts(counts, [{decision: n}, {seed: n}])
            continue
        where, params = bounds("b", lo, hi)
        unit = DAY if kind == "day" else HOUR
        for start, text in conn.execute(f"SELECT b * {unit}, counts FROM {TIMELINE_TABLES[kind == 'day']} "
                                        f"WHERE {where}", params):
            _add_counts(out.setdefault(None if size is None else start // size * size, [{}, {}]), json.loads(text))
    return out


def timeline(conn: sqlite3.Connection, size: int, since: float | None, until: float | None) -> list[dict]:
    points = []
    for start, (decisions, labels) in sorted(read_timeline(conn, since, until, size).items()):
        if decisions:
            others = {k: n for k, n in decisions.items() if k not in ("start", "total", "by_tier")}
            points.append({"start": start, "total": sum(decisions.values()), "allow": 0, "ask": 0, "deny": 0,
                           **others, "by_tier": labels})
    return points


def by_count(counts: dict[str, int]) -> dict[str, int]:
    return dict(sorted(((k, v) for k, v in counts.items() if v), key=lambda item: (-item[1], item[0])))


def totals(conn: sqlite3.Connection, since: float | None, until: float | None) -> dict:
    """compute_stats's numbers (but ``first`` and ``last`` are epoch seconds, and no ``since``)."""
    decisions, by_tier = read_timeline(conn, since, until, None).get(None, [{}, {}])
    by_decision = {"allow": 0, "ask": 0, "deny": 0, **decisions}
    by_tool = {tool: n for (_, tool), (n,) in read(conn, TOOLS, since, until, None).items()}
    usage = tier3(conn, since, until, None)
    where, params = bounds("ts", since, until)
    first, last = (conn.execute(f"SELECT ts FROM rows INDEXED BY rows_ts WHERE {where} ORDER BY ts {order} LIMIT 1",
                                params).fetchone() for order in ("ASC", "DESC"))
    corrupt = conn.execute("SELECT value FROM meta WHERE key = 'corrupt_lines'").fetchone()[0]
    return {"total": sum(by_decision.values()), "approved": by_decision["allow"], "denied": by_decision["deny"],
            "asked": by_decision["ask"], "by_decision": by_decision, "by_tier": by_count(by_tier),
            "by_tool": by_count(by_tool), "first": first[0] if first else None, "last": last[0] if last else None,
            "tier3": usage[0] if usage else {"calls": 0, "cache_hits": 0, "cost_usd": 0.0, "input_tokens": 0,
                                              "output_tokens": 0},
            "corrupt_lines": int(corrupt)}


def tier3(conn: sqlite3.Connection, since: float | None, until: float | None, size: int | None) -> list[dict]:
    points = []
    for (start,), (calls, hits, tokens_in, tokens_out, cost) in sorted(
            read(conn, TIER3, since, until, size).items(), key=lambda item: item[0][0] or 0):
        point = {"start": start} if size is not None else {}
        points.append({**point, "calls": int(calls), "cache_hits": int(hits), "cost_usd": round(cost, 6),
                       "input_tokens": int(tokens_in), "output_tokens": int(tokens_out)})
    return [p for p in points if p["calls"]]


def asked_shapes(conn: sqlite3.Connection, limit: int, since: float | None, until: float | None) -> list[dict]:
    if since is None and until is None:
        top = conn.execute("SELECT id, n, last FROM shapes WHERE n > 0 ORDER BY n DESC, last DESC LIMIT ?",
                           (limit,)).fetchall()
    else:
        counts = read(conn, SHAPES, since, until, None)
        top = sorted(((shape, n, last) for (_, shape), (n, last) in counts.items()),
                     key=lambda item: (-item[1], -item[2]))[:limit]
    ids = ",".join(str(int(shape)) for shape, _, _ in top)
    found = conn.execute(f"SELECT id, tool, shape, rule, example FROM shapes WHERE id IN ({ids})")
    info = {row[0]: row[1:] for row in found}
    return [{"tool": info[s][0], "shape": info[s][1], "rule": info[s][2], "count": n, "last": last,
             "example": info[s][3]} for s, n, last in top]


def human_waits(conn: sqlite3.Connection, since: float | None, until: float | None) -> dict:
    where, params = bounds("ts", since, until)
    count = conn.execute(f"SELECT count(*) FROM waits INDEXED BY waits_ts WHERE {where}", params).fetchone()[0]
    if not count:
        return {"count": 0, "p50": None, "p90": None, "max": None, "points": []}

    def rank(fraction: float) -> float:  # nearest rank
        offset = max(0, math.ceil(fraction * count) - 1)
        return conn.execute(f"SELECT seconds FROM waits INDEXED BY waits_seconds WHERE {where} ORDER BY seconds "
                            "LIMIT 1 OFFSET ?", (*params, offset)).fetchone()[0]

    points = conn.execute(f"SELECT ts, seconds FROM waits INDEXED BY waits_ts WHERE {where} ORDER BY ts DESC LIMIT ?",
                          (*params, MAX_POINTS)).fetchall()
    return {"count": count, "p50": rank(0.5), "p90": rank(0.9), "max": rank(1.0),
            "points": [tuple(p) for p in reversed(points)]}
