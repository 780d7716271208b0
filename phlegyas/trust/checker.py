"""Tier 2.5's checker: which subcommands run a script, and whether every one of them is trusted now.

**What runs a script**: ``./x.sh``, ``/abs/x.sh``, ``dir/x.sh`` (a program written with a slash),
``bash|sh|zsh|dash|ksh [safe options] x.sh``, ``python|python3|python3.X [safe options] x.py``,
``source x.sh`` and ``. x.sh``, each with any arguments, resolved against the call's cwd (``~`` and
``$HOME`` expanded). After one literal ``cd DIR`` a relative path may resolve against the cwd or DIR
(the ``cd`` may fail, or sit in a subshell): every one of those files that exists must be trusted. It
is never trusted when the path is dynamic or a glob, when an option makes the interpreter run
something else (``bash -c``, ``python -m``, ``bash -i`` reading rc files …), when the command sets
environment variables (``LD_PRELOAD=…``, ``BASH_ENV=…``, ``PATH=…`` all change what runs, and no list
of such names is complete), when it writes its output somewhere other than the project, a temp or
safe-write directory or ``/dev/null``, or when the line moves in a way this does not follow
(``cd $x``, ``pushd``, two ``cd``) and the path is relative. Arguments and piped stdin are data the
trusted script was trusted to handle. Only the file itself is hashed: what it runs, sources or imports
(a sibling script, a module next to a Python script) is not covered. ``source x.sh`` (no slash) is looked up in ``PATH`` before the
cwd by bash; the gate resolves it against the cwd, as the agent means it.

**The decision**: the checker allows a call only when every subcommand either runs a trusted script
whose hash matches now or is Tier-2-safe on its own, the analysis understood the whole call, no
finding carries ask or deny, and nothing in the line changes the environment the script runs in
(``export``, ``set``, bare assignments, function definitions …). Otherwise it has no opinion (returns
None) and the next tier decides. A broken store also means no opinion, not an error: the engine
turns a checker exception into deny, and a corrupt trust file should not make the gate stricter than
having none; ``explain`` shows the store error. The hash is of the file *at decision time*: a file
swapped between the decision and the run is outside what any gate can see.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Final

from phlegyas.analysis.dispatch import analyze
from phlegyas.analysis.paths import (
    expand_home,
    is_harmless_device,
    is_temp_path,
    is_within,
    normalize,
    protected_reason,
    sensitive_reason,
)
from phlegyas.analysis.programs import resolve_path_program
from phlegyas.analysis.shell.parse import Script, SimpleCommand, Word, parse
from phlegyas.core.analysis import Analysis, AnalysisEnv
from phlegyas.core.engine import Context
from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.trust.store import TIER, TrustEntry, TrustStore, TrustStoreError, status_of


def resolve_script(written: str, cwd: str, home: str) -> str:
    """The absolute path, symlinks resolved, of a script named ``written`` from ``cwd``."""
    path = expand_home(written, home)
    return os.path.realpath(os.path.join(cwd, path))


# -- which subcommands run a script ----------------------------------------------------------------

SCRIPT_SHELLS: Final = frozenset({"bash", "sh", "zsh", "dash", "ksh"})
SOURCE_BUILTINS: Final = frozenset({"source", "."})
_SHELL_FLAGS: Final = frozenset("euxvn")
_SHELL_SET_OPTIONS: Final = frozenset({"errexit", "nounset", "xtrace", "verbose", "pipefail", "noexec"})
_SHELL_LONG: Final = frozenset({"--norc", "--noprofile", "--posix", "--verbose"})
_PYTHON_FLAGS: Final = frozenset("uBOsSEIbqdR")
_CWD_BUILTINS: Final = frozenset({"cd", "pushd", "popd"})
_STATE_BUILTINS: Final = frozenset({
    "export", "declare", "typeset", "local", "readonly", "unset", "set", "shopt", "alias", "unalias", "enable",
    "hash", "umask", "ulimit", "trap", "eval", "exec", "builtin", "command", "setopt", "unsetopt", "emulate",
    "autoload", "zmodload",
})
"""Builtins that change the shell a script then runs in (its environment, options, lookups)."""


@dataclass(frozen=True)
class ScriptRun:
    """A subcommand that runs a script file. ``paths`` are the files it may run, resolved (one per
    working directory it may run in); ``problem`` says why this run can never count as trusted."""

    text: str
    written: str
    paths: tuple[str, ...] = ()
    problem: str | None = None

    @property
    def path(self) -> str | None:
        """The file it runs when every ``cd`` before it succeeds."""
        return self.paths[-1] if self.paths else None


def script_runs(script: "Script", env: "AnalysisEnv") -> list[tuple[int, ScriptRun]]:
    """(index in ``script.commands``, run) for every subcommand that runs a script file."""
    cwds = possible_cwds(script, env)
    out = []
    for i, cmd in enumerate(script.commands):
        run = script_run(cmd, env, cwds)
        if run is not None:
            out.append((i, run))
    return out


def possible_cwds(script: "Script", env: "AnalysisEnv") -> tuple[str, ...] | None:
    """Where relative script paths may resolve: the call's cwd and, after one literal ``cd DIR``, DIR
    as well (the ``cd`` may fail, sit in a subshell or come later in a loop). None when the line moves
    in a way this does not follow (``cd $x``, ``pushd``, two ``cd``)."""
    moves = [c for c in script.commands if c.program in _CWD_BUILTINS]
    if not moves:
        return (env.cwd,)
    if len(moves) > 1 or moves[0].program != "cd":
        return None
    operands = [w for w in moves[0].words[1:] if w.text not in ("-L", "-P", "--")]
    if not operands:
        return (env.cwd, env.home)
    if len(operands) > 1 or _operand_problem(operands[0]) or operands[0].text.startswith("-"):
        return None
    return (env.cwd, _word_path(operands[0], env.cwd, env.home))


def script_run(cmd: "SimpleCommand", env: "AnalysisEnv", cwds: tuple[str, ...] | None = ()) -> ScriptRun | None:
    """The script ``cmd`` runs, or None when it runs none of the forms Tier 2.5 knows. ``cwds``: where
    relative paths may resolve (empty: the call's cwd; None: not known)."""
    if not cmd.words:
        return None
    name = cmd.words[0].text
    if cmd.words[0].dynamic:
        kind = "file" if _home_relative(name) is not None else None
    else:
        kind = _interpreter_kind(name)
    if kind is None:
        return None
    operand, problem = _OPERAND[kind](name, cmd.words)
    if operand is None:  # `bash` alone reads stdin: no script file; else what stops it from naming one
        return None if problem is None else ScriptRun(cmd.text, "", (), problem)
    written = operand.text
    problem = problem or _operand_problem(operand) or _command_problem(cmd, env)
    cwds = (env.cwd,) if cwds == () else cwds
    if problem is None and cwds is None and not _absolute(operand):
        problem = f"the working directory changes before {written!r} runs in a way the trust check does not follow"
    if problem is not None:
        return ScriptRun(cmd.text, written, (), problem)
    bases = cwds if cwds is not None and not _absolute(operand) else (env.cwd,)
    found = tuple(dict.fromkeys(os.path.realpath(_word_path(operand, base, env.home)) for base in bases))
    return ScriptRun(cmd.text, written, found)


def _interpreter_kind(name: str) -> str | None:
    """``file`` when the program ``name`` is itself the script, ``source``, ``shell`` or ``python`` when
    it reads one, None when it is some other program."""
    if name in SOURCE_BUILTINS:
        return "source"
    base = name
    if "/" in name:

        base, known = resolve_path_program(name)
        if not known:
            return "file"
    if base in SCRIPT_SHELLS:
        return "shell"
    if _is_python(base):
        return "python"
    return None


def _is_python(name: str) -> bool:
    if not name.startswith("python"):
        return False
    version = name[len("python"):]
    return version == "" or version[0].isdigit() and all(p.isdigit() for p in version.split("."))


def _file_operand(name: str, words: list["Word"]) -> tuple["Word | None", str | None]:
    return words[0], None


def _source_operand(name: str, words: list["Word"]) -> tuple["Word | None", str | None]:
    if len(words) < 2:
        return None, f"{name} with no file"
    if words[1].text.startswith("-"):
        return None, f"{name} with options"
    return words[1], None


def _shell_operand(name: str, words: list["Word"]) -> tuple["Word | None", str | None]:
    """The script file of ``bash [options] FILE args…``; an option that may change what runs is a problem."""
    args = words[1:]
    i = 0
    while i < len(args):
        word, text = args[i], args[i].text
        if word.dynamic:
            return (word, None) if _home_relative(text) is not None else (None, _dynamic(name, text))
        if text == "--":
            return (args[i + 1], None) if i + 1 < len(args) else (None, None)
        if text in _SHELL_LONG:
            i += 1
        elif text in ("-o", "+o"):
            if i + 1 >= len(args) or args[i + 1].text not in _SHELL_SET_OPTIONS:
                return None, f"{name} {text} with an option the trust check does not know"
            i += 2
        elif text.startswith("--"):
            return None, f"{name} {text}: an option that can change what runs"
        elif len(text) > 1 and text[0] in "-+":
            if "c" in text[1:]:
                return None, f"{name} -c runs code given on the command line, not a file"
            if not set(text[1:]) <= _SHELL_FLAGS:
                return None, f"{name} {text}: an option that can change what runs"
            i += 1
        else:
            return word, None
    return None, None


def _python_operand(name: str, words: list["Word"]) -> tuple["Word | None", str | None]:
    """The script file of ``python [options] FILE args…``; -c, -m, -i, -W, -X … make it a problem."""
    for word in words[1:]:
        text = word.text
        if word.dynamic:
            return (word, None) if _home_relative(text) is not None else (None, _dynamic(name, text))
        if text == "-":
            return None, f"{name} - reads code from stdin"
        if not text.startswith("-"):
            return word, None
        if "c" in text[1:] or "m" in text[1:]:
            return None, f"{name} {text} runs code or a module, not the file"
        if text.startswith("--") or not set(text[1:]) <= _PYTHON_FLAGS:
            return None, f"{name} {text}: an option that can change what runs"
    return None, None


_OPERAND: Final = {"file": _file_operand, "source": _source_operand, "shell": _shell_operand, "python": _python_operand}


def _dynamic(name: str, text: str) -> str:
    return f"{name} {text}: a word only known when the shell runs"


def _operand_problem(operand: "Word | None") -> str | None:
    """Why the shell might not open the file this word seems to name."""
    if operand is None:
        return None
    text = operand.text
    if operand.glob:
        return f"the path {text!r} is a glob"
    if operand.dynamic and _home_relative(text) is None:
        return f"the path {text!r} is only known when the shell runs"
    if not operand.dynamic and text.startswith("~") and (operand.quoted or not (text == "~" or text.startswith("~/"))):
        return f"the path {text!r}: the trust check does not resolve this ~ form"
    return None


def _home_relative(text: str) -> str | None:
    """The rest of ``$HOME``, ``$HOME/rest`` or ``${HOME}/rest`` when nothing else is expanded, else None."""
    for prefix in ("$HOME", "${HOME}"):
        if text == prefix:
            return ""
        if text.startswith(prefix + "/"):
            rest = text[len(prefix) + 1:]
            return rest if "$" not in rest and "`" not in rest else None
    return None


def _absolute(operand: "Word") -> bool:
    return operand.dynamic or operand.text.startswith(("/", "~"))


def _word_path(word: "Word", cwd: str, home: str) -> str:
    """The path a checked word names: ``$HOME`` only when the shell expands it, ``~`` only unquoted."""
    text = word.text
    if word.dynamic:
        text = os.path.join(home, _home_relative(text) or "")
    elif text == "~" or text.startswith("~/"):
        text = home + text[1:]
    return os.path.normpath(os.path.join(cwd, text))


def _command_problem(cmd: "SimpleCommand", env: "AnalysisEnv") -> str | None:
    """Environment assignments and redirections on the script's own command line."""
    if cmd.assignments:
        names = ", ".join(f"{k}=" for k, _ in cmd.assignments)
        return f"it runs with {names} set: environment variables can change what a script runs"
    for redirect in cmd.redirects:
        problem = _redirect_problem(redirect, env)
        if problem:
            return problem
    return None


def _redirect_problem(redirect, env: "AnalysisEnv") -> str | None:

    target = redirect.target
    if redirect.op in ("<<", "<<<", "<<-"):
        return None
    if target is None or target.dynamic or target.glob:
        return "a redirection whose target is only known when the shell runs"
    if redirect.op in (">&", "<&") and (target.text.isdigit() or target.text == "-"):
        return None
    path = normalize(target.text, env.cwd, env.home)
    if is_harmless_device(path):
        return None
    if redirect.op == "<":
        why = sensitive_reason(path, env.home)
        return f"it reads {path} ({why})" if why else None
    why = protected_reason(path, env.home, env.project_root)
    if why:
        return f"its output goes to {path} ({why})"
    if is_temp_path(path) or any(is_within(path, p) for p in (env.project_root, *env.safe_write_dirs)):
        return None
    return f"its output goes to {path}, outside the project and the safe write directories"


# -- the decision ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class TrustJudgement:
    """Tier 2.5's view of a call: ``allow`` or not, the reason, and one line per script run (and per
    obstacle) for explanations."""

    allow: bool
    reason: str
    lines: tuple[str, ...] = ()
    store_error: str | None = None  # the trust store is broken: nothing is trusted until it is fixed


def judge(script: "Script", analysis: "Analysis", env: "AnalysisEnv", store: TrustStore,
          severity: Callable | None = None) -> TrustJudgement | None:
    """Tier 2.5's view of a parsed Bash call; None when no subcommand runs a script file.

    ``severity`` maps a finding to its verdict (the policy's override); the default is its own.
    """
    runs = script_runs(script, env)
    if not runs:
        return None
    try:
        entries = store.load()
    except TrustStoreError as exc:
        return TrustJudgement(False, f"nothing is trusted: {exc}", (f"nothing is trusted: {exc}",), str(exc))
    lines, blockers = [], []
    for _, run in runs:
        ok, line = _judge_run(run, entries)
        lines.append(line)
        if not ok:
            blockers.append(line)
    others = _others_problems(script, {i for i, _ in runs}, analysis, severity)
    if blockers or others:
        return TrustJudgement(False, "; ".join(blockers + others), tuple(lines + others))
    return TrustJudgement(True, "trusted script " + "; ".join(lines), tuple(lines))


def _judge_run(run: ScriptRun, entries: dict[str, TrustEntry]) -> tuple[bool, str]:
    """Whether every file ``run`` may run is trusted with a matching hash, and a line saying so."""
    if run.problem is not None:
        return False, f"{run.text}: never trusted: {run.problem}"
    statuses = [status_of(p, entries) for p in run.paths]
    present = [s for s in statuses if s.state != "absent"] or statuses[-1:]
    bad = [s for s in present if not s.trusted]
    shown = bad or present
    return not bad, f"{run.written} " + "; ".join(f"({s.path}): {s.summary}" for s in shown)


def _others_problems(script: "Script", run_indices: set[int], analysis: "Analysis",
                     severity: Callable | None) -> list[str]:
    """Why the rest of the call keeps Tier 2.5 from allowing it (empty when nothing does)."""
    out = []
    if not script.understood:
        out.append(f"the command line is not fully understood ({'; '.join(script.problems[:2])})")
    if script.functions:
        out.append("the command line defines shell functions")
    for i, cmd in enumerate(script.commands):
        if i in run_indices:
            continue
        if not cmd.words and cmd.assignments:
            out.append(f"{cmd.text!r} sets variables the script may see")
        elif cmd.program in _STATE_BUILTINS:
            out.append(f"{cmd.text!r} changes the shell the script runs in")
    out.extend(_analysis_problems(script, run_indices, analysis, severity))
    return out


def _analysis_problems(script: "Script", run_indices: set[int], analysis: "Analysis",
                       severity: Callable | None) -> list[str]:
    """Findings that ask or deny, and subcommands other than the script runs that are not Tier-2-safe.

    The analysis reports a script run as a subcommand with the same text, reached directly (no ``via``).
    """
    out = []
    if not analysis.understood:
        out.append("the analysis did not understand the whole call")
    rate = severity or (lambda f: f.severity)
    for finding in analysis.findings:
        if rate(finding) >= Verdict.ASK:
            out.append(f"{finding.message} [{finding.id}]")
    run_texts = [script.commands[i].text for i in sorted(run_indices)]
    for sub in analysis.subcommands:
        if sub.safe:
            continue
        if not sub.via and sub.text in run_texts:
            run_texts.remove(sub.text)
            continue
        out.append(f"{sub.text!r} is not known to be safe on its own")
    return out


class TrustedScriptChecker:
    """Step 8 of the pipeline: allow a Bash call whose scripts a person trusted and whose hash matches.

    No opinion (None) otherwise, including when the store is broken (see the module docstring).
    """

    def __init__(self, store: TrustStore):
        self.store = store

    def check(self, ctx: "Context") -> Decision | None:
        if ctx.call.command is None or ctx.script is None:
            return None
        judgement = judge(ctx.script, ctx.analysis, ctx.env, self.store, getattr(ctx.policy, "severity", None))
        if judgement is not None and judgement.store_error is not None:
            ctx.warnings.append(f"trust store unusable, no script is trusted: {judgement.store_error}")
        if judgement is None or not judgement.allow:
            return None
        return Decision(Verdict.ALLOW, TIER, judgement.reason, details=judgement.lines)


def explain(call: "ToolCall", env: "AnalysisEnv", store: TrustStore, analysis: "Analysis | None" = None,
            script: "Script | None" = None) -> list[str]:
    """Lines for ``phlegyas check``: per script run, trusted (by whom, when, hash matches) or why not.

    ``analysis`` and ``script`` are computed when not given.
    """
    if call.command is None:
        return []
    if script is None:

        script = parse(call.command)
    if analysis is None:

        analysis = analyze(call, env)
    judgement = judge(script, analysis, env, store)
    if judgement is None:
        return []
    head = "trusted scripts (Tier 2.5): " + ("allowed" if judgement.allow else "not allowed")
    return [head, *(f"  {line}" for line in judgement.lines)]
