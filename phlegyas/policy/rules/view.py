"""The per-call view (everything derived from one tool call, computed once for all rules) and the
``Matcher`` interface, with the two matchers that read no specifier: a bare tool name, and a specifier
phlegyas cannot interpret.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from phlegyas.analysis.shell.parse import parse
from phlegyas.core.model import ToolCall
from phlegyas.policy.rules.commands import NEUTRAL, allow_string, script_deny_strings
from phlegyas.policy.rules.rule import Rule, tools_of


class CallView:
    """Everything derived from one call, computed once for all rules."""

    def __init__(self, call: ToolCall, script, home: str):
        self.call = call
        self.home = home
        self._script = script
        self._memo: dict = {}

    def memo(self, key, compute):
        """``compute()``, once per call for each ``key`` (normalized paths, rule anchors)."""
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = compute()
            return value

    @cached_property
    def script(self):
        if self._script is None and self.call.command is not None:
            self._script = parse(self.call.command)
        return self._script

    @cached_property
    def allow_strings(self) -> tuple[str, ...] | None:
        """One string per subcommand for allow matching, or None when the command is not understood."""
        script = self.script
        if script is None or script.problems or not script.commands:
            return None
        out: list[str] = []
        for cmd in script.commands:
            text = allow_string(cmd)
            if text is None:
                return None
            if text is not NEUTRAL:
                out.append(text)
        return tuple(out)

    @cached_property
    def deny_strings(self) -> tuple[str, ...]:
        """Every form of every subcommand a deny rule is tried against (deduplicated, in order)."""
        script = self.script
        if script is None:
            return ()
        return tuple(dict.fromkeys(script_deny_strings(script, 0)))

    @property
    def cwd(self) -> str | None:
        return self.call.cwd or None


# -- matchers -----------------------------------------------------------------------------------------

class Matcher:
    def applies_to(self, rule: Rule, tool_name: str) -> bool:
        return tool_name in tools_of(rule.tool)

    def matches(self, rule: Rule, view: CallView, each: bool) -> bool:
        raise NotImplementedError


@dataclass(frozen=True)
class ToolMatcher(Matcher):
    """A rule without specifier: every use of the tool (or of an MCP server, or of any tool)."""

    tool: str

    def applies_to(self, rule: Rule, tool_name: str) -> bool:
        if self.tool == "*":
            return True
        if self.tool.startswith("mcp__"):
            server, _, name = self.tool[5:].partition("__")
            if name and name != "*":
                return tool_name == self.tool
            return tool_name.startswith(f"mcp__{server}__") and len(tool_name) > len(server) + 7
        return tool_name in tools_of(self.tool)

    def matches(self, rule: Rule, view: CallView, each: bool) -> bool:
        if view.call.tool_name == "Bash" and each:
            return view.allow_strings is not None  # even `Bash` never allows what is not understood
        return True


@dataclass(frozen=True)
class UnknownSpecifierMatcher(Matcher):
    """``Task(reviewer)``, ``Skill(x)``: a specifier phlegyas cannot interpret (Claude Code settings hold
    such rules for its own tools). Failing closed: it never allows, and denies or asks for every use."""

    tool: str

    def matches(self, rule: Rule, view: CallView, each: bool) -> bool:
        return not each
