"""``Effects``: what one invocation does, and the literal words the rules add to it.

Paths read, listed, written and deleted (as words, normalized later against the cwd), code executed,
network use, uploads, state changes, secrets shown. Shared by the generic rules (``shell.effects``),
the handlers (``shell.handlers``) and the report (``analysis.report``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from phlegyas.analysis.shell.parse import Word


@dataclass(slots=True, init=False)
class Effects:
    """Everything one invocation does; paths are words as written (normalized by the caller)."""

    reads: list[Word] = field(default_factory=list)
    lists: list[Word] = field(default_factory=list)  # looked at (names, sizes), not read
    hunts: list[Word] = field(default_factory=list)  # name filters' searches (`find ~ -name 'id_*'` → ~/**/id_*)
    writes: list[Word] = field(default_factory=list)
    deletes: list[tuple[Word, bool]] = field(default_factory=list)  # (path, recursive)
    uploads: list[Word] = field(default_factory=list)
    loads: list[Word] = field(default_factory=list)  # code, config or plugins it loads (``make -f x.mk``)
    runs: list[str] = field(default_factory=list)  # "executes code (…)", "runs a file: x.sh"
    mutates: list[str] = field(default_factory=list)  # changes that no Tier 2 category covers
    changes: list[str] = field(default_factory=list)  # changes its category expects (git commit, npm install)
    blockers: list[str] = field(default_factory=list)  # why it is not safe although nothing above says so
    secrets: list[str] = field(default_factory=list)  # secrets it shows (a token, a Kubernetes secret)
    network: bool = False
    unknown: str | None = None
    category: str | None = None

    def __init__(self, reads: list[Word] | None = None, lists: list[Word] | None = None,
                 writes: list[Word] | None = None, deletes: list[tuple[Word, bool]] | None = None,
                 uploads: list[Word] | None = None, loads: list[Word] | None = None, runs: list[str] | None = None,
                 mutates: list[str] | None = None, changes: list[str] | None = None,
                 blockers: list[str] | None = None, secrets: list[str] | None = None, network: bool = False,
                 unknown: str | None = None, category: str | None = None, hunts: list[Word] | None = None) -> None:
        # a hand-written __init__ (see shell.syntax): mypyc compiles it
        self.reads = [] if reads is None else reads
        self.lists = [] if lists is None else lists
        self.hunts = [] if hunts is None else hunts
        self.writes = [] if writes is None else writes
        self.deletes = [] if deletes is None else deletes
        self.uploads = [] if uploads is None else uploads
        self.loads = [] if loads is None else loads
        self.runs = [] if runs is None else runs
        self.mutates = [] if mutates is None else mutates
        self.changes = [] if changes is None else changes
        self.blockers = [] if blockers is None else blockers
        self.secrets = [] if secrets is None else secrets
        self.network = network
        self.unknown = unknown
        self.category = category

    @property
    def readonly(self) -> bool:
        return not (self.writes or self.deletes or self.uploads or self.runs or self.mutates or self.changes
                    or self.unknown is not None)


def new_effects(category: str | None = None) -> Effects:
    """An empty ``Effects`` of ``category``."""
    return Effects(category=category)


def literal(text: str) -> Word:
    """A literal word (as if quoted): the paths the rules make up, ``.``, ``index.html`` …"""
    return Word(text, quoted=True)
