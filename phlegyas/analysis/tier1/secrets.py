"""Credentials written into files that get committed: real-looking keys and password literals in the
content of a Write/Edit, or of ``echo … >> config.py`` and ``cat > settings.py <<EOF``.

Content is data, not shell, so regular expressions are the right tool here. Placeholders
(``AKIAIOSFODNN7EXAMPLE``, ``your-api-key``, ``${TOKEN}``, ``os.environ[…]``) do not count, and local
configuration files that stay out of git (``.env``, ``.env.local``, ``*.example``) are exempt.
"""
from __future__ import annotations

import posixpath
import re

from phlegyas.analysis.paths import is_within
from phlegyas.core.analysis import AnalysisEnv

_KEY_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an AWS access key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    ("an AWS secret key", re.compile(r"aws_?secret_?access_?key\s*[=:]\s*[\"']?[A-Za-z0-9/+=]{40}\b", re.I)),
    ("a private key", re.compile(r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----"
                                 r"\s*[A-Za-z0-9+/=:\-\s]{40}")),
    ("an Anthropic API key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,}")),
    ("an OpenAI API key", re.compile(r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_\-]{32,}")),
    ("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})")),
    ("a Slack token", re.compile(r"\bxox[baprs]-[0-9A-Za-z\-]{20,}")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    ("a Stripe live key", re.compile(r"\b[sr]k_live_[0-9A-Za-z]{20,}")),
    ("a GitLab token", re.compile(r"\bglpat-[0-9A-Za-z_\-]{20,}")),
    ("an npm token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
)
_LITERAL = re.compile(
    r"(?P<name>[A-Za-z0-9_.\-]*(?:password|passwd|pwd|secret|api_?key|apikey|access_?token|auth_?token|"
    r"private_?key|client_?secret|token))[\"']?\s*(?::=|=>|=|:)\s*(?P<q>[\"'])(?P<value>[^\"'\s]{8,})(?P=q)",
    re.I)
_PLACEHOLDER_WORDS = ("example", "changeme", "change_me", "placeholder", "your", "xxx", "***", "dummy", "sample",
                      "redacted", "fake", "test", "todo", "replace", "<", "{{", "${", "%s", "env(", "environ",
                      "getenv", "process.env", "secret_here", "password123", "...", "insert")


def _placeholder(value: str) -> bool:
    low = value.lower()
    if any(w in low for w in _PLACEHOLDER_WORDS):
        return True
    return len(set(low)) <= 3  # aaaaaaaa, 12121212


def find_secret(content: str) -> str | None:
    """What kind of real-looking credential ``content`` holds, or None."""
    if not content or len(content) < 16:
        return None
    for what, pattern in _KEY_PATTERNS:
        for m in pattern.finditer(content):
            if not _placeholder(m.group(0)):
                return what
    for m in _LITERAL.finditer(content):
        if not _placeholder(m.group("value")):
            return f"a hard-coded {m.group('name').lower()}"
    return None


_LOCAL_SUFFIXES = (".example", ".sample", ".template", ".dist", ".local", ".tmpl")


def is_local_config(path: str) -> bool:
    """Files meant to stay out of version control, or to hold placeholders: ``.env*``, ``.envrc``,
    ``*.local``, ``*.example`` …"""
    name = posixpath.basename(path)
    if name.startswith(".env") or name in (".envrc", ".dev.vars", ".netrc", ".pgpass", ".npmrc", ".pypirc"):
        return True
    return name.endswith(_LOCAL_SUFFIXES) or ".local." in name or ".example." in name


def tracked_file(path: str, env: AnalysisEnv) -> bool:
    """A file inside the project that is likely committed (not local config, not under .git)."""
    return is_within(path, env.project_root) and not is_local_config(path) and "/.git/" not in path + "/"
