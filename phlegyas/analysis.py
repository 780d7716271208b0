"""What the analysis hands the engine: one ``Analysis`` per call, of any tool.

Tier 1, protected paths, ``plan`` mode, Tier 2 and ``acceptEdits`` are all views over it, so the call
is analysed once. ``analyze`` dispatches on the tool: Bash goes through the shell analysis, file tools
through path checks, the rest through the tool tables.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .model import Finding


@dataclass(frozen=True)
class AnalysisEnv:
    """Where the call happens: everything the analysis may need besides the call itself."""

    cwd: str
    home: str
    project_root: str
    safe_write_dirs: tuple[str, ...] = ()
    user_patterns: object | None = None  # tier2_safe.SafePatternStore, when the user has one


@dataclass
class Subcommand:
    """One simple command that will run (after wrappers are peeled), as the analysis saw it."""

    text: str
    program: str | None
    effects: list[str] = field(default_factory=list)  # "reads src/a.py", "writes /tmp/x", "network", …
    safe: str | None = None  # the Tier 2 category when this subcommand alone is safe
    findings: list[Finding] = field(default_factory=list)


@dataclass
class Analysis:
    findings: list[Finding] = field(default_factory=list)
    subcommands: list[Subcommand] = field(default_factory=list)
    readonly: bool = False  # changes nothing anywhere: what `plan` mode lets through
    safe: str | None = None  # the Tier 2 category when the whole call is safe
    edit_in_project: bool = False  # a file edit or basic fs command only inside the project (acceptEdits)
    understood: bool = True  # False when anything could not be parsed or resolved
