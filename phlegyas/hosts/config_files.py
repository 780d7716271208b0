"""The settings files ``phlegyas install`` edits, for every host: read (errors name the file, line and
column), merge (pure: dict in, dict out), show as a diff, back up and write atomically.

A host's install module says *what* to change (a list of edits per file); this module does the rest, the
same way for every host: a file that is not valid JSON, or not the shape its host reads, is reported as
``file:line`` and nothing is written; a changed file is backed up first (``FILE.phlegyas-backup-
YYYYmmdd-HHMMSS``) and replaced atomically; a second run changes nothing.
"""
from __future__ import annotations

import difflib
import json
import os
import shutil
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from phlegyas.policy.positions import json_lines
from phlegyas.store.files import write_atomic


class InstallError(Exception):
    """A settings file cannot be read, parsed or written; the message names the file (and line)."""


def check_timeout(timeout: object) -> None:
    """An ``InstallError`` unless the hook timeout is a positive whole number of seconds."""
    if not isinstance(timeout, int) or timeout <= 0:
        raise InstallError(f"the hook timeout must be a positive number of seconds, got {timeout!r}")


class ShapeError(ValueError):
    """The document holds something its host would not read at this key path."""

    def __init__(self, path: tuple, expected: str):
        self.path = path
        super().__init__(f"{'.'.join(map(str, path)) or 'the document'} must be {expected}")


def object_at(doc: dict, key: str, path: tuple) -> dict:
    value = doc.setdefault(key, {})
    if not isinstance(value, dict):
        raise ShapeError((*path, key), "an object")
    return value


def list_at(doc: dict, key: str, path: tuple) -> list:
    value = doc.setdefault(key, [])
    if not isinstance(value, list):
        raise ShapeError((*path, key), "a list")
    return value


@dataclass
class FileChange:
    """One file: what it holds now (None when it does not exist) and what it will hold."""

    path: str
    before: dict | None
    before_text: str | None
    after: dict
    what: list[str]
    private: bool = False
    text: str | None = None
    """A file that is not JSON (a plugin's source): its whole new text, and ``after`` is ``{"text": …}``."""

    @property
    def changed(self) -> bool:
        return self.before != self.after and not (self.before is None and not self.after)

    @property
    def removes_file(self) -> bool:
        return self.before is not None and not self.after

    def after_text(self) -> str:
        if self.removes_file:
            return ""
        if self.text is not None:
            return self.text
        return json.dumps(self.after, indent=2, ensure_ascii=False) + "\n"

    def diff(self) -> str:
        old = (self.before_text or "").splitlines(keepends=True)
        new = self.after_text().splitlines(keepends=True)
        a = self.path if self.before is not None else "/dev/null"
        b = self.path if not self.removes_file else "/dev/null"
        return "".join(difflib.unified_diff(old, new, a, b))


def read_json(path: str) -> tuple[dict | None, str | None]:
    """(document, text) of a JSON settings file, (None, None) when it does not exist."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        return None, None
    except UnicodeDecodeError:
        raise InstallError(f"{path}: not UTF-8 text; fix or move it, nothing was changed") from None
    except OSError as exc:
        raise InstallError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not text.strip():
        return {}, text
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InstallError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); "
                           "fix it and run again, nothing was changed") from None
    except RecursionError:
        raise InstallError(f"{path}: JSON nested too deeply to read; nothing was changed") from None
    if not isinstance(doc, dict):
        raise InstallError(f"{path}:1:1: expected a JSON object, found {type(doc).__name__}; nothing was changed")
    return doc, text


def line_of(text: str, path: tuple) -> int:
    """The line where the key path starts in ``text`` (best effort: 1 when unknown)."""
    try:
        return json_lines(text).get(tuple(path), 1) or 1
    except Exception:  # noqa: BLE001 - only used to point at a line in an error message
        return 1


def plan(path: str, edits: list[tuple[Callable[[dict], dict], str]], private: bool = False) -> FileChange:
    """Apply ``edits`` (function, description) to the file's document, without writing anything."""
    before, text = read_json(path)
    doc = before if before is not None else {}
    what = []
    for edit, description in edits:
        try:
            new = edit(doc)
        except ShapeError as exc:
            line = line_of(text or "", exc.path)
            raise InstallError(f"{path}:{line}: {exc}; fix it and run again, nothing was changed") from None
        if new != doc:
            what.append(description)
        doc = new
    return FileChange(path, before, text, doc, what, private)


def backup_path(path: str, now: datetime) -> str:
    stem = f"{path}.phlegyas-backup-{now:%Y%m%d-%H%M%S}"
    candidate, n = stem, 1
    while os.path.exists(candidate):
        n += 1
        candidate = f"{stem}-{n}"
    return candidate


def apply(change: FileChange, now: datetime) -> str | None:
    """Write one change (backup first); returns the backup's path, if one was made."""
    backup = None
    try:
        if change.before is not None:
            mode = os.stat(change.path).st_mode & 0o777
            backup = backup_path(change.path, now)
            shutil.copy2(change.path, backup)
        else:
            mode = 0o600 if change.private else 0o644
        if change.removes_file:
            os.unlink(change.path)
        else:
            write_atomic(change.path, change.after_text(), mode=mode)
    except OSError as exc:
        raise InstallError(f"{change.path}: cannot write: {exc.strerror or exc}") from None
    return backup


def plan_text(path: str, text: str | None, what: str) -> FileChange:
    """A whole file that is not JSON (a plugin's source): write ``text``, or remove the file when None."""
    try:
        with open(path, encoding="utf-8") as fh:
            before_text: str | None = fh.read()
    except FileNotFoundError:
        before_text = None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    before = None if before_text is None else {"text": before_text}
    after = {} if text is None else {"text": text}
    change = FileChange(path, before, before_text, after, [], text=text)
    if change.changed:
        change.what.append(what)
    return change
