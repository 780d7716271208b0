"""Python code, parsed for real with ``ast``: what it runs, writes, deletes or sends.

``os.system("…")``, ``subprocess.run([...])`` give shell text or argv lists; ``shutil.rmtree(p)``, ``os.remove(p)``,
DB-API ``execute`` and boto3 deletes give synthetic commands (``rm -r p``, ``psql -c …``); ``open(p, "w")`` a write;
network modules a note. Code that only computes and prints (an allow-list of builtins, modules, methods) is ``pure``.
"""
from __future__ import annotations

import ast
import shlex

from phlegyas.analysis.shell.interpreters import python_flow as F
from phlegyas.analysis.shell.interpreters.code_report import CodeReport
from phlegyas.analysis.shell.interpreters.python_values import (
    DANGER_METHODS,
    DATA_MODULES,
    DATA_READERS,
    EVALS,
    NET_READS,
    PURE_CALLS,
    PURE_METHODS,
    data_call_pure,
    is_path,
    kill_argv,
    literal,
)
from phlegyas.core.redact import secret_kind

_SHELL_SINKS = frozenset({"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput",
                          "commands.getoutput", "commands.getstatusoutput", "os.popen2", "os.popen3", "platform.popen"})
_SUBPROCESS = frozenset({"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output",
                         "subprocess.Popen", "asyncio.create_subprocess_shell", "asyncio.create_subprocess_exec"})
_EXEC_PREFIXES = ("os.exec", "os.spawn", "os.posix_spawn")
_FS_ARGV = {
    "shutil.rmtree": ("rm", "-r"), "os.remove": ("rm",), "os.unlink": ("rm",), "os.rmdir": ("rmdir",),
    "os.removedirs": ("rmdir",), "shutil.copy": ("cp",), "shutil.copy2": ("cp",), "shutil.copyfile": ("cp",),
    "shutil.copytree": ("cp", "-r"), "shutil.move": ("mv",), "os.rename": ("mv",), "os.replace": ("mv",),
    "os.renames": ("mv",), "os.makedirs": ("mkdir", "-p"), "os.mkdir": ("mkdir",), "os.symlink": ("ln", "-s"),
    "os.link": ("ln",), "os.truncate": ("truncate", "-s", "0"), "os.chown": ("chown",), "os.lchown": ("chown",),
    "os.chmod": ("chmod",), "os.kill": ("kill",), "os.killpg": ("kill",), "os.mkfifo": ("mkfifo",),
}
_PATH_METHODS = {
    "unlink": ("rm",), "rmdir": ("rmdir",), "mkdir": ("mkdir", "-p"), "touch": ("touch",), "chmod": ("chmod",),
    "rename": ("mv",), "replace": ("mv",), "symlink_to": ("ln", "-s"), "hardlink_to": ("ln",),
}
_DELETES = frozenset({"shutil.rmtree", "os.remove", "os.unlink", "os.rmdir", "os.removedirs"})
_PATH_WRITES = frozenset({"write_text", "write_bytes"})
_PATH_READS = frozenset({"read_text", "read_bytes", "open", "exists", "is_file", "is_dir", "stat", "iterdir", "glob",
                         "rglob", "resolve", "absolute", "expanduser", "samefile", "lstat", "owner", "group",
                         "is_symlink", "readlink", "walk", "with_suffix", "with_name", "relative_to", "joinpath",
                         "match", "as_posix", "is_absolute"})
_EXEC_CODE = frozenset({"timeit.timeit", "timeit.repeat", "timeit.Timer", "exec", "eval", "compile", "execfile", "__import__", "importlib.import_module",
                        "runpy.run_path", "runpy.run_module", "builtins.exec", "builtins.eval", "code.interact",
                        "pdb.run", "marshal.loads", "pickle.loads", "pickle.load", "imp.load_source"})
_TIMED = frozenset({"timeit.timeit", "timeit.repeat", "timeit.Timer"})
_NETWORK_MODULES = frozenset({"socket", "urllib", "urllib2", "urllib3", "requests", "http", "httpx", "aiohttp",
                              "ftplib", "smtplib", "telnetlib", "paramiko", "websocket", "websockets", "xmlrpc",
                              "poplib", "imaplib", "nntplib", "ssl", "asyncssh", "pycurl", "grpc", "boto3", "botocore",
                              "socketserver", "http.server", "wsgiref"})
_SENDING = frozenset({"post", "put", "patch", "delete", "request", "send", "sendall", "sendto", "sendfile",
                      "upload", "urlopen", "storbinary", "storlines", "sendmail", "send_message"})
_CODE_MODULES = frozenset({"ctypes", "cffi", "pty", "multiprocessing", "os", "subprocess", "shutil", "pathlib",
                           "importlib", "runpy", "code", "pdb", "marshal", "pickle", "imp", "sys", "builtins"})
PURE_MODULES = frozenset({
    "json", "math", "cmath", "re", "sys", "os.path", "posixpath", "collections", "itertools", "functools",
    "statistics", "datetime", "time", "string", "textwrap", "base64", "hashlib", "hmac", "uuid", "random", "pprint",
    "csv", "decimal", "fractions", "struct", "binascii", "html", "urllib.parse", "shlex", "glob", "fnmatch",
    "operator", "copy", "dataclasses", "enum", "typing", "platform", "sysconfig", "locale", "calendar", "zlib",
    "io", "tomllib", "ast", "keyword", "unicodedata", "difflib", "heapq", "bisect", "array", "numbers", "secrets",
    "importlib.metadata", "email.utils", "ipaddress", "colorsys", "reprlib", "types", "abc", "contextlib", "warnings",
    "traceback", "inspect", "dis", "tokenize", "token", "sre_constants", "this", "zoneinfo", "graphlib", "timeit",
})
_VERSION_ATTRS = frozenset({"__version__", "VERSION", "version", "__file__", "__name__", "__path__", "version_info",
                            "__version_info__", "get_version", "__author__", "__license__", "__doc__", "__all__"})
"""What ``python -c "import numpy; print(numpy.__version__)"`` may read of a module it does not know."""
WELL_KNOWN = frozenset({
    "numpy", "pandas", "scipy", "sklearn", "matplotlib", "torch", "tensorflow", "keras", "jax", "django", "flask",
    "fastapi", "starlette", "pydantic", "sqlalchemy", "requests", "httpx", "urllib3", "aiohttp", "boto3",
    "botocore", "yaml", "toml", "tomli", "attr", "attrs", "click", "typer", "rich", "pytest", "setuptools", "pip",
    "wheel", "packaging", "certifi", "cryptography", "jinja2", "markupsafe", "werkzeug", "PIL", "cv2",
    "transformers", "numba", "Cython", "lxml", "bs4", "psycopg2", "psycopg", "redis", "celery", "openai",
    "anthropic", "langchain", "polars", "pyarrow", "sympy", "networkx", "seaborn", "plotly", "uvicorn", "gunicorn",
    "mypy", "black", "ruff", "isort", "flake8", "pylint", "coverage", "hypothesis", "tqdm", "dateutil", "pytz",
    "six", "idna", "charset_normalizer", "grpc", "google", "protobuf", "docker", "kubernetes", "paramiko",
    "websockets", "tornado", "twisted", "gevent", "greenlet", "msgpack", "orjson", "ujson", "simplejson",
    "marshmallow", "alembic", "pymongo", "mysql", "MySQLdb", "sqlite3", "numexpr", "statsmodels", "xgboost",
    "lightgbm", "catboost", "onnx", "onnxruntime", "tiktoken", "tokenizers", "datasets", "accelerate", "spacy",
    "nltk", "gensim", "pytorch_lightning", "lightning", "torchvision", "torchaudio", "triton", "cupy", "dask",
    "ray", "streamlit", "gradio", "dash", "bokeh", "IPython", "jupyter", "notebook", "ipykernel", "nbformat",
})
"""Installed packages an agent checks the version of every day; importing any other module (the project's
own) runs project code, as ``pytest`` does (category test/build, not read-only)."""


class _PyScan(ast.NodeVisitor):
    def __init__(self, report: CodeReport, depth: int):
        self.r = report
        self.depth = depth
        self.aliases: dict[str, str] = {}
        self.modules: set[str] = set()  # local names bound to imported modules
        self.data = False  # a data library is imported: methods of its frames and arrays compute
        self.data_imports: dict[str, None] = {}  # (each once, in order)
        self.defined: set[str] = set()
        self.pure = True
        self.opaque: dict[str, str] = {}  # local name → a module we do not know, used only for its version
        self.used: list[str] = []  # those modules, as their version was read
        self.roots: dict[str, F.Root] = {}  # loop variables → the listing they walk (``for p in Path.home().iterdir()``)
        self.sends: list[str] = []  # URLs (or "") of network calls
        self.reads: list[str] = []  # literal paths whose content is read

    # loops ------------------------------------------------------------------------------------
    def _bind(self, target: ast.AST, iterable: ast.AST) -> None:
        root = F.listing_root(iterable, self.qualname, self._literal)
        if root is None:
            root = next((self.roots[n] for n in F.names_in(iterable) if n in self.roots), None)
        if root is not None:
            for name in F.names_in(target):
                self.roots[name] = root

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self._bind(node.target, node.iter)
        self.generic_visit(node)

    visit_AsyncFor = visit_For

    def visit_ListComp(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> None:
        for gen in node.generators:  # before the element, which uses what they bind
            self._bind(gen.target, gen.iter)
        self.generic_visit(node)

    visit_SetComp = visit_GeneratorExp = visit_DictComp = visit_ListComp

    def _root_of(self, node: ast.AST) -> F.Root | None:
        return next((self.roots[n] for n in F.names_in(node) if n in self.roots), None)

    def _looped_delete(self, argv: tuple[str, ...], item: ast.AST, iterable: ast.AST | None = None) -> bool:
        """A delete of each item a listing yields (``[os.remove(f) for f in glob.glob('~/*')]``,
        ``map(os.remove, glob.glob(…))``): the delete of that listing's root or matches."""
        root = (F.listing_root(iterable, self.qualname, self._literal) if iterable is not None
                else self._root_of(item))
        if root is None:
            return False
        self.pure = False
        self.r.argvs.append(F.root_delete(list(argv), root))
        return True

    # imports --------------------------------------------------------------------------------
    def _imported(self, module: str, local: str | None = None) -> None:
        top = module.split(".", 1)[0]
        if top in DATA_MODULES:  # pandas, numpy …: they compute (their writers and loaders are judged where used)
            self.data = True
            self.data_imports[module] = None
            return
        if local is not None and top not in ("ctypes", "cffi") and module not in PURE_MODULES and (
                top not in PURE_MODULES and top not in _CODE_MODULES):
            self.opaque[local] = module  # judged where it is used: only its version may be read
        elif top in _NETWORK_MODULES or module in _NETWORK_MODULES:
            self.r.notes.append(("network", f"python module {module}"))
            self.pure = False
        elif top in ("ctypes", "cffi"):
            self.r.notes.append(("executes", f"python {top} (native code)"))
            self.pure = False
        elif module not in PURE_MODULES and top not in PURE_MODULES and top not in _CODE_MODULES:
            self.pure = False

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            local = a.asname or a.name.split(".", 1)[0]
            self._imported(a.name, local)
            self.aliases[local] = a.name if a.asname else a.name.split(".", 1)[0]
            self.modules.add(local)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level == 0 and module and all(a.name in _VERSION_ATTRS for a in node.names):
            self._imported(module, module)
            if module in self.opaque:
                self._version_read(module)  # ``from numpy import __version__``
                for a in node.names:
                    self.aliases[a.asname or a.name] = f"{module}.{a.name}"
                return
        self._imported(module)
        for a in node.names:
            if a.name == "*":
                self.pure = False
                continue
            full = f"{module}.{a.name}"
            self.aliases[a.asname or a.name] = full
            if full in _NETWORK_MODULES:
                self._imported(full)

    def visit_FunctionDef(self, node) -> None:
        self.defined.add(node.name)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.defined.add(node.name)
        self.generic_visit(node)

    # names ----------------------------------------------------------------------------------
    def qualname(self, node: ast.AST) -> str | None:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, (ast.Call, ast.Subscript)):  # `__import__('os').system(…)`, `getattr(os, 'sys'+'tem')`
            base = F.reference_base(node, self.qualname, self._literal)
            return None if base is None else ".".join([base, *reversed(parts)])
        if not isinstance(node, ast.Name):
            return None
        base = F.VENDORED.sub("", self.aliases.get(node.id, node.id))  # `from pip._vendor import requests`
        return ".".join([base, *reversed(parts)])

    def _version_read(self, local: str) -> None:
        module = self.opaque[local]
        if module not in self.used:
            self.used.append(module)

    def _opaque_use(self, local: str) -> None:
        """A module we do not know used for more than its version: its code, its network."""
        self.pure = False
        module = self.opaque[local]
        if module.split(".", 1)[0] in _NETWORK_MODULES or module in _NETWORK_MODULES:
            self.r.notes.append(("network", f"python module {module}"))

    def _opaque_attribute(self, node: ast.Attribute) -> bool:
        """``numpy.__version__``, ``torch.version.cuda``: a read of an unknown module's version (True, handled);
        any other use of such a module makes the code not pure (True, handled); False: not such a module."""
        chain: list[str] = []
        base: ast.AST = node
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if not isinstance(base, ast.Name) or base.id not in self.opaque:
            return False
        if any(a in _VERSION_ATTRS for a in chain) and not any(
                a.startswith("_") and a not in _VERSION_ATTRS for a in chain):
            self._version_read(base.id)
        else:
            self._opaque_use(base.id)
        return True

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.opaque:
            self._opaque_use(node.id)  # the module as a value: what it does is out of sight
        if node.id in self.modules and isinstance(node.ctx, ast.Load):
            self.pure = False  # a module used as a value (``o = os``) hides what gets called
        if node.id in ("__builtins__", "globals", "locals", "vars", "getattr", "setattr", "delattr", "breakpoint"):
            self.pure = False

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if self._opaque_attribute(node):
            return
        if node.attr.startswith("__") and node.attr not in ("__name__", "__doc__", "__version__", "__file__"):
            self.pure = False
        name = self.qualname(node)
        if name is not None and name.split(".", 1)[0] in ("os", "subprocess", "shutil", "pty", "ctypes", "sys",
                                                           "builtins", "importlib"):
            if not (name in PURE_CALLS or name.startswith(("os.path.", "sys.version", "sys.platform", "sys.argv",
                                                             "sys.stdin", "sys.stdout", "sys.stderr", "sys.path",
                                                             "sys.executable", "sys.maxsize", "os.environ",
                                                             "os.sep", "os.linesep", "os.name", "os.pathsep",
                                                             "sys.byteorder", "sys.prefix", "sys.modules"))):
                self.pure = False
        if isinstance(node.value, ast.Name) and node.value.id in self.modules:
            return  # module.attr: the module name itself is fine here
        self.generic_visit(node)

    # calls ----------------------------------------------------------------------------------
    def visit_Call(self, node: ast.Call) -> None:
        name = self.qualname(node.func)
        if name == "map" and len(node.args) == 2 and self.qualname(node.args[0]) in _DELETES:
            self._looped_delete(_FS_ARGV[self.qualname(node.args[0]) or ""], node.args[1], node.args[1])
        handled = name is not None and self._sink(name, node)
        if not handled and ((argv := F.store_argv(node, self._literal)) is not None or self._task_run(node)):
            handled = True  # `cur.execute("DROP TABLE t")`, `bucket.objects.all().delete()`: as the CLI would
            self.pure = self.pure and argv is None
            self.r.argvs.extend([argv] if argv is not None else [])
        if not handled:
            if not self._path_method(node):
                self._purity(name, node)
        self.generic_visit(node)

    def _task_run(self, node: ast.Call) -> bool:
        got = F.task_command(node, self._literal, self.modules)  # nox's session.run, invoke's c.run
        if got is None:
            return False
        self.pure = False
        (self.r.shell if isinstance(got, str) else self.r.argvs).append(got)  # type: ignore[arg-type]
        return True

    def _purity(self, name: str | None, node: ast.Call) -> None:
        func = node.func
        if (isinstance(func, ast.Attribute) and func.attr in _VERSION_ATTRS and isinstance(func.value, ast.Name)
                and func.value.id in self.opaque and not node.args and not node.keywords):
            return  # ``django.get_version()``
        given = len(node.args) + len(node.keywords)
        if name is not None and name.split(".", 1)[0] in DATA_MODULES:
            lits = [self._literal(a) for a in node.args]
            if not data_call_pure(name.rsplit(".", 1)[-1], lits, given):
                self.pure = False
            elif name.rsplit(".", 1)[-1] in DATA_READERS:  # `pd.read_csv("~/.aws/credentials")` reads a secret
                self.r.notes.append(("reads", lits[0] if lits and lits[0] else "?"))
            return
        if self.data and isinstance(func, ast.Attribute) and func.attr not in DANGER_METHODS and data_call_pure(
                func.attr, [self._literal(a) for a in node.args], given) and (
                name is None or name.split(".", 1)[0] not in self.modules):
            return  # `df.groupby("region").sum()`, `arr.reshape(2, 3)`
        if name is not None:
            if name in PURE_CALLS or name in self.defined:
                return
            top = name.rsplit(".", 1)[0] if "." in name else ""
            if top and (top in PURE_MODULES or top.split(".", 1)[0] in PURE_MODULES) and top.split(".", 1)[0] not in (
                    "sys", "os"):
                return
        if isinstance(node.func, ast.Attribute):
            method = node.func.attr
            if method in PURE_METHODS and method not in DANGER_METHODS:
                if name is None or name.split(".", 1)[0] not in self.modules or name in PURE_CALLS:
                    return
        self.pure = False

    def _literal(self, node: ast.AST) -> str | None:
        return literal(node, self.qualname)

    def _is_path(self, node: ast.AST) -> bool:
        return is_path(node, self.qualname)

    def _downloaded(self, node: ast.AST) -> str | None:
        """The URL (or a stand-in) when ``node`` evaluates something a network call returned."""
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and self.qualname(sub.func) in NET_READS:
                url = self._literal(sub.args[0]) if sub.args else None
                return url if url and url.startswith(("http://", "https://", "ftp://")) else "https://unknown.invalid/"
        return None

    def _literal_list(self, node: ast.AST) -> list[str] | None:
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self._literal(e) for e in node.elts]
            if all(i is not None for i in items):
                return items  # type: ignore[return-value]
        return None

    def _kw(self, node: ast.Call, key: str) -> ast.AST | None:
        for kw in node.keywords:
            if kw.arg == key:
                return kw.value
        return None

    def _dynamic(self, what: str) -> None:
        self.r.problems.append(f"python passes a computed value to {what}")
        self.pure = False

    def _sink(self, name: str, node: ast.Call) -> bool:
        args = node.args
        r = self.r
        if name in EVALS and args:
            fetched = self._downloaded(args[0])
            if fetched is not None:  # `exec(urlopen(u).read())`: what `curl -s u | python3` would do
                self.pure = False
                r.shell.append(f"curl -s {fetched} | python3")
                return True
        if name in _SHELL_SINKS:
            self.pure = False
            text = self._literal(args[0]) if args else None
            if text is None:
                self._dynamic(name)
            else:
                r.shell.append(text)
            return True
        if name in _SUBPROCESS or name.startswith(_EXEC_PREFIXES) or name in ("pty.spawn", "os.startfile"):
            self.pure = False
            self._run_sink(name, node)
            return True
        if name in _FS_ARGV:
            self.pure = False
            lits = [self._literal(a) for a in args]
            if name in ("os.kill", "os.killpg"):
                r.notes.append(("mutates", "signals processes"))
                if (argv := kill_argv(name, args)) is not None:  # os.kill(-1, 9) is kill -9 -1: every process
                    r.argvs.append(argv)
                return True
            if name in ("os.chmod", "os.chown", "os.lchown", "os.truncate"):
                lits = lits[:1]
            if not lits or any(x is None for x in lits):
                if not (name in _DELETES and args and self._looped_delete(_FS_ARGV[name], args[0])):
                    self._dynamic(name)
                return True
            argv = list(_FS_ARGV[name])
            if name == "os.chmod" and len(args) > 1 and isinstance(args[1], ast.Constant):
                argv.append(oct(args[1].value)[2:] if isinstance(args[1].value, int) else str(args[1].value))
            elif name in ("os.chown", "os.lchown"):
                argv.append("0:0")
            r.argvs.append(argv + [x for x in lits if x is not None])
            return True
        if name in ("open", "io.open", "codecs.open", "builtins.open", "os.open"):
            self._open(node)
            return True
        if name in _TIMED and self.depth < 4:  # `timeit.timeit('sorted(x)', setup='x=[3,1]')`: literal code, timed
            texts = [self._literal(c) if c is not None else "" for c in
                     (self._kw(node, "setup") or (args[1] if len(args) > 1 else None),
                      self._kw(node, "stmt") or (args[0] if args else None))]
            inner = analyze_python("\n".join(t for t in texts if t), self.depth + 1) if None not in texts else None
            if inner is not None and inner.pure and not inner.problems:
                return True
        if name in _EXEC_CODE:
            self.pure = False
            code = args[0] if args else None
            while isinstance(code, ast.Call) and self.qualname(code.func) in ("compile", "builtins.compile") and code.args:
                code = code.args[0]  # `eval(compile(src, 'x', 'exec'))` runs src
            text = self._literal(code) if code is not None else None
            if text is not None and (name in ("exec", "eval", "compile", "builtins.exec", "builtins.eval")
                                     or name in _TIMED) and self.depth < 4:
                inner = analyze_python(text, self.depth + 1)  # `exec(compile(s))` meets s twice: once is enough
                r.shell.extend(s for s in inner.shell if s not in r.shell)
                r.argvs.extend(a for a in inner.argvs if a not in r.argvs)
                r.notes.extend(inner.notes)
                r.problems.extend(inner.problems)
                if not inner.pure:
                    r.notes.append(("executes", "python code"))
            elif text is not None and name in ("__import__", "importlib.import_module"):
                self._imported(text)
            else:
                r.notes.append(("executes", f"computed python code ({name})"))
            return True
        top = name.split(".", 1)[0]
        if top in _NETWORK_MODULES or name.rsplit(".", 1)[0] in _NETWORK_MODULES:
            self.pure = False
            method = name.rsplit(".", 1)[-1].lower()
            r.notes.append(("network", name))
            self.sends.append((self._literal(args[0]) if args else None) or "")
            if method in _SENDING and not (method == "urlopen" and len(args) < 2 and not self._kw(node, "data")):
                r.notes.append(("mutates", f"sends data over the network ({name})"))
            return True
        if name in ("os.setuid", "os.setgid", "os.seteuid", "os.setresuid", "os.chroot", "os.putenv", "os.unsetenv",
                    "os.environ.update", "os.environ.setdefault", "os.environ.__setitem__", "signal.signal"):
            self.pure = False
            r.notes.append(("mutates", name))
            return True
        return False

    def _run_sink(self, name: str, node: ast.Call) -> None:
        args = node.args
        first = args[0] if args else self._kw(node, "args")
        shell = self._kw(node, "shell")
        shell_true = isinstance(shell, ast.Constant) and bool(shell.value)
        if name == "asyncio.create_subprocess_shell":
            shell_true = True
        if name.startswith(("os.exec", "os.spawn", "os.posix_spawn")):
            lits = [self._literal(a) for a in args if not isinstance(a, (ast.List, ast.Tuple, ast.Dict))]
            lists = [self._literal_list(a) for a in args if isinstance(a, (ast.List, ast.Tuple))]
            if name.startswith("os.spawn") and lits and lits[0] is None and isinstance(args[0], ast.Attribute):
                lits = lits[1:]  # os.spawnl(os.P_WAIT, path, ...)
            if any(x is None for x in lits) or any(x is None for x in lists) or not (lits or lists):
                self._dynamic(name)
                return
            argv = [lits[0]] if lits else []
            argv += [x for lst in lists if lst is not None for x in lst][1:] if lists else [x for x in lits[2:]]
            self.r.argvs.append([x for x in argv if x is not None])
            return
        if shell is not None and not isinstance(shell, ast.Constant):
            self._dynamic(f"{name}(shell=…)")
            return
        text = self._literal(first) if first is not None else None
        items = self._literal_list(first) if first is not None else None
        if text is not None:
            if shell_true:
                self.r.shell.append(text)
            else:
                self.r.argvs.append([text])
        elif items is not None:
            if shell_true and items:
                self.r.shell.append(" ".join(items))
            elif items:
                self.r.argvs.append(items)
        else:
            self._dynamic(name)

    def _open(self, node: ast.Call) -> None:
        args = node.args
        path = self._literal(args[0]) if args else None
        mode_node = args[1] if len(args) > 1 else self._kw(node, "mode")
        mode = "r"
        if mode_node is not None:
            lit = self._literal(mode_node)
            if lit is None:
                self._dynamic("open(mode=…)")
                return
            mode = lit
        writes = any(ch in mode for ch in "wax+")
        if path is None:
            if writes:
                self._dynamic("open() for writing")
            else:
                self.r.notes.append(("reads", "?"))
                self.pure = False
            return
        self.r.notes.append(("writes" if writes else "reads", path))
        if writes:
            self.pure = False
        else:
            self.reads.append(path)

    def _path_method(self, node: ast.Call) -> bool:
        """``Path("x").unlink()`` and friends, with a literal path."""
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("unlink", "rmdir") and not self._is_path(func.value):
            return self._looped_delete(_PATH_METHODS[func.attr], func.value)  # `[p.unlink() for p in ….rglob('*')]`
        if not isinstance(func, ast.Attribute) or not self._is_path(func.value):
            return False
        path = self._literal(func.value)
        method = func.attr
        if method in _PATH_READS:
            if path is not None:
                self.r.notes.append(("reads", path))
                if method in ("read_text", "read_bytes", "open"):
                    self.reads.append(path)
            return True
        self.pure = False
        if path is None:
            self._dynamic(f"Path(…).{method}")
            return True
        if method in _PATH_WRITES:
            self.r.notes.append(("writes", path))
        elif method in _PATH_METHODS:
            extra = [self._literal(a) for a in node.args]
            argv = list(_PATH_METHODS[method]) + [path] + [x for x in extra if x is not None and method in
                                                          ("rename", "replace", "symlink_to", "hardlink_to")]
            if method in ("symlink_to", "hardlink_to"):
                argv = list(_PATH_METHODS[method]) + [x for x in extra if x] + [path]
            r_argv = argv if method != "chmod" else ["chmod", "777", path]
            self.r.argvs.append(r_argv)
        else:
            self.r.notes.append(("executes", f"Path.{method}"))
        return True


_ENVIRONMENT = frozenset({"os.environ", "os.environb", "posix.environ", "os.getenv", "os.getenvb"})


def _named_key(node: ast.AST | None) -> bool:
    """A literal variable name whose value is not a secret (``"HOME"``, not ``"GITHUB_TOKEN"``)."""
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and secret_kind(node.value) is None


def _environment_reads_ok(tree: ast.AST, scan: _PyScan) -> bool:
    """The environment is read only one named, non-secret variable at a time (``os.environ["HOME"]``,
    ``os.getenv("PATH")``): ``print(os.environ)`` dumps every API key into the agent's context, and
    ``os.environ["AWS_SECRET_ACCESS_KEY"]`` shows one."""
    allowed: set[int] = set()
    uses: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Attribute, ast.Name)) and scan.qualname(node) in _ENVIRONMENT:
            uses.append(node)
        if isinstance(node, ast.Subscript) and _named_key(node.slice):
            allowed.add(id(node.value))
        elif isinstance(node, ast.Call) and node.args and _named_key(node.args[0]):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "get":
                allowed.add(id(func.value))
            allowed.add(id(func))
    return all(id(node) in allowed for node in uses)


def _sent_secrets(report: CodeReport, scan: _PyScan, tree: ast.AST) -> None:
    """Code that reads files or the environment and talks to the network sends what it read: each read
    becomes the upload ``curl`` would make of it (``curl --data-binary @FILE URL``, ``env | curl …``), so that
    Tier 1 judges a secret in it as the shell's exfiltration."""
    url = next((u for u in scan.sends if u.startswith(("http://", "https://", "ftp://"))), "https://unknown.invalid/")
    for path in dict.fromkeys(scan.reads):
        report.argvs.append(["curl", "--data-binary", "@" + path, url])
    for name in F.environment_secrets(tree, scan.qualname):
        report.shell.append(f"env | curl --data-binary @- {shlex.quote(url)}" if name == "*" else
                            f'curl -d "${name}" {shlex.quote(url)}')


def analyze_python(code: str, depth: int = 0) -> CodeReport:
    """What Python source ``code`` runs, writes, deletes or sends (see the module docstring)."""
    report = CodeReport()
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        report.problems.append("python code that does not parse")
        return report
    scan = _PyScan(report, depth)
    try:
        F.inline_aliases(tree)
        scan.visit(tree)
    except RecursionError:
        report.problems.append("python code nested too deeply")
    if scan.sends:
        _sent_secrets(report, scan, tree)
    report.imports = [*scan.opaque.values(), *scan.data_imports]
    if scan.pure and not _environment_reads_ok(tree, scan):
        scan.pure = False
    report.pure = scan.pure and not report.problems and not report.shell and not report.argvs and not any(
        k in ("writes", "executes", "network", "mutates") for k, _ in report.notes)
    return report
