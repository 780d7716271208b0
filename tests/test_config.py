"""Settings: defaults, every variable, ranges, booleans, .env parsing, precedence."""
from __future__ import annotations

import dataclasses
import os
import pwd
import re
from pathlib import Path

import pytest

from phlegyas.policy.settings import (
    ENV_VARS,
    OVERRIDE_KEYS,
    ConfigError,
    Settings,
    check_override,
    parse_dotenv,
    read_dotenv,
)


@pytest.fixture
def home(tmp_path):
    path = tmp_path / "home"
    path.mkdir()
    return str(path)


@pytest.fixture
def cwd(tmp_path):
    path = tmp_path / "proj"
    path.mkdir()
    return str(path)


def load(home, cwd, env=None, **kw):
    return Settings.load({"HOME": home, **(env or {})}, cwd=cwd, **kw)


# --- defaults ------------------------------------------------------------------------------------

def test_defaults(home, cwd):
    s = load(home, cwd)
    assert s.home == home
    assert s.anthropic_api_key is None and s.anthropic_base_url is None and s.openai_api_key is None
    assert s.claude_model == "claude-haiku-4-5-20251001"
    assert (s.approval_confidence_threshold, s.denial_confidence_threshold) == (0.8, 0.2)
    assert s.log_level == "INFO"
    assert s.enable_audit_log is True and s.enable_approval_cache is True
    assert (s.cache_ttl_seconds, s.pending_ttl_seconds, s.approval_wait_seconds) == (3600, 1800, 0)  # the seed's
    assert s.mode == "default" and s.hook_undecided == "none" and s.llm_provider == "anthropic"
    assert s.llm_base_url is None and s.llm_model is None and s.llm_timeout_seconds == 10.0
    assert (s.project_name, s.project_type, s.current_task) == (None, None, None)
    assert s.data_dir == f"{home}/.claude/phlegyas"
    assert s.audit_log_file == f"{home}/.claude/phlegyas/audit.jsonl"
    assert s.trust_store == f"{home}/.claude/trusted-scripts.json"
    assert s.safe_patterns_file == f"{home}/.claude/safe-patterns.json"


def test_direct_construction_fills_derived_paths():
    s = Settings(home="/h", data_dir="/d")
    assert (s.audit_log_file, s.trust_store, s.safe_patterns_file) == (
        "/d/audit.jsonl", "/h/.claude/trusted-scripts.json", "/h/.claude/safe-patterns.json")


def test_settings_is_frozen(home, cwd):
    with pytest.raises(dataclasses.FrozenInstanceError):
        load(home, cwd).mode = "plan"


def test_does_not_read_the_process_environment(home, cwd, monkeypatch):
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    monkeypatch.setenv("PHLEGYAS_MODE", "plan")
    s = load(home, cwd)
    assert (s.log_level, s.mode) == ("INFO", "default")


# --- every variable ------------------------------------------------------------------------------

PARSED = [
    ("ANTHROPIC_API_KEY", "sk-ant-abc", "anthropic_api_key", "sk-ant-abc"),
    ("ANTHROPIC_BASE_URL", "http://127.0.0.1:8080/", "anthropic_base_url", "http://127.0.0.1:8080"),
    ("CLAUDE_MODEL", "claude-x", "claude_model", "claude-x"),
    ("APPROVAL_CONFIDENCE_THRESHOLD", "0.9", "approval_confidence_threshold", 0.9),
    ("APPROVAL_CONFIDENCE_THRESHOLD", "1", "approval_confidence_threshold", 1.0),
    ("DENIAL_CONFIDENCE_THRESHOLD", "0", "denial_confidence_threshold", 0.0),
    ("DENIAL_CONFIDENCE_THRESHOLD", " 0.35 ", "denial_confidence_threshold", 0.35),
    ("LOG_LEVEL", "debug", "log_level", "DEBUG"),
    ("LOG_LEVEL", "Warning", "log_level", "WARNING"),
    ("ENABLE_AUDIT_LOG", "off", "enable_audit_log", False),
    ("AUDIT_LOG_FILE", "~/logs/a.jsonl", "audit_log_file", "{home}/logs/a.jsonl"),
    ("AUDIT_LOG_FILE", "logs/../b.jsonl", "audit_log_file", "{cwd}/b.jsonl"),
    ("AUDIT_LOG_FILE", "/var/log/x.jsonl", "audit_log_file", "/var/log/x.jsonl"),
    ("PROJECT_NAME", "shop", "project_name", "shop"),
    ("PROJECT_TYPE", "web app", "project_type", "web app"),
    ("CURRENT_TASK", "fix the login bug", "current_task", "fix the login bug"),
    ("CACHE_TTL_SECONDS", "0", "cache_ttl_seconds", 0),
    ("CACHE_TTL_SECONDS", "120", "cache_ttl_seconds", 120),
    ("ENABLE_APPROVAL_CACHE", "no", "enable_approval_cache", False),
    ("PENDING_TTL_SECONDS", "1", "pending_ttl_seconds", 1),
    ("APPROVAL_WAIT_SECONDS", "30", "approval_wait_seconds", 30),
    ("PHLEGYAS_MODE", "plan", "mode", "plan"),
    ("PHLEGYAS_MODE", "acceptedits", "mode", "acceptEdits"),
    ("PHLEGYAS_MODE", "bypassPermissions", "mode", "bypassPermissions"),
    ("PHLEGYAS_HOME", "~/ph", "data_dir", "{home}/ph"),
    ("PHLEGYAS_HOOK_UNDECIDED", "ASK", "hook_undecided", "ask"),
    ("PHLEGYAS_LLM_PROVIDER", "openai", "llm_provider", "openai"),
    ("PHLEGYAS_LLM_BASE_URL", "https://llm.example/v1", "llm_base_url", "https://llm.example/v1"),
    ("PHLEGYAS_LLM_MODEL", "gpt-x", "llm_model", "gpt-x"),
    ("PHLEGYAS_LLM_TIMEOUT_SECONDS", "2.5", "llm_timeout_seconds", 2.5),
    ("OPENAI_API_KEY", "sk-openai", "openai_api_key", "sk-openai"),
    ("PHLEGYAS_TRUST_STORE", "~/t.json", "trust_store", "{home}/t.json"),
    ("PHLEGYAS_SAFE_PATTERNS", "/etc/p.json", "safe_patterns_file", "/etc/p.json"),
    ("PHLEGYAS_SENSITIVE_PATHS", "~/.acme/:/srv/keys/*.pem", "sensitive_paths", ("~/.acme/", "/srv/keys/*.pem")),
    ("PHLEGYAS_LOCAL_PORTS", "9000, 7000", "local_ports", (9000, 7000)),
    ("SLACK_BOT_TOKEN", "xoxb-1234567890-abcdef", "slack_bot_token", "xoxb-1234567890-abcdef"),
    ("SLACK_APP_TOKEN", " xapp-1-A0123-456-abcdef ", "slack_app_token", "xapp-1-A0123-456-abcdef"),
    ("SLACK_APPROVAL_CHANNEL", "#ops-approvals", "slack_approval_channel", "ops-approvals"),
    ("SLACK_APPROVAL_TIMEOUT_SECONDS", "45", "slack_approval_timeout_seconds", 45),
    ("SLACK_APPROVERS", "U012AB3CD", "slack_approvers", ("U012AB3CD",)),
    ("PHLEGYAS_SLACK_API_URL", "https://proxy.example/slack/api/", "slack_api_url", "https://proxy.example/slack/api/"),
    ("PHLEGYAS_DATABASE_URL", " postgresql://fleet@db.example/phlegyas?sslmode=verify-full ", "database_url",
     "postgresql://fleet@db.example/phlegyas?sslmode=verify-full"),
    ("PHLEGYAS_DATABASE_URL", "host=db.example dbname=phlegyas", "database_url", "host=db.example dbname=phlegyas"),
    ("PHLEGYAS_MACHINE", "ci-runner-7", "machine_name", "ci-runner-7"),
]


@pytest.mark.parametrize("var, raw, name, expected", PARSED)
def test_every_variable_is_parsed(home, cwd, var, raw, name, expected):
    s = load(home, cwd, {var: raw})
    if isinstance(expected, str):
        expected = expected.format(home=home, cwd=cwd)
    assert getattr(s, name) == expected


def test_every_field_has_a_variable_in_the_table():
    names = {f.name for f in dataclasses.fields(Settings)} - {"home"}
    assert names == set(ENV_VARS)
    assert {row[2] for row in PARSED} == names


def test_data_dir_moves_the_audit_log(home, cwd):
    s = load(home, cwd, {"PHLEGYAS_HOME": "/srv/ph"})
    assert (s.data_dir, s.audit_log_file) == ("/srv/ph", "/srv/ph/audit.jsonl")


def test_empty_value_means_unset(home, cwd):
    s = load(home, cwd, {"CLAUDE_MODEL": "", "CACHE_TTL_SECONDS": "  ", "ANTHROPIC_API_KEY": ""})
    assert (s.claude_model, s.cache_ttl_seconds, s.anthropic_api_key) == ("claude-haiku-4-5-20251001", 3600, None)


# --- bad values ----------------------------------------------------------------------------------

BAD = [
    ("APPROVAL_CONFIDENCE_THRESHOLD", "1.7", "APPROVAL_CONFIDENCE_THRESHOLD must be between 0 and 1, got 1.7"),
    ("APPROVAL_CONFIDENCE_THRESHOLD", "-0.1", "must be between 0 and 1, got -0.1"),
    ("APPROVAL_CONFIDENCE_THRESHOLD", "high", "APPROVAL_CONFIDENCE_THRESHOLD must be a number, got high"),
    ("APPROVAL_CONFIDENCE_THRESHOLD", "nan", "must be a finite number"),
    ("DENIAL_CONFIDENCE_THRESHOLD", "2", "DENIAL_CONFIDENCE_THRESHOLD must be between 0 and 1, got 2"),
    ("DENIAL_CONFIDENCE_THRESHOLD", "0.9", "DENIAL_CONFIDENCE_THRESHOLD (0.9) must be less than APPROVAL"),
    ("CACHE_TTL_SECONDS", "-5", "CACHE_TTL_SECONDS must be an integer >= 0, got -5"),
    ("CACHE_TTL_SECONDS", "1.5", "CACHE_TTL_SECONDS must be an integer, got 1.5"),
    ("PENDING_TTL_SECONDS", "0", "PENDING_TTL_SECONDS must be an integer >= 1, got 0"),
    ("APPROVAL_WAIT_SECONDS", "-1", "APPROVAL_WAIT_SECONDS must be an integer >= 0"),
    ("PHLEGYAS_LLM_TIMEOUT_SECONDS", "0", "PHLEGYAS_LLM_TIMEOUT_SECONDS must be a number greater than 0"),
    ("PHLEGYAS_LLM_TIMEOUT_SECONDS", "inf", "must be a finite number"),
    ("LOG_LEVEL", "verbose", "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, got verbose"),
    ("PHLEGYAS_MODE", "yolo", "PHLEGYAS_MODE must be one of default, acceptEdits, plan"),
    ("PHLEGYAS_HOOK_UNDECIDED", "allow", "PHLEGYAS_HOOK_UNDECIDED must be one of none, ask, got allow"),
    ("PHLEGYAS_LLM_PROVIDER", "gemini", "PHLEGYAS_LLM_PROVIDER must be one of anthropic, openai"),
    ("ANTHROPIC_BASE_URL", "localhost:8080", "ANTHROPIC_BASE_URL must be an http:// or https:// URL"),
    ("PHLEGYAS_LLM_BASE_URL", "ftp://x", "PHLEGYAS_LLM_BASE_URL must be an http:// or https:// URL"),
    ("ENABLE_AUDIT_LOG", "maybe", "ENABLE_AUDIT_LOG must be true or false"),
]


@pytest.mark.parametrize("var, raw, message", BAD)
def test_bad_values_are_clear_errors(home, cwd, var, raw, message):
    with pytest.raises(ConfigError) as err:
        load(home, cwd, {var: raw})
    assert message in str(err.value)


def test_relative_home_is_an_error(cwd):
    with pytest.raises(ConfigError, match="HOME must be an absolute path"):
        Settings.load({"HOME": "relative/home"}, cwd=cwd)


def test_missing_home_falls_back_to_the_password_database(cwd):
    s = Settings.load({}, cwd=cwd)
    assert s.home == pwd.getpwuid(os.getuid()).pw_dir


# --- booleans ------------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    ("true", True), ("TRUE", True), ("1", True), ("yes", True), ("On", True), (" true ", True),
    ("false", False), ("False", False), ("0", False), ("no", False), ("OFF", False),
])
def test_booleans(home, cwd, raw, expected):
    s = load(home, cwd, {"ENABLE_AUDIT_LOG": raw, "ENABLE_APPROVAL_CACHE": raw})
    assert (s.enable_audit_log, s.enable_approval_cache) == (expected, expected)


@pytest.mark.parametrize("raw", ["2", "y", "t", "enabled", "truee", "-1"])
def test_bad_booleans(home, cwd, raw):
    with pytest.raises(ConfigError, match="ENABLE_APPROVAL_CACHE must be true or false"):
        load(home, cwd, {"ENABLE_APPROVAL_CACHE": raw})


# --- .env parsing --------------------------------------------------------------------------------

DOTENV = [
    ("A=1", {"A": "1"}),
    ("export A=1", {"A": "1"}),
    ("  A = spaced value  ", {"A": "spaced value"}),
    ("A=1 # comment", {"A": "1"}),
    ("A=http://x/#frag", {"A": "http://x/#frag"}),
    ("A=", {"A": ""}),
    ("# only a comment\n\n   \nB=2", {"B": "2"}),
    ('A="quoted # not a comment"', {"A": "quoted # not a comment"}),
    ('A="esc \\"q\\" \\n \\t \\\\ \\x"', {"A": 'esc "q" \n \t \\ \\x'}),
    ("A='literal \\n $HOME'", {"A": "literal \\n $HOME"}),
    ("A='x' # trailing comment", {"A": "x"}),
    ('A="line1\nline2"\nB=3', {"A": "line1\nline2", "B": "3"}),
    ("A=1\nA=2", {"A": "2"}),
    ("A=1\r\nB=2\r\n", {"A": "1", "B": "2"}),
    ("\ufeffA=1", {"A": "1"}),
    ("A=$OTHER", {"A": "$OTHER"}),
    ("A=a=b", {"A": "a=b"}),
    ("_A9=z", {"_A9": "z"}),
]


@pytest.mark.parametrize("text, expected", DOTENV)
def test_dotenv_parsing(text, expected):
    assert {k: v for k, (v, _) in parse_dotenv(text).items()} == expected


def test_dotenv_records_lines():
    parsed = parse_dotenv('# c\nA=1\nB="x\ny"\nC=3')
    assert {k: line for k, (_, line) in parsed.items()} == {"A": 2, "B": 3, "C": 5}


MALFORMED = [
    ("A=1\nJUSTAWORD", 2, "expected KEY=value"),
    ("9A=1", 1, "expected a variable name"),
    ("MY-VAR=1", 1, "expected a variable name"),
    ("=1", 1, "expected a variable name"),
    ('A=1\n\nB="never closed\nC=2', 3, 'expected a closing "'),
    ("A='x", 1, "expected a closing '"),
    ('A="x" junk', 1, "expected only a comment after the closing"),
    ('A="x\ny" junk', 2, "expected only a comment after the closing"),
    ("export", 1, "expected KEY=value"),
]


@pytest.mark.parametrize("text, line, message", MALFORMED)
def test_malformed_dotenv_names_file_and_line(tmp_path, text, line, message):
    path = tmp_path / ".env"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        read_dotenv(str(path))
    assert str(err.value).startswith(f"{path}:{line}: ")
    assert message in str(err.value)


def test_malformed_dotenv_does_not_echo_the_line(tmp_path):
    path = tmp_path / ".env"
    path.write_text("ANTHROPIC_API_KEY sk-ant-secret-value")
    with pytest.raises(ConfigError) as err:
        read_dotenv(str(path))
    assert "sk-ant-secret-value" not in str(err.value)


def test_missing_dotenv_is_empty(tmp_path):
    assert read_dotenv(str(tmp_path / "absent.env")) == {}


def test_dotenv_directory_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="expected a .env file"):
        read_dotenv(str(tmp_path))


def test_bad_value_in_dotenv_names_file_and_line(home, cwd, tmp_path):
    path = tmp_path / "trusted.env"
    path.write_text("LOG_LEVEL=INFO\nCACHE_TTL_SECONDS=-5\n")
    with pytest.raises(ConfigError) as err:
        load(home, cwd, dotenv=str(path))
    assert str(err.value) == f"CACHE_TTL_SECONDS must be an integer >= 0, got -5 ({path}:2)"


# --- precedence ----------------------------------------------------------------------------------

def _write(path, text):
    path.write_text(text)
    return str(path)


def test_precedence_environment_dotenv_overrides_default(home, cwd, tmp_path):
    dotenv = _write(tmp_path / "t.env", "CLAUDE_MODEL=from-dotenv\nLOG_LEVEL=ERROR\n")
    overrides = {"claude_model": "from-policy", "log_level": "WARNING", "cache_ttl_seconds": 7}
    s = load(home, cwd, {"CLAUDE_MODEL": "from-env"}, dotenv=dotenv, overrides=overrides)
    assert s.claude_model == "from-env"  # environment beats .env and policy
    assert s.log_level == "ERROR"  # .env beats policy
    assert s.cache_ttl_seconds == 7  # policy beats the default
    assert s.pending_ttl_seconds == 1800  # default


def test_empty_environment_value_falls_through_to_dotenv(home, cwd, tmp_path):
    dotenv = _write(tmp_path / "t.env", "CLAUDE_MODEL=from-dotenv\n")
    assert load(home, cwd, {"CLAUDE_MODEL": ""}, dotenv=dotenv).claude_model == "from-dotenv"


def test_implicit_project_dotenv_may_only_set_project_context(home, cwd):
    _write(Path(cwd) / ".env",
           "PROJECT_NAME=shop\nCURRENT_TASK=refactor\nPHLEGYAS_MODE=bypassPermissions\n"
           "PHLEGYAS_LLM_BASE_URL=http://evil.example\nAPPROVAL_CONFIDENCE_THRESHOLD=0.01\n")
    s = load(home, cwd)
    assert (s.project_name, s.current_task) == ("shop", "refactor")
    assert (s.mode, s.llm_base_url, s.approval_confidence_threshold) == ("default", None, 0.8)


def test_implicit_project_dotenv_is_still_parsed_strictly(home, cwd):
    _write(Path(cwd) / ".env", "PROJECT_NAME=shop\nbroken line\n")
    with pytest.raises(ConfigError, match=r"\.env:2: expected KEY=value"):
        load(home, cwd)


def test_explicit_dotenv_is_trusted(home, cwd, tmp_path):
    dotenv = _write(tmp_path / "t.env", "PHLEGYAS_MODE=plan\n")
    assert load(home, cwd, dotenv=dotenv).mode == "plan"


def test_overrides_are_typed_values(home, cwd):
    s = load(home, cwd, overrides={"approval_confidence_threshold": 0.85, "enable_audit_log": False,
                                   "pending_ttl_seconds": 60, "audit_log_file": "~/a.jsonl"})
    assert (s.approval_confidence_threshold, s.enable_audit_log, s.pending_ttl_seconds) == (0.85, False, 60)
    assert s.audit_log_file == f"{home}/a.jsonl"


@pytest.mark.parametrize("key, value, message", [
    ("approval_confidence_threshold", 1.7, "approval_confidence_threshold must be between 0 and 1, got 1.7"),
    ("cache_ttl_seconds", True, "cache_ttl_seconds must be a number"),
    ("cache_ttl_seconds", 2.5, "cache_ttl_seconds must be an integer"),
    ("enable_audit_log", 1, "enable_audit_log must be true or false"),
    ("claude_model", 3, "claude_model must be a string"),
])
def test_bad_override_values(home, cwd, key, value, message):
    with pytest.raises(ConfigError) as err:
        load(home, cwd, overrides={key: value})
    assert message in str(err.value) and "(policy [settings])" in str(err.value)


def test_unknown_override_keys_list_the_valid_ones(home, cwd):
    with pytest.raises(ConfigError) as err:
        load(home, cwd, overrides={"clade_model": "x", "data_dir": "/x"})
    text = str(err.value)
    assert "unknown settings clade_model, data_dir" in text
    assert "expected one of anthropic_api_key," in text and "claude_model" in text


def test_check_override():
    check_override("log_level", "debug")
    with pytest.raises(ConfigError, match="log_level must be one of"):
        check_override("log_level", "loud")
    with pytest.raises(ConfigError, match="unknown setting home"):
        check_override("home", "/x")
    assert "data_dir" not in OVERRIDE_KEYS and "home" not in OVERRIDE_KEYS


# --- describe ------------------------------------------------------------------------------------

def test_describe_masks_secrets(home, cwd):
    s = load(home, cwd, {"ANTHROPIC_API_KEY": "sk-ant-api03-very-secret-1234", "OPENAI_API_KEY": "short",
                         "PHLEGYAS_LLM_BASE_URL": "https://user:pw@llm.example/v1"})
    d = s.describe()
    assert d["anthropic_api_key"] == "****1234"
    assert d["openai_api_key"] == "****"
    assert d["llm_base_url"] == "https://****@llm.example/v1"
    assert "very-secret" not in repr(d) and "pw@" not in repr(d)
    assert d["claude_model"] == s.claude_model and set(d) == {f.name for f in dataclasses.fields(Settings)}
    assert s.redacted() == d


# --- $PHLEGYAS_HOME/.env and .env.example ----------------------------------------------------------

def test_the_data_directorys_dotenv_may_set_anything_but_the_environment_wins(home, cwd):
    data = Path(home) / ".claude" / "phlegyas"
    data.mkdir(parents=True)
    env_file = data / ".env"
    env_file.write_text("ANTHROPIC_API_KEY=sk-ant-from-file\nAPPROVAL_WAIT_SECONDS=45\nPROJECT_NAME=from-home\n"
                        "PHLEGYAS_HOME=/elsewhere\nCLAUDE_MODEL=from-home\n")
    os.chmod(env_file, 0o600)
    (Path(cwd) / ".env").write_text("PROJECT_NAME=from-project\nANTHROPIC_API_KEY=sk-ant-from-the-repo\n")
    s = load(home, cwd, {"CLAUDE_MODEL": "from-env"})
    assert s.anthropic_api_key == "sk-ant-from-file"  # a key in the user's own file, not the repository's
    assert s.approval_wait_seconds == 45
    assert s.project_name == "from-project"  # the project's context wins over the user's default
    assert s.claude_model == "from-env"  # the environment wins over both files
    assert s.data_dir == str(data)  # PHLEGYAS_HOME cannot move itself from inside itself


def test_the_data_directorys_dotenv_follows_phlegyas_home_and_names_its_line(home, cwd, tmp_path):
    data = tmp_path / "gate"
    data.mkdir()
    _write(data / ".env", "APPROVAL_WAIT_SECONDS=soon\n")
    os.chmod(data / ".env", 0o600)
    with pytest.raises(ConfigError, match=rf"APPROVAL_WAIT_SECONDS must be .*\({data}/\.env:1\)"):
        load(home, cwd, {"PHLEGYAS_HOME": str(data)})


def test_a_data_dotenv_others_can_write_is_refused(home, cwd, tmp_path):
    data = tmp_path / "gate"
    data.mkdir()
    _write(data / ".env", "PHLEGYAS_MODE=bypassPermissions\n")
    os.chmod(data / ".env", 0o666)
    with pytest.raises(ConfigError, match="writable by other users.*chmod 600"):
        load(home, cwd, {"PHLEGYAS_HOME": str(data)})


def test_dotenv_example_is_current_and_lists_every_variable_with_its_default():
    from phlegyas.policy.env_docs import PROCESS_VARS, documented_default, dotenv_example
    from phlegyas.policy.settings import _VARS

    text = (Path(__file__).resolve().parent.parent / ".env.example").read_text()
    assert text == dotenv_example()
    defaults = Settings(home="/h")
    for var in _VARS:
        assert f"# {var.env}=" in text
        shown = documented_default(var.env)
        actual = getattr(defaults, var.name)
        if "$PHLEGYAS_HOME" in shown or shown.startswith("~"):
            continue  # a derived path: checked by test_defaults
        if shown == "":
            assert actual in (None, (), ""), var.env
        else:
            assert var.parse(shown, "/h", "/") == actual, var.env
    for env in PROCESS_VARS:
        assert f"# {env}=" in text


# --- Slack approvals (issue 14, item 1) -----------------------------------------------------------------

SLACK = {"SLACK_BOT_TOKEN": "xoxb-1234567890-0987654321-AbCdEf", "SLACK_APP_TOKEN": "xapp-1-A0123-456-abcdef",
         "SLACK_APPROVAL_CHANNEL": "#approvals"}


def test_slack_settings_parse_and_say_when_slack_is_on(home, cwd):
    s = load(home, cwd, {**SLACK, "SLACK_APPROVERS": "U012AB3CD, W045EF6GH", "PHLEGYAS_SLACK_API_URL": "http://127.0.0.1:9/api"})
    assert s.slack_approval_channel == "approvals" and s.slack_approvers == ("U012AB3CD", "W045EF6GH")
    assert s.slack_api_url == "http://127.0.0.1:9/api/" and s.slack_approval_timeout_seconds == 300
    assert s.slack_configured and s.person_wait_seconds == 300
    assert load(home, cwd, {**SLACK, "SLACK_APPROVAL_CHANNEL": "C0123ABCD"}).slack_approval_channel == "C0123ABCD"
    plain = load(home, cwd)
    assert not plain.slack_configured and plain.slack_api_url == "https://slack.com/api/"
    assert load(home, cwd, {"APPROVAL_WAIT_SECONDS": "900", **SLACK}).person_wait_seconds == 900
    assert SLACK["SLACK_BOT_TOKEN"] not in str(s.describe()) and SLACK["SLACK_APP_TOKEN"] not in str(s.describe())


@pytest.mark.parametrize("var, value, message", [
    ("SLACK_BOT_TOKEN", "xoxp-1234567890-user-token", "SLACK_BOT_TOKEN must be a Slack bot token starting with xoxb-"),
    ("SLACK_APP_TOKEN", "xoxb-1234567890-0987654321", "SLACK_APP_TOKEN must be a Slack app-level token starting with xapp-"),
    ("SLACK_APPROVAL_CHANNEL", "Approvals Team", "SLACK_APPROVAL_CHANNEL must be a Slack channel name"),
    ("SLACK_APPROVERS", "alice,bob", "SLACK_APPROVERS must be a list of Slack user IDs"),
    ("SLACK_APPROVAL_TIMEOUT_SECONDS", "0", "SLACK_APPROVAL_TIMEOUT_SECONDS must be an integer >= 1"),
    ("PHLEGYAS_SLACK_API_URL", "slack.com/api", "PHLEGYAS_SLACK_API_URL must be an http:// or https:// URL"),
])
def test_a_malformed_slack_setting_names_the_variable_and_never_shows_a_token(home, cwd, var, value, message):
    with pytest.raises(ConfigError, match=re.escape(message)) as err:
        load(home, cwd, {var: value})
    if var.endswith("_TOKEN"):
        assert value not in str(err.value) and value[:12] not in str(err.value)


@pytest.mark.parametrize("value", ["mysql://fleet:hunter2pass@db/x", "https://fleet:hunter2pass@db/x", "hunter2pass",
                                   "sqlite:///x password=hunter2pass"])
def test_a_database_url_that_is_not_postgresql_is_refused_without_its_password(home, cwd, value):
    with pytest.raises(ConfigError, match="PHLEGYAS_DATABASE_URL must be a PostgreSQL URL") as err:
        load(home, cwd, {"PHLEGYAS_DATABASE_URL": value})
    assert "hunter2pass" not in str(err.value)


def test_the_database_url_is_shown_without_its_password(home, cwd):
    s = load(home, cwd, {"PHLEGYAS_DATABASE_URL": "postgresql://fleet:hunter2pass@db.example/phlegyas"})
    assert s.describe()["database_url"] == "postgresql://****@db.example/phlegyas"


def test_the_database_in_the_user_policy_only(home, cwd):
    from phlegyas.policy.files import PolicyError, load_policy

    data = Path(home) / ".claude" / "phlegyas"
    data.mkdir(parents=True)
    (data / "policy.toml").write_text('[settings]\ndatabase_url = "postgresql://fleet@db.example/phlegyas"\n')
    assert load_policy(cwd, home=home, data_dir=str(data)).settings["database_url"].startswith("postgresql://")
    (Path(cwd) / ".phlegyas.toml").write_text('[settings]\ndatabase_url = "postgresql://evil@db.example/x"\n')
    with pytest.raises(PolicyError, match="database_url can only be set in the user policy"):
        load_policy(cwd, home=home, data_dir=str(data))


def test_slack_in_the_user_policy_only(home, cwd, tmp_path):
    from phlegyas.policy.files import PolicyError, load_policy

    data = Path(home) / ".claude" / "phlegyas"
    data.mkdir(parents=True)
    (data / "policy.toml").write_text('[slack]\napproval_channel = "C0123ABCD"\napprovers = ["U012AB3CD"]\n'
                                      'approval_timeout_seconds = 120\n')
    policy = load_policy(cwd, home=home, data_dir=str(data))
    s = load(home, cwd, overrides=policy.settings)
    assert (s.slack_approval_channel, s.slack_approvers, s.slack_approval_timeout_seconds) == ("C0123ABCD", ("U012AB3CD",), 120)
    (Path(cwd) / ".phlegyas.toml").write_text('[slack]\napprovers = ["U0EVIL00"]\n')
    with pytest.raises(PolicyError, match=r"\[slack\] can only be set in the user policy"):
        load_policy(cwd, home=home, data_dir=str(data))
    (Path(cwd) / ".phlegyas.toml").unlink()
    (data / "policy.toml").write_text('[slack]\nbot_token = "xoxp-1234567890-nope"\n')
    with pytest.raises(PolicyError, match="slack.bot_token must be a Slack bot token") as err:
        load_policy(cwd, home=home, data_dir=str(data))
    assert "xoxp-1234567890" not in str(err.value)
