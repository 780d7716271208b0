"""Script → invocations: every program that will run, with wrappers peeled and nested code expanded.

``expand(script)`` walks each ``SimpleCommand`` of a parsed command line and resolves what actually
runs: wrappers (``sudo``, ``env``, ``timeout``, ``xargs`` … from ``programs.WRAPPERS``) go into
``via``; code handed to a shell (``bash -c``, ``sh <<EOF``, ``eval``, ``trap``, ``ssh host CMD``,
``watch``), to ``find -exec``, to an interpreter (``python -c``, ``node -e`` …) or to awk/sed is parsed
and expanded in turn. Literal variables of the script (``x=/; rm -rf $x``) and positional arguments
of ``sh -c 'rm -rf $1' _ /`` are substituted. Whatever cannot be resolved (a computed program name,
``eval $x``, code that does not parse, a budget overrun) is a problem: the call is then not understood.

This module is the walk itself: scripts command by command (substituting the values learnt so far) and
each command routed to what expands it — ``shell.wrappers``, ``shell.nested``, ``shell.interpreter_calls``,
``shell.embedded``; ``shell.expansion`` holds the results and the state they share.
"""
from __future__ import annotations

import re
import shlex
from fnmatch import fnmatchcase
from functools import lru_cache
from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.braces import MAX_WORDS as MAX_BRACE_WORDS
from phlegyas.analysis.shell.braces import expand_words
from phlegyas.analysis.shell.carriers import CARRIERS, carry
from phlegyas.analysis.shell.embedded import EMBEDDING, embedded
from phlegyas.analysis.shell.expansion import MAX_DEPTH, MAX_RUNS, Expansion, Run, Walk, literal, quote
from phlegyas.analysis.shell.interpreter_calls import deno_eval, interpreter
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.nested import builtin_code, shell, source_code, stdin_shell
from phlegyas.analysis.shell.parse import Script, SimpleCommand, Word, parse
from phlegyas.analysis.shell.readvars import ASSIGNING_BUILTINS, DEFAULT_IFS, learn_builtin
from phlegyas.analysis.shell.stdin import literal_output, stdin_text, substitution_output
from phlegyas.analysis.shell.typed_output import typed_lines
from phlegyas.analysis.shell.variables import (
    has_operators,
    head_readings,
    learn,
    needs_evaluation,
    positionals,
    substitute,
    substitute_command,
    substitution_bodies,
)
from phlegyas.analysis.shell.wrappers import carried, runner, wrapper
from phlegyas.analysis.shell.xargs_code import xargs_code

STDIN_SHELLS: Final = frozenset({"at", "batch"})
_PRESET: Final = (("HOME", "~"), ("SHELL", "/bin/bash"), ("BASH", "/bin/bash"))
_EVALUATING: Final = ("((", "[[", "@P}", "let ", "-i ", "-eq", "-ne", "-lt", "-gt", "-le", "-ge")
"""Marks of the constructs that evaluate a variable's value again: arithmetic (``$((n))``, ``((n))``,
``let``, ``declare -i``, ``[[ n -eq 1 ]]``, ``test``'s comparisons) and prompt expansion (``${p@P}``)."""


_BIN_DIRS: Final = ("/bin", "/usr/bin", "/sbin", "/usr/sbin", "/usr/local/bin")


@lru_cache(maxsize=256)
def glob_programs(pattern: str) -> tuple[str, ...]:
    """The programs of the table a glob like ``/???/?m`` may name in the usual bin directories (at most 6)."""
    found = sorted({name for name in P.PROGRAMS if "/" not in name
                    for d in _BIN_DIRS if fnmatchcase(f"{d}/{name}", pattern)})
    return tuple(found[:6])


def expand(script: Script) -> Expansion:
    """Every invocation that ``script`` will run (see the module docstring)."""
    ex = _Expander()
    ex.script(script, (), 0, False, None)
    return ex.out


def expand_command(command: str) -> Expansion:
    return expand(parse(command))


class _Expander(Walk):
    """The walk: ``script`` runs through a script's commands, ``invoke`` routes one command."""

    # -- scripts ---------------------------------------------------------------------------------
    def script(self, script: Script, via: tuple[str, ...], depth: int, remote: bool,
               positional: dict[str, str] | None) -> list[Run]:
        if depth > MAX_DEPTH:
            self.problem(f"scripts nested deeper than {MAX_DEPTH} levels")
            return []
        for p in script.problems:
            self.problem(p if not via else f"{p} (in {via[-1]})")
        if script.bodies:
            self.functions.update(script.bodies)
        values: dict[str, str] = dict(positional) if positional else {}
        if "IFS" in script.source and "IFS" not in values:
            values["IFS"] = DEFAULT_IFS  # bash sets it at start-up, whatever the environment says: `rm${IFS}-rf${IFS}/`
        for name, preset in _PRESET:  # the agent's shell has them: `arr=(rm -rf "$HOME")`, `curl … | $SHELL`
            if name in script.source and name not in values:
                values[name] = preset
        conflicting: set[str] = set()
        carriers: list[Run | None] = []
        out: list[Run] = []
        seen: list[SimpleCommand] | None = None  # the commands with values substituted, once any are
        runs = self.out.runs
        outer = self.values
        self.values = values
        fds: dict[str, str] = {}  # descriptors `exec N< <(…)` opened: /dev/fd/N → the process substitution
        for cmd in script.commands:
            if values or needs_evaluation(cmd):
                if seen is None:
                    seen = script.commands[:len(carriers)]
                given = cmd.words[0] if cmd.words else None
                cmd = substitute_command(cmd, values)
                if given is not None and given.dynamic and cmd.words and not cmd.words[0].dynamic \
                        and has_operators(given.text):  # judged as what it evaluates to, but never understood
                    self.problem(f"computed program name {given.text[:40]} (read as {cmd.words[0].text[:40]})")
            if seen is not None:
                seen.append(cmd)
            if cmd.upstream:
                ups: list[Invocation] = [c for i in cmd.upstream if i < len(carriers) and (c := carriers[i]) is not None]
            else:
                ups = []
            if fds and any(w.text in fds for w in cmd.words):  # `exec 3< <(curl …); . /dev/fd/3`
                cmd = SimpleCommand([Word(fds[w.text], True) if w.text in fds else w for w in cmd.words],
                                    cmd.assignments, cmd.redirects, cmd.stdin_text, cmd.stdin_dynamic, cmd.upstream,
                                    cmd.origin, cmd.text)
            if cmd.words and cmd.words[0].text == "exec" and len(cmd.words) == 1:
                fds.update((f"/dev/fd/{r.fd}", r.target.text) for r in cmd.redirects if r.fd and r.op == "<"
                           and r.target is not None and r.target.text.startswith("<("))
                fds.update((f"/proc/self/fd/{k[8:]}", v) for k, v in list(fds.items()) if k.startswith("/dev/fd/"))
            start = len(runs)
            self.command(cmd, via, depth, remote, ups)
            carrier = None
            if len(runs) > start:
                got = runs[start:]
                carrier = got[0]
                for r in got:
                    if r.command is cmd:
                        carrier = r
                        break
                out.extend(got)
            carriers.append(carrier)
            if cmd.assignments or cmd.words and cmd.words[0].text == "set":
                for name, preset in (("IFS", DEFAULT_IFS), *_PRESET):
                    if values.get(name) == preset and name not in conflicting and not cmd.words \
                            and any(n == name for n, _ in cmd.assignments):
                        del values[name]  # the line's own value replaces the shell's (not a second, conflicting one)
                learn(cmd, values, conflicting)
            if cmd.words and cmd.words[0].text in ASSIGNING_BUILTINS:
                piped = [script.commands[i] for i in cmd.upstream if i < len(script.commands)]
                learn_builtin(cmd, values, conflicting, substitution_output,  # read x <<< rm, printf -v c …
                              typed_lines(piped[0]) if len(piped) == 1 else None)  # `git log --format=%H | while read`
            if cmd.words and cmd.words[0].text == "alias" and not cmd.words[0].quoted:
                self._learn_aliases(cmd.words[1:])
            elif cmd.words and cmd.words[0].text == "hash" and len(cmd.words) == 4 and cmd.words[1].text == "-p" \
                    and not any(w.dynamic for w in cmd.words):  # `hash -p /bin/rm ll`: `ll` now runs /bin/rm
                self.aliases[cmd.words[3].text] = quote(cmd.words[2].text)
        self.values = outer
        if values and any(mark in script.source for mark in _EVALUATING):
            self._evaluated_code(script.source, values, via, depth, remote)
        if seen is not None:
            script = Script(script.source, seen, script.problems, script.functions)
        self.out.scripts.append((script, out))
        return out

    def _evaluated_code(self, source: str, values: dict[str, str], via: tuple[str, ...], depth: int,
                        remote: bool) -> None:
        """``p='$(curl …|sh)'; echo "${p@P}"`` and ``n='a[$(rm -rf ~)]'; echo $((n+1))``: a prompt expansion
        (``@P``) and arithmetic (``$((…))``, ``((…))``, ``let``, ``[[ -eq ]]``, whose names are evaluated
        again, array subscripts included) run the substitutions in the values of the names they use."""
        for name, value in values.items():
            if ("$(" not in value and "`" not in value) or len(re.findall(
                    rf"(?<![\w]){re.escape(name)}(?![\w])", source)) < 2:  # assigned, and used again
                continue
            self.problem(f"the line evaluates ${name} again (arithmetic or a prompt expansion), and its value "
                         "holds a command substitution")
            for code in substitution_bodies(value):
                self.nested(code, via + (f"${name} evaluated",), depth + 1, remote)

    def command(self, cmd: SimpleCommand, via: tuple[str, ...], depth: int, remote: bool,
                ups: list[Invocation]) -> None:
        self.out.commands.append(cmd)
        if cmd.assignments:
            carried(self, cmd.assignments, via, depth, remote)  # GIT_PAGER='sh -c id' git log runs sh
        if not cmd.words:
            return
        first = len(self.out.runs)
        if ups:
            self.ups_of[id(cmd)] = ups
        if cmd.redirects:
            self._remember_written(cmd)
        if self.written and cmd.stdin_text is None and not ups:
            cmd = self._written_input(cmd)  # `echo 'DROP …' > /tmp/m.sql && mysql < /tmp/m.sql` (or `psql -f`)
        if cmd.words[0].text == "tee" and not cmd.words[0].dynamic:
            self._remember_tee(cmd)
        words = expand_words(cmd.words)  # bash expands braces first: {rm,-fr,/} is rm -fr /
        if words is None:
            self.problem(f"a brace expansion of more than {MAX_BRACE_WORDS} words")
            words = cmd.words
        self.invoke(cmd, words, via, depth, remote)
        if len(self.out.runs) > first:
            run = self.out.runs[first]
            run.upstream = ups
            if run.stdin_text is None:
                run.stdin_text = cmd.stdin_text

    # -- one command -----------------------------------------------------------------------------
    def invoke(self, cmd: SimpleCommand, words: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
        if not words:
            return
        head = words[0]
        args = words[1:]
        if head.dynamic:
            self.problem(f"computed program name {head.text[:40]}")
            self.add(self.new_run(cmd, "", args, via, depth, remote, head.text, "dynamic"))
            for reading in head_readings(head, self.values):  # `${X:-rm} -rf ~` may run rm
                words = [Word(t, False, False, True) for t in reading if t] + args
                if words and len(via) < 4:
                    self.invoke(cmd, words, via + (f"{head.text[:40]} read as {quote(' '.join(reading))[:40]}",),
                                depth, remote)
            return
        written = head.text
        alias = self.aliases.get(written) if self.aliases and not head.quoted else None
        if alias is not None:  # `alias x='rm -rf ~'` then `x`: the alias's words, then the arguments
            rest = " ".join(a.text if a.dynamic else quote(a.text) for a in args)
            self.aliases.pop(written)  # bash does not expand an alias inside its own expansion
            self.nested(f"{alias} {rest}".strip(), via + (f"alias {written}",), depth, remote)
            self.aliases[written] = alias
            return
        body = self.functions.get(written) if self.functions and not (via and via[-1] in ("command", "builtin")) \
            else None  # `command git …` runs git itself, not a function of that name
        if body is not None:  # `g(){ rm -fr "$@"; }; g /`: the body runs with the call's arguments
            self.nested(body, via + (f"{written}()",), depth, remote, positionals([head, *args]))
            return
        if head.glob and "/" in written and not head.quoted and len(via) < 4:  # `/???/?m -rf ~` is /bin/rm
            matches = glob_programs(written)
            if matches:
                self.problem(f"a program named by a glob ({written[:40]})")
                for name in matches:
                    self.invoke(cmd, [literal(name), *args], via + (f"{written[:40]} matches {name}",), depth, remote)
                return
        if "/" in written:
            name, known = P.resolve_path_program(written)
            if not known:
                run = self.new_run(cmd, name, args, via, depth, remote, written, "file")
                run.notes.append(("runs", written))
                self.add(run)
                self.run_written(written, via, depth, remote)
                return
        else:
            name = written
        key = P.canonical(name)
        if key in P.EQUIVALENTS:  # `rimraf ~` is `rm -rf ~`
            self.invoke(cmd, [literal(w) for w in P.EQUIVALENTS[key]] + args, via + (name,), depth, remote)
            return
        if key not in _ROUTED:
            self.program(cmd, name, key, args, via, depth, remote, written)
        elif key in P.WRAPPERS and not (key == "busybox" and not args):
            if key == "xargs" and xargs_code(self, cmd, args, via, depth, remote):
                return  # literal input handed to a shell: the commands it runs, expanded
            wrapper(self, cmd, name, key, args, via, depth, remote, written)
        elif key in P.SHELLS:
            shell(self, cmd, name, args, via, depth, remote, written)
        elif key in ("pnpm", "yarn") and args and args[0].text in _BIN_TOOLS and not args[0].dynamic:
            runner(self, cmd, f"{key} exec", args, via, depth, remote)  # `pnpm vitest run`: no such pnpm command,
            # so pnpm runs the script of that name or else node_modules/.bin/vitest, as `pnpm exec vitest` does
        elif args and f"{key} {args[0].text}" in P.RUNNERS:
            runner(self, cmd, f"{key} {args[0].text}", args[1:], via, depth, remote)
        elif key in P.RUNNERS:
            runner(self, cmd, key, args, via, depth, remote)
        elif key in P.INTERPRETERS and not (key == "bun" and not (args and args[0].text in ("-e", "--eval", "-p",
                                                                                            "--print"))):
            interpreter(self, cmd, name, key, args, via, depth, remote, written)
            if key in CARRIERS:  # `ruby -run -e rm -- -rf …`, Julia's or Groovy's code: what it runs, read apart
                carry(self, cmd, self.new_run(cmd, name, args, via, depth, remote, written), key, args, via, depth,
                      remote)
        elif key in ("eval", "trap"):
            builtin_code(self, cmd, name, args, via, depth, remote)
        elif key == "deno" and args and args[0].text == "eval":
            deno_eval(self, cmd, name, args[1:], via, depth, remote, written)
        elif key in STDIN_SHELLS:
            stdin_shell(self, cmd, name, args, via, depth, remote, written)
        elif key in _SOURCE:
            source_code(self, cmd, name, args, via, depth, remote, written)
        else:
            self.program(cmd, name, key, args, via, depth, remote, written)

    def _remember_written(self, cmd: SimpleCommand) -> None:
        """``echo 'rm -rf ~' > x.sh``: what a command writes to a literal path when its output is literal, so
        that running that file later in the line (``bash x.sh``, ``./x.sh``) is judged by its content."""
        targets = [r for r in cmd.redirects if r.op in (">", ">>", ">|") and r.target is not None
                   and not r.target.dynamic and r.fd in (None, "1")]
        if not targets or not cmd.words or cmd.words[0].dynamic:
            return
        text, _ = literal_output(Invocation(cmd.program or "", cmd.words[1:], cmd, stdin_text=cmd.stdin_text))
        for r in targets:
            key = _file_key(r.target.text)  # type: ignore[union-attr]
            if text is None:
                self.written.pop(key, None)
            else:
                self.written[key] = (self.written.get(key, "") + "\n" + text) if r.op == ">>" else text

    def _written_input(self, cmd: SimpleCommand) -> SimpleCommand:
        """``cmd`` reading a file this line wrote with literal text (``< /tmp/m.sql``): that text is its input."""
        source = next((r.target for r in cmd.redirects if r.op == "<" and r.fd in (None, "0") and r.target is not None
                       and not r.target.dynamic), None) or _script_file(cmd)
        text = self.written.get(_file_key(source.text)) if source is not None else None
        if text is None:
            return cmd
        return SimpleCommand(cmd.words, cmd.assignments, cmd.redirects, text, False, cmd.upstream, cmd.origin,
                             cmd.text)

    def _remember_tee(self, cmd: SimpleCommand) -> None:
        """``tee x.sh <<< 'rm -rf ~'``: tee writes its literal input to each file it names."""
        text, _ = stdin_text(cmd, self.ups_of)
        files = [w for w in cmd.words[1:] if not w.text.startswith("-") or w.text == "-"]
        append = any(w.text in ("-a", "--append") for w in cmd.words[1:])
        for w in files:
            key = _file_key(w.text)
            if text is None or w.dynamic:
                self.written.pop(key, None)
            else:
                self.written[key] = (self.written.get(key, "") + "\n" + text) if append else text

    def _learn_aliases(self, words: list[Word]) -> None:
        """``alias ll='ls -la'``: later commands named ``ll`` run ``ls -la`` (taken as expanded even where
        bash would not expand it, in a non-interactive shell without ``expand_aliases``: the stricter reading)."""
        for w in words:
            name, eq, value = w.text.partition("=")
            if eq and name and not w.dynamic and not name.startswith("-"):
                self.aliases[name] = value

    def _option_variable(self, cmd: SimpleCommand, key: str, variable: str) -> list[Word]:
        """The options ``variable`` gives the program: from the command's own prefix assignment, else from an
        assignment earlier in the line (exported or not: it may be exported already); none when computed."""
        for name, value in [*self.given, *cmd.assignments]:
            if name == variable:
                return [] if value.dynamic else _option_words(value.text, key, variable)
        got = self.values.get(variable)
        return _option_words(got, key, variable) if got else []

    def program(self, cmd: SimpleCommand, name: str, key: str, args: list[Word], via: tuple[str, ...], depth: int,
                remote: bool, written: str) -> None:
        """A program of the table (or an unknown one): one run, plus the code some of them embed."""
        variable = _OPTION_VARIABLES.get(key)
        if variable is not None:
            args = self._option_variable(cmd, key, variable) + args  # PYTEST_ADDOPTS=--basetemp=~ pytest: as if written
        run = self.add(self.new_run(cmd, name, args, via, depth, remote, written))
        if run is None:
            return
        if key in EMBEDDING:
            embedded(self, cmd, run, key, args, via, depth, remote)
        if key in CARRIERS:
            carry(self, cmd, run, key, args, via, depth, remote)


_OPTION_VARIABLES: Final = {"pytest": "PYTEST_ADDOPTS", "py.test": "PYTEST_ADDOPTS", "make": "MAKEFLAGS",
                             "gmake": "MAKEFLAGS"}
"""Programs that read more options from a variable, before those of their command line."""


def _option_words(text: str, key: str, variable: str) -> list[Word]:
    """The options of an option variable's literal value that delete, run, write, load or read something
    (``--basetemp``, ``--eval``, ``-f``), with their values: what Tier 1 must see on the command line. The
    others are judged with the assignment (``shell.assignments``), which never shows the value."""
    try:
        texts = shlex.split(text)
    except ValueError:
        return []
    spec = P.spec_for(key)
    if spec is None:
        return []
    wanted = spec.delete_flags | spec.exec_flags | spec.write_flags | spec.load_flags | spec.read_flags
    out: list[Word] = []
    for i, t in enumerate(texts):
        opt, eq, _ = t.partition("=")
        if opt in wanted:
            out.append(Word(t, False, False, True))
            if not eq and i + 1 < len(texts):
                out.append(Word(texts[i + 1], False, False, True))
    return out


_SCRIPT_FILE_OPTS: Final = {"psql": ("-f", "--file"), "cqlsh": ("-f", "--file"), "mongosh": ("--file", "-f"),
                             "mongo": ("--file",), "clickhouse-client": ("--queries-file",), "duckdb": ("-f",),
                             "usql": ("-f", "--file")}
"""Data clients' options that name a script file they run, as if it came on stdin."""


def _script_file(cmd: SimpleCommand) -> Word | None:
    """The script file a data client is given (``psql -f /tmp/m.sql``, ``mongosh URL /tmp/x.js``), if any."""
    words = cmd.words
    flags = _SCRIPT_FILE_OPTS.get(words[0].text if words else "")
    if flags is None:
        return None
    for i, w in enumerate(words[1:], 1):
        if w.text in flags and i + 1 < len(words) and not words[i + 1].dynamic:
            return words[i + 1]
        if w.text.startswith(tuple(f + "=" for f in flags if f.startswith("--"))):
            return Word(w.text.split("=", 1)[1])
        if words[0].text in ("mongosh", "mongo") and w.text.endswith(".js") and not w.dynamic:
            return w
    return None


def _file_key(path: str) -> str:
    return path[2:] if path.startswith("./") else path


_SOURCE: Final = frozenset({"source", "."})
_BIN_TOOLS: Final = frozenset({
    "vitest", "jest", "eslint", "prettier", "tsc", "mocha", "playwright", "webpack", "rollup", "esbuild", "vite",
    "next", "astro", "turbo", "nx", "lint-staged", "stylelint", "c8", "nyc", "ava", "biome", "knip", "svelte-check",
    "vue-tsc", "tsup", "jasmine", "karma", "cypress", "storybook", "ts-node", "tsx"})
"""Development tools that ``pnpm NAME`` and ``yarn NAME`` run from node_modules/.bin (pnpm and yarn have
no command of those names)."""
_ROUTED: Final = frozenset({*P.WRAPPERS, *P.SHELLS, *(k.split()[0] for k in P.RUNNERS), *P.INTERPRETERS, "eval",
                            "trap", "deno", *STDIN_SHELLS, *_SOURCE})
"""Every program key ``invoke`` treats specially; any other is a plain program run (one set lookup)."""

__all__ = ["MAX_DEPTH", "MAX_RUNS", "STDIN_SHELLS", "Expansion", "Run", "expand", "expand_command", "substitute"]
