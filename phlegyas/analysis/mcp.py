"""MCP tools judged by their name and their arguments (issue 12, item 6).

A tool ``mcp__SERVER__TOOL`` says what it does in its name: ``delete_repository``, ``drop_table``,
``purge_cache``. Its verb (the first word of the tool's name, in snake, kebab or camel case) and the
thing it acts on decide:

- destructive verbs (delete, drop, destroy, remove, purge, truncate, wipe, erase) among the first words of the
  name (``s3_delete_bucket``), and ``flushall``/``flushdb``, are ``mcp.destructive`` (verb x noun):
  deny for repositories, databases, tables, schemas, buckets, projects, clusters, organisations, keyspaces and
  volumes, ask for anything else (an issue comment, a file, a branch);
- an argument vector (``args``/``argv``/``arguments``, with a ``command`` before it or not) is judged as
  the command line it forms; command and query arguments are also read as MongoDB and Redis statements
  (``db.dropDatabase()``, ``FLUSHALL``);
- a URL argument that is not the public web (cloud metadata, link-local, localhost) is
  ``net.internal_address``, as for WebFetch;
- a secret in any argument asks; given to a tool that sends, posts, creates, uploads or writes to a remote
  service (``create_gist``, ``post_message``; not a file-system or shell server) it is
  ``net.exfiltration`` at deny;
- read verbs (get, list, search, read, describe, show, find, view, lookup, count, query) are Tier-2 safe
  ("read-only tool"), unless an argument carries a secret (a token the redactor knows, a private key) or
  names a secret place, or is a statement that changes data;
- every argument is read by its key: SQL (``sql``, ``query``, ``statement``) through the SQL check,
  commands (``command``, ``cmd``, ``script``, ``shell``) through the shell analysis, program text
  (``code``, ``program``, ``snippet``) as the language the tool or server is named for (``run_python``,
  ``node__evaluate``; else Python when it parses as Python) through that interpreter's analysis, paths
  (``path``, ``file``, ``file_path``, ``directory`` …) through the path checks;
- a run verb (execute, run, eval) given only a statement that reads, or code that only computes and prints,
  is Tier-2 safe as a read verb is; a shell server's command never is (its relative paths are in a directory
  the gate does not know);
- ``force: true`` given to a tool that pushes is ``git.force_push`` (deny), as ``git push --force``.

Anything else an MCP tool does is not known: it asks, as before.
"""
from __future__ import annotations

import ast
import re
import shlex
from typing import Any, Final

from phlegyas.analysis import paths
from phlegyas.analysis import programs as P
from phlegyas.analysis import tier2 as T2
from phlegyas.analysis.tier1.gate import in_gate_state, shown
from phlegyas.analysis.tier1.secrets import find_secret
from phlegyas.analysis.tier1.sql import judge_mongo, judge_redis, judge_sql
from phlegyas.analysis.urls import dev_server, internal_reason
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding, Verdict

DESTRUCTIVE_VERBS: Final = frozenset({"delete", "drop", "destroy", "remove", "purge", "truncate", "wipe", "erase", "rm",
                                      "del", "nuke", "reset", "terminate", "unpublish"})
GRAVE_OBJECTS = frozenset({"repository", "repo", "repositories", "repos", "database", "databases", "db", "table",
                           "tables", "schema", "bucket", "buckets", "project", "projects", "cluster", "clusters",
                           "organization", "organisation", "org", "volume", "volumes", "keyspace", "collection",
                           "collections", "index", "namespace", "account", "workspace", "environment", "instance",
                           "branch_protection", "backup", "backups", "snapshot", "snapshots", "all",
                           "keyspaces", "keys", "dataset", "datasets", "indices", "indexes", "everything", "storage",
                           "namespaces", "accounts", "workspaces", "environments", "instances", "zone", "domain"})
READ_VERBS: Final = frozenset({"get", "list", "search", "read", "describe", "show", "find", "view", "lookup", "count",
                               "query", "fetch_status", "status", "inspect", "browse", "explain", "check", "diff"})
SQL_KEYS: Final = frozenset({"sql", "query", "statement", "statements", "stmt", "sql_query"})
COMMAND_KEYS: Final = frozenset({"command", "cmd", "script", "shell", "bash", "commandline", "command_line"})
PATH_KEYS: Final = frozenset({"path", "paths", "file", "files", "file_path", "filepath", "filename", "directory", "dir",
                              "target", "source", "destination", "dest", "folder", "cwd", "working_directory",
                              "attachment", "attachments", "attach"})
URL_KEYS: Final = frozenset({"url", "uri", "href", "link", "endpoint", "address", "website", "page", "location", "src"})
ARGV_KEYS: Final = ("args", "argv", "arguments")
CODE_KEYS: Final = frozenset({"code", "source", "source_code", "program", "snippet", "python", "javascript", "js"})
"""Arguments that hold program text: read as the language the tool's name says (``run_python``,
``execute_js``), else as Python when it parses as Python, else as shell."""
_LANGUAGES: Final = (({"python", "py", "python3", "ipython", "jupyter", "notebook", "pandas"}, "python3 -c"),
                     ({"js", "javascript", "node", "nodejs", "typescript", "ts", "deno"}, "node -e"),
                     ({"ruby", "rb"}, "ruby -e"), ({"perl"}, "perl -e"), ({"php"}, "php -r"))
RUN_VERBS: Final = frozenset({"execute", "exec", "run", "eval", "evaluate"})
FORCE_KEYS: Final = frozenset({"force", "force_push", "forcepush", "force_with_lease"})
WHOLE_STORE: Final = frozenset({"flushall", "flushdb"})
SEND_VERBS = frozenset({"send", "post", "create", "upload", "publish", "share", "submit", "comment", "reply", "push",
                        "write", "put", "update", "add", "append", "insert", "tweet", "message", "notify", "email",
                        "mail", "chat", "forward", "set", "save", "store", "edit", "commit", "fork"})
LOCAL_SERVERS = frozenset({"filesystem", "file", "files", "fs", "desktop", "local", "memory", "shell", "terminal",
                           "editor", "jetbrains", "ide", "sqlite", "git", "commander"})
"""Servers whose tools act on this machine: a secret they are given stays here (the path checks judge it)."""
_WORDS: Final = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


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
    destroyed = destruction(words)
    if destroyed is not None:
        what, grave = destroyed
        if grave is None and "branch" in words and any(  # `delete_branch {"branch": "main"}`: the default branch
                k.lower() in ("branch", "ref", "name") and v.removeprefix("refs/heads/") in _MAIN_BRANCHES
                for k, v in tool_input.items() if isinstance(v, str)):
            grave = "default branch"
        if grave is None:  # `kubectl_delete {"resourceType": "namespace"}`: what it deletes, said in an argument
            grave = next((v.lower() for k, v in tool_input.items() if isinstance(v, str) and k.lower() in _KIND_KEYS
                          and v.lower().rstrip("s") in GRAVE_OBJECTS), None)
        severity = Verdict.DENY if grave is not None else Verdict.ASK
        findings.append(Finding("mcp.destructive", severity, name,
                                f"the {server} tool {tool} {what}s {'a ' + grave if grave else 'something'}"))
    changes_data = False
    reads_only = False  # a SQL statement that only reads, given to an execute/run tool
    argv_line, argv_key = _argv_command(tool_input)
    if argv_line is not None:
        analysis = analyze_command(argv_line, env)
        findings.extend(analysis.findings)
        effects.append(f"runs a command: {argv_line[:80]}")
        changes_data = True
    sends = _sends(server, words)
    for key, value in _strings(tool_input):
        low = key.lower()
        if low.endswith(("_command", "_cmd", "commandline")):  # `cli_command`, `shell_cmd`: a command all the same
            low = "command"
        if low in SQL_KEYS or low in COMMAND_KEYS:
            for sev, stmt in _store_statements(value):
                findings.append(Finding("sql.destructive", sev, name, f"the {server} tool {tool} runs {stmt}"))
                changes_data = True
        if low in SQL_KEYS:
            found, mutating = judge_sql(value)
            changes_data |= mutating
            reads_only = reads_only or not mutating
            for sev, what in found:
                findings.append(Finding("sql.destructive", sev, name, f"the {server} tool {tool} runs {what}"))
        elif low in COMMAND_KEYS or low in CODE_KEYS and (low != "source" or "\n" in value or verb in RUN_VERBS):
            if argv_key is not None:
                continue  # the command and its argument list were judged together above
            line = _code_line(value, server, words) if low in CODE_KEYS else value
            analysis = analyze_command(line, env)
            findings.extend(analysis.findings)
            effects.append(f"runs a command: {line[:80]}")
            if low in CODE_KEYS and analysis.safe and analysis.readonly and not analysis.findings and not any(
                    e.startswith(("reads ", "lists ")) for sub in analysis.subcommands for e in sub.effects):
                reads_only = True  # code that only computes and prints (`print(sum(range(10)))`)
            else:
                changes_data = True  # even `ls`: relative paths are the server's, in a directory the gate does not know
        elif low in PATH_KEYS or low.endswith(("_path", "_file", "_dir")):
            path = paths.normalize(value, env.cwd, env.home)
            if destroyed is not None and destroyed[0] in _DELETING:  # judged as `rm -rf PATH`, its worst case
                findings.extend(Finding(f.id, f.severity, f.subject, f"the {server} tool {tool}: {f.message}")
                                for f in analyze_command(f"rm -rf -- {_quoted(path)}", env).findings
                                if f.severity >= Verdict.DENY)
            why = T2.sensitive(path, env)
            if why is not None and sends:  # `send_email {"attachments": ["~/.ssh/id_ed25519"]}`: the file leaves
                findings.append(Finding("net.exfiltration", Verdict.DENY, path, f"the {server} tool {tool} sends "
                                                                               f"{path} ({why}) to a remote service"))
            elif why is not None:
                findings.append(Finding("sensitive.read", Verdict.ASK, path, f"{tool} is given {path}: {why}"))
            protected = paths.protected_reason(path, env.home, env.project_root)
            if verb not in READ_VERBS and in_gate_state(path, env, True):
                findings.append(Finding("gate.self_approval", Verdict.DENY, path,
                                        f"{tool} changes {shown(path, env)}: the gate's own state (approvals, audit, "
                                        "trust, policy), which only a person may change"))
            elif protected is not None and verb not in READ_VERBS:
                findings.append(Finding("protected.write", Verdict.ASK, path, f"{tool} changes {path}: {protected}"))
        elif low in URL_KEYS or low.endswith("_url"):
            reason = internal_reason(value) if "://" in value or value.startswith(("localhost", "169.254.")) else None
            if reason is not None and not dev_server(value, env.local_ports):
                findings.append(Finding("net.internal_address", Verdict.ASK, name,
                                        f"the {server} tool {tool} fetches {value.split('?', 1)[0][:120]}: {reason}"))
        kind = find_secret(value, sent=sends)
        if kind:  # a URL argument goes to whatever host it names, as a WebFetch of it would
            fetched = (low in URL_KEYS or low.endswith("_url")) and "://" in value
            findings.append(Finding("net.exfiltration", Verdict.DENY if sends or fetched else Verdict.ASK, name,
                                    f"sends {kind} to the MCP server {server} in its argument {key}"
                                    + (f" ({tool} posts it to a remote service)" if sends else "")))
    if "key" in words and ("deploy" in words or "ssh" in words) and verb in ("add", "create", "put") and not any(
            k.lower() in ("read_only", "readonly") and v is True for k, v in tool_input.items()):
        findings.append(Finding("persistence.ssh_keys", Verdict.DENY, name, f"the {server} tool {tool} adds an SSH "
                                "key: whoever holds its private half may push to the repository or log in"))
    if "push" in words and any(k.lower() in FORCE_KEYS and v is True for k, v in tool_input.items()):
        findings.append(Finding("git.force_push", Verdict.DENY, name,
                                f"the {server} tool {tool} force-pushes, replacing the remote branch's history"))
    category = None
    if (verb in READ_VERBS or verb in RUN_VERBS and reads_only) and not changes_data and not findings:
        category = P.READONLY_TOOL
    return findings, category, effects


_MAIN_BRANCHES: Final = frozenset({"main", "master", "trunk", "production", "prod"})
_DELETING: Final = frozenset({"delete", "remove", "purge", "destroy", "wipe", "erase", "drop", "truncate"})


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _code_line(code: str, server: str, words: list[str]) -> str:
    """Program text of a code argument as the command line that runs it: ``python3 -c CODE`` for a tool
    or server named for Python (or code that parses as Python), ``node -e`` for JavaScript …, else the
    text itself, as shell."""
    named = set(words) | set(tool_words(server))
    for names, runner in _LANGUAGES:
        if named & names:
            return f"{runner} {shlex.quote(code)}"
    try:
        ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code
    return f"python3 -c {shlex.quote(code)}" if not _shell_like(code) else code


def _shell_like(code: str) -> bool:
    """``ls -la``, ``make test``: one line of words that Python reads as an expression too."""
    return "\n" not in code.strip() and "(" not in code and "=" not in code


_KIND_KEYS: Final = frozenset({"resourcetype", "resource_type", "kind", "type", "resource", "object_type"})


def destruction(words: list[str]) -> tuple[str, str | None] | None:
    """(the destructive verb, the grave thing it acts on or None) of a tool's name: a verb of
    ``DESTRUCTIVE_VERBS`` among its first words, not after a read verb (``s3_delete_bucket``,
    ``deleteRepository``, ``flushall``); the thing is one of ``GRAVE_OBJECTS`` named after the verb, or the
    whole keyspace for ``flushall``/``flushdb``/``drop_all``. None when the name does not destroy."""
    for i, w in enumerate(words[:3]):
        if w in READ_VERBS:
            return None
        if w in WHOLE_STORE:
            return "flushe", "whole keyspace"
        if w in DESTRUCTIVE_VERBS:
            grave = next((x for x in (*words[i + 1:], *words[:i]) if x in GRAVE_OBJECTS), None)  # `r2_bucket_delete`
            return w, grave
    return None


def _sends(server: str, words: list[str]) -> bool:
    """The tool hands what it is given to a remote service (``create_gist``, ``post_message``,
    ``upload_file``), rather than to this machine (a file-system or shell server)."""
    if any(part in LOCAL_SERVERS for part in re.split(r"[-_.]+", server.lower())):
        return False
    return any(w in SEND_VERBS for w in words[:2])


def _argv_command(tool_input: dict[str, Any]) -> tuple[str | None, str | None]:
    """The command line an argument vector forms (``{"args": ["rm", "-rf", "/home/u"]}``, ``{"command":
    "rm", "args": ["-rf", "x"]}``, ``{"command": ["rm", "-rf", "x"]}``), and the command key it took in."""
    argv: list[str] | None = None
    for key in ARGV_KEYS:
        value = tool_input.get(key)
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            argv = [str(v) for v in value]
            break
    head, head_key = None, None
    for key, value in tool_input.items():
        if key.lower() in COMMAND_KEYS:
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                return shlex.join([str(v) for v in value] + (argv or [])), key
            if isinstance(value, str):
                head, head_key = value, key
    if argv is None:
        return None, None
    return (head + " " if head else "") + shlex.join(argv), head_key


def _store_statements(value: str) -> list[tuple[Verdict, str]]:
    """Statements for the other stores in a command or query argument: MongoDB (``db.dropDatabase()``) and
    Redis (``FLUSHALL``)."""
    if "db." in value or ".drop" in value or "deleteMany" in value:
        found, _ = judge_mongo(value)
        if found:
            return found
    first = value.split(None, 1)[0].upper() if value.strip() else ""
    if first in ("FLUSHALL", "FLUSHDB"):
        return judge_redis(value.split())[0]
    return []


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
