"""phlegyas: a permission gate for AI coding agents.

For every tool call an agent wants to make, ``Gate.decide(call)`` answers allow, ask or deny with a
reason. Exports are loaded lazily so that importing one submodule (the hook's hot path) stays cheap.
"""
__version__ = "0.1.0"

_EXPORTS = {
    "Gate": "phlegyas.engine",
    "ToolCall": "phlegyas.model",
    "Decision": "phlegyas.model",
    "Verdict": "phlegyas.model",
    "Finding": "phlegyas.model",
    "InvalidCall": "phlegyas.model",
    "load_policy": "phlegyas.policy",
    "Policy": "phlegyas.policy",
    "PolicyError": "phlegyas.policy",
    "Settings": "phlegyas.config",
    "default_checkers": "phlegyas.checkers",
    "load_runtime": "phlegyas.runtime",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'phlegyas' has no attribute {name!r}")
    from importlib import import_module  # here, not at the top: every hook process imports this package

    return getattr(import_module(module), name)
