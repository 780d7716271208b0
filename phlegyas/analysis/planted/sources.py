"""Ordinary source files, judged for what Tier 1 denies and nothing else.

``pytest`` imports every test module and package ``__init__.py``, ``npx jest`` loads ``jest.config.js``
and each test file, ``cmake -S . -B build`` runs ``execute_process``, ``cargo run`` and ``go test`` run the
crate's and the package's code: a source file of the project is code that an auto-allowed command runs
next. So its new content is read for commands the analysis understands — the commands Python's
``os.system``/``subprocess``/``shutil.rmtree`` stand for (``analyze_python``), the literal
``child_process``/``system``/``FileUtils.rm_rf`` calls of JavaScript and Ruby (the reader of ``node -e``
and ``ruby -e`` code), a shell script as itself, CMake, Rust, Go and Gradle commands
(``planted.source_readers``) — and a Tier 1 deny in one of them (a catastrophic delete, download-and-run,
remote code …) denies the write.

Only a deny counts, as for a loose snippet (``planted.judge``): agents write source and test files all
day, most code is not understood by a small analysis, and a file that merely asks or is not understood
stays the project edit it was. Heuristics that read a one-liner as a whole (``socket`` and ``subprocess``
in the same ``python3 -c`` is a reverse shell) are not applied to whole files, for the same reason: the
judge looks at the commands the code runs, one by one.
"""
from __future__ import annotations

import ast
import re
import shlex
import textwrap
from typing import Final

from phlegyas.analysis.planted.source_readers import commands
from phlegyas.analysis.planted.tools import ShellTools, short
from phlegyas.analysis.shell.interpreters import CodeReport, analyze_literal_code, analyze_python
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Verdict

SOURCE_LANGUAGES: Final = frozenset({"py", "js", "ruby", "sh", "cmake", "rust", "go", "gradle"})
_MAX_CHARS: Final = 1_000_000
_MAX_COMMANDS: Final = 400
_MAX_LINES: Final = 400
_MAX_CHUNKS: Final = 2000
_WINDOW: Final = 400  # characters of JavaScript or Ruby read together for a synthetic command
_PY_SINK_LINE: Final = re.compile(r"\b(?:os\.(?:system|popen|exec\w*|spawn\w*|remove|unlink|rmdir|removedirs)|"
                                  r"subprocess\.\w+|shutil\.rmtree|rmtree|\.unlink|\.rmdir|exec|eval|check_output|"
                                  r"check_call|Popen)\s*\(")


def source_deny(language: str, content: str, env: AnalysisEnv, tools: ShellTools) -> str | None:
    """What a source file of ``language`` would run that Tier 1 denies, in words, or None."""
    if language in ("py", "cell"):  # a notebook cell runs as one piece: a read and a send in it are one act
        return _python(content, env, tools, language == "cell")
    text = content[:_MAX_CHARS]
    if language in ("js", "ruby"):
        return _literal(text, language, env, tools)
    if language == "sh":
        return _first_deny(shell_lines(text), env, tools)
    return _first_deny(commands(language, text), env, tools)


_SHELL_WORTH: Final = re.compile(r"\b(?:rm|rmdir|curl|wget|fetch|dd|mkfs\w*|shred|wipefs|chmod|chown|eval|exec|source|"
                                 r"nc|ncat|netcat|socat|telnet|bash|sh|zsh|dash|ksh|python\d*|perl|ruby|node|php|base64|find|"
                                 r"xargs|git|sudo|doas|scp|rsync|ssh|sftp|truncate|mv|cp|tee|crontab|openssl|busybox)\b|/dev/|"
                                 r":\s*\(\s*\)")
_HOME_VAR: Final = re.compile(r"\$\{HOME\}|\$HOME\b")


def shell_lines(text: str) -> list[str]:
    """The lines of a shell script worth a look, each as a command of its own: a script read whole is
    slow and judged by what its variables might hold (``rm -rf "$dir"/`` when ``$dir`` is empty), which a
    write of an ordinary script must not be denied for. So only literal lines count — ``$HOME`` aside,
    which the analysis knows — and a line with any other expansion is left to the person who runs it."""
    out: list[str] = []
    for line in text.replace("\\\n", " ").splitlines():
        body = line.strip()
        if not body or body.startswith("#") or not _SHELL_WORTH.search(body):
            continue
        if "`" in body or "$" in _HOME_VAR.sub("", body):
            continue
        out.append(body)
    return out


def _deny(text: str, env: AnalysisEnv, tools: ShellTools) -> str | None:
    if not text.strip():
        return None
    analysis = tools.analyze(text, env)
    deny = [f for f in analysis.findings if f.severity >= Verdict.DENY]
    return f"would run {short(text)}: {deny[0].message}" if deny else None


def _first_deny(lines: list[str], env: AnalysisEnv, tools: ShellTools) -> str | None:
    for line in lines[:_MAX_COMMANDS]:
        why = _deny(line, env, tools)
        if why is not None:
            return why
    return None


def _commands(report: CodeReport) -> list[str]:
    return [*report.shell, *(shlex.join(argv) for argv in report.argvs)]


_SYNTHETIC: Final = re.compile(r"""^(?:env \| curl --data-binary @- |curl -d "\$\w+" |curl --data-binary '?@|"""
                               r"""curl -s \S+ \| (?:node|ruby|perl|php)$)""")
"""Commands a code analysis writes for two things the code does anywhere in its text: it reads files or
the environment and it sends data (``env | curl …``), it evaluates code and it downloads (``curl -s u |
node``). In a one-liner the two are one act; in a whole module they may be a test that copies
``os.environ`` and another that opens a socket, far apart. So in a source file such a command only
counts when it holds within one function (Python) or one stretch of the text (the others)."""


def _split(report: CodeReport, env: AnalysisEnv, tools: ShellTools) -> tuple[str | None, bool]:
    """The deny among the commands the code runs itself, and whether the synthetic ones deny too."""
    found = _commands(report)
    why = _first_deny([c for c in found if not _SYNTHETIC.match(c)], env, tools)
    synthetic = [c for c in found if _SYNTHETIC.match(c)]
    return why, why is None and bool(synthetic) and _first_deny(synthetic, env, tools) is not None


def _synthetic_deny(report: CodeReport, env: AnalysisEnv, tools: ShellTools) -> str | None:
    return _first_deny([c for c in _commands(report) if _SYNTHETIC.match(c)], env, tools)


def _literal(text: str, language: str, env: AnalysisEnv, tools: ShellTools) -> str | None:
    """JavaScript or Ruby: the literal commands and deletes of ``node -e``'s and ``ruby -e``'s reader."""
    why, confirm = _split(analyze_literal_code(text, language), env, tools)
    if why is not None or not confirm:
        return why
    text = _without_comments(text, language)  # documentation that shows `process.env.TOKEN` runs nothing
    for at in range(0, max(len(text) - _WINDOW // 2, 1), _WINDOW // 2):
        if at // (_WINDOW // 2) >= _MAX_CHUNKS:
            break
        window = text[at:at + _WINDOW]
        found = [c for c in _commands(analyze_literal_code(window, language)) if _SYNTHETIC.match(c)]
        if not _SENDS_DATA.search(window):  # `env = process.env` near a `connect`: no data is sent
            found = [c for c in found if not c.startswith("env | ")]
        why = _first_deny(found, env, tools)
        if why is not None:
            return why
    return None


_SENDS_DATA: Final = re.compile(r"\b(?:body|send\w*|write|post|data|stringify|payload|puts|print)\b", re.I)


_JS_COMMENT = re.compile(r"""(?P<keep>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`)|/\*.*?\*/|//[^\n]*""",
                         re.S)
_RUBY_COMMENT: Final = re.compile(r"^[ \t]*#[^\n]*$|^=begin\b.*?^=end\b[^\n]*", re.M | re.S)


def _without_comments(text: str, language: str) -> str:
    """The text without its comments, strings kept (only the synthetic commands are read in it, so a
    misread string cannot hide a command the code runs)."""
    if language == "ruby":
        return _RUBY_COMMENT.sub("", text)
    return _JS_COMMENT.sub(lambda m: m.group("keep") or " ", text)


def _unparsed(report: CodeReport) -> bool:
    return any("does not parse" in p or "too deeply" in p for p in report.problems)


def _python(code: str, env: AnalysisEnv, tools: ShellTools, cell: bool = False) -> str | None:
    """The commands the module runs (``analyze_python``); a fragment that does not parse (an Edit of a
    function's body, a file mid-rewrite, a very long file) is read a line at a time, for the lines that
    call something that runs or deletes."""
    report = analyze_python(code) if len(code) <= _MAX_CHARS else None
    if report is not None and _unparsed(report):
        dedented = textwrap.dedent(code)
        if dedented != code:
            report, code = analyze_python(dedented), dedented
    if report is not None and not _unparsed(report):
        why, confirm = _split(report, env, tools)
        if confirm and cell:  # the cell as a whole is the unit: its synthetic flows stand as they are
            return _synthetic_deny(report, env, tools)
        return _python_chunks(code, env, tools) if confirm else why
    lines = [line.strip() for line in code.splitlines() if _PY_SINK_LINE.search(line)]
    for line in lines[:_MAX_LINES]:
        line_report = analyze_python(line.rstrip(",;"))
        if not _unparsed(line_report):
            why = _first_deny(_commands(line_report), env, tools)
            if why is not None:
                return why
    return None


_SENDS = re.compile(r"socket|request|urlopen|http|post|put\(|send|upload|smtp|ftp|paramiko|boto|grpc|websocket|aiohttp",
                    re.I)
_READS = re.compile(r"environ|getenv|open\(|read_text|read_bytes|expanduser|home\(|~|\.ssh|\.aws|\.env\b|exec|eval")


def _segment(lines: list[str], node: ast.stmt) -> str:
    """The source lines of ``node`` with its decorators (``ast.get_source_segment`` splits the whole
    file at every call)."""
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return textwrap.dedent("\n".join(lines[start - 1:node.end_lineno or node.lineno]))


def _python_chunks(code: str, env: AnalysisEnv, tools: ShellTools) -> str | None:
    """A synthetic command that holds within one top-level statement, function or method (with the
    module's imports): reading a secret and sending it in the same function is the one-liner's act."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    lines = code.splitlines()
    imports: list[str] = []
    chunks: list[str] = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            imports.append(_segment(lines, stmt))
        elif isinstance(stmt, ast.ClassDef):
            chunks.extend(_segment(lines, s) for s in stmt.body)
        else:
            chunks.append(_segment(lines, stmt))
    head = "\n".join(imports)
    for chunk in chunks[:_MAX_CHUNKS]:
        if _SENDS.search(chunk) and _READS.search(chunk):
            why = _synthetic_deny(analyze_python(head + "\n" + chunk), env, tools)
            if why is not None:
                return why
    return None


__all__ = ["SOURCE_LANGUAGES", "shell_lines", "source_deny"]
