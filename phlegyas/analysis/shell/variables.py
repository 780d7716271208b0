"""Literal variables and positional arguments: substituting what the script itself sets.

``x=/; rm -rf $x`` runs ``rm -rf /``: ``learn`` records the literal values a script assigns (a name given
two values, or a computed one, becomes unknown), ``positionals`` the arguments after ``sh -c CODE``, and
``substitute``/``substitute_command`` put them into a command's words and redirect targets.
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.shell.expansion import literal
from phlegyas.analysis.shell.params import EXPANDED, UNKNOWN, expand_text, split_fields
from phlegyas.analysis.shell.parse import ARRAY_SEPARATOR, Redirect, SimpleCommand, Word
from phlegyas.analysis.shell.readvars import DEFAULT_IFS
from phlegyas.analysis.shell.syntax import EXPANDS, is_glob

_ARRAY_ALL: Final = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}")  # "${a[@]}", ${a[*]}: every element
_ARRAY_ONE: Final = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\[([0-9]+)\]\}")  # ${a[1]}
_VAR: Final = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[0-9@*#])\}|([A-Za-z_][A-Za-z0-9_]*|[0-9@*#]))")


def substitute(word: Word, values: dict[str, str]) -> Word:
    """Replace ``$name``/``${name}`` of known literal variables; the word stays dynamic if anything
    computed is left."""
    text = word.text
    if "$" not in text and "`" not in text:
        return word
    if "${!" in text:  # `x=GITHUB_TOKEN; curl -d "${!x}"`: the variable named by x, its value still unknown
        text = _INDIRECT.sub(lambda m: "${" + values[m.group(1)] + "}" if _NAME_ONLY.fullmatch(
            values.get(m.group(1), "")) else m.group(0), text)
        if text != word.text:
            word = Word(text, True, word.glob, word.quoted)
    changed = False

    def repl(m: re.Match) -> str:
        nonlocal changed
        name = m.group(1) or m.group(2)
        if name in values:
            changed = True
            return values[name]
        return m.group(0)

    def element(m: re.Match) -> str:
        nonlocal changed
        got = values.get(m.group(1))
        if got is None:
            return m.group(0)
        items = got.split(ARRAY_SEPARATOR)
        k = int(m.group(2))
        changed = True
        return items[k] if k < len(items) else ""

    new = _ARRAY_ONE.sub(element, text) if "[" in text else text
    if has_operators(new):  # ${x/a/b}, ${X:-rm}, $(echo rm): shell.params evaluates them
        segments = expand_text(new, values)
        if not any(kind == EXPANDED for _, kind in segments) and not changed:
            return word
        new = "".join(t for t, _ in segments)
        return Word(new, any(kind == UNKNOWN for _, kind in segments) or _process(word, new), word.glob, word.quoted)
    new = _VAR.sub(lambda m: _first(repl(m)), new)
    if not changed:
        return word
    dynamic = EXPANDS.search(new) is not None or "`" in new or _process(word, new)
    return Word(new, dynamic, word.glob, word.quoted)


_INDIRECT: Final = re.compile(r"\$\{!([A-Za-z_][A-Za-z0-9_]*)\}")
_NAME_ONLY: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _process(word: Word, new: str) -> bool:
    """Does ``new`` (``word`` with variables replaced) still hold a process substitution? ``<(echo $HOME)``
    with HOME known stays a computed word: bash runs the substitution, the word is no literal file name."""
    return word.dynamic and ("<(" in new or ">(" in new)


def has_operators(text: str) -> bool:
    """Whether ``text`` holds an expansion other than ``$name``, ``${name}`` and array elements: an operator
    (``${x/a/b}``, ``${X:-rm}``) or a command substitution."""
    if "$(" in text or "`" in text:
        return True
    if "${" not in text:
        return False
    rest = _VAR.sub("", _ARRAY_ALL.sub("", _ARRAY_ONE.sub("", text) if "[" in text else text))
    return "${" in rest


def needs_evaluation(cmd: SimpleCommand) -> bool:
    """Whether ``cmd`` holds expansions ``shell.params`` may evaluate without any value of the line
    (``$(echo rm)``, ``${X:-rm}``)."""
    if cmd.text and "$" not in cmd.text and "`" not in cmd.text:
        return False  # the common case: nothing to evaluate, no word to look at
    for w in cmd.words:
        if w.dynamic and has_operators(w.text):
            return True
    return any(v.dynamic and has_operators(v.text) for _, v in cmd.assignments)


def fields(word: Word, values: dict[str, str]) -> list[Word]:
    """``word`` with the known values substituted, as the words bash makes of it: an unquoted word whose
    expansions are all known splits on ``IFS`` (``x="rm -rf"; $x ~``); quoted, it stays one word."""
    if word.quoted or not word.dynamic:
        return [substitute(word, values)]
    text = _ARRAY_ONE.sub(lambda m: _element(m, values), word.text) if "[" in word.text else word.text
    segments = expand_text(text, values)
    if not any(kind == EXPANDED for _, kind in segments):
        return [substitute(word, values)]
    if any(kind == EXPANDED and ("$(" in t or "`" in t) for t, kind in segments):  # a loop's `$(…)`: not split
        return [Word("".join(t for t, _ in segments), True, word.glob, False)]
    ifs = values.get("IFS", DEFAULT_IFS)
    if any(kind == UNKNOWN for _, kind in segments):  # `rm${IFS}-rf${IFS}$X`: the known parts split, `$X` stays
        return [Word(f, "$" in f or "`" in f, word.glob or is_glob(f), False) for f in split_fields(segments, ifs)]
    return [Word(f, False, word.glob or is_glob(f), False) for f in split_fields(segments, ifs)]


def _element(m: re.Match, values: dict[str, str]) -> str:
    got = values.get(m.group(1))
    if got is None:
        return m.group(0)
    items = got.split(ARRAY_SEPARATOR)
    k = int(m.group(2))
    return items[k] if k < len(items) else ""


def head_readings(word: Word, values: dict[str, str]) -> list[list[str]]:
    """The literal words a computed program name may be, read with every name the line does not assign
    unset (``${X:-rm}`` → ``rm``) and set to some value (``${HOME:+rm}`` → ``rm``)."""
    out: list[list[str]] = []
    for mode in ("unset", "set"):
        segments = expand_text(word.text, values, mode)
        if any(kind == UNKNOWN for _, kind in segments):
            continue
        if word.quoted:
            got = ["".join(t for t, _ in segments)]
        else:
            got = split_fields(segments, values.get("IFS", DEFAULT_IFS))
        if got not in out:
            out.append(got)
    return out


def _first(value: str) -> str:
    """``$a`` of an array is its first element."""
    return value.split(ARRAY_SEPARATOR, 1)[0] if ARRAY_SEPARATOR in value else value


def _all_elements(word: Word, values: dict[str, str]) -> list[Word] | None:
    """``"${a[@]}"`` (the whole word) of a known array: one word per element."""
    m = _ARRAY_ALL.fullmatch(word.text)
    if m is None or m.group(1) not in values:
        return None
    return [literal(a) for a in values[m.group(1)].split(ARRAY_SEPARATOR) if a or word.quoted]


def substitute_command(cmd: SimpleCommand, values: dict[str, str]) -> SimpleCommand:
    """A copy of ``cmd`` with the known values substituted (the parse itself stays as parsed: the
    engine shares it with other checkers)."""
    words: list[Word] = []
    for w in cmd.words:
        if w.dynamic and w.text in ("$@", "$*", "${@}", "${*}") and "@" in values:
            words.extend(literal(a) for a in values["@"].split("\x00") if a)
        elif w.dynamic and (elements := _all_elements(w, values)) is not None:
            words.extend(elements)
        elif w.dynamic and w.text.startswith(("<(", ">(")):  # a file name bash makes, its code read as code
            words.append(w)  # (a `'$HOME'` in it is quoted text here, perhaps a variable later: not replaced)
        elif w.dynamic:
            words.extend(fields(w, values))
        else:
            words.append(w)
    assignments = [(k, substitute(v, values)) if v.dynamic else (k, v) for k, v in cmd.assignments]
    redirects = [Redirect(r.op, substitute(r.target, values), r.fd) if r.target is not None and r.target.dynamic
                 else r for r in cmd.redirects]
    stdin = cmd.stdin_text
    stdin_dynamic = cmd.stdin_dynamic
    if stdin is not None and stdin_dynamic and any(r.op == "<<<" for r in cmd.redirects):
        got = substitute(Word(stdin, True), values)  # `read x <<< "$y"`, `sh <<< "$c"`
        stdin, stdin_dynamic = got.text, got.dynamic
    return SimpleCommand(words, assignments, redirects, stdin, stdin_dynamic, cmd.upstream,
                         cmd.origin, cmd.text)


def learn(cmd: SimpleCommand, values: dict[str, str], conflicting: set[str]) -> None:
    """Literal assignments (``x=/tmp``, ``local y=…``, ``export Z=…``) become known values; a name
    assigned twice with different values, or a computed one, becomes unknown."""
    if cmd.words and cmd.words[0].text == "set" and len(cmd.words) > 1 and cmd.words[1].text == "--":
        args = cmd.words[2:]  # `set -- rm -fr /; "$@"`: new positional parameters
        for k in range(1, 10):
            values.pop(str(k), None)
        if any(a.dynamic for a in args):
            values.pop("@", None)
            conflicting.add("@")
            return
        values["@"] = "\x00".join(a.text for a in args)
        values.update({str(k): a.text for k, a in enumerate(args[:9], 1)})
        conflicting.discard("@")
        return
    if not cmd.assignments:
        return
    declaration = not cmd.words or cmd.words[0].text in ("export", "local", "declare", "typeset", "readonly")
    if not declaration:
        return
    if any(w.text.startswith("-") and "n" in w.text for w in cmd.words[1:2]):  # `declare -n r=HOME`: r is HOME
        for name, value in cmd.assignments:
            target = values.get(value.text)
            if target is not None and not value.dynamic:
                values[name] = target
            else:
                values.pop(name, None)
                conflicting.add(name)
        return
    for name, value in cmd.assignments:
        if cmd.origin == "loop" and (not value.dynamic or _one_substitution(value.text)):  # each copy its own value
            values[name] = value.text
            conflicting.discard(name)
            continue
        if name in conflicting:
            continue
        if name in values and not value.dynamic and "\x00" not in values[name] and re.search(
                rf"(?<![\w$]){re.escape(name)}\+=", cmd.text):
            values[name] += value.text  # `c=cu; c+=rl`: appended
            continue
        if value.dynamic or (name in values and values[name] != value.text):
            values.pop(name, None)
            conflicting.add(name)
        else:
            values[name] = value.text


def _one_substitution(text: str) -> bool:
    """Is ``text`` exactly one command substitution (``$(kubectl get ns)``), a loop's list of values?"""
    return text.startswith("$(") and text.endswith(")") and not text.startswith("$((") and text.count("$(") == 1


def positionals(args: list[Word]) -> dict[str, str]:
    """``sh -c CODE ARGS…``: the values of ``$0``…``$8`` and, joined by NULs, of ``$@``."""
    positional = {str(k): a.text for k, a in enumerate(args[:9])}
    if len(args) > 1:
        positional["@"] = "\x00".join(a.text for a in args[1:])
    return positional


def substitution_bodies(text: str) -> list[str]:
    """The commands of the ``$(…)`` and backquoted substitutions written in ``text`` (a value the line
    assigned), outermost first: what evaluating the value again runs."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n and len(out) < 8:
        if text.startswith("$(", i) and not text.startswith("$((", i):
            depth, j = 0, i + 1
            while j < n:
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                if depth == 0:
                    break
                j += 1
            out.append(text[i + 2:j])
            i = j + 1
        elif text[i] == "`" and (end := text.find("`", i + 1)) > 0:
            out.append(text[i + 1:end])
            i = end + 1
        else:
            i += 1
    return out
