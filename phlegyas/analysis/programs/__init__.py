"""Program knowledge as data: what each program does with its options and operands.

One table, ``PROGRAMS``, maps a program name to a ``Spec``: is it read-only, which Tier 2 category it
belongs to, how its operands are used (read, written, deleted …), which options take a value, which
execute code, write files, upload, or change state, and its subcommands (git, npm, docker …). A few
programs have a syntax that flags cannot describe (``find`` expressions, ``tar`` modes, ``dd``
operands); their entry names a ``handler`` that ``shell.handlers`` implements. ``WRAPPERS`` says how to
peel ``sudo``, ``env``, ``timeout`` …; ``SHELLS`` and ``INTERPRETERS`` how code reaches a shell or a
language runtime.

Every entry carries ``examples``: ``(command line, expectation)`` pairs that tests/test_programs.py runs
through the analysis. An expectation is a space-separated list of labels: ``readonly``, ``safe``,
``notsafe``, ``reads``, ``writes``, ``deletes``, ``executes``, ``network``, ``upload``, ``mutates``,
``unknown`` (see the test for their exact meaning).

The modules: ``spec`` (the entry types, the categories, the helpers the tables are written with), one
module per family of programs (``readers``, ``network``, ``files``, ``system``, ``git``, ``packages``,
``build``, ``infra``, ``runtimes``, ``wrappers``), and ``table``, which assembles ``PROGRAMS`` from the
families in a fixed order and finds an entry by name. Everything is re-exported here, so callers write
``from phlegyas.analysis import programs as P`` and ``P.PROGRAMS``, ``P.READ_ONLY``, ``P.spec_for`` ….
"""
from phlegyas.analysis.programs.build import MAKE_PROGRAM_VARS, SAFE_GOALS
from phlegyas.analysis.programs.files import (
                                              AWK_VALUES,
                                              CHMOD_VALUES,
                                              CP_VALUES,
                                              EQUIVALENTS,
                                              INSTALL_VALUES,
                                              SED_VALUES,
                                              TOUCH_VALUES,
)
from phlegyas.analysis.programs.git import GIT, GIT_HARMLESS_CONFIG
from phlegyas.analysis.programs.network import CURL_VALUES, RSYNC_VALUES, SCP_VALUES, SSH_VALUES, WGET_VALUES
from phlegyas.analysis.programs.packages import NPM, PIP, SAFE_SCRIPT_WORDS, UV
from phlegyas.analysis.programs.readers import (
                                              CUT_VALUES,
                                              DIFF_VALUES,
                                              GREP_VALUES,
                                              HEAD_VALUES,
                                              JQ_VALUES,
                                              LS_VALUES,
                                              PS_VALUES,
                                              RG_VALUES,
                                              SORT_VALUES,
                                              TAIL_VALUES,
)
from phlegyas.analysis.programs.runtimes import (
    DENO_EVAL,
    DENO_EVAL_FLAGS,
    INTERPRETERS,
    PYTHON_MODULES,
    SHELL_VALUE_OPTS,
    SHELLS,
)
from phlegyas.analysis.programs.spec import (
                                              GIT_LOCAL,
                                              GIT_READ,
                                              LINT_FORMAT,
                                              NAVIGATION,
                                              NET_READ,
                                              NETWORK_CATEGORIES,
                                              OPERAND_MODES,
                                              PKG_INSTALL,
                                              PROJECT_EDIT,
                                              READ_ONLY,
                                              READONLY_TOOL,
                                              SAFE_WRITE,
                                              TEST_BUILD,
                                              WEB_READ,
                                              E,
                                              Interpreter,
                                              PythonModule,
                                              Runner,
                                              Spec,
                                              Wrapper,
                                              mut,
                                              ro,
                                              subs,
)
from phlegyas.analysis.programs.table import (
                                              PROGRAMS,
                                              all_examples,
                                              canonical,
                                              resolve_path_program,
                                              spec_for,
                                              table_spec,
)
from phlegyas.analysis.programs.wrappers import RUNNERS, WRAPPERS

__all__ = [
    "AWK_VALUES", "CHMOD_VALUES", "CP_VALUES", "EQUIVALENTS", "CURL_VALUES", "CUT_VALUES", "DIFF_VALUES", "E", "GIT",
    "DENO_EVAL", "DENO_EVAL_FLAGS",
    "GIT_HARMLESS_CONFIG", "GIT_LOCAL", "GIT_READ", "GREP_VALUES", "HEAD_VALUES", "INSTALL_VALUES", "INTERPRETERS",
    "Interpreter", "JQ_VALUES", "LINT_FORMAT", "LS_VALUES", "NAVIGATION", "NETWORK_CATEGORIES", "NET_READ", "NPM",
    "OPERAND_MODES", "PIP", "PKG_INSTALL", "PROGRAMS", "PROJECT_EDIT", "PS_VALUES", "PYTHON_MODULES",
    "MAKE_PROGRAM_VARS",
    "PythonModule", "READONLY_TOOL", "READ_ONLY", "RG_VALUES", "RSYNC_VALUES", "RUNNERS", "Runner", "SAFE_GOALS",
    "SAFE_SCRIPT_WORDS", "SAFE_WRITE", "SCP_VALUES", "SED_VALUES", "SHELLS", "SHELL_VALUE_OPTS", "SORT_VALUES",
    "SSH_VALUES", "Spec", "TAIL_VALUES", "TEST_BUILD", "TOUCH_VALUES", "UV", "WEB_READ", "WGET_VALUES", "WRAPPERS",
    "Wrapper", "all_examples", "canonical", "mut", "resolve_path_program", "ro", "spec_for", "subs", "table_spec",
]
