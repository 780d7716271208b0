"""The GitHub CLI: read-only verbs of its nouns, ``gh api`` methods and uploads, and tokens it shows."""
from __future__ import annotations

from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.effect_types import literal
from phlegyas.analysis.shell.handlers.base import Call, operand_texts, read_only

_GH_READ: Final = frozenset({"list", "ls", "view", "status", "diff", "checks", "show", "watch", "search", "get"})


def gh(c: Call) -> None:
    return None


def gh_noun(c: Call) -> None:
    ops = operand_texts(c)
    verb = ops[0] if ops else ""
    if verb in _GH_READ:
        read_only(c)
        c.eff.category = P.WEB_READ
        if c.parsed.has(("-w", "--web")):
            c.eff.runs.append("opens a browser")
    elif c.path[-1:] == ["gist"] and verb in ("create", "new"):
        c.eff.uploads.extend(c.parsed.operands[1:])


def gh_api(c: Call) -> None:
    method = None
    fields = False
    for opt, value in c.parsed.opts:
        if opt in ("-X", "--method") and value is not None:
            method = value.text.upper()
        elif opt in ("-f", "--raw-field", "-F", "--field"):
            fields = True
            if value is not None and "=@" in value.text:
                c.eff.uploads.append(literal(value.text.split("=@", 1)[1]))
        elif opt == "--input" and value is not None:
            c.eff.uploads.append(value)
    method = method or ("POST" if fields else "GET")
    if method not in ("GET", "HEAD"):
        c.eff.mutates.append(f"sends a GitHub API {method} request")
    if any(o.dynamic for o in c.parsed.operands):
        c.eff.blockers.append("computed GitHub API path")


def gh_auth(c: Call) -> None:
    ops = operand_texts(c)
    if ops[:1] == ["status"]:
        read_only(c)
        c.eff.category = P.WEB_READ
        if c.parsed.has(("-t", "--show-token")):
            c.eff.secrets.append("a GitHub token")
    elif ops[:1] == ["token"]:
        read_only(c)
        c.eff.secrets.append("a GitHub token")
