"""Disk and filesystem wipes (``mkfs``, ``dd of=/dev/…``, ``wipefs``, partition editors, ``blkdiscard``)
and permission changes on system locations (``chmod``/``chown``/``chgrp -R /``, setuid bits)."""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.paths import is_system_path, is_within, sensitive_reason
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Word
from phlegyas.analysis.tier1.base import RUNS_ANYTHING, Out, add, env_for, parse_opts, piped_text
from phlegyas.analysis.tier1.words import catastrophic, in_project, is_safe_device, word_targets
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Verdict

_INFO_FLAGS: Final = frozenset({"--help", "-h", "--version", "-V"})


def _info_only(inv: Invocation) -> bool:
    return bool(inv.args) and all(w.text in _INFO_FLAGS for w in inv.args)


def is_device(path: str | None) -> bool:
    """A device node whose overwrite destroys data (not /dev/null, ttys or /dev/tcp sockets)."""
    return path is not None and path.startswith("/dev/") and not is_safe_device(path) \
        and not path.startswith(("/dev/tcp/", "/dev/udp/", "/dev/shm/"))


def detect_mkfs(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``mkfs*``, ``mke2fs``, ``mkswap``: a new filesystem erases what the target held."""
    if _info_only(inv):
        return
    env = env_for(inv, env)
    operands = [w for w in inv.args if not w.text.startswith("-")]
    targets = [t for w in operands for t in word_targets(w, env)]
    devices = [t.path for t in targets if t.path is None or is_device(t.path)]
    image = next((t.path for t in targets if t.path and in_project(t.path, env)), None)
    if image and not devices:
        add(out, "disk.wipe", inv, f"{inv.program} formats the image file {image}", Verdict.ASK)
        return
    where = devices[0] if devices and devices[0] else (targets[-1].path if targets else None)
    add(out, "disk.wipe", inv, f"{inv.program} creates a filesystem on {where or 'a device'}, erasing it")


def detect_dd(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    env = env_for(inv, env)
    for w in inv.args:
        if w.text.startswith("of="):
            for t in word_targets(Word(w.text[3:], w.dynamic, w.glob, w.quoted), env):
                if t.path is None:
                    add(out, "disk.wipe", inv, f"dd writes to {w.text[3:]}, only known at run time", Verdict.ASK)
                elif is_device(t.path):
                    add(out, "disk.wipe", inv, f"dd overwrites the device {t.path}")
                elif catastrophic(t.path, env) and not in_project(t.path, env):
                    add(out, "disk.wipe", inv, f"dd overwrites {catastrophic(t.path, env)}")


def detect_wipefs(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    opts = parse_opts(inv.args, short_values="otpb", long_values=frozenset({"--offset", "--types"}))
    if opts.has("-n", "--no-act") or not opts.has("-a", "--all", "-o", "--offset"):
        return  # without -a/-o wipefs only lists signatures
    add(out, "disk.wipe", inv, f"wipefs erases filesystem signatures on {_first_operand(opts) or 'a device'}")


def _first_operand(opts) -> str | None:
    return opts.operands[0].text if opts.operands else None


_PART_READONLY = {
    "fdisk": frozenset({"-l", "--list", "-s", "--getsz", "-v", "-V", "--version", "-h", "--help", "-x", "--list-details"}),
    "gdisk": frozenset({"-l", "-v", "-h", "--help"}),
    "cfdisk": frozenset({"-h", "--help", "-V", "--version"}),
    "sfdisk": frozenset({"-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size", "-V", "--verify",
                         "-g", "--show-geometry", "-F", "--list-free", "-h", "--help", "-v", "--version",
                         "-r", "--reorder-dry-run"}),
    "sgdisk": frozenset({"-p", "--print", "-i", "--info", "-v", "--verify", "-O", "--print-mbr", "-L",
                         "--list-types", "-V", "--version", "-?", "--help", "-b", "--backup"}),
}
_PARTED_WRITES: Final = frozenset({"mklabel", "mktable", "mkpart", "mkpartfs", "rm", "resize", "resizepart", "rescue",
                                   "mkfs", "name", "set", "toggle", "disk_set", "disk_toggle", "cp", "move"})


def detect_partition(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """Partition editors: read-only listings pass; anything else rewrites a partition table."""
    prog = inv.program
    texts = [w.text for w in inv.args]
    if prog == "parted":
        if any(t in ("-l", "--list", "-h", "--help", "-v", "--version") for t in texts):
            return
        rest = [t for t in texts if not t.startswith("-")][1:]
        if rest and not any(t.lower() in _PARTED_WRITES for t in rest):
            return
    else:
        readonly = _PART_READONLY.get(prog, frozenset())
        flags = [t.split("=", 1)[0] for t in texts if t.startswith("-")]
        if flags and all(f in readonly or f in ("-u", "--units", "-b", "--bytes", "-o", "--output") for f in flags) \
                and any(f in readonly for f in flags):
            return
    device = next((t for t in texts if t.startswith("/dev/")), None)
    add(out, "disk.wipe", inv, f"{prog} rewrites the partition table of {device or 'a disk'}")


def detect_always_wipe(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``blkdiscard``, ``mkswap`` on a device, ``pvremove`` …: every real use destroys a disk's data."""
    if _info_only(inv):
        return
    target = next((w.text for w in inv.args if not w.text.startswith("-")), "a device")
    add(out, "disk.wipe", inv, f"{inv.program} destroys the data on {target}")


def detect_windows_format(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """Windows' ``format C:`` (also under WSL, Git Bash or ``cmd /c``) and ``diskpart`` given ``clean``."""
    if inv.program.lower() in ("format", "format.com"):
        drive = next((w.text for w in inv.args if len(w.text) == 2 and w.text[1] == ":" and w.text[0].isalpha()),
                     None)
        if drive is not None:
            add(out, "disk.wipe", inv, f"format {drive} erases the drive")
        return
    scripts = piped_text(inv)[0] + [w.text for w in inv.args]
    if any("clean" in s.lower().replace("\\n", "\n").split() for s in scripts):
        add(out, "disk.wipe", inv, "diskpart clean erases a disk's partition table")
    elif any(w.text.lower() == "/s" for w in inv.args):
        add(out, "disk.wipe", inv, "diskpart runs a script the gate cannot see", Verdict.ASK)


_WIN_DRIVE: Final = re.compile(r"[A-Za-z]:[\\/]*(\*(\.\*)?)?")
_WIN_SYSTEM: Final = re.compile(r"[A-Za-z]:[\\/]*(windows|users|program ?files|programdata|system32|boot)\b",
                                re.IGNORECASE)
_WIN_HOME: Final = ("%userprofile%", "%homepath%", "%systemroot%", "%windir%", "$env:userprofile", "$env:systemroot",
                    "$home", "~")


def detect_windows_disk(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """PowerShell's ``Clear-Disk``, ``Format-Volume``, ``Initialize-Disk``, ``Remove-Partition``; macOS's
    ``diskutil eraseDisk``/``eraseVolume``/``zeroDisk``/``secureErase``; and the deletion of every shadow copy
    (``vssadmin delete shadows``, ``wmic shadowcopy delete``): the disk's data or its backups are gone."""
    prog = inv.program.lower()
    texts = [w.text.lower() for w in inv.args]
    if prog == "diskutil":
        if texts and texts[0] in ("erasedisk", "erasevolume", "zerodisk", "randomdisk", "secureerase",
                                  "partitiondisk", "reformat"):
            add(out, "disk.wipe", inv, f"diskutil {inv.args[0].text} erases a disk")
        return
    if prog in ("vssadmin", "vssadmin.exe", "wmic", "wmic.exe", "wbadmin", "wbadmin.exe"):
        if "delete" in texts and any(t in ("shadows", "shadowcopy", "catalog", "backup", "systemstatebackup")
                                     for t in texts):
            add(out, "delete.catastrophic", inv, f"{inv.program} deletes the system's backups (shadow copies)")
        return
    add(out, "disk.wipe", inv, f"{inv.program} erases a disk or volume")


def detect_windows_delete(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """Windows deletion (cmd's ``del /s /q``, ``rd /s /q``; PowerShell's ``Remove-Item -Recurse``) of a drive,
    the system or user folders, or the profile: denied as ``rm -rf /`` is. bash has already eaten the
    backslashes of an unquoted ``C:\\*`` (``C:*``), so both spellings are read."""
    prog = inv.program.lower()
    texts = [w.text for w in inv.args]
    lowered = [t.lower() for t in texts]
    if prog in ("del", "erase", "rd", "rmdir") and not any(t.startswith("/") and len(t) == 2 for t in texts):
        return  # GNU rmdir, or no cmd switch at all
    recursive = any(t in ("/s", "-recurse", "-r") or t.startswith("-rec") for t in lowered)
    if prog not in ("del", "erase", "rd", "rmdir") and any(t.rstrip("\\/*") in ("$home", "~") for t in lowered):
        add(out, "delete.catastrophic", inv, f"{inv.program} deletes the home directory")  # PowerShell's ~ / $HOME
        return
    for t in texts:
        if t.startswith(("/", "-")):
            continue
        what = windows_target(t)
        if what is not None:
            add(out, "delete.catastrophic", inv, f"{inv.program} deletes {what}{' recursively' if recursive else ''}")
            return


def windows_target(text: str) -> str | None:
    """What a Windows path names when it is a drive, a system or user folder or the profile (``C:\\``,
    ``C:\\Windows``, ``%USERPROFILE%``); None for any other word."""
    bare = text.lower().strip("'\"")
    if _WIN_DRIVE.fullmatch(bare):
        return "the whole drive"
    if _WIN_SYSTEM.match(bare) or bare.rstrip("\\/*") in _WIN_HOME[:-2]:
        return f"{text}, a system or profile folder"
    return None


_SUBCOMMAND_WIPES: Final = {
    "zpool": frozenset({"destroy", "labelclear"}),
    "zfs": frozenset({"destroy"}),
    "nvme": frozenset({"format", "sanitize"}),
    "cryptsetup": frozenset({"luksFormat", "erase", "luksErase", "reencrypt"}),
}


def detect_subcommand_wipe(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    if words and words[0] in _SUBCOMMAND_WIPES.get(inv.program, ()):
        add(out, "disk.wipe", inv, f"{inv.program} {words[0]} destroys {' '.join(words[1:2]) or 'a pool or disk'}")


def detect_hdparm(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    if any(w.text.startswith(("--security-erase", "--trim-sector", "--write-sector", "--make-bad-sector"))
           for w in inv.args):
        add(out, "disk.wipe", inv, "hdparm erases or overwrites sectors of a disk")


def detect_badblocks(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    if parse_opts(inv.args, short_values="bcdeiopt").has("-w"):
        add(out, "disk.wipe", inv, "badblocks -w overwrites the whole device")


# -- chmod / chown / chgrp ----------------------------------------------------------------------------

_CHMOD_OPTION_LETTERS: Final = frozenset("Rcfv")
_SETUID: Final = re.compile(r"^[ugoa]*[+=][rwxXt]*s|^0*[2467][0-7]{3}$")
_WORLD_WRITABLE: Final = re.compile(r"^0*[0-7]?[0-7][0-7][2367]$|(^|,)[oa]*[+=][rwxXst]*w|^\+?[rwx]*w[rwx]*$")


def _chmod_split(inv: Invocation) -> tuple[bool, str | None, list]:
    """(recursive, mode, file words) of a chmod; ``-x`` or ``-w`` is a mode, not an option."""
    recursive, mode, files, reference = False, None, [], False
    only_files = False
    for w in inv.args:
        t = w.text
        if not only_files and t == "--":
            only_files = True
            continue
        if not only_files and t.startswith("--"):
            recursive |= t == "--recursive"
            reference |= t.startswith("--reference")
            continue
        if not only_files and t.startswith("-") and len(t) > 1 and set(t[1:]) <= _CHMOD_OPTION_LETTERS:
            recursive |= "R" in t
            continue
        if mode is None and not reference and inv.program == "chmod":
            mode = t
            continue
        if mode is None and not reference and inv.program in ("chown", "chgrp"):
            mode = t
            continue
        files.append(w)
    return recursive, mode, files


_ACL_OTHERS_WRITE: Final = re.compile(r"(?:^|,)\s*(?:d(?:efault)?:)?o(?:ther)?::?[rwxX-]*w")
_SETFACL_VALUES: Final = frozenset({"-m", "--modify", "-x", "--remove", "-M", "--modify-file", "-X", "--remove-file",
                                    "--set", "--set-file"})


def dangerous_mode(prog: str, args: list[str]) -> bool:
    """Does this chmod/setfacl give everyone write access or set the setuid/setgid bit (whatever the files)?"""
    modes = [a for a in args if not a.startswith("-") or _SETUID.search(a) or _WORLD_WRITABLE.search(a)][:1]
    if prog == "setfacl":
        return any(_ACL_OTHERS_WRITE.search(a) for a in args)
    return prog == "chmod" and bool(modes) and bool(_SETUID.search(modes[0]) or _WORLD_WRITABLE.search(modes[0]))


def _setfacl_split(inv: Invocation) -> tuple[bool, str | None, list]:
    """(recursive, the ACL entries given, file words) of a setfacl: ``-R -m o::rwx /``."""
    recursive, entries, files = False, [], []
    args = inv.args
    i = 0
    while i < len(args):
        t = args[i].text
        if t in _SETFACL_VALUES and i + 1 < len(args):
            entries.append(args[i + 1].text)
            i += 2
            continue
        if t.startswith("--"):
            recursive |= t == "--recursive"
        elif t.startswith("-") and len(t) > 1:
            recursive |= "R" in t
        else:
            files.append(args[i])
        i += 1
    return recursive, ",".join(entries) or None, files


def detect_install_mode(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``install -m 4755 /bin/sh /tmp/.s``: a copy that runs with its owner's privileges (a setuid shell)."""
    opts = parse_opts(inv.args, short_values="mogtSZ", long_values=frozenset({"--mode", "--owner", "--group",
                                                                              "--target-directory", "--suffix"}))
    mode = opts.first("-m", "--mode")
    if mode is not None and _SETUID.search(mode) and opts.operands:
        add(out, "perms.system", inv, f"install -m {mode} makes {opts.operands[-1].text} run with its owner's "
                                      "privileges (setuid/setgid)")


def _perm_danger(path: str, env: AnalysisEnv) -> str | None:
    """Why a permission change on ``path`` is dangerous: ``/``, ``~``, a directory holding the project,
    or a system location outside the project."""
    if path in ("/", env.home) or path != env.project_root and is_within(env.project_root, path):
        return catastrophic(path, env)
    if not in_project(path, env) and is_system_path(path, env.home):
        return f"system location {path}"
    return None


def detect_perms(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """chmod/chown/chgrp: recursive on ``/``, ``~`` or system dirs, world-writable or setuid modes on
    system files, new owners for top-level system paths."""
    recursive, mode, files = _chmod_split(inv) if inv.program != "setfacl" else _setfacl_split(inv)
    env = env_for(inv, env)
    prog = inv.program
    setuid = prog == "chmod" and mode is not None and bool(_SETUID.search(mode))
    world = mode is not None and bool(_WORLD_WRITABLE.search(mode) if prog == "chmod" else
                                      prog == "setfacl" and _ACL_OTHERS_WRITE.search(mode))
    for w in files:
        for t in word_targets(w, env):
            p = t.path
            if p is None:
                named = set(re.findall(r"[\w.+-]+", t.raw)) if setuid and "$(" in t.raw else set()
                if {n.rstrip("0123456789.") for n in named} & RUNS_ANYTHING:  # `"$(readlink -f "$(which python3)")"`
                    add(out, "perms.system", inv, f"chmod {mode} makes {t.raw} (an interpreter or shell, found when "
                                                  "it runs) run with its owner's privileges: root for anyone")
                elif recursive or setuid:
                    add(out, "perms.system", inv, f"{prog} changes {t.raw}, a path only known at run time",
                        Verdict.ASK)
                continue
            why = _perm_danger(p, env)
            if setuid:
                add(out, "perms.system", inv, f"chmod {mode} makes {p} run with its owner's privileges (setuid/setgid)")
            elif why is None:
                continue
            elif recursive:
                add(out, "perms.system", inv, f"{prog} -R {mode or ''} changes {p} recursively: {why}")
            elif world:
                add(out, "perms.system", inv, f"{prog} {mode} makes {p} writable by everyone: {why}")
            elif prog != "chmod" and (p.count("/") <= 2 or sensitive_reason(p, env.home)):
                add(out, "perms.system", inv, f"{prog} gives {p} to {mode}: {why}")
