"""A parsed Bash command as the strings rules are matched against: for allow rules, each subcommand
with harmless wrappers (``timeout``, ``nohup`` …) peeled off and its redirections; for deny and ask
rules, every form of it, through ``sudo``, ``env``, ``/bin/rm`` → ``rm`` and the scripts that
``bash -c``, ``eval`` or a heredoc fed to a shell run.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from phlegyas.analysis.shell.parse import parse

NEUTRAL = object()  # an assignment-only command (x=1): it needs no rule of its own


@dataclass(frozen=True)
class _Wrapper:
    """How to skip a wrapper's own options: those taking no value, those taking one, and how many
    operands follow them (``timeout``'s duration). ``lenient`` skips unknown options too."""

    flags: frozenset[str] = frozenset()
    valued: frozenset[str] = frozenset()
    operands: int = 0
    lenient: bool = False
    numeric: bool = False  # `nice -10`
    assignments: bool = False  # `env A=1 cmd`


def _w(flags: str = "", valued: str = "", **kw) -> _Wrapper:
    return _Wrapper(frozenset(flags.split()), frozenset(valued.split()), **kw)


ALLOW_WRAPPERS = {
    "timeout": _w("--preserve-status --foreground -v --verbose", "-s --signal -k --kill-after", operands=1),
    "time": _w("-p"),
    "nice": _w("", "-n --adjustment", numeric=True),
    "nohup": _w(),
    "stdbuf": _w("", "-i -o -e --input --output --error"),
    "command": _w("-p"),
    "builtin": _w(),
    "noglob": _w(),
    "xargs": _w(),
}
"""Wrappers peeled before an allow rule is matched; an option not listed here stops the peeling."""

DENY_WRAPPERS = {
    **{name: _Wrapper(w.flags, w.valued, w.operands, name != "command", w.numeric)  # `command -v rm` runs nothing
       for name, w in ALLOW_WRAPPERS.items()},
    "sudo": _w("", "-u --user -g --group -h --host -p --prompt -C --close-from -D --chdir -r --role "
                   "-t --type -U --other-user -T --command-timeout", lenient=True, assignments=True),
    "doas": _w("", "-u -C", lenient=True),
    "env": _w("", "-u --unset -C --chdir -S --split-string", lenient=True, assignments=True),
    "exec": _w("", "-a", lenient=True),
    "xargs": _w("", "-a --arg-file -d --delimiter -E --eof -I --replace -L --max-lines -n --max-args "
                    "-P --max-procs -s --max-chars --process-slot-var", lenient=True),
    "ionice": _w("", "-c --class -n --classdata", lenient=True),
    "chronic": _w(lenient=True),
    "unbuffer": _w(lenient=True),
}
"""Deny and ask rules also look through these, so ``sudo rm -rf x`` cannot dodge ``Bash(rm *)``."""

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash"})
MAX_INNER_DEPTH = 4

RISKY_ASSIGNMENTS = frozenset({
    "PATH", "IFS", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "PYTHONPATH",
    "PYTHONSTARTUP", "PYTHONHOME", "NODE_OPTIONS", "NODE_PATH", "PERL5OPT", "PERL5LIB", "RUBYOPT",
    "RUBYLIB", "PAGER", "EDITOR", "VISUAL", "LESSOPEN", "LESSCLOSE", "MANPAGER", "BROWSER", "SSH_ASKPASS",
    "SUDO_ASKPASS", "ZDOTDIR", "HOME",
})
RISKY_ASSIGNMENT_PREFIXES = ("LD_", "DYLD_", "GIT_", "BASH_FUNC_")
"""Assignments that change which program runs or make it run other code: ``PATH=/tmp git log`` or
``GIT_EXTERNAL_DIFF=x git diff`` is not the ``git`` an allow rule had in mind."""


def _risky_assignment(name: str) -> bool:
    return name in RISKY_ASSIGNMENTS or name.startswith(RISKY_ASSIGNMENT_PREFIXES)


def _skip_options(words: list, i: int, spec: _Wrapper) -> int | None:
    """Index of the first word after a wrapper's options and operands, or None if not understood."""
    n = len(words)
    while i < n:
        if words[i].dynamic:
            return None if not spec.lenient else i
        text = words[i].text
        if spec.assignments and _is_assignment(text):
            i += 1
            continue
        if text == "--":
            i += 1
            break
        if not text.startswith("-") or text == "-":
            break
        step = _option_width(text, words[i + 1] if i + 1 < n else None, spec)
        if step is None:
            return None
        i += step
    for _ in range(spec.operands):
        if i >= n or words[i].dynamic or not re.fullmatch(r"\d+(?:\.\d+)?[smhd]?", words[i].text):
            return None
        i += 1
    return i


def _option_width(text: str, following, spec: _Wrapper) -> int | None:
    """How many words one option takes (1 or 2), or None if the option is unknown."""
    if text in spec.flags:
        return 1
    if text in spec.valued:
        return 2 if following is not None else None
    if text.startswith("--"):
        name = text.split("=", 1)[0]
        if "=" in text and name in spec.valued:
            return 1
        return 1 if spec.lenient else None
    if spec.numeric and re.fullmatch(r"-\d+", text):
        return 1
    for k in range(1, len(text)):  # a cluster of short options: `-sKILL`, `-Eu root`, `-oL`
        option = "-" + text[k]
        if option in spec.valued:
            if k + 1 < len(text):
                return 1
            return 2 if following is not None else None
        if option not in spec.flags and not spec.lenient:
            return None
    return 1


def _is_assignment(text: str) -> bool:
    name, eq, _ = text.partition("=")
    return bool(eq) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) is not None


def _peel(words: list, table: dict[str, _Wrapper], *, basename: bool = False) -> Iterator[list]:
    """``words``, then what is left after each wrapper is peeled off, outermost first. ``basename``:
    also know a wrapper by its path (``/usr/bin/sudo``)."""
    yield words
    for _ in range(16):
        if not words or words[0].dynamic:
            return
        name = words[0].text
        spec = table.get(name.rsplit("/", 1)[-1] if basename else name)
        if spec is None:
            return
        start = _skip_options(words, 1, spec)
        if start is None or start >= len(words):
            return
        words = words[start:]
        yield words


def _redirects_text(cmd, *, skip_harmless: bool = False) -> str:
    """The redirections of ``cmd`` as text (``2>&1 >out.txt``), appended to what a rule must match so
    that ``Bash(git status)`` does not allow ``git status > ~/.profile``."""
    parts = []
    for r in cmd.redirects:
        target = r.target.text if r.target is not None else ""
        if skip_harmless and _harmless_redirect(r.op, target, r.target):
            continue
        parts.append(f"{r.fd or ''}{r.op}{target}")
    return " ".join(parts)


def _harmless_redirect(op: str, target: str, word) -> bool:
    """``2>&1``, ``>&-`` and ``>/dev/null`` write no file; an allow rule need not spell them out."""
    if word is None or word.dynamic:
        return False
    if op in (">&", "<&"):
        return target.isdigit() or target == "-"
    return target == "/dev/null" and op in (">", ">>", "&>", "&>>", ">|")


def allow_string(cmd):
    """The string an allow rule must match for one simple command; NEUTRAL for ``x=1`` alone; None
    when no allow rule may match it (dynamic program, an assignment that changes what runs)."""
    if any(_risky_assignment(name) for name, _ in cmd.assignments):
        return None
    if not cmd.words:
        return NEUTRAL
    words = list(_peel(cmd.words, ALLOW_WRAPPERS))[-1]
    first = words[0]
    if first.dynamic or first.glob or not first.text:
        return None
    text = " ".join(w.text for w in words)
    redirects = _redirects_text(cmd, skip_harmless=True)
    return f"{text} {redirects}" if redirects else text


def script_deny_strings(script, depth: int) -> Iterator[str]:
    source = script.source.strip()
    if source:
        yield source  # the command line as written, so an unparsed part cannot hide from a deny rule
        yield " ".join(source.split())
    for cmd in script.commands:
        yield from _command_deny_strings(cmd, depth)


def _command_deny_strings(cmd, depth: int) -> Iterator[str]:
    redirects = _redirects_text(cmd)
    if not cmd.words:
        return
    for words in _peel(cmd.words, DENY_WRAPPERS, basename=True):
        if words[0].dynamic:
            continue
        texts = [w.text for w in words]
        forms = [" ".join(texts)]
        base = texts[0].rsplit("/", 1)[-1]
        if base and base != texts[0]:
            forms.append(" ".join([base, *texts[1:]]))  # /bin/rm → rm
        for form in forms:
            yield form
            if redirects:
                yield f"{form} {redirects}"
        inner = _inner_script(words, cmd)
        if inner is not None and depth < MAX_INNER_DEPTH:
            yield from script_deny_strings(parse(inner), depth + 1)


def _inner_script(words: list, cmd) -> str | None:
    """The script a ``bash -c STR``, ``eval …`` or ``bash <<EOF`` runs, when it is written out."""
    program = words[0].text.rsplit("/", 1)[-1]
    if program == "eval":
        rest = words[1:]
        return " ".join(w.text for w in rest) if rest and not any(w.dynamic for w in rest) else None
    if program not in SHELLS:
        return None
    i, has_c = 1, False
    while i < len(words) and not words[i].dynamic:
        text = words[i].text
        if text in ("-o", "+o", "-O", "+O"):
            i += 2
        elif text.startswith(("-", "+")) and len(text) > 1 and not text.startswith("--"):
            has_c = has_c or "c" in text[1:]
            i += 1
        elif text.startswith("--"):
            i += 1
        else:
            break
    if has_c:
        return words[i].text if i < len(words) and not words[i].dynamic else None
    if i >= len(words) and cmd.stdin_text is not None and not cmd.stdin_dynamic:
        return cmd.stdin_text  # a heredoc or here-string fed to a shell
    return None
