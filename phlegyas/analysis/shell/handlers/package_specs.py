"""What a package manager's operand names: a package of the default index, a local path, or another source.

Tier 2 lets an install run only when what gets installed comes from the project itself (its manifests,
lock files, its own directories) or is a bare name, with an optional version, resolved by the default
index or registry. Everything else — a URL, a VCS checkout, a tarball or wheel, a path outside the
project, an npm alias to another package — puts someone else's code in the project without the
registry's name being the whole story, so a person should see it.

``pip_spec`` reads a Python requirement (PEP 508 names with extras and version clauses, as ``pip``,
``uv``, ``pipx``, ``poetry`` and ``pdm`` take them); ``npm_spec`` reads a JavaScript one
(``name@range``, ``@scope/name@tag`` versus aliases, URLs, git, GitHub shorthands, paths, tarballs).
Both answer a ``Verdict``: ``"name"`` (default index), ``"path"`` (a local path, judged by the caller
against the project, as a file loaded) or ``"other"`` with the reason in words.
"""
from __future__ import annotations

import re
from typing import Final, NamedTuple

from phlegyas.analysis.programs.popular_packages import known_bad, lookalike

ARCHIVE_SUFFIXES: Final = (".whl", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".tar", ".zip", ".egg",
                           ".gem", ".crate", ".nupkg", ".jar", ".phar")
_VCS_PREFIXES: Final = ("git+", "hg+", "svn+", "bzr+", "git://", "git@", "ssh://", "file:")


class Verdict(NamedTuple):
    """``kind`` is ``"name"``, ``"path"`` (``path`` holds it) or ``"other"`` (``why`` says what it is)."""

    kind: str
    path: str = ""
    why: str = ""


NAME: Final = Verdict("name")

# -- Python ----------------------------------------------------------------------------------------

_PY_NAME: Final = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
_PY_EXTRAS: Final = r"(?:\[\s*(?:[A-Za-z0-9][A-Za-z0-9._-]*\s*(?:,\s*[A-Za-z0-9][A-Za-z0-9._-]*\s*)*)?\])?"
_PY_CLAUSE: Final = r"(?:===|==|!=|~=|<=|>=|<|>)\s*[A-Za-z0-9.*+!_-]+"
_PY_REQ: Final = re.compile(rf"{_PY_NAME}\s*{_PY_EXTRAS}\s*(?:\(?\s*{_PY_CLAUSE}(?:\s*,\s*{_PY_CLAUSE})*\s*\)?)?")
_EXTRAS_AT_END: Final = re.compile(r"\[[A-Za-z0-9._,\s-]*\]$")
_POETRY_VERSION: Final = re.compile(r"[\^~]?[<>=!~^]*\s*[0-9A-Za-z.*+_-]+(?:\s*,\s*[<>=!~^]*\s*[0-9A-Za-z.*+_-]+)*")


def _looks_like_path(text: str) -> bool:
    return text.startswith(("/", "./", "../", "~")) or text in (".", "..") or "/" in text or "\\" in text


def _archive(text: str) -> bool:
    return text.lower().endswith(ARCHIVE_SUFFIXES)


def _local(text: str) -> Verdict:
    if _archive(text):
        return Verdict("other", why=f"installs the archive {text}, whose contents no index vouches for")
    return Verdict("path", path=text)


def pip_spec(text: str, *, at_versions: bool = False) -> Verdict:
    """A Python requirement as pip reads it. ``at_versions``: ``name@1.2`` is a version (poetry, uvx)."""
    if "://" in text or text.startswith(_VCS_PREFIXES):
        return Verdict("other", why=f"installs {text} from a URL or a version-control checkout, not the index")
    name, at, rest = text.partition("@")
    if at and name.strip() and not name.startswith(("/", ".", "~")):
        if at_versions and _POETRY_VERSION.fullmatch(rest.strip()):
            return NAME if _PY_REQ.fullmatch(name.strip()) else _odd(text)
        return Verdict("other", why=f"installs {text} from a direct reference, not the index")
    base = _EXTRAS_AT_END.sub("", text)
    if _looks_like_path(base) or _archive(base):
        return _local(base)  # ``.[dev,test]``: the project with its extras
    if _PY_REQ.fullmatch(text.strip()):
        return _unless_lookalike(text, "pypi")
    return _odd(text)


def _unless_lookalike(text: str, registry: str) -> Verdict:
    """``NAME``, unless the name is one typo or homoglyph away from a popular package (``popular_packages``)."""
    scoped = text.startswith("@")
    raw = (("@" if scoped else "") + _NAME_END.split(text[1:] if scoped else text, 1)[0]).strip()
    version = re.split(r"@|==|===", text[len(raw):], 1)[-1].strip() if text[len(raw):] else ""
    if known_bad(raw, version, registry):
        return Verdict("other", why=f"installs {text}, a release that shipped malware (the registry pulled it)")
    imitated = lookalike(raw, registry)
    if imitated is None:
        return NAME
    return Verdict("other", why=f"installs {raw}, a name one typo away from the popular {imitated} (a typosquat?)")


def _odd(text: str) -> Verdict:
    return Verdict("other", why=f"{text!r} is not a plain package name with a version")


# -- JavaScript ------------------------------------------------------------------------------------

_JS_NAME: Final = re.compile(r"(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9_][a-z0-9._~-]*", re.IGNORECASE)
_JS_RANGE: Final = re.compile(r"[0-9A-Za-z.*+^~<>=|\s_-]*")
_JS_LOCAL_PROTOCOLS: Final = ("file:", "link:", "portal:")
_JS_PROJECT_PROTOCOLS: Final = ("workspace:",)


def npm_spec(text: str) -> Verdict:
    """A JavaScript package argument as npm, yarn, pnpm and bun read it."""
    if "://" in text or text.startswith(("git+", "git@", "github:", "gitlab:", "bitbucket:", "gist:")):
        return Verdict("other", why=f"installs {text} from a URL or a git repository, not the registry")
    if text.startswith(_JS_LOCAL_PROTOCOLS):
        return _local(text.split(":", 1)[1])
    if text.startswith((".", "/", "~")) or _archive(text):
        return _local(text)
    scoped = text.startswith("@")
    name, at, version = text[1:].partition("@") if scoped else text.partition("@")
    if scoped:
        name = "@" + name
    if not _JS_NAME.fullmatch(name):
        if "/" in name and not scoped:
            return Verdict("other", why=f"installs {text}, a GitHub repository, not a registry package")
        return Verdict("other", why=f"{text!r} is not a plain package name with a version")
    if not at:
        return _unless_lookalike(text, "npm")
    if version.startswith("npm:"):
        return Verdict("other", why=f"installs {text}: an alias that installs another package under this name")
    if version.startswith(_JS_PROJECT_PROTOCOLS):
        return NAME
    if version.startswith(_JS_LOCAL_PROTOCOLS):
        return _local(version.split(":", 1)[1])
    if _JS_RANGE.fullmatch(version):
        return _unless_lookalike(text, "npm")
    return Verdict("other", why=f"installs {text} from a source other than the registry")


_NAME_END: Final = re.compile(r"[@=<>!~\[;\s]")


def package_name(text: str) -> str:
    """The package a spec names, without its version or extras (``@scope/x@1`` → ``@scope/x``,
    ``ruff==0.5`` → ``ruff``), lower-cased and with ``_``/``.`` as ``-``, as both indexes compare names."""
    scoped = text.startswith("@")
    body = text[1:] if scoped else text
    name = _NAME_END.split(body, 1)[0]
    return (("@" if scoped else "") + name).lower().replace("_", "-").replace(".", "-")
