"""Literal variables and positional arguments: substituting what the script itself sets.

``x=/; rm -rf $x`` runs ``rm -rf /``: ``learn`` records the literal values a script assigns (a name given
two values, or a computed one, becomes unknown), ``positionals`` the arguments after ``sh -c CODE``, and
``substitute``/``substitute_command`` put them into a command's words and redirect targets.
"""
from __future__ import annotations

import re

from phlegyas.analysis.shell.expansion import literal
from phlegyas.analysis.shell.parse import Redirect, SimpleCommand, Word

_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[0-9@*#])\}|([A-Za-z_][A-Za-z0-9_]*|[0-9@*#]))")


def substitute(word: Word, values: dict[str, str]) -> Word:
    """Replace ``$name``/``${name}`` of known literal variables; the word stays dynamic if anything
    computed is left."""
    text = word.text
    if "$" not in text:
        return word
    changed = False

    def repl(m: re.Match) -> str:
        nonlocal changed
        name = m.group(1) or m.group(2)
        if name in values:
            changed = True
            return values[name]
        return m.group(0)

    new = _VAR.sub(repl, text)
    if not changed:
        return word
    dynamic = "$" in new or "`" in new
    return Word(new, dynamic, word.glob, word.quoted)


def substitute_command(cmd: SimpleCommand, values: dict[str, str]) -> SimpleCommand:
    """A copy of ``cmd`` with the known values substituted (the parse itself stays as parsed: the
    engine shares it with other checkers)."""
    words: list[Word] = []
    for w in cmd.words:
        if w.dynamic and w.text in ("$@", "$*") and "@" in values:
            words.extend(literal(a) for a in values["@"].split("\x00") if a)
        else:
            words.append(substitute(w, values) if w.dynamic else w)
    redirects = [Redirect(r.op, substitute(r.target, values), r.fd) if r.target is not None and r.target.dynamic
                 else r for r in cmd.redirects]
    return SimpleCommand(words, cmd.assignments, redirects, cmd.stdin_text, cmd.stdin_dynamic, cmd.upstream,
                         cmd.origin, cmd.text)


def learn(cmd: SimpleCommand, values: dict[str, str], conflicting: set[str]) -> None:
    """Literal assignments (``x=/tmp``, ``local y=…``, ``export Z=…``) become known values; a name
    assigned twice with different values, or a computed one, becomes unknown."""
    if not cmd.assignments:
        return
    declaration = not cmd.words or cmd.words[0].text in ("export", "local", "declare", "typeset", "readonly")
    if not declaration:
        return
    for name, value in cmd.assignments:
        if name in conflicting:
            continue
        if value.dynamic or (name in values and values[name] != value.text):
            values.pop(name, None)
            conflicting.add(name)
        else:
            values[name] = value.text


def positionals(args: list[Word]) -> dict[str, str]:
    """``sh -c CODE ARGS…``: the values of ``$0``…``$8`` and, joined by NULs, of ``$@``."""
    positional = {str(k): a.text for k, a in enumerate(args[:9])}
    if len(args) > 1:
        positional["@"] = "\x00".join(a.text for a in args[1:])
    return positional
