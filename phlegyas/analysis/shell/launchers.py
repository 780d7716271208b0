"""Wrappers whose command is not simply "the words after the options": ``su`` (a user, then the shell's
own arguments, options anywhere), ``script`` (a log file, then ``-c CMD`` or, on BSD, an argv), ``capsh``
(``-- ARGS`` are bash's arguments), ``bwrap`` (options with two values), ``start-stop-daemon`` (the
program is the ``--exec`` value, its arguments follow ``--``).

Each finds the command the way the program reads its arguments and hands it back to the walk, so it gets
the verdict it gets written plainly; the program's own run says what it does itself (a privilege change, a
sandbox, a log file), so that the call is never automatic because of the wrapper.
"""
from __future__ import annotations

from typing import Callable, Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.expansion import Walk, literal
from phlegyas.analysis.shell.options import parse_options
from phlegyas.analysis.shell.parse import SimpleCommand, Word

Launcher = Callable[[Walk, SimpleCommand, str, str, list[Word], tuple[str, ...], int, bool, str], None]


def _own_run(ex: Walk, cmd: SimpleCommand, name: str, args: list[Word], via: tuple[str, ...], depth: int,
             remote: bool, written: str, notes: list[tuple[str, str]], privileged: bool) -> None:
    run = ex.add(ex.new_run(cmd, name, args, via, depth, remote, written, "builtin"))
    if run is None:  # past MAX_RUNS, which is already a problem
        return
    run.notes.extend(notes)
    if privileged:
        run.notes.append(("privileged", name))


def _unknown(name: str, w: P.Wrapper, opts: list[tuple[str, Word | None]]) -> list[tuple[str, str]]:
    known = w.flags | w.value_opts | w.code_opts | w.write_opts | w.query_opts | w.shell_opts
    for opt, _ in opts:
        if opt not in known:
            return [("blocks", f"{name} {opt} is an option phlegyas does not know for {name}")]
    return []


def _code(ex: Walk, value: Word, what: str, via: tuple[str, ...], depth: int, remote: bool) -> None:
    if value.dynamic:
        ex.problem(f"{what} with computed code")
    ex.nested(value.text, via, depth, remote)


def su(ex: Walk, cmd: SimpleCommand, name: str, key: str, args: list[Word], via: tuple[str, ...], depth: int,
       remote: bool, written: str) -> None:
    """``su [-] [USER [ARG…]]`` with options anywhere (util-linux permutes them): ``-c CMD`` is shell code,
    ``-`` is ``--login``, and the words after the user are the shell's own arguments (``su bob -- -c CMD``);
    ``runuser -u USER [--] CMD…`` runs an argv."""
    w = P.WRAPPERS[key]
    values = w.value_opts | w.code_opts
    inner_via = via + (name,)
    if key == "runuser" and any(a.text in ("-u", "--user") or a.text.startswith("--user=") for a in args):
        parsed = parse_options(args, values, stop_at_operand=True)
        notes = _unknown(name, w, parsed.opts)
        argv = args[parsed.rest:] if parsed.rest >= 0 else []
    else:
        parsed = parse_options(args, values)
        notes = _unknown(name, w, parsed.opts)
        operands = list(parsed.operands)
        while operands and operands[0].text == "-" and not operands[0].quoted:
            operands = operands[1:]
        shell = [v for v in parsed.values(("-s", "--shell"))][-1:] or [literal("sh")]
        argv = shell + operands[1:] if len(operands) > 1 else []
    codes = parsed.values(w.code_opts)
    if not codes and not argv:
        notes.append(("executes", f"starts an interactive shell ({name})"))
    _own_run(ex, cmd, name, args, via, depth, remote, written, notes, True)
    for value in codes:
        _code(ex, value, f"{name} -c", inner_via, depth, remote)
    if argv:
        ex.invoke(cmd, argv, inner_via, depth, remote)


def script(ex: Walk, cmd: SimpleCommand, name: str, key: str, args: list[Word], via: tuple[str, ...], depth: int,
           remote: bool, written: str) -> None:
    """``script [opts] [FILE] [opts]``: ``-c CMD`` may follow the log file (util-linux permutes), and BSD's
    ``script [-q] FILE CMD…`` runs the words after the file as an argv."""
    w = P.WRAPPERS[key]
    values = w.value_opts | w.code_opts | w.write_opts
    first = parse_options(args, values, stop_at_operand=True)
    opts = list(first.opts)
    rest = args[first.rest:] if first.rest >= 0 else []
    log = rest[0] if rest else None
    rest = rest[1:]
    if rest and rest[0].text.startswith("-"):
        more = parse_options(rest, values, stop_at_operand=True)
        opts.extend(more.opts)
        rest = rest[more.rest:] if more.rest >= 0 else []
    notes = _unknown(name, w, opts)
    if log is not None and log.text != "/dev/null":
        notes.append(("writes", log.text))
    notes.extend(("writes", v.text) for o, v in opts if o in w.write_opts and v is not None)
    codes = [v for o, v in opts if o in w.code_opts and v is not None]
    notes.append(("executes", f"starts an interactive shell ({name})") if not codes and not rest
                 else ("executes", f"{name} runs a command in a new terminal (judged on its own)"))
    _own_run(ex, cmd, name, args, via, depth, remote, written, notes, False)
    for value in codes:
        _code(ex, value, f"{name} -c", via + (name,), depth, remote)
    if rest:
        ex.invoke(cmd, rest, via + (name,), depth, remote)


def capsh(ex: Walk, cmd: SimpleCommand, name: str, key: str, args: list[Word], via: tuple[str, ...], depth: int,
          remote: bool, written: str) -> None:
    """``capsh [--OPT=VALUE …] -- ARGS``: bash runs with ARGS (``-- -c CMD``); ``== ARGS`` runs capsh again."""
    notes: list[tuple[str, str]] = []
    texts = [a.text for a in args]
    cut = next((i for i, t in enumerate(texts) if t in ("--", "==")), -1)
    for t in texts[:cut if cut >= 0 else len(texts)]:
        if not t.startswith("--"):
            notes.append(("blocks", f"{name} {t} is an argument phlegyas does not know for {name}"))
            break
    if cut < 0:
        notes.append(("executes", f"{name} changes capabilities and runs nothing phlegyas can read"))
        _own_run(ex, cmd, name, args, via, depth, remote, written, notes, True)
        return
    notes.append(("executes", f"{name} runs bash with the arguments after {texts[cut]}"))
    _own_run(ex, cmd, name, args, via, depth, remote, written, notes, True)
    rest = args[cut + 1:]
    if texts[cut] == "==":
        capsh(ex, cmd, name, key, rest, via + (name,), depth, remote, written)
    else:
        ex.invoke(cmd, [literal("bash"), *rest], via + (name,), depth, remote)


_BWRAP_TWO = frozenset({"--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind", "--ro-bind-try",
                        "--symlink", "--setenv", "--file", "--bind-data", "--ro-bind-data", "--chmod", "--bind-fd",
                        "--ro-bind-fd"})
_BWRAP_ONE = frozenset({"--args", "--argv0", "--uid", "--gid", "--hostname", "--chdir", "--unsetenv", "--lock-file",
                        "--sync-fd", "--remount-ro", "--exec-label", "--file-label", "--proc", "--dev", "--tmpfs",
                        "--mqueue", "--dir", "--seccomp", "--add-seccomp-fd", "--block-fd", "--userns-block-fd",
                        "--info-fd", "--json-status-fd", "--cap-add", "--cap-drop", "--perms", "--size", "--userns",
                        "--userns2", "--pidns", "--overlay-src", "--overlay", "--tmp-overlay", "--ro-overlay"})
_BWRAP_NONE = frozenset({"--unshare-all", "--share-net", "--unshare-user", "--unshare-user-try", "--unshare-ipc",
                         "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup", "--unshare-cgroup-try",
                         "--die-with-parent", "--as-pid-1", "--new-session", "--clearenv", "--disable-userns",
                         "--assert-userns-disabled", "--level-prefix", "--help", "--version"})


def bwrap(ex: Walk, cmd: SimpleCommand, name: str, key: str, args: list[Word], via: tuple[str, ...], depth: int,
          remote: bool, written: str) -> None:
    """``bwrap [--bind SRC DST …] CMD ARG…``: options take zero, one or two values; the first other word is the
    command (judged as running here: a bind shows it the host's files)."""
    notes: list[tuple[str, str]] = [("executes", f"{name} runs a command in a sandbox (judged on its own)")]
    i, n = 0, len(args)
    while i < n:
        t = args[i].text
        if t == "--":
            i += 1
            break
        if not t.startswith("--"):
            break
        if t in _BWRAP_TWO:
            i += 3
        elif t in _BWRAP_ONE:
            i += 2
        else:
            if t not in _BWRAP_NONE:
                notes.append(("blocks", f"{name} {t} is an option phlegyas does not know for {name}"))
            i += 1
    _own_run(ex, cmd, name, args, via, depth, remote, written, notes, False)
    if i < n:
        ex.invoke(cmd, args[i:], via + (name,), depth, remote)


_SSD_VALUES = frozenset({"-x", "--exec", "-a", "--startas", "-n", "--name", "-u", "--user", "-p", "--pidfile",
                         "-c", "--chuid", "-r", "--chroot", "-d", "--chdir", "-N", "--nicelevel", "-P", "--procsched",
                         "-I", "--iosched", "-k", "--umask", "-s", "--signal", "-R", "--retry", "-g", "--group",
                         "-O", "--output", "--ppid", "--notify-timeout"})


def start_stop_daemon(ex: Walk, cmd: SimpleCommand, name: str, key: str, args: list[Word], via: tuple[str, ...],
                      depth: int, remote: bool, written: str) -> None:
    """``start-stop-daemon --start --exec PROG -- ARG…``: PROG (or ``--startas``) runs with the words after
    ``--``; ``--stop`` and ``--status`` signal or look at processes."""
    parsed = parse_options(args, _SSD_VALUES)
    start = parsed.has(("-S", "--start"))
    program = (parsed.values(("-a", "--startas")) or parsed.values(("-x", "--exec")))[-1:]
    notes: list[tuple[str, str]] = [("executes", f"{name} starts or signals a daemon")]
    _own_run(ex, cmd, name, args, via, depth, remote, written, notes, True)
    if start and program:
        ex.invoke(cmd, [*program, *parsed.operands], via + (name,), depth, remote)


LAUNCHERS: Final[dict[str, Launcher]] = {"su": su, "runuser": su, "script": script, "capsh": capsh, "bwrap": bwrap,
                                         "start-stop-daemon": start_stop_daemon}
"""The wrappers of ``programs.WRAPPERS`` whose command is found by a function of this module."""
