"""What a Python expression certainly is, for the analysis of ``python -c`` code (``interpreters.python``):
strings and paths as the shell would write them (the home directory as ``~``), and whether an expression
is a ``pathlib.Path``. Also the names of the calls that read from the network or evaluate code."""
from __future__ import annotations

import ast
import base64
import binascii
import codecs
import zlib
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


_B64 = frozenset({"base64.b64decode", "base64.standard_b64decode", "base64.decodebytes", "base64.decodestring",
                  "binascii.a2b_base64", "base64.urlsafe_b64decode"})
_HEX = frozenset({"bytes.fromhex", "bytearray.fromhex", "binascii.unhexlify", "binascii.a2b_hex", "base64.b16decode"})
_DECOMPRESS = frozenset({"zlib.decompress", "gzip.decompress"})
_MAX_DECODED = 100_000
"""The most bytes a payload is decoded or decompressed to: a decompression bomb stays small."""


def bytes_value(node: ast.AST, qualname: Qualname, depth: int = 0) -> bytes | None:
    """The bytes an expression certainly is: a literal, or a decoding of one (``base64.b64decode('…')``,
    ``bytes.fromhex('…')``, ``binascii.unhexlify``, ``codecs.decode(s, 'rot13')``, ``zlib.decompress``,
    ``bytes([105, …])``, ``s.encode()``): an obfuscated payload, in the clear. None for anything computed."""
    if depth > 8:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, bytes):
        return node.value
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.encode("utf-8", "surrogatepass")
    if not isinstance(node, ast.Call):
        text = literal(node, qualname, depth + 1)
        return None if text is None else text.encode("utf-8", "surrogatepass")
    name = qualname(node.func)
    args = node.args
    if isinstance(node.func, ast.Attribute) and node.func.attr == "encode" and not args:
        text = literal(node.func.value, qualname, depth + 1)
        return None if text is None else text.encode("utf-8", "surrogatepass")
    if name in ("bytes", "bytearray") and len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)):
        ints = [e.value for e in args[0].elts if isinstance(e, ast.Constant) and type(e.value) is int]
        return bytes(ints) if len(ints) == len(args[0].elts) and all(0 <= i < 256 for i in ints) else None
    if name in ("bytes", "bytearray") and len(args) >= 1:
        return bytes_value(args[0], qualname, depth + 1)
    if not args:
        return None
    raw = bytes_value(args[0], qualname, depth + 1)
    if raw is None or len(raw) > _MAX_DECODED:
        return None
    try:
        if name in _B64:
            text = raw.decode("ascii").replace("-", "+").replace("_", "/")
            return base64.b64decode(text + "=" * (-len(text) % 4))
        if name in _HEX:
            return bytes.fromhex(raw.decode("ascii"))
        if name == "base64.b32decode":
            return base64.b32decode(raw)
        if name == "base64.b85decode":
            return base64.b85decode(raw)
        if name == "base64.a85decode":
            return base64.a85decode(raw)
        if name in _DECOMPRESS:
            inflate = zlib.decompressobj(47)  # zlib or gzip header
            return inflate.decompress(raw, _MAX_DECODED)
        if name in ("codecs.decode", "codecs.encode") and len(args) >= 2:
            how = (literal(args[1], qualname, depth + 1) or "").lower().replace("-", "_")
            if how in ("rot13", "rot_13"):
                return codecs.encode(raw.decode("utf-8", "replace"), "rot13").encode()
            if how in ("hex", "hex_codec"):
                return bytes.fromhex(raw.decode("ascii"))
            if how in ("base64", "base64_codec", "base_64"):
                return base64.b64decode(raw + b"=" * (-len(raw) % 4))
            if how in ("zlib", "zlib_codec", "zip"):
                return zlib.decompressobj().decompress(raw, _MAX_DECODED)
    except (ValueError, binascii.Error, zlib.error, UnicodeError):
        return None
    return None


_DECODERS = _B64 | _HEX | _DECOMPRESS | frozenset({"base64.b32decode", "base64.b85decode", "base64.a85decode",
                                                   "codecs.decode", "codecs.encode"})


def _chars(node: ast.AST, qualname: Qualname, depth: int) -> list[str] | None:
    """The strings a literal sequence holds: ``['a', 'b']``, ``map(chr, [105, 109])``,
    ``(chr(c) for c in [105, 109])``."""
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [literal(e, qualname, depth + 1) for e in node.elts]
        return None if any(i is None for i in items) else items  # type: ignore[return-value]
    if isinstance(node, ast.Call) and qualname(node.func) == "map" and len(node.args) == 2:
        func = qualname(node.args[0])
        seq = node.args[1]
        if func in ("chr", "str") and isinstance(seq, (ast.List, ast.Tuple)):
            values = [e.value for e in seq.elts if isinstance(e, ast.Constant)]
            if len(values) != len(seq.elts):
                return None
            if func == "str":
                return [str(v) for v in values]
            return [chr(v) for v in values if type(v) is int and 0 <= v < 0x110000] if all(
                type(v) is int and 0 <= v < 0x110000 for v in values) else None
        return None
    if isinstance(node, (ast.GeneratorExp, ast.ListComp)) and len(node.generators) == 1:
        gen = node.generators[0]
        elt = node.elt
        if (not gen.ifs and isinstance(gen.target, ast.Name) and isinstance(gen.iter, (ast.List, ast.Tuple))
                and isinstance(elt, ast.Call) and qualname(elt.func) == "chr" and len(elt.args) == 1
                and isinstance(elt.args[0], ast.Name) and elt.args[0].id == gen.target.id):
            return _chars(ast.Call(ast.Name("map", ast.Load()), [ast.Name("chr", ast.Load()), gen.iter], []),
                          qualname, depth)
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
    if isinstance(node, ast.Constant) and isinstance(node.value, bytes):
        return node.value.decode("utf-8", "replace")
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
        if name in _DECODERS:  # bytes, as ``exec`` and ``os.system`` take them
            raw = bytes_value(node, qualname, depth + 1)
            return None if raw is None else raw.decode("utf-8", "replace")
        if isinstance(node.func, ast.Attribute) and node.func.attr == "decode":  # `base64.b64decode('cm0g…').decode()`
            raw = bytes_value(node.func.value, qualname, depth + 1)
            return None if raw is None else raw.decode("utf-8", "replace")
        if name == "chr" and len(args) == 1 and isinstance(args[0], ast.Constant) and type(args[0].value) is int:
            return chr(args[0].value) if 0 <= args[0].value < 0x110000 else None
        if isinstance(node.func, ast.Attribute) and node.func.attr == "join" and len(args) == 1:
            sep = literal(node.func.value, qualname, depth + 1)
            items = _chars(args[0], qualname, depth + 1)
            return None if sep is None or items is None else sep.join(items)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("joinpath", "expanduser", "resolve",
                                                                          "absolute") and not node.keywords:
            base = literal(node.func.value, qualname, depth + 1)
            parts = [literal(a, qualname, depth + 1) for a in args]
            if base is None or any(p is None for p in parts):
                return None
            return _join([base, *parts]) if parts else base  # type: ignore[list-item]
        return None
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and node.slice.lower is None and (
            node.slice.upper is None and isinstance(node.slice.step, ast.UnaryOp)):  # `'~ fr- mr'[::-1]`
        step = node.slice.step
        if isinstance(step.op, ast.USub) and isinstance(step.operand, ast.Constant) and step.operand.value == 1:
            text = literal(node.value, qualname, depth + 1)
            return None if text is None else text[::-1]
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


def int_literal(node: ast.AST) -> int | None:
    """The integer a literal (``-1``, ``0``, ``+3``) stands for, or None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = int_literal(node.operand)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def signal_name(node: ast.AST | None) -> str:
    """``signal.SIGKILL`` → ``KILL``, ``9`` → ``9``; ``TERM`` when it cannot be told."""
    if isinstance(node, ast.Attribute) and node.attr.startswith("SIG"):
        return node.attr[3:]
    if node is not None and (number := int_literal(node)) is not None:
        return str(number)
    return "TERM"


def kill_argv(name: str, args: list[ast.expr]) -> list[str] | None:
    """``os.kill(-1, signal.SIGKILL)`` → ``kill -KILL -1``, ``os.killpg(5, 9)`` → ``kill -9 -5``; None when
    the process is not a literal number."""
    pid = int_literal(args[0]) if args else None
    if pid is None:
        return None
    return ["kill", "-" + signal_name(args[1] if len(args) > 1 else None),
            str(-abs(pid)) if name == "os.killpg" else str(pid)]


PURE_CALLS = frozenset({
    "print", "len", "str", "int", "float", "bool", "list", "dict", "set", "tuple", "sorted", "reversed", "sum", "min",
    "max", "abs", "round", "range", "enumerate", "zip", "map", "filter", "any", "all", "isinstance", "issubclass",
    "repr", "format", "hex", "oct", "bin", "chr", "ord", "divmod", "pow", "hash", "type", "iter", "next", "slice",
    "frozenset", "bytes", "bytearray", "input", "callable", "ascii", "complex", "object", "super", "property",
    "staticmethod", "classmethod", "hasattr", "id", "memoryview", "Exception", "ValueError", "KeyError",
    "TypeError", "RuntimeError", "SystemExit", "StopIteration", "AssertionError", "IndexError", "OSError",
    "NotImplementedError", "AttributeError", "ZeroDivisionError", "UnicodeDecodeError",
    "os.getcwd", "os.listdir", "os.getenv", "os.environ.get", "os.cpu_count", "os.getpid", "os.getuid",
    "os.uname", "os.scandir", "os.walk", "os.stat", "os.lstat", "os.access", "os.get_terminal_size",
    "os.fspath", "os.fsencode", "os.fsdecode", "os.getlogin", "os.getppid", "os.getgid", "os.path.exists",
    "pathlib.Path", "pathlib.PurePath", "pathlib.PurePosixPath", "Path", "sys.exit", "sys.getsizeof",
    "sys.getrecursionlimit", "sys.getdefaultencoding", "sys.getfilesystemencoding", "sys.stdin.read",
    "sys.stdin.readline", "sys.stdin.readlines", "sys.stdout.write", "sys.stderr.write", "sys.stdout.flush",
    "sys.stdin.buffer.read", "sys.stdout.buffer.write", "sys.intern",
})
"""Calls that only compute, print or look (``python -c`` code made of them is pure)."""


PURE_METHODS = frozenset({
    "get", "keys", "values", "items", "append", "extend", "insert", "pop", "index", "count", "copy", "update",
    "setdefault", "split", "rsplit", "splitlines", "strip", "lstrip", "rstrip", "join", "lower", "upper", "title",
    "capitalize", "casefold", "startswith", "endswith", "find", "rfind", "format", "format_map", "encode", "decode",
    "isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "zfill", "center", "ljust", "rjust",
    "partition", "rpartition", "sort", "reverse", "group", "groups", "groupdict", "span", "start", "end",
    "match", "search", "findall", "finditer", "sub", "subn", "fullmatch", "most_common", "elements",
    "isoformat", "strftime", "timestamp", "total_seconds", "date", "time", "hexdigest", "digest", "read",
    "readline", "readlines", "__len__", "add", "discard", "union", "intersection", "difference", "issubset",
    "issuperset", "symmetric_difference", "fromkeys", "expandtabs", "translate", "maketrans", "removeprefix",
    "removesuffix", "swapcase", "isidentifier", "isnumeric", "isdecimal", "isprintable", "istitle", "to_bytes",
    "from_bytes", "bit_length", "conjugate", "is_integer", "as_integer_ratio", "getvalue", "writerow",
    "writerows", "writeheader", "loads", "dumps", "load", "dump", "name", "stem", "suffix", "parent", "parts",
    "exists", "is_file", "is_dir", "iterdir", "glob", "rglob", "resolve", "absolute", "relative_to", "joinpath",
    "with_suffix", "with_name", "as_posix", "read_text", "read_bytes", "stat", "total", "replace", "flush",
    "close", "__enter__", "__exit__", "tell", "seek", "readable", "is_absolute", "expanduser", "mean", "median",
})
DANGER_METHODS = frozenset({"write", "writelines", "system", "popen", "remove", "unlink", "rmdir", "rename",
                             "chmod", "chown", "kill", "spawn", "execute", "executemany", "connect", "bind", "listen",
                             "send", "sendall", "truncate", "symlink_to", "write_text", "write_bytes", "touch", "mkdir"})


DATA_MODULES = frozenset({"pandas", "numpy", "polars", "scipy", "pyarrow", "statsmodels", "sklearn"})
"""Data libraries whose calls compute on frames and arrays: pure, but for their writers, pickle loaders, SQL
readers and anything given a URL (``data_call_pure``)."""
_DATA_SINKS = frozenset({"read_pickle", "load", "save", "savez", "savez_compressed", "savetxt", "tofile", "dump",
                         "read_sql", "read_sql_query", "read_sql_table", "read_gbq", "read_clipboard", "write_csv",
                         "write_parquet", "write_json", "write_ipc", "write_database", "read_database", "sink_csv",
                         "sink_parquet", "fromfile", "memmap", "eval", "query", "pipe", "apply"})


_DATA_WRITERS = frozenset({"to_csv", "to_parquet", "to_excel", "to_json", "to_pickle", "to_sql", "to_hdf",
                           "to_feather", "to_stata", "to_orc", "to_html", "to_latex", "to_markdown", "to_xml",
                           "to_clipboard", "to_gbq", "to_netcdf", "to_zarr"})


def data_call_pure(function: str, literals: list[str | None], given: int = 1) -> bool:
    """Whether a data library's call (or a method of its frames) only computes: not a writer given somewhere
    to write (``to_csv("out.csv")``; ``to_string()`` and a bare ``to_csv()`` return text), a loader that runs
    code (``read_pickle``, ``numpy.load``), SQL, ``eval``/``apply`` of code, or a read of a URL."""
    if function in _DATA_SINKS or function in _DATA_WRITERS and given:
        return False
    return not any(lit is not None and "://" in lit for lit in literals)


DATA_READERS = frozenset({"read_csv", "read_table", "read_json", "read_parquet", "read_excel", "read_feather",
                          "read_fwf", "read_xml", "read_orc", "read_stata", "read_sas", "read_spss", "read_hdf",
                          "scan_csv", "scan_parquet", "loadtxt", "genfromtxt", "read_ndjson", "read_ipc"})
"""Their first argument is a file read: judged like any read (a secret's is not a data file)."""
