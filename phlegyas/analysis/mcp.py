"""MCP tools judged by their name and their arguments (issue 12, item 6).

A tool ``mcp__SERVER__TOOL`` says what it does in its name: ``delete_repository``, ``drop_table``,
``purge_cache``. Its verb (the first word of the tool's name, in snake, kebab or camel case) and the
thing it acts on decide:

- destructive verbs (delete, drop, destroy, remove, purge, truncate, wipe, erase) are ``mcp.destructive``:
  deny for repositories, databases, tables, schemas, buckets, projects, clusters, organisations and
  volumes, ask for anything else (an issue comment, a file, a branch);
- read verbs (get, list, search, read, describe, show, find, view, lookup, count, query) are Tier-2 safe
  ("read-only tool"), unless an argument carries a secret (a token the redactor knows, a private key) or
  names a secret place, or is a statement that changes data;
- every argument is read by its key: SQL (``sql``, ``query``, ``statement``) through the SQL check,
  commands (``command``, ``cmd``, ``script``, ``shell``) through the shell analysis, paths (``path``,
  ``file``, ``file_path``, ``directory`` …) through the path checks.

Anything else an MCP tool does is not known: it asks, as before.
"""
from __future__ import annotations

import re
from typing import Any

from phlegyas.analysis import paths
from phlegyas.analysis import programs as P
from phlegyas.analysis import tier2 as T2
from phlegyas.analysis.tier1.gate import in_gate_state, shown
from phlegyas.analysis.tier1.secrets import find_secret
from phlegyas.analysis.tier1.sql import judge_sql
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding, Verdict

DESTRUCTIVE_VERBS = frozenset({"delete", "drop", "destroy", "remove", "purge", "truncate", "wipe", "erase", "rm",
                               "del", "nuke", "reset", "terminate", "unpublish"})
GRAVE_OBJECTS = frozenset({"repository", "repo", "repositories", "repos", "database", "databases", "db", "table",
                           "tables", "schema", "bucket", "buckets", "project", "projects", "cluster", "clusters",
                           "organization", "organisation", "org", "volume", "volumes", "keyspace", "collection",
                           "collections", "index", "namespace", "account", "workspace", "environment", "instance",
                           "branch_protection", "backup", "backups", "snapshot", "snapshots", "all"})
READ_VERBS = frozenset({"get", "list", "search", "read", "describe", "show", "find", "view", "lookup", "count",
                        "query", "fetch_status", "status", "inspect", "browse", "explain", "check", "diff"})
SQL_KEYS = frozenset({"sql", "query", "statement", "statements", "stmt", "sql_query"})
COMMAND_KEYS = frozenset({"command", "cmd", "script", "shell", "bash", "commandline", "command_line"})
PATH_KEYS = frozenset({"path", "paths", "file", "files", "file_path", "filepath", "filename", "directory", "dir",
                       "target", "source", "destination", "dest", "folder", "cwd", "working_directory"})
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def tool_words(tool: str) -> list[str]:
    """``delete_repository``, ``deleteRepository``, ``delete-repository`` → ``["delete", "repository"]``."""
    return [w.lower() for w in _WORDS.findall(tool.replace("-", "_"))]


def mcp_analysis(name: str, tool_input: dict[str, Any], env: AnalysisEnv,
                 analyze_command: Any) -> tuple[list[Finding], str | None, list[str]]:
    """(findings, Tier 2 category or None, effects) of one MCP call. ``analyze_command`` is the shell
    analysis (passed in: this module sits beside it, not above it)."""
    server, _, tool = name[5:].partition("__")
    words = tool_words(tool)
    verb = words[0] if words else ""
    findings: list[Finding] = []
    effects: list[str] = []
    if verb in DESTRUCTIVE_VERBS:
        grave = next((w for w in words[1:] if w in GRAVE_OBJECTS), None)
        severity = Verdict.DENY if grave is not None else Verdict.ASK
        findings.append(Finding("mcp.destructive", severity, name,
                                f"the {server} tool {tool} {verb}s {'a ' + grave if grave else 'something'}"))
    changes_data = False
    for key, value in _strings(tool_input):
        low = key.lower()
        if low in SQL_KEYS:
            found, mutating = judge_sql(value)
            changes_data |= mutating
            for sev, what in found:
                findings.append(Finding("sql.destructive", sev, name, f"the {server} tool {tool} runs {what}"))
        elif low in COMMAND_KEYS:
            analysis = analyze_command(value, env)
            findings.extend(analysis.findings)
            effects.append(f"runs a command: {value[:80]}")
            changes_data = True
        elif low in PATH_KEYS or low.endswith(("_path", "_file", "_dir")):
            path = paths.normalize(value, env.cwd, env.home)
            why = T2.sensitive(path, env)
            if why is not None:
                findings.append(Finding("sensitive.read", Verdict.ASK, path, f"{tool} is given {path}: {why}"))
            protected = paths.protected_reason(path, env.home, env.project_root)
            if verb not in READ_VERBS and in_gate_state(path, env, True):
                findings.append(Finding("gate.self_approval", Verdict.DENY, path,
                                        f"{tool} changes {shown(path, env)}: the gate's own state (approvals, audit, "
                                        "trust, policy), which only a person may change"))
            elif protected is not None and verb not in READ_VERBS:
                findings.append(Finding("protected.write", Verdict.ASK, path, f"{tool} changes {path}: {protected}"))
        kind = find_secret(value)
        if kind:
            findings.append(Finding("net.exfiltration", Verdict.ASK, name,
                                    f"sends {kind} to the MCP server {server} in its argument {key}"))
    category = None
    if verb in READ_VERBS and not changes_data and not findings:
        category = P.READONLY_TOOL
    return findings, category, effects


def _strings(value: Any, key: str = "", depth: int = 0):
    """Every string in the arguments, with the key it sits under (lists keep their key)."""
    if depth > 6:
        return
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, str(k), depth + 1)
    elif isinstance(value, (list, tuple)):
        for v in value[:64]:
            yield from _strings(v, key, depth + 1)
