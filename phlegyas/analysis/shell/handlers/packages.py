"""Package managers and build tools: project scripts (``npm run``), build goals (``make``, ``mvn``,
``gradle`` …), system package managers, and the read-only forms of ``pip``/``npm``/``go``/``uv`` subcommands."""
from __future__ import annotations

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.effect_types import literal
from phlegyas.analysis.shell.handlers.base import Call, operand_texts, read_only
from phlegyas.analysis.shell.handlers.build import java_properties


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


def npm_audit(c: Call) -> None:
    if "fix" in operand_texts(c):
        c.eff.mutates.append("changes dependencies (npm audit fix)")


_GOAL_WORDS = ("test", "compile", "check", "lint", "build", "assemble")
_MAKE_PROGRAM_VARS = frozenset({"SHELL", ".SHELLFLAGS", "MAKEFILES", "MAKEFLAGS", "MFLAGS", "MAKE", "CC", "CXX",
                                "CPP", "LD", "AR", "AS", "FC", "NM", "RANLIB", "STRIP", "OBJCOPY", "PYTHON", "GO",
                                "CARGO", "RUSTC", "NPM", "NODE", "JAVA", "JAVAC", "DOCKER", "INSTALL", "RM", "CP",
                                "MV", "MKDIR", "SED", "AWK", "PERL", "BASH", "SH", "CMAKE", "NINJA"})
"""``make VAR=value`` variables that name a program make runs (or how it runs recipes)."""


def build_goals(c: Call) -> None:
    """Each goal must build, test or check; ``make VAR=value`` must not choose a program or compute
    anything; ``make -j`` takes an optional number, so a word after it that is no number is a goal."""
    allowed = P.SAFE_GOALS | ({"install", "clean"} if c.name in ("mvn", "mvnw") else frozenset())
    if c.name in ("gradle", "gradlew"):
        allowed = allowed | {"clean", "run", "bootrun"}  # the project's application, at the trust of its tests
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
            name, _, value = text.partition("=")
            name = name.rstrip(":+?!").strip()
            if op.dynamic or any(ch in value for ch in ";|&`$<>()\n") or name in _MAKE_PROGRAM_VARS \
                    or name.endswith(("_PROGRAM", "_CMD", "_COMMAND")):
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
        if op.dynamic or (goal not in allowed and not goal.startswith(_GOAL_WORDS)):
            c.eff.blockers.append(f"runs the build target {text!r}")


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
_PKG_BUILD = frozenset({"build", "test", "bench", "check", "run-tests", "validate"})


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
    if readonly:
        read_only(c)
        eff.network = False
        return
    project = _PKG_PROJECT.get(c.name, ())
    if verb in project:
        read_only(c)
        eff.category = P.TEST_BUILD if verb in _PKG_BUILD else P.PKG_INSTALL
        eff.changes.append("installs project dependencies" if eff.category == P.PKG_INSTALL else "builds the project")


def pip_config(c: Call) -> None:
    ops = operand_texts(c)
    if ops[:1] in (["list"], ["get"], ["debug"], ["info"], ["dir"], []):
        read_only(c)
        c.eff.category = P.READ_ONLY


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


def uv_python(c: Call) -> None:
    ops = operand_texts(c)
    if ops[:1] in (["list"], ["find"], ["dir"], []):
        read_only(c)
        c.eff.category = P.READ_ONLY
