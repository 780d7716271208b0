"""Secret redaction for everything the audit log writes.

``redact(text)`` replaces secrets in free text (a shell command, a reason, a URL, JSON as text) with
``[REDACTED:<kind>]``; ``redact_value(value)`` does the same through JSON-like data and blanks whole
values stored under secret-looking keys (``password``, ``api_key``, ``Authorization`` …).

This is log hygiene, not shell analysis, so regular expressions are the right tool here. Each rule
carries cheap lowercase trigger substrings: a rule's regex runs only when one of its triggers occurs
in the text, so a command with nothing secret-looking costs a few substring searches. Rules run in
order (specific token formats first, generic ``key=value`` assignments last) and never re-redact a
marker an earlier rule wrote. Over-redaction is preferred to a leak.
"""
from __future__ import annotations

import functools
import math
import re
from typing import Callable

MARKER = "[REDACTED:{}]"
MAX_DEPTH = 100
"""``redact_value`` replaces data nested deeper than this instead of recursing (no RecursionError)."""

_NOT_MARKER = r"(?!\[REDACTED:)"
_TOKEN_CHARS = r"[A-Za-z0-9_\-]"
_KEY_CHARS = r"[A-Za-z0-9_.\-]"
_KEY_RUN = re.compile(_KEY_CHARS + "*")
_KEY_CHAR_SET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
MAX_KEY = 80
"""Longer key names are not considered (keeps the scan linear)."""
_VAR_REF = re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?")


def _marker(kind: str) -> str:
    return MARKER.format(kind)


class _Pattern:
    """A regular expression compiled on first use: most texts never need most rules, and the hook
    process that imports this module lives for one call."""

    __slots__ = ("source", "flags", "_compiled")

    def __init__(self, source: str, flags: int = 0):
        self.source, self.flags = source, flags
        self._compiled: re.Pattern[str] | None = None

    def get(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.source, self.flags)
        return compiled


Replace = Callable[["_Rule", "re.Match[str]"], "str | None"]


class _Rule:
    """One kind of secret: where it may be (triggers), what it looks like (pattern), what replaces it."""

    __slots__ = ("kind", "triggers", "pattern", "replace")

    def __init__(self, kind: str, triggers: tuple[str, ...], source: str, replace: Replace, flags: int = 0):
        self.kind, self.triggers, self.replace = kind, triggers, replace
        self.pattern = _Pattern(source, flags)

    def apply(self, text: str) -> str:
        """Replace every match; a ``replace`` that returns None declines and the scan goes on just
        past the match start (so a declined candidate never hides a secret behind it)."""
        out: list[str] = []
        pos = 0
        search = self.pattern.get().search
        m = search(text, pos)
        while m is not None:
            replacement = self.replace(self, m)
            if replacement is None:
                m = search(text, m.start() + 1)
                continue
            out += (text[pos:m.start()], replacement)
            pos = m.end()
            m = search(text, pos)
        if not out:
            return text
        out.append(text[pos:])
        return "".join(out)


def _whole(rule: _Rule, m: re.Match[str]) -> str:
    """Replace the whole match."""
    return _marker(rule.kind)


def _keep_prefix(rule: _Rule, m: re.Match[str]) -> str:
    """Keep group ``pre`` (a key, a scheme word, a URL head) and replace the rest."""
    return m.group("pre") + _marker(rule.kind)


def _keep_prefix_unless_reference(rule: _Rule, m: re.Match[str]) -> str | None:
    """Like _keep_prefix, but ``$TOKEN``, ``${TOKEN}``, ``$(cat f)`` only say where a secret is: keep them."""
    if _names_a_value(m.group("val")):
        return None
    return _keep_prefix(rule, m)


def _url_password(rule: _Rule, m: re.Match[str]) -> str | None:
    if _names_a_value(m.group("val")):
        return None
    return m.group("pre") + _marker(rule.kind) + "@"


def _names_a_value(text: str) -> bool:
    """A shell reference to a value (``$X``, ``${X}``, ``$(cmd)``, backticks), not the value itself."""
    return bool(_VAR_REF.fullmatch(text)) or text.startswith(("$(", "`"))


# --- what counts as a secret-looking key name --------------------------------------------------

_CAMEL_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_PASSWORD_WORDS = frozenset({"password", "passwd", "passphrase", "pass", "passin", "passout", "pw"})
_SECRET_WORDS = frozenset({"secret", "secrets", "token", "apikey", "credential", "credentials",
                           "privatekey", "cookie"})
_KEY_QUALIFIERS = frozenset({"api", "private", "secret", "access", "signing", "encryption", "master",
                             "client", "license", "session"})
_NOT_A_VALUE = frozenset({  # a last word that makes the key describe the secret, not hold it
    "file", "files", "path", "dir", "directory", "url", "uri", "endpoint", "host", "type", "kind",
    "name", "length", "len", "size", "env", "var", "hint", "expiry", "expires", "expiration", "ttl",
    "count", "limit", "reset", "field", "header", "helper", "command", "cmd", "store", "policy",
    "mode", "format", "method", "prompt", "timeout", "required", "enabled", "pattern", "regex",
    "label", "location", "id", "ids", "rotation", "strength", "min", "max"})
_NOT_SECRETS = frozenset({"pwd", "oldpwd"})  # the shell's working directory


def key_words(key: str) -> list[str]:
    """``X-Api-Key`` → ``["x", "api", "key"]``; ``_authToken`` → ``["auth", "token"]``."""
    return [w.lower() for w in _CAMEL_WORDS.findall(key)]


def secret_kind(key: object) -> str | None:
    """The redaction kind for a value stored under ``key``, or None when the name is not secret-like.

    ``password``, ``DB_PASS``, ``PGPASSWORD`` → ``password``; ``api_key``, ``GITHUB_TOKEN``,
    ``clientSecret`` → ``secret``; ``Authorization`` → ``authorization``. Names that describe a secret
    rather than hold it (``token_file``, ``password_reset``, ``max_tokens``, ``PWD``) are not
    secret-like.
    """
    if not isinstance(key, str):
        return None
    return _secret_kind(key[:MAX_KEY])


@functools.lru_cache(maxsize=1024)  # the same few keys (command, file_path …) come back all the time
def _secret_kind(key: str) -> str | None:
    words = key_words(key)
    if not words or words[-1] in _NOT_A_VALUE or (len(words) == 1 and words[0] in _NOT_SECRETS):
        return None
    for i, word in enumerate(words):
        if word == "authorization":
            return "authorization"
        if word in _PASSWORD_WORDS or word.endswith(("password", "passwd", "pwd")):
            return "password"
        if word in _SECRET_WORDS or word.endswith(("token", "secret", "apikey")):
            return "secret"
        if word == "key" and i > 0 and words[i - 1] in _KEY_QUALIFIERS:
            return "secret"
    return None


def _assignment(m: re.Match[str]) -> str | None:
    """``KEY=VALUE``, ``KEY: VALUE``, ``"KEY": "VALUE"``, ``--key VALUE``: redact when KEY is secret-like."""
    key, sep, val = m.group("key"), m.group("sep"), m.group("val")
    spaced = not sep.strip()
    if spaced and not key.startswith("--"):
        return None  # `word value`: only long CLI flags take a space-separated value
    kind = secret_kind(key)
    if kind is None or (spaced and val.startswith("-")):
        return None  # not secret-like, or `--password --next-flag`
    quote = val[:2] if val.startswith("\\") else val[:1]
    if quote not in ('"', "'", '\\"', "\\'"):
        quote = ""
    inner = val[len(quote):len(val) - len(quote)] if quote else val
    if not inner:
        return None  # password="" holds nothing
    if not quote.endswith("'") and _names_a_value(inner):
        return None  # $PASSWORD, ${TOKEN}, $(cat key): the text only says where the secret is
    if quote and not m.group("q") and m.start("key") > 0 and m.string[m.start("key") - 1] == quote[-1]:
        return None  # grep "password=" "x": that quote closes the string the key sits in
    return f"{m.group('q')}{key}{m.group('q')}{sep}{quote}{_marker(kind)}{quote}"


def _may_assign(text: str, start: int, end: int) -> bool:
    """A cheap look at what follows the name ``text[start:end]`` before the full match is tried."""
    after = text[end:end + 1]
    if not after:
        return False
    if after in " \t":
        return text.startswith("--", start)
    return after in "=:\"'\\"


class _AssignmentRule:
    """``KEY=VALUE``, ``KEY: VALUE``, ``"KEY": "VALUE"``, ``--key VALUE`` where KEY is secret-like.

    The scan is anchored on the secret word (``pass``, ``token``, ``key`` …): from each occurrence it
    walks back to the start of the key, then matches the assignment there. This stays linear where a
    single regex with an open-ended key prefix would backtrack at every word of the text.
    """

    kind = "assignment"
    triggers = ("pass", "pw", "secret", "token", "key", "credential", "cookie")
    _WORDS = r"pass|pw|secret|token|key|credential|cookie"
    _word = _Pattern(_WORDS)  # searched in the lowercased text
    _word_any_case = _Pattern(_WORDS, re.IGNORECASE)  # slower: for texts whose length lower() changes
    _at_key = _Pattern(
        r"(?P<q>\\?[\"']|)(?P<key>" + _KEY_CHARS + r"{1,%d})(?P=q)"
        r"(?P<sep>[ \t]*[:=][ \t]*|[ \t]+)(?![=:/])" % MAX_KEY + _NOT_MARKER
        + r"(?P<val>\\\"(?:(?!\\\")[^\n])*\\\"|\\'(?:(?!\\')[^\n])*\\'|\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'"
        r"|\$\{[^}\s]*\}|\$\([^)\n]*\)|`[^`\n]*`|[^\s\"'&;|,(){}\[\]<>`]+)")

    def apply(self, text: str) -> str:
        out: list[str] = []
        pos = 0
        haystack, finder = text.lower(), self._word.get()
        if len(haystack) != len(text):  # lower() changed some lengths: indices would not line up
            haystack, finder = text, self._word_any_case.get()
        word = finder.search(haystack)
        while word is not None:
            start = self._key_start(text, word.start(), pos)
            run = _KEY_RUN.match(text, word.end())
            end = run.end() if run is not None else word.end()
            m = None
            if start is not None and _may_assign(text, start, end):
                m = self._match_at(text, start, pos)
            replacement = _assignment(m) if m is not None else None
            if replacement is None or m is None:  # every secret word in the same name leads to the same key
                word = finder.search(haystack, end)
                continue
            out += (text[pos:m.start()], replacement)
            pos = m.end()
            word = finder.search(haystack, pos)
        if not out:
            return text
        out.append(text[pos:])
        return "".join(out)

    @staticmethod
    def _key_start(text: str, at: int, floor: int) -> int | None:
        """Where the name around position ``at`` starts; None when it is longer than MAX_KEY."""
        start = at
        while start > floor and text[start - 1] in _KEY_CHAR_SET:
            start -= 1
            if at - start > MAX_KEY:
                return None
        return start

    def _match_at(self, text: str, start: int, floor: int) -> re.Match[str] | None:
        """The assignment whose key starts at ``start``, quoted (``"key"``, ``\\"key\\"``) or not."""
        quoted = start
        if start > floor and text[start - 1] in "\"'":
            quoted = start - 1
            if quoted > floor and text[quoted - 1] == "\\":
                quoted -= 1
        at_key = self._at_key.get()
        m = at_key.match(text, quoted)
        if m is None and quoted != start:
            m = at_key.match(text, start)
        return m


# --- the rules, in the order they run ----------------------------------------------------------

_RULES: tuple[_Rule | _AssignmentRule, ...] = (
    _Rule("private_key", ("private key",),
          r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
          r"(?:.*?-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|.*)",  # cut off: to the end
          _whole, re.DOTALL),
    _Rule("slack_webhook", ("hooks.slack.com",),
          r"(?P<pre>hooks\.slack\.com/(?:services|workflows|triggers)/)" + _NOT_MARKER + r"[A-Za-z0-9/_\-]+",
          _keep_prefix, re.IGNORECASE),
    _Rule("anthropic_key", ("sk-ant-",), r"(?<![\w\-])sk-ant-" + _TOKEN_CHARS + r"{8,}", _whole),
    _Rule("openai_key", ("sk-",),
          r"(?<![\w\-])sk-(?:proj-|svcacct-|admin-)?(?=" + _TOKEN_CHARS + r"*[0-9])" + _TOKEN_CHARS + r"{20,}",
          _whole),
    _Rule("stripe_key", ("k_live_", "k_test_"), r"(?<![\w\-])[rs]k_(?:live|test)_[A-Za-z0-9]{16,}", _whole),
    _Rule("github_token", ("gh", "github_pat_"),
          r"(?<![\w\-])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})", _whole),
    _Rule("gitlab_token", ("glpat-",), r"(?<![\w\-])glpat-[A-Za-z0-9_\-]{20,}", _whole),
    _Rule("slack_token", ("xox",), r"(?<![\w\-])xox[abprsed]-[A-Za-z0-9\-%]{10,}", _whole),
    _Rule("telegram_bot_token", (":aa",), r"(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_\-]{30,}", _whole),
    _Rule("discord_webhook", ("/api/webhooks/",),
          r"(?P<pre>discord(?:app)?\.com/api/webhooks/[0-9]{5,}/)" + _NOT_MARKER + r"[A-Za-z0-9_\-]{20,}",
          _keep_prefix, re.IGNORECASE),
    _Rule("sendgrid_key", ("sg.",), r"(?<![\w\-])SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}", _whole),
    _Rule("slack_app_token", ("xapp-",), r"(?<![\w\-])xapp-[A-Za-z0-9\-]{10,}", _whole),
    _Rule("npm_token", ("npm_",), r"(?<![\w\-])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])", _whole),
    _Rule("huggingface_token", ("hf_",), r"(?<![\w\-])hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9])", _whole),
    _Rule("google_api_key", ("aiza",), r"(?<![\w\-])AIza[A-Za-z0-9_\-]{35}", _whole),
    _Rule("jwt", ("eyj",),
          r"(?<![\w\-])eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", _whole),
    _Rule("aws_access_key_id", ("akia", "asia"),
          r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])", _whole),
    _Rule("aws_secret_access_key", ("aws_secret",),
          r"(?P<pre>aws_secret_(?:access_)?key[\"']?(?:[ \t]*[:=][ \t]*|[ \t]+)[\"']?)" + _NOT_MARKER
          + r"[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])",
          _keep_prefix, re.IGNORECASE),
    _Rule("authorization", ("authorization",),  # the header's value, keeping the scheme word
          r"(?P<pre>\b(?:proxy-)?authorization\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?[ \t]*"
          r"(?:(?:bearer|basic|token|digest|negotiate|apikey)[ \t]+)?+)" + _NOT_MARKER
          + r"(?P<val>[^\s\"'\\]+(?:[ \t]+[^\s\"'\\]+)*)",
          _keep_prefix_unless_reference, re.IGNORECASE),
    _Rule("bearer_token", ("bearer",),
          r"(?P<pre>\bbearer[ \t]+)" + _NOT_MARKER + r"(?=[^\s\"'\\]*[0-9])(?P<val>[A-Za-z0-9._~+/=\-]{8,})",
          _keep_prefix_unless_reference, re.IGNORECASE),
    _Rule("url_password", ("://",),
          r"(?P<pre>://[^\s:/?#@\"'<>\[\]]*:)" + _NOT_MARKER + r"(?P<val>[^\s/?#\"'<>]+)@", _url_password),
    _AssignmentRule(),
)


def redact(text: str) -> str:
    """``text`` with every secret the rules know replaced by ``[REDACTED:<kind>]``."""
    if not text:
        return text
    lowered = text.lower()
    for rule in _RULES:
        for trigger in rule.triggers:
            if trigger in lowered:
                redacted = rule.apply(text)
                if redacted is not text:
                    text, lowered = redacted, redacted.lower()
                break
    return text


def redact_value(value: object) -> object:
    """A deep copy of JSON-like ``value`` with every string redacted.

    Dict keys are kept; a value under a secret-like key (see ``secret_kind``) is replaced as a whole,
    unless it is empty, null or a boolean. Non-finite floats and objects that are not JSON types
    become (redacted) strings, so the result always serializes as strict JSON. Data nested deeper
    than MAX_DEPTH is replaced by a marker.
    """
    return _redact_value(value, 0)


def _redact_value(value: object, depth: int) -> object:
    if isinstance(value, str):
        return redact(value)
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if depth >= MAX_DEPTH:
        return f"[TRUNCATED: nested deeper than {MAX_DEPTH} levels]"
    if isinstance(value, dict):
        return {key: _redact_field(key, item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redact_value(item, depth + 1) for item in value]
    return redact(repr(value))


def _redact_field(key: object, value: object, depth: int) -> object:
    kind = secret_kind(key)
    holds_nothing = value is None or isinstance(value, bool) or value in ("", [], {})
    if kind is not None and not holds_nothing:
        return _marker(kind)
    return _redact_value(value, depth)


_MARKER_KIND = re.compile(r"\[REDACTED:([a-z_]+)\]")


def secret_kinds(text: str) -> list[str]:
    """The kinds of secret in ``text`` (``["anthropic_key"]``), in order, each once; empty when none."""
    if not text:
        return []
    redacted = redact(text)
    if redacted is text or redacted == text:
        return []
    before = set(_MARKER_KIND.findall(text))
    return [k for k in dict.fromkeys(_MARKER_KIND.findall(redacted)) if k not in before]
