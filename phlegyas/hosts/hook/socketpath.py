"""Who serves on the hook's socket path: probing it, and taking it over from a stale, stopped or hung
server, or from whatever else sits there.

Servers take the path one at a time, under an ``flock`` on ``<path>.bind.lock`` held only while they
probe and bind (never while serving, so a stopped server does not keep its replacement out). What
they find:

- nothing: the path is free;
- a socket nobody listens on (refused), or whose server does not say READY within PROBE_SECONDS
  (stopped, hung, not speaking the protocol): it is replaced;
- a socket whose server says READY: that server serves, and the newcomer leaves;
- anything else (a directory, a file, a symlink, a FIFO): an empty directory is removed, anything else
  is renamed aside to ``<path>.displaced-<time>-<pid>`` in the same directory. Nothing is deleted, no
  symlink is followed, and nothing outside the socket's own directory is touched. When even that
  fails, ``UnusablePath`` says why (the clients keep deciding in-process).

The new socket is bound at a temporary name in the same directory, already listening, then renamed
over the path: the path always names a socket (a client never finds it missing mid-takeover and starts
yet another server), and of two racing replacements the second sees the first answer and leaves. A
replaced server notices that the path is no longer its socket and stops.
"""
from __future__ import annotations

import errno
import fcntl
import os
import socket
import stat
import time
from contextlib import contextmanager
from typing import Iterator

from phlegyas.hosts.hook.client import READY, _Path

PROBE_SECONDS = 1.0
"""How long a probed server has to say READY (a client waits only ``hook.RESPONSIVE_SECONDS``)."""
LOCK_WAIT_SECONDS = 5.0
BACKLOG = 64

FREE, STALE, UNRESPONSIVE, ALIVE, OTHER = "free", "stale", "unresponsive", "alive", "not a socket"


class UnusablePath(Exception):
    """Something that is not a usable socket sits at the path, and it could not be moved aside."""


Identity = tuple  # (st_dev, st_ino) of the socket file a server bound


def identity(path: str) -> Identity | None:
    """What the path names now (not following a symlink), or None when nothing is there."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


def probe(path: str, timeout: float = PROBE_SECONDS) -> str:
    """What is at ``path``: FREE, STALE, UNRESPONSIVE, ALIVE or OTHER (never follows a symlink)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return FREE
    if not stat.S_ISSOCK(mode):
        return OTHER
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        deadline = time.monotonic() + timeout
        try:
            with _Path(path) as address:
                sock.connect(address)
        except FileNotFoundError:
            return FREE
        except ConnectionRefusedError:
            return STALE
        except OSError:  # a timeout, or a full backlog nobody accepts from
            return UNRESPONSIVE
        data = b""
        try:
            while len(data) < len(READY) and (left := deadline - time.monotonic()) > 0:
                sock.settimeout(left)
                chunk = sock.recv(len(READY) - len(data))
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
        return ALIVE if data == READY else UNRESPONSIVE
    finally:
        sock.close()


@contextmanager
def path_lock(path: str, wait: float = LOCK_WAIT_SECONDS) -> Iterator[bool]:
    """Hold ``<path>.bind.lock`` (yields True), or give up after ``wait`` seconds (yields False).
    (Not ``<path>.lock``, which servers before protocol 2 held for as long as they ran.)"""
    fd = os.open(path + ".bind.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(0.02)
        yield True
    finally:
        os.close(fd)  # releases the lock


def take(path: str, *, probe_seconds: float = PROBE_SECONDS, log=lambda line: None):
    """Bind a listening socket at ``path``, replacing a stale or unresponsive one and moving aside
    anything else; returns ``(socket, identity)``, or None when a live server has the path (or is
    taking it). Raises UnusablePath, or OSError when the directory itself cannot be used."""
    with path_lock(path) as held:
        if not held:
            log(f"the socket's bind lock stayed taken for {LOCK_WAIT_SECONDS:.0f} s")
            return None
        found = probe(path, probe_seconds)
        if found == ALIVE:
            return None
        if found == OTHER:
            log(clear(path))
        elif found == UNRESPONSIVE:
            log("the server on the socket did not answer: taking its place")
        return _bind_over(path)


def clear(path: str) -> str:
    """Remove an empty directory at ``path``, or rename whatever is there aside; says what it did.
    Raises UnusablePath when neither works."""
    mode = os.lstat(path).st_mode
    kind = _kind(mode)
    if stat.S_ISDIR(mode):
        try:
            os.rmdir(path)
            return f"the socket path was an empty directory: removed it ({path})"
        except OSError as exc:
            if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                raise UnusablePath(f"{path} is a directory that cannot be removed: {exc.strerror}") from None
    aside = f"{path}.displaced-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
    try:
        os.rename(path, aside)  # renames a symlink itself, never its target
    except OSError as exc:
        raise UnusablePath(f"{path} is {kind} that cannot be moved aside: {exc.strerror}") from None
    return f"the socket path was {kind}: moved it aside to {aside}"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a non-empty directory"
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISREG(mode):
        return "a file"
    return "something other than a socket"


def _bind_over(path: str):
    temporary = f"{path}.{os.getpid()}.new"
    try:
        os.unlink(temporary)  # a leftover of a server with our pid that died mid-bind
    except FileNotFoundError:
        pass
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        old_umask = os.umask(0o177)
        try:
            with _Path(temporary) as address:
                sock.bind(address)
        finally:
            os.umask(old_umask)
        try:
            os.chmod(temporary, 0o600)
            sock.listen(BACKLOG)
            bound = identity(temporary)
            os.rename(temporary, path)
        except BaseException:
            _unlink_quietly(temporary)
            raise
    except BaseException:
        sock.close()
        raise
    return sock, bound


def release(path: str, bound: Identity | None, *also: str) -> None:
    """Remove the socket file (and the files ``also`` names) if the path is still the one this server
    bound: a replacement's socket is never removed."""
    if bound is None:
        return
    try:
        with path_lock(path, wait=1.0) as held:
            if held and identity(path) == bound:
                for name in (path, *also):
                    _unlink_quietly(name)
    except OSError:
        pass


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
