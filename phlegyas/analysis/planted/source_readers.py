"""The commands in source files phlegyas cannot parse, as shell command lines: CMake's
``execute_process(COMMAND …)``, ``add_custom_command``/``add_custom_target`` and ``file(REMOVE_RECURSE …)``,
Rust's ``Command::new`` and ``remove_dir_all``, Go's ``exec.Command`` and ``os.RemoveAll``, Gradle's
``commandLine`` and ``"…".execute()``.

The readers are small and literal on purpose: they serve a judge that only denies (``planted.sources``),
so what they cannot read is simply not a command. A path built from the home directory
(``$ENV{HOME}``, ``dirs::home_dir()``, ``os.UserHomeDir()``) is written as ``~`` so that deleting it reads
like the shell's ``rm -r ~``.
"""
from __future__ import annotations

import html
import re
from typing import Final

from phlegyas.analysis.planted.extract import extract
from phlegyas.analysis.shell.interpreters.code_flows import code_flows

_SAFE_WORD: Final = re.compile(r"[\w@%+=:,./~-]+")


def shell_word(word: str, live: bool = False) -> str:
    """``word`` quoted for the shell; a bare ``~`` stays the home directory, and with ``live`` so do
    ``$NAME`` expansions; a program's literal ``$`` stays literal."""
    if _SAFE_WORD.fullmatch(word):
        return word
    if live and "$" in word:
        return '"' + re.sub(r'(["\\`])', r"\\\1", word) + '"'
    return "'" + word.replace("'", "'\\''") + "'"


def commands(language: str, text: str) -> list[str]:
    """The command lines a source file of ``language`` (``cmake``, ``rust``, ``go``, ``gradle``) runs."""
    if language == "cmake":
        return cmake_commands(text)
    if language == "rust":
        return rust_commands(text) + code_flows(text)  # a reverse shell, a secret sent (``code_flows``)
    if language == "go":
        return go_commands(text) + code_flows(text)
    if language == "gradle":
        return gradle_commands(text) + code_flows(text)
    if language == "msbuild":
        return [html.unescape(m.group(2)) for m in _MSBUILD_EXEC.finditer(text)]
    if language == "docker":  # RUN lines in shell form; the exec form (`RUN ["x", "y"]`) is an argv
        return [m.group(1).replace("\\\n", " ") for m in _DOCKER_RUN.finditer(text)
                if not m.group(1).lstrip().startswith("[")]
    return []


_MSBUILD_EXEC: Final = re.compile(r"""<Exec\b[^>]*?\bCommand\s*=\s*(["'])(.*?)\1""", re.S | re.I)
_DOCKER_RUN: Final = re.compile(r"^\s*RUN\s+((?:[^\n\\]|\\\n|\\.)+)", re.M | re.I)


# -- CMake --------------------------------------------------------------------------------------------

_CMAKE_CALL = re.compile(r"\b(?P<fn>execute_process|add_custom_command|add_custom_target|file|exec_program)\s*\(",
                         re.IGNORECASE)
_CMAKE_ARG: Final = re.compile(r'\[(?P<eq>=*)\[(?P<bracket>.*?)\](?P=eq)\]|"(?P<quoted>(?:[^"\\]|\\.)*)"|'
                               r"(?P<comment>#[^\n]*)|(?P<bare>(?:[^\s()\"#\\]|\\.)+)", re.S)
_CMAKE_KEYWORDS: Final = frozenset({
    "COMMAND", "WORKING_DIRECTORY", "TIMEOUT", "RESULT_VARIABLE", "RESULTS_VARIABLE", "OUTPUT_VARIABLE",
    "ERROR_VARIABLE", "INPUT_FILE", "OUTPUT_FILE", "ERROR_FILE", "OUTPUT_QUIET", "ERROR_QUIET", "COMMAND_ECHO",
    "OUTPUT_STRIP_TRAILING_WHITESPACE", "ERROR_STRIP_TRAILING_WHITESPACE", "ENCODING", "ECHO_OUTPUT_VARIABLE",
    "ECHO_ERROR_VARIABLE", "COMMAND_ERROR_IS_FATAL", "OUTPUT", "MAIN_DEPENDENCY", "DEPENDS", "BYPRODUCTS",
    "IMPLICIT_DEPENDS", "COMMENT", "DEPFILE", "JOB_POOL", "JOB_SERVER_AWARE", "VERBATIM", "APPEND",
    "USES_TERMINAL", "COMMAND_EXPAND_LISTS", "DEPENDS_EXPLICIT_ONLY", "CODEGEN", "TARGET", "PRE_BUILD",
    "PRE_LINK", "POST_BUILD", "ALL", "SOURCES", "ARGS", "RETURN_VALUE",
})
_CMAKE_DIRS: Final = {
    "CMAKE_SOURCE_DIR": ".", "CMAKE_CURRENT_SOURCE_DIR": ".", "PROJECT_SOURCE_DIR": ".",
    "CMAKE_CURRENT_LIST_DIR": ".", "CMAKE_BINARY_DIR": "build", "CMAKE_CURRENT_BINARY_DIR": "build",
    "PROJECT_BINARY_DIR": "build", "CMAKE_COMMAND": "cmake", "CMAKE_CTEST_COMMAND": "ctest",
}
_CMAKE_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "0": ""}
_CMAKE_SET: Final = re.compile(r"\bset\s*\(", re.IGNORECASE)
_CMAKE_ENV: Final = re.compile(r"\$ENV\{(?P<name>\w+)\}")
_CMAKE_VAR: Final = re.compile(r"\$\{(?P<name>\w+)\}")


def _cmake_value(word: str, values: dict[str, str]) -> str:
    """A CMake argument with its references filled in: ``$ENV{HOME}`` is ``~``, the project's directories
    are ``.`` and ``build``, a variable the file ``set()``s is its value, any other reference one plain word
    (a value the gate cannot know, but not an empty one: CMake's are seldom empty)."""
    word = _CMAKE_ENV.sub(lambda m: "~" if m.group("name") in ("HOME", "USERPROFILE") else "cmake-env", word)
    for _ in range(4):
        if "${" not in word:
            break
        word = _CMAKE_VAR.sub(lambda m: values.get(m.group("name"), _CMAKE_DIRS.get(m.group("name"), "cmake-value")),
                              word)
    return word


def _cmake_args(text: str, start: int, values: dict[str, str] | None = None) -> list[str]:
    """The arguments of the call whose ``(`` ends at ``start``, to its closing parenthesis."""
    out: list[str] = []
    depth, i = 1, start
    while i < len(text) and len(out) < 2000:
        ch = text[i]
        if ch == "(":
            depth += 1
            i += 1
            continue
        if ch == ")":
            depth -= 1
            if depth == 0:
                break
            i += 1
            continue
        if ch.isspace():
            i += 1
            continue
        m = _CMAKE_ARG.match(text, i)
        if m is None:
            i += 1
            continue
        i = m.end()
        if m.group("comment") is not None:
            continue
        if m.group("bracket") is not None:
            out.append(m.group("bracket"))
        elif m.group("quoted") is not None:
            unescaped = re.sub(r"\\(.)", lambda e: _CMAKE_ESCAPES.get(e.group(1), e.group(1)), m.group("quoted"))
            out.append(_cmake_value(unescaped, values or {}))
        else:
            out.append(_cmake_value(m.group("bare"), values or {}))
    return out


def cmake_commands(text: str) -> list[str]:
    """Each ``COMMAND`` of ``execute_process`` (run when ``cmake`` configures), ``add_custom_command`` and
    ``add_custom_target`` (run when it builds) as a command line; ``file(REMOVE_RECURSE …)`` as ``rm -r``."""
    out: list[str] = []
    values: dict[str, str] = {}
    for m in _CMAKE_SET.finditer(text):
        args = _cmake_args(text, m.end())
        if len(args) >= 2 and args[0] not in values:
            values[args[0]] = args[1]
    for m in _CMAKE_CALL.finditer(text):
        fn = m.group("fn").lower()
        args = _cmake_args(text, m.end(), values)
        if fn == "file":
            if args and args[0].upper() in ("REMOVE_RECURSE", "REMOVE"):
                flag = ["-r"] if args[0].upper() == "REMOVE_RECURSE" else []
                out.extend(" ".join(["rm", *flag, shell_word(a, True)]) for a in args[1:])
            continue
        if fn == "exec_program":
            if args:
                rest = args[args.index("ARGS") + 1:] if "ARGS" in args else []
                out.append(" ".join(shell_word(a, True) for a in [args[0], *rest]))
            continue
        current: list[str] | None = None
        pipeline: list[str] = []
        for arg in [*args, "COMMAND_END"]:
            if arg in _CMAKE_KEYWORDS or arg == "COMMAND_END":
                if current:
                    pipeline.append(" ".join(shell_word(w, True) for w in current))
                current = [] if arg == "COMMAND" else None
                if arg != "COMMAND" and pipeline:
                    out.append(" | ".join(pipeline) if fn == "execute_process" else " ; ".join(pipeline))
                    pipeline = []
            elif current is not None:
                current.append(arg)
    return out


# -- Rust ---------------------------------------------------------------------------------------------

_RUST_HOME: Final = (r"(?:(?:dirs(?:_next)?|home|std::env|env)::)?home_dir\(\s*\)|"
                     r"(?:std::)?env::var(?:_os)?\(\s*\"(?:HOME|USERPROFILE)\"\s*\)")
_RUST_LET = re.compile(rf"\blet\s+(?:mut\s+)?(?P<name>\w+)\s*(?::[^=;]*)?=\s*(?P<value>[^;]*?(?:{_RUST_HOME})[^;]*);")
_RUST_REMOVE: Final = re.compile(r"\bremove_dir_all\s*\(\s*(?P<arg>(?:[^();]|\((?:[^();]|\([^();]*\))*\))*)\)")
_RUST_LITERAL: Final = re.compile(r'^"((?:[^"\\]|\\.)*)"$')


def rust_commands(text: str) -> list[str]:
    """``Command::new("p").arg("a")…`` as ``p a``; ``remove_dir_all`` of a literal path or of the home
    directory (``dirs::home_dir()``, ``env::var("HOME")``, a ``let`` bound to one) as ``rm -r``."""
    out = [s for lang, s in extract("rust", text, True, "/").snippets if lang == "sh"]
    homes = _home_names(_RUST_LET, text, re.compile(_RUST_HOME), ".join(")
    for m in _RUST_REMOVE.finditer(text):
        target = _rust_path(m.group("arg"), homes)
        if target is not None:
            out.append("rm -r " + shell_word(target))
    return out


def _home_names(let: re.Pattern[str], text: str, home: re.Pattern[str], join: str) -> dict[str, str]:
    """Variables bound to the home directory, as ``~`` (or ``~/sub`` for a join of one literal)."""
    out: dict[str, str] = {}
    for m in let.finditer(text):
        value = m.group("value")
        if join not in value:
            out[m.group("name")] = "~"
            continue
        sub = re.search(re.escape(join) + r'\s*"([^"]*)"\s*\)', value)
        if sub is not None and home.search(value.split(join, 1)[0]):
            out[m.group("name")] = "~/" + sub.group(1).strip("/")
    return out


def _rust_path(arg: str, homes: dict[str, str]) -> str | None:
    arg = re.sub(r"\.(?:unwrap|as_path|clone|to_path_buf)\(\s*\)|\.expect\([^)]*\)|\?|&", "", arg).strip()
    literal = _RUST_LITERAL.match(arg)
    if literal is not None:
        return literal.group(1)
    if re.fullmatch(_RUST_HOME, arg):
        return "~"
    return homes.get(arg)


# -- Go -----------------------------------------------------------------------------------------------

_GO_STRING: Final = r'"(?:[^"\\]|\\.)*"|`[^`]*`'
_GO_COMMAND: Final = re.compile(r"\bexec\.Command(?P<ctx>Context)?\s*\((?P<args>(?:[^()]|\([^()]*\))*)\)")
_GO_HOME: Final = r'os\.Getenv\(\s*"(?:HOME|USERPROFILE)"\s*\)|os\.UserHomeDir\(\s*\)'
_GO_LET: Final = re.compile(rf"\b(?:var\s+)?(?P<name>\w+)\s*(?:,\s*\w+\s*)?(?::=|=)\s*"
                            rf"(?P<value>[^\n;]*?(?:{_GO_HOME})[^\n;]*)")
_GO_REMOVE: Final = re.compile(r"\bos\.RemoveAll\s*\((?P<arg>(?:[^()]|\([^()]*\))*)\)")


def _go_literal(text: str) -> str | None:
    text = text.strip()
    if text.startswith("`") and text.endswith("`") and len(text) >= 2:
        return text[1:-1]
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text[1:-1])
    return None


_GO_GENERATE: Final = re.compile(r"^\s*//go:generate\s+(.+?)\s*$", re.M)


def go_commands(text: str) -> list[str]:
    """``exec.Command("p", "a", …)`` whose words are all literals as ``p a …``; ``os.RemoveAll`` of a
    literal, of ``os.Getenv("HOME")``/``os.UserHomeDir()`` or of a variable bound to one as ``rm -r``."""
    out: list[str] = [m.group(1) for m in _GO_GENERATE.finditer(text)]  # `//go:generate CMD`, run by go generate
    for m in _GO_COMMAND.finditer(text):
        items = re.findall(rf"{_GO_STRING}|[^,]+", m.group("args"))
        if m.group("ctx"):
            items = items[1:]
        words = [_go_literal(i) for i in items if i.strip()]
        if words and all(w is not None for w in words):
            out.append(" ".join(shell_word(w) for w in words if w is not None))
    homes = _home_names(_GO_LET, text, re.compile(_GO_HOME), "filepath.Join(")
    for m in _GO_REMOVE.finditer(text):
        arg = m.group("arg").strip()
        literal = _go_literal(arg)
        target = literal if literal is not None else "~" if re.fullmatch(_GO_HOME, arg) else homes.get(arg)
        if target is None:
            join = re.fullmatch(r"filepath\.Join\(\s*(?P<base>\w+)\s*,\s*\"(?P<sub>[^\"]*)\"\s*\)", arg)
            if join is not None and join.group("base") in homes:
                target = homes[join.group("base")] + "/" + join.group("sub").strip("/")
        if target is not None:
            out.append("rm -r " + shell_word(target))
    return out


# -- Gradle -------------------------------------------------------------------------------------------

_GRADLE_STRING: Final = r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*\""""
_GRADLE_LINE: Final = re.compile(rf"\bcommandLine\s*\(?\s*\[?\s*(?P<args>(?:(?:{_GRADLE_STRING})\s*,?\s*)+)")
_GRADLE_EXECUTE: Final = re.compile(rf"(?P<s>{_GRADLE_STRING})\s*\.execute\(\s*\)|"
                                    rf"\[(?P<list>(?:\s*(?:{_GRADLE_STRING})\s*,?)+)\]\s*\.execute\(\s*\)")


def gradle_commands(text: str) -> list[str]:
    """``commandLine 'p', 'a'`` / ``commandLine("p", "a")`` and ``"p a".execute()`` / ``['p', 'a'].execute()``."""
    out: list[str] = []
    for m in _GRADLE_LINE.finditer(text):
        words = [w[1:-1] for w in re.findall(_GRADLE_STRING, m.group("args"))]
        out.append(" ".join(shell_word(w) for w in words))
    for m in _GRADLE_EXECUTE.finditer(text):
        if m.group("s") is not None:
            out.append(" ".join(shell_word(w) for w in m.group("s")[1:-1].split()))  # Groovy splits on spaces
        else:
            words = [w[1:-1] for w in re.findall(_GRADLE_STRING, m.group("list"))]
            out.append(" ".join(shell_word(w) for w in words))
    return out


__all__ = ["cmake_commands", "commands", "go_commands", "gradle_commands", "rust_commands", "shell_word"]
