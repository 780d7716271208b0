"""Containers, clusters and clouds: ``docker`` groups and ``compose``, ``kubectl`` secrets and config,
Terraform state, cloud CLIs (``aws``, ``gcloud`` …), and database clients."""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.handlers.base import Call, operand_texts, read_only

_DOCKER_READ: Final = {
    "image": {"ls", "list", "inspect", "history"}, "container": {"ls", "list", "ps", "inspect", "logs", "top", "port",
                                                                       "diff", "stats"},
    "network": {"ls", "list", "inspect"}, "volume": {"ls", "list", "inspect"}, "system": {"df", "info", "events"},
    "context": {"ls", "list", "show", "inspect"}, "compose": {"ps", "logs", "config", "ls", "images", "version", "top",
                                                                       "port"},
    "buildx": {"ls", "version", "inspect", "du"}, "builder": {"ls", "inspect"}, "plugin": {"ls", "list", "inspect"},
    "secret": {"ls", "inspect"}, "config": {"ls", "inspect"}, "manifest": {"inspect"}, "node": {"ls", "inspect", "ps"},
    "service": {"ls", "inspect", "logs", "ps"}, "stack": {"ls", "ps", "services"}, "swarm": set(), "trust": {"inspect"},
}


def docker_group(c: Call) -> None:
    verb = c.parsed.operands[0].text if c.parsed.operands else ""
    group = c.path[-1] if c.path else ""
    if verb in _DOCKER_READ.get(group, ()):
        read_only(c)
    elif verb == "" and group in ("compose",):
        read_only(c)
    if group == "compose" and verb == "config" and not any(w.text in _CONFIG_LISTS for w in c.args):
        c.eff.secrets.append("the compose configuration with the .env file's values filled in")
    elif group in ("container", "image") and verb == "inspect":
        docker_read(c)


_CONFIG_LISTS: Final = frozenset({"--services", "--volumes", "--images", "--profiles", "--networks", "-q", "--quiet",
                                  "--hash", "--variables"})
_ENV_FORMAT: Final = re.compile(r"\.Env\b|\.Config\b|json \.\s*}}|^\s*{{\s*json\s*\.\s*}}")


def docker_read(c: Call) -> None:
    """``docker inspect C`` prints the container's environment, its passwords and tokens among them, unless a
    ``--format`` picks something else (``{{.State.Status}}``)."""
    if c.path[-1:] == ["inspect"] or c.path[-1:] in (["container"], ["image"]):
        formats = [w.text for o, w in c.parsed.opts if o in ("-f", "--format") and w is not None]
        if not formats or any(_ENV_FORMAT.search(f) for f in formats):
            c.eff.secrets.append("a container's environment (its passwords and tokens)")


def docker_compose_top(c: Call) -> None:
    verb = c.parsed.operands[0].text if c.parsed.operands else ""
    if verb not in _DOCKER_READ["compose"]:
        c.eff.mutates.append("changes containers")


def docker(c: Call) -> None:
    if c.top is not None and c.top.has(("-H", "--host")):
        c.eff.network = True


def kubectl_read(c: Call) -> None:
    for parsed in (c.top, c.parsed):  # a kubeconfig's `exec` plugin runs a program: only the project's own
        c.eff.loads.extend(parsed.values(("--kubeconfig",)) if parsed is not None else [])
    ops = [t.lower() for t in operand_texts(c)]
    shows = c.parsed.has(("-o", "--output", "--template"))
    if c.path and c.path[-1] == "get" and shows and any(t.startswith("secret") for t in ops):
        c.eff.secrets.append("Kubernetes secrets")


def kubectl_config(c: Call) -> None:
    ops = operand_texts(c)
    verb = ops[0] if ops else ""
    if verb in ("view", "get-contexts", "current-context", "get-clusters", "get-users", ""):
        read_only(c)
        if c.parsed.has(("--raw",)):
            c.eff.secrets.append("kubeconfig credentials")


def tf_state(c: Call) -> None:
    ops = operand_texts(c)
    if ops and ops[0] in ("list", "show", "pull", "select-none") or not ops:
        read_only(c)
    if ops and ops[0] in ("pull", "show"):
        c.eff.secrets.append("Terraform state (it holds every resource's secrets in plain text)")


def tf_output(c: Call) -> None:
    """``terraform output``/``show`` mask sensitive values, except as JSON, raw, or one named output."""
    sub = c.path[-1] if c.path else ""
    if sub not in ("output", "show"):
        return
    plain = any(w.text.split("=", 1)[0] in ("-json", "-raw") for w in c.args)
    if plain or sub == "output" and operand_texts(c):
        c.eff.secrets.append("Terraform outputs and state, sensitive values unmasked")


_CLOUD_READ: Final = frozenset({"ls", "list", "describe", "show", "info", "get", "status", "logs", "version", "whoami",
                                "get-value", "get-iam-policy", "cat", "du", "stat", "lookup", "search", "account",
                                "print-settings", "help", "releases", "apps", "domains", "regions", "wait"})
_CLOUD_SECRET_WORDS: Final = ("secret", "password", "credential", "token", "decrypt", "private", "get-login",
                              "print-access", "print-identity", "aws_secret", "key-value")


_CLOUD_REVEAL: Final = frozenset({"--with-decryption", "--decrypt", "--reveal", "--show-secrets", "--show-token",
                                  "--show-secret", "--include-secrets", "--plaintext"})
"""Options that make a read print secret values (``aws ssm get-parameter --with-decryption``)."""


def cloud(c: Call) -> None:
    ops = [t.lower() for t in operand_texts(c)]
    text = " ".join(ops)
    if any(word in text for word in _CLOUD_SECRET_WORDS) or any(w.text.split("=", 1)[0] in _CLOUD_REVEAL
                                                                 for w in c.args):
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
        read_only(c)
        c.eff.category = P.NET_READ


def database(c: Call) -> None:
    return None
