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

COMPILED = [
    "phlegyas/analysis.py",
    "phlegyas/engine.py",
    "phlegyas/checkers.py",
    "phlegyas/tier2_5_trust.py",
    "phlegyas/paths.py",
    "phlegyas/shell/parse.py",
    "phlegyas/shell/plain.py",
    "phlegyas/shell/analyze.py",
    "phlegyas/shell/effects.py",
    "phlegyas/shell/report.py",
    "phlegyas/shell/options.py",
    "phlegyas/shell/programs.py",
    "phlegyas/shell/invocation.py",
    "phlegyas/tier1_dangerous.py",
    "phlegyas/tier2_safe.py",
] + sorted(set(glob.glob("phlegyas/tier1/*.py", root_dir=_ROOT)) - {"phlegyas/tier1/__init__.py"})
"""Not compiled: shell/interpreters.py (its ``ast.NodeVisitor`` subclass dispatches by name, which
compiled classes do not); model.py (its frozen dataclasses build their ``__dict__`` by hand, for speed);
package ``__init__`` files (a compiled one gets a wrong ``__path__``, so its submodules cannot be
imported from outside); everything outside the decision's hot path (policy, rules, hook, CLI, stores)."""


def pure_build() -> bool:
    return os.environ.get("PHLEGYAS_PURE", "") not in ("", "0")


def get_requires_for_build_wheel(config_settings=None):
    requires = _setuptools.get_requires_for_build_wheel(config_settings)
    return requires if pure_build() else [*requires, MYPY]
