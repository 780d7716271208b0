"""``xargs`` handing literal input to a shell or interpreter as code or arguments.

``xargs -I{} sh -c '{}' <<< 'rm -rf ~'``, ``echo 'rm -rf ~' | xargs -0 sh -c``, ``printf 'rm\\0-rf\\0/' | xargs -0
sh -c '"$@"' _``: when what xargs reads is literal (a here-string, a heredoc, a lone ``echo``/``printf``
upstream), the items are cut as xargs cuts them (lines with ``-I``, NULs with ``-0``, a ``-d`` delimiter,
else blanks and quotes) and the commands it will run are expanded with them, like ``xargs rm`` with
literal input. Any other xargs is left to ``shell.wrappers``.
"""
from __future__ import annotations

import shlex
from typing import Final

from phlegyas.analysis.shell.expansion import Walk, literal, runs_code
from phlegyas.analysis.shell.parse import SimpleCommand, Word
from phlegyas.analysis.shell.stdin import stdin_text

_VALUED: Final = frozenset({"-I", "-d", "-n", "-L", "-P", "-s", "-E", "-a", "--delimiter", "--max-args", "--max-lines",
                            "--max-procs", "--max-chars", "--arg-file", "--process-slot-var"})
_FLAGS: Final = frozenset({"-0", "--null", "-r", "--no-run-if-empty", "-t", "--verbose", "-x", "--exit", "-p",
                           "--interactive", "-o", "--open-tty", "-i"})
_MAX_COMMANDS: Final = 8


def xargs_code(ex: Walk, cmd: SimpleCommand, args: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> bool:
    """Expand ``xargs ARGS`` with literal input into a shell or interpreter; False when this is not that
    case (the input is not literal, an option is not known here, or the command runs no code)."""
    opts: dict[str, str] = {}
    i = 0
    while i < len(args):
        a = args[i]
        t = a.text
        if a.dynamic:
            return False
        if t == "--":
            i += 1
            break
        if not t.startswith("-") or t == "-":
            break
        if t in _FLAGS:
            opts["-0" if t == "--null" else ("-I" if t == "-i" else t)] = "{}" if t == "-i" else ""
            i += 1
            continue
        if t.startswith("--replace"):
            opts["-I"] = t.split("=", 1)[1] if "=" in t else "{}"
            i += 1
            continue
        if t in _VALUED:
            if i + 1 >= len(args) or args[i + 1].dynamic:
                return False
            opts[t] = args[i + 1].text
            i += 2
            continue
        if t[:2] in _VALUED and len(t) > 2:
            opts[t[:2]] = t[2:]
            i += 1
            continue
        if "=" in t and t.split("=", 1)[0] in _VALUED:
            opts[t.split("=", 1)[0]] = t.split("=", 1)[1]
            i += 1
            continue
        return False
    rest = args[i:]
    if not rest or not runs_code(rest) or "-a" in opts or "--arg-file" in opts or any(w.dynamic for w in rest):
        return False
    text, _ = stdin_text(cmd, ex.ups_of)
    if text is None:
        return False
    items = _items(text, opts)
    if items is None:
        return False
    replace = opts.get("-I")
    batches: list[list[Word]] = []
    if replace:
        for item in items[:_MAX_COMMANDS]:
            batches.append([rest[0]] + [Word(w.text.replace(replace, item), False, False, True) for w in rest[1:]])
    else:
        size = opts.get("-n") or opts.get("--max-args") or opts.get("-L") or opts.get("--max-lines") or ""
        step = int(size) if size.isdigit() and int(size) > 0 else max(len(items), 1)
        for k in range(0, max(len(items), 1), step):
            batches.append(rest + [literal(x) for x in items[k:k + step]])
            if len(batches) >= _MAX_COMMANDS:
                break
    for words in batches:
        ex.invoke(cmd, words, via + ("xargs (literal input)",), depth, remote)
    return True


def _items(text: str, opts: dict[str, str]) -> list[str] | None:
    """The items xargs cuts from ``text``; None when it cannot say (unbalanced quotes)."""
    if "-0" in opts:
        return [x for x in text.split("\x00") if x]
    delimiter = opts.get("-d") or opts.get("--delimiter")
    if delimiter:
        sep = "\n" if delimiter == "\\n" else ("\t" if delimiter == "\\t" else delimiter[:1])
        return [x for x in text.split(sep) if x]
    if "-I" in opts:
        return [line.lstrip(" \t") for line in text.split("\n") if line.strip(" \t")]
    try:
        return shlex.split(text.replace("\x00", " "))
    except ValueError:
        return None
