"""Variable assignments judged by what they hold: ``LANG=C sort``, ``PYTEST_ADDOPTS=… pytest``,
``export PIP_INDEX_URL=…; pip install``, ``env GIT_PAGER=cat git log``.

A variable changes what a program does without any argument showing it, so Tier 2 allows one only when
``shell.env_vars`` lists its name as harmless (and the value has the listed shape) or when what it
carries passes the checks below: options are read with the program's own option spec (``PYTEST_ADDOPTS``
as pytest's options, ``MAKEFLAGS`` as make's, ``GOFLAGS`` as go build's) or with the lists of
``env_vars`` (``NODE_OPTIONS``, ``RUSTFLAGS``, ``CFLAGS``, the JVM's); paths are loads or writes that
the report judges by where they are; commands are expanded as shell code by the walk
(``env_vars.carried_commands``), so here only a computed command is refused. Reasons name the variable,
never its value: an assignment on the line may hold a secret.

``mode`` says who sees the assignment: ``prefix`` (``VAR=v cmd``, ``env VAR=v cmd``: the command does),
``export`` (``export VAR=v; cmd``: the commands after it do), ``bare`` (``VAR=v`` alone: no program
does, unless the variable was already exported, so only the variables that matter then are judged).
"""
from __future__ import annotations

import re
import shlex
from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell import env_vars as V
from phlegyas.analysis.shell.effect_types import Effects, new_effects
from phlegyas.analysis.shell.effects import program_effects
from phlegyas.analysis.shell.parse import Word

PATH_VARS: Final = V.PATH_VARS
EXEC_ENV_VARS: Final = frozenset({
    "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "BASH_ENV", "ENV",
    "PROMPT_COMMAND", "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "LESSOPEN", "LESSCLOSE", "EDITOR",
    "VISUAL", "GIT_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS",
    "SUDO_ASKPASS", "GIT_PROXY_COMMAND", "GIT_EXEC_PATH", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG", "GIT_TEMPLATE_DIR", "PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB", "NODE_OPTIONS",
    "PYTHONSTARTUP", "PYTHONHOME", "PYTHONINSPECT", "PYTHONBREAKPOINT", "PS4", "SHELLOPTS", "BASHOPTS",
    "IFS", "CDPATH", "GLOBIGNORE", "HISTFILE", "TERMINFO", "ZDOTDIR", "GCONV_PATH", "MALLOC_CHECK_",
    "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "GIT_DIR", "GIT_WORK_TREE",
})
"""Environment variables whose value makes a program run code or load a library of the caller's choice
(the rules that need the list without the judging: policy rules, Tier 2.5)."""
_EXEC_SUFFIXES: Final = ("PAGER", "EDITOR", "VISUAL", "_CMD", "_COMMAND", "SHELL", "_PROGRAM", "_PROG", "_BIN", "_HOOK",
                         "_PRELOAD", "_OPTIONS", "_OPTS", "OPEN", "_EXEC", "_PATH", "_DIR", "_HOME", "_RC", "_LIBS",
                         "_LOADER", "_PLUGINS", "_INIT", "_STARTUP", "_CONFIG", "FLAGS")
"""Name endings that suggest a command, options or a path: a bare ``X_PATH=…`` may change an exported one."""


def check_assignment(name: str, eff: Effects, value: Word | None = None, mode: str = "prefix",
                     line: str = "") -> None:
    """Judge one ``name=value`` (see the module docstring) into ``eff``."""
    if value is None:
        value = Word("")
    shape = V.harmless_shape(name)
    if shape is not None:
        if mode != "bare" and not V.fits(shape, value):  # bare: no program sees it, and it is harmless if one did
            eff.blockers.append(f"{name} is set to a value phlegyas does not judge harmless for it")
        return
    if name in PATH_VARS:
        eff.blockers.append("changes PATH, so later program names may mean other programs")
    elif name in V.HOME_VARS:
        if value.text not in ("~", "$HOME", "${HOME}"):
            eff.blockers.append("changes HOME, where programs read their configuration (and what it runs) from")
    elif name == V.PYTHONWARNINGS:
        _python_warnings(value, eff)
    elif V.is_code_var(name) or V.is_program_var(name):
        if value.dynamic:
            eff.blockers.append(f"{name} holds a computed command, which programs run")
        elif not V.harmless_command(name, value.text):
            head = value.text.split()[0].rsplit("/", 1)[-1][:24] if value.text.split() else "a command"
            eff.runs.append(f"executes code ({name} makes programs run {head})")
    elif name in V.OPTION_VARS:
        _spec_options(name, value, eff)
    elif name in V.OWN_OPTION_VARS:
        _own_options(name, value, eff)
    elif name.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")) or name == "GIT_CONFIG_COUNT":
        _git_config(name, value, eff)
    elif name in V.LOAD_PATH_VARS:
        for part in _path_parts(name, value):
            eff.loads.append(part)
    elif name in V.PRELOAD_VARS or name.startswith(("LD_", "DYLD_", "BASH_FUNC_")):
        if not value.dynamic and not value.text and name not in ("IFS", "PS4", "CDPATH", "GLOBIGNORE"):
            return  # LD_PRELOAD= cmd: emptied, nothing is loaded
        eff.runs.append(f"executes code (sets {name}, which makes programs load code or configuration)")
    elif V.is_source_var(name):
        eff.blockers.append(f"{name} sets where a package manager gets packages, or another of its options")
    elif name in V.WRITE_DIR_VARS:
        here = _here(value.text)
        eff.writes.append(value if here == value.text else Word(here, "$" in here or "`" in here, quoted=True))
    elif name in EXEC_ENV_VARS:
        eff.runs.append(f"executes code (sets {name}, which makes programs run or load code)")
    elif mode == "prefix":
        eff.blockers.append(f"sets {name}, an environment variable phlegyas does not know (the program may act on it)")
    elif _used_as_data(name, line):
        return
    elif mode == "export":
        eff.blockers.append(f"exports {name}, an environment variable phlegyas does not know, to the commands after it")
    elif name.endswith(_EXEC_SUFFIXES):
        eff.runs.append(f"executes code (sets {name}, which may be an exported variable that runs or loads code)")


def assignment_effects(assignments: list[tuple[str, Word]], eff: Effects, mode: str = "prefix",
                       line: str = "") -> None:
    """Every assignment of one command (see ``check_assignment``)."""
    for name, value in assignments:
        check_assignment(name, eff, value, mode, line)


def _used_as_data(name: str, line: str) -> bool:
    """``export OUT=dist; ls $OUT``: the line reads the variable itself, as a word."""
    for lead in ("$", "${"):  # a scan, not a regular expression: each new name would be compiled anew
        needle = lead + name
        at = line.find(needle)
        while at >= 0:
            end = at + len(needle)
            if end == len(line) or not (line[end].isascii() and (line[end].isalnum() or line[end] == "_")):
                return True
            at = line.find(needle, at + 1)
    return False


def _path_parts(name: str, value: Word) -> list[Word]:
    """The parts of a search path, as words; ``$NAME`` of the same variable (``src:$PYTHONPATH``) is the
    value the environment already had, so it is dropped."""
    text = value.text
    own = ("$" + name, "${" + name + "}")
    parts = [_here(p) for p in text.split(":") if p and p not in own]
    if not parts:
        return []
    return [Word(p, dynamic=value.dynamic and ("$" in p or "`" in p), glob=False, quoted=True) for p in parts]


_CWD_WORDS: Final = ("$PWD", "${PWD}", "$(pwd)", "`pwd`")


def _here(part: str) -> str:
    """``$PWD/src``, ``$(pwd)``: the working directory, which the report resolves like ``.``."""
    for w in _CWD_WORDS:
        if part == w or part.startswith(w + "/"):
            return "." + part[len(w):]
    return part


def _split(value: Word) -> list[str] | None:
    """The words of an option variable as the program splits them (shell-like quoting), or None."""
    try:
        return shlex.split(value.text)
    except ValueError:
        return None


def _spec_options(name: str, value: Word, eff: Effects) -> None:
    """``PYTEST_ADDOPTS``, ``MAKEFLAGS``, ``GOFLAGS``: the value read by the program's own option spec."""
    path = V.OPTION_VARS[name]
    if value.dynamic:
        eff.blockers.append(f"{name} holds computed options for {path[0]}")
        return
    texts = _split(value)
    if texts is None:
        eff.blockers.append(f"{name} holds options phlegyas cannot split")
        return
    spec = P.spec_for(path[0])
    for sub in path[1:]:
        spec = spec.subcommands.get(sub) if spec is not None and spec.subcommands else None
    if spec is None:
        eff.blockers.append(f"{name} holds options of {path[0]}, which phlegyas has no option spec for")
        return
    if path[0] == "make":
        if texts and not texts[0].startswith("-") and "=" not in texts[0]:
            texts[0] = "-" + texts[0]  # MAKEFLAGS=j4: make's flag letters without the dash
        for t in texts:
            if "=" in t and not t.startswith("-"):
                eff.blockers.append(f"{name} sets the make variable {t.split('=', 1)[0]}")
        texts = [t for t in texts if t.startswith("-") and t != "--"]
    words = [Word(t, quoted=True) for t in texts]
    got = new_effects()
    # the program's own rules, its handler's included (``pytest -p`` must name a module)
    program_effects(path[0], [Word(p, quoted=True) for p in path[1:]] + words, got)
    skip = {spec.does, f"runs {' '.join(path)}"}
    eff.blockers.extend(f"{name}: {_scrub(b)}" for b in got.blockers)
    eff.runs.extend(got.runs)
    eff.loads.extend(got.loads)
    eff.reads.extend(got.reads)
    eff.writes.extend(got.writes)
    eff.deletes.extend(got.deletes)
    eff.uploads.extend(got.uploads)
    eff.mutates.extend(m for m in got.mutates if m not in skip)
    eff.network = eff.network or got.network


_PLAIN_OPTION: Final = re.compile(r"--?[a-z][a-z0-9-]{0,30}(=.*)?")


def _scrub(text: str) -> str:
    """A reason with every word that starts like an option but does not read like one (``--wJalrX…``, which
    may be a secret pasted into the variable) replaced by "an option"."""
    words = text.split(" ")
    return " ".join(w if not w.startswith("-") or _PLAIN_OPTION.fullmatch(w) else "an option" for w in words)


def _opt(text: str) -> str:
    """An option as a reason shows it: its name, or "an option" when it does not read like one."""
    name = text.split("=", 1)[0]
    return name if _PLAIN_OPTION.fullmatch(name) else "an option"


def _own_options(name: str, value: Word, eff: Effects) -> None:
    """``NODE_OPTIONS``, ``RUSTFLAGS``, ``CFLAGS``, ``JAVA_TOOL_OPTIONS`` …: checked against the lists of
    ``env_vars``; anything else in them is not automatic."""
    if value.dynamic:
        eff.blockers.append(f"{name} holds computed options")
        return
    if name == "CARGO_ENCODED_RUSTFLAGS":
        texts: list[str] | None = [t for t in value.text.split("\x1f") if t]
    else:
        texts = _split(value)
    if texts is None:
        eff.blockers.append(f"{name} holds options phlegyas cannot split")
        return
    if name == "NODE_OPTIONS":
        _node(texts, eff)
    elif name.startswith(("RUST", "CARGO")):
        _rust(name, texts, eff)
    elif name.endswith("FLAGS"):
        _c(name, texts, eff)
    else:
        for t in texts:
            if V.JAVA_FLAG.fullmatch(t) is not None:
                continue
            opt = _opt(t.split(":", 1)[0])
            if t.startswith(("-javaagent", "-agent", "-Xbootclasspath")):
                eff.runs.append(f"executes code ({name} {opt} loads code into the JVM)")
            else:
                eff.blockers.append(f"{name} holds {_opt(opt)}, which phlegyas does not judge harmless")


def _pairs(texts: list[str], valued: frozenset[str]) -> list[tuple[str, str | None]]:
    """Options with their values: ``--opt=v``, ``--opt v`` (for ``valued`` options), ``-Xv`` is left whole."""
    out: list[tuple[str, str | None]] = []
    i = 0
    while i < len(texts):
        t = texts[i]
        if t.startswith("--") and "=" in t:
            opt, val = t.split("=", 1)
            out.append((opt, val))
        elif t in valued and i + 1 < len(texts):
            out.append((t, texts[i + 1]))
            i += 1
        else:
            out.append((t, None))
        i += 1
    return out


def _node(texts: list[str], eff: Effects) -> None:
    """NODE_OPTIONS: modules it preloads are loads; other options must be in ``NODE_HARMLESS``."""
    for opt, val in _pairs(texts, V.NODE_VALUED):
        if opt in V.NODE_LOADS:
            if val is None:
                eff.blockers.append(f"NODE_OPTIONS {opt} without a module")
            else:
                eff.loads.append(Word(val, quoted=True))
        elif opt.startswith("-r") and len(opt) > 2 and not opt.startswith("--"):
            eff.loads.append(Word(opt[2:], quoted=True))
        elif opt not in V.NODE_HARMLESS:
            eff.blockers.append(f"NODE_OPTIONS holds node {_opt(opt)}, which phlegyas does not judge harmless")


def _rust(name: str, texts: list[str], eff: Effects) -> None:
    """RUSTFLAGS: lints, cfgs and code-generation settings; the linker and unstable ``-Z`` are not harmless."""
    for opt, val in _pairs(texts, V.RUST_VALUED | frozenset({"-L", "-l", "-Z"})):
        if val is None and len(opt) > 2 and opt[:2] in ("-C", "-D", "-A", "-W", "-F", "-L", "-l", "-Z"):
            opt, val = opt[:2], opt[2:]
        if opt in ("-C", "--codegen"):
            key = (val or "").split("=", 1)[0]
            if key in ("linker", "link-arg", "link-args", "linker-flavor", "linker-plugin-lto", "link-self-contained"):
                eff.runs.append(f"executes code ({name} -C {key} runs or feeds the linker)")
            elif key not in V.RUST_CODEGEN:
                shown = key if _PLAIN_OPTION.fullmatch("-" + key) else "a setting"
                eff.blockers.append(f"{name} holds -C {shown}, which phlegyas does not judge harmless")
        elif opt == "-L":
            if val is not None:
                eff.loads.append(Word(val.split("=", 1)[-1], quoted=True))
        elif opt in V.RUST_VALUED or opt == "-l":
            continue
        else:
            eff.blockers.append(f"{name} holds {_opt(opt)}, which phlegyas does not judge harmless")


def _c(name: str, texts: list[str], eff: Effects) -> None:
    """CFLAGS/LDFLAGS: include and library dirs are loads; plugins, ``-B`` and pass-through flags run code."""
    i = 0
    while i < len(texts):
        t = texts[i]
        path_flag = next((f for f in V.C_PATH_FLAGS if t.startswith(f)), None)
        if path_flag is not None:
            path = t[len(path_flag):]
            if not path and i + 1 < len(texts):
                i += 1
                path = texts[i]
            eff.loads.append(Word(path or ".", quoted=True))
        elif t.startswith(("-fplugin", "-B", "-specs", "-wrapper", "--sysroot", "-include", "-imacros", "-Xlinker",
                           "-Wl,", "-Wp,", "-Wa,", "-fuse-ld")):
            eff.runs.append(f"executes code ({name} {_opt(t.split('=', 1)[0][:16])} loads or runs another program)")
        elif V.C_FLAG.fullmatch(t) is None:
            eff.blockers.append(f"{name} holds {_opt(t)}, which phlegyas does not judge harmless")
        i += 1


def _python_warnings(value: Word, eff: Effects) -> None:
    """``PYTHONWARNINGS=ignore::DeprecationWarning``: a dotted category would be imported."""
    if value.dynamic:
        eff.blockers.append("PYTHONWARNINGS holds a computed filter")
        return
    for part in value.text.split(","):
        fields = part.split(":")
        if len(fields) > 2 and "." in fields[2]:
            eff.blockers.append("PYTHONWARNINGS names a warning category Python would import")
            return


def _git_config(name: str, value: Word, eff: Effects) -> None:
    """``GIT_CONFIG_KEY_n``: the same check as ``git -c key=value``; the values go with their keys (a code
    key's value is expanded as a command by the walk)."""
    if name == "GIT_CONFIG_COUNT":
        if value.dynamic or not value.text.isdigit():
            eff.blockers.append("GIT_CONFIG_COUNT is not a literal number")
        return
    if name.startswith("GIT_CONFIG_VALUE_"):
        return
    key = value.text.strip().lower()
    if value.dynamic or not key.startswith(P.GIT_HARMLESS_CONFIG):
        eff.runs.append(f"executes code ({name}={key if not value.dynamic else 'a computed key'})")


DECLARATIONS: Final = frozenset({"export", "declare", "typeset", "local", "readonly"})
"""Builtins whose operands are assignments to this shell (exported with ``export`` or ``-x``)."""
_SPLITTERS: Final = frozenset({"read", "mapfile", "readarray"})


def exports_all(program: str, args: list[Word]) -> bool:
    """``set -a`` / ``set -o allexport``: every later assignment is exported."""
    if program != "set":
        return False
    texts = [a.text for a in args]
    return any(t.startswith("-") and not t.startswith("--") and "a" in t for t in texts) or "allexport" in texts


def command_assignments(program: str, args: list[Word], assignments: list[tuple[str, Word]], eff: Effects,
                        later: bool, line: str) -> None:
    """The assignments of one simple command: a prefix (``VAR=v cmd``) is seen by the command; those of
    ``export``/``declare -x`` by the commands ``later`` on the line; the other declarations by none."""
    if program not in DECLARATIONS:
        if program in _SPLITTERS:  # IFS= read -r line: IFS only tells read how to split (bash ignores an exported one)
            assignments = [(n, v) for n, v in assignments if n != "IFS"]
        assignment_effects(assignments, eff, "prefix", line)
        return
    exported = program == "export" or any(a.text.startswith("-") and "x" in a.text and "=" not in a.text
                                          for a in args)
    pairs = list(assignments)
    seen = {name for name, _ in pairs}
    for a in args:
        name, eq, value = a.text.partition("=")
        if a.text.startswith("-") or not name.isidentifier() or name in seen:
            continue
        seen.add(name)
        # ``export NAME`` exports the value the shell has: unknown here, so computed
        pairs.append((name, Word(value, a.dynamic, a.glob, a.quoted) if eq else Word("$" + name, dynamic=True)))
    assignment_effects(pairs, eff, "export" if exported and later else "bare", line)


def note_assignment(text: str, eff: Effects) -> None:
    """A ``NAME=value`` a wrapper passes to its command (``env``, ``sudo``): a prefix assignment."""
    name, _, value = text.partition("=")
    check_assignment(name, eff, Word(value, dynamic="$" in value or "`" in value, quoted=True), "prefix")
