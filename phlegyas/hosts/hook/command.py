"""The command line a host runs for each hook call: the hook client, without pip's console-script wrapper.

``-P`` keeps the working directory (the project, which may be hostile) off ``sys.path``: without it a
``phlegyas/`` directory in the project would be imported instead. The launcher imports the client
directly: pip's wrapper's ``import re`` costs more than the rest of the hook (benchmarks/hook_latency.py:
1.4x ``python -c pass`` this way, 2.1x through the wrapper).
"""
from __future__ import annotations

import os
import shlex

HOOK_MODULE = "phlegyas.hosts.hook.client"
HOOK_LAUNCHER = f"from {HOOK_MODULE} import main; raise SystemExit(main())"
HOOK_MODULES = (HOOK_MODULE, "phlegyas.hosts.claude_code.hook", "phlegyas.hook")
"""Every module path a phlegyas hook command has named (installs before 0.3 wrote the second, before 0.2
the third; both still forward to the client), so install rewrites such entries and uninstall removes them."""


def hook_command(python: str, agent: str | None = None) -> str:
    """``python -P -c 'from phlegyas.hosts.hook.client import …' [--agent NAME]``."""
    words = [os.path.abspath(python), "-P", "-c", HOOK_LAUNCHER]
    return shlex.join(words + (["--agent", agent] if agent else []))


def is_phlegyas_command(command: object) -> bool:
    """Whether a hook command runs phlegyas: any path to ``phlegyas-hook``, ``phlegyas hook``, ``python -m``
    or ``-c 'from … import'`` of any of ``HOOK_MODULES``."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if not words:
        return False
    program = os.path.basename(words[0])
    if program == "phlegyas-hook":
        return True
    if program == "phlegyas" and words[1:2] == ["hook"]:
        return True
    for flag, value in zip(words, words[1:]):
        if flag == "-m" and value in HOOK_MODULES:
            return True
        if flag == "-c" and any(f"from {module} import" in value for module in HOOK_MODULES):
            return True
    return False
