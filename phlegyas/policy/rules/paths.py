"""Path rules (``Read(//etc/**)``, ``Edit(src/*)``): gitignore-style patterns, anchored at the file
system root, the home directory, the rule's project root or the working directory, and the matcher
that applies them to file tools and to the directories Glob and Grep search.
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from phlegyas.analysis.paths import expand_home, is_within, normalize
from phlegyas.policy.rules.rule import DIR_TOOLS, FILE_KEYS, Rule
from phlegyas.policy.rules.view import CallView, Matcher

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
class PathPattern:
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
    def compile(cls, spec: str, fail) -> "PathPattern":
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

    def base_in(self, view: CallView, rule: Rule, cwd: str | None, each: bool) -> str | None:
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
class PathMatcher(Matcher):
    pattern: PathPattern

    def matches(self, rule: Rule, view: CallView, each: bool) -> bool:
        call = view.call
        if call.tool_name in DIR_TOOLS:
            return self._match_search(rule, view, each)
        raw = call.tool_input.get(FILE_KEYS.get(call.tool_name, "file_path"))
        path = _resolve(raw, view)
        if path is None:
            return not each  # nothing to read: never allow, and fail closed for deny and ask
        return any(self.pattern.match_file(path, base, each) for base in self._bases(rule, view, path, each))

    def _bases(self, rule: Rule, view: CallView, path: str, each: bool) -> list[str]:
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

    def _match_search(self, rule: Rule, view: CallView, each: bool) -> bool:
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


def _resolve(raw, view: CallView) -> str | None:
    """``raw`` as an absolute normalized path, or None when it is not a usable path."""
    if not isinstance(raw, str) or not raw or "\x00" in raw:
        return None
    return view.memo(("path", raw), lambda: _normalized(raw, view))


def _normalized(raw: str, view: CallView) -> str | None:
    expanded = expand_home(raw, view.home)
    if not expanded.startswith("/") and view.cwd is None:
        return None
    return normalize(raw, view.cwd or "/", view.home)


def _glob_root(pattern, directory: str, view: CallView) -> str | None:
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
