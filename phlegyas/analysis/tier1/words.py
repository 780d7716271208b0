"""What a shell word names: the commands inside its substitutions, and the normalized paths it can
stand for (``~``, ``$HOME``, ``..``, braces, globs; unknown variables read in their worst case)."""
from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Final

from phlegyas.analysis.paths import is_harmless_device, is_system_path, is_within, normalize, sensitive_reason
from phlegyas.analysis.shell.braces import expand_word
from phlegyas.analysis.shell.parse import Redirect, SimpleCommand, Word, parse
from phlegyas.core.analysis import AnalysisEnv

# -- substitutions ------------------------------------------------------------------------------------

_KNOWN_HOME: Final = ("$HOME", "${HOME}")
_KNOWN_CWD: Final = ("$PWD", "${PWD}", "$(pwd)", "`pwd`")
KNOWN_PREFIXES: Final = _KNOWN_HOME + _KNOWN_CWD
PLACEHOLDER: Final = "\x00unknown"


def expansions(text: str) -> list[tuple[int, int]]:
    """Spans of ``$x``, ``${…}``, ``$(…)``, ``$((…))``, ``<(…)`` and backquotes in one word's text."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "`":
            end = text.find("`", i + 1)
            end = n if end < 0 else end + 1
            spans.append((i, end))
            i = end
        elif (ch == "$" or ch in "<>") and i + 1 < n and text[i + 1] in "({" and (ch == "$" or text[i + 1] == "("):
            end = _closing(text, i + 1)
            spans.append((i, end))
            i = end
        elif ch == "$" and i + 1 < n and (text[i + 1].isalnum() or text[i + 1] in "_@*#?$!-"):
            j = i + 2
            if text[i + 1].isalpha() or text[i + 1] == "_":
                while j < n and (text[j].isalnum() or text[j] == "_"):
                    j += 1
            spans.append((i, j))
            i = j
        else:
            i += 1
    return spans


def _closing(text: str, start: int) -> int:
    """Index after the bracket matching ``text[start]``."""
    opening = text[start]
    closing = ")" if opening == "(" else "}"
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c == opening:
            depth += 1
        elif c == closing:
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == "'" and opening == "(":
            end = text.find("'", i + 1)
            i = n if end < 0 else end
        i += 1
    return n


def substitution_bodies(text: str) -> list[str]:
    """The command text inside each ``$(…)``, backquote and ``<(…)``/``>(…)`` of a word."""
    bodies = []
    for a, b in expansions(text):
        piece = text[a:b]
        if piece.startswith("`"):
            bodies.append(piece[1:-1] if piece.endswith("`") and len(piece) > 1 else piece[1:])
        elif piece[1:2] == "(" and not piece.startswith("$(("):
            bodies.append(piece[2:-1] if piece.endswith(")") else piece[2:])
    return bodies


_INNER_CACHE: Final[dict[str, list]] = {}


def inner_commands(text: str) -> list:
    """Simple commands inside the substitutions of a word (``$(curl …)`` → the curl command).

    ``$(<file)`` becomes a command with no words and a ``<`` redirect, as bash reads it."""
    found = []
    for body in substitution_bodies(text):
        if body in _INNER_CACHE:
            found.extend(_INNER_CACHE[body])
            continue
        stripped = body.strip()
        if stripped.startswith("<") and not stripped.startswith("<<"):
            cmds = [SimpleCommand(words=[], redirects=[Redirect("<", Word(stripped[1:].strip()))], text=body)]
        else:
            cmds = list(parse(body).commands)
        if len(_INNER_CACHE) < 512:
            _INNER_CACHE[body] = cmds
        found.extend(cmds)
    return found


# -- paths --------------------------------------------------------------------------------------------


@dataclass(slots=True, init=False)
class Target:
    """A path a word names, normalized; ``path`` is None when only the running shell knows it."""

    path: str | None
    raw: str
    glob: bool = False
    dynamic: bool = False

    def __init__(self, path: str | None, raw: str, glob: bool = False, dynamic: bool = False) -> None:
        self.path = path  # hand-written: mypyc compiles it (see shell.syntax)
        self.raw = raw
        self.glob = glob
        self.dynamic = dynamic


def _worst_case(text: str, env: AnalysisEnv) -> tuple[str, bool]:
    """The word with unknown expansions replaced by what an unset variable gives (usually nothing),
    and whether any expansion was unknown (``$HOME`` and ``$PWD`` are known)."""
    out, last, unknown = [], 0, False
    for a, b in expansions(text):
        out.append(text[last:a])
        piece = text[a:b]
        if piece in _KNOWN_HOME:
            out.append(env.home)
        elif piece in _KNOWN_CWD:
            out.append(env.cwd)
        else:
            unknown = True
            if piece.startswith("${") and (":-" in piece or ":=" in piece):
                out.append(piece[2:-1].split(":-" if ":-" in piece else ":=", 1)[1])
            elif piece.startswith("${") and ("?" in piece or "+" in piece):
                out.append(PLACEHOLDER)
            # anything else: empty when unset
        last = b
    out.append(text[last:])
    return "".join(out), unknown


def expand_braces(text: str) -> list[str]:
    """Bash brace expansion of a path word (``/{etc,usr}`` → two paths), as ``shell.braces`` does it; the
    word as written when there is nothing to expand or too much."""
    return expand_word(text) or [text]


def resolve(path: str, env: AnalysisEnv) -> str:
    """``paths.normalize`` plus ``~user`` (``~root`` → ``/root``)."""
    if path.startswith("~") and len(path) > 1 and path[1] != "/":
        user, _, rest = path[1:].partition("/")
        base = "/root" if user == "root" else posixpath.join(posixpath.dirname(env.home), user)
        path = base + ("/" + rest if rest else "")
    return normalize(path, env.cwd, env.home)


def word_targets(word: Word, env: AnalysisEnv) -> list[Target]:
    """The normalized paths a word can name; dynamic words are read in their worst case."""
    text = word.text
    dynamic = False
    if word.dynamic:
        text, dynamic = _worst_case(text, env)
        if not text.strip() or PLACEHOLDER in text or text.startswith("-"):
            return [Target(None, word.text, word.glob, True)]
    texts = expand_braces(text) if word.glob and "{" in text else [text]
    return [Target(resolve(t, env), word.text, word.glob, dynamic) for t in texts]


def path_of(text: str, env: AnalysisEnv) -> str | None:
    """The normalized path of an option value; None if it holds an expansion."""
    if "$" in text or "`" in text:
        worst = _worst_case(text, env)[0]
        if not worst or PLACEHOLDER in worst:
            return None
        text = worst
    return resolve(text, env)


GLOB_CHARS: Final = "*?["
ALL_MATCH: Final = frozenset({"*", ".*", ".[!.]*", ".[^.]*", ".??*", "*.*"})


def glob_base(path: str) -> tuple[str, bool]:
    """The directory a glob lists and whether its pattern matches (nearly) every entry there."""
    cut = min((path.find(c) for c in GLOB_CHARS if c in path), default=-1)
    if cut < 0:
        return path, False
    base = path[:cut].rsplit("/", 1)[0] or "/"
    pattern = path[len(base):].lstrip("/").split("/", 1)[0]
    return base, pattern in ALL_MATCH


def _is_env_file(name: str) -> bool:
    return name == ".env" or name.startswith(".env.")


def catastrophic(path: str, env: AnalysisEnv) -> str | None:
    """Why destroying ``path`` (recursively) is catastrophic, or None: ``/``, home, the project or a
    directory holding it, the project's ``.git``, system locations, secrets outside the project."""
    root = env.project_root
    if path == "/":
        return "the root filesystem"
    if path == env.home:
        return "the home directory"
    if path == root:
        return "the whole project"
    if is_within(root, path):
        return f"{path}, which contains the project"
    if root != "/" and is_within(path, root):
        if path == root + "/.git":
            return "the project's git history (.git)"
        return None
    if is_system_path(path, env.home):
        return f"system location {path}"
    reason = sensitive_reason(path, env.home)
    if reason and not _is_env_file(posixpath.basename(path)):
        return f"{path} ({reason})"
    return None


def in_project(path: str, env: AnalysisEnv) -> bool:
    return is_within(path, env.project_root)


def is_safe_device(path: str) -> bool:
    return is_harmless_device(path) or path.startswith(("/dev/pts/", "/dev/tty")) or path == "/dev/console"
