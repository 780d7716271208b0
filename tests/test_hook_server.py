"""The resident hook server when something goes wrong around it: a stopped or hung server, servers
racing to replace it, requests whose client has gone, something other than a socket at its path.
Real server processes, real hook processes, real sockets; a server is stopped with SIGSTOP as a hung
one would be.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import stat
import struct
import subprocess
import threading
import time

import pytest
from processes import describe, processes_with
from test_hook import Home, _request, alive, assert_pre_tool_use, audit_file, audit_size, audited_since, clean_env

from phlegyas.hosts.hook import client as hook
from phlegyas.hosts.hook import server as hookd
from phlegyas.hosts.hook import socketpath, spawn
from phlegyas.hosts.hook.decide import Audit, handle


@pytest.fixture
def box(tmp_path):
    """A fresh home (its own server, started on first use)."""
    home = Home(tmp_path)
    yield home
    home.stop_servers()


def served_now(box: Home) -> int:
    """Start the home's server, wait until it answers a call, and return its pid."""
    box.run(box.event(command="true"))
    box.wait_for_server()
    deadline = time.monotonic() + 30
    while box.run(box.event(command="git status")).paths != ["server"]:
        assert time.monotonic() < deadline, f"the server does not answer; log: {box.log()}"
        time.sleep(0.1)
    with connect(box) as conn:  # the server that answers now: under load, a second server started while
        return peer_pid(conn)  # the first was loading may have taken the socket after the pid was read


def wait_for(condition, what, timeout: float = 30) -> None:
    """Wait for ``condition()``; ``what`` (text, or a function giving it when the wait fails) names it."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what() if callable(what) else what}"
        time.sleep(0.05)


def wait_gone(pid: int, timeout: float = 20) -> None:
    wait_for(lambda: not alive(pid), f"process {pid} to exit", timeout)


def connect(box: Home) -> socket.socket:
    """A raw client connection to the home's server, past its READY."""
    conn = socket.socket(socket.AF_UNIX)
    conn.settimeout(10)
    with hook._Path(hook.socket_address(box.env, box.project)) as short:
        conn.connect(short)
    assert conn.recv(len(hook.READY), socket.MSG_WAITALL) == hook.READY
    return conn


def request(box: Home, command: str, wait: float) -> bytes:
    """The request the hook would send for ``command``, waiting ``wait`` seconds for the answer."""
    raw = json.dumps(box.event(command=command)).encode()
    return hook.encode_request(raw, box.env, box.project, time.monotonic() + wait)


# -- a stopped server --------------------------------------------------------------------------------

STOPPED_CALLS = [("rm -rf /", "deny"), ("git status", "allow"), ("frobnicate --all", None)]


def test_a_stopped_server_is_given_up_on_at_once_and_replaced(box):
    old = served_now(box)
    # a server that has been up a while: clients start at most one server per SPAWN_INTERVAL_SECONDS, and
    # this one was started a moment ago (a fast, compiled in-process decision could fit all three calls
    # into the interval, and none of them would start the replacement the test waits for)
    marker = hook.socket_address(box.env, box.project) + ".spawn"
    time.sleep(max(0.0, spawn.SPAWN_INTERVAL_SECONDS - (time.time() - os.stat(marker).st_mtime)) + 0.2)
    started = time.monotonic()
    assert_pre_tool_use(box.run(box.event(command="git status"), env={"PHLEGYAS_HOOK_SERVER": "off"}), "allow")
    in_process = time.monotonic() - started  # what deciding in the hook process costs here, for comparison
    audit = audit_file(box.env)
    offset = audit_size(audit)
    os.kill(old, signal.SIGSTOP)
    took = []
    try:
        started = time.monotonic()  # the client's own wait, without the hook process around it
        raw = json.dumps(box.event(command="git status")).encode()
        assert hook.ask_server(hook.socket_address(box.env, box.project), raw, box.env, box.project) == (None, True)
        gave_up = time.monotonic() - started
        paths = []
        for command, expected in STOPPED_CALLS:
            started = time.monotonic()
            result = box.run(box.event(command=command))
            took.append(time.monotonic() - started)
            assert_pre_tool_use(result, expected)  # still the right decision, wherever it was made
            paths += result.paths
        new = box.wait_for_server(other_than=old)  # a replacement took the socket from the stopped server
    finally:
        os.kill(old, signal.SIGCONT)
    wait_gone(old)  # woken up, it sees that its socket was replaced, and stops
    time.sleep(0.5)
    assert len(audited_since(audit, offset)) == len(STOPPED_CALLS), "a stale request was decided again"
    assert paths[0] == "in-process" and len(paths) == len(STOPPED_CALLS), paths  # later ones: the replacement's
    print(f"\nthe client gave up on a stopped server after {gave_up:.3f} s; hook calls with it stopped: "
          f"{', '.join(f'{t:.2f} s' for t in took)}; a hook call deciding in-process: {in_process:.2f} s")
    assert gave_up < 1.0, gave_up
    assert max(took) < 4.0, (took, in_process)  # the in-process decision, plus well under a second
    result = box.run(box.event(command="rm -rf /"))
    assert_pre_tool_use(result, "deny")
    assert result.paths == ["server"] and box.server_pid() == new
    assert "stopping: socket replaced" in box.log()


def peer_pid(conn: socket.socket) -> int:
    """The pid of the server process at the other end of ``conn`` (``SO_PEERCRED``)."""
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return struct.unpack("3i", creds)[0]


def test_a_request_whose_client_left_is_neither_decided_nor_audited(box):
    served_now(box)
    audit = audit_file(box.env)
    offset, served = audit_size(audit), box.served()
    conn = connect(box)
    pid = peer_pid(conn)  # the server this connection reached
    os.kill(pid, signal.SIGSTOP)  # between READY and the request: the server reads it only later
    try:
        # the deadline far off: under load, a near one may pass before the server looks (then it hands back)
        conn.sendall(request(box, "rm -rf /", wait=60))
        conn.close()  # the client gives up (and decides by itself)
    finally:
        os.kill(pid, signal.SIGCONT)
    wait_for(lambda: "dropped a request" in box.log(),
             lambda: f"the server to drop the request ({describe(pid)}); log: {box.log()}")
    assert audited_since(audit, offset) == [] and box.served() == served
    result = box.run(box.event(command="git status"))
    assert result.paths == ["server"] and box.server_pid() == pid


def test_a_request_too_close_to_its_deadline_is_handed_back(box):
    served_now(box)
    audit = audit_file(box.env)
    offset = audit_size(audit)
    with connect(box) as conn:
        conn.sendall(request(box, "rm -rf /", wait=1.0))  # less than the server's margin
        reply = b"".join(iter(lambda: conn.recv(65536), b""))
    assert reply == hook.PROTOCOL + b" L 0 0\n"  # "decide it yourself", at once
    assert audited_since(audit, offset) == []


def test_a_refused_claim_drops_the_decision_unaudited(tmp_path):
    env = dict(clean_env(str(tmp_path)), AUDIT_LOG_FILE=str(tmp_path / "audit.jsonl"))
    event = json.dumps({"hook_event_name": "PreToolUse", "cwd": str(tmp_path), "tool_name": "Bash",
                        "tool_input": {"command": "rm -rf /"}}).encode()
    asked = []

    def gone() -> bool:
        asked.append(True)
        return False

    for raw in (event, b"not json"):  # a decision, and a rejected event (audited as a deny too)
        assert handle(raw, env, str(tmp_path), audit=Audit("server", gone)) is None
    assert asked == [True, True] and not (tmp_path / "audit.jsonl").exists()
    result = handle(event, env, str(tmp_path), audit=Audit("server", lambda: True))
    assert json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert [e["hook_path"] for e in audited_since(str(tmp_path / "audit.jsonl"), 0)] == ["server"]


# -- replacements racing for the socket --------------------------------------------------------------

def start_server(box: Home) -> subprocess.Popen:
    """A server process exactly as the hook starts one, but not detached (so the test can wait on it)."""
    address = hook.socket_address(box.env, box.project)
    return subprocess.Popen(spawn.server_argv(address, hook.PACKAGE_DIR, 60),
                            env=spawn.server_environ(box.env, hook.PACKAGE_DIR), cwd="/",
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_racing_replacements_of_a_hung_server_leave_one_server(box):
    address = hook.socket_address(box.env, box.project)
    os.makedirs(os.path.dirname(address), mode=0o700)
    hung = socket.socket(socket.AF_UNIX)  # listens, never accepts: connections queue, nothing answers
    with hook._Path(address) as short:
        hung.bind(short)
    hung.listen(8)
    try:
        racers = [start_server(box) for _ in range(3)]
        wait_for(lambda: box.log().count("serving ") + box.log().count("not starting") >= 3,
                 "every racer to settle", timeout=60)
    finally:
        hung.close()
    log = box.log()
    assert log.count("serving ") == 1 and log.count("another server answers on the socket") == 2, log
    assert log.count("taking its place") == 1, log
    winner = box.server_pid()
    assert winner in [p.pid for p in racers]
    for racer in racers:
        if racer.pid != winner:
            assert racer.wait(10) == 0
    assert alive(winner)
    assert stat.S_ISSOCK(os.lstat(address).st_mode)
    assert not [n for n in os.listdir(box.hookd_dir) if n.endswith(".new")]  # no temporary socket left
    result = box.run(box.event(command="git status"))
    assert_pre_tool_use(result, "allow")
    assert result.paths == ["server"]
    box.stop_servers()
    assert racers[[p.pid for p in racers].index(winner)].wait(10) == 0


def test_a_new_server_leaves_a_live_one_alone(box):
    pid = served_now(box)
    address = hook.socket_address(box.env, box.project)
    before = os.lstat(address).st_ino
    newcomer = start_server(box)
    assert newcomer.wait(30) == 0
    assert os.lstat(address).st_ino == before and box.server_pid() == pid
    assert socketpath.probe(address) == socketpath.ALIVE
    assert box.run(box.event(command="git status")).paths == ["server"]


def test_closing_finishes_the_decision_under_way_and_cuts_idle_connections(tmp_path):
    path = str(tmp_path / "s.sock")
    deciding = threading.Event()

    def slow(raw, environ, cwd, claim):
        deciding.set()
        time.sleep(1.0)
        return 0, b"decided:" + raw, b""

    server = hookd.HookServer(path, slow, poll_seconds=0.1)
    assert server.bind()
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    replies = []
    client = threading.Thread(target=lambda: replies.append(_request(path, b"x", {})))
    client.start()
    assert deciding.wait(10)
    idle = socket.socket(socket.AF_UNIX)  # connected, READY received, never sends its request
    idle.settimeout(10)
    idle.connect(path)
    assert idle.recv(len(hook.READY), socket.MSG_WAITALL) == hook.READY
    os.unlink(path)  # the server stops accepting
    serving.join(10)
    started = time.monotonic()
    server.close()
    took = time.monotonic() - started
    client.join(10)
    assert replies and hook.decode_reply(replies[0]) == (0, b"decided:x", b"")
    assert idle.recv(1) == b""  # cut, not left to its read timeout
    assert took < hookd.READ_TIMEOUT_SECONDS / 2
    idle.close()


# -- something other than a socket at the socket path ------------------------------------------------

def _plant(kind: str, address: str, outside: str) -> None:
    if kind == "empty-directory":
        os.mkdir(address)
    elif kind == "directory-with-files":
        os.mkdir(address)
        with open(os.path.join(address, "notes.txt"), "w") as fh:
            fh.write("someone's notes")
    elif kind == "file":
        with open(address, "w") as fh:
            fh.write("someone's data")
    elif kind == "symlink-out":
        os.symlink(outside, address)
    elif kind == "dangling-symlink":
        os.symlink(outside + "-nowhere", address)
    elif kind == "fifo":
        os.mkfifo(address)


NOT_SOCKETS = ["empty-directory", "directory-with-files", "file", "symlink-out", "dangling-symlink", "fifo"]


@pytest.mark.parametrize("kind", NOT_SOCKETS)
def test_something_else_at_the_socket_path_is_moved_aside(box, tmp_path, kind):
    address = hook.socket_address(box.env, box.project)
    os.makedirs(os.path.dirname(address), mode=0o700)
    outside = str(tmp_path / "outside")  # a directory of the user's, out of the gate's runtime directory
    os.mkdir(outside)
    with open(os.path.join(outside, "keep.txt"), "w") as fh:
        fh.write("keep")
    _plant(kind, address, outside)
    result = box.run(box.event(command="rm -rf /"))
    assert_pre_tool_use(result, "deny")
    assert result.paths == ["in-process"]
    box.wait_for_server()
    result = box.run(box.event(command="git status"))
    assert_pre_tool_use(result, "allow")
    assert result.paths == ["server"], box.log()
    assert stat.S_ISSOCK(os.lstat(address).st_mode)
    aside = [n for n in os.listdir(box.hookd_dir) if ".displaced-" in n]
    if kind == "empty-directory":
        assert aside == [] and "removed it" in box.log()
    else:
        assert len(aside) == 1 and "moved it aside" in box.log()
        moved = os.path.join(box.hookd_dir, aside[0])
        if kind == "directory-with-files":
            assert open(os.path.join(moved, "notes.txt")).read() == "someone's notes"
        elif kind == "file":
            assert open(moved).read() == "someone's data"
        elif kind in ("symlink-out", "dangling-symlink"):
            assert os.path.islink(moved)  # the link itself moved; its target was never touched
    assert os.listdir(outside) == ["keep.txt"] and open(os.path.join(outside, "keep.txt")).read() == "keep"


def _immutable(path: str, on: bool) -> bool:
    try:
        return subprocess.run(["chattr", "+i" if on else "-i", path], capture_output=True).returncode == 0
    except OSError:
        return False


def test_a_socket_path_that_cannot_be_recovered_is_said_once_and_decided_in_process(box):
    address = hook.socket_address(box.env, box.project)
    os.makedirs(os.path.dirname(address), mode=0o700)
    os.mkdir(address)
    if not _immutable(address, True):  # an immutable directory: neither removed nor renamed, even by root
        pytest.skip("chattr +i is not available here")
    marker = address + ".spawn"
    try:
        for command, expected in (("rm -rf /", "deny"), ("git status", "allow")):
            result = box.run(box.event(command=command))
            assert_pre_tool_use(result, expected)
            assert result.paths == ["in-process"] and result.stderr == ""
        # every server these calls started has given up (under load the two calls can be more than a spawn
        # interval apart, and so start two) before the marker is put back: a late one would postpone again
        wait_for(lambda: "cannot serve" in box.log() and os.stat(marker).st_mtime > time.time() + 30
                 and not processes_with(address), lambda: f"the servers to give up; log: {box.log()}")
        os.utime(marker, (0, 0))  # as if the minute had passed: the next call starts a server again
        result = box.run(box.event(command="rm -rf /"))
        assert_pre_tool_use(result, "deny")
        wait_for(lambda: os.stat(marker).st_mtime > time.time() + 30 and not processes_with(address),
                 "the second server to give up")
        log = box.log()
        assert log.count("cannot serve") == 1, log  # said once, not at every try
        assert "is a directory that cannot be removed" in log and box.server_pid() is None
    finally:
        _immutable(address, False)
    os.rmdir(address)  # once it can be removed, the next server to try takes the path
    os.utime(marker, (0, 0))
    box.run(box.event(command="git status"))
    box.wait_for_server()
    assert box.run(box.event(command="git status")).paths == ["server"]
    assert "the socket path is usable again" in box.log()
