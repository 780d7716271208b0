"""What ``phlegyas install --agent opencode`` / ``uninstall`` write: one plugin file.

OpenCode has no command hooks; it loads every ``plugin/*.js`` (and ``plugins/*.js``) of its config
directories as an ES module (PROTOCOLS.md §6, checked in 1.18.33's loader). So install writes one file,
``plugin.js`` of this package with the hook's argv and timeout baked in:

- project: ``<project>/.opencode/plugin/phlegyas.js``;
- ``--user``: ``$XDG_CONFIG_HOME/opencode/plugin/phlegyas.js`` (``~/.config/opencode/…`` when unset), as
  OpenCode reads it.

The file's first line is a marker (``MARKER``): a file there that starts with it is phlegyas's (from any
earlier install) and is rewritten in place, so a second run changes nothing and a new python or timeout
replaces the old one; a file of the same name without it is someone else's plugin and is never
overwritten nor removed. Uninstall removes exactly that file. The argv is baked in as a JSON array so
the plugin spawns it without a shell: the path of the python cannot be re-read as shell words.
"""
from __future__ import annotations

import json
import os
import shlex
from importlib import resources
from typing import Mapping

from phlegyas.hosts.config_files import FileChange, InstallError, check_timeout, plan_text
from phlegyas.hosts.hook.command import hook_command

HOST = "OpenCode"
NAME = "opencode"
FILE_NAME = "phlegyas.js"
MARKER = "// phlegyas OpenCode plugin"
"""How the first line of every plugin file phlegyas writes begins."""


def plugin_path(*, user: bool, project: str, environ: Mapping[str, str]) -> str:
    if not user:
        return os.path.join(os.path.abspath(project), ".opencode", "plugin", FILE_NAME)
    config = environ.get("XDG_CONFIG_HOME", "").strip()
    if not config.startswith("/"):  # the XDG spec: a relative value is ignored
        home = environ.get("HOME", "").strip()
        if not home.startswith("/"):
            raise InstallError("HOME is not an absolute path: cannot find OpenCode's user config directory")
        config = os.path.join(home, ".config")
    return os.path.join(config, "opencode", "plugin", FILE_NAME)


def plugin_text(python: str, timeout: int) -> str:
    """The plugin's source: ``plugin.js`` with the hook's argv and the timeout (milliseconds) filled in."""
    check_timeout(timeout)
    template = resources.files(__package__).joinpath("plugin.js").read_text(encoding="utf-8")
    argv = shlex.split(hook_command(python, NAME))
    text = template.replace("__PHLEGYAS_ARGV__", json.dumps(argv)).replace("__PHLEGYAS_TIMEOUT_MS__",
                                                                           str(timeout * 1000))
    assert text.startswith(MARKER) and "__PHLEGYAS_" not in text, "plugin.js template out of step"
    return text


def _first_line(path: str) -> str | None:
    """The file's first line, or None when there is no file."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.readline()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InstallError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _ours(path: str) -> bool | None:
    """True: phlegyas's plugin; False: another file of that name; None: no file."""
    line = _first_line(path)
    return None if line is None else line.startswith(MARKER)


def install_changes(*, user: bool, project: str, environ: Mapping[str, str], python: str,
                    timeout: int) -> list[FileChange]:
    path = plugin_path(user=user, project=project, environ=environ)
    if _ours(path) is False:
        raise InstallError(f"{path}:1: a plugin that phlegyas did not write (its first line is not "
                           f"{MARKER!r}); move it away and run again, nothing was changed")
    return [plan_text(path, plugin_text(python, timeout),
                      f"OpenCode plugin → {hook_command(python, NAME)} (timeout {timeout} s)")]


def uninstall_changes(*, user: bool, project: str, environ: Mapping[str, str]) -> list[FileChange]:
    path = plugin_path(user=user, project=project, environ=environ)
    if not _ours(path):  # absent, or someone else's plugin of that name: nothing of phlegyas's to remove
        return []
    return [plan_text(path, None, "removed the phlegyas OpenCode plugin")]


def next_steps(*, user: bool, project: str, environ: Mapping[str, str]) -> list[str]:
    path = plugin_path(user=user, project=project, environ=environ)
    return [f"  OpenCode loads {path} when it starts: restart running sessions.",
            "  OpenCode cannot ask its user from a plugin: a call phlegyas would ask about is blocked, "
            "with the reason.",
            "  Calls phlegyas allows still pass OpenCode's own \"permission\" settings."]


def wired(*, user: bool, project: str, environ: Mapping[str, str]) -> str | None:
    try:
        path = plugin_path(user=user, project=project, environ=environ)
        return path if _ours(path) else None
    except InstallError:
        return None
