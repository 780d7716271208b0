"""Commands and code carried in the arguments of a program: ``find -exec``/``-ok``, an awk program, a sed
script, ``git -c alias.x='!cmd'`` and the git settings that hold shell code, a crontab's lines, and the
shell escapes of database shells (``mysql -e '\\! cmd'``, ``sqlite3 db '.shell cmd'``).
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell import interpreters as I
from phlegyas.analysis.shell.effects import FIND_EXEC, GIT_CODE_KEYS, find_exec_end, find_start_dirs, git_config_key
from phlegyas.analysis.shell.expansion import Run, Walk, quote, runs_code, text_of
from phlegyas.analysis.shell.nested import add_report, process_output
from phlegyas.analysis.shell.options import parse_options
from phlegyas.analysis.shell.parse import SimpleCommand, Word
from phlegyas.analysis.shell.stdin import literal_output, stdin_text

EMBEDDING: Final = frozenset({"find", "gfind", "bfs", "awk", "gawk", "mawk", "nawk", "sed", "gsed", "git", "crontab",
                              "mysql", "mariadb", "psql", "sqlite3", "duckdb", "gcc", "cc", "clang", "g++", "c++",
                              "clang++", "tcc", "cmake"})
"""Programs whose arguments may hold commands or code of their own."""


def embedded(ex: Walk, cmd: SimpleCommand, run: Run, key: str, args: list[Word], via: tuple[str, ...], depth: int,
             remote: bool) -> None:
    """Expand what ``run`` of the program ``key`` (one of ``EMBEDDING``) carries in its arguments."""
    if key in ("find", "gfind", "bfs"):
        _find(ex, cmd, run, args, via, depth, remote)
    elif key in ("awk", "gawk", "mawk", "nawk"):
        _awk(ex, run, args, via, depth, remote)
    elif key in ("sed", "gsed"):
        _sed(ex, run, args, via, depth, remote)
    elif key == "git" and (ex.git_aliases or any(a.text in ("-c", "config") for a in args)):
        _git(ex, run, args, via, depth, remote)
    elif key == "crontab":
        _crontab(ex, cmd, args, via, depth, remote)
    elif key in _SQL_SHELLS:
        _sql_shell(ex, cmd, key, args, via, depth, remote)
    elif key == "cmake":
        _cmake_script(ex, cmd, args, via, depth, remote)
    elif any(a.text == "-" for a in args):  # a compiler reading its source from stdin
        _c_source(ex, cmd, key, via, depth, remote)


_CMAKE_REMOVE: Final = re.compile(r"\bfile\s*\(\s*REMOVE(_RECURSE)?\s+([^)]*)\)", re.I)
_CMAKE_EXEC: Final = re.compile(r"\bexecute_process\s*\(\s*COMMAND\s+(.*?)\s*(?:\b[A-Z_]{6,}\b|\))", re.S)


def _cmake_script(ex: Walk, cmd: SimpleCommand, args: list[Word], via: tuple[str, ...], depth: int,
                  remote: bool) -> None:
    """``cmake -P /dev/stdin <<< 'file(REMOVE_RECURSE ~/x)'``: a literal CMake script's removals (as ``rm``)
    and ``execute_process(COMMAND …)`` commands."""
    texts = [a.text for a in args]
    if "-P" not in texts[:-1]:
        return
    given = args[texts.index("-P") + 1]
    if given.text in ("-", "/dev/stdin"):
        text = stdin_text(cmd, ex.ups_of)[0]
    else:
        text = process_output(given.text) if given.dynamic else None
    for m in _CMAKE_REMOVE.finditer(text or ""):
        ex.nested(f"rm {'-rf' if m.group(1) else '-f'} -- {m.group(2)}", via + ("cmake -P",), depth, remote)
    for m in _CMAKE_EXEC.finditer(text or ""):
        ex.nested(m.group(1), via + ("cmake -P execute_process",), depth, remote)


_C_SHELL: Final = re.compile(r'\b(?:system|popen)\s*\(\s*"((?:[^"\\]|\\.)*)"|'
                             r'\bexecl?p?\s*\([^;]*?"-c"\s*,\s*"((?:[^"\\]|\\.)*)"')


def _c_source(ex: Walk, cmd: SimpleCommand, key: str, via: tuple[str, ...], depth: int, remote: bool) -> None:
    """``gcc -x c -o /tmp/a - <<< 'int main(){return system("rm -rf ~");}'``: the commands the literal program
    hands to a shell (``system``, ``popen``, ``execl(…, "-c", CMD)``), read as if the program runs: it is
    compiled to be run."""
    text, _ = stdin_text(cmd, ex.ups_of)
    for m in _C_SHELL.finditer(text or ""):
        code = (m.group(1) if m.group(1) is not None else m.group(2)).replace('\\"', '"').replace("\\\\", "\\")
        ex.nested(code, via + (f"{key} (compiled code)",), depth, remote)


_SQL_SHELLS: Final = {"mysql": "-e --execute", "mariadb": "-e --execute", "psql": "-c --command",
                      "sqlite3": "-cmd", "duckdb": "-c -cmd"}
_SQL_PIPE: Final = re.compile(r"\\[og]\s*\|\s*([^\n;]+)|\b(?:TO|FROM)\s+PROGRAM\s+'((?:[^']|'')*)'", re.I)
"""psql's ``\\o |cmd`` and ``\\g |cmd`` send the query's output into cmd; ``COPY … TO PROGRAM`` does on the server."""
_SQL_ESCAPE: Final = re.compile(r"^\s*(?:\\!|system\s|\.shell\s|\.system\s|\.sh\s)\s*(.+)$", re.M)


def _sql_shell(ex: Walk, cmd: SimpleCommand, key: str, args: list[Word], via: tuple[str, ...], depth: int,
               remote: bool) -> None:
    """``mysql -e '\\! rm -rf ~'``, ``psql -c '\\! …'``, ``sqlite3 db '.shell …'``: a database shell's own
    escape to the system shell, in its command options, its SQL operands (sqlite3, duckdb) or its literal
    input."""
    texts = [w.text for w in args]
    flags = _SQL_SHELLS[key].split()
    given = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t in flags]
    given += [t.split("=", 1)[1] for t in texts if t.split("=", 1)[0] in flags and "=" in t]
    if key in ("sqlite3", "duckdb"):
        given += [t for t in texts if t.startswith(".")]
    stdin, _ = stdin_text(cmd, ex.ups_of)
    for text in [*given, *([stdin] if stdin else [])]:
        for m in _SQL_ESCAPE.finditer(text.replace(";", "\n") if key != "sqlite3" else text):
            ex.nested(m.group(1), via + (f"{key} shell escape",), depth, remote)
        for m in _SQL_PIPE.finditer(text):  # `\o | curl …`, `COPY t TO PROGRAM 'curl …'`: the data goes into cmd
            code = (m.group(1) or m.group(2) or "").strip()
            if code:
                ex.nested(f"pg_dump | {code}" if not (m.group(0).upper().find("FROM") >= 0) else code,
                          via + (f"{key} query output piped",), depth, remote)


def _find(ex: Walk, cmd: SimpleCommand, run: Run, args: list[Word], via: tuple[str, ...], depth: int,
          remote: bool) -> None:
    for a in args:
        if a.text in FIND_EXEC:
            break
    else:
        return  # no -exec/-ok anywhere: nothing embedded (most finds)
    starts, i = find_start_dirs(args)
    n = len(args)
    while i < n:
        t = args[i].text
        if t in FIND_EXEC:
            j = find_exec_end(args, i)
            segment = args[i + 1:j]
            if j >= n:
                ex.problem(f"find {t} without a terminating ';' or '+'")
            if segment:
                first = len(ex.out.runs)
                ex.invoke(cmd, segment, via + (f"find {t}",), depth, remote)
                for nested in ex.out.runs[first:]:
                    nested.notes.extend(("find", s.text) for s in starts[:4])
                if len(ex.out.runs) > first and runs_code(segment) and "{}" in text_of(segment[1:]):
                    ex.out.runs[first].notes.append(("executes", "file names substituted into code"))
            i = j + 1
            continue
        i += 1


def _awk(ex: Walk, run: Run, args: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
    spec = P.table_spec("awk")
    parsed = parse_options(args, spec.value_opts | spec.pattern_opts, spec.whole)
    for given in parsed.values(("-f", "--file")):  # `awk -f <(echo 'BEGIN{system("…")}')`: that is the program
        produced = process_output(given.text)
        if produced is not None:
            add_report(ex, run, I.analyze_awk(produced), via + ("awk -f",), depth, remote)
    if parsed.has(spec.pattern_opts):
        return
    if not parsed.operands:
        return
    prog = parsed.operands[0]
    if prog.dynamic:
        ex.problem("awk program is computed")
        return
    report = I.analyze_awk(prog.text)
    report.notes = [(k, v) for k, v in report.notes]
    add_report(ex, run, report, via + ("awk",), depth, remote)


def _sed(ex: Walk, run: Run, args: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
    spec = P.table_spec("sed")
    parsed = parse_options(args, spec.value_opts)
    scripts = parsed.values(("-e", "--expression"))
    if not scripts and not parsed.has(("-f", "--file")):
        scripts = parsed.operands[:1]
    for s in scripts:
        if s.dynamic:
            ex.problem("sed script is computed")
            continue
        if parsed.has(("--sandbox",)):
            continue
        add_report(ex, run, I.analyze_sed(s.text), via + ("sed",), depth, remote)


def _git(ex: Walk, run: Run, args: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
    """``git -c alias.x='!cmd'`` and ``git -c core.pager=cmd``: the value is shell code."""
    parsed = parse_options(args, P.GIT.value_opts, stop_at_operand=True)
    settings: list[tuple[str, str, str]] = []  # (key, value, how it was given)
    for opt, value in parsed.opts:
        if opt != "-c" or value is None or "=" not in value.text:
            continue
        settings.append((git_config_key(value.text), value.text.split("=", 1)[1], "git -c"))
    rest = args[parsed.rest:] if parsed.rest >= 0 else []
    if rest and rest[0].text == "clone":  # `git clone -c core.fsmonitor=CMD URL`: set before the checkout runs
        clone = (P.GIT.subcommands or {}).get("clone")
        cloned = parse_options(rest[1:], clone.value_opts if clone is not None else frozenset({"-c", "--config"}))
        settings.extend((git_config_key(v.text), v.text.split("=", 1)[1], "git clone -c")
                        for v in cloned.values(("-c", "--config")) if "=" in v.text)
    if rest and rest[0].text == "config":  # `git config --global alias.x '!rm -rf ~'`: runs at the next `git x`
        words = [w for w in rest[1:] if not w.text.startswith("-")]
        if len(words) >= 2 and not words[1].dynamic:
            settings.append((words[0].text.lower(), words[1].text, "git config"))
    aliases = dict(ex.git_aliases)
    for key, code, how in settings:
        if key.startswith("alias.") and not code.startswith("!"):
            aliases[key[6:]] = code  # `git -c alias.p='push --force' p`: `git p` is `git push --force`
            if how == "git config":
                ex.git_aliases[key[6:]] = code  # … for the rest of the line too
        if key.startswith("alias.") and code.startswith("!"):
            ex.nested(code[1:], via + ("git alias",), depth, remote)
        elif key.startswith(GIT_CODE_KEYS) and code.strip():
            ex.nested(code, via + (f"{how} {key}",), depth, remote)
    if rest and not rest[0].dynamic and rest[0].text in aliases and len(via) < 8:
        expanded = " ".join(["git", aliases[rest[0].text], *(quote(w.text) for w in rest[1:])])
        ex.nested(expanded, via + (f"git alias {rest[0].text}",), depth, remote)


def _crontab(ex: Walk, cmd: SimpleCommand, args: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
    """``echo '* * * * * curl … | sh' | crontab -``: the commands of a literal crontab, as the scheduler will
    run them (five time fields or an ``@reboot``-style word, then the command)."""
    if any(a.text in ("-l", "-r", "-e", "-i") for a in args):
        return
    text, _ = stdin_text(cmd, ex.ups_of)
    if text is None:  # `(crontab -l; echo '* * * * * …') | crontab -`: what the literal producers add
        got = [t for up in ex.ups_of.get(id(cmd), []) if (t := literal_output(up)[0]) is not None]
        if not got:
            return
        text = "\n".join(got)
    for line in text.splitlines()[:32]:
        line = line.strip()
        if not line or line.startswith("#") or ("=" in line.split(" ", 1)[0] and not line.startswith("@")):
            continue
        fields = line.split(None, 1 if line.startswith("@") else 5)
        command = fields[-1] if len(fields) == (2 if line.startswith("@") else 6) else ""
        if command:
            ex.nested(command, via + ("crontab",), depth, remote)
