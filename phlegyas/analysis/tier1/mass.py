"""Deleting everything a listing prints: ``docker rm -f $(docker ps -aq)``, ``kubectl get ns -o name | xargs
kubectl delete``, ``helm list -A -q | xargs -n1 helm uninstall``, ``ps -eo pid= | xargs kill -9``,
``aws ec2 terminate-instances --instance-ids $(aws ec2 describe-instances …)``, every remote branch
``git branch -r`` lists pushed away or deleted, and a ``for`` loop over such a listing.

The destroying command names no target of its own: its targets are the whole output of the same tool's
listing. Unfiltered (no selector, no ``grep PATTERN`` between), that is every container, namespace,
release or process there is — the class ``rm -rf /`` is for files, so it is denied. A listing narrowed by
a selector or a pattern stays what it was (a person looks at it).
"""
from __future__ import annotations

from typing import Final, Sequence

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import SimpleCommand
from phlegyas.analysis.tier1.base import Out, add, is_prod
from phlegyas.analysis.tier1.words import inner_commands
from phlegyas.core.model import Verdict

# program → (the verbs that destroy what they are given, the verbs that list everything, the listing's filters)
_TOOLS: Final[dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]]] = {
    "docker": (frozenset({"rm", "rmi", "kill", "volume rm", "image rm", "container rm", "network rm",
                          "container kill", "volume remove", "image remove"}),
               frozenset({"ps", "images", "volume ls", "image ls", "container ls", "network ls", "volume list",
                          "container list", "image list"}),
               frozenset({"-f", "--filter"})),
    "kubectl": (frozenset({"delete"}), frozenset({"get"}),
                frozenset({"-l", "--selector", "--field-selector"})),
    "helm": (frozenset({"uninstall", "delete", "del", "un"}), frozenset({"list", "ls"}),
             frozenset({"-f", "--filter", "-l", "--selector"})),
    "kill": (frozenset({""}), frozenset(), frozenset()),
    "terraform": (frozenset({"state rm", "destroy -target", "taint"}), frozenset({"state list"}), frozenset({"-id"})),
    "tofu": (frozenset({"state rm", "taint"}), frozenset({"state list"}), frozenset({"-id"})),
    "gh": (frozenset({"repo delete", "release delete"}), frozenset({"repo list", "release list"}),
           frozenset({"--topic", "--language"})),
    "kopia": (frozenset({"snapshot delete", "snapshot rm"}), frozenset({"snapshot list", "snapshot ls"}), frozenset()),
    "aws": (frozenset({"ec2 terminate-instances", "ec2 delete-volume", "ec2 delete-snapshot", "lambda delete-function",
                       "ecr batch-delete-image", "rds delete-db-instance", "dynamodb delete-table",
                       "cloudformation delete-stack", "sqs delete-queue", "sns delete-topic", "s3 rb"}),
            frozenset({"ec2 describe-instances", "ec2 describe-volumes", "ec2 describe-snapshots",
                       "lambda list-functions", "ecr list-images", "rds describe-db-instances", "dynamodb list-tables",
                       "cloudformation list-stacks", "cloudformation describe-stacks", "sqs list-queues",
                       "sns list-topics", "s3 ls"}),
            frozenset({"--filters", "--filter", "--instance-ids", "--volume-ids", "--owner-ids", "--snapshot-ids",
                       "--prefix", "--queue-name-prefix"})),
    "doctl": (frozenset({"compute droplet delete", "compute volume delete", "compute snapshot delete",
                         "databases delete", "kubernetes cluster delete", "apps delete"}),
              frozenset({"compute droplet list", "compute volume list", "compute snapshot list", "databases list",
                         "kubernetes cluster list", "apps list"}),
              frozenset({"--tag-name", "--region"})),
    "gcloud": (frozenset({"compute instances delete", "compute disks delete", "sql instances delete",
                          "container clusters delete", "run services delete", "functions delete"}),
               frozenset({"compute instances list", "compute disks list", "sql instances list",
                          "container clusters list", "run services list", "functions list"}),
               frozenset({"--filter"})),
    "git": (frozenset({"push"}),  # remote branches; local ones (`git branch -D`) the reflog still has
            frozenset({"branch", "for-each-ref", "ls-remote", "tag"}),
            frozenset({"--contains", "--merged", "--no-merged", "--points-at", "--show-current", "--count"})),
}
_TOOLS["podman"] = _TOOLS["docker"]
MASS_TOOLS: Final = frozenset(_TOOLS)
_PROCESS_LISTERS: Final = frozenset({"ps"})
_PS_SELECTORS: Final = frozenset({"-u", "-U", "-p", "-q", "-C", "-t", "-s", "-g", "-G", "--pid", "--ppid", "--user",
                                  "--group", "--sid", "--tty", "--quick-pid", "-N", "--deselect"})
_KEEPING_FILTERS: Final = frozenset({"sed", "cut", "tr", "tail", "sort", "uniq", "xargs", "cat", "column"})
"""Between the listing and the destroyer: these reshape the names but keep (nearly) all of them (``tail -n +2``
drops a header; ``awk '{print $1}'`` picks a column)."""


def mass_deletes(invocations: Sequence[Invocation], out: Out, commands: Sequence[SimpleCommand] = ()) -> None:
    """``infra.destroy`` (or ``system.kill``) findings for the destroyers fed the whole of a listing."""
    read_from = _read_listings(commands)
    for inv in invocations:
        tool = _TOOLS.get(inv.program)
        if tool is None:
            continue
        verb = _verb(inv.program, [w.text for w in inv.args], tool[0])
        if verb is None:
            continue
        lister = _fed_listing(inv, tool)
        if lister is None and read_from:  # `gcloud … list | while read n z; do gcloud … delete "$n"; done`
            lister = next((" ".join(words) for var, words in read_from.items() if words[:1] == [inv.program]
                           and any(f"${var}" in w.text or "${" + var + "}" in w.text for w in inv.args)
                           and _lists_all(words[0], words[1:], inv.program, tool)), None)
        if lister is None:
            continue
        what = f"{inv.program} {verb}".strip()
        if inv.program == "kill":
            add(out, "system.kill", inv, f"kill signals every process `{lister}` lists")
        else:
            add(out, "infra.destroy", inv, f"{what} deletes everything `{lister}` lists", Verdict.DENY)
        return


def _read_listings(commands: Sequence[SimpleCommand]) -> dict[str, list[str]]:
    """``… | while read n z``: each variable ``read`` fills, and the words of the command whose output it reads
    (through filters that keep every line)."""
    out: dict[str, list[str]] = {}
    for cmd in commands:
        if not cmd.words or cmd.words[0].text != "read" or not cmd.upstream:
            continue
        source = commands[cmd.upstream[0]] if cmd.upstream[0] < len(commands) else None
        for _ in range(6):
            words = [w.text for w in source.words] if source is not None else []
            if source is None or not words or not _keeps(words[0], words[1:]) or not source.upstream:
                break
            source = commands[source.upstream[0]] if source.upstream[0] < len(commands) else None
        if source is not None and source.words and not source.words[0].dynamic:
            names = [w.text for w in cmd.words[1:] if w.text.isidentifier()]
            out.update((n, [w.text for w in source.words]) for n in names[:1])
    return out


def _verb(program: str, texts: list[str], verbs: frozenset[str]) -> str | None:
    if program == "kill":
        return ""
    words = [t for t in texts if not t.startswith("-")]
    if program == "git":  # `git push origin --delete {}`, `:branch` refspecs, or names fed in after the remote
        if words[:1] == ["push"] and ("--delete" in texts or "-d" in texts or any(":" in t for t in texts)
                                      or len(words) <= 2):
            return "push"
        return None
    for n in (3, 2, 1):
        if " ".join(words[:n]) in verbs:
            return " ".join(words[:n])
    return None


def _fed_listing(inv: Invocation, tool: tuple[frozenset[str], frozenset[str], frozenset[str]]) -> str | None:
    """The unfiltered listing of the same tool that gives ``inv`` its targets, as text, or None."""
    for w in inv.args:
        if "$(" in w.text or "`" in w.text:
            cmds = [[x.text for x in c.words] for c in inner_commands(w.text)]
            listers = [t for t in cmds if t and _lists_all(t[0], t[1:], inv.program, tool)]
            if len(listers) == 1 and all(t is listers[0] or t and _keeps(t[0], t[1:]) for t in cmds):
                return " ".join(listers[0])
    if "xargs" in inv.via:
        for up in inv.upstream:
            got = _listing_through_filters(up, inv.program, tool, 0)
            if got is not None:
                return got
    return None


def _listing_through_filters(up: Invocation, program: str,
                             tool: tuple[frozenset[str], frozenset[str], frozenset[str]], depth: int) -> str | None:
    if _lists_all(up.program, [w.text for w in up.args], program, tool):
        return " ".join([up.program, *(w.text for w in up.args)])
    if _keeps(up.program, [w.text for w in up.args]) and depth < 6:
        for u in up.upstream:
            got = _listing_through_filters(u, program, tool, depth + 1)
            if got is not None:
                return got
    return None


_VALUED: Final = frozenset({"-o", "--output", "-n", "--namespace", "--context", "--kubeconfig", "--format",
                            "--kube-context", "--template", "--json", "--limit", "-L"})


def _operands(texts: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for t in texts:
        if skip:
            skip = False
        elif t.startswith("-"):
            skip = t in _VALUED
        else:
            out.append(t)
    return out


def _keeps(program: str, texts: list[str]) -> bool:
    """Whether a filter between the listing and the destroyer keeps (nearly) every name: not ``grep PATTERN``
    nor ``awk '/x/ …'`` nor ``head``."""
    if program == "grep":
        return "-v" in texts
    if program == "awk":
        code = next((t for t in texts if not t.startswith("-")), "")
        return code.lstrip().startswith("{") and "if" not in code
    if program in ("jq", "gojq", "jaq"):  # `jq -r '.[].id'`: every item's field; select() or a test picks some
        code = next((t for t in texts if not t.startswith("-")), "")
        return not any(word in code for word in ("select", "test(", "==", "!=", "<", ">", "limit", "first", "[0]"))
    return program in _KEEPING_FILTERS


def _lists_all(lister: str, texts: list[str], program: str,
               tool: tuple[frozenset[str], frozenset[str], frozenset[str]]) -> bool:
    if program == "kill":
        return lister in _PROCESS_LISTERS and not any(
            t.split("=", 1)[0] in _PS_SELECTORS or "$" in t for t in texts)
    if lister != program:
        return False
    words = _operands(texts)
    listed = next((" ".join(words[:n]) for n in (3, 2, 1) if " ".join(words[:n]) in tool[1]), None)
    if listed is None:
        return False
    if any(t.split("=", 1)[0] in tool[2] for t in texts):  # a selector: only what it matches, unless that is
        chosen = [t.split("=", 1)[1] for t in texts if "=" in t and t.split("=", 1)[0] in tool[2]] + [
            texts[i + 1] for i, t in enumerate(texts[:-1]) if t in tool[2]]  # production (`Values=prod`)
        return any(is_prod(v) for v in chosen)
    if program == "kubectl":
        kinds = words[1:]
        return bool(kinds) and len(kinds) == 1  # `kubectl get ns`: every one of a kind; `get pod web-1` names one
    if program == "git":  # every branch or tag: `git branch -r`, `git for-each-ref refs/remotes/origin`, `git tag`
        return len(words) <= 1 or listed == "for-each-ref" and all(w.startswith("refs/") for w in words[1:]) \
            or listed == "ls-remote" and len(words) <= 2
    return True


def saved_destroy_plans(invocations: Sequence[Invocation], out: Out) -> None:
    """``terraform plan -destroy -out=p && terraform apply p``: a saved plan is applied without a question,
    and this one tears everything down (the line's other form of ``terraform destroy -auto-approve``)."""
    plans: set[str] = set()
    for inv in invocations:
        if inv.program not in ("terraform", "tofu"):
            continue
        texts = [w.text for w in inv.args]
        words = [t for t in texts if not t.startswith("-")]
        if words[:1] == ["plan"] and any(t in ("-destroy", "--destroy") for t in texts):
            plans.update(t.split("=", 1)[1] for t in texts if t.startswith(("-out=", "--out=")))
            plans.update(texts[i + 1] for i, t in enumerate(texts[:-1]) if t in ("-out", "--out"))
        elif words[:1] == ["apply"] and any(w in plans for w in words[1:]):
            add(out, "infra.destroy", inv, f"{inv.program} apply runs a saved destroy plan: the managed "
                                           "infrastructure, its databases and buckets included, goes without a "
                                           "question", Verdict.DENY)
            return


__all__ = ["MASS_TOOLS", "mass_deletes", "saved_destroy_plans"]
