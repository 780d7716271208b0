"""Deletion through an option: a program whose table entry lists ``delete_flags`` empties or removes the
directory named by their value (``pytest --basetemp=DIR`` removes DIR and everything in it before the run).

The value is judged like the operand of ``rm -rf``: the home directory, ``/``, the project or a system
location is denied, a directory elsewhere outside the project is denied (asked in a shared temp
directory), one inside the project asks. One generic detector serves every such entry, so a new
``delete_flags`` in the table is covered without a detector of its own. ``cmake -E rm`` (CMake's
portable ``rm``) is judged here too: it is a deletion that the command line spells as an option.
"""
from __future__ import annotations

from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.options import parse_options
from phlegyas.analysis.shell.parse import Word
from phlegyas.analysis.tier1.base import Out, env_for
from phlegyas.analysis.tier1.delete import judge_target
from phlegyas.analysis.tier1.words import word_targets
from phlegyas.core.analysis import AnalysisEnv


def _value_options(spec: P.Spec) -> frozenset[str]:
    """Every option of ``spec`` that takes a value, so that a value is never read as an option or operand."""
    return (spec.value_opts | spec.target_opts | spec.write_flags | spec.upload_flags | spec.data_flags
            | spec.read_flags | spec.exec_flags | spec.load_flags | spec.delete_flags | spec.source_flags)


def _has_delete_flags(spec: P.Spec) -> bool:
    return bool(spec.delete_flags) or any(_has_delete_flags(s) for s in (spec.subcommands or {}).values())


def programs_with_delete_flags() -> tuple[str, ...]:
    """The table's programs whose entry, or one of its subcommands' (``cargo clean``), has ``delete_flags``."""
    return tuple(name for name, spec in P.PROGRAMS.items() if _has_delete_flags(spec))


def _walk(spec: P.Spec, args: list[Word]) -> tuple[P.Spec, list[Word]] | None:
    """Down the subcommands the arguments name, as ``shell.effects.resolve`` does (None: not in the table)."""
    while spec.subcommands is not None:
        parsed = parse_options(args, _value_options(spec), spec.whole, True, spec.numeric)
        sub = args[parsed.rest].text if parsed.rest >= 0 else ""
        nxt = spec.subcommands.get(sub) or spec.subcommands.get("*")
        if nxt is None:
            return None
        spec, args = nxt, (args[parsed.rest + 1:] if parsed.rest >= 0 else [])
    return spec, args


def detect_delete_flags(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    top = P.spec_for(inv.program)
    found = _walk(top, inv.args) if top is not None else None
    if found is None or not found[0].delete_flags:
        return
    spec, args = found
    env = env_for(inv, env)
    parsed = parse_options(args, _value_options(spec), spec.whole, spec.posix, spec.numeric)
    for opt, value in parsed.opts:
        if opt in spec.delete_flags and value is not None:
            for t in word_targets(value, env):
                judge_target(inv, t, env, out, recursive=True, forced=True)


_CMAKE_REMOVE: Final = frozenset({"rm", "remove", "remove_directory"})


def detect_cmake_remove(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``cmake -E rm -rf PATH``: CMake's portable ``rm``, judged as ``rm`` is."""
    args = inv.args
    for i, w in enumerate(args[:-1]):
        if w.text == "-E" and args[i + 1].text in _CMAKE_REMOVE:
            rest = args[i + 2:]
            flags = "".join(a.text[1:] for a in rest if a.text.startswith("-") and not a.text.startswith("--"))
            recursive = args[i + 1].text == "remove_directory" or "r" in flags.lower()
            forced = "f" in flags
            env = env_for(inv, env)
            for target in (a for a in rest if not a.text.startswith("-")):
                for t in word_targets(target, env):
                    judge_target(inv, t, env, out, recursive=recursive, forced=forced)
            return
