"""Destruction by verb in the cloud: object storage and managed data deleted, whatever the names.

A production marker is not needed here (``tier1/prod.py`` covers changes aimed at production): removing
objects or buckets, syncing with deletion into a bucket, or deleting a table, database, snapshot, backup,
volume or key of a managed service loses data that no local undo brings back. The operation is read from
the command's words, as each CLI spells it:

- ``aws SERVICE OPERATION``: ``s3 rm``/``rb``, ``s3 sync … s3://… --delete``, ``s3 mv s3://…``, and
  ``delete-*``/``remove-*``/``terminate-*``/``purge-*``/``schedule-key-deletion`` of a data service;
- ``gsutil rm``/``rb``/``rsync -d``; ``gcloud … delete`` under storage, SQL, Bigtable, Spanner, Firestore,
  Datastore, BigQuery, Filestore, Memorystore, snapshots and disks; ``gcloud storage rm``;
- ``az … delete``/``delete-batch``/``purge`` under storage, SQL, Cosmos DB, key vault, backups, disks,
  snapshots, and ``az group delete`` (a whole resource group);
- ``rclone delete``/``deletefile``/``purge``/``rmdir``/``rmdirs``/``cleanup``, ``rclone sync`` (it deletes
  what the source lacks); ``s3cmd del``/``rm``/``rb``, ``sync --delete-removed``; MinIO's ``mc rm``/``rb``;
  ``doctl databases delete``, ``doctl compute volume``/``snapshot delete``.

Other deletions of a cloud CLI (an instance, a function, a queue) are infrastructure: ``infra.destroy``
asks. ``--dryrun``/``--dry-run`` makes any of them harmless.
"""
from __future__ import annotations

import re
from typing import Callable, Final

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import Out, add
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Verdict

_DELETE_VERBS = ("delete", "remove", "terminate", "purge", "destroy", "drop", "batch-delete", "schedule-key-deletion")
_AWS_DATA = frozenset({"s3", "s3api", "s3control", "dynamodb", "rds", "redshift", "redshift-serverless",
                       "elasticache", "memorydb", "docdb", "docdb-elastic", "neptune", "glacier", "backup", "efs",
                       "fsx", "ebs", "kms", "secretsmanager", "ssm", "logs", "ecr", "timestream-write", "keyspaces",
                       "opensearch", "es", "qldb", "kinesis", "firehose", "glue", "athena", "lakeformation",
                       "dax", "storagegateway", "datasync", "lightsail"})
_AWS_EC2_DATA: Final = ("delete-volume", "delete-snapshot", "deregister-image", "delete-fpga-image")
_GCLOUD_DATA: Final = frozenset({"storage", "sql", "bigtable", "spanner", "firestore", "datastore", "bigquery",
                                 "filestore", "redis", "memcache", "alloydb", "kms", "secrets", "artifacts", "logging",
                                 "pubsub", "backup-dr", "dataproc", "composer"})
_GCLOUD_COMPUTE_DATA: Final = frozenset({"disks", "snapshots", "images", "machine-images", "instant-snapshots"})
_AZ_DATA = frozenset({"storage", "sql", "cosmosdb", "keyvault", "backup", "disk", "snapshot", "mysql", "postgres",
                      "mariadb", "redis", "synapse", "datalake", "dls", "dla", "kusto", "monitor", "acr",
                      "netappfiles", "hdinsight", "databricks", "sig", "image"})
_RCLONE_DELETES: Final = frozenset({"delete", "deletefile", "purge", "rmdir", "rmdirs", "cleanup", "sync", "move"})


def _words(inv: Invocation) -> list[str]:
    """The words that are not options, options' values skipped where the CLI's options are ``--name value``
    (an option's value never starts a subcommand path, but an operand may follow a flag)."""
    out: list[str] = []
    skip = False
    for w in inv.args:
        t = w.text
        if skip:
            skip = False
            continue
        if t.startswith("--") and "=" not in t and t[2:] in _VALUE_OPTS:
            skip = True
            continue
        if t.startswith("-"):
            continue
        out.append(t)
    return out


_VALUE_OPTS: Final = frozenset({"profile", "region", "endpoint-url", "output", "query", "project", "account", "format",
                                "configuration", "subscription", "resource-group", "name", "cli-input-json", "zone",
                                "bucket", "key", "table-name", "db-instance-identifier", "db-cluster-identifier",
                                "snapshot-id", "volume-id", "instance", "database", "config", "exclude", "include",
                                "acl", "storage-class", "sse", "sse-kms-key-id", "content-type", "cache-control",
                                "expires", "grants", "metadata", "page-size", "source-region"})


def _dry(inv: Invocation) -> bool:
    marks = ("--dryrun", "--dry-run", "-n") if inv.program in ("rclone", "gsutil") else ("--dryrun", "--dry-run")
    return any(w.text in marks for w in inv.args)


_DELETE_PREFIXES: Final = tuple(v + sep for v in _DELETE_VERBS for sep in ("-", "_"))


def _is_delete(verb: str) -> bool:
    """``delete``, ``delete-table``, ``batch-delete-image``: not ``droplet`` (a word that merely starts so)."""
    return verb in _DELETE_VERBS or verb.startswith(_DELETE_PREFIXES)


_AWS_AUDIT: Final = frozenset({("cloudtrail", "delete-trail"), ("cloudtrail", "stop-logging"),
                                ("guardduty", "delete-detector"), ("configservice", "delete-configuration-recorder"),
                                ("configservice", "stop-configuration-recorder"),
                                ("securityhub", "disable-security-hub"), ("logs", "delete-log-group")})


def _aws(inv: Invocation, words: list[str]) -> str | None:
    if len(words) < 2:
        return None
    service, op = words[0], words[1]
    if service == "s3":
        if op in ("rm", "rb"):
            return f"aws s3 {op} {words[2] if len(words) > 2 else ''}".strip()
        dest = words[3] if len(words) > 3 else ""  # `sync SRC DEST` (an option's value, `public-read`, may follow)
        if op == "sync" and any(w.text == "--delete" for w in inv.args) and dest.startswith("s3://"):
            return f"aws s3 sync --delete into {dest}"
        if op == "mv" and len(words) > 2 and words[2].startswith("s3://"):
            return f"aws s3 mv moves (deletes) the objects of {words[2]}"
        return None
    if service == "ec2":
        return f"aws ec2 {op}" if op.startswith(_AWS_EC2_DATA) else None
    if (service, op) in _AWS_AUDIT:  # the record of who did what in the account: its own deletion is hidden
        return f"aws {service} {op} (the account's audit trail or threat detection)"
    if service in _AWS_DATA and _is_delete(op):
        return f"aws {service} {op}"
    return None


def _gcloud(inv: Invocation, words: list[str]) -> str | None:
    words = [w for w in words if w not in ("alpha", "beta", "preview")]
    if not words:
        return None
    group = words[0]
    if group == "storage" and len(words) > 1 and words[1] == "rm":
        return "gcloud storage rm"
    if group == "storage" and len(words) > 1 and words[1] == "rsync" and any(
            w.text == "--delete-unmatched-destination-objects" for w in inv.args):
        return f"gcloud storage rsync --delete-unmatched-destination-objects into {words[-1]}"
    if "delete" not in words[1:5]:
        return None
    if group in _GCLOUD_DATA or group == "compute" and len(words) > 1 and words[1] in _GCLOUD_COMPUTE_DATA:
        return "gcloud " + " ".join(words[:words.index("delete") + 1])
    return None


def _gsutil(inv: Invocation, words: list[str]) -> str | None:
    if not words:
        return None
    if words[0] in ("rm", "rb"):
        return f"gsutil {words[0]} {words[1] if len(words) > 1 else ''}".strip()
    if words[0] == "rsync" and any(w.text in ("-d",) or w.text.startswith("-") and not w.text.startswith("--")
                                   and "d" in w.text[1:] for w in inv.args):
        return f"gsutil rsync -d into {words[-1]}"
    return None


def _az(inv: Invocation, words: list[str]) -> str | None:
    if not words:
        return None
    if words[:2] == ["group", "delete"]:
        return "az group delete (every resource in the group)"
    for i, w in enumerate(words[1:6], 1):
        if w in ("delete", "delete-batch", "purge", "remove") and words[0] in _AZ_DATA:
            return "az " + " ".join(words[:i + 1])
    return None


def _rclone(inv: Invocation, words: list[str]) -> str | None:
    if words and words[0] in _RCLONE_DELETES:
        return f"rclone {words[0]} {words[-1] if len(words) > 1 else ''}".strip()
    return None


def _s3cmd(inv: Invocation, words: list[str]) -> str | None:
    if words and words[0] in ("del", "rm", "rb", "delete"):
        return f"s3cmd {words[0]}"
    if words and words[0] == "sync" and any(w.text == "--delete-removed" for w in inv.args):
        return "s3cmd sync --delete-removed"
    return None


def _mc(inv: Invocation, words: list[str]) -> str | None:
    if words and words[0] in ("rm", "rb"):
        return f"mc {words[0]}"
    if words and words[0] == "mirror" and any(w.text == "--remove" for w in inv.args):
        return "mc mirror --remove"
    return None


def _doctl(inv: Invocation, words: list[str]) -> str | None:
    if len(words) >= 2 and words[0] == "databases" and "delete" in words[1:4]:
        return "doctl " + " ".join(words[:words.index("delete") + 1])
    if len(words) >= 3 and words[0] == "compute" and words[1] in ("volume", "snapshot", "image") and \
            words[2] == "delete":
        return f"doctl compute {words[1]} delete"
    return None


def detect_cloud_data(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """Object storage and managed data deleted (see the module docstring)."""
    if _dry(inv):
        return
    words = _words(inv)
    prog = inv.program
    reader = _READERS.get(prog)
    what = reader(inv, words) if reader is not None else None
    if what is not None:
        add(out, "data.cloud_delete", inv, f"{what}: deletes cloud data that no local undo brings back")
    elif prog in ("gh", "glab") and (got := api_delete(inv)) is not None:
        add(out, "net.http_delete", inv, f"{prog} api sends an HTTP DELETE to {got[0]}")
    elif prog in ("aws", "gcloud", "az", "doctl") and any(_is_delete(w) for w in words[1:4]):
        add(out, "infra.destroy", inv, f"{prog} {' '.join(words[:3])} deletes cloud resources", Verdict.ASK)


def _hosted_repo(inv: Invocation, words: list[str]) -> str | None:
    """``gh repo delete``, ``glab repo delete``: a hosted repository with its issues, reviews and releases."""
    if words[:2] == ["repo", "delete"]:
        return f"{inv.program} repo delete {words[2] if len(words) > 2 else '(the current repository)'}"
    return None


_API_VALUES: Final = frozenset({"-X", "--method", "-H", "--header", "-f", "--raw-field", "-F", "--field", "-q", "--jq",
                                "-t", "--template", "--input", "-p", "--preview", "--hostname", "--cache"})
_GRAVE_ENDPOINT: Final = re.compile(r"^/?(?:repos/[^/]+/[^/]+|orgs/[^/]+|projects/[^/]+|groups/[^/]+|user/packages/.+|"
                                    r"orgs/[^/]+/packages/.+|repos/[^/]+/[^/]+/(?:releases|git/refs|environments|"
                                    r"actions/(?:caches|artifacts|runs))(?:/.*)?)/?$")
"""A DELETE on these API paths removes a repository, an organisation, a project or group (GitLab), a
package, a release, a branch or tag, an environment or the CI's stored artefacts: as ``gh repo delete``."""


def api_delete(inv: Invocation) -> tuple[str, bool] | None:
    """``gh api -X DELETE repos/me/x`` (``--method DELETE``, ``-XDELETE``, the method after the path):
    (the endpoint, whether it is a repository, organisation or the like), or None for another method."""
    args = [w.text for w in inv.args]
    if not args or args[0] != "api":
        return None
    method, endpoint = None, None
    i = 1
    while i < len(args):
        t = args[i]
        name, eq, value = t.partition("=")
        if t.startswith("-X") and len(t) > 2:
            method = t[2:]
        elif name in ("-X", "--method") and eq:
            method = value
        elif t in _API_VALUES:
            if t in ("-X", "--method") and i + 1 < len(args):
                method = args[i + 1]
            i += 1
        elif not t.startswith("-") and endpoint is None:
            endpoint = t
        i += 1
    if method is None or method.upper() != "DELETE":
        return None
    endpoint = endpoint or "(no endpoint)"
    return endpoint, bool(_GRAVE_ENDPOINT.match(endpoint.split("?", 1)[0]))


def _hosted(inv: Invocation, words: list[str]) -> str | None:
    """``gh repo delete``, and a DELETE through ``gh api``/``glab api`` on a repository or organisation."""
    got = api_delete(inv)
    if got is not None and got[1]:
        return f"{inv.program} api DELETE {got[0]}"
    return _hosted_repo(inv, words)


_READERS: Final[dict[str, Callable[[Invocation, list[str]], "str | None"]]] = {
    "aws": _aws, "gcloud": _gcloud, "gsutil": _gsutil, "az": _az, "rclone": _rclone, "s3cmd": _s3cmd, "mc": _mc,
    "doctl": _doctl, "gh": _hosted, "glab": _hosted,
}
"""Each CLI's reader: the deletion its words spell, or None."""
CLOUD_PROGRAMS: Final = tuple(_READERS)
