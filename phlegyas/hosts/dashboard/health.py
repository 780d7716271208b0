"""``phlegyas doctor``'s look at the dashboard: whether one runs for this data directory, and where
(from the ``dashboard.json`` it writes at start; the token is never written anywhere)."""
from __future__ import annotations

import json
import os
import socket
from importlib.util import find_spec

from phlegyas.core.health import Check, ok, warning
from phlegyas.hosts.dashboard.server import state_path

NAME = "dashboard"


def dashboard_check(settings) -> Check:
    path = state_path(settings)
    try:
        with open(path, encoding="utf-8") as fh:
            state = json.load(fh)
    except FileNotFoundError:
        extra = "" if find_spec("starlette") else " (and needs pip install 'phlegyas[web]')"
        return ok(NAME, f"not running (phlegyas dashboard starts it){extra}")
    except (OSError, ValueError) as exc:
        return warning(NAME, f"{path} cannot be read: {exc}", f"remove {path}; phlegyas dashboard writes it again")
    pid, host, port = state.get("pid"), state.get("host"), state.get("port")
    if not isinstance(pid, int) or not _alive(pid):
        return ok(NAME, f"not running (a stale {os.path.basename(path)} from pid {pid} is left; it is replaced at start)")
    if not isinstance(port, int) or not _listening(str(host), port):
        return warning(NAME, f"process {pid} does not answer on {host}:{port}", "restart phlegyas dashboard")
    return ok(NAME, f"running (pid {pid}) at {state.get('url')} — open the URL it printed, which holds the token")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host if host not in ("0.0.0.0", "::") else "127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False
