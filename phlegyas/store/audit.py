"""The audit log: one JSON line per decision, secrets redacted, safe under many concurrent writers.

Every hook process appends its decision with ONE ``os.write`` on a descriptor opened with
``O_APPEND``, under an exclusive ``flock`` held only for that write, so lines never interleave, even
above ``PIPE_BUF``. A line a killed writer left half-written is closed with a newline by the next
writer, so it never swallows the next entry; readers skip and count such lines. When the log cannot be
written, ``AuditError`` says which file and why: the caller decides, nothing is dropped silently.

Entry fields, in this order: ``timestamp`` (UTC, ``Z``), ``tool_name``, ``input`` (redacted, at most
64 KiB serialized), ``decision``, ``tier``, ``reason`` (redacted), ``confidence`` (Tier 3 only),
``session_id``, ``agent_id``, ``cwd``, ``mode``, ``rule``, ``findings`` (ids), ``elapsed_us``; then any
``extra`` fields a tier adds (Tier 3 adds ``tier3``: ``cached``, ``cost_usd``, ``input_tokens``,
``output_tokens``).

Imports stay light (this runs in the hook process): stdlib only, the model only for type checking.
"""
from __future__ import annotations

import fcntl
import json
import math
import os
import re
from datetime import datetime, timedelta, timezone
from typing import Iterable, Iterator, Protocol

from phlegyas.core.model import Decision, ToolCall
from phlegyas.core.redact import redact, redact_value

__all__ = [
    "AuditError", "AuditLog", "AuditSink", "EntryReader", "MemoryAuditLog", "MAX_INPUT_BYTES",
    "MAX_TEXT_CHARS", "audit_entry", "compute_stats", "encode_entry", "format_stats", "format_timestamp",
    "parse_since", "parse_timestamp", "read_entries", "redact", "redact_value", "summarize",
]

MAX_INPUT_BYTES = 64 * 1024
"""A tool input larger than this (serialized) has its strings truncated in the log."""
MAX_TEXT_CHARS = 8 * 1024
"""A longer ``reason`` or ``rule`` is truncated in the log."""
FILE_MODE = 0o600
DIR_MODE = 0o700
_DECISIONS = ("allow", "ask", "deny")


class AuditError(Exception):
    """The audit log could not be written or read; ``path`` and ``cause`` say where and why."""

    def __init__(self, path: str, cause: BaseException | str, action: str = "write"):
        self.path = path
        self.cause = cause
        detail = (cause.strerror or str(cause)) if isinstance(cause, OSError) else str(cause)
        super().__init__(f"cannot {action} audit log {path}: {detail}")


# --- entries -----------------------------------------------------------------------------------

def format_timestamp(moment: datetime) -> str:
    """ISO 8601 in UTC with a ``Z`` (a naive datetime is taken as UTC)."""
    return _utc(moment).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def audit_entry(call: ToolCall, decision: Decision, *, mode: str, now: datetime | None = None,
                extra: dict | None = None) -> dict:
    """The log entry for one decision: redacted, bounded, keys in the documented order."""
    confidence = decision.confidence if decision.tier == "tier3_ai" else None
    if isinstance(confidence, float) and not math.isfinite(confidence):
        confidence = None
    entry = {
        "timestamp": format_timestamp(now or datetime.now(timezone.utc)),
        "tool_name": call.tool_name if isinstance(call.tool_name, str) else redact_value(call.tool_name),
        "input": _bounded(redact_value(call.tool_input)),
        "decision": str(decision.verdict),
        "tier": decision.tier,
        "reason": _cut_strings(redact_value(decision.reason), MAX_TEXT_CHARS),
        "confidence": confidence,
        "session_id": call.session_id,
        "agent_id": call.agent_id,
        "cwd": call.cwd,
        "mode": mode,
        "rule": _cut_strings(redact_value(decision.rule), MAX_TEXT_CHARS),
        "findings": [finding.id for finding in decision.findings],
        "elapsed_us": decision.elapsed_us,
    }
    for key, value in (extra or {}).items():
        if key in entry:
            raise ValueError(f"extra audit field {key!r} would overwrite a standard field")
        entry[key] = redact_value(value)
    return entry


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _dumps(value: object) -> str:
    return _ENCODER.encode(value)


def _encode(text: str) -> bytes:
    # a lone surrogate (undecodable input) becomes the JSON escape \udcXX: still valid JSON
    return text.encode("utf-8", "backslashreplace")


def encode_entry(entry: dict) -> bytes:
    """One log line: compact JSON, UTF-8, newline-terminated, no raw newline inside."""
    return _encode(_dumps(entry)) + b"\n"


def _bounded(value: object) -> object:
    """``value``, or a copy whose long strings are cut so that it serializes within MAX_INPUT_BYTES."""
    size = len(_encode(_dumps(value)))
    if size <= MAX_INPUT_BYTES:
        return value
    low, high, best = 0, _longest_string(value), None
    while low <= high:  # the largest per-string cap that fits
        cap = (low + high) // 2
        candidate = _cut_strings(value, cap)
        if len(_encode(_dumps(candidate))) <= MAX_INPUT_BYTES:
            best, low = candidate, cap + 1
        else:
            high = cap - 1
    if best is not None:
        return best
    preview = _encode(_dumps(value))[:MAX_INPUT_BYTES // 2].decode("utf-8", "ignore")
    return {"_truncated": f"input of {size} bytes is larger than the {MAX_INPUT_BYTES}-byte log limit",
            "_preview": preview}


def _longest_string(value: object) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return max((_longest_string(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return max((_longest_string(v) for v in value), default=0)
    return 0


def _cut_strings(value: object, cap: int) -> object:
    if isinstance(value, str):
        if len(value) <= cap:
            return value
        return f"{value[:cap]}...[truncated {len(value) - cap} chars]"
    if isinstance(value, dict):
        return {k: _cut_strings(v, cap) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut_strings(v, cap) for v in value]
    return value


# --- writing -----------------------------------------------------------------------------------

class AuditSink(Protocol):
    """Where decisions go: the JSONL file, an in-memory list, later a database."""

    def record(self, call: ToolCall, decision: Decision, *, mode: str) -> None: ...


class AuditLog:
    """The JSONL audit log at ``path`` (its directory is created 0700, the file 0600, on first write)."""

    def __init__(self, path: str):
        self.path = path

    def record(self, call: ToolCall, decision: Decision, *, mode: str, extra: dict | None = None) -> None:
        self.write(audit_entry(call, decision, mode=mode, extra=extra))

    def write(self, entry: dict) -> None:
        """Append ``entry`` as one line. Raises AuditError if it cannot be serialized or written."""
        try:
            line = encode_entry(entry)
        except (TypeError, ValueError, RecursionError) as exc:
            raise AuditError(self.path, f"entry is not JSON-serializable: {exc}") from exc
        append_line(self.path, line)


class MemoryAuditLog:
    """An in-memory sink (tests, embedding): the same entries as the file would hold, as dicts."""

    def __init__(self) -> None:
        self.entries: list[dict] = []

    def record(self, call: ToolCall, decision: Decision, *, mode: str, extra: dict | None = None) -> None:
        self.write(audit_entry(call, decision, mode=mode, extra=extra))

    def write(self, entry: dict) -> None:
        try:
            self.entries.append(json.loads(encode_entry(entry)))
        except (TypeError, ValueError, RecursionError) as exc:
            raise AuditError("<memory>", f"entry is not JSON-serializable: {exc}") from exc


def append_line(path: str, data: bytes) -> None:
    """Append ``data`` (one line) to ``path`` with a single write under an exclusive flock."""
    fd = _open_for_append(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            _write_locked(fd, data)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError as exc:
        raise AuditError(path, exc) from exc
    finally:
        os.close(fd)


def _open_for_append(path: str) -> int:
    """O_APPEND|O_CREAT, mode 0600; read access too when allowed (to check the last byte)."""
    flags = os.O_APPEND | os.O_CREAT | os.O_CLOEXEC
    try:
        try:
            return os.open(path, flags | os.O_RDWR, FILE_MODE)
        except FileNotFoundError:
            parent = os.path.dirname(path)
            if not parent or os.path.isdir(parent):
                raise
            os.makedirs(parent, mode=DIR_MODE, exist_ok=True)
            return os.open(path, flags | os.O_RDWR, FILE_MODE)
        except PermissionError:
            return os.open(path, flags | os.O_WRONLY, FILE_MODE)
    except OSError as exc:
        raise AuditError(path, exc) from exc


def _write_locked(fd: int, data: bytes) -> None:
    """Write all of ``data`` (looping on partial writes); on failure cut the file back to its old end."""
    start = os.fstat(fd).st_size
    if start > 0 and _last_byte(fd, start) not in (b"\n", None):
        data = b"\n" + data  # a writer died mid-line: close its line so it cannot swallow ours
    view = memoryview(data)
    written = 0
    try:
        while written < len(data):
            count = os.write(fd, view[written:])
            if count <= 0:
                raise OSError(5, "write wrote nothing")
            written += count
    except OSError:
        if written:
            _truncate_quietly(fd, start)
        raise


def _last_byte(fd: int, size: int) -> bytes | None:
    try:
        return os.pread(fd, 1, size - 1)
    except OSError:
        return None  # opened write-only (no read permission): cannot check


def _truncate_quietly(fd: int, size: int) -> None:
    try:
        os.ftruncate(fd, size)
    except OSError:
        pass  # the write error is what the caller needs to see


# --- reading -----------------------------------------------------------------------------------

def parse_timestamp(text: object) -> datetime | None:
    """The UTC datetime of an entry's timestamp, or None when it is missing or malformed."""
    if not isinstance(text, str):
        return None
    try:
        return _utc(datetime.fromisoformat(text))
    except ValueError:
        return None


class EntryReader:
    """Iterates a log's entries; lines that are not a JSON object with a valid ``timestamp`` are
    skipped and counted in ``corrupt_lines`` (over everything this reader has read). A missing file
    reads as empty; an unreadable one raises AuditError on first iteration."""

    def __init__(self, path: str, since: datetime | None = None):
        self.path = path
        self.since = _utc(since) if since is not None else None
        self.corrupt_lines = 0
        self._entries = (entry for _, entry in self.timed())

    def __iter__(self) -> "EntryReader":
        return self

    def __next__(self) -> dict:
        return next(self._entries)

    def timed(self) -> Iterator[tuple[datetime, dict]]:
        """(timestamp, entry) pairs, for callers that need the time parsed."""
        try:
            stream = open(self.path, "rb")
        except FileNotFoundError:
            return
        except OSError as exc:
            raise AuditError(self.path, exc, action="read") from exc
        with stream:
            for raw in _lines(stream, self.path):
                if not raw.strip():
                    continue
                parsed = parse_line(raw)
                if parsed is None:
                    self.corrupt_lines += 1
                elif self.since is None or parsed[0] >= self.since:
                    yield parsed


def _lines(stream, path: str) -> Iterator[bytes]:
    try:
        yield from stream
    except OSError as exc:
        raise AuditError(path, exc, action="read") from exc


def parse_line(raw: bytes) -> tuple[datetime, dict] | None:
    """An audit line as (its time, its entry), or None when it is not a readable entry (not JSON, not an
    object, no valid timestamp)."""
    try:
        entry = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(entry, dict):
        return None
    moment = parse_timestamp(entry.get("timestamp"))
    return None if moment is None else (moment, entry)


def read_entries(path: str, *, since: datetime | None = None) -> EntryReader:
    """The entries of the log at ``path`` (from ``since`` on); see EntryReader.corrupt_lines."""
    return EntryReader(path, since)


# --- statistics --------------------------------------------------------------------------------

def compute_stats(path: str, *, since: datetime | None = None) -> dict:
    """Counts by decision, tier and tool, the time span, and Tier 3 usage, over the log at ``path``."""
    reader = read_entries(path, since=since)
    stats = summarize(reader.timed(), since=since)
    stats["corrupt_lines"] = reader.corrupt_lines
    return stats


def summarize(entries: Iterable[tuple[datetime, dict]], *, since: datetime | None = None) -> dict:
    """``compute_stats`` over any ``(time, entry)`` pairs (a log's, or the shared database's); entries
    that name their machine are counted by machine too (``by_machine``), those of a hook by agent host
    (``by_host``: ``claude``, ``codex``, …). A host's own denial that it reported (Claude Code's
    PermissionDenied: tier ``host``) counts under ``by_tier["host"]``."""
    by_decision = {name: 0 for name in _DECISIONS}
    by_tier: dict[str, int] = {}
    by_tool: dict[str, int] = {}
    by_machine: dict[str, int] = {}
    by_host: dict[str, int] = {}
    tier3 = {"calls": 0, "cache_hits": 0, "cost_usd": 0.0, "input_tokens": 0, "output_tokens": 0}
    first = last = None
    total = 0
    for moment, entry in entries:
        total += 1
        for counts, field in ((by_decision, "decision"), (by_tool, "tool_name")):
            label = _label(entry.get(field))
            counts[label] = counts.get(label, 0) + 1
        label = seed_tier(entry.get("tier"), entry.get("decision"))
        by_tier[label] = by_tier.get(label, 0) + 1
        if "machine" in entry:
            machine = _label(entry.get("machine"))
            by_machine[machine] = by_machine.get(machine, 0) + 1
        if "host" in entry:
            host = _label(entry.get("host"))
            by_host[host] = by_host.get(host, 0) + 1
        first = moment if first is None or moment < first else first
        last = moment if last is None or moment > last else last
        _add_tier3(tier3, entry.get("tier3"))
    tier3["cost_usd"] = round(tier3["cost_usd"], 6)
    stats = {
        "total": total,
        "approved": by_decision["allow"],
        "denied": by_decision["deny"],
        "asked": by_decision["ask"],
        "by_tier": _by_count(by_tier),
        "by_tool": _by_count(by_tool),
        "by_decision": by_decision,
        "corrupt_lines": 0,
        "since": format_timestamp(since) if since is not None else None,
        "first": format_timestamp(first) if first is not None else None,
        "last": format_timestamp(last) if last is not None else None,
        "tier3": tier3,
    }
    if by_machine:
        stats["by_machine"] = _by_count(by_machine)
    if by_host:
        stats["by_host"] = _by_count(by_host)
    return stats


def _label(value: object) -> str:
    return value if isinstance(value, str) and value else "(none)"


_TIER3_LABELS = {"allow": "tier3_ai_approve", "deny": "tier3_ai_deny", "ask": "tier3_needs_human"}


def seed_tier(tier: object, decision: object) -> str:
    """The ``by_tier`` label of an entry: the seed's names where they apply (``tier1_dangerous``,
    ``tier2_safe``, ``tier3_ai_approve``, ``tier3_ai_deny``, ``tier3_needs_human``), else the tier itself
    (``tier2_5_trusted``, ``human``, ``protected_path``, ``rules``, ``mode``, ``fallback``, ``error``)."""
    if tier == "tier3_ai" and decision in _TIER3_LABELS:
        return _TIER3_LABELS[decision]  # type: ignore[index]
    return _label(tier)


def empty_stats() -> dict:
    """The statistics of a log with no entries (the shape of ``compute_stats``)."""
    return {"total": 0, "approved": 0, "denied": 0, "asked": 0, "by_tier": {}, "by_tool": {},
            "by_decision": {name: 0 for name in _DECISIONS}, "corrupt_lines": 0, "since": None, "first": None,
            "last": None, "tier3": {"calls": 0, "cache_hits": 0, "cost_usd": 0.0, "input_tokens": 0,
                                    "output_tokens": 0}}


def _by_count(counts: dict[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _number(value: object) -> float | int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    return value if math.isfinite(value) else 0


def _add_tier3(totals: dict, usage: object) -> None:
    if not isinstance(usage, dict):
        return
    totals["calls"] += 1
    totals["cache_hits"] += usage.get("cached") is True
    totals["cost_usd"] += _number(usage.get("cost_usd"))
    totals["input_tokens"] += int(_number(usage.get("input_tokens")))
    totals["output_tokens"] += int(_number(usage.get("output_tokens")))


MAX_TOOL_ROWS = 15


def format_stats(stats: dict) -> str:
    """A terminal report: the span, then tables of counts and percentages aligned on one grid."""
    total = stats["total"]
    lines = [_headline(stats)]
    if total:
        tables = [_rows("Decision", stats["by_decision"], total), _rows("Tier", stats["by_tier"], total),
                  _rows("Tool", _top(stats["by_tool"], MAX_TOOL_ROWS), total)]
        if stats.get("by_machine"):
            tables.append(_rows("Machine", _top(stats["by_machine"], MAX_TOOL_ROWS), total))
        if stats.get("by_host"):
            tables.append(_rows("Host", stats["by_host"], total))
        widths = [max(len(row[i]) for table in tables for row in table) for i in range(3)]
        for table in tables:
            lines.append("")
            lines += [f"{a:<{widths[0]}}  {b:>{widths[1]}}  {c:>{widths[2]}}" for a, b, c in table]
    tier3 = stats.get("tier3") or {}
    if tier3.get("calls"):
        lines += ["", *_tier3_lines(tier3)]
    if stats.get("corrupt_lines"):
        lines += ["", f"Corrupt lines skipped: {stats['corrupt_lines']:,}"]
    return "\n".join(lines)


def _headline(stats: dict) -> str:
    since = f" since {stats['since']}" if stats.get("since") else ""
    if not stats["total"]:
        return f"No decisions recorded{since}."
    span = f"from {stats['first']} to {stats['last']}"
    return f"{stats['total']:,} decisions{since} ({span})"


def _top(counts: dict[str, int], limit: int) -> dict[str, int]:
    items = list(counts.items())
    if len(items) <= limit:
        return counts
    shown = dict(items[:limit - 1])
    rest = items[limit - 1:]
    shown[f"({len(rest)} other tools)"] = sum(n for _, n in rest)
    return shown


def _rows(title: str, counts: dict[str, int], total: int) -> list[tuple[str, str, str]]:
    return [(title, "Count", "%")] + [
        (name, f"{count:,}", f"{100 * count / total:.1f}%") for name, count in counts.items()]


def _tier3_lines(tier3: dict) -> list[str]:
    calls = tier3["calls"]
    rows = [
        ("Tier 3 (AI) calls", f"{calls:,}"),
        ("cache hits", f"{tier3['cache_hits']:,} ({100 * tier3['cache_hits'] / calls:.1f}%)"),
        ("cost", f"${tier3['cost_usd']:.4f}"),
        ("input tokens", f"{tier3['input_tokens']:,}"),
        ("output tokens", f"{tier3['output_tokens']:,}"),
    ]
    width = max(len(name) for name, _ in rows)
    return [f"{name:<{width}}  {value}" for name, value in rows]


# --- --since -----------------------------------------------------------------------------------

_DURATION = re.compile(r"([0-9]{1,9})([smhdw])")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_since(text: str, *, now: datetime | None = None) -> datetime:
    """A UTC datetime from ``30m``, ``2h``, ``7d``, ``1w`` (ago), ``2026-11-01`` (midnight UTC) or an
    ISO 8601 time (``2026-11-01T10:00:00Z``; no offset means UTC). ValueError otherwise."""
    value = text.strip() if isinstance(text, str) else ""
    duration = _DURATION.fullmatch(value)
    try:
        if duration:
            amount, unit = duration.groups()
            reference = _utc(now) if now is not None else datetime.now(timezone.utc)
            return reference - timedelta(seconds=int(amount) * _UNIT_SECONDS[unit])
        if value and value[0].isdigit():
            return _utc(datetime.fromisoformat(value))
    except (ValueError, OverflowError):
        pass
    raise ValueError(
        f"cannot read the time {text!r}: expected a duration such as 30m, 2h, 7d or 1w, a date such as "
        "2026-11-01, or an ISO 8601 time such as 2026-11-01T10:00:00Z")
