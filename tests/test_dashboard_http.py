"""The dashboard over HTTP (Starlette's TestClient, the real app, store, audit log and index): who may
look, who may change anything, and what each page shows. The browser tests (test_dashboard_browser.py)
drive the same app in a real Chromium.
"""
from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import time

import pytest
from starlette.testclient import TestClient

from phlegyas.core.model import Decision, ToolCall, Verdict
from phlegyas.hosts.dashboard.app import build_app
from phlegyas.hosts.dashboard.security import allowed_hosts
from phlegyas.hosts.dashboard.service import DashboardService
from phlegyas.runtime import load_runtime
from phlegyas.store.audit import AuditLog
from phlegyas.store.sqlite import SQLiteApprovalStore, default_path
from phlegyas.trust.store import TrustEntry, hash_file

TOKEN = "t0k3n-for-the-tests-only-0123456789abcdef"
PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"
ASKED = Decision(Verdict.ASK, "fallback", "no rule or tier decided this call")


class Dash:
    def __init__(self, env: dict, project: str):
        self.runtime = load_runtime(env, project)
        self.settings = self.runtime.settings
        self.store = SQLiteApprovalStore(default_path(self.settings.data_dir))
        self.service = DashboardService(self.runtime, self.store, cwd=project)
        self.app = build_app(self.service, token=TOKEN, hosts=allowed_hosts("127.0.0.1", PORT))
        self.audit = AuditLog(self.settings.audit_log_file)

    def client(self, *, logged_in: bool = True) -> TestClient:
        client = TestClient(self.app, base_url=BASE, follow_redirects=False)
        if logged_in:
            assert client.get(f"/?token={TOKEN}").status_code == 303
        return client

    def park(self, command: str, **fields) -> str:
        return self.store.create(ToolCall("Bash", {"command": command}, cwd=self.runtime.cwd, **fields), ASKED,
                                 ttl=600).id

    def csrf(self, client: TestClient) -> str:
        page = client.get("/pending").text
        return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


@pytest.fixture
def dash(isolated_env, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    box = Dash(isolated_env, str(project))
    yield box
    box.service.close()
    box.store.close()


# --- who may look ---------------------------------------------------------------------------------------

def test_without_a_session_every_page_is_401(dash):
    client = dash.client(logged_in=False)
    for path in ("/pending", "/history", "/stats", "/trust", "/policy", "/api/pending", "/events"):
        answer = client.get(path)
        assert answer.status_code == 401, path
        assert "phlegyas dashboard" in answer.text
    assert client.get("/static/app.css").status_code == 200  # the stylesheet holds nothing of the gate's


def test_a_wrong_token_is_403_and_the_right_one_becomes_a_cookie_and_leaves_the_url(dash):
    client = dash.client(logged_in=False)
    assert client.get("/pending?token=not-it").status_code == 403
    answer = client.get(f"/history?token={TOKEN}&tool=Bash")
    assert answer.status_code == 303 and answer.headers["location"] == "/history?tool=Bash"
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and TOKEN not in cookie
    assert client.get("/history?tool=Bash").status_code == 200


def test_a_foreign_host_header_is_400(dash):
    client = dash.client()
    assert client.get("/pending", headers={"host": "evil.example:8765"}).status_code == 400
    assert client.get("/pending", headers={"host": f"localhost:{PORT}"}).status_code == 200
    assert client.get(f"/?token={TOKEN}", headers={"host": "rebind.attacker.example"}).status_code == 400


def test_every_page_sends_a_strict_csp_and_no_inline_script(dash):
    dash.park("frobnicate --all")
    client = dash.client()
    for path in ("/pending", "/history", "/stats", "/trust", "/policy"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        csp = answer.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert not re.search(r"<script(?![^>]*\bsrc=)", answer.text), path  # only <script src=…>
        assert not re.search(r"\son[a-z]+=", answer.text), path  # no inline event handlers
        assert " style=" not in answer.text, path


# --- who may change anything -------------------------------------------------------------------------------

def test_a_post_without_the_csrf_token_or_from_another_origin_is_403(dash):
    rid = dash.park("frobnicate --all")
    client = dash.client()
    csrf = dash.csrf(client)
    same = {"origin": BASE}
    assert client.post(f"/requests/{rid}/approve", headers=same).status_code == 403
    assert client.post(f"/requests/{rid}/approve", data={"csrf": "wrong"}, headers=same).status_code == 403
    assert client.post(f"/requests/{rid}/approve", data={"csrf": csrf},
                       headers={"origin": "http://evil.example"}).status_code == 403
    assert client.post(f"/requests/{rid}/approve", data={"csrf": csrf}).status_code == 403  # no Origin at all
    assert dash.store.get(rid).is_pending
    answer = client.post(f"/requests/{rid}/approve", data={"csrf": csrf}, headers=same)
    assert answer.status_code == 303
    final = dash.store.get(rid)
    assert (final.status, final.resolved_via) == ("approved", "dashboard") and final.approver_id.endswith("(dashboard)")


def test_deny_with_a_reason_by_fetch_and_a_second_answer_is_a_conflict(dash):
    rid = dash.park("frobnicate --all")
    client = dash.client()
    headers = {"origin": BASE, "x-csrf-token": dash.csrf(client), "accept": "application/json"}
    answer = client.post(f"/requests/{rid}/deny", data={"reason": "not on prod"}, headers=headers)
    assert answer.status_code == 200 and answer.json()["status"] == "denied"
    assert dash.store.get(rid).resolution_reason == "not on prod"
    again = client.post(f"/requests/{rid}/approve", headers=headers)
    assert again.status_code == 409 and "already denied" in again.json()["error"]
    with open(dash.settings.audit_log_file, encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh]
    assert [(e["decision"], e["human"]["via"]) for e in lines] == [("deny", "dashboard")]


# --- what the pages show -------------------------------------------------------------------------------------

def test_pending_shows_the_call_why_and_the_analysis_and_escapes_everything(dash):
    rid = dash.park("echo '<script>alert(1)</script>' && frobnicate --all", session_id="s-1", agent_id="a-2")
    client = dash.client()
    page = client.get("/pending").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    assert rid in page and "s-1" in page and "a-2" in page and "no rule or tier decided" in page
    assert "frobnicate; not known safe" in page  # what phlegyas check says, per subcommand
    data = client.get("/api/pending").json()
    assert [r["request_id"] for r in data["requests"]] == [rid] and data["requests"][0]["details"]


def test_history_filters_and_searches_the_audit_log_and_opens_one_decision(dash):
    for command, verdict in (("git status", Verdict.ALLOW), ("rm -rf ~/precious", Verdict.DENY),
                             ("npm run storybook --port 6006", Verdict.ASK), ("echo '<b>bold</b>'", Verdict.ALLOW)):
        dash.audit.record(ToolCall("Bash", {"command": command}, cwd="/p", session_id="s-9"),
                          Decision(verdict, "tier1_dangerous" if verdict is Verdict.DENY else "tier2_safe", "because"),
                          mode="default")
    client = dash.client()
    found = client.get("/history?text=precious").text
    assert "rm -rf ~/precious" in found and "git status" not in found
    denied = client.get("/history?decision=deny").text
    assert "precious" in denied and "storybook" not in denied
    assert "&lt;b&gt;bold&lt;/b&gt;" in client.get("/history").text
    row = re.search(r'href="/history/(\d+)">[^<]*precious', found).group(1)
    entry = client.get(f"/history/{row}")
    assert entry.status_code == 200 and "rm -rf ~/precious" in entry.text and "s-9" in entry.text
    assert client.get("/history/999999").status_code == 404


def _fleet(dash, machines) -> None:
    """One allowed ``echo <n> on <machine>`` per machine (None: an entry that names none)."""
    for i, machine in enumerate(machines):
        dash.audit.record(ToolCall("Bash", {"command": f"echo {i} on {machine}"}, cwd="/p", session_id="s-9"),
                          Decision(Verdict.ALLOW, "tier2_safe", "because"), mode="default",
                          extra={"machine": machine} if machine is not None else None)


def test_history_shows_the_machine_of_a_fleets_entries_and_filters_by_it(dash):
    _fleet(dash, ["build-01", "laptop-dana", None] + ["build-01"] * 52)
    client = dash.client()
    page = client.get("/history").text
    assert "<th>machine</th>" in page and '<td class="machine">build-01</td>' in page
    assert re.search(r'<select name="machine" aria-label="machine">\s*<option value="">any machine</option>\s*'
                     r'<option value="build-01">build-01</option><option value="laptop-dana">laptop-dana</option>',
                     page), page
    dana = client.get("/history?machine=laptop-dana").text
    assert "echo 1 on laptop-dana" in dana and "on build-01" not in dana and "echo 2 on None" not in dana
    assert '<option value="laptop-dana" selected>' in dana
    assert "echo 1 on laptop-dana" in client.get("/history?machine=laptop-dana&text=echo&decision=allow").text
    nothing = client.get("/history?machine=laptop-dana&decision=deny").text
    assert "No decision matches" in nothing and 'colspan="7"' in nothing
    builds = client.get("/history?machine=build-01").text
    assert builds.count('<td class="machine">build-01</td>') == 50 and "laptop-dana</td>" not in builds
    older = re.search(r'class="more" href="/history\?([^"]+)"', builds).group(1)
    assert "machine=build-01" in older  # the next page keeps the filter
    rest = client.get("/history?" + older.replace("&amp;", "&")).text
    assert rest.count('<td class="machine">build-01</td>') == 3 and "echo 0 on build-01" in rest


def test_history_of_an_ordinary_log_has_no_machine_column(dash):
    _fleet(dash, [None, None])
    client = dash.client()
    page = client.get("/history").text
    assert "echo 0 on None" in page and "echo 1 on None" in page
    assert "<th>machine</th>" not in page and 'name="machine"' not in page and 'class="machine"' not in page
    assert 'colspan="6"' in client.get("/history?text=zebra").text


def test_stats_draws_charts_with_points_and_suggests_allow_rules(dash):
    for i in range(3):
        dash.audit.record(ToolCall("Bash", {"command": f"npm run storybook --port 600{i}"}, cwd="/p"),
                          Decision(Verdict.ASK, "fallback", "no rule"), mode="default")
    dash.audit.record(ToolCall("Bash", {"command": "ls"}, cwd="/p"), Decision(Verdict.ALLOW, "tier2_safe", "ok"),
                      mode="default")
    page = dash.client().get("/stats").text
    assert page.count('class="point') >= 4 and "<svg" in page
    assert "Bash(npm run storybook *)" in page


def test_trust_lists_scripts_with_their_status_and_revokes(dash, tmp_path):
    script = tmp_path / "deploy.sh"
    script.write_text("echo deploy\n")
    digest, size = hash_file(str(script))
    dash.service.trust_store.add(TrustEntry(str(script), digest, size, "dana", "2026-12-01T00:00:00Z"))
    client = dash.client()
    assert "deploy.sh" in client.get("/trust").text and "s-ok" in client.get("/trust").text
    script.write_text("echo changed\n")
    assert "s-changed" in client.get("/trust").text
    answer = client.post("/trust/revoke", data={"csrf": dash.csrf(client), "path": str(script)},
                         headers={"origin": BASE})
    assert answer.status_code == 303 and dash.service.trust_store.get(str(script)) is None


def test_policy_shows_each_rule_with_the_file_it_came_from(dash, isolated_env):
    policy = f"{isolated_env['PHLEGYAS_HOME']}/policy.toml"
    os.makedirs(os.path.dirname(policy), exist_ok=True)
    with open(policy, "w") as fh:
        fh.write('[permissions]\nallow = ["Bash(npm run storybook *)"]\ndeny = ["Bash(terraform destroy *)"]\n'
                 '[classes]\n"git.reset_hard" = "deny"\n')
    with open(os.path.join(dash.runtime.cwd, ".phlegyas.toml"), "w") as fh:
        fh.write('[classes]\n"delete.in_project" = "ask"\n')
    box = Dash(isolated_env, dash.runtime.cwd)
    page = box.client().get("/policy").text
    assert "Bash(npm run storybook *)" in page and "Bash(terraform destroy *)" in page and "policy.toml" in page
    classes = re.search(r'<table class="rules" id="classes">.*?</table>', page, re.S).group(0)
    assert re.search(r"git\.reset_hard</code></td><td>deny</td><td>[^<]*policy\.toml", classes), classes
    assert re.search(r"delete\.in_project</code></td><td>ask \(project[^<]*</td><td>[^<]*\.phlegyas\.toml", classes)


# --- the process -------------------------------------------------------------------------------------------

def test_the_dashboard_process_prints_one_url_serves_it_and_doctor_sees_it(isolated_env, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "phlegyas", "dashboard", "--no-browser"], env=isolated_env,
                            cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        match = re.fullmatch(r"phlegyas dashboard: http://127\.0\.0\.1:(\d+)/\?token=([\w-]{40,})\n", line)
        assert match, line
        port = int(match.group(1))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"/?token={match.group(2)}")
        answer = conn.getresponse()
        assert answer.status == 303 and "HttpOnly" in answer.getheader("set-cookie")
        doctor = subprocess.run([sys.executable, "-m", "phlegyas", "doctor"], env=isolated_env, cwd=project,
                                capture_output=True, text=True, timeout=60)
        assert f"dashboard: running (pid {proc.pid}) at http://127.0.0.1:{port}/" in doctor.stdout
        assert match.group(2) not in doctor.stdout
        state = os.path.join(isolated_env["PHLEGYAS_HOME"], "dashboard.json")
        assert match.group(2) not in open(state).read()  # the token is written nowhere
    finally:
        proc.terminate()
        proc.wait(20)
    assert not os.path.exists(state)


def test_listening_beyond_loopback_warns(isolated_env, tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "phlegyas", "dashboard", "--no-browser", "--host", "0.0.0.0"],
                            env=isolated_env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().startswith("phlegyas dashboard: http://0.0.0.0:")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "warning: listening on 0.0.0.0, not loopback" in err


def test_explaining_a_request_asks_no_person_and_no_model(isolated_env, tmp_path):
    """The per-subcommand explanation runs the gate without Tier 3 and without the person's queue: with a
    wait configured, it must not park a second request (and wait for it)."""
    project = tmp_path / "project"
    project.mkdir()
    box = Dash(dict(isolated_env, APPROVAL_WAIT_SECONDS="30", ANTHROPIC_API_KEY="sk-ant-not-used"), str(project))
    try:
        rid = box.park("frobnicate --all")
        started = time.monotonic()
        page = box.client().get("/pending").text
        assert time.monotonic() - started < 10 and "frobnicate; not known safe" in page
        assert [r.id for r in box.store.list_pending()] == [rid]
    finally:
        box.service.close()
        box.store.close()
