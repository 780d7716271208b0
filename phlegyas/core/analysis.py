"""What the analysis hands the engine: one ``Analysis`` per call, of any tool, and where it happens.

Tier 1, protected paths, ``plan`` mode, Tier 2 and ``acceptEdits`` are all views over it, so the call
is analysed once (``phlegyas.analysis.dispatch.analyze``). These types are the vocabulary the engine,
the checkers and every tier share; they hold data only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from phlegyas.core.model import Finding


@dataclass(frozen=True)
class AnalysisEnv:
    """Where the call happens: everything the analysis may need besides the call itself."""

    cwd: str
    home: str
    project_root: str
    safe_write_dirs: tuple[str, ...] = ()
    user_patterns: Any = None  # analysis.tier2.SafePatternStore (or anything with its methods), when the user has one
    sensitive_paths: tuple[str, ...] = ()  # more secret places, from the policy (settings.sensitive_paths)
    local_ports: tuple[int, ...] = ()  # localhost ports served by the user's dev servers (settings.local_ports)
    # the gate's own state: its data directory (ending in "/": approvals, cache, audit, policy, tokens), the
    # trust store and the safe-patterns file; () = the default places under ~/.claude
    gate_state: tuple[str, ...] = ()


@dataclass(slots=True, init=False)
class Subcommand:
    """One simple command that will run (after wrappers are peeled), as the analysis saw it."""

    text: str
    program: str | None
    effects: list[str] = field(default_factory=list)  # "reads src/a.py", "writes /tmp/x", "network", …
    safe: str | None = None  # the Tier 2 category when this subcommand alone is safe
    findings: list[Finding] = field(default_factory=list)
    via: tuple[str, ...] = ()  # how it was reached ("sudo", "bash -c", "find -exec" …)
    readonly: bool = True  # this subcommand alone changes nothing

    def __init__(self, text: str, program: str | None, effects: list[str] | None = None, safe: str | None = None,
                 findings: list[Finding] | None = None, via: tuple[str, ...] = (), readonly: bool = True) -> None:
        # hand-written (``init=False``): mypyc compiles it, a dataclass's generated one stays interpreted
        self.text = text
        self.program = program
        self.effects = [] if effects is None else effects
        self.safe = safe
        self.findings = [] if findings is None else findings
        self.via = via
        self.readonly = readonly


@dataclass(init=False)
class Analysis:
    findings: list[Finding] = field(default_factory=list)
    subcommands: list[Subcommand] = field(default_factory=list)
    readonly: bool = False  # changes nothing anywhere: what `plan` mode lets through
    safe: str | None = None  # the Tier 2 category when the whole call is safe
    edit_in_project: bool = False  # a file edit or basic fs command only inside the project (acceptEdits)
    understood: bool = True  # False when anything could not be parsed or resolved
    problems: list[str] = field(default_factory=list)  # why it is not understood
    script: object | None = field(default=None, repr=False, compare=False)  # the parsed Bash command, as parsed

    def __init__(self, findings: list[Finding] | None = None, subcommands: list[Subcommand] | None = None,
                 readonly: bool = False, safe: str | None = None, edit_in_project: bool = False,
                 understood: bool = True, problems: list[str] | None = None, script: object | None = None) -> None:
        self.findings = [] if findings is None else findings  # hand-written, as Subcommand's
        self.subcommands = [] if subcommands is None else subcommands
        self.readonly = readonly
        self.safe = safe
        self.edit_in_project = edit_in_project
        self.understood = understood
        self.problems = [] if problems is None else problems
        self.script = script


__all__ = ["Analysis", "AnalysisEnv", "Subcommand"]



def explain_lines(analysis: Analysis) -> list[str]:
    """What the analysis found, one line each, as ``phlegyas check`` prints it (unindented): per
    subcommand its text, program and Tier 2 verdict, the chain that runs it, its effects and findings
    (the findings alone when the call has no subcommands)."""
    if not analysis.subcommands:
        return [f"! {f.id} ({f.severity}): {f.message}" for f in analysis.findings]
    lines: list[str] = []
    for i, sub in enumerate(analysis.subcommands, 1):
        tag = f"safe: {sub.safe}" if sub.safe else "not known safe"
        lines.append(f"{i}. {sub.text}   [{sub.program or 'dynamic program'}; {tag}]")
        if sub.via:  # the chain that runs it: `git bisect run → rm`, `sudo → bash -c → rm`
            lines.append(f"     - runs through {' → '.join((*sub.via, sub.program or 'a computed program'))}")
        lines.extend(f"     - {effect}" for effect in sub.effects)
        lines.extend(f"     ! {f.id} ({f.severity}): {f.message}" for f in sub.findings)
    return lines


def not_understood(analysis: Analysis) -> str | None:
    """Why the call is not understood as a whole (the first five problems), or None."""
    if not analysis.problems:
        return None
    shown = list(dict.fromkeys(analysis.problems))
    more = f" (+{len(shown) - 5} more)" if len(shown) > 5 else ""
    return f"not understood: {'; '.join(shown[:5])}{more}"
