"""Text tools whose arguments can carry code: ``less +!cmd``, ``sed -i``/``-f``, awk programs and
``-i inplace``, TeX's shell escapes, and editors or terminal sessions (which can run commands)."""
from __future__ import annotations

from phlegyas.analysis.shell.handlers.base import Call


def plus_command(c: Call) -> None:
    for op in c.parsed.operands:
        if op.text.startswith("+") and "!" in op.text:
            c.eff.runs.append(f"executes code ({c.name} {op.text})")
            c.eff.reads.remove(op)
        elif op.text.startswith("+"):
            c.eff.reads.remove(op)


def sed(c: Call) -> None:
    """``-i`` may carry a suffix (``-i.bak``) or sit in a cluster (``-ni``): look at the raw words."""
    inplace = False
    for w in c.args:
        t = w.text
        if t == "--":
            break
        if t.startswith("--in-place"):
            inplace = True
        elif t.startswith("-") and not t.startswith("--"):
            head = t[1:].split("i", 1)
            if len(head) == 2 and all(ch in "nErsuz" for ch in head[0]):
                inplace = True
    files = c.parsed.values(("-f", "--file"))
    if files:
        eff_files = [f for f in files if f.text not in ("-", "/dev/stdin")]
        if eff_files:
            c.eff.runs.append("executes code (a sed script from a file)")
    if inplace:
        ops = c.parsed.operands if c.parsed.has(c.spec.pattern_opts) else c.parsed.operands[1:]
        c.eff.writes.extend(ops)


def awk(c: Call) -> None:
    for opt, value in c.parsed.opts:
        if opt in ("-f", "--file", "-E", "--exec") and value is not None and value.text not in ("-", "/dev/stdin"):
            c.eff.runs.append("executes code (an awk program from a file)")
        elif opt in ("-i", "--include") and value is not None:
            if value.text == "inplace":
                ops = c.parsed.operands if c.parsed.has(c.spec.pattern_opts) else c.parsed.operands[1:]
                c.eff.writes.extend(o for o in ops if "=" not in o.text)
            else:
                c.eff.runs.append(f"loads awk code ({value.text})")
        elif opt in ("-l", "--load"):
            c.eff.runs.append("loads an awk extension")
    c.eff.reads[:] = [r for r in c.eff.reads if "=" not in r.text or r.text.startswith(("/", "."))]


def editor(c: Call) -> None:
    c.eff.runs.append(f"starts {c.name}, which can run commands")


_TEX_EXEC = frozenset({"--shell-escape", "-shell-escape", "--enable-write18", "-enable-write18", "-R0", "-I",
                       "--filter", "-U", "--unsafe", "-e", "-pdflatex", "-latex", "-lualatex", "-xelatex",
                       "-usepretex"})


def tex(c: Call) -> None:
    for w in c.args:
        if w.text in _TEX_EXEC or w.text.startswith(("-R0", "-I", "--shell-escape", "-pdflatex=", "-latex=",
                                                     "--filter=", "-e")):
            c.eff.runs.append(f"executes code ({c.name} {w.text})")
            break
    for op in list(c.eff.reads):
        if op.text.startswith("\\") or "\\" in op.text:
            c.eff.reads.remove(op)
            c.eff.runs.append("executes code (inline TeX, which can write files or run commands)")
