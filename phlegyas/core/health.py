"""The vocabulary of ``phlegyas doctor``: one ``Check`` per thing looked at, and what its level means.

Each layer knows how to look at its own part (``policy.health``, ``store.health``, ``trust.health``,
``ai.health``, ``hosts.claude_code.doctor``); the CLI puts the checks together and renders them. A check
never raises: ``guarded`` turns an exception into a problem line, so one broken check cannot hide the
others. No I/O here.

Levels:

- ``problem``: something does not work as installed or configured (a broken policy file, a store that
  fails its integrity check, a hook that points at a missing interpreter). ``doctor`` exits 1.
- ``warning``: it works, but not as well as it could, or not as it was probably meant (Tier 3 off, the
  pure-Python analysis where a compiled one was built for, the resident server not running). Listed
  with the problems, with a fix; the exit status stays 0 unless ``--strict``.
- ``ok``: healthy, or a plain fact (what is installed, which files apply).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable, Mapping

from phlegyas.core.redact import redact, secret_kind

OK, WARNING, PROBLEM = "ok", "warning", "problem"
MIN_SECRET_CHARS = 6
LEVELS = (PROBLEM, WARNING, OK)
"""In the order they are listed: problems first, then warnings, then the healthy checks."""


@dataclass(frozen=True)
class Check:
    """What one check found: ``detail`` says what is there, ``fix`` what to do (problems and warnings)."""

    name: str
    level: str = OK
    detail: str = ""
    fix: str | None = None

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {self.level!r}")

    @property
    def ok(self) -> bool:
        return self.level == OK

    def to_json(self) -> dict:
        return {"name": self.name, "ok": self.ok, "level": self.level, "detail": self.detail, "fix": self.fix}


def ok(name: str, detail: str) -> Check:
    return Check(name, OK, detail)


def warning(name: str, detail: str, fix: str) -> Check:
    return Check(name, WARNING, detail, fix)


def problem(name: str, detail: str, fix: str) -> Check:
    return Check(name, PROBLEM, detail, fix)


def shown(path: str, home: str) -> str:
    """``path`` with the home directory written ``~`` (what a person recognises)."""
    home = home.rstrip("/")
    return "~" + path[len(home):] if home and (path == home or path.startswith(home + "/")) else path


def guarded(name: str, check: Callable[[], Iterable[Check]]) -> list[Check]:
    """The checks ``check()`` returns, or one problem saying it failed: a check never stops the others."""
    try:
        return list(check())
    except Exception as exc:  # noqa: BLE001 - the doctor reports, it never crashes
        return [problem(name, f"the check itself failed: {type(exc).__name__}: {exc}",
                        "report this as a phlegyas bug, with this line")]


def in_order(checks: Iterable[Check]) -> list[Check]:
    """Problems first, then warnings, then the healthy checks; each group in the order it was found."""
    checks = list(checks)
    return [c for level in LEVELS for c in checks if c.level == level]


def exit_status(checks: Iterable[Check], *, strict: bool = False) -> int:
    """1 when a check found a problem (or, with ``strict``, a warning), else 0."""
    failing = (PROBLEM, WARNING) if strict else (PROBLEM,)
    return 1 if any(c.level in failing for c in checks) else 0


def secrets_in(environ: Mapping[str, str]) -> list[str]:
    """The values of the environment variables whose names hold secrets (``ANTHROPIC_API_KEY``,
    ``GITHUB_TOKEN`` …), longest first, so that none of them is ever printed."""
    found = {v for k, v in environ.items() if secret_kind(k) and len(v.strip()) >= MIN_SECRET_CHARS}
    return sorted(found, key=len, reverse=True)


def scrubbed(check: Check, secrets: Iterable[str]) -> Check:
    """``check`` with every one of ``secrets``, and anything else that looks like one, masked."""
    def clean(text: str | None) -> str | None:
        if not text:
            return text
        for secret in secrets:
            text = text.replace(secret, "****")
        return redact(text)

    return replace(check, detail=clean(check.detail) or "", fix=clean(check.fix))
