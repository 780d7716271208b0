"""``phlegyas-trust`` as a real process in an isolated home, and ``phlegyas check`` after trusting."""
from __future__ import annotations

import hashlib
import json
import os
import pwd
import stat
import subprocess
import sys

import pytest


@pytest.fixture
def trust(isolated_env, tmp_path):
    """Run ``python -m phlegyas.cli.trust ARGS`` in the project directory; returns CompletedProcess."""
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)

    def run(*args: str, input: str | None = None, env_extra=None, stdin=None):
        env = dict(isolated_env, **(env_extra or {}))
        kw = {"stdin": stdin} if stdin is not None else {"input": input if input is not None else ""}
        return subprocess.run([sys.executable, "-m", "phlegyas.cli.trust", *args], capture_output=True, text=True,
                              cwd=project, env=env, timeout=60, **kw)

    run.project = project
    run.home = isolated_env["HOME"]
    run.store = os.path.join(isolated_env["HOME"], ".claude", "trusted-scripts.json")
    run.env = isolated_env
    return run


def script(trust, name: str, text: str = "#!/bin/sh\nrsync -a dist/ deploy@example.com:/srv/www/\n") -> str:
    path = trust.project / name
    path.write_text(text)
    path.chmod(0o755)
    return str(path)


def entries(trust) -> dict:
    with open(trust.store) as fh:
        return json.load(fh)["scripts"]


def test_trust_with_yes_records_hash_size_user_and_note(trust):
    path = script(trust, "deploy.sh")
    res = trust("./deploy.sh", "--yes", "--note", "release script")
    assert res.returncode == 0, res.stderr
    data = open(path, "rb").read()
    e = entries(trust)[path]
    assert e["sha256"] == hashlib.sha256(data).hexdigest() and e["size"] == len(data)
    assert e["trusted_by"] == pwd.getpwuid(os.getuid()).pw_name and e["note"] == "release script"
    assert e["trusted_at"].endswith("Z")
    assert stat.S_IMODE(os.stat(trust.store).st_mode) == 0o600
    assert "trusted by" in res.stdout


def test_by_overrides_the_user_name(trust):
    path = script(trust, "deploy.sh")
    assert trust("deploy.sh", "--yes", "--by", "alice").returncode == 0
    assert entries(trust)[path]["trusted_by"] == "alice"


def test_without_a_terminal_and_without_yes_it_refuses(trust):
    script(trust, "deploy.sh")
    res = trust("./deploy.sh")
    assert res.returncode == 1
    assert "no terminal to ask on" in res.stderr and "--yes" in res.stderr
    assert not os.path.exists(trust.store)


@pytest.mark.parametrize("answer, code", [("y\n", 0), ("yes\n", 0), ("n\n", 1), ("\n", 1)])
def test_asks_on_a_terminal(trust, answer, code):
    import pty

    path = script(trust, "deploy.sh")
    master, slave = pty.openpty()
    try:
        os.write(master, answer.encode())
        res = trust("./deploy.sh", stdin=slave)
    finally:
        os.close(slave)
        os.close(master)
    assert "Trust it" in res.stderr and "[y/N]" in res.stderr
    assert res.returncode == code, res.stderr
    assert (os.path.exists(trust.store) and path in entries(trust)) is (code == 0)


def test_tier1_findings_in_a_shell_script_are_warnings(trust):
    script(trust, "wipe.sh", "#!/bin/bash\ngit status\nrm -rf ~\n")
    res = trust("wipe.sh")
    assert res.returncode == 1
    assert "warning:" in res.stderr and "delete" in res.stderr
    warned = res.stderr.index("warning:")
    assert warned < res.stderr.index("not trusted")


def test_a_harmless_shell_script_has_no_warning(trust):
    script(trust, "ok.sh", "#!/bin/sh\nls -la\ngit status\n")
    res = trust("ok.sh", "--yes")
    assert res.returncode == 0 and "warning:" not in res.stderr


def test_python_content_is_not_analysed_and_says_so(trust):
    script(trust, "tool.py", "import shutil\nshutil.rmtree('/')\n")
    res = trust("tool.py", "--yes")
    assert res.returncode == 0
    assert "was not analysed (a Python script)" in res.stderr


def test_symlink_is_trusted_as_its_target(trust):
    target = script(trust, "real.sh")
    os.symlink("real.sh", trust.project / "link.sh")
    assert trust("link.sh", "--yes").returncode == 0
    assert list(entries(trust)) == [os.path.realpath(target)]


@pytest.mark.parametrize("what, message", [("missing.sh", "missing"), (".", "not a regular file")])
def test_cannot_trust_what_cannot_be_hashed(trust, what, message):
    res = trust(what, "--yes")
    assert res.returncode == 2 and message in res.stderr


def test_list_and_list_json(trust):
    a, b = script(trust, "a.sh"), script(trust, "b.sh")
    assert trust("--list").stdout.startswith("no trusted scripts")
    assert json.loads(trust("--list", "--json").stdout) == []
    trust(a, "--yes", "--note", "first")
    trust(b, "--yes")
    res = trust("--list")
    assert res.returncode == 0 and a in res.stdout and b in res.stdout and "note: first" in res.stdout
    rows = json.loads(trust("--list", "--json").stdout)
    assert [r["path"] for r in rows] == [a, b]
    assert set(rows[0]) == {"path", "sha256", "size", "trusted_by", "trusted_at", "note"}


def test_verify_reports_changed_and_missing_scripts(trust):
    a, b, c = script(trust, "a.sh"), script(trust, "b.sh"), script(trust, "c.sh")
    for p in (a, b, c):
        assert trust(p, "--yes").returncode == 0
    ok = trust("--verify")
    assert ok.returncode == 0 and "3 unchanged" in ok.stdout
    with open(b, "a") as fh:
        fh.write("#")
    os.unlink(c)
    res = trust("--verify")
    assert res.returncode == 1
    lines = res.stdout.splitlines()
    assert any(line.startswith("ok") and a in line for line in lines)
    assert any(line.startswith("CHANGED") and b in line and "hash changed since trusted by" in line for line in lines)
    assert any(line.startswith("MISSING") and c in line for line in lines)
    rows = {r["path"]: r for r in json.loads(trust("--verify", "--json").stdout)}
    assert (rows[a]["state"], rows[b]["state"], rows[c]["state"]) == ("trusted", "changed", "missing")


def test_revoke(trust):
    path = script(trust, "deploy.sh")
    trust("deploy.sh", "--yes")
    res = trust("--revoke", "./deploy.sh")
    assert res.returncode == 0 and "revoked" in res.stdout
    assert entries(trust) == {}
    again = trust("--revoke", "./deploy.sh")
    assert again.returncode == 1 and "not trusted" in again.stderr
    log = [json.loads(line) for line in open(trust.store[:-5] + ".log")]
    assert [r["action"] for r in log] == ["trust", "revoke"] and log[1]["path"] == path


def test_revoke_a_deleted_script(trust):
    path = script(trust, "gone.sh")
    trust("gone.sh", "--yes")
    os.unlink(path)
    assert trust("--revoke", "gone.sh").returncode == 0
    assert entries(trust) == {}


def test_store_can_be_moved_by_option_or_environment(trust, tmp_path):
    path = script(trust, "deploy.sh")
    by_option = tmp_path / "opt" / "trust.json"
    assert trust("deploy.sh", "--yes", "--store", str(by_option)).returncode == 0
    assert path in json.loads(by_option.read_text())["scripts"]
    assert (tmp_path / "opt" / "trust.log").exists()
    by_env = tmp_path / "env" / "trust.json"
    assert trust("deploy.sh", "--yes", env_extra={"PHLEGYAS_TRUST_STORE": str(by_env)}).returncode == 0
    assert path in json.loads(by_env.read_text())["scripts"]
    assert not os.path.exists(trust.store)


def test_eight_processes_trusting_at_once_lose_nothing(trust):
    paths = [script(trust, f"s{i}.sh", f"echo {i}\n") for i in range(8)]
    env = dict(trust.env)
    procs = [subprocess.Popen([sys.executable, "-m", "phlegyas.cli.trust", p, "--yes"], cwd=trust.project, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
             for p in paths]
    for p in procs:
        p.communicate(timeout=60)
        assert p.returncode == 0
    assert sorted(entries(trust)) == sorted(paths)
    log = open(trust.store[:-5] + ".log").read().splitlines()
    assert sorted(json.loads(line)["path"] for line in log) == sorted(paths)


def test_truncated_store_is_a_clear_error_and_is_left_alone(trust):
    a = script(trust, "a.sh")
    trust(a, "--yes")
    data = open(trust.store).read()
    with open(trust.store, "w") as fh:
        fh.write(data[:40])
    for args in (("--list",), ("--verify",), ("a.sh", "--yes"), ("--revoke", "a.sh")):
        res = trust(*args)
        assert res.returncode == 2, args
        assert trust.store in res.stderr and "not valid JSON" in res.stderr
        assert "Traceback" not in res.stderr
    assert open(trust.store).read() == data[:40]


@pytest.mark.parametrize("args, message", [
    ((), "give a PATH to trust"),
    (("a.sh", "--list"), "cannot be combined"),
    (("--list", "--verify"), "not allowed with"),
    (("a.sh", "--json"), "--json goes with --list or --verify"),
    (("--list", "--note", "x"), "--note and --yes go with a PATH"),
])
def test_usage_errors(trust, args, message):
    res = trust(*args)
    assert res.returncode == 2 and message in res.stderr


def test_help_describes_every_action(trust):
    res = trust("--help")
    assert res.returncode == 0
    for word in ("--list", "--json", "--revoke", "--verify", "--note", "--yes", "--by", "--store", "Exit status"):
        assert word in res.stdout


# -- through the gate ------------------------------------------------------------------------------

def check(trust, command: str, *extra: str):
    return subprocess.run([sys.executable, "-m", "phlegyas", "check", "--no-audit", "--headless", *extra, "--", command],
                          capture_output=True, text=True, cwd=trust.project, env=trust.env, timeout=60)


def test_phlegyas_check_allows_a_trusted_script_and_explains(trust):
    script(trust, "deploy.sh")
    before = check(trust, "./deploy.sh --env staging")
    assert before.returncode == 2, before.stdout  # headless: ask becomes deny
    assert "not trusted" in before.stdout
    assert trust("deploy.sh", "--yes", "--by", "alice").returncode == 0
    after = check(trust, "./deploy.sh --env staging")
    assert after.returncode == 0, after.stdout
    assert "tier2_5_trusted" in after.stdout and "trusted by alice on" in after.stdout
    assert "hash matches" in after.stdout
    with open(trust.project / "deploy.sh", "a") as fh:
        fh.write("curl http://example.com\n")
    changed = check(trust, "./deploy.sh --env staging")
    assert changed.returncode == 2
    assert "hash changed since trusted by alice" in changed.stdout


def test_phlegyas_check_never_lifts_a_deny(trust):
    script(trust, "deploy.sh")
    trust("deploy.sh", "--yes")
    res = check(trust, "./deploy.sh && rm -rf ~")
    assert res.returncode == 2 and "tier1_dangerous" in res.stdout
