"""What a read-only command prints when the kind of its output is known though its value is not: a commit
id (``$(git merge-base main HEAD)``), the current branch (``$(git branch --show-current)``), a tag, a
date (``$(date +%F)``), a count (``$(nproc)``), the top of the work tree. None of these can start with
``-``, hold a blank or a glob, or name a secret, so a word built from one is a plain value: bash may not
know it yet, but no option and no other file can hide in it.

``typed_output("$(…)")`` gives a stand-in of that kind (``HEAD`` for the current branch, a fixed commit id,
``0`` for a number), which the expansion puts in the word's place; anything else is None (unknown).
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.shell.parse import SimpleCommand, parse

COMMIT: Final = "0000000000000000000000000000000000000000"
_TYPED_PROGRAMS: Final = ("git ", "date", "nproc", "getconf ", "uname", "id ")
_DATE_FORMAT: Final = re.compile(r"\+(?:%[a-zA-Z]|[-:_./T0-9])+")
_COMMIT_FORMATS: Final = frozenset({"%H", "%h", "%T", "%t", "%P", "%p"})
_PLAIN_REV: Final = re.compile(r"[A-Za-z0-9_./@{}^~-]+")  # (a literal revision: `HEAD~3`, `origin/main`, `@{u}`)


def typed_output(text: str) -> str | None:
    """A stand-in for what ``$(CMD)`` prints when CMD is one of the module docstring's commands; else None."""
    if not (text.startswith("$(") and text.endswith(")")) or text.startswith("$((") or not text[2:].lstrip().startswith(
            _TYPED_PROGRAMS):
        return None  # (most substitutions run something else: not parsed again)
    script = parse(text[2:-1])
    if script.problems or not script.commands or len(script.commands) > 3:
        return None
    got: list[str] = []
    for cmd in script.commands:  # `$(git describe --tags 2>/dev/null || git rev-list --max-parents=0 HEAD)`
        if cmd.upstream or cmd.assignments or not cmd.words or any(w.dynamic for w in cmd.words) or any(
                not (r.op == ">" and r.fd == "2" and r.target is not None and r.target.text == "/dev/null")
                for r in cmd.redirects):
            return None
        words = [w.text for w in cmd.words]
        one = _git(words[1:]) if words[0] == "git" else _other(words)
        if one is None:
            return None
        got.append(one)
    return got[0]


def typed_lines(cmd: SimpleCommand) -> str | None:
    """A stand-in for each line ``cmd`` prints when every line is of one plain kind: ``git log --format=%H``,
    ``git rev-list REV`` (commit ids); None otherwise."""
    words = [w.text for w in cmd.words]
    if cmd.assignments or cmd.redirects or any(w.dynamic for w in cmd.words) or words[:1] != ["git"] or len(words) < 2:
        return None
    flags = [a for a in words[2:] if a.startswith("-")]
    revs = [a for a in words[2:] if not a.startswith("-")]
    if not all(_PLAIN_REV.fullmatch(r) for r in revs):
        return None
    if words[1] == "rev-list" and revs and all(f.startswith(("-n", "--max-count=", "--no-merges", "--first-parent",
                                                             "--reverse", "--since=", "--until=")) for f in flags):
        return COMMIT
    formats = [f.split("=", 1)[1] for f in flags if f.startswith(("--format=", "--pretty=format:", "--pretty="))]
    if words[1] == "log" and formats and all(f.removeprefix("format:") in _COMMIT_FORMATS for f in formats):
        return COMMIT
    return None


def _git(args: list[str]) -> str | None:
    if not args:
        return None
    sub, rest = args[0], args[1:]
    flags = [a for a in rest if a.startswith("-")]
    revs = [a for a in rest if not a.startswith("-")]
    if not all(_PLAIN_REV.fullmatch(r) for r in revs):
        return None
    if sub == "branch" and rest == ["--show-current"]:
        return "HEAD"
    if sub == "symbolic-ref" and flags in (["--short"], ["-q", "--short"], ["--short", "-q"]) and revs == ["HEAD"]:
        return "HEAD"
    if sub == "rev-parse":
        if rest in (["--show-toplevel"], ["--show-cdup"]):
            return "."
        if rest in (["--git-dir"], ["--absolute-git-dir"]):
            return ".git"
        if "--abbrev-ref" in flags and set(flags) <= {"--abbrev-ref", "--symbolic-full-name"} and len(revs) == 1:
            return "origin/HEAD" if "@{" in revs[0] else "HEAD"
        if len(revs) == 1 and all(f in ("--verify", "-q", "--quiet", "--short") or f.startswith("--short=")
                                  for f in flags):
            return COMMIT
        return None
    if sub == "merge-base" and not flags and len(revs) == 2:
        return COMMIT
    if sub == "rev-list":
        if "--count" in flags and len(revs) >= 1:
            return "0"
        one = any(f in ("-1", "--max-parents=0") or f.startswith(("--max-count=1", "-n1")) for f in flags)
        return COMMIT if one and len(revs) == 1 else None
    if sub == "log" and any(f in ("-1", "-n1") or f == "--max-count=1" for f in flags) and any(
            f.split("=", 1)[-1] in _COMMIT_FORMATS for f in flags if f.startswith(("--format=", "--pretty=format:",
                                                                                    "--pretty="))):
        return COMMIT
    if sub == "describe" and set(flags) <= {"--tags", "--abbrev=0", "--always", "--exact-match"} and len(revs) <= 1:
        return "v0.0.0"
    return None


def _other(words: list[str]) -> str | None:
    program, args = words[0], words[1:]
    if program == "date":
        formats = [a for a in args if a.startswith("+")]
        others = [a for i, a in enumerate(args) if not a.startswith("+") and not (
            a in ("-u", "--utc") or a in ("-d", "--date") or i and args[i - 1] in ("-d", "--date")
            or a.startswith("--date="))]
        if len(formats) == 1 and not others and _DATE_FORMAT.fullmatch(formats[0]):
            return "0" + re.sub(r"%[a-zA-Z]", "0", formats[0][1:])
        return None
    if program == "nproc" and not args or program == "getconf" and args == ["_NPROCESSORS_ONLN"]:
        return "2"
    if program == "uname" and args in ([], ["-s"], ["-m"], ["-r"]):
        return {"-m": "x86_64", "-r": "0.0.0"}.get(args[0] if args else "", "Linux")
    if program == "id" and args in (["-u"], ["-g"]):
        return "1000"
    return None


__all__ = ["COMMIT", "typed_lines", "typed_output"]
