"""What a command shows of the environment: a dump of every variable, or a variable that holds a secret.

``printenv``, a bare ``env``, ``set``, ``export -p``, ``declare -p`` print every variable, API keys and
tokens included, into the agent's context; ``echo "$NPM_TOKEN"`` prints one. Neither is Tier-2 safe: the
report turns each into a ``shows …`` effect and a ``sensitive.read`` finding (ask). A variable is secret
when its name says so (``core.redact.secret_kind``: ``*_TOKEN``, ``*_SECRET*``, ``*PASSWORD``, ``API_KEY``…).
"""
from __future__ import annotations

import re

from phlegyas.analysis.shell.parse import Word
from phlegyas.core.redact import secret_kind

_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
_DUMP_FLAGS = {
    "env": frozenset({"-0", "--null"}),
    "printenv": frozenset({"-0", "--null"}),
    "set": frozenset(),
    "export": frozenset({"-p"}),
    "declare": frozenset({"-p", "-x", "-px", "-xp", "-g"}),
    "typeset": frozenset({"-p", "-x", "-px", "-xp"}),
}
"""Programs that print every variable when given none of their other arguments, and the flags that do
not change that."""
HTTP_CLIENTS = frozenset({"curl", "curlie", "wget", "wget2", "http", "https", "httpie", "xh"})
"""They send a secret variable rather than show it: ``tier1.fetch`` judges where it goes."""


def secret_variables(text: str) -> list[str]:
    """The variables of ``text`` whose names say they hold a secret (``$AWS_SECRET_ACCESS_KEY``)."""
    return [name for name in _VARIABLE.findall(text) if secret_kind(name) is not None]


def shown_secrets(program: str, args: list[Word]) -> list[str]:
    """What ``program ARGS`` shows of secrets, as phrases for the report (empty when nothing)."""
    flags = _DUMP_FLAGS.get(program)
    if flags is not None and all(not w.dynamic and w.text in flags for w in args):
        return ["the whole environment (API keys and tokens included)"]
    out: list[str] = []
    if program == "printenv":
        out.extend(f"${w.text}, a variable that holds a secret" for w in args
                   if not w.dynamic and secret_kind(w.text) is not None)
    for word in args if program not in HTTP_CLIENTS else ():
        if word.dynamic:
            out.extend(f"${name}, a variable that holds a secret" for name in secret_variables(word.text))
    return list(dict.fromkeys(out))
