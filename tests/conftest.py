"""Shared fixtures: an isolated home so no test reads or writes the real ~/.claude."""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import phlegyas


def _load_benchmarks_module(name: str):
    path = Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"phlegyas_benchmarks{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclass looks its module up)
    spec.loader.exec_module(module)
    return module


benchmarks_common = _load_benchmarks_module("_common")
"""benchmarks/_common.py: where the corpora are, how to load them, and the targets on them (accuracy.py's)."""
postgres_harness = _load_benchmarks_module("_postgres")
"""benchmarks/_postgres.py: a throwaway PostgreSQL cluster (initdb + pg_ctl in a temp dir)."""


def in_ci() -> bool:
    """CI=true (what CI services set, and .ci/run): what a test needs must be there, a skip would hide it."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def require(what: str, present: bool) -> None:
    """Skip the test when ``what`` it needs is missing, but fail it under CI=true."""
    if not present:
        if in_ci():
            pytest.fail(f"{what}; CI=true, so this is a failure, not a skip", pytrace=False)
        pytest.skip(what)


def require_corpus(*names: str) -> Path:
    """The shared corpora's directory (../shared/corpus beside the repository, or $PHLEGYAS_CORPUS) holding
    the files ``names`` (dcg, tldr …); without them the test skips, or fails under CI=true."""
    directory = Path(benchmarks_common.corpus_dir())
    missing = [n for n in names if not Path(benchmarks_common.corpus_path(n)).is_file()]
    where = "the repository's ../shared/corpus, or $PHLEGYAS_CORPUS"
    require(f"shared corpora not present: no directory {directory} ({where})" if not directory.is_dir() else
            f"shared corpora incomplete: {', '.join(missing)} not in {directory} ({where})", not missing
            and directory.is_dir())
    return directory


def pytest_terminal_summary(terminalreporter):
    """Which phlegyas the tests ran against (tests/test_compiled.py runs them on a compiled install)."""
    terminalreporter.write_line(f"phlegyas analysis: {phlegyas.analysis_build()}")


@pytest.fixture
def isolated_env(tmp_path):
    """Environment variables for a phlegyas process that sees only tmp_path as its home."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PHLEGYAS_", "ANTHROPIC_", "OPENAI_", "CLAUDE_", "SLACK_")) and k not in (
               "APPROVAL_CONFIDENCE_THRESHOLD", "DENIAL_CONFIDENCE_THRESHOLD", "AUDIT_LOG_FILE",
               "ENABLE_AUDIT_LOG", "CACHE_TTL_SECONDS", "PENDING_TTL_SECONDS", "LOG_LEVEL")}
    env["HOME"] = str(home)
    env["PHLEGYAS_HOME"] = str(home / ".claude" / "phlegyas")
    return env


@pytest.fixture
def run_cli(isolated_env, tmp_path):
    """Run `python -m phlegyas ARGS` as a real process in an isolated home; returns CompletedProcess."""
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)

    def run(*args: str, input: str | None = None, cwd=None, env_extra=None):
        env = dict(isolated_env, **(env_extra or {}))
        return subprocess.run([sys.executable, "-m", "phlegyas", *args], input=input, capture_output=True,
                              text=True, cwd=cwd or project, env=env, timeout=120)

    run.project = project
    run.home = isolated_env["HOME"]
    return run


@pytest.fixture(scope="session")
def postgres_cluster():
    """A real PostgreSQL server of the suite's own (initdb + pg_ctl on a free port, its socket in a temp
    dir; as the ``postgres`` user when root), with phlegyas's schema applied; stopped at the end. Skipped
    (failed under CI=true) when no server is installed or psycopg is missing."""
    bin_dir = postgres_harness.find_bin_dir()
    require("no PostgreSQL server installed (apt-get install -y postgresql)", bin_dir is not None)
    require("psycopg is not installed (pip install 'phlegyas[postgres]')",
            importlib.util.find_spec("psycopg") is not None)
    import psycopg  # (only the PostgreSQL tests need the driver)

    from phlegyas.store import pg_schema

    directory = tempfile.mkdtemp(prefix="phlegyas-postgres-")  # not under pytest's 0700 temp: the server's
    os.chmod(directory, 0o711)  # own user (postgres, when root) must reach the cluster inside it
    cluster = postgres_harness.Cluster(os.path.join(directory, "cluster"), bin_dir).start()
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        pg_schema.upgrade(conn)
    yield cluster
    cluster.remove()
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_cluster):
    """The suite's PostgreSQL URL, its phlegyas tables emptied for this test (and the server running)."""
    import psycopg  # (same)

    from phlegyas.store import pg_schema

    postgres_cluster.start_if_stopped()
    with psycopg.connect(postgres_cluster.url, autocommit=True) as conn:
        conn.execute(f"TRUNCATE {', '.join(pg_schema.TABLES)}")
    return postgres_cluster.url


@pytest.fixture
def fresh_database(postgres_cluster):
    """The URL of a database of its own on the suite's server, without phlegyas's schema; dropped after."""
    import uuid

    import psycopg  # (same)

    postgres_cluster.start_if_stopped()
    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(postgres_cluster.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield postgres_cluster.url.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(postgres_cluster.url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
