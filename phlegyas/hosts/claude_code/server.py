"""The resident hook decision server: the gate stays loaded, so a hook call costs one round trip.

``phlegyas-hook`` (``phlegyas.hosts.claude_code.hook``) starts it on demand (``spawn_server``: double fork, new
session, at most once every few seconds) as ``python -m phlegyas.hosts.claude_code.server --socket PATH``. It listens on a Unix socket in ``<data dir>/hookd/`` (directory 0700, socket 0600), answers
only clients of its own uid (``SO_PEERCRED``), serves each connection in a thread, and exits after
``--idle`` seconds without a request, when its socket file is removed or replaced, or when the
installed phlegyas code changes (it then tells the client to decide by itself).

Correctness does not depend on the server's state: each request carries the client's environment and
working directory, and is decided by ``decide.handle`` with a runtime built for that request, so
policy files, settings and ``.env`` are read as they are now. Decisions run one at a time (the shell
parser is shared). PermissionRequest events, which may wait for an AI or a person, are handed back to
the client, which decides them in its own process.

Wire format (one request per connection; the client half-closes after sending):

- request: ``PHLEGYAS-HOOK/1 <env bytes> <cwd bytes> <event bytes>\\n`` then the environment
  (``KEY=value`` joined by NUL), the working directory, and the raw event;
- reply: ``PHLEGYAS-HOOK/1 <exit status> <stdout bytes> <stderr bytes>\\n`` then stdout and stderr,
  or ``PHLEGYAS-HOOK/1 L 0 0\\n``: "decide it yourself".
"""
from __future__ import annotations

import argparse
import fcntl
import json
import os
import signal
import socket
import struct
import sys
import threading
import time
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Callable, Mapping, Sequence

from phlegyas.hosts.claude_code.decide import Audit, handle
from phlegyas.hosts.claude_code.hook import MAX_EVENT_BYTES, PACKAGE_DIR, PROTOCOL, _Path
from phlegyas.runtime import settle_heap

MAX_ENV_BYTES = 1024 * 1024
MAX_CWD_BYTES = 4096
MAX_HEADER_BYTES = 128
READ_TIMEOUT_SECONDS = 10.0
POLL_SECONDS = 2.0
STAMP_INTERVAL_SECONDS = 1.0
LOG_LIMIT_BYTES = 1024 * 1024
DEFER = ("PermissionRequest",)

Handler = Callable[[bytes, Mapping[str, str], str], "tuple[int, bytes, bytes] | None"]


class ProtocolError(Exception):
    """A request that does not follow the wire format."""


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
            raise ProtocolError("no request header")
        data += chunk
        if len(data) > MAX_HEADER_BYTES:
            raise ProtocolError("request header too long")
    return data[:-1]


def read_request(conn: socket.socket) -> tuple[dict[str, str], str, bytes]:
    """(environment, working directory, raw event) of one request. Raises ProtocolError."""
    parts = _read_header(conn).split(b" ")
    if len(parts) != 4 or parts[0] != PROTOCOL or not all(p.isdigit() for p in parts[1:]):
        raise ProtocolError("malformed request header")
    env_len, cwd_len, raw_len = (int(p) for p in parts[1:])
    if env_len > MAX_ENV_BYTES or cwd_len > MAX_CWD_BYTES or raw_len > MAX_EVENT_BYTES + 1:
        raise ProtocolError("request too large")
    env = _read_exact(conn, env_len)
    cwd = os.fsdecode(_read_exact(conn, cwd_len))
    raw = _read_exact(conn, raw_len)
    if not cwd.startswith("/"):
        raise ProtocolError("the working directory must be absolute")
    return decode_environ(env), cwd, raw


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
                 poll_seconds: float = POLL_SECONDS, stamp_interval: float = STAMP_INTERVAL_SECONDS):
        self.path = path
        self.poll_seconds = poll_seconds
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
        self._lock_fd: int | None = None
        self._inode: int | None = None
        self.served = 0

    # lifecycle

    def bind(self) -> bool:
        """Take the socket path (removing a stale socket); False when another server holds it."""
        directory = os.path.dirname(self.path)
        secure_directory(directory, os.getuid())
        lock_fd = os.open(self.path + ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(lock_fd)
            return False
        self._lock_fd = lock_fd
        try:
            os.unlink(self.path)  # we hold the lock, so whatever is there is stale
        except FileNotFoundError:
            pass
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_umask = os.umask(0o177)
        try:
            with _Path(self.path) as address:
                sock.bind(address)
        finally:
            os.umask(old_umask)
        os.chmod(self.path, 0o600)
        sock.listen(64)
        sock.settimeout(self.poll_seconds)
        self._sock = sock
        self._inode = os.stat(self.path).st_ino
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
            threading.Thread(target=self._serve_connection, args=(conn,), daemon=True).start()
        return "code changed"

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        try:
            if self._inode is not None and os.stat(self.path).st_ino == self._inode:
                os.unlink(self.path)
                os.unlink(self.path + ".pid")
        except OSError:
            pass
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _should_stop(self) -> str | None:
        if time.monotonic() - self._last_activity > self.idle_seconds:
            return "idle"
        try:
            if os.stat(self.path).st_ino != self._inode:
                return "socket replaced"
        except OSError:
            return "socket removed"
        return None

    # one connection

    def _serve_connection(self, conn: socket.socket) -> None:
        with conn:
            try:
                uid = peer_uid(conn)
                if uid != self.uid:
                    self.log(f"refused a client of uid {uid}")
                    return
                conn.settimeout(READ_TIMEOUT_SECONDS)
                environ, cwd, raw = read_request(conn)
                conn.sendall(encode_reply(self._answer(raw, environ, cwd)))
            except (OSError, ProtocolError) as exc:
                self.log(f"bad request: {exc}")
            except Exception as exc:  # noqa: BLE001 - the client falls back to deciding by itself
                self.log(f"error: {type(exc).__name__}: {exc}")
            finally:
                self._last_activity = time.monotonic()

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

    def _answer(self, raw: bytes, environ: dict[str, str], cwd: str) -> tuple[int, bytes, bytes] | None:
        if self._code_changed():
            return None
        started = time.perf_counter()
        with self._decide_lock:
            answer = self.handler(raw, environ, cwd)
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
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
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
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(f"{stamp} [{os.getpid()}] {line}\n")


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


def decide(raw: bytes, environ: Mapping[str, str], cwd: str) -> tuple[int, bytes, bytes] | None:
    """The server's handler: ``decide.handle``, leaving PermissionRequest to the client.

    It runs in the client's working directory, as the in-process decision would (decisions are
    serialized by the server, so changing this process's directory is safe)."""
    try:
        os.chdir(cwd)
    except OSError:
        os.chdir("/")
    return handle(raw, environ, cwd, defer=DEFER, audit=Audit("server"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m phlegyas.hosts.claude_code.server", description=__doc__.split("\n\n")[0])
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
        if not server.bind():
            log("another server holds the socket: not starting")
            return 0
        warm()
        settle_heap()
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
