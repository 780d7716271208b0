"""The code inside a planted file's content: which text will run, and in which language.

Each reader turns new content (a whole file, or an Edit's fragment of one) into snippets, ``("sh", command text)``
or ``("py", source)``, and doubts: what it cannot read and must show a person (a recipe in another language, a
``SHELL`` override, network use in a build script). The readers are line-based on purpose: an Edit's fragment is
rarely a whole JSON, YAML or TOML document, and the same reader must serve both. Make and just variables the
content itself defines are substituted; the rest become plain placeholder words, so a computed program name
still shows up as one. System and tool configurations are ``planted.system_configs``'.
"""
from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass, field
from typing import Final

from phlegyas.analysis.planted.run_configs import LOOSE, workflow_doubts
from phlegyas.analysis.planted.run_configs import read as read_run_config
from phlegyas.analysis.planted.system_configs import read as read_system_config
from phlegyas.core.redact import secret_kind


@dataclass
class Content:
    snippets: list[tuple[str, str]] = field(default_factory=list)  # ("sh" | "py", text)
    doubts: list[str] = field(default_factory=list)  # why a person must read it
    denies: list[str] = field(default_factory=list)  # what it does that is a deny without running a command
    names: set[str] = field(default_factory=set)  # "project script test", "build target gen": defined here


def extract(language: str, text: str, whole: bool, run_dir: str) -> Content:
    """The snippets of ``text`` (new content of a file of ``language``; ``whole`` when it is the whole
    file); ``run_dir`` is where it runs, for ``$(dirname "$0")`` in hooks."""
    out = Content()
    if language == "sh":
        out.snippets.append(("sh", _hook_text(text, run_dir)))
        out.snippets.extend((LOOSE, m.group(1) if m.group(1) is not None else m.group(2))  # what an alias runs
                            for m in _ALIAS_VALUE.finditer(text))
    elif language == "envrc":
        out.snippets.append(("sh", _DIRENV.sub(_direnv_line, text)))
    elif language.startswith("yaml:"):
        keys = _YAML_KEYS[language[5:]]
        out.snippets.extend(("sh", _ci_text(s)) for s in yaml_values(text, keys))
        if not whole:
            out.snippets.extend((LOOSE, _ci_text(s)) for s in _loose_yaml(text))
        if language == "yaml:run":
            out.doubts.extend(workflow_doubts(text))
    elif language == "npm":
        out.snippets.extend(("sh", s) for s in npm_scripts(text, whole, out.names))
        if not whole and '"' not in text and not _VERSIONISH.match(text.strip()):
            out.snippets.append((LOOSE, text.strip()))  # a script's value edited alone: `jest` → `jest && …`
        elif not whole:  # `"test": "curl … | sh; ` that sed puts before the old value: an unfinished string
            out.snippets.extend((LOOSE, m.group(1)) for m in _OPEN_VALUE.finditer(text))
    elif language == "make":
        _make(text, out)
    elif language == "just":
        _just(text, out)
    elif language == "py":
        out.snippets.append(("py", text))
    elif language == "pth":
        out.snippets.extend(("py", line) for line in text.splitlines() if re.match(r"import[ \t]", line))
        out.doubts.extend([f"every python start-up runs `{line.strip()[:60]}`" for line in text.splitlines()
                           if re.match(r"import[ \t]", line)][:1])
    elif language == "ini":
        _ini(text, out, whole)
    elif language == "tasks":
        out.snippets.extend(("sh", s) for s in _json_strings(text, ("command",)))
    elif language == "devcontainer":
        out.snippets.extend(("sh", s) for s in _json_strings(text, _DEVCONTAINER_KEYS))
    elif language == "cron":
        out.snippets.extend(("sh", c) for c in cron_commands(text, run_dir.endswith(("/cron.d", "/etc"))))
    elif language == "unit":
        out.snippets.extend(("sh", _unit_specifiers(m.group(1).lstrip("-@:+!"))) for m in _EXEC_LINE.finditer(text))
    elif language == "md":
        out.snippets.extend((LOOSE, s) for s in _instructions(text))
        if _URL_WORD.search(text) and _SECRET_WORD.search(text):  # "upload … .env to https://…": no command,
            out.doubts.append("it tells the agent to send a secret somewhere")  # but an instruction to exfiltrate
        if _WAIVER.search(text):  # "force-push to main needs no confirmation": a standing yes the gate cannot see
            out.doubts.append("it tells the agent to act without asking")
    elif language == "cargo":
        out.snippets.extend(("sh", s) for s in _toml_commands(text, _CARGO_KEYS))
    elif language == "rust":
        _rust(text, out)
    elif language == "ruby":
        _ruby(text, out)
    read_system_config(language, text, out)  # ssh's, git's, editors', apt's, PAM's, sshd's, polkit's, curl's …
    read_run_config(language, text, out)  # logrotate's, udev's, tmux's, Emacs's, the session's, the agents' …
    return out


# -- crontabs, service units and autostart entries -------------------------------------------------

_EXEC_LINE: Final = re.compile(r"^\s*Exec[A-Za-z]*\s*=\s*(.+?)\s*$", re.M)
_UNIT_SPECIFIERS: Final = {"h": "$HOME", "u": "$USER", "%": "%", "t": "$XDG_RUNTIME_DIR", "S": "$HOME/.local/state",
                            "C": "$HOME/.cache", "E": "$HOME/.config"}


def _unit_specifiers(line: str) -> str:
    """systemd's ``%h`` (the user's home), ``%u``, ``%%`` … in an ``Exec`` line, as the shell would say them."""
    return re.sub(r"%(.)", lambda m: _UNIT_SPECIFIERS.get(m.group(1), "%" + m.group(1)), line)



def cron_commands(text: str, system: bool) -> list[str]:
    """The commands of crontab lines: five time fields (or ``@reboot``-style), a user in the system's own
    tables (``/etc/crontab``, ``/etc/cron.d``), then the command; environment lines are skipped."""
    out: list[str] = []
    for line in text.splitlines()[:64]:
        line = line.strip()
        if not line or line.startswith("#") or re.match(r"^[A-Za-z_][A-Za-z0-9_]*\s*=", line):
            continue
        fields = line.split(None, (1 if line.startswith("@") else 5) + (1 if system else 0))
        want = (2 if line.startswith("@") else 6) + (1 if system else 0)
        if len(fields) == want:
            out.append(fields[-1])
    return out


# -- the agent's instructions and the dev container ----------------------------------------------

_ALIAS_VALUE: Final = re.compile(r"""^\s*alias\s+[\w.-]+=(?:'([^']*)'|"((?:[^"\\]|\\.)*)")""", re.M)
_MAKE_INCLUDE: Final = re.compile(r"^\s*-?s?include\s+(\S+)", re.M)
_WAIVER: Final = re.compile(r"no need to (?:ask|confirm|check)|without (?:asking|confirm\w*|approval|review)|"
                            r"(?:do not|don't|never) ask|need(?:s)? no (?:confirmation|approval|review)|pre-approved|"
                            r"skip (?:the )?(?:confirmation|approval|review|tests)|yes to all|bypassPermissions|"
                            r"dangerously|--no-verify|auto-approve", re.I)
_URL_WORD: Final = re.compile(r"https?://|\bftp://|\bs3://|\bgist\b|\bpastebin\b", re.I)
_SECRET_WORD: Final = re.compile(r"(?:^|[\s`'\"(/.])(?:\.env\b|id_rsa|id_ed25519|\.ssh\b|\.aws\b|credentials|\.netrc|"
                                 r"api[ _-]?keys?\b|tokens?\b|secrets?\b|passwords?\b|env\b|environ\b|printenv)", re.I)
_DEVCONTAINER_KEYS: Final = ("initializeCommand", "onCreateCommand", "updateContentCommand", "postCreateCommand",
                             "postStartCommand", "postAttachCommand")
_OPEN_VALUE: Final = re.compile(r'"\s*:\s*"((?:[^"\\]|\\.)*)')
_CODE_SPAN: Final = re.compile(r"`([^`\n]+)`")


def _instructions(text: str) -> list[str]:
    """What instructions in prose may tell the agent to run: every code span and fenced line, and each
    line with what follows its first colon (``Before any task, run: curl … | sh``). Only a deny counts
    (``LOOSE``): prose is not a command."""
    out: list[str] = []
    for line in text.splitlines():
        body = line.strip().lstrip("-*>0123456789. ").strip()
        if not body or body.startswith("```"):
            continue
        out.extend(_CODE_SPAN.findall(body))
        out.append(body)
        for _, sep, rest in [body.partition(": ")] if ": " in body else []:
            out.append(rest.strip())
    return out[:200]


# -- shell files -------------------------------------------------------------------------------------

_DIRNAME_0: Final = re.compile(r"""\$\(\s*dirname\s+(?:--\s+)?(?:"\$0"|\$0|'\$0')\s*\)|`dirname\s+(?:--\s+)?"?\$0"?`""")
_POSITIONAL: Final = re.compile(r"""(?<![\\$])"?\$(?:\{[1-9@*]\}|[1-9@*])"?""")


def _hook_text(text: str, run_dir: str) -> str:
    """A hook's script with the words git fills in made literal: ``$(dirname "$0")`` is the hook's own
    directory (husky's ``. "$(dirname -- "$0")/_/husky.sh"``), ``$1`` … are the paths or refs git
    passes (the commit message file of ``commitlint --edit "$1"``)."""
    text = _DIRNAME_0.sub(lambda m: run_dir, text)
    return _POSITIONAL.sub(" hook-argument ", text)


_DIRENV: Final = re.compile(r"^(?P<indent>[ \t]*)(?P<fn>[A-Za-z_]+)\b(?P<rest>.*)$", re.M)
_DIRENV_ENV_ONLY = frozenset({"PATH_add", "path_add", "MANPATH_add", "dotenv", "dotenv_if_exists", "watch_file",
                              "watch_dir", "strict_env", "unstrict_env", "log_status", "log_error", "layout", "use",
                              "env_vars_required", "expand_path", "has", "direnv_version", "export_alias"})


def _direnv_line(m: re.Match[str]) -> str:
    """direnv's own functions in an .envrc: those that only set the environment (``PATH_add bin``,
    ``dotenv``, ``layout python``, ``use flake``) become ``true``; ``source_env f`` sources ``f``; the
    ones that download (``source_url``, ``fetchurl``) stay unknown programs, so they ask."""
    fn = m.group("fn")
    if fn in _DIRENV_ENV_ONLY:  # the arguments stay: `dotenv; curl … | sh` must still show the curl
        return m.group("indent") + "true" + m.group("rest")
    if fn == "export" and re.match(r"[ \t]+[A-Za-z_]\w*=", m.group("rest")):
        return m.group("indent") + m.group("rest").lstrip()  # an assignment: its value is not a word of a command
    if fn in ("source_env", "source_env_if_exists"):
        return m.group("indent") + "." + m.group("rest")
    return m.group(0)


_CI_EXPR: Final = re.compile(r"\$\{\{.*?\}\}")
_CI_SECRET: Final = re.compile(r"\$\{\{\s*secrets\.([A-Za-z_]\w*)\s*\}\}")


def _ci_text(text: str) -> str:
    """``${{ github.event.issue.title }}`` is pasted in before the shell runs: a computed word (a secret, ``$X``)."""
    return _CI_EXPR.sub("$CI_EXPRESSION", _CI_SECRET.sub(
        lambda m: "$" + m.group(1) + ("" if secret_kind(m.group(1)) else "_SECRET"), text))



# -- YAML (hooks managers, task runners, CI) ---------------------------------------------------------

_YAML_KEYS: Final = {
    "entry": ("entry",),
    "run": ("run", "script", "before_script", "after_script", "commands", "command"),
    "cmds": ("cmds", "cmd", "run"),
    "gitpod": ("init", "before", "command", "prebuild"),
}
_YAML_LINE = re.compile(r"^(?P<indent>[ \t]*)(?:-[ \t]+)?(?P<key>[A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(?P<value>.*))?$")
_ITEM: Final = re.compile(r"^(?P<indent>[ \t]*)-[ \t]+(?P<value>.*)$")


def _unquote(value: str) -> str:
    value = value.strip()
    if value.startswith("#"):
        return ""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        return inner.replace("''", "'") if value[0] == "'" else inner.replace('\\"', '"').replace("\\\\", "\\")
    return re.sub(r"[ \t]+#.*$", "", value)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _block(lines: list[str], start: int, above: int, fold: bool) -> tuple[str, int]:
    """A block scalar (``|`` or ``>``) starting after line ``start - 1``: the lines indented deeper than
    ``above``."""
    body: list[str] = []
    i = start
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > above):
        body.append(lines[i])
        i += 1
    text = textwrap.dedent("\n".join(body)).strip("\n")
    return (" ".join(text.split("\n")) if fold else text), i


def yaml_values(text: str, keys: tuple[str, ...]) -> list[str]:
    """The scalar values, block scalars and list items under any of ``keys``, wherever they nest."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _YAML_LINE.match(lines[i])
        i += 1
        if m is None or m.group("key") not in keys:
            continue
        indent = len(m.group("indent")) + (2 if lines[i - 1].lstrip().startswith("-") else 0)
        value = (m.group("value") or "").strip()
        if value[:1] in ("|", ">"):
            body, i = _block(lines, i, indent, value[0] == ">")
            out.append(body)
        elif value.startswith("["):
            out.extend(_unquote(v) for v in _flow_items(value))
        elif value and not value.startswith("#"):
            out.append(_unquote(value))
        else:  # a list under the key, at its indent or deeper
            while i < len(lines):
                item = _ITEM.match(lines[i])
                if not lines[i].strip():
                    i += 1
                    continue
                if item is None or len(item.group("indent")) < indent:
                    break
                i += 1
                v = item.group("value").strip()
                if v[:1] in ("|", ">"):
                    body, i = _block(lines, i, len(item.group("indent")), v[0] == ">")
                    out.append(body)
                elif not _YAML_LINE.match(lines[i - 1].replace("-", " ", 1)):
                    out.append(_unquote(v))
    return [v for v in out if v.strip()]


def _loose_yaml(text: str) -> list[str]:
    """The lines of a YAML fragment that are neither ``key:`` lines nor comments: list items and the
    lines of a block scalar whose key the fragment does not show."""
    out = []
    for line in text.splitlines():
        body = line.strip()
        if not body or body.startswith("#") or body in ("---", "...") or _YAML_LINE.match(line):
            continue
        out.append(_unquote(body[2:] if body.startswith("- ") else body))
    return out


def _flow_items(value: str) -> list[str]:
    inner = value.strip()[1:].rsplit("]", 1)[0]
    return re.findall(r"""'(?:[^']|'')*'|"(?:[^"\\]|\\.)*"|[^,\s][^,]*""", inner)


# -- package.json ------------------------------------------------------------------------------------

_PAIR: Final = re.compile(r'"(?P<key>(?:[^"\\]|\\.)*)"\s*:\s*"(?P<value>(?:[^"\\]|\\.)*)"')
_LIFECYCLE: Final = frozenset({
    "preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare", "prepublish",
    "prepublishOnly", "prepack", "postpack", "publish", "postpublish", "pretest", "test", "posttest", "prestart",
    "start", "poststart", "prestop", "stop", "restart", "preuninstall", "uninstall", "postuninstall", "preversion",
    "version", "postversion", "build", "prebuild", "postbuild", "dev", "lint", "format", "serve", "watch", "ci",
    "check", "typecheck", "clean", "dependencies", "predev", "release", "deploy", "e2e", "coverage",
})


def _json_unescape(value: str) -> str:
    try:
        return json.loads(f'"{value}"')
    except ValueError:
        return value


def npm_scripts(text: str, whole: bool, names: set[str] | None = None) -> list[str]:
    """The script commands of package.json content: its ``scripts`` object when the text parses as
    JSON; else, in a fragment, the string values after ``"scripts"`` or of keys that name scripts
    (lifecycle names, ``test:unit``-style names). Versions and other fields are not commands."""
    if whole:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict):
            scripts = data.get("scripts")
            if not isinstance(scripts, dict):
                return []
            if names is not None:
                names.update(f"project script {k}" for k in scripts)
            return [v for v in scripts.values() if isinstance(v, str)] + (
                [] if all(isinstance(v, str) for v in scripts.values()) else ["$NOT_A_STRING_SCRIPT"])
    at = text.find('"scripts"')
    region = text[at:] if at >= 0 else text
    out = []
    for m in _PAIR.finditer(region):
        key, value = m.group("key"), _json_unescape(m.group("value"))
        if at >= 0 or key in _LIFECYCLE and key != "version" or (
                key not in _NPM_FIELDS and " " in value.strip() and not _VERSIONISH.match(value)):
            out.append(value)
            if names is not None:
                names.add(f"project script {key}")
    return out


_NPM_FIELDS: Final = frozenset({
    "name", "version", "description", "main", "module", "types", "typings", "license", "author", "homepage", "url",
    "email", "type", "private", "browser", "packageManager", "sideEffects", "funding", "unpkg", "jsdelivr",
    "source", "style", "sass", "exports", "import", "require", "default", "node", "npm", "registry", "access",
    "directory", "umd:main", "react-native", "title", "displayName", "publisher", "icon", "engines",
})
"""package.json fields whose string values are data, not commands (in a fragment the judge cannot see
which object a pair belongs to; a script's key is free, so every other key with a value of several
words is read as one: ``"testEnvironment": "node"`` is configuration, ``"x": "curl … | sh"`` is not)."""
_VERSIONISH: Final = re.compile(r"^(?:[\^~<>=*]|\d|v\d|x$|latest$|next$|beta$|canary$|workspace:|npm:|file:|link:|"
                                r"portal:|patch:|catalog:|git[+:]|github:|gitlab:|bitbucket:|https?://|\.{0,2}/)")
"""Dependency versions, ranges, tags, protocols and paths (``^1.2.0``, ``workspace:*``, ``./lib``)."""


_ARGS: Final = re.compile(r'\s*,?\s*"args"\s*:\s*\[(?P<items>[^\]]*)\]')
_JSON_STRING: Final = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _json_strings(text: str, keys: tuple[str, ...]) -> list[str]:
    """``command`` and the ``args`` that follow it in tasks.json (``"command": "bash", "args": ["-c",
    …]``), by regular expression so fragments and JSON with comments work too."""
    out = []
    for m in _PAIR.finditer(text):
        if m.group("key") not in keys:
            continue
        words = [_json_unescape(m.group("value"))]
        args = _ARGS.match(text, m.end())
        if args is not None:
            words.extend(_shell_quote(_json_unescape(a)) for a in _JSON_STRING.findall(args.group("items")))
        out.append(" ".join(words))
    return out


# -- Makefiles and justfiles -------------------------------------------------------------------------

_MAKE_VAR: Final = re.compile(r"^(?P<name>[A-Za-z_][\w.-]*)[ \t]*(?:::=|:=|\?=|\+=|!=|=)[ \t]*(?P<value>.*)$")
_MAKE_REF: Final = re.compile(r"\$[({](?P<name>[A-Za-z_][\w.-]*)[)}]")
_MAKE_AUTO: Final = re.compile(r"\$(?:[@<^?*+|%]|[({][@<^?*%][DF]?[)}])")
_MAKE_SHELL: Final = re.compile(r"\$[({]shell[ \t]+(?P<body>[^)}]*)[)}]")
_MAKE_FUNC: Final = re.compile(r"\$[({](?:[a-z-]+[ \t]|[A-Za-z_][\w.-]*:)[^)}]*[)}]")  # $(wildcard …), $(SRC:.c=.o)
_MAKE_TARGET: Final = re.compile(r"^(?P<targets>[A-Za-z0-9_][\w./ -]*?)[ \t]*::?(?!=)")
_MAKE_RULE_RECIPE: Final = re.compile(r"^[^\t#=:][^=;]*?::?(?!=)[^=;]*;(?P<recipe>.*)$")  # `all: deps ; recipe`
_SHELLS: Final = ("/bin/sh", "/bin/bash", "/usr/bin/env bash", "/usr/bin/bash", "sh", "bash", "/usr/bin/sh")


def _make(text: str, out: Content) -> None:
    """Recipe lines (tab first, minus ``@``/``-``/``+``), with continuation lines joined, and every
    ``$(shell …)`` (it runs when make reads the file, whatever the target)."""
    text = text.replace("\\\n", " ")
    values: dict[str, str] = {"MAKE": "make", "CURDIR": "."}
    for line in text.splitlines():
        m = _MAKE_VAR.match(line)
        if m and not line.startswith("\t"):
            values[m.group("name")] = m.group("value").strip()
    shell = values.get("SHELL", "/bin/sh")
    if shell.strip() not in _SHELLS:
        out.doubts.append(f"it sets make's SHELL to {shell.strip()[:40]!r}, which then runs every recipe")
    for m in _MAKE_SHELL.finditer(text):
        out.snippets.append(("sh", _make_words(m.group("body"), values)))
    if ".RECIPEPREFIX" in text:
        out.doubts.append("it changes make's recipe prefix, so recipes hide in lines that do not start with a tab")
    for m in _MAKE_INCLUDE.finditer(text):  # `-include $(HOME)/.proj.mk`: recipes from a file outside the project
        if m.group(1).startswith(("/", "~", "$(HOME)", "${HOME}", "$(shell", "..")):
            out.doubts.append(f"it includes {m.group(1)[:60]}, a makefile from outside the project")
    for line in text.splitlines():
        target = _MAKE_TARGET.match(line)
        if target is not None:
            out.names.update(f"build target {t}" for t in target.group("targets").split())
        same_line = _MAKE_RULE_RECIPE.match(line) if not line.startswith("\t") else None
        body = line[1:] if line.startswith("\t") else same_line.group("recipe") if same_line else ""
        body = body.lstrip(" \t@+-")
        if body and not body.startswith("#"):
            out.snippets.append(("sh", _make_words(body, values)))


def _make_words(text: str, values: dict[str, str], depth: int = 0) -> str:
    text = text.replace("$$", "\x00")
    text = _MAKE_SHELL.sub(lambda m: "$(" + m.group("body") + ")", text)
    text = _MAKE_AUTO.sub("make-target", text)

    def ref(m: re.Match[str]) -> str:
        name = m.group("name")
        if name in values and depth < 4:
            return _make_words(values[name], values, depth + 1).replace("$", "\x00")
        return "$" + name
    text = _MAKE_REF.sub(ref, text)
    text = _MAKE_FUNC.sub("make-value", text)
    return text.replace("\x00", "$")


_JUST_HEADER: Final = re.compile(r"^@?[A-Za-z_][\w-]*(?:[ \t]+[^:=]*)?:(?!=)")
_JUST_INTERP: Final = re.compile(r"\{\{.*?\}\}")
_JUST_BACKTICK: Final = re.compile(r"`([^`]*)`")


def _just(text: str, out: Content) -> None:
    """Recipe bodies (indented lines under ``name:``), backtick assignments (they run on every ``just``)
    and ``set shell``; a recipe with a shebang other than sh/bash is another language."""
    in_recipe = first = False
    for line in text.splitlines():
        if not line.strip():
            continue
        if line[0] not in " \t":
            in_recipe = bool(_JUST_HEADER.match(line))
            first = True
            if line.startswith("set") and "shell" in line:
                out.doubts.append("it changes the shell that runs every recipe")
            for m in _JUST_BACKTICK.finditer(line):
                out.snippets.append(("sh", m.group(1)))
            continue
        if not in_recipe:
            continue
        body = line.strip()
        if first and body.startswith("#!"):
            if not any(s in body for s in ("sh", "bash")) or "python" in body or "node" in body:
                out.doubts.append(f"a recipe in another language ({body[:40]})")
                in_recipe = False
                continue
        first = False
        body = body.lstrip("@-")
        if body and not body.startswith("#"):
            out.snippets.append(("sh", _JUST_INTERP.sub("just-value", body)))


# -- pytest, tox and Cargo configuration -------------------------------------------------------------

_INI_LINE: Final = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)[ \t]*[=:][ \t]*(?P<value>.*)$")
_TOX_PLACEHOLDER: Final = re.compile(r"\{[^{}]*\}")
_QUOTED: Final = re.compile(r"""'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)\"""")
_CARGO_KEYS: Final = frozenset({"runner", "rustc-wrapper", "rustc-workspace-wrapper", "rustc", "linker"})


def _ini_entries(text: str) -> list[tuple[str, str]]:
    """(key, value) of ``key = value`` lines, with INI continuation lines (indented) and TOML arrays
    that span lines folded into the value."""
    entries: list[list[str]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith(("#", ";")):
            continue
        if line[0] in " \t" and entries:
            entries[-1][1] += "\n" + line.strip()
            continue
        m = _INI_LINE.match(line)
        if m:
            entries.append([m.group("key"), m.group("value").strip()])
        elif entries and entries[-1][1].count("[") > entries[-1][1].count("]"):
            entries[-1][1] += "\n" + line.strip()
    return [(k, v) for k, v in entries]


def _toml_value_commands(value: str) -> list[str]:
    """A TOML/INI value as command lines: a quoted string, an array of strings (one argv), an array of
    arrays (one argv each), or bare INI lines (one command each)."""
    value = value.strip()
    if value.startswith("[["):
        return [" ".join(_quoted_items(inner)) for inner in re.findall(r"\[([^\[\]]*)\]", value)]
    if value.startswith("["):
        return [" ".join(_quoted_items(value))]
    if value[:1] in "'\"" and value.startswith(("'''", '"""')):
        return [line for line in value.strip("'\"").splitlines() if line.strip()]
    if value[:1] in "'\"":
        items = _quoted_items(value)
        return [items[0]] if items else []
    return [line for line in value.splitlines() if line.strip()]


def _quoted_items(text: str) -> list[str]:
    return [a or b for a, b in _QUOTED.findall(text)]


def _ini(text: str, out: Content, whole: bool = True) -> None:
    """pytest's ``addopts`` (read as options of ``pytest``) and tox's ``commands`` (one command a line);
    tox's ``{posargs}`` and friends are filled in by tox from the user's own arguments, so they go. In
    a fragment, indented lines before any key may continue a ``commands`` the fragment does not show."""
    if not whole:
        for line in text.splitlines():
            if line[:1] in (" ", "\t") and line.strip():
                out.snippets.append((LOOSE, _TOX_PLACEHOLDER.sub("", line.strip()).lstrip("-").strip()))
            elif line.strip() and not line.lstrip().startswith(("#", ";")):
                break
    out.snippets.extend(("sh", c) for c in _task_runner_commands(text))  # `poe lint`, `pdm run x`: the tasks
    for key, value in _ini_entries(text):
        if key == "addopts":
            quoted = value.startswith(("[", "'", '"'))
            out.snippets.append(("sh", "pytest " + " ".join(_toml_value_commands(value) if quoted else value.split())))
        elif key == "pythonpath":  # pytest puts these first on sys.path: a module there shadows any other
            far = [d for d in " ".join(_toml_value_commands(value) if value.startswith("[") else value.split()).split()
                   if d.startswith(("/", "~", "$")) or d == ".." or d.startswith("../")]
            if far:
                out.doubts.append(f"its pythonpath puts {far[0]}, outside the project, first on the import path")
        elif key in ("commands", "commands_pre", "commands_post", "install_command", "list_dependencies_command"):
            for command in _toml_value_commands(value):
                command = _TOX_PLACEHOLDER.sub("", command).strip().lstrip("-").strip()
                if command:
                    out.snippets.append(("sh", command))


_TASK_SECTION: Final = re.compile(r"^\s*\[tool\.(?:poe\.tasks|pdm\.scripts|taskipy\.tasks|rye\.scripts|"
                                 r"hatch\.envs\.[\w.-]+\.scripts)(?:\.[\w-]+)?\]\s*$")


def _task_runner_commands(text: str) -> list[str]:
    """The commands of pyproject's task-runner tables (poe, pdm, taskipy, rye, hatch): each value of
    ``[tool.poe.tasks]`` (and ``cmd``/``shell`` of ``[tool.poe.tasks.NAME]``) is a command line."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.lstrip().startswith("["):
            inside = bool(_TASK_SECTION.match(line))
            continue
        m = _INI_LINE.match(line) if inside else None
        if m is not None and m.group("key") not in ("help", "env", "cwd", "deps", "args", "envfile"):
            out.extend(_toml_value_commands(m.group("value")))
    return out


def _toml_commands(text: str, keys: frozenset[str]) -> list[str]:
    return [c for key, value in _ini_entries(text) if key in keys for c in _toml_value_commands(value)]


# -- languages phlegyas cannot parse: Rust build scripts, Ruby --------------------------------------

_RUST_COMMAND: Final = re.compile(r"Command::new\((?P<rest>[^;]*)", re.S)
_RUST_NET: Final = re.compile(r"std::net|TcpStream|UdpSocket|reqwest|ureq::|curl::|hyper::|include_bytes!\(\s*concat!")
_RUST_STRING: Final = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _rust(text: str, out: Content) -> None:
    """build.rs: each ``Command::new("p").arg("a")…`` statement as the argv of its string literals;
    network crates and sockets are doubts (a build script that downloads runs what it gets)."""
    for m in _RUST_COMMAND.finditer(text):
        words = _RUST_STRING.findall(m.group("rest"))
        if not words or not m.group("rest").lstrip().startswith('"'):
            out.doubts.append("it runs a program whose name the build script computes")
            continue
        out.snippets.append(("sh", " ".join(_shell_quote(w) for w in words)))
    if _RUST_NET.search(text):
        out.doubts.append("the build script uses the network")


_RUBY_RUN: Final = re.compile(r"""(?:\bsh|\bsystem|\bexec|\bspawn|%x|`)\s*\(?\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')""")
_RUBY_NET: Final = re.compile(r"Net::HTTP|open-uri|URI\.open|TCPSocket|Socket\.new|\beval\b|instance_eval|Kernel\.load")


def _ruby(text: str, out: Content) -> None:
    """Gemfile, Rakefile: the literal commands of ``sh``/``system``/``exec``/backticks; network and
    ``eval`` are doubts. ``gem``/``source`` lines are what bundler reads, not code that runs."""
    for m in _RUBY_RUN.finditer(text):
        out.snippets.append(("sh", m.group(1) if m.group(1) is not None else m.group(2)))
    for m in re.finditer(r"`([^`]*)`", text):
        out.snippets.append(("sh", m.group(1)))
    if re.search(r"""\b(?:sh|system|exec|spawn)\b\s*\(?\s*[^"'\s(]""", text):
        out.doubts.append("it runs a command it computes")
    if _RUBY_NET.search(text):
        out.doubts.append("it uses the network or evaluates computed code")


def _shell_quote(word: str) -> str:
    return word if re.fullmatch(r"[\w@%+=:,./-]+", word) else "'" + word.replace("'", "'\\''") + "'"


__all__ = ["LOOSE", "Content", "extract", "npm_scripts", "yaml_values"]
