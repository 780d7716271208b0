"""Destruction by verb in the tools ``tier1.cloud`` and ``tier1.backups`` do not cover, as a table: backups kept by
databases and machines (wal-g, pgBackRest, duplicity keeping one, Cassandra, a range of snapper's, all of
timeshift's), hosting platforms that delete an app or a site, schema tools that drop every object, message brokers
and coordination stores that delete topics or trees, virtual machines removed with their disks, snapshots of the
machine deleted. Whatever the names, data goes that no local undo brings back (``data.cloud_delete``).

Each row is (programs, the subcommand words in order, options of which one must be present or ``()``, what is lost).
The words are the command's operands, options and their values left out; ``--dry-run`` and the like make any row
harmless. A row's examples are run by the test suite as ``(command, "deny")``.
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.shell.expansion import literal
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import Out, add, env_for
from phlegyas.analysis.tier1.delete import detect_rm
from phlegyas.core.analysis import AnalysisEnv

_DRY: Final = frozenset({"--dry-run", "--dryrun", "--simulate", "--noop"})

ROWS: Final[tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], str, str], ...]] = (
    (("wal-g",), ("delete",), (), "database backups (wal-g delete)", "wal-g delete everything FORCE --confirm"),
    (("pgbackrest",), ("stanza-delete",), (), "a database's backups (pgbackrest stanza-delete)",
     "pgbackrest --stanza=main --force stanza-delete"),
    (("pgbackrest",), ("expire",), (), "database backups (pgbackrest expire)", "pgbackrest --stanza=main expire"),
    (("timeshift",), (), ("--delete-all",), "every system snapshot", "timeshift --delete-all --yes"),
    (("nodetool",), ("clearsnapshot",), (), "Cassandra snapshots (the node's backups)",
     "nodetool -h cass-1 clearsnapshot --all"),
    (("netlify",), ("sites:delete",), (), "a hosted site", "netlify sites:delete 3f2c6a1e --force"),
    (("vercel",), ("remove",), (), "a deployed project", "vercel remove acme-web --yes"),
    (("vercel",), ("rm",), (), "a deployed project", "vercel rm acme-web --yes"),
    (("vercel",), ("project", "rm"), (), "a project", "vercel project rm acme-web"),
    (("flyctl", "fly"), ("volumes", "destroy"), (), "an app's volume", "fly volumes destroy vol_123 --yes"),
    (("railway",), ("delete",), (), "a project", "railway delete --yes"),
    (("supabase",), ("projects", "delete"), (), "a database project", "supabase projects delete abcd"),
    (("firebase",), ("firestore:delete",), (), "Firestore documents", "firebase firestore:delete --all-collections -y"),
    (("firebase",), ("database:remove",), (), "Realtime Database data", "firebase database:remove / -y"),
    (("wrangler",), ("d1", "delete"), (), "a D1 database", "wrangler d1 delete prod-db -y"),
    (("wrangler",), ("r2", "bucket", "delete"), (), "an R2 bucket", "wrangler r2 bucket delete backups"),
    (("wrangler",), ("kv", "namespace", "delete"), (), "a KV namespace",
     "wrangler kv namespace delete --namespace-id x"),
    (("bq",), ("rm",), (), "BigQuery datasets or tables", "bq rm -r -f -d acme-prod:analytics"),
    (("nomad",), ("job", "stop"), ("-purge",), "a job and its history", "nomad job stop -purge api"),
    (("scw",), ("instance", "server", "terminate"), (), "a server and its volumes",
     "scw instance server terminate 1111 with-block=true"),
    (("linode-cli",), ("linodes", "delete"), (), "a server and its disks", "linode-cli linodes delete 41234567"),
    (("hcloud",), ("server", "delete"), (), "a server and its disks", "hcloud server delete web-1"),
    (("hcloud",), ("volume", "delete"), (), "a volume", "hcloud volume delete data-1"),
    (("virsh",), ("undefine",), ("--remove-all-storage", "--storage", "--wipe-storage"),
     "a virtual machine with its disks", "virsh undefine db --remove-all-storage"),
    (("vboxmanage", "VBoxManage"), ("unregistervm",), ("--delete", "--delete-all"), "a virtual machine with its disks",
     "VBoxManage unregistervm db --delete"),
    (("kafka-topics", "kafka-topics.sh"), (), ("--delete",), "Kafka topics and their messages",
     "kafka-topics.sh --bootstrap-server k:9092 --delete --topic '.*'"),
    (("zkCli.sh", "zkcli", "zookeeper-shell"), ("deleteall",), (), "a ZooKeeper tree",
     "zkCli.sh -server zk:2181 deleteall /kafka"),
    (("zkCli.sh", "zkcli", "zookeeper-shell"), ("rmr",), (), "a ZooKeeper tree", "zkCli.sh -server zk:2181 rmr /kafka"),
    (("atlas",), ("schema", "clean"), (), "every object of a database schema",
     "atlas schema clean -u postgres://db --auto-approve"),
    (("flyway",), ("clean",), (), "every object of the database's schemas",
     "flyway -url=jdbc:postgresql://db/app clean"),
    (("liquibase",), ("drop-all",), (), "every object of the database", "liquibase drop-all"),
    (("liquibase",), ("dropAll",), (), "every object of the database", "liquibase dropAll"),
    (("influx",), ("bucket", "delete"), (), "an InfluxDB bucket", "influx bucket delete -n metrics"),
    (("influx",), ("delete",), (), "InfluxDB data",
     "influx delete --bucket m --start 1970-01-01T00:00:00Z --stop 2030-01-01T00:00:00Z"),
    (("mc", "mcli"), ("rb",), (), "a bucket", "mc rb --force x/backups"),
    (("azcopy",), ("sync",), ("--delete-destination=true", "--delete-destination"), "the blobs the source lacks",
     "azcopy sync /tmp/empty 'https://x.blob.core.windows.net/backups' --delete-destination=true"),
    (("azcopy",), ("remove",), ("--recursive", "--recursive=true"), "a storage container's blobs",
     "azcopy remove 'https://x.blob.core.windows.net/backups' --recursive"),
    (("podman", "docker"), ("system", "reset"), (), "every container, image and volume",
     "podman system reset --force"),
    (("btrfs",), ("subvolume", "delete"), (), "a subvolume or snapshot", "btrfs subvolume delete /.snapshots/1"),
    (("lvremove",), (), (), "a logical volume and its data", "lvremove -f vg0/data"),
    (("vgremove",), (), (), "a volume group and its data", "vgremove -f vg0"),
    (("mdadm",), (), ("--zero-superblock", "--stop"), "a RAID array", "mdadm --zero-superblock /dev/sda"),
    (("unison",), (), ("-force",), "files the forced side lacks", "unison /tmp/empty /srv/data -force /tmp/empty"),
)


_EMPTIED_BY: Final = (  # (program, subcommand words, the variable naming the directory it empties)
    ("go", ("clean",), "-modcache", "GOMODCACHE"), ("go", ("clean",), "-cache", "GOCACHE"),
    ("cargo", ("clean",), "", "CARGO_TARGET_DIR"), ("npm", ("cache", "clean"), "", "npm_config_cache"),
    ("pip", ("cache", "purge"), "", "PIP_CACHE_DIR"), ("pip3", ("cache", "purge"), "", "PIP_CACHE_DIR"),
    ("uv", ("cache", "clean"), "", "UV_CACHE_DIR"), ("yarn", ("cache", "clean"), "", "YARN_CACHE_FOLDER"),
)


def detect_emptied_dirs(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``GOMODCACHE=$HOME go clean -modcache``: a cleaner empties the directory a variable names; that directory is
    judged as ``rm -rf`` of it would be (the home directory, the project, a system location deny)."""
    words = _operands(inv)
    texts = [w.text for w in inv.args]
    for program, path, flag, variable in _EMPTIED_BY:
        if inv.program != program or words[:len(path)] != list(path) or flag and flag not in texts:
            continue
        value = next((v for n, v in inv.command.assignments if n == variable), None)
        if value is None:
            continue
        found: Out = []
        candidate = Invocation("rm", [literal("-rf"), value], inv.command, inv.via, [], None, inv.remote)
        detect_rm(candidate, env_for(candidate, env), found)
        hit = next((f for f in found if f.id in ("delete.catastrophic", "delete.outside_project")), None)
        if hit is not None:
            add(out, hit.id, inv, f"{program} {' '.join(path)} empties {variable}={value.text}: {hit.message}")
            return


def _operands(inv: Invocation) -> list[str]:
    return [w.text for w in inv.args if not w.text.startswith("-")]


def detect_data_verbs(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """One of ``ROWS``: a backup, hosted app, schema, topic, tree or machine destroyed by its verb."""
    texts = [w.text for w in inv.args]
    if _DRY.intersection(t.split("=", 1)[0] for t in texts):
        return
    words = _operands(inv)
    if inv.program == "snapper" and "delete" in words and any(re.fullmatch(r"\d+-\d+", w) for w in words):
        add(out, "data.cloud_delete", inv, "snapper delete destroys a range of file system snapshots")
        return
    if inv.program == "duplicity" and words[:1] in (["remove-all-but-n-full"], ["remove-all-inc-of-but-n-full"]) \
            and len(words) > 1 and words[1].isdigit() and int(words[1]) <= 1:
        add(out, "data.cloud_delete", inv, f"duplicity {words[0]} {words[1]} keeps one backup at most")
        return
    for programs, path, flags, what, _ in ROWS:
        if inv.program not in programs:
            continue
        if path and not _in_order(words, path):
            continue
        if flags and not any(t == f or t.startswith(f + "=") for t in texts for f in flags):
            continue
        add(out, "data.cloud_delete", inv, f"{inv.program} {' '.join(path)} destroys {what}".replace("  ", " "))
        return


def _in_order(words: list[str], path: tuple[str, ...]) -> bool:
    """``path`` is a run of ``words`` (``velero backup delete``), starting at one of the first three."""
    n = len(path)
    return any(words[i:i + n] == list(path) for i in range(min(3, len(words))))


PROGRAMS: Final = frozenset(p for row in ROWS for p in row[0]) | {"snapper", "duplicity"}
CLEANERS: Final = frozenset(row[0] for row in _EMPTIED_BY)

__all__ = ["CLEANERS", "PROGRAMS", "ROWS", "detect_data_verbs", "detect_emptied_dirs"]
