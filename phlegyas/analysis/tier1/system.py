"""Privilege, publishing and the machine itself: ``sudo``, package publishing, killing system daemons,
power state, firewalls."""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.paths import holds_secrets
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import Out, add, env_for, parse_opts
from phlegyas.analysis.tier1.words import inner_commands, path_of
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Verdict

_SUDO_HARMLESS: Final = frozenset({"-l", "--list", "-v", "--validate", "-k", "-K", "--reset-timestamp",
                                   "--remove-timestamp", "-h", "--help", "-V", "--version"})


def detect_sudo(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts = [w.text for w in inv.args]
    if texts and all(t in _SUDO_HARMLESS for t in texts):
        return
    what = " ".join(t for t in texts if not t.startswith("-"))[:60] or "a shell"
    if any(re.fullmatch(r"-u#?-1|-u#4294967295|--user=#?-1", t) or t == "#-1" for t in texts):
        add(out, "priv.escalation", inv, f"{inv.program} -u#-1 is root through sudo's user-id bug (CVE-2019-14287)")
        return
    editors = [v.text for n, v in inv.command.assignments if n in ("EDITOR", "VISUAL", "SUDO_EDITOR")]
    editors += [t.split("=", 1)[1] for t in texts if t.split("=", 1)[0] in ("EDITOR", "VISUAL", "SUDO_EDITOR")]
    if "visudo" in texts and any(e.split()[0].rsplit("/", 1)[-1] in _SCRIPTED_EDITORS for e in editors if e.split()):
        add(out, "priv.escalation", inv, "visudo edits the sudoers file through a scripted editor: it decides who is "
                                         "root")
        return
    add(out, "priv.sudo", inv, f"{inv.program} runs {what} with elevated privileges")


_SCRIPTED_EDITORS: Final = frozenset({"ed", "ex", "sed", "tee", "sh", "bash", "cp", "perl", "python3", "python", "awk"})


# -- publishing ------------------------------------------------------------------------------------------

_PUBLISH: Final[dict[str, frozenset[str]]] = {
    "npm": frozenset({"publish", "unpublish", "deprecate"}),
    "pnpm": frozenset({"publish"}),
    "yarn": frozenset({"publish"}),
    "bun": frozenset({"publish"}),
    "cargo": frozenset({"publish", "yank"}),
    "poetry": frozenset({"publish"}),
    "uv": frozenset({"publish"}),
    "flit": frozenset({"publish"}),
    "hatch": frozenset({"publish"}),
    "pdm": frozenset({"publish"}),
    "twine": frozenset({"upload"}),
    "gem": frozenset({"push", "yank"}),
    "docker": frozenset({"push"}),
    "podman": frozenset({"push"}),
    "buildah": frozenset({"push"}),
    "vsce": frozenset({"publish"}),
    "ovsx": frozenset({"publish"}),
    "dart": frozenset({"publish"}),
    "flutter": frozenset({"publish"}),
    "mvn": frozenset({"deploy"}),
    "gradle": frozenset({"publish", "publishToMavenCentral", "publishPlugins"}),
    "gradlew": frozenset({"publish", "publishToMavenCentral", "publishPlugins"}),
    "mix": frozenset({"hex.publish"}),
    "pod": frozenset({"push"}),
    "helm": frozenset({"push"}),
    "dotnet": frozenset({"push"}),
    "nuget": frozenset({"push"}),
}
_DRY: Final = frozenset({"--dry-run", "--dry", "--dryrun"})


def detect_publish(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    prog = inv.program
    verbs = _PUBLISH.get(prog)
    texts = [w.text for w in inv.args]
    if any(t in _DRY for t in texts):
        return
    words = [t for t in texts if not t.startswith("-")]
    if prog == "gh":
        if words[:2] in (["release", "create"], ["release", "upload"], ["release", "edit"]):
            add(out, "publish.package", inv, f"gh {' '.join(words[:2])} publishes a release")
        return
    if prog in ("docker", "podman") and "--push" in texts and words[:1] in (["build"], ["buildx"]):
        add(out, "publish.package", inv, f"{prog} build --push pushes an image to a registry")
        return
    if prog in ("docker", "podman") and words[:2] == ["image", "push"]:
        words = words[1:]
    head = words[:2] if prog in ("yarn", "dart", "flutter", "dotnet", "pod") else words[:1]
    hit = next((w for w in head if verbs and w in verbs), None)
    if hit is None:
        return
    if prog == "yarn" and hit == "publish" and words[:1] == ["npm"]:
        hit = "npm publish"
    add(out, "publish.package", inv, f"{prog} {hit} releases to a public registry")


# -- killing, services, power ------------------------------------------------------------------------------

DAEMONS: Final = frozenset({
    "sshd", "ssh", "dockerd", "docker", "containerd", "containerd-shim", "docker-proxy", "systemd", "init",
    "kubelet", "launchd", "Xorg", "Xwayland", "gdm", "gdm3", "sddm", "lightdm", "NetworkManager", "networkd",
    "systemd-networkd", "systemd-journald", "journald", "systemd-logind", "systemd-udevd", "udevd", "rsyslogd",
    "syslogd", "cron", "crond", "dbus-daemon", "dbus", "polkitd", "postgres", "postgresql", "mysqld", "mariadbd",
    "mongod", "redis-server", "nginx", "apache2", "httpd", "kube-apiserver", "etcd", "agetty", "login",
    "wpa_supplicant", "firewalld", "auditd", "snapd", "cupsd", "avahi-daemon", "chronyd", "ntpd", "sssd",
})
_SIGNAL_VALUE: Final = frozenset({"-s", "-n", "--signal"})


def _kill_targets(inv: Invocation) -> list:
    """The process operands of ``kill`` (signals and options skipped; ``-1`` after ``--`` or a signal)."""
    targets = []
    args = inv.args
    i, seen_signal, ended = 0, False, False
    while i < len(args):
        t = args[i].text
        if not ended and t == "--":
            ended = True
        elif not ended and t in _SIGNAL_VALUE:
            i += 1
            seen_signal = True
        elif not ended and t.startswith("-") and not seen_signal:
            seen_signal = True
        else:
            targets.append(args[i])
        i += 1
    return targets


def detect_kill(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts = [w.text for w in inv.args]
    if any(t in ("-l", "-L", "--list", "-0") for t in texts) or "0" in texts[1:2] and texts[0] in _SIGNAL_VALUE:
        return  # listing signals, or signal 0 (only checks that the process exists)
    for w in _kill_targets(inv):
        t = w.text
        if t in ("-1", "1"):
            what = "every process the user may signal" if t == "-1" else "init (PID 1)"
            add(out, "system.kill", inv, f"kill signals {what}")
            return
        if w.dynamic:
            for cmd in inner_commands(t):
                if cmd.program in ("pgrep", "pidof") and any(a.text in DAEMONS for a in cmd.words[1:]):
                    name = next(a.text for a in cmd.words[1:] if a.text in DAEMONS)
                    add(out, "system.kill", inv, f"kill stops the system daemon {name}")
                    return


def detect_killall(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    if inv.program == "killall5":
        add(out, "system.kill", inv, "killall5 signals every process on the system")
        return
    opts = parse_opts(inv.args, short_values="sugtPGFUO" if inv.program == "pkill" else "suoyO",
                      long_values=frozenset({"--signal", "--user", "--uid", "--euid", "--group", "--parent",
                                             "--pgroup", "--session", "--terminal", "--pidfile", "--older-than",
                                             "--younger-than", "--ns", "--nslist"}))
    names = [w.text for w in opts.operands]
    for name in names:
        base = name.rsplit("/", 1)[-1]
        if base in DAEMONS or any(part in DAEMONS for part in base.replace("|", " ").split()):
            add(out, "system.kill", inv, f"{inv.program} stops the system daemon {base}")
            return
    regex = inv.program == "pkill" or opts.has("-r", "--regexp")
    if any(_matches_anything(name, regex) for name in names):
        add(out, "system.kill", inv, f"{inv.program} {names[0]} matches every process the user may signal "
                                     "(the agent and its shell included)")
    elif not names and opts.has("-u", "--user", "-U", "--uid", "--euid") and not opts.has("-o", "-y", "-t", "-g"):
        add(out, "system.kill", inv, f"{inv.program} -u signals every process of the user (the agent included)")


_SAMPLE_NAMES: Final = ("init", "sshd", "bash", "node", "x", "/usr/bin/python3 -m app", "systemd --user")


def _matches_anything(pattern: str, regex: bool) -> bool:
    """Whether a process pattern matches every process: ``.``, ``.*``, ``^``, ``''`` and the like."""
    if not regex:
        return pattern in ("", "*")
    try:
        compiled = re.compile(pattern)
    except (re.error, RecursionError):
        return False
    return all(compiled.search(name) for name in _SAMPLE_NAMES)


_POWER_VERBS: Final = frozenset({"poweroff", "reboot", "halt", "kexec", "soft-reboot", "rescue", "emergency",
                                 "suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate"})
_FIREWALL_UNITS: Final = frozenset({"firewalld", "ufw", "nftables", "iptables", "netfilter-persistent", "apparmor",
                                    "selinux"})


def detect_systemctl(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    if not words:
        return
    verb, units = words[0], [u.removesuffix(".service") for u in words[1:]]
    if verb in _POWER_VERBS:
        add(out, "system.power", inv, f"systemctl {verb} takes the machine down")
    elif verb in ("isolate",) and any(u.startswith(("rescue", "emergency", "poweroff", "reboot", "halt"))
                                      for u in units):
        add(out, "system.power", inv, f"systemctl isolate {units[0]} takes the machine down")
    elif verb in ("stop", "kill", "disable", "mask", "restart"):
        fw = next((u for u in units if u in _FIREWALL_UNITS), None)
        daemon = next((u for u in units if u in DAEMONS), None)
        if fw and verb != "restart":
            add(out, "system.firewall", inv, f"systemctl {verb} {fw} turns the firewall off")
        elif daemon and verb != "restart":
            add(out, "system.kill", inv, f"systemctl {verb} {daemon} stops a system daemon")


def detect_service(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    words = [w.text for w in inv.args]
    if len(words) >= 2 and words[1] in ("stop", "kill") and words[0] in DAEMONS:
        add(out, "system.kill", inv, f"service {words[0]} stop stops a system daemon")
    elif len(words) >= 2 and words[1] == "stop" and words[0] in _FIREWALL_UNITS:
        add(out, "system.firewall", inv, f"service {words[0]} stop turns the firewall off")


def detect_power(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts = [w.text for w in inv.args]
    prog = inv.program
    if any(t in ("--help", "-h", "--version", "--wtmp-only", "-w") for t in texts) and prog != "shutdown":
        return  # -w/--wtmp-only only writes the wtmp record
    if prog == "shutdown" and ("-c" in texts or "--help" in texts):
        return
    if prog in ("init", "telinit"):
        if not texts or texts[0] not in ("0", "6", "1", "s", "S", "single"):
            return
    if prog in ("dbus-send", "busctl", "gdbus", "qdbus"):  # login1's or systemd's PowerOff/Reboot/Halt method
        called = re.search(r"(?:login1|systemd1)\b.*\b(PowerOff|Reboot|Halt|Kexec)\b", " ".join(texts))
        if called is not None:
            add(out, "system.power", inv, f"{prog} asks systemd to {called.group(1)}: it takes the machine down")
        return
    add(out, "system.power", inv, f"{' '.join([prog, *texts])[:40]} shuts down or restarts the machine")


def detect_iptables(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts = [w.text for w in inv.args]
    flush = any(t in ("-F", "--flush", "-X", "--delete-chain") for t in texts)
    policy = any(t in ("-P", "--policy") for t in texts)
    if flush or policy and "ACCEPT" in texts:
        add(out, "system.firewall", inv, f"{inv.program} {'flushes the rules' if flush else 'sets an ACCEPT policy'}"
                                         ", opening the firewall")
    elif policy and ("DROP" in texts or "REJECT" in texts):
        chain = next((t for t in texts if t in ("INPUT", "OUTPUT", "FORWARD")), "a chain")
        add(out, "system.firewall", inv, f"{inv.program} -P {chain} DROP drops every packet no rule accepts: "
                                         "connections to and from the machine (this session's too) are cut")


def detect_ufw(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    if words[:1] in (["disable"], ["reset"]):
        add(out, "system.firewall", inv, f"ufw {words[0]} turns the firewall off")


def detect_nft(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    if words[:2] == ["flush", "ruleset"] or words[:1] == ["delete"] and words[1:2] == ["table"]:
        add(out, "system.firewall", inv, f"nft {' '.join(words[:2])} removes firewall rules")


def detect_setenforce(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    if any(w.text in ("0", "Permissive", "permissive") for w in inv.args):
        add(out, "system.firewall", inv, "setenforce 0 turns SELinux enforcement off")


_LOOPBACK: Final = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


def detect_file_server(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``python3 -m http.server -d ~``: every file of the directory served to whoever can reach the port.
    The home directory, ``/`` or a place that holds secrets served beyond this machine is exfiltration;
    served on loopback it asks."""
    texts = [w.text for w in inv.args]
    if "-m" not in texts or texts[texts.index("-m") + 1:texts.index("-m") + 2] != ["http.server"]:
        return
    rest = texts[texts.index("-m") + 2:]
    directory, bind = ".", ""
    for i, t in enumerate(rest[:-1]):
        if t in ("-d", "--directory"):
            directory = rest[i + 1]
        elif t in ("-b", "--bind"):
            bind = rest[i + 1]
    for t in rest:
        if t.startswith("--directory="):
            directory = t.split("=", 1)[1]
        elif t.startswith("--bind="):
            bind = t.split("=", 1)[1]
    env = env_for(inv, env)
    path = path_of(directory, env)
    if path is None:
        return
    why = "the whole file system" if path == "/" else ("the home directory" if path == env.home else
                                                         holds_secrets(path, env.home))
    if why is None:
        return
    if bind in _LOOPBACK:
        add(out, "sensitive.read", inv, f"http.server serves {path} ({why}) to every local process", Verdict.ASK)
    else:
        add(out, "net.exfiltration", inv, f"http.server serves {path} ({why}) to every machine that reaches "
                                          f"this one{' on ' + bind if bind else ''}")

_ESSENTIAL: Final = frozenset({"libc6", "libc-bin", "bash", "coreutils", "dpkg", "apt", "systemd", "sudo", "util-linux",
                               "glibc", "base-files", "base-passwd", "init", "login", "passwd", "linux-image-generic",
                               "openssh-server", "python3", "libstdc++6", "dash", "sed", "grep", "tar", "gzip", "rpm",
                               "yum", "dnf", "pacman", "filesystem"})
"""Packages without which the system no longer boots, logs in or installs anything."""


def detect_essential_removal(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``apt-get purge --allow-remove-essential libc6``, ``dpkg --force-remove-essential -r bash``, ``dnf remove
    glibc``: the machine is broken beyond what a package manager can repair."""
    texts = [w.text for w in inv.args]
    words = [t for t in texts if not t.startswith("-")]
    flags = {"dpkg": ("-r", "-P", "--remove", "--purge"), "rpm": ("-e", "--erase")}.get(inv.program, ())
    removing = bool(words) and words[0] in ("remove", "purge", "autoremove", "erase") and not flags or any(
        t in flags or inv.program == "pacman" and t.startswith("-R") for t in texts)
    forced = any("remove-essential" in t or t in ("--nodeps", "-Rdd") for t in texts)
    hit = next((w for w in words[1:] + words[:1] if w.split(":", 1)[0].rstrip("*") in _ESSENTIAL), None)
    if removing and (hit or forced):
        add(out, "delete.catastrophic", inv, f"{inv.program} removes {hit or 'essential packages'}, which the "
                                             "system needs to boot, log in or install again")

