"""OpenCode (PROTOCOLS.md §6): the dialect through the real hook process, the plugin in node, install.

- The hook: events of the shape phlegyas's plugin sends (``tool.execute.before``, OpenCode's tool names
  and arguments as 1.18.33 passes them) through ``python -P -c '…client…' --agent opencode``; each
  decision's answer line, OpenCode's tools mapped to the gate's (seen in the audit), malformed input,
  and the event recognised without ``--agent`` (and no other host's event taken for OpenCode's).
- The plugin (``plugin.js`` as install writes it) imported by node, its ``tool.execute.before``
  handler called as OpenCode calls it: what it sends the hook, and that it throws on deny, on ask, and
  whenever the hook cannot answer (cannot start, too slow, exits non-zero, prints garbage). OpenCode runs
  plugins in its own runtime (Bun); tests/test_e2e_opencode.py runs it there.
- install / uninstall: the file, its marker, an update in place, someone else's file left alone.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tomllib

import pytest
from conftest import require

from phlegyas.hosts.config_files import InstallError, apply
from phlegyas.hosts.hook.command import hook_command, is_phlegyas_command
from phlegyas.hosts.hook.dialects import opencode, registry
from phlegyas.hosts.opencode import install

LAUNCHER = "from phlegyas.hosts.hook.client import main; raise SystemExit(main())"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOW = __import__("datetime").datetime(2026, 12, 2, 12, 0, 0)


@pytest.fixture
def box(tmp_path):
    home = tmp_path / "home"
    project = tmp_path / "project"
    home.mkdir()
    project.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PHLEGYAS_", "OPENCODE_", "XDG_")) and k not in (
               "AUDIT_LOG_FILE", "ENABLE_AUDIT_LOG", "APPROVAL_WAIT_SECONDS")}
    env.update(HOME=str(home), PHLEGYAS_HOME=str(home / "phlegyas"), PHLEGYAS_HOOK_SERVER="off")
    return Box(str(home), str(project), env)


class Box:
    def __init__(self, home: str, project: str, env: dict):
        self.home, self.project, self.env = home, project, env
        self.audit_log = os.path.join(env["PHLEGYAS_HOME"], "audit.jsonl")

    def event(self, tool: str = "bash", args: object = None, **fields) -> dict:
        return {"hook_event_name": "tool.execute.before", "tool": tool, "sessionID": "ses_dcb3e3f30ffemQUTvAGUJZ",
                "callID": "call_fake0000", "args": {} if args is None else args, "cwd": self.project, **fields}

    def hook(self, event: object, *, agent: str | None = "opencode", env: dict | None = None):
        raw = event if isinstance(event, bytes) else json.dumps(event).encode()
        proc = subprocess.run([sys.executable, "-P", "-c", LAUNCHER, *(["--agent", agent] if agent else [])],
                              input=raw, capture_output=True, env={**self.env, **(env or {})}, cwd=self.project,
                              timeout=60)
        lines = proc.stdout.decode().splitlines()
        assert len(lines) == 1, f"one answer line expected, got {proc.stdout!r} (stderr {proc.stderr!r})"
        return proc.returncode, json.loads(lines[0]), proc.stderr.decode()

    def audit(self) -> list[dict]:
        with open(self.audit_log, encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]


def bash(command: str, **more) -> dict:
    return {"command": command, "description": "Run it", **more}


# -- decisions -----------------------------------------------------------------------------------

@pytest.mark.parametrize("command, decision", [
    ("rm -rf /", "deny"),
    ("ls", "allow"),
    ("git status", "allow"),
    ("sudo ls", "ask"),
    ("frobnicate --all", "undecided"),
])
def test_each_decision_is_one_answer_line(box, command, decision):
    code, answer, _ = box.hook(box.event("bash", bash(command)))
    assert code == 0
    assert set(answer) == {"decision", "reason"} and answer["decision"] == decision
    assert answer["reason"].startswith("phlegyas: ")
    entry = box.audit()[-1]
    assert entry["host"] == "opencode" and entry["hook_event"] == "tool.execute.before"
    assert entry["tool_name"] == "Bash" and entry["input"]["command"] == command
    assert entry["session_id"] == "ses_dcb3e3f30ffemQUTvAGUJZ" and entry["cwd"] == box.project


def test_undecided_asks_with_the_setting(box):
    code, answer, _ = box.hook(box.event("bash", bash("frobnicate --all")), env={"PHLEGYAS_HOOK_UNDECIDED": "ask"})
    assert (code, answer["decision"]) == (0, "ask")


@pytest.mark.parametrize("tool, args, gate_tool, gate_input, decision", [
    ("write", {"filePath": "/etc/hosts", "content": "x"}, "Write", {"file_path": "/etc/hosts", "content": "x"}, "ask"),
    ("edit", {"filePath": "PROJECT/a.py", "oldString": "a", "newString": "b", "replaceAll": True}, "Edit",
     {"file_path": "PROJECT/a.py", "old_string": "a", "new_string": "b", "replace_all": True}, "allow"),
    ("read", {"filePath": "HOME/.ssh/id_rsa"}, "Read", {"file_path": "HOME/.ssh/id_rsa"}, "ask"),
    ("webfetch", {"url": "https://example.com/", "format": "markdown"}, "WebFetch",
     {"url": "https://example.com/", "format": "markdown"}, "allow"),
    ("grep", {"pattern": "TODO", "path": "PROJECT", "include": "*.py"}, "Grep",
     {"pattern": "TODO", "path": "PROJECT", "glob": "*.py"}, None),  # (the gate's own view of the glob)
])
def test_opencode_tools_map_to_the_gates(box, tool, args, gate_tool, gate_input, decision):
    def place(value):
        return value.replace("PROJECT", box.project).replace("HOME", box.home) if isinstance(value, str) else value

    code, answer, _ = box.hook(box.event(tool, {k: place(v) for k, v in args.items()}))
    assert code == 0 and answer["decision"] == (decision or answer["decision"]), answer
    entry = box.audit()[-1]
    assert entry["tool_name"] == gate_tool and entry["input"] == {k: place(v) for k, v in gate_input.items()}


def test_an_unknown_tool_keeps_its_name(box):
    code, answer, _ = box.hook(box.event("todowrite", {"todos": [{"content": "x", "status": "pending"}]}))
    assert (code, answer["decision"]) == (0, "undecided")
    assert box.audit()[-1]["tool_name"] == "todowrite"


def test_bash_workdir_is_where_the_command_runs(box):
    code, answer, _ = box.hook(box.event("bash", bash("rm -rf .", workdir=box.home)))
    assert (code, answer["decision"]) == (0, "deny") and "home directory" in answer["reason"], answer
    assert box.audit()[-1]["cwd"] == box.home and "workdir" not in box.audit()[-1]["input"]
    os.makedirs(os.path.join(box.project, "build"))
    code, answer, _ = box.hook(box.event("bash", bash("ls", workdir="build")))
    assert (code, answer["decision"]) == (0, "allow")
    assert box.audit()[-1]["cwd"] == os.path.join(box.project, "build")


# -- input that cannot be decided ---------------------------------------------------------------

def _bad(box, raw, **kw):
    code, answer, stderr = box.hook(raw, **kw)
    assert code == 2 and answer["decision"] == "deny", answer
    assert answer["reason"].startswith("phlegyas: ") and answer["reason"] in stderr
    return answer["reason"]


@pytest.mark.parametrize("raw, says", [
    (b"not json", "not valid JSON"),
    (b"[1, 2]", "expected a JSON object"),
    (b"", "empty input"),
    (b"\xff\xfe{}", "not UTF-8"),
])
def test_unreadable_input_is_denied(box, raw, says):
    assert says in _bad(box, raw)


@pytest.mark.parametrize("change, says", [
    ({"tool": 7}, "'tool' must be a non-empty string"),
    ({"tool": " "}, "'tool' must be a non-empty string"),
    ({"args": "ls"}, "'args' must be an object"),
    ({"args": {"command": ["rm", "-rf", "/"]}}, "Bash needs a string 'command'"),
    ({"args": {"command": "ls", "workdir": 3}}, "'workdir' must be a path"),
    ({"args": {"command": "ls", "workdir": "~/x"}}, "starts with '~'"),
    ({"cwd": "relative/dir"}, "'cwd' must be an absolute path"),
    ({"hook_event_name": "tool.execute.after"}, "unknown hook_event_name"),
])
def test_malformed_events_are_denied(box, change, says):
    assert says in _bad(box, {**box.event("bash", bash("ls")), **change})


def test_a_missing_args_is_denied(box):
    event = box.event("bash", bash("ls"))
    del event["args"]
    assert "missing 'args'" in _bad(box, event)


def test_a_huge_event_is_denied(box):
    event = box.event("write", {"filePath": os.path.join(box.project, "a"), "content": "x" * (17 * 1024 * 1024)})
    assert "larger than 16 MiB" in _bad(box, event)


# -- which host ------------------------------------------------------------------------------------

def test_recognised_without_agent(box):
    code, answer, _ = box.hook(box.event("bash", bash("rm -rf /")), agent=None)
    assert (code, answer["decision"]) == (0, "deny")
    assert box.audit()[-1]["host"] == "opencode"


OTHER_HOSTS = [  # each host's documented event (PROTOCOLS.md §1, §6)
    {"session_id": "s", "transcript_path": "/t", "cwd": "/p", "hook_event_name": "PreToolUse", "tool_name": "Bash",
     "tool_input": {"command": "ls"}, "tool_use_id": "t"},
    {"session_id": "s", "turn_id": "t", "cwd": "/p", "hook_event_name": "PreToolUse", "tool_name": "Bash",
     "tool_input": {"command": "ls"}, "tool_use_id": "t", "model": "m", "permission_mode": "default"},
    {"session_id": "s", "cwd": "/p", "hook_event_name": "BeforeTool", "timestamp": "x",
     "tool_name": "run_shell_command", "tool_input": {"command": "ls"}},
    {"sessionId": "s", "timestamp": 1, "cwd": "/p", "toolName": "bash", "toolArgs": {"command": "ls"}},
    {"command": "ls", "cwd": "/p", "hook_event_name": "beforeShellExecution"},
]


def test_no_other_hosts_event_is_taken_for_opencodes():
    assert opencode.recognizes({"hook_event_name": "tool.execute.before", "tool": "bash", "args": {}})
    for event in OTHER_HOSTS:
        assert not opencode.recognizes(event), event
        assert registry.recognize(event) is not opencode, event
    assert registry.recognize({"hook_event_name": "tool.execute.before", "tool": "bash", "args": {}}) is opencode


# -- the plugin, in node --------------------------------------------------------------------------

DRIVER = r"""
const [plugin, directory, input, args] = process.argv.slice(2);
const mod = await import(plugin);
const hooks = await mod.PhlegyasPlugin({ directory, worktree: directory, client: {}, project: {}, $: null });
const output = { args: JSON.parse(args) };
try {
  await hooks["tool.execute.before"](JSON.parse(input), output);
  console.log(JSON.stringify({ threw: false }));
} catch (err) {
  console.log(JSON.stringify({ threw: true, message: err.message, isError: err instanceof Error }));
}
"""


@pytest.fixture
def node(tmp_path):
    node = shutil.which("node")
    require("node is not available: cannot run the OpenCode plugin", node is not None)
    driver = tmp_path / "driver.mjs"
    driver.write_text(DRIVER)
    return node, str(driver)


def run_plugin(box, node, *, args: object, tool: str = "bash", text: str | None = None, env: dict | None = None):
    """The installed plugin's handler called as OpenCode calls it; returns ``{"threw", "message"}``."""
    path = os.path.join(box.project, "plugin.mjs")
    with open(path, "w") as fh:
        fh.write(install.plugin_text(sys.executable, 30) if text is None else text)
    call = {"tool": tool, "sessionID": "ses_x", "callID": "call_x"}
    proc = subprocess.run([node[0], node[1], path, box.project, json.dumps(call), json.dumps(args)],
                          capture_output=True, text=True, env={**box.env, **(env or {})}, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def with_argv(argv: list[str], timeout_ms: int = 30000) -> str:
    """The plugin as install writes it, but running ``argv`` as its hook."""
    text = install.plugin_text(sys.executable, 30)
    real = json.dumps(shlex.split(hook_command(sys.executable, "opencode")))
    assert real in text and "const TIMEOUT_MS = 30000;" in text
    return text.replace(real, json.dumps(argv)).replace("const TIMEOUT_MS = 30000;", f"const TIMEOUT_MS = {timeout_ms};")


@pytest.mark.parametrize("command, threw, starts", [
    ("rm -rf /", True, "phlegyas: rm deletes / recursively"),
    ("sudo ls", True, "phlegyas asks: sudo runs ls"),
    ("ls", False, None),
    ("frobnicate --all", False, None),
])
def test_the_plugin_obeys_the_hook(box, node, command, threw, starts):
    result = run_plugin(box, node, args=bash(command))
    assert result["threw"] is threw, result
    if threw:
        assert result["isError"] and result["message"].startswith(starts), result
    if command == "sudo ls":
        assert result["message"].endswith("(OpenCode cannot ask from a plugin)")
    assert box.audit()[-1]["input"]["command"] == command and box.audit()[-1]["host"] == "opencode"


def test_the_plugin_sends_the_event_phlegyas_reads(box, node, tmp_path):
    seen = tmp_path / "event.json"
    script = f"import sys; open({str(seen)!r}, 'wb').write(sys.stdin.buffer.read()); " \
             "print('{\"decision\": \"allow\", \"reason\": \"phlegyas: ok\"}')"
    result = run_plugin(box, node, args=bash("ls"), text=with_argv([sys.executable, "-c", script]))
    assert result == {"threw": False}
    event = json.loads(seen.read_text())
    assert event == {"hook_event_name": "tool.execute.before", "tool": "bash", "sessionID": "ses_x",
                     "callID": "call_x", "args": bash("ls"), "cwd": box.project}
    assert opencode.recognizes(event) and opencode.parse(event).call.tool_input["command"] == "ls"


@pytest.mark.parametrize("argv, timeout_ms, says", [
    (["/nonexistent/python3"], 30000, "phlegyas: cannot run the hook"),
    ([sys.executable, "-c", "import time; time.sleep(30)"], 500, "phlegyas: the hook did not answer within 0.5 s"),
    ([sys.executable, "-c", "import sys; sys.exit(1)"], 30000, "phlegyas: the hook exited with status 1"),
    ([sys.executable, "-c", "import sys; print('oops', file=sys.stderr); sys.exit(3)"], 30000, "oops"),
    ([sys.executable, "-c", "print('hello')"], 30000, "phlegyas: the hook's answer is not one decision line"),
    ([sys.executable, "-c", "print('{\"decision\": \"maybe\"}')"], 30000, "not one decision line"),
    ([sys.executable, "-c", "print('{\"decision\": \"allow\"}'); print('{\"decision\": \"allow\"}')"], 30000,
     "not one decision line"),
    ([sys.executable, "-c", "import os; os.kill(os.getpid(), 9)"], 30000, "phlegyas: the hook was killed by SIGKILL"),
])
def test_the_plugin_fails_closed(box, node, argv, timeout_ms, says):
    result = run_plugin(box, node, args=bash("ls"), text=with_argv(argv, timeout_ms))
    assert result["threw"] and says in result["message"], result


def test_the_plugin_passes_the_hooks_own_block_on(box, node):
    result = run_plugin(box, node, args="not an object")
    assert result["threw"] and result["message"].startswith("phlegyas: invalid hook input: 'args' must be an object")


# -- install / uninstall ------------------------------------------------------------------------

def _install(box, *, user=False, environ=None, timeout=30):
    return install.install_changes(user=user, project=box.project, environ=environ or box.env,
                                   python=sys.executable, timeout=timeout)


def _write(changes):
    for change in changes:
        if change.changed:
            apply(change, NOW)


def test_install_writes_the_plugin_and_a_second_run_changes_nothing(box):
    path = os.path.join(box.project, ".opencode", "plugin", "phlegyas.js")
    changes = _install(box)
    assert [c.path for c in changes] == [path] and changes[0].changed and changes[0].before is None
    _write(changes)
    with open(path) as fh:
        text = fh.read()
    assert text.startswith(install.MARKER)
    argv = shlex.split(hook_command(sys.executable, "opencode"))
    assert f"const HOOK_ARGV = {json.dumps(argv)};" in text and "const TIMEOUT_MS = 30000;" in text
    assert is_phlegyas_command(shlex.join(argv)) and argv[-2:] == ["--agent", "opencode"]
    assert "__PHLEGYAS_" not in text and "shell: false" in text
    assert not any(c.changed for c in _install(box))
    assert install.wired(user=False, project=box.project, environ=box.env) == path


def test_install_updates_an_older_phlegyas_plugin_in_place(box):
    path = os.path.join(box.project, ".opencode", "plugin", "phlegyas.js")
    os.makedirs(os.path.dirname(path))
    with open(path, "w") as fh:
        fh.write(install.MARKER + " (an older install)\nconst HOOK_ARGV = [\"/old/python\"];\n")
    other = os.path.join(os.path.dirname(path), "mine.js")
    with open(other, "w") as fh:
        fh.write("export const Mine = async () => ({});\n")
    changes = _install(box, timeout=45)
    assert changes[0].changed and changes[0].before is not None
    _write(changes)
    with open(path) as fh:
        assert "const TIMEOUT_MS = 45000;" in fh.read()
    assert os.path.isfile(other)
    assert [p for p in os.listdir(os.path.dirname(path)) if p.startswith("phlegyas.js.phlegyas-backup-")]


def test_install_refuses_someone_elses_file_of_that_name(box):
    path = os.path.join(box.project, ".opencode", "plugin", "phlegyas.js")
    os.makedirs(os.path.dirname(path))
    with open(path, "w") as fh:
        fh.write("// my own phlegyas wrapper\nexport const P = async () => ({});\n")
    with pytest.raises(InstallError, match=rf"^{path}:1: a plugin that phlegyas did not write"):
        _install(box)
    with open(path) as fh:
        assert fh.read().startswith("// my own")
    assert install.uninstall_changes(user=False, project=box.project, environ=box.env) == []
    assert install.wired(user=False, project=box.project, environ=box.env) is None


def test_uninstall_removes_exactly_the_plugin(box):
    _write(_install(box))
    path = os.path.join(box.project, ".opencode", "plugin", "phlegyas.js")
    other = os.path.join(os.path.dirname(path), "mine.js")
    with open(other, "w") as fh:
        fh.write("export const Mine = async () => ({});\n")
    changes = install.uninstall_changes(user=False, project=box.project, environ=box.env)
    assert [c.path for c in changes] == [path] and changes[0].removes_file
    _write(changes)
    assert not os.path.exists(path) and os.path.isfile(other)
    assert install.uninstall_changes(user=False, project=box.project, environ=box.env) == []
    assert install.wired(user=False, project=box.project, environ=box.env) is None


def test_user_scope_honours_xdg_config_home(box, tmp_path):
    xdg = str(tmp_path / "xdg")
    env = {**box.env, "XDG_CONFIG_HOME": xdg}
    assert _install(box, user=True, environ=env)[0].path == os.path.join(xdg, "opencode", "plugin", "phlegyas.js")
    default = os.path.join(box.home, ".config", "opencode", "plugin", "phlegyas.js")
    assert _install(box, user=True)[0].path == default
    assert _install(box, user=True, environ={**box.env, "XDG_CONFIG_HOME": "relative"})[0].path == default
    _write(_install(box, user=True, environ=env))
    assert install.wired(user=True, project=box.project, environ=env) is not None
    assert install.wired(user=True, project=box.project, environ=box.env) is None


def test_a_bad_timeout_is_refused(box):
    with pytest.raises(InstallError, match="positive number of seconds"):
        _install(box, timeout=0)


def test_the_cli_installs_and_uninstalls(box):
    def cli(*args):
        proc = subprocess.run([sys.executable, "-m", "phlegyas", *args, "--agent", "opencode", "--project", box.project],
                              capture_output=True, text=True, env=box.env, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    path = os.path.join(box.project, ".opencode", "plugin", "phlegyas.js")
    assert "phlegyas.js" in cli("install", "--dry-run") and not os.path.exists(path)
    assert "OpenCode cannot ask its user from a plugin" in cli("install")
    assert os.path.isfile(path)
    cli("uninstall")
    assert not os.path.exists(path)


def test_the_plugin_ships_as_package_data():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        data = tomllib.load(fh)["tool"]["setuptools"]["package-data"]
    assert "plugin.js" in data["phlegyas.hosts.opencode"]
    assert os.path.isfile(os.path.join(ROOT, "phlegyas", "hosts", "opencode", "plugin.js"))
