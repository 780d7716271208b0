"""tree-sitter-bash itself, loaded on the first line the plain fast path does not take, and parsed within a
time budget (``shell.parse`` walks the tree)."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from tree_sitter import Parser

_PARSER: Parser | None = None  # declared: a compiled module checks the type of what is stored here


def bash_parser() -> Parser:
    global _PARSER
    if _PARSER is None:
        import tree_sitter_bash  # lean start-up: most lines never need the grammar (the plain fast path)
        from tree_sitter import Language, Parser

        _PARSER = Parser(Language(tree_sitter_bash.language()))
    return _PARSER


FIRST_UNPARSEABLE: Final = "\U00040000"
"""tree-sitter-bash 0.25 crashes (SIGSEGV, one run in two) on ``{`` then a code point from about U+54000 up;
planes 4 and up hold only tags and private use, so such a line is refused unparsed: never understood."""


LARGE_SOURCE: Final = 4096
PARSE_BUDGET_SECONDS: Final = 0.5
_CHUNK: Final = 1024
"""tree-sitter's error recovery is quadratic on long runs of operators (``cmd >>>>…``, ``||||…``: 16 KB of ``||``
take 2 s, 230 KB minutes). A line longer than ``LARGE_SOURCE`` bytes is fed through a reader that ends the input
once the budget is spent; what was not read is a problem (not understood). The reader hands out 1 KB at a time:
given the whole rest at once, tree-sitter may never ask again (a 180 KB ``$(date …)`` chain took 6 s in one call)."""


def tree_of(data: bytes) -> tuple[Any, bool]:
    """The tree of ``data``, and whether the parse budget cut it short."""
    if len(data) <= LARGE_SOURCE:
        return bash_parser().parse(data), False
    deadline = time.monotonic() + PARSE_BUDGET_SECONDS
    view = memoryview(data)
    cut = [False]

    def read(offset: int, point: Any) -> Any:
        if time.monotonic() > deadline:
            cut[0] = True
            return b""
        return view[offset:offset + _CHUNK]  # small pieces: the parser comes back here often enough to be stopped

    return bash_parser().parse(read), cut[0]



__all__ = ["FIRST_UNPARSEABLE", "LARGE_SOURCE", "PARSE_BUDGET_SECONDS", "bash_parser", "tree_of"]
