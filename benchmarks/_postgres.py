"""A throwaway PostgreSQL cluster for the tests and the store benchmark: initdb + pg_ctl in a temp dir.

``Cluster(directory).start()`` makes ``directory/data`` with ``initdb`` (trust authentication, user
``phlegyas``), starts the server on a free loopback port with its socket in ``directory``, and creates the
database ``phlegyas``; ``stop()`` stops it (fast), ``start()`` again restarts the same cluster, ``kill()``
stops it at once (immediate mode: what a crash looks like to a client). As root, the server runs as the
``postgres`` user (PostgreSQL refuses to run as root): the directory is handed to it first.

``find_bin_dir()`` is where the server's programs are (Debian's ``/usr/lib/postgresql/N/bin``, or on
``PATH``); None when no server is installed.
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess

USER = "phlegyas"
DATABASE = "phlegyas"


def find_bin_dir() -> str | None:
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version, reverse=True):
        if os.access(os.path.join(candidate, "initdb"), os.X_OK):
            return candidate
    found = shutil.which("initdb")
    return os.path.dirname(found) if found else None


def _version(path: str) -> int:
    try:
        return int(path.split("/")[-2])
    except ValueError:
        return 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """One PostgreSQL server of its own in ``directory`` (see the module's docstring)."""

    def __init__(self, directory: str, bin_dir: str | None = None):
        self.directory = os.path.abspath(directory)
        self.bin_dir = bin_dir or find_bin_dir()
        if self.bin_dir is None:
            raise RuntimeError("no PostgreSQL server installed (apt-get install -y postgresql)")
        self.data = os.path.join(self.directory, "data")
        self.port = free_port()
        self._owner = pwd.getpwnam("postgres") if os.geteuid() == 0 else None

    @property
    def url(self) -> str:
        """A libpq URL over TCP (what a machine of a fleet uses)."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{DATABASE}"

    def start(self) -> "Cluster":
        if not os.path.isdir(self.data):
            self._init()
        self._run("pg_ctl", "-D", self.data, "-w", "-l", os.path.join(self.directory, "server.log"), "-o",
                  f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off "
                  "-c synchronous_commit=off -c max_connections=200", "start")
        if not getattr(self, "_created", False):
            self._run("createdb", "-h", self.directory, "-p", str(self.port), "-U", USER, DATABASE)
            self._created = True
        return self

    def running(self) -> bool:
        done = subprocess.run([os.path.join(self.bin_dir, "pg_ctl"), "-D", self.data, "status"], capture_output=True,
                              user=self._owner.pw_uid if self._owner else None)
        return done.returncode == 0

    def start_if_stopped(self) -> None:
        if not self.running():
            self.start()

    def stop(self) -> None:
        self._run("pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop", check=False)

    def kill(self) -> None:
        """Stop at once (immediate shutdown: no checkpoint; clients see their connections drop)."""
        self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop", check=False)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def _init(self) -> None:
        os.makedirs(self.directory, exist_ok=True)
        if self._owner is not None:
            os.chown(self.directory, self._owner.pw_uid, self._owner.pw_gid)
        self._run("initdb", "-D", self.data, "-A", "trust", "-U", USER, "-E", "UTF8", "--no-sync")

    def _run(self, program: str, *args: str, check: bool = True) -> None:
        command = [os.path.join(self.bin_dir, program), *args]
        env = {**os.environ, "LC_ALL": "C.UTF-8", "PGUSER": USER}
        env.pop("PGDATABASE", None)
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, cwd=self.directory,
                              user=self._owner.pw_uid if self._owner else None,
                              group=self._owner.pw_gid if self._owner else None,
                              extra_groups=[] if self._owner else None)
        if check and done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
