"""Glob matching without regular expressions: ``fnmatch.fnmatchcase``'s answers, at a fraction of its
first-call cost.

``fnmatch`` compiles every new pattern into a regular expression (a few hundred microseconds, in pure
Python, however the analysis is built), and most globs the gate meets are new: they come from the
command being judged (``find . -name '*.log'``, ``cat src/*``). This matcher walks the pattern and the
name directly, as fnmatch would match them: ``*`` is any run of characters (``/`` included), ``?`` one
character, ``[abc]``, ``[a-z]`` and ``[!abc]`` one character of (or not of) a set, ``]`` first in a set
is a member, an unclosed ``[`` is a literal one, and a backslash is an ordinary character. Case is kept.
``tests/test_fast_paths.py`` checks it against fnmatch on generated patterns.
"""
from __future__ import annotations


def _set_end(pattern: str, i: int) -> int:
    """Where the set opened by ``pattern[i] == '['`` closes (the index of its ``]``), or -1."""
    j = i + 1
    if j < len(pattern) and pattern[j] == "!":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    return pattern.find("]", j)


def _in_set(pattern: str, start: int, end: int, c: str) -> bool:
    """Does ``c`` match the set ``pattern[start:end + 1]`` (``[`` … ``]``)?"""
    i = start + 1
    negate = i < end and pattern[i] == "!"
    if negate:
        i += 1
    found = False
    while i < end:
        lo = pattern[i]
        if i + 2 < end and pattern[i + 1] == "-":
            hi = pattern[i + 2]
            if lo <= c <= hi:
                found = True
            i += 3
        else:
            if lo == c:
                found = True
            i += 1
    return found != negate


def matches(name: str, pattern: str) -> bool:
    """``fnmatch.fnmatchcase(name, pattern)``."""
    if "*" not in pattern and "?" not in pattern and "[" not in pattern:
        return name == pattern
    n, p = 0, 0
    star_p, star_n = -1, 0  # the last ``*`` seen, and where in the name it stands for nothing yet
    while n < len(name):
        if p < len(pattern):
            c = pattern[p]
            if c == "*":
                while p < len(pattern) and pattern[p] == "*":
                    p += 1
                star_p, star_n = p, n
                continue
            if c == "?":
                n += 1
                p += 1
                continue
            if c == "[":
                end = _set_end(pattern, p)
                if end >= 0:
                    if _in_set(pattern, p, end, name[n]):
                        n += 1
                        p = end + 1
                        continue
                elif name[n] == "[":
                    n += 1
                    p += 1
                    continue
            elif c == name[n]:
                n += 1
                p += 1
                continue
        if star_p < 0:
            return False
        star_n += 1  # the last ``*`` takes one more character, and the rest is tried again
        n, p = star_n, star_p
    while p < len(pattern) and pattern[p] == "*":
        p += 1
    return p == len(pattern)
