"""Destruction by verb in backup tools, hosting platforms, schema tools, brokers, coordination stores and
virtual machines (``tier1.data_verbs``): every row's example denies, its dry run does not, and the tool's
everyday commands stay what they were."""
from __future__ import annotations

import pytest

from phlegyas.analysis.dispatch import analyze
from phlegyas.analysis.shell.parse import parse
from phlegyas.analysis.tier1.data_verbs import ROWS
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.engine import Gate
from phlegyas.core.model import ToolCall
from phlegyas.policy.files import empty_policy
from phlegyas.runtime import default_checkers

ENV = AnalysisEnv(cwd="/home/u/proj", home="/home/u", project_root="/home/u/proj")
GATE = Gate(empty_policy(), default_checkers(), analyzer=analyze, parser=parse, env=lambda call: ENV)


def verdict(command: str) -> str:
    return str(GATE.decide(ToolCall("Bash", {"command": command}, cwd=ENV.cwd)).verdict)


@pytest.mark.parametrize("example", [row[4] for row in ROWS])
def test_every_row_denies_its_example(example):
    assert verdict(example) == "deny"


@pytest.mark.parametrize("example", [row[4] for row in ROWS][:8])
def test_a_dry_run_is_no_deletion(example):
    assert verdict(example + " --dry-run") != "deny"


@pytest.mark.parametrize("command", ["nodetool -h cass-1 status", "snapper list", "timeshift --list",
                                     "snapper -c home delete 42", "timeshift --delete --snapshot 's1'",
                                     "duplicity remove-older-than 1Y --force s3://b",
                                     "kafka-topics.sh --bootstrap-server k:9092 --list", "flyway info",
                                     "bq ls acme-prod:analytics", "virsh list --all",
                                     "restic -r /srv/r snapshots", "restic -r /srv/r forget --keep-daily 7 --prune"])
def test_listing_and_retention_are_not_denied(command):
    assert verdict(command) != "deny"


def test_restic_keeping_one_snapshot_denies():
    assert verdict("restic -r s3:s3.amazonaws.com/b forget --keep-last 1 --prune") == "deny"


@pytest.mark.parametrize("command", ["sudo snapper -c home delete --sync 1-9999",
                                     "duplicity remove-all-but-n-full 1 --force s3://b"])
def test_every_snapshot_or_all_but_one_backup_denies(command):
    assert verdict(command) == "deny"
