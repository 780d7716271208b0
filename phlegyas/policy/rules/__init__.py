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

``rule`` holds ``Rule`` and the tool tables, ``syntax`` parses a rule and compiles its matcher,
``view`` the per-call view and the ``Matcher`` interface, ``bash``, ``paths`` and ``domains`` the
matchers for Bash, file and WebFetch rules, ``commands`` the strings a Bash command is matched as, and
``match`` finds the rule that matches a call.
"""
from phlegyas.policy.rules.match import find_match, rule_matches
from phlegyas.policy.rules.rule import Rule, RuleSyntaxError
from phlegyas.policy.rules.syntax import parse_rule

__all__ = [
    "Rule", "RuleSyntaxError", "find_match", "parse_rule", "rule_matches",
]
