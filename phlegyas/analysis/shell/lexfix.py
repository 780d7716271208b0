"""Source rewrites that make tree-sitter-bash read a line as bash does, where its grammar differs.

- ``join_continuations``: a backslash-newline outside single quotes and comments is removed before bash
  splits the line into words (``r\\<newline>m -rf ~`` is ``rm -rf ~``); tree-sitter makes two words of it.
- ``unquoted_positions`` finds an operator outside quotes (``<>``, which this grammar does not know: the
  parser is given ``< `` in its place, of the same length, and ``shell.parse`` puts the ``<>`` back).
- ``move_herestrings``: the grammar takes a here-string only before the other redirections
  (``cat <<< x > f``); ``cat > f <<< x`` is an error to it. The here-string is moved right after the
  command's words, which changes nothing (it is the only redirection of fd 0 there).

- ``restore_dropped``: the grammar drops a ``-`` (or ``--``) word right before a heredoc (``make -f - <<EOF``
  reads as ``make -f``); the words are put back, and any other text skipped there makes the line not
  understood.

Each is tried only on lines that need it (a backslash-newline, a ``<>``, or a parse error with ``<<<``),
so the plain lines of the fast path never pay for them.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Final

from phlegyas.analysis.shell.syntax import Script, SimpleCommand, Word

_COMMENT_AFTER: Final = frozenset(" \t\n;&|()")


def _scan(src: str, on_unquoted: Any = None) -> str:
    """``src`` with its backslash-newlines outside single quotes and comments removed; ``on_unquoted(i)``
    is called for each index outside any quotes (of the original string)."""
    out: list[str] = []
    i = 0
    n = len(src)
    state = ""  # "" | "'" | '"' | "$'" | "#"
    while i < n:
        ch = src[i]
        if state == "'":
            out.append(ch)
            if ch == "'":
                state = ""
            i += 1
            continue
        if state == "#":
            out.append(ch)
            if ch == "\n":
                state = ""
            i += 1
            continue
        if state == "$'":
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(src[i + 1])
                i += 2
                continue
            if ch == "'":
                state = ""
            i += 1
            continue
        if ch == "\\":
            if i + 1 < n and src[i + 1] == "\n":
                i += 2  # a line continuation: gone, in double quotes too
                continue
            out.append(src[i:i + 2])
            i += 2
            continue
        if state == '"':
            out.append(ch)
            if ch == '"':
                state = ""
            i += 1
            continue
        if on_unquoted is not None:
            on_unquoted(i)
        if ch == "'":
            state = "'"
        elif ch == '"':
            state = '"'
        elif ch == "$" and src.startswith("$'", i):
            out.append("$'")
            state = "$'"
            i += 2
            continue
        elif ch == "#" and (i == 0 or src[i - 1] in _COMMENT_AFTER):
            state = "#"
        out.append(ch)
        i += 1
    return "".join(out)


def join_continuations(src: str) -> str:
    """``src`` with the backslash-newlines bash removes (outside single quotes and comments) removed."""
    return _scan(src)


def unquoted_positions(src: str, operator: str) -> list[int]:
    """Where ``operator`` starts outside quotes and comments in ``src`` (a line without backslash-newlines)."""
    found: list[int] = []
    first = operator[0]

    def note(i: int) -> None:
        if src[i] == first and src.startswith(operator, i):
            found.append(i)

    _scan(src, note)
    return found


def open_read_write(src: str) -> tuple[str, list[int]] | None:
    """``src`` with every unquoted ``<>`` replaced by ``< `` (same length), and where they were; None
    when there is none."""
    at = unquoted_positions(src, "<>")
    if not at:
        return None
    chars = list(src)
    for i in at:
        chars[i + 1] = " "
    return "".join(chars), at


def move_herestrings(data: bytes, root: Any) -> bytes | None:
    """``cmd > f <<< word``: tree-sitter's error for a here-string after a file redirection (an ``ERROR``
    node ``<<`` followed by a redirection ``< word``) repaired by moving ``<<< word`` right after the
    command's words; None when the tree has no such error."""
    found = _misplaced_herestring(root, data)
    if found is None:
        return None
    body_end, start, end = found
    moved = data[start:end]
    rest = data[:start].rstrip(b" \t") + data[end:]
    return rest[:body_end] + b" " + moved + rest[body_end:]


def _misplaced_herestring(node: Any, data: bytes) -> tuple[int, int, int] | None:
    if node.type == "redirected_statement":
        body = node.child_by_field_name("body")
        children = node.children
        for k, child in enumerate(children[:-1]):
            if child.type != "ERROR" or body is None or body.type != "command":
                continue
            nxt = children[k + 1]
            if data[child.start_byte:child.end_byte] == b"<<" and nxt.type == "file_redirect" \
                    and nxt.start_byte == child.end_byte and nxt.children and nxt.children[0].type == "<":
                return body.end_byte, child.start_byte, nxt.end_byte
    for child in node.children:
        if child.has_error:
            got = _misplaced_herestring(child, data)
            if got is not None:
                return got
    return None


def repair(data: bytes, root: Any, reparse: Callable[[bytes], Any]) -> tuple[bytes, Any, frozenset[int]] | None:
    """The tree of ``data`` rewritten where the grammar differs from bash (``<>``, a here-string after a
    file redirection), with the byte offsets of the ``<>`` given as ``< ``, when the rewritten line parses
    without an error; None otherwise."""
    read_write: frozenset[int] = frozenset()
    for _ in range(4):
        if b"<>" in data and not read_write:
            text = data.decode("utf-8", "surrogatepass")
            got = open_read_write(text)
            if got is not None:
                data = got[0].encode("utf-8", "surrogatepass")
                read_write = frozenset(len(text[:i].encode("utf-8", "surrogatepass")) for i in got[1])
                root = reparse(data)
                if not root.has_error:
                    return data, root, read_write
                continue
        moved = move_herestrings(data, root) if b"<<<" in data else None
        if moved is None or read_write:  # (a move would shift the offsets of the `<>`)
            return None
        data = moved
        root = reparse(data)
        if not root.has_error:
            return data, root, read_write
    return None


def _gap(src: bytes, node: Any, body: Any) -> str:
    """The text between a redirected statement's command and its first redirection."""
    for child in node.children:
        if child != body and child.start_byte >= body.end_byte:
            return src[body.end_byte:child.start_byte].decode("utf-8", "replace")
    return ""


def restore_dropped(src: bytes, node: Any, body: Any, cmd: SimpleCommand) -> bool:
    """Put back the ``-``/``--`` words tree-sitter left out between ``body`` (``cmd``'s node) and the first
    redirection of the ``redirected_statement`` ``node``; False when it left out any other text."""
    gap = _gap(src, node, body)
    tokens = gap.split()
    if not tokens:
        return True
    if not all(t in ("-", "--") for t in tokens):
        return False
    cmd.words.extend(Word(t) for t in tokens)
    cmd.text = (cmd.text + gap).rstrip()
    return True


def join_last(words: list[Word], assignments: list[tuple[str, Word]] | None) -> None:
    """The last word joined to the word (or, given ``assignments``, the assignment's value) before it: the
    one word bash reads where tree-sitter saw two with nothing between (``rm$IFS-rf$IFS/`` parses as
    ``rm$IFS-rf$`` and ``IFS/``, ``x=a$IFS-b$IFS/`` as ``x=a$IFS-b$`` and a command ``IFS/``)."""
    b = words.pop()
    if assignments is None:
        a = words.pop()
        words.append(Word(a.text + b.text, a.dynamic or b.dynamic, a.glob or b.glob, a.quoted and b.quoted))
    else:
        name, a = assignments.pop()
        assignments.append((name, Word(a.text + b.text, a.dynamic or b.dynamic, a.glob or b.glob,
                                       a.quoted and b.quoted)))


def unmark(word: Word, mark: str) -> Word:
    """A word of ``parse._brace_words`` with its marked ``{`` back, as a brace expansion (``glob``)."""
    if mark not in word.text:
        return word
    return Word(word.text.replace(mark, "{"), word.dynamic, not word.quoted, word.quoted)


def wire_feeds(script: Script, feeds: list[tuple[SimpleCommand, int, int]]) -> None:
    """``curl … > >(bash)``: what a command writes into an output process substitution is the stdin of the
    commands inside it, as ``curl … | bash`` would be; the first command of each stage there reads it."""
    for writer, start, end in feeds:
        at = next((i for i, c in enumerate(script.commands) if c is writer), None)
        if at is None:
            continue
        for idx in range(start, min(end, len(script.commands))):
            reader = script.commands[idx]
            if not reader.upstream and idx != at:
                reader.upstream.append(at)


_INDEXED: Final = re.compile(r"\[(\d{1,3})\]=(.*)", re.S)


def indexed_elements(texts: list[str]) -> list[str] | None:
    """The elements of an array written with indices (``([2]=/srv [0]=r [1]=m)`` → ``r m /srv``), gaps
    empty; None when the elements are not all ``[N]=value``."""
    found = [_INDEXED.fullmatch(t) for t in texts]
    if not texts or not all(found):
        return None
    slots = {int(m.group(1)): m.group(2) for m in found if m is not None}
    return [slots.get(i, "") for i in range(max(slots) + 1)]


def globbed(texts: list[str]) -> bool:
    """Whether an element of an indexed array is a glob (its ``[N]=`` is none)."""
    return any(c in t for t in texts for c in "*?[")
