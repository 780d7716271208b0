"""Backups, secret stores and private keys destroyed by their own tools: the copies that would undo any
other mistake.

- ``restic forget``/``prune`` and ``borg delete``/``prune``, ``tarsnap -d``, ``kopia snapshot delete``: a
  retention run (``--keep-last 7``) or one archive asks (``data.cloud_delete`` at ask); every snapshot,
  given as ids listed by the same tool (``restic forget $(restic snapshots -q …)``), or a whole borg
  repository (``borg delete /mnt/backup/repo``, no ``::archive``) denies.
- ``vault secrets disable PATH`` (the engine and every secret in it), ``vault kv destroy`` and
  ``vault kv metadata delete`` (every version, for good): deny; ``vault kv delete`` (a soft delete, undone
  by ``undelete``) asks.
- ``velero backup delete --all`` (every cluster backup) denies; one backup asks.
- ``gpg --delete-secret-keys`` / ``--delete-secret-and-public-key``: private keys are gone like
  ``rm ~/.ssh/id_rsa`` (``delete.catastrophic``, deny); ``--delete-keys`` of public keys asks.
"""
from __future__ import annotations

from typing import Final

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import Out, add
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Verdict

_DRY: Final = frozenset({"--dry-run", "-n", "--dryrun"})


def _words(inv: Invocation) -> tuple[list[str], list[str]]:
    texts = [w.text for w in inv.args]
    return texts, [t for t in texts if not t.startswith("-")]


_RESTIC_VALUES: Final = frozenset({"-r", "--repo", "--repository-file", "-o", "--option", "-p", "--password-file",
                                   "--password-command", "--cache-dir", "--limit-upload", "--limit-download"})


def detect_restic(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts, _ = _words(inv)
    words = [t for i, t in enumerate(texts) if not t.startswith("-") and (i == 0 or texts[i - 1] not in _RESTIC_VALUES)]
    if not words or words[0] not in ("forget", "prune") or _DRY & set(texts):
        return
    listed = any(w.dynamic and "restic" in w.text and "snapshots" in w.text for w in inv.args[1:])
    keeps = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t.startswith("--keep-")]
    if keeps and "--prune" in texts and all(k.isdigit() and int(k) <= 1 for k in keeps):
        add(out, "data.cloud_delete", inv, "restic forget --prune keeps one snapshot at most and deletes the rest")
    elif listed:
        add(out, "data.cloud_delete", inv, "restic forget drops every snapshot restic snapshots lists: the backups "
            "are gone")
    else:
        add(out, "data.cloud_delete", inv, f"restic {words[0]} deletes backup snapshots", Verdict.ASK)


def detect_borg(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts, words = _words(inv)
    if not words or words[0] not in ("delete", "prune", "rdelete") or _DRY & set(texts):
        return  # (`compact` only frees the space of what was deleted already)
    targets = words[1:]
    whole = words[0] in ("delete", "rdelete") and (not targets or all("::" not in t for t in targets)) \
        and not any(t.startswith(("-a", "--glob-archives", "--match-archives")) for t in texts)
    if whole:
        add(out, "data.cloud_delete", inv, f"borg {words[0]} deletes the whole backup repository "
            f"{targets[0] if targets else '($BORG_REPO)'}")
    else:
        add(out, "data.cloud_delete", inv, f"borg {words[0]} deletes backup archives", Verdict.ASK)


def detect_tarsnap(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts, _ = _words(inv)
    if "-d" in texts or "--nuke" in texts:
        add(out, "data.cloud_delete", inv, "tarsnap --nuke deletes every archive" if "--nuke" in texts
            else "tarsnap -d deletes backup archives", None if "--nuke" in texts else Verdict.ASK)


def detect_kopia(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts, words = _words(inv)
    if words[:2] == ["snapshot", "delete"] or words[:2] == ["repository", "delete"]:
        every = "--all-snapshots-for-source" in texts or words[0] == "repository"
        add(out, "data.cloud_delete", inv, f"kopia {words[0]} delete deletes backups", None if every else Verdict.ASK)


def detect_vault(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    _, words = _words(inv)
    if words[:2] == ["secrets", "disable"]:
        where = words[2] if len(words) > 2 else "a secrets engine"
        add(out, "data.cloud_delete", inv, f"vault secrets disable removes {where} and every secret stored in it")
    elif words[:2] == ["kv", "destroy"] or words[:3] == ["kv", "metadata", "delete"]:
        add(out, "data.cloud_delete", inv, f"vault {' '.join(words[:2])} destroys secret versions for good")
    elif words[:2] == ["kv", "delete"] or words[:1] == ["delete"]:
        add(out, "data.cloud_delete", inv, "vault deletes a secret", Verdict.ASK)


def detect_gpg(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    texts = {w.text for w in inv.args}
    if texts & {"--delete-secret-keys", "--delete-secret-key", "--delete-secret-and-public-key",
                "--delete-secret-and-public-keys"}:
        add(out, "delete.catastrophic", inv, "gpg deletes GPG secret keys: what they sign and decrypt is lost")
    elif texts & {"--delete-keys", "--delete-key"}:
        add(out, "data.cloud_delete", inv, "gpg deletes public keys from the keyring", Verdict.ASK)


def detect_velero(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``velero backup delete --all``: every cluster backup; one backup, a restore or a schedule asks."""
    texts, words = _words(inv)
    if words[:1] in (["backup"], ["backups"], ["schedule"], ["restore"]) and words[1:2] == ["delete"]:
        every = "--all" in texts or "--selector" not in texts and len(words) < 3 and words[0] != "restore"
        add(out, "data.cloud_delete", inv, f"velero {words[0]} delete deletes "
                                           f"{'every cluster backup' if every else 'cluster backups'}",
            None if every and words[0] != "schedule" else Verdict.ASK)


PROGRAMS: Final = {"velero": detect_velero, "restic": detect_restic, "borg": detect_borg, "borg2": detect_borg, "tarsnap": detect_tarsnap,
                   "kopia": detect_kopia, "vault": detect_vault, "gpg": detect_gpg, "gpg2": detect_gpg}
