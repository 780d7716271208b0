"""The dispatch over tools: one ``Analysis`` (``phlegyas.core.analysis``) per call, of any tool.

Tier 1, protected paths, ``plan`` mode, Tier 2 and ``acceptEdits`` are all views over it, so the call
is analysed once. ``analyze`` dispatches on the tool: Bash goes through the shell analysis, file tools
through path checks, the rest through the tool tables.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Final

from phlegyas.analysis import paths, resolver
from phlegyas.analysis import programs as P
from phlegyas.analysis import tier2 as T2
from phlegyas.analysis.mcp import mcp_analysis
from phlegyas.analysis.planted import ShellTools, content_findings, planted_kind
from phlegyas.analysis.report import analyze_command
from phlegyas.analysis.run_effects import effects_for
from phlegyas.analysis.shell.parse import Script
from phlegyas.analysis.tier1 import findings as tier1
from phlegyas.analysis.tier1.fetch import request_findings
from phlegyas.core.analysis import Analysis, AnalysisEnv, Subcommand
from phlegyas.core.model import Finding, ToolCall, Verdict


def analyze(call: ToolCall, env: AnalysisEnv, script: Script | None = None) -> Analysis:
    """Analyse one tool call: every subcommand, its effects and findings, and the Tier 2 verdict.

    ``script``, when given, is the call's command already parsed (``shell.parse.parse``); the analysis
    then does not parse it again. ``Analysis.script`` hands the parse on the other way."""
    if call.cwd and call.cwd != env.cwd:
        env = replace(env, cwd=call.cwd)
    started = resolver.one_decision()  # a path's symlinks are looked up once per decision
    try:
        if call.tool_name == "Bash":
            command = call.command
            if command is None:
                return Analysis(understood=False, problems=["Bash call without a string command"])
            return analyze_command(command, env, script)
        return analyze_tool(call, env)
    finally:
        resolver.end_decision(started)




WEB_TOOLS: Final = frozenset({"WebFetch", "WebSearch"})


def _path_arg(call: ToolCall, key: str) -> str | None:
    value = call.tool_input.get(key)
    return value if isinstance(value, str) and value else None


def analyze_tool(call: ToolCall, env: AnalysisEnv) -> Analysis:
    """File tools, web tools, agent tools and MCP tools (everything but Bash)."""

    name = call.tool_name
    if name.startswith("mcp__") and name.endswith("__submit_approval"):
        finding = Finding("gate.self_approval", Verdict.DENY, name,
                          "submit_approval resolves approval requests: that is for people, not the agent being gated")
        return Analysis(findings=[finding], subcommands=[Subcommand(text=name, program=None, findings=[finding])])
    if name in WEB_TOOLS or (name.startswith("mcp__") and _mcp_category(name) == P.WEB_READ):
        found = request_findings(name, call.tool_input, env.local_ports)
        if found:
            sub = Subcommand(text=name, program=None, findings=found)
            return Analysis(findings=found, subcommands=[sub], readonly=True)
    if name in T2.READ_TOOLS:
        return _read_tool(call, env, T2.READ_TOOLS[name])
    if name in T2.EDIT_TOOLS:
        return _edit_tool(call, env, T2.EDIT_TOOLS[name])
    if name in T2.SAFE_TOOLS:
        tool_category, readonly = T2.SAFE_TOOLS[name]
        sub = Subcommand(text=name, program=None, safe=tool_category, readonly=readonly)
        return Analysis(subcommands=[sub], readonly=readonly, safe=tool_category)
    if name in T2.READONLY_UNSAFE_TOOLS:
        return Analysis(subcommands=[Subcommand(text=name, program=None)], readonly=True)
    if name.startswith("mcp__"):
        return _mcp_tool(call, env)
    store = env.user_patterns
    category = _mcp_category(name)
    if category is None and store is not None and name in getattr(store, "safe_tools", ()):
        category = T2.USER_PATTERN
    sub = Subcommand(text=name, program=None, safe=category, readonly=category is not None)
    return Analysis(subcommands=[sub], readonly=category is not None and category != T2.USER_PATTERN,
                    safe=category)


def _mcp_tool(call: ToolCall, env: AnalysisEnv) -> Analysis:
    """An MCP tool by its name's verb and its arguments (``analysis.mcp``)."""
    name = call.tool_name
    found, category, effects = mcp_analysis(name, call.tool_input, env, analyze_command)
    written = _mcp_write(call)
    if written is not None:  # `write_file {"path": ".git/hooks/post-checkout", "content": …}`: as a Write of it
        as_write = _edit_tool(written, env, "file_path")
        found = found + [f for f in as_write.findings if f.severity >= Verdict.ASK]
    top = max((f.severity for f in found), default=Verdict.ALLOW)
    configured = _mcp_category(name)
    if configured is not None and top < Verdict.ASK:
        category = configured
    store = env.user_patterns
    if category is None and top < Verdict.ASK and store is not None and name in getattr(store, "safe_tools", ()):
        category = T2.USER_PATTERN
    safe = category if top < Verdict.ASK else None
    sub = Subcommand(text=name, program=None, effects=effects, safe=safe, findings=list(found),
                     readonly=safe is not None)
    return Analysis(findings=list(found), subcommands=[sub], readonly=safe is not None and safe != T2.USER_PATTERN,
                    safe=safe)


_MCP_PATH_KEYS: Final = ("path", "file_path", "filepath", "file", "filename")
_MCP_CONTENT_KEYS: Final = ("content", "contents", "file_content", "text", "body", "data")


def _mcp_write(call: ToolCall) -> ToolCall | None:
    """The Write an MCP tool that writes a file amounts to (a path and the text put there), or None."""
    data = call.tool_input
    path = next((v for k in _MCP_PATH_KEYS if isinstance(v := data.get(k), str) and v), None)
    content = next((v for k in _MCP_CONTENT_KEYS if isinstance(v := data.get(k), str)), None)
    if path is None or content is None:
        return None
    return ToolCall("Write", {"file_path": path, "content": content}, cwd=call.cwd)


def _mcp_category(name: str) -> str | None:

    if not name.startswith("mcp__"):
        return None
    server, _, tool = name[5:].partition("__")
    if "firecrawl" in server.lower() and tool in T2.FIRECRAWL_READ:
        return P.WEB_READ
    if "jetbrains" in server.lower() and tool.startswith(T2.JETBRAINS_READ_PREFIXES):
        return P.READONLY_TOOL
    return None


def _read_tool(call: ToolCall, env: AnalysisEnv, key: str) -> Analysis:
    """Read, LS, Glob, Grep: every place the tool reads, through the one resolver (``paths.normalize``).

    Grep reads its ``path`` recursively and the files its ``glob`` names at any depth; Glob walks its
    ``path`` and matches its ``pattern`` below it: a home directory or one that holds secrets asks for
    both. LS shows names only, so only a secret place itself counts."""
    name = call.tool_name
    raw = _path_arg(call, key)
    base = raw or "."
    targets = [base]
    if name == "Glob" and (pattern := _path_arg(call, "pattern")):
        targets.append(pattern if pattern.startswith(("/", "~", "$HOME")) else base.rstrip("/") + "/" + pattern)
    elif name == "Grep" and (glob := _path_arg(call, "glob")):
        targets.append(base.rstrip("/") + "/" + (glob if "/" in glob else "**/" + glob))
    sub = Subcommand(text=f"{name} {raw or _path_arg(call, 'pattern') or ''}".strip(), program=None)
    for target in targets:
        path = paths.normalize(target, env.cwd, env.home)
        sub.effects.append(f"reads {path}")
        why = T2.sensitive(path, env, glob=True, tree=name != "LS")
        if why is not None:
            sub.findings.append(Finding("sensitive.read", Verdict.ASK, path, f"reads {path}: {why}"))
    safe = None if sub.findings else P.READONLY_TOOL
    sub.safe = safe
    return Analysis(findings=list(sub.findings), subcommands=[sub], readonly=True, safe=safe)


def _edit_tool(call: ToolCall, env: AnalysisEnv, key: str) -> Analysis:

    raw = _path_arg(call, key)
    if raw is None:
        return Analysis(understood=False, problems=[f"{call.tool_name} without a string {key}"])
    path = paths.normalize(raw, env.cwd, env.home)
    sub = Subcommand(text=f"{call.tool_name} {raw}", program=None, effects=[f"writes {path}"], readonly=False)
    why = paths.protected_reason(path, env.home, env.project_root)
    if why is not None:
        sub.findings.append(Finding("protected.write", Verdict.ASK, path, f"writes {path}: {why}"))
    sub.findings.extend(tier1.file_tool_findings(call, env))
    sub.findings.extend(_planted(call, path, env))
    place = T2.write_place(path, env)
    top = max((f.severity for f in sub.findings), default=Verdict.ALLOW)
    safe = place if top < Verdict.ASK else None
    sub.safe = safe
    inside = (env.project_root != "/" and paths.is_within(path, env.project_root) and why is None
              and T2.sensitive(path, env) is None and top < Verdict.ASK)
    return Analysis(findings=list(sub.findings), subcommands=[sub], readonly=False, safe=safe,
                    edit_in_project=inside)


_SHELL_TOOLS: Final = ShellTools(analyze_command, effects_for)


def _new_texts(call: ToolCall) -> list[tuple[str, bool]] | None:
    """The text a file tool puts into the file, as (text, whole file?); None when it is not strings."""
    data = call.tool_input
    if call.tool_name == "Write":
        value = data.get("content")
        return [(value, True)] if isinstance(value, str) else None
    if call.tool_name in ("Edit", "NotebookEdit"):
        value = data.get("new_string" if call.tool_name == "Edit" else "new_source")
        return [(value, False)] if isinstance(value, str) else None
    edits = data.get("edits")
    if not isinstance(edits, list):
        return None
    out: list[tuple[str, bool]] = []
    for edit in edits:
        text = edit.get("new_string") if isinstance(edit, dict) else None
        if not isinstance(text, str):
            return None
        out.append((text, False))
    return out


def _planted(call: ToolCall, path: str, env: AnalysisEnv) -> list[Finding]:
    """A file that a safe command runs later (a hook, package.json scripts, conftest.py …) is judged by
    the code the tool puts in it (``analysis.planted``)."""
    kind = planted_kind(path, env.project_root)
    if kind is None:
        return []
    texts = _new_texts(call)
    shown = path[len(env.project_root):].lstrip("/") if paths.is_within(path, env.project_root) else path
    if texts is None:
        return content_findings(path, kind, None, False, env, _SHELL_TOOLS, call.tool_name, shown)
    out: list[Finding] = []
    for text, whole in texts:
        out.extend(content_findings(path, kind, text, whole, env, _SHELL_TOOLS, call.tool_name, shown))
    return out


__all__ = ["analyze", "analyze_tool"]
