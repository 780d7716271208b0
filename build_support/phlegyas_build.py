"""The build backend: setuptools, plus mypy (for mypyc) when a wheel is built to be compiled.

An editable install (``pip install -e``) stays pure Python so that source edits take effect at once,
and needs nothing beyond setuptools; ``PHLEGYAS_PURE=1`` makes any build pure. See ``setup.py``.
"""
from __future__ import annotations

import glob
import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403 - every hook, as setuptools defines it

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MYPY = "mypy>=2.0,<3"

COMPILED = sorted(
    {p for p in glob.glob("phlegyas/analysis/**/*.py", root_dir=_ROOT, recursive=True)
     if not p.endswith("/__init__.py") and "/interpreters" not in p}
    | {"phlegyas/core/analysis.py", "phlegyas/core/engine.py", "phlegyas/core/checkers.py",
       "phlegyas/policy/checker.py", "phlegyas/trust/checker.py"})
"""The hot path of a decision: the whole analysis layer, the engine and its checkers, the rule checker and
the Tier 2.5 check. Not compiled: the shell analysis's interpreters (``analysis/shell/interpreters*``: an
``ast.NodeVisitor`` subclass dispatches by name, which compiled classes do not); ``core/model.py`` (its
frozen dataclasses build their ``__dict__`` by hand, for speed);
package ``__init__`` files (a compiled one gets a wrong ``__path__``, so its submodules cannot be
imported from outside); everything outside the decision's hot path (policy, rules, hook, CLI, stores)."""


def pure_build() -> bool:
    return os.environ.get("PHLEGYAS_PURE", "") not in ("", "0")


def get_requires_for_build_wheel(config_settings=None):
    requires = _setuptools.get_requires_for_build_wheel(config_settings)
    return requires if pure_build() else [*requires, MYPY]
