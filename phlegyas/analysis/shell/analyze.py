"""Script → invocations: every program that will run, with wrappers peeled and nested code expanded.

``expand(script)`` walks each ``SimpleCommand`` of a parsed command line and resolves what actually
runs: wrappers (``sudo``, ``env``, ``timeout``, ``xargs`` … from ``programs.WRAPPERS``) go into
``via``; code handed to a shell (``bash -c``, ``sh <<EOF``, ``eval``, ``trap``, ``ssh host CMD``,
``watch``), to ``find -exec``, to an interpreter (``python -c``, ``node -e`` …) or to awk/sed is parsed
and expanded in turn. Literal variables of the script (``x=/; rm -rf $x``) and positional arguments
of ``sh -c 'rm -rf $1' _ /`` are substituted. Whatever cannot be resolved (a computed program name,
``eval $x``, code that does not parse, a budget overrun) is a problem: the call is then not understood.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from phlegyas.analysis.shell import interpreters as I
from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.effects import FIND_EXEC, GIT_CODE_KEYS, find_exec_end, find_start_dirs, git_config_key
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.options import parse_options
from phlegyas.analysis.shell.parse import Redirect, Script, SimpleCommand, Word, decode_ansi_c, parse

MAX_DEPTH = 8
MAX_RUNS = 500
STDIN_SHELLS = frozenset({"at", "batch"})


@dataclass(slots=True, eq=False)
class Run(Invocation):
    """An ``Invocation`` plus what the expansion learnt about it."""

    written: str = ""  # the program word as written (``/usr/bin/rm``, ``./x.sh``)
    kind: str = "program"  # program | file | shell | interp | module | builtin | query | dynamic
    notes: list[tuple[str, str]] = field(default_factory=list)  # effects found while expanding
    spec: P.Spec | None = None  # a programs.Spec that overrides the table (``python -m venv``)
    depth: int = 0


@dataclass(slots=True)
class Expansion:
    runs: list[Run] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    scripts: list[tuple[Script, list[Run]]] = field(default_factory=list)
    commands: list[SimpleCommand] = field(default_factory=list)  # every simple command seen, in order

    @property
    def understood(self) -> bool:
        return not self.problems


def expand(script: Script) -> Expansion:
    """Every invocation that ``script`` will run (see the module docstring)."""
    ex = _Expander()
    ex.script(script, (), 0, False, None)
    return ex.out


def expand_command(command: str) -> Expansion:
    return expand(parse(command))


def _w(text: str) -> Word:
    return Word(text, quoted=True)


def _text_of(words: list[Word]) -> str:
    return " ".join(w.text for w in words)


_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[0-9@*#])\}|([A-Za-z_][A-Za-z0-9_]*|[0-9@*#]))")


def substitute(word: Word, values: dict[str, str]) -> Word:
    """Replace ``$name``/``${name}`` of known literal variables; the word stays dynamic if anything
    computed is left."""
    text = word.text
    if "$" not in text:
        return word
    changed = False

    def repl(m: re.Match) -> str:
        nonlocal changed
        name = m.group(1) or m.group(2)
        if name in values:
            changed = True
            return values[name]
        return m.group(0)

    new = _VAR.sub(repl, text)
    if not changed:
        return word
    dynamic = "$" in new or "`" in new
    return Word(new, dynamic, word.glob, word.quoted)


class _Expander:
    def __init__(self) -> None:
        self.out = Expansion([], [], [], [])
        self.ups_of: dict[int, list[Invocation]] = {}

    # -- helpers ---------------------------------------------------------------------------------
    def problem(self, message: str) -> None:
        if message not in self.out.problems:
            self.out.problems.append(message)

    def add(self, run: Run) -> Run | None:
        if len(self.out.runs) >= MAX_RUNS:
            self.problem(f"more than {MAX_RUNS} commands")
            return None
        self.out.runs.append(run)
        return run

    def new_run(self, cmd: SimpleCommand, program: str, args: list[Word], via: tuple[str, ...], depth: int,
                remote: bool, written: str = "", kind: str = "program") -> Run:
        # positional, every field given: a dataclass builds fastest that way (no default factories)
        return Run(program, args, cmd, via, [], None, remote, written or program, kind, [], None, depth)

    # -- scripts ---------------------------------------------------------------------------------
    def script(self, script: Script, via: tuple[str, ...], depth: int, remote: bool,
               positional: dict[str, str] | None) -> list[Run]:
        if depth > MAX_DEPTH:
            self.problem(f"scripts nested deeper than {MAX_DEPTH} levels")
            return []
        for p in script.problems:
            self.problem(p if not via else f"{p} (in {via[-1]})")
        values: dict[str, str] = dict(positional) if positional else {}
        conflicting: set[str] = set()
        carriers: list[Run | None] = []
        out: list[Run] = []
        seen: list[SimpleCommand] | None = None  # the commands with values substituted, once any are
        runs = self.out.runs
        for cmd in script.commands:
            if values:
                if seen is None:
                    seen = script.commands[:len(carriers)]
                cmd = self._substitute(cmd, values)
            if seen is not None:
                seen.append(cmd)
            if cmd.upstream:
                ups: list[Invocation] = [c for i in cmd.upstream if i < len(carriers) and (c := carriers[i]) is not None]
            else:
                ups = []
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
            if cmd.assignments:
                self._learn(cmd, values, conflicting)
        if seen is not None:
            script = Script(script.source, seen, script.problems, script.functions)
        self.out.scripts.append((script, out))
        return out

    @staticmethod
    def _substitute(cmd: SimpleCommand, values: dict[str, str]) -> SimpleCommand:
        """A copy of ``cmd`` with the known values substituted (the parse itself stays as parsed: the
        engine shares it with other checkers)."""
        words: list[Word] = []
        for w in cmd.words:
            if w.dynamic and w.text in ("$@", "$*") and "@" in values:
                words.extend(_w(a) for a in values["@"].split("\x00") if a)
            else:
                words.append(substitute(w, values) if w.dynamic else w)
        redirects = [Redirect(r.op, substitute(r.target, values), r.fd) if r.target is not None and r.target.dynamic
                     else r for r in cmd.redirects]
        return SimpleCommand(words, cmd.assignments, redirects, cmd.stdin_text, cmd.stdin_dynamic, cmd.upstream,
                             cmd.origin, cmd.text)

    @staticmethod
    def _learn(cmd: SimpleCommand, values: dict[str, str], conflicting: set[str]) -> None:
        """Literal assignments (``x=/tmp``, ``local y=…``, ``export Z=…``) become known values; a name
        assigned twice with different values, or a computed one, becomes unknown."""
        if not cmd.assignments:
            return
        declaration = not cmd.words or cmd.words[0].text in ("export", "local", "declare", "typeset", "readonly")
        if not declaration:
            return
        for name, value in cmd.assignments:
            if name in conflicting:
                continue
            if value.dynamic or (name in values and values[name] != value.text):
                values.pop(name, None)
                conflicting.add(name)
            else:
                values[name] = value.text

    def command(self, cmd: SimpleCommand, via: tuple[str, ...], depth: int, remote: bool,
                ups: list[Invocation]) -> None:
        self.out.commands.append(cmd)
        if not cmd.words:
            return
        first = len(self.out.runs)
        if ups:
            self.ups_of[id(cmd)] = ups
        self.invoke(cmd, cmd.words, via, depth, remote)
        if len(self.out.runs) > first:
            run = self.out.runs[first]
            run.upstream = ups
            if run.stdin_text is None:
                run.stdin_text = cmd.stdin_text

    def nested(self, code: str, via: tuple[str, ...], depth: int, remote: bool,
               positional: dict[str, str] | None = None) -> list[Run]:
        if depth + 1 > MAX_DEPTH:
            self.problem(f"scripts nested deeper than {MAX_DEPTH} levels")
            return []
        return self.script(parse(code), via, depth + 1, remote, positional)

    def synthetic(self, argv: list[str], via: tuple[str, ...], depth: int, remote: bool) -> None:
        words = [_w(a) for a in argv]
        cmd = SimpleCommand(words=words, origin="synthetic", text=" ".join(_quote(a) for a in argv))
        self.out.commands.append(cmd)
        self.invoke(cmd, words, via, depth, remote)

    # -- one command -----------------------------------------------------------------------------
    def invoke(self, cmd: SimpleCommand, words: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
        if not words:
            return
        head = words[0]
        args = words[1:]
        if head.dynamic:
            self.problem(f"computed program name {head.text[:40]}")
            self.add(self.new_run(cmd, "", args, via, depth, remote, head.text, "dynamic"))
            return
        written = head.text
        if "/" in written:
            name, known = P.resolve_path_program(written)
            if not known:
                run = self.new_run(cmd, name, args, via, depth, remote, written, "file")
                run.notes.append(("runs", written))
                self.add(run)
                return
        else:
            name = written
        key = P.canonical(name)
        if key not in _ROUTED:
            self.program(cmd, name, key, args, via, depth, remote, written)
        elif key in P.WRAPPERS and not (key == "busybox" and not args):
            self.wrapper(cmd, name, key, args, via, depth, remote, written)
        elif key in P.SHELLS:
            self.shell(cmd, name, args, via, depth, remote, written)
        elif args and f"{key} {args[0].text}" in P.RUNNERS:
            self.runner(cmd, f"{key} {args[0].text}", args[1:], via, depth, remote)
        elif key in P.RUNNERS:
            self.runner(cmd, key, args, via, depth, remote)
        elif key in P.INTERPRETERS and not (key == "bun" and not (args and args[0].text in ("-e", "--eval", "-p",
                                                                                            "--print"))):
            self.interpreter(cmd, name, key, args, via, depth, remote, written)
        elif key in ("eval", "trap"):
            self.builtin_code(cmd, name, args, via, depth, remote)
        elif key in STDIN_SHELLS:
            self.stdin_shell(cmd, name, args, via, depth, remote, written)
        else:
            self.program(cmd, name, key, args, via, depth, remote, written)

    def program(self, cmd: SimpleCommand, name: str, key: str, args: list[Word], via: tuple[str, ...], depth: int,
                remote: bool, written: str) -> None:
        """A program of the table (or an unknown one): one run, plus the code some of them embed."""
        run = self.add(self.new_run(cmd, name, args, via, depth, remote, written))
        if run is None or key not in _EMBEDDING:
            return
        if key in ("find", "gfind", "bfs"):
            self.find(cmd, run, args, via, depth, remote)
        elif key in ("awk", "gawk", "mawk", "nawk"):
            self.awk(run, args, via, depth, remote)
        elif key in ("sed", "gsed"):
            self.sed(run, args, via, depth, remote)
        elif key == "git" and any(a.text == "-c" for a in args):
            self.git(run, args, via, depth, remote)

    # -- wrappers --------------------------------------------------------------------------------
    def wrapper(self, cmd: SimpleCommand, name: str, key: str, args: list[Word], via: tuple[str, ...], depth: int,
                remote: bool, written: str) -> None:
        w = P.WRAPPERS[key]
        if key == "xargs":
            self.xargs(cmd, args, via, depth, remote)
            return
        if key == "parallel":
            self.parallel(cmd, args, via, depth, remote)
            return
        parsed = parse_options(args, w.value_opts | w.code_opts | w.split_opts | w.write_opts, stop_at_operand=True)
        notes: list[tuple[str, str]] = []
        code: list[str] = []
        interactive = False
        for opt, value in parsed.opts:
            if opt in w.query_opts:
                run = self.add(self.new_run(cmd, name, args, via, depth, remote, written, "query"))
                if run is not None and w.privileged:
                    run.notes.append(("privileged", name))
                return
            if opt in w.code_opts and value is not None:
                code.append(value.text) if not value.dynamic else self.problem(f"{name} {opt} with computed code")
            elif opt in w.split_opts and value is not None:
                code.append(value.text) if not value.dynamic else self.problem(f"{name} {opt} with a computed command")
            elif opt in w.write_opts and value is not None:
                notes.append(("writes", value.text))
            elif opt in w.shell_opts:
                interactive = True
            elif opt in w.exec_opts:
                if key != "ssh" or (value is not None and value.text.split("=", 1)[0].strip().lower() in (
                        "proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "remotecommand")):
                    notes.append(("executes", f"{name} {opt}"))
        rest = args[parsed.rest:] if parsed.rest >= 0 else []
        leading = rest[:w.leading]
        rest = rest[w.leading:]
        if w.leading_writes:
            notes.extend(("writes", x.text) for x in leading)
        if key == "ssh" and leading:
            notes.append(("network", leading[0].text))
            notes.append(("executes", f"runs commands on {leading[0].text}"))
        elif w.network:
            notes.append(("network", name))
        if rest and rest[0].text.startswith("-") and (w.code_opts or w.leading):
            more = parse_options(rest, w.value_opts | w.code_opts, stop_at_operand=True)
            for opt, value in more.opts:
                if opt in w.code_opts and value is not None:
                    code.append(value.text)
            rest = rest[more.rest:] if more.rest >= 0 else []
        if w.assignments or key in ("sudo", "doas"):
            while rest and "=" in rest[0].text and rest[0].text.split("=", 1)[0].isidentifier():
                var = rest[0].text.split("=", 1)[0]
                notes.append(("assigns", var))
                rest = rest[1:]
        inner_via = via + (name,)
        need_carrier = bool(notes) or bool(code) or w.rest_is_code or key == "ssh"
        if need_carrier or (not rest and not code):
            kind = "builtin" if (rest or code) else ("query" if w.alone == "readonly" and not interactive else "builtin")
            run = self.add(self.new_run(cmd, name, args, via, depth, remote, written, kind))
            if run is None:
                return
            run.notes.extend(notes)
            if w.privileged:
                run.notes.append(("privileged", name))
            if not rest and not code:
                if interactive or w.alone == "shell" or (key == "ssh" and leading):
                    run.notes.append(("executes", f"starts an interactive shell ({name})"))
                elif w.alone == "none":
                    run.notes.append(("unknown", f"{name} without a command"))
                return
        remote_inner = remote or w.remote
        for text in code:
            self.nested(text if not rest or key not in ("env",) else text + " " + _text_of(rest), inner_via, depth,
                        remote_inner)
        if code and key == "env":
            return
        if not rest:
            return
        if w.rest_is_code:
            if any(r.dynamic for r in rest):
                self.problem(f"{name} runs a computed command")
            self.nested(_text_of(rest), inner_via, depth, remote_inner)
        else:
            self.invoke(cmd, rest, inner_via, depth, remote_inner)

    def xargs(self, cmd: SimpleCommand, args: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
        w = P.WRAPPERS["xargs"]
        parsed = parse_options(args, w.value_opts, stop_at_operand=True)
        replace = None
        for opt, value in parsed.opts:
            if opt in ("-I", "--replace") and value is not None:
                replace = value.text
            elif opt == "-i":
                replace = "{}"
        rest = args[parsed.rest:] if parsed.rest >= 0 else [_w("echo")]
        start = len(self.out.runs)
        injected = False
        if replace and _runs_code(rest) and replace in _text_of(rest[1:]):
            injected = True
            rest = [rest[0]] + [Word(r.text.replace(replace, "$XARGS_ITEM"), r.dynamic, r.glob, r.quoted)
                                for r in rest[1:]]
        self.invoke(cmd, rest, via + ("xargs",), depth, remote)
        for run in self.out.runs[start:]:
            run.notes.append(("xargs", replace or ""))
        first = self.out.runs[start] if len(self.out.runs) > start else None
        if injected and first is not None:
            first.notes.append(("executes", "input data substituted into code"))
        for value in parsed.values(("-a", "--arg-file")):
            if first is not None:
                first.notes.append(("reads", value.text))

    def parallel(self, cmd: SimpleCommand, args: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
        w = P.WRAPPERS["parallel"]
        parsed = parse_options(args, w.value_opts, stop_at_operand=True)
        rest = args[parsed.rest:] if parsed.rest >= 0 else []
        texts = [r.text for r in rest]
        if ":::" in texts:
            at = texts.index(":::")
            template, inputs = rest[:at], [r for r in rest[at + 1:] if r.text not in (":::", "::::")]
        else:
            template, inputs = rest, []
        if not template:
            run = self.add(self.new_run(cmd, "parallel", args, via, depth, remote))
            if run is not None:  # None past MAX_RUNS, which is already a problem
                run.notes.append(("executes", "runs commands read from its input"))
            return
        base = _text_of(template)
        items = [i.text for i in inputs[:8]] if inputs and not any(i.dynamic for i in inputs) else ["$PARALLEL_ITEM"]
        for item in items:
            text = base.replace("{}", _quote(item)) if "{}" in base else f"{base} {_quote(item)}"
            self.nested(text, via + ("parallel",), depth, remote)

    def runner(self, cmd: SimpleCommand, key: str, args: list[Word], via: tuple[str, ...], depth: int,
               remote: bool) -> None:
        r = P.RUNNERS[key]
        parsed = parse_options(args, r.value_opts | r.code_opts, stop_at_operand=True)
        inner_via = via + (key,)
        for opt, value in parsed.opts:
            if opt in r.code_opts and value is not None:
                self.add(self.new_run(cmd, key.split()[0], args, via, depth, remote, kind="builtin"))
                self.nested(value.text, inner_via, depth, remote)
                return
        rest = args[parsed.rest:] if parsed.rest >= 0 else []
        if r.as_python:
            self.invoke(cmd, [_w("python"), *args], inner_via, depth, remote)
            return
        if not rest:
            run = self.add(self.new_run(cmd, key.split()[0], args, via, depth, remote, kind="builtin"))
            if run is not None:
                run.notes.append(("unknown", f"{key} without a command"))
            return
        if r.fetches:
            tool = rest[0]
            tname = P.canonical(P.resolve_path_program(tool.text.split("@", 1)[0])[0])
            spec = P.spec_for(tname)
            if tool.dynamic or spec is None or spec.category not in (P.TEST_BUILD, P.LINT_FORMAT):
                run = self.add(self.new_run(cmd, tname or tool.text, rest[1:], inner_via, depth, remote))
                if run is not None:
                    run.kind = "builtin"
                    run.notes.append(("executes", f"downloads and runs the package {tool.text}"))
                return
            rest = [_w(tname), *rest[1:]]
        self.invoke(cmd, rest, inner_via, depth, remote)

    # -- shells and code -------------------------------------------------------------------------
    def shell(self, cmd: SimpleCommand, name: str, args: list[Word], via: tuple[str, ...], depth: int, remote: bool,
              written: str) -> None:
        run = self.add(self.new_run(cmd, name, args, via, depth, remote, written, "shell"))
        if run is None:
            return
        has_c = False
        reads_stdin = False
        i = 0
        while i < len(args):
            t = args[i].text
            if t == "--" or t == "-":
                i += 1
                break
            if t in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
                if t in ("--rcfile", "--init-file") and i + 1 < len(args):
                    run.notes.append(("runs", args[i + 1].text))
                i += 2
                continue
            if t.startswith("--"):
                i += 1
                continue
            if t[:1] in ("-", "+") and len(t) > 1:
                letters = t[1:]
                has_c = has_c or "c" in letters
                reads_stdin = reads_stdin or "s" in letters
                i += 1
                continue
            break
        operands = args[i:]
        via_c = via + (f"{name} -c",)
        if has_c:
            if not operands:
                self.problem(f"{name} -c without a command")
                return
            code = operands[0]
            if code.dynamic:
                self.problem(f"{name} -c with computed code")
                run.notes.append(("executes", "computed shell code"))
                return
            positional = {str(k): a.text for k, a in enumerate(operands[1:10])}
            if len(operands) > 2:
                positional["@"] = "\x00".join(a.text for a in operands[2:])
            self.nested(code.text, via_c, depth, remote, positional or None)
            return
        if operands and not reads_stdin:
            run.notes.append(("runs", operands[0].text))
            return
        self.stdin_code(run, name, cmd, via, depth, remote, "shell")

    def stdin_code(self, run: Run, name: str, cmd: SimpleCommand, via: tuple[str, ...], depth: int, remote: bool,
                   lang: str) -> None:
        """A shell or interpreter reading its program from stdin: a heredoc, a pipe, a file or the keyboard."""
        text, source = self._stdin_text(cmd)
        if text is not None:
            self.code(run, lang, text, via + (f"{name} <{source}",), depth, remote)
            return
        redirect = next((r for r in cmd.redirects if r.op in ("<", "<>") and r.target is not None
                         and (r.fd in (None, "0"))), None)
        if redirect is not None and redirect.target is not None:
            run.notes.append(("runs", redirect.target.text))
            return
        if cmd.upstream or (cmd.stdin_dynamic and cmd.stdin_text is not None):
            run.notes.append(("executes", f"code read from stdin ({name})"))
            return
        run.notes.append(("executes", f"starts an interactive {name}"))

    def _stdin_text(self, cmd: SimpleCommand) -> tuple[str | None, str]:
        if cmd.stdin_text is not None:
            return (None, "") if cmd.stdin_dynamic else (cmd.stdin_text, "<heredoc")
        ups = self.ups_of.get(id(cmd), ())
        if len(ups) != 1:
            return None, ""
        return self._literal_output(ups[0])

    @staticmethod
    def _literal_output(producer: Invocation | None) -> tuple[str | None, str]:
        if producer is None or producer.via:
            return None, ""
        words = producer.args
        if producer.program == "echo" and not any(w.dynamic for w in words):
            texts = [w.text for w in words]
            while texts and texts[0] in ("-n", "-e", "-E", "-ne", "-en"):
                texts = texts[1:]
            return " ".join(texts), "pipe from echo"
        if producer.program == "printf" and words and not any(w.dynamic for w in words):
            return decode_ansi_c(words[0].text).replace("%s", " ".join(w.text for w in words[1:])), "pipe from printf"
        if producer.program == "cat" and not words and producer.stdin_text is not None \
                and not producer.command.stdin_dynamic:
            return producer.stdin_text, "pipe from cat"
        return None, ""

    def code(self, run: Run, lang: str, text: str, via: tuple[str, ...], depth: int, remote: bool) -> None:
        """Analyse program text in ``lang`` that ``run`` executes."""
        if lang == "shell":
            self.nested(text, via, depth, remote)
            return
        report = I.analyze_python(text) if lang == "python" else I.analyze_literal_code(text, lang)
        self.report(run, report, via, depth, remote)

    def report(self, run: Run, report: I.CodeReport, via: tuple[str, ...], depth: int, remote: bool) -> None:
        for p in report.problems:
            self.problem(p)
        run.notes.extend(report.notes)
        if report.pure:
            run.notes.append(("pure", ""))
        elif not any(k in ("executes", "runs") for k, _ in report.notes) and run.kind in ("interp",):
            run.notes.append(("executes", f"{run.program} code"))
        for text in report.shell:
            self.nested(text, via, depth, remote)
        for argv in report.argvs:
            if depth + 1 > MAX_DEPTH:
                self.problem(f"scripts nested deeper than {MAX_DEPTH} levels")
                break
            self.synthetic(argv, via, depth + 1, remote)

    def interpreter(self, cmd: SimpleCommand, name: str, key: str, args: list[Word], via: tuple[str, ...],
                    depth: int, remote: bool, written: str) -> None:
        it = P.INTERPRETERS[key]
        run = self.new_run(cmd, name, args, via, depth, remote, written, "interp")
        codes: list[Word] = []
        module: Word | None = None
        script: Word | None = None
        inplace = False
        readonly = False
        reads_stdin = False
        i = 0
        n = len(args)
        while i < n:
            t = args[i].text
            if t == "--":
                i += 1
                break
            if t == "-":
                reads_stdin = True
                i += 1
                break
            if not t.startswith("-") or len(t) < 2:
                break
            if t in it.code_opts:
                if i + 1 < n:
                    codes.append(args[i + 1])
                i += 2
                continue
            if t in it.module_opts:
                module = args[i + 1] if i + 1 < n else None
                i = n
                break
            if t in it.readonly_opts:
                readonly = True
                i += 1
                continue
            if t in it.exec_opts:
                run.notes.append(("executes", f"{name} {t}"))
                i += 2
                continue
            if t in it.value_opts:
                i += 2
                continue
            if t.startswith("--"):
                opt, eq, value = t.partition("=")
                if opt in it.code_opts and eq:
                    codes.append(Word(value, args[i].dynamic))
                elif opt in it.exec_opts:
                    run.notes.append(("executes", f"{name} {opt}"))
                i += 1
                continue
            consumed, stop = self._cluster(t, args, i, it, codes, run, name)
            if "i" in t[1:2] or (it.lang in ("perl", "ruby") and "i" in t and not t.startswith("--")):
                inplace = inplace or _cluster_has_inplace(t)
            if stop == "module" and i + 1 < n:
                module = args[i + 1]
                i = n
                break
            i += consumed
        rest = args[i:]
        if module is None and not codes and rest and not reads_stdin and key != "java":
            script = rest[0]
        if key == "java":
            script = None
            if not readonly or rest:
                run.notes.append(("executes", "runs a Java program"))
        self.add(run)
        if module is not None:
            self.python_module(cmd, run, module, args[args.index(module) + 1:] if module in args else [], via, depth,
                               remote)
            return
        if codes:
            if any(c.dynamic for c in codes):
                self.problem(f"{name} runs computed code")
                run.notes.append(("executes", f"computed {it.lang} code"))
                return
            if inplace:
                run.notes.extend(("writes", w.text) for w in rest)
            elif it.lang in ("perl", "ruby"):
                run.notes.extend(("reads", w.text) for w in rest)
            self.code(run, it.lang, "\n".join(c.text for c in codes), via + (f"{name} -c",), depth, remote)
            return
        if script is not None:
            run.notes.append(("runs", script.text))
            return
        if readonly:
            run.kind = "query"
            return
        if key == "java":
            return
        self.stdin_code(run, name, cmd, via, depth, remote, it.lang)

    @staticmethod
    def _cluster(t: str, args: list[Word], i: int, it: P.Interpreter, codes: list[Word], run: Run,
                 name: str) -> tuple[int, str]:
        """``-pe 'code'``, ``-ne``, ``-pi.bak -e``, ``-MFoo``, ``-Ilib``: single-dash clusters."""
        for j in range(1, len(t)):
            opt = "-" + t[j]
            remainder = t[j + 1:]
            if opt == "-i" and it.lang in ("perl", "ruby"):
                return 1, ""
            if opt in it.code_opts:
                if remainder:
                    codes.append(Word(remainder, args[i].dynamic))
                    return 1, ""
                if i + 1 < len(args):
                    codes.append(args[i + 1])
                return 2, ""
            if opt in it.module_opts:
                return 1, "module"
            if opt in it.exec_opts:
                run.notes.append(("executes", f"{name} {opt}{remainder}"))
                return (1 if remainder else 2), ""
            if opt in it.value_opts:
                return (1 if remainder else 2), ""
            if opt == "-i" and it.lang in ("perl", "ruby"):
                return 1, ""
        return 1, ""

    def python_module(self, cmd: SimpleCommand, run: Run, module: Word, rest: list[Word], via: tuple[str, ...],
                      depth: int, remote: bool) -> None:
        known = P.PYTHON_MODULES.get(module.text)
        if known is None or module.dynamic:
            run.notes.append(("executes", f"runs the python module {module.text}"))
            return
        self.out.runs.remove(run)
        if known.program is not None:
            self.invoke(cmd, [_w(known.program), *rest], via + ("python -m",), depth, remote)
            return
        mod_run = self.add(self.new_run(cmd, run.program, rest, via + ("python -m",), depth, remote, run.written,
                                        "module"))
        if mod_run is not None:
            mod_run.spec = known.spec
            mod_run.notes.append(("module", module.text))

    def builtin_code(self, cmd: SimpleCommand, name: str, args: list[Word], via: tuple[str, ...], depth: int,
                     remote: bool) -> None:
        run = self.add(self.new_run(cmd, name, args, via, depth, remote, kind="builtin"))
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
            if any(a.dynamic for a in args):
                self.problem(f"{name} of a computed string")
                run.notes.append(("executes", f"computed code ({name})"))
                return
            code = _w(_text_of(args))
        if code.dynamic:
            self.problem(f"{name} of a computed string")
            run.notes.append(("executes", f"computed code ({name})"))
            return
        self.nested(code.text, via + (name,), depth, remote)

    def stdin_shell(self, cmd: SimpleCommand, name: str, args: list[Word], via: tuple[str, ...], depth: int,
                    remote: bool, written: str) -> None:
        run = self.add(self.new_run(cmd, name, args, via, depth, remote, written, "builtin"))
        if run is None:
            return
        run.notes.append(("mutates", "schedules commands to run later"))
        text, _ = self._stdin_text(cmd)
        if text is not None:
            self.nested(text, via + (name,), depth, remote)
        else:
            f = next((a.text for a in args if a.text.startswith("-f")), None)
            run.notes.append(("executes", "scheduled commands" if f is None else f"runs a file: {f}"))

    # -- programs with embedded commands ---------------------------------------------------------
    def find(self, cmd: SimpleCommand, run: Run, args: list[Word], via: tuple[str, ...], depth: int,
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
                    self.problem(f"find {t} without a terminating ';' or '+'")
                if segment:
                    first = len(self.out.runs)
                    self.invoke(cmd, segment, via + (f"find {t}",), depth, remote)
                    for nested in self.out.runs[first:]:
                        nested.notes.extend(("find", s.text) for s in starts[:4])
                    if len(self.out.runs) > first and _runs_code(segment) and "{}" in _text_of(segment[1:]):
                        self.out.runs[first].notes.append(("executes", "file names substituted into code"))
                i = j + 1
                continue
            i += 1

    def awk(self, run: Run, args: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
        spec = P.table_spec("awk")
        parsed = parse_options(args, spec.value_opts | spec.pattern_opts, spec.whole)
        if parsed.has(spec.pattern_opts):
            return
        if not parsed.operands:
            return
        prog = parsed.operands[0]
        if prog.dynamic:
            self.problem("awk program is computed")
            return
        report = I.analyze_awk(prog.text)
        report.notes = [(k, v) for k, v in report.notes]
        self.report(run, report, via + ("awk",), depth, remote)

    def sed(self, run: Run, args: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
        spec = P.table_spec("sed")
        parsed = parse_options(args, spec.value_opts)
        scripts = parsed.values(("-e", "--expression"))
        if not scripts and not parsed.has(("-f", "--file")):
            scripts = parsed.operands[:1]
        for s in scripts:
            if s.dynamic:
                self.problem("sed script is computed")
                continue
            if parsed.has(("--sandbox",)):
                continue
            self.report(run, I.analyze_sed(s.text), via + ("sed",), depth, remote)

    def git(self, run: Run, args: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
        """``git -c alias.x='!cmd'`` and ``git -c core.pager=cmd``: the value is shell code."""
        parsed = parse_options(args, P.GIT.value_opts, stop_at_operand=True)
        for opt, value in parsed.opts:
            if opt != "-c" or value is None or "=" not in value.text:
                continue
            key = git_config_key(value.text)
            code = value.text.split("=", 1)[1]
            if key.startswith("alias.") and code.startswith("!"):
                self.nested(code[1:], via + ("git alias",), depth, remote)
            elif key.startswith(GIT_CODE_KEYS) and code.strip():
                self.nested(code, via + (f"git -c {key}",), depth, remote)


_ROUTED = frozenset({*P.WRAPPERS, *P.SHELLS, *(k.split()[0] for k in P.RUNNERS), *P.INTERPRETERS, "eval", "trap",
                     *STDIN_SHELLS})
"""Every program key ``invoke`` treats specially; any other is a plain program run (one set lookup)."""
_EMBEDDING = frozenset({"find", "gfind", "bfs", "awk", "gawk", "mawk", "nawk", "sed", "gsed", "git"})
"""Programs whose arguments may hold commands or code of their own."""


def _runs_code(words: list[Word]) -> bool:
    """Is ``words`` a shell or interpreter given code (``sh -c …``, ``python -c …``)?"""
    if not words or words[0].dynamic:
        return True
    key = P.canonical(P.resolve_path_program(words[0].text)[0])
    return key in P.SHELLS or key in P.INTERPRETERS or key in ("eval", "awk", "gawk", "mawk", "nawk", "sed")


def _cluster_has_inplace(t: str) -> bool:
    if t.startswith("--"):
        return False
    body = t[1:]
    for ch in body:
        if ch == "i":
            return True
        if ch in "eEIMmFlx0C":
            return False
    return False


def _quote(text: str) -> str:
    if text and all(c.isalnum() or c in "@%+=:,./-_" for c in text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"
