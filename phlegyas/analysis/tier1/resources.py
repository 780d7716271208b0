"""Exhausting the machine: processes started without end, and the disk filled.

- A loop that never ends (``while true``, ``while :``, ``until false``, ``for ((;;))``) whose body starts
  a background job (``&``) forks until the process table is full: ``process.fork_bomb`` (deny), the class
  of ``:(){ :|:& };:``. A background job in any other loop starts as many processes as the loop turns
  (``for i in $(seq 1 100000); do sleep 100 & done``): ``process.unbounded`` (ask), as is an endless loop
  that nothing in its body leaves (``while true; do mkdir x; cd x; done``). Inline code of an
  interpreter that loops without end (``iter(int, 1)``, ``while True``) asks too.
- An endless stream (``yes``, ``seq inf``, ``cat /dev/zero``, ``dd if=/dev/urandom`` without ``count=``)
  written into a file, through any filter (``yes | tr y n > f``, ``cat /dev/zero | tee f``), fills the
  disk; so do ``dd``, ``fallocate``, ``truncate -s`` and ``head -c`` with a size above 1 GiB:
  ``disk.fill`` (ask). ``yes | head -3``, ``head -c 16 /dev/urandom | xxd`` and ``dd … bs=1M count=10``
  are bounded and pass.
"""
from __future__ import annotations

import re
from typing import Any, Final

from phlegyas.analysis.shell.grammar import bash_parser
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Script
from phlegyas.analysis.tier1.base import Out, add, parse_opts
from phlegyas.analysis.tier1.network import _ENDLESS, _interp_opts
from phlegyas.analysis.tier1.words import is_safe_device, path_of
from phlegyas.analysis.tier1.writes import redirect_writes
from phlegyas.core.analysis import AnalysisEnv

GIB: Final = 1024 ** 3
LIMIT: Final = GIB
"""Above this many bytes a write is a disk fill, not a test file."""
INF: Final = float("inf")

# -- loops that start background jobs ------------------------------------------------------------------

_LOOP_WORD: Final = re.compile(r"(?:^|[\s;&|(){}])(?:while|until|for)(?=[\s(])")
_BACKGROUND: Final = re.compile(r"(?<![&>|<])&(?![&>])")
_TRUE: Final = frozenset({"true", ":", "/bin/true", "/usr/bin/true"})
_FALSE: Final = frozenset({"false", "/bin/false", "/usr/bin/false"})
_ALWAYS: Final = re.compile(r"^(?:\[\[?\s*(?:1|true|-n\s+1|x)\s*\]?\]|\(\(\s*1\s*\)\))$")


_ENDLESS_HEAD: Final = re.compile(r"\b(?:while|until)\s+(?:true|:|false|/bin/true|/usr/bin/true|/bin/false|"
                                  r"\[\[?\s*(?:1|true|-n\s+1|x)\s*\]|\(\(\s*1\s*\)\))|\bfor\s*\(\([^;]*;\s*;")
"""What an endless loop's head starts with: a quick test before the line is parsed again."""
_LEAVES_LOOP: Final = frozenset({"break", "exit", "return", "exec", "kill"})


def background_loops(script: Script, out: Out) -> None:
    """``while true; do sleep 1 & done`` (deny), ``for …; do job & done`` (ask), and an endless loop that
    nothing in its body leaves (``while true; do mkdir x; cd x; done``: ask): see the module docstring."""
    source = script.source
    if "while" not in source and "until" not in source and "for" not in source or not _LOOP_WORD.search(source):
        return  # the substring tests first: most lines have no loop, and the regex costs more than they do
    background = "&" in source and _BACKGROUND.search(source) is not None
    if not background and not _ENDLESS_HEAD.search(source):
        return
    try:
        root = bash_parser().parse(source.encode("utf-8", "surrogatepass")).root_node
    except (ValueError, UnicodeError):
        return
    worst: tuple[bool, str] | None = None
    never_left = ""
    stack: list[Any] = [root]
    seen = 0
    while stack and seen < 20000:
        node = stack.pop()
        seen += 1
        if node.type in ("while_statement", "c_style_for_statement", "for_statement", "select_statement"):
            body = node.child_by_field_name("body")
            if body is not None and _starts_background(body):
                endless = _endless(node)
                if worst is None or endless and not worst[0]:
                    worst = (endless, _text(node))
            elif body is not None and not never_left and _endless(node) and not _leaves(body):
                never_left = _text(node)
        stack.extend(node.children)
    if worst is None:
        if never_left:
            add(out, "process.unbounded", source[:120],
                f"the loop `{never_left[:60]}` never ends and nothing in it leaves it: what it does, it does "
                "without end")
        return
    endless, text = worst
    if endless:
        add(out, "process.fork_bomb", source[:120],
            f"the loop `{text[:60]}` never ends and starts a background job on every turn: a fork bomb")
    else:
        add(out, "process.unbounded", source[:120],
            f"the loop `{text[:60]}` starts a background job on every turn, as many processes as it turns")


def _text(node: Any) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


def _starts_background(body: Any) -> bool:
    """A ``&`` that ends a command somewhere in the loop's body (``x &``, ``(x &)``, ``{ x & }``)."""
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "&":
            return True
        stack.extend(node.children)
    return False


def _leaves(body: Any) -> bool:
    """Whether a command in the loop's body may end the loop (``break``, ``exit``, ``return``) or the
    shell (``exec``, ``kill``), or a condition may (``cmd || break`` is a command like any other)."""
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "command_name" and _text(node) in _LEAVES_LOOP:
            return True
        stack.extend(node.children)
    return False


def _endless(loop: Any) -> bool:
    """``while true``/``:``/``[ 1 ]``/``((1))``, ``until false``, ``for ((…;;…))``: no turn ends the loop."""
    kind = loop.type
    if kind == "c_style_for_statement":
        head = _text(loop).split("))", 1)[0]
        parts = head.split("((", 1)[-1].split(";")
        return len(parts) >= 3 and not parts[1].strip()
    if kind != "while_statement" or not loop.children:
        return False
    keyword = loop.children[0].type
    conditions = [c for c in loop.children[1:] if c.is_named and c.type != "do_group"]
    if len(conditions) != 1:
        return False
    cond = _text(conditions[0]).strip()
    if keyword == "until":
        return cond in _FALSE
    return cond in _TRUE or bool(_ALWAYS.match(cond))


# -- endless inline code -----------------------------------------------------------------------------

_ENDLESS_CODE: Final = re.compile(r"\biter\s*\(\s*int\s*,\s*1\s*\)|\bitertools\s*\.\s*(?:count|cycle)\s*\(|"
                                  r"\bwhile\s*\(?\s*(?:1|true|True)\s*\)?\s*[:{]|\bloop\s*\{|\bfor\s*\(\s*;\s*;\s*\)")
_LEAVES: Final = re.compile(r"\b(?:break|exit|return|die|last|quit|raise|throw)\b|sys\.exit")
"""A way out of the loop (``while (true) { … if (…) break; }``): the code ends when its input does."""


def detect_endless_code(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``python3 -c "…for _ in iter(int, 1)…"``: inline code that loops until memory or disk runs out."""
    opts, code_flags = _interp_opts(inv)
    for code in opts.values(*code_flags):
        if (_ENDLESS_CODE.search(code) or _ENDLESS.search(code)) and not _LEAVES.search(code):
            add(out, "process.unbounded", inv, f"{inv.program} code loops without end (it runs until memory, "
                                               "disk or the process table is exhausted)")
            return


# -- filling the disk ----------------------------------------------------------------------------------

_SIZE: Final = re.compile(r"^[+<>/%]?\s*(\d+(?:\.\d+)?)\s*([kKmMgGtTpPeEzZyY]?)(i?[bB])?$")
_POWERS: Final = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5, "e": 6, "z": 7, "y": 8}


def size_of(text: str) -> float | None:
    """``500G``, ``1GiB``, ``10MB``, ``+100G``, ``4096`` → bytes (``KB``/``MB`` are powers of 1000, ``K``/``KiB``
    of 1024, as coreutils reads them); None when ``text`` is not a size."""
    m = _SIZE.match(text.strip())
    if m is None:
        return None
    number, unit, suffix = float(m.group(1)), m.group(2).lower(), m.group(3) or ""
    base = 1000 if suffix in ("b", "B") and unit else 1024
    return number * base ** _POWERS[unit]


_DD_UNITS: Final = {"c": 1, "w": 2, "b": 512}


def _dd_number(text: str) -> float | None:
    total = 1.0
    for part in text.split("x"):
        if part and part[-1] in _DD_UNITS:
            got: float | None = float(part[:-1]) * _DD_UNITS[part[-1]] if part[:-1].isdigit() else None
        else:
            got = size_of(part)
        if got is None:
            return None
        total *= got
    return total


def shown_size(n: float) -> str:
    if n == INF:
        return "an endless stream"
    return f"{n / GIB:.0f} GiB" if n >= GIB else f"{n / 1024 ** 2:.0f} MiB"


_ENDLESS_DEVICES: Final = frozenset({"/dev/zero", "/dev/urandom", "/dev/random", "/dev/full"})
_FILTERS: Final = frozenset({"cat", "tee", "tr", "base64", "xxd", "od", "hexdump", "gzip", "bzip2", "xz", "zstd", "lz4",
                             "pv", "openssl", "sed", "awk", "rev", "fold", "nl", "cut", "uniq", "strings", "buffer",
                             "mbuffer", "pigz"})


def _operand_texts(inv: Invocation) -> list[str]:
    return [w.text for w in inv.args if not w.text.startswith("-") or w.text == "-"]


def stream_size(inv: Invocation, depth: int = 0) -> float | None:
    """How many bytes ``inv`` writes to its stdout: ``INF`` for an endless stream, a number when it is
    bounded and known, None when unknown (most programs: they end on their own)."""
    if depth > 8:
        return None
    prog = inv.program
    if prog == "yes":
        return INF
    if prog == "seq":
        return INF if any(t.lower().lstrip("+") in ("inf", "infinity") for t in _operand_texts(inv)) else None
    if prog == "dd":
        return _dd_size(inv, depth)
    if prog == "head":
        opts = parse_opts(inv.args, short_values="cn", long_values=frozenset({"--bytes", "--lines"}))
        count = opts.first("-c", "--bytes")
        if count is not None:
            return size_of(count.lstrip("-"))
        return None  # lines: bounded by a count of lines
    if prog in _FILTERS:
        files = [t for t in _operand_texts(inv) if t != "-"]
        if prog == "cat" and files:
            return INF if any(f in _ENDLESS_DEVICES for f in files) else None
        if prog in ("tee", "pv", "cat", "tr", "base64", "xxd", "od", "hexdump", "gzip", "pigz", "rev", "fold",
                    "buffer", "mbuffer") or not files:
            sizes = [stream_size(u, depth + 1) for u in inv.upstream]
            if any(r.op == "<" and r.target is not None and r.target.text in _ENDLESS_DEVICES
                   for r in inv.command.redirects):
                sizes.append(INF)
            return INF if INF in sizes else max((s for s in sizes if s is not None), default=None)
    return None


def _dd_size(inv: Invocation, depth: int) -> float | None:
    values = {}
    for w in inv.args:
        key, eq, value = w.text.partition("=")
        if eq:
            values[key] = value
    block = _dd_number(values.get("bs") or values.get("ibs") or "512")
    count = values.get("count")
    if count is not None:
        n = _dd_number(count)
        if n is None or block is None:
            return None
        return n if "count_bytes" in values.get("iflag", "") else n * block
    source = values.get("if")
    if source is not None:
        return INF if source in _ENDLESS_DEVICES else None
    sizes = [stream_size(u, depth + 1) for u in inv.upstream]
    return INF if INF in sizes else None


def _file_targets(texts: list[str], env: AnalysisEnv) -> list[str]:
    """The files among ``texts`` (not /dev/null or a terminal: writing there fills nothing)."""
    found = []
    for t in texts:
        path = path_of(t, env)
        if path is None or not (path.startswith("/dev/") and (is_safe_device(path) or path.startswith("/dev/fd/"))):
            found.append(t)
    return found


def detect_fill(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """A stream of more than 1 GiB, or an endless one, written into a file; ``fallocate``/``truncate``
    of more than 1 GiB."""
    prog = inv.program
    if prog in ("fallocate", "truncate"):
        opts = parse_opts(inv.args, short_values="lsor" if prog == "fallocate" else "sr",
                          long_values=frozenset({"--length", "--size", "--offset", "--reference"}))
        given = opts.first("-l", "--length") if prog == "fallocate" else opts.first("-s", "--size")
        size = size_of(given) if given is not None else None
        if size is not None and size > LIMIT:
            where = ", ".join(w.text for w in opts.operands) or "a file"
            add(out, "disk.fill", inv, f"{prog} makes {where} {given} large ({shown_size(size)}): it may fill the disk")
        return
    targets = redirect_writes(inv)
    if prog == "tee":
        targets = targets + [w.text for w in parse_opts(inv.args).operands if w.text != "-"]
        size = stream_size(inv)
    elif prog == "dd":
        targets = targets + [w.text[3:] for w in inv.args if w.text.startswith("of=")]
        size = _dd_size(inv, 0)
    elif not targets:
        return  # `cat f | sort`: nothing written here (a file the pipe fills downstream is that command's)
    else:
        size = stream_size(inv)
    if size is None or size <= LIMIT:
        return
    files = _file_targets(targets, env)
    if files:
        add(out, "disk.fill", inv, f"{prog} writes {shown_size(size)} into {files[0]}: it fills the disk")


FILL_PROGRAMS: Final = ("yes", "seq", "dd", "head", "fallocate", "truncate") + tuple(sorted(_FILTERS))
