"""Package managers and build tools: project scripts (``npm run``), build goals (``make``, ``mvn``,
``gradle`` …), system package managers, the read-only forms of ``pip``/``npm``/``go``/``uv`` subcommands,
and what an install installs: every package argument is read (``package_specs``), so only the project's
own paths and bare names of the default index stay safe (issue 11, item 4)."""
from __future__ import annotations

import re
from typing import Callable, Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.effect_types import literal
from phlegyas.analysis.shell.env_vars import harmless_command
from phlegyas.analysis.shell.handlers.base import Call, operand_texts, read_only
from phlegyas.analysis.shell.handlers.build import java_properties
from phlegyas.analysis.shell.handlers.package_specs import Verdict, npm_spec, pip_spec
from phlegyas.analysis.shell.parse import Word


def npm_run(c: Call) -> None:
    ops = c.parsed.operands
    if not ops:
        read_only(c)
        c.eff.category = P.READ_ONLY
        return
    script = ops[0].text
    first = script.replace("-", ":").replace("_", ":").replace(".", ":").split(":", 1)[0].lower()
    if ops[0].dynamic or (script.lower() not in P.SAFE_SCRIPT_WORDS and first not in P.SAFE_SCRIPT_WORDS):
        c.eff.blockers.append(f"runs the project script {script!r}")
    _script_args(c, ops[1:])


def npm_script(c: Call) -> None:
    """``npm test -- ARGS``, ``yarn start ARGS``: the arguments go to the project's script."""
    _script_args(c, c.parsed.operands)


def _script_args(c: Call, words: list[Word]) -> None:
    """Arguments handed to a project script (``npm test -- --config /tmp/x.js``): a path outside the
    project among them is something the script may load, so it is judged as a file loaded."""
    for word in words:
        text = word.text.split("=", 1)[1] if word.text.startswith("-") and "=" in word.text else word.text
        if text.startswith(("/", "~")) or ".." in text.split("/"):
            c.eff.loads.append(Word(text, word.dynamic, word.glob, word.quoted))


def npm_audit(c: Call) -> None:
    if "fix" in operand_texts(c):
        c.eff.mutates.append("changes dependencies (npm audit fix)")


_GOAL_WORDS: Final = ("test", "compile", "check", "lint", "build", "assemble")


def build_goals(c: Call) -> None:
    """Each goal must build, test or check; ``make VAR=value`` must not choose a program or compute
    anything; ``make -j`` takes an optional number, so a word after it that is no number is a goal."""
    # ``clean`` runs the project's own recipe, at the trust of ``make test`` (a Write that plants a
    # dangerous recipe is judged when it is written: ``analysis.planted``)
    allowed = P.SAFE_GOALS | {"clean"} | ({"install"} if c.name in ("mvn", "mvnw") else frozenset())
    if c.name in ("gradle", "gradlew"):
        allowed = allowed | {"run", "bootrun"}  # the project's application, at the trust of its tests
    elif c.name in ("mvn", "mvnw"):
        allowed = allowed | {"spring-boot:run", "quarkus:dev"}
    goals = list(c.parsed.operands)
    if c.name in ("mvn", "mvnw", "gradle", "gradlew"):
        c.eff.loads.extend(java_properties(c))
    if c.name in ("make", "gmake"):
        for opt, value in c.parsed.opts:
            if opt in ("-f", "--file", "--makefile") and value is not None and value.text == "-":
                c.eff.runs.append("executes code (make -f -: a makefile read from its input)")
            if opt in ("-j", "--jobs", "-l", "--load-average", "--max-load") and value is not None \
                    and not value.text.replace(".", "", 1).isdigit():
                goals.append(value)
    for op in goals:
        text = op.text
        if "=" in text and not text.startswith("-"):
            name, _, assigned = text.partition("=")
            name = name.rstrip(":+?!").strip()
            if op.dynamic or any(ch in assigned for ch in ";|&`$<>()\n") or name in P.MAKE_PROGRAM_VARS \
                    and not harmless_command(name, assigned) or name.endswith(("_PROGRAM", "_CMD", "_COMMAND")):
                c.eff.blockers.append(f"{c.name} {name}= sets a variable that chooses what runs")
            continue  # make VAR=value
        goal = text.rsplit(":", 1)[-1].lower() if c.name in ("gradle", "gradlew") else text.lower()
        if c.name in ("bazel", "bazelisk", "buck", "buck2", "pants"):
            if text == "run":  # runs any target, an external repository's included
                c.eff.blockers.append(f"runs the build target {text!r}")
                continue
            if text in ("build", "test", "query", "info", "version", "cquery", "aquery", "coverage", "fetch"):
                continue
            if text.startswith(("/", ":", "@", ".")):
                continue
        dry = c.name in ("make", "gmake") and c.parsed.has(("-n", "--dry-run", "--just-print", "--recon"))
        if op.dynamic or (goal not in allowed and not goal.startswith(_GOAL_WORDS) and not dry):
            c.eff.blockers.append(f"runs the build target {text!r}")  # (`make -n x` prints x's recipe: the
            # makefile's own $(shell …) still runs, as for `make test`)


_PKG_READ = frozenset({"list", "search", "show", "info", "policy", "depends", "rdepends", "madison", "outdated",
                       "deps", "leaves", "config", "doctor", "--version", "-v", "version", "help", "history",
                       "provides", "repolist", "repoquery", "query", "changelog", "home", "desc", "uses",
                       "list-installed", "ls", "which", "current", "versions", "check", "--help", "-V", "show-deps",
                       "toolchain-list", "env", "why", "licenses", "audit", "fund", "path", "environment"})
_PKG_PROJECT = {"bundle": {"install", "update", "add", "remove", "lock", "check", "outdated", "list", "show"},
                "bundler": {"install", "update", "add", "remove", "lock"},
                "composer": {"install", "update", "require", "remove", "dump-autoload", "dumpautoload", "validate"},
                "cabal": {"build", "test", "update", "run-tests", "bench", "check"},
                "stack": {"build", "test", "bench", "setup"}}
_PKG_BUILD: Final = frozenset({"build", "test", "bench", "check", "run-tests", "validate"})


_CONFIG_WRITES: Final = frozenset({"--unset", "--delete", "--add", "--remove", "--append", "--set", "--global"})


def system_pkg(c: Call) -> None:
    eff = c.eff
    names = {n for n, _ in c.parsed.opts}
    ops = operand_texts(c)
    verb = ops[0] if ops else ""
    if c.name in ("dpkg", "rpm", "pacman", "nix-env"):
        readonly = bool(names & {"-l", "--list", "-L", "--listfiles", "-s", "--status", "-S", "--search", "-p",
                                 "--print-avail", "-c", "--contents", "-I", "--info", "--get-selections", "-q",
                                 "--query", "-V", "--verify", "--print-architecture", "--compare-versions", "-Q",
                                 "--version", "-qa", "--help"})
        readonly = readonly and not (names & {"-i", "--install", "-r", "--remove", "-P", "--purge", "-U", "-e",
                                              "--erase", "-F", "--freshen", "--unpack", "--configure", "-R", "-u",
                                              "--upgrade", "-y", "--sync"})
        if c.name == "pacman" and "-S" in names and not (names & {"-s", "-i", "--search", "--info"}):
            readonly = False
    else:
        readonly = verb in _PKG_READ or (not ops and bool(names & {"--version", "-v", "-V", "--help", "-h"}))
        if verb == "config" and (len(ops) > 2 or ops[1:2] in (["set"], ["unset"]) or names & _CONFIG_WRITES):
            readonly = False  # `bundle config set mirror.… URL`, `composer config repositories.x vcs URL`
    if readonly:
        read_only(c)
        eff.network = False
        return
    project = _PKG_PROJECT.get(c.name, ())
    if verb in project:
        read_only(c)
        _project_sources(c)
        eff.category = P.TEST_BUILD if verb in _PKG_BUILD else P.PKG_INSTALL
        eff.changes.append("installs project dependencies" if eff.category == P.PKG_INSTALL else "builds the project")


_SOURCE_OPTIONS = frozenset({"--git", "--github", "--source", "--path", "--branch", "--ref", "--glob", "--repository",
                             "--repository-url", "--registry", "--index", "--index-url", "--gemfile"})


def _project_sources(c: Call) -> None:
    """``bundle add x --git URL``, ``composer require x --repository URL``: a project install that names
    its own source is not from the default registry (issue 11, item 4)."""
    for name, _ in c.parsed.opts:
        if name in _SOURCE_OPTIONS:
            c.eff.blockers.append(f"{c.name} {name}: packages from a source other than the default registry")
    for word in c.parsed.operands[1:]:
        if word.dynamic or "://" in word.text or word.text.startswith(("git@", "git+")):
            c.eff.blockers.append(f"{c.name} installs {word.text}, not a plain registry name")


def pip_config(c: Call) -> None:
    ops = operand_texts(c)
    if ops[:1] in (["list"], ["get"], ["debug"], ["info"], ["dir"], []):
        read_only(c)
        c.eff.category = P.READ_ONLY
        if ops[:1] == ["get"] and any(_SECRET_KEY.search(k) for k in ops[1:]):
            c.eff.secrets.append(f"a credential of {c.name}'s configuration ({ops[1][:40]})")
    elif ops[:1] == ["set"] and c.path[-1:] == ["pkg"]:  # `npm pkg set scripts.x=…`: package.json is rewritten
        c.eff.writes.append(Word("package.json", False, False, True))


_SECRET_KEY: Final = re.compile(r"(?i)auth|token|password|passwd|secret|credential|cert-key|keyfile")


def npm_cache(c: Call) -> None:
    if operand_texts(c)[:1] in (["ls"], ["list"], ["verify"], ["npx"]):
        read_only(c)
        c.eff.category = P.READ_ONLY


def npm_init(c: Call) -> None:
    if c.parsed.operands:
        c.eff.category = None
        c.eff.runs.append("runs a package initializer (npm init <initializer>)")
    else:
        c.eff.writes.append(literal("package.json"))


def go_mod(c: Call) -> None:
    ops = operand_texts(c)
    if c.path[-1:] == ["mod"] and ops[:1] in (["graph"], ["why"], ["verify"]):
        read_only(c)
        c.eff.category = P.READ_ONLY
        c.eff.network = False  # module downloads from the default proxy, as `go build` makes them
    if c.path[-1:] == ["work"] and ops[:1] in (["init"], ["use"]):  # `go work use /tmp/fork`: its code replaces the
        c.eff.loads.extend(w for w in c.parsed.operands[1:])  # module's in every build (only the project's own)
    for value in c.parsed.values(("-replace",)):  # `go mod edit -replace A=B`: A's code now comes from B
        _, _, new = value.text.partition("=")
        new = new.split("@", 1)[0]
        if value.dynamic or not new.startswith(("./", "../", "/")):
            c.eff.blockers.append(f"points the module {value.text.partition('=')[0]} at {new or value.text}, "
                                  "another source of code (a replace directive)")
        else:
            c.eff.loads.append(Word(new, False, False, True))  # a local copy: safe only inside the project


def uv_python(c: Call) -> None:
    ops = operand_texts(c)
    if ops[:1] in (["list"], ["find"], ["dir"], []):
        read_only(c)
        c.eff.category = P.READ_ONLY


# -- what an install installs ----------------------------------------------------------------------

def _judge(c: Call, word: Word, parse: Callable[[str], Verdict]) -> None:
    """One package argument: a bare name is fine, a path is loaded (safe only inside the project), any
    other source is a blocker whose reason says what it is."""
    if word.dynamic:
        c.eff.blockers.append(f"installs a computed package argument {word.text}")
        return
    got = parse(word.text)
    if got.kind == "path":
        c.eff.loads.append(Word(got.path, word.dynamic, word.glob, word.quoted))
    elif got.kind == "other":
        c.eff.blockers.append(got.why)


def _python_request(c: Call) -> None:
    """``-p``/``--python``: a version (``3.12``, ``pypy@3.10``) is fine; a path is an interpreter it runs."""
    for value in c.parsed.values(("-p", "--python")):
        text = value.text
        if value.dynamic or "/" in text or text.startswith((".", "~")):
            c.eff.loads.append(value)


def npm_install(c: Call) -> None:
    """``npm install``/``yarn add``/``pnpm add``/``bun add``: each package argument (``name@range`` is fine;
    an alias, URL, git, GitHub shorthand or tarball is not; a path is safe only in the project)."""
    for word in c.parsed.operands:
        _judge(c, word, npm_spec)


def pip_install(c: Call) -> None:
    """``pip install``/``download``/``wheel``: each requirement and each ``-e`` value (PEP 508 names with
    extras and versions are fine; URLs, VCS, archives and wheels are not; a path is safe only in the project)."""
    for word in c.parsed.operands:
        _judge(c, word, pip_spec)
    for word in c.parsed.values(("-e", "--editable")):
        _judge(c, word, pip_spec)


def uv_packages(c: Call) -> None:
    """A uv subcommand: its ``--python`` request, and the package arguments of ``add``/``pip install``."""
    _python_request(c)
    if c.path[-1:] in (["add"], ["install"], ["remove"], ["uninstall"]):
        for word in c.parsed.operands:
            _judge(c, word, pip_spec)
    for word in c.parsed.values(("-e", "--editable", "--with", "--with-editable")):
        _judge(c, word, pip_spec)


def uv_pip_sync(c: Call) -> None:
    """``uv pip sync FILE…``: its operands are requirement files it installs exactly."""
    _python_request(c)
    c.eff.loads.extend(c.parsed.operands)


def python_project_add(c: Call) -> None:
    """``poetry add``/``pdm add``/``pipenv install``: names with poetry's ``name@^1.2`` versions are fine."""
    for word in [*c.parsed.operands, *c.parsed.values(("-e", "--editable"))]:
        _judge(c, word, lambda text: pip_spec(text, at_versions=True))


def uv_version(c: Call) -> None:
    """``uv version``/``poetry version`` print the project's version; with a version or ``--bump`` they
    write it into ``pyproject.toml``."""
    if c.parsed.operands or c.parsed.has(("--bump",)):
        if not c.parsed.has(("--dry-run",)):
            c.eff.writes.append(literal("pyproject.toml"))


def package_globals(c: Call) -> None:
    """The options before the subcommand (``npm --prefix DIR ci``, ``uv --directory DIR sync``), which the
    subcommand walk only checks are known: the directory it runs in is loaded (its manifest and scripts),
    a registry named there is another source, a cache is written, ``-g`` changes the whole machine."""
    top = P.spec_for(c.name) if c.top is not None else None
    if top is None or c.top is None:
        return
    for opt, value in c.top.opts:
        if opt in top.exec_flags:
            c.eff.runs.append(f"executes code ({c.name} {opt})")
        elif opt in top.mutate_flags:
            c.eff.mutates.append(f"{c.name} {opt}")
        elif value is None:
            continue
        elif opt in top.load_flags:
            c.eff.loads.append(value)
        elif opt in top.source_flags:
            c.eff.blockers.append(f"{c.name} {opt} {value.text}: packages from a source other than the default index")
        elif opt in top.write_flags:
            c.eff.writes.append(value)
