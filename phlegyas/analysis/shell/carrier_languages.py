"""The command languages of some carriers (``programs.carriers``' ``language``), beyond the editors and
debuggers ``shell.carriers`` reads itself: only the parts that start a shell are shell code.

- ``ssh``: an ``-o`` setting of ``scp``/``sftp`` that runs a command here (``ProxyCommand``, ``LocalCommand``,
  ``KnownHostsCommand``).
- ``pager``: ``more``/``less``/``most``/``pg``'s ``+cmd`` operand is typed into the pager as keystrokes; ``!``
  runs the rest of the line through a shell, ``|X`` pipes to one (``X`` is a mark). A search (``+/pattern``)
  runs to the end of its line; ``+G``, ``+F``, ``+42`` run nothing.
- ``make``: ``SHELL=PROG`` (or ``MAKESHELL``) on the command line is the program every recipe line runs in,
  ``CC=…``, ``PYTHON=…`` and the other program variables the text recipes run in front of their arguments;
  ``--eval``/``-E`` text is makefile syntax: a recipe (after ``target:;`` or a tab) and ``$(shell …)`` are
  shell code, anything else is make code the gate does not read (the call asks); so is a makefile read
  from stdin (``-f -``, ``-f /dev/stdin``) when that input is literal (a here-string, heredoc or ``echo``).
- ``ed``: a line ``!cmd`` (also ``r !cmd``, ``w !cmd``, ``e !cmd``) of its literal input, or a file operand
  ``!cmd``, runs cmd.
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.programs.build import MAKE_PROGRAM_VARS
from phlegyas.analysis.shell.env_vars import harmless_command
from phlegyas.analysis.shell.expansion import Walk
from phlegyas.analysis.shell.parse import SimpleCommand, Word
from phlegyas.analysis.shell.stdin import stdin_text, substitution_output

_SSH_LOCAL: Final = frozenset({"proxycommand", "localcommand", "knownhostscommand"})
_MAKE_SHELL_FN: Final = re.compile(r"\$([({])shell\s+")
_MAKE_RULE: Final = re.compile(r"^([^=:#;\t][^=:#;]*)::?(?!=)([^=;#]*);(.*)$")
_MAKE_SHELL_VARS: Final = frozenset({"SHELL", "MAKESHELL"})
_MAKE_ENV: Final = re.compile(r"(?<!\$)\$[({](HOME|USER|PWD|TMPDIR)[)}]")  # make's `$(HOME)`: the shell's $HOME
_STDIN_FILES: Final = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_SSM_COMMAND: Final = re.compile(r'"((?:[^"\\]|\\.)*)"')
_TEX_SHELL: Final = re.compile(r"\\write18\s*\{([^{}]*)\}|\\input\s*\|\s*\"([^\"]*)\"")
_DC_BANG: Final = re.compile(r"!([^\n]+)")
_M4_SYSCMD: Final = re.compile(r"\besyscmd\(([^)]*)\)|\bsyscmd\(([^)]*)\)")
_ED_BANG: Final = re.compile(r"^[^A-Za-z!]*(?:[erwWE]\s*)?!(.*)$")


def language(ex: Walk, cmd: SimpleCommand, name: str, opts: list[tuple[str, Word | None]], operands: list[Word],
             via: tuple[str, ...], depth: int, remote: bool) -> bool:
    """Expand the shell code in a carrier's own language; whether any command was found."""
    codes: list[tuple[str, Word]] = []
    found = False
    if name == "ssh":
        for opt, value in opts:
            if opt == "-o" and value is not None:
                setting, command = ssh_setting(value.text)
                if setting in _SSH_LOCAL and command:
                    codes.append((f"-o {setting}", Word(command, value.dynamic)))
    elif name == "pager":
        for w in operands:
            if w.text.startswith("+"):
                codes.extend(("+cmd", Word(code, w.dynamic)) for code in pager_commands(w.text))
    elif name == "make":
        for w in operands:
            var, eq, assigned = w.text.partition("=")
            var = var.rstrip(":?+!")
            if eq and var in _MAKE_SHELL_VARS:
                codes.append((var, Word(assigned, w.dynamic)))
            elif eq and var in MAKE_PROGRAM_VARS and not harmless_command(var, assigned):
                codes.append((var, Word(assigned, w.dynamic)))  # `make 'CC=sh -c "…" #'`: recipes run `$(CC) …`
            elif eq and var.isidentifier():
                codes.extend((f"{var}=$(shell)", Word(c, w.dynamic)) for c in make_shell_calls(assigned))
        for opt, value in opts:
            if opt in ("--eval", "-E") and value is not None:
                found = True  # make code: never automatic
                codes.extend((opt, Word(c, value.dynamic)) for c in make_commands(value.text))
            elif opt in ("-f", "--file", "--makefile") and value is not None and value.text.startswith("<("):
                found = True  # `make -f <(printf 'all:\n\trm -rf ~\n')`: the makefile is what it prints
                produced = substitution_output("$(" + value.text[2:]) if value.text.endswith(")") else None
                if produced is not None:
                    codes.extend((f"{opt} <(…)", Word(c)) for c in make_commands(produced))
            elif opt in ("-f", "--file", "--makefile") and value is not None and not value.dynamic and ex.written \
                    and (made := ex.written.get(value.text[2:] if value.text.startswith("./") else value.text)):
                found = True  # `printf 'all:\n\trm -rf ~\n' > /tmp/Mk && make -f /tmp/Mk`: written in this line
                codes.extend((f"{opt} {value.text}", Word(c)) for c in make_commands(made))
            elif opt in ("-f", "--file", "--makefile") and value is not None and value.text in _STDIN_FILES:
                found = True  # the makefile is the literal input, if any: its recipes are shell code
                text, _ = stdin_text(cmd, ex.ups_of)
                if text is not None:
                    codes.extend((f"{opt} {value.text}", Word(c)) for c in make_commands(text))
    elif name == "ssm":  # `--parameters 'commands=["…","…"]'` or `'{"commands":["…"]}'`: each is shell code
        for w in [*operands, *(v for o, v in opts if v is not None)]:
            if "commands" in w.text:
                codes.extend(("commands", Word(c.encode().decode("unicode_escape", "replace"), w.dynamic))
                             for c in _SSM_COMMAND.findall(w.text.split("commands", 1)[1]))
    elif name == "kubeexec":  # `--exec-command=sh --exec-arg=-c --exec-arg='…'`: run by every kubectl call
        argv = [v for o, v in opts if o in ("--exec-command", "--exec-arg") and v is not None]
        if argv:
            found = True
            ex.invoke(cmd, argv, via + ("kubectl exec credential plugin",), depth, remote)
    elif name == "tex":  # `\write18{cmd}` (with -shell-escape it runs), `\input|"cmd"` (piped input)
        for w in operands:
            codes.extend(("\\write18", Word(a or b, w.dynamic)) for a, b in _TEX_SHELL.findall(w.text))
    elif name in ("dc", "m4"):  # dc's `!cmd`, m4's `syscmd(cmd)`/`esyscmd(cmd)`: in its expressions or input
        texts = [v for o, v in opts if o in ("-e", "--expression") and v is not None] if name == "dc" else []
        text, _ = stdin_text(cmd, ex.ups_of)
        texts += [Word(text)] if text is not None else []
        pattern = _DC_BANG if name == "dc" else _M4_SYSCMD
        for w in texts:
            found_codes = [c if isinstance(c, str) else (c[0] or c[1]) for c in pattern.findall(w.text)]
            codes.extend((name, Word(c.strip().strip("`'"), w.dynamic)) for c in found_codes)
    elif name == "ed":
        text, _ = stdin_text(cmd, ex.ups_of)
        lines = text.splitlines() if text is not None else []
        codes.extend(("!", Word(m.group(1))) for m in map(_ED_BANG.match, lines) if m)
        codes.extend(("file !", Word(w.text[1:], w.dynamic)) for w in operands if w.text.startswith("!"))
    for what, code in codes:
        if code.dynamic:
            ex.problem(f"{name} {what} with a computed command")
        ex.nested(code.text, via + (f"{name} {what}",), depth, remote)
    return found or bool(codes)


def ssh_setting(text: str) -> tuple[str, str]:
    """``ProxyCommand=curl … | sh`` or ``ProxyCommand curl …`` → (``proxycommand``, the value)."""
    text = text.strip()
    for i, ch in enumerate(text):
        if ch == "=" or ch.isspace():
            return text[:i].lower(), text[i + 1:].lstrip("= \t")
    return text.lower(), ""


def pager_commands(text: str) -> list[str]:
    """The shell commands a pager's ``+keys`` operand runs: ``+!rm -rf ~`` → ``["rm -rf ~"]``."""
    body = text[2:] if text.startswith("++") else text[1:]
    out: list[str] = []
    for line in body.splitlines():
        if line[:1] in ("/", "?"):  # a search pattern runs to the end of its line
            continue
        m = re.search(r"[!|]", line)
        if m is None:
            continue
        code = line[m.end():] if m.group() == "!" else line[m.end() + 1:]
        if code.strip():
            out.append(code.strip())
    return out


def make_shell_calls(text: str) -> list[str]:
    """The commands of make's ``$(shell …)`` calls, nested parentheses counted (``$(shell rm -rf $(HOME))``)."""
    out: list[str] = []
    for m in _MAKE_SHELL_FN.finditer(text):
        opening = m.group(1)
        closing = ")" if opening == "(" else "}"
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += (text[i] == opening) - (text[i] == closing)
            i += 1
        out.append(text[m.end():i - 1] if depth == 0 else text[m.end():])
    return out


def make_commands(text: str) -> list[str]:
    """The shell code of makefile text: recipe lines (after ``target:;`` or a tab) and ``$(shell …)``;
    ``$$`` is a dollar sign."""
    out = make_shell_calls(text)
    for line in text.splitlines():
        if line.startswith("\t"):
            out.append(line[1:].lstrip("@+-"))
            continue
        m = _MAKE_RULE.match(line)
        if m:
            out.append(m.group(3).lstrip().lstrip("@+-"))
    return [_MAKE_ENV.sub(r"$\1", c).replace("$$", "$") for c in out if c.strip()]
