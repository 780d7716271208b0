"""Tier 1: environment assignments that are dangerous whatever the command (class ``env.code_injection``).

``LD_PRELOAD=/tmp/x.so ls`` makes every program started load the library first; ``BASH_ENV=/tmp/x`` makes
every non-interactive bash source the file; ``PYTHONPATH=/tmp/evil`` puts a shared temp directory before
the project's modules. Tier 2 already refuses them; a finding keeps them from being allowed by a mode or
a broad allow rule. Commands a variable carries (``GIT_SSH_COMMAND='curl … | sh'``) are expanded as code by
the walk, so the usual detectors see them. Messages name the variable and the path, never other values.
"""
from __future__ import annotations

from typing import Final

from phlegyas.analysis import paths
from phlegyas.analysis.shell import env_vars as V
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Word
from phlegyas.analysis.tier1.base import Out, add, env_for
from phlegyas.analysis.tier1.words import in_project, resolve
from phlegyas.core.analysis import AnalysisEnv

_ENV_WRAPPERS: Final = frozenset({"env", "sudo", "doas"})


def assignments_of(inv: Invocation) -> list[tuple[str, Word]]:
    """The prefix assignments of ``inv``'s command, those of ``export``/``declare``, and the ``NAME=value``
    operands ``env`` (or ``sudo``) passes on."""
    pairs = list(inv.command.assignments)
    if inv.program in _ENV_WRAPPERS or inv.program in ("export", "declare", "typeset", "local"):
        for a in inv.args:
            name, eq, value = a.text.partition("=")
            if eq and name.isidentifier():
                pairs.append((name, Word(value, a.dynamic, a.glob, a.quoted)))
            elif inv.program in _ENV_WRAPPERS and not a.text.startswith("-"):
                break
    return pairs


def detect_environment(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    pairs = assignments_of(inv)
    if not pairs:
        return
    env = env_for(inv, env)
    for name, value in pairs:
        if name in V.INJECTION_VARS:
            if value.text.strip() or value.dynamic:
                add(out, "env.code_injection", inv, f"{name} makes every program it starts load "
                                                    f"{_shown(value)} first")
        elif name in V.STARTUP_FILE_VARS:
            if _elsewhere(value, env):
                add(out, "env.code_injection", inv, f"{name} makes the shell or Python run {_shown(value)}, "
                                                    "which is not in the project")
        elif name in V.TIER1_PATH_VARS:
            for part in value.text.split(":"):
                if part and not value.dynamic and paths.is_temp_path(resolve(part, env)):
                    add(out, "env.code_injection", inv, f"{name} loads code from {part}, a shared temp directory")
                    break


def _elsewhere(value: Word, env: AnalysisEnv) -> bool:
    """Computed, in a temp directory, or outside the project."""
    if value.dynamic:
        return True
    if not value.text.strip():
        return False
    path = resolve(value.text, env)
    return paths.is_temp_path(path) or not in_project(path, env)


def _shown(value: Word) -> str:
    return "a computed path" if value.dynamic else (value.text[:80] or "nothing")
