"""Secrets in the flow of a command: credentials written into files that get committed, and secret
files read through a pipe.

Written: real-looking keys and password literals in the content of a Write/Edit, or of ``echo … >>
config.py`` and ``cat > settings.py <<EOF``. Content is data, not shell, so regular expressions are the
right tool here. Placeholders (``AKIAIOSFODNN7EXAMPLE``, ``your-api-key``, ``${TOKEN}``, ``os.environ[…]``)
do not count, and local configuration files that stay out of git (``.env``, ``.env.local``,
``*.example``) are exempt.

Read through a pipe: ``find ~/.ssh -type f | xargs cat`` reads what ``find`` lists, so the places the
listing program names are judged as if the reader had named them (``detect_piped_reads``).
"""
from __future__ import annotations

import posixpath
import re

from phlegyas.analysis.paths import exposure_reason, holds_secrets, is_within, matches_pattern, normalize
from phlegyas.analysis.shell.handlers.find import find_start_dirs
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import env_for, subject, upstream_closure
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding, Verdict

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
_LITERAL = re.compile(  # the name starts where a name starts: tried from every letter of a long word, it was quadratic
    r"(?<![A-Za-z0-9_.\-])(?P<name>[A-Za-z0-9_.\-]*(?:password|passwd|pwd|secret|api_?key|apikey|access_?token|auth_?token|"
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


# -- secret files read through a pipe ------------------------------------------------------------------

_LISTERS = frozenset({"find", "fd", "fdfind", "ls", "tree", "echo", "printf", "locate", "plocate", "du"})
"""Programs whose output is file names that ``xargs`` or ``parallel`` hands to the next program."""
_NAMES_ONLY = frozenset({"echo", "printf", "basename", "dirname", "ls", "stat", "du", "realpath", "readlink", "test",
                         "[", "true"})
"""Programs that, given file names, show or test the names, not the files' contents."""


def _listed_places(up: Invocation) -> list[str]:
    if up.program == "find":
        return [w.text for w in find_start_dirs(up.args)[0] if not w.dynamic]
    return [w.text for w in up.args if not w.dynamic and not w.text.startswith("-")]


def detect_piped_reads(inv: Invocation, env: AnalysisEnv, out: list[Finding]) -> None:
    """A program run by ``xargs``/``parallel`` reads the names its stdin brings: when the program that
    lists them names a secret place, or a directory holding secrets (``find ~ -name id_rsa``), reading
    what it lists is reading secrets (``sensitive.read``, ask)."""
    if not inv.via or not any(v.startswith(("xargs", "parallel")) for v in inv.via) or not inv.upstream:
        return
    if inv.program in _NAMES_ONLY:
        return
    env = env_for(inv, env)
    for up in upstream_closure(inv):
        if up.program not in _LISTERS:
            continue
        for text in _listed_places(up):
            path = normalize(text, env.cwd, env.home)
            why = exposure_reason(path, env.home) or holds_secrets(path, env.home) or next(
                (f"a secret place in your policy ({p})" for p in env.sensitive_paths
                 if matches_pattern(path, p, env.home)), None)
            if why is not None:
                out.append(Finding("sensitive.read", Verdict.ASK, subject(inv),
                                   f"{inv.program} reads what {up.program} lists under {path}: {why}"))
                return
