"""What an invocation writes, and the Tier 1 classes that depend on where: devices (disk wipe), shell
start-up files, cron, ``authorized_keys``, services and git hooks (persistence), and credentials written
into tracked files.
"""
from __future__ import annotations

import posixpath
import re
from typing import Final

from phlegyas.analysis.paths import SHELL_RC_FILES, sensitive_reason
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import Out, add, env_for, parse_opts, piped_text
from phlegyas.analysis.tier1.disk import is_device
from phlegyas.analysis.tier1.secrets import find_secret, tracked_file
from phlegyas.analysis.tier1.words import catastrophic, in_project, path_of
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Verdict

_WRITE_OPS: Final = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})


def redirect_writes(inv: Invocation) -> list[str]:
    """Target texts of the output redirections of ``inv`` (``>&2`` and ``>&-`` are not files)."""
    found = []
    for r in inv.command.redirects:
        if r.op in _WRITE_OPS and r.target is not None:
            t = r.target.text
            if r.op == ">&" and (t.isdigit() or t == "-"):
                continue
            found.append(t)
    return found


def _dest_with_sources(dest: str, sources: list[str]) -> list[str]:
    """``cp a b dir/`` writes ``dir/`` and, when it is a directory, ``dir/a`` and ``dir/b``."""
    return [dest] + [posixpath.join(dest, posixpath.basename(s.rstrip("/"))) for s in sources]


def program_writes(inv: Invocation) -> list[str]:
    """Files ``inv`` writes through its arguments (tee, sed -i, cp/mv/install/ln, dd of=, curl -o …)."""
    prog = inv.program
    args = inv.args
    if prog == "tee":
        return [w.text for w in parse_opts(args).operands]
    if prog in ("sed", "perl", "ruby"):
        texts = [w.text for w in args]
        if not any(t.startswith("-i") or t == "--in-place" or t.startswith("--in-place=") or
                   (t.startswith("-") and not t.startswith("--") and "i" in t[1:]) for t in texts):
            return []
        opts = parse_opts(args, short_values="ef" if prog == "sed" else "eE")
        operands = [w.text for w in opts.operands]
        has_script = opts.has("-e", "--expression", "-f", "--file", "-E") if prog == "sed" else opts.has("-e", "-E")
        return operands if has_script else operands[1:]
    if prog in ("awk", "gawk"):  # `gawk -i inplace PROG FILE…`: each file is rewritten with what PROG prints
        texts = [w.text for w in args]
        if not any(t == "inplace" and i and texts[i - 1] in ("-i", "--include") or t in ("-iinplace", "--include=inplace")
                   for i, t in enumerate(texts)):
            return []
        opts = parse_opts(args, short_values="ivfF", long_values=frozenset({"--include", "--file", "--assign"}))
        operands = [w.text for w in opts.operands]
        return operands if opts.has("-f", "--file") else operands[1:]
    if prog in ("cp", "mv", "install", "ln", "rsync"):
        opts = parse_opts(args, short_values="tSmogZ" if prog != "rsync" else "e",
                          long_values=frozenset({"--target-directory", "--suffix", "--mode", "--owner", "--group"}))
        operands = [w.text for w in opts.operands]
        target = opts.first("-t", "--target-directory")
        if target is not None:
            return _dest_with_sources(target, operands)
        if len(operands) >= 2:
            return _dest_with_sources(operands[-1], operands[:-1])
        return []
    if prog == "dd":
        return [w.text[3:] for w in args if w.text.startswith("of=")]
    if prog in DOWNLOADERS:
        if prog == "curl":
            named = parse_opts(args, short_values="odHXuAFTeEKrwyYzbcCmxUQtD",
                               long_values=frozenset({"--output", "--data", "--header", "--request", "--user",
                                                      "--url"})).values("-o", "--output")
        elif prog in ("wget", "wget2"):
            named = parse_opts(args, short_values="OoPaeTtUBiDlQAR",
                               long_values=frozenset({"--output-document", "--directory-prefix", "--output-file"})
                               ).values("-O", "--output-document")
        else:
            opts = parse_opts(args, short_values="od", long_values=frozenset({"--out", "--dir"}))
            folder = opts.first("-d", "--dir")  # aria2c -d /tmp -o x.sh: the file is /tmp/x.sh
            named = [f"{folder.rstrip('/')}/{n}" if folder and n and not n.startswith("/") else n
                     for n in opts.values("-o", "--out")]
        return [n for n in named if n] + remote_names(inv)
    if prog == "truncate":
        return [w.text for w in parse_opts(args, short_values="sr").operands]
    if prog == "fallocate":
        return [w.text for w in parse_opts(args, short_values="lo", long_values=frozenset({"--length", "--offset"})
                                           ).operands]
    return []


DOWNLOADERS: Final = frozenset({"curl", "wget", "fetch", "aria2c", "http", "https", "xh", "wget2"})
"""Programs whose output is what a server sent (their output file, or their stdout)."""
_BARE_URL: Final = re.compile(r"(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?::[0-9]+)?/[^\s]*[^/\s]$")


def remote_names(inv: Invocation) -> list[str]:
    """The files a download names after its URL: ``curl -O URL``, ``wget URL`` (without ``-O``),
    ``aria2c URL`` — the URL's last path segment, in the cwd (or ``wget -P DIR``)."""
    texts = [w.text for w in inv.args]
    urls = [t for t in texts if "://" in t or _BARE_URL.match(t)]  # curl and wget take `x.io/i.sh` as http://
    if not urls:
        return []
    if inv.program == "curl":
        if not any(t in ("-O", "--remote-name", "--remote-name-all") or t.startswith("-") and not t.startswith("--")
                   and "O" in t[1:] for t in texts):
            return []
    elif inv.program in ("wget", "wget2"):
        if any(t in ("-O", "--output-document") or t.startswith("--output-document=") or t in ("-r", "--recursive",
               "-m", "--mirror", "-i", "--input-file") for t in texts):
            return []
    elif inv.program != "aria2c":
        return []
    prefix = ""
    if "-P" in texts[:-1]:
        prefix = texts[texts.index("-P") + 1].rstrip("/") + "/"
    names = []
    for url in urls:
        name = url.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
        if name and "://" not in name:
            names.append(prefix + name)
    return names


# -- where a write lands ---------------------------------------------------------------------------

_RC_NAMES: Final = frozenset(posixpath.basename(f) for f in SHELL_RC_FILES) - {".inputrc"}
_RC_REL: Final = frozenset(SHELL_RC_FILES)


def _prefixes(*dirs: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """A location list as (``dir/`` prefixes, exact paths) for fast ``str.startswith`` tests."""
    return tuple(d + "/" for d in dirs), frozenset(dirs)


def _under(path: str, table: tuple[tuple[str, ...], frozenset[str]]) -> bool:
    return path.startswith(table[0]) or path in table[1]


_SYSTEM_RC: Final = _prefixes("/etc/profile", "/etc/profile.d", "/etc/bash.bashrc", "/etc/bashrc", "/etc/zsh",
                              "/etc/zshrc", "/etc/zprofile", "/etc/zshenv", "/etc/environment", "/etc/fish/config.fish")
_CRON: Final = _prefixes("/etc/crontab", "/etc/cron.d", "/etc/cron.daily", "/etc/cron.hourly", "/etc/cron.weekly",
                         "/etc/cron.monthly", "/var/spool/cron", "/etc/anacrontab", "/var/spool/at")
_SERVICES: Final = _prefixes("/etc/systemd", "/lib/systemd", "/usr/lib/systemd", "/etc/init.d", "/etc/rc.local",
                             "/etc/init", "/Library/LaunchAgents", "/Library/LaunchDaemons", "/etc/xdg/autostart",
                             "/etc/ld.so.preload", "/etc/udev/rules.d")
_HOME_SERVICES = _prefixes(".config/systemd", "Library/LaunchAgents", ".config/autostart", ".local/share/systemd")
_SYSTEM_ROOTS: Final = ("/etc/", "/lib/", "/usr/lib/", "/var/spool/", "/Library/")


def private_key(path: str, home: str) -> str | None:
    """What private key ``path`` is, among the keys that identify this user or machine (the home's SSH,
    GnuPG and TLS keys, the host keys in /etc/ssh), or None. A key file the project holds is its own."""
    if not (path.startswith(home.rstrip("/") + "/") or path.startswith("/etc/ssh/")):
        return None
    why = sensitive_reason(path, home)
    if why is None:
        return None
    low = why.lower()
    return why if "private key" in low or "gnupg" in low or "gpg" in low else None


def persistence_class(path: str, home: str) -> tuple[str, str] | None:
    """(class id, what) when writing ``path`` makes code run later on its own, else None."""
    name = path.rsplit("/", 1)[-1]
    if "/.git/hooks/" in path or path.endswith("/.git/hooks"):
        return "persistence.git_hooks", f"the git hook {path}"
    if name in ("authorized_keys", "authorized_keys2"):
        return "persistence.ssh_keys", f"the SSH login file {path}"
    if path.startswith(_SYSTEM_ROOTS):
        if _under(path, _SYSTEM_RC):
            return "persistence.shell_rc", f"the shell start-up file {path}"
        if _under(path, _CRON):
            return "persistence.cron", f"the scheduler file {path}"
        if _under(path, _SERVICES):
            return "persistence.service", f"the service/autostart location {path}"
        return None
    if path.startswith(home + "/"):
        rel = path[len(home) + 1:]
        if rel in _RC_REL:
            return "persistence.shell_rc", f"the shell start-up file {path}"
        if rel in (".ssh/rc", ".ssh/environment"):
            return "persistence.ssh_keys", f"the SSH login file {path}"
        if _under(rel, _HOME_SERVICES):
            return "persistence.service", f"the service/autostart location {path}"
        return None
    if name in _RC_NAMES:
        parent = path[:len(path) - len(name) - 1]
        if parent == "/root" or parent.rsplit("/", 1)[0] in ("/home", "/Users"):
            return "persistence.shell_rc", f"the shell start-up file {path}"
    return None


def _content(inv: Invocation) -> str:
    """The text ``inv`` writes, as far as the command line shows it."""
    if inv.program in ("echo", "printf"):
        return " ".join(w.text for w in inv.args)
    texts, _ = piped_text(inv)
    return "\n".join(texts)


_ROOT_FILES: Final = {"/etc/sudoers": "who may run what as root", "/etc/passwd": "the users and their ids",
                      "/etc/shadow": "the passwords", "/etc/group": "who is in the root-like groups",
                      "/etc/gshadow": "the group passwords", "/etc/ld.so.preload": "what every program loads",
                      "/etc/doas.conf": "who may run what as root"}
"""System files whose content grants root: any write to them is an escalation, whatever is written."""
_EMPTIED_ROOTS: Final = ("/etc/", "/boot/", "/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/var/lib/", "/opt/",
                          "/var/log/auth.log", "/var/log/secure", "/var/log/syslog", "/var/log/messages",
                          "/var/log/wtmp", "/var/log/btmp", "/var/log/lastlog", "/var/log/audit/", "/var/log/journal/")
"""Files whose emptying is their loss: the system's own, and its record of who logged in and what ran."""


def interpreter_key_writes(run: Invocation, words: list, env: AnalysisEnv) -> list:
    """Findings for what an interpreter's code opens for writing: a private key (``open(key, 'w')`` truncates
    it: as lost as if deleted), a file that grants root, a place that runs code later (authorized_keys)."""
    out: Out = []
    for word in words:
        path = None if word.dynamic else path_of(word.text, env)
        if path is None or in_project(path, env):
            continue
        key, grant, klass = private_key(path, env.home), root_grant(path), persistence_class(path, env.home)
        if key is not None:
            add(out, "delete.catastrophic", run, f"{run.program} code overwrites {path} ({key}): as lost as if deleted")
        elif grant is not None:
            add(out, "priv.escalation", run, f"{run.program} code writes {path}, which decides {grant}")
        elif klass is not None:
            add(out, klass[0], run, f"{run.program} code writes {klass[1]}")
    return out


def root_grant(path: str) -> str | None:
    """What a system file decides when its content grants root (``/etc/sudoers.d/*``, ``/etc/passwd`` …)."""
    return _ROOT_FILES.get(path) or ("who may run what as root" if path.startswith("/etc/sudoers.d/") else None)


def _spread_over(path: str, env: AnalysisEnv) -> str | None:
    """The directory a glob of files lies in (``~/*`` → the home), when emptying all of them is as bad as
    deleting it (``catastrophic``: ``/``, the home, the project root, system locations); None otherwise."""
    if "*" not in path and "?" not in path:
        return None
    head = posixpath.dirname(path)
    while "*" in head or "?" in head:
        head = posixpath.dirname(head)
    head = head or "/"
    if in_project(head, env) and head != env.project_root:
        return None  # some of the project's files: a project edit (the project root itself asks)
    return head if catastrophic(head, env) else None


def _empties(inv: Invocation, target: str) -> bool:
    """Whether ``inv`` leaves ``target`` empty: a truncating redirection of a command that prints nothing
    (``> f``, ``: > f``, ``true > f``, ``cat /dev/null > f``), ``truncate -s 0 f``, ``cp /dev/null f``."""
    prog = inv.program
    texts = [w.text for w in inv.args]
    if prog == "truncate":
        return any(t in ("-s0", "--size=0") for t in texts) or any(
            t in ("-s", "--size") and i + 1 < len(texts) and texts[i + 1] == "0" for i, t in enumerate(texts))
    if prog in ("cp", "install", "dd"):
        return "/dev/null" in texts or "if=/dev/null" in texts
    if prog == "fallocate":  # a hole punched, a range collapsed or zeroed: that much of the data is gone
        return any(t in ("--punch-hole", "--collapse-range", "--zero-range") or t[:1] == "-" and t[1:2] != "-"
                   and any(c in t[1:] for c in "pcz") for t in texts)
    whole = any(r.op in (">", ">|", "&>") and r.target is not None and r.target.text == target
                for r in inv.command.redirects)
    if not whole:
        return False
    if prog in ("", ":", "true", "false"):
        return True
    if prog == "echo":
        return all(t in ("-n", "-e", "-ne", "-en") for t in texts) and "-n" in "".join(texts)
    return prog == "cat" and texts == ["/dev/null"] or prog == "printf" and texts in ([], [""])


def judge_writes(inv: Invocation, env: AnalysisEnv, out: Out, targets: list[str]) -> None:
    env = env_for(inv, env)
    content: str | None = None
    for text in targets:
        path = path_of(text, env)
        if path is None:
            continue
        if is_device(path):
            add(out, "disk.wipe", inv, f"{inv.program} writes over the device {path}")
            continue
        grant = root_grant(path)
        if grant is not None:  # `echo 'u ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers.d/u`, a uid-0 line in /etc/passwd
            add(out, "priv.escalation", inv, f"{inv.program or 'the shell'} writes {path}, which decides {grant}")
            continue
        klass = persistence_class(path, env.home)
        if klass is not None:
            add(out, klass[0], inv, f"{inv.program} writes {klass[1]}")
            continue
        if path in ("/proc/sysrq-trigger", "/proc/sysrq"):
            add(out, "system.power", inv, f"{inv.program or 'the shell'} writes {path}: the kernel crashes, reboots "
                                          "or kills every process at once")
            continue
        key = private_key(path, env.home) if not in_project(path, env) else None
        if key is not None:  # `: > ~/.ssh/id_rsa`: the key is as lost as if it were deleted
            add(out, "delete.catastrophic", inv, f"{inv.program or 'the shell'} overwrites {path} ({key}): as lost as if deleted")
            continue
        if path.startswith(_EMPTIED_ROOTS) and _empties(inv, text):  # `> /etc/passwd`, `truncate -s 0 /etc/shadow`
            add(out, "delete.catastrophic", inv, f"{inv.program or 'the shell'} empties the system file {path}: "
                                                 "as lost as if deleted")
            continue
        spread = _spread_over(path, env) if _empties(inv, text) else None
        if spread is not None:  # `truncate -s0 ~/*`, `find ~ -type f -exec truncate -s0 {} +`
            add(out, "delete.catastrophic", inv, f"{inv.program or 'the shell'} empties every file of {spread}: as "
                                                 "lost as if deleted", Verdict.ASK if spread == env.project_root else None)
            continue
        if tracked_file(path, env):
            if content is None:
                content = _content(inv)
            what = find_secret(content)
            if what:
                add(out, "secrets.in_file", inv, f"{inv.program} writes {what} into {path}, a file that gets committed")


def detect_redirects(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """Generic: where the output redirections of any invocation go."""
    targets = redirect_writes(inv)
    if targets:
        judge_writes(inv, env, out, targets)


def detect_program_writes(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    targets = program_writes(inv)
    if targets:
        judge_writes(inv, env, out, targets)


# -- programs that install persistence -----------------------------------------------------------------


def detect_crontab(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    opts = parse_opts(inv.args, short_values="uc")
    if opts.has("-l") and not opts.operands:
        return
    what = "removes every cron job" if opts.has("-r") else "installs cron jobs"
    fetcher = next((up.program for up in inv.upstream if up.program in DOWNLOADERS), None)
    if fetcher is not None and not opts.has("-r"):  # `curl … | crontab -`: the scheduler runs what was downloaded
        add(out, "net.pipe_to_shell", inv, f"crontab installs jobs {fetcher} downloads: the scheduler runs them unseen")
        return
    if opts.has("-r") and not opts.has("-i"):  # no copy is kept: the jobs are gone, not scheduled
        add(out, "delete.catastrophic", inv, "crontab -r removes every cron job of the user, with no copy kept")
        return
    add(out, "persistence.cron", inv, f"crontab {what}")


def detect_at(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    if any(w.text in ("-l", "-d", "-r", "-c", "-V") for w in inv.args):
        return
    add(out, "persistence.cron", inv, f"{inv.program} schedules a command to run later")


_SYSTEMCTL_PERSIST = frozenset({"enable", "reenable", "link", "preset", "preset-all", "add-wants", "add-requires",
                                "set-default", "edit", "revert"})


def detect_systemctl_persist(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    if words and words[0] in _SYSTEMCTL_PERSIST:
        add(out, "persistence.service", inv, f"systemctl {words[0]} {' '.join(words[1:2])} makes a service start on its own")


def detect_launchctl(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    if words and words[0] in ("load", "bootstrap", "enable", "submit"):
        add(out, "persistence.service", inv, f"launchctl {words[0]} registers a job that starts on its own")


def detect_rc_tools(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """update-rc.d, chkconfig, rc-update: SysV/OpenRC services enabled at boot."""
    texts = [w.text for w in inv.args]
    if inv.program == "update-rc.d" and not any(t in ("remove", "disable", "-n") for t in texts) \
            or inv.program == "chkconfig" and "on" in texts or inv.program == "rc-update" and "add" in texts:
        add(out, "persistence.service", inv, f"{inv.program} enables a service at boot")


_KEYGEN_OTHER_MODES: Final = frozenset({"-y", "-l", "-p", "-R", "-F", "-H", "-c", "-e", "-i", "-k", "-Q", "-r", "-s",
                                        "-Y", "-B", "-D", "-L", "-A"})


def detect_ssh_keygen(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``yes | ssh-keygen -f ~/.ssh/id_rsa`` (or ``<<< y``): a new key written over the private key there,
    answering its "Overwrite?" — the old key is as lost as if deleted."""
    texts = [w.text for w in inv.args]
    if any(t in _KEYGEN_OTHER_MODES for t in texts) or "-f" not in texts[:-1]:
        return
    path = path_of(texts[texts.index("-f") + 1], env_for(inv, env))
    key = private_key(path, env.home) if path is not None and not in_project(path, env) else None
    if key is None:
        return
    answered = any(up.program == "yes" for up in inv.upstream) or (
        inv.stdin_text is not None and inv.stdin_text.strip().lower().startswith("y"))
    if answered:
        add(out, "delete.catastrophic", inv, f"ssh-keygen writes a new key over {path} ({key}) and answers its "
                                             "\"Overwrite?\": the old key is as lost as if deleted")


def detect_ssh_copy_id(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    add(out, "persistence.ssh_keys", inv, "ssh-copy-id adds a key to a remote authorized_keys", Verdict.ASK)

