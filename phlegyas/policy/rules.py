"""Claude Code permission rules: ``Bash(git log *)``, ``Read(//etc/**)``, ``WebFetch(domain:x.com)``,
``mcp__server__tool`` … parsed once, then matched against tool calls.

A Bash call is never judged as a raw string: it is parsed (``phlegyas.analysis.shell.parse``) and each simple
command is matched on its own, as its resolved words joined by single spaces, after harmless wrappers
(``timeout``, ``nohup`` …) are peeled off. Only a rule's *own* glob becomes a regex, compiled in
``parse_rule``.

``each=True`` (allow rules): every subcommand must match, and anything not understood (parse problems,
a dynamic program name, a path or URL that does not resolve) never matches. ``each=False`` (deny and
ask rules): one matching subcommand is enough, and the match also looks through ``sudo``, ``env``,
``bash -c``, ``eval``, ``/bin/rm`` → ``rm`` and the command line as written, so a deny rule is hard to
dodge.
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Iterator
from urllib.parse import unquote, urlsplit

from phlegyas.core.model import ToolCall
from phlegyas.analysis.paths import expand_home, is_within, normalize


class RuleSyntaxError(ValueError):
    """A permission rule that cannot be parsed; the message says what was expected."""


@dataclass(frozen=True)
class Rule:
    """One permission rule as written in a policy or settings file."""

    text: str
    tool: str
    specifier: str | None
    root: str | None = None
    source: str | None = None
    _matcher: Any = field(default=None, compare=False, repr=False, hash=False)  # a _Matcher, compiled once


# -- tools -----------------------------------------------------------------------------------------

FILE_KEYS = {"Read": "file_path", "Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path",
             "NotebookEdit": "notebook_path"}
DIR_TOOLS = ("Glob", "Grep")
PATH_TOOLS = (*FILE_KEYS, *DIR_TOOLS)
FAMILIES = {"Read": frozenset({"Read", "Glob", "Grep"}),
            "Edit": frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})}
"""Claude Code applies ``Read(…)`` rules to every reading tool and ``Edit(…)`` to every editing tool."""
WITH_SPECIFIER = ("Bash", *PATH_TOOLS, "WebFetch")

_TOOL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_MCP_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def _tools_of(rule_tool: str) -> frozenset[str]:
    return FAMILIES.get(rule_tool, frozenset({rule_tool}))


# -- parsing a rule ---------------------------------------------------------------------------------

def parse_rule(text: str, *, root: str | None = None, source: str | None = None) -> Rule:
    """Parse ``Tool`` or ``Tool(specifier)``; raises RuleSyntaxError saying what was expected."""
    def fail(why: str) -> RuleSyntaxError:
        where = f"{source}: " if source else ""
        return RuleSyntaxError(f"{where}rule {text!r}: {why}")

    if not isinstance(text, str) or not text.strip():
        raise fail("empty rule: expected Tool or Tool(specifier), e.g. Bash(git log *) or Read(./src/**)")
    tool, spec = _split(text.strip(), fail)
    _check_tool_name(tool, fail)
    if spec is not None and not spec.strip():
        raise fail(f"empty specifier: write {tool} alone to match every use, or {tool}(pattern)")
    matcher = _compile(tool, spec, fail)
    return Rule(text.strip(), tool, spec, root=root, source=source, _matcher=matcher)


def _split(text: str, fail) -> tuple[str, str | None]:
    opening = text.find("(")
    if opening == -1:
        if ")" in text:
            raise fail("unbalanced parentheses: ')' without '('")
        return text, None
    if not text.endswith(")"):
        raise fail("unbalanced parentheses: expected ')' at the end, as in Tool(specifier)")
    tool = text[:opening].strip()
    if not tool:
        raise fail("empty tool name: expected Tool(specifier), e.g. Bash(npm test)")
    spec = text[opening + 1:-1]
    _check_balanced(spec, quotes=tool == "Bash", fail=fail)
    return tool, spec


def _check_balanced(spec: str, *, quotes: bool, fail) -> None:
    """Parentheses inside a specifier must pair up (quoted or backslash-escaped ones are literal)."""
    depth, quote, i = 0, None, 0
    while i < len(spec):
        ch = spec[i]
        if ch == "\\":
            i += 2
            continue
        if quote:
            quote = None if ch == quote else quote
        elif quotes and ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise fail("unbalanced parentheses: ')' closes the rule before its end")
        i += 1
    if depth:
        raise fail("unbalanced parentheses: a '(' inside the specifier is never closed")


def _check_tool_name(tool: str, fail) -> None:
    if tool == "*":
        return
    if tool.startswith("mcp__"):
        parts = tool[5:].split("__", 1)
        if not _MCP_PART.fullmatch(parts[0]):
            raise fail("expected mcp__server, mcp__server__tool or mcp__server__*")
        if len(parts) == 2 and parts[1] != "*" and not _MCP_PART.fullmatch(parts[1]):
            raise fail("expected mcp__server__tool or mcp__server__* (a wildcard only as the whole tool name)")
        return
    if not _TOOL_NAME.fullmatch(tool):
        raise fail("expected a tool name such as Bash, Read, WebFetch or mcp__server__tool")


def _compile(tool: str, spec: str | None, fail) -> "_Matcher":
    if tool == "*" or tool.startswith("mcp__"):
        if spec is not None:
            raise fail(f"{tool} takes no specifier")
        return _ToolMatcher(tool)
    if spec is None:
        return _ToolMatcher(tool)
    if tool == "Bash":
        return _BashMatcher.compile(spec, fail)
    if tool in PATH_TOOLS:
        return _PathMatcher(_PathPattern.compile(spec, fail))
    if tool == "WebFetch":
        return _DomainMatcher.compile(spec, fail)
    hint = next((k for k in WITH_SPECIFIER if k.lower() == tool.lower()), None)
    if hint:
        raise fail(f"{tool} takes no specifier (did you mean {hint}?)")
    return _UnknownSpecifierMatcher(tool)


# -- the per-call view: everything derived from the call, computed once for all rules ---------------

class _CallView:
    def __init__(self, call: ToolCall, script, home: str):
        self.call = call
        self.home = home
        self._script = script
        self._memo: dict = {}

    def memo(self, key, compute):
        """``compute()``, once per call for each ``key`` (normalized paths, rule anchors)."""
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = compute()
            return value

    @cached_property
    def script(self):
        if self._script is None and self.call.command is not None:
            from phlegyas.analysis.shell.parse import parse

            self._script = parse(self.call.command)
        return self._script

    @cached_property
    def allow_strings(self) -> tuple[str, ...] | None:
        """One string per subcommand for allow matching, or None when the command is not understood."""
        script = self.script
        if script is None or script.problems or not script.commands:
            return None
        out: list[str] = []
        for cmd in script.commands:
            text = _allow_string(cmd)
            if text is None:
                return None
            if text is not _NEUTRAL:
                out.append(text)
        return tuple(out)

    @cached_property
    def deny_strings(self) -> tuple[str, ...]:
        """Every form of every subcommand a deny rule is tried against (deduplicated, in order)."""
        script = self.script
        if script is None:
            return ()
        return tuple(dict.fromkeys(_script_deny_strings(script, 0)))

    @property
    def cwd(self) -> str | None:
        return self.call.cwd or None


# -- matchers -----------------------------------------------------------------------------------------

class _Matcher:
    def applies_to(self, rule: Rule, tool_name: str) -> bool:
        return tool_name in _tools_of(rule.tool)

    def matches(self, rule: Rule, view: _CallView, each: bool) -> bool:
        raise NotImplementedError


@dataclass(frozen=True)
class _ToolMatcher(_Matcher):
    """A rule without specifier: every use of the tool (or of an MCP server, or of any tool)."""

    tool: str

    def applies_to(self, rule: Rule, tool_name: str) -> bool:
        if self.tool == "*":
            return True
        if self.tool.startswith("mcp__"):
            server, _, name = self.tool[5:].partition("__")
            if name and name != "*":
                return tool_name == self.tool
            return tool_name.startswith(f"mcp__{server}__") and len(tool_name) > len(server) + 7
        return tool_name in _tools_of(self.tool)

    def matches(self, rule: Rule, view: _CallView, each: bool) -> bool:
        if view.call.tool_name == "Bash" and each:
            return view.allow_strings is not None  # even `Bash` never allows what is not understood
        return True


@dataclass(frozen=True)
class _UnknownSpecifierMatcher(_Matcher):
    """``Task(reviewer)``, ``Skill(x)``: a specifier phlegyas cannot interpret (Claude Code settings hold
    such rules for its own tools). Failing closed: it never allows, and denies or asks for every use."""

    tool: str

    def matches(self, rule: Rule, view: _CallView, each: bool) -> bool:
        return not each


def _matcher_of(rule: Rule) -> _Matcher:
    matcher = rule._matcher
    if matcher is None:  # a Rule built by hand: compile it once and keep it
        def fail(why: str) -> RuleSyntaxError:
            return RuleSyntaxError(f"rule {rule.text!r}: {why}")

        _check_tool_name(rule.tool, fail)
        matcher = _compile(rule.tool, rule.specifier, fail)
        object.__setattr__(rule, "_matcher", matcher)
    return matcher


def rule_matches(rule: Rule, call: ToolCall, script, *, home: str, each: bool) -> bool:
    """Does ``rule`` match ``call``? ``each=True`` for allow rules, False for deny and ask rules."""
    return _matches(rule, _CallView(call, script, home), each)


def find_match(rules: Iterable[Rule], call: ToolCall, script, *, home: str, each: bool) -> Rule | None:
    """The first rule, in order, that matches ``call``; the call is parsed and resolved only once."""
    view = _CallView(call, script, home)
    for rule in rules:
        if _matches(rule, view, each):
            return rule
    return None


def _matches(rule: Rule, view: _CallView, each: bool) -> bool:
    matcher = _matcher_of(rule)
    if not matcher.applies_to(rule, view.call.tool_name):
        return False
    return matcher.matches(rule, view, each)


# -- Bash ---------------------------------------------------------------------------------------------

_WILD = object()  # an unquoted `*` in a Bash pattern
_NEUTRAL = object()  # an assignment-only command (x=1): it needs no rule of its own


def _lex_pattern(spec: str, fail) -> list[list[object]]:
    """Split a Bash pattern into words the way the shell would: quotes and backslashes are removed,
    an unquoted ``*`` becomes a wildcard, unquoted whitespace separates words."""
    words: list[list[object]] = []
    current: list[object] | None = None
    i, n = 0, len(spec)
    while i < n:
        ch = spec[i]
        if ch.isspace():
            if current is not None:
                words.append(current)
                current = None
            i += 1
            continue
        current = [] if current is None else current
        if ch == "\\" and i + 1 < n:
            current.append(spec[i + 1])
            i += 2
        elif ch == "'":
            end = spec.find("'", i + 1)
            if end == -1:
                raise fail("unterminated ' quote in the command pattern")
            current.append(spec[i + 1:end])
            i = end + 1
        elif ch == '"':
            end, text = _double_quoted(spec, i + 1)
            if end == -1:
                raise fail('unterminated " quote in the command pattern')
            current.append(text)
            i = end + 1
        elif ch == "*":
            current.append(_WILD)
            i += 1
        else:
            current.append(ch)
            i += 1
    if current is not None:
        words.append(current)
    return words


def _double_quoted(spec: str, i: int) -> tuple[int, str]:
    out: list[str] = []
    while i < len(spec):
        ch = spec[i]
        if ch == '"':
            return i, "".join(out)
        if ch == "\\" and i + 1 < len(spec) and spec[i + 1] in '"\\$`':
            out.append(spec[i + 1])
            i += 2
            continue
        out.append(ch)
        i += 1
    return -1, ""


@dataclass(frozen=True)
class _BashMatcher(_Matcher):
    regex: re.Pattern

    @classmethod
    def compile(cls, spec: str, fail) -> "_BashMatcher":
        text = spec.strip()
        if text.endswith(":*") and not text.endswith("\\:*"):
            text = text[:-2] + " *"  # legacy prefix form: `npm run test:*` ≡ `npm run test *`
        words = _lex_pattern(text, fail)
        if not words:
            raise fail("empty command pattern: write Bash alone to match every command")
        return cls(re.compile(_pattern_regex(words), re.DOTALL))

    def matches(self, rule: Rule, view: _CallView, each: bool) -> bool:
        if view.call.tool_name != "Bash":
            return False
        if each:
            strings = view.allow_strings
            return strings is not None and all(self.regex.fullmatch(s) for s in strings)
        if view.call.command is None:
            return True  # no command to read: fail closed for deny and ask
        return any(self.regex.fullmatch(s) for s in view.deny_strings)


def _pattern_regex(words: list[list[object]]) -> str:
    """Words of a pattern → a regex over words joined by single spaces.

    It means ``" ".join(words)`` with ``*`` → ``.*`` and a lone `` *`` word → ``(?: .*)?`` (so
    ``ls *`` matches ``ls`` and ``ls -la`` but not ``lsof``), but it is built to stay linear on a long
    command: each literal between wildcards is taken at the first place it fits, inside an atomic
    group. That is exact for wildcards that match anything, and ``a * b * c`` cannot make the regex
    engine backtrack quadratically.
    """
    elements = _elements(words)
    out: list[str] = []
    k = 0
    if elements and elements[0][0] == "lit":
        out.append(re.escape(elements[0][1]))
        k = 1
    while k < len(elements):
        kind = elements[k][0]
        if kind == "opt_end":
            out.append("(?: .*)?")
            k += 1
            continue
        if k + 1 >= len(elements):
            out.append(".*")  # a trailing `*`
            break
        gap = ".*?" if kind == "star" else "(?:|.*? )"
        literal = re.escape(elements[k + 1][1])
        rest = elements[k + 2:]
        if not rest:  # the last literal ends the string
            out.append((".*" if kind == "star" else "(?:.* )?") + literal)
        elif rest == [("opt_end", "")]:
            out.append(f"{gap}{literal}(?: .*)?")
            k += 1
        else:  # commit to the first place the literal fits
            out.append(f"(?>{gap}{literal})")
        k += 2
    return "".join(out)


def _elements(words: list[list[object]]) -> list[tuple[str, str]]:
    """The pattern as literals between wildcards: ``star`` (anything), ``space_star`` (nothing, or
    anything ending in a space: what the middle `` * `` of ``A * B`` leaves once its spaces are
    literals) and ``opt_end`` (a final `` *``: nothing, or a space and anything)."""
    words = [w for i, w in enumerate(words) if not (i and w == [_WILD] and words[i - 1] == [_WILD])]
    elements: list[tuple[str, str]] = []

    def literal(text: str) -> None:
        if elements and elements[-1][0] == "lit":
            elements[-1] = ("lit", elements[-1][1] + text)
        else:
            elements.append(("lit", text))

    def star() -> None:
        if elements and elements[-1][0] in ("star", "space_star"):
            elements[-1] = ("star", "")  # `(?:.* )?.*` is `.*`
        else:
            elements.append(("star", ""))

    separator = False
    for index, word in enumerate(words):
        if index and word == [_WILD]:
            if index == len(words) - 1:
                if elements[-1][0] != "star":
                    elements.append(("opt_end", ""))
            else:  # `A * B` is `A` + " " + (nothing | anything + " ") + `B`
                literal(" ")
                elements.append(("space_star", ""))
                separator = False
            continue
        if separator:
            literal(" ")
        separator = True
        for part in word:
            if isinstance(part, str):
                literal(part)
            else:  # _WILD
                star()
    return elements


@dataclass(frozen=True)
class _Wrapper:
    """How to skip a wrapper's own options: those taking no value, those taking one, and how many
    operands follow them (``timeout``'s duration). ``lenient`` skips unknown options too."""

    flags: frozenset[str] = frozenset()
    valued: frozenset[str] = frozenset()
    operands: int = 0
    lenient: bool = False
    numeric: bool = False  # `nice -10`
    assignments: bool = False  # `env A=1 cmd`


def _w(flags: str = "", valued: str = "", **kw) -> _Wrapper:
    return _Wrapper(frozenset(flags.split()), frozenset(valued.split()), **kw)


ALLOW_WRAPPERS = {
    "timeout": _w("--preserve-status --foreground -v --verbose", "-s --signal -k --kill-after", operands=1),
    "time": _w("-p"),
    "nice": _w("", "-n --adjustment", numeric=True),
    "nohup": _w(),
    "stdbuf": _w("", "-i -o -e --input --output --error"),
    "command": _w("-p"),
    "builtin": _w(),
    "noglob": _w(),
    "xargs": _w(),
}
"""Wrappers peeled before an allow rule is matched; an option not listed here stops the peeling."""

DENY_WRAPPERS = {
    **{name: _Wrapper(w.flags, w.valued, w.operands, name != "command", w.numeric)  # `command -v rm` runs nothing
       for name, w in ALLOW_WRAPPERS.items()},
    "sudo": _w("", "-u --user -g --group -h --host -p --prompt -C --close-from -D --chdir -r --role "
                   "-t --type -U --other-user -T --command-timeout", lenient=True, assignments=True),
    "doas": _w("", "-u -C", lenient=True),
    "env": _w("", "-u --unset -C --chdir -S --split-string", lenient=True, assignments=True),
    "exec": _w("", "-a", lenient=True),
    "xargs": _w("", "-a --arg-file -d --delimiter -E --eof -I --replace -L --max-lines -n --max-args "
                    "-P --max-procs -s --max-chars --process-slot-var", lenient=True),
    "ionice": _w("", "-c --class -n --classdata", lenient=True),
    "chronic": _w(lenient=True),
    "unbuffer": _w(lenient=True),
}
"""Deny and ask rules also look through these, so ``sudo rm -rf x`` cannot dodge ``Bash(rm *)``."""

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash"})
MAX_INNER_DEPTH = 4

RISKY_ASSIGNMENTS = frozenset({
    "PATH", "IFS", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "PYTHONPATH",
    "PYTHONSTARTUP", "PYTHONHOME", "NODE_OPTIONS", "NODE_PATH", "PERL5OPT", "PERL5LIB", "RUBYOPT",
    "RUBYLIB", "PAGER", "EDITOR", "VISUAL", "LESSOPEN", "LESSCLOSE", "MANPAGER", "BROWSER", "SSH_ASKPASS",
    "SUDO_ASKPASS", "ZDOTDIR", "HOME",
})
RISKY_ASSIGNMENT_PREFIXES = ("LD_", "DYLD_", "GIT_", "BASH_FUNC_")
"""Assignments that change which program runs or make it run other code: ``PATH=/tmp git log`` or
``GIT_EXTERNAL_DIFF=x git diff`` is not the ``git`` an allow rule had in mind."""


def _risky_assignment(name: str) -> bool:
    return name in RISKY_ASSIGNMENTS or name.startswith(RISKY_ASSIGNMENT_PREFIXES)


def _skip_options(words: list, i: int, spec: _Wrapper) -> int | None:
    """Index of the first word after a wrapper's options and operands, or None if not understood."""
    n = len(words)
    while i < n:
        if words[i].dynamic:
            return None if not spec.lenient else i
        text = words[i].text
        if spec.assignments and _is_assignment(text):
            i += 1
            continue
        if text == "--":
            i += 1
            break
        if not text.startswith("-") or text == "-":
            break
        step = _option_width(text, words[i + 1] if i + 1 < n else None, spec)
        if step is None:
            return None
        i += step
    for _ in range(spec.operands):
        if i >= n or words[i].dynamic or not re.fullmatch(r"\d+(?:\.\d+)?[smhd]?", words[i].text):
            return None
        i += 1
    return i


def _option_width(text: str, following, spec: _Wrapper) -> int | None:
    """How many words one option takes (1 or 2), or None if the option is unknown."""
    if text in spec.flags:
        return 1
    if text in spec.valued:
        return 2 if following is not None else None
    if text.startswith("--"):
        name = text.split("=", 1)[0]
        if "=" in text and name in spec.valued:
            return 1
        return 1 if spec.lenient else None
    if spec.numeric and re.fullmatch(r"-\d+", text):
        return 1
    for k in range(1, len(text)):  # a cluster of short options: `-sKILL`, `-Eu root`, `-oL`
        option = "-" + text[k]
        if option in spec.valued:
            if k + 1 < len(text):
                return 1
            return 2 if following is not None else None
        if option not in spec.flags and not spec.lenient:
            return None
    return 1


def _is_assignment(text: str) -> bool:
    name, eq, _ = text.partition("=")
    return bool(eq) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) is not None


def _peel(words: list, table: dict[str, _Wrapper], *, basename: bool = False) -> Iterator[list]:
    """``words``, then what is left after each wrapper is peeled off, outermost first. ``basename``:
    also know a wrapper by its path (``/usr/bin/sudo``)."""
    yield words
    for _ in range(16):
        if not words or words[0].dynamic:
            return
        name = words[0].text
        spec = table.get(name.rsplit("/", 1)[-1] if basename else name)
        if spec is None:
            return
        start = _skip_options(words, 1, spec)
        if start is None or start >= len(words):
            return
        words = words[start:]
        yield words


def _redirects_text(cmd, *, skip_harmless: bool = False) -> str:
    """The redirections of ``cmd`` as text (``2>&1 >out.txt``), appended to what a rule must match so
    that ``Bash(git status)`` does not allow ``git status > ~/.profile``."""
    parts = []
    for r in cmd.redirects:
        target = r.target.text if r.target is not None else ""
        if skip_harmless and _harmless_redirect(r.op, target, r.target):
            continue
        parts.append(f"{r.fd or ''}{r.op}{target}")
    return " ".join(parts)


def _harmless_redirect(op: str, target: str, word) -> bool:
    """``2>&1``, ``>&-`` and ``>/dev/null`` write no file; an allow rule need not spell them out."""
    if word is None or word.dynamic:
        return False
    if op in (">&", "<&"):
        return target.isdigit() or target == "-"
    return target == "/dev/null" and op in (">", ">>", "&>", "&>>", ">|")


def _allow_string(cmd):
    """The string an allow rule must match for one simple command; _NEUTRAL for ``x=1`` alone; None
    when no allow rule may match it (dynamic program, an assignment that changes what runs)."""
    if any(_risky_assignment(name) for name, _ in cmd.assignments):
        return None
    if not cmd.words:
        return _NEUTRAL
    words = list(_peel(cmd.words, ALLOW_WRAPPERS))[-1]
    first = words[0]
    if first.dynamic or first.glob or not first.text:
        return None
    text = " ".join(w.text for w in words)
    redirects = _redirects_text(cmd, skip_harmless=True)
    return f"{text} {redirects}" if redirects else text


def _script_deny_strings(script, depth: int) -> Iterator[str]:
    source = script.source.strip()
    if source:
        yield source  # the command line as written, so an unparsed part cannot hide from a deny rule
        yield " ".join(source.split())
    for cmd in script.commands:
        yield from _command_deny_strings(cmd, depth)


def _command_deny_strings(cmd, depth: int) -> Iterator[str]:
    redirects = _redirects_text(cmd)
    if not cmd.words:
        return
    for words in _peel(cmd.words, DENY_WRAPPERS, basename=True):
        if words[0].dynamic:
            continue
        texts = [w.text for w in words]
        forms = [" ".join(texts)]
        base = texts[0].rsplit("/", 1)[-1]
        if base and base != texts[0]:
            forms.append(" ".join([base, *texts[1:]]))  # /bin/rm → rm
        for form in forms:
            yield form
            if redirects:
                yield f"{form} {redirects}"
        inner = _inner_script(words, cmd)
        if inner is not None and depth < MAX_INNER_DEPTH:
            from phlegyas.analysis.shell.parse import parse

            yield from _script_deny_strings(parse(inner), depth + 1)


def _inner_script(words: list, cmd) -> str | None:
    """The script a ``bash -c STR``, ``eval …`` or ``bash <<EOF`` runs, when it is written out."""
    program = words[0].text.rsplit("/", 1)[-1]
    if program == "eval":
        rest = words[1:]
        return " ".join(w.text for w in rest) if rest and not any(w.dynamic for w in rest) else None
    if program not in SHELLS:
        return None
    i, has_c = 1, False
    while i < len(words) and not words[i].dynamic:
        text = words[i].text
        if text in ("-o", "+o", "-O", "+O"):
            i += 2
        elif text.startswith(("-", "+")) and len(text) > 1 and not text.startswith("--"):
            has_c = has_c or "c" in text[1:]
            i += 1
        elif text.startswith("--"):
            i += 1
        else:
            break
    if has_c:
        return words[i].text if i < len(words) and not words[i].dynamic else None
    if i >= len(words) and cmd.stdin_text is not None and not cmd.stdin_dynamic:
        return cmd.stdin_text  # a heredoc or here-string fed to a shell
    return None


# -- paths ----------------------------------------------------------------------------------------------

_DSTAR = "**"
_GLOB_CHARS = re.compile(r"(?<!\\)[*?\[]")


def _segment(seg: str) -> "str | re.Pattern":
    """One path segment of a gitignore pattern: ``**`` or a compiled regex (``*`` stays in the segment)."""
    if seg == "**":
        return _DSTAR
    out: list[str] = []
    i, n = 0, len(seg)
    while i < n:
        ch = seg[i]
        if ch == "\\" and i + 1 < n:
            out.append(re.escape(seg[i + 1]))
            i += 2
        elif ch == "*":
            out.append("[^/]*")
            while i < n and seg[i] == "*":
                i += 1
            continue
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            end = _class_end(seg, i)
            if end == -1:
                out.append(re.escape(ch))
            else:
                out.append(_class_regex(seg[i + 1:end]))
                i = end
        else:
            out.append(re.escape(ch))
        i += 1
    return re.compile("".join(out), re.DOTALL)


def _class_end(seg: str, start: int) -> int:
    j = start + 1
    if j < len(seg) and seg[j] in "!^":
        j += 1
    if j < len(seg) and seg[j] == "]":
        j += 1
    end = seg.find("]", j)
    return end


def _class_regex(body: str) -> str:
    negate = body[:1] in ("!", "^")
    if negate:
        body = body[1:]
    inner = "".join(ch if ch == "-" else re.escape(ch) for ch in body)
    return f"[{'^' if negate else ''}{inner}]"


def _unescape(seg: str) -> str:
    return re.sub(r"\\(.)", r"\1", seg)


@dataclass(frozen=True)
class _PathPattern:
    """A gitignore-style pattern: an anchor, literal leading segments, then glob segments.

    ``anchor`` is ``abs`` (``//x``), ``home`` (``~/x``), ``root`` (``/x``: the rule's project root),
    ``cwd`` (``./x``, ``x/y``) or ``anydepth`` (``x``: no slash, at any depth). ``mode`` says what a
    match covers: ``below`` (``dir/**``) what lies strictly below it, ``subtree`` (``dir/``, ``~``) it
    and everything below, ``self`` just the path itself. Deny and ask rules always take the
    gitignore reading, where a matching directory covers its contents (``Read(.git)`` denies
    ``.git/config``); allow rules read ``*`` strictly (``Edit(src/*)`` does not allow ``src/a/b.py``).
    """

    anchor: str
    prefix: tuple[str, ...]
    segments: tuple
    mode: str

    @classmethod
    def compile(cls, spec: str, fail) -> "_PathPattern":
        text = spec.strip()
        if text.startswith("!"):
            raise fail("negated patterns (!pattern) are not supported; use a deny or allow rule instead")
        anchor, rest = _anchor_of(text, fail)
        if rest == "**" or rest.endswith("/**"):
            rest, mode = rest[:-2], "below"
        elif rest.endswith("/") or not rest:
            mode = "subtree"
        else:
            mode = "self"
        parts = [p for p in rest.split("/") if p not in ("", ".")]
        prefix: list[str] = []
        if anchor != "anydepth":
            while parts and not _GLOB_CHARS.search(parts[0]):
                prefix.append(_unescape(parts.pop(0)))
        if ".." in parts:
            raise fail("'..' may only come before the first wildcard of a path pattern")
        segments = tuple(_segment(p) for p in parts)
        if anchor == "anydepth":
            segments = (_DSTAR, *segments)
        return cls(anchor, tuple(prefix), segments, mode)

    def base(self, rule: Rule, cwd: str | None, home: str, each: bool) -> str | None:
        """The directory the pattern's segments are relative to, or None when it cannot be known."""
        start = {"abs": "/", "home": home, "root": rule.root or cwd, "cwd": cwd,
                 "anydepth": cwd if each else "/"}[self.anchor]
        if start is None:
            return None
        return normalize(posixpath.join(normalize(start, cwd or "/", home), *self.prefix), "/", home)

    def base_in(self, view: _CallView, rule: Rule, cwd: str | None, each: bool) -> str | None:
        key = ("base", self.anchor, self.prefix, rule.root if self.anchor == "root" else None, cwd, each)
        return view.memo(key, lambda: self.base(rule, cwd, view.home, each))

    def prefix_ends(self, names: list[str]) -> list[bool]:
        """``ok[k]``: the segments match ``names[:k]`` exactly (an NFA over segments)."""
        segs, last = self.segments, len(self.segments)

        def close(states: set[int]) -> set[int]:
            for s in sorted(states):
                while s < last and segs[s] is _DSTAR:
                    s += 1
                    states = states | {s}
            return states

        states = close({0})
        ok = [last in states]
        for name in names:
            nxt: set[int] = set()
            for s in states:
                if s == last:
                    continue
                seg = segs[s]
                if seg is _DSTAR:
                    nxt.add(s)
                elif seg.fullmatch(name):
                    nxt.add(s + 1)
            states = close(nxt)
            ok.append(last in states)
        return ok

    def match_file(self, path: str, base: str, each: bool) -> bool:
        """The rule covers the file ``path``."""
        names = _relative_names(path, base)
        if names is None:
            return False
        ok = self.prefix_ends(names)
        if not each or self.mode == "subtree":
            return any(ok)
        if self.mode == "below":
            return any(ok[:-1])
        return ok[-1]

    def covers_dir(self, path: str, base: str, each: bool) -> bool:
        """The rule covers ``path`` and everything below it (what Glob and Grep read)."""
        names = _relative_names(path, base)
        if names is None:
            return False
        ok = self.prefix_ends(names)
        return any(ok) if not each or self.mode != "self" else ok[-1]


def _anchor_of(text: str, fail) -> tuple[str, str]:
    if text.startswith("//"):
        return "abs", text[2:]
    if text == "~" or text.startswith("~/"):
        return "home", text[2:]
    if text.startswith("~"):
        raise fail("~user paths are not supported; write ~/path for your home or //abs/path")
    expanded = expand_home(text, "\x00")
    if expanded.startswith("\x00"):
        return "home", expanded[1:].lstrip("/")
    if text.startswith("/"):
        return "root", text[1:]
    if text == "." or text.startswith("./"):
        return "cwd", text[2:]
    if "/" in text.rstrip("/"):
        return "cwd", text
    return "anydepth", text


def _relative_names(path: str, base: str) -> list[str] | None:
    if not is_within(path, base):
        return None
    rest = path[len(base):] if base != "/" else path
    return [p for p in rest.split("/") if p]


@dataclass(frozen=True)
class _PathMatcher(_Matcher):
    pattern: _PathPattern

    def matches(self, rule: Rule, view: _CallView, each: bool) -> bool:
        call = view.call
        if call.tool_name in DIR_TOOLS:
            return self._match_search(rule, view, each)
        raw = call.tool_input.get(FILE_KEYS.get(call.tool_name, "file_path"))
        path = _resolve(raw, view)
        if path is None:
            return not each  # nothing to read: never allow, and fail closed for deny and ask
        return any(self.pattern.match_file(path, base, each) for base in self._bases(rule, view, path, each))

    def _bases(self, rule: Rule, view: _CallView, path: str, each: bool) -> list[str]:
        base = self.pattern.base_in(view, rule, view.cwd, each)
        if base is not None:
            return [base]
        if each:
            return []
        # deny with an unknown cwd: the pattern may be anchored at any directory above the path
        bases, current = [], path
        while True:
            bases.append(self.pattern.base_in(view, rule, current, each) or current)
            if current == "/":
                return list(dict.fromkeys(bases))
            current = posixpath.dirname(current)

    def _match_search(self, rule: Rule, view: _CallView, each: bool) -> bool:
        """Glob and Grep read a whole directory: allow needs it covered, deny any overlap."""
        call = view.call
        raw = call.tool_input.get("path") or view.cwd
        directory = _resolve(raw, view)
        if directory is None:
            return not each
        pattern = call.tool_input.get("pattern") if call.tool_name == "Glob" else None
        if each:
            target = _glob_root(pattern, directory, view) if pattern is not None else directory
            return target is not None and any(
                self.pattern.covers_dir(target, base, each) for base in self._bases(rule, view, target, each))
        candidates = [directory]
        if isinstance(pattern, str):
            root = _glob_root(pattern, directory, view)
            candidates += [c for c in (root, normalize(pattern, directory, view.home)) if c]
        for target in candidates:
            for base in self._bases(rule, view, target, each):
                if (self.pattern.covers_dir(target, base, each) or is_within(base, target)
                        or self.pattern.match_file(target, base, each)):
                    return True
        return False


def _resolve(raw, view: _CallView) -> str | None:
    """``raw`` as an absolute normalized path, or None when it is not a usable path."""
    if not isinstance(raw, str) or not raw or "\x00" in raw:
        return None
    return view.memo(("path", raw), lambda: _normalized(raw, view))


def _normalized(raw: str, view: _CallView) -> str | None:
    expanded = expand_home(raw, view.home)
    if not expanded.startswith("/") and view.cwd is None:
        return None
    return normalize(raw, view.cwd or "/", view.home)


def _glob_root(pattern, directory: str, view: _CallView) -> str | None:
    """The directory a Glob pattern cannot leave: its literal leading segments under ``directory``.
    None when the pattern climbs with ``..`` after a wildcard (not understood)."""
    if not isinstance(pattern, str) or not pattern:
        return None
    parts = pattern.split("/")
    literal: list[str] = []
    for index, part in enumerate(parts[:-1]):
        if _GLOB_CHARS.search(part):
            if ".." in parts[index:]:
                return None
            break
        literal.append(part)
    joined = "/".join(literal)
    if pattern.startswith("/") and not joined:
        joined = "/"
    return normalize(joined or ".", directory, view.home)


# -- web domains -----------------------------------------------------------------------------------------

_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?")
_C0_AND_SPACE = "".join(map(chr, range(0x21)))
_IPV4_PART = re.compile(r"0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):/*")


def _idna(host: str) -> str | None:
    try:
        return host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError:
        return None


@dataclass(frozen=True)
class _DomainMatcher(_Matcher):
    host: str
    subdomains: bool  # `*.example.com`: strictly below example.com

    @classmethod
    def compile(cls, spec: str, fail) -> "_DomainMatcher":
        text = spec.strip()
        if not text.startswith("domain:"):
            raise fail("WebFetch takes domain:HOST, e.g. WebFetch(domain:example.com)")
        host = text[len("domain:"):].strip().lower()
        if not host:
            raise fail("WebFetch(domain:) needs a host name, e.g. domain:example.com or domain:*.example.com")
        subdomains = host.startswith("*.")
        base = host[2:] if subdomains else host
        if "*" in base:
            raise fail("a wildcard is only allowed as a leading *. (domain:*.example.com); "
                       "write WebFetch alone to match every URL")
        if any(ch in base for ch in "/:@?#[] "):
            raise fail("expected a host name like example.com, not a URL")
        canonical = _idna(base.rstrip("."))
        if not canonical or not all(_LABEL.fullmatch(label) for label in canonical.split(".")):
            raise fail(f"{base!r} is not a host name")
        return cls(_canonical_ipv4(canonical) or canonical, subdomains)

    def matches(self, rule: Rule, view: _CallView, each: bool) -> bool:
        host = _url_host(view.call.tool_input.get("url"), strict=each)
        if host is None:
            return False
        if self.subdomains:
            return host.endswith("." + self.host)
        return host == self.host


def _url_host(url, *, strict: bool) -> str | None:
    """The host a fetch of ``url`` would reach, as a browser parses it (``\\`` counts as ``/``, the
    last ``@`` ends the userinfo, ``%xx`` is decoded). ``strict``: http(s) only, or None."""
    if not isinstance(url, str):
        return None
    text = re.sub(r"[\t\n\r]", "", url).strip(_C0_AND_SPACE)
    m = _SCHEME.match(text)
    scheme = m.group(1).lower() if m else ""
    if m is not None and scheme in ("http", "https"):
        text = f"{scheme}://{text[m.end():]}".replace("\\", "/")
    elif strict:
        return None
    elif not m or "://" not in text:
        text = "https://" + text.replace("\\", "/")
    try:
        host = urlsplit(text).hostname
    except ValueError:
        return None
    if not host:
        return None
    host = unquote(host).lower().rstrip(".")
    canonical = _idna(host)
    if canonical is None or (strict and not all(_LABEL.fullmatch(p) for p in canonical.split("."))
                             and not re.fullmatch(r"[0-9a-f:.]+", canonical)):
        return None
    return _canonical_ipv4(canonical) or canonical


def _canonical_ipv4(host: str) -> str | None:
    """``0x7f.1``, ``2130706433`` … → ``127.0.0.1`` (as a URL parser reads numeric hosts), else None."""
    parts = host.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers: list[int] = []
    for part in parts:
        if not _IPV4_PART.fullmatch(part):
            return None
        if part[:2].lower() == "0x":
            numbers.append(int(part[2:] or "0", 16))
        else:
            numbers.append(int(part, 8 if part.startswith("0") else 10))
    last = numbers.pop()
    if any(n > 255 for n in numbers) or last >= 256 ** (4 - len(numbers)):
        return None
    value = last
    for index, number in enumerate(numbers):
        value += number << (8 * (3 - index))
    return ".".join(str((value >> shift) & 255) for shift in (24, 16, 8, 0))
