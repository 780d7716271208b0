"""Substitutions whose output is only file names, or only a number, that the analysis can picture.

``wc -l $(git ls-files '*.py')``, ``black $(git diff --name-only -- '*.py')``, ``cat $(find docs -name
'*.md')``: the words bash puts there are names of files a lister finds, as a glob's would be. So the word
is judged as the glob that stands for them (``*.py``, ``docs/*.md``): its reads are checked for secrets
as a glob's are, and a name that may start with ``-`` (git prints ``-rf.py`` as it is; find prints
``./-rf.py``) is a glob that may spell an option, as ``*.py`` is (``shell.options.may_be_option``).

``make -j$(nproc)``: ``nproc`` prints a positive number, judged as ``2``.
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.shell.parse import parse

NUMBER_PRINTERS: Final = frozenset({"nproc", "nproc --all", "getconf _NPROCESSORS_ONLN", "getconf NPROCESSORS_ONLN"})
_GLOB_CHARS: Final = frozenset("*?[")
_GIT_LIST_FLAGS: Final = frozenset({"-c", "--cached", "-m", "--modified", "-o", "--others", "--exclude-standard",
                                    "-d", "--deleted", "--full-name"})
_GIT_DIFF_FLAGS: Final = frozenset({"--name-only", "--cached", "--staged", "--relative", "--no-renames"})
_FIND_TESTS: Final = frozenset({"-name", "-iname", "-path", "-ipath", "-type", "-mtime", "-mmin", "-newer", "-size",
                                "-maxdepth", "-mindepth", "-not", "!", "-a", "-and", "-print", "-empty"})
_FIND_VALUED: Final = frozenset({"-name", "-iname", "-path", "-ipath", "-type", "-mtime", "-mmin", "-newer", "-size",
                                 "-maxdepth", "-mindepth"})


def number_output(piece: str) -> str | None:
    """``2`` for ``$(nproc)`` and the like, which print a count of processors; None for anything else."""
    body = _body(piece)
    return "2" if body is not None and " ".join(body.split()) in NUMBER_PRINTERS else None


def author_output(text: str) -> str | None:
    """``text`` with each ``$(git config user.email)`` or ``user.name`` written as a stand-in value, when
    nothing else in it is computed (``--author="$(git config user.email)"``); None otherwise. For readers'
    values only, never a path: the line itself may set it."""
    if "git config" not in text:
        return None
    out = _AUTHOR_SUB.sub(lambda m: _AUTHOR_PRINTERS.get(" ".join(m.group(1).split()), m.group(0)), text)
    return out if out != text and "$" not in out and "`" not in out else None


_AUTHOR_SUB: Final = re.compile(r"\$\(\s*(git config (?:--get )?user\.(?:email|name))\s*\)")
_AUTHOR_PRINTERS: Final = {"git config user.email": "author@example.invalid", "git config user.name": "Author",
                           "git config --get user.email": "author@example.invalid",
                           "git config --get user.name": "Author"}


def listed_globs(text: str) -> list[str] | None:
    """The globs standing for the names ``text`` — one whole ``$(…)`` of a file lister — expands to, or
    None when it is anything else (a lister with an action, a computed part). Listers print dot-files
    too, which a shell's ``*`` skips: a pattern that may match one is pictured with its ``.*`` twin, so
    ``cat $(git ls-files)`` reads ``.env`` as ``cat .*`` does."""
    glob = _listed_glob(text)
    if glob is None:
        return None
    head, _, name = glob.rpartition("/")
    if name[:1] not in _GLOB_CHARS or _extension(name):
        return [glob]
    twins = ["." + name]  # `.*` for `*`: the dot-files
    if name.startswith("*") and name.lstrip("*").startswith("."):
        twins.append(name.lstrip("*"))  # `.env` for `*.env`: find's `*` matches the empty start too
    return [glob, *(f"{head}/{t}" if head else t for t in twins)]


def _extension(name: str) -> bool:
    """``*.py``, ``*_test.go``: a pattern ending in a literal suffix with a dot, which names source files."""
    stem, dot, ext = name.rpartition(".")
    return bool(dot) and bool(ext) and _GLOB_CHARS.isdisjoint(ext) and ext.isalnum() and ext not in _SECRET_EXTS


_SECRET_EXTS: Final = frozenset({"env", "pem", "key", "p12", "pfx", "kdbx", "gpg", "asc", "jks", "keystore", "ppk"})


def _listed_glob(text: str) -> str | None:
    body = _body(text)
    if body is None or not body.startswith(("git ", "find ")):
        return None
    script = parse(body)
    if script.problems or len(script.commands) != 1:
        return None
    cmd = script.commands[0]
    if cmd.redirects or cmd.assignments or any(w.dynamic for w in cmd.words):
        return None
    words = [w.text for w in cmd.words]
    return _git(words[1:]) if words[0] == "git" else _find(words[1:])


def _body(piece: str) -> str | None:
    if piece.startswith("$(") and piece.endswith(")") and not piece.startswith("$(("):
        body = piece[2:-1]
    elif piece.startswith("`") and piece.endswith("`") and len(piece) > 1:
        body = piece[1:-1]
    else:
        return None
    return None if "$" in body or "`" in body or "(" in body or ")" in body else body.strip()


def _git(args: list[str]) -> str | None:
    """``ls-files`` or ``diff --name-only`` (revisions allowed, no other option): a glob of the pathspecs."""
    if not args:
        return None
    sub, rest = args[0], args[1:]
    specs: list[str] = []
    if sub == "ls-files":
        for a in rest:
            if a == "--":
                continue
            if a.startswith("-"):
                if a not in _GIT_LIST_FLAGS:
                    return None
            else:
                specs.append(a)
    elif sub == "diff":
        if "--name-only" not in rest:
            return None
        after = False
        for a in rest:
            if a == "--":
                after = True
            elif a.startswith("-"):
                if a not in _GIT_DIFF_FLAGS and not a.startswith("--diff-filter="):
                    return None
            elif after:
                specs.append(a)
            elif any(c in a for c in "*?[") or "." in a.rsplit("/", 1)[-1] and "/" in a:
                return None  # a pathspec without `--`, or a revision: not told apart here
    else:
        return None
    if len(specs) > 1 or any(s.startswith(":") for s in specs):
        return None  # magic pathspecs (`:!x`) and several: picture them as every file
    spec = specs[0] if specs else "*"
    if _GLOB_CHARS.isdisjoint(spec):
        return spec.rstrip("/") + "/*"  # a directory's files (or the file itself)
    return spec if "/" in spec else "*" + spec.lstrip("*")


def _find(args: list[str]) -> str | None:
    """``find START… TESTS`` with tests only (no action but ``-print``): START's files matching one
    ``-name``."""
    starts: list[str] = []
    i = 0
    while i < len(args) and not args[i].startswith(("-", "!", "(")):
        starts.append(args[i])
        i += 1
    if len(starts) > 1:
        return None
    name = "*"
    names = 0
    while i < len(args):
        a = args[i]
        if a not in _FIND_TESTS:
            return None
        if a in _FIND_VALUED:
            if i + 1 >= len(args):
                return None
            if a in ("-name", "-iname"):
                name, names = args[i + 1], names + 1
            i += 2
            continue
        i += 1
    if names > 1 or any(a in ("!", "-not") for a in args):
        name = "*"  # `! -name '*.gz'`: every other name
    start = (starts[0] if starts else ".").rstrip("/") or "/"
    if start.startswith("-"):
        return None
    return f"{start}/{name}" if "/" not in name else f"{start}/*"


__all__ = ["listed_globs", "number_output"]
