"""What a permission rule is: ``Rule`` as written in a policy or settings file, the error for one that
cannot be parsed, and the tools a rule names (``Read(…)`` covers every reading tool).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class RuleSyntaxError(ValueError):
    """A permission rule that cannot be parsed; the message says what was expected."""


@dataclass(frozen=True)
class Rule:
    """One permission rule as written in a policy or settings file."""

    text: str
    tool: str
    specifier: str | None
    root: str | None = None
    source: str | None = None
    _matcher: Any = field(default=None, compare=False, repr=False, hash=False)  # a Matcher, compiled once


# -- tools -----------------------------------------------------------------------------------------

FILE_KEYS = {"Read": "file_path", "Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path",
             "NotebookEdit": "notebook_path"}
DIR_TOOLS = ("Glob", "Grep")
PATH_TOOLS = (*FILE_KEYS, *DIR_TOOLS)
FAMILIES = {"Read": frozenset({"Read", "Glob", "Grep"}),
            "Edit": frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})}
"""Claude Code applies ``Read(…)`` rules to every reading tool and ``Edit(…)`` to every editing tool."""
WITH_SPECIFIER = ("Bash", *PATH_TOOLS, "WebFetch")


def tools_of(rule_tool: str) -> frozenset[str]:
    return FAMILIES.get(rule_tool, frozenset({rule_tool}))
