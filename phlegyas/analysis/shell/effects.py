"""What one invocation does, read off the program table (``shell.programs``).

``effects_of(run)`` turns an invocation into ``Effects``: paths read, written and deleted (as words,
normalized later against the cwd), code executed, network use, uploads, state changes, secrets shown.
Generic rules cover every table entry; the ``handler`` named by an entry covers the syntax that
flags cannot describe (``find`` expressions, ``tar`` modes, ``dd`` operands, git subcommand forms …).
Shells, interpreters and wrappers are dealt with earlier, in ``shell.analyze``, which leaves its
findings on the invocation as notes.
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Callable

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.options import Parsed, parse_options
from phlegyas.analysis.shell.parse import Word

MAIN_BRANCHES = frozenset({"main", "master", "origin/main", "origin/master", "upstream/main", "upstream/master"})
EXEC_ENV_VARS = frozenset({
    "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "BASH_ENV", "ENV",
    "PROMPT_COMMAND", "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "LESSOPEN", "LESSCLOSE", "EDITOR",
    "VISUAL", "GIT_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS",
    "SUDO_ASKPASS", "GIT_PROXY_COMMAND", "GIT_EXEC_PATH", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG", "GIT_TEMPLATE_DIR", "PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB", "NODE_OPTIONS",
    "PYTHONSTARTUP", "PYTHONHOME", "PYTHONINSPECT", "PYTHONBREAKPOINT", "PS4", "SHELLOPTS", "BASHOPTS",
    "IFS", "CDPATH", "GLOBIGNORE", "HISTFILE", "TERMINFO", "ZDOTDIR", "GCONV_PATH", "MALLOC_CHECK_",
    "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "GIT_DIR", "GIT_WORK_TREE",
})
"""Environment variables whose value makes a program run code or load a library of the caller's choice."""
PATH_VARS = frozenset({"PATH"})


@dataclass(slots=True)
class Effects:
    """Everything one invocation does; paths are words as written (normalized by the caller)."""

    reads: list[Word] = field(default_factory=list)
    lists: list[Word] = field(default_factory=list)  # looked at (names, sizes), not read
    writes: list[Word] = field(default_factory=list)
    deletes: list[tuple[Word, bool]] = field(default_factory=list)  # (path, recursive)
    uploads: list[Word] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)  # "executes code (…)", "runs a file: x.sh"
    mutates: list[str] = field(default_factory=list)  # changes that no Tier 2 category covers
    changes: list[str] = field(default_factory=list)  # changes its category expects (git commit, npm install)
    blockers: list[str] = field(default_factory=list)  # why it is not safe although nothing above says so
    secrets: list[str] = field(default_factory=list)  # secrets it shows (a token, a Kubernetes secret)
    network: bool = False
    unknown: str | None = None
    category: str | None = None

    @property
    def readonly(self) -> bool:
        return not (self.writes or self.deletes or self.uploads or self.runs or self.mutates or self.changes
                    or self.unknown is not None)


def new_effects(category: str | None = None) -> Effects:
    """An empty ``Effects`` (built positionally: faster than the dataclass's default factories)."""
    return Effects([], [], [], [], [], [], [], [], [], [], False, None, category)


def _w(text: str) -> Word:
    return Word(text, quoted=True)


# -- the generic rules -----------------------------------------------------------------------------

_OPTION_SETS: dict[int, tuple[frozenset[str], frozenset[str]]] = {}


def _option_sets(spec: P.Spec) -> tuple[frozenset[str], frozenset[str]]:
    """(every option of ``spec`` that takes a value, the flag sets that name files or code included;
    every option ``apply_spec`` does something with, so any other is skipped with one lookup).

    Computed once per table entry: every ``Spec`` is a module-level constant, so its ``id`` is stable."""
    got = _OPTION_SETS.get(id(spec))
    if got is None:
        files = spec.write_flags | spec.upload_flags | spec.data_flags | spec.read_flags | spec.exec_flags
        got = (spec.value_opts | spec.target_opts | files, spec.mutate_flags | spec.inplace_flags | files)
        _OPTION_SETS[id(spec)] = got
    return got


def apply_spec(spec: P.Spec, args: list[Word], eff: Effects, name: str) -> Parsed:
    """Apply the table's generic rules for ``spec`` to ``args``; returns the parsed options."""
    values, notable = _option_sets(spec)
    parsed = parse_options(args, values, spec.whole, spec.posix)
    readonly_mode = bool(spec.readonly_flags) and parsed.has(spec.readonly_flags)
    inplace = spec.inplace and not readonly_mode
    if spec.network:
        eff.network = True
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
        elif opt in spec.upload_flags:
            eff.uploads.append(value)
        elif opt in spec.data_flags:
            _data(value, eff)
        if opt in spec.mutate_flags:
            eff.mutates.append(f"{name} {opt}")
        elif opt in spec.inplace_flags:
            inplace = True
    _operands(spec, parsed, eff, inplace)
    if spec.does and not spec.readonly and not readonly_mode:
        (eff.changes if spec.category else eff.mutates).append(spec.does)
    elif not spec.readonly and not readonly_mode and spec.category is None and not (
            eff.mutates or eff.runs or eff.deletes or eff.writes or eff.uploads):
        eff.mutates.append(f"runs {name}")
    return parsed


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


def _operands(spec: P.Spec, parsed: Parsed, eff: Effects, inplace: bool) -> None:
    ops = parsed.operands
    mode = spec.operands
    if mode == "none" or mode == "urls":
        if mode == "urls":
            _urls(ops, eff)
        return
    if mode == "pattern":
        if not (spec.pattern_opts and parsed.has(spec.pattern_opts)):
            ops = ops[1:]
        mode = "read"
    if not ops and spec.default_operand and (inplace or mode == "write"):
        ops = [_w(spec.default_operand)]
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
            eff.writes.extend(_w(posixpath.basename(o.text.rstrip("/")) or ".") for o in ops)
        eff.reads.extend(sources)
        if mode == "move":
            eff.deletes.extend((s, False) for s in sources)
    elif mode == "delete":
        recursive = bool(spec.recursive_flags) and parsed.has(spec.recursive_flags)
        eff.deletes.extend((o, recursive) for o in ops)
    elif mode == "mode":
        if not parsed.has(("--reference",)):
            ops = ops[1:]
        eff.writes.extend(ops)
    elif mode == "in_out":
        if ops:
            eff.reads.append(ops[0])
        if len(ops) > 1:
            eff.writes.append(ops[1])


def _urls(ops: list[Word], eff: Effects) -> None:
    for op in ops:
        text = op.text
        scheme, sep, _ = text.partition("://")
        if text.startswith("file:"):
            eff.reads.append(Word(text[5:].lstrip("/") and "/" + text[5:].lstrip("/"), op.dynamic))
        elif op.dynamic:
            eff.blockers.append(f"computed URL {text}")
        elif sep and scheme.lower() not in ("http", "https"):
            eff.blockers.append(f"{scheme} URL (not a plain web request)")


# -- subcommands -----------------------------------------------------------------------------------

def resolve(spec: P.Spec, args: list[Word], eff: Effects, name: str) -> tuple[P.Spec, list[Word], list[str], Parsed | None]:
    """Walk down ``spec.subcommands``; returns the final spec, its arguments, the subcommand path and
    the parsed global options of the top level."""
    path: list[str] = []
    top: Parsed | None = None
    while spec.subcommands is not None:
        parsed = parse_options(args, _option_sets(spec)[0], spec.whole, stop_at_operand=True)
        if top is None:
            top = parsed
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


_SCRIPT_SPEC = P.Spec(category=P.TEST_BUILD, operands="none", handler="npm_run", does="runs a project script")


# -- handlers --------------------------------------------------------------------------------------

@dataclass(slots=True)
class Call:
    """What a handler sees."""

    name: str
    args: list[Word]  # after the subcommand path
    parsed: Parsed
    eff: Effects
    path: list[str]
    top: Parsed | None
    spec: P.Spec


Handler = Callable[[Call], None]
HANDLERS: dict[str, Handler] = {}


def handler(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn
    return register


def _ops(c: Call) -> list[str]:
    return [w.text for w in c.parsed.operands]


def _has(c: Call, names: str) -> bool:
    return c.parsed.has(frozenset(names.split()))


def _mutate(c: Call, what: str) -> None:
    c.eff.changes.clear()
    c.eff.mutates.append(what)


def _read_only(c: Call) -> None:
    c.eff.changes.clear()
    c.eff.mutates.clear()
    if c.eff.category is None:
        c.eff.category = P.READ_ONLY


@handler("plus_command")
def _plus_command(c: Call) -> None:
    for op in c.parsed.operands:
        if op.text.startswith("+") and "!" in op.text:
            c.eff.runs.append(f"executes code ({c.name} {op.text})")
            c.eff.reads.remove(op)
        elif op.text.startswith("+"):
            c.eff.reads.remove(op)


@handler("operand_mutates")
def _operand_mutates(c: Call) -> None:
    ops = c.parsed.operands
    limit = 1 if c.name in ("ifconfig", "iwconfig", "route", "arp") else 0
    if len(ops) > limit:
        c.eff.mutates.append(c.spec.does or f"runs {c.name}")


@handler("assign_operand_mutates")
def _assign_operand(c: Call) -> None:
    if any("=" in t for t in _ops(c)):
        c.eff.mutates.append(c.spec.does or "changes settings")


_IP_READ = frozenset({"", "show", "list", "ls", "lst", "sh", "get", "help", "s", "l"})


@handler("ip")
def _ip(c: Call) -> None:
    ops = _ops(c)
    if len(ops) >= 2 and ops[0] == "netns" and ops[1] == "exec":
        c.eff.runs.append("executes a command in a network namespace")
        return
    verb = ops[1] if len(ops) > 1 else ""
    if ops and ops[0] in ("monitor", "mon"):
        return
    if verb not in _IP_READ:
        c.eff.mutates.append("changes network settings")


@handler("curl")
def _curl(c: Call) -> None:
    method = None
    for opt, value in c.parsed.opts:
        if opt in ("-X", "--request") and value is not None:
            method = value.text.upper()
        elif opt in ("-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name"):
            for op in c.parsed.operands or [_w("index.html")]:
                c.eff.writes.append(_w(posixpath.basename(op.text.split("?", 1)[0].rstrip("/")) or "index.html"))
        elif opt == "--url" and value is not None:
            _urls([value], c.eff)
        elif opt in ("-Q", "--quote"):
            c.eff.mutates.append("sends FTP commands")
    if method is not None and method not in ("GET", "HEAD", "OPTIONS"):
        c.eff.mutates.append(f"sends an HTTP {method} request")


@handler("wget")
def _wget(c: Call) -> None:
    p = c.parsed
    if p.has(("--method",)):
        method = (p.values(("--method",)) or [_w("GET")])[-1].text.upper()
        if method not in ("GET", "HEAD"):
            c.eff.mutates.append(f"sends an HTTP {method} request")
    for value in p.values(("-i", "--input-file")):
        c.eff.reads.append(value)
    outputs = p.values(("-O", "--output-document"))
    if outputs or p.has(("--spider", "-P", "--directory-prefix")):
        return
    for op in p.operands:
        c.eff.writes.append(_w(posixpath.basename(op.text.split("?", 1)[0].rstrip("/")) or "index.html"))


@handler("httpie")
def _httpie(c: Call) -> None:
    ops = c.parsed.operands
    method = None
    if ops and ops[0].text.isupper() and ops[0].text.isalpha():
        method, ops = ops[0].text, ops[1:]
    items = ops[1:]
    data = False
    for item in items:
        text = item.text
        for sep in (":=@", "=@", "@"):
            at = text.find(sep)
            if at >= 0 and (sep != "@" or at == 0 or text[at - 1] not in "=:"):
                c.eff.uploads.append(Word(text[at + len(sep):], item.dynamic))
                data = True
                break
        else:
            if "==" in text or (":" in text and "=" not in text):
                continue  # query parameter or header
            if "=" in text:
                data = True
    if c.parsed.has(("-d", "--download")):
        c.eff.writes.append(_w("."))
    method = method or ("POST" if data else "GET")
    if method not in ("GET", "HEAD", "OPTIONS"):
        c.eff.mutates.append(f"sends an HTTP {method} request")


def _is_remote(text: str) -> bool:
    if text.startswith("rsync://") or "::" in text:
        return True
    head, colon, _ = text.partition(":")
    return bool(colon) and bool(head) and "/" not in head and not text.startswith(("/", "./", "~"))


@handler("remote_copy")
def _remote_copy(c: Call) -> None:
    eff = c.eff
    ops = c.parsed.operands
    if len(ops) < 2:
        return
    *sources, target = ops
    remote_target = _is_remote(target.text)
    remote_source = any(_is_remote(s.text) for s in sources)
    if remote_target or remote_source:
        eff.network = True
        eff.reads[:] = [r for r in eff.reads if not _is_remote(r.text)]
        if remote_target:
            eff.writes[:] = [w for w in eff.writes if w is not target]
            eff.uploads.extend(s for s in sources if not _is_remote(s.text))
            eff.mutates.append(f"copies files to {target.text.split(':', 1)[0]}")
    if c.parsed.has(("--delete", "--delete-before", "--delete-after", "--delete-during", "--delete-excluded",
                               "--del")):
        eff.deletes.append((target, True))
    if c.parsed.has(("--remove-source-files",)):
        eff.deletes.extend((s, False) for s in sources)


@handler("mktemp")
def _mktemp(c: Call) -> None:
    if c.parsed.has(("-u", "--dry-run")):
        return
    where = c.parsed.values(("-p", "--tmpdir"))
    ops = c.parsed.operands
    if where:
        c.eff.writes.append(Word(posixpath.join(where[-1].text, "tmp.X"), where[-1].dynamic))
    elif ops and "/" in ops[0].text and not c.parsed.has(("-t",)):
        c.eff.writes.append(ops[0])
    else:
        c.eff.writes.append(_w("/tmp/tmp.X"))


@handler("dd")
def _dd(c: Call) -> None:
    for op in c.parsed.operands:
        key, eq, value = op.text.partition("=")
        if not eq:
            continue
        word = Word(value, op.dynamic, op.glob, op.quoted)
        if key == "if":
            c.eff.reads.append(word)
        elif key == "of":
            c.eff.writes.append(word)


@handler("split")
def _split(c: Call) -> None:
    ops = c.parsed.operands
    prefix = c.parsed.values(("-f", "--prefix"))
    if c.name == "csplit":
        base = prefix[-1].text if prefix else "xx"
        c.eff.reads[:] = ops[:1]
    else:
        base = ops[1].text if len(ops) > 1 else "x"
        c.eff.reads[:] = ops[:1]
    c.eff.writes.append(_w(base + "*"))


# tar: bundled first argument (``tar xzf a.tgz``), modes, and options that run programs.
_TAR_VALUES = frozenset({"-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from",
                         "-b", "--blocking-factor", "-L", "--tape-length", "-N", "--newer", "--after-date",
                         "-K", "--starting-file", "-V", "--label", "-g", "--listed-incremental", "-H", "--format",
                         "--exclude", "--transform", "--xform", "--owner", "--group", "--mode", "--mtime",
                         "--checkpoint-action", "--to-command", "--use-compress-program", "-I", "--info-script",
                         "-F", "--new-volume-script", "--rsh-command", "--rmt-command", "--index-file",
                         "--strip-components", "--suffix", "--backup", "--newer-mtime", "--hole-detection",
                         "--occurrence", "--quoting-style", "--sort", "--warning", "--record-size", "--level"})
_TAR_EXEC = frozenset({"--checkpoint-action", "--to-command", "--use-compress-program", "-I", "--info-script",
                       "-F", "--new-volume-script", "--rsh-command", "--rmt-command"})
_TAR_BUNDLED_VALUES = frozenset("fCTXbLNKVgHI")


def _tar_args(args: list[Word]) -> list[Word]:
    """``tar xzf a.tgz b`` → ``tar -x -z -f a.tgz b`` (the old bundled first argument)."""
    if not args or args[0].text.startswith("-") or not args[0].text.isalpha():
        return args
    letters, rest = args[0].text, list(args[1:])
    out: list[Word] = []
    for ch in letters:
        out.append(_w("-" + ch))
        if ch in _TAR_BUNDLED_VALUES and rest:
            out.append(rest.pop(0))
    return out + rest


@handler("tar")
def _tar(c: Call) -> None:
    eff = c.eff
    parsed = parse_options(_tar_args(c.args), _TAR_VALUES)
    eff.reads.clear()
    names = {n for n, _ in parsed.opts}
    archive = [v for n, v in parsed.opts if n in ("-f", "--file") and v is not None]
    target = [v for n, v in parsed.opts if n in ("-C", "--directory") and v is not None]
    for n, v in parsed.opts:
        if n in _TAR_EXEC:
            eff.runs.append(f"executes code (tar {n})")
        elif n in ("-T", "--files-from", "-X", "--exclude-from") and v is not None:
            eff.reads.append(v)
    if any(_is_remote(a.text) for a in archive):
        eff.network = True
    if names & {"-x", "--extract", "--get"}:
        eff.reads.extend(archive)
        eff.writes.extend(target or [_w(".")])
        if names & {"--to-stdout", "-O"}:
            eff.writes.clear()
    elif names & {"-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate", "--concatenate",
                  "--delete"}:
        eff.writes.extend(a for a in archive if a.text != "-")
        base = target[-1].text if target else None
        eff.reads.extend(Word(posixpath.join(base, o.text), o.dynamic) if base else o for o in parsed.operands)
        if "--remove-files" in names:
            eff.deletes.extend((o, True) for o in parsed.operands)
    else:  # -t / --list, --diff, or nothing recognisable: reads the archive
        eff.reads.extend(archive)


@handler("zip")
def _zip(c: Call) -> None:
    ops = c.parsed.operands
    c.eff.reads[:] = ops[1:]
    if ops:
        c.eff.writes.append(ops[0])
    if c.parsed.has(("-m", "--move")):
        c.eff.deletes.extend((o, True) for o in ops[1:])


@handler("unzip")
def _unzip(c: Call) -> None:
    ops = c.parsed.operands
    c.eff.reads[:] = ops[:1]
    if c.parsed.has(c.spec.readonly_flags):
        return
    c.eff.writes.extend(c.parsed.values(("-d",)) or [_w(".")])


@handler("archive_generic")
def _archive(c: Call) -> None:
    ops = _ops(c)
    eff = c.eff
    eff.reads.clear()
    if c.name == "cpio":
        names = {n for n, _ in c.parsed.opts}
        files = c.parsed.values(("-F", "--file", "-O", "-I"))
        if any(_is_remote(f.text) for f in files):
            eff.network = True
        if names & {"-i", "--extract"}:
            eff.writes.append(_w("."))
        elif names & {"-p", "--pass-through"}:
            eff.writes.extend(c.parsed.operands[:1] or [_w(".")])
        elif names & {"-o", "--create"}:
            eff.writes.extend(f for f in files)
        return
    verb = ops[0].lstrip("-") if ops else ""
    archive = c.parsed.operands[1:2]
    if verb[:1] in ("l", "t", "v", "i", "h", "p") and c.name != "ar" or (c.name == "ar" and verb[:1] in ("t", "p")):
        eff.reads.extend(archive)
    elif verb[:1] in ("x", "e"):
        eff.reads.extend(archive)
        out = [w for n, w in c.parsed.opts if n == "-o" and w is not None]
        eff.writes.extend(out or [_w(".")])
    elif ops:
        eff.writes.extend(archive)


# find: the expression after the start points.
_FIND_VALUES = frozenset({
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname",
    "-type", "-xtype", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-anewer",
    "-cnewer", "-perm", "-user", "-group", "-uid", "-gid", "-links", "-inum", "-maxdepth", "-mindepth",
    "-samefile", "-used", "-fstype", "-context", "-printf", "-regextype", "-files0-from", "-D", "-O",
    "-newerXY", "-newermt", "-newerct", "-newerat", "-newermm", "-since",
})
_FIND_WRITES = {"-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2}
FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def find_exec_end(args: list[Word], i: int) -> int:
    """For ``-exec``/``-ok`` … at ``args[i]``: the index of its ``;``/``+`` (``len(args)`` when missing)."""
    n = len(args)
    j = i + 1
    while j < n and args[j].text not in (";", "+"):
        j += 1
    return j


def find_start_dirs(args: list[Word]) -> tuple[list[Word], int]:
    """The start points of a ``find`` and the index where its expression begins."""
    i = 0
    while i < len(args) and args[i].text in ("-H", "-L", "-P"):
        i += 1
    if i < len(args) and args[i].text in ("-D", "-O") or (i < len(args) and args[i].text.startswith("-O")):
        i += 2 if args[i].text in ("-D", "-O") else 1
    starts: list[Word] = []
    while i < len(args):
        t = args[i].text
        if t.startswith("-") and len(t) > 1 or t in ("(", "!", ",", ")"):
            break
        starts.append(args[i])
        i += 1
    return starts or [_w(".")], i


@handler("find")
def _find(c: Call) -> None:
    eff = c.eff
    eff.reads.clear()
    starts, i = find_start_dirs(c.args)
    eff.reads.extend(starts)
    args = c.args
    n = len(args)
    while i < n:
        t = args[i].text
        if t in FIND_EXEC:
            i = find_exec_end(args, i) + 1  # the command itself is analysed by shell.analyze
            continue
        if t == "-delete":
            eff.deletes.extend((s, True) for s in starts)
        elif t in _FIND_WRITES:
            if i + 1 < n:
                eff.writes.append(args[i + 1])
            i += _FIND_WRITES[t]
        elif t in _FIND_VALUES or t.startswith("-newer"):
            i += 1
        i += 1


@handler("sed")
def _sed(c: Call) -> None:
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


@handler("awk")
def _awk(c: Call) -> None:
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


@handler("editor")
def _editor(c: Call) -> None:
    c.eff.runs.append(f"starts {c.name}, which can run commands")


@handler("system_config")
def _system_config(c: Call) -> None:
    ops = _ops(c)
    names = {n for n, _ in c.parsed.opts}
    read_verbs = {"status", "show", "list", "list-timezones", "list-locales", "list-keymaps", "list-sessions",
                  "list-users", "list-seats", "show-session", "show-user", "--version", "help", "tree", "introspect"}
    if c.name in ("iptables", "ip6tables", "ebtables", "arptables"):
        readonly = bool(names & {"-L", "--list", "-S", "--list-rules"}) and not (
            names & {"-A", "-D", "-I", "-R", "-F", "-X", "-N", "-P", "-Z", "-E", "--append", "--delete", "--insert",
                     "--flush", "--policy", "--zero"})
    elif c.name == "ldconfig":
        readonly = bool(names & {"-p", "--print-cache"})
    elif c.name in ("nft", "ufw", "firewall-cmd"):
        readonly = bool(ops) and ops[0] in ("list", "status", "--list-all", "--state") or bool(
            names & {"--list-all", "--state", "--get-zones", "--list-services"})
    else:
        readonly = not ops or ops[0] in read_verbs
    if readonly:
        _read_only(c)


@handler("service")
def _service(c: Call) -> None:
    ops = _ops(c)
    if c.parsed.has(("--status-all",)) or (len(ops) >= 2 and ops[1] == "status"):
        _read_only(c)


@handler("shell_state")
def _shell_state(c: Call) -> None:
    for op in c.parsed.operands:
        name, eq, value = op.text.partition("=")
        if eq:
            _check_assignment(name, c.eff, Word(value, op.dynamic))


_EXEC_SUFFIXES = ("PAGER", "EDITOR", "VISUAL", "_CMD", "_COMMAND", "SHELL", "_PROGRAM", "_PROG", "_BIN", "_HOOK",
                  "_PRELOAD", "_OPTIONS", "_OPTS", "OPEN", "_EXEC", "_PATH", "_DIR", "_HOME", "_RC", "_LIBS",
                  "_LOADER", "_PLUGINS", "_INIT", "_STARTUP", "_CONFIG")
_HARMLESS_VARS = frozenset({"LANG", "LANGUAGE", "TZ", "TERM", "COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "CI",
                            "DEBUG", "NODE_ENV", "RUST_BACKTRACE", "RUST_LOG", "PYTHONUNBUFFERED",
                            "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "PYTHONWARNINGS", "PYTHONIOENCODING",
                            "PYTHONUTF8", "PYTEST_ADDOPTS", "GOFLAGS", "GOOS", "GOARCH", "CGO_ENABLED", "CARGO_TERM_COLOR",
                            "GIT_TERMINAL_PROMPT", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
                            "GIT_COMMITTER_EMAIL", "DEBIAN_FRONTEND", "HOME", "USER", "LOGNAME", "TMPDIR", "PWD",
                            "SOURCE_DATE_EPOCH", "NPM_CONFIG_LOGLEVEL", "VERBOSE", "LOG_LEVEL", "ENV_NAME", "PORT",
                            "HOST", "PS1", "HISTSIZE", "HISTFILESIZE", "MAKEFLAGS", "JOBS", "NUMBA_DISABLE_JIT"})
_PROJECT_PATH_VARS = frozenset({"PYTHONPATH", "NODE_PATH", "GOPATH", "MANPATH", "PKG_CONFIG_PATH", "RUBYLIB",
                                "PERL5LIB", "CLASSPATH", "GEM_PATH"})


def _check_assignment(name: str, eff: Effects, value: Word | None = None) -> None:
    if name in _HARMLESS_VARS or name.startswith(("LC_",)):
        return
    if name in _PROJECT_PATH_VARS:
        if value is None or not _project_relative(value):
            eff.runs.append(f"executes code (sets {name} outside the project)")
        return
    if name in PATH_VARS:
        eff.blockers.append("changes PATH, so later program names may mean other programs")
    elif name in EXEC_ENV_VARS or name.startswith(("LD_", "DYLD_", "BASH_FUNC_")) or name.endswith(_EXEC_SUFFIXES):
        eff.runs.append(f"executes code (sets {name}, which makes programs run or load code)")


def _project_relative(value: Word) -> bool:
    """``PYTHONPATH=src:.``: every part relative, literal and not climbing out with ``..``."""
    if value.dynamic:
        return False
    return all(p and not p.startswith(("/", "~")) and ".." not in p.split("/") for p in value.text.split(":"))


def assignment_effects(assignments: list[tuple[str, Word]], eff: Effects) -> None:
    """``LD_PRELOAD=x prog``, ``PAGER='sh -c …' git log``: variables that run code."""
    for name, value in assignments:
        _check_assignment(name, eff, value)


@handler("history")
def _history(c: Call) -> None:
    if c.name == "fc":
        if not c.parsed.has(("-l",)):
            c.eff.runs.append("executes code (re-runs commands from the history)")
    elif c.parsed.opts:
        c.eff.mutates.append("changes the shell history")


@handler("npm_run")
def _npm_run(c: Call) -> None:
    ops = c.parsed.operands
    if not ops:
        _read_only(c)
        c.eff.category = P.READ_ONLY
        return
    script = ops[0].text
    first = script.replace("-", ":").replace("_", ":").replace(".", ":").split(":", 1)[0].lower()
    if ops[0].dynamic or (script.lower() not in P.SAFE_SCRIPT_WORDS and first not in P.SAFE_SCRIPT_WORDS):
        c.eff.blockers.append(f"runs the project script {script!r}")


@handler("npm_audit")
def _npm_audit(c: Call) -> None:
    if "fix" in _ops(c):
        c.eff.mutates.append("changes dependencies (npm audit fix)")


@handler("build_goals")
def _build_goals(c: Call) -> None:
    allowed = P.SAFE_GOALS | ({"install"} if c.name in ("mvn", "mvnw") else frozenset())
    for op in c.parsed.operands:
        text = op.text
        if "=" in text and not text.startswith("-"):
            continue  # make VAR=value
        goal = text.rsplit(":", 1)[-1].lower() if c.name in ("gradle", "gradlew") else text.lower()
        if c.name in ("bazel", "bazelisk", "buck", "pants"):
            if text in ("build", "test", "query", "info", "version", "cquery", "aquery", "coverage", "fetch"):
                continue
            if text.startswith(("/", ":", "@", ".")):
                continue
        if op.dynamic or (goal not in allowed and not goal.startswith(("test", "compile", "check", "lint",
                                                                         "build", "assemble"))):
            c.eff.blockers.append(f"runs the build target {text!r}")


_DOCKER_READ = {
    "image": {"ls", "list", "inspect", "history"}, "container": {"ls", "list", "ps", "inspect", "logs", "top", "port",
                                                                "diff", "stats"},
    "network": {"ls", "list", "inspect"}, "volume": {"ls", "list", "inspect"}, "system": {"df", "info", "events"},
    "context": {"ls", "list", "show", "inspect"}, "compose": {"ps", "logs", "config", "ls", "images", "version", "top",
                                                                "port"},
    "buildx": {"ls", "version", "inspect", "du"}, "builder": {"ls", "inspect"}, "plugin": {"ls", "list", "inspect"},
    "secret": {"ls", "inspect"}, "config": {"ls", "inspect"}, "manifest": {"inspect"}, "node": {"ls", "inspect", "ps"},
    "service": {"ls", "inspect", "logs", "ps"}, "stack": {"ls", "ps", "services"}, "swarm": set(), "trust": {"inspect"},
}


@handler("docker_group")
def _docker_group(c: Call) -> None:
    verb = c.parsed.operands[0].text if c.parsed.operands else ""
    group = c.path[-1] if c.path else ""
    if verb in _DOCKER_READ.get(group, ()):
        _read_only(c)
    elif verb == "" and group in ("compose",):
        _read_only(c)


@handler("docker_compose_top")
def _docker_compose_top(c: Call) -> None:
    verb = c.parsed.operands[0].text if c.parsed.operands else ""
    if verb not in _DOCKER_READ["compose"]:
        c.eff.mutates.append("changes containers")


@handler("docker")
def _docker(c: Call) -> None:
    if c.top is not None and c.top.has(("-H", "--host")):
        c.eff.network = True


@handler("kubectl_read")
def _kubectl_read(c: Call) -> None:
    ops = [t.lower() for t in _ops(c)]
    shows = c.parsed.has(("-o", "--output", "--template"))
    if c.path and c.path[-1] == "get" and shows and any(t.startswith("secret") for t in ops):
        c.eff.secrets.append("Kubernetes secrets")


@handler("kubectl_config")
def _kubectl_config(c: Call) -> None:
    ops = _ops(c)
    verb = ops[0] if ops else ""
    if verb in ("view", "get-contexts", "current-context", "get-clusters", "get-users", ""):
        _read_only(c)
        if c.parsed.has(("--raw",)):
            c.eff.secrets.append("kubeconfig credentials")


@handler("tf_state")
def _tf_state(c: Call) -> None:
    ops = _ops(c)
    if ops and ops[0] in ("list", "show", "pull", "select-none") or not ops:
        _read_only(c)


_CLOUD_READ = frozenset({"ls", "list", "describe", "show", "info", "get", "status", "logs", "version", "whoami",
                         "get-value", "get-iam-policy", "cat", "du", "stat", "lookup", "search", "account",
                         "print-settings", "help", "releases", "apps", "domains", "regions", "wait"})
_CLOUD_SECRET_WORDS = ("secret", "password", "credential", "token", "decrypt", "private", "get-login",
                       "print-access", "print-identity", "aws_secret", "key-value")


@handler("cloud")
def _cloud(c: Call) -> None:
    ops = [t.lower() for t in _ops(c)]
    text = " ".join(ops)
    if any(word in text for word in _CLOUD_SECRET_WORDS):
        c.eff.secrets.append(f"{c.name} credentials or secrets")
    if c.name == "aws":
        op = ops[1] if len(ops) > 1 else ""
        readonly = (op.startswith(("describe-", "list-", "get-", "head-", "lookup-", "batch-get-"))
                    or (ops[:1] == ["s3"] and op == "ls") or op in ("wait", "help", "list", "get"))
        if ops[:1] == ["configure"]:
            readonly = op in ("list", "get", "list-profiles")
    else:
        readonly = bool(ops) and any(t in _CLOUD_READ for t in ops[:5]) and not any(
            t in ("create", "delete", "deploy", "destroy", "rm", "cp", "mv", "rsync", "set", "update", "apply",
                  "ssh", "scp", "exec", "run", "login", "logout", "start", "stop", "restart", "put", "patch",
                  "remove", "add", "import", "reset", "resize", "submit", "publish")
            for t in ops[:5])
    if readonly:
        _read_only(c)
        c.eff.category = P.NET_READ


_PKG_READ = frozenset({"list", "search", "show", "info", "policy", "depends", "rdepends", "madison", "outdated",
                       "deps", "leaves", "config", "doctor", "--version", "-v", "version", "help", "history",
                       "provides", "repolist", "repoquery", "query", "changelog", "home", "desc", "uses",
                       "list-installed", "ls", "which", "current", "versions", "check", "--help", "-V", "show-deps",
                       "toolchain-list", "env", "why", "licenses", "audit", "fund", "path", "environment"})
_PKG_PROJECT = {"bundle": {"install", "update", "add", "remove", "lock", "check", "outdated", "list", "show"},
                "bundler": {"install", "update", "add", "remove", "lock"},
                "composer": {"install", "update", "require", "remove", "dump-autoload", "dumpautoload", "validate"},
                "cabal": {"build", "test", "update", "run-tests", "bench", "check"},
                "stack": {"build", "test", "bench", "setup"}}
_PKG_BUILD = frozenset({"build", "test", "bench", "check", "run-tests", "validate"})


@handler("system_pkg")
def _system_pkg(c: Call) -> None:
    eff = c.eff
    names = {n for n, _ in c.parsed.opts}
    ops = _ops(c)
    verb = ops[0] if ops else ""
    if c.name in ("dpkg", "rpm", "pacman", "nix-env"):
        readonly = bool(names & {"-l", "--list", "-L", "--listfiles", "-s", "--status", "-S", "--search", "-p",
                                 "--print-avail", "-c", "--contents", "-I", "--info", "--get-selections", "-q",
                                 "--query", "-V", "--verify", "--print-architecture", "--compare-versions", "-Q",
                                 "--version", "-qa", "--help"})
        readonly = readonly and not (names & {"-i", "--install", "-r", "--remove", "-P", "--purge", "-U", "-e",
                                              "--erase", "-F", "--freshen", "--unpack", "--configure", "-R", "-u",
                                              "--upgrade", "-y", "--sync"})
        if c.name == "pacman" and "-S" in names and not (names & {"-s", "-i", "--search", "--info"}):
            readonly = False
    else:
        readonly = verb in _PKG_READ or (not ops and bool(names & {"--version", "-v", "-V", "--help", "-h"}))
    if readonly:
        _read_only(c)
        eff.network = False
        return
    project = _PKG_PROJECT.get(c.name, ())
    if verb in project:
        _read_only(c)
        eff.category = P.TEST_BUILD if verb in _PKG_BUILD else P.PKG_INSTALL
        eff.changes.append("installs project dependencies" if eff.category == P.PKG_INSTALL else "builds the project")


@handler("runs_code")
def _runs_code(c: Call) -> None:
    names = {n for n, _ in c.parsed.opts}
    if not c.parsed.operands and names and names <= {"--version", "-v", "-V", "-version", "--help", "-h", "-help"}:
        _read_only(c)
        c.eff.category = P.READ_ONLY
        return
    c.eff.mutates.clear()
    c.eff.runs.append(f"executes code ({c.name})")


_TEX_EXEC = frozenset({"--shell-escape", "-shell-escape", "--enable-write18", "-enable-write18", "-R0", "-I",
                       "--filter", "-U", "--unsafe", "-e", "-pdflatex", "-latex", "-lualatex", "-xelatex",
                       "-usepretex"})


@handler("tex")
def _tex(c: Call) -> None:
    for w in c.args:
        if w.text in _TEX_EXEC or w.text.startswith(("-R0", "-I", "--shell-escape", "-pdflatex=", "-latex=",
                                                     "--filter=", "-e")):
            c.eff.runs.append(f"executes code ({c.name} {w.text})")
            break
    for op in list(c.eff.reads):
        if op.text.startswith("\\") or "\\" in op.text:
            c.eff.reads.remove(op)
            c.eff.runs.append("executes code (inline TeX, which can write files or run commands)")


@handler("source")
def _source(c: Call) -> None:
    ops = c.parsed.operands
    if ops and not ops[0].dynamic and ops[0].text.endswith(("bin/activate", "bin/activate.fish", "bin/activate.csh")):
        _read_only(c)
        c.eff.category = P.NAVIGATION
        return
    c.eff.mutates.clear()
    c.eff.runs.append(f"runs a file: {ops[0].text}" if ops else "runs a file")


# git ----------------------------------------------------------------------------------------------

GIT_CODE_KEYS = ("core.pager", "core.sshcommand", "core.editor", "core.fsmonitor", "core.hookspath",
                 "core.askpass", "sequence.editor", "diff.external", "gpg.program", "credential.helper",
                 "core.gitproxy", "pager.")


def git_config_key(text: str) -> str:
    return text.split("=", 1)[0].strip().lower()


@handler("git")
def _git(c: Call) -> None:
    top = c.top
    if top is None:
        return
    for opt, value in top.opts:
        if opt == "-c" and value is not None:
            key = git_config_key(value.text)
            if value.dynamic or not key.startswith(P.GIT_HARMLESS_CONFIG):
                c.eff.runs.append(f"executes code (git -c {key})")
        elif opt in ("--config-env", "--exec-path") and value is not None:
            c.eff.runs.append(f"executes code (git {opt})")
        elif opt in ("--git-dir", "--work-tree", "-C") and value is not None and value.dynamic:
            c.eff.blockers.append(f"git {opt} with a computed path")


def _is_main(text: str) -> bool:
    ref = text.lstrip("+")
    for part in ref.split(":"):
        if part in MAIN_BRANCHES or part.endswith(("/main", "/master")) or part in ("refs/heads/main",
                                                                                     "refs/heads/master"):
            return True
    return False


@handler("git_not_main")
def _git_not_main(c: Call) -> None:
    for op in c.parsed.operands:
        if _is_main(op.text):
            c.eff.blockers.append(f"git {c.path[-1]} of {op.text}")
        elif op.dynamic:
            c.eff.blockers.append(f"git {c.path[-1]} with a computed ref")


@handler("git_checkout")
def _git_checkout(c: Call) -> None:
    new = c.parsed.values(("-b", "-B", "--orphan"))
    ops = c.parsed.operands
    if c.parsed.has(("-f", "--force", "-p", "--patch", "--ours", "--theirs", "-m", "--merge")):
        _mutate(c, "overwrites working-tree changes")
    elif new:
        if any(_is_main(n.text) or n.dynamic for n in new):
            c.eff.blockers.append("creates a main/master branch")
    elif len(ops) == 1 and ops[0].text == "-":
        return
    elif ops and len(ops) == 1 and _is_main(ops[0].text):
        c.eff.blockers.append(f"checks out {ops[0].text}")
    else:
        _mutate(c, "checks out a branch or paths (may discard working-tree changes)")


@handler("git_switch")
def _git_switch(c: Call) -> None:
    new = c.parsed.values(("-c", "--create", "-C", "--force-create", "--orphan"))
    if c.parsed.has(("-f", "--force", "--discard-changes", "-m", "--merge")):
        _mutate(c, "discards working-tree changes")
    targets = new or c.parsed.operands[:1]
    for t in targets:
        if _is_main(t.text) or t.dynamic:
            c.eff.blockers.append(f"switches to {t.text}")


_BRANCH_MUTATE = frozenset({"-d", "-D", "--delete", "-m", "-M", "--move", "-f", "--force", "--edit-description"})
_BRANCH_LIST = frozenset({"-l", "--list", "-a", "--all", "-r", "--remotes", "--contains", "--no-contains", "--merged",
                          "--no-merged", "--points-at", "--show-current", "-v", "-vv", "--verbose"})


@handler("git_branch")
def _git_branch(c: Call) -> None:
    if c.parsed.has(_BRANCH_MUTATE):
        _mutate(c, "deletes, renames or overwrites branches")
    elif c.parsed.has(("-u", "--set-upstream-to", "--unset-upstream", "-c", "-C", "--copy", "-t",
                                 "--track")):
        c.eff.changes.append("changes branches")
        c.eff.category = P.GIT_LOCAL
    elif c.parsed.operands and not c.parsed.has(_BRANCH_LIST):
        c.eff.changes.append("creates a branch")
        c.eff.category = P.GIT_LOCAL
        if any(_is_main(o.text) for o in c.parsed.operands[:1]):
            c.eff.blockers.append("creates a main/master branch")


@handler("git_tag")
def _git_tag(c: Call) -> None:
    listing = c.parsed.has(("-l", "--list", "-n", "--contains", "--no-contains", "--merged", "--no-merged",
                                      "--points-at", "-v", "--verify"))
    if c.parsed.operands and not listing or c.parsed.has(("-d", "--delete", "-f", "--force", "-a", "-s",
                                                                    "-m", "-F")):
        _mutate(c, "creates or deletes tags")


@handler("git_stash")
def _git_stash(c: Call) -> None:
    ops = _ops(c)
    verb = ops[0] if ops else "push"
    if verb in ("list", "show"):
        return
    if verb in ("drop", "clear"):
        _mutate(c, "deletes stashed changes")
    else:
        c.eff.changes.append("stashes or applies changes")
        c.eff.category = P.GIT_LOCAL


@handler("git_remote")
def _git_remote(c: Call) -> None:
    ops = _ops(c)
    if ops and ops[0] not in ("show", "get-url"):
        _mutate(c, "changes git remotes")
        if ops[0] in ("update", "prune"):
            c.eff.network = True


_CONFIG_READ = frozenset({"--get", "--get-all", "--get-regexp", "--list", "-l", "--get-urlmatch", "--get-color",
                          "--get-colorbool", "--show-origin", "--show-scope", "--name-only"})
_CONFIG_WRITE = frozenset({"--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section",
                           "-e", "--edit"})


@handler("git_config")
def _git_config(c: Call) -> None:
    ops = _ops(c)
    if c.parsed.has(("-e", "--edit")) or ops[:1] == ["edit"]:
        c.eff.runs.append("opens an editor")
        return
    if c.parsed.has(_CONFIG_WRITE):
        _mutate(c, "changes git configuration")
    elif ops[:1] in (["get"], ["list"]) or c.parsed.has(_CONFIG_READ) or len(ops) <= 1:
        return
    else:
        _mutate(c, "changes git configuration")


@handler("git_worktree")
def _git_worktree(c: Call) -> None:
    ops = c.parsed.operands
    verb = ops[0].text if ops else "list"
    if verb == "list":
        return
    if verb == "add" and len(ops) > 1:
        c.eff.writes.append(ops[1])
        c.eff.changes.append("adds a worktree")
        c.eff.category = P.GIT_LOCAL
        return
    _mutate(c, "changes worktrees")


@handler("git_restore")
def _git_restore(c: Call) -> None:
    if not (c.parsed.has(("-S", "--staged")) and not c.parsed.has(("-W", "--worktree"))):
        _mutate(c, "discards working-tree changes")


@handler("git_reset")
def _git_reset(c: Call) -> None:
    ops = _ops(c)
    if c.parsed.has(("--hard", "--merge", "--keep")):
        _mutate(c, "discards changes (git reset --hard)")
    elif ops and ops[0] not in ("HEAD", "--") and not c.parsed.has(("-q", "--quiet")) or (
            ops and ops[0] not in ("HEAD", "--")):
        _mutate(c, "moves the branch")


@handler("git_rm")
def _git_rm(c: Call) -> None:
    if not c.parsed.has(("--cached",)):
        _mutate(c, "deletes tracked files")


@handler("git_clean")
def _git_clean(c: Call) -> None:
    if c.parsed.has(("-n", "--dry-run")) and not c.parsed.has(("-f", "--force")):
        _read_only(c)
        c.eff.category = P.GIT_READ


@handler("git_submodule")
def _git_submodule(c: Call) -> None:
    ops = _ops(c)
    verb = ops[0] if ops else "status"
    if verb in ("status", "summary"):
        _read_only(c)
        c.eff.category = P.GIT_READ
    elif verb == "foreach":
        c.eff.runs.append("runs a command in every submodule")
    else:
        c.eff.network = True


# gh -----------------------------------------------------------------------------------------------

_GH_READ = frozenset({"list", "ls", "view", "status", "diff", "checks", "show", "watch", "search", "get"})


@handler("gh")
def _gh(c: Call) -> None:
    return None


@handler("gh_noun")
def _gh_noun(c: Call) -> None:
    ops = _ops(c)
    verb = ops[0] if ops else ""
    if verb in _GH_READ:
        _read_only(c)
        c.eff.category = P.WEB_READ
        if c.parsed.has(("-w", "--web")):
            c.eff.runs.append("opens a browser")
    elif c.path[-1:] == ["gist"] and verb in ("create", "new"):
        c.eff.uploads.extend(c.parsed.operands[1:])


@handler("gh_api")
def _gh_api(c: Call) -> None:
    method = None
    fields = False
    for opt, value in c.parsed.opts:
        if opt in ("-X", "--method") and value is not None:
            method = value.text.upper()
        elif opt in ("-f", "--raw-field", "-F", "--field"):
            fields = True
            if value is not None and "=@" in value.text:
                c.eff.uploads.append(_w(value.text.split("=@", 1)[1]))
        elif opt == "--input" and value is not None:
            c.eff.uploads.append(value)
    method = method or ("POST" if fields else "GET")
    if method not in ("GET", "HEAD"):
        c.eff.mutates.append(f"sends a GitHub API {method} request")
    if any(o.dynamic for o in c.parsed.operands):
        c.eff.blockers.append("computed GitHub API path")


@handler("gh_auth")
def _gh_auth(c: Call) -> None:
    ops = _ops(c)
    if ops[:1] == ["status"]:
        _read_only(c)
        c.eff.category = P.WEB_READ
        if c.parsed.has(("-t", "--show-token")):
            c.eff.secrets.append("a GitHub token")
    elif ops[:1] == ["token"]:
        _read_only(c)
        c.eff.secrets.append("a GitHub token")


@handler("pip_config")
def _pip_config(c: Call) -> None:
    ops = _ops(c)
    if ops[:1] in (["list"], ["get"], ["debug"], ["info"], ["dir"], []):
        _read_only(c)
        c.eff.category = P.READ_ONLY


@handler("npm_cache")
def _npm_cache(c: Call) -> None:
    if _ops(c)[:1] in (["ls"], ["list"], ["verify"], ["npx"]):
        _read_only(c)
        c.eff.category = P.READ_ONLY


@handler("npm_init")
def _npm_init(c: Call) -> None:
    if c.parsed.operands:
        c.eff.category = None
        c.eff.runs.append("runs a package initializer (npm init <initializer>)")
    else:
        c.eff.writes.append(_w("package.json"))


@handler("go_mod")
def _go_mod(c: Call) -> None:
    ops = _ops(c)
    if c.path[-1:] == ["mod"] and ops[:1] in (["graph"], ["why"], ["verify"]):
        _read_only(c)
        c.eff.category = P.READ_ONLY


@handler("uv_python")
def _uv_python(c: Call) -> None:
    ops = _ops(c)
    if ops[:1] in (["list"], ["find"], ["dir"], []):
        _read_only(c)
        c.eff.category = P.READ_ONLY


@handler("database")
def _database(c: Call) -> None:
    return None


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
    parsed = apply_spec(spec, sub_args, eff, name)
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


_OWN_READERS = frozenset({"find"})
"""Handlers that work out the paths read from the arguments themselves (clearing the generic reads) and
never look at the generic parse."""


def _inert(spec: P.Spec) -> bool:
    """Nothing but the operands' reads comes of ``apply_spec`` for ``spec`` (a read-only program, no flags)."""
    return (spec.readonly and not spec.network and not spec.does and spec.operands == "read" and not spec.inplace
            and not spec.readonly_flags and not _option_sets(spec)[1])


def check_handlers() -> list[str]:
    """Handler names used in the table that have no implementation (for the test suite)."""
    missing = []
    for name, spec in P.PROGRAMS.items():
        stack = [spec]
        while stack:
            s = stack.pop()
            if s.handler is not None and s.handler not in HANDLERS and s.handler not in _EXPANSION_HANDLERS:
                missing.append(f"{name}: {s.handler}")
            if s.subcommands:
                stack.extend(s.subcommands.values())
    return missing


_EXPANSION_HANDLERS = frozenset({"trap", "stdin_code", "npx", "uv_run", "uv_tool", "coverage_run", "interp_here",
                                 "yarn_script", "yarn_workspace", "formatter", "cmake", "openssl", "openssl_in"})
"""Handlers that ``shell.analyze`` implements (they expand into other invocations) or that need nothing."""
