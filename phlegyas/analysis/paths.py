"""Paths: what is where (system, temp, secrets, protected), for paths the one resolver gave.

``normalize`` and its helpers live in ``analysis.resolver`` and are re-exported here, so every check
resolves ``~user``, ``/proc/self/root`` or ``..`` the same way.

The secret places (``sensitive_reason``) are a table: what lies under a home directory (yours, root's,
another user's: the same list), system files, and names that are secrets wherever they are. Globs are
matched against the table component by component, so ``~/.ss?/id_*`` and ``/home/*/.aws/credentials``
are secrets too; ``holds_secrets`` names the directories a recursive read would take secrets from.
"""
from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from typing import Final

from phlegyas.analysis.globs import matches as glob_matches
from phlegyas.analysis.resolver import expand_home, expand_tilde, is_within, normalize, real, user_home

__all__ = ["HARMLESS_DEVICES", "HOME_EXPOSURES", "HOME_SCRATCH_DIRS", "HOME_SECRETS", "SHELL_RC_FILES",
           "SYSTEM_DIRS", "SYSTEM_SECRETS", "TEMP_DIRS", "expand_home", "expand_tilde", "exposure_reason",
           "holds_secrets", "is_harmless_device", "is_system_path", "is_temp_path", "is_within", "matches_pattern",
           "name_reason", "normalize", "protected_reason", "real", "sensitive_reason", "user_home"]


# -- what is where ---------------------------------------------------------------------------------
# Paths are normalized (absolute, no `..`) before they reach these functions.

SYSTEM_DIRS: Final = (
    "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/proc", "/root",
    "/run", "/sbin", "/srv", "/sys", "/usr", "/var", "/snap", "/System", "/Library", "/Applications",
    "/private", "/nix", "/home", "/Users", "/mnt", "/media",
)
"""Top-level directories of the system; deleting or chmod-ing them (or anything inside for some
classes) is catastrophic."""

SHELL_RC_FILES: Final = (
    ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv",
    ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".cshrc", ".tcshrc", ".inputrc",
    ".config/fish/config.fish",
)


TEMP_DIRS: Final = ("/tmp", "/var/tmp", "/dev/shm")
HARMLESS_DEVICES: Final = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/random",
                           "/dev/urandom", "/dev/fd", "/dev/stdin")


_SYSTEM_TOPS: Final = frozenset(SYSTEM_DIRS)
_HARMLESS_DEVICE_SET: Final = frozenset(HARMLESS_DEVICES)


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


HOME_SCRATCH_DIRS: Final = (".cache",)
"""Dot-directories under home that hold only caches: writing there is not configuration."""


def is_system_path(path: str, home: str) -> bool:
    """``/`` itself, a system directory, or anything below one, except the user's home, the temp
    directories and harmless devices such as /dev/null."""
    if path == "/":
        return True
    if _top(path) not in _SYSTEM_TOPS:
        return False
    return not (is_within(path, home) or is_temp_path(path) or is_harmless_device(path))


# -- secrets ---------------------------------------------------------------------------------------

_CLOUD, _BROWSER, _HISTORY = "cloud credentials", "a browser profile (saved passwords, cookies)", \
    "shell or client history (passwords and tokens typed on command lines)"
_APP_SESSION: Final = "a chat app's session (its cookies and tokens)"
HOME_SECRETS: Final[tuple[tuple[str, str], ...]] = (
    # (path under a home directory, a trailing '/' for everything below it; why it is secret)
    (".ssh/", "SSH private keys"),  # known_hosts, config, authorized_keys and *.pub excepted (_ssh_public)
    (".aws/", _CLOUD), (".azure/", _CLOUD), (".config/gcloud/", _CLOUD), (".oci/", _CLOUD),
    (".config/doctl/", _CLOUD), (".databrickscfg", _CLOUD), (".s3cfg", _CLOUD), (".boto", _CLOUD),
    (".config/rclone/rclone.conf", "cloud storage credentials"),
    (".kube/", "Kubernetes credentials"), (".docker/", "container registry credentials"),
    (".gnupg/", "GPG private keys"), (".password-store/", "a password store"), (".config/op/", "a password store"),
    (".local/share/keyrings/", "the desktop keyring"), ("Library/Keychains/", "the macOS keychain"),
    (".mozilla/", _BROWSER), (".config/google-chrome/", _BROWSER), (".config/chromium/", _BROWSER),
    (".config/BraveSoftware/", _BROWSER), (".config/microsoft-edge/", _BROWSER),
    ("Library/Application Support/Google/Chrome/", _BROWSER), ("Library/Application Support/Firefox/", _BROWSER),
    ("Library/Cookies/", _BROWSER),
    (".config/gh/hosts.yml", "the GitHub CLI's token"), (".config/hub", "the GitHub token of hub"),
    (".config/glab-cli/", "the GitLab CLI's token"), (".git-credentials", "git passwords and tokens"),
    (".config/git/credentials", "git passwords and tokens"),
    (".netrc", "passwords (.netrc)"), ("_netrc", "passwords (_netrc)"),
    (".pgpass", "database passwords"), (".my.cnf", "a database password"), (".mylogin.cnf", "database passwords"),
    (".npmrc", "a package registry token"), (".yarnrc.yml", "a package registry token"),
    (".pypirc", "a package index token"), (".gem/credentials", "a package registry key"),
    (".cargo/credentials", "a package registry token"), (".cargo/credentials.toml", "a package registry token"),
    (".m2/settings.xml", "package repository passwords"), (".gradle/gradle.properties", "build credentials"),
    (".vault-token", "a Vault token"), (".terraform.d/credentials.tfrc.json", "a Terraform Cloud token"),
    (".config/configstore/firebase-tools.json", "a Firebase token"), (".fly/config.yml", "a Fly.io token"),
    (".kaggle/kaggle.json", "an API key"), (".huggingface/token", "an API token"),
    (".cache/huggingface/token", "an API token"),
    (".claude/.credentials.json", "Claude Code's login"),
    (".config/github-copilot/", "the GitHub Copilot token"), (".config/gh-copilot/", "the GitHub Copilot token"),
    (".config/composer/auth.json", "a package registry token"), (".composer/auth.json", "a package registry token"),
    (".config/sops/age/", "age private keys (sops)"), (".config/age/", "age private keys"),
    (".config/Bitwarden CLI/", "a password store"),
    (".config/Slack/", _APP_SESSION), (".config/discord/", _APP_SESSION), (".config/Signal/", _APP_SESSION),
    (".config/Microsoft/Microsoft Teams/", _APP_SESSION), ("Library/Application Support/Slack/", _APP_SESSION),
    (".config/heroku/", "a Heroku token"), (".config/netlify/", "a Netlify token"),
    (".config/vercel/", "a Vercel token"), (".wrangler/", "a Cloudflare token"), (".config/helm/", _CLOUD),
    (".bundle/config", "a package registry password"), (".nuget/NuGet/NuGet.Config", "package feed passwords"),
    (".ivy2/.credentials", "package repository passwords"), (".sbt/.credentials", "package repository passwords"),
    (".config/stripe/", "a Stripe API key"), (".dbt/profiles.yml", "database passwords (dbt profiles)"),
    (".snowflake/", "database credentials (Snowflake)"), (".snowsql/config", "database credentials (SnowSQL)"),
    (".terraformrc", "a Terraform Cloud token"), (".pulumi/credentials.json", "a Pulumi token"),
    (".config/configstore/", "tokens of Node command-line tools"), (".circleci/cli.yml", "a CircleCI token"),
    (".sentryclirc", "a Sentry token"), (".config/ngrok/", "an ngrok token"), (".ngrok2/", "an ngrok token"),
    (".cloudflared/", "a Cloudflare tunnel credential"), (".config/hcloud/", _CLOUD), (".config/linode-cli", _CLOUD),
    (".config/scw/", _CLOUD), (".supabase/access-token", "a Supabase token"), (".railway/", "a Railway token"),
    (".config/pypoetry/auth.toml", "package index passwords"), (".m2/settings-security.xml", "Maven's master password"),
    (".config/containers/auth.json", "container registry credentials"), (".cqlshrc", "a database password"),
    (".clickhouse-client/", "a database password"), (".mc/config.json", "cloud storage keys (MinIO client)"),
    (".talos/config", "cluster credentials"), (".config/gspread/", "Google API credentials"),
)
"""Keys and credentials agents' machines hold under a home directory. The same list applies under every
home (yours, ``~bob``, ``/home/*``): another user's keys are no less secret. Destroying one is as bad as
showing it (``tier1`` reads this list for deletes and uploads too)."""
HOME_EXPOSURES: Final[tuple[tuple[str, str], ...]] = (
    (".claude.json", "Claude Code's account and MCP server settings (they may hold API keys)"),
    (".claude/phlegyas/", "the gate's own data (approvals, audit log, trust store)"),
    (".bash_history", _HISTORY), (".zsh_history", _HISTORY), (".zhistory", _HISTORY), (".history", _HISTORY),
    (".sh_history", _HISTORY), (".local/share/fish/fish_history", _HISTORY), (".psql_history", _HISTORY),
    (".mysql_history", _HISTORY), (".rediscli_history", _HISTORY),
)
"""Files that show secrets to whoever reads them, but are not keys: reading them asks (``exposure_reason``),
deleting them is an ordinary delete."""

_PASSWORDS: Final = "the system's password or sudo database"
SYSTEM_SECRETS: Final[tuple[tuple[str, str], ...]] = (
    ("/etc/shadow", _PASSWORDS), ("/etc/gshadow", _PASSWORDS), ("/etc/shadow-", _PASSWORDS),
    ("/etc/gshadow-", _PASSWORDS), ("/etc/master.passwd", _PASSWORDS), ("/etc/security/opasswd", _PASSWORDS),
    ("/etc/sudoers", _PASSWORDS), ("/etc/sudoers.d/", _PASSWORDS),
    ("/etc/ssh/ssh_host_*_key", "the machine's SSH host keys"), ("/etc/ssl/private/", "TLS private keys"),
    ("/etc/kubernetes/admin.conf", "Kubernetes credentials"), ("/etc/kubernetes/pki/", "Kubernetes credentials"),
    ("/etc/rancher/k3s/k3s.yaml", "Kubernetes credentials"),
    ("/run/secrets/", "container secrets"), ("/var/run/secrets/", "container secrets"),
    ("/root/", "root's home directory"),
    ("/proc/*/environ", "a process's environment (API keys, tokens)"),
    ("/proc/*/task/*/environ", "a process's environment (API keys, tokens)"),
    ("/proc/*/mem", "another process's memory"), ("/proc/*/maps", "another process's memory"),
    ("/proc/kcore", "the machine's memory"), ("/dev/mem", "the machine's memory"),
    ("/dev/kmem", "the machine's memory"),
)
"""Secrets at fixed places of the system."""

_KEY_SUFFIXES: Final = (".pem", ".key", ".p12", ".pfx", ".keystore", ".jks", ".ppk", ".kdbx")
_SSH_KEY_NAMES: Final = ("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk")
_PLACEHOLDER_SUFFIXES: Final = (".example", ".sample", ".template")
_DATA_SUFFIXES: Final = frozenset({"", ".json", ".yml", ".yaml", ".toml", ".ini", ".xml", ".txt", ".conf", ".cfg",
                                   ".properties", ".csv", ".env", ".enc", ".gpg", ".age"})
"""``credentials.json`` and ``secrets.yaml`` hold secrets; ``credentials.py`` is code that handles them."""


def name_reason(path: str, wide: bool = False) -> str | None:
    """Why a file is secret by its name alone, wherever it lies: ``.env`` files and private keys; with
    ``wide``, also files that hold credentials without being keys (``credentials.json``, ``secrets.yaml``,
    ``.envrc``, a stray ``id_rsa``). Key and certificate files under a test directory are fixtures."""
    name = posixpath.basename(path)
    low = name.lower()
    if low == ".env" or (low.startswith(".env.") and not low.endswith(_PLACEHOLDER_SUFFIXES)):
        return "environment secrets (.env)"
    testing = "test" in path.lower() or "fixture" in path.lower()
    if low.endswith(_KEY_SUFFIXES) and not testing or low.startswith("id_") and "/.ssh/" in path and \
            not low.endswith(".pub"):
        return "a private key or certificate store"
    if not wide:
        return None
    if low in (".envrc", ".dev.vars", ".secrets", ".git-credentials", ".netrc", "_netrc", ".pgpass", ".vault-token"):
        return f"secrets ({name})"
    if low in _SSH_KEY_NAMES and not testing:
        return "a private key"
    if low.endswith((".tfstate", ".tfstate.backup")):
        return "Terraform state (it holds the resources' passwords and keys in plain text)"
    stem, ext = posixpath.splitext(low)
    if ext in _DATA_SUFFIXES and not stem.endswith(_PLACEHOLDER_SUFFIXES) and not testing and (
            stem in ("credentials", "secrets", "secret") or stem.endswith(("-credentials", "_credentials"))
            or stem.startswith(("client_secret", "service-account", "service_account"))):
        return f"credentials ({name})"
    return None


def _ssh_public(name: str) -> bool:
    """The files of ``~/.ssh`` that hold nothing secret (a glob counts when it can only name those)."""
    return (name.endswith(".pub") or name.startswith("known_hosts") or name.startswith("authorized_keys")
            or name in ("config", "rc"))


_PROC_OTHER: Final = re.compile(r"/proc/\d+(?:/task/\d+)?/(cwd|fd)(?:/|$)")


def _has_glob(text: str) -> bool:
    return "*" in text or "?" in text or "[" in text


def _sample(pattern: str) -> str:
    """One name a glob matches: ``id_*`` → ``id_``, ``.ss?`` → ``.ssx``, ``[ab]c`` → ``ac``."""
    out = re.sub(r"\[!?([^\]])[^\]]*\]", r"\1", pattern)
    return out.replace("*", "").replace("?", "x")


@lru_cache(maxsize=16384)
def _component(pattern: str, entry: str) -> bool:
    """Can the path component ``pattern`` (a name or a glob) name something ``entry`` (a name or a glob)
    names? A glob reaches a dot file only when it starts with a dot, as bash's does."""
    if pattern == entry or pattern == "**":
        return True
    if entry.startswith(".") and not pattern.startswith("."):
        return False
    low_p, low_e = pattern.lower(), entry.lower()
    if low_p == low_e:
        return True
    if not _has_glob(pattern) and not _has_glob(entry):
        return False
    return glob_matches(low_e, low_p) or glob_matches(_sample(low_p), low_e) or (
        _has_glob(entry) and glob_matches(_sample(low_e), low_p))


def _parts_match(pattern: tuple[str, ...], entry: tuple[str, ...], below: bool, prefix: bool) -> bool:
    """Does the path ``pattern`` name ``entry`` (or, when ``below``, anything under it; when ``prefix``,
    a directory that holds it)? ``**`` stands for any number of components."""
    if not entry:
        return below or not pattern or all(p == "**" for p in pattern)
    if not pattern:
        return prefix
    head = pattern[0]
    if head == "**":
        return _parts_match(pattern[1:], entry, below, prefix) or _parts_match(pattern, entry[1:], below, prefix)
    return _component(head, entry[0]) and _parts_match(pattern[1:], entry[1:], below, prefix)


def _split(path: str) -> tuple[str, ...]:
    return tuple(p for p in path.split("/") if p)


@lru_cache(maxsize=64)
def _home_bases(home: str) -> tuple[tuple[str, ...], ...]:
    """The home directories the secret list applies under: yours, and any user's (``/home/*``)."""
    parent = posixpath.dirname(home)
    if parent in ("", "/"):
        parent = "/home"
    bases = {_split(home), ("home", "*"), ("Users", "*"), (*_split(parent), "*")}
    return tuple(sorted(b for b in bases if b))


@lru_cache(maxsize=64)
def _locations(home: str, wide: bool) -> tuple[tuple[tuple[str, ...], bool, str], ...]:
    """Every secret place as (components, everything below it?, why), for the home ``home``."""
    out = []
    for base in _home_bases(home):
        for entry, why in HOME_SECRETS + (HOME_EXPOSURES if wide else ()):
            out.append(((*base, *_split(entry)), entry.endswith("/"), why))
    for entry, why in SYSTEM_SECRETS:
        out.append((_split(entry), entry.endswith("/"), why))
    return tuple(out)


def _ssh_dir(parts: tuple[str, ...], home: str) -> bool:
    """``parts`` lies in a ``.ssh`` directory of a home and is not one of its public files."""
    for base in _home_bases(home):
        n = len(base)
        if len(parts) > n and _parts_match(parts[:n + 1], (*base, ".ssh"), False, False):
            return len(parts) != n + 2 or not _ssh_public(parts[n + 1])
    return False


@lru_cache(maxsize=64)
def _home_parents(home: str) -> tuple[str, ...]:
    parent = posixpath.dirname(home)
    return tuple(sorted({"/home", "/Users", parent if parent not in ("", "/") else "/home"}))


def _home_rels(path: str, home: str) -> list[str]:
    """``path`` relative to each home directory that holds it (yours, or any user's next to it)."""
    out = []
    if path.startswith(home + "/"):
        out.append(path[len(home) + 1:])
    for parent in _home_parents(home):
        if path.startswith(parent + "/"):
            _, sep, rel = path[len(parent) + 1:].partition("/")
            if sep and rel:
                out.append(rel)
    return out


def _tables(entries: tuple[tuple[str, str], ...]) -> tuple[
        dict[str, str], tuple[tuple[str, str], ...], dict[str, str]]:
    """A home table split for plain paths: its files, its directories, the directories above them."""
    files: dict[str, str] = {}
    dirs: list[tuple[str, str]] = []
    above: dict[str, str] = {}
    for entry, why in entries:
        low = entry.lower()
        if low.endswith("/"):
            if low != ".ssh/":
                dirs.append((low.rstrip("/"), why))
        else:
            files[low] = why
        parts = low.rstrip("/").split("/")
        for i in range(1, len(parts) + (1 if low == ".ssh/" else 0)):
            above.setdefault("/".join(parts[:i]), why)
    return files, tuple(dirs), above


def _system_tables() -> tuple[dict[str, str], tuple[tuple[str, str], ...], tuple[tuple[str, str], ...],
                              dict[str, str]]:
    """The system table split: files, directories, globs, the directories above them."""
    files: dict[str, str] = {}
    dirs: list[tuple[str, str]] = []
    globs: list[tuple[str, str]] = []
    above: dict[str, str] = {}
    for entry, why in SYSTEM_SECRETS:
        if _has_glob(entry):
            globs.append((entry, why))
        elif entry.endswith("/"):
            dirs.append((entry.rstrip("/"), why))
        else:
            files[entry] = why
        parts = entry.rstrip("/").split("/")
        for i in range(2, len(parts)):
            if not _has_glob("/".join(parts[:i])):
                above.setdefault("/".join(parts[:i]), why)
    return files, tuple(dirs), tuple(globs), above


_HOME_TABLES: Final = {False: _tables(HOME_SECRETS), True: _tables(HOME_SECRETS + HOME_EXPOSURES)}
_SYS_FILES, _SYS_DIRS, _SYS_GLOBS, _SYS_ABOVE = _system_tables()
_HOME_TOPS: Final = frozenset(e.lower().split("/", 1)[0] for e, _ in HOME_SECRETS + HOME_EXPOSURES)
_SYS_TOPS: Final = tuple(sorted({"/" + e.split("/")[1] + "/" for e, _ in SYSTEM_SECRETS}))
"""First components of the tables: most paths (``proj/src/a.py``, ``/usr/lib/x``) fail here, at once."""


def _looked_up(key: str, files: dict[str, str], dirs: tuple[tuple[str, str], ...]) -> str | None:
    """The reason a table gives ``key``: as a file of it, or as a path in one of its directories."""
    why = files.get(key)
    if why is not None:
        return why
    for d, reason in dirs:
        if key == d or key.startswith(d + "/"):
            return reason
    return None


def _plain_reason(path: str, home: str, wide: bool) -> str | None:
    """``sensitive_reason`` for a path without glob characters: lookups, no matching."""
    home_files, home_dirs, _ = _HOME_TABLES[wide]
    for rel in _home_rels(path, home):
        low = rel.lower()
        if low.split("/", 1)[0] not in _HOME_TOPS:
            continue
        why = _looked_up(low, home_files, home_dirs)
        if why is not None:
            return why
        if low == ".ssh" or low.startswith(".ssh/") and ("/" in rel[5:] or not _ssh_public(rel[5:])):
            return "SSH private keys"  # the directory itself too: rsync ~/.ssh/ takes every key
    if not path.startswith(_SYS_TOPS):
        return None
    why = _looked_up(path, _SYS_FILES, _SYS_DIRS)
    if why is not None:
        return why
    for pattern, why in _SYS_GLOBS:
        if path.count("/") == pattern.count("/") and glob_matches(path, pattern):
            return why
    return None


@lru_cache(maxsize=8192)
def sensitive_reason(path: str, home: str) -> str | None:
    """Why normalized ``path`` (a glob's components included: ``~/.ss?/id_*``) holds keys or
    credentials: the home and system tables, ``/proc`` entries of other processes, ``.env`` files and
    private keys by name; or None. What reading shows besides (histories, ``credentials.json``) is
    ``exposure_reason``."""
    return _reason(path, home, False)


@lru_cache(maxsize=8192)
def exposure_reason(path: str, home: str) -> str | None:
    """Why reading normalized ``path`` shows secrets: ``sensitive_reason``, plus ``HOME_EXPOSURES`` and the
    names that hold credentials without being keys (``name_reason(wide=True)``)."""
    return _reason(path, home, True)


def _reason(path: str, home: str, wide: bool) -> str | None:
    if path.startswith("/proc/") and _PROC_OTHER.match(path):
        return ("another process's working directory, which phlegyas cannot see" if "/cwd" in path
                else "another process's open files")
    if not _has_glob(path):
        return _plain_reason(path, home, wide) or name_reason(path, wide)
    parts = _split(path)
    fixed = "/" + "/".join(parts[:next(i for i, p in enumerate(parts) if _has_glob(p))])
    if fixed != "/" and _plain_reason(fixed, home, wide) is None and holds_secrets(fixed, home) is None:
        return _name_or_probe(path, wide)  # the glob starts where no secret place is: only names can tell
    named = _name_or_probe(path, wide)  # `~/**/.env`: what its name spells says more than the places it spans
    if named is not None:
        return named
    for entry, below, why in _locations(home, wide):
        if entry[-1] == ".ssh":
            continue  # _ssh_dir: its public files are not secret
        if _parts_match(parts, entry, below, False):
            return why
    if _ssh_dir(parts, home):
        return "SSH private keys"
    return None


def hunt_reason(path: str, home: str) -> str | None:
    """Why a name search (``find ~ -name 'id_*'`` as ``~/**/id_*``, ``locate .pem``) hunts for secrets: its
    name spells a secret's (``_NAME_PROBES``), or a directory it names below the start is a secret place
    (``find ~ -path '*/.aws/*'``). A start alone says nothing: ``locate -i readme`` only lists."""
    named = _name_or_probe(path, True, strict=True)
    if named is not None or "/**/" not in path:
        return named
    below = path.split("/**/", 1)[1].split("/")[:-1]
    if not any(part.startswith(".") and len(part) > 1 and not _has_glob(part) for part in below):
        return None  # `-path '*/.aws/*'` names a secret place; `-path '*/src/*.c'` none
    return _reason(path, home, True)


_NAME_PROBES: Final = (
    (".env", ".env"), (".env.local", ".env"), ("id_rsa", "id_"), ("id_ed25519", "id_"), ("id_ecdsa", "id_"),
    ("x.pem", ".pem"), ("x.key", ".key"), ("x.p12", ".p12"), ("x.pfx", ".pfx"), ("x.jks", ".jks"),
    ("x.keystore", ".keystore"), (".netrc", "netrc"), (".pgpass", "pgpass"), (".git-credentials", "credentials"),
    ("credentials", "cred"), ("credentials.json", "cred"), ("secrets.yaml", "secret"), ("secrets.json", "secret"),
    ("terraform.tfstate", ".tfstate"),
)
"""Names a glob's last component is tried against: ``(name, the part a glob must spell out)``. A glob
that spells nothing of a secret's name (``src/*``, ``*.json``) is judged by its directory, not here: it
would otherwise ask for every ``cat src/*``."""


def _name_or_probe(path: str, wide: bool, strict: bool = False) -> str | None:
    """``name_reason`` of a name or of a glob's probes; ``strict``: the glob must spell two letters or more of
    the secret's name (``.*`` and ``*.*`` list every dotfile or every file: no hunt for one)."""
    why = name_reason(path, wide)
    if why is not None:
        return why
    head, _, pattern = path.rpartition("/")
    if not _has_glob(pattern):
        return None
    pieces = [p for p in re.split(r"\*|\?|\[[^\]]*\]", pattern.lower()) if p]
    for probe, key in _NAME_PROBES:
        if not _component(pattern, probe):
            continue
        if any((len(p) >= 2 or (p == "." and key.startswith(".") and not strict)) and (p in key or key in p)
               for p in pieces if not strict or p.strip(".")):
            why = name_reason(f"{head}/{probe}", wide)
            if why is not None:
                return why
    return None


@lru_cache(maxsize=8192)
def matches_pattern(path: str, pattern: str, home: str) -> bool:
    """Does normalized ``path`` (or a glob) fall under a user's pattern? ``~/.foo/`` and ``/srv/keys/``
    (a trailing slash) cover everything below; ``~/.foo.json`` and ``/etc/app/*.conf`` name files; a
    pattern without a slash (``*.secret``) is a file name anywhere."""
    pattern = expand_home(pattern.strip(), home)
    if "/" not in pattern.rstrip("/"):
        name = posixpath.basename(path)
        return glob_matches(name, pattern) or _component(name, pattern)
    return _parts_match(_split(path), _split(pattern), pattern.endswith("/"), False)


@lru_cache(maxsize=8192)
def holds_secrets(path: str, home: str) -> str | None:
    """Why reading directory ``path`` recursively (``grep -r``, ``rg``) takes secrets with it: it is a
    home directory, holds one (``/``, ``/home``), or holds a secret place (``~/.config``); or None."""
    if path == "/":
        return "the whole file system, home directories included"
    if _has_glob(path):
        return _glob_holds(path, home)
    parents = _home_parents(home)
    if path == home or posixpath.dirname(path) in parents:
        return "a home directory (it holds keys, tokens and credentials)"
    if is_within(home, path) or any(is_within(p, path) for p in parents):
        return "a directory of home directories (they hold keys, tokens and credentials)"
    home_above = _HOME_TABLES[True][2]
    for rel in _home_rels(path, home):
        why = home_above.get(rel.lower())
        if why is not None:
            return f"a directory that holds {why}"
    why = _SYS_ABOVE.get(path)
    if why is None and path.startswith("/proc") and re.fullmatch(r"/proc(?:/\d+|/self|/thread-self)?", path):
        why = "a process's environment (API keys, tokens)"
    return f"a directory that holds {why}" if why is not None else None


def _glob_holds(path: str, home: str) -> str | None:
    parts = _split(path)
    for base in _home_bases(home):
        if _parts_match(parts, base, False, False):
            return "a home directory (it holds keys, tokens and credentials)"
        if _parts_match(parts, base, False, True):
            return "a directory of home directories (they hold keys, tokens and credentials)"
    for entry, _, why in _locations(home, True):
        if len(entry) > len(parts) and _parts_match(parts, entry, False, True):
            return f"a directory that holds {why}"
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
