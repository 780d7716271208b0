"""The effects of one invocation the expansion found (``effects_for``): the program table for programs, the
expansion's notes for the rest, what wrappers add (another user, a remote host, every file ``find -exec`` or
``xargs`` hands on), and the effects of redirections (``redirect_effects``). ``found_findings`` is Tier 1 on a
network sender ``find -exec`` runs, with ``{}`` read as the files find lists.
"""
from __future__ import annotations

from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.generated import cache_expression
from phlegyas.analysis.shell.analyze import Run
from phlegyas.analysis.shell.assignments import note_assignment
from phlegyas.analysis.shell.effects import Effects, module_effects, new_effects, program_effects
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import SimpleCommand, Word
from phlegyas.analysis.shell.wrappers import xargs_items_unseen
from phlegyas.analysis.tier1 import findings as tier1
from phlegyas.analysis.tier1.disk import dangerous_mode
from phlegyas.analysis.tier1.network import UPLOADERS
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding, Verdict

PRIVILEGED = frozenset({"sudo", "doas", "pkexec", "su", "run0", "ksu", "runuser", "nsenter", "chroot", "systemd-run",
                        "sg", "newgrp"})
_WRITE_OPS: Final = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})



def effects_for(run: Run) -> Effects:
    """The effects of ``run``: the program table for programs, the expansion's notes for the rest."""
    eff = new_effects()
    notes = run.notes
    kind = run.kind
    if kind == "program":
        name = P.canonical(run.program)
        if not notes:
            program_effects(name, run.args, eff)
        else:
            finds = [v for k, v in notes if k == "find"]
            xargs = [v for k, v in notes if k == "xargs"]
            if finds:
                for start in finds:
                    program_effects(name, _found(run.args, start), eff)
            elif xargs:
                program_effects(name, _xargs_args(run.args, xargs[0]), eff)
                if any("$XARGS_ITEM" in w.text for w in eff.reads) and (source := xargs_items_unseen(run)):
                    eff.blockers.append(f"reads the files named by {source}, which phlegyas cannot see")
            else:
                program_effects(name, run.args, eff)
    elif kind == "module":
        module_effects(run.spec, run.program, run.args, eff)  # type: ignore[arg-type]
        spec = run.spec
        eff.category = spec.category or (P.READ_ONLY if spec.readonly else None)  # type: ignore[union-attr]
    elif kind == "dynamic":
        eff.unknown = "a computed program name"
    elif kind in ("query", "shell", "builtin", "interp", "file"):
        eff.category = P.READ_ONLY
    for key, value in notes:
        _note(key, value, eff, run)
    if kind == "file" and not eff.runs:
        eff.runs.append(f"runs a file: {run.written}")
    if run.via:
        _via_effects(run, eff)
    elif run.remote:
        eff.blockers.append("runs on a remote host")
    return eff


def _via_effects(run: Run, eff: Effects) -> None:
    """What the wrappers ``run`` was reached through add: another user, a remote host, every file."""
    for v in run.via:
        head = v.split(" ", 1)[0]
        if head in PRIVILEGED:
            eff.blockers.append(f"runs as another user ({head})")
            break
    if run.remote:
        eff.blockers.append("runs on a remote host")
    if (eff.writes or eff.deletes) and any(v.startswith(_MASS) for v in run.via) and not (
            cache_find(run) and cache_expression([(w.text, w.dynamic) for w in run.command.words[1:]])) and not (
            listed_by_find(run) is not None):
        eff.blockers.append("changes every file it is given (find -exec, xargs, parallel)")


_MASS: Final = ("find -exec", "find -execdir", "find -ok", "xargs", "parallel")


def _found(args: list[Word], start: str) -> list[Word]:
    found = "/*" if start.rstrip("/") == "" else start.rstrip("/") + "/*"
    return [Word(w.text.replace("{}", found), w.dynamic, True, w.quoted) if "{}" in w.text else w for w in args]


def found_findings(run: Run, env: AnalysisEnv) -> list[Finding]:
    """Tier 1 on what ``find -exec`` (or ``find … | xargs``) hands a sender or a changer, with ``{}`` read as
    the files find lists under its start: ``find ~/.ssh -exec curl -F f=@{} …`` uploads ``~/.ssh/*``,
    ``find / -exec chmod 777 {} +`` is ``chmod -R 777 /``, ``find ~ -type f | xargs truncate -s0`` empties
    ``~/*``. Empty for any other run."""
    name = P.canonical(run.program)
    if name not in FOUND_CHECKED or not run.via:
        return []
    starts = [v for k, v in run.notes if k == "find"] if any("{}" in w.text for w in run.args) else []
    if not starts and run.via[-1].startswith("xargs") and len(run.upstream) == 1 and run.upstream[0].program == "find":
        finder = [w for w in run.upstream[0].args if not w.text.startswith(("-", "(", "!", ")"))][:1]
        if finder and not finder[0].dynamic:
            starts = [finder[0].text]
    out: list[Finding] = []
    mild = name in _RECURSIVE_TWINS and _filtered(run) and not dangerous_mode(name, [w.text for w in run.args])
    for start in starts:
        if name in _RECURSIVE_TWINS:  # the tree itself, recursively
            kept = [Word(start if w.text == "{}" else w.text, w.dynamic, w.glob, w.quoted) for w in run.args
                    if not w.text.startswith("$XARGS_ITEM")]
            args = [Word("-R"), *kept] + ([] if any(w.text == "{}" for w in run.args) else [Word(start)])
        else:
            listed = _found(run.args, start)
            args = listed if any("{}" in w.text for w in run.args) else [*listed, *_found([Word("{}")], start)]
        # a new Invocation, not a copy of the run: copy.copy of a compiled (mypyc) object fails
        shadow = Invocation(run.program, args, run.command, run.via, run.upstream, run.stdin_text, run.remote)
        got = tier1.invocation_findings(shadow, env)
        if mild:  # `find / -user lal -exec chown ravi {} \;`: some files, a harmless mode: a person decides
            got = [Finding(f.id, Verdict.ASK, f.subject, f.message) if f.id == "perms.system" else f for f in got]
        out.extend(got)
    return out


_NOT_FILTERS: Final = frozenset({"-type", "-xtype", "-xdev", "-mount", "-maxdepth", "-mindepth", "-depth", "-print",
                                 "-print0", "-follow", "-L", "-H", "-P", "-exec", "-execdir", "-ok", "-okdir"})


def _filtered(run: Run) -> bool:
    """Does the ``find`` behind ``run`` pick some files only (``-name``, ``-user``, ``-perm`` …), not every file
    or directory under its start? (``-type d`` still picks every directory: ``/tmp`` loses its sticky bit.)"""
    finder = run.command.words[1:] if run.command.words and run.command.words[0].text == "find" else (
        run.upstream[0].args if run.upstream else [])
    for w in finder:
        if w.text in ("-exec", "-execdir", "-ok", "-okdir"):
            break
        if w.text.startswith("-") and len(w.text) > 1 and w.text not in _NOT_FILTERS:
            return True
    return False


_RECURSIVE_TWINS: Final = frozenset({"chmod", "chown", "chgrp", "setfacl"})
FOUND_CHECKED: Final = UPLOADERS | _RECURSIVE_TWINS | frozenset({"truncate", "shred", "dd"})
"""The programs ``found_findings`` judges again with the files find lists."""


def _xargs_args(args: list[Word], replace_str: str) -> list[Word]:
    if replace_str:
        return [Word(w.text.replace(replace_str, "$XARGS_ITEM"), True, w.glob, w.quoted) if replace_str in w.text
                else w for w in args]
    return [*args, Word("$XARGS_ITEM", dynamic=True)]


def _note(key: str, value: str, eff: Effects, run: Run) -> None:
    if key == "runs":
        eff.runs.append(f"runs a file: {value}")
    elif key == "executes":
        eff.runs.append(f"executes code ({value})")
    elif key == "writes":
        eff.writes.append(Word(value, dynamic=value == "?"))
    elif key == "reads":
        eff.reads.append(Word(value, dynamic=value == "?"))
    elif key == "network":
        eff.network = True
        eff.blockers.append(f"uses the network ({value})") if run.kind in ("interp", "builtin") else None
    elif key == "mutates":
        eff.mutates.append(value)
    elif key == "unknown":
        eff.unknown = value
    elif key == "privileged":
        eff.blockers.append(f"runs as another user ({value})")
    elif key == "assigns":
        note_assignment(value, eff)
    elif key == "blocks":
        eff.blockers.append(value)
    elif key == "pure":
        eff.category = P.READ_ONLY
    elif key == "project_code":
        eff.category = P.TEST_BUILD  # ``python -c "import mypkg; print(mypkg.__version__)"`` runs mypkg's code


def redirect_effects(cmd: SimpleCommand, eff: Effects) -> None:
    """``> f`` writes, ``< f`` reads; ``/dev/null``, ``2>&1`` and friends are harmless; ``/dev/tcp`` is network."""
    for r in cmd.redirects:
        target = r.target
        if target is None or r.op in ("<<", "<<<", "<<-"):
            continue
        text = target.text
        if r.op in (">&", "<&") and (text.isdigit() or text == "-" or text.endswith("-") and text[:-1].isdigit()):
            continue
        if r.op in _WRITE_OPS and target.dynamic and text.startswith(">(") and text.endswith(")"):
            continue  # `> >(tee log)`: a pipe into the commands inside, which read it (parse wires them up)
        if text.startswith(("/dev/tcp/", "/dev/udp/")):
            eff.network = True
            eff.mutates.append(f"opens a network connection ({text})")
            continue
        if r.op in _WRITE_OPS or r.op in (">&",):
            eff.writes.append(target)
            if r.op == "<>":
                eff.reads.append(target)
        elif r.op in ("<", "<&"):
            eff.reads.append(target)
            if eff.network and not target.dynamic:
                eff.uploads.append(target)


def cache_find(run: Run | None) -> bool:
    """Is ``run`` a ``find`` or the command its ``-exec`` runs, reached directly (no wrapper, no nested
    script)? Whether it deletes cache names only is ``analysis.generated``'s to say."""
    if run is None or run.remote:
        return False
    words = run.command.words if run.command is not None else []
    if not words or words[0].dynamic or words[0].text.rsplit("/", 1)[-1] != "find":
        return False
    if run.program != "find" and not (run.via and run.via[-1].startswith(("find -exec", "find -execdir"))):
        return False
    return len(run.via) <= 1 and not run.depth


def listed_by_find(run: Run) -> Invocation | None:
    """For ``find … -name __pycache__ | xargs rm -rf``: the ``find`` whose list the ``rm`` deletes, when that
    find only prints cache names and the ``rm`` has no operand of its own."""
    if run.program != "rm" or len(run.via) != 1 or not run.via[0].startswith("xargs") or run.depth:
        return None
    if not all(a.text.startswith("-") and not a.dynamic for a in run.args):
        return None
    ups = [u for u in run.upstream if u.program == "find"]
    if len(ups) != 1 or len(run.upstream) != 1:
        return None
    return ups[0] if cache_expression([(w.text, w.dynamic) for w in ups[0].args], listing=True) else None
