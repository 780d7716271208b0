"""Tier 2: what is safe to allow without asking, per subcommand and per tool.

The categories (``read-only``, ``git read``, ``test/build`` …) come from the program table
(``analysis.programs``); this module decides whether an invocation's effects keep it inside its category:
writes only to safe places (the project, the safe write directories, never a protected or secret
file), no deletion, no code of unknown origin, no upload, network only where the category expects it.

``SafePatternStore`` reads the user's ``safe-patterns.json`` (the seed's file; the seed's
``SafeOperationDetector`` is in ``phlegyas.analysis.seed``). A user ``safe_bash``
regex is matched per simple command (its resolved words joined by spaces), so ``^ls`` cannot approve
``ls; rm -rf ~``, and it never lifts a Tier 1 finding.
"""
from __future__ import annotations

import json
import os
import posixpath
import re
from functools import lru_cache
from typing import Any, Final

from phlegyas.analysis import paths
from phlegyas.analysis import programs as P
from phlegyas.analysis.globs import matches as glob_matches

DEFAULT_SAFE_WRITE_DIRS: Final = ("/tmp/", "docs/research/", "tests/", "scripts/")
"""The seed's safe places; relative ones are resolved against the project root."""

CATEGORY_ORDER: Final = (P.PKG_INSTALL, P.TEST_BUILD, P.PROJECT_EDIT, P.SAFE_WRITE, P.GIT_LOCAL, P.LINT_FORMAT,
                         P.WEB_READ, P.NET_READ, P.GIT_READ, P.READONLY_TOOL, P.READ_ONLY, P.NAVIGATION)
"""When several subcommands are safe, the call is reported under the first category of this order."""
USER_PATTERN: Final = "user pattern"

READ_TOOLS: Final = {"Read": "file_path", "NotebookRead": "notebook_path", "LS": "path", "Glob": "path", "Grep": "path"}
EDIT_TOOLS = {"Write": "file_path", "Edit": "file_path", "MultiEdit": "file_path", "NotebookEdit": "notebook_path"}
SAFE_TOOLS: Final = {
    "WebFetch": (P.WEB_READ, True), "WebSearch": (P.WEB_READ, True), "TodoWrite": (P.READONLY_TOOL, True),
    "TodoRead": (P.READONLY_TOOL, True), "Task": ("agent", True), "Agent": ("agent", True),
    "BashOutput": (P.READONLY_TOOL, True), "TaskOutput": (P.READONLY_TOOL, True),
    "KillShell": ("agent", False), "KillBash": ("agent", False), "ListMcpResourcesTool": (P.READONLY_TOOL, True),
    "ReadMcpResourceTool": (P.READONLY_TOOL, True), "AskUserQuestion": (P.READONLY_TOOL, True),
}
"""Tools that are safe by themselves: (category, read-only). ``ExitPlanMode`` is not here on purpose:
leaving plan mode is the user's decision (it is read-only, so plan mode lets it reach the user)."""
READONLY_UNSAFE_TOOLS: Final = frozenset({"ExitPlanMode"})
FIRECRAWL_READ = frozenset({"firecrawl_scrape", "firecrawl_search", "firecrawl_map", "firecrawl_crawl",
                            "firecrawl_extract", "firecrawl_check_crawl_status", "firecrawl_batch_scrape",
                            "firecrawl_check_batch_status", "firecrawl_deep_research", "firecrawl_generate_llmstxt"})
JETBRAINS_READ_PREFIXES: Final = ("get_", "find_", "list_", "search_")


# -- places -----------------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _safe_dirs(configured: tuple[str, ...], extra: tuple[str, ...], root: str) -> tuple[str, ...]:
    out = []
    for d in (configured or DEFAULT_SAFE_WRITE_DIRS) + extra:
        full = d if d.startswith("/") else posixpath.join(root, d)
        out.append(posixpath.normpath(full))
    return tuple(out)


def safe_dirs(env) -> tuple[str, ...]:
    """The safe write directories of ``env``, absolute and normalized (the seed's defaults when none)."""
    store = env.user_patterns
    extra = tuple(getattr(store, "safe_write_dirs", ()) or ())
    return _safe_dirs(tuple(env.safe_write_dirs), extra, env.project_root)


def write_place(path: str, env) -> str | None:
    """``safe write dir`` or ``project edit`` when writing normalized ``path`` needs no human, else None.

    A symlink on the way is judged too: the write lands where it leads, so that place must be as safe
    (``notes.txt`` → ``~/.bashrc`` is not a project edit)."""
    place = _place(path, env)
    if place is None or place == P.SAFE_WRITE and paths.is_harmless_device(path):
        return place
    target = paths.real(path, env.home, env.project_root, env.cwd, write=True)
    if target is not None and _place(target, env) is None:
        return None
    return place


def _place(path: str, env) -> str | None:
    if paths.protected_reason(path, env.home, env.project_root) is not None:
        return None
    if sensitive(path, env, tree=False) is not None:
        return None
    if paths.is_harmless_device(path):
        return P.SAFE_WRITE
    for d in safe_dirs(env):
        if paths.is_within(path, d) and path != d:
            return P.SAFE_WRITE
    if paths.is_within(path, env.project_root) and env.project_root != "/":
        return P.PROJECT_EDIT
    return None


def sensitive(path: str, env, glob: bool = False, tree: bool = True) -> str | None:
    """Why reading normalized ``path`` exposes secrets, or None: the built-in secret places
    (``paths.sensitive_reason``, globs included), with ``tree`` a directory whose recursive read takes
    some with it (``grep -r x ~``), the policy's ``sensitive_paths``, the user's ``sensitive_files``
    patterns, and where a symlink on the way leads. ``glob`` is kept for callers: globs are always
    matched now."""
    why = _builtin_sensitive(path, env.home, tree)
    if why is not None:
        return why
    extra = env.sensitive_paths
    if extra:
        why = _policy_sensitive(path, extra if isinstance(extra, tuple) else tuple(extra), env.home)
        if why is not None:
            return why
    store = env.user_patterns
    if store is not None:
        why = store.sensitive(path, env.home)
        if why is not None:
            return why
    target = paths.real(path, env.home, env.project_root, env.cwd)
    if target is not None:
        why = _builtin_sensitive(target, env.home, tree)
        if why is not None:
            return f"{why}, through a symlink to {target}"
    return None


@lru_cache(maxsize=8192)
def _policy_sensitive(path: str, patterns: tuple[str, ...], home: str) -> str | None:
    """The policy's ``sensitive_paths`` part of ``sensitive``: pure, so memoized."""
    for pattern in patterns:
        if paths.matches_pattern(path, pattern, home):
            return f"a secret place in your policy ({pattern})"
    return None


@lru_cache(maxsize=8192)
def _builtin_sensitive(path: str, home: str, tree: bool) -> str | None:
    """``sensitive`` without the policy's and the user's patterns: pure, so memoized."""
    why = paths.exposure_reason(path, home)
    if why is None and tree:
        why = paths.holds_secrets(path, home)
    return why


def best_category(categories: list[str]) -> str | None:
    """The category a whole call is reported under (see ``CATEGORY_ORDER``)."""
    if not categories:
        return None
    if len(categories) == 1:
        return categories[0]
    return min(categories, key=lambda c: _RANK.get(c, -1))


_RANK: Final = {c: i for i, c in enumerate(CATEGORY_ORDER)}


# -- the user's safe patterns (the seed's file) -------------------------------------------------------

class SafePatternError(ValueError):
    """The user's safe-patterns file is malformed; the message names the file and what is wrong."""


SAFE_PATTERNS_PATH: Final = "~/.claude/safe-patterns.json"
"""Where the seed keeps the user's safe patterns (a module constant: mypyc cannot default an argument
to a name of the class body)."""


class SafePatternStore:
    """The seed's ``~/.claude/safe-patterns.json``: ``{"version": 1, "safe_bash": [regex…], "safe_tools":
    [name…], "safe_write_dirs": [dir…], "sensitive_files": [glob…]}``. Missing file → empty store.
    ``SafePatternStore()`` reads the seed's default place (its hook builds it that way); ``None`` is an
    empty store that reads nothing."""

    DEFAULT_PATH = SAFE_PATTERNS_PATH

    def __init__(self, path: str | None = SAFE_PATTERNS_PATH):
        if path is not None and (path == "~" or path.startswith("~/")):
            path = os.path.expanduser(path)
        self.path = path
        self.safe_bash: list[re.Pattern[str]] = []
        self.safe_tools: frozenset[str] = frozenset()
        self.safe_write_dirs: tuple[str, ...] = ()
        self.sensitive_files: tuple[str, ...] = ()
        if path is not None:
            self._load(path)

    def _load(self, path: str) -> None:
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        except FileNotFoundError:
            return
        except (OSError, UnicodeDecodeError) as exc:
            raise SafePatternError(f"{path}: cannot read: {exc}") from None
        except json.JSONDecodeError as exc:
            raise SafePatternError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from None
        except RecursionError:
            raise SafePatternError(f"{path}: JSON nested too deeply to read") from None
        self._from_data(data, path)

    def _from_data(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise SafePatternError(f"{where}: expected a JSON object with \"version\": 1")
        version = data.get("version", 1)
        if version != 1:
            raise SafePatternError(f"{where}: unsupported version {version!r} (expected 1)")
        lists = {}
        for key in ("safe_bash", "safe_tools", "safe_write_dirs", "sensitive_files"):
            value = data.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise SafePatternError(f"{where}: \"{key}\" must be a list of strings")
            lists[key] = value
        unknown = set(data) - {"version", "safe_bash", "safe_tools", "safe_write_dirs", "sensitive_files"}
        if unknown:
            raise SafePatternError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        for i, text in enumerate(lists["safe_bash"]):
            try:
                self.safe_bash.append(re.compile(text))
            except re.error as exc:
                raise SafePatternError(f"{where}: safe_bash[{i}] {text!r} is not a valid regex: {exc}") from None
        self.safe_tools = frozenset(lists["safe_tools"])
        self.safe_write_dirs = tuple(lists["safe_write_dirs"])
        self.sensitive_files = tuple(lists["sensitive_files"])

    @classmethod
    def from_dict(cls, data: dict, where: str = "<patterns>") -> "SafePatternStore":
        store = cls()
        store._from_data(data, where)
        return store

    def matches_command(self, argv_text: str) -> bool:
        """Does a user ``safe_bash`` regex match this one simple command (its words joined by spaces)?"""
        return any(p.search(argv_text) for p in self.safe_bash)

    def sensitive(self, path: str, home: str) -> str | None:
        for pattern in self.sensitive_files:
            full = paths.expand_home(pattern, home)
            if glob_matches(path, full) or glob_matches(posixpath.basename(path), pattern):
                return f"sensitive file ({pattern})"
        return None
