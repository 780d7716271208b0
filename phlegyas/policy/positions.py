"""Where each key of a policy or settings file stands: tomllib and json report values without positions,
so these walkers map each key path (and array element, by index) of an already-valid document to the
line it starts on, for errors that say ``file:line``."""
from __future__ import annotations

from bisect import bisect_right
from json.decoder import scanstring  # type: ignore[attr-defined]  # public, but absent from the stubs


def json_lines(text: str) -> dict[tuple, int]:
    """``{("permissions", "allow", 0): 7, …}`` for a valid JSON text."""
    newlines = [i for i, c in enumerate(text) if c == "\n"]
    out: dict[tuple, int] = {}

    def line(pos: int) -> int:
        return bisect_right(newlines, pos - 1) + 1

    def skip(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    def value(i: int, path: tuple) -> int:
        i = skip(i)
        ch = text[i]
        if ch == "{":
            i = skip(i + 1)
            while text[i] != "}":
                key, end = scanstring(text, i + 1)
                out[path + (key,)] = line(i)
                i = skip(value(skip(end) + 1, path + (key,)))
                if text[i] == ",":
                    i = skip(i + 1)
            return i + 1
        if ch == "[":
            i, index = skip(i + 1), 0
            while text[i] != "]":
                out[path + (index,)] = line(i)
                i = skip(value(i, path + (index,)))
                if text[i] == ",":
                    i = skip(i + 1)
                index += 1
            return i + 1
        if ch == '"':
            return scanstring(text, i + 1)[1]
        while i < len(text) and text[i] not in ",]} \t\r\n":
            i += 1
        return i

    value(0, ())
    return out


_TOML_PUNCT = "[]{}=,."


def _toml_tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, line) with kind in ``[ ] { } = , . str bare nl``; comments dropped."""
    tokens: list[tuple[str, str, int]] = []
    i, line, n = 0, 1, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            tokens.append(("nl", ch, line))
            line, i = line + 1, i + 1
        elif ch in " \t\r":
            i += 1
        elif ch == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif ch in _TOML_PUNCT:
            tokens.append((ch, ch, line))
            i += 1
        elif ch in "\"'":
            end = _toml_string_end(text, i)
            tokens.append(("str", text[i:end], line))
            line += text.count("\n", i, end)
            i = end
        else:
            start = i
            while i < n and text[i] not in " \t\r\n#\"'" + _TOML_PUNCT:
                i += 1
            tokens.append(("bare", text[start:i], line))
    return tokens


def _toml_string_end(text: str, start: int) -> int:
    quote = text[start]
    delim = quote * 3 if text.startswith(quote * 3, start) else quote
    escapes = quote == '"'
    i = start + len(delim)
    while i < len(text):
        if escapes and text[i] == "\\":
            i += 2
            continue
        if text.startswith(delim, i):
            end = i + len(delim)
            if len(delim) == 3:  # up to two quotes right before the closing delimiter are content
                while end < len(text) and text[end] == quote and end - i < 5:
                    end += 1
            return end
        i += 1
    return len(text)


def _toml_key_part(token: tuple[str, str, int]) -> str:
    kind, raw, _ = token
    if kind == "bare":
        return raw
    if raw.startswith("'"):
        return raw[1:-1]
    if "\\" not in raw:
        return raw[1:-1]
    import tomllib  # lean start-up: only for an error message about an escaped TOML key

    return tomllib.loads(f"k = {raw}")["k"]


def toml_lines(text: str) -> dict[tuple, int]:
    """``{("permissions", "allow", 0): 3, …}`` for a valid TOML text (tables, dotted keys, arrays,
    inline tables); array-of-tables entries are recorded at their table's path."""
    tokens = _toml_tokens(text)
    out: dict[tuple, int] = {}
    pos, table = 0, ()

    def key(pos: int) -> tuple[tuple, int]:
        parts = [_toml_key_part(tokens[pos])]
        pos += 1
        while tokens[pos][0] == ".":
            parts.append(_toml_key_part(tokens[pos + 1]))
            pos += 2
        return tuple(parts), pos

    def record(path: tuple, line: int) -> None:
        for end in range(1, len(path)):
            out.setdefault(path[:end], line)
        out[path] = line

    def skip_nl(pos: int) -> int:
        while tokens[pos][0] == "nl":
            pos += 1
        return pos

    def value(pos: int, path: tuple) -> int:
        kind = tokens[pos][0]
        if kind == "[":
            pos, index = skip_nl(pos + 1), 0
            while tokens[pos][0] != "]":
                record(path + (index,), tokens[pos][2])
                pos = skip_nl(value(pos, path + (index,)))
                if tokens[pos][0] == ",":
                    pos = skip_nl(pos + 1)
                index += 1
            return pos + 1
        if kind == "{":
            pos = skip_nl(pos + 1)
            while tokens[pos][0] != "}":
                sub, pos = key(pos)
                record(path + sub, tokens[pos - 1][2])
                pos = skip_nl(value(pos + 1, path + sub))
                if tokens[pos][0] == ",":
                    pos = skip_nl(pos + 1)
            return pos + 1
        if kind == "str":
            return pos + 1
        while tokens[pos][0] not in (",", "]", "}", "nl"):
            pos += 1
        return pos

    tokens.append(("nl", "", -1))
    while pos < len(tokens) - 1:
        kind, _, line = tokens[pos]
        if kind == "nl":
            pos += 1
        elif kind == "[":
            double = tokens[pos + 1][0] == "["
            table, pos = key(pos + (2 if double else 1))
            if double:
                out.setdefault(table, line)
                pos += 2
            else:
                record(table, line)
                pos += 1
        else:
            sub, pos = key(pos)
            record(table + sub, line)
            pos = value(pos + 1, table + sub)
    return out
