"""Parsers of the settings that name outside services (Slack, the shared database), and ``Bad``, the
complaint every settings parser raises: what was expected (``settings`` turns it into a ConfigError
naming the variable and where it was set)."""
from __future__ import annotations


class Bad(ValueError):
    """A parser's complaint: what was expected."""


def items(raw: object, separator: str, what: str) -> list[object]:
    """A policy list (``[...]``) or an environment variable's ``separator``-separated text, as items."""
    if isinstance(raw, str):
        return [item.strip() for item in raw.split(separator) if item.strip()]
    if isinstance(raw, (list, tuple)):
        return list(raw)
    raise Bad(f"a list of {what}")


_TOKEN_BODY = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
_SLACK_ID_BODY = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_CHANNEL_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_.")


def token(raw: object, prefix: str, what: str) -> str:
    """A Slack token of the kind ``prefix`` names (``xoxb-``, ``xapp-``): letters, digits and dashes."""
    text = raw.strip() if isinstance(raw, str) else ""
    if not text.startswith(prefix) or len(text) < len(prefix) + 10 or not _TOKEN_BODY.issuperset(text):
        raise Bad(f"a Slack {what} starting with {prefix}")
    return text


def channel(raw: object) -> str:
    """A channel name (``approvals``, ``#approvals``) or ID (``C0123ABCD``, ``G…`` private)."""
    text = raw.strip() if isinstance(raw, str) else ""
    name = text[1:] if text.startswith("#") else text
    if text[:1] in ("C", "G") and len(text) >= 9 and _SLACK_ID_BODY.issuperset(text):
        return text
    if name and len(name) <= 80 and _CHANNEL_NAME_CHARS.issuperset(name):
        return name
    raise Bad("a Slack channel name (approvals, #approvals) or ID (C0123ABCD)")


def slack_users(raw: object) -> tuple[str, ...]:
    out = []
    for item in items(raw, ",", "Slack user IDs"):
        text = item.strip() if isinstance(item, str) else ""
        if text[:1] not in ("U", "W") or len(text) < 3 or not _SLACK_ID_BODY.issuperset(text):
            raise Bad("a list of Slack user IDs (e.g. U012AB3CD,U045EF6GH)")
        out.append(text)
    return tuple(out)


def database_url(raw: object) -> str:
    """A libpq connection string: a ``postgresql://`` (or ``postgres://``) URL, or ``key=value`` words."""
    text = str(raw).strip()
    if text.startswith(("postgresql://", "postgres://")):
        return text
    if "=" in text and not text.startswith(("http:", "https:", "sqlite:", "mysql:")):
        return text
    raise Bad("a PostgreSQL URL such as postgresql://phlegyas@db.example/phlegyas?sslmode=verify-full "
               "(or libpq's host=… dbname=… form)")


def machine(raw: object) -> str:
    text = str(raw).strip()
    if not text or len(text) > 255 or not text.isprintable():
        raise Bad("a printable machine name of at most 255 characters")
    return text
