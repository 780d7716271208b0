"""What a Python expression certainly is, for the analysis of ``python -c`` code (``interpreters.python``):
strings and paths as the shell would write them (the home directory as ``~``), and whether an expression
is a ``pathlib.Path``. Also the names of the calls that read from the network or evaluate code."""
from __future__ import annotations

import ast
import base64
import binascii
from typing import Callable

Qualname = Callable[[ast.AST], "str | None"]
"""The dotted name a call's function resolves to, imports and aliases applied (``_PyScan.qualname``)."""

_HOME_CALLS = frozenset({"pathlib.Path.home", "Path.home", "pathlib.PosixPath.home", "os.path.expanduser.__call__"})
_ENV_GETS = frozenset({"os.getenv", "os.environ.get", "os.environb.get", "posix.environ.get"})
_PATH_IDENTITY = frozenset({"os.path.expanduser", "posixpath.expanduser", "pathlib.Path", "Path", "pathlib.PosixPath",
                            "PosixPath", "pathlib.PurePath", "str", "os.fspath", "os.path.abspath", "os.path.normpath",
                            "os.path.realpath", "os.path.expandvars"})
_PATH_JOINS = frozenset({"os.path.join", "posixpath.join"})
NET_READS = frozenset({"urllib.request.urlopen", "urlopen", "urllib.urlopen", "urllib2.urlopen", "requests.get",
                       "requests.post", "requests.request", "httpx.get", "httpx.post", "urllib.request.urlretrieve",
                       "http.client.HTTPSConnection", "http.client.HTTPConnection", "socket.socket",
                       "socket.create_connection", "aiohttp.ClientSession", "urllib3.PoolManager"})
"""Calls whose result is what a server sent: code evaluated from them is remote code."""
EVALS = frozenset({"exec", "eval", "builtins.exec", "builtins.eval", "compile", "runpy.run_path",
                   "importlib.import_module"})


def _decoded(call: ast.Call, qualname: Qualname, depth: int) -> str | None:
    """The text a decoding call of a literal yields (``base64.b64decode``, ``bytes.fromhex``): an obfuscated
    command, in the clear."""
    name = qualname(call.func)
    first = call.args[0] if call.args else None
    if isinstance(first, ast.Constant) and isinstance(first.value, bytes):
        arg: str | None = first.value.decode("latin-1")
    else:
        arg = literal(first, qualname, depth + 1) if first is not None else None
    if arg is None:
        return None
    try:
        if name in ("base64.b64decode", "base64.standard_b64decode", "base64.decodebytes"):
            return base64.b64decode(arg + "==").decode("utf-8", "replace")
        if name == "base64.b32decode":
            return base64.b32decode(arg).decode("utf-8", "replace")
        if name == "bytes.fromhex":
            return bytes.fromhex(arg).decode("utf-8", "replace")
    except (ValueError, binascii.Error):
        return None
    return None


def _join(parts: list[str]) -> str:
    out = parts[0]
    for p in parts[1:]:
        out = p if p.startswith("/") else (out.rstrip("/") + "/" + p if out else p)
    return out


def literal(node: ast.AST, qualname: Qualname, depth: int = 0) -> str | None:
    """A string the expression certainly is, paths as the shell would write them: a constant;
    ``os.path.expanduser(s)``, ``Path(s)``, ``str(p)``, ``os.path.abspath(p)`` of one; the home
    directory (``Path.home()``, ``os.environ["HOME"]``, ``os.getenv("HOME")``) as ``~``; ``os.path.join``,
    ``/`` of paths, ``+`` and f-strings of such parts. None for anything computed."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if depth > 8:
        return None
    if isinstance(node, ast.Call):
        name = qualname(node.func)
        args = node.args
        if name in _HOME_CALLS and not args:
            return "~"
        if name in _ENV_GETS and args and literal(args[0], qualname, depth + 1) in ("HOME", "USERPROFILE"):
            return "~"
        if name in _PATH_IDENTITY and len(args) == 1:
            return literal(args[0], qualname, depth + 1)
        if name in _PATH_JOINS and args:
            parts = [literal(a, qualname, depth + 1) for a in args]
            return _join(parts) if all(p is not None for p in parts) else None  # type: ignore[arg-type]
        if isinstance(node.func, ast.Attribute) and node.func.attr == "decode" and isinstance(node.func.value, ast.Call):
            return _decoded(node.func.value, qualname, depth)  # `base64.b64decode('cm0g…').decode()`
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("joinpath", "expanduser", "resolve",
                                                                          "absolute") and not node.keywords:
            base = literal(node.func.value, qualname, depth + 1)
            parts = [literal(a, qualname, depth + 1) for a in args]
            if base is None or any(p is None for p in parts):
                return None
            return _join([base, *parts]) if parts else base  # type: ignore[list-item]
        return None
    if isinstance(node, ast.Subscript) and qualname(node.value) in ("os.environ", "os.environb"):
        key = literal(node.slice, qualname, depth + 1)
        return "~" if key in ("HOME", "USERPROFILE") else None
    if isinstance(node, ast.BinOp):
        left, right = literal(node.left, qualname, depth + 1), literal(node.right, qualname, depth + 1)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Div):
            return _join([left, right])
        if isinstance(node.op, ast.Add):
            return left + right
        return None
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                out.append(part.value)
            elif isinstance(part, ast.FormattedValue) and part.format_spec is None:
                got = literal(part.value, qualname, depth + 1)
                if got is None:
                    return None
                out.append(got)
            else:
                return None
        return "".join(out)
    return None

def is_path(node: ast.AST, qualname: Qualname, depth: int = 0) -> bool:
    """Is ``node`` a ``pathlib.Path`` (``Path(…)``, ``Path.home()``, ``p / "x"``, ``p.joinpath(…)``)?"""
    if depth > 8:
        return False
    if isinstance(node, ast.Call):
        name = qualname(node.func)
        if name in ("pathlib.Path", "Path", "pathlib.PosixPath", "PosixPath") or name in _HOME_CALLS:
            return True
        return (isinstance(node.func, ast.Attribute) and node.func.attr in ("joinpath", "expanduser", "resolve",
                                                                            "absolute", "with_name", "with_suffix")
                and is_path(node.func.value, qualname, depth + 1))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return is_path(node.left, qualname, depth + 1)
    return False
