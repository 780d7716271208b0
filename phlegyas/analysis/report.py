"""A Bash command line → ``Analysis``: effects, findings and the Tier 2 verdict of every subcommand.

``analyze_command`` parses, expands (``shell.analyze``), computes each invocation's effects
(``shell.effects``), adds the effects of redirections and variable assignments, normalizes every path
against the cwd (following a literal ``cd``), asks Tier 1 for its findings, adds the protected-path
and secret-read findings, and decides per subcommand whether Tier 2 may allow it.
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Final

from phlegyas.analysis import git_index, paths
from phlegyas.analysis import programs as P
from phlegyas.analysis import tier2 as T2
from phlegyas.analysis.environment import secret_variables, shown_secrets
from phlegyas.analysis.generated import generated_find, generated_target
from phlegyas.analysis.planted import ShellTools, content_shown, planted_kind, shell_write_findings
from phlegyas.analysis.project_scripts import build_outputs, judge_script_runs, run_built
from phlegyas.analysis.run_effects import (
    FOUND_CHECKED,
    cache_find,
    effects_for,
    found_findings,
    listed_by_find,
    redirect_effects,
)
from phlegyas.analysis.shell.analyze import Run, expand
from phlegyas.analysis.shell.assignments import (
    DECLARATIONS,
    assignment_effects,
    command_assignments,
    exports_all,
)
from phlegyas.analysis.shell.effects import Effects, new_effects
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Script, SimpleCommand, Word, parse
from phlegyas.analysis.tier1 import findings as tier1
from phlegyas.analysis.tier1.expansion import blocks_tier2, computed, process_substitution
from phlegyas.analysis.tier1.gate import database_findings, state_findings
from phlegyas.analysis.tier1.secrets import credential_output
from phlegyas.analysis.tier1.words import known_words
from phlegyas.analysis.tier1.writes import interpreter_key_writes
from phlegyas.core.analysis import Analysis, AnalysisEnv, Subcommand
from phlegyas.core.model import Finding, Verdict

FS_EDIT_PROGRAMS = frozenset({"mkdir", "touch", "cp", "mv", "rm", "rmdir", "tee", "sed", "truncate", "chmod", "ln",
                              "install"})
"""Basic file-system commands that ``acceptEdits`` allows inside the project (as Claude Code does)."""
_SUBSTITUTION_MARKS: Final = ("$(", "`", "<(", ">(")
_PROJECT_CODE: Final = frozenset({P.PKG_INSTALL, P.TEST_BUILD, P.LINT_FORMAT})
_BUILDS: Final = frozenset({P.TEST_BUILD, P.LINT_FORMAT})
_KEEPS_TEXT: Final = frozenset({"chmod", "chown", "chgrp", "touch", "mkdir"})
"""They write no file's text: an empty directory or a mode plants no code (`mkdir build && cd build && cmake ..`,
`chmod +x s.sh && ./s.sh`)."""
_CHANGES_NAMED: Final = frozenset({"rm", "rmdir", "unlink", "shred", "srm", "mv", "cp", "chmod", "chown", "chgrp",
                                   "truncate", "ln", "install", "trash", "trash-put", "gio"})  # judged by shown names


def _is_project_write(word: Word, env: AnalysisEnv) -> bool:
    """A write into the project that the project's code may then run or load: not a log or text output
    (``pytest | tee out.log``), which no test runner, build or package manager executes."""
    if word.dynamic:
        return True
    path = paths.normalize(word.text, env.cwd, env.home)
    if path.endswith(_OUTPUT_SUFFIXES) and planted_kind(path, env.project_root) is None:
        return False
    return paths.is_within(path, env.project_root) and not paths.is_harmless_device(path)


_OUTPUT_SUFFIXES: Final = (".log", ".txt", ".out", ".patch", ".diff", ".csv", ".tsv")


def analyze_command(command: str, env: AnalysisEnv, script: Script | None = None) -> Analysis:
    """The ``Analysis`` of one Bash command line (see the module docstring); ``script`` is its parse
    when the caller already has it."""
    if script is None:
        script = parse(command)
    ex = expand(script)
    understood = not ex.problems
    out = Analysis(findings=[], subcommands=[], understood=understood, problems=list(ex.problems), script=script)
    first_of: dict[int, Run] = {}
    for run in ex.runs:
        first_of.setdefault(id(run.command), run)
    state = _State(env)
    categories: list[str] = []
    all_safe = readonly = edits = understood
    runs_project_code = writes_project = changed = False
    built: set[str] = set()  # programs this line's project builds wrote (`go build -o bin/app`)
    last_command = max((i for i, r in enumerate(ex.runs) if r.program not in DECLARATIONS), default=-1)
    for index, run in enumerate(ex.runs):
        renv = state.env
        if run.args:
            run.args = known_words(run.args, renv, P.canonical(run.program) not in _CHANGES_NAMED)  # $(git ls-files)
        eff = effects_for(run)
        if run.kind in ("program", "query", "interp"):  # a bare ``env`` is a query; ``python -c`` an interp
            eff.secrets.extend(shown_secrets(run.program, run.args))
            if run.program == "envsubst":  # `echo '$GITHUB_TOKEN' | envsubst`: it prints the variables its input names
                given = [w.text for up in run.upstream for w in up.args] + [run.command.stdin_text or ""]
                eff.secrets.extend(f"${n}, a variable that holds a secret" for t in given for n in secret_variables(t))
            printed = credential_output(run.program, [w.text for w in run.args]) if run.args else None
            if printed is not None and printed not in eff.secrets:  # `helm get values`, `sops -d`, `bw get …`
                eff.secrets.append(printed)
        script_found = judge_script_runs(run, eff, renv, _PLANTED_TOOLS) if eff.runs and not changed else None
        if eff.runs and built:  # `go build -o bin/app ./cmd/app && ./bin/app --version`: the build's own output
            run_built(eff, built, renv)
        if first_of.get(id(run.command)) is run:
            if run.command.assignments or run.program in DECLARATIONS:
                command_assignments(run.program, run.args, run.command.assignments, eff, index < last_command,
                                    command)
            if run.command.redirects:
                redirect_effects(run.command, eff)
        sub, category, edit_ok = _judge(run, eff, renv, state.cwd_known)
        if category is not None and run.kind == "program":
            unknown = blocks_tier2(run.program, run.args)
            if unknown is not None:
                category, edit_ok = None, False
                sub.safe = None
                sub.effects.append(f"not automatic: {unknown.text} is decided only when bash runs it (it may "
                                   "vanish, split, become an option, or name a file that is not safe to read)")
        if category in _PROJECT_CODE:
            runs_project_code = True
            built.update(build_outputs(run, renv))
        if eff.writes and category not in _PROJECT_CODE and run.program not in _KEEPS_TEXT \
                and any(_is_project_write(w, renv) for w in eff.writes) and not content_shown(run):
            writes_project = True
        found = tier1.invocation_findings(run, renv)
        if run.via and P.canonical(run.program) in FOUND_CHECKED:  # `find ~/.ssh -exec curl -F f=@{} …`
            found = found + found_findings(run, renv)
        found = found + script_found if script_found else found
        if run.kind == "interp" and eff.writes:  # `python -c "open('~/.ssh/id_rsa','w')"`: the key is gone
            found = found + interpreter_key_writes(run, eff.writes, renv)
        if eff.writes or eff.deletes or not eff.readonly:  # the gate's own state: approvals, audit, trust
            state_findings(run, eff.writes, [w for w, _ in eff.deletes], eff.readonly, renv, found)
        database_findings(run, eff.readonly, found)  # … and the fleet's shared store
        if eff.writes or run.program in ("jq", "gojq", "composer"):  # a hook, recipe or script written here runs
            # at the next safe command: judge its content (jq's edit of package.json, whichever command writes it back)
            found = found + shell_write_findings(run, renv, _PLANTED_TOOLS, first_of.get(id(run.command)) is run)
        if found:
            sub.findings.extend(found)
        out.subcommands.append(sub)
        if sub.findings:
            out.findings.extend(sub.findings)
            if any(f.severity >= _ASK for f in sub.findings):
                category = None
                edit_ok = False
        readonly = readonly and sub.readonly
        changed = changed or not (sub.readonly or run.program in _CD or category in _BUILDS
                                  or run.program in _KEEPS_TEXT)  # a script on disk may differ after this (a
        # build or a `--fix` that rewrites one is the project's code at work; chmod leaves its text as it was)
        if category is None:
            all_safe = False
        else:
            categories.append(category)
        edits = edits and edit_ok
        if run.program in _CD:
            state.follow(run)
    bare = "export" if any(exports_all(r.program, r.args) for r in ex.runs) else "bare"  # set -a exports them
    for cmd in ex.commands:
        if cmd.words or not (cmd.redirects or cmd.assignments):
            continue
        eff = new_effects(P.READ_ONLY)
        assignment_effects(cmd.assignments, eff, bare, command)
        redirect_effects(cmd, eff)
        if not (eff.writes or eff.reads or eff.loads or eff.runs or eff.blockers or eff.mutates or eff.network
                or eff.deletes or eff.uploads):
            continue
        sub, category, edit_ok = _judge(None, eff, env, True, cmd)
        if cmd.redirects:  # `> /etc/passwd`: a redirection with no command is still judged by Tier 1
            bare_inv = Invocation("", [], cmd)
            sub.findings.extend(tier1.invocation_findings(bare_inv, env))
            state_findings(bare_inv, eff.writes, [], True, env, sub.findings)
            if any(f.severity >= _ASK for f in sub.findings):
                category, edit_ok = None, False
        out.subcommands.append(sub)
        out.findings.extend(sub.findings)
        readonly = readonly and sub.readonly
        all_safe = all_safe and category is not None
        edits = edits and edit_ok
    for parsed, runs in ex.scripts:
        found = tier1.script_findings(parsed, runs, env)
        if found:
            out.findings.extend(found)
    if out.findings:
        out.findings = _dedupe(out.findings)
        top = max(f.severity for f in out.findings)
    else:
        top = _ALLOW
    out.readonly = readonly
    if runs_project_code and writes_project:
        all_safe = False  # `echo … > package.json && npm install`: the write may plant the code that runs
        out.subcommands[-1].effects.append("not automatic: writes project files, then runs project code")
    if all_safe and top < _ASK:
        out.safe = T2.best_category(categories) or P.READ_ONLY
    out.edit_in_project = edits and top < _ASK and not out.safe and bool(ex.runs)
    return out


_SCHEMED: Final = re.compile(r"(?:data|https?|ftp|javascript|blob|jar|node|npm|git|ssh):", re.I)
"""A loaded module named by a URL scheme (``--import=data:text/javascript,…``): code, not a project file."""
_ALLOW, _ASK = Verdict.ALLOW, Verdict.ASK  # enum members bound once: `Verdict.ASK` is a slow class lookup
_CD: Final = frozenset({"cd", "pushd"})


class _State:
    """The cwd as a literal ``cd`` changes it for the commands after it."""

    def __init__(self, env: AnalysisEnv):
        self.base = env
        self.env = env
        self.cwd_known = True

    def follow(self, run: Run) -> None:
        if run.program not in ("cd", "pushd") or run.via or run.depth or run.remote:
            return
        ops = [a for a in run.args if not a.text.startswith("-") or a.text == "-"]
        if not ops:
            target = self.base.home
        elif ops[0].dynamic and not ops[0].text.startswith(("$HOME", "${HOME}", "~")) or ops[0].text == "-":
            self.cwd_known = False
            return
        else:
            target = paths.normalize(ops[0].text, self.env.cwd, self.base.home)
        self.env = replace(self.env, cwd=target)


# -- judging one subcommand -------------------------------------------------------------------------

def _norm(word: Word, env: AnalysisEnv) -> str:
    return paths.normalize(word.text, env.cwd, env.home)


def _generated(word: Word, env: AnalysisEnv) -> bool:
    """``rm -rf node_modules``: a generated or cache directory of the project (``analysis.generated``)."""
    return generated_target(word.text, word.dynamic, env.cwd, env.home, env.project_root)


def _deletes_ok(run: Run | None, eff: Effects, env: AnalysisEnv, cwd_known: bool, restorable: list[bool]) -> bool:
    """Whether the deletions of an ``rm``/``unlink``/``find`` subcommand are Tier-2 safe: named files in a
    sticky temp directory, generated/cache paths of the project when the cwd is known, or files git
    restores (``restorable``, one flag per deletion)."""
    if cwd_known and run is not None and cache_find(run):
        words = run.command.words
        return generated_find([(w.text, w.dynamic) for w in words[1:]], env.cwd, env.home, env.project_root)
    listed = listed_by_find(run) if cwd_known and run is not None else None
    if listed is not None:
        return generated_find([(w.text, w.dynamic) for w in listed.args], env.cwd, env.home, env.project_root,
                              listing=True)
    return all(back or _temp_file(word, recursive, env) or (cwd_known and _generated(word, env))
               for (word, recursive), back in zip(eff.deletes, restorable))


def _restorable(run: Run | None, word: Word, path: str, env: AnalysisEnv) -> bool:
    """``rm src/old.py``: a named project file (no pattern, no link on the way) that git tracks with this
    very content, deleted by ``rm`` or ``unlink`` itself (not through ``find``, ``xargs`` or a wrapper)."""
    if run is None or run.via or run.depth or P.canonical(run.program) not in ("rm", "unlink"):
        return False
    if word.dynamic or word.glob or env.project_root == "/" or not paths.is_within(path, env.project_root):
        return False
    if paths.real(path, env.home, env.project_root, env.cwd) is not None:
        return False
    return git_index.restorable(path, env.project_root)


def _temp_file(word: Word, recursive: bool, env: AnalysisEnv) -> bool:
    """A named file deleted in a sticky temp directory (``rm -f /tmp/build.log``): only the caller's own
    files can go there. Not a tree, a pattern, a computed path, nor the temp directory itself."""
    if recursive or word.dynamic or word.glob:
        return False
    path = _norm(word, env)
    return paths.is_temp_path(path) and path not in paths.TEMP_DIRS and T2.sensitive(path, env) is None




def _show(path: str, env: AnalysisEnv) -> str:
    return _shown(path, env.project_root, env.home)


def _shown(path: str, root: str, home: str) -> str:
    """``path`` as a person reads it: relative to the project, or to ``~``."""
    if root != "/" and paths.is_within(path, root):
        rel = path[len(root):].lstrip("/")
        return rel or "."
    if home and paths.is_within(path, home):
        return "~" + path[len(home):]
    return path


@lru_cache(maxsize=8192)
def _place(text: str, cwd: str, home: str, root: str) -> tuple[str, str, bool]:
    """(normalized path, shown path, harmless device?) of a path word: pure, so memoized."""
    path = paths.normalize(text, cwd, home)
    return path, _shown(path, root, home), paths.is_harmless_device(path)


def _substituted(text: str) -> bool:
    """Does ``text`` hold a command or process substitution (``$(…)``, backquotes, ``<(…)``, ``>(…)``)?"""
    return "`" in text or ("(" in text and ("$(" in text or "<(" in text or ">(" in text))


def _judge(run: Run | None, eff: Effects, env: AnalysisEnv, cwd_known: bool,
           cmd: SimpleCommand | None = None) -> tuple[Subcommand, str | None, bool]:
    """The report of one subcommand, its Tier 2 category (or None) and whether ``acceptEdits`` covers it."""
    command = run.command if run is not None else cmd
    text = command.text if command is not None and command.text else " ".join(
        w.text for w in (command.words if command else []))
    sub = Subcommand(text, run.program if run is not None else None, [], None, [],
                     run.via if run is not None else (), True)
    phrases = sub.effects
    remote = run is not None and run.remote
    cwd, home, root = env.cwd, env.home, env.project_root
    safe = True
    writes_ok = True
    in_project = True
    harmless_writes = True  # every write goes to /dev/null and the like
    write_categories: list[str] = []
    for word in eff.reads:
        if process_substitution(word):
            phrases.append("reads the output of " + word.text[2:-1])  # its commands are judged on their own
            continue
        path, shown, harmless = _place(word.text, cwd, home, root)
        if harmless and not word.dynamic:
            continue
        phrases.append("reads " + shown)
        if _substituted(word.text):
            safe = False
        if not remote:
            why = T2.sensitive(path, env, word.glob)
            if why is not None:
                sub.findings.append(Finding("sensitive.read", Verdict.ASK, shown, f"reads {shown}: {why}"))
    for word in eff.loads:
        path, shown, _ = _place(word.text, cwd, home, root)
        phrases.append("loads " + shown)
        if "://" in word.text or word.text.startswith(("git+", "git@")) or _SCHEMED.match(word.text):  # `data:…`
            safe = False
            phrases.append(f"not automatic: loads code or configuration from {word.text}, a remote source")
        elif computed(word) or root == "/" or not paths.is_within(path, root):  # /tmp too, unless the project is there
            safe = False
            phrases.append(f"not automatic: loads code or configuration from {shown}, outside the project")
        elif not remote:
            why = T2.sensitive(path, env, word.glob)
            if why is not None:
                sub.findings.append(Finding("sensitive.read", Verdict.ASK, shown, f"reads {shown}: {why}"))
    for word in eff.lists:
        phrases.append("lists " + _place(word.text, cwd, home, root)[1])
    for word in eff.hunts if not remote else ():  # a name filter's search (`find ~ -name 'id_*'`): where secrets lie
        path, shown, _ = _place(word.text, cwd, home, root)
        why = paths.hunt_reason(path, env.home)
        if why is not None:
            sub.findings.append(Finding("sensitive.read", Verdict.ASK, shown,
                                        f"hunts for secret files: lists {shown}: {why}"))
    for word in eff.writes:
        path, shown, harmless = _place(word.text, cwd, home, root)
        if harmless and not word.dynamic:
            continue
        harmless_writes = False
        phrases.append("writes " + shown)
        unresolved = computed(word) or (not cwd_known and not word.text.startswith(("/", "~", "$HOME")))
        place = None if unresolved or remote else T2.write_place(path, env)
        if place is None:
            writes_ok = False
        else:
            write_categories.append(place)
        if place != P.PROJECT_EDIT:
            in_project = in_project and place == P.SAFE_WRITE and paths.is_within(path, root)
        if not remote and not unresolved:
            _protected(path, "writes", sub, env)
    restorable: list[bool] = []
    for word, recursive in eff.deletes:
        path, shown, _ = _place(word.text, cwd, home, root)
        back = not recursive and not remote and cwd_known and _restorable(run, word, path, env)
        restorable.append(back)
        phrases.append(f"deletes {shown} (recursive)" if recursive else
                       f"deletes {shown} (tracked by git and unchanged: `git restore` brings it back)" if back else
                       "deletes " + shown)
        unresolved = computed(word) or not cwd_known
        if unresolved or remote or not paths.is_within(path, root) or root == "/":
            in_project = False
        if not remote and not unresolved:
            _protected(path, "deletes", sub, env)
    for word in eff.uploads:
        path, shown, _ = _place(word.text, cwd, home, root)
        phrases.append("uploads " + shown)
        if not remote:
            why = T2.sensitive(path, env, word.glob)
            if why is not None:
                sub.findings.append(Finding("sensitive.read", Verdict.ASK, shown, f"uploads {shown}: {why}"))
    if eff.network:
        phrases.append("network")
    if eff.runs:
        phrases.extend(eff.runs)
    if eff.mutates:
        phrases.extend(eff.mutates)
    if eff.changes:
        phrases.extend(eff.changes)
    if eff.blockers:
        phrases.extend(f"not automatic: {b}" for b in eff.blockers)
    for secret in eff.secrets:
        phrases.append(f"shows {secret}")
        sub.findings.append(Finding("sensitive.read", Verdict.ASK, text[:80], f"shows {secret}"))
    if eff.unknown is not None:
        phrases.append(f"unknown program: {eff.unknown}")
    if len(phrases) > 1:
        sub.effects[:] = list(dict.fromkeys(phrases))
    sub.readonly = not (eff.deletes or eff.uploads or eff.runs or eff.mutates or eff.changes
                        or eff.unknown is not None) and harmless_writes
    category = _category(run, eff, env, safe and writes_ok, write_categories, cwd_known, restorable)
    if category is None and run is not None and _user_allows(run, eff, env, writes_ok):
        category = T2.USER_PATTERN
    sub.safe = category
    edit_ok = category is not None or (
        run is not None and P.canonical(run.program) in FS_EDIT_PROGRAMS and in_project and not eff.runs
        and not eff.network and not eff.uploads and eff.unknown is None and not eff.mutates and not eff.secrets
        and not eff.blockers and not eff.loads and not remote and not run.via and cwd_known)
    return sub, category, edit_ok


def _protected(path: str, verb: str, sub: Subcommand, env: AnalysisEnv) -> None:
    why = paths.protected_reason(path, env.home, env.project_root)
    if why is not None:
        shown = _show(path, env)
        sub.findings.append(Finding("protected.write", Verdict.ASK, shown, f"{verb} {shown}: {why}"))


def _category(run: Run | None, eff: Effects, env: AnalysisEnv, writes_ok: bool,
              write_categories: list[str], cwd_known: bool = True, restorable: list[bool] | None = None) -> str | None:
    """The Tier 2 category of one subcommand, or None when something in it needs a human."""
    if eff.unknown is not None or eff.runs or eff.uploads or eff.mutates or eff.blockers or eff.secrets:
        return None
    if not writes_ok:
        return None
    category = eff.category
    if category is None:
        return None
    if eff.deletes:
        program = P.canonical(run.program) if run is not None else None
        if program in ("rm", "unlink", "find"):
            back = restorable if restorable is not None else [False] * len(eff.deletes)
            if not _deletes_ok(run, eff, env, cwd_known, back):
                return None
            if any(back):
                category = P.PROJECT_EDIT  # a tracked file of the project, which git gives back
            elif category == P.READ_ONLY:
                category = P.SAFE_WRITE  # ``find -delete``: no longer only reading
        elif program not in ("mv", "git") or any(r for _, r in eff.deletes):
            return None
        else:
            for word, _ in eff.deletes:
                if computed(word) or T2.write_place(_norm(word, env), env) is None:
                    return None
    if eff.network:
        if category not in P.NETWORK_CATEGORIES:
            return None
        if run is not None and any(a.dynamic for a in run.args):
            return None
    if write_categories and category in (P.READ_ONLY, P.NAVIGATION):
        category = P.SAFE_WRITE if all(c == P.SAFE_WRITE for c in write_categories) else P.PROJECT_EDIT
    if category in (P.PROJECT_EDIT, P.SAFE_WRITE):
        if not write_categories:
            return P.READ_ONLY if eff.readonly else category
        return P.SAFE_WRITE if all(c == P.SAFE_WRITE for c in write_categories) else P.PROJECT_EDIT
    return category


def _user_allows(run: Run, eff: Effects, env: AnalysisEnv, writes_ok: bool) -> bool:
    """A user ``safe_bash`` regex approves this one simple command (not its unsafe writes or secrets)."""
    store = env.user_patterns
    if store is None or not getattr(store, "safe_bash", None) or not writes_ok or eff.secrets:
        return False
    if eff.unknown is not None and run.kind == "dynamic":
        return False
    return store.matches_command(" ".join(w.text for w in run.command.words))


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for f in findings:
        key = (f.id, f.subject, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


_PLANTED_TOOLS: Final = ShellTools(analyze_command, effects_for)  # planted content is judged with this very analysis
