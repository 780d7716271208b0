"""``Invocation``: one program run, after wrappers are peeled off and nested scripts expanded.

``sudo -u x timeout 5 bash -c 'rm -rf ~'`` yields an invocation of ``sudo`` … and, inside it, one of
``rm`` with ``via = ("sudo", "timeout", "bash -c")``. The Tier 1 detectors and the Tier 2 classifier
both look at invocations, never at raw strings.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from phlegyas.analysis.shell.parse import SimpleCommand, Word


@dataclass(slots=True, init=False)
class Invocation:
    program: str  # basename as the shell resolves it ("/bin/rm" → "rm"); "" when dynamic
    args: list[Word]  # the words after the program name
    command: SimpleCommand  # the simple command it came from (redirects, assignments, source text)
    via: tuple[str, ...] = ()  # how it was reached: "sudo", "bash -c", "eval", "find -exec", "xargs", "ssh" …
    upstream: list["Invocation"] = field(default_factory=list)  # what pipes into its stdin
    stdin_text: str | None = None  # a heredoc / here-string body it reads
    remote: bool = False  # runs on another host (ssh host CMD)

    def __init__(self, program: str, args: list[Word], command: SimpleCommand, via: tuple[str, ...] = (),
                 upstream: list[Invocation] | None = None, stdin_text: str | None = None, remote: bool = False) -> None:
        # hand-written, as the records of shell.syntax: mypyc compiles it
        self.program = program
        self.args = args
        self.command = command
        self.via = via
        self.upstream = [] if upstream is None else upstream
        self.stdin_text = stdin_text
        self.remote = remote

    @property
    def argv(self) -> list[str]:
        return [self.program, *(w.text for w in self.args)]

    @property
    def dynamic(self) -> bool:
        """The program name is not known before the shell runs (``$x``, ``$(…)``)."""
        return self.program == ""

    @property
    def privileged(self) -> bool:
        return any(v in ("sudo", "doas", "pkexec", "su", "run0") for v in self.via)
