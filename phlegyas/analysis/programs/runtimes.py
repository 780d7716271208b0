"""Code runners: language runtimes and ``source`` as programs of the table, the shells, the interpreters'
code options (``-c``, ``-e``, ``-m``) and the ``python -m`` modules we know."""
from __future__ import annotations

from typing import Final

from phlegyas.analysis.programs.spec import (
    EMPTY,
    PKG_INSTALL,
    PROJECT_EDIT,
    TEST_BUILD,
    E,
    Interpreter,
    PythonModule,
    Spec,
    add,
    ro,
)

RUNTIMES: Final[dict[str, Spec]] = {}
"""Language runtimes and ``source``: the last programs of the table."""


def _add(names: str, spec: Spec) -> None:
    add(RUNTIMES, names, spec)


# Language runtimes as plain programs (code analysis lives in shell.interpreters).
_add("java", Spec(operands="none", does="runs a Java program", handler="runs_code",
                  examples=(("java -jar app.jar", "executes notsafe"), ("java -version", "readonly safe"))))
_add("jshell jrunscript jjs groovy groovysh scala clojure clj lein kotlin elixir iex erl escript ghci runghc "
     "runhaskell octave julia gnuplot m4 R Rscript tclsh wish expect guile clisp sbcl racket ocaml swipl gdb lldb "
     "pdb radare2 r2 bpftrace crash pwsh powershell osascript "
     "php-cgi lua luajit texlua irb cobc gtester slsh",
     Spec(operands="none", does="runs code", handler="runs_code",
          examples=(("gdb -batch -ex '!id'", "executes notsafe"), ("Rscript -e 'system(\"id\")'", "executes notsafe"),
                    ("julia -e 'run(`id`)'", "executes notsafe"))))
_add("bc", ro(operands="read", flags=E("-l --mathlib -q --quiet -s --standard -w --warn -h --help -v --version"),
             does="calculates",  # GNU bc has no shell escape (dc's `!` has: dc is not here)
             examples=(("bc -l <<< 'scale=3; 1842/60'", "readonly safe"), ("echo '2^10' | bc", "readonly safe"),
                       ("bc -l ~/.ssh/id_rsa", "notsafe"))))
_add("tex latex pdflatex xelatex lualatex pdftex latexmk context dvips enscript groff nroff troff",
     Spec(category=TEST_BUILD, operands="read", does="typesets documents", handler="tex",
          examples=(("pdflatex paper.tex", "safe"), ("pdflatex --shell-escape x.tex", "executes notsafe"),
                    ("latex '\\immediate\\write18{id}'", "executes notsafe"))))
_add("node nodejs perl python ruby php", Spec(operands="none", handler="runs_code", does="runs code",
                                                examples=(("python -c 'print(1)'", "readonly safe"),
                                                          ("python -c 'import os; os.system(\"id\")'", "executes notsafe"),
                                                          ("node -e 'require(\"child_process\").execSync(\"id\")'",
                                                           "executes notsafe"),
                                                          ("python --version", "readonly safe"),
                                                          ("python -m pytest -q", "safe"),
                                                          ("python -m json.tool a.json", "readonly safe"),
                                                          ("python script.py", "executes notsafe"),
                                                          ("node -p \"require('./package.json').version\"",
                                                           "readonly safe"),
                                                          ("node --check server.js", "readonly safe"),
                                                          ("ruby -e 'puts RUBY_VERSION'", "readonly safe"),
                                                          ("ruby -e 'puts `id`'", "executes notsafe"),
                                                          ("perl -e 'print 1+1'", "readonly safe"),
                                                          ("php -l index.php", "readonly safe"),
                                                          ("php index.php", "executes notsafe"))))
_add("source .", Spec(operands="none", handler="source", does="runs a file in this shell",
                      examples=(("source .venv/bin/activate", "safe"), (". venv/bin/activate", "safe"),
                                ("source ./evil.sh", "executes notsafe"))))
_add("hash", ro(flags=E("-r -l -t -d --help"), operands="none",  # not -p PATH NAME: NAME then runs PATH
                examples=(("hash -r", "readonly safe"), ("hash -t git", "readonly safe"),
                          ("hash -p /tmp/git git", "notsafe"))))


# -- shells and interpreters -----------------------------------------------------------------------

SHELLS: Final = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "pdksh", "ash", "yash", "posh", "fish", "csh",
                    "tcsh", "rc", "elvish", "sash", "nu", "xonsh", "oksh", "loksh", "rbash", "hush"})
SHELL_VALUE_OPTS: Final = E("-o +o -O +O --rcfile --init-file")


INTERPRETERS: Final[dict[str, Interpreter]] = {}


def _interp(names: str, it: Interpreter) -> None:
    for name in names.split():
        INTERPRETERS[name] = it


_interp("python pypy", Interpreter("python", E("-c"), value_opts=E("-W -X -Q"), module_opts=E("-m"),
                                   readonly_opts=E("-V --version -h --help")))
_interp("node nodejs", Interpreter("js", E("-e --eval -p --print"), value_opts=E("--input-type --title"),
                                   readonly_opts=E("-v --version -h --help"),
                                   exec_opts=E("-r --require --import --loader --experimental-loader")))
_interp("bun", Interpreter("js", E("-e --eval -p --print")))
DENO_EVAL = Interpreter("js", E("-e"), value_opts=E("--ext --location --v8-flags --seed --cert --lock --env-file "
                                                    "--node-modules-dir --unstable"),
                        exec_opts=E("-c --config --import-map --preload --require"))
"""``deno eval [OPTIONS] CODE``: JavaScript (or TypeScript) run with every permission; the analysis hands CODE
to this entry as ``-e CODE`` (``interpreter_calls.deno_eval``)."""
DENO_EVAL_FLAGS: Final = E("-p --print -q --quiet --check --no-check -r --reload --no-remote --no-npm --no-config "
                           "--no-lock --cached-only -T --ts")
"""deno eval's options that change neither what runs nor what it can reach."""
_interp("perl", Interpreter("perl", E("-e -E"), value_opts=E("-I -M -m -F -l -0 -x -C -d -D"),
                            readonly_opts=E("-v --version -V"), exec_opts=E("-M -m -d")))
_interp("ruby irb", Interpreter("ruby", E("-e"), value_opts=E("-I -r -C -E -F -0 -x"),
                                readonly_opts=E("-v --version"), exec_opts=E("-r")))
_interp("php", Interpreter("php", E("-r -B -R -E -F"), value_opts=E("-d -c -f -t -S -z"),
                           readonly_opts=E("-v --version -m -i"), exec_opts=E("-d -z -S")))
_interp("lua luajit texlua", Interpreter("lua", E("-e"), value_opts=E("-l"), readonly_opts=E("-v")))
_interp("tclsh wish expect", Interpreter("tcl", E("-c"), readonly_opts=EMPTY))
_interp("R Rscript", Interpreter("r", E("-e --expr"), readonly_opts=E("--version")))
_interp("julia", Interpreter("julia", E("-e --eval -E --print"), readonly_opts=E("-v --version")))
_interp("pwsh powershell pwsh.exe powershell.exe", Interpreter("pwsh", E("-c -Command -command -EncodedCommand -e -ec")))
_interp("cmd cmd.exe", Interpreter("cmd", E("/c /C /k /K")))  # both read by shell.windows, not by these options
_interp("osascript", Interpreter("applescript", E("-e")))
_interp("java", Interpreter("java", EMPTY, value_opts=E("-cp -classpath --class-path -jar -D -p --module-path "
                                                        "--add-modules -agentpath -javaagent --source"),
                            readonly_opts=E("-version --version -help -h -showversion")))


# -- python -m modules -----------------------------------------------------------------------------

PYTHON_MODULES: dict[str, PythonModule] = {
    **{m: PythonModule(program=m) for m in (
        "pytest", "pip", "mypy", "black", "ruff", "flake8", "pylint", "isort", "coverage", "tox", "nox",
        "pyright", "bandit", "pycodestyle", "pydocstyle", "pyflakes", "autopep8", "yapf", "poetry", "pipx",
        "uv", "twine", "build", "vulture", "pip_audit", "mccabe")},
    "unittest": PythonModule(program="unittest"),
    "doctest": PythonModule(spec=Spec(category=TEST_BUILD, operands="read", does="runs doctests")),
    "venv": PythonModule(spec=Spec(category=PROJECT_EDIT, operands="write", does="creates a virtual environment",
                            value_opts=E("--prompt"))),
    "virtualenv": PythonModule(spec=Spec(category=PROJECT_EDIT, operands="write", value_opts=E("-p --python --prompt"))),
    "json.tool": PythonModule(spec=ro(operands="in_out", value_opts=E("--indent"))),
    "py_compile": PythonModule(spec=Spec(category=TEST_BUILD, operands="read", does="compiles Python files")),
    "compileall": PythonModule(spec=Spec(category=TEST_BUILD, operands="read", does="compiles Python files",
                                  value_opts=E("-d -x -i -j -r -o -s -p"))),
    "platform": PythonModule(spec=ro(operands="none")),
    "sysconfig": PythonModule(spec=ro(operands="none")),
    "site": PythonModule(spec=ro(operands="none")),
    "pydoc": PythonModule(spec=ro(operands="read", value_opts=E("-p -n -k"), mutate_flags=E("-p -b -w"),
                                  handler="operands_load")),  # a file named is imported: its code runs
    "ensurepip": PythonModule(spec=Spec(category=PKG_INSTALL, operands="none")),
    "tabnanny": PythonModule(spec=ro()),
    "pyclbr": PythonModule(spec=ro()),
    "tokenize": PythonModule(spec=ro()),
    "ast": PythonModule(spec=ro()),
    "dis": PythonModule(spec=ro()),
}
"""``python -m`` modules we know; any other module runs code we have not seen."""
