"""Tier 2.5's store: scripts a person trusted once, by the SHA-256 of their content (trust on first use).

A person runs ``phlegyas-trust ./deploy.sh``; from then on a Bash call that runs that script is allowed
for as long as the file's content (after resolving symlinks) still hashes to what was trusted.

**The store** is JSON, ``{"version": 1, "scripts": {"<abs resolved path>": {"sha256", "size",
"trusted_by", "trusted_at", "note"}}}``, with a change log next to it (one JSON line per trust or
revoke). Writers take an exclusive ``flock`` on a sibling ``.lock`` file, read, modify, write a temp
file in the same directory (mode 0600), fsync it, ``os.replace`` it over the store and fsync the
directory, so concurrent writers never lose each other's entries. Readers take no lock: the store is
always replaced whole, so what they read is complete. A store that cannot be read, is not valid, or is
writable by other users raises ``TrustStoreError`` naming the file, and trusts nothing.

Which calls run a trusted script, and the decision, are ``phlegyas.trust.checker``'s.
"""

from __future__ import annotations

import datetime as _dt
import fcntl
import hashlib
import json
import os
import stat
from dataclasses import dataclass
from typing import Callable

from phlegyas.store.files import write_atomic

STORE_VERSION = 1
MAX_SCRIPT_BYTES = 64 * 1024 * 1024
"""Larger files are never hashed, so never trusted (a hook must answer fast)."""
MAX_STORE_BYTES = 16 * 1024 * 1024
_CHUNK = 1024 * 1024
TIER = "tier2_5_trusted"


class TrustStoreError(Exception):
    """The trust store cannot be read or written; the message names the file and what is wrong."""


class ScriptFileError(Exception):
    """A script cannot be hashed: missing, not a regular file, too large or unreadable."""


# -- entries ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TrustEntry:
    """One trusted script: its resolved path and the fingerprint a person approved."""

    path: str
    sha256: str
    size: int
    trusted_by: str
    trusted_at: str  # ISO 8601, UTC
    note: str = ""

    @property
    def day(self) -> str:
        return self.trusted_at[:10]

    def to_json(self) -> dict:
        return {"sha256": self.sha256, "size": self.size, "trusted_by": self.trusted_by,
                "trusted_at": self.trusted_at, "note": self.note}

    @classmethod
    def from_json(cls, path: str, data: object, where: str) -> "TrustEntry":
        """Validate one entry of the store; raises TrustStoreError naming ``where``."""
        bad = f"{where}: entry for {path!r}"
        if not path.startswith("/"):
            raise TrustStoreError(f"{bad}: expected an absolute path as the key")
        if not isinstance(data, dict):
            raise TrustStoreError(f"{bad}: expected an object, got {type(data).__name__}")
        digest = data.get("sha256")
        if not (isinstance(digest, str) and len(digest) == 64 and all(c in "0123456789abcdef" for c in digest)):
            raise TrustStoreError(f"{bad}: 'sha256' must be 64 lower-case hex digits")
        size = data.get("size")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise TrustStoreError(f"{bad}: 'size' must be a non-negative integer")
        for key in ("trusted_by", "trusted_at"):
            if not isinstance(data.get(key), str):
                raise TrustStoreError(f"{bad}: {key!r} must be a string")
        note = data.get("note", "")
        if note is None:
            note = ""
        if not isinstance(note, str):
            raise TrustStoreError(f"{bad}: 'note' must be a string")
        return cls(path, digest, size, data["trusted_by"], data["trusted_at"], note)


def utc_now() -> str:
    """Now, as ISO 8601 UTC to the second (``2026-11-30T03:18:00Z``)."""
    now = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0)
    return now.isoformat().replace("+00:00", "Z")


def default_log_path(store_path: str) -> str:
    """The change log next to the store: ``trusted-scripts.json`` → ``trusted-scripts.log``."""
    base = store_path[:-5] if store_path.endswith(".json") else store_path
    return base + ".log"


# -- the store -------------------------------------------------------------------------------------

class TrustStore:
    """The trusted scripts on disk. ``load`` never locks; ``add``/``remove`` lock, rewrite atomically
    and append one line to the change log."""

    def __init__(self, path: str, log_path: str | None = None):
        self.path = path
        self.log_path = log_path or default_log_path(path)
        self.lock_path = path + ".lock"

    def load(self) -> dict[str, TrustEntry]:
        """Every entry by resolved path; {} when the store does not exist yet. Raises TrustStoreError."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise TrustStoreError(f"{self.path}: cannot read the trust store: {exc.strerror or exc}") from None
        try:
            _check_store_file(self.path, os.fstat(fd))
            data = _read_fd(fd, MAX_STORE_BYTES + 1)
        except OSError as exc:
            raise TrustStoreError(f"{self.path}: cannot read the trust store: {exc.strerror or exc}") from None
        finally:
            os.close(fd)
        if len(data) > MAX_STORE_BYTES:
            raise TrustStoreError(f"{self.path}: trust store larger than {_size_text(MAX_STORE_BYTES)}")
        return parse_store(data, self.path)

    def get(self, path: str) -> TrustEntry | None:
        return self.load().get(path)

    def add(self, entry: TrustEntry) -> TrustEntry | None:
        """Trust ``entry`` (replacing any entry for its path); returns the entry it replaced."""
        def change(entries: dict[str, TrustEntry]) -> TrustEntry | None:
            previous = entries.get(entry.path)
            entries[entry.path] = entry
            return previous

        record = {"action": "trust", "path": entry.path, "sha256": entry.sha256, "size": entry.size,
                  "by": entry.trusted_by, "note": entry.note}
        return self._update(change, record, entry.trusted_at)

    def remove(self, path: str, by: str) -> TrustEntry | None:
        """Revoke the entry for ``path``; returns it, or None when it was not trusted (nothing is written)."""
        def change(entries: dict[str, TrustEntry]) -> TrustEntry | None:
            return entries.pop(path, None)

        return self._update(change, {"action": "revoke", "path": path, "by": by}, utc_now())

    # -- writing -----------------------------------------------------------------------------------
    def _update(self, change: Callable[[dict[str, TrustEntry]], TrustEntry | None], record: dict,
                when: str) -> TrustEntry | None:
        directory = os.path.dirname(self.path) or "."
        try:
            os.makedirs(directory, mode=0o700, exist_ok=True)
            with _locked(self.lock_path):
                entries = self.load()
                result = change(entries)
                revoke = record["action"] == "revoke"
                if revoke and result is None:
                    return None  # nothing to revoke: nothing written
                self._write(entries, directory)
                if result is not None:
                    record["sha256" if revoke else "previous_sha256"] = result.sha256
                _append_line(self.log_path, {"ts": when, **record})
                return result
        except OSError as exc:
            where = exc.filename or self.path
            raise TrustStoreError(f"{where}: cannot update the trust store: {exc.strerror or exc}") from None

    def _write(self, entries: dict[str, TrustEntry], directory: str) -> None:
        data = {"version": STORE_VERSION, "scripts": {p: e.to_json() for p, e in sorted(entries.items())}}
        write_atomic(self.path, json.dumps(data, indent=2, ensure_ascii=False) + "\n", mode=0o600)


def parse_store(data: bytes, where: str) -> dict[str, TrustEntry]:
    """Validate the store's bytes; raises TrustStoreError naming ``where`` and what was expected."""
    hint = "; fix it, or move it away and trust the scripts again — until then nothing is trusted"
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise TrustStoreError(f"{where}: trust store is not UTF-8 text{hint}") from None
    except json.JSONDecodeError as exc:
        raise TrustStoreError(f"{where}: trust store is not valid JSON (line {exc.lineno}, column "
                              f"{exc.colno}: {exc.msg}; truncated?){hint}") from None
    except RecursionError:
        raise TrustStoreError(f"{where}: trust store is nested too deeply to be one{hint}") from None
    if not isinstance(doc, dict):
        raise TrustStoreError(f"{where}: expected a JSON object with 'version' and 'scripts'{hint}")
    if doc.get("version") != STORE_VERSION:
        raise TrustStoreError(f"{where}: unsupported trust store version {doc.get('version')!r} "
                              f"(expected {STORE_VERSION}){hint}")
    scripts = doc.get("scripts")
    if not isinstance(scripts, dict):
        raise TrustStoreError(f"{where}: 'scripts' must be an object{hint}")
    return {path: TrustEntry.from_json(path, entry, where) for path, entry in scripts.items()}


def _read_fd(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes from ``fd``."""
    parts, size = [], 0
    while size < limit:
        chunk = os.read(fd, min(_CHUNK, limit - size))
        if not chunk:
            break
        parts.append(chunk)
        size += len(chunk)
    return b"".join(parts)


def _check_store_file(path: str, info: os.stat_result) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise TrustStoreError(f"{path}: trust store is not a regular file")
    if info.st_mode & 0o022:
        raise TrustStoreError(f"{path}: trust store is writable by other users (mode "
                              f"{stat.S_IMODE(info.st_mode):o}); run chmod 600 on it — until then nothing is trusted")
    if info.st_uid != os.getuid():
        raise TrustStoreError(f"{path}: trust store is owned by another user (uid {info.st_uid})")


class _locked:
    """An exclusive ``flock`` on ``path`` (created 0600) for the duration of a ``with`` block."""

    def __init__(self, path: str):
        self.path = path
        self.fd = -1

    def __enter__(self) -> "_locked":
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc) -> None:
        os.close(self.fd)  # closing releases the lock


def _append_line(path: str, record: dict) -> None:
    line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


# -- hashing and status ----------------------------------------------------------------------------

def hash_file(path: str, limit: int = MAX_SCRIPT_BYTES) -> tuple[str, int]:
    """SHA-256 hex digest and size of the regular file at ``path`` (symlinks followed), streamed.

    Raises ScriptFileError when it is missing, not a regular file, larger than ``limit`` or unreadable.
    """
    digest, size = hashlib.sha256(), 0
    for chunk in _chunks(path, limit):
        size += len(chunk)
        digest.update(chunk)
    return digest.hexdigest(), size


def read_script(path: str, limit: int = MAX_SCRIPT_BYTES) -> bytes:
    """The whole content of the script at ``path``, with the same checks as ``hash_file``."""
    return b"".join(_chunks(path, limit))


def _size_text(size: int) -> str:
    return f"{size // 2**20} MiB" if size >= 2**20 else f"{size} bytes"


def _chunks(path: str, limit: int):
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)  # a FIFO must not block the gate
    except FileNotFoundError:
        raise ScriptFileError("missing") from None
    except OSError as exc:
        raise ScriptFileError(f"cannot read it: {exc.strerror or exc}") from None
    too_large = f"larger than {_size_text(limit)}, never hashed"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ScriptFileError("not a regular file")
        if info.st_size > limit:
            raise ScriptFileError(too_large)
        size = 0
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError as exc:
                raise ScriptFileError(f"cannot read it: {exc.strerror or exc}") from None
            if not chunk:
                return
            size += len(chunk)
            if size > limit:
                raise ScriptFileError(too_large)
            yield chunk
    finally:
        os.close(fd)


@dataclass(frozen=True)
class TrustStatus:
    """A script's file now compared with its entry in the store."""

    path: str  # resolved absolute path
    entry: TrustEntry | None
    sha256: str | None  # the hash now; None when the file could not be hashed
    problem: str | None = None  # why it could not be hashed

    @property
    def trusted(self) -> bool:
        return self.entry is not None and self.sha256 == self.entry.sha256

    @property
    def state(self) -> str:
        """``trusted``, ``changed``, ``missing``, ``unreadable``; ``unknown`` (not in the store) or
        ``absent`` (not in the store and no such file)."""
        if self.entry is None:
            return "absent" if self.problem == "missing" else "unknown"
        if self.sha256 is None:
            return "missing" if self.problem == "missing" else "unreadable"
        return "trusted" if self.trusted else "changed"

    @property
    def summary(self) -> str:
        """The state in words, without the path: ``trusted by alice on 2026-11-30, hash matches`` …"""
        entry = self.entry
        if entry is None:
            return "does not exist" if self.problem == "missing" else "not trusted (phlegyas-trust PATH trusts it)"
        since = f"trusted by {entry.trusted_by} on {entry.day}"
        if self.sha256 is None:
            return f"was {since} but is {self.problem} now"
        if self.trusted:
            return f"{since}, hash matches"
        return f"hash changed since {since}: was {entry.sha256[:12]}…, now {self.sha256[:12]}…"

    def describe(self) -> str:
        return f"{self.path}: {self.summary}"


def status_of(path: str, entries: dict[str, TrustEntry]) -> TrustStatus:
    """Hash ``path`` (already resolved) now and compare it with its entry, if any."""
    entry = entries.get(path)
    if entry is None:
        return TrustStatus(path, None, None, None if os.path.exists(path) else "missing")
    try:
        digest, _ = hash_file(path)
    except ScriptFileError as exc:
        return TrustStatus(path, entry, None, str(exc))
    return TrustStatus(path, entry, digest)


def verify_all(entries: dict[str, TrustEntry]) -> list[TrustStatus]:
    """Every trusted script, hashed now, in path order."""
    return [status_of(path, entries) for path in sorted(entries)]
