"""Small helpers over Python's ``ast`` shared by the readers of Python code (``shell.printed``,
``shell.interpreters.python_flow``)."""
from __future__ import annotations

import ast


def attribute_path(node: ast.AST) -> tuple[list[str], ast.AST]:
    """The attribute names of ``a.b.c`` from the outside in (``["c", "b"]``) and what they hang on (``a``)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return parts, node


def dotted_name(node: ast.AST) -> str:
    """``os.path.join`` for that expression; the attributes alone when they hang on no name."""
    parts, base = attribute_path(node)
    if isinstance(base, ast.Name):
        parts.append(base.id)
    return ".".join(reversed(parts))


__all__ = ["attribute_path", "dotted_name"]
