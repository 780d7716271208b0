"""The dashboard in a real browser: Playwright driving Debian's Chromium (``apt-get install chromium``;
launched by path, no browser download), against a real ``phlegyas dashboard`` process, with requests
parked by real waiting hook processes and answered from the page, the CLI and a phone-sized window.

Screenshots of each page go to ``$PHLEGYAS_SCREENSHOTS`` when it is set (``docs/screenshots`` holds the
committed ones: ``PHLEGYAS_SCREENSHOTS=docs/screenshots pytest tests/test_dashboard_browser.py``).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from conftest import require

from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.store.audit import AuditLog, audit_entry, encode_entry

CHROMIUM = "/usr/lib/chromium/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking"]
UNKNOWN = "frobnicate --all"


@pytest.fixture(scope="module")
def browser():
    require("Chromium is not installed (apt-get install chromium)", os.path.exists(CHROMIUM))
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


class Dashboard:
    """A ``phlegyas dashboard`` process in an isolated home, and hook processes that wait in it."""

    def __init__(self, env: dict, project: Path):
        self.env = dict(env, APPROVAL_WAIT_SECONDS="60", PHLEGYAS_HOOK_SERVER="off")
        self.project = project
        self.proc = subprocess.Popen([sys.executable, "-m", "phlegyas", "dashboard", "--no-browser"], env=self.env,
                                     cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=(\S+)", line)
        assert match, f"no URL printed: {line!r} {self.proc.stderr.read() if self.proc.poll() is not None else ''}"
        self.base, self.url = match.group(1), match.group(0)
        self.waiting: list[subprocess.Popen] = []

    def wait_in_hook(self, command: str) -> subprocess.Popen:
        """A PermissionRequest hook process waiting for a person (as Claude Code runs it)."""
        event = {"hook_event_name": "PermissionRequest", "session_id": "s-browser", "cwd": str(self.project),
                 "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": command}}
        proc = subprocess.Popen([sys.executable, "-m", "phlegyas.hosts.hook.client"], env=self.env,
                                cwd=self.project, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        proc.stdin.write(json.dumps(event))
        proc.stdin.close()
        proc.stdin = None  # sent: communicate() only reads
        self.waiting.append(proc)
        return proc

    def cli(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "phlegyas", *args], env=self.env, cwd=self.project,
                              capture_output=True, text=True, timeout=60)

    def pending_ids(self) -> list[str]:
        out = self.cli("pending", "--json")
        return [r["request_id"] for r in json.loads(out.stdout)]

    def close(self) -> None:
        for proc in [*self.waiting, self.proc]:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(10)


def decision_of(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return json.loads(out)["hookSpecificOutput"]["decision"]


def wait_for(predicate, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


@pytest.fixture
def dash(isolated_env, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    box = Dashboard(isolated_env, project)
    yield box
    box.close()


@pytest.fixture
def page(browser, dash):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.goto(dash.url)
    tab.errors = errors
    yield tab
    context.close()


def shot(page, name: str) -> None:
    where = os.environ.get("PHLEGYAS_SCREENSHOTS")
    if where:
        os.makedirs(where, exist_ok=True)
        page.screenshot(path=os.path.join(where, f"{name}.png"), full_page=True)


# --- logging in, live requests, answers -----------------------------------------------------------------

def test_the_printed_url_logs_in_and_the_token_leaves_the_address_bar(page, dash):
    assert page.url == dash.base + "pending"
    assert page.locator("h1").inner_text().startswith("Waiting for a person")
    cookies = page.context.cookies()
    assert [c["httpOnly"] for c in cookies] == [True] and cookies[0]["sameSite"] == "Strict"
    assert not page.errors


def test_a_parked_request_appears_without_reload_and_approve_lets_the_hook_go_on(page, dash):
    page.wait_for_selector("#nothing")
    waiting = dash.wait_in_hook(UNKNOWN)
    card = page.locator("article.request").first
    card.wait_for(timeout=30_000)  # pushed by the server: no reload
    assert UNKNOWN in card.locator("pre.command").inner_text()
    assert "frobnicate; not known safe" in card.inner_text() and "s-browser" in card.inner_text()
    shot(page, "pending")
    card.locator("button.approve").click()
    decision = decision_of(waiting)
    assert decision["behavior"] == "allow" and decision["updatedInput"] == {"command": UNKNOWN}
    page.wait_for_selector("#nothing")
    assert not page.errors


def test_deny_with_a_reason_reaches_the_hook(page, dash):
    waiting = dash.wait_in_hook(UNKNOWN)
    card = page.locator("article.request").first
    card.wait_for(timeout=30_000)
    card.locator("input.reason").fill("not on a Friday")
    card.locator("button.deny").click()
    decision = decision_of(waiting)
    assert decision["behavior"] == "deny" and "not on a Friday" in decision["message"]


def test_a_request_answered_from_the_cli_leaves_the_page_saying_who(page, dash):
    waiting = dash.wait_in_hook(UNKNOWN)
    page.locator("article.request").first.wait_for(timeout=30_000)
    wait_for(lambda: dash.pending_ids(), "the request parked")
    (rid,) = dash.pending_ids()
    assert dash.cli("approve", rid, "--approver", "dana").returncode == 0
    page.locator(f'#answered .note[data-request-id="{rid}"]').wait_for(timeout=30_000)
    assert "approved by dana via cli" in page.locator("#answered").inner_text()
    assert page.locator("article.request").count() == 0
    assert decision_of(waiting)["behavior"] == "allow"


def test_a_command_with_a_script_tag_stays_text(page, dash):
    hostile = "frobnicate '<script>window.pwned = 1</script><img src=x onerror=\"window.pwned = 2\">'"
    dash.wait_in_hook(hostile)
    card = page.locator("article.request").first
    card.wait_for(timeout=30_000)
    assert "<script>window.pwned = 1</script>" in card.locator("pre.command").inner_text()
    assert page.evaluate("window.pwned") is None
    page.reload()
    page.locator("article.request").first.wait_for()
    assert page.evaluate("window.pwned") is None  # rendered by the server too: still text


def test_on_a_phone_the_approve_button_is_visible_and_works(browser, dash):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    phone = context.new_page()
    try:
        phone.goto(dash.url)
        waiting = dash.wait_in_hook("./tools/deploy --env staging")
        button = phone.locator("article.request button.approve").first
        button.wait_for(timeout=30_000)
        box = button.bounding_box()
        assert box and box["width"] >= 300 and box["height"] >= 44 and box["x"] + box["width"] <= 390
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing sticks out sideways
        shot(phone, "pending-phone")
        button.tap()
        assert decision_of(waiting)["behavior"] == "allow"
    finally:
        context.close()


# --- history and stats ------------------------------------------------------------------------------------

def _plant(dash: Dashboard) -> None:
    """30 decisions of today, written by the audit log itself (the rows the filters must find)."""
    audit = AuditLog(os.path.join(dash.env["PHLEGYAS_HOME"], "audit.jsonl"))
    rows = [("git status", Verdict.ALLOW, "tier2_safe"), ("rm -rf ~/precious-planted", Verdict.DENY, "tier1_dangerous"),
            ("npm run storybook --port 6006", Verdict.ASK, "fallback"), ("npm run storybook", Verdict.ASK, "fallback"),
            ("pytest -q", Verdict.ALLOW, "tier2_safe")]
    for i in range(30):
        command, verdict, tier = rows[i % len(rows)]
        audit.record(ToolCall("Bash", {"command": command}, cwd=str(dash.project), session_id=f"s-{i % 3}"),
                     Decision(verdict, tier, "planted for the test"), mode="default")


def _plant_weeks(dash: Dashboard) -> None:
    """Two weeks of older decisions, some answered by a person (with the wait) and some by Tier 3 (with
    its tokens and cost): what a log looks like after a while, for the charts."""
    path = os.path.join(dash.env["PHLEGYAS_HOME"], "audit.jsonl")
    start = datetime.now(timezone.utc) - timedelta(days=14)
    calls = [(ToolCall("Bash", {"command": "npm test"}), Decision(Verdict.ALLOW, "tier2_safe", "test run"), {}),
             (ToolCall("Read", {"file_path": "/p/src/app.py"}), Decision(Verdict.ALLOW, "tier2_safe", "read"), {}),
             (ToolCall("Bash", {"command": "terraform plan"}), Decision(Verdict.ALLOW, "tier3_ai", "plan only",
                                                                       confidence=0.91),
              {"tier3": {"input_tokens": 900, "output_tokens": 60, "cost_usd": 0.0012}}),
             (ToolCall("Bash", {"command": "./deploy.sh staging"}), Decision(Verdict.ALLOW, "human", "approved"),
              {"human": {"status": "approved", "approver_id": "U0DANA", "via": "slack"}}),
             (ToolCall("WebFetch", {"url": "https://docs.python.org/3/", "prompt": "x"}),
              Decision(Verdict.ASK, "fallback", "no rule"), {}),
             (ToolCall("Bash", {"command": "git push --force"}), Decision(Verdict.DENY, "tier1_dangerous", "force"), {})]
    with open(path, "ab") as fh:
        for i in range(14 * 24):
            call, decision, extra = calls[(i * 7) % len(calls)]
            for _ in range(1 + (i * 13) % 4):
                if extra.get("human"):
                    extra = {**extra, "slack": {"user_id": "U0DANA", "wait_seconds": 5 + (i * 37) % 90}}
                entry = audit_entry(call, decision, mode="default", now=start + timedelta(hours=i), extra=extra)
                fh.write(encode_entry(entry))


def test_history_filters_and_search_find_a_planted_row(page, dash):
    _plant(dash)
    page.goto(dash.base + "history")
    assert page.locator("table#history tbody tr").count() == 30
    page.fill('input[name="text"]', "precious-planted")
    page.click("form.filters button")
    page.wait_for_url(re.compile(r"text=precious-planted"))
    rows = page.locator("table#history tbody tr")
    assert rows.count() == 6 and "rm -rf ~/precious-planted" in rows.first.inner_text()
    page.select_option('select[name="decision"]', "allow")
    page.click("form.filters button")
    assert "No decision matches" in page.locator("table#history").inner_text()
    page.goto(dash.base + "history")
    shot(page, "history")
    page.locator("table#history tbody tr a").first.click()
    assert "planted for the test" in page.locator("pre#entry").inner_text()


def test_the_charts_render_with_data_points(page, dash):
    _plant_weeks(dash)
    _plant(dash)
    page.goto(dash.base + "stats")
    assert page.locator("#chart-timeline svg .point").count() >= 15 * 2  # 15 days, several verdicts a day
    assert page.locator("#chart-tiers svg .point").count() == 5  # tier2_safe, tier3_ai, human, fallback, tier1
    assert page.locator("#chart-tools svg .point").count() == 3  # Bash, Read, WebFetch
    assert page.locator("#chart-waits svg .point").count() >= 10 and page.locator("#chart-tier3 svg .point").count() >= 10
    assert "Bash(npm run storybook *)" in page.locator("#shapes").inner_text()
    shot(page, "stats")
    for name in ("trust", "policy"):
        page.goto(dash.base + name)
        assert page.locator("h1").count() == 1
        shot(page, name)
    assert not page.errors
