"""Tier 1: dangerous calls (deny, or ask for the classes that need a person).

The shell analysis peels wrappers and nested scripts and calls ``invocation_findings`` for every program
that will run and ``script_findings`` once per parsed script; file tools go through
``file_tool_findings``. The classes, with their reasons and examples, are in ``CLASSES``
(``analysis/tier1/catalog.py``); the detectors are in ``analysis/tier1/``, dispatched on the program name.

The seed's ``DangerousPatternDetector`` (``phlegyas.tier1_dangerous``) lives in ``phlegyas.analysis.seed``.
"""
from __future__ import annotations

import re
from typing import Final, Sequence

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Script
from phlegyas.analysis.tier1 import script as _script
from phlegyas.analysis.tier1.base import add, program_of
from phlegyas.analysis.tier1.catalog import CLASSES, FindingClass
from phlegyas.analysis.tier1.disk import is_device
from phlegyas.analysis.tier1.dispatch import DEFAULT, DETECTORS
from phlegyas.analysis.tier1.environment import detect_environment
from phlegyas.analysis.tier1.expansion import detect_unknown_words
from phlegyas.analysis.tier1.flows import FLOW_PROGRAMS, SENDERS, secret_flows
from phlegyas.analysis.tier1.gate import in_gate_state, shown
from phlegyas.analysis.tier1.git import unrecoverable_history
from phlegyas.analysis.tier1.mass import MASS_TOOLS, mass_deletes, saved_destroy_plans
from phlegyas.analysis.tier1.network import redirect_to_socket
from phlegyas.analysis.tier1.resources import background_loops
from phlegyas.analysis.tier1.secrets import detect_piped_reads, find_secret, tracked_file
from phlegyas.analysis.tier1.words import in_project, resolve
from phlegyas.analysis.tier1.writes import detect_redirects, persistence_class, private_key, root_grant
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding, ToolCall, Verdict

__all__ = ["CLASSES", "FindingClass", "invocation_findings", "script_findings", "file_tool_findings"]


def invocation_findings(inv: Invocation, env: AnalysisEnv) -> list[Finding]:
    """The Tier 1 findings of one program run (already unwrapped by the analysis)."""
    out: list[Finding] = []
    prog = inv.program
    detectors = DETECTORS.get(prog)
    if detectors is None:
        detectors = DETECTORS.get(program_of(prog), DEFAULT) if "." in prog else DEFAULT
    for detect in detectors:
        detect(inv, env, out)
    detect_unknown_words(inv, env, out)
    if inv.via:
        detect_piped_reads(inv, env, out)
    if inv.command.assignments or prog in _ASSIGNERS:
        detect_environment(inv, env, out)
    if inv.via and inv.privileged:
        wrapper = next(v for v in inv.via if v in ("sudo", "doas", "pkexec", "su", "run0"))
        add(out, "priv.sudo", inv, f"{wrapper} runs {prog or 'a program'} with elevated privileges")
    if inv.command.redirects:
        socket = redirect_to_socket(inv)
        if socket is not None:
            add(out, "net.reverse_shell", inv, f"{prog or 'the shell'} redirects to the network socket {socket}")
        detect_redirects(inv, env, out)
    return out


def script_findings(script: Script, invocations: Sequence[Invocation], env: AnalysisEnv) -> list[Finding]:
    """Findings that need the whole command line: fork bombs, download-then-run, production switches."""
    out: list[Finding] = []
    if script.functions:
        _script.fork_bombs(script, out)
    if not any(f.id == "process.fork_bomb" for f in out):
        background_loops(script, out)
    for inv in invocations:  # both other checks start at a downloader or a context switch: most lines have none
        if inv.program in _script.LINE_STARTERS:
            _script.download_then_run(invocations, env, out)
            _script.production_switch(invocations, out)
            break
    if len(invocations) > 1 and any(inv.program == "ln" for inv in invocations):
        _script.deleted_through_links(invocations, env, out, invocation_findings)  # `ln -s ~ x && rm -rf x/`
    if len(invocations) > 1 and any(inv.program in ("terraform", "tofu") for inv in invocations):
        saved_destroy_plans(invocations, out)  # `terraform plan -destroy -out=p && terraform apply p`
    if len(invocations) > 1 and any(inv.program in MASS_TOOLS for inv in invocations):
        mass_deletes(invocations, out, script.commands)  # `docker rm -f $(docker ps -aq)`: all the listing prints
    if len(invocations) > 2 and sum(inv.program == "git" for inv in invocations) > 2:
        unrecoverable_history(invocations, out)  # `git branch -D main && git reflog expire … && git gc --prune=now`
    if len(invocations) > 1 and any(inv.program in FLOW_PROGRAMS or inv.program in SENDERS for inv in invocations):
        secret_flows(invocations, env, out, script.commands)  # a secret written or committed, then uploaded or pushed
    return out


_ASSIGNERS: Final = frozenset({"env", "sudo", "doas", "export", "declare", "typeset", "local"})
"""Programs whose operands may be environment assignments (``env A=1 cmd``, ``export A=1``)."""
_FILE_TOOLS = {"Write": "file_path", "Edit": "file_path", "MultiEdit": "file_path", "NotebookEdit": "notebook_path"}


def _written_text(tool: str, data: dict) -> str:
    if tool == "Write":
        value = data.get("content")
    elif tool == "Edit":
        value = data.get("new_string")
    elif tool == "NotebookEdit":
        value = data.get("new_source")
    else:
        edits = data.get("edits")
        value = "\n".join(e.get("new_string", "") for e in edits if isinstance(e, dict)
                          and isinstance(e.get("new_string"), str)) if isinstance(edits, list) else None
    return value if isinstance(value, str) else ""


def file_tool_findings(call: ToolCall, env: AnalysisEnv) -> list[Finding]:
    """Write/Edit/MultiEdit/NotebookEdit: devices, persistence locations, credentials into tracked files."""
    key = _FILE_TOOLS.get(call.tool_name)
    raw = call.tool_input.get(key) if key else None
    if not isinstance(raw, str) or not raw:
        return []
    path = resolve(raw, env)
    out: list[Finding] = []
    if is_device(path):
        add(out, "disk.wipe", path, f"{call.tool_name} writes over the device {path}")
        return out
    if in_gate_state(path, env):
        add(out, "gate.self_approval", path, f"{call.tool_name} writes {shown(path, env)}, the gate's own state (approvals, "
                                             "audit, trust, policy): only a person may change it")
        return out
    klass = persistence_class(path, env.home)
    if klass is not None:
        add(out, klass[0], path, f"{call.tool_name} writes {klass[1]}")
    grant = root_grant(path)
    if grant is not None:  # a sudoers.d entry, a uid-0 line in /etc/passwd
        add(out, "priv.escalation", path, f"{call.tool_name} writes {path}, which decides {grant}")
    key = private_key(path, env.home) if not in_project(path, env) else None
    if key is not None:  # a private key rewritten or cut is as lost as one deleted
        add(out, "delete.catastrophic", path, f"{call.tool_name} overwrites {shown(path, env)} ({key}): as lost as if "
                                              "deleted")
    if tracked_file(path, env):
        what = find_secret(_written_text(call.tool_name, call.tool_input))
        if what:
            add(out, "secrets.in_file", path, f"{call.tool_name} puts {what} into {path}, a file that gets committed")
    if path.rsplit("/", 1)[-1] in (".gitignore", ".dockerignore", ".npmignore") and (
            dropped := _unignored(call.tool_name, call.tool_input)):  # the next `git add -A` takes the secret along
        add(out, "secrets.in_file", path, f"{call.tool_name} stops {path.rsplit('/', 1)[-1]} ignoring {dropped} (a "
                                          "secret file): the next git add -A, build or publish takes it along",
            Verdict.ASK)
    return out


_SECRET_PATTERN: Final = re.compile(r"^/?(?:\*\*/)?(?:\.env\b.*|\*?\.pem|\*?\.key|\*?\.p12|id_[a-z0-9]+|"
                                    r"\.?secrets?\b.*|credentials.*|\.npmrc|\.pypirc|\.netrc|\.aws/?.*|\*\.tfstate.*|"
                                    r"\*\.tfvars)$")


def _unignored(tool: str, data: dict) -> str | None:
    """A secret-file pattern an Edit of an ignore file takes out (its old text has it, its new text not)."""
    edits = [data] if tool == "Edit" else data.get("edits") if tool == "MultiEdit" else None
    for e in edits if isinstance(edits, list) else []:
        old, new = (e.get("old_string"), e.get("new_string")) if isinstance(e, dict) else (None, None)
        if isinstance(old, str) and isinstance(new, str):
            kept = {line.strip() for line in new.splitlines()}
            gone = [line.strip() for line in old.splitlines() if line.strip() and line.strip() not in kept]
            hit = next((g for g in gone if _SECRET_PATTERN.match(g)), None)
            if hit is not None:
                return hit
    return None
