"""Parameter expansion with literal values, as bash does it: ``${x/x/r}``, ``${X:-rm}``, ``${!y}``, ``$(echo rm)``.

``expand_text`` evaluates the expansions of a word's text (``shell.parse`` keeps them in their source form)
with the values a line assigns (``shell.variables.learn``): the operators bash defines (default, assign,
alternate and error ``:- - := = :+ + :? ?``, length ``#``, substring ``:off:len``, pattern removal
``# ## % %%``, replacement ``/ // /# /%``, case ``,, ^^ , ^``, indirection ``!``) and the command
substitutions whose output is literal (``$(echo rm)``, `` `printf rm` ``, ``$(echo … | base64 -d)``).
The result is a list of segments: literal text of the word, text an expansion produced (which an
unquoted word splits on ``IFS``), and expansions left as written because their value is not known.

``mode`` says what a name the line never assigns holds: ``known`` (unknown: the expansion is left as
written), ``unset`` (the reading where it is unset: ``${X:-rm}`` is ``rm``) or ``set`` (set to some
non-empty value: ``${X:+rm}`` is ``rm``, anything that needs the value itself stays unknown).
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.shell.stdin import substitution_output
from phlegyas.analysis.shell.typed_output import typed_output

LITERAL, EXPANDED, UNKNOWN = 0, 1, 2
Segment = tuple[str, int]

_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-]")
_SIMPLE: Final = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])")
_SPECIAL: Final = frozenset("@*#?$!-")
_MAX_LENGTH: Final = 4096


class _Unknown(Exception):
    """The value cannot be known in this mode."""


def expand_text(text: str, values: dict[str, str], mode: str = "known") -> list[Segment]:
    """The segments of ``text`` with every expansion that can be evaluated replaced by its value."""
    out: list[Segment] = []
    literal: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "`":
            end = text.find("`", i + 1)
            if end < 0:
                literal.append(text[i:])
                break
            got = _substitution("$(" + text[i + 1:end] + ")")
            _flush(out, literal)
            out.append((text[i:end + 1], UNKNOWN) if got is None else (got, EXPANDED))
            i = end + 1
            continue
        if ch != "$" or i + 1 >= n:
            literal.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "{":
            end = _closing(text, i + 1, "{", "}")
            if end < 0:
                literal.append(text[i:])
                break
            _flush(out, literal)
            try:
                out.append((_braced(text[i + 2:end], values, mode), EXPANDED))
            except _Unknown:
                out.append((text[i:end + 1], UNKNOWN))
            i = end + 1
        elif nxt == "(":
            end = _closing(text, i + 1, "(", ")")
            if end < 0:
                literal.append(text[i:])
                break
            _flush(out, literal)
            got = None if text.startswith("$((", i) else _substitution(text[i:end + 1])
            out.append((text[i:end + 1], UNKNOWN) if got is None else (got, EXPANDED))
            i = end + 1
        else:
            m = _SIMPLE.match(text, i)
            if m is None:
                literal.append(ch)
                i += 1
                continue
            _flush(out, literal)
            value = _lookup(m.group(1), values, mode)
            out.append((m.group(), UNKNOWN) if value is None else (value, EXPANDED))
            i = m.end()
    _flush(out, literal)
    return out


def _flush(out: list[Segment], literal: list[str]) -> None:
    if literal:
        out.append(("".join(literal), LITERAL))
        literal.clear()


def _substitution(text: str) -> str | None:
    got = substitution_output(text)
    if got is None:  # `$(git merge-base main HEAD)`, `$(date +%F)`: a value of a known, plain kind
        return typed_output(text)
    return got.rstrip("\n")


def _closing(text: str, start: int, open_: str, close: str) -> int:
    """The index of the ``close`` that matches the ``open_`` at ``start`` (quotes skipped), or -1."""
    depth = 0
    i, n = start, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "'" and open_ == "(":
            end = text.find("'", i + 1)
            if end < 0:
                return -1
            i = end + 1
            continue
        if ch == open_:
            depth += 1
        elif ch == close:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _lookup(name: str, values: dict[str, str], mode: str) -> str | None:
    """The value of ``name`` (None: unknown); in ``unset`` mode a name the line never assigns is empty."""
    if name in values:
        value = values[name]
        return value.split("\x00", 1)[0] if "\x00" in value and name != "@" else value.replace("\x00", " ")
    if mode == "unset" and name not in _SPECIAL and not name.isdigit():
        return ""
    return None


def _state(name: str, values: dict[str, str], mode: str) -> tuple[bool, str | None]:
    """Whether ``name`` is set, and its value (None: set to a value that is not known)."""
    if name in values:
        return True, _lookup(name, values, mode)
    if name in _SPECIAL or name.isdigit() or mode == "known":
        raise _Unknown
    if mode == "unset":
        return False, ""
    return True, None


def _braced(body: str, values: dict[str, str], mode: str) -> str:
    """The value of ``${body}``; raises ``_Unknown`` when it cannot be known."""
    if body.startswith("#") and len(body) > 1 and _NAME.fullmatch(body[1:]):
        value = _state(body[1:], values, mode)[1]
        if value is None:
            raise _Unknown
        return str(len(value))
    indirect = body.startswith("!") and len(body) > 1
    m = _NAME.match(body, 1 if indirect else 0)
    if m is None:
        raise _Unknown
    name, rest = m.group(), body[m.end():]
    if rest.startswith("["):
        raise _Unknown  # an array element or ${!a[@]}
    if indirect:
        if rest in ("*", "@"):
            raise _Unknown  # ${!prefix*}: the names that start with prefix
        target = _state(name, values, mode)[1]
        if target is None or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]", target):
            raise _Unknown
        name = target
    if not rest:
        value = _state(name, values, mode)[1]
        if value is None:
            raise _Unknown
        return value
    return _operator(name, rest, values, mode)


def _operator(name: str, rest: str, values: dict[str, str], mode: str) -> str:
    is_set, value = _state(name, values, mode)
    colon = rest.startswith(":")
    op = rest[1:2] if colon else rest[:1]
    if op in ("-", "=", "+", "?") and (colon or rest[:1] in "-=+?"):
        word = rest[2:] if colon else rest[1:]
        if op == "+":
            if not is_set:
                return ""
            # (value None: the `set` mode's reading, a value that is not empty)
            return "" if colon and value == "" else _word(word, values, mode)
        if is_set and value is None:
            raise _Unknown
        empty = not is_set or (colon and value == "")
        if op == "?" and empty:
            raise _Unknown  # the shell stops with an error
        return _word(word, values, mode) if empty else (value or "")
    if value is None:
        raise _Unknown
    if colon:
        return _substring(value, rest[1:], values)
    for pre in ("##", "#", "%%", "%"):
        if rest.startswith(pre):
            return _remove(value, pre, _pattern(rest[len(pre):], values, mode))
    if rest.startswith("/"):
        return _replace(value, rest[1:], values, mode)
    if rest in (",,", "^^", ",", "^"):
        if rest == ",,":
            return value.lower()
        if rest == "^^":
            return value.upper()
        return (value[:1].lower() if rest == "," else value[:1].upper()) + value[1:]
    raise _Unknown  # ${x@Q} and the other transformations, ${x,,pattern}


def _word(word: str, values: dict[str, str], mode: str) -> str:
    """A word inside ``${…}`` (the default of ``:-``, a pattern's replacement): quotes removed, expanded."""
    out: list[str] = []
    i, n = 0, len(word)
    while i < n:
        ch = word[i]
        if ch == "'":
            end = word.find("'", i + 1)
            if end < 0:
                raise _Unknown
            out.append(word[i + 1:end])
            i = end + 1
        elif ch == '"':
            end = i + 1
            while end < n and word[end] != '"':
                end += 2 if word[end] == "\\" else 1
            if end >= n:
                raise _Unknown
            out.append(_expanded(word[i + 1:end].replace('\\"', '"').replace("\\\\", "\\"), values, mode))
            i = end + 1
        elif ch == "\\" and i + 1 < n:
            out.append(word[i + 1])
            i += 2
        elif ch == "$" or ch == "`":
            j = i + 1
            while j < n and word[j] not in "'\"\\":
                j += 1
            out.append(_expanded(word[i:j], values, mode))
            i = j
        else:
            out.append(ch)
            i += 1
    got = "".join(out)
    if len(got) > _MAX_LENGTH:
        raise _Unknown
    return got


def _expanded(text: str, values: dict[str, str], mode: str) -> str:
    segments = expand_text(text, values, mode)
    if any(kind == UNKNOWN for _, kind in segments):
        raise _Unknown
    return "".join(t for t, _ in segments)


def _pattern(text: str, values: dict[str, str], mode: str) -> re.Pattern[str]:
    """A bash pattern (``*``, ``?``, ``[…]``, quoted or escaped characters literal) as a regex."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            out.append(re.escape(text[i + 1]))
            i += 2
        elif ch == "'" or ch == '"' or ch == "$" or ch == "`":
            j = i + 1
            if ch in "'\"":
                j = text.find(ch, i + 1) + 1
                if j <= 0:
                    raise _Unknown
            else:
                while j < n and text[j] not in "*?[\\'\"":
                    j += 1
            out.append(re.escape(_word(text[i:j], values, mode)))
            i = j
        elif ch == "*":
            out.append(".*")
            i += 1
        elif ch == "?":
            out.append(".")
            i += 1
        elif ch == "[":
            end = text.find("]", i + 2)
            if end < 0:
                out.append(re.escape(ch))
                i += 1
                continue
            body = text[i + 1:end]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            out.append("[" + ("^" if negate else "") + body.replace("\\", "\\\\").replace("[", "\\[") + "]")
            i = end + 1
        else:
            out.append(re.escape(ch))
            i += 1
    try:
        return re.compile("".join(out), re.DOTALL)
    except re.error:
        raise _Unknown from None


def _remove(value: str, op: str, pattern: re.Pattern[str]) -> str:
    n = len(value)
    if op in ("#", "##"):
        cuts = range(n + 1) if op == "#" else range(n, -1, -1)
        for k in cuts:
            if pattern.fullmatch(value, 0, k):
                return value[k:]
        return value
    cuts = range(n, -1, -1) if op == "%" else range(n + 1)
    for k in cuts:
        if pattern.fullmatch(value, k, n):
            return value[:k]
    return value


def _replace(value: str, spec: str, values: dict[str, str], mode: str) -> str:
    """``${x/pat/rep}`` (``spec`` is what follows the first ``/``): ``/`` every match, ``#`` at the start,
    ``%`` at the end; the longest match each time."""
    how = spec[:1] if spec[:1] in ("/", "#", "%") else ""
    spec = spec[1:] if how else spec
    cut = _unescaped_slash(spec)
    pat_text, rep_text = (spec, "") if cut < 0 else (spec[:cut], spec[cut + 1:])
    if not pat_text:
        return value
    pattern = _pattern(pat_text, values, mode)
    rep = _word(rep_text, values, mode)
    n = len(value)
    if how == "#":
        for k in range(n, -1, -1):
            if pattern.fullmatch(value, 0, k):
                return rep + value[k:]
        return value
    if how == "%":
        for k in range(n + 1):
            if pattern.fullmatch(value, k, n):
                return value[:k] + rep
        return value
    out: list[str] = []
    i = 0
    while i < n:
        for k in range(n, i, -1):
            if pattern.fullmatch(value, i, k):
                out.append(rep)
                i = k
                break
        else:
            out.append(value[i])
            i += 1
            continue
        if how != "/":
            out.append(value[i:])
            return "".join(out)
    return "".join(out)


def _unescaped_slash(text: str) -> int:
    i = 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == "/":
            return i
        i += 1
    return -1


def _substring(value: str, spec: str, values: dict[str, str]) -> str:
    """``${x:off}``, ``${x:off:len}``, ``${x: -1}``, ``${x:(-2):1}`` with integer literals."""
    parts = spec.split(":")
    if len(parts) > 2:
        raise _Unknown
    nums = [_integer(p, values) for p in parts]
    n = len(value)
    start = nums[0] if nums[0] >= 0 else max(n + nums[0], 0)
    if start > n:
        return ""
    if len(nums) == 1:
        return value[start:]
    length = nums[1]
    end = start + length if length >= 0 else n + length
    if end < start:
        raise _Unknown  # bash: substring expression < 0
    return value[start:end]


def _integer(text: str, values: dict[str, str]) -> int:
    text = text.strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text) and text in values:
        text = values[text].strip()
    if not re.fullmatch(r"[-+]?[0-9]{1,6}", text):
        raise _Unknown
    return int(text)


def split_fields(segments: list[Segment], ifs: str) -> list[str]:
    """The fields an unquoted word's segments make: the text of expansions splits on ``ifs`` (its blanks
    in runs, each other character on its own), literal text does not."""
    fields: list[str] = []
    current: list[str] = []
    started = False  # the current field has something (literal text, or a non-separator character)
    blanks = "".join(c for c in ifs if c in " \t\n")
    for text, kind in segments:
        if kind != EXPANDED or not ifs:
            current.append(text)
            started = started or bool(text)
            continue
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch not in ifs:
                current.append(ch)
                started = True
                i += 1
                continue
            j = i
            while j < n and text[j] in blanks:
                j += 1
            hard = j < n and text[j] in ifs  # (not a blank: those were skipped)
            if hard:
                j += 1
                while j < n and text[j] in blanks:
                    j += 1
            if started or hard:
                fields.append("".join(current))
            current = []
            started = False
            i = j
    if started:
        fields.append("".join(current))
    return fields
