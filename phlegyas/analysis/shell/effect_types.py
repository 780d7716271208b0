"""``Effects``: what one invocation does, and the literal words the rules add to it.

Paths read, listed, written and deleted (as words, normalized later against the cwd), code executed,
network use, uploads, state changes, secrets shown. Shared by the generic rules (``shell.effects``),
the handlers (``shell.handlers``) and the report (``analysis.report``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from phlegyas.analysis.shell.parse import Word


@dataclass(slots=True)
class Effects:
    """Everything one invocation does; paths are words as written (normalized by the caller)."""

    reads: list[Word] = field(default_factory=list)
    lists: list[Word] = field(default_factory=list)  # looked at (names, sizes), not read
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

    @property
    def readonly(self) -> bool:
        return not (self.writes or self.deletes or self.uploads or self.runs or self.mutates or self.changes
                    or self.unknown is not None)


def new_effects(category: str | None = None) -> Effects:
    """An empty ``Effects`` (built positionally: faster than the dataclass's default factories)."""
    return Effects([], [], [], [], [], [], [], [], [], [], [], False, None, category)


def literal(text: str) -> Word:
    """A literal word (as if quoted): the paths the rules make up, ``.``, ``index.html`` …"""
    return Word(text, quoted=True)
