"""Bash writes into planted files: which file a command writes, and the content, when the command
line shows it (``echo``/``printf`` redirected, ``cat``/``tee`` fed by a heredoc, a here-string or an
``echo`` pipe, the text ``sed -i`` puts in). A copy, a link, a download or another program's output
written there is content the gate cannot see: a person reads it.
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Final

from phlegyas.analysis import paths
from phlegyas.analysis.planted.catalogue import planted_kind
from phlegyas.analysis.planted.judge import ShellTools, content_findings
from phlegyas.analysis.shell.analyze import Run
from phlegyas.analysis.shell.parse import Word
from phlegyas.analysis.shell.stdin import DECODERS, literal_output
from phlegyas.analysis.tier1.base import piped_text
from phlegyas.analysis.tier1.writes import DOWNLOADERS, program_writes
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding, Verdict

_WHOLE_OPS: Final = frozenset({">", ">|", "&>"})
_APPEND_OPS: Final = frozenset({">>", "&>>", "<>"})
_ESCAPES: Final = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "r": "\r", "a": "", "e": "", "0": ""}


def shell_write_findings(run: Run, env: AnalysisEnv, tools: ShellTools, redirects: bool) -> list[Finding]:
    """The planted-code findings of one run: its output redirections (``redirects``: this run is the
    one its command's redirections belong to) and the files its arguments write."""
    if run.remote:
        return []  # a file on another host: no command of this project runs it
    out: list[Finding] = []
    targets: list[tuple[Word | str, bool, bool]] = []  # (target, whole file?, through a redirection?)
    if redirects:
        for r in run.command.redirects:
            if r.target is not None and (r.op in _WHOLE_OPS or r.op in _APPEND_OPS):
                targets.append((r.target, r.op in _WHOLE_OPS, True))
    if run.program in _ARG_WRITERS:
        append = any(w.text in ("-a", "--append") for w in run.args)
        targets.extend((t, not append, False) for t in program_writes(run))
    if run.program in ("yq", "dasel") and any(w.text in ("-i", "--inplace") for w in run.args):
        files = [w for w in run.args if not w.text.startswith("-")][1:]  # `yq -i '.jobs… += […]' ci.yml`: unseen
        targets.extend((w, False, False) for w in files[-1:])
    edited = _jq_settings_edit(run, env)
    if edited is not None:  # `jq '.permissions.defaultMode="bypassPermissions"' ~/.claude/settings.json | sponge …`
        path, fragment = edited
        kind = planted_kind(path, env.project_root)
        if kind is not None:  # only what the edit is denied for: jq alone writes nothing
            out.extend(f for f in content_findings(path, kind, fragment, False, env, tools, "jq", _shown(path, env))
                       if f.severity == Verdict.DENY)
    scripts = _npm_pkg_scripts(run)
    if scripts is not None:  # `npm pkg set scripts.postinstall='curl … | sh'`: an edit of package.json's scripts
        targets.append(("composer.json" if run.program == "composer" else "package.json", False, False))
    for target, whole, redirected in targets:
        text = target.text if isinstance(target, Word) else target
        if isinstance(target, Word) and target.dynamic or "$" in text or "`" in text:
            name = text.rsplit("/", 1)[-1]  # `> "$(python3 -m site --user-site)/sitecustomize.py"`: wherever it is,
            if "/" not in text or "$" in name or "`" in name or ")" in name or not name.endswith(_ANYWHERE):
                continue  # a Python start-up hook by its name alone
            text = "/unknown/" + name
        path = paths.normalize(text, env.cwd, env.home)
        kind = planted_kind(path, env.project_root)
        if kind is None:
            continue
        content = _redirected_content(run) if redirected else scripts if scripts is not None else _argument_content(run)
        if run.program == "sed" and not redirected and kind.language in _COMMAND_LINES:
            kind = replace(kind, language="sh")  # a replacement lands inside a recipe line: read it as a command
        shown = _shown(path, env)
        out.extend(content_findings(path, kind, content, whole and run.program != "sed", env, tools,
                                    run.program or "the command", shown, run.program in DOWNLOADERS))
    return out


_JQ_EDITED: Final = frozenset({"agent_settings", "npm_scripts", "vscode_tasks"})
_JQ_ASSIGN: Final = re.compile(r"""(?<![\w\]])((?:\.[A-Za-z_][\w-]*|\.?\["[^"]*"\])+)\s*(?:\+=|\|=|=)(?!=)\s*""")


def _jq_settings_edit(run: Run, env: AnalysisEnv) -> tuple[str, str] | None:
    """(the file, what the edit puts in it) of ``jq FILTER FILE`` when FILE is an agent's or editor's settings,
    package.json or the editor's tasks, and the filter assigns (``=``, ``+=``, ``|=``): the assignments of
    literal values as the JSON they make (``.permissions.defaultMode = "bypassPermissions"`` →
    ``{"permissions": {"defaultMode": "bypassPermissions"}}``), else the filter itself as a fragment. Its
    written copy (``> /tmp/s && mv /tmp/s FILE``, ``| sponge FILE``) is the edit."""
    if run.program not in ("jq", "gojq"):
        return None
    words = [w for w in run.args if not w.text.startswith("-")]
    if len(words) < 2 or words[0].dynamic or not _JQ_ASSIGN.search(words[0].text):
        return None
    for w in words[1:]:
        path = paths.normalize(w.text, env.cwd, env.home)
        kind = planted_kind(path, env.project_root)
        if kind is not None and kind.id in _JQ_EDITED:
            made = jq_assignments(words[0].text)
            return path, json.dumps(made) if made else words[0].text
    return None


def jq_assignments(program: str) -> dict:
    """The JSON a jq filter's assignments of literal values build (``.a.b = "x" | .c += [1]``)."""
    out: dict = {}
    decoder = json.JSONDecoder()
    for m in _JQ_ASSIGN.finditer(program):
        try:
            value, _ = decoder.raw_decode(program, m.end())
        except ValueError:
            continue
        keys = re.findall(r'\.?\["([^"]*)"\]|\.([A-Za-z_][\w-]*)', m.group(1))
        node = out
        names = [a or b for a, b in keys]
        for name in names[:-1]:
            node = node.setdefault(name, {}) if isinstance(node.get(name, {}), dict) else {}
        if names:
            node[names[-1]] = value
    return out


def _npm_pkg_scripts(run: Run) -> str | None:
    """The ``scripts`` fragment ``npm pkg set scripts.NAME=VALUE …`` writes into package.json, as JSON."""
    words = [w for w in run.args if not w.text.startswith("-")]
    if run.program == "composer" and [w.text for w in words[:1]] == ["config"] and len(words) >= 3 and words[
            1].text.startswith("scripts.") and not words[2].dynamic:  # `composer config scripts.X 'CMD'`
        return json.dumps({"scripts": {words[1].text[8:]: " ".join(w.text for w in words[2:])}})
    if run.program not in ("npm", "pnpm") or [w.text for w in words[:2]] != ["pkg", "set"]:
        return None
    pairs = {w.text.partition("=")[0][8:]: w.text.partition("=")[2] for w in words[2:]
             if w.text.startswith("scripts.") and "=" in w.text and not w.dynamic}
    return json.dumps({"scripts": pairs}) if pairs else None


def content_shown(run: Run) -> bool:
    """Whether the line shows what ``run`` writes (``cat > f <<'EOF'``, ``echo … > f``, ``tee f <<< …``): its
    content was judged as planted code is, so running the project after it is no blind step."""
    if run.program in ("echo", "printf", "cat"):
        return _redirected_content(run) is not None
    if run.program == "tee":
        return _piped(run) is not None
    return False


_COMMAND_LINES: Final = frozenset({"make", "just"})
_ANYWHERE: Final = ("sitecustomize.py", "usercustomize.py", ".pth")  # files whose name alone says what runs them
_ARG_WRITERS: Final = frozenset({"tee", "sed", "cp", "mv", "install", "ln", "rsync", "dd", *DOWNLOADERS})


def _redirected_content(run: Run) -> str | None:
    """What ``run`` prints into its redirection, when the line shows it."""
    words = [w.text for w in run.args]
    if run.program == "echo":
        escapes = False
        while words and re.fullmatch(r"-[neE]+", words[0]):
            escapes = escapes or "e" in words[0]
            words = words[1:]
        text = " ".join(words)
        return _unescape(text) if escapes else text
    if run.program == "printf":
        return _printf(words)
    if run.program == "cat" and not [w for w in words if w != "-"]:
        return _piped(run)
    if run.program == "tee":
        return _piped(run)
    if run.program in DECODERS:  # `echo IyEv… | base64 -d > .git/hooks/pre-commit`: what the decoder prints
        return literal_output(run)[0]
    return None


def _argument_content(run: Run) -> str | None:
    if run.program == "tee":
        return _piped(run)
    if run.program == "sed":
        return _sed_text(run)
    return None


def _piped(run: Run) -> str | None:
    texts, unknown = piped_text(run)
    return None if unknown or not texts else "\n".join(texts)


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), text)


def _printf(words: list[str]) -> str | None:
    if not words:
        return ""
    if words[0] == "--":
        words = words[1:]
    fmt, args = (words[0], words[1:]) if words else ("", [])
    fill = iter(args)
    text = re.sub(r"%[-+ #0-9.]*([sbdiqc%])", lambda m: "%" if m.group(1) == "%" else next(fill, ""), fmt)
    rest = list(fill)
    return _unescape(text) + ("\n" + "\n".join(rest) if rest else "")


_SED_S: Final = re.compile(r"s(?P<d>[^\w\s\\])(?:\\.|(?!(?P=d)).)*(?P=d)(?P<new>(?:\\.|(?!(?P=d)).)*)(?P=d)")
_SED_TEXT: Final = re.compile(r"(?:^|;|\n)\s*(?:\d+|/[^/]*/|\$)?\s*[aic](?:\\(?=\s|$))?\s*(?P<text>[^;\n]*)")


def _sed_text(run: Run) -> str | None:
    """The text ``sed -i`` writes: the replacements of its ``s`` commands and the lines of ``a``/``i``/
    ``c``; a script from a file or a computed one is not shown."""
    args = run.args
    scripts: list[str] = []
    i = 0
    while i < len(args):
        t = args[i].text
        if t in ("-e", "--expression") and i + 1 < len(args):
            scripts.append(args[i + 1].text)
            i += 2
            continue
        if t.startswith("--expression="):
            scripts.append(t.split("=", 1)[1])
        elif t in ("-f", "--file") or t.startswith("--file="):
            return None
        elif not t.startswith("-") and not scripts:
            scripts.append(t)
        i += 1
    if any(w.dynamic for w in args):  # a computed script (`$a …`, written in single quotes, appends at the end)
        return None
    parts = [m.group("new").replace("\\" + m.group("d"), m.group("d")) for s in scripts for m in _SED_S.finditer(s)]
    parts += [m.group("text") for s in scripts for m in _SED_TEXT.finditer(s) if not _SED_S.match(s.strip())]
    return "\n".join(_unescape(p) for p in parts)


def _shown(path: str, env: AnalysisEnv) -> str:
    root = env.project_root
    if root != "/" and paths.is_within(path, root):
        return path[len(root):].lstrip("/") or "."
    return path


__all__ = ["shell_write_findings"]
