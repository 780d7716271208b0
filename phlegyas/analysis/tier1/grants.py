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


__all__ = ["detect_cloud_trust", "detect_gh_grants", "detect_kube_grants", "detect_remote_display",
           "detect_ssh_import"]
