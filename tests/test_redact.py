"""Secret redaction: each kind of secret in a command, in JSON input and in a URL; near-misses kept."""
from __future__ import annotations

import copy
import json

import pytest

from phlegyas.core.redact import MAX_DEPTH, redact, redact_value, secret_kind

# Fakes with the real shapes (never real credentials).
ANTHROPIC = "sk-ant-api03-Zq8vK2xW9mR4tY7uB1nC5eH3jL6pA0sD-fG8hJ2kL4zX6cV9bN1mQ3wE5rT7yU_Ab12Cd"
TOKENS = {
    "anthropic_key": ANTHROPIC,
    "openai_key": "sk-Xy7Qp2Lm9Nb4Vc8Zx1As5Df3Gh6Jk0Pq2Wr4Et6Yu8Io1Zz",
    "openai_project_key": "sk-proj-Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7_Ab9-Cd1Ef3",
    "aws_access_key_id": "AKIAIOSFODNN7EXAMPLE",
    "aws_session_key_id": "ASIAY34FZKBOKMUTVV7A",
    "github_pat_classic": "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "github_oauth": "gho_16C7e42F292c6912E7710c838347Ae178B4a",
    "github_user_to_server": "ghu_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8",
    "github_server_to_server": "ghs_Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8Ii9Jj0Kk1Ll2",
    "github_refresh": "ghr_1B4a2e77838347a7E420ce178F2E7c6912E169",
    "github_fine_grained": "github_pat_11ABCDEFG0abcdefghij12_KLMNOPqrstuvWXYZ0123456789abcdefghijklmnopqrstu",
    "slack_bot": "xoxb-2048413956-4101932870325-aBcDeFgHiJkLmNoPqRsTuVwX",
    "slack_user": "xoxp-2048413956-2048413957-4101932870325-0123456789abcdef",
    "slack_app": "xoxa-2-2048413956-4101932870325-0123456789abcdef",
    "slack_session": "xoxs-2048413956-4101932870325-0123456789abcdef",
    "stripe_key": "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "gitlab_token": "glpat-xR9dK2mP4vL7nQ1wZ5tY",
    "npm_token": "npm_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2",
    "huggingface_token": "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "google_api_key": "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
}
KIND = {
    "openai_project_key": "openai_key", "aws_session_key_id": "aws_access_key_id",
    "slack_bot": "slack_token", "slack_user": "slack_token", "slack_app": "slack_token",
    "slack_session": "slack_token",
}


def kind_of(name: str) -> str:
    return "github_token" if name.startswith("github_") else KIND.get(name, name)


CONTEXTS = {
    "command": "curl -s -X POST -d value={} https://api.example.com/v1/items | jq .",
    "url": "curl 'https://api.example.com/v1/items?q={}&page=2'",
    "export": "export SOME_VALUE='{}' && ./deploy.sh",
}


@pytest.mark.parametrize("context", sorted(CONTEXTS))
@pytest.mark.parametrize("name", sorted(TOKENS))
def test_token_formats_are_redacted_in_text(name, context):
    secret = TOKENS[name]
    out = redact(CONTEXTS[context].format(secret))
    assert secret not in out
    assert out == CONTEXTS[context].format(f"[REDACTED:{kind_of(name)}]")


@pytest.mark.parametrize("name", sorted(TOKENS))
def test_token_formats_are_redacted_in_json_input(name):
    secret = TOKENS[name]
    value = {"server": "api", "args": {"note": f"use {secret} here", "list": [secret, 3]}}
    out = redact_value(value)
    marker = f"[REDACTED:{kind_of(name)}]"
    assert out == {"server": "api", "args": {"note": f"use {marker} here", "list": [marker, 3]}}
    assert secret not in json.dumps(out)


EXACT = [
    # credentials in assignments, flags and headers
    ("PGPASSWORD=hunter2 psql -h db", "PGPASSWORD=[REDACTED:password] psql -h db"),
    ("mysql -u root --password=hunter2 app", "mysql -u root --password=[REDACTED:password] app"),
    ("mysql -u root --password hunter2 app", "mysql -u root --password [REDACTED:password] app"),
    ("openssl enc -aes256 -pass pass:hunter2 -in f", "openssl enc -aes256 -pass pass:[REDACTED:password] -in f"),
    ("DB_PASSWD='p a s s' ./migrate", "DB_PASSWD='[REDACTED:password]' ./migrate"),
    ("export API_KEY=abc123 APIKEY=def456", "export API_KEY=[REDACTED:secret] APIKEY=[REDACTED:secret]"),
    ("vault write x client_secret=\"s3cr3t\"", "vault write x client_secret=\"[REDACTED:secret]\""),
    ("tool --api-key k-123 --verbose", "tool --api-key [REDACTED:secret] --verbose"),
    ("gh auth login --with-token tok123", "gh auth login --with-token [REDACTED:secret]"),
    ("curl 'https://x.io/cb?access_token=abc.def&state=1'", "curl 'https://x.io/cb?access_token=[REDACTED:secret]&state=1'"),
    ("curl 'https://maps.x.com/api?apikey=Zx81&z=3'", "curl 'https://maps.x.com/api?apikey=[REDACTED:secret]&z=3'"),
    ("curl -d '{\"username\": \"bob\", \"password\": \"hunter2\"}' https://x.io/login",
     "curl -d '{\"username\": \"bob\", \"password\": \"[REDACTED:password]\"}' https://x.io/login"),
    ("echo \"{\\\"token\\\": \\\"abc123\\\"}\" > cfg.json", "echo \"{\\\"token\\\": \\\"[REDACTED:secret]\\\"}\" > cfg.json"),
    ("password: hunter2\nuser: bob", "password: [REDACTED:password]\nuser: bob"),
    ("{'secret': 'x1', 'name': 'svc'}", "{'secret': '[REDACTED:secret]', 'name': 'svc'}"),
    ("aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     "aws_secret_access_key=[REDACTED:aws_secret_access_key]"),
    ("aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     "aws configure set aws_secret_access_key [REDACTED:aws_secret_access_key]"),
    ("curl -H 'Authorization: Bearer abc.def.ghi' https://x.io", "curl -H 'Authorization: Bearer [REDACTED:authorization]' https://x.io"),
    ("curl -H \"Authorization: Basic dXNlcjpwYXNz\" https://x.io", "curl -H \"Authorization: Basic [REDACTED:authorization]\" https://x.io"),
    ("curl -H 'authorization:token 0123abcd' x", "curl -H 'authorization:token [REDACTED:authorization]' x"),
    (f"curl -H 'Authorization: Bearer {ANTHROPIC}' x", "curl -H 'Authorization: Bearer [REDACTED:anthropic_key]' x"),
    ("curl --oauth2-bearer Zk93mf02kd8 https://x.io", "curl --oauth2-bearer [REDACTED:bearer_token] https://x.io"),
    ("send bearer Zk93mf02kd8x now", "send bearer [REDACTED:bearer_token] now"),
    ("PASSWORD='$ecret' ./x", "PASSWORD='[REDACTED:password]' ./x"),  # single quotes: a literal
    ("DB_TOKEN=${X:-abc123} ./x", "DB_TOKEN=[REDACTED:secret] ./x"),  # a default value may be the secret
    # passwords in URLs
    ("psql postgres://app:s3cr3t@db.internal:5432/app", "psql postgres://app:[REDACTED:url_password]@db.internal:5432/app"),
    ("git clone https://bob:p@ss@git.example.com/r.git", "git clone https://bob:[REDACTED:url_password]@git.example.com/r.git"),
    ("redis-cli -u redis://:hunter2@cache:6379", "redis-cli -u redis://:[REDACTED:url_password]@cache:6379"),
    (f"git push https://x-access-token:{TOKENS['github_server_to_server']}@github.com/o/r.git",
     "git push https://x-access-token:[REDACTED:github_token]@github.com/o/r.git"),
    ("curl -X POST https://hooks.slack.com/services/T0001/B0002/XXXXXXXXXXXXXXXXXXXXXXXX -d @m.json",
     "curl -X POST https://hooks.slack.com/services/[REDACTED:slack_webhook] -d @m.json"),
    # PEM private keys, terminated or cut off
    ("cat > k.pem <<EOF\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0Z3\nVS5JJcds\n-----END RSA PRIVATE KEY-----\nEOF",
     "cat > k.pem <<EOF\n[REDACTED:private_key]\nEOF"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA", "[REDACTED:private_key]"),
    ("-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg\\n-----END PRIVATE KEY-----\\n", "[REDACTED:private_key]\\n"),
]


@pytest.mark.parametrize("text, expected", EXACT)
def test_redaction_output(text, expected):
    assert redact(text) == expected


NEAR_MISSES = [
    "task-sk-list --all",
    "pip install sk-learn",
    "git log --author bob --since 2.weeks",
    "python password_reset.py --dry-run",
    "grep -rn password src/ | head",
    "grep -r \"password=\" src \"x\"",
    "PWD=/tmp ls",
    "python run.py --max_tokens=1000 --temperature 0.2",
    "gh auth login --token-file ./tok.txt",
    "curl -H \"Authorization: Bearer $TOKEN\" https://x.io",
    "mysql --password=$DB_PASSWORD -u root",
    "export GITHUB_TOKEN=${GH_TOKEN}",
    "TOKEN=$(cat ~/.tok) ./deploy && PASSWORD=`pass show db` ./migrate",
    "curl -H 'Authorization: Bearer ${API_TOKEN}' https://x.io",
    "mysql --password --host db",
    "password=\"\" ./x",
    "ssh-keygen -t ed25519 -f ~/.ssh/id_deploy -N ''",
    "git clone https://github.com/org/repo.git && git clone git@github.com:org/repo.git",
    "curl https://bob@example.com/x and ftp://example.com:21/pub",
    "echo AKIA1234 ghp_short xoxb-1 hf_x",
    "TZ=Asia/Tokyo date",
    "if token == expected: return bypass",
    "the bearer of bad news",
    "ls -la ~/.ssh && cat ~/.ssh/id_rsa.pub",
    "ln -s /secrets/a b && cat $SECRET_FILE",
    "",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_are_kept(text):
    assert redact(text) == text


@pytest.mark.parametrize("key, kind", [
    ("password", "password"), ("DB_PASS", "password"), ("PGPASSWORD", "password"), ("passphrase", "password"),
    ("api_key", "secret"), ("apiKey", "secret"), ("X-Api-Key", "secret"), ("GITHUB_TOKEN", "secret"),
    ("_authToken", "secret"), ("clientSecret", "secret"), ("private_key", "secret"), ("credentials", "secret"),
    ("Authorization", "authorization"), ("Proxy-Authorization", "authorization"),
    ("token_file", None), ("password_reset", None), ("max_tokens", None), ("PWD", None), ("key", None),
    ("command", None), ("file_path", None), ("secret_name", None), ("ssh_key_path", None), (7, None),
])
def test_secret_kind(key, kind):
    assert secret_kind(key) == kind


VALUES = [
    ({"password": "hunter2", "user": "bob"}, {"password": "[REDACTED:password]", "user": "bob"}),
    ({"headers": {"Authorization": "Bearer abc", "Accept": "json"}},
     {"headers": {"Authorization": "[REDACTED:authorization]", "Accept": "json"}}),
    ({"env": {"GITHUB_TOKEN": "anything", "HOME": "/h"}}, {"env": {"GITHUB_TOKEN": "[REDACTED:secret]", "HOME": "/h"}}),
    ({"api_key": {"nested": "whole value goes"}}, {"api_key": "[REDACTED:secret]"}),
    ({"pin_password": 123456}, {"pin_password": "[REDACTED:password]"}),
    ({"token": None, "api_key": "", "secret": False, "max_tokens": 100}, {"token": None, "api_key": "", "secret": False, "max_tokens": 100}),
    ({"command": "TOKEN=abc123 ./run", "description": "run it"}, {"command": "TOKEN=[REDACTED:secret] ./run", "description": "run it"}),
    ({"url": "https://u:pw1@h.io/x"}, {"url": "https://u:[REDACTED:url_password]@h.io/x"}),
    ([{"secret": "a"}, "PASSWORD=b", 1.5, True], [{"secret": "[REDACTED:secret]"}, "PASSWORD=[REDACTED:password]", 1.5, True]),
    (("a", "b"), ["a", "b"]),
    ({"x": float("nan"), "y": float("inf")}, {"x": "nan", "y": "inf"}),
    ({"token_file": "/etc/tok", "file_path": "/p/password.txt"}, {"token_file": "/etc/tok", "file_path": "/p/password.txt"}),
]


@pytest.mark.parametrize("value, expected", VALUES)
def test_redact_value(value, expected):
    original = copy.deepcopy(value)
    assert redact_value(value) == expected
    assert repr(value) == repr(original)  # the input is not modified


def test_redact_value_keeps_dict_keys_and_types():
    out = redact_value({"password": "x", 3: "y"})
    assert list(out) == ["password", 3]


def test_redact_value_caps_depth_without_recursion_error():
    value: object = "PASSWORD=deep"
    for _ in range(MAX_DEPTH * 5):
        value = [value]
    out = redact_value(value)
    depth = 0
    while isinstance(out, list):
        out, depth = out[0], depth + 1
    assert depth == MAX_DEPTH
    assert out.startswith("[TRUNCATED")


def test_redaction_is_idempotent():
    text = " ".join(expected for _, expected in EXACT)
    assert redact(text) == text


def test_every_secret_in_one_long_input_is_redacted():
    text = "\n".join(f"{name}: {secret} ;" for name, secret in TOKENS.items()) * 50
    out = redact(text)
    for secret in TOKENS.values():
        assert secret not in out
