"""The result every code analysis returns: what the code runs, touches and could not be understood."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class CodeReport:
    shell: list[str] = field(default_factory=list)  # literal shell command lines the code runs
    argvs: list[list[str]] = field(default_factory=list)  # literal argv lists it runs or stands for
    notes: list[tuple[str, str]] = field(default_factory=list)  # (kind, detail): writes/reads/network/executes/mutates
    problems: list[str] = field(default_factory=list)  # what could not be understood
    pure: bool = False  # only computes and prints
    imports: list[str] = field(default_factory=list)  # modules we do not know whose version it reads
