"""Compile the analysis hot path with mypyc when building a wheel; stay pure Python otherwise.

``pip install .`` builds a wheel: the modules in ``build_support/phlegyas_build.COMPILED`` (parsing, expansion, effects, Tier 1,
Tier 2, paths) become C extensions, which halves the time of a decision (benchmarks/latency.py).
The same source runs unchanged when it is not compiled, and nothing else differs:
tests/test_compiled.py builds such a wheel and checks that it decides every corpus command exactly as
the pure-Python code does.

Pure Python instead:
- ``pip install -e .`` (editable), so that an edit to a source file takes effect at once;
- ``PHLEGYAS_PURE=1 pip install .``;
- when mypyc or a C compiler is missing or fails: a warning, and the wheel holds the sources alone.

pip hides a build's warnings, so the wheel records what happened in ``phlegyas/build.json`` (what the
build wanted, what it made, why it fell back): ``phlegyas --version`` and ``phlegyas doctor`` say so.
Every intermediate product goes to the wheel build's scratch directory (``phlegyas_build``), never
into the source tree.
"""
from __future__ import annotations

import json
import os
import sys

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "build_support"))
from phlegyas_build import BUILD_RECORD, COMPILED, active_scratch, mypyc_options, pure_build, scratch_options  # noqa: E402

COMPILED_NAME, PURE_NAME = "compiled (mypyc)", "pure Python"  # as phlegyas.analysis_build() says


def write_record(build_lib: str, *, analysis: str, why: str | None) -> None:
    """``phlegyas/build.json`` in the wheel: what this build wanted, what it made, and why not more."""
    record = {"wanted": "pure" if pure_build() else "compiled", "analysis": analysis, "why": why}
    path = os.path.join(build_lib, BUILD_RECORD)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(record, fh, indent=1)
        fh.write("\n")


class _Distribution(Distribution):
    def has_ext_modules(self) -> bool:  # a compiled wheel is tagged for this Python and platform
        return not pure_build()


class _BuildPy(build_py):
    def run(self) -> None:
        super().run()
        if not self.editable_mode:  # build_ext rewrites it when it compiles (a pure build skips build_ext)
            write_record(self.build_lib, analysis=PURE_NAME, why="PHLEGYAS_PURE=1" if pure_build() else None)


class _BuildExt(build_ext):
    fallback: str | None = None  # why the analysis is not compiled, when mypyc could not be used

    def finalize_options(self) -> None:
        building = not self.distribution.commands or any(
            c in ("bdist_wheel", "build", "build_ext", "install") for c in self.distribution.commands)
        if building and not self.editable_mode and not pure_build():  # not for metadata (dist_info)
            self.distribution.ext_modules = self._compiled_extensions()
        super().finalize_options()

    def _compiled_extensions(self) -> list:
        try:
            from mypyc.build import mypycify
        except ImportError:
            self.fallback = "mypy (mypyc) is not installed"
            self.warn(f"phlegyas: {self.fallback}; installing the pure-Python analysis")
            return []
        where, mypy_args = mypyc_options(active_scratch())
        try:
            return mypycify([*mypy_args, *COMPILED], opt_level="1", group_name="phlegyas._native", **where)
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - mypyc exits on a type error: fall back to the sources
            self.fallback = f"mypyc cannot compile it: {type(exc).__name__}: {exc}"[:300]
            self.warn(f"phlegyas: mypyc cannot compile the analysis ({type(exc).__name__}: {exc}); "
                      "installing the pure-Python analysis")
            return []

    def run(self) -> None:
        if self.editable_mode:
            return
        if pure_build() or not self.extensions:
            self._remove_native()  # a build by hand (python setup.py) uses ./build: an earlier build's modules may be there
            write_record(self.build_lib, analysis=PURE_NAME, why="PHLEGYAS_PURE=1" if pure_build() else self.fallback)
            return
        if not self.parallel:
            self.parallel = os.cpu_count() or 1
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - a compiler failure: the sources alone, never half-built
            self._remove_native()
            self.warn(f"phlegyas: compiling the analysis failed ({type(exc).__name__}: {exc}); "
                      "installing the pure-Python analysis")
            write_record(self.build_lib, analysis=PURE_NAME,
                         why=f"the C compiler failed: {type(exc).__name__}: {exc}"[:300])
            return
        write_record(self.build_lib, analysis=COMPILED_NAME, why=None)

    def _remove_native(self) -> None:
        """Delete every extension module under the build's package directory."""
        from importlib.machinery import EXTENSION_SUFFIXES

        for root, _dirs, files in os.walk(os.path.join(self.build_lib, "phlegyas")):
            for name in files:
                if name.endswith(tuple(EXTENSION_SUFFIXES)):
                    os.remove(os.path.join(root, name))


_scratch = active_scratch()
setup(distclass=_Distribution, cmdclass={"build_py": _BuildPy, "build_ext": _BuildExt},
      options=scratch_options(_scratch) if _scratch else {})
