"""Settings: environment variables, an optional ``.env`` file and the policy's ``[settings]``.

This is the only module that looks at the environment, and it only reads the mapping it is given:
an entry point calls ``Settings.load(os.environ, cwd=…)`` once and passes the result down. Nothing
happens at import time, and only the standard library is used (this module is on the hook's hot path).

Precedence, highest first: the real environment, the ``.env`` files, ``overrides`` (the policy's
``[settings]`` table, lower-case keys), the defaults. An empty value counts as "not set".

The ``.env`` file: ``KEY=value`` lines, optionally prefixed by ``export``; values may be unquoted (a
`` #`` starts a comment), single-quoted (literal) or double-quoted (``\\n \\t \\r \\" \\\\`` escapes);
quoted values may span lines. No ``$VAR`` interpolation: values are taken literally.

Two ``.env`` files are read. ``$PHLEGYAS_HOME/.env`` (the data directory's, the user's own: keys
included) may set every variable but ``PHLEGYAS_HOME`` itself; it must not be writable by other users.
``<cwd>/.env`` sits in the project the agent works in, a repository an attacker may control: it may set
only ``PROJECT_DOTENV_KEYS`` (context for the AI judge), which win over the data directory's; other
variables in it are ignored. A ``.env`` passed explicitly (``dotenv=``) is trusted and replaces the
project's. ``policy.env_docs.dotenv_example()`` is the text of ``.env.example``: every variable, its default, its meaning.
"""
from __future__ import annotations

import math
import os
import posixpath
import pwd
from dataclasses import dataclass, fields
from typing import Any, Callable, Mapping

from phlegyas.core.model import MODES, canonical_mode
from phlegyas.core.redact import redact
from phlegyas.policy.setting_values import Bad as _Bad
from phlegyas.policy.setting_values import channel as _channel
from phlegyas.policy.setting_values import database_url as _database_url
from phlegyas.policy.setting_values import items as _items
from phlegyas.policy.setting_values import machine as _machine
from phlegyas.policy.setting_values import slack_users as _slack_users
from phlegyas.policy.setting_values import token as _token

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
HOOK_UNDECIDED = ("none", "ask")
LLM_PROVIDERS = ("anthropic", "openai")
TRUE_WORDS = ("true", "1", "yes", "on")
FALSE_WORDS = ("false", "0", "no", "off")
DEFAULT_DATA_DIR = "~/.claude/phlegyas"

PROJECT_DOTENV_KEYS = frozenset({"PROJECT_NAME", "PROJECT_TYPE", "CURRENT_TASK"})
"""The variables the implicit ``<cwd>/.env`` (project-controlled) may set."""

SECRET_FIELDS = ("anthropic_api_key", "openai_api_key", "slack_bot_token", "slack_app_token")
URL_FIELDS = ("anthropic_base_url", "llm_base_url", "slack_api_url", "database_url")
SLACK_API_URL = "https://slack.com/api/"


class ConfigError(Exception):
    """A setting is missing, malformed or out of range; the message names the variable (or file:line)."""


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Everything configurable, resolved once at an entry point. Build it with ``Settings.load``."""

    home: str  # HOME (required to resolve ~)
    anthropic_api_key: str | None = None  # ANTHROPIC_API_KEY
    anthropic_base_url: str | None = None  # ANTHROPIC_BASE_URL
    claude_model: str = "claude-haiku-4-5-20251001"  # CLAUDE_MODEL
    approval_confidence_threshold: float = 0.8  # APPROVAL_CONFIDENCE_THRESHOLD, 0..1
    denial_confidence_threshold: float = 0.2  # DENIAL_CONFIDENCE_THRESHOLD, 0..1, < approval
    log_level: str = "INFO"  # LOG_LEVEL
    enable_audit_log: bool = True  # ENABLE_AUDIT_LOG
    audit_log_file: str = ""  # AUDIT_LOG_FILE; "" = <data_dir>/audit.jsonl
    project_name: str | None = None  # PROJECT_NAME
    project_type: str | None = None  # PROJECT_TYPE
    current_task: str | None = None  # CURRENT_TASK
    cache_ttl_seconds: int = 3600  # CACHE_TTL_SECONDS >= 0
    enable_approval_cache: bool = True  # ENABLE_APPROVAL_CACHE
    pending_ttl_seconds: int = 1800  # PENDING_TTL_SECONDS > 0 (the seed documents 30 minutes)
    approval_wait_seconds: int = 0  # APPROVAL_WAIT_SECONDS >= 0
    mode: str = "default"  # PHLEGYAS_MODE, one of model.MODES
    data_dir: str = DEFAULT_DATA_DIR  # PHLEGYAS_HOME (expanded, absolute)
    hook_undecided: str = "none"  # PHLEGYAS_HOOK_UNDECIDED: none | ask
    llm_provider: str = "anthropic"  # PHLEGYAS_LLM_PROVIDER: anthropic | openai
    llm_base_url: str | None = None  # PHLEGYAS_LLM_BASE_URL
    llm_model: str | None = None  # PHLEGYAS_LLM_MODEL
    llm_timeout_seconds: float = 10.0  # PHLEGYAS_LLM_TIMEOUT_SECONDS > 0
    openai_api_key: str | None = None  # OPENAI_API_KEY
    trust_store: str = ""  # PHLEGYAS_TRUST_STORE; "" = <home>/.claude/trusted-scripts.json
    safe_patterns_file: str = ""  # PHLEGYAS_SAFE_PATTERNS; "" = <home>/.claude/safe-patterns.json
    sensitive_paths: tuple[str, ...] = ()  # PHLEGYAS_SENSITIVE_PATHS (':'-separated): more secret places
    local_ports: tuple[int, ...] = ()  # PHLEGYAS_LOCAL_PORTS (','-separated): more localhost dev-server ports
    slack_bot_token: str | None = None  # SLACK_BOT_TOKEN (xoxb-…)
    slack_app_token: str | None = None  # SLACK_APP_TOKEN (xapp-…, Socket Mode)
    slack_approval_channel: str | None = None  # SLACK_APPROVAL_CHANNEL: a name (#approvals) or an ID (C0123…)
    slack_approval_timeout_seconds: int = 300  # SLACK_APPROVAL_TIMEOUT_SECONDS >= 1
    slack_approvers: tuple[str, ...] = ()  # SLACK_APPROVERS (','-separated user IDs); () = any channel member
    slack_api_url: str = SLACK_API_URL  # PHLEGYAS_SLACK_API_URL: the Web API base URL (proxies, tests)
    database_url: str | None = None  # PHLEGYAS_DATABASE_URL: postgresql://… (a fleet's shared store); None = SQLite
    machine_name: str | None = None  # PHLEGYAS_MACHINE: this machine's name in the shared store (default: host name)

    def __post_init__(self) -> None:
        if not isinstance(self.home, str) or not self.home.startswith("/"):
            raise ConfigError(f"HOME must be an absolute path, got {self.home!r}")
        home = posixpath.normpath(self.home)
        data_dir = _absolute(self.data_dir, home, "/")
        derived = {
            "home": home,
            "data_dir": data_dir,
            "audit_log_file": _absolute(self.audit_log_file or posixpath.join(data_dir, "audit.jsonl"), home, "/"),
            "trust_store": _absolute(self.trust_store or "~/.claude/trusted-scripts.json", home, "/"),
            "safe_patterns_file": _absolute(self.safe_patterns_file or "~/.claude/safe-patterns.json", home, "/"),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)
        if self.denial_confidence_threshold >= self.approval_confidence_threshold:
            raise ConfigError(
                f"DENIAL_CONFIDENCE_THRESHOLD ({self.denial_confidence_threshold}) must be less than "
                f"APPROVAL_CONFIDENCE_THRESHOLD ({self.approval_confidence_threshold})")

    @classmethod
    def load(cls, environ: Mapping[str, str], *, cwd: str, dotenv: str | None = None,
             overrides: Mapping[str, object] | None = None) -> "Settings":
        """Resolve every setting from ``environ`` > ``.env`` > ``overrides`` > defaults.

        ``dotenv`` names a trusted ``.env`` file; when None, ``<cwd>/.env`` is read if it exists and
        only ``PROJECT_DOTENV_KEYS`` are taken from it. A missing file is not an error. Raises
        ConfigError on any malformed or out-of-range value and on unknown ``overrides`` keys.
        """
        cwd = posixpath.normpath(cwd if cwd.startswith("/") else os.path.abspath(cwd))
        overrides = dict(overrides or {})
        unknown = sorted(k for k in overrides if k not in OVERRIDE_KEYS)
        if unknown:
            raise ConfigError(f"unknown setting{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
                              f"expected one of {', '.join(OVERRIDE_KEYS)}")
        if dotenv is None:
            dotenv_path, trusted = posixpath.join(cwd, ".env"), False
        else:
            dotenv_path, trusted = _absolute(dotenv, "/", cwd), True
        home = _home(environ)
        file_values = _data_dotenv(environ, home)
        for key, (value, line) in read_dotenv(dotenv_path).items():
            if trusted or key in PROJECT_DOTENV_KEYS:
                file_values[key] = (value, f"{dotenv_path}:{line}")
        values: dict[str, Any] = {}
        for var in _VARS:
            found = _lookup(var, environ, file_values, overrides)
            if found is None:
                continue
            raw, label, where = found
            try:
                values[var.name] = var.parse(raw, home, cwd)
            except _Bad as bad:
                raise ConfigError(f"{label} must be {bad}, got {_shown(var.name, raw)}{where}") from None
        return cls(home=home, **values)

    def describe(self) -> dict[str, object]:
        """Every setting as a dict that is safe to print: API keys masked, credentials cut from URLs."""
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in SECRET_FIELDS and value:
                value = mask_secret(value)
            elif f.name in URL_FIELDS and value:
                value = _strip_userinfo(value)
            out[f.name] = value
        return out

    redacted = describe

    @property
    def slack_configured(self) -> bool:
        """Slack approvals are on: both tokens and a channel are set."""
        return bool(self.slack_bot_token and self.slack_app_token and self.slack_approval_channel)

    @property
    def person_wait_seconds(self) -> float:
        """The longest a call may wait for a person: APPROVAL_WAIT_SECONDS, or Slack's timeout when Slack
        approvals are on (a hook that waits must outlast it)."""
        slack = self.slack_approval_timeout_seconds if self.slack_configured else 0
        return float(max(self.approval_wait_seconds, slack))


def mask_secret(value: str) -> str:
    """``****`` plus the last four characters when the secret is long enough to spare them."""
    return "****" + value[-4:] if len(value) >= 16 else "****"


def _strip_userinfo(url: str) -> str:
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    netloc, slash, path = rest.partition("/")
    if "@" in netloc:
        netloc = "****@" + netloc.rsplit("@", 1)[1]
    return f"{scheme}://{netloc}{slash}{path}"


# --- variables ---------------------------------------------------------------------------------

Parser = Callable[[object, str, str], object]  # (raw value, home, cwd) -> value; raises _Bad


@dataclass(frozen=True)
class _Var:
    name: str  # the Settings field and the policy [settings] key
    env: str  # the environment variable
    parse: Parser


def _text(raw: object, home: str, cwd: str) -> str:
    if not isinstance(raw, str):
        raise _Bad("a string")
    return raw


def _url(raw: object, home: str, cwd: str) -> str:
    text = _text(raw, home, cwd).strip()
    if not (text.startswith("http://") or text.startswith("https://")) or len(text) <= len("https://"):
        raise _Bad("an http:// or https:// URL")
    return text.rstrip("/")


def _path(raw: object, home: str, cwd: str) -> str:
    return _absolute(_text(raw, home, cwd), home, cwd)


def _secret_patterns(raw: object, home: str, cwd: str) -> tuple[str, ...]:
    """``sensitive_paths``: where secrets lie besides the built-in list. ``~/.foo/`` or ``/srv/keys/``
    (a trailing slash: everything below), ``~/.foo.json`` or ``/etc/app/*.conf`` (files), or a bare name
    pattern matched anywhere (``*.secret``). A relative path with a slash would depend on the cwd."""
    out = []
    for item in _items(raw, ":", "paths"):
        if not isinstance(item, str) or not item.strip():
            raise _Bad('a list of paths (e.g. ["~/.config/acme/", "/srv/keys/*.pem", "*.secret"])')
        text = item.strip()
        if "/" in text.rstrip("/") and not text.startswith(("/", "~/")):
            raise _Bad(f"absolute paths, ~/… or file name patterns (not the relative path {text!r})")
        out.append(text)
    return tuple(out)


def _ports(raw: object, home: str, cwd: str) -> tuple[int, ...]:
    """``local_ports``: localhost ports where the user's own dev servers listen (besides ``urls.DEV_PORTS``)."""
    out = []
    for item in _items(raw, ",", "port numbers"):
        try:
            port = _number(item, int)
        except _Bad:
            raise _Bad("a list of port numbers (e.g. [3000, 9000])") from None
        if not 1 <= port <= 65535:
            raise _Bad("port numbers between 1 and 65535")
        out.append(int(port))
    return tuple(out)


def _number(raw: object, kind: type) -> int | float:
    if isinstance(raw, bool):
        raise _Bad("a number")
    if isinstance(raw, str):
        try:
            value = kind(raw.strip())
        except ValueError:
            raise _Bad("an integer" if kind is int else "a number") from None
    elif isinstance(raw, int) or (isinstance(raw, float) and kind is float):
        value = kind(raw)
    else:
        raise _Bad("an integer" if kind is int else "a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise _Bad("a finite number")
    return value


def _fraction(raw: object, home: str, cwd: str) -> float:
    value = _number(raw, float)
    if not 0.0 <= value <= 1.0:
        raise _Bad("between 0 and 1")
    return value


def _positive_float(raw: object, home: str, cwd: str) -> float:
    value = _number(raw, float)
    if value <= 0:
        raise _Bad("a number greater than 0")
    return value


def _int_at_least(minimum: int) -> Parser:
    def parse(raw: object, home: str, cwd: str) -> int:
        value = _number(raw, int)
        if value < minimum:
            raise _Bad(f"an integer >= {minimum}")
        return int(value)
    return parse


def parse_bool(raw: object, home: str = "/", cwd: str = "/") -> bool:
    """true/false/1/0/yes/no/on/off (any case), or a real bool."""
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str):
        word = raw.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    raise _Bad("true or false (also 1/0, yes/no, on/off)")


def _choice(options: tuple[str, ...]) -> Parser:
    by_fold = {o.lower(): o for o in options}

    def parse(raw: object, home: str, cwd: str) -> str:
        if isinstance(raw, str) and options is MODES:
            raw = canonical_mode(raw.strip())
        if isinstance(raw, str) and raw.strip().lower() in by_fold:
            return by_fold[raw.strip().lower()]
        raise _Bad(f"one of {', '.join(options)}")
    return parse


_VARS: tuple[_Var, ...] = (
    _Var("anthropic_api_key", "ANTHROPIC_API_KEY", _text),
    _Var("anthropic_base_url", "ANTHROPIC_BASE_URL", _url),
    _Var("claude_model", "CLAUDE_MODEL", _text),
    _Var("approval_confidence_threshold", "APPROVAL_CONFIDENCE_THRESHOLD", _fraction),
    _Var("denial_confidence_threshold", "DENIAL_CONFIDENCE_THRESHOLD", _fraction),
    _Var("log_level", "LOG_LEVEL", _choice(LOG_LEVELS)),
    _Var("enable_audit_log", "ENABLE_AUDIT_LOG", parse_bool),
    _Var("audit_log_file", "AUDIT_LOG_FILE", _path),
    _Var("project_name", "PROJECT_NAME", _text),
    _Var("project_type", "PROJECT_TYPE", _text),
    _Var("current_task", "CURRENT_TASK", _text),
    _Var("cache_ttl_seconds", "CACHE_TTL_SECONDS", _int_at_least(0)),
    _Var("enable_approval_cache", "ENABLE_APPROVAL_CACHE", parse_bool),
    _Var("pending_ttl_seconds", "PENDING_TTL_SECONDS", _int_at_least(1)),
    _Var("approval_wait_seconds", "APPROVAL_WAIT_SECONDS", _int_at_least(0)),
    _Var("mode", "PHLEGYAS_MODE", _choice(MODES)),
    _Var("data_dir", "PHLEGYAS_HOME", _path),
    _Var("hook_undecided", "PHLEGYAS_HOOK_UNDECIDED", _choice(HOOK_UNDECIDED)),
    _Var("llm_provider", "PHLEGYAS_LLM_PROVIDER", _choice(LLM_PROVIDERS)),
    _Var("llm_base_url", "PHLEGYAS_LLM_BASE_URL", _url),
    _Var("llm_model", "PHLEGYAS_LLM_MODEL", _text),
    _Var("llm_timeout_seconds", "PHLEGYAS_LLM_TIMEOUT_SECONDS", _positive_float),
    _Var("openai_api_key", "OPENAI_API_KEY", _text),
    _Var("trust_store", "PHLEGYAS_TRUST_STORE", _path),
    _Var("safe_patterns_file", "PHLEGYAS_SAFE_PATTERNS", _path),
    _Var("sensitive_paths", "PHLEGYAS_SENSITIVE_PATHS", _secret_patterns),
    _Var("local_ports", "PHLEGYAS_LOCAL_PORTS", _ports),
    _Var("slack_bot_token", "SLACK_BOT_TOKEN", lambda raw, home, cwd: _token(raw, "xoxb-", "bot token")),
    _Var("slack_app_token", "SLACK_APP_TOKEN", lambda raw, home, cwd: _token(raw, "xapp-", "app-level token")),
    _Var("slack_approval_channel", "SLACK_APPROVAL_CHANNEL", lambda raw, home, cwd: _channel(raw)),
    _Var("slack_approval_timeout_seconds", "SLACK_APPROVAL_TIMEOUT_SECONDS", _int_at_least(1)),
    _Var("slack_approvers", "SLACK_APPROVERS", lambda raw, home, cwd: _slack_users(raw)),
    _Var("slack_api_url", "PHLEGYAS_SLACK_API_URL", lambda raw, home, cwd: _url(raw, home, cwd) + "/"),
    _Var("database_url", "PHLEGYAS_DATABASE_URL", lambda raw, home, cwd: _database_url(raw)),
    _Var("machine_name", "PHLEGYAS_MACHINE", lambda raw, home, cwd: _machine(raw)),
)

ENV_VARS: dict[str, str] = {v.name: v.env for v in _VARS}
"""Settings field → environment variable."""

OVERRIDE_KEYS: tuple[str, ...] = tuple(v.name for v in _VARS if v.name != "data_dir")
"""The keys a policy's ``[settings]`` may set (``data_dir`` holds the policy, so it cannot)."""

_BY_NAME = {v.name: v for v in _VARS}


def check_override(key: str, value: object) -> None:
    """Raise ConfigError unless ``value`` is acceptable for the ``[settings]`` key ``key``.

    Lets the policy loader report a bad value at its file and line; paths are not resolved here.
    """
    var = _BY_NAME.get(key)
    if var is None or key not in OVERRIDE_KEYS:
        raise ConfigError(f"unknown setting {key}; expected one of {', '.join(OVERRIDE_KEYS)}")
    try:
        var.parse(value, "/", "/")
    except _Bad as bad:
        raise ConfigError(f"{key} must be {bad}, got {_shown(key, value)}") from None


def _lookup(var: _Var, environ: Mapping[str, str], file_values: Mapping[str, tuple[str, str]],
            overrides: Mapping[str, object]) -> tuple[object, str, str] | None:
    """The highest-precedence non-empty value: (raw value, name to report, where it came from)."""
    value = environ.get(var.env)
    if _is_set(value):
        return value, var.env, ""
    if var.env in file_values:
        from_file, where = file_values[var.env]
        if _is_set(from_file):
            return from_file, var.env, f" ({where})"
    override = overrides.get(var.name)
    if _is_set(override):
        return override, var.name, " (policy [settings])"
    return None


def _is_set(value: object) -> bool:
    return value is not None and not (isinstance(value, str) and value.strip() == "")


def _home(environ: Mapping[str, str]) -> str:
    home = environ.get("HOME")
    if home is not None and _is_set(home):
        if not home.startswith("/"):
            raise ConfigError(f"HOME must be an absolute path, got {_show(home)}")
        return posixpath.normpath(home)
    try:
        return pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:
        raise ConfigError("HOME is not set and the user has no home directory; expected HOME=/path") from None


def _absolute(path: str, home: str, cwd: str) -> str:
    if path == "~" or path.startswith("~/"):
        path = home + path[1:]
    if not path.startswith("/"):
        path = posixpath.join(cwd, path)
    return posixpath.normpath(path)


def _shown(name: str, raw: object) -> str:
    """A rejected value as an error may show it: secrets masked, passwords cut from URLs."""
    if isinstance(raw, str) and name in SECRET_FIELDS:
        return mask_secret(raw)
    if isinstance(raw, str) and name == "database_url" and "://" not in raw and "=" not in raw:
        return mask_secret(raw)  # not a URL at all: it may be the password itself, pasted in the wrong place
    if isinstance(raw, str) and name in URL_FIELDS:
        return _show(redact(_strip_userinfo(raw)))
    return _show(raw)


def _show(value: object) -> str:
    if isinstance(value, str) and value and value.isprintable() and " " not in value:
        return value
    return repr(value)


# --- .env files --------------------------------------------------------------------------------

def _data_dotenv(environ: Mapping[str, str], home: str) -> dict[str, tuple[str, str]]:
    """``KEY -> (value, "file:line")`` of ``$PHLEGYAS_HOME/.env``, the user's own (any key but
    ``PHLEGYAS_HOME``); {} when there is none. One writable by other users is an error, not a source."""
    raw = environ.get("PHLEGYAS_HOME")
    data_dir = _absolute(raw if raw is not None and _is_set(raw) else DEFAULT_DATA_DIR, home, "/")
    path = posixpath.join(data_dir, ".env")
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return {}
    if mode & 0o022:
        raise ConfigError(f"{path} is writable by other users (mode {mode & 0o777:o}); it may hold keys and "
                          f"set every variable: chmod 600 {path}")
    return {k: (v, f"{path}:{line}") for k, (v, line) in read_dotenv(path).items() if k != "PHLEGYAS_HOME"}


def read_dotenv(path: str) -> dict[str, tuple[str, int]]:
    """``KEY -> (value, line)`` from a ``.env`` file; {} when it does not exist. Raises ConfigError."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise ConfigError(f"{path}: expected a .env file, found a directory") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: expected UTF-8 text") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return parse_dotenv(text, path)


def parse_dotenv(text: str, path: str = ".env") -> dict[str, tuple[str, int]]:
    """Parse ``.env`` text (see the module docstring); a malformed line raises ConfigError at file:line.

    Error messages never repeat the line's content: it may hold a secret.
    """
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    out: dict[str, tuple[str, int]] = {}
    index = 0
    while index < len(lines):
        lineno = index + 1
        line = lines[index].strip()
        index += 1
        if not line or line.startswith("#"):
            continue
        key, value, index = _assignment(line, lines, index, path)
        out[key] = (value, lineno)
    return out


def _assignment(line: str, lines: list[str], index: int, path: str) -> tuple[str, str, int]:
    where = f"{path}:{index}"
    if line.startswith("export ") or line.startswith("export\t"):
        line = line[len("export"):].lstrip()
    key, eq, rest = line.partition("=")
    key = key.strip()
    if not eq:
        raise ConfigError(f"{where}: expected KEY=value (no '=' on this line)")
    if not _is_name(key):
        raise ConfigError(f"{where}: expected a variable name (letters, digits, _) before '='")
    rest = rest.lstrip(" \t")
    if rest[:1] in ("'", '"'):
        value, index = _quoted(rest, lines, index, path)
        return key, value, index
    return key, _unquoted(rest), index


def _is_name(key: str) -> bool:
    return bool(key) and not key[0].isdigit() and all(c == "_" or (c.isascii() and c.isalnum()) for c in key)


def _unquoted(rest: str) -> str:
    """The value up to a `` #`` comment, trimmed; a ``#`` inside a word (``a#b``) is kept."""
    for i, ch in enumerate(rest):
        if ch == "#" and (i == 0 or rest[i - 1] in " \t"):
            return rest[:i].rstrip()
    return rest.rstrip()


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def _quoted(rest: str, lines: list[str], index: int, path: str) -> tuple[str, int]:
    """A quoted value that may continue on the following lines; returns (value, next line index).

    ``index`` is the index of the next line, so it is also the 1-based number of the current one.
    """
    where = f"{path}:{index}"
    quote, text, pos = rest[0], rest, 1
    out: list[str] = []
    while True:
        if pos >= len(text):
            if index >= len(lines):
                raise ConfigError(f"{where}: expected a closing {quote} for this value")
            out.append("\n")
            text, pos, index = lines[index], 0, index + 1
            continue
        ch = text[pos]
        if ch == quote:
            break
        if quote == '"' and ch == "\\" and pos + 1 < len(text):
            nxt = text[pos + 1]
            out.append(_ESCAPES.get(nxt, "\\" + nxt))
            pos += 2
            continue
        out.append(ch)
        pos += 1
    tail = text[pos + 1:].strip()
    if tail and not tail.startswith("#"):
        raise ConfigError(f"{path}:{index}: expected only a comment after the closing {quote}")
    return "".join(out), index
