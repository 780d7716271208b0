"""Helpers for tests that start real processes."""
from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for init to reap it does not)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


def as_user(uid: int, fn) -> str:
    """``fn()``'s result (or its exception, as text) in a forked child running as ``uid``: the loaded modules
    come along, so the child needs no interpreter or sources it could not read."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            try:
                message = str(fn())
            except Exception as exc:
                message = f"{type(exc).__name__}: {exc}"
            os.write(write_end, message.encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as fh:
        answer = fh.read().decode()
    os.waitpid(pid, 0)
    return answer
