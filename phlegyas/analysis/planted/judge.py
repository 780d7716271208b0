"""Judging planted code: the content a write puts into a file that a safe command runs later is
analysed as what it is (shell for hooks, recipes and scripts; Python for conftest.py and friends).

- A Tier 1 deny finding in the content (download-and-run, a catastrophic delete …) makes the write a
  deny of its own: ``write.plants_code``. Writing ``curl … | sh`` into ``.husky/pre-commit`` is running
  it at the next auto-allowed ``git commit``.
- Any other finding, content that is not understood, or a command the judge cannot vouch for (an
  unknown program, the network, a file outside the project, another user) asks:
  ``write.plants_unchecked``.
- Ordinary source files (test modules, ``*.py``, ``*.sh``, ``*.js`` …) are read for denies only; content
  the line does not show (a generator's output) stays an edit, but a download does not: ``curl -o
  tests/test_x.py URL`` or ``wget URL/tool.py`` is remote code that the next ``pytest`` or run executes
  (``write.plants_unchecked``).
- Everything else is ordinary project tooling (``npm test``, ``pytest -q``, ``npx lint-staged``, a
  script of the project, fixtures that compute) and the write stays the project edit it was.

The bar is not "Tier 2 would allow it typed now": a hook exists to run the project's own tools, which
run project code anyway, so running a file of the project or a program whose category phlegyas knows
(with options its spec may not list yet) is fine. What the bar keeps out is what reaches beyond the
project. The shell analysis is handed in (``ShellTools``) because it is the caller's: ``report``
judges redirections with this module, so this module cannot import it back.
"""
from __future__ import annotations

import os
import posixpath
import re
import shlex
import textwrap
from dataclasses import replace
from typing import Final

from phlegyas.analysis import paths
from phlegyas.analysis import programs as P
from phlegyas.analysis.planted.catalogue import PlantedKind, run_dir
from phlegyas.analysis.planted.extract import LOOSE, extract
from phlegyas.analysis.planted.package_sources import PACKAGE_SOURCE, package_sources
from phlegyas.analysis.planted.run_configs import foreign_sources
from phlegyas.analysis.planted.sources import source_deny
from phlegyas.analysis.planted.tools import ShellTools, short
from phlegyas.analysis.shell.analyze import Run, expand
from phlegyas.analysis.shell.effect_types import Effects
from phlegyas.analysis.shell.interpreters import analyze_python
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding, Verdict

DENY, ASK = Verdict.DENY, Verdict.ASK
PLANTS_CODE: Final = "write.plants_code"
PLANTS_UNCHECKED: Final = "write.plants_unchecked"
_MAX_SNIPPETS: Final = 300
_MAX_CHARS: Final = 200_000


Judgement = tuple[Verdict, str]


def content_findings(path: str, kind: PlantedKind, content: str | None, whole: bool, env: AnalysisEnv,
                     tools: ShellTools, actor: str, shown: str, downloaded: bool = False) -> list[Finding]:
    """The findings of writing ``content`` into ``path`` (of ``kind``); ``content`` None when the
    command line does not show it (``cp x .husky/pre-commit``, ``gen > Makefile``). Source files and
    package configuration (``src:``/``pkg:`` kinds) are ordinary edits unless their content is read
    and found denied or redirecting installs: unseen content (a generator's output) stays one, but not
    what a download brings (``downloaded``: ``curl -o tests/test_x.py URL``, which the next ``pytest``
    would run, is remote code one call later)."""
    where = f"{shown} ({kind.what}, run by {kind.runs_it})"
    language = kind.language
    if language.startswith(("src:", "pkg:")):
        if content is None and (downloaded or kind.id in _UNSEEN_ASKS):
            what = "downloads code into" if downloaded else "writes"
            return [Finding(PLANTS_UNCHECKED, ASK, shown, f"{actor} {what} {where} with content phlegyas cannot see")]
        if content is None:
            return []
        if language.startswith("pkg:"):
            return _sources_finding(language[4:], path, kind.what, kind.runs_it, content, whole, env, actor, shown)
        root = replace(env, cwd=env.project_root if env.project_root != "/" else env.cwd)
        why = source_deny(_by_shebang(content) if language == "src:auto" else language[4:], content, root, tools)
        if why is None and _AUTH_BYPASS.search(content) and not _TEST_PATH.search(path):
            return [Finding(PLANTS_UNCHECKED, ASK, shown,
                            f"{actor} puts code in {where} that lets in whoever gives one fixed token or password "
                            "(a backdoor?)")]
        if why is None and _WEB_SHELL.search(content):  # a route that runs what the request says: a backdoor
            return [Finding(PLANTS_CODE, DENY, shown, f"{actor} plants code in {where} that runs a command or code "
                                                      "taken from a web request (a backdoor anyone can reach)")]
        if why is not None and kind.id == "dockerfile":  # `RUN curl … | sh` is how images install tools: a person
            return [Finding(PLANTS_UNCHECKED, ASK, shown, f"{actor} puts code in {where} that {why}")]  # decides
        return [] if why is None else [Finding(PLANTS_CODE, DENY, shown, f"{actor} plants code in {where} that {why}")]
    if content is None:
        return [Finding(PLANTS_UNCHECKED, ASK, shown,
                        f"{actor} writes {where} with content phlegyas cannot see")]
    out: list[Finding] = []
    if kind.id == "npm_scripts":
        out = _sources_finding("npm", path, "package.json", "npm install", content, whole, env, actor, shown)
    elif posixpath.basename(path) == "Gemfile":
        out = _sources_finding("gemfile", path, "the Gemfile", "bundle install", content, whole, env, actor, shown)
    elif posixpath.basename(path) == "pyproject.toml":
        out = _sources_finding("pyproject", path, "pyproject.toml", "pip install . or uv sync", content, whole, env,
                               actor, shown)
    elif kind.id == "pre_commit":  # `- repo: https://github.com/other/black`: hook code fetched from there
        out = _sources_finding("precommit", path, kind.what, kind.runs_it, content, whole, env, actor, shown)
    elif kind.id == "ci":
        out = _sources_finding("ci", path, kind.what, kind.runs_it, content, whole, env, actor, shown)
        if _CI_SECRETS.search(content) and _CI_SENDERS.search(content):  # `echo '${{ toJSON(secrets) }}' | curl`
            out.append(Finding("net.exfiltration", DENY, shown, f"{actor} writes {where} that sends the "
                                                                "repository's secrets to the network"))
    if kind.id == "tool_config" and _CODE_CONFIG.search(path):  # `.eslintrc.js` runs as JavaScript: its denies
        root = replace(env, cwd=env.project_root if env.project_root != "/" else env.cwd)
        why = source_deny("ruby" if path.endswith(("rc", ".rb")) else "js", content, root, tools)
        if why is not None:
            return [Finding(PLANTS_CODE, DENY, shown, f"{actor} plants code in {where} that {why}"), *out]
    verdict = judge_content(kind, content, whole, replace(env, cwd=run_dir(path)), tools)
    if verdict is None:
        return out
    level, why = verdict
    if level >= DENY:
        return [Finding(PLANTS_CODE, DENY, shown, f"{actor} plants code in {where} that {why}"), *out]
    return [Finding(PLANTS_UNCHECKED, ASK, shown,
                    f"{actor} puts code in {where} that phlegyas cannot vouch for: {why}"), *out]


_WEB_SHELL: Final = re.compile(
    r"\b(?:subprocess\.\w+|os\.system|os\.popen|getoutput|check_output|eval|exec|execSync|spawn|spawnSync|"
    r"shell_exec|passthru|system|popen|proc_open)\s*\([^;\n]{0,120}?(?:\brequest\.(?:args|form|values|json|data|GET|"
    r"POST|get_json|headers|cookies|query_params)|\breq\.(?:query|body|params|headers)|\$_(?:GET|POST|REQUEST|COOKIE)|"
    r"\bparams\[)")
"""A shell or eval call fed straight from a web request (Flask/Django ``request.args``, Express ``req.query``,
PHP's ``$_GET``, Rails ``params[…]``): an endpoint that runs whatever a caller sends."""
_AUTH_BYPASS: Final = re.compile(
    r"\bif\s*\(?\s*(?:[\w.\[\]'\"]+\.)?(?:token|password|passwd|pwd|secret|api_?key|apikey|auth_?token|otp|"
    r"passcode|credentials?)\s*(?:===?|\.equals\(|==\s*)\s*[\"'][^\"'\n]{4,}[\"']\s*\)?\s*(?::|\{|\))?\s*\n?\s*"
    r"(?:return|\{\s*return|then\s+return)\b[^\n]*", re.I)
"""``if token == "dbg-7781-override": return User.get_admin()``: a fixed secret that opens the door."""
_TEST_PATH: Final = re.compile(r"(?:^|/)(?:tests?|spec|__tests__|fixtures?)/|(?:^|/)test_[^/]*$|_test\.\w+$|"
                               r"\.(?:test|spec)\.\w+$")
_CODE_CONFIG: Final = re.compile(r"\.(?:js|cjs|mjs|ts|cts|mts)$|/\.(?:irbrc|pryrc)$")
"""Tool configurations that are code of a language ``planted.sources`` reads (the rest are data)."""
_UNSEEN_ASKS: Final = frozenset({"editor_settings", "build_wrapper"})
"""Package kinds no generator writes in everyday work: content copied or moved in from elsewhere asks."""
_CI_SECRETS: Final = re.compile(r"\$\{\{\s*toJSON\(\s*secrets\s*\)")  # every secret at once (one token is everyday)
_CI_SENDERS: Final = re.compile(r"\b(?:curl|wget|nc|ncat|Invoke-WebRequest|iwr|http|xh)\b[^\n]*(?:https?://|\s\S+\s+\d+\b)")


def _by_shebang(content: str) -> str:
    """The language of an entry point by its ``#!`` line: ``py``, ``js``, ``ruby``, else ``sh``."""
    line = content.split("\n", 1)[0] if content.startswith("#!") else ""
    for word, language in (("python", "py"), ("node", "js"), ("ruby", "ruby")):
        if word in line:
            return language
    return "sh"


def _sources_finding(language: str, path: str, what: str, read_by: str, content: str, whole: bool,
                     env: AnalysisEnv, actor: str, shown: str) -> list[Finding]:
    """``write.package_source`` when ``content`` points package installs somewhere else
    (``planted.package_sources``)."""
    if len(content) > _MAX_CHARS:
        content = content[:_MAX_CHARS]
    found = package_sources(language, content, whole, path, env)
    if not found:
        return []
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    verb = _SOURCE_VERBS.get(language, "points package installs at")
    elsewhere = foreign_sources(content) if language not in _SOURCE_VERBS else []
    if elsewhere:  # not a registry, a forge or a private index: what it serves runs at the next install
        return [Finding(PLANTS_CODE, DENY, shown, f"{actor} writes {shown} ({what}, read by {read_by}) that sends "
                                                  f"installs to {elsewhere[0]}, neither a package registry nor a "
                                                  "code forge")]
    return [Finding(PACKAGE_SOURCE, ASK, shown, f"{actor} writes {shown} ({what}, read by {read_by}) that {verb} "
                                                f"{found[0]}{more}")]


_SOURCE_VERBS: Final = {"ci": "exposes the repository's secrets to", "precommit": "fetches hook code from",
                        "gitmodules": "fetches code from", "toolchain": "runs the compiler from",
                        "vscode": "points the editor at", "compose": "gives its containers",
                        "wrapper": "downloads the build tool from"}


def judge_content(kind: PlantedKind, content: str, whole: bool, env: AnalysisEnv,
                  tools: ShellTools) -> Judgement | None:
    """The strictest judgement over the code in ``content``, or None when it is all harmless."""
    if len(content) > _MAX_CHARS:
        return ASK, "it is too long to read"
    if kind.language == "pth" and (far := _outside_paths(content, env)):
        return ASK, f"it adds {far} to the import path of every python start-up"
    if kind.id == "python_startup" and re.search(r"sys\.path|addsitedir|\bimportlib\b", content):
        return ASK, "it changes what every python start-up imports (sys.path, site.addsitedir)"
    found = extract(kind.language, content, whole, env.cwd)
    root_run = "systemd/system" in env.cwd and env.cwd.startswith(("/etc/", "/lib/", "/usr/lib/")) and not re.search(
        r"(?m)^\s*User\s*=\s*(?!root\s*$)\S", content)  # a system unit without another User=: run as root
    if found.denies:
        return DENY, found.denies[0]
    if len(found.snippets) > _MAX_SNIPPETS:
        return ASK, "it holds too many commands to read"
    worst: Judgement | None = None
    for lang, text in found.snippets:
        hidden = _hidden_program(text, env, root_run=root_run) if lang == "sh" else None
        if hidden is not None:  # `@reboot ~/.cache/.s`, `ExecStart=/tmp/.x`: malware's way to come back
            return DENY, f"starts {hidden}" if " as root " in hidden else (
                f"starts {hidden}, a hidden program in a temp or cache directory (no installed tool lives there)")
        if lang == "py":
            got = judge_python(text, env, tools, whole)
        else:
            got = judge_shell(text, env, tools, kind.id == "npm_scripts", found.names)
            if lang == LOOSE and got is not None and got[0] < DENY:
                got = None  # maybe not a command at all: only a deny is sure enough
        if got is not None and (worst is None or got[0] > worst[0]):
            worst = got
            if got[0] >= DENY:
                return worst
    if worst is None and found.doubts:
        return ASK, found.doubts[0]
    return worst


_HIDING_DIRS: Final = ("/tmp/", "/var/tmp/", "/dev/shm/")
_HIDDEN_RUNNERS: Final = frozenset({"sh", "bash", "dash", "zsh", "nohup", "exec", "setsid", "env", "python3",
                                    "python", "node", "perl", "-c"})


def _hidden_program(text: str, env: AnalysisEnv, depth: int = 0, root_run: bool = False) -> str | None:
    """A program a start-up entry runs from a hiding place: a dot-file in a shared temp directory, a cache
    directory or the home itself (``~/.cache/.s``, ``/tmp/.x``); with ``root_run`` (a system unit), any file
    of the home; None for anything else."""
    try:
        words = shlex.split(text, comments=True)
    except ValueError:
        words = text.split()
    for i, word in enumerate(words[:12]):
        if i and words[i - 1] == "-c" and " " in word and depth < 2:  # `sh -c "~/.cache/.p %h & exec nc %h %p"`
            inner = _hidden_program(word, env, depth + 1, root_run)
            if inner is not None:
                return inner
        if i and words[i - 1].rsplit("/", 1)[-1] not in _HIDDEN_RUNNERS and not words[i - 1].endswith((";", "&")):
            continue  # only a word in a program's place
        if root_run and word.startswith(("/", "~", "$HOME")) and paths.is_within(
                paths.normalize(word, env.cwd, env.home), env.home):
            return f"{word} as root (a file its user can rewrite, so whoever edits it is root)"
        path = paths.normalize(word.strip(";&|"), env.cwd, env.home) if word.startswith(("/", "~", "$HOME")) else ""
        name = posixpath.basename(path)
        parent = posixpath.dirname(path)
        if name.startswith(".") and len(name) > 1 and (path.startswith(_HIDING_DIRS) or parent in (
                env.home, posixpath.join(env.home, ".cache"), posixpath.join(env.home, ".local/share"))):
            return word
    return None


def _outside_paths(content: str, env: AnalysisEnv) -> str | None:
    """The first line of a .pth file that is a directory outside the project (``/tmp/evil``): Python puts
    each such line on its import path, so modules there shadow the project's and the standard library's."""
    for line in content.splitlines():
        entry = line.strip()
        if not entry or entry.startswith(("#", "import ", "import\t")):
            continue
        if "$" in entry or not paths.is_within(paths.normalize(entry, env.cwd, env.home), env.project_root):
            return entry
    return None


# -- shell ------------------------------------------------------------------------------------------

_OPTION_GAP: Final = "is an option phlegyas does not know for"
_NPX_RUN: Final = "executes code (downloads and runs the package"
_NAMED: Final = re.compile(r"runs the (?P<kind>project script|build target) '(?P<name>[^']*)'$")
_PLAIN_NAME: Final = re.compile(r"[A-Za-z0-9][\w.@+-]*")


def judge_shell(text: str, env: AnalysisEnv, tools: ShellTools, npm: bool = False,
                names: set[str] | frozenset[str] = frozenset()) -> Judgement | None:
    """One shell snippet: a deny finding denies; any other finding, or a run the judge cannot vouch
    for, asks. ``npm``: the snippet is a package.json script, where a bare unknown name is a program of
    node_modules/.bin (the project's own tooling, as trusted as ``npm test`` itself). ``names``: the
    scripts or make targets the same content defines; ``npm run clean`` or ``$(MAKE) gen`` of one of
    them runs code this judgement reads too, so it is not the unknown script Tier 2 stops at."""
    if not text.strip():
        return None
    analysis = tools.analyze(text, env)
    findings = analysis.findings
    if findings:
        top = max(findings, key=lambda f: f.severity)
        if top.severity >= DENY:
            return DENY, f"would run {short(text)}: {top.message}"
        if top.severity >= ASK:
            return ASK, f"{short(text)}: {top.message}"
    if not analysis.understood:
        return ASK, f"{short(text)} is not understood ({'; '.join(analysis.problems)[:80]})"
    if analysis.safe is not None or analysis.script is None:
        return None
    for run in expand(analysis.script).runs:  # type: ignore[arg-type]
        why = _run_doubt(run, tools.effects(run), env, npm, names)
        if why is not None:
            return ASK, f"{short(text)}: {why}"
    return None


def _run_doubt(run: Run, eff: Effects, env: AnalysisEnv, npm: bool, names: set[str] | frozenset[str]) -> str | None:
    """Why one run of planted shell code reaches beyond the project's own tooling, or None."""
    if run.kind == "dynamic":
        return "it runs a program whose name is computed"
    if eff.unknown is not None and not (npm and _PLAIN_NAME.fullmatch(run.program or "")):
        return f"{run.program or 'a program'} is a program phlegyas does not know"
    if run.remote:
        return f"{run.program} runs on another host"
    if eff.network and eff.category != P.PKG_INSTALL:
        return f"{run.program} uses the network"
    for what, items in (("uploads", eff.uploads), ("changes", eff.mutates), ("shows", eff.secrets)):
        if items:
            return f"{run.program} {what} {items[0]}"
    for blocker in eff.blockers:
        named = _NAMED.match(blocker)
        if named is not None and f"{named.group('kind')} {named.group('name')}" in names:
            continue
        if _OPTION_GAP not in blocker or eff.category is None:
            return blocker
    fetching = any(w.text in ("-y", "--yes") for w in run.command.words) or any(
        "@" in w.text.lstrip("@") for w in run.command.words[1:] if not w.text.startswith("-"))
    for note in eff.runs:
        if note.startswith(_NPX_RUN) and not fetching:  # `npx eslint`: the project's own; `npx -y x@latest` fetches
            continue
        if note.startswith("runs a file: "):
            target = note[len("runs a file: "):]
            path = paths.normalize(target, env.cwd, env.home)
            if _inside(target, env) and (os.path.isfile(path) or path.endswith("/_/husky.sh")
                                         or not os.path.isdir(env.project_root)):  # (husky's own; a project unseen)
                continue
            if _inside(target, env):  # `node scripts/sync-env.js` in a hook: whatever lands there later runs
                return f"it runs {target}, which is not in the project yet (what it will hold is unseen)"
            return f"it runs {target}, which is not a file of the project"
        return note
    for word in [*eff.loads, *eff.writes, *(w for w, _ in eff.deletes)]:
        if word.dynamic and not word.text.startswith(("$HOME", "${HOME}", "~")):
            return f"{run.program} touches a path only known when it runs ({word.text[:40]})"
        path = paths.normalize(word.text, env.cwd, env.home)
        if not (paths.is_within(path, env.project_root) or paths.is_harmless_device(path)
                or paths.is_temp_path(path) and word in eff.writes):
            return f"{run.program} touches {path}, outside the project"
    if eff.category is None and not eff.runs and not eff.unknown:
        return f"phlegyas has no category for {run.program}"
    return None


def _inside(target: str, env: AnalysisEnv) -> bool:
    if "$" in target or "`" in target:
        return False
    path = paths.normalize(target, env.cwd, env.home)
    return env.project_root != "/" and paths.is_within(path, env.project_root)


def _unparsed(problems: list[str]) -> bool:
    return any("does not parse" in p or "too deeply" in p for p in problems)


# -- Python -----------------------------------------------------------------------------------------

_PY_SINKS: Final = re.compile(r"\b(?:os\.system|os\.popen|subprocess|exec\s*\(|eval\s*\(|__import__|importlib|socket|"
                              r"urllib|requests|httpx|ctypes|pty|shutil\.rmtree|os\.remove|os\.unlink|compile\s*\()")
_PY_EXEC_OK: Final = ("Path.",)


def judge_python(code: str, env: AnalysisEnv, tools: ShellTools, whole: bool) -> Judgement | None:
    """Python that pytest, the interpreter or pip runs: the commands it runs are judged as shell, the
    network, computed code and writes outside the project ask. A fragment that does not parse alone (an
    Edit of a function's body) is read for the calls that would matter."""
    report = analyze_python(code)
    if _unparsed(report.problems):
        dedented = textwrap.dedent(code)
        report = analyze_python(dedented) if dedented != code else report
    if _unparsed(report.problems):
        if whole:
            return ASK, f"its Python is not understood ({report.problems[0]})"
        sink = _PY_SINKS.search(code)
        return (ASK, f"it calls {sink.group(0).strip('( ')} in Python phlegyas cannot parse") if sink else None
    if report.problems:
        return ASK, report.problems[0]
    worst: Judgement | None = None
    commands = [*report.shell, *(shlex.join(argv) for argv in report.argvs)]
    for command in commands:
        got = judge_shell(command, env, tools)
        if got is not None and (worst is None or got[0] > worst[0]):
            worst = got
    if worst is not None and worst[0] >= DENY:
        return worst
    whole_line = tools.analyze("python3 -c " + shlex.quote(code), env)
    deny = [f for f in whole_line.findings if f.severity >= DENY]
    if deny:
        return DENY, f"would {deny[0].message}"
    if worst is not None:
        return worst
    for kind, detail in report.notes:
        if kind == "network":
            return ASK, f"it uses the network ({detail})"
        if kind == "executes" and not detail.startswith(_PY_EXEC_OK):
            return ASK, f"it runs computed code ({detail})"
        if kind == "writes":
            path = paths.normalize(detail, env.cwd, env.home) if detail and detail != "?" else None
            if path is None or not (paths.is_within(path, env.project_root) or paths.is_temp_path(path)):
                return ASK, f"it writes {detail or 'a computed path'}"
    return None


__all__ = ["PACKAGE_SOURCE", "PLANTS_CODE", "PLANTS_UNCHECKED", "ShellTools", "content_findings", "judge_content",
           "judge_python", "judge_shell"]
