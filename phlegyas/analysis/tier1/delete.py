"""Deletion: ``rm``, ``unlink``, ``shred``, ``find -delete``/``-exec rm``, ``rsync --delete``, ``mv`` of
system locations.

A recursive or forced deletion of ``/``, ``~``, the project, a system directory, a glob at one of those
roots, or anything outside the project is denied; a recursive one inside the project asks.
"""
from __future__ import annotations

import os
from typing import Final

from phlegyas.analysis.generated import generated_find, generated_target
from phlegyas.analysis.paths import TEMP_DIRS, is_temp_path
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Word
from phlegyas.analysis.tier1.base import RSYNC_LONG_VALUES, RSYNC_SHORT_VALUES, Opts, Out, add, env_for, parse_opts
from phlegyas.analysis.tier1.disk import is_device, windows_target
from phlegyas.analysis.tier1.words import (
    Target,
    catastrophic,
    glob_base,
    in_project,
    is_safe_device,
    path_of,
    word_targets,
)
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Verdict

_RM_LONG: Final = ("--recursive", "--force", "--dir", "--interactive", "--no-preserve-root", "--preserve-root",
                   "--one-file-system", "--verbose", "--help", "--version")


def _glob_reason(pattern: str, env: AnalysisEnv) -> tuple[str | None, bool]:
    """For a glob: (why it is catastrophic, whether it lies in the project)."""
    base, all_match = glob_base(pattern)
    return contents_reason(base, all_match, env)


def contents_reason(base: str, all_match: bool, env: AnalysisEnv) -> tuple[str | None, bool]:
    """Deleting entries of the directory ``base`` (all of them, or a selection): (why it is
    catastrophic, whether it lies in the project)."""
    if base == env.project_root and not all_match:
        return None, True
    why = catastrophic(base, env)
    if why is not None:
        what = "every entry of " if all_match else "entries of "
        return f"{what}{why}" if not why.startswith(base) else f"{what}{base}", False
    return None, in_project(base, env)


def judge_target(inv: Invocation, t: Target, env: AnalysisEnv, out: Out, *, recursive: bool, forced: bool,
                 verb: str = "deletes", contents: bool | None = None) -> None:
    """Add the finding one deletion target deserves (nothing for a plain delete inside the project).

    ``contents`` says the entries below ``t`` are deleted rather than ``t`` itself: all of them (True)
    or a selection (False), as with ``find DIR -name … -delete``."""
    if t.path is None:
        if recursive or forced:
            add(out, "delete.unknown_target", inv, f"{inv.program} {verb} {t.raw}, a path only known at run time")
        return
    when = f" (when {t.raw} expands to nothing)" if t.dynamic else ""
    how = " recursively" if recursive and verb == "deletes" else ""
    if contents is not None:
        why, inside = contents_reason(t.path, contents, env)
    elif t.glob:
        why, inside = _glob_reason(t.path, env)
    else:
        why = catastrophic(t.path, env)
        inside = in_project(t.path, env)
    if why is not None:
        if recursive or forced or not inside:
            add(out, "delete.catastrophic", inv, f"{inv.program} {verb} {t.path}{how}: {why}{when}")
        return
    if inside:
        if recursive:
            add(out, "delete.in_project", inv, f"{inv.program} {verb} {t.path}{how} inside the project{when}")
        return
    if recursive or forced:
        entries = contents is not None or t.glob
        base = glob_base(t.path)[0] if t.glob else t.path
        if not recursive and not entries and is_temp_path(base) and base not in TEMP_DIRS:
            return  # a named file in a sticky temp directory: only the caller's own can go
        if is_temp_path(base) and (entries or base not in TEMP_DIRS):
            add(out, "delete.temp_dir", inv, f"{inv.program} {verb} {t.path}{how}, in a shared temp directory "
                                             f"outside the project{when}")
        else:
            add(out, "delete.outside_project", inv, f"{inv.program} {verb} {t.path}{how}, outside the project{when}")


def detect_rm(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    opts = parse_opts(inv.args, known_long=_RM_LONG)
    if opts.has("--help", "--version"):
        return
    recursive = opts.has("-r", "-R", "--recursive") or opts.maybe_flags
    forced = opts.has("-f", "--force")
    env = env_for(inv, env)
    operands = [w for w in opts.operands if w.text != "{}"]
    if not operands and (opts.operands or _via(inv, "xargs")):
        _from_stdin(inv, env, out, recursive, forced)
        return
    if opts.has("--no-preserve-root") and recursive:
        add(out, "delete.catastrophic", inv, "rm --no-preserve-root: the one flag whose purpose is deleting /")
    for w in operands:
        if (recursive or forced) and not w.dynamic and (what := windows_target(w.text)) is not None:
            add(out, "delete.catastrophic", inv, f"rm deletes {what} (a Windows path, as Git Bash and MSYS read it)")
            continue
        if generated_target(w.text, w.dynamic, env.cwd, env.home, env.project_root):
            continue  # ``rm -rf node_modules``: a build or an install makes it again (``analysis.generated``)
        for t in word_targets(w, env):
            judge_target(inv, t, env, out, recursive=recursive, forced=forced)


def _via(inv: Invocation, prefix: str) -> bool:
    return any(v.startswith(prefix) for v in inv.via)


def _from_stdin(inv: Invocation, env: AnalysisEnv, out: Out, recursive: bool, forced: bool) -> None:
    """``find … | xargs rm -rf`` or ``find -exec rm {} +``: the targets are whatever find lists."""
    if _via(inv, "find"):
        return  # the find invocation itself is judged by detect_find
    for up in inv.upstream:
        if up.program == "find":
            if all(w.text.startswith("-") for w in inv.args) and generated_find(
                    [(w.text, w.dynamic) for w in up.args], env.cwd, env.home, env.project_root, listing=True):
                return  # ``find . -name __pycache__ | xargs rm -rf``: cache names only (``analysis.generated``)
            for t in _find_roots(up, env):
                judge_target(inv, t, env, out, recursive=True, forced=forced, contents=False)
            return
    if recursive:
        add(out, "delete.unknown_target", inv, f"{inv.program} deletes paths read from its input")


def detect_unlink(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    env = env_for(inv, env)
    for w in inv.args:
        if not w.text.startswith("-"):
            for t in word_targets(w, env):
                judge_target(inv, t, env, out, recursive=False, forced=False)


def detect_shred(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``shred`` destroys content beyond recovery: devices and key files deny, project files ask."""
    opts = parse_opts(inv.args, short_values="ns", long_values=frozenset({"--iterations", "--size",
                                                                         "--random-source"}))
    if opts.has("--help", "--version"):
        return
    env = env_for(inv, env)
    for w in opts.operands:
        for t in word_targets(w, env):
            if t.path is not None and t.path.startswith("/dev/") and not is_safe_device(t.path):
                add(out, "disk.wipe", inv, f"shred overwrites the device {t.path}")
            elif t.path is not None and catastrophic(t.path, env):
                add(out, "disk.wipe", inv, f"shred destroys {catastrophic(t.path, env)}")
            else:
                judge_target(inv, t, env, out, recursive=True, forced=True, verb="shreds")


_TAR_VALUED: Final = frozenset({"-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from"})


def detect_archive_move(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``tar --remove-files`` and ``zip -m`` delete what they archive: judged as ``rm -rf`` of it."""
    texts = [w.text for w in inv.args]
    if inv.program == "tar":
        if "--remove-files" not in texts:
            return
        files: list[Word] = []
        old = bool(texts) and not texts[0].startswith("-")  # `tar cf A F…`: the first word holds the options
        i = 1 + sum(ch in "fCTX" for ch in texts[0]) if old else 0  # each of these letters takes a word
        while i < len(texts):
            text = texts[i]
            takes = text in _TAR_VALUED or text.startswith("-") and not text.startswith("--") and text[-1] in "fCTX"
            if not text.startswith("-"):
                files.append(inv.args[i])
            i += 2 if takes else 1
    else:
        if not any(x in ("-m", "--move") or x.startswith("-") and not x.startswith("--") and "m" in x for x in texts):
            return
        files = [w for w in inv.args if not w.text.startswith("-")][1:]  # zip ARCHIVE FILES…
    env = env_for(inv, env)
    for w in files:
        for t in word_targets(w, env):
            judge_target(inv, t, env, out, recursive=True, forced=True, verb="deletes, after archiving,")


# -- find --------------------------------------------------------------------------------------------

_FIND_DELETERS: Final = frozenset({"rm", "shred", "unlink", "srm"})
_FIND_EXEC: Final = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def _find_roots(inv: Invocation, env: AnalysisEnv) -> list[Target]:
    roots: list[Target] = []
    args = inv.args
    i = 0
    while i < len(args) and (args[i].text in ("-H", "-L", "-P", "-D") or args[i].text.startswith("-O")):
        i += 2 if args[i].text == "-D" else 1  # -D takes a value; -O3 is attached
    for w in args[i:]:
        if w.text.startswith(("-", "(", "!", ",")) or w.text == ")":
            break
        roots.extend(word_targets(w, env))
    return roots or word_targets(Word("."), env)


_FIND_NOT_FILTERS = frozenset({"-delete", "-depth", "-d", "-maxdepth", "-mindepth", "-xdev", "-mount", "-print",
                               "-print0", "-ls", "-follow", "-noleaf", "-ignore_readdir_race", "-exec", "-execdir",
                               "-ok", "-okdir", "-daystart", "-regextype", "-warn", "-nowarn", "-type", "-xtype"})


_FD_VALUES: Final = frozenset({"-d", "--max-depth", "--min-depth", "--exact-depth", "-t", "--type", "-e", "--extension",
                               "-E", "--exclude", "-S", "--size", "--changed-within", "--changed-before", "-o",
                               "--owner", "-j", "--threads", "--max-results", "--base-directory", "--search-path",
                               "-c", "--color", "--batch-size", "--ignore-file", "--format", "--and"})
_FD_EXEC: Final = frozenset({"-x", "--exec", "-X", "--exec-batch"})


def detect_fd(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``fd PATTERN PATH… -x rm -rf`` deletes what it finds under each PATH, as ``find PATH -delete`` does;
    a pattern that matches everything (none, ``.``, ``^``) and no filter is every entry there."""
    texts = [w.text for w in inv.args]
    at = next((i for i, t in enumerate(texts) if t in _FD_EXEC), -1)
    if at < 0 or at + 1 >= len(texts) or texts[at + 1].rsplit("/", 1)[-1] not in _FIND_DELETERS:
        return
    env = env_for(inv, env)
    words: list[Word] = []
    filtered = False
    i = 0
    while i < at:
        t = texts[i]
        if t in _FD_VALUES:
            filtered = filtered or t in ("-e", "--extension", "-S", "--size", "--changed-within", "--changed-before")
            i += 2
            continue
        if not t.startswith("-"):
            words.append(inv.args[i])
        i += 1
    pattern, roots = (words[0].text, words[1:]) if words else ("", [])
    selective = filtered or pattern not in ("", ".", "^", ".*")
    for w in roots or [Word(".")]:
        for root in word_targets(w, env):
            judge_target(inv, root, env, out, recursive=True, forced=True, contents=not selective)


def detect_find(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts = [w.text for w in inv.args]
    deletes = "-delete" in texts
    if not deletes and _FIND_EXEC.isdisjoint(texts):
        return  # neither -delete nor -exec: the commonest find
    for i, t in enumerate(texts):
        if t in _FIND_EXEC and i + 1 < len(texts) and texts[i + 1].rsplit("/", 1)[-1] in _FIND_DELETERS:
            deletes = True
    if not deletes:
        return
    env = env_for(inv, env)
    if generated_find([(w.text, w.dynamic) for w in inv.args], env.cwd, env.home, env.project_root):
        return  # ``find . -name __pycache__ -exec rm -rf {} +``: cache names only (``analysis.generated``)
    selective = any(t.startswith("-") and t not in _FIND_NOT_FILTERS for t in texts)
    for root in _find_roots(inv, env):
        judge_target(inv, root, env, out, recursive=True, forced=True, contents=not selective)


# -- rsync --delete, mv --------------------------------------------------------------------------------

def detect_rsync(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    opts = parse_opts(inv.args, short_values=RSYNC_SHORT_VALUES, long_values=RSYNC_LONG_VALUES)
    deleting = any(f.startswith("--del") for f in opts.flags) or opts.has("--remove-source-files")
    if not deleting or len(opts.operands) < 2 or opts.has("-n", "--dry-run"):
        return
    dest = opts.operands[-1]
    if _is_remote_spec(dest.text):
        return
    env = env_for(inv, env)
    for t in word_targets(dest, env):
        judge_target(inv, t, env, out, recursive=True, forced=True,
                     verb="deletes (whatever the source lacks) in")


def _is_remote_spec(text: str) -> bool:
    head = text.split("/", 1)[0]
    return ":" in head or text.startswith("rsync://")


def detect_mv(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """Moving ``/``, ``~`` or a system location away is as good as deleting it."""
    opts = parse_opts(inv.args, short_values="tSZ", long_values=frozenset({"--target-directory", "--suffix"}))
    names = opts.operands if opts.has("-t", "--target-directory") else opts.operands[:-1]
    env = env_for(inv, env)
    dest = _device_dest(inv, opts, env)
    if dest is not None:
        _thrown_away(inv, names, dest, env, out)
        return
    for w in names:
        for t in word_targets(w, env):
            if t.path is None:
                continue
            why = catastrophic(t.path, env) if not t.glob else _glob_reason(t.path, env)[0]
            if why is not None and not why.startswith("the project's git"):
                add(out, "delete.catastrophic", inv, f"mv moves {t.path} away: {why}")


_STREAM_DEVICES: Final = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty")


def _device_dest(inv: Invocation, opts: Opts, env: AnalysisEnv) -> str | None:
    """The device path (``/dev/…``, not ``/dev/shm``) that ``mv``/``cp``/``ln`` writes onto, or None."""
    given = opts.first("-t", "--target-directory")
    if given is None:
        if len(opts.operands) < 2:
            return None
        given = opts.operands[-1].text
    path = path_of(given, env)
    if path is None or not path.startswith("/dev/") or path.startswith("/dev/shm/") or path == "/dev/shm":
        return None
    return path


def _thrown_away(inv: Invocation, names: list[Word], dest: str, env: AnalysisEnv, out: Out) -> None:
    """``mv SRC /dev/null``: the source is gone, as ``rm -rf SRC`` (a directory) or ``rm SRC`` (a file)
    would delete it; and a device other than a stream (``/dev/zero``, ``/dev/sda``) is overwritten."""
    before = len(out)
    for w in names:
        if generated_target(w.text, w.dynamic, env.cwd, env.home, env.project_root):
            continue  # ``mv build /dev/null``: as ``rm -rf build``, a build makes it again
        for t in word_targets(w, env):
            folder = t.path is None or t.glob or w.text.endswith("/") or os.path.isdir(t.path)
            judge_target(inv, t, env, out, recursive=folder, forced=False, verb="throws away")
            if len(out) == before and t.path is not None and in_project(t.path, env):
                add(out, "delete.in_project", inv, f"mv moves {t.path} onto {dest}: it is thrown away, as rm "
                                                   "would delete it", Verdict.ASK)
            before = len(out)
    device_write(inv, dest, out)


def device_write(inv: Invocation, dest: str, out: Out) -> None:
    """``cp``/``ln -sf``/``mv`` onto ``/dev/zero``, ``/dev/random`` …: the device node is replaced or written,
    a protected path (a real disk is ``disk.wipe``'s, /dev/null and the streams are harmless)."""
    if dest in _STREAM_DEVICES or dest.startswith(("/dev/fd/", "/dev/pts/")) or is_device(dest):
        return
    add(out, "protected.write", inv, f"{inv.program} writes onto the device {dest}, a protected path", Verdict.ASK)


def detect_device_copy(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``cp x /dev/zero``, ``ln -sf x /dev/random``: see ``device_write``. ``cp x /dev/null`` reads only."""
    opts = parse_opts(inv.args, short_values="tSZ", long_values=frozenset({"--target-directory", "--suffix"}))
    dest = _device_dest(inv, opts, env_for(inv, env))
    if dest is not None:
        device_write(inv, dest, out)

