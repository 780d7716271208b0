"""Helpers shared by the Tier 1 detectors: findings, option parsing, production markers, program
families and what flows into a command's stdin."""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, replace
from typing import Final

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Word, parse
from phlegyas.analysis.shell.stdin import DECODERS, literal_output
from phlegyas.analysis.tier1.catalog import CLASSES
from phlegyas.analysis.tier1.words import KNOWN_PREFIXES, resolve
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding, Verdict

Out = list[Finding]

REMOTE_PROJECT: Final = "/\x00remote"
"""The project root used for commands that run on another host: nothing there is inside the project."""


def subject(inv: Invocation) -> str:
    """The source text of an invocation (what a Finding is about)."""
    return inv.command.text or " ".join(inv.argv)


def add(out: Out, class_id: str, about: Invocation | str, message: str, severity: Verdict | None = None) -> None:
    """Append a finding of ``class_id``; ``severity`` defaults to the class's."""
    level = CLASSES[class_id].severity if severity is None else severity
    text = about if isinstance(about, str) else subject(about)
    out.append(Finding(class_id, level, text, message))


def env_for(inv: Invocation, env: AnalysisEnv) -> AnalysisEnv:
    """The environment paths of ``inv`` resolve in: a remote command has no project and starts in ~."""
    if inv.remote:
        return replace(env, cwd=env.home, project_root=REMOTE_PROJECT)
    return env


# -- options ------------------------------------------------------------------------------------------


@dataclass(slots=True, init=False)
class Opts:
    """Options and operands of one invocation, as a getopt-style parser sees them."""

    flags: dict[str, list[str | None]]
    operands: list[Word]
    maybe_flags: bool = False  # an unquoted dynamic word could expand to options

    def __init__(self, flags: dict[str, list[str | None]], operands: list[Word], maybe_flags: bool = False) -> None:
        self.flags = flags  # hand-written: mypyc compiles it (see shell.syntax)
        self.operands = operands
        self.maybe_flags = maybe_flags

    def has(self, *names: str) -> bool:
        return any(n in self.flags for n in names)

    def values(self, *names: str) -> list[str]:
        return [v for n in names for v in self.flags.get(n, ()) if v is not None]

    def first(self, *names: str) -> str | None:
        got = self.values(*names)
        return got[0] if got else None


def parse_opts(args: list[Word], short_values: str = "", long_values: frozenset[str] | tuple = (),
               known_long: tuple[str, ...] = (), stop_at_operand: bool = False) -> Opts:
    """Split ``args`` into options and operands.

    ``short_values`` are the short options that take a value (``-oFILE`` or ``-o FILE``);
    ``long_values`` the long ones (``--out=F`` or ``--out F``). ``known_long`` lets unique prefixes
    (``--recur``) resolve to their full name, as GNU getopt does. ``--`` ends the options; with
    ``stop_at_operand`` so does the first operand (POSIX order).
    """
    flags: dict[str, list[str | None]] = {}
    operands: list[Word] = []
    maybe = False
    i, n = 0, len(args)
    while i < n:
        w = args[i]
        t = w.text
        i += 1
        if w.dynamic and not w.quoted and t[:1] in "$`" and not t.startswith(KNOWN_PREFIXES):
            maybe = True  # `rm $ARGS x`: the variable may hold options
        if len(t) < 2 or t[0] != "-" or w.dynamic and not t.startswith("-"):
            operands.append(w)
            if stop_at_operand:
                operands.extend(args[i:])
                break
            continue
        if t == "--":
            operands.extend(args[i:])
            break
        if t.startswith("--"):
            name, eq, value = t.partition("=")
            name = _resolve_long(name, known_long)
            if eq:
                flags.setdefault(name, []).append(value)
            elif name in long_values and i < n:
                flags.setdefault(name, []).append(args[i].text)
                i += 1
            else:
                flags.setdefault(name, []).append(None)
            continue
        j = 1
        while j < len(t):
            letter = "-" + t[j]
            if t[j] in short_values:
                rest = t[j + 1:]
                if rest:
                    flags.setdefault(letter, []).append(rest)
                elif i < n:
                    flags.setdefault(letter, []).append(args[i].text)
                    i += 1
                else:
                    flags.setdefault(letter, []).append(None)
                break
            flags.setdefault(letter, []).append(None)
            j += 1
    return Opts(flags, operands, maybe)


def _resolve_long(name: str, known: tuple[str, ...]) -> str:
    if not known or name in known:
        return name
    hits = [k for k in known if k.startswith(name)]
    return hits[0] if len(hits) == 1 else name


# -- production markers ------------------------------------------------------------------------------

_TOKEN_SPLIT: Final = re.compile(r"[^a-z0-9]+")
_PROD: Final = re.compile(r"(prod|production|prd)\d*")


def is_prod(text: str) -> bool:
    """``text`` names a production target: a token ``prod``, ``production``, ``prd`` (``prod2``,
    ``values-prod.yaml``, ``db.production.example.com``), not ``product`` or ``produce``."""
    low = text.lower()
    if "pr" not in low:
        return False
    return any(_PROD.fullmatch(tok) for tok in _TOKEN_SPLIT.split(low))


def prod_words(inv: Invocation) -> list[str]:
    """Arguments and ``VAR=value`` assignments of ``inv`` that name production."""
    found = [w.text for w in inv.args if is_prod(w.text)]
    found.extend(f"{k}={v.text}" for k, v in inv.command.assignments if is_prod(v.text))
    return found


# -- programs ----------------------------------------------------------------------------------------

SHELLS: Final = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "busybox"})
INTERPRETERS: Final = frozenset({
    "python", "python2", "python3", "pypy", "pypy3", "perl", "ruby", "node", "nodejs", "php", "lua",
    "luajit", "bun", "deno", "tclsh", "Rscript", "R", "julia", "jjs", "jrunscript", "osascript", "irb", "pwsh",
    "powershell", "groovy", "scala", "elixir", "guile", "racket", "sbcl", "clisp",
})
RUNS_ANYTHING: Final = SHELLS | INTERPRETERS | frozenset({
    "vim", "vi", "nvim", "view", "rvim", "rview", "vimdiff", "emacs", "gdb", "env", "find", "tar", "rsync", "less",
    "more", "nano", "ed", "awk", "gawk", "mawk", "tclsh", "wish", "expect", "docker", "openssl", "dd", "cp", "mv",
    "chmod", "chown", "busybox", "strace", "ltrace", "make", "git", "ssh", "sed", "pip", "pip3", "npm",
})
"""Programs that run whatever they are asked to: given setuid or a root capability, root for anyone."""
NET_SOURCES: Final = frozenset({
    "curl", "wget", "fetch", "nc", "ncat", "netcat", "http", "https", "httpie", "xh", "aria2c",
    "lwp-request", "lwp-download", "GET", "POST", "ftp", "tftp", "telnet", "socat", "openssl", "ssh",
    "wget2", "curlie", "axel", "dig", "kdig", "host", "nslookup", "drill", "delv", "doggo",  # DNS answers (TXT …)
})


RSYNC_SHORT_VALUES: Final = "eTBfM"
RSYNC_LONG_VALUES: Final = frozenset({
    "--exclude", "--include", "--filter", "--files-from", "--exclude-from", "--include-from", "--rsh",
    "--rsync-path", "--chmod", "--chown", "--backup-dir", "--suffix", "--log-file", "--partial-dir", "--temp-dir",
    "--compare-dest", "--copy-dest", "--link-dest", "--password-file", "--port", "--bwlimit", "--timeout",
    "--max-size", "--min-size", "--out-format"})


def program_of(inv_program: str) -> str:
    """``python3.11`` → ``python3``; ``mkfs.ext4`` → ``mkfs``: the key the dispatch table uses."""
    return inv_program.split(".", 1)[0]


def upstream_closure(inv: Invocation, limit: int = 32) -> list[Invocation]:
    """Every invocation whose output reaches ``inv``'s stdin, through any number of pipes."""
    seen: list[Invocation] = []
    todo = list(inv.upstream)
    while todo and len(seen) < limit:
        cur = todo.pop()
        if any(cur is s for s in seen):
            continue
        seen.append(cur)
        todo.extend(cur.upstream)
    return seen


_PRINTERS: Final = frozenset({"echo", "printf"})
_PASS_THROUGH: Final = frozenset({"cat", "tee", "head", "tail", "grep", "sed", "envsubst", "tr"})


def piped_text(inv: Invocation) -> tuple[list[str], bool]:
    """The literal text ``inv`` reads on stdin (heredoc, here-string, ``echo …|``, ``cat <<EOF|``), and
    whether some of its input is unknown (a file redirected in, another program's output)."""
    texts: list[str] = []
    unknown = any(r.op == "<" for r in inv.command.redirects)
    if inv.stdin_text is not None:
        texts.append(inv.stdin_text)
    for up in inv.upstream:
        decoded = literal_output(up)[0] if up.program in DECODERS else None
        if decoded is not None:  # `echo RFJPUCBU… | base64 -d | mysql`: the statements in the clear
            texts.append(decoded)
        elif up.program in _PRINTERS and (printed := literal_output(up)[0]) is not None:
            texts.append(printed)  # `printf '#!/bin/sh\\ncurl … | sh\\n' | tee hook`: the lines it prints
        elif up.program in _PRINTERS:
            texts.append(" ".join(w.text for w in up.args if w.text not in ("-n", "-e", "-E", "-ne", "-en")))
        elif up.program in _PASS_THROUGH and (up.stdin_text is not None or up.upstream):
            inner, more = piped_text(up)
            texts.extend(inner)
            unknown |= more
        else:
            unknown = True
    return texts, unknown


_FILE_TEXT_LIMIT: Final = 1024 * 1024


def given_text(text: str, env: AnalysisEnv) -> str | None:
    """What a program reads from the file word ``text`` (``psql -f FILE``): the literal output of a process
    substitution of ``echo``/``printf``/``cat <<EOF`` (``<(echo 'DROP TABLE t')``), or the content of a
    literal regular file (up to 1 MiB); None when it cannot be known (a computed word, another program's
    output, a file that is not there)."""
    if text.startswith("<(") and text.endswith(")"):
        return _printed(text[2:-1])
    if not text or text == "-" or "$" in text or "`" in text:
        return None
    path = resolve(text, env)
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > _FILE_TEXT_LIMIT:
            return None
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read(_FILE_TEXT_LIMIT)
    except (OSError, ValueError):
        return None


def _printed(code: str) -> str | None:
    """The text a command line prints when it only prints literals (``echo``, ``printf``, ``cat`` of a heredoc)."""
    script = parse(code)
    if script.problems or not script.commands:
        return None
    out: list[str] = []
    for cmd in script.commands:
        if any(w.dynamic for w in cmd.words) or cmd.redirects and cmd.stdin_text is None:
            return None
        prog = cmd.program
        if prog in _PRINTERS:
            out.append(" ".join(w.text for w in cmd.words[1:] if w.text not in ("-n", "-e", "-E", "-ne", "-en")))
        elif prog == "cat" and len(cmd.words) == 1 and cmd.stdin_text is not None:
            out.append(cmd.stdin_text)
        else:
            return None
    return "\n".join(out)
