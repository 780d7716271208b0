"""Code of languages the gate has no model of (Elixir, Erlang, Lisp and Scheme, Haskell, Prolog, Octave, Tcl,
Julia, Java's shells, configuration-management one-liners), read for what the shell would call the same
thing: a command it hands to a shell or runs as an argv, a recursive delete of a literal path. Everything
else in such code stays unread, so the call asks; what is found gets the verdict it gets written plainly
(``rm -rf ~/proj`` → deny). ``programs.foreign.FOREIGN`` lists the programs and the options that take code.
"""
from __future__ import annotations

import re
import shlex
from typing import Final

from phlegyas.analysis.shell.interpreters.code_flows import code_flows, home_literals

_Q: Final = r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'"
_SHELL_CALLS: Final = re.compile(
    r"(?:\bos:cmd|:os\.cmd|\bsystem|\bshell|\bexec|\bshell-command|\buiop:run-program|\brun-program|"
    r"\bprocess\s*\(|Runtime\.getRuntime\(\)\.exec|\bcallCommand|\bsystem\.run|\bcmd\.run|\bexecute|"
    r"command\s*=>)\s*\(?\s*(?:" + _Q + r")")
_ARGV_CALLS: Final = re.compile(r"(?:System\.cmd|exec\.Command|\bsystem\*|\brun-program|ProcessBuilder|\bproc)\s*\(?\s*((?:(?:"
                                + _Q + r")[\s,\[\]'(]*){2,})")
_STRINGS: Final = re.compile(_Q)
_DELETES: Final = re.compile(
    r"(?:File\.rm_rf!?|delete-directory-tree|delete-directory/files|removeDirectoryRecursive|"
    r"FileUtils\.deleteDirectory|deleteRecursively|rmtree|rm_rf|rmdir|Directory\.Delete|remove_all|os\.RemoveAll|rm)\s*\(?\s*\[?\s*"
    r"(?:#p)?(?:\(?(?:Path\.expand|expand-user-path)\s*\(?\s*)?\"([^\"]+)\"")
_EXECUTE: Final = re.compile(r"(?:" + _Q + r")\s*\.execute\(\)")
_TCL_EXEC: Final = re.compile(r"\bexec\s+((?:[^\]\};\n])+)")


def foreign_commands(program: str, code: str) -> list[str]:
    """The shell command lines ``code`` (of ``program``'s language) amounts to, where it says one."""
    code = home_literals(code)
    out: list[str] = code_flows(code)
    for m in _SHELL_CALLS.finditer(code):
        out.append(_unescape(m.group(1) if m.group(1) is not None else m.group(2)))
    for m in _ARGV_CALLS.finditer(code):
        words = [_unescape(a if a else b) for a, b in _STRINGS.findall(m.group(1))]
        if len(words) >= 3 and words[1] == "-c" and words[0].rsplit("/", 1)[-1] in ("sh", "bash", "zsh", "dash"):
            out.append(words[2])
        elif words:
            out.append(shlex.join(words))
    out.extend(_unescape(a or b) for a, b in _EXECUTE.findall(code))  # Groovy's `"rm -rf x".execute()`
    for m in _DELETES.finditer(code):
        out.append("rm -rf -- " + _path(m.group(1)))
    if program in ("tclsh", "wish", "expect"):
        out.extend(m.group(1).strip() for m in _TCL_EXEC.finditer(code))
    return out[:50]


def _path(text: str) -> str:
    """A path of the code as a shell word: ``~`` and ``$HOME`` keep their meaning, anything else is quoted."""
    if text.startswith("~/") or text == "~":
        return "~" + shlex.quote(text[1:]) if len(text) > 1 else "~"
    if text.startswith("$HOME"):
        rest = text.split("/", 1)[1] if "/" in text else ""
        return '"$HOME"/' + shlex.quote(rest) if rest else '"$HOME"'
    return shlex.quote(text)


def _unescape(text: str) -> str:
    return text.replace('\\"', '"').replace("\\'", "'").replace("\\\\", "\\")


__all__ = ["foreign_commands"]
