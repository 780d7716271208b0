"""The compiled analysis (setup.py, mypyc) decides exactly as the pure-Python sources do.

The tests run on an editable install, which is pure Python. Here one wheel is built from a copy of the
sources, as ``pip install .`` builds it (about a minute and a half on two cores), and installed into a
fresh virtual environment that borrows this environment's dependencies. Against that install:

- the build leaves the source copy as it was (no ``build/``, ``.mypy_cache/``, ``.egg-info``), and
  its record (``phlegyas/build.json``) says the analysis was compiled;
- every module setup.py compiles is an extension module, and ``phlegyas --version`` says so;
- ``phlegyas check --jsonl`` prints byte for byte what the pure-Python code prints, for every command
  of the shared corpora (about 40,000);
- the whole test suite passes (but for this file and the end-to-end Claude Code tests).

And the fallbacks: ``PHLEGYAS_PURE=1`` builds a pure wheel; a type error (mypyc refuses) or a C
compiler that fails leaves a wheel of sources only, with a warning, never a half-built one, and never
one holding extension modules an earlier build left in ``build/``. The compiled modules must type-check
without the runtime dependencies, as they are in pip's isolated build environment.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from conftest import benchmarks_common, require_corpus

import phlegyas

REPO = Path(__file__).resolve().parent.parent
CORPORA = benchmarks_common.CORPORA
COMPILED_NAME = "compiled (mypyc)"

_CC = (sysconfig.get_config_var("CC") or "cc").split()[0]
pytestmark = pytest.mark.skipif(shutil.which(_CC) is None,
                                reason="no C compiler: pip install . installs the pure-Python analysis")


def _compiled_modules() -> list[str]:
    spec = importlib.util.spec_from_file_location("phlegyas_build", REPO / "build_support" / "phlegyas_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [p[:-3].replace("/", ".") for p in module.COMPILED]


def _sources(dest: Path) -> Path:
    """A copy of what `pip install .` builds from (no build/ left in the checkout, no stale objects)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyc")
    shutil.copytree(REPO / "phlegyas", dest / "phlegyas", ignore=ignore)
    shutil.copytree(REPO / "build_support", dest / "build_support", ignore=ignore)
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        shutil.copy2(REPO / name, dest / name)
    return dest


def _build_wheel(src: Path, out: Path, **env_extra: str) -> tuple[Path, str]:
    env = {k: v for k, v in os.environ.items() if k != "PHLEGYAS_PURE"}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", **env_extra)
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
                           "-w", str(out), str(src)], cwd=src, env=env, capture_output=True, text=True,
                          timeout=1200, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    wheels = list(out.glob("phlegyas-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0], proc.stdout + proc.stderr


def _record(wheel: Path) -> dict:
    """The build record setup.py writes into the wheel (what ``--version`` and ``doctor`` read)."""
    with zipfile.ZipFile(wheel) as zf:
        return json.loads(zf.read("phlegyas/build.json"))


def _native_members(wheel: Path) -> list[str]:
    from importlib.machinery import EXTENSION_SUFFIXES

    with zipfile.ZipFile(wheel) as zf:
        return [n for n in zf.namelist() if n.endswith(tuple(EXTENSION_SUFFIXES))]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> Path:
    """The python of a virtual environment holding the compiled wheel (dependencies borrowed)."""
    base = tmp_path_factory.mktemp("compiled")
    src = _sources(base / "src")
    before = {str(p.relative_to(src)) for p in src.rglob("*")}
    wheel, _ = _build_wheel(src, base / "dist")
    added = sorted({str(p.relative_to(src)) for p in src.rglob("*")} - before)
    assert not added, f"the compiled build wrote into the source tree (build/, .mypy_cache/ …): {added[:10]}"
    assert _record(wheel) == {"wanted": "compiled", "analysis": COMPILED_NAME, "why": None}
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    "--disable-pip-version-check", str(wheel)], check=True, timeout=300, capture_output=True)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # The dependencies (tree-sitter, mcp, pytest …) come from this environment, after the wheel's own
    # site-packages; a .pth-added directory's own .pth files are not run, so this environment's
    # editable phlegyas stays out.
    Path(site, "zz_borrowed_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return python


def _run(python: Path | str, *args: str, cwd: Path, home: Path, stdin=None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PHLEGYAS_", "ANTHROPIC_", "OPENAI_"))}
    env.update(HOME=str(home), PHLEGYAS_HOME=str(home / ".phlegyas"))
    return subprocess.run([str(python), "-P", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=1200, stdin=stdin if stdin is not None else subprocess.DEVNULL)


def test_the_hot_modules_are_compiled(compiled, tmp_path):
    code = ("import importlib, sys; from importlib.machinery import EXTENSION_SUFFIXES as S\n"
            "for name in sys.argv[1:]:\n"
            "    print(name, importlib.import_module(name).__file__.endswith(tuple(S)))\n")
    proc = _run(compiled, "-c", code, *_compiled_modules(), cwd=tmp_path, home=tmp_path)
    assert proc.returncode == 0, proc.stderr
    flags = dict(line.split() for line in proc.stdout.splitlines())
    assert flags and all(v == "True" for v in flags.values()), flags
    assert "phlegyas.analysis.report" in flags and "phlegyas.analysis.tier1.delete" in flags
    version = _run(compiled, "-m", "phlegyas", "--version", cwd=tmp_path, home=tmp_path)
    assert version.stdout.strip() == f"phlegyas {phlegyas.__version__} (analysis: {COMPILED_NAME})"


@pytest.fixture(scope="module")
def corpora() -> None:
    """Before the wheel is built: the corpora are there (or the test skips, or fails under CI=true)."""
    require_corpus(*CORPORA)


@pytest.mark.parametrize("corpus", CORPORA)
def test_compiled_and_pure_decide_every_corpus_command_alike(corpora, compiled, tmp_path, corpus):
    if phlegyas.analysis_build() != "pure Python":
        pytest.skip("this environment's own phlegyas is compiled: nothing pure to compare with")
    source = Path(benchmarks_common.corpus_path(corpus))
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    args = ("-m", "phlegyas", "check", "--jsonl", str(source), "--no-audit")
    pure = _run(sys.executable, *args, cwd=project, home=home)
    native = _run(compiled, *args, cwd=project, home=home)
    assert pure.returncode in (0, 1, 2) and native.returncode == pure.returncode, native.stderr[-2000:]
    pure_lines, native_lines = pure.stdout.splitlines(), native.stdout.splitlines()
    assert len(pure_lines) == sum(1 for _ in source.open(encoding="utf-8")) > 0
    differ = [(p, n) for p, n in zip(pure_lines, native_lines) if p != n]
    assert len(native_lines) == len(pure_lines) and not differ, differ[:3]


PEOPLE_FACING = ("test_e2e_slack.py", "test_slack.py", "test_slack_hosts.py", "test_fake_slack.py",
                 "test_dashboard_http.py", "test_dashboard_browser.py")
"""Slack, the dashboard and their fakes: they wait on sockets and browsers, not on the analysis."""
SHARED_STORE = ("test_postgres.py", "test_fleet.py", "test_db_cli.py", "test_store_benchmark.py", "test_store.py",
                "test_store_load.py", "test_audit_index.py", "test_mcp.py")
"""The stores' own tests (PostgreSQL's wait on a database server) and the MCP server's, which serves the
approvals store: no store or host module is compiled."""
SERVER_LIFECYCLE = ("test_hook_server.py",)
"""The hook server stopped, replaced and displaced: process and socket handling, none of it compiled (the
decisions it serves are the hook tests', which do run again)."""
WIRING = ("test_doctor.py", "test_install.py", "test_architecture.py", "test_hook_agents.py", "test_build.py",
          "test_build_options.py", "test_ci.py", "test_approvals_cli.py", "test_audit.py", "test_trust_cli.py",
          "test_llm_backends.py", "test_slack_message.py")
"""Settings files, doctor's report, the import contracts, the hook's --agent handling, the build, CI's
script, the approvals and trust commands, the audit log, the model clients, Slack's messages: no compiled
code of their own, and the decisions they make on the way are the other tests'."""


def _not_again() -> tuple[str, ...]:
    """Whole test files the compiled re-run leaves out: the end-to-end tests with real agent binaries and
    each host's protocol tests (their dialects are not compiled), and the groups above."""
    hosts = sorted(p.name for p in (REPO / "tests").glob("test_e2e_*.py")) + \
        sorted(p.name for p in (REPO / "tests").glob("test_host_*.py"))
    return (*PEOPLE_FACING, *SHARED_STORE, *SERVER_LIFECYCLE, *WIRING, *hosts)


def test_the_whole_suite_passes_against_the_compiled_install(compiled, tmp_path):
    proc = _run(compiled, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
                "--deselect", "tests/test_compiled.py",
                # what runs no compiled code of its own: once, in the main run, is enough
                *(a for f in _not_again() for a in ("--deselect", f"tests/{f}")),
                # it runs approver_mcp.py by path from a source checkout; installed, site-packages is its parent
                "--deselect", "tests/test_mcp.py::test_the_script_makes_its_package_importable",
                cwd=REPO, home=tmp_path)
    assert proc.returncode == 0, f"{proc.stdout[-4000:]}\n{proc.stderr[-2000:]}"
    assert f"phlegyas analysis: {COMPILED_NAME}" in proc.stdout  # tests/conftest.py prints what it imported


def test_the_compiled_modules_type_check_without_the_dependencies():
    """mypyc type-checks them in pip's isolated build environment, where tree-sitter is not installed;
    any error there would silently give a pure-Python install."""
    paths = [name.replace(".", "/") + ".py" for name in _compiled_modules()]
    proc = subprocess.run([sys.executable, "-m", "mypy", "--no-site-packages", "--no-incremental", *paths],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:]


def test_pure_builds_and_failed_compiles_hold_the_sources_alone(tmp_path):
    src = _sources(tmp_path / "src")
    pure, _ = _build_wheel(src, tmp_path / "pure", PHLEGYAS_PURE="1")
    assert pure.name.endswith("-py3-none-any.whl") and _native_members(pure) == []
    assert _record(pure) == {"wanted": "pure", "analysis": "pure Python", "why": "PHLEGYAS_PURE=1"}
    # pip builds in the source tree: an extension module left by an earlier build must not ship
    from importlib.machinery import EXTENSION_SUFFIXES

    stale_dir = src / "build" / f"lib.{sysconfig.get_platform()}-{sys.implementation.cache_tag}" / "phlegyas" / "shell"
    stale_dir.mkdir(parents=True)
    (stale_dir / f"report{EXTENSION_SUFFIXES[0]}").write_bytes(b"\x7fELF from an earlier build")
    paths_py = src / "phlegyas" / "analysis" / "paths.py"
    original = paths_py.read_text()
    paths_py.write_text(original + '\n_NOT_AN_INT: int = "a type error mypyc refuses"\n')
    untyped, log = _build_wheel(src, tmp_path / "untyped")
    assert "mypyc cannot compile the analysis" in log
    assert _native_members(untyped) == []
    assert _record(untyped)["wanted"] == "compiled" and _record(untyped)["why"].startswith("mypyc cannot compile it")
    paths_py.write_text(original)
    broken, log = _build_wheel(src, tmp_path / "broken", CC="false", LDSHARED="false")
    assert "compiling the analysis failed" in log
    assert _native_members(broken) == []
    assert _record(broken)["analysis"] == "pure Python" and _record(broken)["why"].startswith("the C compiler failed")
    with zipfile.ZipFile(broken) as zf:
        assert "phlegyas/analysis/report.py" in zf.namelist() and "phlegyas/analysis/tier1/delete.py" in zf.namelist()
