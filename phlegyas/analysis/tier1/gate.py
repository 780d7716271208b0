"""The gate itself: an agent must not approve its own requests, trust its own scripts, or unhook the
gate. ``phlegyas approve/deny``, ``phlegyas dashboard`` (it prints the token that answers), ``phlegyas-trust
PATH`` deny; ``phlegyas install/uninstall`` and
revoking trust ask. Writing the gate's own state (its data directory, trust store, safe patterns) by
any program or file tool denies."""
from __future__ import annotations

import posixpath
from functools import lru_cache
from typing import Final

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Word
from phlegyas.analysis.tier1.base import Out, add
from phlegyas.analysis.tier1.words import path_of
from phlegyas.core.analysis import AnalysisEnv

_SELF_APPROVAL: Final = frozenset({"approve", "deny", "dashboard"})
_RECONFIGURE: Final = frozenset({"install", "uninstall"})
_TRUST_READ_ONLY: Final = frozenset({"--list", "--verify", "--json", "-h", "--help"})
_PHLEGYAS_MODULES = frozenset({"phlegyas", "phlegyas.__main__", "phlegyas.cli", "phlegyas.cli.__main__", "phlegyas.cli.main"})
_TRUST_MODULES: Final = frozenset({"phlegyas.trust_cli", "phlegyas.cli.trust"})


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
    if command == "dashboard":
        add(out, "gate.self_approval", inv, "phlegyas dashboard prints the token that answers pending approvals: "
                                            "only a person may start it")
    elif command in _SELF_APPROVAL:
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


# -- the gate's own state ----------------------------------------------------------------------------

_DEFAULT_STATE: Final = (".claude/phlegyas/", ".claude/trusted-scripts.json", ".claude/safe-patterns.json")
_GATE_PROGRAMS: Final = frozenset({"phlegyas", "phlegyas-trust", "phlegyas-hook"})  # judged by the detectors above


def state_places(env: AnalysisEnv) -> tuple[str, ...]:
    """The gate's data directory (with a final ``/``) and its trust files, as absolute paths."""
    return env.gate_state or tuple(posixpath.join(env.home, p) for p in _DEFAULT_STATE)


def in_gate_state(path: str, env: AnalysisEnv, or_above: bool = False) -> bool:
    """``path`` is part of the gate's own state (``or_above``: or a directory holding some of it)."""
    for place in state_places(env):
        bare = place.rstrip("/")
        if path == bare or (place.endswith("/") and path.startswith(place)):
            return True
        if or_above and bare.startswith(path.rstrip("/") + "/") and path.rstrip("/") not in ("", env.home.rstrip("/")):
            return True  # `rm -rf ~/.claude`; the home and the root are the catastrophic classes' to judge
    return False


def _names_place(text: str, spelling: str) -> bool:
    """``spelling`` (a state place) appears in ``text`` as a path of its own or a parent: followed by the
    end, ``/`` or a character no path name goes on with (``/tmp/x/db`` names ``/tmp/x``; ``/tmp/x.sh`` not)."""
    at = text.find(spelling)
    while at >= 0:
        end = at + len(spelling)
        if end == len(text) or not (text[end].isalnum() or text[end] in "._-~+"):
            return True
        at = text.find(spelling, at + 1)
    return False


def _spellings(env: AnalysisEnv) -> tuple[str, ...]:
    return _spellings_of(env.home, state_places(env))


@lru_cache(maxsize=64)
def _spellings_of(home_dir: str, places: tuple[str, ...]) -> tuple[str, ...]:
    """How a command may spell the state's places: absolute, ``~/…``, ``$HOME/…``, ``${HOME}/…``."""
    out = []
    home = home_dir.rstrip("/") + "/"
    for place in places:
        bare = place.rstrip("/")
        out.append(bare)
        if bare.startswith(home):
            rest = bare[len(home):]
            out.extend(("~/" + rest, "$HOME/" + rest, "${HOME}/" + rest))
    return tuple(out)


def state_findings(inv: Invocation, writes: list[Word], deletes: list[Word], readonly: bool,
                   env: AnalysisEnv, out: Out) -> None:
    """``gate.self_approval`` for an invocation that writes or deletes the gate's state (approvals queue,
    Tier 3 cache, audit log, policy, trust store, tokens) — or, not being read-only, is handed a path in
    it or code that names it (``sqlite3 ~/.claude/phlegyas/approvals.sqlite3 "update …"``)."""
    prog = inv.program or "the shell"
    for word, verb, above in [(w, "writes", False) for w in writes] + [(w, "deletes", True) for w in deletes]:
        path = path_of(word.text, env)
        if path is not None and in_gate_state(path, env, above):
            what = "the gate's own state" if in_gate_state(path, env) else "a directory holding the gate's state"
            add(out, "gate.self_approval", inv, f"{prog} {verb} {shown(path, env)}, {what} (approvals, audit, "
                                                "trust, policy): only a person may change it")
            return
    if readonly or inv.program in _GATE_PROGRAMS or _runs_phlegyas_module(inv):
        return
    spellings = _spellings(env)
    near = _near_state(env)  # a name without a slash can be the state only from in or above it
    for word in inv.args:
        text = word.text
        path = path_of(text, env) if ("/" in text or near) and "\n" not in text and " " not in text else None
        if (path is not None and in_gate_state(path, env)) or any(_names_place(text, s) for s in spellings):
            add(out, "gate.self_approval", inv, f"{prog} is handed the gate's own state ({_short(text)}) and may "
                                                "change it (approvals, audit, trust, policy): only a person may")
            return


# -- the shared database (issue 16) -------------------------------------------------------------------

DATABASE_VARIABLE: Final = "PHLEGYAS_DATABASE_URL"
_DATABASE_TABLES: Final = ("phlegyas_requests", "phlegyas_notices", "phlegyas_audit", "phlegyas_cache", "phlegyas_meta")


def database_findings(inv: Invocation, readonly: bool, out: Out) -> None:
    """``gate.self_approval`` for a command that reaches the fleet's shared store: one that names the
    variable holding its URL (the credentials to the approvals queue: ``psql "$PHLEGYAS_DATABASE_URL"``,
    ``echo $PHLEGYAS_DATABASE_URL``, ``os.environ['PHLEGYAS_DATABASE_URL']``), or one that is not read-only
    and names a phlegyas table (``psql -h db -c "UPDATE phlegyas_requests …"``, whatever the database)."""
    if inv.program in _GATE_PROGRAMS or _runs_phlegyas_module(inv):
        return
    prog = inv.program or "the shell"
    for word in inv.args:
        if DATABASE_VARIABLE in word.text:
            add(out, "gate.self_approval", inv, f"{prog} is handed {DATABASE_VARIABLE}, the credentials to the "
                                                "gate's shared approvals queue: only a person may use them")
            return
    if readonly:
        return
    for word in inv.args:
        lowered = word.text.lower()
        table = next((t for t in _DATABASE_TABLES if t in lowered), None)
        if table is not None:
            add(out, "gate.self_approval", inv, f"{prog} is handed {table}, a table of the gate's shared store "
                                                "(approvals, audit, cache): only a person may change it")
            return


def _near_state(env: AnalysisEnv) -> bool:
    cwd = env.cwd.rstrip("/") + "/"
    return any(place.startswith(cwd) or cwd.startswith(place.rstrip("/") + "/") for place in state_places(env))


def _runs_phlegyas_module(inv: Invocation) -> bool:
    args = inv.args
    for i in range(len(args) - 1):  # `python -m phlegyas…`: the first `-m` counts
        if args[i].text == "-m":
            return args[i + 1].text.split(".")[0] == "phlegyas"
    return False


def shown(path: str, env: AnalysisEnv) -> str:
    """``path`` as a person writes it: ``~/…`` under the home directory."""
    home = env.home.rstrip("/")
    return "~" + path[len(home):] if path == home or path.startswith(home + "/") else path


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "…"
