"""Running the dashboard: bind, print the one URL with its fresh token, open a browser, serve.

The address is written to ``<data_dir>/dashboard.json`` (without the token) so that ``phlegyas doctor``
can say whether a dashboard runs, and the gate knows the address an agent must not post to.
"""
from __future__ import annotations

import ipaddress
import json
import os
import secrets
import signal
import socket
import sys
import webbrowser
from typing import Mapping, TextIO

from phlegyas.hosts.dashboard.security import allowed_hosts

STATE_FILE = "dashboard.json"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def state_path(settings) -> str:
    return os.path.join(settings.data_dir, STATE_FILE)


def serve(environ: Mapping[str, str], cwd: str, *, host: str, port: int, open_browser: bool, out: TextIO,
          err: TextIO) -> int:
    """Serve until interrupted. Returns an exit status (3: the address cannot be used, the web extra is missing)."""
    try:
        import uvicorn  # the optional web stack (phlegyas[web]), only to serve

        from phlegyas.hosts.dashboard.app import build_app  # (same: Starlette, Jinja2)
    except ImportError as exc:
        print(f"phlegyas dashboard: needs the web extra ({exc}): pip install 'phlegyas[web]'", file=err)
        return 3
    from phlegyas.hosts.dashboard.service import DashboardService  # the gate too, once the web stack is there
    from phlegyas.runtime import load_runtime  # (same)
    from phlegyas.store.backends import database, open_store  # (same)

    runtime = load_runtime(environ, cwd)
    settings = runtime.settings_for(cwd)  # the user policy's [settings] may name the shared database
    try:
        sock = bind(host, port)
    except OSError as exc:
        print(f"phlegyas dashboard: cannot listen on {host}:{port}: {exc.strerror or exc}", file=err)
        return 3
    bound = sock.getsockname()[1]
    if not is_loopback(host):
        print(f"phlegyas dashboard: warning: listening on {host}, not loopback: anyone who can reach this address "
              "and learns the token can approve calls", file=err)
    token = secrets.token_urlsafe(32)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/?token={token}"
    service = DashboardService(runtime, open_store(settings, pooled=True), cwd=cwd, fleet=database(settings))
    app = build_app(service, token=token, hosts=allowed_hosts(host, bound))
    _write_state(settings, {"pid": os.getpid(), "host": host, "port": bound, "url": f"http://{shown}:{bound}/"})
    print(f"phlegyas dashboard: {url}", file=out, flush=True)
    if open_browser:
        try:
            webbrowser.open(url)
        except Exception:  # noqa: BLE001 - no browser here: the printed URL is enough
            pass
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=2)
    # uvicorn stops gracefully on SIGTERM / SIGINT, then raises the signal again with the handler it found:
    # make that handler an exception, so the state file is removed on the way out
    signal.signal(signal.SIGTERM, _stop)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        service.close()
        _remove_state(settings)
    return 0


def _stop(signum, frame) -> None:
    raise SystemExit(0)


def _write_state(settings, data: dict) -> None:
    path = state_path(settings)
    try:
        os.makedirs(settings.data_dir, mode=0o700, exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600), "w") as fh:
            json.dump(data, fh)
        os.replace(tmp, path)
    except OSError as exc:
        print(f"phlegyas dashboard: warning: {path} not written: {exc}", file=sys.stderr)


def _remove_state(settings) -> None:
    try:
        with open(state_path(settings), encoding="utf-8") as fh:
            if json.load(fh).get("pid") != os.getpid():
                return
        os.unlink(state_path(settings))
    except (OSError, ValueError):
        pass
