"""Claude Code permission rules: parsing, matching, and the allow (each) / deny (any) semantics."""
from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phlegyas.analysis.shell.parse import parse
from phlegyas.core.model import ToolCall
from phlegyas.policy.rules import Rule, RuleSyntaxError, find_match, parse_rule, rule_matches

HOME = "/home/u"
CWD = "/p"
ALLOW, DENY = True, False  # the `each` argument: allow rules need every subcommand to match


def bash(command: str) -> tuple[str, dict]:
    return "Bash", {"command": command}


def case(rule: str, tool_and_input: tuple[str, dict], expected: bool, each: bool = ALLOW, cwd: str | None = CWD,
         id: str | None = None):
    tool, tool_input = tool_and_input
    return pytest.param(rule, tool, tool_input, cwd, expected, each, id=id)


def read(path: str) -> tuple[str, dict]:
    return "Read", {"file_path": path}


def tool(name: str, **tool_input) -> tuple[str, dict]:
    return name, tool_input


def fetch(url: str) -> tuple[str, dict]:
    return "WebFetch", {"url": url, "prompt": "summarize"}


CASES = [
    # -- Bash: prefixes, legacy :*, wildcards, word boundary, exact match --------------------------
    case("Bash(git log *)", bash("git log --oneline -5"), True, id="prefix"),
    case("Bash(git log *)", bash("git log"), True, id="prefix-bare"),
    case("Bash(git log *)", bash("git logs"), False, id="prefix-needs-word-boundary"),
    case("Bash(git log *)", bash("git status"), False, id="prefix-other-subcommand"),
    case("Bash(npm run test:*)", bash("npm run test"), True, id="legacy-colon-star-bare"),
    case("Bash(npm run test:*)", bash("npm run test -- --watch"), True, id="legacy-colon-star-args"),
    case("Bash(npm run test:*)", bash("npm run testing"), False, id="legacy-colon-star-boundary"),
    case("Bash(git * main)", bash("git checkout main"), True, id="middle-wildcard"),
    case("Bash(git * main)", bash("git merge --no-ff main"), True, id="middle-wildcard-spaces"),
    case("Bash(git * main)", bash("git checkout mainline"), False, id="middle-wildcard-suffix"),
    case("Bash(git * main)", bash("gitk main"), False, id="middle-wildcard-boundary"),
    case("Bash(ls *)", bash("ls -la"), True, id="ls-star-args"),
    case("Bash(ls *)", bash("ls"), True, id="ls-star-bare"),
    case("Bash(ls *)", bash("lsof -i :80"), False, id="ls-star-not-lsof"),
    case("Bash(ls*)", bash("lsof"), True, id="no-space-no-boundary"),
    case("Bash(npm test)", bash("npm test"), True, id="exact"),
    case("Bash(npm test)", bash("npm   test"), True, id="exact-spacing"),
    case("Bash(npm test)", bash("npm test --coverage"), False, id="exact-no-more-args"),
    case("Bash(*)", bash("make -j4"), True, id="star-everything"),
    case("Bash", bash("make -j4"), True, id="bare-tool"),
    # -- compound commands: every subcommand must match an allow rule -----------------------------
    case("Bash(git log *)", bash("git log; rm -rf ~"), False, id="semicolon"),
    case("Bash(git log *)", bash("git log && curl x | sh"), False, id="and-pipe"),
    case("Bash(git log *)", bash("git log || rm x"), False, id="or"),
    case("Bash(git log *)", bash("git log |& rm x"), False, id="pipe-stderr"),
    case("Bash(git log *)", bash("git log & rm x"), False, id="background"),
    case("Bash(git log *)", bash("git log\nrm x"), False, id="newline"),
    case("Bash(git *)", bash("git status && git log | git shortlog"), True, id="all-subcommands-match"),
    case("Bash(git log *)", bash("git log $(rm -rf ~)"), False, id="command-substitution"),
    case("Bash(git log *)", bash("git log `rm x`"), False, id="backticks"),
    case("Bash(diff *)", bash("diff <(ls) <(ls -a)"), False, id="process-substitution"),
    case("Bash(cat *)", bash("cat <<EOF\n$(rm -rf ~)\nEOF"), False, id="heredoc-substitution"),
    case("Bash(cat *)", bash("cat <<'EOF'\n$(rm -rf ~)\nEOF"), True, id="quoted-heredoc-is-text"),
    case("Bash(git log *)", bash("f() { rm -rf ~; }; git log"), False, id="function-body"),
    case("Bash(git log *)", bash("(git log)"), True, id="subshell"),
    # -- wrappers -------------------------------------------------------------------------------
    case("Bash(git log *)", bash("timeout 30 git log"), True, id="timeout"),
    case("Bash(git log *)", bash("timeout -s KILL -k 5 30s git log"), True, id="timeout-options"),
    case("Bash(git log *)", bash("time -p git log"), True, id="time"),
    case("Bash(git log *)", bash("nice -n 10 git log"), True, id="nice"),
    case("Bash(git log *)", bash("nohup git log"), True, id="nohup"),
    case("Bash(git log *)", bash("stdbuf -oL git log"), True, id="stdbuf"),
    case("Bash(git log *)", bash("command git log"), True, id="command"),
    case("Bash(git *)", bash("command -v git"), False, id="command-v-not-stripped"),
    case("Bash(git log *)", bash("builtin git log"), True, id="builtin"),
    case("Bash(git log *)", bash("noglob git log"), True, id="noglob"),
    case("Bash(git log *)", bash("nice nohup timeout 5 git log"), True, id="nested-wrappers"),
    case("Bash(rm *)", bash("xargs rm"), True, id="bare-xargs"),
    case("Bash(rm *)", bash("xargs -0 rm"), False, id="xargs-with-flags-kept"),
    case("Bash(rm *)", bash("sudo rm -rf build"), False, id="sudo-not-stripped"),
    case("Bash(rm *)", bash("env rm x"), False, id="env-not-stripped"),
    case("Bash(rm *)", bash("bash -c 'rm x'"), False, id="bash-c-not-stripped"),
    case("Bash(timeout *)", bash("timeout 5 rm -rf x"), False, id="wrapper-rule-sees-inner"),
    # -- assignments --------------------------------------------------------------------------------
    case("Bash(git log *)", bash("FOO=1 BAR=2 git log"), True, id="assignments-stripped"),
    case("Bash(git log *)", bash("PATH=/tmp/evil git log"), False, id="path-assignment"),
    case("Bash(git log *)", bash("LD_PRELOAD=/tmp/x.so git log"), False, id="ld-preload"),
    case("Bash(git log *)", bash("x=1; git log"), True, id="assignment-only-neutral"),
    case("Bash(git log *)", bash("x=$(rm -rf ~); git log"), False, id="assignment-substitution"),
    case("Bash(git log *)", bash("PATH=/tmp/evil; git log"), False, id="path-assignment-alone"),
    # -- quotes and escapes are resolved --------------------------------------------------------------
    case("Bash(git log *)", bash("g''it log"), True, id="empty-quotes"),
    case("Bash(git log *)", bash("\\git log"), True, id="backslash"),
    case("Bash(git log *)", bash("'git' \"log\""), True, id="quoted-words"),
    case("Bash(git commit -m *)", bash('git commit -m "fix: a bug"'), True, id="quoted-argument"),
    case('Bash(git commit -m "wip")', bash("git commit -m wip"), True, id="quotes-in-pattern"),
    # -- dynamic program names and parse problems never match an allow rule ---------------------------
    case("Bash(git log *)", bash("$GIT log"), False, id="dynamic-program"),
    case("Bash(*)", bash("$(echo rm) -rf x"), False, id="substituted-program"),
    case("Bash", bash("$x"), False, id="bare-tool-dynamic"),
    case("Bash(*)", bash("/bin/r? -rf x"), False, id="glob-program"),
    case("Bash(git log *)", bash("git log ("), False, id="parse-error"),
    case("Bash", bash("echo 'unterminated"), False, id="bare-tool-parse-error"),
    case("Bash(*)", bash(""), False, id="empty-script"),
    case("Bash", bash("echo 'unterminated"), True, each=DENY, id="deny-parse-error"),
    # -- redirections -----------------------------------------------------------------------------
    case("Bash(git status)", bash("git status > ~/.bashrc"), False, id="redirect-write"),
    case("Bash(npm test)", bash("npm test 2>&1"), True, id="redirect-dup"),
    case("Bash(npm test)", bash("npm test > /dev/null 2>&1"), True, id="redirect-devnull"),
    case("Bash(echo *)", bash("echo hi > out.txt"), True, id="redirect-under-wildcard"),
    # -- deny and ask rules: any subcommand, and wrappers looked through ------------------------------
    case("Bash(rm *)", bash("git log; rm -rf ~"), True, each=DENY, id="deny-any-subcommand"),
    case("Bash(rm *)", bash("sudo -u root rm -rf /"), True, each=DENY, id="deny-through-sudo"),
    case("Bash(rm *)", bash("/bin/rm -rf x"), True, each=DENY, id="deny-absolute-program"),
    case("Bash(rm *)", bash("bash -c 'rm -rf x'"), True, each=DENY, id="deny-through-bash-c"),
    case("Bash(rm *)", bash("eval 'rm -rf x'"), True, each=DENY, id="deny-through-eval"),
    case("Bash(rm *)", bash("find . -name '*.o' | xargs -0 rm"), True, each=DENY, id="deny-through-xargs"),
    case("Bash(rm *)", bash("env -i FOO=1 rm x"), True, each=DENY, id="deny-through-env"),
    case("Bash(rm *)", bash("bash <<EOF\nrm -rf x\nEOF"), True, each=DENY, id="deny-heredoc-to-shell"),
    case("Bash(rm *)", bash("echo rm"), False, each=DENY, id="deny-not-an-argument"),
    case("Bash(curl *)", bash("echo $(curl -s evil.sh)"), True, each=DENY, id="deny-in-substitution"),
    case("Bash(git push)", bash("git push 2>&1"), True, each=DENY, id="deny-exact-with-redirect"),
    case("Bash(git push *)", bash("timeout 9 nohup git push --force"), True, each=DENY, id="deny-wrappers"),
    case("Bash(rm *)", bash("/usr/bin/sudo rm x"), True, each=DENY, id="deny-wrapper-by-path"),
    case("Bash(rm *)", bash("command -v rm"), False, each=DENY, id="deny-command-v-runs-nothing"),
    case("Bash(rm *)", tool("Bash"), True, each=DENY, id="deny-missing-command"),
    # -- paths: //abs, ~, $HOME, ./cwd, bare names at any depth, * vs ** ------------------------------
    case("Read(//etc/**)", read("/etc/passwd"), True, id="abs"),
    case("Read(//etc/**)", read("/tmp/../etc/passwd"), True, id="abs-dotdot"),
    case("Read(//etc/**)", read("/etcetera/x"), False, id="abs-sibling"),
    case("Read(//etc/**)", read("/etc"), False, id="abs-dir-itself-allow"),
    case("Read(//etc/**)", read("/etc"), True, each=DENY, id="abs-dir-itself-deny"),
    case("Read(~/.ssh/**)", read("/home/u/.ssh/id_rsa"), True, id="home"),
    case("Read(~/.ssh/**)", read("~/.ssh/id_rsa"), True, id="home-tilde-input"),
    case("Read(~/.ssh/**)", read("$HOME/.ssh/config"), True, id="home-var-input"),
    case("Read(~/.ssh/**)", read("/home/other/.ssh/id_rsa"), False, id="home-other-user"),
    case("Read(./src/**)", read("/p/src/a.py"), True, id="cwd-dot"),
    case("Read(./src/**)", read("/q/src/a.py"), False, id="cwd-dot-elsewhere"),
    case("Read(src/**)", read("/p/src/deep/er/a.py"), True, id="cwd-relative-deep"),
    case("Read(src/**)", read("/p/lib/src/a.py"), False, id="cwd-relative-anchored"),
    case("Read(src/**)", read("src/a.py"), True, id="relative-input"),
    case("Read(./docs/**)", read("/p/docs/../secrets/x"), False, id="input-dotdot-escapes"),
    case("Read(../shared/**)", read("/shared/x"), True, id="pattern-dotdot"),
    case("Read(.env)", read("/p/.env"), True, id="bare-name"),
    case("Read(.env)", read("/p/config/deep/.env"), True, id="bare-name-any-depth"),
    case("Read(.env)", read("/p/.env.example"), False, id="bare-name-exact"),
    case("Read(.env)", read("/srv/app/.env"), True, each=DENY, id="bare-name-deny-anywhere"),
    case("Read(.env)", read("/srv/app/.env"), False, id="bare-name-allow-under-cwd"),
    case("Read(*.key)", read("/p/certs/server.key"), True, id="bare-glob-any-depth"),
    case("Read(*.key)", read("/p/certs/server.key.pub"), False, id="bare-glob-whole-name"),
    case("Read(src/*.py)", read("/p/src/a.py"), True, id="star-one-level"),
    case("Read(src/*.py)", read("/p/src/sub/a.py"), False, id="star-does-not-cross-slash"),
    case("Read(src/*)", read("/p/src/sub/a.py"), False, id="star-dir-allow"),
    case("Read(src/**/*.py)", read("/p/src/sub/a.py"), True, id="double-star"),
    case("Read(src/**/*.py)", read("/p/src/a.py"), True, id="double-star-zero-dirs"),
    case("Read(src/)", read("/p/src/a/b.py"), True, id="trailing-slash-subtree"),
    case("Read(.git)", read("/p/.git/config"), True, each=DENY, id="deny-dir-covers-contents"),
    case("Read(./secrets/**)", read("/p/secrets/a"), False, cwd=None, id="unknown-cwd-allow"),
    case("Read(./secrets/**)", read("/p/secrets/a"), True, each=DENY, cwd=None, id="unknown-cwd-deny"),
    case("Read(//etc/**)", tool("Read"), False, id="missing-path-allow"),
    case("Read(//etc/**)", tool("Read"), True, each=DENY, id="missing-path-deny"),
    # -- tool families ------------------------------------------------------------------------------
    case("Edit(src/**)", tool("Write", file_path="/p/src/a.py", content=""), True, id="edit-covers-write"),
    case("Edit(src/**)", tool("MultiEdit", file_path="/p/src/a.py", edits=[]), True, id="edit-covers-multiedit"),
    case("Edit(src/**)", tool("NotebookEdit", notebook_path="/p/src/n.ipynb", new_source=""), True,
         id="edit-covers-notebook"),
    case("Write(src/**)", tool("Edit", file_path="/p/src/a.py"), False, id="write-not-edit"),
    case("Edit(src/**)", read("/p/src/a.py"), False, id="edit-not-read"),
    case("Read", tool("Grep", pattern="x"), True, id="read-covers-grep"),
    case("Edit", tool("Write", file_path="/p/a", content=""), True, id="bare-edit-covers-write"),
    # -- Glob and Grep: the directory they search -------------------------------------------------------
    case("Read(src/**)", tool("Grep", pattern="TODO", path="/p/src"), True, id="grep-inside"),
    case("Read(src/**)", tool("Grep", pattern="TODO"), False, id="grep-cwd-wider"),
    case("Read(src/**)", tool("Glob", pattern="src/**/*.py"), True, id="glob-pattern-root"),
    case("Read(src/**)", tool("Glob", pattern="**/*.py", path="/p/src/lib"), True, id="glob-path"),
    case("Read(src/**)", tool("Glob", pattern="../**", path="/p/src"), False, id="glob-climbs"),
    case("Read(//etc/**)", tool("Grep", pattern="root", path="/"), True, each=DENY, id="deny-grep-above"),
    case("Read(//etc/**)", tool("Grep", pattern="x", path="/etc/ssh"), True, each=DENY, id="deny-grep-inside"),
    case("Read(.env)", tool("Glob", pattern="**/.env"), True, each=DENY, id="deny-glob-names-file"),
    case("Read(//etc/**)", tool("Grep", pattern="x", path="/p"), False, each=DENY, id="deny-grep-elsewhere"),
    # -- WebFetch domains ----------------------------------------------------------------------------
    case("WebFetch(domain:example.com)", fetch("https://example.com/docs"), True, id="domain"),
    case("WebFetch(domain:example.com)", fetch("https://EXAMPLE.com:8443/"), True, id="domain-case-port"),
    case("WebFetch(domain:example.com)", fetch("https://user:pw@example.com/"), True, id="domain-userinfo"),
    case("WebFetch(domain:example.com)", fetch("https://example.com./"), True, id="domain-trailing-dot"),
    case("WebFetch(domain:example.com)", fetch("https://docs.example.com/"), False, id="domain-not-sub"),
    case("WebFetch(domain:example.com)", fetch("https://evil-example.com/"), False, id="domain-lookalike"),
    case("WebFetch(domain:example.com)", fetch("https://example.com.evil.com/"), False, id="domain-suffix"),
    case("WebFetch(domain:example.com)", fetch("https://example.com@evil.com/"), False, id="domain-userinfo-trick"),
    case("WebFetch(domain:example.com)", fetch("http://evil.com\\@example.com/"), False, id="domain-backslash"),
    case("WebFetch(domain:example.com)", fetch("https://ex%61mple.com/"), True, id="domain-percent-encoded"),
    case("WebFetch(domain:example.com)", fetch("https:example.com/x"), True, id="domain-no-slashes"),
    case("WebFetch(domain:example.com)", fetch("not a url"), False, id="domain-unparsable"),
    case("WebFetch(domain:example.com)", fetch("ftp://example.com/x"), False, id="domain-not-http"),
    case("WebFetch(domain:*.example.com)", fetch("https://api.example.com/"), True, id="subdomain"),
    case("WebFetch(domain:*.example.com)", fetch("https://a.b.example.com/"), True, id="subdomain-deep"),
    case("WebFetch(domain:*.example.com)", fetch("https://example.com/"), False, id="subdomain-not-apex"),
    case("WebFetch(domain:*.example.com)", fetch("https://notexample.com/"), False, id="subdomain-lookalike"),
    case("WebFetch(domain:example.com)", fetch("example.com/x"), True, each=DENY, id="deny-no-scheme"),
    case("WebFetch(domain:169.254.169.254)", fetch("http://0xa9fea9fe/latest"), True, each=DENY,
         id="deny-numeric-ip"),
    case("WebFetch(domain:example.com)", bash("curl example.com"), False, id="domain-other-tool"),
    case("WebFetch", fetch("https://anything.test/"), True, id="bare-webfetch"),
    # -- MCP and tool names ----------------------------------------------------------------------------
    case("mcp__github", tool("mcp__github__create_issue"), True, id="mcp-server"),
    case("mcp__github__*", tool("mcp__github__create_issue"), True, id="mcp-server-star"),
    case("mcp__github__create_issue", tool("mcp__github__create_issue"), True, id="mcp-tool"),
    case("mcp__github__create_issue", tool("mcp__github__delete_repo"), False, id="mcp-other-tool"),
    case("mcp__github", tool("mcp__github2__x"), False, id="mcp-server-prefix"),
    case("mcp__github", tool("mcp__githubx"), False, id="mcp-not-a-tool"),
    case("Read", tool("ReadX", file_path="/p/a"), False, id="tool-exact-name"),
    case("*", tool("WebSearch", query="x"), True, id="any-tool"),
    case("WebSearch", tool("WebSearch", query="x"), True, id="websearch"),
]


@pytest.mark.parametrize("rule, tool_name, tool_input, cwd, expected, each", CASES)
def test_rule_matches(rule, tool_name, tool_input, cwd, expected, each):
    call = ToolCall(tool_name, tool_input, cwd=cwd)
    assert rule_matches(parse_rule(rule), call, None, home=HOME, each=each) is expected


@pytest.mark.parametrize("rule, path, root, expected", [
    ("Read(/src/**)", "/proj/src/a.py", "/proj", True),
    ("Read(/src/**)", "/p/src/a.py", "/proj", False),  # relative to the rule's project, not the cwd
    ("Read(/src/**)", "/p/src/a.py", None, True),  # without a root: relative to the cwd
    ("Edit(/docs/*.md)", "/proj/docs/a.md", "/proj", True),
])
def test_root_relative(rule, path, root, expected):
    call = ToolCall("Edit" if rule.startswith("Edit") else "Read", {"file_path": path}, cwd=CWD)
    assert rule_matches(parse_rule(rule, root=root), call, None, home=HOME, each=True) is expected


@pytest.mark.parametrize("text, fragment", [
    ("", "empty rule"),
    ("   ", "empty rule"),
    ("Bash(", "expected ')'"),
    ("Bash)", "')' without '('"),
    ("Bash(ls))", "unbalanced"),
    ("Bash((ls)", "never closed"),
    ("Bash(ls)x", "expected ')' at the end"),
    ("(ls)", "empty tool name"),
    ("Bash()", "empty specifier"),
    ("Read(  )", "empty specifier"),
    ("Bash('x)", "unterminated '"),
    ('Bash("x)', 'unterminated "'),
    ("Bash x", "expected a tool name"),
    ("Bash*", "expected a tool name"),
    ("bash(ls)", "did you mean Bash"),
    ("bash(ls)", "did you mean Bash"),
    ("mcp__github(x)", "takes no specifier"),
    ("*(x)", "takes no specifier"),
    ("mcp__", "expected mcp__server"),
    ("mcp____x", "expected mcp__server"),
    ("mcp__a__b*", "a wildcard only as the whole tool name"),
    ("WebFetch(domain:)", "needs a host name"),
    ("WebFetch(example.com)", "domain:HOST"),
    ("WebFetch(domain:https://x.com/)", "not a URL"),
    ("WebFetch(domain:ex*ample.com)", "leading *."),
    ("WebFetch(domain:*)", "leading *."),
    ("WebFetch(domain:exa mple.com)", "not a URL"),
    ("Read(!secret)", "negated"),
    ("Read(~bob/x)", "~user"),
    ("Read(a/*/../b)", "'..'"),
])
def test_malformed_rules_raise(text, fragment):
    with pytest.raises(RuleSyntaxError) as info:
        parse_rule(text)
    assert fragment in str(info.value)


def test_error_names_source():
    with pytest.raises(RuleSyntaxError, match=r"^/p/\.phlegyas\.toml:12: rule 'Bash\(\)'"):
        parse_rule("Bash()", source="/p/.phlegyas.toml:12")


def test_parse_rule_fields():
    rule = parse_rule("  Bash(git log *) ", root="/proj", source="s:1")
    assert (rule.text, rule.tool, rule.specifier, rule.root, rule.source) == (
        "Bash(git log *)", "Bash", "git log *", "/proj", "s:1")
    assert parse_rule("Read").specifier is None
    assert parse_rule("Bash(git log *)") == Rule("Bash(git log *)", "Bash", "git log *")


def test_hand_built_rule_is_compiled_on_use():
    rule = Rule("Bash(ls *)", "Bash", "ls *")
    assert rule_matches(rule, ToolCall("Bash", {"command": "ls -l"}, cwd=CWD), None, home=HOME, each=True)
    assert not rule_matches(rule, ToolCall("Bash", {"command": "lsof"}, cwd=CWD), None, home=HOME, each=True)


def test_find_match_returns_first_in_order():
    rules = [parse_rule(t) for t in ("Read(//etc/**)", "Bash(git status)", "Bash(git *)", "Bash")]
    call = ToolCall("Bash", {"command": "git log"}, cwd=CWD)
    assert find_match(rules, call, None, home=HOME, each=True).text == "Bash(git *)"
    assert find_match(rules[:2], call, None, home=HOME, each=True) is None
    assert find_match([], call, None, home=HOME, each=True) is None


def test_find_match_uses_the_given_script():
    command = "git log && npm test"
    call = ToolCall("Bash", {"command": command}, cwd=CWD)
    rules = [parse_rule("Bash(git *)"), parse_rule("Bash(npm test)")]
    # one rule for the whole call: neither covers both subcommands
    assert find_match(rules, call, parse(command), home=HOME, each=True) is None
    assert find_match([parse_rule("Bash(npm *)")], call, parse(command), home=HOME, each=False).text == "Bash(npm *)"


@pytest.mark.parametrize("command, allow, deny", [
    ("rm -rf build", True, True),
    ("git log; rm -rf build", False, True),  # allow needs every subcommand, deny any
    ("git log", False, False),
    ("sudo rm -rf build", False, True),
])
def test_each_semantics(command, allow, deny):
    rule = parse_rule("Bash(rm *)")
    call = ToolCall("Bash", {"command": command}, cwd=CWD)
    assert rule_matches(rule, call, None, home=HOME, each=True) is allow
    assert rule_matches(rule, call, None, home=HOME, each=False) is deny


# -- the Bash pattern agrees with the documented meaning, and stays fast ------------------------------

def _reference(pattern: str) -> re.Pattern:
    """The documented meaning, written the obvious way: words joined by one space, `*` is `.*`, and a
    lone `*` word after a space may also be empty (word boundary)."""
    out = []
    for index, word in enumerate(pattern.split()):
        if index and word == "*":
            out.append("(?: .*)?")
            continue
        out.append((" " if index else "") + ".*".join(re.escape(p) for p in word.split("*")))
    return re.compile("".join(out), re.DOTALL)


@settings(max_examples=300, deadline=None)
@given(pattern=st.text("ab *", min_size=1, max_size=9).filter(lambda p: p.strip()),
       command=st.text("ab ", min_size=1, max_size=12).filter(lambda c: c.strip()))
def test_bash_pattern_matches_reference(pattern, command):
    call = ToolCall("Bash", {"command": command}, cwd=CWD)
    expected = _reference(pattern).fullmatch(" ".join(command.split())) is not None
    assert rule_matches(parse_rule(f"Bash({pattern})"), call, None, home=HOME, each=True) is expected


def test_many_wildcards_stay_linear():
    rule = parse_rule("Bash(a * b * c * d)")
    call = ToolCall("Bash", {"command": "a " + "b " * 20000}, cwd=CWD)
    script = parse(call.command)
    started = time.perf_counter()
    assert not rule_matches(rule, call, script, home=HOME, each=True)
    assert time.perf_counter() - started < 1.0  # a backtracking regex takes minutes here


@pytest.mark.parametrize("each, expected", [(True, False), (False, True)])
def test_a_specifier_phlegyas_cannot_interpret_never_allows_and_always_denies(each, expected):
    """Claude Code settings may hold Task(x) or Skill(x): accepted, and failing closed."""
    rule = parse_rule("Skill(deploy)")
    call = ToolCall("Skill", {"skill": "anything"}, cwd="/p")
    assert rule_matches(rule, call, None, home="/home/u", each=each) is expected
    assert rule_matches(rule, ToolCall("Read", {"file_path": "/p/x"}, cwd="/p"), None, home="/home/u", each=False) is False
