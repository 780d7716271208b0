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


def processes_with(argument: str) -> list[int]:
    """The running processes (zombies left out) whose command line has ``argument`` as one of its words."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                words = fh.read().split(b"\0")
        except OSError:
            continue
        if os.fsencode(argument) in words and alive(int(name)):
            found.append(int(name))
    return found


def describe(pid: int) -> str:
    """What ``pid`` is doing, for a failure message: its state and each thread's state and kernel wait."""
    if not alive(pid):
        return f"process {pid} is not running"
    parts = []
    for tid in sorted(os.listdir(f"/proc/{pid}/task"), key=int):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
            with open(f"/proc/{pid}/task/{tid}/wchan") as fh:
                wchan = fh.read().strip() or "-"
        except OSError:
            continue
        parts.append(f"thread {tid} {state} in {wchan}")
    return f"process {pid}: " + "; ".join(parts)
