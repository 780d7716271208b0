"""Is a file one that git can give back? Tracked in its repository's index, with the very content the index
holds, so that ``rm src/old.py`` loses nothing that ``git restore src/old.py`` does not bring back.

The index (``.git/index``, versions 2 to 4) is read here, not through the ``git`` program: the gate never
runs a program to decide. A parsed index is kept while the file's size, mtime and inode stay the same.
The file itself is looked at each time: it must be a regular file (not a symlink) whose size and blob
hash (``sha1("blob <size>\\0" + content)``, or SHA-256 in a repository of that object format) are the
index entry's, in stage 0 (no merge conflict). Anything else — no repository, an index this reader does
not know, a file git would filter on checkout (line endings, LFS) and so hashes differently, a file larger
than ``MAX_FILE_BYTES`` — answers False, and the deletion is asked about as before.
"""
from __future__ import annotations

import hashlib
import os
import posixpath
import stat
import struct
from typing import Final

MAX_FILE_BYTES: Final = 8 * 1024 * 1024
MAX_INDEX_BYTES: Final = 64 * 1024 * 1024

_Entry = tuple[int, int, bytes]  # mode, size, object id
_cache: Final[dict[str, tuple[tuple[int, int, int], dict[str, _Entry]]]] = {}


def restorable(path: str, root: str) -> bool:
    """Whether normalized ``path``, inside the project ``root``, is a tracked file whose content git holds."""
    if not root or root == "/" or not path.startswith(root.rstrip("/") + "/"):
        return False
    found = _repository(path, root)
    if found is None:
        return False
    top, git_dir = found
    entries = _entries(git_dir)
    if entries is None:
        return False
    entry = entries.get(path[len(top) + 1:])
    if entry is None:
        return False
    mode, size, oid = entry
    if mode not in (0o100644, 0o100755):
        return False  # a symlink or a submodule: not a plain file git restores byte for byte
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return False
    if not stat.S_ISREG(st.st_mode) or st.st_size != size or size > MAX_FILE_BYTES:
        return False
    data = _read(path, MAX_FILE_BYTES)
    if data is None or len(data) != size:
        return False
    header = b"blob %d\0" % size
    digest = (hashlib.sha256 if len(oid) == 32 else hashlib.sha1)(header + data).digest()
    return digest == oid


def _read(path: str, limit: int) -> bytes | None:
    """Up to ``limit`` + 1 bytes of ``path`` (one more than allowed: too long shows), or None."""
    try:
        with open(path, "rb") as fh:
            return fh.read(limit + 1)
    except (OSError, ValueError):
        return None


def _repository(path: str, root: str) -> tuple[str, str] | None:
    """(work tree top, git directory) of the repository holding ``path``, looked for from the file's
    directory up to ``root``; None when there is none there."""
    top = posixpath.dirname(path)
    stop = root.rstrip("/")
    while True:
        dot = top + "/.git"
        try:
            st = os.stat(dot)
        except (OSError, ValueError):
            st = None
        if st is not None:
            if stat.S_ISDIR(st.st_mode):
                return top, dot
            linked = _gitdir_file(dot, top)  # a worktree or a submodule: `.git` says where its directory is
            return (top, linked) if linked is not None else None
        if top == stop or len(top) <= len(stop):
            return None
        top = posixpath.dirname(top)


def _gitdir_file(dot: str, top: str) -> str | None:
    try:
        with open(dot, encoding="utf-8", errors="replace") as fh:
            line = fh.read(4096).strip()
    except (OSError, ValueError):
        return None
    if not line.startswith("gitdir:"):
        return None
    where = line[len("gitdir:"):].strip()
    return posixpath.normpath(where if where.startswith("/") else posixpath.join(top, where))


def _entries(git_dir: str) -> dict[str, _Entry] | None:
    index = git_dir + "/index"
    try:
        st = os.stat(index)
    except (OSError, ValueError):
        return None
    key = (st.st_size, st.st_mtime_ns, st.st_ino)
    got = _cache.get(index)
    if got is not None and got[0] == key:
        return got[1]
    if st.st_size > MAX_INDEX_BYTES:
        return None
    data = _read(index, MAX_INDEX_BYTES)
    if data is None:
        return None
    entries = parse_index(data, _hash_size(git_dir))
    if entries is None:
        return None
    if len(_cache) >= 16:
        _cache.clear()
    _cache[index] = (key, entries)
    return entries


def _hash_size(git_dir: str) -> int:
    """20 (SHA-1), or 32 when the repository's ``extensions.objectformat`` is sha256."""
    for where in (git_dir, _common_dir(git_dir)):
        if where is None:
            continue
        try:
            with open(where + "/config", encoding="utf-8", errors="replace") as fh:
                text = fh.read(1024 * 1024)
        except (OSError, ValueError):
            continue
        for line in text.splitlines():
            name, _, value = line.partition("=")
            if name.strip().lower() == "objectformat" and value.strip().lower() == "sha256":
                return 32
    return 20


def _common_dir(git_dir: str) -> str | None:
    try:
        with open(git_dir + "/commondir", encoding="utf-8", errors="replace") as fh:
            where = fh.read(4096).strip()
    except (OSError, ValueError):
        return None
    return posixpath.normpath(where if where.startswith("/") else posixpath.join(git_dir, where))


def parse_index(data: bytes, hash_size: int = 20) -> dict[str, _Entry] | None:
    """The stage-0 entries of a git index file (path → mode, size, object id), or None when ``data`` is
    not an index of version 2, 3 or 4. Entries in a merge conflict (stages 1-3) are left out."""
    if len(data) < 12 or data[:4] != b"DIRC":
        return None
    version, count = struct.unpack(">II", data[4:12])
    if version not in (2, 3, 4):
        return None
    out: dict[str, _Entry] = {}
    conflicted: set[str] = set()
    pos, n = 12, len(data)
    fixed = 40 + hash_size + 2  # ten 32-bit stat fields, the object id, the flags
    previous = b""
    for _ in range(count):
        if pos + fixed > n:
            return None
        start = pos
        mode, size = struct.unpack(">I", data[pos + 24:pos + 28])[0], struct.unpack(">I", data[pos + 36:pos + 40])[0]
        oid = data[pos + 40:pos + 40 + hash_size]
        flags = struct.unpack(">H", data[pos + 40 + hash_size:pos + fixed])[0]
        pos += fixed
        if flags & 0x4000:
            if version < 3:
                return None
            pos += 2  # the extended flags (skip-worktree, intent-to-add)
        if version == 4:
            strip, pos = _varint(data, pos)
            if strip is None or strip > len(previous):
                return None
            end = data.find(b"\0", pos)
            if end < 0:
                return None
            name = previous[:len(previous) - strip] + data[pos:end]
            pos = end + 1
        else:
            end = data.find(b"\0", pos)
            if end < 0:
                return None
            name = data[pos:end]
            pos = start + ((end - start) // 8 + 1) * 8  # 1 to 8 NULs pad the entry to a multiple of 8
        previous = name
        text = name.decode("utf-8", "surrogateescape")
        if (flags >> 12) & 3:
            conflicted.add(text)
        else:
            out[text] = (mode, size, oid)
    for text in conflicted:
        out.pop(text, None)
    return out


def _varint(data: bytes, pos: int) -> tuple[int | None, int]:
    """Git's offset varint (index version 4): seven bits a byte, each continuation adding one."""
    if pos >= len(data):
        return None, pos
    c = data[pos]
    pos += 1
    value = c & 0x7F
    while c & 0x80:
        if pos >= len(data) or value > 1 << 40:
            return None, pos
        c = data[pos]
        pos += 1
        value = ((value + 1) << 7) | (c & 0x7F)
    return value, pos
