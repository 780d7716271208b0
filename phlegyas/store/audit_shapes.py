"""What the audit index shows of a tool call: its gist on one printable line, the text full-text search
reads, and, for a call a person was asked about, its *shape* and the Claude Code allow rule that would
cover it (``npm run storybook --port 6006`` → ``npm run storybook``, ``Bash(npm run storybook *)``).

Commands are parsed (``analysis.shell.parse``), never split as strings, and matched the way the allow
rules match them (``policy.rules.commands.allow_string``: harmless wrappers peeled), so a suggested rule
matches the command it was made from.
"""
from __future__ import annotations

import json
import posixpath
import re
from urllib.parse import urlsplit

from phlegyas.analysis.shell.parse import parse
from phlegyas.core.text import printable
from phlegyas.policy.rules.commands import DENY_WRAPPERS, NEUTRAL, SHELLS, allow_string
from phlegyas.policy.rules.rule import DIR_TOOLS, FILE_KEYS

SUMMARY_CHARS = 300
"""A row's ``summary`` (the gist of the input) is one printable line of at most this many characters."""
SEARCH_CHARS = 2000
"""Full-text search reads the first this-many characters of the input's gist fields and of the reason."""
GIST_KEYS = ("command", "file_path", "notebook_path", "url", "path", "pattern", "query")
MAX_SHAPE_WORDS = 3


def shorten(text: str, width: int) -> str:
    flat = printable(text[:width * 2])  # escapes only lengthen it: no need to look further
    return flat if len(flat) <= width else flat[:width - 1] + "…"


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def gist(tool_input: object, width: int = SUMMARY_CHARS) -> str:
    """The most telling field of a tool input (the command, the path, the URL…), else its JSON, as one
    printable line of at most ``width`` characters."""
    if isinstance(tool_input, dict):
        for key in GIST_KEYS:
            value = tool_input.get(key)
            if isinstance(value, str) and value:
                return shorten(value, width)
    return shorten(_json(tool_input), width)


def search_text(tool_input: object) -> str:
    """What full-text search reads of an input: its gist fields (all of them), else its JSON."""
    if isinstance(tool_input, dict):
        found = [v[:SEARCH_CHARS] for k in GIST_KEYS if isinstance(v := tool_input.get(k), str) and v]
        if found:
            return "\n".join(found)
    return _json(tool_input)[:SEARCH_CHARS]


# --- shapes and rules ----------------------------------------------------------------------------

_SUBCOMMAND = re.compile(r"[A-Za-z_][A-Za-z0-9_:+-]*")
_PROGRAM = re.compile(r"[^\s()*?\[\]\\]+")
_TOOL = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_NAVIGATION = frozenset({"cd", "pushd", "popd"})
RUNS_ANY_COMMAND = SHELLS | frozenset(DENY_WRAPPERS) | frozenset({"eval", "source", ".", "exec"})
"""Programs whose words are another command: their shape gets no allow rule (``Bash(sudo *)`` allows anything)."""
_PATH_GLOB = re.compile(r"([*?\[\]\\])")


def shape_of(tool: str, tool_input: object, cwd: object) -> tuple[str, str | None]:
    """The shape of an asked call and the Claude Code allow rule that would cover it (None when no
    rule should: a command that runs any command, a command the gate does not understand)."""
    args = tool_input if isinstance(tool_input, dict) else {}
    if tool == "Bash":
        command = args.get("command")
        return bash_shape(command) if isinstance(command, str) else ("(no command)", None)
    if tool == "WebFetch":
        host = _host(args.get("url"))
        return (f"WebFetch {host}", f"WebFetch(domain:{host})") if host else ("WebFetch", "WebFetch")
    if tool in FILE_KEYS or tool in DIR_TOOLS:
        return _path_shape(tool, args, cwd)
    return tool, (tool if _TOOL.fullmatch(tool) else None)


def bash_shape(command: str) -> tuple[str, str | None]:
    """``npm run storybook --port 6006`` → (``npm run storybook``, ``Bash(npm run storybook *)``): the
    program and at most two leading subcommand words (no options, paths, URLs, numbers or quoted words)
    of the first simple command (a leading ``cd DIR`` is skipped), harmless wrappers (``timeout 60``)
    peeled off as the allow rules peel them."""
    script = parse(command)
    first = next((c for c in script.commands if c.origin == "top" and c.words and c.program not in _NAVIGATION),
                 None)
    if first is None or first.words[0].dynamic:
        return ("(dynamic command)" if first is not None else "(no command)"), None
    matched = allow_string(first)
    words = _peeled(first.words, matched) if isinstance(matched, str) else first.words
    program = words[0].text
    shape = [program]
    for word in words[1:MAX_SHAPE_WORDS]:
        if word.quoted or word.dynamic or word.glob or not _SUBCOMMAND.fullmatch(word.text):
            break
        shape.append(word.text)
    text = " ".join(shape)
    runs_any = program.rsplit("/", 1)[-1] in RUNS_ANY_COMMAND
    understood = not script.problems and isinstance(matched, str) and matched is not NEUTRAL
    if not understood or runs_any or not _PROGRAM.fullmatch(program) or not text.isprintable():
        return printable(text), None
    return text, f"Bash({text} *)"


def _peeled(words: list, matched: str) -> list:
    """The words an allow rule is matched against: ``words`` less the wrappers ``allow_string`` peeled."""
    for k in range(min(len(words), 16)):
        joined = " ".join(w.text for w in words[k:])
        if matched == joined or matched.startswith(joined + " "):
            return words[k:]
    return words


def _host(url: object) -> str | None:
    if not isinstance(url, str):
        return None
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return None
    return host if host and re.fullmatch(r"[a-z0-9._-]+", host) else None


def _path_shape(tool: str, args: dict, cwd: object) -> tuple[str, str | None]:
    """``Read`` of ``/p/src/a.py`` → ``Read(//p/src/**)``: the file's directory (a Glob's or Grep's
    own), absolute rules written ``//…`` as Claude Code reads them; editing tools share ``Edit(…)``."""
    if tool in FILE_KEYS:
        path = args.get(FILE_KEYS[tool])
        directory = _resolve(path, cwd)
        directory = posixpath.dirname(directory) if directory else None
    else:
        path = args.get("path")
        directory = _resolve(path if isinstance(path, str) and path else cwd, cwd)
    if not directory:
        return tool, None
    family = "Read" if tool == "Read" or tool in DIR_TOOLS else "Edit"
    shown = directory.rstrip("/") + "/"
    pattern = _PATH_GLOB.sub(r"\\\1", shown)
    anchor = "" if directory.startswith("~") else "/"  # an absolute path is written //… in a rule
    return printable(f"{tool} {shown}"), f"{family}({anchor}{pattern}**)"


def _resolve(path: object, cwd: object) -> str | None:
    if not isinstance(path, str) or not path or "\x00" in path or not path.isprintable():
        return None
    if path == "~" or path.startswith("~/"):
        return posixpath.normpath(path)
    if not path.startswith("/"):
        if not isinstance(cwd, str) or not cwd.startswith("/"):
            return None
        path = posixpath.join(cwd, path)
    return posixpath.normpath(path)
