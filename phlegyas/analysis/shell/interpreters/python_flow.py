"""How values flow through ``python -c`` code, for ``interpreters.python``:

- names bound once to a reference (``f = os.system``, ``m = __import__('os')``, ``s = base64.b64decode('…')``)
  are replaced by what they stand for, so that ``f('rm -rf ~')`` is read as ``os.system('rm -rf ~')``;
- the listing a loop or comprehension walks (``os.walk(R)``, ``glob.glob(P)``, ``Path.home().iterdir()``):
  a delete of each item it yields is a delete of that root's contents;
- the environment a piece of code reads (a whole dump, or named secret variables).
"""
from __future__ import annotations

import ast
import copy
import re
from collections.abc import Container
from typing import Callable, Final

from phlegyas.analysis.shell.pyast import dotted_name
from phlegyas.core.redact import secret_kind

Qualname = Callable[[ast.AST], "str | None"]
Literal = Callable[[ast.AST], "str | None"]

_REFERENCE_CALLS = frozenset({
    "getattr", "__import__", "import_module", "chr", "b64decode", "standard_b64decode", "urlsafe_b64decode",
    "b32decode", "b16decode", "b85decode", "a85decode", "decodebytes", "unhexlify", "a2b_hex", "a2b_base64",
    "fromhex", "decode", "encode", "join", "decompress", "expanduser", "getenv", "home", "Path", "PosixPath",
    "joinpath", "abspath", "realpath", "normpath", "str", "bytes", "bytearray", "map", "list", "compile",
})
"""Calls a name may be bound to and still be inlined: they compute a reference or a string, nothing else
(the value is visited again where it is used, so a call with an effect would count twice)."""
_MAX_VALUE_NODES = 200
_MAX_INLINED_NODES = 4000

VENDORED: Final = re.compile(r"^[\w.]*?\.(?:_vendor|vendored|_vendored|extern)\.")
"""``pip._vendor.requests``, ``botocore.vendored.requests``: a bundled copy is the module itself."""


_dotted = dotted_name


def _reference(value: ast.AST) -> bool:
    """Only names, attributes, literals and the calls of ``_REFERENCE_CALLS``; not a plain constant
    (``c = "rm"`` stays a computed value, as ``tests/test_analyze.py`` and ``test_everyday.py`` expect)."""
    if all(isinstance(sub, (ast.Constant, ast.BinOp, ast.JoinedStr, ast.FormattedValue, ast.operator,
                            ast.expr_context)) for sub in ast.walk(value)):
        return False
    count = 0
    for sub in ast.walk(value):
        count += 1
        if count > _MAX_VALUE_NODES:
            return False
        if isinstance(sub, ast.Call):
            dotted = _dotted(sub.func)
            last = dotted.rsplit(".", 1)[-1]
            if last not in _REFERENCE_CALLS and not dotted.endswith("environ.get"):
                return False
        elif isinstance(sub, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.ListComp,
                              ast.GeneratorExp, ast.SetComp, ast.DictComp)):
            return False
    return True


def _bindings(tree: ast.AST) -> dict[str, int]:
    """How often each name is bound anywhere in the code (assignments, loops, parameters, imports …)."""
    counts: dict[str, int] = {}

    def bump(name: str) -> None:
        counts[name] = counts.get(name, 0) + 1

    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bump(node.id)
        elif isinstance(node, ast.arg):
            bump(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bump(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                bump(a.asname or a.name.split(".", 1)[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for n in node.names:
                bump(n)
                bump(n)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bump(node.name)
    return counts


class _Inline(ast.NodeTransformer):
    def __init__(self, values: dict[str, ast.AST]):
        self.values = values
        self.budget = _MAX_INLINED_NODES

    def visit_Name(self, node: ast.Name) -> ast.AST:
        value = self.values.get(node.id)
        if value is None or not isinstance(node.ctx, ast.Load) or self.budget <= 0:
            return node
        self.budget -= sum(1 for _ in ast.walk(value))
        return ast.copy_location(copy.deepcopy(value), node)


def _text_constant(value: ast.AST) -> bool:
    """A string or bytes literal, or literals joined with ``+`` (``s = 'rm -rf ' + '~'``): a name bound once
    to one is that text wherever it is used (``os.system(s)`` runs it). Other constants stay names."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, (str, bytes))
    return isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add) and _text_constant(value.left) \
        and _text_constant(value.right)


def inline_aliases(tree: ast.Module) -> None:
    """Replace each use of a module-level name bound once to a reference, or to a string literal, by that
    reference or literal (in place)."""
    counts = _bindings(tree)
    values: dict[str, ast.AST] = {}
    inline = _Inline(values)
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            if counts.get(name) == 1 and (_reference(stmt.value) or _text_constant(stmt.value)):
                values[name] = inline.visit(copy.deepcopy(stmt.value))  # earlier aliases resolved inside
    if not values:
        return
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stmt.targets[0].id in values:
            continue  # the binding itself stays as it was
        inline.visit(stmt)


_IMPORTS = frozenset({"__import__", "builtins.__import__", "importlib.import_module", "importlib.__import__"})


def reference_base(node: ast.AST, qualname: Qualname, literal: Literal) -> str | None:
    """The dotted name a computed reference stands for: ``__import__('o'+'s')``,
    ``importlib.import_module('shutil')``, ``getattr(os, 'sys'+'tem')``, ``vars(os)['system']``,
    ``os.__dict__['system']``, ``sys.modules['os']``; None for anything else."""
    if isinstance(node, ast.Call) and node.args:
        func = qualname(node.func)
        if func in _IMPORTS:
            return literal(node.args[0])
        if func in ("getattr", "builtins.getattr") and len(node.args) >= 2:
            base, attr = qualname(node.args[0]), literal(node.args[1])
            return None if base is None or attr is None else f"{base}.{attr}"
        return None
    if isinstance(node, ast.Subscript):
        key = literal(node.slice)
        if key is None:
            return None
        value = node.value
        if qualname(value) == "sys.modules":
            return key
        if isinstance(value, ast.Call) and qualname(value.func) == "vars" and len(value.args) == 1:
            base = qualname(value.args[0])
        elif isinstance(value, ast.Attribute) and value.attr == "__dict__":
            base = qualname(value.value)
        else:
            return None
        return None if base is None else f"{base}.{key}"
    return None


# -- loops over a listing ---------------------------------------------------------------------------

_WALKS = frozenset({"os.walk", "os.fwalk"})
_CHILDREN = frozenset({"os.listdir", "os.scandir"})
_GLOBS = frozenset({"glob.glob", "glob.iglob"})
_PASS_THROUGH = frozenset({"sorted", "list", "reversed", "tuple", "set", "enumerate", "filter"})

Root = tuple[str, str]
"""(path or pattern, how): ``tree`` (every file below it), ``children`` (its entries), ``glob`` (the matches)."""


def listing_root(node: ast.AST, qualname: Qualname, literal: Literal, depth: int = 0) -> Root | None:
    """What a loop's iterable lists, when it lists the file system: ``os.walk(R)``, ``os.listdir(R)``,
    ``glob.glob(P)``, ``Path(R).rglob('*')``, ``Path.home().iterdir()``."""
    if not isinstance(node, ast.Call) or depth > 4:
        return None
    name = qualname(node.func)
    args = node.args
    if name in _PASS_THROUGH and args:
        return listing_root(args[-1] if name == "filter" else args[0], qualname, literal, depth + 1)
    if name in _WALKS or name in _CHILDREN:
        root = literal(args[0]) if args else "."
        return None if root is None else (root, "tree" if name in _WALKS else "children")
    if name in _GLOBS and args:
        pattern = literal(args[0])
        return None if pattern is None else (pattern, "glob")
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in ("rglob", "glob", "iterdir", "walk"):
        base = literal(func.value)
        if base is None:
            return None
        if func.attr in ("rglob", "walk"):
            return base, "tree"
        if func.attr == "iterdir":
            return base, "children"
        pattern = literal(args[0]) if args else None
        return None if pattern is None else (base.rstrip("/") + "/" + pattern, "glob")
    return None


def root_delete(argv: list[str], root: Root) -> list[str]:
    """The command deleting each item of ``root`` stands for: ``rm -r R`` for a walk of R, ``rm R/*`` for its
    entries, ``rm P`` for a pattern's matches (``argv`` is the delete's own, ``rm`` or ``rm -r``)."""
    path, how = root
    if how == "tree":
        return ["rm", "-r", path]
    if how == "children":
        return [*argv, path.rstrip("/") + "/*"]
    return [*argv, path]


def names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


# -- the environment --------------------------------------------------------------------------------

_ENV_NAMES = frozenset({"os.environ", "os.environb", "posix.environ"})
_ENV_GETS = frozenset({"os.getenv", "os.getenvb", "os.environ.get", "os.environb.get"})
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,80}")


def environment_secrets(tree: ast.AST, qualname: Qualname) -> list[str]:
    """What of the environment the code reads that holds secrets: ``*`` for all of it (``dict(os.environ)``,
    ``os.environ.copy()``), the names of secret variables read one by one (``os.environ['AWS_…']``)."""
    named: set[int] = set()
    out: list[str] = []
    for node in ast.walk(tree):
        key: ast.AST | None = None
        if isinstance(node, ast.Subscript) and qualname(node.value) in _ENV_NAMES:
            named.add(id(node.value))
            key = node.slice
        elif isinstance(node, ast.Call) and qualname(node.func) in _ENV_GETS and node.args:
            named.add(id(node.func))
            if isinstance(node.func, ast.Attribute):
                named.add(id(node.func.value))
            key = node.args[0]
        if key is not None and isinstance(key, ast.Constant) and isinstance(key.value, str):
            if _VARIABLE.fullmatch(key.value) and secret_kind(key.value) is not None and key.value not in out:
                out.append(key.value)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in named and qualname(node) in _ENV_NAMES:
            return ["*", *out]
    return out


_TASK_RUNS = frozenset({"run", "run_always", "run_install", "sudo", "local"})
"""Methods of task runners' context objects that run a command (nox sessions, invoke and fabric contexts)."""


def task_command(node: ast.Call, literal: Literal, modules: Container[str]) -> str | list[str] | None:
    """A task runner's own call on a name that is not a module (the task function's parameter):
    nox's ``session.run("rm", "-rf", p)`` is an argv, invoke's and fabric's ``c.run("rm -rf ~")``,
    ``c.sudo(…)`` and ``c.local(…)`` a shell line; None unless every argument is a literal."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr in _TASK_RUNS and isinstance(func.value, ast.Name)
            and func.value.id not in modules and node.args):
        return None
    words = [literal(a) for a in node.args]
    if any(w is None for w in words):
        return None
    texts = [w for w in words if w is not None]
    if len(texts) == 1 and any(c in texts[0] for c in " \t;|&"):
        return ("sudo " if func.attr == "sudo" else "") + texts[0]
    return ["sudo", *texts] if func.attr == "sudo" else texts


# -- databases and cloud storage through their Python clients ----------------------------------------

_SQL_METHODS = frozenset({"execute", "executemany", "executescript", "exec_driver_sql", "mogrify"})
_BOTO_DELETES = {"delete_bucket": ("s3api", "delete-bucket"), "delete_objects": ("s3api", "delete-objects"),
                 "delete_table": ("dynamodb", "delete-table"), "delete_db_instance": ("rds", "delete-db-instance"),
                 "delete_db_cluster": ("rds", "delete-db-cluster"), "delete_file_system": ("efs", "delete-file-system"),
                 "delete_secret": ("secretsmanager", "delete-secret"), "delete_repository": ("ecr", "delete-repository")}


def store_argv(node: ast.Call, literal: Literal) -> list[str] | None:
    """The command line a database or cloud-storage call amounts to, for the same Tier 1 check: SQL given to
    a DB-API ``execute`` (``cur.execute("DROP TABLE t")`` → ``psql -c …``), a boto3 client's deletes
    (``s3.delete_bucket(Bucket=b)``) and a resource's (``Bucket(b).objects.all().delete()`` → ``aws s3 rm
    s3://b --recursive``); None for any other call."""
    func = node.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr in _SQL_METHODS and node.args:
        sql = literal(node.args[0])
        if sql is None and isinstance(node.args[0], ast.Call) and node.args[0].args:  # text("…") of SQLAlchemy
            sql = literal(node.args[0].args[0])
        return ["psql", "-c", sql] if sql else None
    if func.attr in _BOTO_DELETES:
        service, op = _BOTO_DELETES[func.attr]
        bucket = next((literal(k.value) for k in node.keywords if k.arg in ("Bucket", "TableName")), None)
        return ["aws", service, op, *(["--bucket", bucket] if bucket else [])]
    if func.attr in ("system", "popen", "execl", "execlp") and re.search(
            r"\b(?:ctypes|cdll|CDLL|LoadLibrary|libc)\b", ast.unparse(func.value)) and node.args:  # libc's system()
        arg = node.args[0]
        code = arg.value.decode("utf-8", "replace") if isinstance(arg, ast.Constant) and isinstance(
            arg.value, bytes) else literal(arg)
        return ["sh", "-c", code] if code else ["sh", "-c", "computed-command"]
    if func.attr in ("drop_database", "drop_collection"):  # pymongo: the database or collection, for good
        name = literal(node.args[0]) if node.args else None
        return ["mongosh", "--eval", f"db.{'dropDatabase' if func.attr == 'drop_database' else 'dropCollection'}"
                                     f"({name or ''!r})"]
    if func.attr == "drop_all" and ast.unparse(func.value).endswith("metadata"):  # SQLAlchemy: every table
        return ["psql", "-c", "DROP TABLE every_table_the_models_define"]
    if func.attr in ("flushall", "flushdb"):  # redis-py
        return ["redis-cli", func.attr.upper()]
    if func.attr == "delete" and not node.args and re.search(r"\bget_repo\(", ast.unparse(func.value)):
        repo = re.search(r"get_repo\(\s*['\"]([^'\"]+)", ast.unparse(func.value))  # PyGithub
        return ["gh", "repo", "delete", repo.group(1) if repo else "a-repository", "--yes"]
    if func.attr == "delete" and not node.args:
        chain = ast.unparse(func.value)
        m = re.search(r"Bucket\(\s*['\"]([^'\"]+)['\"]", chain)
        if re.search(r"\b(?:objects|object_versions)\.(?:all|filter)\(", chain) or m and chain.endswith(")"):
            return ["aws", "s3", "rm", f"s3://{m.group(1) if m else 'a-bucket'}", "--recursive"]
    return None
