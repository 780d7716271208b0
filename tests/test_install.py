"""`phlegyas install` / `uninstall`: what they write into Claude Code's files, run as real processes."""
from __future__ import annotations

import json
import os
import re
import shlex
import stat
import subprocess

import pytest

from phlegyas.hosts.claude_code import install

HOOK_EVENTS = ("PreToolUse", "PermissionRequest", "PermissionDenied")


def read(path) -> dict:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def write(path, data) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(data if isinstance(data, str) else json.dumps(data, indent=4))


def listing(root) -> dict[str, bytes]:
    """Every file under ``root`` and its content."""
    out = {}
    for base, _, files in os.walk(root):
        for name in files:
            path = os.path.join(base, name)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, root)] = fh.read()
    return out


def backups(root) -> list[str]:
    return sorted(p for p in listing(root) if ".phlegyas-backup-" in p)


@pytest.fixture
def paths(run_cli):
    project = str(run_cli.project)
    return {"project": project, "settings": os.path.join(project, ".claude", "settings.json"),
            "mcp": os.path.join(project, ".mcp.json")}


def phlegyas_hooks(settings: dict, event: str) -> list[tuple[str, dict]]:
    return [(group.get("matcher"), entry) for group in settings["hooks"][event] for entry in group["hooks"]
            if install.is_phlegyas_hook(entry)]


# -- install into a project --------------------------------------------------------------------------

def test_fresh_project_gets_hooks_and_the_mcp_server(run_cli, paths):
    proc = run_cli("install")
    assert proc.returncode == 0, proc.stderr
    settings = read(paths["settings"])
    for event in HOOK_EVENTS:
        [(matcher, entry)] = phlegyas_hooks(settings, event)
        assert matcher == "*"
        assert set(entry) == {"type", "command", "timeout", "onFailure"}
        assert entry["type"] == "command" and entry["timeout"] == 30 and entry["onFailure"] == "block"  # no wait set
        python, *args = shlex.split(entry["command"])
        assert os.path.isabs(python) and os.access(python, os.X_OK)
        assert args == ["-P", "-c", install.HOOK_LAUNCHER, "--agent", "claude"]
    assert settings["enabledMcpjsonServers"] == ["phlegyas"]
    server = read(paths["mcp"])["mcpServers"]["phlegyas"]
    assert server["args"] == ["-P", "-m", "phlegyas.hosts.mcp.server"]
    assert os.path.isabs(server["command"]) and os.access(server["command"], os.X_OK)
    assert "--permission-prompt-tool mcp__phlegyas__permissions__approve" in proc.stdout
    assert paths["settings"] in proc.stdout and paths["mcp"] in proc.stdout
    assert backups(paths["project"]) == []  # nothing existed, nothing to back up


@pytest.mark.parametrize("wait, expected", [("0", 30), ("10", 40), ("120", 150), ("1800", 1830)])
def test_the_permission_request_hook_outlasts_the_wait_for_a_person(run_cli, paths, wait, expected):
    """Claude Code kills a hook past its timeout: the one that may wait for a person gets the wait plus a
    margin; PreToolUse never waits and keeps 30 s."""
    proc = run_cli("install", "--hook", env_extra={"APPROVAL_WAIT_SECONDS": wait})
    assert proc.returncode == 0, proc.stderr
    settings = read(paths["settings"])
    [(_, pre)] = phlegyas_hooks(settings, "PreToolUse")
    [(_, permission)] = phlegyas_hooks(settings, "PermissionRequest")
    assert (pre["timeout"], permission["timeout"]) == (30, expected)
    assert f"PermissionRequest timeout {expected} s" in proc.stdout
    assert "warning" not in proc.stderr


def test_with_slack_approvals_on_the_hook_outlasts_slacks_timeout(run_cli, paths):
    slack = {"SLACK_BOT_TOKEN": "xoxb-1234567890-0987654321-AbCdEf", "SLACK_APP_TOKEN": "xapp-1-A0123-456-abcdef",
             "SLACK_APPROVAL_CHANNEL": "C0123ABCD", "SLACK_APPROVAL_TIMEOUT_SECONDS": "600"}
    proc = run_cli("install", "--hook", env_extra=slack)
    assert proc.returncode == 0, proc.stderr
    [(_, permission)] = phlegyas_hooks(read(paths["settings"]), "PermissionRequest")
    assert permission["timeout"] == 630
    assert slack["SLACK_BOT_TOKEN"] not in proc.stdout + proc.stderr


def test_a_hook_timeout_shorter_than_the_wait_is_written_with_a_warning(run_cli, paths):
    proc = run_cli("install", "--hook", "--hook-timeout", "60", env_extra={"APPROVAL_WAIT_SECONDS": "120"})
    assert proc.returncode == 0, proc.stderr
    [(_, permission)] = phlegyas_hooks(read(paths["settings"]), "PermissionRequest")
    assert permission["timeout"] == 60
    assert "warning: --hook-timeout 60 is shorter" in proc.stderr and "use at least 150" in proc.stderr


def test_raising_the_wait_later_is_one_install_away(run_cli, paths):
    assert run_cli("install", "--hook").returncode == 0
    proc = run_cli("install", "--hook", env_extra={"APPROVAL_WAIT_SECONDS": "300"})
    assert proc.returncode == 0 and "updated" in proc.stdout
    [(_, permission)] = phlegyas_hooks(read(paths["settings"]), "PermissionRequest")
    assert permission["timeout"] == 330


def test_install_writes_no_mcp_server_that_cannot_start(run_cli, paths, tmp_path):
    """An environment whose mcp package does not import (here a stand-in that fails as a missing one
    would) gets no server entry: install says what to do and writes nothing; --hook alone still works."""
    broken = tmp_path / "no-mcp" / "mcp"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('raise ImportError("No module named mcp.server")\n')
    env = {"PYTHONPATH": str(broken.parent)}
    proc = run_cli("install", env_extra=env)
    assert proc.returncode == 3
    assert "the MCP server cannot start" in proc.stderr and "pip install 'phlegyas[mcp]'" in proc.stderr
    assert "phlegyas install --hook" in proc.stderr and "Traceback" not in proc.stderr
    assert listing(paths["project"]) == {}
    proc = run_cli("install", "--hook", env_extra=env)
    assert proc.returncode == 0, proc.stderr
    assert os.path.exists(paths["settings"]) and not os.path.exists(paths["mcp"])


def test_a_plain_install_brings_the_mcp_server_with_it():
    """`mcp` is a dependency of the package itself (the README's first command installs it)."""
    from importlib.metadata import requires

    assert any(re.match(r"mcp\s*[<>=!~]", r) and "extra" not in r for r in requires("phlegyas"))
    assert install.mcp_server_problem() is None


OTHER_SETTINGS = {
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test)"], "deny": ["Read(.env)"]},
    "enabledMcpjsonServers": ["github"],
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/opt/audit-hook --strict"}]}],
        "PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}
OTHER_MCP = {"mcpServers": {"github": {"command": "npx", "args": ["-y", "gh-mcp"], "env": {"T": "x"}}}}


def test_existing_settings_are_merged_not_clobbered(run_cli, paths):
    write(paths["settings"], OTHER_SETTINGS)
    write(paths["mcp"], OTHER_MCP)
    assert run_cli("install").returncode == 0
    settings = read(paths["settings"])
    for key in ("model", "permissions"):
        assert settings[key] == OTHER_SETTINGS[key]
    assert settings["enabledMcpjsonServers"] == ["github", "phlegyas"]
    assert settings["hooks"]["PostToolUse"] == OTHER_SETTINGS["hooks"]["PostToolUse"]
    assert settings["hooks"]["PreToolUse"][0] == OTHER_SETTINGS["hooks"]["PreToolUse"][0]
    assert len(phlegyas_hooks(settings, "PreToolUse")) == 1 and len(phlegyas_hooks(settings, "PermissionRequest")) == 1
    servers = read(paths["mcp"])["mcpServers"]
    assert servers["github"] == OTHER_MCP["mcpServers"]["github"] and "phlegyas" in servers


def test_a_second_run_changes_nothing(run_cli, paths):
    write(paths["settings"], OTHER_SETTINGS)
    assert run_cli("install").returncode == 0
    before = listing(paths["project"])
    proc = run_cli("install")
    assert proc.returncode == 0
    assert "nothing to change" in proc.stdout
    assert listing(paths["project"]) == before  # no write, no new backup


def test_an_old_phlegyas_hook_is_updated_in_place_and_duplicates_dropped(run_cli, paths):
    old = {"type": "command", "command": "phlegyas-hook", "timeout": 5000}
    write(paths["settings"], {"hooks": {
        "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/opt/audit-hook"}, old]},
                       {"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 -m phlegyas.hook"}]}],
        "PermissionRequest": [{"matcher": "*", "hooks": [old, dict(old)]}],
    }})
    assert run_cli("install", "--hook").returncode == 0
    settings = read(paths["settings"])
    pre = settings["hooks"]["PreToolUse"]
    assert pre[0]["hooks"][0] == {"type": "command", "command": "/opt/audit-hook"}  # order kept
    assert pre[0]["hooks"][1]["onFailure"] == "block" and pre[0]["hooks"][1]["timeout"] == 30
    assert len(pre) == 1  # the Bash group held only a second phlegyas hook: gone
    assert len(phlegyas_hooks(settings, "PermissionRequest")) == 1


def test_each_changed_file_is_backed_up_with_its_old_content(run_cli, paths):
    original = json.dumps(OTHER_SETTINGS, indent=4)
    write(paths["settings"], original)
    assert run_cli("install", "--hook").returncode == 0
    [backup] = backups(paths["project"])
    assert backup.startswith(os.path.join(".claude", "settings.json.phlegyas-backup-"))
    with open(os.path.join(paths["project"], backup), encoding="utf-8") as fh:
        assert fh.read() == original


def test_the_file_mode_is_kept(run_cli, paths):
    write(paths["settings"], {"model": "opus"})
    os.chmod(paths["settings"], 0o600)
    assert run_cli("install", "--hook").returncode == 0
    assert stat.S_IMODE(os.stat(paths["settings"]).st_mode) == 0o600


def test_dry_run_prints_the_diff_and_writes_nothing(run_cli, paths):
    write(paths["settings"], OTHER_SETTINGS)
    before = listing(paths["project"])
    proc = run_cli("install", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert listing(paths["project"]) == before
    assert f"--- {paths['settings']}" in proc.stdout and "--- /dev/null" in proc.stdout
    assert '+            "onFailure": "block"' in proc.stdout
    assert "dry run: nothing was written" in proc.stdout


@pytest.mark.parametrize("only, has_hooks, has_mcp", [("--hook", True, False), ("--mcp", False, True)])
def test_hook_or_mcp_alone(run_cli, paths, only, has_hooks, has_mcp):
    assert run_cli("install", only).returncode == 0
    settings = read(paths["settings"])
    assert ("hooks" in settings) is has_hooks
    assert ("enabledMcpjsonServers" in settings) is has_mcp
    assert os.path.exists(paths["mcp"]) is has_mcp


# -- uninstall -------------------------------------------------------------------------------------

def test_uninstall_restores_what_was_there(run_cli, paths):
    write(paths["settings"], OTHER_SETTINGS)
    write(paths["mcp"], OTHER_MCP)
    assert run_cli("install").returncode == 0
    proc = run_cli("uninstall")
    assert proc.returncode == 0, proc.stderr
    assert read(paths["settings"]) == OTHER_SETTINGS
    assert read(paths["mcp"]) == OTHER_MCP
    assert "nothing to change" in run_cli("uninstall").stdout


def test_uninstall_after_a_fresh_install_removes_the_files_it_made(run_cli, paths):
    assert run_cli("install").returncode == 0
    assert run_cli("uninstall").returncode == 0
    assert not os.path.exists(paths["settings"]) and not os.path.exists(paths["mcp"])
    assert len(backups(paths["project"])) == 2  # what it removed is still kept aside


def test_uninstall_of_the_hook_only_keeps_the_server(run_cli, paths):
    assert run_cli("install").returncode == 0
    assert run_cli("uninstall", "--hook").returncode == 0
    settings = read(paths["settings"])
    assert "hooks" not in settings and settings["enabledMcpjsonServers"] == ["phlegyas"]
    assert "phlegyas" in read(paths["mcp"])["mcpServers"]


# -- errors ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, where", [
    ('{\n  "model": "opus",\n  "hooks": {,\n}\n', ":3:"),
    ('{"model": "opus"}\n// a comment\n', ":2:"),
    ("[1, 2]\n", ":1:1: expected a JSON object"),
    ('{\n  "hooks": []\n}\n', ":2: hooks must be an object"),
    ('{\n  "hooks": {\n    "PreToolUse": {"matcher": "*"}\n  }\n}\n', ":3: hooks.PreToolUse must be a list"),
])
def test_malformed_settings_are_reported_and_nothing_changes(run_cli, paths, text, where):
    write(paths["settings"], text)
    before = listing(paths["project"])
    proc = run_cli("install")
    assert proc.returncode == 3
    assert f"{paths['settings']}{where}" in proc.stderr, proc.stderr
    assert "nothing was changed" in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert listing(paths["project"]) == before  # not even .mcp.json was written


def test_a_missing_project_is_an_error(run_cli, tmp_path):
    proc = run_cli("install", "--project", str(tmp_path / "nope"))
    assert proc.returncode == 3 and "no such directory" in proc.stderr


# -- the user's files ------------------------------------------------------------------------------

def test_user_install_writes_the_users_files(run_cli):
    home = run_cli.home
    state = os.path.join(home, ".claude.json")
    write(state, {"numStartups": 4, "projects": {"/x": {"allowedTools": []}}})
    os.chmod(state, 0o600)
    proc = run_cli("install", "--user")
    assert proc.returncode == 0, proc.stderr
    settings = read(os.path.join(home, ".claude", "settings.json"))
    assert len(phlegyas_hooks(settings, "PreToolUse")) == 1
    assert "enabledMcpjsonServers" not in settings  # the user's server needs no approval
    data = read(state)
    assert data["numStartups"] == 4 and data["projects"] == {"/x": {"allowedTools": []}}
    assert data["mcpServers"]["phlegyas"]["args"] == ["-P", "-m", "phlegyas.hosts.mcp.server"]
    assert stat.S_IMODE(os.stat(state).st_mode) == 0o600
    assert not os.path.exists(os.path.join(str(run_cli.project), ".claude"))


def test_user_install_follows_claude_config_dir(run_cli, tmp_path):
    config = tmp_path / "cfg"
    proc = run_cli("install", "--user", "--mcp", env_extra={"CLAUDE_CONFIG_DIR": str(config)})
    assert proc.returncode == 0, proc.stderr
    assert "phlegyas" in read(config / ".claude.json")["mcpServers"]
    assert stat.S_IMODE(os.stat(config / ".claude.json").st_mode) == 0o600
    assert run_cli("uninstall", "--user", "--mcp", env_extra={"CLAUDE_CONFIG_DIR": str(config)}).returncode == 0
    assert not os.path.exists(config / ".claude.json")


# -- the merge functions ---------------------------------------------------------------------------

@pytest.mark.parametrize("command, ours", [
    (install.hook_command("/home/u/.venv/bin/python"), True),
    ("/home/u/.venv/bin/phlegyas-hook", True),
    ("phlegyas-hook", True),
    ("'/path with space/phlegyas-hook'", True),
    ("/usr/bin/python3 -m phlegyas.hook", True),
    ("phlegyas hook", True),
    ("/opt/phlegyas-hook-wrapper", False),
    ("python3 -m phlegyas.hookd", False),
    ("python3 -m phlegyas.hosts.hook.server", False),
    ("/usr/bin/python3 -P -m phlegyas.hosts.hook.client", True),
    ("python3 -c 'import phlegyas'", False),
    ("echo phlegyas-hook", False),
    ("phlegyas check", False),
    ("'unbalanced", False),
    ("", False),
])
def test_which_hooks_are_phlegyas(command, ours):
    assert install.is_phlegyas_hook({"type": "command", "command": command}) is ours


@pytest.mark.parametrize("settings", [
    {},
    {"hooks": {}},
    OTHER_SETTINGS,
    {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}},
])
def test_add_then_remove_is_the_identity_on_the_content(settings):
    added = install.add_hooks(settings, "/bin/phlegyas-hook")
    assert install.add_hooks(added, "/bin/phlegyas-hook") == added
    removed = install.remove_hooks(added)
    assert removed == settings or (settings == {"hooks": {}} and removed == {})


def test_the_installed_hook_command_ignores_a_hostile_project(run_cli, paths):
    """A repository may hold its own phlegyas/ package: the hook must not import it from the cwd."""
    assert run_cli("install", "--hook").returncode == 0  # (before the fake: run_cli uses python -m)
    fake = os.path.join(paths["project"], "phlegyas")
    os.makedirs(fake)
    allow = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'
    for name in ("__init__.py", "hook.py"):
        with open(os.path.join(fake, name), "w") as fh:
            fh.write(f"print({allow!r})\nraise SystemExit(0)\n")
    command = phlegyas_hooks(read(paths["settings"]), "PreToolUse")[0][1]["command"]
    event = {"hook_event_name": "PreToolUse", "cwd": paths["project"], "tool_name": "Bash",
             "tool_input": {"command": "rm -rf /"}}
    env = {k: v for k, v in os.environ.items() if not k.startswith("PHLEGYAS_")}
    env.update(HOME=run_cli.home, PHLEGYAS_HOOK_SERVER="off")
    proc = subprocess.run(command, shell=True, input=json.dumps(event), capture_output=True, text=True,
                          cwd=paths["project"], env=env, timeout=60)
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", proc.stdout + proc.stderr


# -- an install made before the layered layout ---------------------------------------------------------

OLD_LAUNCHER = "from phlegyas.hook import main; raise SystemExit(main())"  # what installs before 0.2 wrote
OLD_MCP_MODULE = "phlegyas.approver_mcp"


def _old_install(paths, python: str) -> None:
    """The files an earlier ``phlegyas install`` left, beside the user's own hooks and servers."""
    old_hook = {"type": "command", "command": shlex.join([python, "-P", "-c", OLD_LAUNCHER]), "timeout": 30,
                "onFailure": "block"}
    mine = {"type": "command", "command": "/usr/local/bin/my-lint-hook"}
    write(paths["settings"], {"model": "opus", "enabledMcpjsonServers": ["phlegyas"],
                              "hooks": {event: [{"matcher": "*", "hooks": [old_hook, mine]}] for event in HOOK_EVENTS}})
    write(paths["mcp"], {"mcpServers": {
        "phlegyas": {"command": python, "args": ["-P", "-m", OLD_MCP_MODULE], "env": {"LOG_LEVEL": "DEBUG"}},
        "github": {"command": "gh-mcp"}}})


def test_install_again_migrates_an_earlier_install(run_cli, paths):
    import sys

    _old_install(paths, sys.executable)
    proc = run_cli("install")
    assert proc.returncode == 0, proc.stderr
    settings = read(paths["settings"])
    for event in HOOK_EVENTS:
        [(matcher, entry)] = phlegyas_hooks(settings, event)  # the old entry is replaced, not doubled
        assert shlex.split(entry["command"])[1:] == ["-P", "-c", install.HOOK_LAUNCHER, "--agent", "claude"]
        assert "phlegyas.hosts.hook.client" in entry["command"] and OLD_LAUNCHER not in entry["command"]
        others = [e for group in settings["hooks"][event] for e in group["hooks"] if not install.is_phlegyas_hook(e)]
        assert others == [{"type": "command", "command": "/usr/local/bin/my-lint-hook"}]  # the user's own hook stays
    assert settings["model"] == "opus" and settings["enabledMcpjsonServers"] == ["phlegyas"]
    servers = read(paths["mcp"])["mcpServers"]
    assert servers["phlegyas"]["args"] == ["-P", "-m", install.MCP_MODULE]
    assert servers["phlegyas"]["env"] == {"LOG_LEVEL": "DEBUG"} and servers["github"] == {"command": "gh-mcp"}
    assert len(backups(paths["project"])) == 2  # both files changed, both backed up
    again = run_cli("install")
    assert again.returncode == 0 and "nothing to change" in again.stdout  # migrated once, stable after


def test_uninstall_removes_an_earlier_install(run_cli, paths):
    import sys

    _old_install(paths, sys.executable)
    assert run_cli("uninstall").returncode == 0
    settings = read(paths["settings"])
    for event in HOOK_EVENTS:
        assert [e for g in settings["hooks"][event] for e in g["hooks"]] == [
            {"type": "command", "command": "/usr/local/bin/my-lint-hook"}]
    assert "phlegyas" not in read(paths["mcp"])["mcpServers"]


def test_the_old_commands_still_work_until_migrated(run_cli, paths):
    """Between upgrading and running ``install`` again, the commands an earlier install wrote still run:
    the hook answers (here: blocks ``rm -rf /``) and the MCP module path starts the server's help."""
    import sys

    event = {"hook_event_name": "PreToolUse", "cwd": str(run_cli.project), "tool_name": "Bash",
             "tool_input": {"command": "rm -rf /"}, "session_id": "s", "permission_mode": "default"}
    env = dict(os.environ, HOME=run_cli.home, PHLEGYAS_HOME=os.path.join(run_cli.home, ".phlegyas"),
               PHLEGYAS_HOOK_SERVER="off", ENABLE_AUDIT_LOG="false")
    hook = subprocess.run([sys.executable, "-P", "-c", OLD_LAUNCHER], input=json.dumps(event), capture_output=True,
                          text=True, env=env, cwd=run_cli.project, timeout=120)
    assert hook.returncode == 0, hook.stderr
    assert json.loads(hook.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    server = subprocess.run([sys.executable, "-P", "-m", OLD_MCP_MODULE, "--help"], capture_output=True, text=True,
                            env=env, timeout=120)
    assert server.returncode == 0 and "MCP permission server" in server.stdout
