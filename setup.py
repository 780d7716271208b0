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
"""
from __future__ import annotations

import os
import sys

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "build_support"))
from phlegyas_build import COMPILED, pure_build  # noqa: E402


class _Distribution(Distribution):
    def has_ext_modules(self) -> bool:  # a compiled wheel is tagged for this Python and platform
        return not pure_build()


class _BuildExt(build_ext):
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
            self.warn("phlegyas: mypy (mypyc) is not installed; installing the pure-Python analysis")
            return []
        try:
            return mypycify(COMPILED, opt_level="1", group_name="phlegyas._native")
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - mypyc exits on a type error: fall back to the sources
            self.warn(f"phlegyas: mypyc cannot compile the analysis ({type(exc).__name__}: {exc}); "
                      "installing the pure-Python analysis")
            return []

    def run(self) -> None:
        if self.editable_mode:
            return
        if pure_build() or not self.extensions:
            self._remove_native()  # pip builds in the source tree: a previous build's modules may be there
            return
        if not self.parallel:
            self.parallel = os.cpu_count() or 1
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - a compiler failure: the sources alone, never half-built
            self._remove_native()
            self.warn(f"phlegyas: compiling the analysis failed ({type(exc).__name__}: {exc}); "
                      "installing the pure-Python analysis")

    def _remove_native(self) -> None:
        """Delete every extension module under the build's package directory."""
        from importlib.machinery import EXTENSION_SUFFIXES

        for root, _dirs, files in os.walk(os.path.join(self.build_lib, "phlegyas")):
            for name in files:
                if name.endswith(tuple(EXTENSION_SUFFIXES)):
                    os.remove(os.path.join(root, name))


setup(distclass=_Distribution, cmdclass={"build_ext": _BuildExt})
