"""Shell code handed on by a command: ``bash -c``, ``sh <<EOF``, ``echo … | sh``, ``eval``, ``trap``,
``at``/``batch``, and the code an interpreter runs (analysed by ``shell.interpreters``).

The code is parsed and expanded in turn, one level deeper, with how it was reached in ``via``; what an
interpreter's code analysis reports becomes notes and nested commands of the run.
"""
from __future__ import annotations

import shlex
from typing import Final

from phlegyas.analysis.shell import interpreters as I
from phlegyas.analysis.shell.expansion import MAX_DEPTH, Run, Walk, literal, text_of
from phlegyas.analysis.shell.parse import SimpleCommand, Word
from phlegyas.analysis.shell.stdin import stdin_text, substitution_output
from phlegyas.analysis.shell.variables import positionals

NOEXEC_SHELLS: Final = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "oksh", "loksh"})
"""Shells whose ``-n`` (noexec) reads a script without running it; an interactive shell (``-i``) ignores
``-n``, so that form still runs code."""


def shell(ex: Walk, cmd: SimpleCommand, name: str, args: list[Word], via: tuple[str, ...], depth: int, remote: bool,
          written: str) -> None:
    """``bash -c CODE ARGS…`` (with its positional arguments), ``sh script``, or a shell reading stdin."""
    run = ex.add(ex.new_run(cmd, name, args, via, depth, remote, written, "shell"))
    if run is None:
        return
    for var, value in [*ex.given, *cmd.assignments]:  # `PS4='$(rm -rf ~)' bash -x …`: the child expands it
        if var in _PROMPTS and ("$(" in value.text or "`" in value.text) or var == "PROMPT_COMMAND":
            run.notes.append(("executes", f"the shell runs what ${var} holds"))
            held = value.text
            prompt = held if var == "PROMPT_COMMAND" else f': "{held}"' if '"' not in held else f": {held}"
            ex.nested(prompt, via + (f"{name} ${var}",), depth, remote)
    has_c = False
    reads_stdin = False
    noexec = False
    interactive = False
    i = 0
    while i < len(args):
        t = args[i].text
        if t == "--" or t == "-":
            i += 1
            break
        if t in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            if t in ("--rcfile", "--init-file") and i + 1 < len(args):
                rc = args[i + 1]
                run.notes.append(("runs", rc.text))
                if not rc.dynamic:
                    ex.run_written(rc.text, via + (f"{name} {t}",), depth, remote)
                elif (produced := process_output(rc.text)) is not None:  # `bash --rcfile <(echo 'rm -rf ~') -i`
                    ex.nested(produced, via + (f"{name} {t}",), depth, remote)
            i += 2
            continue
        if t.startswith("--"):
            i += 1
            continue
        if t[:1] in ("-", "+") and len(t) > 1:
            letters = t[1:]
            has_c = has_c or "c" in letters
            reads_stdin = reads_stdin or "s" in letters
            interactive = interactive or "i" in letters
            if "n" in letters:
                noexec = t[0] == "-"
            i += 1
            continue
        break
    operands = args[i:]
    via_c = via + (f"{name} -c",)
    if has_c:
        if not operands:
            ex.problem(f"{name} -c without a command")
            return
        code = operands[0]
        decoded = substitution_output(code.text) if code.dynamic else None
        if decoded is not None:  # `bash -c "$(echo … | base64 -d)"`: the decoded text is the code
            ex.nested(decoded, via_c + ("decoded",), depth, remote, positionals(operands[1:]) or None)
            return
        if code.dynamic:
            ex.problem(f"{name} -c with computed code")
            run.notes.append(("executes", "computed shell code"))
            if "$(" not in code.text and "`" not in code.text:  # `sh -c "curl -d @$HOME/.ssh/id_rsa …"`: the
                ex.nested(code.text, via_c + ("computed",), depth, remote)  # expansions read as the inner shell's
            return
        ex.nested(code.text, via_c, depth, remote, {**child_environment(ex, cmd), **positionals(operands[1:])} or None)
        return
    if (noexec and operands and not has_c and not reads_stdin and not interactive and not operands[0].dynamic
            and name in NOEXEC_SHELLS):
        run.kind = "query"  # ``bash -n x.sh``: parses the script, runs none of it
        run.notes.append(("reads", operands[0].text))
        return
    if operands and not reads_stdin:
        script = operands[0]
        if script.text in STDIN_FILES:  # `bash /dev/stdin`: the program is what comes in on stdin
            stdin_code(ex, run, name, cmd, via, depth, remote, "shell")
            return
        run.notes.append(("runs", script.text))
        if not script.dynamic:
            ex.run_written(script.text, via + (name,), depth, remote)
        elif (produced := process_output(script.text)) is not None:  # `bash <(echo 'rm -rf ~')`
            ex.nested(produced, via + (f"{name} {script.text[:40]}",), depth, remote, positionals(operands) or None)
        return
    stdin_code(ex, run, name, cmd, via, depth, remote, "shell")


def child_environment(ex: Walk, cmd: SimpleCommand) -> dict[str, str]:
    """The literal values ``VAR=value bash -c '…'`` and ``env VAR=value bash -c '…'`` put in the child
    shell's environment (``F='rm -rf ~' bash -c 'eval "$F"'`` runs ``rm -rf ~``)."""
    return {name: value.text for name, value in [*ex.given, *cmd.assignments] if not value.dynamic}


_PROMPTS: Final = frozenset({"PS0", "PS1", "PS2", "PS3", "PS4"})
"""Prompt strings the shell expands (``$(…)`` included) each time it prints them (PS4: every traced line)."""
STDIN_FILES: Final = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
"""Paths that name the shell's own stdin: a script read from one is the piped text."""


def process_output(text: str) -> str | None:
    """What a process substitution ``<(CMD)`` produces when CMD only prints literals (``<(echo rm -rf ~)``)."""
    if not text.startswith("<(") or not text.endswith(")"):
        return None
    return substitution_output("$(" + text[2:])


def source_code(ex: Walk, cmd: SimpleCommand, name: str, args: list[Word], via: tuple[str, ...], depth: int,
                remote: bool, written: str) -> None:
    """``source FILE`` / ``. FILE``: the file's code runs in this shell. A file written earlier in the line,
    a ``<(…)`` of literal output and stdin (``… | source /dev/stdin``) are analysed like ``sh FILE`` and
    ``| sh``; any other file is a run of the table's ``source`` entry (``source .venv/bin/activate``)."""
    operands = [a for a in args if a.text != "--"]
    if operands and operands[0].text in STDIN_FILES and not operands[0].dynamic:
        ex.invoke(cmd, [literal("sh")], via + (f"{name} {operands[0].text}",), depth, remote)
        return
    run = ex.add(ex.new_run(cmd, name, args, via, depth, remote, written))
    if run is None or not operands:
        return
    script = operands[0]
    if not script.dynamic:
        ex.run_written(script.text, via + (name,), depth, remote)
    elif (produced := process_output(script.text)) is not None:
        ex.nested(produced, via + (f"{name} {script.text[:40]}",), depth, remote)


def stdin_code(ex: Walk, run: Run, name: str, cmd: SimpleCommand, via: tuple[str, ...], depth: int, remote: bool,
               lang: str) -> None:
    """A shell or interpreter reading its program from stdin: a heredoc, a pipe, a file or the keyboard."""
    text, source = stdin_text(cmd, ex.ups_of)
    if text is not None:
        run_code(ex, run, lang, text, via + (f"{name} <{source}",), depth, remote)
        return
    redirect = next((r for r in cmd.redirects if r.op in ("<", "<>") and r.target is not None
                     and (r.fd in (None, "0"))), None)
    if redirect is not None and redirect.target is not None:
        run.notes.append(("runs", redirect.target.text))
        produced = process_output(redirect.target.text) if redirect.target.dynamic else None
        if produced is not None:  # `sh < <(echo 'rm -rf ~')`: as a pipe from echo
            run_code(ex, run, lang, produced, via + (f"{name} < {redirect.target.text[:40]}",), depth, remote)
        return
    if cmd.stdin_dynamic and cmd.stdin_text is not None and lang == "shell" and not cmd.upstream:
        run.notes.append(("executes", f"code read from stdin ({name})"))  # never understood, but still read:
        ex.nested(cmd.stdin_text, via + (f"{name} <<heredoc",), depth, remote)  # `$(env)` runs either way
        return
    if cmd.upstream or (cmd.stdin_dynamic and cmd.stdin_text is not None):
        run.notes.append(("executes", f"code read from stdin ({name})"))
        if lang == "shell":
            _printed_by_find(ex, cmd, via, depth, remote)
        return
    run.notes.append(("executes", f"starts an interactive {name}"))


def _printed_by_find(ex: Walk, cmd: SimpleCommand, via: tuple[str, ...], depth: int, remote: bool) -> None:
    """``find /home/u -printf 'rm -f -- "%p"\\n' | sh``: the shell runs the format once for each file found,
    which is ``find … -exec rm -f -- {} ';'`` (analysed as that)."""
    for up in ex.ups_of.get(id(cmd), []):
        words = [w.text for w in up.args]
        if up.program not in ("find", "gfind") or "-printf" not in words or any(w.dynamic for w in up.args):
            continue
        at = words.index("-printf")
        fmt = words[at + 1] if at + 1 < len(words) else ""
        line = fmt.replace("\\n", "\n").split("\n")[0].replace("%p", "{}").replace("%P", "{}")
        try:
            argv = shlex.split(line)
        except ValueError:
            continue
        if argv:
            ex.synthetic([up.program, *words[:at], "-exec", *argv, ";"], via + ("find -printf | sh",), depth, remote)


def run_code(ex: Walk, run: Run, lang: str, text: str, via: tuple[str, ...], depth: int, remote: bool) -> None:
    """Analyse program text in ``lang`` that ``run`` executes."""
    if lang == "shell":
        ex.nested(text, via, depth, remote)
        return
    report = I.analyze_python(text) if lang == "python" else I.analyze_literal_code(text, lang)
    add_report(ex, run, report, via, depth, remote)


def add_report(ex: Walk, run: Run, report: I.CodeReport, via: tuple[str, ...], depth: int, remote: bool) -> None:
    """What a code analysis found: its problems and notes on ``run``, the shell code and commands it runs
    expanded."""
    for p in report.problems:
        ex.problem(p)
    run.notes.extend(report.notes)
    if report.pure:
        project = [m for m in report.imports if m.split(".", 1)[0] not in I.WELL_KNOWN]
        # importing a module we do not know runs its top-level code (the project's own, often): as pytest does
        run.notes.append(("project_code", project[0]) if project else ("pure", ""))
    elif not any(k in ("executes", "runs") for k, _ in report.notes) and run.kind in ("interp",):
        run.notes.append(("executes", f"{run.program} code"))
    for text in report.shell:
        ex.nested(text, via, depth, remote)
    for argv in report.argvs:
        if depth + 1 > MAX_DEPTH:
            ex.problem(f"scripts nested deeper than {MAX_DEPTH} levels")
            break
        ex.synthetic(argv, via, depth + 1, remote)


def builtin_code(ex: Walk, cmd: SimpleCommand, name: str, args: list[Word], via: tuple[str, ...], depth: int,
                 remote: bool) -> None:
    """``eval CODE…`` and ``trap CODE SIGNAL…``."""
    run = ex.add(ex.new_run(cmd, name, args, via, depth, remote, kind="builtin"))
    if run is None:
        return
    if name == "trap":
        ops = [a for a in args if a.text not in ("-l", "-p", "--")]
        if not ops or ops[0].text in ("-", "") or len(ops) == 1:
            return
        code = ops[0]
    else:
        if not args:
            return
        if len(args) == 1 and (decoded := substitution_output(args[0].text)) is not None:
            ex.nested(decoded, via + (name, "decoded"), depth, remote)  # `eval "$(echo … | base64 -d)"`
            return
        if any(a.dynamic for a in args):
            ex.problem(f"{name} of a computed string")
            run.notes.append(("executes", f"computed code ({name})"))
            return
        code = literal(text_of(args))
    if code.dynamic:
        ex.problem(f"{name} of a computed string")
        run.notes.append(("executes", f"computed code ({name})"))
        return
    ex.nested(code.text, via + (name,), depth, remote)


def stdin_shell(ex: Walk, cmd: SimpleCommand, name: str, args: list[Word], via: tuple[str, ...], depth: int,
                remote: bool, written: str) -> None:
    """``at``/``batch``: commands read from stdin (or ``-f file``) to run later."""
    run = ex.add(ex.new_run(cmd, name, args, via, depth, remote, written, "builtin"))
    if run is None:
        return
    run.notes.append(("mutates", "schedules commands to run later"))
    text, _ = stdin_text(cmd, ex.ups_of)
    if text is not None:
        ex.nested(text, via + (name,), depth, remote)
    else:
        f = next((a.text for a in args if a.text.startswith("-f")), None)
        run.notes.append(("executes", "scheduled commands" if f is None else f"runs a file: {f}"))
