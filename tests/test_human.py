"""Human escalation: the last pipeline step parks a call, waits for a person, denies on timeout."""
from __future__ import annotations

import logging
import threading
import time

import pytest

from phlegyas.analysis.dispatch import analyze
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.engine import Gate
from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.human.queue import (
    ENABLE_HINT,
    HumanChecker,
    announce,
    ask_human,
    decision_for,
    gist,
    no_human,
    printable,
    shorten,
)
from phlegyas.policy.files import empty_policy
from phlegyas.runtime import default_checkers, load_runtime
from phlegyas.store.approvals import PendingRequest
from phlegyas.store.sqlite import SQLiteApprovalStore, default_path

ASKED = Decision(Verdict.ASK, "protected_path", "writes .git/config")


@pytest.fixture
def store_path(tmp_path):
    return default_path(str(tmp_path / "data"))


def make_gate(store_path: str, wait: float, project: str, notify=None) -> Gate:
    checker = HumanChecker(lambda: SQLiteApprovalStore(store_path), wait_seconds=wait, ttl_seconds=3600,
                           notify=notify)
    env = AnalysisEnv(cwd=project, home="/home/u", project_root=project)
    return Gate(empty_policy(), default_checkers(), analyzer=analyze, env=lambda call: env, escalation=checker)


def bash(command: str, project: str = "/proj", mode: str | None = None) -> ToolCall:
    return ToolCall("Bash", {"command": command}, cwd=project, mode=mode)


class Human(threading.Thread):
    """A person in another thread: answers the first request that shows up in the store."""

    def __init__(self, store_path: str, approve: bool, reason: str | None, name: str):
        super().__init__(daemon=True)
        self.store = SQLiteApprovalStore(store_path)
        self.approve, self.reason, self.name = approve, reason, name
        self.answered: PendingRequest | None = None
        self.errors: list[str] = []  # what went wrong on the way, for the assertion messages

    def run(self) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:  # a person whose screen hiccups looks again; a thread that died would hide why
                pending = self.store.list_pending()
                if pending:
                    self.answered = self.store.resolve(pending[0].id, self.approve, reason=self.reason,
                                                       approver_id=self.name)
                    if self.answered is None:
                        self.errors.append(f"resolve({pending[0].id}) found it no longer pending")
                    return
            except Exception as exc:  # noqa: BLE001 - recorded, and tried again
                self.errors.append(f"{type(exc).__name__}: {exc}")
            time.sleep(0.02)


@pytest.mark.parametrize("approve, verdict, reason", [
    (True, Verdict.ALLOW, "approved by alice: looked fine"),
    (False, Verdict.DENY, "denied by bob: not today"),
])
def test_an_undecided_call_waits_for_a_person(store_path, approve, verdict, reason):
    name, why = ("alice", "looked fine") if approve else ("bob", "not today")
    human = Human(store_path, approve, why, name)
    human.start()
    decision = make_gate(store_path, 20, "/proj", notify=None).decide(bash("frobnicate --all"))
    human.join(5)
    assert (decision.verdict, decision.tier, decision.reason) == (verdict, "human", reason)
    assert decision.audit["human"]["request_id"] == human.answered.id
    assert human.answered.tool_input == {"command": "frobnicate --all"}


def test_nobody_answers_so_the_call_is_denied_and_the_request_withdrawn(store_path):
    started = time.monotonic()
    decision = make_gate(store_path, 0.6, "/proj", notify=None).decide(bash("frobnicate --all"))
    elapsed = time.monotonic() - started
    assert decision.verdict is Verdict.DENY and decision.tier == "human"
    assert "no human decision" in decision.reason and "nobody answered within 0.6 s" in decision.reason
    assert 0.6 <= elapsed < 5
    store = SQLiteApprovalStore(store_path)
    assert store.list_pending() == []
    assert store.get(decision.audit["human"]["request_id"]).status == "expired"


@pytest.mark.parametrize("command, verdict, tier", [
    ("ls -la", Verdict.ALLOW, "tier2_safe"),
    ("rm -rf /", Verdict.DENY, "tier1_dangerous"),
])
def test_calls_an_earlier_step_decides_never_reach_a_person(store_path, command, verdict, tier):
    decision = make_gate(store_path, 30, "/proj", notify=None).decide(bash(command))
    assert (decision.verdict, decision.tier) == (verdict, tier)
    assert SQLiteApprovalStore(store_path).stats()["total"] == 0


def test_dont_ask_mode_never_asks_a_person(store_path):
    started = time.monotonic()
    decision = make_gate(store_path, 30, "/proj", notify=None).decide(bash("frobnicate", mode="dontAsk"))
    assert decision.verdict is Verdict.DENY and "dontAsk" in decision.reason
    assert time.monotonic() - started < 5
    assert SQLiteApprovalStore(store_path).stats()["total"] == 0


def test_a_broken_store_fails_closed(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    decision = make_gate(str(blocker / "approvals.sqlite3"), 30, "/proj", notify=None).decide(bash("frobnicate"))
    assert decision.verdict is Verdict.DENY and decision.tier == "error"
    assert "cannot ask a human" in decision.reason and "cannot open" in decision.reason


def test_the_person_is_told_how_to_answer(store_path, caplog):
    seen = []
    gate = make_gate(store_path, 0.2, "/proj", notify=lambda request, wait: seen.append((request, wait)))
    gate.decide(bash("frobnicate"))
    assert len(seen) == 1 and seen[0][1] == 0.2 and seen[0][0].tool_input == {"command": "frobnicate"}
    with caplog.at_level(logging.WARNING, logger="phlegyas.human"):
        announce(seen[0][0], 120)
    assert f"phlegyas approve {seen[0][0].id}" in caplog.text and "120 s" in caplog.text


def test_a_waiter_that_stops_withdraws_its_request(store_path):
    class Stop(Exception):
        pass

    def sleep(seconds):
        raise Stop

    store = SQLiteApprovalStore(store_path, sleep=sleep)
    with pytest.raises(Stop):
        ask_human(store, bash("frobnicate"), ASKED, wait_seconds=30, ttl_seconds=3600, notify=None)
    assert store.list_pending() == [] and store.stats()["expired"] == 1


def test_the_request_lives_no_longer_than_the_wait(store_path):
    store = SQLiteApprovalStore(store_path)
    seen = []
    ask_human(store, bash("frobnicate"), ASKED, wait_seconds=0.2, ttl_seconds=3600,
              notify=lambda request, wait: seen.append(request))
    assert seen[0].expires_at - seen[0].created_at == pytest.approx(0.2)
    assert seen[0].tier == "protected_path" and seen[0].reason == ASKED.reason


def test_the_checker_needs_a_wait():
    with pytest.raises(ValueError):
        HumanChecker(lambda: None, wait_seconds=0, ttl_seconds=10)


# --- wiring --------------------------------------------------------------------------------------

@pytest.mark.parametrize("wait, interactive, present", [
    ("30", True, True),
    ("0", True, False),
    ("30", False, False),  # headless: nobody can answer, so nobody is asked
])
def test_the_runtime_escalates_to_a_person_when_a_wait_is_set(isolated_env, tmp_path, wait, interactive, present):
    env = dict(isolated_env, APPROVAL_WAIT_SECONDS=wait)
    runtime = load_runtime(env, str(tmp_path), interactive=interactive)
    escalation = runtime.gate().escalation
    assert isinstance(escalation, HumanChecker) is present
    if present:
        assert escalation.wait_seconds == 30


def test_every_final_ask_reaches_the_person_not_only_the_fallback(store_path):
    """`sudo` is a Tier 1 ask class: decided before the fallback, and still a person's to answer."""
    human = Human(store_path, True, "fine", "carol")
    human.start()
    decision = make_gate(store_path, 10, "/proj", notify=None).decide(bash("sudo apt-get install jq"))
    human.join(5)
    assert human.answered is not None, (decision, human.errors)
    assert human.answered.tier == "tier1_dangerous"
    assert (decision.verdict, decision.tier) == (Verdict.ALLOW, "human")


# --- decisions and text ----------------------------------------------------------------------------

def _request(status: str, **fields) -> PendingRequest:
    return PendingRequest(id="0b8e7c52-3f4d-4b8a-9c1e-2d6f5a7b8c9d", tool_name="Bash", tool_input={"command": "x"},
                          tier="fallback", reason="r", created_at=0.0, expires_at=60.0, status=status, **fields)


@pytest.mark.parametrize("request_, verdict, words", [
    (_request("approved", approver_id="alice", resolution_reason="ok", resolved_at=5.0), Verdict.ALLOW,
     "approved by alice: ok"),
    (_request("approved", approver_id="alice", resolved_at=5.0), Verdict.ALLOW, "approved by alice"),
    (_request("denied", approver_id="bob", resolution_reason="no", resolved_at=5.0), Verdict.DENY, "denied by bob: no"),
    (_request("expired", resolution_reason="nobody answered", resolved_at=9.0), Verdict.DENY, "nobody answered"),
    (_request("pending"), Verdict.ASK, "waiting for a human decision"),
])
def test_decision_for_a_request(request_, verdict, words):
    decision = decision_for(request_, ASKED)
    assert decision.verdict is verdict and decision.tier == "human" and words in decision.reason


def test_no_human_denies_and_says_how_to_enable_a_person():
    decision = no_human(ASKED)
    assert decision.verdict is Verdict.DENY and decision.tier == "protected_path"
    assert decision.reason.startswith(ASKED.reason) and "no human could be asked" in decision.reason
    assert ENABLE_HINT in decision.reason and "APPROVAL_WAIT_SECONDS" in ENABLE_HINT


@pytest.mark.parametrize("text, shown", [
    ("ls -la", "ls -la"),
    ("echo hi\nrm -rf ~", "echo hi\\nrm -rf ~"),
    ("printf '\x1b[2K\x1b[1Aok'", "printf '\\x1b[2K\\x1b[1Aok'"),
    ("a\tb\x00c\u202ed", "a\\tb\\x00c\\u202ed"),
    ("héllo wörld", "héllo wörld"),
])
def test_printable_escapes_what_could_fool_a_terminal(text, shown):
    assert printable(text) == shown


@pytest.mark.parametrize("tool_input, width, shown", [
    ({"command": "make deploy", "description": "ship it"}, 60, "make deploy"),
    ({"file_path": "/p/a.py", "content": "x"}, 60, "/p/a.py"),
    ({"url": "https://example.com/a", "prompt": "read"}, 60, "https://example.com/a"),
    ({"command": "x" * 100}, 10, "xxxxxxxxx…"),
    ({"a": 1}, 60, '{"a": 1}'),
])
def test_gist_picks_the_telling_field(tool_input, width, shown):
    assert gist(tool_input, width) == shown
    assert len(shorten("y" * 50, 20)) == 20
