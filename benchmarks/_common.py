"""Shared by the benchmarks: the corpora and a gate with default settings in an empty home."""
from __future__ import annotations

import json
import os
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "corpus"))


def corpus_path(name: str) -> str:
    return os.path.join(os.environ.get("PHLEGYAS_CORPUS", CORPUS), name if name.endswith(".jsonl") else name + ".jsonl")


def load_corpus(name: str) -> list[dict]:
    with open(corpus_path(name), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def default_runtime(project: str | None = None):
    """A runtime with default settings: an empty temporary home, no audit log, a project dir as cwd."""
    from phlegyas.runtime import load_runtime

    home = tempfile.mkdtemp(prefix="phlegyas-bench-home-")
    project = project or os.path.join(home, "project")
    os.makedirs(project, exist_ok=True)
    env = {"HOME": home, "PHLEGYAS_HOME": os.path.join(home, ".claude", "phlegyas"), "ENABLE_AUDIT_LOG": "false"}
    return load_runtime(env, project), project
