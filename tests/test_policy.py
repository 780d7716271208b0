"""Policy files: valid files, merging, rule roots, upward search, project restrictions, errors at file:line."""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from processes import as_user

from phlegyas.core.model import Finding, Verdict
from phlegyas.policy.files import Policy, PolicyError, empty_policy, json_lines, load_policy, toml_lines


@dataclass
class Layout:
    """A fake home with a data dir and a git project, all under tmp_path."""

    home: Path
    data: Path
    proj: Path

    def write(self, where: Path | str, text: str) -> str:
        path = Path(where) if Path(where).is_absolute() else self.home / where
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return str(path)

    def user(self, text: str) -> str:
        return self.write(self.data / "policy.toml", text)

    def project(self, text: str, name: str = ".phlegyas.toml") -> str:
        return self.write(self.proj / name, text)

    def load(self, cwd: Path | str | None = None, **kw) -> Policy:
        return load_policy(str(cwd or self.proj), home=str(self.home), data_dir=str(self.data), **kw)


def _layout(base: Path) -> Layout:
    home = base / "home"
    data = home / ".claude" / "phlegyas"
    proj = home / "work" / "proj"
    data.mkdir(parents=True)
    (proj / ".git").mkdir(parents=True)
    return Layout(home, data, proj)


@pytest.fixture
def lay(tmp_path) -> Layout:
    return _layout(tmp_path)


def summary(policy: Policy) -> dict:
    return {
        "allow": [r.text for r in policy.allow],
        "ask": [r.text for r in policy.ask],
        "deny": [r.text for r in policy.deny],
        "mode": policy.default_mode,
        "classes": {k: str(v) for k, v in policy.classes.items()},
        "settings": policy.settings,
        "dirs": policy.safe_write_dirs,
    }


# --- valid files ---------------------------------------------------------------------------------

VALID = [
    ("", {"allow": [], "ask": [], "deny": [], "mode": None, "classes": {}, "settings": {}, "dirs": []}),
    ('[permissions]\nallow = ["Bash(npm test *)", "Read(./src/**)"]\nask = ["Bash(git push *)"]\n'
     'deny = ["Read(.env)"]\ndefaultMode = "plan"\n',
     {"allow": ["Bash(npm test *)", "Read(./src/**)"], "ask": ["Bash(git push *)"], "deny": ["Read(.env)"],
      "mode": "plan"}),
    ('[permissions]\ndefaultMode = "bypassPermissions"\n', {"mode": "bypassPermissions"}),
    ('[classes]\n"git.reset_hard" = "allow"\n"delete.*" = "ask"\n"net.curl_pipe" = "Deny"\n',
     {"classes": {"git.reset_hard": "allow", "delete.*": "ask", "net.curl_pipe": "deny"}}),
    ('[settings]\napproval_confidence_threshold = 0.85\nimport_claude_settings = true\nlog_level = "debug"\n',
     {"settings": {"approval_confidence_threshold": 0.85, "log_level": "debug"}}),
    ('[settings]\nsafe_write_dirs = ["/tmp/", "docs/research/", "~/scratch", "/var/../srv/x/"]\n',
     {"dirs": ["/tmp", "{proj}/docs/research", "{home}/scratch", "/srv/x"]}),
    ('permissions.allow = ["Bash(ls)"]\npermissions.deny = [\'Bash(rm -rf *)\']\n',
     {"allow": ["Bash(ls)"], "deny": ["Bash(rm -rf *)"]}),
    ('permissions = { ask = ["WebFetch(domain:example.com)"], defaultMode = "acceptEdits" }\n',
     {"ask": ["WebFetch(domain:example.com)"], "mode": "acceptEdits"}),
    ('[permissions]\nallow = [\n  "Bash(make)",  # build\n  # a comment line\n  "mcp__github",\n]\n',
     {"allow": ["Bash(make)", "mcp__github"]}),
]


@pytest.mark.parametrize("text, expected", VALID)
def test_valid_user_policies(lay, text, expected):
    lay.user(text)
    got = summary(lay.load())
    for key, value in expected.items():
        if key == "dirs":
            value = [v.format(proj=lay.proj, home=lay.home) for v in value]
        assert got[key] == value, key


def test_missing_files_give_an_empty_policy(lay):
    policy = lay.load()
    assert summary(policy) == summary(empty_policy())
    assert policy.sources == [] and policy.project_root == str(lay.proj)


def test_empty_policy():
    policy = empty_policy()
    assert (policy.allow, policy.ask, policy.deny, policy.sources, policy.project_root) == ([], [], [], [], None)
    assert policy.severity(Finding("x.y", Verdict.DENY, "s", "m")) is Verdict.DENY


# --- merging -------------------------------------------------------------------------------------

def _claude(perms: dict) -> str:
    return json.dumps({"permissions": perms, "hooks": {"PreToolUse": []}, "model": "x"}, indent=2)


def test_all_sources_merge_in_order_with_roots_and_sources(lay, tmp_path):
    user = lay.user('[permissions]\nallow = ["Bash(a)"]\ndefaultMode = "acceptEdits"\n'
                    '[settings]\nproject_name = "from-user"\ncache_ttl_seconds = 5\n')
    claude_home = lay.write(".claude/settings.json", _claude({"allow": ["Bash(b)"], "deny": ["Read(.env)"]}))
    claude_proj = lay.project(_claude({"allow": ["Bash(c)"], "additionalDirectories": ["/x"]}), ".claude/settings.json")
    claude_local = lay.project(_claude({"allow": ["Bash(d)"], "defaultMode": "default"}), ".claude/settings.local.json")
    project = lay.project('[permissions]\nallow = ["Bash(e)"]\ndefaultMode = "plan"\n'
                         '[settings]\nproject_name = "from-project"\n')
    extra = lay.write(tmp_path / "extra.toml", '[permissions]\n\nallow = ["Bash(f)"]\n')

    policy = lay.load(lay.proj / "src", files=[extra])

    home, proj = str(lay.home), str(lay.proj)
    assert [(r.text, r.root, r.source) for r in policy.allow] == [
        ("Bash(a)", home, f"{user}:2"),
        ("Bash(b)", home, f"{claude_home}:4"),
        ("Bash(c)", proj, f"{claude_proj}:4"),
        ("Bash(d)", proj, f"{claude_local}:4"),
        ("Bash(e)", proj, f"{project}:2"),
        ("Bash(f)", home, f"{extra}:3"),
    ]
    assert [(r.text, r.root) for r in policy.deny] == [("Read(.env)", home)]
    assert policy.sources == [user, claude_home, claude_proj, claude_local, project, extra]
    assert policy.default_mode == "plan"  # the project file came after the user's acceptEdits
    assert policy.settings == {"project_name": "from-project", "cache_ttl_seconds": 5}
    assert policy.project_root == proj


def test_later_user_level_class_override_wins(lay, tmp_path):
    lay.user('[classes]\n"git.force_push" = "deny"\n')
    extra = lay.write(tmp_path / "x.toml", '[classes]\n"git.force_push" = "allow"\n')
    assert lay.load(files=[extra]).classes == {"git.force_push": Verdict.ALLOW}


def test_explicit_json_file_is_read_as_claude_settings(lay, tmp_path):
    extra = lay.write(tmp_path / "s.json", _claude({"ask": ["Bash(x)"]}))
    assert [r.text for r in lay.load(files=[extra]).ask] == ["Bash(x)"]


def test_a_missing_explicit_file_is_an_error(lay, tmp_path):
    with pytest.raises(PolicyError, match="file not found"):
        lay.load(files=[str(tmp_path / "nope.toml")])


def test_naming_a_project_file_explicitly_keeps_it_project_level(lay):
    path = lay.project('[permissions]\ndefaultMode = "bypassPermissions"\n')
    with pytest.raises(PolicyError, match="bypassPermissions can only be set in the user policy"):
        lay.load(files=[path])
    lay.project('[permissions]\nallow = ["Bash(x)"]\n')
    policy = lay.load(files=[path])
    assert policy.sources == [path] and policy.allow[0].root == str(lay.proj)


def test_a_file_is_read_once_when_the_project_is_home(lay):
    settings = lay.write(".claude/settings.json", _claude({"deny": ["Bash(rm *)"]}))
    local = lay.write(".claude/settings.local.json", _claude({"ask": ["Bash(cp *)"]}))
    policy = lay.load(lay.home)
    assert policy.project_root == str(lay.home)
    assert policy.sources == [settings, local]
    assert [(r.text, r.root) for r in policy.deny] == [("Bash(rm *)", str(lay.home))]


# --- import_claude_settings ----------------------------------------------------------------------

@pytest.fixture
def with_claude(lay):
    lay.write(".claude/settings.json", _claude({"deny": ["Bash(home)"]}))
    lay.project(_claude({"deny": ["Bash(proj)"]}), ".claude/settings.json")
    return lay


@pytest.mark.parametrize("user_text, param, expected", [
    ("", None, ["Bash(home)", "Bash(proj)"]),
    ("[settings]\nimport_claude_settings = true\n", None, ["Bash(home)", "Bash(proj)"]),
    ("[settings]\nimport_claude_settings = false\n", None, []),
    ("", False, []),
    ("[settings]\nimport_claude_settings = false\n", True, ["Bash(home)", "Bash(proj)"]),
    ("[settings]\nimport_claude_settings = true\n", False, []),
])
def test_import_claude_settings(with_claude, user_text, param, expected):
    with_claude.user(user_text)
    policy = with_claude.load(import_claude_settings=param)
    assert [r.text for r in policy.deny] == expected
    assert len([s for s in policy.sources if s.endswith(".json")]) == len(expected)


def test_explicit_file_can_turn_off_claude_settings(with_claude, tmp_path):
    extra = with_claude.write(tmp_path / "x.toml", "[settings]\nimport_claude_settings = false\n")
    assert with_claude.load(files=[extra]).deny == []


# --- upward search -------------------------------------------------------------------------------

@pytest.mark.parametrize("files, cwd, root, policy_file", [
    # a .phlegyas.toml in the project, called from deep inside it
    (["work/proj/.phlegyas.toml"], "work/proj/a/b", "work/proj", "work/proj/.phlegyas.toml"),
    # the nearest one wins
    (["work/proj/.phlegyas.toml", "work/proj/a/.phlegyas.toml"], "work/proj/a/b", "work/proj/a",
     "work/proj/a/.phlegyas.toml"),
    # found above the git root: its directory is the project root
    (["work/.phlegyas.toml"], "work/proj/a", "work", "work/.phlegyas.toml"),
    # one in home itself is not a project policy; the git root is the project
    ([".phlegyas.toml"], "work/proj/a", "work/proj", None),
    # no policy: nearest .git
    ([], "work/proj/a/b", "work/proj", None),
    # no policy: nearest .claude
    (["work/other/.claude/x"], "work/other/src", "work/other", None),
    # nothing at all below home: cwd
    ([], "plain/dir", "plain/dir", None),
])
def test_upward_search(lay, files, cwd, root, policy_file):
    for name in files:
        lay.write(name, "[permissions]\nask = [\"Bash(x)\"]\n" if name.endswith(".toml") else "")
    (lay.home / cwd).mkdir(parents=True, exist_ok=True)
    policy = lay.load(lay.home / cwd)
    assert policy.project_root == str(lay.home / root)
    expected = [str(lay.home / policy_file)] if policy_file else []
    assert [s for s in policy.sources if s.endswith(".phlegyas.toml")] == expected
    if policy_file:
        assert policy.ask[0].root == str(lay.home / root)


# --- project restrictions ------------------------------------------------------------------------

RESTRICTED = [
    (".phlegyas.toml", '[permissions]\nallow = []\ndefaultMode = "bypassPermissions"\n', 3,
     "bypassPermissions can only be set in the user policy"),
    (".claude/settings.json", '{\n  "permissions": {\n    "defaultMode": "bypassPermissions"\n  }\n}', 3,
     "bypassPermissions can only be set in the user policy"),
    (".claude/settings.local.json", '{"permissions": {"defaultMode": "bypassPermissions"}}', 1,
     "bypassPermissions can only be set in the user policy"),
    (".phlegyas.toml", '[classes]\n"delete.*" = "ask"\n"git.reset_hard" = "allow"\n', 3,
     "a project file may only make a class stricter"),
    (".phlegyas.toml", "[settings]\nimport_claude_settings = false\n", 2,
     "settings.import_claude_settings can only be set in the user policy"),
    (".phlegyas.toml", "[settings]\napproval_confidence_threshold = 0.01\n", 2,
     "settings.approval_confidence_threshold can only be set in the user policy"),
    (".phlegyas.toml", "[settings]\ndenial_confidence_threshold = 0.0\n", 2, "can only be set in the user policy"),
    (".phlegyas.toml", '[settings]\nllm_base_url = "http://evil.example"\n', 2, "can only be set in the user policy"),
    (".phlegyas.toml", '[settings]\nsafe_patterns_file = "patterns.json"\n', 2, "can only be set in the user policy"),
    (".phlegyas.toml", '[settings]\nmode = "bypassPermissions"\n', 2, "can only be set in the user policy"),
    (".phlegyas.toml", '[settings]\nsafe_write_dirs = ["docs/", "/etc/"]\n', 2, "'/etc/' is outside the project"),
    (".phlegyas.toml", '[settings]\nsafe_write_dirs = [\n  "docs/",\n  "../sibling",\n]\n', 4,
     "'../sibling' is outside the project"),
    (".phlegyas.toml", '[settings]\nsafe_write_dirs = ["~/"]\n', 2, "is outside the project"),
]


@pytest.mark.parametrize("name, text, line, message", RESTRICTED)
def test_project_files_may_only_tighten(lay, name, text, line, message):
    path = lay.project(text, name)
    with pytest.raises(PolicyError) as err:
        lay.load()
    assert (err.value.path, err.value.line) == (path, line)
    assert str(err.value).startswith(f"{path}:{line}: ")
    assert message in str(err.value) and "expected" in str(err.value)


@pytest.mark.parametrize("text, attribute, expected", [
    ('[permissions]\ndefaultMode = "bypassPermissions"\n', "default_mode", "bypassPermissions"),
    ('[classes]\n"git.reset_hard" = "allow"\n', "classes", {"git.reset_hard": Verdict.ALLOW}),
    ("[settings]\napproval_confidence_threshold = 0.5\nimport_claude_settings = false\n", "settings",
     {"approval_confidence_threshold": 0.5}),
    ('[settings]\nsafe_write_dirs = ["/etc/"]\n', "safe_write_dirs", ["/etc"]),
])
def test_user_level_files_may_loosen(lay, tmp_path, text, attribute, expected):
    lay.user(text)
    assert getattr(lay.load(), attribute) == expected
    (lay.data / "policy.toml").unlink()
    extra = lay.write(tmp_path / "extra.toml", text)
    assert getattr(lay.load(files=[extra]), attribute) == expected


def test_project_may_set_context_and_inner_safe_dirs(lay):
    lay.project('[settings]\nproject_name = "shop"\nsafe_write_dirs = ["build/", "./out/../tmp", "%s/gen"]\n'
                % lay.proj)
    policy = lay.load()
    assert policy.settings == {"project_name": "shop"}
    assert policy.safe_write_dirs == [f"{lay.proj}/build", f"{lay.proj}/tmp", f"{lay.proj}/gen"]


def test_project_class_overrides_only_raise_a_class(lay):
    lay.user('[classes]\n"git.*" = "allow"\n')
    lay.project('[classes]\n"git.reset_hard" = "ask"\n"delete.*" = "deny"\n')
    policy = lay.load()
    assert policy.project_classes == {"git.reset_hard": Verdict.ASK, "delete.*": Verdict.DENY}
    cases = [
        ("git.reset_hard", Verdict.DENY, Verdict.ASK),  # user lowered git.* to allow; the project floor is ask
        ("git.push", Verdict.DENY, Verdict.ALLOW),  # only the user override applies
        ("delete.root", Verdict.ASK, Verdict.DENY),  # raised by the project
        ("delete.root", Verdict.DENY, Verdict.DENY),
    ]
    for finding_id, builtin, expected in cases:
        assert policy.severity(Finding(finding_id, builtin, "s", "m")) is expected, finding_id


def test_project_ask_cannot_lower_a_builtin_deny(lay):
    lay.project('[classes]\n"git.force_push" = "ask"\n')
    policy = lay.load()
    assert policy.severity(Finding("git.force_push", Verdict.DENY, "git push -f", "m")) is Verdict.DENY
    assert policy.severity(Finding("git.force_push", Verdict.ALLOW, "git push -f", "m")) is Verdict.ASK


# --- broken files --------------------------------------------------------------------------------

BROKEN = [
    # (which file, text, line, fragments)
    ("user", '[permissions]\nallow = ["Bash(ls)"]\n\nask = [\n', 4, ["TOML syntax error", "expected"]),
    ("user", "# ok\nx = = 1\n", 2, ["TOML syntax error: Invalid value at column 5", "expected"]),
    ("user", '[permissions]\nallow = ["a"]\nallow = []\n', 3, ["Cannot overwrite a value", "expected"]),
    ("claude", '{\n "permissions": {\n  "allow": ["Bash(ls)",]\n }\n}', 3,
     ["JSON syntax error: Expecting value at column 24", "expected a valid JSON object"]),
    ("claude", "[1, 2]", 1, ["expected a JSON object at the top level, got a list"]),
    ("claude", '{\n\n  "permissions": ["Bash(ls)"]\n}', 3, ["permissions must be a table", "expected a JSON object"]),
    ("user", '[permissions]\ndeny = [\n  "Read(x)",\n  "Bash(",\n]\n', 4,
     ["bad rule in permissions.deny", "'Bash('", "expected ')'"]),
    ("user", '[permissions]\nask = [\n  "Read(x)",  # "Bash(" in a comment\n  \'Bash(\',\n]\n', 4,
     ["bad rule in permissions.ask", "expected"]),
    ("claude", '{"permissions": {\n  "allow": [\n    "Bash(ls)",\n    "Bash(ls"\n  ]\n}}', 4,
     ["bad rule in permissions.allow", "expected"]),
    ("user", '[permissions]\n\nallow = "Bash(ls)"\n', 3,
     ["permissions.allow must be a list of strings", "expected e.g.", "got a string"]),
    ("user", "[permissions]\nallow = [1]\n", 2, ["must be a list of strings", "non-string item"]),
    ("claude", '{"permissions": {\n "deny": {"a": 1}}}', 2, ["permissions.deny must be a list of strings"]),
    ("user", "[permisions]\nallow = []\n", 1,
     ["unknown table [permisions]; expected one of [permissions], [classes], [settings]"]),
    ("user", "\n\npermissions = 3\n", 3, ["permissions must be a table", "expected a [permissions] section"]),
    ("user", "[permissions]\nalow = []\n", 2,
     ["unknown key permissions.alow; expected one of allow, ask, deny, defaultMode"]),
    ("user", '[settings]\nclaude_modle = "x"\n', 2, ["unknown setting 'claude_modle'", "expected one of",
                                                     "safe_write_dirs", "claude_model"]),
    ("user", '[permissions]\nallow = []\n\ndefaultMode = "yolo"\n', 4,
     ["bad permissions.defaultMode 'yolo'; expected one of default, acceptEdits, plan, auto, dontAsk"]),
    ("claude", '{"permissions": {\n "defaultMode": 3}}', 2, ["bad permissions.defaultMode 3", "expected one of"]),
    ("user", '[classes]\n"git.reset_hard" = "allow"\n"git.push" = "never"\n', 3,
     ["bad verdict 'never' for class 'git.push'; expected 'deny' or 'ask' or 'allow'"]),
    ("user", '[classes]\n"git.push" = 2\n', 2, ["bad verdict 2", "expected"]),
    ("user", '[classes]\n"git push" = "deny"\n', 2, ["bad finding class 'git push'", "expected an id like"]),
    ("user", '[classes]\n"*" = "deny"\n', 2, ["bad finding class '*'", "expected"]),
    ("user", "[settings]\napproval_confidence_threshold = 1.7\n", 2,
     ["settings.approval_confidence_threshold must be between 0 and 1, got 1.7"]),
    ("user", '[settings]\nimport_claude_settings = "no"\n', 2, ["import_claude_settings must be true or false"]),
    ("user", '[settings]\nsafe_write_dirs = "/tmp"\n', 2, ["safe_write_dirs must be a list", "expected e.g."]),
]


@pytest.mark.parametrize("which, text, line, fragments", BROKEN)
def test_broken_files_name_file_line_and_expectation(lay, which, text, line, fragments):
    path = lay.user(text) if which == "user" else lay.write(".claude/settings.json", text)
    with pytest.raises(PolicyError) as err:
        lay.load()
    assert (err.value.path, err.value.line) == (path, line)
    assert str(err.value).startswith(f"{path}:{line}: ")
    for fragment in fragments:
        assert fragment in str(err.value)


def test_unterminated_toml_points_at_the_last_line(lay):
    path = lay.user('[permissions]\nallow = ["Bash(ls)"\n')
    with pytest.raises(PolicyError) as err:
        lay.load()
    assert err.value.path == path and err.value.line == 2 and "Unclosed array" in err.value.message


def test_a_directory_in_place_of_a_file_is_an_error(lay):
    (lay.data / "policy.toml").mkdir()
    with pytest.raises(PolicyError, match="is a directory"):
        lay.load()


def test_non_utf8_file_is_an_error(lay):
    (lay.data / "policy.toml").write_bytes(b"[permissions]\nallow = [\"\xff\"]\n")
    with pytest.raises(PolicyError, match="expected a UTF-8 file"):
        lay.load()


def test_an_unreadable_file_is_an_error(lay):
    if os.geteuid() == 0:
        return _unreadable_as_another_user()
    path = lay.user("[permissions]\n")
    os.chmod(path, 0)
    try:
        with pytest.raises(PolicyError, match="cannot read"):
            lay.load()
    finally:
        os.chmod(path, 0o600)


def _unreadable_as_another_user() -> None:
    """Root reads files whatever their mode: as root, the policy is loaded by nobody (a forked child), from
    a home open to it. First with the file readable (nobody reaches and reads it), then at mode 0."""
    import pwd
    import tempfile

    try:
        nobody = pwd.getpwnam("nobody").pw_uid
    except KeyError:
        nobody = 65534
    base = Path(tempfile.mkdtemp(prefix="phl-policy-"))  # not under tmp_path, which is root's alone (0700)
    try:
        layout = _layout(base)
        path = layout.user("[permissions]\n")
        for directory in Path(path).parents:
            os.chmod(directory, 0o755)
            if directory == base:
                break
        os.chmod(path, 0o644)
        layout.load()  # in this process first, so that the child imports nothing
        assert as_user(nobody, lambda: (layout.load(), os.getuid())[1]) == str(nobody)
        os.chmod(path, 0)
        assert as_user(nobody, layout.load) == f"PolicyError: {path}: cannot read: Permission denied"
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_error_str_without_a_line():
    assert str(PolicyError("/p", None, "msg")) == "/p: msg"
    assert str(PolicyError("/p", 3, "msg")) == "/p:3: msg"


# --- severity ------------------------------------------------------------------------------------

CLASSES = {
    "git.reset_hard": Verdict.ALLOW,
    "git.*": Verdict.ASK,
    "delete.*": Verdict.DENY,
    "delete.recursive.*": Verdict.ASK,
    "delete.recursive.root": Verdict.DENY,
}


@pytest.mark.parametrize("finding_id, builtin, expected", [
    ("git.reset_hard", Verdict.DENY, Verdict.ALLOW),  # exact beats the git.* prefix
    ("git.force_push", Verdict.DENY, Verdict.ASK),  # prefix
    ("git.push.main", Verdict.DENY, Verdict.ASK),  # prefix covers deeper ids
    ("gitx.thing", Verdict.DENY, Verdict.DENY),  # "git.*" is not a string prefix of "gitx"
    ("git", Verdict.DENY, Verdict.DENY),  # nor of the bare word
    ("delete.home", Verdict.ASK, Verdict.DENY),
    ("delete.recursive.home", Verdict.DENY, Verdict.ASK),  # the longest prefix wins
    ("delete.recursive.root", Verdict.ASK, Verdict.DENY),  # exact
    ("net.curl_pipe", Verdict.DENY, Verdict.DENY),  # no override: the built-in severity
    ("net.curl_pipe", Verdict.ASK, Verdict.ASK),
])
def test_severity_overrides(finding_id, builtin, expected):
    policy = Policy(classes=dict(CLASSES))
    assert policy.severity(Finding(finding_id, builtin, "subject", "message")) is expected


# --- positions -----------------------------------------------------------------------------------

TOML_POSITIONS = [
    ('[permissions]\nallow = ["a", "b"]\n', {("permissions",): 1, ("permissions", "allow", 1): 2}),
    ('# c\n[ "permissions" ]  # c\nask = [\n  "a",\n\n  """m\nl""",\n  "e\\"q",\n]\n',
     {("permissions",): 2, ("permissions", "ask"): 3, ("permissions", "ask", 1): 6, ("permissions", "ask", 2): 8}),
    ('x = 1.5\npermissions.deny = [\n"a"]\n', {("x",): 1, ("permissions",): 2, ("permissions", "deny", 0): 3}),
    ('\npermissions = { allow = ["a"], ask = [ "b" ] }\n', {("permissions", "allow", 0): 2, ("permissions", "ask"): 2}),
    ("[settings]\nwhen = 1979-05-27 07:32:00\nlast = 'x'\n", {("settings", "last"): 3}),
    ("a = '''\n[not.a.table]\n'''\n[classes]\n", {("classes",): 4}),
    ("[[x]]\nk = 1\n[[x]]\nk = 2\n[classes]\n", {("x",): 1, ("classes",): 5}),
]


@pytest.mark.parametrize("text, expected", TOML_POSITIONS)
def test_toml_positions(text, expected):
    lines = toml_lines(text)
    assert {k: lines.get(k) for k in expected} == expected
    assert ("not", "a", "table") not in lines


def test_json_positions():
    text = ('{\n "permissions": {\n  "allow": ["a",\n   "b\\u0041"],\n'
            '  "x": {"y": [1, 2.5e3, true, null]}\n },\n "z": "}"\n}')
    lines = json_lines(text)
    assert lines[("permissions",)] == 2
    assert lines[("permissions", "allow", 0)] == 3
    assert lines[("permissions", "allow", 1)] == 4
    assert lines[("permissions", "x", "y", 3)] == 5
    assert lines[("z",)] == 7
