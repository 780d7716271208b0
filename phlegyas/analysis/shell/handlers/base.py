"""What a handler sees (``Call``) and the helpers the handler families share."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.effect_types import Effects
from phlegyas.analysis.shell.options import Parsed
from phlegyas.analysis.shell.parse import Word


@dataclass(slots=True, init=False)
class Call:
    """What a handler sees."""

    name: str
    args: list[Word]  # after the subcommand path
    parsed: Parsed
    eff: Effects
    path: list[str]
    top: Parsed | None
    spec: P.Spec

    def __init__(self, name: str, args: list[Word], parsed: Parsed, eff: Effects, path: list[str], top: Parsed | None,
                 spec: P.Spec) -> None:  # hand-written: mypyc compiles it (see shell.syntax)
        self.name = name
        self.args = args
        self.parsed = parsed
        self.eff = eff
        self.path = path
        self.top = top
        self.spec = spec


Handler = Callable[[Call], None]


def operand_texts(c: Call) -> list[str]:
    return [w.text for w in c.parsed.operands]


def mutate(c: Call, what: str) -> None:
    c.eff.changes.clear()
    c.eff.mutates.append(what)


def read_only(c: Call) -> None:
    c.eff.changes.clear()
    c.eff.mutates.clear()
    if c.eff.category is None:
        c.eff.category = P.READ_ONLY


def is_remote(text: str) -> bool:
    if text.startswith("rsync://") or "::" in text:
        return True
    head, colon, _ = text.partition(":")
    return bool(colon) and bool(head) and "/" not in head and not text.startswith(("/", "./", "~"))


def urls(ops: list[Word], eff: Effects) -> None:
    for op in ops:
        text = op.text
        scheme, sep, _ = text.partition("://")
        if text.startswith("file:"):
            eff.reads.append(Word(text[5:].lstrip("/") and "/" + text[5:].lstrip("/"), op.dynamic))
        elif op.dynamic:
            eff.blockers.append(f"computed URL {text}")
        elif sep and scheme.lower() not in ("http", "https"):
            eff.blockers.append(f"{scheme} URL (not a plain web request)")
