"""Policy files: rules, mode, finding-class overrides and settings, with errors at file:line.

Sources, merged in this order (rule lists concatenate; for single values the later file wins):

1. the user policy ``<data_dir>/policy.toml``;
2. Claude Code's settings (only their ``permissions``): ``~/.claude/settings.json``,
   ``<project>/.claude/settings.json``, ``<project>/.claude/settings.local.json`` (skipped when
   ``import_claude_settings`` is false);
3. the project policy ``.phlegyas.toml``, the first found from cwd upward (below home, or up to /);
4. files named explicitly (``phlegyas check --policy FILE``), trusted like the user policy.

A project file comes from a repository an attacker may control, so it may only tighten: no
``bypassPermissions``, class overrides only to ``deny`` or ``ask`` (and they can never lower a
class, see ``Policy.severity``), and ``[settings]`` limited to ``PROJECT_SETTINGS`` with
``safe_write_dirs`` inside the project.
"""
from __future__ import annotations

import json
import os
import posixpath
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Sequence

from phlegyas.analysis.paths import is_within, normalize
from phlegyas.core.model import MODES, Finding, Verdict, canonical_mode
from phlegyas.policy import settings as config
from phlegyas.policy.positions import json_lines, toml_lines
from phlegyas.policy.rules import Rule, RuleSyntaxError, parse_rule

USER_POLICY = "policy.toml"
PROJECT_POLICY = ".phlegyas.toml"
PROJECT_MARKERS = (".git", ".claude")
TABLES = ("permissions", "classes", "settings", "slack")
SLACK_KEYS = ("bot_token", "app_token", "approval_channel", "approval_timeout_seconds", "approvers", "api_url")
"""``[slack]`` in the user policy: the same as the ``slack_*`` settings (``SLACK_*`` variables)."""
RULE_KINDS = ("allow", "ask", "deny")
PERMISSION_KEYS = (*RULE_KINDS, "defaultMode")
POLICY_ONLY_SETTINGS = ("safe_write_dirs", "import_claude_settings")
SETTING_KEYS = (*POLICY_ONLY_SETTINGS, *config.OVERRIDE_KEYS)
PROJECT_SETTINGS = ("safe_write_dirs", "project_name", "project_type", "current_task", "log_level")
"""The only ``[settings]`` keys a project file may set: none of them can loosen the gate."""


class PolicyError(Exception):
    """A policy file cannot be used; ``str(err)`` is ``path:line: message``."""

    def __init__(self, path: str, line: int | None, message: str):
        self.path, self.line, self.message = path, line, message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


@dataclass
class Policy:
    """Everything the policy files say, merged. ``classes`` holds the user-level class overrides;
    ``project_classes`` the project-level ones, which can only raise a class (see ``severity``)."""

    allow: list[Rule] = field(default_factory=list)
    ask: list[Rule] = field(default_factory=list)
    deny: list[Rule] = field(default_factory=list)
    default_mode: str | None = None
    classes: dict[str, Verdict] = field(default_factory=dict)
    safe_write_dirs: list[str] = field(default_factory=list)
    settings: dict[str, object] = field(default_factory=dict)
    project_root: str | None = None
    sources: list[str] = field(default_factory=list)
    project_classes: dict[str, Verdict] = field(default_factory=dict)
    class_sources: dict[tuple[bool, str], str] = field(default_factory=dict)
    """(from the project?, class) → the file the override came from (the last one that set it)."""

    def severity(self, finding: Finding) -> Verdict:
        """The verdict ``finding`` carries under this policy.

        A user-level override for its id replaces the built-in severity (an exact id beats a prefix
        glob ``delete.*``; the longest prefix wins). A project-level override is a floor: it can make
        the class stricter than that, never laxer.
        """
        level = class_override(self.classes, finding.id)
        level = finding.severity if level is None else level
        floor = class_override(self.project_classes, finding.id)
        return level if floor is None else max(level, floor)


def class_override(classes: dict[str, Verdict], finding_id: str) -> Verdict | None:
    """The entry of ``classes`` for ``finding_id``: exact id first, else the longest matching ``prefix.*``."""
    if finding_id in classes:
        return classes[finding_id]
    best, best_len = None, -1
    for key, verdict in classes.items():
        if key.endswith(".*") and finding_id.startswith(key[:-1]) and len(key) > best_len:
            best, best_len = verdict, len(key)
    return best


def empty_policy() -> Policy:
    """A policy with no rules, overrides or settings."""
    return Policy()


def load_policy(cwd: str, *, home: str, data_dir: str, files: Sequence[str] = (),
                import_claude_settings: bool | None = None) -> Policy:
    """Read and merge every policy source for a call made in ``cwd``. Raises PolicyError.

    ``import_claude_settings``: None follows the user-level files' ``[settings]`` (default true);
    a bool overrides them. A missing file is skipped, except one named in ``files``.
    """
    cwd = posixpath.normpath(os.path.abspath(cwd))
    home = posixpath.normpath(home)
    found = find_upward(cwd, home, (PROJECT_POLICY,), os.path.isfile)
    if found:
        project_root = posixpath.dirname(found)
    else:
        marker = find_upward(cwd, home, PROJECT_MARKERS, os.path.exists)
        project_root = posixpath.dirname(marker) if marker else cwd
    user_path = posixpath.join(normalize(data_dir, cwd, home), USER_POLICY)
    loader = _Loader(home=home, project_root=project_root, user_policy=user_path)

    project_files = [posixpath.join(project_root, ".claude", n) for n in ("settings.json", "settings.local.json")]
    untrusted = {os.path.realpath(p) for p in (*project_files, *([found] if found else []))}

    user = loader.part(_Source(user_path, "toml", project=False, root=home))
    explicit = []
    for name in files:
        path = normalize(name, cwd, home)
        in_project = os.path.realpath(path) in untrusted  # naming a project file does not make it trusted
        source = _Source(path, _format_of(path), project=in_project, root=project_root if in_project else home)
        explicit.append(loader.part(source, required=True))
    if import_claude_settings is None:
        flags = [p.import_claude_settings for p in (user, *explicit) if p and p.import_claude_settings is not None]
        import_claude_settings = flags[-1] if flags else True
    claude = []
    if import_claude_settings:
        claude.append(loader.part(_Source(posixpath.join(home, ".claude", "settings.json"), "claude",
                                          project=False, root=home)))
        for path in project_files:
            claude.append(loader.part(_Source(path, "claude", project=True, root=project_root)))
    project = [loader.part(_Source(found, "toml", project=True, root=project_root))] if found else []

    policy = Policy(project_root=project_root)
    for part in (user, *claude, *project, *explicit):
        if part is not None:
            _merge(policy, part)
    return policy


def find_upward(start: str, home: str, names: Sequence[str], test) -> str | None:
    """The first ``dir/name`` passing ``test``, from ``start`` up to (not including) ``home``, or up to ``/``."""
    current = start
    while current != home:
        for name in names:
            candidate = posixpath.join(current, name)
            if test(candidate):
                return candidate
        parent = posixpath.dirname(current)
        if parent == current:
            break
        current = parent
    return None


def _format_of(path: str) -> str:
    return "claude" if path.endswith(".json") else "toml"


# --- reading -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Source:
    path: str
    fmt: str  # "toml" (phlegyas policy) | "claude" (Claude Code settings JSON)
    project: bool  # from the project: may only tighten
    root: str  # the root of its rules' relative paths


@dataclass
class _Part:
    """What one file contributes, validated."""

    source: _Source
    rules: dict[str, list[Rule]] = field(default_factory=lambda: {k: [] for k in RULE_KINDS})
    default_mode: str | None = None
    classes: dict[str, Verdict] = field(default_factory=dict)
    settings: dict[str, object] = field(default_factory=dict)
    safe_write_dirs: list[str] = field(default_factory=list)
    import_claude_settings: bool | None = None


class _Loader:
    def __init__(self, *, home: str, project_root: str, user_policy: str):
        self.home, self.project_root, self.user_policy = home, project_root, user_policy
        self.seen: set[str] = set()

    def part(self, source: _Source, *, required: bool = False) -> _Part | None:
        """The validated contribution of one file; None if it is missing or was already read."""
        real = os.path.realpath(source.path)
        if real in self.seen:
            return None
        text = _read(source.path, required)
        if text is None:
            return None
        self.seen.add(real)
        doc = _File(source, text)
        return _Validator(doc, self).part()


def _read(path: str, required: bool) -> str | None:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        if required:
            raise PolicyError(path, None, "file not found (expected an existing policy file)") from None
        return None
    except IsADirectoryError:
        raise PolicyError(path, None, "is a directory (expected a policy file)") from None
    except UnicodeDecodeError as exc:
        raise PolicyError(path, None, f"not UTF-8 text (byte {exc.start}); expected a UTF-8 file") from None
    except OSError as exc:
        raise PolicyError(path, None, f"cannot read: {exc.strerror or exc}") from None


class _File:
    """One parsed file and where its keys and values sit."""

    def __init__(self, source: _Source, text: str):
        self.source, self.text = source, text
        self.data = _parse_toml(source.path, text) if source.fmt == "toml" else _parse_json(source.path, text)

    @cached_property
    def _lines(self) -> dict[tuple, int]:
        try:
            return toml_lines(self.text) if self.source.fmt == "toml" else json_lines(self.text)
        except Exception:  # noqa: BLE001 - positions are a courtesy; the file already parsed
            return {}

    def line(self, *path: str | int) -> int | None:
        """The line of the key or array element at ``path``, else of its nearest recorded ancestor."""
        for end in range(len(path), 0, -1):
            found = self._lines.get(tuple(path[:end]))
            if found is not None:
                return found
        return None

    def error(self, path: tuple, message: str) -> PolicyError:
        return PolicyError(self.source.path, self.line(*path), message)


def _parse_toml(path: str, text: str) -> dict:
    import tomllib  # lean start-up: ~10 ms, only when a TOML policy file exists

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message, line, column = _split_position(str(exc), text)
        at = f" at column {column}" if column else ""
        raise PolicyError(path, line, f"TOML syntax error: {message}{at} "
                                      "(expected key = value lines under [table] headers)") from None


def _split_position(message: str, text: str) -> tuple[str, int | None, int | None]:
    """tomllib's ``msg (at line L, column C)`` / ``(at end of document)`` → (msg, line, column)."""
    head, sep, tail = message.rpartition(" (at ")
    if not sep:
        return message, None, None
    if tail.startswith("end of document"):
        return head, text.count("\n") + (0 if text.endswith("\n") else 1) or 1, None
    try:
        line_part, column_part = tail.rstrip(")").split(",")
        return head, int(line_part.split()[-1]), int(column_part.split()[-1])
    except ValueError:
        return message, None, None


def _parse_json(path: str, text: str) -> dict:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PolicyError(path, exc.lineno, f"JSON syntax error: {exc.msg} at column {exc.colno} "
                                            "(expected a valid JSON object)") from None
    except RecursionError:
        raise PolicyError(path, 1, "JSON nested too deeply to read") from None
    if not isinstance(data, dict):
        raise PolicyError(path, 1, f"expected a JSON object at the top level, got {_kind(data)}")
    return data


def _kind(value: object) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
             dict: "a table", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _one_of(names: Sequence[str]) -> str:
    return ", ".join(names)


# --- validation --------------------------------------------------------------------------------

class _Validator:
    """Turns one parsed file into a ``_Part``, raising PolicyError at the offending line."""

    def __init__(self, doc: _File, loader: _Loader):
        self.doc, self.loader, self.src = doc, loader, doc.source
        self.out = _Part(doc.source)

    def part(self) -> _Part:
        if self.src.fmt == "claude":
            perms = self.doc.data.get("permissions")
            if perms is not None:
                self._permissions(perms, strict=False)
            return self.out
        for key, value in self.doc.data.items():
            if key not in TABLES:
                raise self.doc.error((key,), f"unknown table [{key}]; expected one of "
                                              f"{_one_of([f'[{t}]' for t in TABLES])}")
        if "permissions" in self.doc.data:
            self._permissions(self.doc.data["permissions"], strict=True)
        if "classes" in self.doc.data:
            self._classes(self._table("classes"))
        if "settings" in self.doc.data:
            self._settings(self._table("settings"))
        if "slack" in self.doc.data:
            self._slack(self._table("slack"))
        return self.out

    def _table(self, name: str) -> dict:
        value = self.doc.data[name]
        if not isinstance(value, dict):
            raise self.doc.error((name,), f"{name} must be a table (expected a [{name}] section), got {_kind(value)}")
        return value

    def _permissions(self, perms: object, *, strict: bool) -> None:
        if not isinstance(perms, dict):
            shape = "a [permissions] section" if self.src.fmt == "toml" else "a JSON object"
            raise self.doc.error(("permissions",), f"permissions must be a table of allow, ask, deny and "
                                                   f"defaultMode (expected {shape}), got {_kind(perms)}")
        for key, value in perms.items():
            if key in RULE_KINDS:
                self._rules(key, value)
            elif key == "defaultMode":
                self.out.default_mode = self._mode(value)
            elif strict:
                raise self.doc.error(("permissions", key), f"unknown key permissions.{key}; expected one of "
                                                           f"{_one_of(PERMISSION_KEYS)}")

    def _rules(self, kind: str, value: object) -> None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            got = _kind(value) if not isinstance(value, list) else "a list with a non-string item"
            raise self.doc.error(("permissions", kind), f'permissions.{kind} must be a list of strings '
                                                        f'(expected e.g. ["Bash(npm test *)"]), got {got}')
        for index, text in enumerate(value):
            line = self.doc.line("permissions", kind, index)
            where = f"{self.src.path}:{line}" if line is not None else self.src.path
            try:
                rule = parse_rule(text, root=self.src.root)
            except RuleSyntaxError as exc:
                hint = "" if "expected" in str(exc) else "; expected Tool or Tool(specifier)"
                raise PolicyError(self.src.path, line, f"bad rule in permissions.{kind}: {exc}{hint}") from None
            self.out.rules[kind].append(replace(rule, source=where))

    def _mode(self, value: object) -> str:
        where = ("permissions", "defaultMode")
        if isinstance(value, str):
            value = canonical_mode(value)
        if not isinstance(value, str) or value not in MODES:
            raise self.doc.error(where, f"bad permissions.defaultMode {value!r}; expected one of {_one_of(MODES)}")
        if value == "bypassPermissions" and self.src.project:
            allowed = [m for m in MODES if m != "bypassPermissions"]
            raise self.doc.error(where, f"bypassPermissions can only be set in the user policy "
                                        f"({self.loader.user_policy}), not in a project file; expected one of "
                                        f"{_one_of(allowed)}")
        return value

    def _classes(self, table: dict) -> None:
        allowed = ("deny", "ask") if self.src.project else ("deny", "ask", "allow")
        for key, value in table.items():
            where = ("classes", key)
            if not _is_class_pattern(key):
                raise self.doc.error(where, f"bad finding class {key!r}; expected an id like \"git.reset_hard\" "
                                            "or a prefix like \"delete.*\"")
            verdict = value.strip().lower() if isinstance(value, str) else ""
            if verdict not in allowed:
                extra = (" (a project file may only make a class stricter; set \"allow\" in the user policy "
                         f"{self.loader.user_policy})") if verdict == "allow" else ""
                raise self.doc.error(where, f"bad verdict {value!r} for class {key!r}; expected "
                                            f"{' or '.join(repr(a) for a in allowed)}{extra}")
            self.out.classes[key] = Verdict.parse(verdict)

    def _settings(self, table: dict) -> None:
        for key, value in table.items():
            where = ("settings", key)
            if key not in SETTING_KEYS:
                raise self.doc.error(where, f"unknown setting {key!r}; expected one of {_one_of(SETTING_KEYS)}")
            if self.src.project and key not in PROJECT_SETTINGS:
                raise self.doc.error(where, f"settings.{key} can only be set in the user policy "
                                            f"({self.loader.user_policy}); expected only "
                                            f"{_one_of(PROJECT_SETTINGS)} in a project file")
            if key == "safe_write_dirs":
                self.out.safe_write_dirs.extend(self._safe_dirs(value))
            elif key == "import_claude_settings":
                if not isinstance(value, bool):
                    raise self.doc.error(where, f"settings.import_claude_settings must be true or false, got {value!r}")
                self.out.import_claude_settings = value
            else:
                try:
                    config.check_override(key, value)
                except config.ConfigError as exc:
                    raise self.doc.error(where, f"settings.{exc}") from None
                self.out.settings[key] = value

    def _slack(self, table: dict) -> None:
        """``[slack]``: who answers approvals on Slack and with which tokens — never a project file's to say."""
        for key, value in table.items():
            where = ("slack", key)
            if key not in SLACK_KEYS:
                raise self.doc.error(where, f"unknown key slack.{key}; expected one of {_one_of(SLACK_KEYS)}")
            if self.src.project:
                raise self.doc.error(where, f"[slack] can only be set in the user policy ({self.loader.user_policy})")
            try:
                config.check_override(f"slack_{key}", value)
            except config.ConfigError as exc:
                raise self.doc.error(where, f"slack.{str(exc).removeprefix('slack_')}") from None
            self.out.settings[f"slack_{key}"] = value

    def _safe_dirs(self, value: object) -> list[str]:
        where = ("settings", "safe_write_dirs")
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.doc.error(where, 'settings.safe_write_dirs must be a list of directory paths '
                                        f'(expected e.g. ["/tmp/", "docs/research/"]), got {value!r}')
        root, home = self.loader.project_root, self.loader.home
        dirs = []
        for index, raw in enumerate(value):
            full = normalize(raw, root, home)
            if self.src.project and not is_within(full, root):
                raise self.doc.error(where + (index,), f"safe_write_dirs entry {raw!r} is outside the project "
                                                       f"({root}); expected a directory inside it (set others in "
                                                       f"the user policy {self.loader.user_policy})")
            dirs.append(full)
        return dirs


def _is_class_pattern(key: str) -> bool:
    parts = key.split(".")
    if parts[-1] == "*" and len(parts) > 1:
        parts = parts[:-1]
    return all(p and all(c.isascii() and (c.isalnum() or c in "_-") for c in p) for p in parts)


def _merge(policy: Policy, part: _Part) -> None:
    for kind in RULE_KINDS:
        getattr(policy, kind).extend(part.rules[kind])
    if part.default_mode is not None:
        policy.default_mode = part.default_mode
    target = policy.project_classes if part.source.project else policy.classes
    target.update(part.classes)
    policy.class_sources.update({(part.source.project, key): part.source.path for key in part.classes})
    policy.settings.update(part.settings)
    for d in part.safe_write_dirs:
        if d not in policy.safe_write_dirs:
            policy.safe_write_dirs.append(d)
    policy.sources.append(part.source.path)
