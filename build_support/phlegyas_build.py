"""The build backend: setuptools, plus mypy (for mypyc) when a wheel is built to be compiled.

An editable install (``pip install -e``) stays pure Python so that source edits take effect at once,
and needs nothing beyond setuptools; ``PHLEGYAS_PURE=1`` makes any build pure. See ``setup.py``.

A wheel build (``pip install .``, ``pip wheel .``) leaves nothing in the source tree: pip builds in
place, so every intermediate product — setuptools' ``build/`` and ``bdist.*`` staging, the
``.egg-info``, mypyc's generated C and mypy's cache — goes to a temporary directory made for the
build and removed after it (``scratch_options``, ``mypyc_options``). Editable builds keep setuptools'
defaults: a strict editable install links into ``build/`` and needs it to stay.
"""
from __future__ import annotations

import contextlib
import glob
import os
import tempfile

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403 - every hook, as setuptools defines it

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MYPY = "mypy>=2.0,<3"
BUILD_RECORD = "phlegyas/build.json"
"""What a wheel build wanted and made (``phlegyas.build_record()`` reads it; ``--version`` and
``phlegyas doctor`` say when a compiled build fell back to pure Python)."""

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


# -- where a build writes --------------------------------------------------------------------------

_scratch: list[str] = []  # the scratch directory of each wheel-build hook under way (innermost last)


@contextlib.contextmanager
def scratch_directory():
    """A temporary directory for one build hook's products, removed when the hook returns."""
    with tempfile.TemporaryDirectory(prefix="phlegyas-build-") as path:
        _scratch.append(path)
        try:
            yield path
        finally:
            _scratch.pop()


def active_scratch() -> str | None:
    """The scratch directory of the wheel build under way; None outside one (an editable build,
    ``python setup.py`` run by hand), where setuptools' defaults stand."""
    return _scratch[-1] if _scratch else None


def scratch_options(scratch: str) -> dict[str, dict[str, str]]:
    """setuptools command options (``setup(options=…)``) that put every build directory under ``scratch``:
    ``build`` (``build_lib``, ``build_temp`` and ``build_scripts`` derive from ``build_base``), ``bdist``
    (the wheel's staging tree) and ``egg_info`` (the ``.egg-info`` directory)."""
    return {
        "build": {"build_base": os.path.join(scratch, "build")},
        "bdist": {"bdist_base": os.path.join(scratch, "bdist")},
        "egg_info": {"egg_base": scratch},
    }


def mypyc_options(scratch: str | None) -> tuple[dict[str, str], list[str]]:
    """(keyword arguments for ``mypycify``, mypy options to put before the paths): the generated C in
    ``scratch/build/mypyc`` (mypyc's default is ``./build``), mypy's cache in ``scratch/mypy_cache`` (its
    default is ``./.mypy_cache``). Outside a wheel build (``scratch`` None) mypyc's defaults stand.

    The C files are the extensions' sources, and setuptools refuses an absolute source path unless it
    lies in a build directory (``build_py._filter_build_files``): hence under ``build_base``."""
    if scratch is None:
        return {}, []
    build_base = scratch_options(scratch)["build"]["build_base"]
    return ({"target_dir": os.path.join(build_base, "mypyc")},
            ["--cache-dir", os.path.join(scratch, "mypy_cache")])


# -- the hooks -------------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    with scratch_directory():  # setuptools runs egg_info here: it would write phlegyas.egg-info
        requires = _setuptools.get_requires_for_build_wheel(config_settings)
    return requires if pure_build() else [*requires, MYPY]


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    with scratch_directory():
        return _setuptools.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    with scratch_directory():
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
