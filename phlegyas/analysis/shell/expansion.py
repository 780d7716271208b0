"""What an expansion produces (``Run``, ``Expansion``) and the walker state all its parts share.

``Walk`` holds the expansion being built with its limits (``MAX_RUNS`` commands, ``MAX_DEPTH`` levels of
nested scripts) and the two steps of the walk, ``script`` and ``invoke``, which ``shell.analyze``
defines. The modules that expand wrappers, nested code, interpreters and embedded commands take a
``Walk`` and call back into it; the small word helpers they share are here too.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Script, SimpleCommand, Word, parse

MAX_DEPTH: Final = 8
MAX_RUNS: Final = 500


@dataclass(slots=True, eq=False, init=False)
class Run(Invocation):
    """An ``Invocation`` plus what the expansion learnt about it."""

    written: str = ""  # the program word as written (``/usr/bin/rm``, ``./x.sh``)
    kind: str = "program"  # program | file | shell | interp | module | builtin | query | dynamic
    notes: list[tuple[str, str]] = field(default_factory=list)  # effects found while expanding
    spec: P.Spec | None = None  # a programs.Spec that overrides the table (``python -m venv``)
    depth: int = 0

    def __init__(self, program: str, args: list[Word], command: SimpleCommand, via: tuple[str, ...] = (),
                 upstream: list[Invocation] | None = None, stdin_text: str | None = None, remote: bool = False,
                 written: str = "", kind: str = "program", notes: list[tuple[str, str]] | None = None,
                 spec: P.Spec | None = None, depth: int = 0) -> None:
        Invocation.__init__(self, program, args, command, via, upstream, stdin_text, remote)
        self.written = written
        self.kind = kind
        self.notes = [] if notes is None else notes
        self.spec = spec
        self.depth = depth


@dataclass(slots=True, init=False)
class Expansion:
    runs: list[Run] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    scripts: list[tuple[Script, list[Run]]] = field(default_factory=list)
    commands: list[SimpleCommand] = field(default_factory=list)  # every simple command seen, in order

    def __init__(self) -> None:
        self.runs = []
        self.problems = []
        self.scripts = []
        self.commands = []

    @property
    def understood(self) -> bool:
        return not self.problems


class Walk:
    """One expansion in progress: its result, the producers piped into each command, and the steps
    (``script``, ``invoke``) that ``shell.analyze`` implements."""

    def __init__(self) -> None:
        self.out = Expansion()
        self.ups_of: dict[int, list[Invocation]] = {}
        self.functions: dict[str, str] = {}  # shell functions the line defines: name → body
        self.aliases: dict[str, str] = {}  # aliases the line defines: name → what it stands for
        self.written: dict[str, str] = {}  # files the line writes with literal content: path as written → text
        self.values: dict[str, str] = {}  # the literal variables of the script being walked (shell.variables)
        self.given: list[tuple[str, Word]] = []  # what a wrapper (`env X=v cmd`) assigns for the command it runs
        self.git_aliases: dict[str, str] = {}  # `git config alias.x 'push -f'` earlier in the line: x → push -f

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
        return Run(program, args, cmd, via, [], None, remote, written or program, kind, [], None, depth)

    # -- the walk (defined by shell.analyze) -----------------------------------------------------
    def script(self, script: Script, via: tuple[str, ...], depth: int, remote: bool,
               positional: dict[str, str] | None) -> list[Run]:
        """Expand every command of ``script``; the runs it produced."""
        raise NotImplementedError

    def invoke(self, cmd: SimpleCommand, words: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
        """Expand the command ``words`` (of ``cmd``)."""
        raise NotImplementedError

    # -- code and commands found inside a command ------------------------------------------------
    def nested(self, code: str, via: tuple[str, ...], depth: int, remote: bool,
               positional: dict[str, str] | None = None) -> list[Run]:
        if depth + 1 > MAX_DEPTH:
            self.problem(f"scripts nested deeper than {MAX_DEPTH} levels")
            return []
        return self.script(parse(code), via, depth + 1, remote, positional)

    def run_written(self, path: str, via: tuple[str, ...], depth: int, remote: bool) -> bool:
        """Expand the content of a file this line wrote with literal text, when ``path`` runs it."""
        code = self.written.get(path[2:] if path.startswith("./") else path) if self.written else None
        if code is None:
            return False
        self.nested(code, via + (f"{path} (written earlier in the line)",), depth, remote)
        return True

    def synthetic(self, argv: list[str], via: tuple[str, ...], depth: int, remote: bool) -> None:
        words = [literal(a) for a in argv]
        cmd = SimpleCommand(words=words, origin="synthetic", text=" ".join(quote(a) for a in argv))
        self.out.commands.append(cmd)
        self.invoke(cmd, words, via, depth, remote)


def literal(text: str) -> Word:
    return Word(text, quoted=True)


def text_of(words: list[Word]) -> str:
    return " ".join(w.text for w in words)


def quote(text: str) -> str:
    if text and all(c.isalnum() or c in "@%+=:,./-_" for c in text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def runs_code(words: list[Word]) -> bool:
    """Is ``words`` a shell or interpreter given code (``sh -c …``, ``python -c …``)?"""
    if not words or words[0].dynamic:
        return True
    key = P.canonical(P.resolve_path_program(words[0].text)[0])
    return key in P.SHELLS or key in P.INTERPRETERS or key in ("eval", "awk", "gawk", "mawk", "nawk", "sed")
