"""What one invocation does, read off the program table (``analysis.programs``).

``program_effects(name, args, eff)`` adds to ``eff`` (an ``Effects``) what running a table program
does: paths read, written and deleted (as words, normalized later against the cwd), code executed,
network use, uploads, state changes, secrets shown. Generic rules cover every table entry; the
``handler`` named by an entry (``shell.handlers``, found by name in ``shell.handlers.registry``) covers
the syntax that flags cannot describe (``find`` expressions, ``tar`` modes, ``dd`` operands, git
subcommand forms …). Shells, interpreters and wrappers are dealt with earlier, in ``shell.analyze``,
which leaves its findings on the invocation as notes; variable assignments are read in
``shell.assignments`` (which uses ``apply_spec`` for the options a variable carries).
"""
from __future__ import annotations

import posixpath
from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.effect_types import Effects, literal, new_effects
from phlegyas.analysis.shell.handlers.base import Call, urls
from phlegyas.analysis.shell.handlers.find import FIND_EXEC, find_exec_end, find_start_dirs
from phlegyas.analysis.shell.handlers.git import GIT_CODE_KEYS, git_config_key
from phlegyas.analysis.shell.handlers.registry import HANDLERS, check_handlers
from phlegyas.analysis.shell.options import Parsed, may_be_option, parse_options
from phlegyas.analysis.shell.parse import Word

# -- the generic rules -----------------------------------------------------------------------------

_OPTION_SETS: Final[dict[int, tuple[frozenset[str], frozenset[str], frozenset[str] | None]]] = {}


def _option_sets(spec: P.Spec) -> tuple[frozenset[str], frozenset[str], frozenset[str] | None]:
    """(every option of ``spec`` that takes a value, the flag sets that name files or code included;
    every option ``apply_spec`` does something with, so any other is skipped with one lookup;
    every option the spec knows, or None when it needs no option spec: a program Tier 2 never allows).

    Computed once per table entry: every ``Spec`` is a module-level constant, so its ``id`` is stable."""
    got = _OPTION_SETS.get(id(spec))
    if got is None:
        files = (spec.write_flags | spec.upload_flags | spec.data_flags | spec.read_flags | spec.exec_flags
                 | spec.load_flags | spec.delete_flags | spec.source_flags)
        values = spec.value_opts | spec.target_opts | files
        notable = spec.mutate_flags | spec.inplace_flags | files
        known = None
        if spec.readonly or spec.category is not None:
            known = (values | notable | (spec.flags or EMPTY) | spec.whole | spec.readonly_flags
                     | spec.pattern_opts | spec.recursive_flags)
        got = (values, notable, known)
        _OPTION_SETS[id(spec)] = got
    return got


EMPTY: Final[frozenset[str]] = frozenset()


def unknown_option(spec: P.Spec, parsed: Parsed) -> str | None:
    """The first option of ``parsed`` that ``spec``'s option spec does not list (``-NUM`` counts as
    listed for ``numeric`` programs), or None. Programs Tier 2 never allows need no option spec."""
    known = _option_sets(spec)[2]
    if known is None:
        return None
    for opt, _ in parsed.opts:
        if opt not in known and not (spec.numeric and opt[1:].isdigit()):
            return opt
    return None


def option_risky(spec: P.Spec) -> bool:
    """Whether an option that a file name could spell would make ``spec``'s program run, write, delete, load,
    rewrite, send or change something (the programs a wildcard injection works on)."""
    if spec.handler in ("words_only", "search_globs") or spec.handler == "jq" and not spec.inplace_flags:
        return False  # echo and test: an option only changes what they print; grep's name filters and jq's
        # files (--rawfile, -f, -L modules of jq code, which cannot run or write anything) only read
    return bool(spec.handler or spec.exec_flags or spec.write_flags or spec.load_flags or spec.delete_flags
                or spec.source_flags or spec.inplace_flags or spec.mutate_flags or spec.upload_flags
                or spec.data_flags or spec.target_opts)


def apply_spec(spec: P.Spec, args: list[Word], eff: Effects, name: str) -> Parsed:
    """Apply the table's generic rules for ``spec`` to ``args``; returns the parsed options."""
    values, notable, known = _option_sets(spec)
    parsed = parse_options(args, values, spec.whole, spec.posix, spec.numeric)
    if spec.posix and parsed.rest >= 0:  # options ended at the first operand: the rest are all operands
        parsed.operands.extend(args[parsed.rest:])
    if known is not None:
        odd = unknown_option(spec, parsed)
        if odd is not None:
            eff.blockers.append(f"{name} {odd} is an option phlegyas does not know for {name}")
        if option_risky(spec):
            for word in parsed.operands:
                if may_be_option(word):
                    eff.blockers.append(f"{word.text} may match a file named like an option of {name}")
                    break
    readonly_mode = bool(spec.readonly_flags) and parsed.has(spec.readonly_flags)
    inplace = spec.inplace and not readonly_mode
    if spec.network:
        eff.network = True
    inplace = _option_effects(spec, parsed, eff, name, notable) or inplace
    _operands(spec, parsed, eff, inplace, name)
    if spec.does and not spec.readonly and not readonly_mode:
        (eff.changes if spec.category else eff.mutates).append(spec.does)
    elif not spec.readonly and not readonly_mode and spec.category is None and not (
            eff.mutates or eff.runs or eff.deletes or eff.writes or eff.uploads):
        eff.mutates.append(f"runs {name}")
    return parsed


def _option_effects(spec: P.Spec, parsed: Parsed, eff: Effects, name: str, notable: frozenset[str]) -> bool:
    """What the options of ``parsed`` do by ``spec``'s sets (run, write, read, load, delete, send …);
    whether one of them makes the operands be rewritten in place."""
    inplace = False
    for opt, value in parsed.opts:
        if opt not in notable:
            continue
        if opt in spec.exec_flags:
            eff.runs.append(f"executes code ({name} {opt})")
        if value is None:
            if opt in spec.mutate_flags:
                eff.mutates.append(f"{name} {opt}")
            elif opt in spec.inplace_flags:
                inplace = True
            continue
        if opt in spec.write_flags and value.text not in ("-", ""):
            eff.writes.append(value)
        elif opt in spec.read_flags:
            eff.reads.append(value)
        elif opt in spec.load_flags:
            eff.loads.append(value)
        elif opt in spec.delete_flags:
            eff.deletes.append((value, True))
        elif opt in spec.source_flags:
            eff.blockers.append(f"{name} {opt} {value.text}: packages from a source other than the default index")
        elif opt in spec.upload_flags:
            eff.uploads.append(value)
        elif opt in spec.data_flags:
            _data(value, eff)
        if opt in spec.mutate_flags:
            eff.mutates.append(f"{name} {opt}")
        elif opt in spec.inplace_flags:
            inplace = True
    return inplace


def _data(value: Word, eff: Effects) -> None:
    """``-d @file``, ``-F name=@file``, ``-F name=<file`` upload a file; other data is sent as is."""
    text = value.text
    if text.startswith("@") and len(text) > 1:
        eff.uploads.append(Word(text[1:], value.dynamic, value.glob, value.quoted))
        return
    for marker in ("=@", "=<"):
        at = text.find(marker)
        if at > 0:
            eff.uploads.append(Word(text[at + 2:].split(";", 1)[0], value.dynamic, value.glob, value.quoted))
            return
    eff.mutates.append("sends data over the network")
    if value.dynamic:
        eff.blockers.append("sends computed data over the network")


def _operands(spec: P.Spec, parsed: Parsed, eff: Effects, inplace: bool, name: str = "") -> None:
    ops = parsed.operands
    mode = spec.operands
    if mode == "none" or mode == "urls":
        if mode == "urls":
            urls(ops, eff)
        return
    if mode == "pattern":
        if not (spec.pattern_opts and parsed.has(spec.pattern_opts)):
            ops = ops[1:]
        mode = "read"
    if not ops and spec.default_operand and (inplace or mode == "write"):
        ops = [literal(spec.default_operand)]
    if mode == "list":
        eff.lists.extend(ops)
    elif mode == "read":
        eff.reads.extend(ops)
        if inplace:
            eff.writes.extend(ops)
    elif mode == "write":
        eff.writes.extend(ops)
    elif mode in ("target", "move"):
        target = parsed.values(spec.target_opts) if spec.target_opts else []
        if target:
            sources = ops
            eff.writes.extend(target)
        elif len(ops) >= 2:
            sources = ops[:-1]
            eff.writes.append(ops[-1])
        else:
            sources = ops
            eff.writes.extend(literal(posixpath.basename(o.text.rstrip("/")) or ".") for o in ops)
        eff.reads.extend(sources)
        if mode == "move":
            eff.deletes.extend((s, False) for s in sources)
    elif mode == "delete":
        recursive = bool(spec.recursive_flags) and parsed.has(spec.recursive_flags)
        eff.deletes.extend((o, recursive) for o in ops)
    elif mode == "mode":
        if not parsed.has(("--reference",)):
            if name == "chmod" and ops and _world_writable(ops[0].text):
                eff.blockers.append(f"chmod {ops[0].text} lets every user of the machine change the files "
                                    "(code another user plants there runs at the next safe command)")
            ops = ops[1:]
        eff.writes.extend(ops)
    elif mode == "in_out":
        if ops:
            eff.reads.append(ops[0])
        if len(ops) > 1:
            eff.writes.append(ops[1])


def _world_writable(mode: str) -> bool:
    """Whether a chmod mode gives other users write permission: octal with the others' write bit (``777``,
    ``0666``) or a symbolic clause for ``o`` or ``a`` (``o+w``, ``a=rwx``); a bare ``+w`` follows the umask."""
    if mode.isdigit():
        return len(mode) >= 1 and int(mode[-1]) & 2 == 2
    for clause in mode.split(","):
        who, _, perms = clause.partition("+") if "+" in clause else clause.partition("=")
        if ("o" in who or "a" in who) and "w" in perms:
            return True
    return False


# -- subcommands -----------------------------------------------------------------------------------

def resolve(spec: P.Spec, args: list[Word], eff: Effects, name: str) -> tuple[P.Spec, list[Word], list[str], Parsed | None]:
    """Walk down ``spec.subcommands``; returns the final spec, its arguments, the subcommand path and
    the parsed global options of the top level."""
    path: list[str] = []
    top: Parsed | None = None
    while spec.subcommands is not None:
        parsed = parse_options(args, _option_sets(spec)[0], spec.whole, True, spec.numeric)
        if top is None:
            top = parsed
        if parsed.opts:
            odd = _level_option(spec, parsed)
            if odd is not None:
                eff.blockers.append(f"{name} {odd} is an option phlegyas does not know for {name}")
            # what the options before the subcommand do (``webpack -c /tmp/x.js``: a load)
            _option_effects(spec, parsed, eff, name, _option_sets(spec)[1])
        if parsed.rest < 0:
            sub, rest = "", []
        else:
            sub, rest = args[parsed.rest].text, args[parsed.rest + 1:]
            if args[parsed.rest].dynamic:
                eff.unknown = f"{name} with a computed subcommand"
                return spec, rest, path, top
        nxt = spec.subcommands.get(sub)
        if nxt is None:
            nxt = spec.subcommands.get("*")
        if nxt is None:
            if spec.handler == "yarn_script" and parsed.rest >= 0:
                path.append(sub)
                return _SCRIPT_SPEC, [args[parsed.rest]] + rest, path, top
            eff.unknown = f"{name} {sub}".strip()
            return spec, rest, path, top
        path.append(sub)
        spec, args = nxt, rest
    return spec, args, path, top


_LEVEL_KNOWN: Final[dict[int, frozenset[str]]] = {}


def _level_option(spec: P.Spec, parsed: Parsed) -> str | None:
    """An option before the subcommand that the program's global options do not list (their union is
    computed once per table entry, like ``_option_sets``)."""
    known = _LEVEL_KNOWN.get(id(spec))
    if known is None:
        known = _LEVEL_KNOWN[id(spec)] = ((spec.flags or EMPTY) | _option_sets(spec)[0] | spec.whole
                                          | spec.mutate_flags | spec.readonly_flags)
    for opt, _ in parsed.opts:
        if opt not in known:
            return opt
    return None


_SCRIPT_SPEC: Final = P.Spec(category=P.TEST_BUILD, operands="none", handler="npm_run", does="runs a project script")


def module_effects(spec: P.Spec, name: str, args: list[Word], eff: Effects) -> None:
    """A ``python -m MODULE`` run of a module the table knows: its spec's rules, then its handler."""
    parsed = apply_spec(spec, args, eff, name)
    fn = HANDLERS.get(spec.handler) if spec.handler is not None else None
    if fn is not None:
        fn(Call(name, args, parsed, eff, [], None, spec))


# -- the entry point -------------------------------------------------------------------------------

def program_effects(name: str, args: list[Word], eff: Effects) -> None:
    """Effects of running table program ``name`` with ``args`` (into ``eff``)."""
    spec = P.spec_for(name)
    if spec is None:
        eff.unknown = name
        return
    if spec.subcommands is None:  # most programs: no subcommand to walk down to
        if spec.handler in _OWN_READERS and _inert(spec):
            parsed = Parsed([], [], -1)  # the generic rules would only add reads, which the handler replaces
        else:
            parsed = apply_spec(spec, args, eff, name)
        if eff.category is None:
            eff.category = spec.category if spec.category is not None else (P.READ_ONLY if spec.readonly else None)
        fn = HANDLERS.get(spec.handler) if spec.handler is not None else None
        if fn is not None:
            fn(Call(name, args, parsed, eff, [], None, spec))
        return
    top_spec = spec
    spec, sub_args, path, top = resolve(spec, args, eff, name)
    if eff.unknown is not None:
        return
    parsed = apply_spec(spec, sub_args, eff, " ".join([name, *path]) if path else name)
    if eff.category is None:
        eff.category = spec.category if spec.category is not None else (P.READ_ONLY if spec.readonly else None)
    call = None
    for hname in (top_spec.handler if top_spec is not spec else None, spec.handler):
        if hname is None:
            continue
        fn = HANDLERS.get(hname)
        if fn is None:
            continue
        if call is None:
            call = Call(name, sub_args, parsed, eff, path, top, spec)
        fn(call)


_OWN_READERS: Final = frozenset({"find"})
"""Handlers that work out the paths read from the arguments themselves (clearing the generic reads) and
never look at the generic parse."""


def _inert(spec: P.Spec) -> bool:
    """Nothing but the operands' reads comes of ``apply_spec`` for ``spec`` (a read-only program, no flags)."""
    return (spec.readonly and not spec.network and not spec.does and spec.operands == "read" and not spec.inplace
            and not spec.readonly_flags and not _option_sets(spec)[1])


__all__ = ["Effects", "FIND_EXEC", "GIT_CODE_KEYS", "apply_spec", "check_handlers",
           "find_exec_end", "find_start_dirs", "git_config_key", "new_effects", "program_effects", "resolve"]
