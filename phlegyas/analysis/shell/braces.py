"""Brace expansion, as bash does it before anything else: one word becomes several, or none.

``{a,b}.txt`` → ``a.txt b.txt``; ``x{1..3}`` → ``x1 x2 x3``; ``{of=/dev/sda,}`` → ``of=/dev/sda`` (an empty
result is no word at all); ``{rm,-fr,/}`` → ``rm -fr /``. The analysis expands every fully unquoted,
literal word this way before it looks at what runs, so the program, its options and its operands are
the words bash will really pass. A word that mixes braces with quotes or an expansion is not expanded
here (``tier1.expansion`` treats it as unknown), nor one that would grow past ``MAX_WORDS``.
"""
from __future__ import annotations

from typing import Final

from phlegyas.analysis.shell.syntax import Word, is_glob

MAX_WORDS: Final = 256


def expand_word(text: str) -> list[str] | None:
    """Every word ``text`` becomes, empty ones dropped; None when the expansion passes ``MAX_WORDS``."""
    out = _expand(text)
    if out is None:
        return None
    return [w for w in out if w]


def expand_words(words: list[Word]) -> list[Word] | None:
    """``words`` with each fully unquoted literal brace word replaced by what bash makes of it; None when
    one of them grows past ``MAX_WORDS``. Returns the list itself when nothing is expanded."""
    if not any(w.glob and "{" in w.text and not w.dynamic and not w.quoted for w in words):
        return words
    out: list[Word] = []
    for word in words:
        if not (word.glob and "{" in word.text and not word.dynamic and not word.quoted):
            out.append(word)
            continue
        texts = expand_word(word.text)
        if texts is None:
            return None
        if texts == [word.text]:
            out.append(word)
        else:
            out.extend(Word(t, False, is_glob(t), False) for t in texts)
    return out


def _expand(text: str) -> list[str] | None:
    try:
        group = _first_group(text)
    except _TooMany:
        return None
    if group is None:
        return [text]
    start, end, alternatives = group
    head, tail = text[:start], text[end + 1:]
    out: list[str] = []
    for alternative in alternatives:
        more = _expand(head + alternative + tail)
        if more is None:
            return None
        out.extend(more)
        if len(out) > MAX_WORDS:
            return None
    return out


def _first_group(text: str) -> tuple[int, int, list[str]] | None:
    """The first brace group that expands: (its start, its end, its alternatives)."""
    start = text.find("{")
    while start >= 0:
        end = _closing(text, start)
        if end is None:
            return None
        body = text[start + 1:end]
        alternatives = _alternatives(body)
        if alternatives is None:
            alternatives = _sequence(body)
        if alternatives is not None:
            return start, end, alternatives
        start = text.find("{", start + 1)  # ``{a}`` or ``{}``: literal, look further
    return None


def _closing(text: str, start: int) -> int | None:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return None


def _alternatives(body: str) -> list[str] | None:
    """``a,b{c,d}`` → ``["a", "b{c,d}"]``; None without a comma at the top level."""
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in body:
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        current.append(ch)
    parts.append("".join(current))
    return parts if len(parts) > 1 else None


def _sequence(body: str) -> list[str] | None:
    """``1..3``, ``-1..1``, ``01..10``, ``a..e``, ``1..10..3``: the words of a sequence expression, or None."""
    pieces = body.split("..")
    if len(pieces) not in (2, 3):
        return None
    first, last = pieces[0], pieces[1]
    step_text = pieces[2] if len(pieces) == 3 else "1"
    if not _is_int(step_text):
        return None
    step = abs(int(step_text)) or 1
    if _is_int(first) and _is_int(last):
        a, b = int(first), int(last)
        if abs(b - a) // step >= MAX_WORDS:
            raise _TooMany
        pad = any(len(p.lstrip("+-")) > 1 and p.lstrip("+-").startswith("0") for p in (first, last))
        width = max(len(first), len(last)) if pad else 0
        values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [_padded(v, width) for v in values]
    if len(first) == 1 and len(last) == 1 and (first + last).isascii() and (first + last).isalpha():
        a, b = ord(first), ord(last)
        values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [chr(v) for v in values]
    return None


def _padded(value: int, width: int) -> str:
    if not width:
        return str(value)
    return "-" + str(-value).zfill(width - 1) if value < 0 else str(value).zfill(width)


class _TooMany(Exception):
    """A sequence longer than MAX_WORDS."""


def _is_int(text: str) -> bool:
    body = text[1:] if text[:1] in "+-" else text
    return body.isdigit() and len(body) < 10
