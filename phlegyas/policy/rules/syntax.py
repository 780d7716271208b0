"""Reading a rule: ``parse_rule`` splits ``Tool(specifier)``, checks the parentheses and the tool name,
and compiles the matcher the tool's specifier calls for, once, into the ``Rule``.
"""
from __future__ import annotations

import re

from phlegyas.policy.rules.bash import BashMatcher
from phlegyas.policy.rules.domains import DomainMatcher
from phlegyas.policy.rules.paths import PathMatcher, PathPattern
from phlegyas.policy.rules.rule import PATH_TOOLS, WITH_SPECIFIER, Rule, RuleSyntaxError
from phlegyas.policy.rules.view import Matcher, ToolMatcher, UnknownSpecifierMatcher

_TOOL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_MCP_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def parse_rule(text: str, *, root: str | None = None, source: str | None = None) -> Rule:
    """Parse ``Tool`` or ``Tool(specifier)``; raises RuleSyntaxError saying what was expected."""
    def fail(why: str) -> RuleSyntaxError:
        where = f"{source}: " if source else ""
        return RuleSyntaxError(f"{where}rule {text!r}: {why}")

    if not isinstance(text, str) or not text.strip():
        raise fail("empty rule: expected Tool or Tool(specifier), e.g. Bash(git log *) or Read(./src/**)")
    tool, spec = _split(text.strip(), fail)
    check_tool_name(tool, fail)
    if spec is not None and not spec.strip():
        raise fail(f"empty specifier: write {tool} alone to match every use, or {tool}(pattern)")
    matcher = compile_matcher(tool, spec, fail)
    return Rule(text.strip(), tool, spec, root=root, source=source, _matcher=matcher)


def _split(text: str, fail) -> tuple[str, str | None]:
    opening = text.find("(")
    if opening == -1:
        if ")" in text:
            raise fail("unbalanced parentheses: ')' without '('")
        return text, None
    if not text.endswith(")"):
        raise fail("unbalanced parentheses: expected ')' at the end, as in Tool(specifier)")
    tool = text[:opening].strip()
    if not tool:
        raise fail("empty tool name: expected Tool(specifier), e.g. Bash(npm test)")
    spec = text[opening + 1:-1]
    _check_balanced(spec, quotes=tool == "Bash", fail=fail)
    return tool, spec


def _check_balanced(spec: str, *, quotes: bool, fail) -> None:
    """Parentheses inside a specifier must pair up (quoted or backslash-escaped ones are literal)."""
    depth, quote, i = 0, None, 0
    while i < len(spec):
        ch = spec[i]
        if ch == "\\":
            i += 2
            continue
        if quote:
            quote = None if ch == quote else quote
        elif quotes and ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise fail("unbalanced parentheses: ')' closes the rule before its end")
        i += 1
    if depth:
        raise fail("unbalanced parentheses: a '(' inside the specifier is never closed")


def check_tool_name(tool: str, fail) -> None:
    if tool == "*":
        return
    if tool.startswith("mcp__"):
        parts = tool[5:].split("__", 1)
        if not _MCP_PART.fullmatch(parts[0]):
            raise fail("expected mcp__server, mcp__server__tool or mcp__server__*")
        if len(parts) == 2 and parts[1] != "*" and not _MCP_PART.fullmatch(parts[1]):
            raise fail("expected mcp__server__tool or mcp__server__* (a wildcard only as the whole tool name)")
        return
    if not _TOOL_NAME.fullmatch(tool):
        raise fail("expected a tool name such as Bash, Read, WebFetch or mcp__server__tool")


def compile_matcher(tool: str, spec: str | None, fail) -> "Matcher":
    if tool == "*" or tool.startswith("mcp__"):
        if spec is not None:
            raise fail(f"{tool} takes no specifier")
        return ToolMatcher(tool)
    if spec is None:
        return ToolMatcher(tool)
    if tool == "Bash":
        return BashMatcher.compile(spec, fail)
    if tool in PATH_TOOLS:
        return PathMatcher(PathPattern.compile(spec, fail))
    if tool == "WebFetch":
        return DomainMatcher.compile(spec, fail)
    hint = next((k for k in WITH_SPECIFIER if k.lower() == tool.lower()), None)
    if hint:
        raise fail(f"{tool} takes no specifier (did you mean {hint}?)")
    return UnknownSpecifierMatcher(tool)
