"""What an interpreter one-liner prints, when its code only prints literals: ``python3 -c
'print("rm -rf ~")'``, ``perl -e 'print "rm -rf ~\\n"'``, ``node -e 'console.log(…)'``, ``ruby -e 'puts …'``,
``php -r 'echo …;'`` and ``awk 'BEGIN{printf "%c%c -rf %s\\n", 114, 109, ENVIRON["HOME"]}'``. Piped into a
shell (``… | sh``) or substituted (``$(…)``), that text is the code that runs, analysed as if written out.

Python is read with ``ast`` and folded from constants (strings, ``+``, ``*``, ``chr``, ``''.join``, ``[::-1]``,
``base64.b64decode(…).decode()``, ``bytes.fromhex(…).decode()``); the other languages are read statement by
statement, each a print of string literals, character codes and the home directory joined by the language's
concatenation. Anything else, or more than a few kilobytes, is not literal: None. The home directory
(``os.path.expanduser("~")``, ``$ENV{HOME}``, ``ENVIRON["HOME"]``, ``process.env.HOME``) prints as ``$HOME``,
which the shell that reads the text expands again.
"""
from __future__ import annotations

import ast
import base64
import binascii
import re
from typing import Final

from phlegyas.analysis.shell.pyast import attribute_path, dotted_name

_LANGS: Final = {"python": "python", "python3": "python", "python2": "python", "pypy3": "python",
                 "perl": "perl", "ruby": "ruby", "node": "js", "nodejs": "js", "bun": "js", "php": "php",
                 "awk": "awk", "gawk": "awk", "mawk": "awk", "nawk": "awk"}
PRINTERS: Final = frozenset(_LANGS)
_CODE_FLAGS: Final = {"python": ("-c",), "perl": ("-e", "-E"), "ruby": ("-e",), "js": ("-e", "--eval", "-p", "--print"),
                      "php": ("-r",)}
_MAX: Final = 4000
_HOME: Final = "$HOME"


class _NotLiteral(Exception):
    pass


def printed(program: str, args: list[str]) -> str | None:
    """The text ``program ARGS`` prints, when its code prints only literals; None otherwise."""
    lang = _LANGS.get(program)
    if lang is None:
        return None
    code = _awk_program(args) if lang == "awk" else _code(args, _CODE_FLAGS[lang])
    if code is None or len(code) > _MAX:
        return None
    try:
        if lang == "python":
            return _python(code)
        if lang == "awk":
            return _awk(code)
        return _statements(code, lang)
    except (_NotLiteral, ValueError, TypeError, IndexError, SyntaxError, RecursionError, UnicodeError,
            binascii.Error, OverflowError):
        return None


def _code(args: list[str], flags: tuple[str, ...]) -> str | None:
    """The code of ``-c CODE`` (or ``-e``…) when it is the only thing given (no script, no other option)."""
    if len(args) == 2 and args[0] in flags:
        return args[1]
    if len(args) == 1 and args[0][:2] in flags and len(args[0]) > 2 and not args[0].startswith("--"):
        return args[0][2:]
    return None


def _awk_program(args: list[str]) -> str | None:
    """awk's program when it reads no file and runs only ``BEGIN`` (``awk 'BEGIN{…}'``)."""
    if len(args) != 1 or args[0].startswith("-"):
        return None
    return args[0]


# -- Python --------------------------------------------------------------------------------------------

_PY_IMPORTS: Final = frozenset({"base64", "codecs", "binascii", "sys", "os", "os.path"})


def _python(code: str) -> str:
    out: list[str] = []
    for stmt in ast.parse(code).body:
        if isinstance(stmt, ast.Import) and all(a.name in _PY_IMPORTS and a.asname is None for a in stmt.names):
            continue
        if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
            raise _NotLiteral
        call = stmt.value
        if isinstance(call.func, ast.Name) and call.func.id == "print":
            sep, end = " ", "\n"
            for kw in call.keywords:
                if kw.arg == "sep":
                    sep = _py_str(kw.value)
                elif kw.arg == "end":
                    end = _py_str(kw.value)
                else:
                    raise _NotLiteral
            out.append(sep.join(_py_str(a) for a in call.args) + end)
        elif _dotted(call.func) == "sys.stdout.write" and len(call.args) == 1 and not call.keywords:
            out.append(_py_str(call.args[0]))
        else:
            raise _NotLiteral
        if sum(map(len, out)) > _MAX:
            raise _NotLiteral
    return "".join(out)


def _dotted(node: ast.AST) -> str:
    """The dotted name of an expression on a name (``os.path.expanduser``) or on ``__import__('os')``; else ""."""
    parts, base = attribute_path(node)
    if isinstance(base, ast.Name):
        return dotted_name(node)
    if isinstance(base, ast.Call) and _dotted(base.func) == "__import__" and len(base.args) == 1 and isinstance(
            base.args[0], ast.Constant) and base.args[0].value in _PY_IMPORTS:  # `__import__('os').path…`
        return ".".join([str(base.args[0].value), *reversed(parts)])
    return ""


def _py_str(node: ast.AST) -> str:
    value = _py_value(node)
    if isinstance(value, bytes):
        raise _NotLiteral
    return value if isinstance(value, str) else str(value)


def _py_value(node: ast.AST) -> str | int | bytes:
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, bytes)) and not isinstance(
            node.value, bool):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_py_str(v.value if isinstance(v, ast.FormattedValue) else v) for v in node.values)
    if isinstance(node, ast.BinOp):
        left, right = _py_value(node.left), _py_value(node.right)
        if isinstance(node.op, ast.Add) and type(left) is type(right) and not isinstance(left, int):
            return left + right  # type: ignore[operator]
        if isinstance(node.op, ast.Mult) and isinstance(right, int) and isinstance(left, str) and right < 100:
            return left * right
        raise _NotLiteral
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):  # `"~ fr- mr"[::-1]`
        s = node.slice
        value = _py_value(node.value)
        if s.lower is None and s.upper is None and isinstance(s.step, ast.UnaryOp) and isinstance(
                s.step.op, ast.USub) and isinstance(s.step.operand, ast.Constant) and s.step.operand.value == 1:
            if isinstance(value, int):
                raise _NotLiteral
            return value[::-1]
        raise _NotLiteral
    if isinstance(node, ast.Call):
        return _py_call(node)
    raise _NotLiteral


def _py_call(node: ast.Call) -> str | int | bytes:
    name = _dotted(node.func)
    args = node.args
    if node.keywords:
        raise _NotLiteral
    if name == "chr" and len(args) == 1:
        code = _py_value(args[0])
        if not isinstance(code, int):
            raise _NotLiteral
        return chr(code)
    if name in ("os.path.expanduser", "os.getenv", "os.environ.get") and len(args) == 1:
        given = _py_value(args[0])
        if given == "~" or given == "HOME":
            return _HOME
        if isinstance(given, str) and given.startswith("~/"):
            return _HOME + given[1:]
        raise _NotLiteral
    if name in ("base64.b64decode", "base64.standard_b64decode", "bytes.fromhex", "binascii.unhexlify") and len(
            args) == 1:
        data = _py_value(args[0])
        if isinstance(data, int):
            raise _NotLiteral
        return base64.b64decode(data) if name.startswith("base64") else bytes.fromhex(
            data.decode() if isinstance(data, bytes) else data)
    if isinstance(node.func, ast.Attribute) and node.func.attr == "decode" and len(args) <= 1:
        data = _py_value(node.func.value)
        if not isinstance(data, bytes):
            raise _NotLiteral
        return data.decode("utf-8", "replace")
    if isinstance(node.func, ast.Attribute) and node.func.attr == "join" and len(args) == 1:
        glue = _py_value(node.func.value)
        if not isinstance(glue, str):
            raise _NotLiteral
        return glue.join(_py_items(args[0]))
    raise _NotLiteral


def _py_items(node: ast.AST) -> list[str]:
    """The strings of a literal list or tuple, or of ``map(chr, [114, 109])``."""
    if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) <= 400:
        return [_py_str(e) for e in node.elts]
    if isinstance(node, ast.Call) and _dotted(node.func) == "map" and len(node.args) == 2 and _dotted(
            node.args[0]) == "chr" and isinstance(node.args[1], (ast.List, ast.Tuple)):
        codes = [_py_value(e) for e in node.args[1].elts]
        if not all(isinstance(c, int) for c in codes):
            raise _NotLiteral
        return [chr(c) for c in codes if isinstance(c, int)]
    raise _NotLiteral


# -- awk, Perl, Ruby, JavaScript, PHP ---------------------------------------------------------------------

_STRING: Final = r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'"
_TERM: Final = re.compile(
    r"\s*(?:(?P<s>" + _STRING + r")|(?P<home>\$ENV\{\s*['\"]?HOME['\"]?\s*\}|ENV\[\s*['\"]HOME['\"]\s*\]|"
    r"process\.env\.HOME|getenv\(\s*['\"]HOME['\"]\s*\)|ENVIRON\[\s*\"HOME\"\s*\]|Dir\.home)|"
    r"(?:chr|String\.fromCharCode)\(\s*(?P<codes>\d+(?:\s*,\s*\d+)*)\s*\)|(?P<num>\d+))\s*")
_PRINT: Final = {
    "perl": re.compile(r"^(?:print|say)\b\s*\(?(?P<e>.*?)\)?$", re.S),
    "ruby": re.compile(r"^(?:puts|print|\$stdout\.write|STDOUT\.puts)\b\s*\(?(?P<e>.*?)\)?$", re.S),
    "js": re.compile(r"^(?:console\.log|process\.stdout\.write)\s*\((?P<e>.*)\)$", re.S),
    "php": re.compile(r"^(?:echo|print)\b\s*\(?(?P<e>.*?)\)?$", re.S),
}
_NEWLINE_AFTER: Final = {"ruby": ("puts", "STDOUT.puts"), "js": ("console.log",), "perl": ("say",)}
_JOIN: Final = {"perl": ".", "ruby": "+", "js": "+", "php": "."}
_ESCAPES: Final = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "$": "$", "0": "\0", "e": "\x1b",
                   "r": "\r", "/": "/"}


def _statements(code: str, lang: str) -> str:
    out: list[str] = []
    for stmt in _split(code, ";"):
        stmt = stmt.strip()
        if not stmt:
            continue
        m = _PRINT[lang].match(stmt)
        if m is None:
            raise _NotLiteral
        head = stmt.split("(", 1)[0].split()[0]
        sep = "," if lang != "php" else "."
        parts = [_terms(p, _JOIN[lang], lang) for p in _split(m.group("e"), sep)]
        glue = "\n" if lang == "ruby" and head == "puts" else " " if lang == "js" else ""
        text = glue.join(parts)
        out.append(text + ("\n" if head in _NEWLINE_AFTER.get(lang, ()) and not text.endswith("\n") else ""))
    return "".join(out)


def _terms(expr: str, join: str, lang: str) -> str:
    """The value of literals joined by ``join`` (``.`` or ``+``)."""
    out: list[str] = []
    for piece in _split(expr, join):
        m = _TERM.fullmatch(piece)
        if m is None:
            raise _NotLiteral
        if m.group("s") is not None:
            out.append(_unquote(m.group("s"), lang))
        elif m.group("home") is not None:
            out.append(_HOME)
        elif m.group("codes") is not None:
            out.append("".join(chr(int(c)) for c in m.group("codes").split(",")))
        else:
            raise _NotLiteral  # a bare number in a print is arithmetic the gate does not do
    return "".join(out)


def _unquote(literal: str, lang: str) -> str:
    body = literal[1:-1]
    if literal[0] == "'" and lang != "awk":
        return body.replace("\\'", "'").replace("\\\\", "\\")
    if lang in ("perl", "ruby", "php") and re.search(r"[$@#]\{|\$\w", body):
        raise _NotLiteral  # interpolation (`"$x"`, `"#{x}"`): not a literal
    return re.sub(r"\\x([0-9a-fA-F]{2})|\\([0-7]{1,3})|\\(.)", _escape, body, flags=re.S)


def _escape(m: re.Match[str]) -> str:
    if m.group(1):
        return chr(int(m.group(1), 16))
    if m.group(2):
        return chr(int(m.group(2), 8))
    return _ESCAPES.get(m.group(3), "\\" + m.group(3))


def _split(text: str, sep: str) -> list[str]:
    """``text`` cut at ``sep`` outside quotes and brackets."""
    parts: list[str] = []
    depth, quote, start, i = 0, "", 0, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
            i += len(sep)
            continue
        i += 1
    parts.append(text[start:])
    return parts


_AWK_BEGIN: Final = re.compile(r"^\s*BEGIN\s*\{(?P<body>.*)\}\s*$", re.S)
_AWK_PRINTF: Final = re.compile(r"^printf\s*\(?(?P<e>.*?)\)?$", re.S)
_AWK_PRINT: Final = re.compile(r"^print\b\s*(?P<e>.*)$", re.S)


def _awk(code: str) -> str:
    m = _AWK_BEGIN.match(code)
    if m is None:
        raise _NotLiteral
    out: list[str] = []
    for stmt in _split(m.group("body"), ";"):
        stmt = stmt.strip()
        if not stmt:
            continue
        if (p := _AWK_PRINTF.match(stmt)) is not None:
            args = [a.strip() for a in _split(p.group("e"), ",")]
            values = [_awk_value(a) for a in args]
            out.append(_awk_format(values[0], values[1:]))
        elif (p := _AWK_PRINT.match(stmt)) is not None:
            out.append(" ".join("".join(_awk_value(t) for t in _awk_concat(a)) for a in _split(p.group("e"), ","))
                       + "\n")
        elif stmt == "exit":
            break
        else:
            raise _NotLiteral
    return "".join(out)


def _awk_concat(expr: str) -> list[str]:
    """The terms awk concatenates by writing them side by side (``"rm" " -rf"``)."""
    return [t.group(0) for t in _TERM.finditer(expr)] if _TERM.sub("", expr).strip() == "" else [expr]


def _awk_value(term: str) -> str:
    m = _TERM.fullmatch(term)
    if m is None:
        raise _NotLiteral
    if m.group("s") is not None:
        return _unquote(m.group("s"), "awk")
    if m.group("home") is not None:
        return _HOME
    if m.group("num") is not None:
        return m.group("num")
    raise _NotLiteral


def _awk_format(fmt: str, values: list[str]) -> str:
    """printf's ``%c`` (a number is its character), ``%s``, ``%d`` and ``%%``."""
    out: list[str] = []
    items = iter(values)
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c == "%" and i + 1 < len(fmt):
            conv = fmt[i + 1]
            i += 2
            if conv == "%":
                out.append("%")
                continue
            value = next(items, "")
            if conv == "c":
                out.append(chr(int(value)) if value.isdigit() else value[:1])
            elif conv in "sd":
                out.append(value)
            else:
                raise _NotLiteral
            continue
        out.append(c)
        i += 1
    return "".join(out)


__all__ = ["PRINTERS", "printed"]
