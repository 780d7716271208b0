"""Reading a secret variable or dumping the environment is not automatic (issue 11, item 5): the
environment of an agent's shell holds its API keys."""
from __future__ import annotations

import pytest

from phlegyas.analysis.dispatch import analyze
from phlegyas.analysis.environment import secret_variables
from phlegyas.analysis.shell.parse import parse
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.engine import Gate
from phlegyas.core.model import ToolCall, Verdict
from phlegyas.policy.files import empty_policy
from phlegyas.runtime import default_checkers

ENV = AnalysisEnv(cwd="/home/u/proj", home="/home/u", project_root="/home/u/proj")


def decide(command: str, mode: str = "default") -> Verdict:
    gate = Gate(empty_policy(), default_checkers(), analyzer=analyze, parser=parse, env=lambda call: ENV)
    return gate.decide(ToolCall("Bash", {"command": command}, cwd=ENV.cwd, mode=mode)).verdict


@pytest.mark.parametrize("text, names", [
    ("$NPM_TOKEN", ["NPM_TOKEN"]), ("${AWS_SECRET_ACCESS_KEY}", ["AWS_SECRET_ACCESS_KEY"]),
    ("Bearer $GITHUB_TOKEN and $PGPASSWORD", ["GITHUB_TOKEN", "PGPASSWORD"]), ("$OPENAI_API_KEY", ["OPENAI_API_KEY"]),
    ("$HOME/$USER", []), ("$PWD", []), ("$TOKEN_FILE", []), ("$MAX_TOKENS", []),
])
def test_which_variables_hold_secrets(text, names):
    assert secret_variables(text) == names


CASES = [
    ("printenv", Verdict.ASK), ("env", Verdict.ASK), ("env -0", Verdict.ASK), ("env | grep AWS", Verdict.ASK),
    ("set", Verdict.ASK), ("export", Verdict.ASK), ("export -p", Verdict.ASK), ("declare -p", Verdict.ASK),
    ("declare -px", Verdict.ASK), ("typeset -p", Verdict.ASK),
    ('echo "$NPM_TOKEN"', Verdict.ASK), ("printf '%s' $AWS_SECRET_ACCESS_KEY", Verdict.ASK),
    ("printenv GITHUB_TOKEN", Verdict.ASK), ('echo "key: ${OPENAI_API_KEY}"', Verdict.ASK),
    # what shows nothing secret stays automatic
    ("printenv HOME", Verdict.ALLOW), ("printenv PATH LANG", Verdict.ALLOW), ('echo "$USER"', Verdict.ALLOW),
    ("echo $HOME", Verdict.ALLOW), ("set -euo pipefail", Verdict.ALLOW), ("export NODE_ENV=test", Verdict.ALLOW),
    ("declare -a items", Verdict.ALLOW), ("env LANG=C sort notes.txt", Verdict.ALLOW),
]


@pytest.mark.parametrize("command, verdict", CASES, ids=[c for c, _ in CASES])
def test_the_environment_is_read(command, verdict):
    assert decide(command) is verdict
    if verdict is Verdict.ASK:
        assert decide(command, "bypassPermissions") is Verdict.ASK  # a finding, so no mode allows it


def test_the_reason_says_what_is_shown_not_the_value():
    analysis = analyze(ToolCall("Bash", {"command": 'echo "$NPM_TOKEN"'}, cwd=ENV.cwd), ENV)
    [finding] = analysis.findings
    assert (finding.id, finding.message) == ("sensitive.read", "shows $NPM_TOKEN, a variable that holds a secret")
