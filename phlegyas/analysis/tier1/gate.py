"""The gate itself: an agent must not approve its own requests, trust its own scripts, or unhook the
gate. ``phlegyas approve/deny``, ``phlegyas-trust PATH`` deny; ``phlegyas install/uninstall`` and
revoking trust ask."""
from __future__ import annotations

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import Out, add
from phlegyas.core.analysis import AnalysisEnv

_SELF_APPROVAL = frozenset({"approve", "deny"})
_RECONFIGURE = frozenset({"install", "uninstall"})
_TRUST_READ_ONLY = frozenset({"--list", "--verify", "--json", "-h", "--help"})
_PHLEGYAS_MODULES = frozenset({"phlegyas", "phlegyas.__main__", "phlegyas.cli", "phlegyas.cli.__main__", "phlegyas.cli.main"})
_TRUST_MODULES = frozenset({"phlegyas.trust_cli", "phlegyas.cli.trust"})


def detect_phlegyas(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    _phlegyas_args(inv, [w.text for w in inv.args], out)


def detect_phlegyas_trust(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    _trust_args(inv, [w.text for w in inv.args], out)


def detect_python_module(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``python -m phlegyas approve …`` and ``python -m phlegyas.trust_cli x.sh`` are the same commands
    (under every module path they have had)."""
    texts = [w.text for w in inv.args]
    if "-m" not in texts or texts.index("-m") + 1 >= len(texts):
        return
    at = texts.index("-m")
    module, rest = texts[at + 1], texts[at + 2:]
    if module in _PHLEGYAS_MODULES:
        _phlegyas_args(inv, rest, out)
    elif module in _TRUST_MODULES:
        _trust_args(inv, rest, out)


def _phlegyas_args(inv: Invocation, texts: list[str], out: Out) -> None:
    command = next((t for t in texts if not t.startswith("-")), None)
    if command in _SELF_APPROVAL:
        add(out, "gate.self_approval", inv, f"phlegyas {command} decides a pending approval: only a person may")
    elif command in _RECONFIGURE:
        add(out, "gate.reconfigure", inv, f"phlegyas {command} changes how the gate is wired into the agent")


def _trust_args(inv: Invocation, texts: list[str], out: Out) -> None:
    if not texts or all(t in _TRUST_READ_ONLY for t in texts):
        return
    if "--revoke" in texts:
        add(out, "gate.reconfigure", inv, "phlegyas-trust --revoke changes which scripts the gate trusts")
    else:
        add(out, "gate.self_approval", inv, "phlegyas-trust marks a script as trusted: only a person may")
