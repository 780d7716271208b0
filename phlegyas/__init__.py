"""phlegyas: a permission gate for AI coding agents.

For every tool call an agent wants to make, ``Gate.decide(call)`` answers allow, ask or deny with a
reason. Exports are loaded lazily so that importing one submodule (the hook's hot path) stays cheap.
"""
__version__ = "0.2.0"

_EXPORTS = {
    "Gate": "phlegyas.core.engine",
    "ToolCall": "phlegyas.core.model",
    "Decision": "phlegyas.core.model",
    "Verdict": "phlegyas.core.model",
    "Finding": "phlegyas.core.model",
    "InvalidCall": "phlegyas.core.model",
    "load_policy": "phlegyas.policy.files",
    "Policy": "phlegyas.policy.files",
    "PolicyError": "phlegyas.policy.files",
    "Settings": "phlegyas.policy.settings",
    "default_checkers": "phlegyas.runtime",
    "load_runtime": "phlegyas.runtime",
}

__all__ = sorted(_EXPORTS)


def analysis_build() -> str:
    """How the analysis runs here: ``"compiled (mypyc)"`` in a wheel built by setup.py, where the hot
    modules are C extensions, or ``"pure Python"`` (editable install, ``PHLEGYAS_PURE=1``, no compiler)."""
    from importlib.machinery import EXTENSION_SUFFIXES  # only for --version: every hook process imports this package
    from importlib.util import find_spec

    spec = find_spec("phlegyas.analysis.report")
    origin = (spec.origin if spec is not None else None) or ""
    return "compiled (mypyc)" if origin.endswith(tuple(EXTENSION_SUFFIXES)) else "pure Python"


BUILD_RECORD = "build.json"
"""Written into the package by a wheel build (setup.py): what the build wanted and what it made."""


def build_record() -> dict | None:
    """What the build that installed this copy recorded: ``{"wanted": "compiled" | "pure", "analysis":
    "compiled (mypyc)" | "pure Python", "why": …}``; None for an editable install or a source checkout."""
    import json  # only for --version and doctor: every hook process imports this package
    import os

    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), BUILD_RECORD), encoding="utf-8") as fh:
            record = json.load(fh)
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def analysis_hint() -> str | None:
    """How to get the compiled analysis, when this copy is pure Python though its build meant to compile
    it (no C compiler, no mypyc, a failed compile: pip hides the build's warning); else None."""
    record = build_record()
    if analysis_build() != "pure Python" or not record or record.get("wanted") != "compiled":
        return None
    why = record.get("why") or "the compile failed"
    return (f"the build could not compile the analysis ({why}); for the compiled one (about twice as fast), "
            "install a C compiler and Python's headers (e.g. apt install gcc python3-dev), then "
            "`pip install --force-reinstall --no-deps --no-cache-dir phlegyas`")


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'phlegyas' has no attribute {name!r}")
    from importlib import import_module  # here, not at the top: every hook process imports this package

    return getattr(import_module(module), name)
