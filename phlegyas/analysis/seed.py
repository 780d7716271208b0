"""The seed's public detectors, kept as it documented them, on top of the full analysis.

``DangerousPatternDetector().is_dangerous(tool_name, tool_input) -> (bool, reason)`` (Tier 1) and
``SafeOperationDetector().is_safe(tool_name, tool_input, cwd=None) -> (bool, category)`` (Tier 2).
``phlegyas.tier1_dangerous`` and ``phlegyas.tier2_safe``, the seed's import paths, re-export them.
"""
from __future__ import annotations

import os
import pwd

from phlegyas.analysis.dispatch import analyze
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Script, parse
from phlegyas.analysis.tier1.findings import file_tool_findings, invocation_findings, script_findings
from phlegyas.analysis.tier2 import SafePatternStore
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding, ToolCall, Verdict

__all__ = ["DangerousPatternDetector", "SafeOperationDetector"]


# -- the seed's API --------------------------------------------------------------------------------------


def _default_env() -> AnalysisEnv:
    cwd = os.getcwd()
    home = pwd.getpwuid(os.getuid()).pw_dir
    return AnalysisEnv(cwd=cwd, home=home, project_root=cwd)


def _plain_invocations(script: Script) -> list[Invocation]:
    """Invocations straight from the parse (no wrapper peeling): the fallback when the full shell
    analysis is not available."""
    by_index: dict[int, Invocation] = {}
    for i, cmd in enumerate(script.commands):
        if cmd.words:
            by_index[i] = Invocation(program=cmd.program or "", args=cmd.words[1:], command=cmd,
                                     stdin_text=cmd.stdin_text)
    for i, inv in by_index.items():
        inv.upstream = [by_index[u] for u in script.commands[i].upstream if u in by_index]
    return list(by_index.values())


def _findings(call: ToolCall, env: AnalysisEnv) -> list[Finding]:
    """Through the full analysis (which peels wrappers) when it is installed, else straight from the parse."""
    try:
        return list(analyze(call, env).findings)
    except ImportError:  # the analysis is not (fully) installed: judge what the parse shows
        return _plain_findings(call, env)


def _plain_findings(call: ToolCall, env: AnalysisEnv) -> list[Finding]:
    if call.tool_name != "Bash":
        return file_tool_findings(call, env)
    script = parse(call.command or "")
    invocations = _plain_invocations(script)
    found = [f for inv in invocations for f in invocation_findings(inv, env)]
    return found + script_findings(script, invocations, env)


class DangerousPatternDetector:
    """The seed's Tier 1 API: ``is_dangerous(tool_name, tool_input) -> (True, reason)`` when any finding
    of the call carries a deny severity."""

    def __init__(self, env: AnalysisEnv | None = None):
        self.env = env

    def is_dangerous(self, tool_name: str, tool_input: dict) -> tuple[bool, str | None]:
        env = self.env or _default_env()
        if not isinstance(tool_input, dict):
            return True, "invalid input: tool_input must be an object"
        call = ToolCall(tool_name=tool_name, tool_input=tool_input, cwd=env.cwd)
        if tool_name == "Bash" and not isinstance(tool_input.get("command"), str):
            return True, "invalid input: Bash needs a string 'command'"
        try:
            findings = _findings(call, env)
        except Exception as exc:  # noqa: BLE001 - fail closed
            return True, f"internal error while checking: {type(exc).__name__}: {exc}"
        deny = [f for f in findings if f.severity is Verdict.DENY]
        if not deny:
            return False, None
        return True, f"{deny[0].message} [{deny[0].id}]"


# -- the seed's detector --------------------------------------------------------------------------

class SafeOperationDetector:
    """``is_safe(tool_name, tool_input, cwd=None) -> (bool, category)``, on the full analysis."""

    def __init__(self, user_store: SafePatternStore | None = None, *, home: str = "/nonexistent-home",
                 project_root: str | None = None, safe_write_dirs: tuple[str, ...] = ()):
        self.user_store = user_store
        self.home = home
        self.project_root = project_root
        self.safe_write_dirs = safe_write_dirs

    def is_safe(self, tool_name: str, tool_input: dict, cwd: str | None = None) -> tuple[bool, str | None]:
        if not isinstance(tool_name, str) or not isinstance(tool_input, dict):
            return False, None
        if tool_name == "Bash" and not isinstance(tool_input.get("command"), str):
            return False, None
        where = cwd or self.project_root or "/"
        env = AnalysisEnv(cwd=where, home=self.home, project_root=self.project_root or where,
                          safe_write_dirs=self.safe_write_dirs, user_patterns=self.user_store)
        try:
            result = analyze(ToolCall(tool_name=tool_name, tool_input=tool_input, cwd=where), env)
        except Exception:  # noqa: BLE001 - fail closed: an error is never "safe"
            return False, None
        return (result.safe is not None), result.safe
