"""Path normalization: every path check sees an absolute, lexically normalized path.

``~``, ``$HOME`` and ``${HOME}`` are expanded, relative paths are joined to the call's cwd, and ``..``
is resolved lexically (so ``/tmp/../etc/cron.d/x`` is ``/etc/cron.d/x``). Symlinks are not followed
here: the gate decides on what the command names, before anything runs.
"""
from __future__ import annotations

import posixpath
from functools import lru_cache

_HOME_PREFIXES = ("$HOME", "${HOME}")


def expand_home(path: str, home: str) -> str:
    """Expand a leading ``~``, ``~/``, ``$HOME`` or ``${HOME}``; other ``~user`` forms are left alone."""
    if path == "~" or path.startswith("~/"):
        return home + path[1:]
    for prefix in _HOME_PREFIXES:
        if path == prefix or path.startswith(prefix + "/"):
            return home + path[len(prefix):]
    return path


@lru_cache(maxsize=8192)
def normalize(path: str, cwd: str, home: str) -> str:
    """An absolute, normalized form of ``path`` as the shell or a file tool would resolve it."""
    path = expand_home(path, home)
    if not path.startswith("/"):
        path = posixpath.join(cwd or "/", path)
    norm = posixpath.normpath(path)
    if norm.startswith("//"):  # posixpath keeps a leading '//' (POSIX allows it); bash treats it as '/'
        norm = "/" + norm.lstrip("/")
    return norm


def is_within(path: str, root: str) -> bool:
    """True if normalized ``path`` is ``root`` itself or lies below it."""
    if root == "/":
        return path.startswith("/")
    return path == root or path.startswith(root.rstrip("/") + "/")


# -- what is where ---------------------------------------------------------------------------------
# Paths are normalized (absolute, no `..`) before they reach these functions.

SYSTEM_DIRS = (
    "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/proc", "/root",
    "/run", "/sbin", "/srv", "/sys", "/usr", "/var", "/snap", "/System", "/Library", "/Applications",
    "/private", "/nix", "/home", "/Users", "/mnt", "/media",
)
"""Top-level directories of the system; deleting or chmod-ing them (or anything inside for some
classes) is catastrophic."""

SHELL_RC_FILES = (
    ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv",
    ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".cshrc", ".tcshrc", ".inputrc",
    ".config/fish/config.fish",
)


TEMP_DIRS = ("/tmp", "/var/tmp", "/dev/shm")
HARMLESS_DEVICES = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/random",
                    "/dev/urandom", "/dev/fd", "/dev/stdin")


_SYSTEM_TOPS = frozenset(SYSTEM_DIRS)
_HARMLESS_DEVICE_SET = frozenset(HARMLESS_DEVICES)


def is_temp_path(path: str) -> bool:
    if path.startswith("/tmp"):
        return path == "/tmp" or path.startswith("/tmp/")
    return any(is_within(path, d) for d in TEMP_DIRS[1:]) if path.startswith(("/var/", "/dev/")) else False


def is_harmless_device(path: str) -> bool:
    if not path.startswith("/dev/"):
        return False
    parts = path.split("/", 3)
    return "/dev/" + parts[2] in _HARMLESS_DEVICE_SET


def _top(path: str) -> str:
    """``/usr/lib/x`` → ``/usr``."""
    end = path.find("/", 1)
    return path if end < 0 else path[:end]


HOME_SCRATCH_DIRS = (".cache",)
"""Dot-directories under home that hold only caches: writing there is not configuration."""


def is_system_path(path: str, home: str) -> bool:
    """``/`` itself, a system directory, or anything below one, except the user's home, the temp
    directories and harmless devices such as /dev/null."""
    if path == "/":
        return True
    if _top(path) not in _SYSTEM_TOPS:
        return False
    return not (is_within(path, home) or is_temp_path(path) or is_harmless_device(path))


@lru_cache(maxsize=8192)
def sensitive_reason(path: str, home: str) -> str | None:
    """Why reading ``path`` exposes secrets (private keys, cloud credentials, .env files), or None."""
    name = posixpath.basename(path)
    rel_home = path[len(home) + 1:] if is_within(path, home) and path != home else None
    if rel_home is not None:
        top = rel_home.split("/", 1)[0]
        if top == ".ssh" and name not in ("known_hosts", "config") and not name.endswith(".pub"):
            return "SSH private keys"
        if top in (".aws", ".azure", ".gnupg", ".kube", ".docker", ".password-store"):
            return f"credentials in ~/{top}"
        if rel_home.startswith(".config/gcloud") or rel_home.startswith(".config/gh/hosts"):
            return "cloud credentials"
        if name in (".netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials", ".my.cnf"):
            return f"credentials in ~/{name}"
    if name == ".env" or (name.startswith(".env.") and not name.endswith((".example", ".sample", ".template"))):
        return "environment secrets (.env)"
    if name.startswith("id_") and not name.endswith(".pub") and "/.ssh/" in path:
        return "SSH private keys"
    if name.endswith((".pem", ".key", ".p12", ".pfx", ".keystore", ".jks")) and "test" not in path.lower():
        return "private key or certificate store"
    if path in ("/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/master.passwd") or is_within(path, "/etc/sudoers.d"):
        return "system password/sudo database"
    if is_within(path, "/root"):
        return "root's home directory"
    if path.startswith("/proc/") and path.endswith(("/environ", "/mem", "/maps")):
        return "another process's memory or environment"
    return None


@lru_cache(maxsize=8192)
def protected_reason(path: str, home: str, project_root: str) -> str | None:
    """Why writing ``path`` needs a human even in bypass mode (DESIGN.md step 3), or None."""
    parts = path.split("/")
    if ".git" in parts:
        return "git internals (.git/)"
    if ".claude" in parts and not is_within(path, posixpath.join(home, ".claude", "projects")):
        return "agent configuration (.claude/)"
    if parts[-1] == ".phlegyas.toml":
        return "the gate's own project policy (.phlegyas.toml)"
    if parts[-1] == ".mcp.json":
        return "agent configuration (.mcp.json: the MCP servers the agent starts)"
    if is_within(path, home) and path != home:
        rel = path[len(home) + 1:]
        if rel in SHELL_RC_FILES:
            return f"shell start-up file (~/{rel})"
        if rel.split("/", 1)[0] in (".ssh", ".gnupg", ".aws", ".kube", ".config/systemd"):
            return f"credentials or keys (~/{rel.split('/', 1)[0]})"
        if rel.startswith(".config/systemd/") or rel.startswith(".config/autostart/"):
            return "user services that start on their own"
        if rel in (".gitconfig", ".npmrc", ".pypirc", ".netrc", ".git-credentials", ".pgpass"):
            return f"tool configuration with credentials (~/{rel})"
        top = rel.split("/", 1)[0]
        if top.startswith(".") and top not in HOME_SCRATCH_DIRS and not is_within(path, project_root):
            # ~/.lessfilter, ~/.config/…, ~/.local/bin/…: read by programs at start-up, a way to persist
            return f"configuration in your home directory (~/{top})"
    if is_system_path(path, home) and not is_within(path, project_root):
        return "system location"
    if posixpath.basename(path) in (".bashrc", ".zshrc", ".profile", ".bash_profile"):
        return "shell start-up file"
    return None
