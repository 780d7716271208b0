"""Starting the resident decision server for the hook client: detached, at most once every few seconds.

The hook client (``hook``) imports this only when no server answered, and passes what it knows (the
package directory, the idle time), so this module imports nothing of phlegyas.
"""
import os
import sys
import time

SPAWN_INTERVAL_SECONDS = 3.0


def spawn_server(address: str, environ, *, package_dir: str, idle: int) -> None:
    """Start ``python -m phlegyas.hosts.hook.server`` detached (double fork, new session), at most once every
    SPAWN_INTERVAL_SECONDS, so that the next call finds it. Never raises."""
    try:
        directory = os.path.dirname(address)
        os.makedirs(os.path.dirname(directory), mode=0o700, exist_ok=True)  # the data dir, as audit makes it
        os.makedirs(directory, mode=0o700, exist_ok=True)
        marker = address + ".spawn"
        try:
            if time.time() - os.stat(marker).st_mtime < SPAWN_INTERVAL_SECONDS:
                return
        except FileNotFoundError:
            pass
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600))
        os.utime(marker)
        _detach(server_argv(address, package_dir, idle), server_environ(environ, package_dir))
    except Exception:  # noqa: BLE001 - the in-process decision goes on regardless
        pass


def postpone_spawns(address: str, seconds: float) -> None:
    """Have the clients start no server for ``address`` for about ``seconds`` (the server calls this
    when it cannot use the socket path): the marker's time is set that far ahead."""
    marker = address + ".spawn"
    try:
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600))
        later = time.time() + seconds
        os.utime(marker, (later, later))
    except OSError:
        pass


def server_argv(address: str, package_dir: str, idle: int) -> list:
    return [sys.executable, "-P", "-m", "phlegyas.hosts.hook.server", "--socket", address,
            "--idle", str(idle), "--package", package_dir]


def server_environ(environ, package_dir: str) -> dict:
    """The client's environment, with the package's parent first on PYTHONPATH so the server runs
    exactly this code (it checks ``--package`` too)."""
    env = dict(environ)
    parent = os.path.dirname(package_dir)
    env["PYTHONPATH"] = parent + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _detach(argv: list, env: dict) -> None:
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            if os.fork() == 0:
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
                os.chdir("/")
                os.execve(argv[0], argv, env)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
