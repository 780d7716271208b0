"""Archivers: ``tar`` (bundled first argument, modes, options that run programs), ``zip``/``unzip``,
and the verb-letter archivers (``7z``, ``ar``, ``cpio`` …)."""
from __future__ import annotations

import posixpath
from typing import Final

from phlegyas.analysis.shell.effect_types import literal
from phlegyas.analysis.shell.handlers.base import Call, is_remote, operand_texts
from phlegyas.analysis.shell.options import parse_options
from phlegyas.analysis.shell.parse import Word

# tar: bundled first argument (``tar xzf a.tgz``), modes, and options that run programs.
_TAR_VALUES = frozenset({"-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from",
                         "-b", "--blocking-factor", "-L", "--tape-length", "-N", "--newer", "--after-date",
                         "-K", "--starting-file", "-V", "--label", "-g", "--listed-incremental", "-H", "--format",
                         "--exclude", "--transform", "--xform", "--owner", "--group", "--mode", "--mtime",
                         "--checkpoint-action", "--to-command", "--use-compress-program", "-I", "--info-script",
                         "-F", "--new-volume-script", "--rsh-command", "--rmt-command", "--index-file",
                         "--strip-components", "--suffix", "--backup", "--newer-mtime", "--hole-detection",
                         "--occurrence", "--quoting-style", "--sort", "--warning", "--record-size", "--level"})
_TAR_EXEC: Final = frozenset({"--checkpoint-action", "--to-command", "--use-compress-program", "-I", "--info-script",
                              "-F", "--new-volume-script", "--rsh-command", "--rmt-command"})
_TAR_BUNDLED_VALUES: Final = frozenset("fCTXbLNKVgHI")


def _tar_args(args: list[Word]) -> list[Word]:
    """``tar xzf a.tgz b`` → ``tar -x -z -f a.tgz b`` (the old bundled first argument)."""
    if not args or args[0].text.startswith("-") or not args[0].text.isalpha():
        return args
    letters, rest = args[0].text, list(args[1:])
    out: list[Word] = []
    for ch in letters:
        out.append(literal("-" + ch))
        if ch in _TAR_BUNDLED_VALUES and rest:
            out.append(rest.pop(0))
    return out + rest


def tar(c: Call) -> None:
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
    if any(is_remote(a.text) for a in archive):
        eff.network = True
    if names & {"-x", "--extract", "--get"}:
        eff.reads.extend(archive)
        eff.writes.extend(target or [literal(".")])
        _members(parsed.operands, eff)  # `tar -xOf ~/backups/home.tar ./.ssh/id_rsa`: the member is what is read
        if names & {"--to-stdout", "-O"}:
            eff.writes.clear()
        elif any(_outside_archive(a.text) for a in archive):  # `tar -xf ~/Downloads/patch.tar`: unseen files land
            eff.blockers.append(f"tar unpacks {archive[0].text}, an archive from outside the project, over it")
    elif names & {"-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate", "--concatenate",
                  "--delete"}:
        eff.writes.extend(a for a in archive if a.text != "-")
        base = target[-1].text if target else None
        eff.reads.extend(Word(posixpath.join(base, o.text), o.dynamic) if base else o for o in parsed.operands)
        if "--remove-files" in names:
            eff.deletes.extend((o, True) for o in parsed.operands)
    else:  # -t / --list, --diff, or nothing recognisable: reads the archive
        eff.reads.extend(archive)


def zip_(c: Call) -> None:
    ops = c.parsed.operands
    c.eff.reads[:] = ops[1:]
    if ops:
        c.eff.writes.append(ops[0])
    if c.parsed.has(("-m", "--move")):
        c.eff.deletes.extend((o, True) for o in ops[1:])


def unzip(c: Call) -> None:
    ops = c.parsed.operands
    c.eff.reads[:] = ops[:1]
    _members(ops[1:], c.eff)  # `unzip -p export.zip credentials.json`: that member is read
    if c.parsed.has(c.spec.readonly_flags):
        return
    if ops and _outside_archive(ops[0].text):
        c.eff.blockers.append(f"unzip unpacks {ops[0].text}, an archive from outside the project, over it")
    c.eff.writes.extend(c.parsed.values(("-d",)) or [literal(".")])


def _members(names: list[Word], eff) -> None:
    """Members named in an archive are read as files of those names would be (by their names only: the
    directory is the archive's, so ``./.ssh/id_rsa`` and ``credentials.json`` are judged as such names)."""
    for w in names:
        name = w.text.removeprefix("./")
        if not w.text.startswith("-"):  # a home's secret directory in the archive: read as the home's own
            home = name.startswith((".ssh/", ".aws/", ".gnupg/", ".kube/", ".docker/", ".config/gh/"))
            eff.reads.append(Word("~/" + name if home else w.text, w.dynamic, w.glob, w.quoted))


def _outside_archive(text: str) -> bool:
    return text.startswith(("/", "~", "$HOME", "..")) and not text.startswith(("/tmp/", "./"))


def archive_generic(c: Call) -> None:
    ops = operand_texts(c)
    eff = c.eff
    eff.reads.clear()
    if c.name == "cpio":
        names = {n for n, _ in c.parsed.opts}
        files = c.parsed.values(("-F", "--file", "-O", "-I"))
        if any(is_remote(f.text) for f in files):
            eff.network = True
        if names & {"-i", "--extract"}:
            eff.writes.append(literal("."))
        elif names & {"-p", "--pass-through"}:
            eff.writes.extend(c.parsed.operands[:1] or [literal(".")])
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
        eff.writes.extend(out or [literal(".")])
    elif ops:
        eff.writes.extend(archive)
        eff.reads.extend(c.parsed.operands[2:])  # `7z a out.7z ~/.aws`: what goes into it is read
