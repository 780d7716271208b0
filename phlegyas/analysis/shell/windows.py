"""The code a Windows shell is given (``cmd /c …``, ``powershell -Command …``, ``pwsh -EncodedCommand …``):
read as Windows reads it, not as bash would.

Backslashes are path separators, not escapes (``C:\\Users\\u``); statements end at ``;``, ``&``, ``&&``,
``||`` and newlines; each statement's words are handed to the analysis as one command (PowerShell's
names are case-free: ``Remove-Item`` is ``remove-item``). ``Get-ChildItem X | Remove-Item`` deletes what
the listing finds: ``X\\*``. ``iex (iwr URL)`` — ``Invoke-Expression`` of a download — is remote code,
read as ``curl URL | sh`` is. An ``-EncodedCommand`` is base64 of UTF-16LE text, decoded first.
"""
from __future__ import annotations

import base64
import binascii
import re
from typing import Final

from phlegyas.analysis.shell.expansion import Walk

_TOKEN: Final = re.compile(r'"([^"]*)"|\'([^\']*)\'|(\S+)')
_STATEMENT_SPLIT: Final = re.compile(r"\r?\n|;|&&|\|\||(?<![&>0-9])&(?!&)")
_BASE64: Final = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")
_DOWNLOADS: Final = re.compile(r"\b(?:iwr|irm|curl|wget|invoke-webrequest|invoke-restmethod|downloadstring|"
                               r"downloadfile|net\.webclient|start-bitstransfer)\b", re.IGNORECASE)
_URL: Final = re.compile(r"https?://[^\s'\")]+", re.IGNORECASE)
_EVALUATORS: Final = frozenset({"iex", "invoke-expression"})
_LISTERS: Final = frozenset({"get-childitem", "gci", "ls", "dir", "get-item", "gi"})
_REMOVERS: Final = frozenset({"remove-item", "ri", "rm", "del", "erase", "rd", "rmdir"})
MAX_STATEMENTS: Final = 32


def decoded(text: str) -> str:
    """``text``, or what it stands for when it is an ``-EncodedCommand`` (base64 of UTF-16LE)."""
    body = text.strip()
    if not _BASE64.fullmatch(body):
        return text
    try:
        raw = base64.b64decode(body, validate=True)
        out = raw.decode("utf-16-le")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return text
    return out if out.isprintable() or "\n" in out else text


def windows_command(args: list[str], lang: str) -> tuple[str | None, str | None]:
    """(code, script) of ``cmd ARGS`` (``/c CODE…``, ``/k CODE…``) or ``powershell ARGS`` (``-Command CODE…``,
    ``-EncodedCommand B64``, ``-File SCRIPT``; options are case-free and may be cut short): what it runs,
    or (None, None) when it only starts a shell."""
    i = 0
    while i < len(args):
        low = args[i].lower()
        if lang == "cmd":
            if low in ("/c", "/k", "/r"):
                return " ".join(args[i + 1:]), None
        elif not low.startswith("-"):
            return " ".join(args[i:]), None  # PowerShell takes its first bare words as the command
        elif low in ("-e", "-ec") or len(low) >= 4 and "-encodedcommand".startswith(low):
            return (args[i + 1] if i + 1 < len(args) else ""), None
        elif low == "-c" or len(low) >= 3 and "-command".startswith(low):
            return " ".join(args[i + 1:]), None
        elif low == "-f" or len(low) >= 3 and "-file".startswith(low):
            return None, args[i + 1] if i + 1 < len(args) else None
        elif low in _POWERSHELL_VALUES or any(len(low) >= 4 and v.startswith(low) for v in _POWERSHELL_VALUES):
            i += 1  # its value
        i += 1
    return None, None


_POWERSHELL_VALUES: Final = ("-executionpolicy", "-ep", "-windowstyle", "-configurationname", "-outputformat",
                             "-inputformat", "-version", "-psconsolefile", "-workingdirectory")


def windows_code(ex: Walk, text: str, via: tuple[str, ...], depth: int, remote: bool) -> None:
    """Hand each statement of Windows shell ``text`` to the analysis as a command of its own."""
    text = decoded(text)
    for statement in _STATEMENT_SPLIT.split(text)[:MAX_STATEMENTS]:
        stages = [_words(s) for s in statement.split("|")]
        for i, words in enumerate(stages):
            if not words:
                continue
            head = words[0].lower()
            if head in _EVALUATORS or head.startswith(("iex(", "invoke-expression(")):
                _evaluate(ex, statement, via, depth, remote)
                continue
            if i and head in _REMOVERS and not any(not w.startswith(("-", "/")) for w in words[1:]):
                listed = stages[i - 1]
                paths = [w for w in listed[1:] if not w.startswith("-")] if listed and listed[0].lower() in _LISTERS \
                    else []
                if paths:
                    words = [*words, paths[0].rstrip("\\/") + "\\*"]
            ex.synthetic([head, *words[1:]], via, depth, remote)
            if head in _REMOVERS and (gone := _posix_delete(words)):  # pwsh on Linux: `-Path $HOME/proj,~/.ssh`
                ex.synthetic(gone, via + (f"{words[0]} of POSIX paths",), depth, remote)


_PATH_OPTS: Final = frozenset({"-path", "-literalpath", "-lp", "-pspath"})
_HOME: Final = re.compile(r"^(?:\$home|\$\{?env:(?:home|userprofile)\}?|~)(?=[/\\]|$)", re.IGNORECASE)


def _posix_delete(words: list[str]) -> list[str]:
    """``Remove-Item -Recurse -Force -Path $HOME/proj,/srv``: the ``rm -rf -- ~/proj /srv`` it is where
    PowerShell runs on Linux or macOS (the paths that start with ``/``, ``~`` or the home variables)."""
    paths: list[str] = []
    recursive = force = False
    skip = False
    for i, w in enumerate(words[1:], 1):
        low = w.lower()
        if skip:
            skip = False
            continue
        if low.startswith("-") and len(low) > 1:
            recursive = recursive or "-recurse".startswith(low) and len(low) >= 2
            force = force or low in ("-force", "-fo")
            if low in _PATH_OPTS or low in ("-include", "-exclude", "-filter"):
                skip = low not in _PATH_OPTS
                continue
            continue
        for part in w.split(","):
            part = _HOME.sub("~", part.strip().strip("'\""))
            if part.startswith(("/", "~")):
                paths.append(part.replace("\\", "/"))
    if not paths:
        return []
    return ["rm", "-" + ("r" if recursive else "") + ("f" if force else ""), "--", *paths] if recursive or force \
        else ["rm", "--", *paths]


def _evaluate(ex: Walk, statement: str, via: tuple[str, ...], depth: int, remote: bool) -> None:
    """``iex (iwr URL)``: evaluating what a download brings is running remote code."""
    if _DOWNLOADS.search(statement):
        url = _URL.search(statement)
        ex.nested(f"curl -s {url.group() if url else 'https://unknown.invalid/'} | sh",
                  via + ("Invoke-Expression of a download",), depth, remote)
    else:
        ex.problem("Invoke-Expression of computed PowerShell code")


def _words(text: str) -> list[str]:
    out = []
    for m in _TOKEN.finditer(text):
        out.append(next(g for g in m.groups() if g is not None))
    return [w for w in out if w not in ("(", ")")]


__all__ = ["decoded", "windows_code"]
