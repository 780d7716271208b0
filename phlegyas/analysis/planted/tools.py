"""The caller's shell analysis, handed to the planted-code judges (``report`` judges redirections with
``planted``, so ``planted`` cannot import it back)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from phlegyas.analysis.shell.analyze import Run
from phlegyas.analysis.shell.effect_types import Effects
from phlegyas.core.analysis import Analysis, AnalysisEnv
from phlegyas.core.redact import redact


@dataclass(frozen=True)
class ShellTools:
    """The caller's shell analysis: a command line → ``Analysis``, and one run → its ``Effects``."""

    analyze: Callable[[str, AnalysisEnv], Analysis]
    effects: Callable[[Run], Effects]


def short(text: str) -> str:
    """A snippet as a person reads it in a reason: one line, cut short, secrets blanked (the reason is
    shown and logged; a token in the content must not be)."""
    line = redact(" ".join(text.split()))
    return repr(line if len(line) <= 60 else line[:57] + "...")


__all__ = ["ShellTools", "short"]
