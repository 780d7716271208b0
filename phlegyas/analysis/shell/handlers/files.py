"""File utilities whose outputs flags cannot name: ``dd`` operands, ``split``/``csplit`` pieces, ``mktemp``."""
from __future__ import annotations

import posixpath

from phlegyas.analysis.shell.effect_types import literal
from phlegyas.analysis.shell.handlers.base import Call
from phlegyas.analysis.shell.parse import Word


def mktemp(c: Call) -> None:
    if c.parsed.has(("-u", "--dry-run")):
        return
    where = c.parsed.values(("-p", "--tmpdir"))
    ops = c.parsed.operands
    if where:
        c.eff.writes.append(Word(posixpath.join(where[-1].text, "tmp.X"), where[-1].dynamic))
    elif ops and "/" in ops[0].text and not c.parsed.has(("-t",)):
        c.eff.writes.append(ops[0])
    else:
        c.eff.writes.append(literal("/tmp/tmp.X"))


def dd(c: Call) -> None:
    for op in c.parsed.operands:
        key, eq, value = op.text.partition("=")
        if not eq:
            continue
        word = Word(value, op.dynamic, op.glob, op.quoted)
        if key == "if":
            c.eff.reads.append(word)
        elif key == "of":
            c.eff.writes.append(word)


def split(c: Call) -> None:
    ops = c.parsed.operands
    prefix = c.parsed.values(("-f", "--prefix"))
    if c.name == "csplit":
        base = prefix[-1].text if prefix else "xx"
        c.eff.reads[:] = ops[:1]
    else:
        base = ops[1].text if len(ops) > 1 else "x"
        c.eff.reads[:] = ops[:1]
    c.eff.writes.append(literal(base + "*"))
