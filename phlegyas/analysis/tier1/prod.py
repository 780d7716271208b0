"""Production targets of mutating commands, and infrastructure teardown.

A command is judged only when it changes something (``kubectl delete``, ``terraform apply``,
``helm upgrade``, a deploy script); then a production marker (a token ``prod``/``production``/``prd`` in
a context, namespace, workspace, var file, host, stage or ``ENV=`` assignment) denies it. Read-only
commands that merely mention production (``kubectl get pods -n production``, ``terraform plan``,
``grep prod config.yml``) pass.
"""
from __future__ import annotations

from typing import Final

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import parse
from phlegyas.analysis.tier1.base import Out, add, is_prod, parse_opts, prod_words
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Verdict

# -- kubectl, helm -----------------------------------------------------------------------------------

_KUBECTL_VALUES = frozenset({"--context", "-n", "--namespace", "--kubeconfig", "--cluster", "--user", "-s",
                             "--server", "--token", "--as", "--as-group", "--request-timeout", "-l", "--selector",
                             "-o", "--output", "-f", "--filename", "-c", "--container"})
KUBECTL_MUTATING: Final = frozenset({"delete", "apply", "patch", "scale", "replace", "edit", "drain", "cordon",
                                     "uncordon", "create", "set", "label", "annotate", "taint", "autoscale", "expose",
                                     "run", "exec", "cp", "debug", "attach", "rollout", "kustomize-apply"})
_ROLLOUT_READ: Final = frozenset({"status", "history"})


def _first_positional(args, values: frozenset[str]) -> tuple[int, str | None]:
    i = 0
    while i < len(args):
        t = args[i].text
        if t.startswith("-"):
            if "=" not in t and t in values:
                i += 1
            i += 1
            continue
        return i, t
    return i, None


def detect_kubectl(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    idx, verb = _first_positional(inv.args, _KUBECTL_VALUES)
    if verb not in KUBECTL_MUTATING:
        return
    rest = [w.text for w in inv.args[idx + 1:]]
    if verb == "rollout" and (not rest or rest[0] in _ROLLOUT_READ):
        return
    if any(t in ("--dry-run", "--dry-run=client", "--dry-run=server") for t in rest):
        return
    marks = prod_words(inv)
    if marks:
        add(out, "prod.target", inv, f"kubectl {verb} against production ({marks[0]})")
    elif verb == "delete" and rest[:1] and rest[0].split("/")[0] in _K8S_VOLUMES:  # the volume and its data go
        add(out, "data.cloud_delete", inv, f"kubectl delete {' '.join(rest[:2])} deletes persistent volumes and the "
                                           "data on them")
    elif verb == "delete" and (wide := _cluster_wide(inv.args, rest)) is not None:
        add(out, "infra.destroy", inv, f"kubectl delete {' '.join(rest[:2])} {wide}", Verdict.DENY)
    elif verb == "delete" and (any(t in ("--all", "-A", "--all-namespaces") for t in rest)
                               or rest[:1] and rest[0] in ("namespace", "ns", "namespaces", "node")):
        add(out, "infra.destroy", inv, f"kubectl delete {' '.join(rest[:2])} removes many resources or their data")
    elif verb == "delete" and (manifest := _manifests(inv)) is not None:
        add(out, "infra.destroy", inv, f"kubectl delete {manifest} removes every resource the manifests there "
                                         "declare (namespaces, volumes and their data included)")
    elif verb == "drain":
        extra = [t for t in rest if t in ("--force", "--delete-emptydir-data", "--delete-local-data",
                                         "--disable-eviction")]
        node = next((t for t in rest if not t.startswith("-")), "a node")
        add(out, "infra.destroy", inv, f"kubectl drain evicts every pod from {node}"
            + (f" ({', '.join(extra)}: unmanaged pods and their emptyDir data are deleted)" if extra else ""))


_NAMESPACES: Final = frozenset({"namespace", "ns", "namespaces"})


def _cluster_wide(args: list, rest: list[str]) -> str | None:
    """Why a ``kubectl delete`` empties the cluster, or None: every namespace (``delete ns --all``), every
    resource of every namespace (``--all -A``), or the system's own (``-n kube-system … --all``)."""
    texts = [w.text for w in args]
    every = "--all" in rest
    kinds = set(rest[0].split(",")) if rest else set()
    if every and kinds & _NAMESPACES:
        return "deletes every namespace and all that is in them"
    if every and kinds & {"node", "nodes", "no"}:
        return "removes every node from the cluster (every workload stops)"
    if every and kinds & {"pv", "persistentvolume", "persistentvolumes"}:
        return "deletes every persistent volume and its data"
    if every and kinds & {"crd", "crds", "customresourcedefinition", "customresourcedefinitions"}:
        return "deletes every custom resource definition and every resource of those kinds"
    if every and any(t in ("-A", "--all-namespaces") for t in texts):
        return "deletes those resources in every namespace"
    if every and any(t in ("kube-system", "--namespace=kube-system", "-nkube-system") for t in texts):
        return "deletes the cluster's own system components"
    return None


def _manifests(inv: Invocation) -> str | None:
    """``kubectl delete -f DIR``/``-k DIR``/``-R``: the manifests whose resources are deleted, as written."""
    opts = parse_opts(inv.args, short_values="fknlo", long_values=frozenset({"--filename", "--kustomize", "--namespace",
                                                                            "--selector", "--context", "--output"}))
    for flag in ("-k", "--kustomize"):
        if opts.has(flag):
            return f"{flag} {opts.first(flag) or ''}".strip()
    for given in opts.values("-f", "--filename"):
        return f"-f {given}"
    return None


_HELM_MUTATING: Final = frozenset({"install", "upgrade", "uninstall", "delete", "del", "un", "rollback", "test"})


def detect_helm(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    _, verb = _first_positional(inv.args, frozenset({"--kube-context", "-n", "--namespace", "--kubeconfig"}))
    if verb not in _HELM_MUTATING or any(w.text == "--dry-run" or w.text.startswith("--dry-run=") for w in inv.args):
        return
    marks = prod_words(inv)
    if marks:
        add(out, "prod.target", inv, f"helm {verb} against production ({marks[0]})")
    elif verb in ("uninstall", "delete", "del", "un"):
        add(out, "infra.destroy", inv, f"helm {verb} removes a release and its resources")


# -- terraform and friends ----------------------------------------------------------------------------

_TF_MUTATING: Final = frozenset({"apply", "destroy", "import", "taint", "untaint", "refresh", "force-unlock", "up",
                                 "update", "cancel", "deploy", "run-all"})
_NO_CONFIRMATION: Final = frozenset({"-auto-approve", "--auto-approve", "-y", "--yes", "--force", "-f",
                                     "--non-interactive", "--skip-preview", "--terragrunt-non-interactive"})
_K8S_VOLUMES: Final = frozenset({"pv", "pvc", "persistentvolume", "persistentvolumes", "persistentvolumeclaim",
                                 "persistentvolumeclaims"})
"""Options that answer a teardown's confirmation in advance (terraform/tofu, pulumi, cdk)."""
_TF_STATE_WRITES: Final = frozenset({"rm", "mv", "push", "replace-provider", "delete"})


def detect_terraform(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """terraform/tofu/terragrunt/pulumi/cdk: ``apply``/``destroy``… with a prod workspace, var or stack."""
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    if not words:
        return
    verb = words[0]
    if verb in ("state", "workspace", "stack") and len(words) > 1:
        if words[1] not in _TF_STATE_WRITES:
            return
        verb = f"{verb} {words[1]}"
    elif verb == "run-all" and len(words) > 1:
        verb = f"run-all {words[1]}"
        if words[1] not in _TF_MUTATING:
            return
    elif verb not in _TF_MUTATING:
        return
    marks = prod_words(inv)
    if marks:
        add(out, "prod.target", inv, f"{inv.program} {verb} against production ({marks[0]})")
    elif "destroy" in verb or verb.endswith("apply") and any(w.text in ("-destroy", "--destroy") for w in inv.args):
        how = f"{verb} -destroy" if "destroy" not in verb else verb
        unasked = next((w.text for w in inv.args if w.text.split("=")[0] in _NO_CONFIRMATION), None)
        for name, value in inv.command.assignments:  # TF_CLI_ARGS_destroy=-auto-approve: the same option, given
            if name in ("TF_CLI_ARGS", "TF_CLI_ARGS_destroy", "TF_CLI_ARGS_apply", "TF_INPUT") and unasked is None:
                given = next((t for t in value.text.split() if t.split("=")[0] in _NO_CONFIRMATION), None)
                unasked = f"({name}={given})" if given else ("(TF_INPUT=0)" if value.text in ("0", "false") else None)
        if unasked is not None:  # nobody is asked "yes": the databases and buckets in the state go too
            add(out, "infra.destroy", inv, f"{inv.program} {how} {unasked} tears down the managed infrastructure, "
                                           "its databases and buckets included, without asking", Verdict.DENY)
        else:
            add(out, "infra.destroy", inv, f"{inv.program} {how} tears down the managed infrastructure")


# -- cloud CLIs ---------------------------------------------------------------------------------------

_CLOUD_MUTATING_PREFIXES = ("delete", "terminate", "remove", "put", "update", "create", "modify", "stop", "reboot",
                            "detach", "disassociate", "revoke", "deregister", "rm", "rb", "mv", "deploy", "reset",
                            "restore", "set", "apply", "patch", "resize", "scale", "rollback", "purge", "destroy",
                            "start", "run", "invoke", "publish", "attach", "replace", "import", "sync", "cp")


def _cloud_verb(inv: Invocation) -> str | None:
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    if words and words[0] == "config":
        return None
    for w in words[1:4]:
        if w.lower().startswith(_CLOUD_MUTATING_PREFIXES):
            if w in ("cp", "sync") and not any(x.startswith(("s3://", "gs://")) for x in words[-1:]):
                return None  # a download
            return w
    return None


def detect_cloud(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """aws/gcloud/az/gsutil/doctl…: a mutating operation on something named production."""
    verb = _cloud_verb(inv)
    if verb is None or any(w.text in ("--dry-run", "--dryrun") for w in inv.args):
        return
    marks = prod_words(inv)
    if marks:
        add(out, "prod.target", inv, f"{inv.program} {verb} against production ({marks[0]})")


_DOCKER_MUTATING: Final = frozenset({"rm", "rmi", "stop", "kill", "run", "exec", "restart", "up", "down", "start",
                                     "prune", "deploy", "update", "scale", "create", "push", "cp", "pause"})


def detect_docker(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    if not any(w in _DOCKER_MUTATING for w in words[:5]):  # (`compose -f F -p P down`: values come first)
        return
    marks = prod_words(inv)
    if marks:
        verb = next(w for w in words[:5] if w in _DOCKER_MUTATING)
        add(out, "prod.target", inv, f"{inv.program} {'compose ' if 'compose' in words[:1] else ''}{verb} against "
                                     f"production ({marks[0]})")
    elif "prune" in words[:3] and ("system" in words[:2] or "volume" in words[:2]):
        texts = [w.text for w in inv.args]
        short = "".join(t[1:] for t in texts if t.startswith("-") and not t.startswith("--"))
        every = (words[:1] == ["volume"] or "--volumes" in texts) and ("a" in short or "--all" in texts) and (
            "f" in short or "--force" in texts)  # `system prune -af --volumes`: every unused volume, unasked
        add(out, "infra.destroy", inv, f"{inv.program} {' '.join(words[:2])} deletes unused images, "
                                       "containers or volumes and their data" + (
                                           ": every volume no running container holds, without asking" if every
                                           else ""), Verdict.DENY if every else None)
    elif words[:2] in (["volume", "rm"], ["volume", "remove"]):
        add(out, "infra.destroy", inv, "docker volume rm deletes a volume's data")


# -- ssh, scp, rsync to production hosts --------------------------------------------------------------

_SSH_VALUES: Final = "BbcDEeFIiJLlmOopQRSWw"
REMOTE_READONLY = frozenset({"ls", "cat", "tail", "head", "grep", "uptime", "df", "du", "ps", "top", "free", "who",
                             "w", "hostname", "uname", "date", "journalctl", "whoami", "id", "pwd", "echo",
                             "less", "stat", "find", "wc", "env", "printenv", "true", "exit", "ping"})
_SYSTEMCTL_READ: Final = frozenset({"status", "is-active", "is-enabled", "list-units", "show", "cat"})


def _remote_readonly(words: list[str]) -> bool:
    """A remote command line (already split) that only reads, judged on its programs."""
    if not words:
        return False
    script = parse(" ".join(words))
    if script.problems:
        return False
    for cmd in script.commands:
        argv = cmd.argv
        prog = cmd.program
        if prog in REMOTE_READONLY:
            continue
        if prog == "systemctl" and len(argv) > 1 and argv[1] in _SYSTEMCTL_READ:
            continue
        if prog in ("docker", "kubectl") and len(argv) > 1 and argv[1] in ("ps", "logs", "get", "describe", "images"):
            continue
        return False
    return True


def detect_ssh(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    opts = parse_opts(inv.args, short_values=_SSH_VALUES, stop_at_operand=True)
    if not opts.operands:
        return
    host = opts.operands[0].text
    if not is_prod(host) and not any(is_prod(v) for v in opts.values("-l", "-J")):
        return
    command = [w.text for w in opts.operands[1:]]
    if _remote_readonly(command):
        return
    if not command and inv.stdin_text is None and not inv.upstream:
        add(out, "prod.target", inv, f"opens a shell on the production host {host}", Verdict.ASK)
        return
    add(out, "prod.target", inv, f"runs {' '.join(command)[:60] or 'its input'} on the production host {host}")


def detect_copy_to_host(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """scp/rsync/sftp uploads to a production host."""
    operands = [w.text for w in inv.args if not w.text.startswith("-")]
    if len(operands) < 2:
        return
    dest = operands[-1]
    head = dest.split("/", 1)[0]
    if (":" in head or dest.startswith("rsync://")) and is_prod(head):
        add(out, "prod.target", inv, f"{inv.program} copies files onto the production host {head.split(':')[0]}")


# -- generic deploy-like commands ---------------------------------------------------------------------

DEPLOY_VERBS = frozenset({"deploy", "release", "rollout", "promote", "provision", "migrate", "destroy", "teardown",
                          "publish", "ship", "apply", "up", "down", "rollback", "restart", "scale", "upgrade",
                          "uninstall", "undeploy", "drop", "reset", "seed", "remove", "delete", "push", "sync"})
_NOT_DEPLOY: Final = frozenset({
    "grep", "egrep", "fgrep", "rg", "ag", "ack", "git", "cat", "less", "more", "head", "tail", "echo", "printf", "ls",
    "find", "sed", "awk", "jq", "yq", "diff", "wc", "sort", "uniq", "cut", "tr", "man", "which", "type", "file",
    "stat", "tree", "bat", "vim", "vi", "nvim", "nano", "emacs", "code", "open", "xdg-open", "test", "[", "true",
    "false", "cd", "pushd", "mkdir", "touch", "cp", "mv", "tar", "zip", "unzip", "du", "df", "history", "help",
    "tldr", "info", "source", ".", "export", "declare", "local", "set", "unset", "read", "rm", "ln", "chmod",
    "pytest", "curl", "wget", "pip", "pip3", "tee", "xargs", "env", "sudo", "time", "timeout", "nohup", "watch",
})
"""Programs that are never deploy commands themselves (their arguments may still say deploy/prod)."""
_PACKAGE_MANAGERS: Final = frozenset({"npm", "pnpm", "yarn", "bun", "pip", "uv", "poetry", "composer", "bundle"})
_DEPENDENCY_FLAGS: Final = frozenset({"prod", "production", "only", "omit", "without", "no-dev"})
_PROD_FLAG_DEPLOYERS: Final = frozenset({"vercel", "netlify", "wrangler", "railway", "firebase", "amplify"})
_ALWAYS_MUTATING: Final = frozenset({"ansible-playbook", "kamal", "cap", "skaffold"})
_DRY: Final = ("--dry-run", "--check", "--plan", "--diff", "--preview", "--what-if", "--noop", "--syntax-check",
               "--list-hosts", "--list-tasks")


def _deploy_like(inv: Invocation) -> str | None:
    """The verb that makes ``inv`` change something (a deploy verb in the program's name or its first
    words), or None."""
    prog = inv.program
    name_tokens = prog.lower().replace("_", "-").replace(".", "-").split("-")
    verb = next((t for t in name_tokens if t in DEPLOY_VERBS), None)
    if verb:
        return verb
    if prog in _ALWAYS_MUTATING:
        return prog
    positional = [w.text.lower() for w in inv.args if not w.text.startswith("-")][:3]
    for word in positional:
        for tok in word.replace(":", "-").replace("_", "-").replace("/", "-").replace(".", "-").split("-"):
            if tok in DEPLOY_VERBS:
                return tok
    return None


def detect_deploy(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """Any other program that deploys or changes something, aimed at production."""
    if inv.program in _NOT_DEPLOY:
        return
    marks = prod_words(inv)
    if not marks:
        return
    if any(w.text.startswith(_DRY) for w in inv.args):
        return
    if inv.program in _PACKAGE_MANAGERS:
        marks = [m for m in marks if not m.startswith("-") or m.lstrip("-").split("=", 1)[0] not in _DEPENDENCY_FLAGS]
        if not marks:
            return  # npm install --production: dependencies, not an environment
    verb = _deploy_like(inv)
    if verb is None and inv.program in _PROD_FLAG_DEPLOYERS and any(
            w.text.startswith(("--prod", "--production")) for w in inv.args):
        verb = "deploy"
    if verb is not None:
        add(out, "prod.target", inv, f"{inv.program} {verb} aimed at production ({marks[0]})")
