"""What a shell word names: the commands inside its substitutions, and the normalized paths it can
stand for (``~``, ``$HOME``, ``..``, braces, globs; unknown variables read in their worst case)."""
from __future__ import annotations

import fnmatch
import posixpath
from dataclasses import dataclass
from typing import Final

from phlegyas.analysis.paths import is_harmless_device, is_system_path, is_within, normalize, sensitive_reason
from phlegyas.analysis.shell.braces import expand_word
from phlegyas.analysis.shell.parse import Redirect, SimpleCommand, Word, parse
from phlegyas.analysis.tier1.listed import author_output, listed_globs, number_output
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
        known = _always_set(piece, env)
        if known is not None:
            out.append(known)
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


_SET_VALUE: Final = (":-", "-", ":?", "?", ":=", "=")
"""Operators that give a set variable's own value (``${HOME:?}``, ``${HOME:-/tmp}``)."""


def _always_set(piece: str, env: AnalysisEnv, depth: int = 0) -> str | None:
    """The value of an expansion of ``HOME`` or ``PWD``, which the agent's shell always has set:
    ``$HOME``, ``${HOME:?}``, ``${HOME:-x}`` (the default is never used), ``${HOME%/}``, ``${PWD:+x}``
    (``x``: the alternate is always used); None for anything else."""
    if piece in _KNOWN_HOME:
        return env.home
    if piece in _KNOWN_CWD:
        return env.cwd
    if piece.startswith(("$(", "`")) and not piece.startswith("$(("):
        return number_output(piece) or _path_output(piece, env, depth)
    if not piece.startswith("${") or not piece.endswith("}"):
        return None
    body = piece[2:-1]
    for name, value in (("HOME", env.home), ("PWD", env.cwd)):
        if not body.startswith(name) or body == name:
            continue
        rest = body[len(name):]
        if rest.startswith(_SET_VALUE) and "$" not in rest and "`" not in rest:
            return value
        if rest.startswith((":+", "+")) and "$" not in rest and "`" not in rest:
            return rest[2:] if rest.startswith(":+") else rest[1:]
        if rest in ("%/", "%%/"):
            return value.rstrip("/") or "/"
        if rest[:1] in ("%", "#") and "$" not in rest and "`" not in rest:  # `${PWD%/*}`: the parent
            return _trimmed(value, rest)
    return None


def _trimmed(value: str, op: str) -> str:
    """``${X%pat}``, ``${X%%pat}``, ``${X#pat}``, ``${X##pat}`` of a known value (``pat`` a glob)."""
    longest = op[:2] in ("%%", "##")
    pattern = op[2:] if longest else op[1:]
    if op[0] == "%":
        cut = [i for i in range(len(value) + 1) if fnmatch.fnmatchcase(value[i:], pattern)]
        return value[:(min(cut) if longest else max(cut))] if cut else value
    cut = [j for j in range(len(value) + 1) if fnmatch.fnmatchcase(value[:j], pattern)]
    return value[(max(cut) if longest else min(cut)):] if cut else value


_RESOLVERS: Final = frozenset({"realpath", "readlink", "grealpath", "greadlink"})
_PATH_PRINTERS: Final = _RESOLVERS | {"dirname", "basename", "cd", "echo", "git", "pwd"}


def _path_output(piece: str, env: AnalysisEnv, depth: int = 0) -> str | None:
    """What a substitution that only computes a path prints: ``$(dirname "$PWD")``, ``$(basename X)``,
    ``$(realpath ..)``, ``$(readlink -f ~)``, ``$(cd .. && pwd)``, ``$(echo $HOME)``,
    ``$(git rev-parse --show-toplevel)`` (the project); None for anything else (symlinks are not followed:
    the path as written is the one judged)."""
    body = piece[1:-1] if piece.startswith("`") else piece[2:-1]
    if depth > 4 or len(body) > 200:
        return None
    head = body.split(None, 1)
    if not head or head[0] not in _PATH_PRINTERS:
        return None  # most substitutions compute something else: no parse for them
    script = parse(body)
    commands = [c for c in script.commands if c.origin == "top"]  # the substitutions inside are words here
    if script.problems or not commands or len(commands) > 2 or any(c.redirects or c.assignments for c in commands):
        return None
    texts = [[w.text for w in c.words] for c in commands]
    if len(commands) == 2:  # `cd DIR && pwd`
        if len(texts[0]) == 2 and texts[0][0] == "cd" and texts[1] == ["pwd"]:
            return _path_word(commands[0].words[1], env, depth)
        return None
    words = commands[0].words
    if not words or words[0].dynamic:
        return None
    program, args = words[0].text, words[1:]
    if program == "git" and texts[0][1:] == ["rev-parse", "--show-toplevel"]:
        return env.project_root if is_within(env.cwd, env.project_root) else None  # elsewhere: another repository
    if program == "git" and texts[0][1:] in (["rev-parse", "--git-dir"], ["rev-parse", "--absolute-git-dir"],
                                            ["rev-parse", "--git-common-dir"]):
        return env.project_root.rstrip("/") + "/.git" if is_within(env.cwd, env.project_root) else None
    if program == "pwd" and not args:
        return env.cwd
    operands = [a for a in args if a.dynamic or not a.text.startswith("-")]
    flags = [a.text for a in args if not a.dynamic and a.text.startswith("-")]
    if len(operands) != 1:
        return None
    got = _path_word(operands[0], env, depth)
    if got is None:
        return None
    if program == "dirname" and not flags:
        return posixpath.dirname(got.rstrip("/")) or "/"
    if program == "basename" and not flags:
        return posixpath.basename(got.rstrip("/")) or "/"
    if program in _RESOLVERS and all(f in ("-f", "-e", "-m", "--canonicalize", "-s", "-q", "-n") for f in flags):
        return got
    if program == "echo" and not flags:
        return got
    return None


def _known_text(text: str, env: AnalysisEnv, depth: int = 0) -> str | None:
    """``text`` with every expansion written as its value (``_always_set``); None when one has no known
    value, or when the text has no expansion at all."""
    spans = expansions(text)
    if not spans:
        return None
    out, last = [], 0
    for a, b in spans:
        out.append(text[last:a])
        value = _always_set(text[a:b], env, depth)
        if value is None:
            return None
        out.append(value)
        last = b
    out.append(text[last:])
    return "".join(out)


def _path_word(word: Word, env: AnalysisEnv, depth: int) -> str | None:
    """One operand of a path-computing substitution, resolved; None when part of it is unknown."""
    text = _known_text(word.text, env, depth + 1) if word.dynamic else word.text
    if text is None or word.glob or "{" in text:
        return None
    return resolve(text, env)


def known_words(args: list[Word], env: AnalysisEnv, names: bool = True) -> list[Word]:
    """``args`` with each word whose expansions all have a value the analysis knows (``${HOME:?}``,
    ``"$(git rev-parse --show-toplevel)"``, ``$(dirname "$PWD")``) written as that value, so that Tier 2
    judges the path it is; with ``names``, a whole ``$(git ls-files '*.py')`` or ``$(find src -name '*.ts')``
    (quoted, it is one word of those names) becomes the globs that picture its names (``tier1.listed``). A word that would split (an unquoted value with a blank) or become an option
    stays as it was, and so does every other word."""
    if not any(w.dynamic for w in args):
        return args
    out: list[Word] = []
    changed = False
    for word in args:
        if names and word.dynamic and word.text[:1] in "$`" and (listed := listed_globs(word.text)):
            out.extend(Word(g, False, True, False) for g in listed)  # `wc -l $(git ls-files '*.py')`, quoted or not
            changed = True
            continue
        author = names and (word.text.startswith("--") or out and out[-1].text in ("--author", "--committer"))
        value = (author and author_output(word.text)) or (  # `--author="$(git config user.email)"`: a value, no path
            _known_text(word.text, env) if word.dynamic and not word.glob else None)
        if not value or value.startswith("-") and not word.text.startswith("-") or (not word.quoted and any(c in value for c in " \t\n*?[")):
            out.append(word)
            continue
        out.append(Word(value, False, False, word.quoted))
        changed = True
    return out if changed else args


def expand_braces(text: str) -> list[str]:
    """Bash brace expansion of a path word (``/{etc,usr}`` → two paths), as ``shell.braces`` does it; the
    word as written when there is nothing to expand or too much."""
    return expand_word(text) or [text]


def resolve(path: str, env: AnalysisEnv) -> str:
    """``paths.normalize`` plus ``~user`` (``~root`` → ``/root``)."""
    if path.startswith("~") and len(path) > 1 and path[1] != "/" and path[1] not in "+-":
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
    if text == "~-" or text.startswith("~-/"):  # bash's $OLDPWD: only the running shell knows it
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
