"""Build and test tools: the option values a flag table cannot judge on its own.

A value can hide another path or a program inside it: ``pytest --cov-report=xml:PATH`` writes PATH,
``pytest -o cache_dir=DIR`` moves a cache, ``gcc -Wl,--plugin=X`` and ``rustc -C linker=X`` run X,
``javac -cp a.jar:/tmp/b.jar`` loads every entry, ``cargo --config KEY=VALUE`` sets any configuration
inline, ``cmake -DCMAKE_C_COMPILER=X`` builds with X. ``go run`` runs a project package only when the
package is a path in the project; ``cmake -E`` has commands of its own; ``tox exec`` runs any command.
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.shell.handlers.base import Call
from phlegyas.analysis.shell.parse import Word


def _part(word: Word, text: str) -> Word:
    return Word(text, word.dynamic, word.glob, word.quoted)


# -- test files, build directories and project files are code the tool loads ---------------------------------

def operands_load(c: Call) -> None:
    """The operands are code the tool runs (test files, a source or build directory, a project file):
    loaded, so one outside the project is not automatic; a URL is code from the network."""
    eff = c.eff
    ops = c.parsed.operands
    ids = {id(o) for o in ops}
    eff.reads[:] = [w for w in eff.reads if id(w) not in ids]
    for op in ops:
        if "://" in op.text or op.text.startswith(("jsr:", "npm:")):
            eff.runs.append(f"executes code ({c.name} {op.text} comes from the network)")
        else:
            eff.loads.append(op)


def _pathlike(text: str) -> bool:
    return text.startswith(("/", "~", "..", "$")) or "/../" in text


# -- pytest, tox -------------------------------------------------------------------------------------------

_PYTEST_INI_HARMLESS: Final = frozenset({
    "testpaths", "python_files", "python_classes", "python_functions", "markers", "filterwarnings",
    "xfail_strict", "log_cli", "log_cli_level", "log_level", "console_output_style", "asyncio_mode",
    "asyncio_default_fixture_loop_scope", "junit_family", "junit_suite_name", "junit_logging",
    "empty_parameter_set_mark",
    "norecursedirs", "minversion", "required_plugins", "usefixtures", "doctest_optionflags", "timeout",
    "faulthandler_timeout", "verbosity_assertions", "verbosity_test_cases", "log_format", "log_date_format",
    "django_find_project", "mock_use_standalone_module", "tmp_path_retention_count", "tmp_path_retention_policy"})
"""``pytest -o KEY=VALUE`` keys whose value is no path and no code (``cache_dir``, ``pythonpath``,
``DJANGO_SETTINGS_MODULE`` … are not among them)."""


_ADDOPTS_WORD = re.compile(r"-[qvxsl]+|-r[a-zA-Z]+|--strict-markers|--strict-config|--disable-warnings|--lf|--ff|"
                           r"--nf|--sw|--stepwise|--new-first|--failed-first|--last-failed|--no-header|--showlocals|"
                           r"--tb=(?:auto|long|short|line|native|no)|--color=(?:yes|no|auto)|--maxfail=\d+|"
                           r"--durations=\d+|--import-mode=(?:prepend|append|importlib)|-n(?:=?(?:auto|\d+))?|"
                           r"-p(?:=|\s*)no:[\w.-]+|-W(?:=|\s*)[\w:.]+|--doctest-modules|-m(?:=|\s*)[\w ]+|"
                           r"-k(?:=|\s*)[^/]+")


_PAIRED: Final = frozenset({"-p", "-W", "-n", "-m", "-k"})


def _harmless_addopts(setting: str) -> bool:
    """``-o addopts=…`` adds options to every run: harmless only when each is a plain reporting or selection
    flag (``-q -x --tb=short -p no:cacheprovider``); a plugin, a path or a directory option is not."""
    words = setting.split()
    i = 0
    while i < len(words):
        w = words[i]
        if w in _PAIRED and i + 1 < len(words):
            w, i = w + " " + words[i + 1], i + 1
        if not _ADDOPTS_WORD.fullmatch(w):
            return False
        i += 1
    return True


def pytest_opts(c: Call) -> None:
    """Test files are code it runs (loads); ``-o KEY=VALUE`` with a key outside the harmless set is not
    judged; ``-p`` must name a module (``-p no:NAME`` turns one off); ``--cov-report=KIND:PATH`` writes PATH."""
    operands_load(c)
    for opt, value in c.parsed.opts:
        if value is None:
            continue
        if opt in ("-o", "--override-ini"):
            key, _, setting = (t.strip() for t in value.text.partition("="))
            if key == "addopts" and not value.dynamic and _harmless_addopts(setting):
                continue
            if value.dynamic or key not in _PYTEST_INI_HARMLESS:
                c.eff.blockers.append(f"pytest {opt} {key}: an ini setting phlegyas does not judge")
        elif opt == "-p" and not value.text.startswith("no:"):
            # a plugin is a module name found on sys.path (the project's or an installed one); anything
            # else (a path, a computed name) is not a plugin phlegyas can place
            if value.dynamic or not all(part.isidentifier() for part in value.text.split(".")):
                c.eff.blockers.append(f"pytest -p {value.text}: a plugin that is not a module name")
        elif opt == "--cov-report":
            kind, colon, path = value.text.partition(":")
            if colon and path and kind in ("html", "xml", "json", "lcov", "annotate", "markdown",
                                           "markdown-append"):
                c.eff.writes.append(_part(value, path))
            elif value.dynamic:
                c.eff.blockers.append("pytest --cov-report with a computed value")


_TOX_RUNS: Final = frozenset({"exec", "e", "devenv", "d", "quickstart", "q"})


def tox(c: Call) -> None:
    """``tox exec -- CMD`` runs any command; ``tox devenv``/``quickstart`` create environments or files.
    The words after ``--`` reach the project's test commands (``pytest {posargs}``): a path outside the
    project there is code loaded from outside."""
    first = c.parsed.operands[0] if c.parsed.operands else None
    after = False
    paired: Word | None = None
    for word in c.args:
        if after:
            if paired is not None:
                if word.dynamic or not _ADDOPTS_WORD.fullmatch(paired.text + " " + word.text):
                    c.eff.blockers.append(f"{c.name} passes {paired.text} {word.text[:30]} to the project's test "
                                          "command: a value phlegyas does not judge there")
                paired = None
            elif word.text in _PAIRED:
                paired = word
            elif word.text.startswith("-") and not word.dynamic and not _ADDOPTS_WORD.fullmatch(word.text):
                c.eff.blockers.append(f"{c.name} passes {word.text.split('=', 1)[0][:30]} to the project's test "
                                      "command (pytest {posargs}): an option phlegyas does not judge there")
            elif word.dynamic or _pathlike(word.text.partition("=")[2] or word.text):
                c.eff.loads.append(word)
        elif word.text == "--":
            after = True
        elif word is first and c.name == "tox" and (word.dynamic or word.text in _TOX_RUNS):
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


_RUSTC_SAFE_C: Final = frozenset({"opt-level", "debuginfo", "target-cpu", "codegen-units", "lto", "panic",
                                  "overflow-checks", "strip", "debug-assertions", "force-frame-pointers"})


def cargo_compiler_args(c: Call) -> None:
    """``cargo rustc|rustdoc|clippy -- ARGS`` hands ARGS to the compiler: lint levels, ``--cfg`` and
    harmless codegen settings only (``-C linker=X`` would run X)."""
    args = [w.text for w in c.args]
    if "--" not in args:
        return
    rest = c.args[args.index("--") + 1:]
    i = 0
    while i < len(rest):
        word = rest[i]
        text = word.text
        if word.dynamic:
            c.eff.runs.append("executes code (computed compiler arguments)")
            return
        if text in ("-D", "-W", "-A", "-F", "--cfg", "--cap-lints", "--edition", "--crate-type", "--emit", "--deny",
                    "--warn", "--allow", "--forbid"):
            i += 2
            continue
        if text[:2] in ("-D", "-W", "-A", "-F") or text in ("-O", "-g", "--test") or text.startswith(
                ("--cfg=", "--cap-lints=", "--edition=", "--emit=", "--deny=", "--warn=", "--allow=", "--forbid=")):
            i += 1
            continue
        key = None
        if text in ("-C", "--codegen") and i + 1 < len(rest):
            key, i = rest[i + 1].text.partition("=")[0], i + 2
        elif text.startswith("-C") and len(text) > 2:
            key, i = text[2:].partition("=")[0], i + 1
        if key in _RUSTC_SAFE_C:
            continue
        c.eff.runs.append(f"executes code (compiler argument {text} {key or ''})".replace(" )", ")"))
        return


def go_flags(c: Call) -> None:
    """``-ldflags`` that choose an external linker run it."""
    for opt, value in c.parsed.opts:
        if opt in ("-ldflags", "-gcflags", "-asmflags", "-gccgoflags") and value is not None:
            if value.dynamic or re.search(r"-(extld|extldflags|linkmode)\b", value.text) or "toolexec" in value.text:
                c.eff.runs.append(f"executes code (go {opt} chooses the linker)")
    if c.spec.posix:
        return  # go run: its own handler judges the package
    for op in c.parsed.operands:
        if op.dynamic or _pathlike(op.text) or "@" in op.text:
            c.eff.loads.append(op)  # a package from outside the project is code it builds or tests
        elif "." in op.text.split("/", 1)[0] and not op.text.startswith("."):  # `go test github.com/x/pkg/...`
            c.eff.blockers.append(f"go fetches and builds {op.text}, a module from elsewhere (not a path of "
                                  "this project)")


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

_LINKER_RUNS: Final = ("--plugin", "-plugin", "--wrap", "-fuse-ld", "--dynamic-linker", "-dynamic-linker")


def cc_opts(c: Call) -> None:
    """``-Wl,…``/``-Xlinker``: a linker plugin runs code, ``-T`` loads a script; a bare ``-W``, ``-f`` or
    ``-m`` would take the next word as its value, so it is not read as one."""
    for op in c.parsed.operands:
        if op.text.startswith("@"):
            c.eff.runs.append(f"executes code ({c.name} {op.text}: options read from a file)")
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
                elif p in ("-o", "--output") and i + 1 < len(parts):
                    c.eff.writes.append(_part(value, parts[i + 1]))
                elif p.startswith("--output="):
                    c.eff.writes.append(_part(value, p.partition("=")[2]))


def javac_opts(c: Call) -> None:
    """Every entry of a class path may hold annotation processors, which javac runs; an ``-X``/``-J``
    option the spec does not spell out whole (``-Xplugin:…``) is not read letter by letter."""
    for word in c.args:
        if word.text.startswith(("-X", "-J")) and word.text not in c.spec.whole:
            c.eff.runs.append(f"executes code (javac {word.text})")
            break
    for opt, value in c.parsed.opts:
        if opt in ("-cp", "-classpath", "--class-path", "--module-path", "-p") and value is not None:
            for entry in value.text.split(":"):
                if entry:
                    c.eff.loads.append(_part(value, entry.rstrip("*") or "."))


def rustc_opts(c: Call) -> None:
    """``-C linker=X``, ``-C linker-flavor``, ``-C link-arg(s)`` and ``-C llvm-args`` choose what runs."""
    for opt, value in c.parsed.opts:
        if opt in ("-L", "--extern") and value is not None and "=" in value.text:
            c.eff.loads.append(_part(value, value.text.partition("=")[2]))  # KIND=PATH, NAME=PATH
            continue
        if opt in ("-C", "--codegen") and value is not None:
            key, _, val = value.text.partition("=")
            if key == "linker":
                c.eff.loads.append(_part(value, val))
            elif key in ("link-arg", "link-args", "linker-flavor", "llvm-args", "passes", "link-self-contained") \
                    or value.dynamic:
                c.eff.runs.append(f"executes code (rustc -C {key})")


# -- cmake ---------------------------------------------------------------------------------------------------

_CMAKE_LOADED = re.compile(r"(COMPILER|LAUNCHER|LINKER|TOOLCHAIN_FILE|_INCLUDES?|INCLUDE_BEFORE|PROGRAM|_EXECUTABLE|"
                           r"CROSSCOMPILING_EMULATOR|_MAKE_PROGRAM|_AR|_RANLIB)$")
_CMAKE_E_READ: Final = frozenset({"echo", "echo_append", "capabilities", "compare_files", "md5sum", "sha1sum",
                                  "sha224sum", "sha256sum", "sha384sum", "sha512sum", "true", "false", "cat", "sleep"})


def cmake(c: Call) -> None:
    """``-D VAR=VALUE`` that names a compiler, launcher, linker or included file: CMake runs or reads it;
    ``-E TOOL``: the portable commands (``make_directory``, ``rm`` …) by what each does."""
    eff = c.eff
    for opt, value in c.parsed.opts:
        if opt == "-D" and value is not None:
            name, eq, val = value.text.partition("=")
            name = name.partition(":")[0]
            if not eq or name.startswith("CMAKE_INSTALL_"):
                continue
            if value.dynamic or _CMAKE_LOADED.search(name):
                eff.loads.append(_part(value, val or "."))
            else:
                eff.loads.extend(_part(value, v) for v in val.split(";") if _pathlike(v))
    tools = c.parsed.values(("-E",))
    if not tools:
        operands_load(c)  # the source directory: CMakeLists.txt is code cmake runs
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


def flask_app(c: Call) -> None:
    """``flask --app PATH_OR_MODULE``: the app it imports (a path may lie outside the project)."""
    if c.top is not None:
        for opt, value in c.top.opts:
            if opt in ("-A", "--app") and value is not None:
                c.eff.loads.append(_part(value, value.text.partition(":")[0]))
            elif opt in ("-e", "--env-file") and value is not None:
                c.eff.loads.append(value)
    debug = any(p is not None and p.has(("--debug", "--debugger")) for p in (c.top, c.parsed))
    host = next((v.text for o, v in c.parsed.opts if o in ("-h", "--host") and v is not None), "127.0.0.1")
    if debug and host not in ("127.0.0.1", "localhost", "::1"):  # Werkzeug's debugger runs Python for the network
        c.eff.blockers.append(f"flask run --debug on {host}: its debugger runs code for anyone who can reach it")


def dotnet_opts(c: Call) -> None:
    """A project or solution file is MSBuild code; ``-p:NAME=PATH`` can import targets from PATH."""
    operands_load(c)
    for w in c.args:  # MSBuild's `-logger:[Class,]/tmp/L.dll` and `-dl:…`: an assembly it loads
        m = re.match(r"[-/](?:l|logger|dl|distributedlogger|fl\d?|noconsolelogger):(?:[^,;]*,)?([^;]+)", w.text, re.I)
        if m is not None and (_pathlike(m.group(1)) or m.group(1).lower().endswith(".dll")):
            c.eff.loads.append(_part(w, m.group(1)))
    for opt, value in c.parsed.opts:
        if opt in ("-p", "--property") and value is not None:
            text = value.text.lstrip(":")
            for part in re.split(r"[;,]", text.partition("=")[2]):
                if _pathlike(part) or value.dynamic or "://" in part:  # a feed (`RestoreAdditionalProjectSources=`)
                    c.eff.loads.append(_part(value, part))


def unittest_discover(c: Call) -> None:
    """``python -m unittest discover START PATTERN TOP``: START and TOP are imported from."""
    ops = c.parsed.operands
    if ops and ops[0].text == "discover":
        c.eff.loads.extend(o for i, o in enumerate(ops[1:4]) if i != 1)


def java_properties(c: Call) -> list[Word]:
    """``-Dname=value`` of mvn/gradle: a JVM agent runs code; a path outside the project is loaded
    (``maven.repo.local``, ``org.gradle.java.home`` …)."""
    out: list[Word] = []
    for opt, value in c.parsed.opts:
        if opt in ("-D", "--define", "-P", "--project-prop", "--system-prop") and value is not None:
            _, _, val = value.text.partition("=")
            if value.dynamic or re.search(r"-(javaagent|agentpath|agentlib)|-Xbootclasspath", val):
                c.eff.runs.append(f"executes code ({c.name} {opt}{value.text.partition('=')[0]} sets a JVM agent)")
            out.extend(_part(value, v) for v in re.split(r"[\s,:;]", val) if _pathlike(v))
            if _JAVA_TRUST_OFF.search(value.text) and val.lower() in ("true", "1", "yes"):
                c.eff.blockers.append(f"{c.name} {opt}{value.text} turns off TLS checks for every download")
            elif re.search(r"(?:url|repo\.remote|repositories|mirror)\b", value.text.partition("=")[0], re.I) and \
                    "://" in val:
                c.eff.blockers.append(f"{c.name} {opt}{value.text} points downloads at {val[:60]}")
    return out


_JAVA_TRUST_OFF: Final = re.compile(r"ssl\.(?:insecure|allowall|ignore\.validity\.dates)|trustAll|"
                                    r"disableHostnameVerification|https\.protocols\.insecure", re.I)


def no_operands(c: Call) -> None:
    """``ccache CMD``: with operands it runs the command it is given, which the table does not see."""
    if c.parsed.operands:
        c.eff.runs.append(f"executes code ({c.name} {c.parsed.operands[0].text})")


__all__ = ["cargo_compiler_args", "cargo_opts", "cc_opts", "cmake", "dotnet_opts", "flask_app", "go_flags", "go_run",
           "java_properties", "javac_opts", "no_operands", "operands_load", "pytest_opts", "rustc_opts", "tox",
           "unittest_discover"]
