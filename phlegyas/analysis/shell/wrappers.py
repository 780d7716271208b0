"""Wrappers peeled off a command: ``sudo``, ``env``, ``timeout``, ``ssh host CMD``, ``watch``, ``xargs``,
``parallel`` … (``programs.WRAPPERS``) and runners (``npx``, ``uv run`` … ``programs.RUNNERS``).

A wrapper's own options are read (code it is given, files it writes, what it executes); the command it
wraps is expanded in turn with the wrapper in its ``via``, or parsed as shell code when the wrapper
hands its operands to a shell.
"""
from __future__ import annotations

from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.programs.carriers import CARRIERS as CARRIED
from phlegyas.analysis.programs.wrappers import QUERY_ALONE
from phlegyas.analysis.shell.env_vars import carried_commands
from phlegyas.analysis.shell.expansion import Walk, literal, quote, runs_code, text_of
from phlegyas.analysis.shell.handlers.package_specs import npm_spec, package_name, pip_spec
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.launchers import LAUNCHERS
from phlegyas.analysis.shell.options import parse_options
from phlegyas.analysis.shell.parse import SimpleCommand, Word
from phlegyas.analysis.shell.stdin import stdin_text, substitution_output


def wrapper(ex: Walk, cmd: SimpleCommand, name: str, key: str, args: list[Word], via: tuple[str, ...], depth: int,
            remote: bool, written: str) -> None:
    """A wrapper of ``programs.WRAPPERS``: its own run when it does something itself, then what it wraps."""
    w = P.WRAPPERS[key]
    if key == "xargs":
        _xargs(ex, cmd, args, via, depth, remote)
        return
    if key == "parallel":
        _parallel(ex, cmd, args, via, depth, remote)
        return
    if key in LAUNCHERS:
        LAUNCHERS[key](ex, cmd, name, key, args, via, depth, remote, written)
        return
    odd = _peel(ex, cmd, name, key, w, args, via, depth, remote, written)
    if odd is not None:
        _other_reading(ex, cmd, name, w, odd, args, via, depth, remote)


def _other_reading(ex: Walk, cmd: SimpleCommand, name: str, w: P.Wrapper, odd: str, args: list[Word],
                   via: tuple[str, ...], depth: int, remote: bool) -> None:
    """``nohup --odd X rm -rf ~``: an option phlegyas does not know was read as taking no value; what the
    wrapper runs if it takes one is judged too, so that a wrong guess never hides a deny (the call already
    asks for the unknown option)."""
    values = w.value_opts | w.code_opts | w.split_opts | w.write_opts
    first = parse_options(args, values, stop_at_operand=True)
    other = parse_options(args, values | {odd}, stop_at_operand=True)
    if other.rest < 0 or other.rest == first.rest:
        return
    rest = args[other.rest:][w.leading:]
    if not rest:
        return
    if w.rest_is_code:
        ex.nested(text_of(rest), via + (name,), depth, remote or w.remote)
    else:
        ex.invoke(cmd, rest, via + (name,), depth, remote or w.remote)


def _peel(ex: Walk, cmd: SimpleCommand, name: str, key: str, w: P.Wrapper, args: list[Word], via: tuple[str, ...],
          depth: int, remote: bool, written: str) -> str | None:
    """The wrapper's own run when it does something itself, then what it wraps; the first option it does not
    know, or None."""
    parsed = parse_options(args, w.value_opts | w.code_opts | w.split_opts | w.write_opts, stop_at_operand=True)
    soft = QUERY_ALONE.get(key, frozenset())
    notes: list[tuple[str, str]] = []
    code: list[str] = []
    local_code: list[str] = []  # code the wrapper runs here even when what it wraps runs elsewhere
    interactive = False
    odd = _unknown_option(w, parsed.opts, soft)
    if odd is not None:
        notes.append(("blocks", f"{name} {odd} is an option phlegyas does not know for {name}"))
    for opt, value in parsed.opts:
        if opt in w.read_opts and value is not None:
            notes.append(("reads", value.text))
        if opt in w.query_opts or (opt in soft and parsed.rest < 0):
            run = ex.add(ex.new_run(cmd, name, args, via, depth, remote, written, "query"))
            if run is not None and w.privileged:
                run.notes.append(("privileged", name))
            return odd
        if opt in w.code_opts and value is not None:
            code.append(value.text) if not value.dynamic else ex.problem(f"{name} {opt} with computed code")
        elif opt in w.split_opts and value is not None:
            code.append(value.text) if not value.dynamic else ex.problem(f"{name} {opt} with a computed command")
        elif opt in w.write_opts and value is not None:
            notes.append(("writes", value.text))
        elif opt in w.shell_opts:
            interactive = True
        elif opt in w.exec_opts:
            setting, command = _ssh_setting(value.text) if key in _SSH_LIKE and value is not None else ("", "")
            if key not in _SSH_LIKE or setting in _SSH_COMMANDS:
                notes.append(("executes", f"{name} {opt}"))
            if setting in ("proxycommand", "localcommand", "knownhostscommand") and command:
                if value is not None and value.dynamic:
                    ex.problem(f"{name} {opt} with a computed command")
                else:
                    local_code.append(command)
            elif setting == "remotecommand" and command:
                code.append(command)
    rest = args[parsed.rest:] if parsed.rest >= 0 else []
    lead = w.leading
    leading = rest[:lead]
    rest = rest[lead:]
    if w.leading_writes:
        notes.extend(("writes", x.text) for x in leading)
    if key in _SSH_LIKE and leading:
        notes.append(("network", leading[0].text))
        notes.append(("executes", f"runs commands on {leading[0].text}"))
    elif w.network:
        notes.append(("network", name))
    if rest and rest[0].text.startswith("-") and (w.code_opts or lead):
        more = parse_options(rest, w.value_opts | w.code_opts, stop_at_operand=True)
        for opt, value in more.opts:
            if opt in w.code_opts and value is not None:
                code.append(value.text)
        rest = rest[more.rest:] if more.rest >= 0 else []
    given: list[tuple[str, Word]] = []
    if w.assignments or key in ("sudo", "doas"):
        while rest and "=" in rest[0].text and _env_name(rest[0].text.split("=", 1)[0]):
            var, _, assigned = rest[0].text.partition("=")
            notes.append(("assigns", rest[0].text))  # judged with its value (shell.assignments)
            given.append((var, Word(assigned, rest[0].dynamic, rest[0].glob, rest[0].quoted)))
            rest = rest[1:]
        carried(ex, given, via + (name,), depth, remote)
    inner_via = via + (name,)
    for text in local_code:  # `ssh -o ProxyCommand=CMD`: CMD runs on this machine, whatever else happens
        ex.nested(text, inner_via + (f"{name} -o",), depth, remote)
    as_code = w.rest_is_code and not any(opt in w.argv_flags for opt, _ in parsed.opts)
    need_carrier = bool(notes) or bool(code) or as_code or key in _SSH_LIKE
    if need_carrier or (not rest and not code):
        kind = "builtin" if (rest or code) else ("query" if w.alone == "readonly" and not interactive else "builtin")
        run = ex.add(ex.new_run(cmd, name, args, via, depth, remote, written, kind))
        if run is None:
            return odd
        run.notes.extend(notes)
        if w.privileged:
            run.notes.append(("privileged", name))
        if not rest and not code:
            if interactive or w.alone == "shell" or (key in _SSH_LIKE and leading):
                run.notes.append(("executes", f"starts an interactive shell ({name})"))
                if stdin_text(cmd, ex.ups_of)[0] is not None:  # `sudo -s <<< 'rm -rf /'`: the shell reads it
                    ex.invoke(cmd, [literal("sh")], inner_via, depth, remote or w.remote)
            elif w.alone == "none":
                run.notes.append(("unknown", f"{name} without a command"))
            return odd
    remote_inner = remote or w.remote
    for text in code:
        ex.nested(text if not rest or key not in ("env",) else text + " " + text_of(rest), inner_via, depth,
                  remote_inner)
    if code and key == "env":
        return odd
    if not rest:
        return odd
    if as_code:
        if any(r.dynamic for r in rest):
            ex.problem(f"{name} runs a computed command")
        ex.nested(text_of(rest), inner_via, depth, remote_inner)
    else:
        outer = ex.given
        ex.given = given + outer  # `env PYTEST_ADDOPTS=… pytest`: pytest sees them
        ex.invoke(cmd, rest, inner_via, depth, remote_inner)
        ex.given = outer
    if w.privileged and not need_carrier:  # after the command, which takes the pipe's input (`curl … | sudo sh`)
        run = ex.add(ex.new_run(cmd, name, args, via, depth, remote, written, "builtin"))
        if run is not None:
            run.notes.append(("privileged", name))
    return odd


def _env_name(name: str) -> bool:
    """A name ``env NAME=value`` puts in the environment: an identifier, or an exported bash function
    (``BASH_FUNC_ls%%``, which every child bash defines)."""
    return name.isidentifier() or name.startswith("BASH_FUNC_") and name.rstrip("%()")[10:].replace("-", "_").isidentifier()


_SSH_LIKE: Final = frozenset({"ssh", "mosh", "autossh"})
_SSH_COMMANDS: Final = frozenset({"proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand",
                                  "remotecommand"})


def _ssh_setting(text: str) -> tuple[str, str]:
    """``ProxyCommand=curl … | sh`` or ``ProxyCommand curl …`` (ssh takes both) → (``proxycommand``, the value)."""
    text = text.strip()
    for i, ch in enumerate(text):
        if ch == "=" or ch.isspace():
            return text[:i].lower(), text[i + 1:].lstrip("= \t")
    return text.lower(), ""


def _unknown_option(w: P.Wrapper, opts: list[tuple[str, Word | None]],
                    soft: frozenset[str] = frozenset()) -> str | None:
    """The first of a wrapper's own options that its entry does not list (issue 11: not understood)."""
    for opt, _ in opts:
        if not (opt in w.flags or opt in soft or opt in w.value_opts or opt in w.code_opts or opt in w.split_opts
                or opt in w.write_opts or opt in w.query_opts or opt in w.shell_opts or opt in w.exec_opts):
            return opt
    return None


def carried(ex: Walk, assignments: list[tuple[str, Word]], via: tuple[str, ...], depth: int, remote: bool) -> None:
    """The commands environment variables hand to programs (``GIT_PAGER='sh -c id'``, ``RUSTC_WRAPPER=/tmp/w``,
    a ``GIT_CONFIG_VALUE_n`` of ``core.fsmonitor``): expanded like any code, through the variable."""
    for name, code in carried_commands(assignments):
        ex.nested(code, via + (name,), depth, remote)
    for name, value in assignments:  # `BASH_ENV=<(echo 'rm -rf ~') bash -c …`: every bash sources that file
        if name in ("BASH_ENV", "ENV"):
            t = value.text
            produced = substitution_output("$(" + t[2:]) if t.startswith("<(") and t.endswith(")") else None
            if produced is not None:
                ex.nested(produced, via + (f"{name}={value.text[:40]}",), depth, remote)
            elif not value.dynamic:
                ex.run_written(value.text, via + (name,), depth, remote)


def _xargs(ex: Walk, cmd: SimpleCommand, args: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
    """``xargs CMD``: CMD runs with input items as arguments (``-I {}``: in place of the placeholder)."""
    w = P.WRAPPERS["xargs"]
    parsed = parse_options(args, w.value_opts, stop_at_operand=True)
    replace = None
    for opt, value in parsed.opts:
        if opt in ("-I", "--replace") and value is not None:
            replace = value.text
        elif opt in ("-i", "--replace"):
            replace = "{}"
    rest = args[parsed.rest:] if parsed.rest >= 0 else [literal("echo")]
    notes = [("reads", v.text) for o, v in parsed.opts if o in w.read_opts and v is not None]
    odd = _unknown_option(w, parsed.opts)
    if odd is not None:
        notes.append(("blocks", f"xargs {odd} is an option phlegyas does not know for xargs"))
    arg_file = next((v for o, v in parsed.opts if o in ("-a", "--arg-file")), None)  # items from a file
    if arg_file is not None:  # `xargs -a <(echo /etc) rm -rf`: a process substitution's literal output
        t = arg_file.text
        produced = substitution_output("$(" + t[2:]) if t.startswith("<(") and t.endswith(")") else None
        items = produced.split() if produced is not None and len(produced.split()) <= _MAX_ITEMS else []
    else:
        items = _literal_input(ex, cmd)
    if items:  # `xargs rm -fr <<< /`, `printf '%s\n' / | xargs rm -fr`: the items are known
        if replace:
            rest = [rest[0]] + [Word(r.text.replace(replace, items[0]), r.dynamic, r.glob, r.quoted)
                                for r in rest[1:]] if len(items) == 1 else rest
        else:
            rest = [*rest, *(literal(i) for i in items)]
    start = len(ex.out.runs)
    injected = False
    if replace and runs_code(rest) and replace in text_of(rest[1:]):
        injected = True
        rest = [rest[0]] + [Word(r.text.replace(replace, "$XARGS_ITEM"), r.dynamic, r.glob, r.quoted)
                            for r in rest[1:]]
    ex.invoke(cmd, rest, via + ("xargs",), depth, remote)
    for run in ex.out.runs[start:]:
        run.notes.append(("xargs", replace or ""))
        run.notes.extend(notes)  # xargs's own reads and doubts go with what it runs (no run of its own)
    first = ex.out.runs[start] if len(ex.out.runs) > start else None
    if injected and first is not None:
        first.notes.append(("executes", "input data substituted into code"))
    for value in parsed.values(("-a", "--arg-file")):
        if first is not None:
            first.notes.append(("reads", value.text))


_NAME_SOURCES: Final = frozenset({"find", "fd", "fdfind", "ls", "git", "grep", "egrep", "rg", "ag", "echo", "printf",
                                   "seq", "jq"})
"""Programs whose output, piped to ``xargs``, is names the analysis sees: paths under the start directories
they are given (which ``tier1.secrets`` checks), tracked or matching files, or literal words."""


_NAME_FILTERS: Final = frozenset({"sort", "uniq", "tee", "tr", "head", "tail", "awk", "gawk", "mawk", "sed", "cut",
                                   "grep", "egrep", "fgrep", "file", "basename", "dirname", "realpath", "column",
                                   "xargs", "shuf", "paste", "nl"})
"""Programs that, between a lister and ``xargs``, only select, order or reshape the names they are given."""


def _seen_names(up: Invocation, depth: int) -> bool:
    """Whether what ``up`` prints is names the analysis sees: a lister's output (``grep -l`` included),
    possibly through filters that only reshape it (``find … | sort | xargs``); not a file's lines."""
    prog = up.program
    texts = [w.text for w in up.args]
    if prog in ("grep", "egrep", "rg", "ag") and any(t in ("-l", "-L", "--files-with-matches",
                                                           "--files-without-match", "--files") for t in texts):
        return True
    if prog in _NAME_SOURCES and not up.remote and _names(up):
        return True
    if prog in _NAME_FILTERS and up.upstream and depth < 8:
        return all(_seen_names(u, depth + 1) for u in up.upstream)
    return False


def _names(up: Invocation) -> bool:
    """Whether a ``git`` upstream prints names, not content (``git ls-files``, ``git diff --name-only``)."""
    if up.program != "git":
        return True
    texts = [w.text for w in up.args]
    sub = next((t for t in texts if not t.startswith("-")), "")
    return sub in ("ls-files", "ls-tree") or (sub in ("diff", "log", "show") and bool(
        {"--name-only", "--name-status"} & set(texts))) or sub == "grep" and bool({"-l", "--name-only"} & set(texts))


def xargs_items_unseen(run: Invocation) -> str | None:
    """Where the items come from when ``run`` (a program ``xargs`` runs) is handed names nobody can see:
    a file's lines (``xargs -a list cat``, ``xargs cat < list``, ``cat list | xargs cat``) or another
    program's output (``curl … | xargs cat``); None when they are literal or a lister's (``find . | xargs``)."""
    if run.upstream:
        odd = next((u.program for u in run.upstream if not _seen_names(u, 0)), None)
        return None if odd is None else f"what {odd or 'a command'} prints"
    redirect = next((r for r in run.command.redirects if r.op == "<" and r.fd in (None, "0")), None)
    if redirect is not None and redirect.target is not None:
        return None if stdin_text(run.command, {})[0] is not None else f"the lines of {redirect.target.text}"
    listed = next((w for w in run.command.words[1:] if w.text in ("-a", "--arg-file") or w.text.startswith(
        ("--arg-file=", "-a"))), None)
    return f"the lines of the file {listed.text}" if listed is not None else None


_MAX_ITEMS: Final = 16


def _literal_stdin(ex: Walk, cmd: SimpleCommand) -> str | None:
    """The text ``cmd`` reads when its input is literal (``shell.stdin.stdin_text``: a here-string or heredoc,
    ``< <(echo …)``, a lone ``echo``/``printf`` piped in); None when it is another program's output."""
    return stdin_text(cmd, ex.ups_of)[0]


def _literal_input(ex: Walk, cmd: SimpleCommand) -> list[str]:
    """The items xargs reads from literal input (blank-separated; a ``-0`` list's NULs count as blanks);
    empty when the input is not literal or too long to list."""
    text = _literal_stdin(ex, cmd)
    items = text.split() if text is not None else []
    return items if 0 < len(items) <= _MAX_ITEMS else []


def _literal_lines(ex: Walk, cmd: SimpleCommand) -> list[str]:
    """The lines of literal input (``parallel`` runs each as a command)."""
    text = _literal_stdin(ex, cmd)
    return [x for x in text.splitlines() if x.strip()] if text is not None else []


def _parallel(ex: Walk, cmd: SimpleCommand, args: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> None:
    """``parallel TEMPLATE ::: ITEMS``: the template as shell code, once per literal item (up to 8)."""
    w = P.WRAPPERS["parallel"]
    parsed = parse_options(args, w.value_opts, stop_at_operand=True)
    rest = args[parsed.rest:] if parsed.rest >= 0 else []
    texts = [r.text for r in rest]
    if ":::" in texts:
        at = texts.index(":::")
        template, inputs = rest[:at], [r for r in rest[at + 1:] if r.text not in (":::", "::::")]
    else:
        template, inputs = rest, []
    if not template:
        run = ex.add(ex.new_run(cmd, "parallel", args, via, depth, remote))
        if run is not None:  # None past MAX_RUNS, which is already a problem
            run.notes.append(("executes", "runs commands read from its input"))
        if any(i.dynamic for i in inputs):
            ex.problem("parallel runs computed commands")
        # `parallel ::: 'rm -rf ~'`: with no command, each item is a command; else each input line is one
        lines = [i.text for i in inputs] if inputs else _literal_lines(ex, cmd)
        for line in lines[:8]:  # `echo 'rm -rf ~' | parallel`: each input line is a command
            ex.nested(line, via + ("parallel",), depth, remote)
        return
    base = text_of(template)
    items = [i.text for i in inputs[:8]] if inputs and not any(i.dynamic for i in inputs) else ["$PARALLEL_ITEM"]
    for item in items:
        text = base.replace("{}", quote(item)) if "{}" in base else f"{base} {quote(item)}"
        ex.nested(text, via + ("parallel",), depth, remote)


def runner(ex: Walk, cmd: SimpleCommand, key: str, args: list[Word], via: tuple[str, ...], depth: int,
           remote: bool) -> None:
    """A runner of ``programs.RUNNERS`` (``npx``, ``uv run`` …): its code option, or the tool it runs."""
    r = P.RUNNERS[key]
    parsed = parse_options(args, r.value_opts | r.code_opts | r.package_opts | r.load_opts, stop_at_operand=True)
    inner_via = via + (key,)
    for opt, value in parsed.opts:
        if opt in r.code_opts and value is not None:
            ex.add(ex.new_run(cmd, key.split()[0], args, via, depth, remote, kind="builtin"))
            ex.nested(value.text, inner_via, depth, remote)
            return
    rest = args[parsed.rest:] if parsed.rest >= 0 else []
    if not rest and parsed.opts and all(opt in ("--version", "-v", "--help", "-h") for opt, _ in parsed.opts):
        ex.add(ex.new_run(cmd, key.split()[0], args, via, depth, remote, kind="query"))  # `npx --version`
        return
    why = _runner_options(key, r, parsed.opts, rest[0] if rest and r.fetches else None)
    if why is not None:
        run = ex.add(ex.new_run(cmd, key.split()[0], args, via, depth, remote, kind="builtin"))
        if run is not None:
            run.notes.append(("executes", why))
        if r.fetches and rest and not rest[0].dynamic:  # `uvx --from x sh -c 'rm -rf ~'` still runs that command
            ex.invoke(cmd, [literal(P.canonical(rest[0].text.split("@", 1)[0])), *rest[1:]], inner_via, depth, remote)
        return
    if r.as_python:
        ex.invoke(cmd, [literal("python"), *args], inner_via, depth, remote)
        return
    if rest and "://" in rest[0].text:  # `uv run https://…/setup.py`: a script fetched and run (Tier 1 denies)
        run = ex.add(ex.new_run(cmd, key.split()[0], args, via, depth, remote, kind="builtin"))
        if run is not None:
            run.notes.append(("executes", f"runs code fetched from {rest[0].text[:60]}"))
        return
    if not rest:
        run = ex.add(ex.new_run(cmd, key.split()[0], args, via, depth, remote, kind="builtin"))
        if run is not None:
            run.notes.append(("unknown", f"{key} without a command"))
        return
    if r.fetches:
        tool = rest[0]
        tname = P.canonical(P.resolve_path_program(tool.text.split("@", 1)[0])[0])
        spec = P.spec_for(tname)
        if tool.dynamic or spec is None or spec.category not in (P.TEST_BUILD, P.LINT_FORMAT):
            # a package the gate does not vouch for: never automatic, but what it is asked to do is still
            # judged as the program of that name would be (`npx rimraf ~` deletes the home directory)
            start = len(ex.out.runs)
            if not tool.dynamic and tname and (spec is not None or tname in P.EQUIVALENTS or tname in CARRIED):
                ex.invoke(cmd, [literal(tname), *rest[1:]], inner_via, depth, remote)
            if len(ex.out.runs) == start:
                ex.add(ex.new_run(cmd, tname or tool.text, rest[1:], inner_via, depth, remote, kind="builtin"))
            if len(ex.out.runs) > start:
                ex.out.runs[start].notes.append(("executes", f"downloads and runs the package {tool.text}"))
            return
        rest = [literal(tname), *rest[1:]]
    ex.invoke(cmd, rest, inner_via, depth, remote)


_PYTHON_RUNNERS: Final = ("uvx", "uv ", "pipx ", "poetry ", "pdm ", "hatch ", "rye ", "pipenv ")


def _runner_options(key: str, r: P.Runner, opts: list[tuple[str, Word | None]], tool: Word | None) -> str | None:
    """Why the runner's own options (or the package it fetches) make the call not automatic, or None.

    An option the runner does not list is not understood (``npx --registry URL``); a package option must
    name a plain package of the default index, and the one that provides the tool must be the tool's own
    (``npx -p other tsc`` runs the ``tsc`` of another package); a loaded file must be a plain project path."""
    python = key.startswith(_PYTHON_RUNNERS)
    parse = (lambda text: pip_spec(text, at_versions=True)) if python else npm_spec
    if tool is not None:
        if tool.dynamic:
            return f"{key} runs a computed package {tool.text}"
        got = parse(tool.text)
        if got.kind != "name":
            return f"{key} {tool.text}: {got.why or 'runs a package from a path'}"
    if r.flags is None:
        return None
    for opt, value in opts:
        if opt in r.package_opts:
            if value is None or value.dynamic:
                return f"{key} {opt} with a computed package"
            got = parse(value.text)
            if got.kind != "name":
                return f"{key} {opt} {value.text}: {got.why or 'installs a package from a path'}"
            if opt != "--with" and tool is not None and package_name(value.text) != package_name(tool.text):
                return f"{key} runs {tool.text} from the package {value.text}"
        elif opt in r.load_opts:
            if value is not None and (value.dynamic or value.text.startswith(("/", "~"))
                                      or ".." in value.text.split("/")):
                return f"{key} {opt} {value.text}: loads a file or interpreter outside the project"
        elif opt not in r.flags and opt not in r.value_opts:
            return f"{key} {opt} is an option phlegyas does not know for {key}"
    return None
