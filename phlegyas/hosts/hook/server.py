"""The resident hook decision server: the gate stays loaded, so a hook call costs one round trip.

``phlegyas-hook`` (``phlegyas.hosts.hook.client``) starts it on demand (``spawn_server``: double fork, new
session, at most once every few seconds) as ``python -m phlegyas.hosts.hook.server --socket PATH``.
It warms up, then takes the Unix socket in ``<data dir>/hookd/`` (directory 0700, socket 0600; see
``socketpath`` for how it replaces a stale, stopped or hung server, or moves aside whatever else
sits there), answers only clients of its own uid (``SO_PEERCRED``), serves each connection in a
thread, and exits after ``--idle`` seconds without a request, when its socket file is removed or
replaced, or when the installed phlegyas code changes (it then tells the client to decide by
itself). Before it exits it finishes the decisions under way. When the path cannot be recovered it
says so once in its log, and the clients start no server for a minute at a time.

Correctness does not depend on the server's state: each request carries the client's environment and
working directory, and is decided by ``decide.handle`` with a runtime built for that request, so
policy files, settings and ``.env`` are read as they are now. Decisions run one at a time (the shell
parser is shared). PermissionRequest events, which may wait for an AI or a person, are handed back to
the client, which decides them in its own process.

Wire format (one request per connection):

- the server, as soon as it accepts: ``PHLEGYAS-HOOK/3 READY\\n``. The client sends its request only
  after this, within ``hook.RESPONSIVE_SECONDS``; a stopped or hung server never gets a request it
  could decide later, when its client has long decided by itself;
- request: ``PHLEGYAS-HOOK/3 <env bytes> <cwd bytes> <event bytes> <deadline>\\n`` then the environment
  (``KEY=value`` joined by NUL), the working directory, and the raw event. ``deadline`` is when the
  client stops waiting (``time.monotonic()`` in microseconds). The client sends nothing more, so
  anything readable afterwards means it has gone;
- reply: ``PHLEGYAS-HOOK/3 <exit status> <stdout bytes> <stderr bytes>\\n`` then stdout and stderr,
  or ``PHLEGYAS-HOOK/3 L 0 0\\n``: "decide it yourself".

A decision is claimed twice, before it is made and right before it is audited: the client must still
be connected, and its deadline at least CLAIM_MARGIN_SECONDS away. Otherwise the decision is dropped,
unaudited (the client decides, and audits, by itself), and the client, if still there, is told to
decide.
"""
from __future__ import annotations

import argparse
import json
import os
import select
import signal
import socket
import struct
import sys
import threading
import time
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Callable, Mapping, NamedTuple, Sequence

from phlegyas.hosts.hook import socketpath
from phlegyas.hosts.hook.client import DECISION_SECONDS, MAX_EVENT_BYTES, PACKAGE_DIR, PROTOCOL, READY
from phlegyas.hosts.hook.decide import Audit, handle
from phlegyas.hosts.hook.dialects.base import PERMISSION
from phlegyas.hosts.hook.spawn import postpone_spawns
from phlegyas.runtime import settle_heap

MAX_ENV_BYTES = 1024 * 1024
MAX_CWD_BYTES = 4096
MAX_HEADER_BYTES = 128
READ_TIMEOUT_SECONDS = 10.0
POLL_SECONDS = 2.0
CLAIM_MARGIN_SECONDS = 2.0
"""A decision is made and audited at least this long before its client stops waiting."""
DRAIN_SECONDS = DECISION_SECONDS
UNUSABLE_RETRY_SECONDS = 60.0
"""When the socket path cannot be recovered, clients start no server for this long."""
STAMP_INTERVAL_SECONDS = 1.0
LOG_LIMIT_BYTES = 1024 * 1024
DEFER = (PERMISSION,)
"""What the server leaves to its client: a call that may wait for a person (the client waits in-process)."""

Claim = Callable[[], bool]
Handler = Callable[[bytes, Mapping[str, str], str, Claim], "tuple[int, bytes, bytes] | None"]


class ProtocolError(Exception):
    """A request that does not follow the wire format."""


class ClientLeft(ProtocolError):
    """The client closed before sending a byte (a probe, or a client that stopped waiting)."""


class Request(NamedTuple):
    environ: dict[str, str]
    cwd: str
    raw: bytes
    deadline: float
    """When the client stops waiting, on this process's ``time.monotonic()`` clock."""


# -- the wire format -------------------------------------------------------------------------------

def _read_exact(conn: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = conn.recv(min(left, 1 << 16))
        if not chunk:
            raise ProtocolError(f"request cut short ({size - left} of {size} bytes)")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _read_header(conn: socket.socket) -> bytes:
    data = b""
    while b"\n" not in data:
        chunk = conn.recv(1)
        if not chunk:
            raise ClientLeft("no request") if not data else ProtocolError("request header cut short")
        data += chunk
        if len(data) > MAX_HEADER_BYTES:
            raise ProtocolError("request header too long")
    return data[:-1]


def read_request(conn: socket.socket) -> Request:
    """One request. Raises ProtocolError."""
    parts = _read_header(conn).split(b" ")
    if len(parts) != 5 or parts[0] != PROTOCOL or not all(p.isdigit() and len(p) < 20 for p in parts[1:]):
        raise ProtocolError("malformed request header")
    env_len, cwd_len, raw_len, deadline_us = (int(p) for p in parts[1:])
    if env_len > MAX_ENV_BYTES or cwd_len > MAX_CWD_BYTES or raw_len > MAX_EVENT_BYTES + 1:
        raise ProtocolError("request too large")
    env = _read_exact(conn, env_len)
    cwd = os.fsdecode(_read_exact(conn, cwd_len))
    raw = _read_exact(conn, raw_len)
    if not cwd.startswith("/"):
        raise ProtocolError("the working directory must be absolute")
    # the client's clock is this one (CLOCK_MONOTONIC is system-wide); a deadline further off than any
    # client sets is not believed
    deadline = min(deadline_us / 1e6, time.monotonic() + DECISION_SECONDS)
    return Request(decode_environ(env), cwd, raw, deadline)


def decode_environ(data: bytes) -> dict[str, str]:
    environ = {}
    for item in data.split(b"\0") if data else ():
        key, sep, value = item.partition(b"=")
        if not sep or not key:
            raise ProtocolError("malformed environment entry")
        environ[os.fsdecode(key)] = os.fsdecode(value)
    return environ


def encode_reply(answer: tuple[int, bytes, bytes] | None) -> bytes:
    if answer is None:
        return PROTOCOL + b" L 0 0\n"
    code, out, err = answer
    return b"%s %d %d %d\n" % (PROTOCOL, code, len(out), len(err)) + out + err


def peer_uid(conn: socket.socket) -> int:
    """The uid of the process at the other end of a Unix socket (``SO_PEERCRED``)."""
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return struct.unpack("3i", creds)[1]


class ClientClaim:
    """Whether the client of ``conn`` still waits for its answer: still connected (it sends nothing
    after its request, so anything readable means it closed) and CLAIM_MARGIN_SECONDS before its
    deadline. Once it says no, it keeps saying no (``refused``)."""

    def __init__(self, conn: socket.socket, deadline: float):
        self.conn = conn
        self.deadline = deadline
        self.refused = False

    def __call__(self) -> bool:
        if not self.refused:
            self.refused = time.monotonic() > self.deadline - CLAIM_MARGIN_SECONDS or _readable(self.conn)
        return not self.refused


def _readable(conn: socket.socket) -> bool:
    poller = select.poll()
    poller.register(conn, select.POLLIN | select.POLLHUP | select.POLLERR)
    return bool(poller.poll(0))


# -- code identity ---------------------------------------------------------------------------------

def code_stamp(package_dir: str) -> tuple:
    """What identifies the installed code: every module's path, size and mtime under ``package_dir``
    (sources and, in a compiled install, the extension modules)."""
    suffixes = (".py", *EXTENSION_SUFFIXES)
    stamp = []
    for root, dirs, files in os.walk(package_dir):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(suffixes):
                path = os.path.join(root, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                stamp.append((path, st.st_size, st.st_mtime_ns))
    return tuple(stamp)


# -- the server ------------------------------------------------------------------------------------

class HookServer:
    """Serve hook decisions on the Unix socket ``path`` until idle, replaced or outdated.

    ``uid`` is the only client uid served (default: this process's); ``stamp`` returns the code's
    identity, checked before a request at most every ``stamp_interval`` seconds (walking the package
    costs about a third of a decision)."""

    def __init__(self, path: str, handler: Handler, *, idle_seconds: float = 1800, uid: int | None = None,
                 stamp: Callable[[], object] | None = None, log: Callable[[str], None] | None = None,
                 poll_seconds: float = POLL_SECONDS, stamp_interval: float = STAMP_INTERVAL_SECONDS,
                 probe_seconds: float = socketpath.PROBE_SECONDS):
        self.path = path
        self.poll_seconds = poll_seconds
        self.probe_seconds = probe_seconds
        self.stamp_interval = stamp_interval
        self._stamp_checked = time.monotonic()
        self.handler = handler
        self.idle_seconds = idle_seconds
        self.uid = os.getuid() if uid is None else uid
        self.stamp = stamp
        self.log = log or (lambda line: None)
        self._initial_stamp = stamp() if stamp else None
        self._decide_lock = threading.Lock()
        self._last_activity = time.monotonic()
        self._stopping = threading.Event()
        self._sock: socket.socket | None = None
        self._bound: socketpath.Identity | None = None
        self._connections: dict[threading.Thread, tuple[socket.socket, list[bool]]] = {}
        self._connections_lock = threading.Lock()
        self.served = 0

    # lifecycle

    def bind(self) -> bool:
        """Take the socket path (replacing a stale or unresponsive server, moving aside what is not a
        socket); False when a live server holds it. Raises ``socketpath.UnusablePath``."""
        directory = os.path.dirname(self.path)
        secure_directory(directory, os.getuid())
        taken = socketpath.take(self.path, probe_seconds=self.probe_seconds, log=self.log)
        if taken is None:
            return False
        self._sock, self._bound = taken
        self._sock.settimeout(self.poll_seconds)
        _write_file(self.path + ".pid", f"{os.getpid()}\n")
        return True

    def serve_forever(self) -> str:
        """Accept until a stop condition; returns why it stopped."""
        assert self._sock is not None, "bind() first"
        while not self._stopping.is_set():
            why = self._should_stop()
            if why:
                return why
            try:
                conn, _ = self._sock.accept()
            except socket.timeout:
                continue
            except OSError as exc:
                return f"accept failed: {exc}"
            self._last_activity = time.monotonic()
            thread = threading.Thread(target=self._serve_connection, args=(conn,), daemon=True)
            with self._connections_lock:
                self._connections[thread] = (conn, [False])
            thread.start()
        return "code changed"

    def close(self) -> None:
        """Give the socket path up (unless a replacement has it), then finish the decisions under way:
        connections still sending their request are cut (their clients decide by themselves)."""
        socketpath.release(self.path, self._bound, self.path + ".pid")
        self._bound = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        with self._connections_lock:
            connections = list(self._connections.items())
        for _, (conn, deciding) in connections:
            if not deciding[0]:
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        deadline = time.monotonic() + DRAIN_SECONDS
        for thread, _ in connections:
            thread.join(max(0.0, deadline - time.monotonic()))

    def _should_stop(self) -> str | None:
        if time.monotonic() - self._last_activity > self.idle_seconds:
            return "idle"
        now = socketpath.identity(self.path)
        if now is None:
            return "socket removed"
        if now != self._bound:
            return "socket replaced"
        return None

    # one connection

    def _serve_connection(self, conn: socket.socket) -> None:
        me = threading.current_thread()
        with conn:
            try:
                uid = peer_uid(conn)
                if uid != self.uid:
                    self.log(f"refused a client of uid {uid}")
                    return
                conn.settimeout(READ_TIMEOUT_SECONDS)
                try:
                    conn.sendall(READY)
                except OSError:
                    return  # the client gave up waiting for READY: nothing was asked
                request = read_request(conn)
                with self._connections_lock:
                    self._connections[me][1][0] = True  # a decision under way: close() waits for it
                claim = ClientClaim(conn, request.deadline)
                answer = self._answer(request, claim)
                if claim.refused:
                    self.log("dropped a request: its client stopped waiting (it decides by itself)")
                    answer = None
                conn.sendall(encode_reply(answer))
            except ClientLeft:
                pass  # a probe, or a client that gave up waiting for READY: nothing was asked
            except (OSError, ProtocolError) as exc:
                self.log(f"bad request: {exc}")
            except Exception as exc:  # noqa: BLE001 - the client falls back to deciding by itself
                self.log(f"error: {type(exc).__name__}: {exc}")
            finally:
                self._last_activity = time.monotonic()
                with self._connections_lock:
                    self._connections.pop(me, None)

    def _code_changed(self) -> bool:
        """Whether the code differs from what was loaded (checked at most every ``stamp_interval``)."""
        if self.stamp is None or self._stopping.is_set():
            return self._stopping.is_set()
        now = time.monotonic()
        if now - self._stamp_checked < self.stamp_interval:
            return False
        self._stamp_checked = now
        if self.stamp() == self._initial_stamp:
            return False
        self.log("the phlegyas code changed: handing back, then stopping")
        self._stopping.set()
        return True

    def _answer(self, request: Request, claim: ClientClaim) -> tuple[int, bytes, bytes] | None:
        if self._code_changed():
            return None
        started = time.perf_counter()
        with self._decide_lock:
            if not claim():
                return None
            answer = self.handler(request.raw, request.environ, request.cwd, claim)
        if claim.refused:
            return None
        self.served += 1
        what = "deferred" if answer is None else f"exit {answer[0]}, {len(answer[1])} bytes"
        self.log(f"request {self.served}: {what} in {(time.perf_counter() - started) * 1e6:.0f} us")
        return answer


def secure_directory(directory: str, uid: int) -> None:
    """Refuse a socket directory that another user owns (and make ours 0700). It is not created here:
    the client made it, and if it is gone, so is the home this server was started for."""
    st = os.stat(directory)
    if st.st_uid != uid:
        raise PermissionError(f"{directory} belongs to uid {st.st_uid}, not {uid}")
    if st.st_mode & 0o077:
        os.chmod(directory, 0o700)


def _write_file(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(text)


# -- the process -----------------------------------------------------------------------------------

class FileLog:
    """Timestamped lines appended to a file, cut back when it grows past LOG_LIMIT_BYTES."""

    def __init__(self, path: str):
        self.path = path
        self._lock = threading.Lock()

    def __call__(self, line: str) -> None:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
        with self._lock:
            try:
                if os.path.getsize(self.path) > LOG_LIMIT_BYTES:
                    os.replace(self.path, self.path + ".1")
            except OSError:
                pass
            try:
                with open(self.path, "a", encoding="utf-8") as fh:
                    fh.write(f"{stamp} [{os.getpid()}] {line}\n")
            except OSError:  # its directory is gone: the server says nothing rather than fail
                pass


WARM_CALLS = (
    ("Bash", {"command": "git status && ls -la | grep x > /tmp/out"}),
    ("Bash", {"command": "rm -rf /tmp/phlegyas-warm-up"}),
    ("Write", {"file_path": "/tmp/phlegyas-warm-up/a.txt", "content": "x"}),
    ("WebFetch", {"url": "https://example.com/", "prompt": "read"}),
)


def warm() -> None:
    """Decide a few calls (audit off, an empty home) so that every lazy import is done before the
    first client arrives."""
    environ = {"HOME": "/nonexistent-phlegyas-warm-up", "ENABLE_AUDIT_LOG": "false"}
    for tool, tool_input in WARM_CALLS:
        event = {"hook_event_name": "PreToolUse", "cwd": "/", "tool_name": tool, "tool_input": tool_input}
        handle(json.dumps(event).encode(), environ, "/")


def decide(raw: bytes, environ: Mapping[str, str], cwd: str, claim: Claim | None = None
           ) -> tuple[int, bytes, bytes] | None:
    """The server's handler: ``decide.handle``, leaving PermissionRequest to the client, and dropping
    a decision ``claim`` refuses (its client has gone) before it is audited.

    It runs in the client's working directory, as the in-process decision would (decisions are
    serialized by the server, so changing this process's directory is safe)."""
    try:
        os.chdir(cwd)
    except OSError:
        os.chdir("/")
    return handle(raw, environ, cwd, defer=DEFER, audit=Audit("server", claim))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m phlegyas.hosts.hook.server", description=__doc__.split("\n\n")[0])
    parser.add_argument("--socket", required=True, help="the Unix socket path to serve on")
    parser.add_argument("--idle", type=float, default=1800, help="exit after this many seconds unused")
    parser.add_argument("--package", help="the phlegyas package directory the client runs (checked)")
    args = parser.parse_args(argv)
    log = FileLog(args.socket[:-len(".sock")] + ".log" if args.socket.endswith(".sock") else args.socket + ".log")
    package = PACKAGE_DIR
    _redirect_output(log.path)
    if args.package and os.path.realpath(args.package) != os.path.realpath(package):
        log(f"not starting: this is {package}, the client runs {args.package}")
        return 0
    server = HookServer(args.socket, decide, idle_seconds=args.idle, stamp=lambda: code_stamp(package), log=log)
    signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        if socketpath.probe(args.socket) == socketpath.ALIVE:  # before the warm-up, which costs a second
            log("another server answers on the socket: not starting")
            return 0
        warm()
        settle_heap()
        try:
            if not server.bind():
                log("another server answers on the socket, or is taking it: not starting")
                return 0
        except (socketpath.UnusablePath, OSError) as exc:
            _unusable(args.socket, str(exc), log)
            return 0
        _usable_again(args.socket, log)
        log(f"serving {args.socket} (python {sys.executable}, package {package}, idle {args.idle:.0f} s)")
        why = server.serve_forever()
        log(f"stopping: {why} after {server.served} requests")
    except SystemExit:
        log("stopping: terminated")
    except Exception as exc:  # noqa: BLE001 - the clients fall back to deciding in-process
        log(f"stopping on error: {type(exc).__name__}: {exc}")
    finally:
        server.close()
    return 0


def _unusable(path: str, reason: str, log: Callable[[str], None]) -> None:
    """Say once that the socket path cannot be used (whatever is there cannot be moved, or the
    directory cannot be used), and have the clients start no server for UNUSABLE_RETRY_SECONDS
    (they decide in-process meanwhile, as they do without a server)."""
    note = path + ".unusable"
    try:
        with open(os.open(note, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC), encoding="utf-8") as fh:
            said = fh.read()
    except (OSError, ValueError):
        said = None
    if said != reason:
        log(f"cannot serve: {reason}; the hook decides in-process (retrying every "
            f"{UNUSABLE_RETRY_SECONDS:.0f} s, quietly)")
        try:
            _write_file(note, reason)
        except OSError:
            pass
    postpone_spawns(path, UNUSABLE_RETRY_SECONDS)


def _usable_again(path: str, log: Callable[[str], None]) -> None:
    try:
        os.unlink(path + ".unusable")
    except OSError:
        return
    log("the socket path is usable again")


def _exit_on_signal(signum, frame) -> None:
    raise SystemExit(0)


def _redirect_output(path: str) -> None:
    """Send this detached process's stdout and stderr (warnings, a traceback) to its log file."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)


if __name__ == "__main__":
    status = main()
    os._exit(status)  # skip interpreter teardown (seconds with the gate loaded); every file is closed
