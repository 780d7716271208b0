"""phlegyas's entries in a host's hook settings, in the two layouts the hosts read: place one (update it in
place, keep everyone else's), remove them all (drop what that empties), and tell whether one is there.

- *grouped* (Claude Code, Codex, Gemini CLI): ``{"hooks": {EVENT: [{"matcher": M, "hooks": [entry…]}]}}``;
- *flat* (Copilot CLI, Cursor): ``{"version": 1, "hooks": {EVENT: [entry…]}}``.

A host's install module says what differs: how an entry is recognised as phlegyas's (``is_ours``), the
events and the entry to write for each (``wanted``), and, grouped, which matchers mean every tool and the
one a new group gets. Every function is pure (dict in, dict out); a shape the host would not read raises
``ShapeError`` with its key path. This module imports no host package.
"""
from __future__ import annotations

import copy
from typing import Callable, Iterable, Mapping

from phlegyas.hosts.config_files import ShapeError, list_at, object_at

IsOurs = Callable[[object], bool]


def star_matcher(matcher: object) -> bool:
    """Claude Code's and Codex's every-tool matchers: ``*`` and the empty one."""
    return matcher in ("*", "")


# -- grouped: hooks.EVENT[].hooks[] -----------------------------------------------------------------

def place_grouped(doc: dict, wanted: Mapping[str, dict], *, is_ours: IsOurs, matcher: str = "*",
                  every_tool: Callable[[object], bool] = star_matcher, merge: bool = False) -> dict:
    """``doc`` with one phlegyas entry per event of ``wanted`` in an every-tool group: the first phlegyas
    entry of such a group becomes ``wanted[event]`` (with ``merge``, laid over the entry's own keys), any
    other phlegyas entry is dropped (with its group when that empties it), else a group ``matcher`` is
    appended; groups that hold no phlegyas entry, and everything else, are kept as they are."""
    out = copy.deepcopy(doc)
    hooks = object_at(out, "hooks", ())
    for event, entry in wanted.items():
        groups = list_at(hooks, event, ("hooks",))
        placed, kept = False, []
        for index, group in enumerate(groups):
            if not isinstance(group, dict):
                raise ShapeError(("hooks", event, index), "an object with 'matcher' and 'hooks'")
            entries = group.get("hooks", [])
            if not isinstance(entries, list):
                raise ShapeError(("hooks", event, index, "hooks"), "a list")
            every = every_tool(group.get("matcher", ""))
            updated = []
            for current in entries:
                if not is_ours(current):
                    updated.append(current)
                elif every and not placed:
                    updated.append({**current, **entry} if merge else entry)
                    placed = True
            if updated != entries:
                group["hooks"] = updated
            if updated or not entries:
                kept.append(group)
        if not placed:
            kept.append({"matcher": matcher, "hooks": [entry]})
        groups[:] = kept
    return out


def remove_grouped(doc: dict, *, is_ours: IsOurs) -> dict:
    """``doc`` without phlegyas's entries (under any event); groups, events and ``hooks`` emptied by the
    removal are dropped."""
    out = copy.deepcopy(doc)
    hooks = out.get("hooks")
    if not isinstance(hooks, dict):
        return out
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept, changed = [], False
        for group in groups:
            entries = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(entries, list) or not any(is_ours(e) for e in entries):
                kept.append(group)
                continue
            changed = True
            rest = [e for e in entries if not is_ours(e)]
            if rest:
                kept.append({**group, "hooks": rest})
        groups[:] = kept
        if changed and not groups:
            del hooks[event]
    if not hooks and doc.get("hooks"):
        del out["hooks"]
    return out


def holds_grouped(doc: object, event: str, *, is_ours: IsOurs) -> bool:
    """Whether some group of ``event`` holds a phlegyas entry (a malformed document holds none)."""
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    groups = hooks.get(event) if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else ():
        entries = group.get("hooks") if isinstance(group, dict) else None
        if isinstance(entries, list) and any(is_ours(e) for e in entries):
            return True
    return False


# -- flat: hooks.EVENT[] ----------------------------------------------------------------------------

def place_flat(doc: dict, wanted: Mapping[str, dict], *, is_ours: IsOurs, version: int, shape: str) -> dict:
    """``doc`` (``version`` set when missing) with one phlegyas entry per event of ``wanted``: the first one
    there replaced by ``wanted[event]``, any other dropped, or the entry appended; everything else kept.
    ``shape`` says what an entry must be, for the error about one that is not an object."""
    out = copy.deepcopy(doc)
    out.setdefault("version", version)
    hooks = object_at(out, "hooks", ())
    for event, entry in wanted.items():
        entries = list_at(hooks, event, ("hooks",))
        placed, kept = False, []
        for index, current in enumerate(entries):
            if not isinstance(current, dict):
                raise ShapeError(("hooks", event, index), shape)
            if not is_ours(current):
                kept.append(current)
            elif not placed:
                kept.append(entry)
                placed = True
        entries[:] = kept if placed else [*kept, entry]
    return out


def remove_flat(doc: dict, *, is_ours: IsOurs, events: Iterable[str] | None = None) -> dict:
    """``doc`` without phlegyas's entries under ``events`` (None: every event); emptied events and
    ``hooks`` are dropped, and a document left with nothing but its ``version`` becomes empty (the file
    is removed). A document the removal does not change is returned as it is."""
    out = copy.deepcopy(doc)
    hooks = out.get("hooks")
    if not isinstance(hooks, dict):
        return out
    changed = False
    for event in list(hooks) if events is None else [e for e in events if e in hooks]:
        entries = hooks[event]
        if not isinstance(entries, list) or not any(is_ours(e) for e in entries):
            continue
        changed = True
        entries[:] = [e for e in entries if not is_ours(e)]
        if not entries:
            del hooks[event]
    if not changed:
        return out
    if not hooks:
        del out["hooks"]
    return {} if set(out) <= {"version"} else out


def holds_flat(doc: object, event: str, *, is_ours: IsOurs) -> bool:
    """Whether ``event`` holds a phlegyas entry (a malformed document holds none)."""
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    entries = hooks.get(event) if isinstance(hooks, dict) else None
    return isinstance(entries, list) and any(is_ours(e) for e in entries)
