"""Build and test tools: the option values a flag table cannot judge on its own.

A value can hide another path or a program inside it: ``pytest --cov-report=xml:PATH`` writes PATH,
``pytest -o cache_dir=DIR`` moves a cache, ``gcc -Wl,--plugin=X`` and ``rustc -C linker=X`` run X,
``javac -cp a.jar:/tmp/b.jar`` loads every entry, ``cargo --config KEY=VALUE`` sets any configuration
inline, ``cmake -DCMAKE_C_COMPILER=X`` builds with X. ``go run`` runs a project package only when the
package is a path in the project; ``cmake -E`` has commands of its own; ``tox exec`` runs any command.
"""
from __future__ import annotations

import re

from phlegyas.analysis.shell.handlers.base import Call
from phlegyas.analysis.shell.parse import Word


def _part(word: Word, text: str) -> Word:
    return Word(text, word.dynamic, word.glob, word.quoted)


# -- pytest, tox -------------------------------------------------------------------------------------------

_PYTEST_INI_HARMLESS = frozenset({
    "addopts", "testpaths", "python_files", "python_classes", "python_functions", "markers", "filterwarnings",
    "xfail_strict", "log_cli", "log_cli_level", "log_level", "console_output_style", "asyncio_mode",
    "asyncio_default_fixture_loop_scope", "junit_family", "junit_suite_name", "junit_logging", "empty_parameter_set_mark",
    "norecursedirs", "minversion", "required_plugins", "usefixtures", "doctest_optionflags", "timeout",
    "faulthandler_timeout", "verbosity_assertions", "verbosity_test_cases", "log_format", "log_date_format",
    "django_find_project", "mock_use_standalone_module", "tmp_path_retention_count", "tmp_path_retention_policy"})
"""``pytest -o KEY=VALUE`` keys whose value is no path and no code (``cache_dir``, ``pythonpath``,
``DJANGO_SETTINGS_MODULE`` … are not among them)."""


def pytest_opts(c: Call) -> None:
    """``-o KEY=VALUE`` with a key outside the harmless set, ``--cov-report=KIND:PATH`` writes PATH."""
    for opt, value in c.parsed.opts:
        if value is None:
            continue
        if opt in ("-o", "--override-ini"):
            key = value.text.partition("=")[0].strip()
            if value.dynamic or key not in _PYTEST_INI_HARMLESS:
                c.eff.blockers.append(f"pytest {opt} {key}: an ini setting phlegyas does not judge")
        elif opt == "--cov-report":
            kind, colon, path = value.text.partition(":")
            if colon and path and kind in ("html", "xml", "json", "lcov", "annotate", "markdown",
                                           "markdown-append"):
                c.eff.writes.append(_part(value, path))
            elif value.dynamic:
                c.eff.blockers.append("pytest --cov-report with a computed value")


_TOX_RUNS = frozenset({"exec", "e", "devenv", "d", "quickstart", "q"})


def tox(c: Call) -> None:
    """``tox exec -- CMD`` runs any command; ``tox devenv``/``quickstart`` create environments or files."""
    first = c.parsed.operands[0] if c.parsed.operands else None
    for word in c.args:
        if word.text == "--":
            return
        if word is first:
            if word.dynamic or word.text in _TOX_RUNS:
                c.eff.runs.append(f"executes code (tox {word.text})")
            return


# -- cargo, go ---------------------------------------------------------------------------------------------

def cargo_opts(c: Call) -> None:
    """``cargo --config KEY=VALUE`` (anywhere) sets any configuration inline: a wrapper, a linker, a runner;
    ``cargo --config FILE`` before the subcommand loads FILE (the generic rules see only the subcommand's)."""
    for parsed in (c.top, c.parsed):
        if parsed is None:
            continue
        for opt, value in parsed.opts:
            if opt == "--config" and value is not None:
                if "=" in value.text or value.dynamic:
                    c.eff.runs.append("executes code (cargo --config sets configuration inline)")
                    return
                if parsed is c.top:
                    c.eff.loads.append(value)


def go_flags(c: Call) -> None:
    """``-ldflags`` that choose an external linker run it."""
    for opt, value in c.parsed.opts:
        if opt in ("-ldflags", "-gcflags", "-asmflags", "-gccgoflags") and value is not None:
            if value.dynamic or re.search(r"-(extld|extldflags|linkmode)\b", value.text) or "toolexec" in value.text:
                c.eff.runs.append(f"executes code (go {opt} chooses the linker)")


def go_run(c: Call) -> None:
    """``go run PKG ARGS``: a package path in the project is the project's own program; a module path
    (``example.com/x@latest``) is downloaded and run."""
    go_flags(c)
    rest = c.args[c.parsed.rest:] if c.parsed.rest >= 0 else []
    if not rest:
        return
    pkg = rest[0]
    text = pkg.text
    local = text.startswith(("./", "../", "/")) or text in (".", "..") or (text.endswith(".go") and "@" not in text)
    if pkg.dynamic or not local:
        c.eff.runs.append(f"executes code (go run {text})")
        return
    c.eff.loads.append(pkg)  # the project's own code; from anywhere else it is not automatic
    for word in rest[1:]:
        if not word.text.endswith(".go"):
            break
        c.eff.loads.append(word)


# -- compilers ---------------------------------------------------------------------------------------------

_LINKER_RUNS = ("--plugin", "-plugin", "--wrap", "-fuse-ld", "--dynamic-linker", "-dynamic-linker")


def cc_opts(c: Call) -> None:
    """``-Wl,…``/``-Xlinker``: a linker plugin runs code, ``-T`` loads a script; a bare ``-W``, ``-f`` or
    ``-m`` would take the next word as its value, so it is not read as one."""
    for opt, value in c.parsed.opts:
        if value is None:
            continue
        text = value.text
        if opt in ("-W", "-f", "-m") and text in (w.text for w in c.args if w.text.startswith("-")):
            c.eff.blockers.append(f"{c.name} {opt} {text}: an option family phlegyas reads only when attached")
        elif (opt == "-W" and text[:2] in ("l,", "a,", "p,")) or opt in ("-Xlinker", "-Xassembler",
                                                                          "-Xpreprocessor"):
            parts = text[2:].split(",") if opt == "-W" else [text]
            if value.dynamic or any(p.startswith(_LINKER_RUNS) for p in parts):
                c.eff.runs.append(f"executes code ({c.name} {opt}{text} loads a linker plugin)")
            for i, p in enumerate(parts):
                if p in ("-T", "--script") and i + 1 < len(parts):
                    c.eff.loads.append(_part(value, parts[i + 1]))
                elif p.startswith(("-T", "--script=")) and len(p) > 2:
                    c.eff.loads.append(_part(value, p.split("=", 1)[-1] if "=" in p else p[2:]))


def javac_opts(c: Call) -> None:
    """Every entry of a class path may hold annotation processors, which javac runs."""
    for opt, value in c.parsed.opts:
        if opt in ("-cp", "-classpath", "--class-path", "--module-path", "-p") and value is not None:
            for entry in value.text.split(":"):
                if entry:
                    c.eff.loads.append(_part(value, entry.rstrip("*") or "."))


def rustc_opts(c: Call) -> None:
    """``-C linker=X``, ``-C linker-flavor``, ``-C link-arg(s)`` and ``-C llvm-args`` choose what runs."""
    for opt, value in c.parsed.opts:
        if opt in ("-C", "--codegen") and value is not None:
            key, _, val = value.text.partition("=")
            if key == "linker":
                c.eff.loads.append(_part(value, val))
            elif key in ("link-arg", "link-args", "linker-flavor", "llvm-args", "passes", "link-self-contained") \
                    or value.dynamic:
                c.eff.runs.append(f"executes code (rustc -C {key})")


# -- cmake ---------------------------------------------------------------------------------------------------

_CMAKE_LOADED = re.compile(r"(COMPILER|LAUNCHER|LINKER|TOOLCHAIN_FILE|_INCLUDE|INCLUDE_BEFORE|PROGRAM|_EXECUTABLE|"
                           r"CROSSCOMPILING_EMULATOR|_MAKE_PROGRAM|_AR|_RANLIB)$")
_CMAKE_E_READ = frozenset({"echo", "echo_append", "capabilities", "compare_files", "md5sum", "sha1sum",
                           "sha224sum", "sha256sum", "sha384sum", "sha512sum", "true", "false", "cat", "sleep"})


def cmake(c: Call) -> None:
    """``-D VAR=VALUE`` that names a compiler, launcher, linker or included file: CMake runs or reads it;
    ``-E TOOL``: the portable commands (``make_directory``, ``rm`` …) by what each does."""
    eff = c.eff
    for opt, value in c.parsed.opts:
        if opt == "-D" and value is not None:
            name, eq, val = value.text.partition("=")
            name = name.partition(":")[0]
            if eq and (value.dynamic or _CMAKE_LOADED.search(name)):
                eff.loads.append(_part(value, val or "."))
    tools = c.parsed.values(("-E",))
    if not tools:
        return
    tool, ops = tools[0].text, c.parsed.operands
    eff.reads.clear()
    if tools[0].dynamic:
        eff.runs.append("executes code (cmake -E with a computed command)")
    elif tool in _CMAKE_E_READ:
        eff.reads.extend(o for o in ops if tool != "echo" and tool != "echo_append")
    elif tool in ("make_directory", "touch", "touch_nocreate"):
        eff.writes.extend(ops)
    elif tool in ("copy", "copy_if_different", "copy_directory", "copy_directory_if_different") and ops:
        eff.reads.extend(ops[:-1])
        eff.writes.append(ops[-1])
    elif tool in ("rm", "remove", "remove_directory"):
        recursive = tool == "remove_directory" or any(w.text in ("-r", "-R", "-rf", "-fr", "-Rf")
                                                      for w in c.args)
        eff.deletes.extend((o, recursive) for o in ops if not o.text.startswith("-"))
    else:
        eff.runs.append(f"executes code (cmake -E {tool})")


def no_operands(c: Call) -> None:
    """``ccache CMD``: with operands it runs the command it is given, which the table does not see."""
    if c.parsed.operands:
        c.eff.runs.append(f"executes code ({c.name} {c.parsed.operands[0].text})")


__all__ = ["cargo_opts", "cc_opts", "cmake", "go_flags", "go_run", "javac_opts", "no_operands",
           "pytest_opts", "rustc_opts", "tox"]
