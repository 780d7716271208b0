"""Whether the resident hook server (``server``) runs and answers: ``phlegyas doctor`` connects to the
socket this install's hook uses (``hook.socket_address``) and has it decide one real call, with a short
timeout. The call is ``rm -rf /`` in a PreToolUse event, sent with ``ENABLE_AUDIT_LOG=false`` so that
the audit log does not record the doctor's question.

The server is started on demand by the first hook call and stops after ``PHLEGYAS_HOOK_SERVER_IDLE``
seconds unused, so "not running" is a warning (the next hook call starts it; until then each call
decides in its own process, slower), unless the hook tried to start it a moment ago: then it does not
start, a problem. A socket nobody listens on (the server was killed or crashed), a server that does
not answer in time, or one of another user, is a problem. ``start=True`` starts a server the way the
hook does (``spawn.spawn_server``) and waits for its first answer.
"""
from __future__ import annotations

import json
import os
import socket
import struct
import time
from dataclasses import dataclass
from typing import Mapping

from phlegyas.core.health import Check, ok, problem, shown, warning
from phlegyas.hosts.hook.client import (
    OFF_WORDS,
    PACKAGE_DIR,
    PROTOCOL,
    READY,
    _Path,
    _receive_exactly,
    decode_reply,
    encode_request,
    idle_seconds,
    socket_address,
)
from phlegyas.hosts.hook.spawn import spawn_server

NAME = "Claude Code hook server"
PING_TIMEOUT_SECONDS = 3.0
START_WAIT_SECONDS = 20.0
RECENT_SPAWN_SECONDS = 60.0  # a spawn this recent with nothing logged since: it did not come up
MAX_REPLY_BYTES = 1024 * 1024
PING_COMMAND = "rm -rf /"
START_FIX = "`phlegyas doctor --start-server` starts it now and checks that it answers"


@dataclass(frozen=True)
class Reply:
    """What the socket gave: ``state`` is answered, down, refused, foreign, timeout, handback, malformed
    or error; ``answer`` the (exit status, stdout, stderr) of an answered call."""

    state: str
    answer: tuple[int, bytes, bytes] | None = None
    seconds: float = 0.0
    error: str = ""


def ping_event(cwd: str) -> bytes:
    return json.dumps({"hook_event_name": "PreToolUse", "session_id": "phlegyas-doctor", "cwd": cwd,
                       "tool_name": "Bash", "tool_input": {"command": PING_COMMAND}}).encode()


def ping(address: str, environ: Mapping[str, str], cwd: str, timeout: float = PING_TIMEOUT_SECONDS) -> Reply:
    """Ask the server at ``address`` to decide ``PING_COMMAND``; never raises."""
    env = {**environ, "ENABLE_AUDIT_LOG": "false"}
    started = time.perf_counter()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        try:
            with _Path(address) as path:
                sock.connect(path)
        except FileNotFoundError:
            return Reply("down")
        except ConnectionRefusedError:
            return Reply("refused")
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        if struct.unpack("3i", creds)[1] != os.getuid():
            return Reply("foreign")
        if _receive_exactly(sock, time.monotonic() + timeout, len(READY)) != READY:  # READY, then the request
            return Reply("malformed", seconds=time.perf_counter() - started)
        sock.sendall(encode_request(ping_event(cwd), env, cwd, time.monotonic() + timeout))
        data = _receive(sock)
    except socket.timeout:
        return Reply("timeout", seconds=time.perf_counter() - started)
    except OSError as exc:
        return Reply("error", error=exc.strerror or str(exc))
    finally:
        sock.close()
    seconds = time.perf_counter() - started
    if data.startswith(PROTOCOL + b" L "):
        return Reply("handback", seconds=seconds)
    answer = decode_reply(data)
    return Reply("answered", answer, seconds) if answer is not None else Reply("malformed", seconds=seconds)


def _receive(sock: socket.socket) -> bytes:
    chunks, size = [], 0
    while size <= MAX_REPLY_BYTES:
        chunk = sock.recv(1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def server_check(environ: Mapping[str, str], project: str, *, hooks_wired: bool, start: bool = False) -> Check:
    if environ.get("PHLEGYAS_HOOK_SERVER", "").strip().lower() in OFF_WORDS:
        return ok(NAME, "off (PHLEGYAS_HOOK_SERVER): each hook call decides in its own process")
    cwd = os.path.abspath(project)
    address = socket_address(environ, cwd)
    if address is None:
        return ok(NAME, "not used: HOME is not an absolute path, so each hook call decides in its own process")
    reply = ping(address, environ, cwd)
    started = False
    if start and reply.state in ("down", "refused", "handback"):
        reply, started = _start(address, environ, cwd), True
    home = environ.get("HOME", "")
    return _verdict(reply, address, hooks_wired=hooks_wired, started=started, home=home)


def _start(address: str, environ: Mapping[str, str], cwd: str) -> Reply:
    """Start a server as the hook does, and wait for its first answer."""
    deadline = time.monotonic() + START_WAIT_SECONDS
    spawned_at = 0.0
    reply = Reply("down")
    while time.monotonic() < deadline:
        if time.monotonic() - spawned_at > 4.0:  # spawn_server starts one at most every 3 s
            spawn_server(address, dict(environ), package_dir=PACKAGE_DIR, idle=idle_seconds(environ))
            spawned_at = time.monotonic()
        reply = ping(address, environ, cwd)
        if reply.state not in ("down", "refused", "handback"):
            return reply
        time.sleep(0.1)
    return reply


def _verdict(reply: Reply, path: str, *, hooks_wired: bool, started: bool, home: str) -> Check:
    log = shown(_log_path(path), home)
    pid = _pid(path)
    address = shown(path, home)
    who = f"pid {pid}, " if pid else ""
    if reply.state == "answered":
        code, out, err = reply.answer
        how = " (started by doctor)" if started else ""
        return _answered(code, out, err, f"{reply.seconds * 1000:.1f} ms{how}; {who}socket {address}", log)
    if started:
        return problem(NAME, f"started, but it did not answer within {START_WAIT_SECONDS:.0f} s "
                             f"({reply.state}){_log_says(path)}", f"read its log {log}")
    if reply.state == "down":
        if not hooks_wired:
            return ok(NAME, "not running (no phlegyas hook is wired, so nothing starts it)")
        return _down(path, log)
    if reply.state == "refused":
        return problem(NAME, f"its socket {address} is there but no server listens: it stopped without "
                             f"cleaning up (killed, or it crashed){_log_says(path)}",
                       f"{START_FIX} (the next hook call also replaces it); its log: {log}")
    if reply.state == "foreign":
        return problem(NAME, f"the process listening on {address} belongs to another user: the hook never "
                             "trusts its answers", f"remove {os.path.dirname(address)} and find out who made it")
    if reply.state == "timeout":
        return problem(NAME, f"{who}no answer within {PING_TIMEOUT_SECONDS:.0f} s: each hook call waits for it "
                             "before deciding by itself", f"stop it{' (kill ' + str(pid) + ')' if pid else ''}: "
                                                          f"the next hook call starts a fresh one; its log: {log}")
    if reply.state == "handback":
        return warning(NAME, f"{who}it runs older phlegyas code than this install, so it hands calls back and "
                             "stops; the next hook call starts a fresh one", START_FIX)
    what = "an answer that does not follow the protocol" if reply.state == "malformed" else reply.error
    return problem(NAME, f"{who}{what}", f"stop it{' (kill ' + str(pid) + ')' if pid else ''}; its log: {log}")


def _down(path: str, log: str) -> Check:
    """Not running: fine when it stopped as it should (unused, or told to); a problem when it stopped on
    an error, refused to start, or a hook call started it and it never came up."""
    last, logged_at = _last_line(_log_path(path)), _mtime(_log_path(path))
    spawned_at = _mtime(path + ".spawn")
    now = time.time()
    if (spawned_at is not None and 2.0 < now - spawned_at < RECENT_SPAWN_SECONDS
            and (logged_at is None or logged_at < spawned_at)):
        return problem(NAME, f"not running, though a hook call started it {now - spawned_at:.0f} s ago: it never "
                             "came up (nothing in its log since)",
                       f"{START_FIX}; if it does not, its log {log} may say why")
    said = last.split("] ", 1)[-1] if last else ""
    if said.startswith(("stopping on error", "not starting")) or "Traceback" in said or "Error" in said.split(":")[0]:
        return problem(NAME, f"not running: its log ends with: {said[:300]}", f"read its log {log}; {START_FIX}")
    why = f" (its log: {said[:120]})" if said else ""
    return warning(NAME, f"not running{why}: the next hook call starts it; until then each call decides in its "
                         "own process, which is slower", START_FIX)


def _answered(code: int, out: bytes, err: bytes, how: str, log: str) -> Check:
    if code == 2:  # a block: the server could not decide (a configuration error, a broken install …)
        reason = err.decode("utf-8", "replace").strip()[:300]
        return problem(NAME, f"answers, but blocks the call without deciding it: {reason} ({how})",
                       "fix what the reason names (the settings and policy checks say more)")
    try:
        decision = json.loads(out)["hookSpecificOutput"]["permissionDecision"] if out.strip() else "undecided"
    except (ValueError, KeyError, TypeError):
        return problem(NAME, f"answers with output Claude Code cannot read ({how})", f"read its log {log}")
    return ok(NAME, f"answers: `{PING_COMMAND}` → {decision} in {how}")


def _log_path(address: str) -> str:
    return address[:-len(".sock")] + ".log" if address.endswith(".sock") else address + ".log"


def _pid(address: str) -> int | None:
    try:
        with open(address + ".pid", encoding="ascii") as fh:
            text = fh.read().strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def _mtime(path: str) -> float | None:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return None


def _last_line(log: str) -> str:
    """The last line of the server's log, or ``""``."""
    try:
        with open(log, "rb") as fh:
            fh.seek(max(0, os.fstat(fh.fileno()).st_size - 4096))
            lines = fh.read().decode("utf-8", "replace").strip().splitlines()
    except OSError:
        return ""
    return lines[-1] if lines else ""


def _log_says(path: str) -> str:
    """``; its log says: …`` with the last line of the server's log, if there is one."""
    last = _last_line(_log_path(path))
    return f"; its log says: {last[:300]}" if last else ""
