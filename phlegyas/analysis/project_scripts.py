"""Running a script of the project (``./scripts/test.sh``, ``bash scripts/lint.sh``, ``python3 tools/gen.py``,
``node scripts/build.js``): judged by what the script holds, at the trust the project's tests have.

``pytest`` and ``npm test`` run the project's code and are allowed; every write of a source file through
the gate has its content read for Tier 1 denies (``planted``). A project script is the same code, so it
runs at the same trust, judged by its content as it is on disk now (it may have come in by ``git pull``
or an archive):

- a shell script is analysed line by line as the command line it is: its findings are the call's, and
  the call is Tier-2 safe only when every command in it is (``kubectl apply`` in ``deploy.sh`` asks as
  typed alone);
- a Python, JavaScript or Ruby script is read for what Tier 1 denies (``planted.sources``, as its write
  was), and otherwise runs as the tests do (``test/build``).

Only a regular file inside the project (after symlinks), outside ``.git`` and vendored trees
(``node_modules``, ``.venv`` …), of at most 200 kB of UTF-8 text. Anything else — a binary, a file
outside the project, another language — stays "runs a file" for a person or a trusted-script entry
(Tier 2.5). ``source``/``.`` is not covered: what a sourced file defines changes the commands after it.
"""
from __future__ import annotations

import os
import posixpath
from typing import Final

from phlegyas.analysis import paths
from phlegyas.analysis import programs as P
from phlegyas.analysis.planted.sources import source_deny
from phlegyas.analysis.planted.tools import ShellTools, short
from phlegyas.analysis.shell.analyze import Run
from phlegyas.analysis.shell.effect_types import Effects
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding, Verdict

_PREFIX: Final = "runs a file: "
MODULE_MARK: Final = "python module "
"""``runs a file: python module app``: a module ``python -m`` runs, looked for in the working directory."""
_MAX_BYTES: Final = 200_000
_MAX_DEPTH: Final = 3
_SKIPPED_DIRS: Final = frozenset({".git", "node_modules", ".venv", "venv", "site-packages", "__pycache__"})
_BY_INTERPRETER: Final = {"python": "py", "js": "js", "ruby": "ruby"}
_SHEBANG_SHELLS: Final = frozenset({"sh", "bash", "dash"})
_SOURCING: Final = frozenset({"source", "."})
_DISPATCHERS: Final = frozenset({"manage.py", "artisan", "rails", "rake", "console", "wp", "bin/magento"})
"""Framework entry points whose first argument picks a command (``manage.py migrate``, ``artisan
db:wipe``): what runs is the framework's command, not the file's text, so only their development
commands are allowed (``shell.interpreter_calls``)."""

_depth = 0  # scripts being judged, one inside the other (a script that runs a script …)


def judge_script_runs(run: Run, eff: Effects, env: AnalysisEnv, tools: ShellTools) -> list[Finding]:
    """Judge each project script ``run`` runs: a script judged harmless leaves ``eff.runs`` (its category
    becomes ``eff.category``, its reason one of ``eff.changes``); a script with something Tier 2 cannot
    vouch for stays there with the reason added; returned are the findings in the scripts' content."""
    if run.remote or run.program in _SOURCING or not env.project_root or env.project_root == "/":
        return []
    found: list[Finding] = []
    kept: list[str] = []
    for note in eff.runs:
        target = note[len(_PREFIX):] if note.startswith(_PREFIX) else ""
        judged = _judge(target, run, env, tools, found) if target else None
        if judged is None:
            kept.append(note)
            continue
        category, reason = judged
        if category is None:
            kept.append(note)
            eff.blockers.append(reason)
        else:
            eff.changes.append(reason)
            eff.category = category if eff.category in (None, P.READ_ONLY) else eff.category
    eff.runs[:] = kept
    return found


def _judge(target: str, run: Run, env: AnalysisEnv, tools: ShellTools,
           found: list[Finding]) -> tuple[str | None, str] | None:
    """(category or None, reason) for running the project file ``target``, or None when it is not one
    this module judges."""
    global _depth
    if target.startswith(MODULE_MARK):  # `python -m app`: app.py, or the package's __main__.py, from the cwd
        base = target[len(MODULE_MARK):].replace(".", "/")
        target = next((t for t in (base + ".py", base + "/__main__.py") if (got := _project_file(t, env)) is not None
                       and os.path.isfile(got[0])), "")
    located = _project_file(target, env)
    if located is None:
        return None
    path, shown = located
    if posixpath.basename(path) in _DISPATCHERS:
        return None
    content = _read(path)
    if content is None:
        return None
    language = _language(run, path, content)
    if language is None:
        return None
    if _depth >= _MAX_DEPTH:
        return None, f"runs {shown}, a script run by a script run by a script (too deep to follow)"
    _depth += 1
    try:
        if language == "sh":
            return _shell(content, shown, env, tools, found)
        why = source_deny(language, content, env, tools)
    finally:
        _depth -= 1
    if why is not None:
        found.append(Finding("write.plants_code", Verdict.DENY, shown, f"runs {shown}, a script that {why}"))
        return None, f"runs {shown}, which {why}"
    return P.TEST_BUILD, f"runs {shown}, a script of the project (trusted as its tests are: nothing in it is denied)"


def _shell(content: str, shown: str, env: AnalysisEnv, tools: ShellTools,
           found: list[Finding]) -> tuple[str | None, str]:
    inner = tools.analyze(content, env)
    for f in inner.findings:
        found.append(Finding(f.id, f.severity, f.subject, f"in {shown}: {f.message}"))
    if inner.safe is not None and not inner.findings:
        return inner.safe, f"runs {shown}, a script of the project whose every command is safe ({inner.safe})"
    if not inner.understood and inner.problems:
        return None, f"runs {shown}, which phlegyas cannot follow: {inner.problems[0]}"
    for sub in inner.subcommands:
        if sub.safe is None:
            return None, f"runs {shown}, which runs {short(sub.text)}: not automatic on its own"
    return None, f"runs {shown}, which is not automatic"


_COMPILERS: Final = frozenset({"cc", "gcc", "g++", "c++", "clang", "clang++", "rustc", "zig"})


def build_outputs(run: Run, env: AnalysisEnv) -> list[str]:
    """The program a project build writes where ``-o`` says (``go build -o bin/app ./cmd/app``, ``cc -o app
    src/main.c``), when it lies in the project: running it next runs the project's code, as ``go run`` does."""
    texts = [w.text for w in run.args]
    if not (run.program == "go" and texts[:1] == ["build"] or run.program in _COMPILERS) or "-o" not in texts:
        return []
    at = texts.index("-o")
    out = texts[at + 1] if at + 1 < len(texts) else ""
    sources = [t for i, t in enumerate(texts) if i != at + 1 and not t.startswith("-") and t != "build"]
    if any(run.args[i].dynamic for i in range(len(texts))) or not sources or not all(
            t.startswith(("./", "../")) and _project_dir(t, env) or _project_file(t, env)
            for t in sources):
        return []  # built from something outside the project (`cc -o a /tmp/x.c`, `go build -o a evil.example/x`)
    located = _project_file(out, env) if out else None
    return [located[0]] if located is not None else []


def _project_dir(target: str, env: AnalysisEnv) -> bool:
    path = paths.normalize(target, env.cwd, env.home)
    return paths.is_within(path, env.project_root)


def run_built(eff: Effects, built: set[str], env: AnalysisEnv) -> None:
    """Take the runs of programs this line built from the project off ``eff.runs``: the project's code."""
    kept: list[str] = []
    for note in eff.runs:
        located = _project_file(note[len(_PREFIX):], env) if note.startswith(_PREFIX) else None
        if located is not None and located[0] in built:
            eff.changes.append(f"runs {located[1]}, which this line just built from the project")
            eff.category = P.TEST_BUILD if eff.category in (None, P.READ_ONLY) else eff.category
        else:
            kept.append(note)
    eff.runs[:] = kept


def _project_file(target: str, env: AnalysisEnv) -> tuple[str, str] | None:
    """(path, as shown) of ``target`` when it is a file of the project this module may read."""
    if not target or "$" in target or "`" in target or "*" in target or "?" in target or "[" in target:
        return None
    path = paths.normalize(target, env.cwd, env.home)
    root = env.project_root
    if not paths.is_within(path, root) or path == root:
        return None
    real = paths.real(path, env.home, root, env.cwd) or path
    if not paths.is_within(real, root):
        return None  # a link out of the project: the file is not the project's
    rel = posixpath.relpath(real, root)
    if _SKIPPED_DIRS.intersection(rel.split("/")[:-1]):
        return None
    return real, rel


def _read(path: str) -> str | None:
    """The text of regular file ``path``, or None (missing, not regular, too large, not UTF-8, binary)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not (st.st_mode & 0o170000 == 0o100000) or st.st_size > _MAX_BYTES:
            return None
        data = os.read(fd, _MAX_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) > _MAX_BYTES or b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _language(run: Run, path: str, content: str) -> str | None:
    """The language the script runs as: the interpreter's when one is named (``python3 x.py``, ``bash
    x``), else the shebang's; a file executed without one runs in the shell."""
    program = P.canonical(run.program)
    if run.kind == "interp":
        it = P.INTERPRETERS.get(program)
        return _BY_INTERPRETER.get(it.lang) if it is not None else None
    if run.kind == "shell":
        return "sh" if program in _SHEBANG_SHELLS else None
    if content.startswith("#!"):
        line = content[2:content.find("\n")] if "\n" in content else content[2:]
        words = line.split()
        if words and posixpath.basename(words[0]) == "env":
            words = [w for w in words[1:] if not w.startswith("-")]
        name = posixpath.basename(words[0]) if words else ""
        if name in _SHEBANG_SHELLS:
            return "sh"
        it = P.INTERPRETERS.get(P.canonical(name))
        return _BY_INTERPRETER.get(it.lang) if it is not None else None
    return "sh"  # a file without a shebang that is executed is run by the shell (ENOEXEC), whatever its name


__all__ = ["judge_script_runs"]
