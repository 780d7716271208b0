"""Shell builtins and code runners: ``export``/``declare`` assignments, ``history``/``fc``, ``source``,
and interpreters that only print their version."""
from __future__ import annotations

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.handlers.base import Call, read_only


def shell_state(c: Call) -> None:
    """``export``/``declare``/``local`` … change only this shell: what their assignments hand to the
    commands after them is judged with the whole line in view (``analysis.report`` through
    ``shell.assignments``, which must not import the handlers: it reads options with ``shell.effects``)."""
    return None


def history(c: Call) -> None:
    if c.name == "fc":
        if not c.parsed.has(("-l",)):
            c.eff.runs.append("executes code (re-runs commands from the history)")
    elif c.parsed.opts:
        c.eff.mutates.append("changes the shell history")


def source(c: Call) -> None:
    ops = c.parsed.operands
    if ops and not ops[0].dynamic and ops[0].text.endswith(("bin/activate", "bin/activate.fish", "bin/activate.csh")):
        read_only(c)
        c.eff.category = P.NAVIGATION
        c.eff.loads.append(ops[0])  # a virtualenv of the project: one in /tmp puts its python first on PATH
        return
    c.eff.mutates.clear()
    c.eff.runs.append(f"runs a file: {ops[0].text}" if ops else "runs a file")


def runs_code(c: Call) -> None:
    names = {n for n, _ in c.parsed.opts}
    if not c.parsed.operands and names and names <= {"--version", "-v", "-V", "-version", "--help", "-h", "-help"}:
        read_only(c)
        c.eff.category = P.READ_ONLY
        return
    c.eff.mutates.clear()
    c.eff.runs.append(f"executes code ({c.name})")
