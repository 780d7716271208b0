"""Destruction and exhaustion by verb, the red-team probe's classes (tests/cases/verbs_more.tsv has the calls):
the pieces a table row cannot show on its own."""
from __future__ import annotations

import pytest

from phlegyas.analysis.mcp import destruction, tool_words
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import parse
from phlegyas.analysis.tier1.cloud import api_delete
from phlegyas.analysis.tier1.findings import invocation_findings, script_findings
from phlegyas.analysis.tier1.resources import GIB, INF, size_of, stream_size
from phlegyas.core.analysis import AnalysisEnv

ENV = AnalysisEnv(cwd="/home/u/proj", home="/home/u", project_root="/home/u/proj")


def _invocations(command: str) -> tuple:
    script = parse(command)
    by_index = {i: Invocation(cmd.program or "", cmd.words[1:], cmd) for i, cmd in enumerate(script.commands)
                if cmd.words}
    for i, inv in by_index.items():
        inv.upstream = [by_index[u] for u in script.commands[i].upstream if u in by_index]
    return script, list(by_index.values())


def _ids(command: str) -> dict[str, str]:
    script, invs = _invocations(command)
    found = [f for inv in invs for f in invocation_findings(inv, ENV)] + script_findings(script, invs, ENV)
    return {f.id: str(f.severity) for f in found}


@pytest.mark.parametrize("text, size", [
    ("500G", 500 * GIB), ("1GiB", GIB), ("1GB", 10 ** 9), ("10M", 10 * 1024 ** 2), ("+100G", 100 * GIB),
    ("4096", 4096), ("0", 0), ("1T", 1024 * GIB), ("1.5G", 1.5 * GIB), ("lots", None), ("", None),
])
def test_sizes_read_as_coreutils_reads_them(text, size):
    assert size_of(text) == size


@pytest.mark.parametrize("command, size", [
    ("yes", INF), ("seq inf", INF), ("seq 1 10", None), ("cat /dev/zero", INF), ("cat a.txt", None),
    ("dd if=/dev/zero bs=1M count=10", 10 * 1024 ** 2), ("dd if=/dev/urandom", INF), ("dd if=/dev/sda", None),
    ("dd if=/dev/zero bs=1G count=1000", 1000 * GIB), ("head -c 16 /dev/urandom", 16),
])
def test_stream_sizes(command, size):
    _, invs = _invocations(command)
    assert stream_size(invs[0]) == size


def test_a_filter_carries_the_endless_stream_and_head_bounds_it():
    _, invs = _invocations("yes | tr y n | base64")
    assert stream_size(invs[-1]) == INF
    _, invs = _invocations("yes | head -c 100")
    assert stream_size(invs[-1]) == 100


@pytest.mark.parametrize("command, want", [
    ("while true; do sleep 1 & done", "deny"), ("while :; do x & done", "deny"), ("until false; do x & done", "deny"),
    ("for ((;;)); do x & done", "deny"), ("while [ 1 ]; do x & done", "deny"), ("while ((1)); do x & done", "deny"),
    ("for ((i=0; i<9; i++)); do x & done", "ask"), ("while sleep 1; do x & done", "ask"),
    ("until make; do x & done", "ask"), ("while true; do x || break; done", None),
    ("while true; do a && b || exit; done", None), ("while true; do a 2>&1 || break; done", None),
    ("while true; do a &> log || return; done", None), ("while read f; do gzip $f; done &", None),
    ("sleep 1 & wait", None),
    # an endless loop that nothing in it leaves repeats its body without end, background job or not
    ("while true; do x; done", "ask"), ("while true; do a &> log; done", "ask"),
    ("until false; do mkdir x; done", "ask"),
])
def test_loops_that_start_background_jobs(command, want):
    got = _ids(command)
    level = got.get("process.fork_bomb") or got.get("process.unbounded")
    assert level == want, got
    if want == "deny":
        assert "process.fork_bomb" in got
    elif want == "ask":
        assert "process.unbounded" in got


@pytest.mark.parametrize("args, want", [
    ("api -X DELETE repos/me/x", ("repos/me/x", True)), ("api repos/me/x -X DELETE", ("repos/me/x", True)),
    ("api --method DELETE /repos/me/x", ("/repos/me/x", True)), ("api -XDELETE repos/me/x", ("repos/me/x", True)),
    ("api --method=delete orgs/acme", ("orgs/acme", True)),
    ("api -X DELETE repos/me/x/issues/comments/1", ("repos/me/x/issues/comments/1", False)),
    ("api -X DELETE repos/me/x/git/refs/heads/f", ("repos/me/x/git/refs/heads/f", True)),
    ("api -H 'Accept: x' -X DELETE repos/me/x", ("repos/me/x", True)),
    ("api repos/me/x", None), ("api -X GET repos/me/x", None), ("api -f m=DELETE repos/me/x", None),
    ("pr list", None),
])
def test_gh_api_delete(args, want):
    script = parse("gh " + args)
    cmd = script.commands[0]
    assert api_delete(Invocation("gh", cmd.words[1:], cmd)) == want


@pytest.mark.parametrize("tool, want", [
    ("delete_repository", ("delete", "repository")), ("s3_delete_bucket", ("delete", "bucket")),
    ("flushall", ("flushe", "whole keyspace")), ("dropTable", ("drop", "table")),
    ("deleteIssue", ("delete", None)), ("list_deleted_items", None), ("get_delete_status", None),
    ("create_issue", None), ("run", None),
])
def test_mcp_destruction_is_verb_times_noun(tool, want):
    assert destruction(tool_words(tool)) == want


def test_classes_and_reasons_name_what_was_found():
    assert "1000 GiB" in _message("dd if=/dev/zero of=big.img bs=1G count=1000", "disk.fill")
    assert "big.txt" in _message("yes > big.txt", "disk.fill")
    assert "sudo" in _message("usermod -aG sudo u", "priv.escalation")
    assert "cap_setuid" in _message("setcap cap_setuid+ep /usr/bin/python3", "priv.escalation")
    assert "INPUT" in _message("iptables -P INPUT DROP", "system.firewall")


def _message(command: str, class_id: str) -> str:
    script, invs = _invocations(command)
    found = [f for inv in invs for f in invocation_findings(inv, ENV)] + script_findings(script, invs, ENV)
    return next(f.message for f in found if f.id == class_id)
