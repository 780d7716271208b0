"""The build leaves the source tree as it was, and the wheel records whether the analysis was compiled.

pip builds in place (in the source tree), so every directory a build writes — setuptools' ``build/``,
its ``bdist.*`` staging and the ``.egg-info``, mypyc's generated C, mypy's cache — must point into the
build's scratch directory (``build_support/phlegyas_build``). A pure build takes seconds, so it runs
here in full; a compiled one takes minutes: ``tests/test_compiled.py`` checks that its source copy
stays clean, and here the options that send mypyc's output to the scratch directory are checked.
The build record (``phlegyas/build.json``) is what ``--version`` and ``doctor`` read when the
install is pure Python though its build meant to compile it (pip hides the build's warning).
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import phlegyas

REPO = Path(__file__).resolve().parent.parent
SOURCES = ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in")
HINT_FIX = "pip install --force-reinstall --no-deps --no-cache-dir phlegyas"


def backend():
    spec = importlib.util.spec_from_file_location("phlegyas_build_under_test", REPO / "build_support" / "phlegyas_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def source_copy(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyc", "build.json")
    shutil.copytree(REPO / "phlegyas", dest / "phlegyas", ignore=ignore)
    shutil.copytree(REPO / "build_support", dest / "build_support", ignore=ignore)
    for name in SOURCES:
        shutil.copy2(REPO / name, dest / name)
    return dest


def tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def test_every_build_directory_is_in_the_scratch_directory(tmp_path):
    build = backend()
    scratch = str(tmp_path / "scratch")
    options = build.scratch_options(scratch)
    assert set(options) == {"build", "bdist", "egg_info"}  # build_lib, build_temp, the wheel's staging, .egg-info
    where, mypy_args = build.mypyc_options(scratch)
    paths = [v for command in options.values() for v in command.values()] + [where["target_dir"], mypy_args[1]]
    assert mypy_args[0] == "--cache-dir"
    assert all(p == scratch or p.startswith(scratch + os.sep) for p in paths), paths
    # setuptools accepts an absolute extension source (mypyc's C) only inside a build directory
    assert where["target_dir"].startswith(options["build"]["build_base"] + os.sep)
    assert build.mypyc_options(None) == ({}, [])  # outside a wheel build (editable, by hand): the defaults
    assert build.active_scratch() is None
    with build.scratch_directory() as made:
        assert build.active_scratch() == made and os.path.isdir(made)
    assert not os.path.exists(made) and build.active_scratch() is None


@pytest.fixture(scope="module")
def pure_wheel(tmp_path_factory) -> tuple[Path, Path, set[str]]:
    """(wheel, the source copy it was built from, that copy's files before the build)."""
    base = tmp_path_factory.mktemp("pure-build")
    src = source_copy(base / "src")
    before = tree(src)
    env = dict(os.environ, PHLEGYAS_PURE="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                           "-w", str(base / "dist"), str(src)], cwd=src, env=env, capture_output=True, text=True,
                          timeout=600, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (wheel,) = (base / "dist").glob("phlegyas-*.whl")
    return wheel, src, before


def test_a_wheel_build_leaves_the_source_tree_as_it_was(pure_wheel):
    _wheel, src, before = pure_wheel
    added = sorted(tree(src) - before)
    assert not added, f"the build wrote into the source tree: {added[:10]}"


def test_the_wheel_records_what_the_build_made(pure_wheel):
    wheel, _src, _before = pure_wheel
    with zipfile.ZipFile(wheel) as zf:
        record = json.loads(zf.read("phlegyas/build.json"))
    assert record == {"wanted": "pure", "analysis": "pure Python", "why": "PHLEGYAS_PURE=1"}


@pytest.fixture(scope="module")
def installed(pure_wheel, tmp_path_factory) -> tuple[str, Path]:
    """(python of a venv holding the pure wheel, with this environment's dependencies; its build.json)."""
    wheel, _src, _before = pure_wheel
    venv = tmp_path_factory.mktemp("pure-install") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
                    "--disable-pip-version-check", str(wheel)], check=True, timeout=300, capture_output=True)
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # this environment's packages after the wheel's own: every site directory this process sees, since a
    # .pth-added directory's own .pth files are not run (tests/test_compiled.py borrows that way)
    borrowed = [p for p in sys.path if p.endswith("site-packages") and os.path.isdir(p)]
    (site / "zz_borrowed_dependencies.pth").write_text("\n".join(borrowed) + "\n")
    return python, site / "phlegyas" / "build.json"


def run(python: str, *args: str, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PHLEGYAS_", "ANTHROPIC_", "OPENAI_"))}
    env.update(HOME=str(home), PHLEGYAS_HOME=str(home / ".phlegyas"))
    return subprocess.run([python, "-P", "-m", "phlegyas", *args], cwd=home, env=env, capture_output=True,
                          text=True, timeout=120)


def test_version_hints_at_the_compiled_analysis_only_when_the_build_meant_it(installed, tmp_path):
    python, record = installed
    original = record.read_text()
    version = run(python, "--version", home=tmp_path)
    assert version.stdout == f"phlegyas {phlegyas.__version__} (analysis: pure Python)\n"  # PHLEGYAS_PURE: no hint
    doctor = json.loads(run(python, "doctor", "--json", home=tmp_path).stdout)
    (analysis,) = [c for c in doctor["checks"] if c["name"] == "analysis"]
    assert analysis["level"] == "ok" and "PHLEGYAS_PURE=1" in analysis["detail"]
    # what setup.py writes when mypyc is missing (tests/test_compiled.py makes real fallback builds)
    record.write_text(json.dumps({"wanted": "compiled", "analysis": "pure Python",
                                  "why": "mypy (mypyc) is not installed"}))
    try:
        version = run(python, "--version", home=tmp_path)
        doctor = json.loads(run(python, "doctor", "--json", home=tmp_path).stdout)
    finally:
        record.write_text(original)
    first, hint = version.stdout.splitlines()
    assert first == f"phlegyas {phlegyas.__version__} (analysis: pure Python)"
    assert hint.startswith("hint: the build could not compile the analysis (mypy (mypyc) is not installed)")
    assert HINT_FIX in hint
    (analysis,) = [c for c in doctor["checks"] if c["name"] == "analysis"]
    assert analysis["level"] == "warning" and HINT_FIX in analysis["fix"]


def test_the_project_metadata_reads_without_a_deprecation_warning():
    """setuptools warns about a ``license = {text = …}`` table (PEP 639 wants an SPDX string and
    license-files); the metadata is written so that no warning of any kind comes out."""
    import warnings

    from setuptools.config.pyprojecttoml import apply_configuration
    from setuptools.dist import Distribution

    root = Path(__file__).resolve().parent.parent
    with warnings.catch_warnings(record=True) as caught:  # what setuptools checks when it builds
        warnings.simplefilter("always")
        dist = apply_configuration(Distribution(), str(root / "pyproject.toml"))
    assert [str(w.message)[:200] for w in caught] == []
    assert dist.metadata.license_expression == "MIT" and (root / "LICENSE").is_file()
