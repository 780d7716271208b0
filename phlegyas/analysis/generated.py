"""Generated and cache directories of a project: what ``rm -rf build`` or ``find . -name __pycache__ -delete``
may remove without a person, because a build, a test run or an install makes them again.

Both Tier 1 (``tier1.delete``: no ``delete.in_project`` ask) and Tier 2 (``report``: the deletion is
safe) read this one list, so the two never disagree. A deletion qualifies only when every target is
such a name, written literally (no variable, no ``..``, no glob but ``*.egg-info`` and the entries of
a generated directory such as ``dist/*``), strictly inside the project and not under ``.git``.

``find`` qualifies only with an expression that selects by name among the unambiguous cache names
(``__pycache__``, ``*.pyc``, ``.pytest_cache`` …): ``find . -name build -exec rm -rf {} +`` would also
take a source package that happens to be called ``build``, so the broad names (``build``, ``dist``,
``out``, ``target`` …) are for a named ``rm`` only.
"""
from __future__ import annotations

from typing import Final

from phlegyas.analysis.globs import matches as glob_matches
from phlegyas.analysis.paths import is_within, normalize

CACHE_NAMES: Final = frozenset({
    "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", ".pytype", ".pyre", ".tox",
    ".nox", ".eggs", ".ipynb_checkpoints", ".parcel-cache", ".turbo", ".eslintcache", ".stylelintcache",
    ".sass-cache", ".benchmarks", ".dmypy.json", ".DS_Store", "node_modules", ".next", ".nuxt", ".svelte-kit",
    ".angular", ".docusaurus", ".vite", ".expo", ".dart_tool", ".stack-work", ".coverage", "htmlcov",
    "coverage.xml", ".nyc_output", "junit.xml", "lcov.info", "coverage.json", "coverage-final.json",
    "playwright-report", "test-results", ".pytest-results",
})
"""Names only tools create: safe to delete wherever they are found in the project."""
CACHE_PATTERNS: Final = ("*.pyc", "*.pyo", "*.py[co]", "*.egg-info", ".coverage.*", "*.tsbuildinfo")
"""Name patterns only tools create (``find -name`` and ``rm`` alike)."""
BUILD_NAMES: Final = frozenset({"build", "dist", "coverage", "target", "out", "_build", "dist-newstyle",
                                "cmake-build-debug", "cmake-build-release", "storybook-static", ".cache"})
"""Output directories of builds: deleted by name with ``rm`` (``rm -rf build``), never found by ``find``."""
GENERATED_EXAMPLES: Final = (
    ("rm -rf build dist *.egg-info", True), ("rm -rf node_modules/", True), ("rm -rf web/.next", True),
    ("rm -rf dist/*", True), ("rm -rf src", False), ("rm -rf build/../src", False), ("rm -rf $X/build", False),
    ("rm -rf ~/proj/../other/build", False), ("rm -rf *", False), ("rm -rf .git/build", False),
)
"""(command, every target generated?) pairs that ``tests/test_everyday.py`` runs."""


def is_generated_name(name: str, *, by_find: bool = False) -> bool:
    """Is ``name`` (one path component) a generated or cache name? ``by_find``: the cache names only."""
    if name in CACHE_NAMES or any(glob_matches(name, p) for p in CACHE_PATTERNS):
        return True
    return not by_find and name in BUILD_NAMES


def _has_glob(text: str) -> bool:
    return any(c in text for c in "*?[")


def generated_target(text: str, dynamic: bool, cwd: str, home: str, root: str) -> bool:
    """Does the literal path word ``text`` name a generated directory or file strictly inside ``root``?

    Not a computed word, not one with ``..`` (``build/../src``), not under ``.git``, and a glob only as
    ``*.egg-info``-like names or as the entries of a generated directory (``dist/*``)."""
    if dynamic or not text or root == "/" or "\\" in text:
        return False
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if not parts or ".." in parts or ".git" in parts:
        return False
    last = parts[-1]
    if _has_glob(last):
        parent = parts[:-1]
        if any(_has_glob(p) for p in parent):
            return False
        if not (last in CACHE_PATTERNS or (parent and is_generated_name(parent[-1]) and last in ("*", ".*"))):
            return False
    elif any(_has_glob(p) for p in parts[:-1]) or not (is_generated_name(last) or any(
            is_generated_name(p) for p in parts[:-1])):  # `target/debug`: inside a generated tree is generated too
        return False
    path = normalize(text, cwd, home)
    return path != root and is_within(path, root)


_FIND_SELECTORS: Final = frozenset({"-name", "-iname"})
_FIND_HARMLESS_VALUES: Final = frozenset({"-type", "-maxdepth", "-mindepth"})
_FIND_HARMLESS_FLAGS: Final = frozenset({"-prune", "-print", "-print0", "-depth", "-xdev", "-mount", "-a", "-and",
                                         "-delete"})
_FIND_DELETERS = (("rm", "-rf", "{}", "+"), ("rm", "-rf", "{}", ";"), ("rm", "-r", "{}", "+"),
                  ("rm", "-r", "{}", ";"), ("rm", "-fr", "{}", "+"), ("rm", "-fr", "{}", ";"), ("rm", "{}", "+"),
                  ("rm", "{}", ";"), ("rm", "-f", "{}", "+"), ("rm", "-f", "{}", ";"), ("rm", "-rf", "--", "{}", "+"))


def _split_find(words: list[tuple[str, bool]]) -> tuple[list[str], list[str]] | None:
    """(start points, expression) of ``find ARGS``; None when a word is computed."""
    if any(d for _, d in words):
        return None
    texts = [t for t, _ in words]
    i = 0
    while i < len(texts) and not texts[i].startswith("-") and texts[i] not in ("!", "(", ")", ","):
        i += 1
    return texts[:i], texts[i:]


def cache_expression(words: list[tuple[str, bool]], listing: bool = False) -> bool:
    """Does the expression of ``find ARGS`` delete only what it selects by a cache name (wherever it starts)?

    A plain conjunction of ``-name``/``-iname`` cache names, ``-type``, ``-maxdepth``, ``-prune`` …, ending
    in ``-delete`` or one ``-exec rm -rf {} +`` (or ``;``). No ``-o``, ``!``, parentheses or other primary.
    ``listing``: the find only prints what it selects (``find . -name __pycache__ -print0 | xargs -0 rm -rf``)."""
    split = _split_find(words)
    if split is None:
        return False
    texts = split[1]
    selected = deleting = False
    i = 0
    while i < len(texts):
        t = texts[i]
        if t in _FIND_SELECTORS:
            if i + 1 >= len(texts) or not is_generated_name(texts[i + 1], by_find=True):
                return False
            selected = True
            i += 2
        elif t in _FIND_HARMLESS_VALUES:
            i += 2
        elif t in _FIND_HARMLESS_FLAGS:
            deleting = deleting or t == "-delete"
            i += 1
        elif listing and t in ("-print", "-print0"):
            i += 1
        elif t in ("-exec", "-execdir") and not listing:
            if tuple(texts[i + 1:]) not in _FIND_DELETERS:
                return False
            deleting = True
            i = len(texts)
        else:
            return False
    return selected and (not deleting if listing else deleting)


def generated_find(words: list[tuple[str, bool]], cwd: str, home: str, root: str, listing: bool = False) -> bool:
    """Is ``find ARGS`` (``words`` = (text, dynamic) after ``find``) a deletion (or ``listing``: a list) of
    cache names only, from literal start points strictly inside the project (``cache_expression``)?"""
    split = _split_find(words)
    if split is None or root == "/" or not cache_expression(words, listing):
        return False
    for s in split[0] or ["."]:
        if ".." in s.split("/") or _has_glob(s) or not is_within(normalize(s, cwd, home), root):
            return False
    return True
