"""What the end-to-end tests with a real agent host (tests/test_e2e_*.py) share: installing the host from
npm into a cache directory once (pinned, under a file lock, skipped or failed by ``conftest.require``
when npm is missing), a victim directory outside the project, running phlegyas, reading the audit log,
and stopping the hook servers a test started.

A test's ``Session`` derives from ``HostSession`` (``root``, ``home`` and ``project`` below the test's
temporary directory) and sets ``env`` and ``data_dir`` (where phlegyas keeps its audit log and its servers'
``hookd``).
"""
from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
from typing import Callable, Mapping, Sequence

from conftest import require


def npm_install_once(cache: str, what: str, packages: Sequence[tuple[str, str, Callable[[], bool]]], *,
                     npm_args: Sequence[str] = (), env: Mapping[str, str] | None = None) -> None:
    """Install each ``(prefix, package, ready)`` of ``packages`` that is not ``ready()`` with ``npm install
    --prefix prefix package`` (plus ``npm_args``, in ``env``), under ``cache``'s lock file: another test
    run may be installing them right now. Skips (fails under CI=true) when there is no npm."""
    npm = shutil.which("npm")
    require(f"npm is not available: cannot install {what} for the end-to-end tests", npm is not None)
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, ".install.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for prefix, package, ready in packages:
            if ready():
                continue
            os.makedirs(prefix, exist_ok=True)
            proc = subprocess.run([npm, "install", "--prefix", prefix, "--no-audit", "--no-fund", *npm_args, package],
                                  capture_output=True, text=True, timeout=900, env=env)
            assert proc.returncode == 0, f"npm install {package} failed:\n{proc.stdout}\n{proc.stderr}"


def reported_version(binary: str, env: Mapping[str, str] | None = None) -> str | None:
    """What ``BINARY --version`` prints (stripped), or None when it does not run or fails."""
    try:
        proc = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def victim_dir(root: str, name: str) -> str:
    """``ROOT/outside/NAME``, a directory outside the project with a file ``data.txt`` in it."""
    path = os.path.join(root, "outside", name)
    os.makedirs(path)
    with open(os.path.join(path, "data.txt"), "w") as fh:
        fh.write("keep me\n")
    return path


def read_audit(path: str) -> list[dict]:
    """The entries of the audit log at ``path`` (none when there is no log)."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def stop_hook_servers(data_dir: str) -> None:
    """SIGTERM every hook server whose pid file is in ``data_dir/hookd``."""
    hookd = os.path.join(data_dir, "hookd")
    if not os.path.isdir(hookd):
        return
    for name in os.listdir(hookd):
        if name.endswith(".pid"):
            try:
                with open(os.path.join(hookd, name)) as fh:
                    os.kill(int(fh.read().strip()), signal.SIGTERM)
            except (OSError, ValueError):
                pass


class HostSession:
    """phlegyas in a test's temporary home: run it, read its audit log, stop its hook servers."""

    env: dict[str, str]
    data_dir: str

    def __init__(self, root) -> None:
        self.root = str(root)
        self.home = os.path.join(self.root, "home")
        self.project = os.path.join(self.root, "project")

    def phlegyas(self, *args: str) -> subprocess.CompletedProcess:
        proc = subprocess.run([sys.executable, "-m", "phlegyas", *args], capture_output=True, text=True,
                              env=self.env, cwd=self.project, timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc

    def audit(self) -> list[dict]:
        return read_audit(os.path.join(self.data_dir, "audit.jsonl"))

    def stop_hook_servers(self) -> None:
        stop_hook_servers(self.data_dir)
