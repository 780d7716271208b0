"""``phlegyas-hook [--agent NAME]``: the hook of every agent host (PROTOCOLS.md §1, §2, §6). One process
per tool call.

The host (Claude Code, Codex, Gemini CLI, Copilot CLI, Cursor, OpenCode's plugin) starts this program for
every tool call, so it is a thin client: it imports nothing
beyond what ``python -c pass`` has already loaded, plus ``_socket``. It hands the raw event, its
environment and its working directory to the resident decision server (``phlegyas.hosts.hook.server``) over a
per-user Unix socket, and prints the answer. When the server is absent, starting, stale or broken,
it decides in-process (``phlegyas.hosts.hook.decide``), with the same code, and starts a server for the
next call. A server that does not say READY within RESPONSIVE_SECONDS (stopped, hung) is given up on
at once, and a replacement is started; the request is sent only after READY, so a server that wakes
up later never decides it (see ``server`` for the exchange). Never fail open: an unusable server
answer means an in-process decision, and an error there means a block (exit 2, or a deny decision
for PermissionRequest; the host's own deny for the others). It never exits 1 and never prints a traceback.

``--agent NAME`` says whose event comes (``AGENTS``); it travels to the decision as ``PHLEGYAS_AGENT`` in
the environment handed over. Without it the host is recognised from the event's shape
(``phlegyas.hosts.hook.dialects.registry``). An unknown name is a block: its format is not known.

The few settings read here mirror ``phlegyas.policy.settings.Settings`` (which this module cannot afford to import):

- ``PHLEGYAS_HOME`` (default ``~/.claude/phlegyas``): the socket lives in ``<PHLEGYAS_HOME>/hookd/``;
- ``PHLEGYAS_HOOK_SERVER`` (``on``; ``off``/``0``/``false``/``no``): use the resident server or not;
- ``PHLEGYAS_HOOK_SERVER_IDLE`` (seconds, default 1800): how long an unused server stays up.
"""
import os
import sys
import time

PROTOCOL = b"PHLEGYAS-HOOK/3"  # 3: the environment names the agent host (PHLEGYAS_AGENT)
READY = PROTOCOL + b" READY\n"
MAX_EVENT_BYTES = 16 * 1024 * 1024
MAX_REPLY_BYTES = 4 * 1024 * 1024
RESPONSIVE_SECONDS = 0.3  # connect and READY: a live server says it in well under a millisecond
DECISION_SECONDS = 8.0  # then decide in-process: well within Claude Code's 30 s hook timeout
DEFAULT_IDLE_SECONDS = 1800
OFF_WORDS = ("0", "off", "false", "no")
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # phlegyas/

AGENTS = ("claude", "codex", "gemini", "copilot", "cursor", "opencode")
"""The hosts ``--agent`` names (the dialects' ``NAME``s: a test keeps the two lists equal)."""
AGENT_VARIABLE = "PHLEGYAS_AGENT"

_PERMISSION_REQUEST_DENY = (
    b'{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", '
    b'"message": "phlegyas: internal error (%s); denied"}}}\n')
_HOST_DENY = {  # the last resort in each host's own terms (exit 2 as well: a block for every host)
    "gemini": b'{"decision": "deny", "reason": "phlegyas: internal error (%s); blocked"}\n',
    "copilot": b'{"permissionDecision": "deny", "permissionDecisionReason": "phlegyas: internal error (%s); blocked"}\n',
    "cursor": b'{"permission": "deny", "user_message": "phlegyas: internal error (%s); blocked", '
              b'"agent_message": "phlegyas: internal error (%s); blocked"}\n',
    "opencode": b'{"decision": "deny", "reason": "phlegyas: internal error (%s); blocked"}\n',
}


def main(argv=None) -> int:
    """Console-script entry point: one event on stdin, the answer on stdout and in the exit status.
    ``argv`` (default ``sys.argv[1:]``): ``[--agent NAME]``."""
    args = sys.argv[1:] if argv is None else list(argv)
    agent = None
    if args[:1] == ["--agent"] and len(args) == 2:
        agent = args[1]
    elif len(args) == 1 and args[0].startswith("--agent="):
        agent = args[0][len("--agent="):]
    elif args:
        return emit((2, b"", b"phlegyas-hook: usage: phlegyas-hook [--agent " + "|".join(AGENTS).encode()
                     + b"] (one event on stdin); blocked\n"), 1, 2)
    return run(os.environ, agent=agent)


def run(environ, stdin: int = 0, stdout: int = 1, stderr: int = 2, *, agent: str | None = None) -> int:
    """Decide the event read from ``stdin`` with the settings of ``environ``; returns the exit status.
    ``agent`` names the host (else ``PHLEGYAS_AGENT`` in ``environ``, else the event's shape says)."""
    raw = b""
    if agent is not None:
        if agent not in AGENTS:
            return emit((2, b"", b"phlegyas-hook: unknown --agent %s (one of: %s); blocked\n"
                         % (agent.encode("utf-8", "backslashreplace")[:80], ", ".join(AGENTS).encode())), stdout, stderr)
        environ = {**environ, AGENT_VARIABLE: agent}
    try:
        raw = read_input(stdin)
        cwd = _getcwd()
        answer = None
        address = socket_address(environ, cwd)
        if address is not None:
            answer, start = ask_server(address, raw, environ, cwd)
            if start:
                start_server(address, environ)
        if answer is None:
            answer = decide_here(raw, environ, cwd)
    except BaseException as exc:  # noqa: BLE001 - the hook must never crash or print a traceback
        answer = last_resort(raw, type(exc).__name__, environ.get(AGENT_VARIABLE))
    return emit(answer, stdout, stderr)


def _getcwd() -> str:
    try:
        return os.getcwd()
    except OSError:  # the directory was removed: the event's own cwd is used anyway
        return "/"


def read_input(fd: int) -> bytes:
    """All of stdin, up to MAX_EVENT_BYTES + 1 bytes (the decision code rejects larger events)."""
    chunks = []
    size = 0
    while size <= MAX_EVENT_BYTES:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def emit(answer, stdout: int, stderr: int) -> int:
    """Write the answer; a decision that cannot be delivered is a block (exit 2)."""
    code, out, err = answer
    try:
        _write_all(stdout, out)
    except OSError:
        code, err = 2, b"phlegyas: cannot write the decision to stdout; blocked\n"
    try:
        _write_all(stderr, err)
    except OSError:
        pass
    return code


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def last_resort(raw: bytes, what: str, agent: str | None = None):
    """The answer when even the in-process decision failed: block, in the event's own terms."""
    name = "".join(c for c in what if c.isalnum() or c == "_")[:80].encode()
    if agent in _HOST_DENY:
        template = _HOST_DENY[agent]
        return 2, template.replace(b"%s", name), b"phlegyas: internal error (%s); blocked\n" % name
    if b'"PermissionRequest"' in raw[:1 << 20]:
        return 0, _PERMISSION_REQUEST_DENY % name, b""
    return 2, b"", b"phlegyas: internal error (%s); blocked\n" % name


def start_server(address: str, environ) -> None:
    """Start a server for the next call; a failure here only means the next call decides in-process."""
    try:
        from phlegyas.hosts.hook.spawn import spawn_server  # lean start-up: only when no server answered

        spawn_server(address, environ, package_dir=PACKAGE_DIR, idle=idle_seconds(environ))
    except Exception:  # noqa: BLE001
        pass


def decide_here(raw: bytes, environ, cwd: str):
    """Decide in this process (imports the whole gate); any error becomes a block."""
    try:
        import warnings  # lean start-up: only the in-process decision needs these

        warnings.simplefilter("ignore")  # stderr carries the reason: nothing else may land there
        from phlegyas.hosts.hook.decide import handle  # the whole gate: only when the server cannot answer

        return handle(raw, environ, cwd)
    except BaseException as exc:  # noqa: BLE001
        return last_resort(raw, type(exc).__name__, environ.get(AGENT_VARIABLE))


# -- where the server listens ----------------------------------------------------------------------

def data_dir(environ, cwd: str):
    """``Settings.data_dir`` for ``environ``, or None when it cannot be known cheaply."""
    home = environ.get("HOME", "").strip()
    if not home.startswith("/"):
        return None
    home = os.path.normpath(home)
    value = environ.get("PHLEGYAS_HOME", "").strip()
    if not value:
        return home + "/.claude/phlegyas"
    if value == "~" or value.startswith("~/"):
        value = home + value[1:]
    elif not value.startswith("/"):
        value = cwd + "/" + value
    return os.path.normpath(value)


def socket_address(environ, cwd: str):
    """The server's socket path for this interpreter and package, or None when the server is off.

    One server per (environment, interpreter, package, data dir): another install never talks to it;
    ``bin/python`` and ``bin/python3`` of one virtualenv share it.
    """
    if environ.get("PHLEGYAS_HOOK_SERVER", "").strip().lower() in OFF_WORDS:
        return None
    base = data_dir(environ, cwd)
    if base is None:
        return None
    python = os.path.dirname(sys.executable) + "\0" + os.path.realpath(sys.executable)
    return f"{base}/hookd/hookd-{_fnv1a(python + chr(0) + PACKAGE_DIR):08x}.sock"


def _fnv1a(text: str) -> int:
    value = 0x811C9DC5
    for byte in text.encode("utf-8", "surrogateescape"):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value


def idle_seconds(environ) -> int:
    value = environ.get("PHLEGYAS_HOOK_SERVER_IDLE", "").strip()
    return int(value) if value.isdigit() and 0 < int(value) < 10 ** 7 else DEFAULT_IDLE_SECONDS


class _Path:
    """A socket path short enough for ``sockaddr_un``: long ones go through ``/proc/self/fd``."""

    def __init__(self, path: str):
        self.path = path
        self.fd = None

    def __enter__(self) -> str:
        if len(os.fsencode(self.path)) < 100:
            return self.path
        directory, name = os.path.split(self.path)
        self.fd = os.open(directory, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        return f"/proc/self/fd/{self.fd}/{name}"

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)


# -- talking to the server -------------------------------------------------------------------------

def encode_request(raw: bytes, environ, cwd: str, deadline: float) -> bytes:
    """The request; ``deadline`` (``time.monotonic()``) is when this client stops waiting for the answer."""
    env = b"\0".join(os.fsencode(k) + b"=" + os.fsencode(v) for k, v in environ.items())
    where = os.fsencode(cwd)
    head = b"%s %d %d %d %d\n" % (PROTOCOL, len(env), len(where), len(raw), int(deadline * 1e6))
    return head + env + where + raw


def decode_reply(data: bytes):
    """``(exit status, stdout, stderr)``, or None for "decide it yourself" or anything malformed."""
    head, sep, body = data.partition(b"\n")
    parts = head.split(b" ")
    if not sep or len(parts) != 4 or parts[0] != PROTOCOL or parts[1] not in (b"0", b"2"):
        return None
    if not (parts[2].isdigit() and parts[3].isdigit()):
        return None
    out_len, err_len = int(parts[2]), int(parts[3])
    if out_len + err_len != len(body):
        return None
    return int(parts[1]), body[:out_len], body[out_len:]


def ask_server(address: str, raw: bytes, environ, cwd: str):
    """``(answer or None, start)``: None when the server did not give a usable answer; ``start`` is
    True when no server serves there, or it did not say READY in time (stopped, hung, not ours to
    talk to), so that a server should be started to take the socket over."""
    import _socket  # lean start-up: the C module alone, not socket.py (see the module docstring)

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        ready_by = time.monotonic() + RESPONSIVE_SECONDS
        sock.settimeout(RESPONSIVE_SECONDS)
        try:
            with _Path(address) as path:
                sock.connect(path)
        except OSError:  # nothing there, a stale socket, a full backlog nobody accepts from, not a socket
            return None, True
        try:
            creds = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
            if int.from_bytes(creds[4:8], sys.byteorder) != os.getuid():
                return None, False  # not our server: never trust its answer
            if _receive_exactly(sock, ready_by, len(READY)) != READY:
                return None, True
        except OSError:  # no READY in time: the request is not sent, so it is never decided there
            return None, True
        try:
            deadline = time.monotonic() + DECISION_SECONDS
            sock.settimeout(DECISION_SECONDS)
            sock.sendall(encode_request(raw, environ, cwd, deadline))
            return decode_reply(_receive(sock, deadline, MAX_REPLY_BYTES)), False
        except OSError:
            return None, False
    finally:
        sock.close()


def _receive(sock, deadline: float, limit: int) -> bytes:
    """What the server sends before it closes (b"" past ``limit`` bytes); TimeoutError after ``deadline``."""
    chunks = []
    size = 0
    while size <= limit:
        chunk = _recv(sock, deadline, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    return b""


def _receive_exactly(sock, deadline: float, size: int) -> bytes:
    """``size`` bytes, or fewer when the server closes first; TimeoutError after ``deadline``."""
    data = b""
    while len(data) < size:
        chunk = _recv(sock, deadline, size - len(data))
        if not chunk:
            break
        data += chunk
    return data


def _recv(sock, deadline: float, size: int) -> bytes:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError
    sock.settimeout(left)
    return sock.recv(size)


if __name__ == "__main__":
    sys.exit(main())
