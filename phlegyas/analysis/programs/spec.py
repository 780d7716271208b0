"""The vocabulary of program knowledge: the entry types, the Tier 2 categories and the table helpers.

``Spec`` says what one program (or one subcommand of it) does; ``Wrapper``, ``Interpreter``,
``PythonModule`` and ``Runner`` are the entries of the other tables. The family modules write their
entries with ``ro``, ``mut``, ``subs``, ``add`` and ``E`` (an option set from a space-separated string).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Mapping

EMPTY: Final[frozenset[str]] = frozenset()


# -- Tier 2 categories -----------------------------------------------------------------------------
READ_ONLY: Final = "read-only"
GIT_READ: Final = "git read"
GIT_LOCAL: Final = "git local"
TEST_BUILD: Final = "test/build"
LINT_FORMAT: Final = "lint/format"
PKG_INSTALL: Final = "package install"
PROJECT_EDIT: Final = "project edit"
SAFE_WRITE: Final = "safe write dir"
NAVIGATION: Final = "navigation"
WEB_READ: Final = "web read"
NET_READ: Final = "network read"
READONLY_TOOL: Final = "read-only tool"

NETWORK_CATEGORIES: Final = frozenset({GIT_READ, GIT_LOCAL, PKG_INSTALL, WEB_READ, NET_READ, TEST_BUILD})
"""Categories whose commands may use the network and still be safe (fetch, install, a GET …)."""

# -- operand modes ---------------------------------------------------------------------------------
# read     every operand is a path the program reads
# list     every operand is a path whose names or metadata it shows (ls, du, stat), not its contents
# pattern  the first operand is a pattern/program/filter (unless given by a pattern option), the rest are read
# none     operands are not paths (words, numbers, pids, names)
# write    every operand is a path written or created
# target   the last operand is written, the others read (``-t DIR`` makes every operand read)
# move     like target, and the sources disappear
# delete   every operand is deleted
# mode     the first operand is a mode/owner, the rest are written
# in_out   the first operand is read, the second (if any) written
# urls     operands are URLs (network)
OPERAND_MODES = frozenset({"read", "list", "pattern", "none", "write", "target", "move", "delete", "mode", "in_out",
                           "urls"})


@dataclass(frozen=True, slots=True)
class Spec:
    """What one program (or one subcommand of it) does."""

    readonly: bool = False
    category: str | None = None
    operands: str = "read"
    value_opts: frozenset[str] = EMPTY  # options that take a value (``-n 5``, ``--lines=5``)
    flags: frozenset[str] | None = None  # the options without a value it accepts (None: none are known)
    whole: frozenset[str] = EMPTY  # single-dash long options (``-name``, ``-exec``)
    exec_flags: frozenset[str] = EMPTY  # options that run code or another program
    write_flags: frozenset[str] = EMPTY  # options whose value is a file written
    inplace_flags: frozenset[str] = EMPTY  # options that make the operands be rewritten in place
    inplace: bool = False  # operands are rewritten in place unless a readonly flag is given
    readonly_flags: frozenset[str] = EMPTY  # options that make a writer only read or print
    mutate_flags: frozenset[str] = EMPTY  # options that make a reader change state
    upload_flags: frozenset[str] = EMPTY  # options whose value is a local file sent over the network
    data_flags: frozenset[str] = EMPTY  # options that send their value; ``@file`` sends a file
    read_flags: frozenset[str] = EMPTY  # options whose value is a file read (``grep -f``, ``openssl -in``)
    load_flags: frozenset[str] = EMPTY  # options whose value is code, config or a plugin it loads (``make -f``)
    delete_flags: frozenset[str] = EMPTY  # options whose value is a directory it empties (``pytest --basetemp``)
    source_flags: frozenset[str] = EMPTY  # options that name where packages come from (``pip --index-url``)
    pattern_opts: frozenset[str] = EMPTY  # options that give the pattern, so every operand is a path
    target_opts: frozenset[str] = EMPTY  # options that name the target directory (``cp -t DIR``)
    recursive_flags: frozenset[str] = EMPTY  # for deleters: options that make the deletion recursive
    default_operand: str | None = None  # the path used when no operand is given (formatters: ".")
    network: bool = False
    does: str | None = None  # the change a non-read-only program makes, as a short phrase
    handler: str | None = None  # a special analysis in shell.handlers (find, tar, dd, git_config …)
    subcommands: Mapping[str, "Spec"] | None = None  # "" = no subcommand given, "*" = any other
    posix: bool = False  # options end at the first operand
    numeric: bool = False  # ``-NUM`` is an option (``head -5``, ``tail -20``)
    examples: tuple[tuple[str, str], ...] = ()


def ro(*, category: str = READ_ONLY, **kw) -> Spec:
    """A read-only program (it reads or prints, nothing else)."""
    return Spec(readonly=True, category=category, **kw)


def mut(does: str, **kw) -> Spec:
    """A program that changes state (never safe on its own)."""
    return Spec(does=does, **kw)


def subs(table: dict[str, Spec], *names_and_specs: tuple[str, Spec]) -> dict[str, Spec]:
    out = dict(table)
    for names, spec in names_and_specs:
        for name in names.split() or [""]:
            out[name] = spec
    return out


def add(table: dict[str, Spec], names: str, spec: Spec) -> None:
    """Enter ``spec`` in ``table`` under each of the space-separated ``names``."""
    for name in names.split():
        table[name] = spec


def opts(spec: str) -> frozenset[str]:
    """``opts("-n --lines -c")`` → a frozenset of option names (a table-writing helper)."""
    return frozenset(spec.split())


E: Final = opts  # short alias for the tables


# -- wrappers, interpreters, python -m modules, package runners ------------------------------------

@dataclass(frozen=True, slots=True)
class Wrapper:
    """A program that runs another program given in its arguments (``sudo``, ``timeout`` …)."""

    value_opts: frozenset[str] = EMPTY
    flags: frozenset[str] = EMPTY  # its options without a value; any option in no set is not understood
    read_opts: frozenset[str] = EMPTY  # options whose value is a file it reads (``xargs -a FILE``)
    leading: int = 0  # operands before the command (timeout DURATION, chroot DIR, flock FILE)
    code_opts: frozenset[str] = EMPTY  # options whose value is shell code (``su -c``, ``flock -c``)
    split_opts: frozenset[str] = EMPTY  # options whose value is a command line to split (``env -S``)
    rest_is_code: bool = False  # the command is shell text (``watch``, ``ssh host CMD``)
    argv_flags: frozenset[str] = EMPTY  # with one of these, the rest is an argv after all (``watch -x``)
    query_opts: frozenset[str] = EMPTY  # options that make it run nothing (``command -v``, ``sudo -l``)
    shell_opts: frozenset[str] = EMPTY  # options that start an interactive shell (``sudo -i``, ``sudo -s``)
    exec_opts: frozenset[str] = EMPTY  # options that run a program of their choosing (``ssh -o ProxyCommand``)
    write_opts: frozenset[str] = EMPTY  # options whose value is a file written (``strace -o``, ``time -o``)
    assignments: bool = False  # NAME=value operands before the command (``env``)
    leading_writes: bool = False  # the leading operand is a file created (``flock FILE``)
    privileged: bool = False
    remote: bool = False
    network: bool = False
    alone: str = "readonly"  # with no command: "readonly" (prints something), "shell" (starts one), "none"
    examples: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Interpreter:
    """A language runtime: which options give it code to run (``-c``, ``-e``) or a module (``-m``)."""

    lang: str  # python | js | perl | ruby | php | lua | tcl | r | other
    code_opts: frozenset[str]
    value_opts: frozenset[str] = EMPTY
    module_opts: frozenset[str] = EMPTY  # ``python -m MOD``
    readonly_opts: frozenset[str] = EMPTY  # ``--version``: prints and exits
    exec_opts: frozenset[str] = EMPTY  # options that load code (``node -r``, ``perl -M``)


@dataclass(frozen=True, slots=True)
class PythonModule:
    """What ``python -m MODULE`` is: another program of the table, or a category of its own."""

    program: str | None = None  # e.g. "pytest", "pip"
    spec: Spec | None = None


@dataclass(frozen=True, slots=True)
class Runner:
    """``npx TOOL``, ``uv run CMD``, ``bundle exec CMD``: a command that runs another command.

    ``fetches``: it may download the tool from a registry, so only tools of the table with a build,
    test, lint or format category are analysed as themselves; anything else is unknown code."""

    value_opts: frozenset[str] = EMPTY
    code_opts: frozenset[str] = EMPTY
    fetches: bool = False
    as_python: bool = False  # ``coverage run ARGS`` runs ``python ARGS``
    flags: frozenset[str] | None = None  # its options without a value (None: its options are not checked)
    package_opts: frozenset[str] = EMPTY  # options whose value is a package it installs (``npx -p``, ``uvx --from``)
    load_opts: frozenset[str] = EMPTY  # options whose value is a file or directory it loads (``uv run --env-file``)
