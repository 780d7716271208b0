"""git settings and URLs that carry a command, beyond the pager/editor keys ``shell.embedded`` reads.

``git -c filter.x.clean=CMD add .`` runs CMD through a shell on every file added (``smudge`` on checkout,
``process`` once); ``credential.helper`` is a shell command when it starts with ``!`` (``/path ARGS`` runs a
program); ``uploadpack.packObjectsHook``, ``remote.NAME.uploadpack``/``receivepack``, ``diff.NAME.command``/
``textconv``, ``merge.NAME.driver`` and ``mergetool.NAME.cmd``/``difftool.NAME.cmd`` are shell commands. An
``ext::CMD ARG…`` URL (``git fetch``/``clone``/``ls-remote``/``push``/``remote add`` …, or a ``*.url``
setting) runs CMD with those arguments (``% `` is a space, ``%%`` a percent sign); ``git grep -OCMD``
opens the matching files with CMD. Each command becomes runs of its own, judged as if written plainly.
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.expansion import Walk, literal
from phlegyas.analysis.shell.options import parse_options
from phlegyas.analysis.shell.parse import SimpleCommand, Word

_CODE_KEY: Final = re.compile(r"^(?:filter\..+\.(?:clean|smudge|process)|uploadpack\.packobjectshook|"
                              r"remote\..+\.(?:uploadpack|receivepack)|diff\..+\.(?:command|textconv)|merge\..+\.driver|"
                              r"(?:merge|diff)tool\..+\.cmd|credential\..+\.helper)$")
"""Keys whose value git runs through a shell, other than those ``shell.embedded`` already reads."""

_URL_SUBCOMMANDS: Final = frozenset({"fetch", "clone", "ls-remote", "push", "pull", "remote", "submodule", "archive"})
_EXT_ESCAPES: Final = {" ": " ", "%": "%", "s": "git-upload-pack", "S": "upload-pack"}


def ext_argv(text: str) -> list[str]:
    """``sh -c rm% -rf% ~`` (after ``ext::``) → ``["sh", "-c", "rm -rf ~"]``: split at spaces, ``%`` escapes."""
    words: list[str] = []
    cur: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "%" and i + 1 < n:
            cur.append(_EXT_ESCAPES.get(text[i + 1], ""))
            i += 2
            continue
        if ch == " ":
            if "".join(cur):
                words.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    if "".join(cur):
        words.append("".join(cur))
    return words


def git_carried(ex: Walk, cmd: SimpleCommand, args: list[Word], via: tuple[str, ...], depth: int,
                remote: bool) -> bool:
    """Expand the commands ``git ARGS`` carries in settings, ``ext::`` URLs and ``grep -O``; whether any."""
    parsed = parse_options(args, P.GIT.value_opts, stop_at_operand=True)
    found = False
    for opt, value in parsed.opts:
        if opt == "-c" and value is not None and "=" in value.text:
            key, _, code = value.text.partition("=")
            found = _setting(ex, cmd, key.strip().lower(), Word(code, value.dynamic), "git -c", via, depth,
                             remote) or found
    rest = args[parsed.rest:] if parsed.rest >= 0 else []
    sub = rest[0].text if rest else ""
    if sub == "config":  # `git config filter.x.clean CMD`: runs at the next `git add`
        words = [w for w in rest[1:] if not w.text.startswith("-")]
        if len(words) >= 2:
            found = _setting(ex, cmd, words[0].text.lower(), words[1], "git config", via, depth, remote) or found
    if sub in _URL_SUBCOMMANDS:
        for w in rest[1:]:
            text = w.text.split("=", 1)[1] if w.text.startswith("--") and "=" in w.text else w.text
            if text.startswith("ext::"):
                found = _ext(ex, cmd, Word(text, w.dynamic), via, depth, remote) or found
    if sub == "grep":
        for w in rest[1:]:
            if w.text.startswith("-O") and len(w.text) > 2:  # `-OCMD`: the value is attached or absent
                found = _code(ex, Word(w.text[2:], w.dynamic), "git grep -O", via, depth, remote) or found
    return found


def _setting(ex: Walk, cmd: SimpleCommand, key: str, value: Word, how: str, via: tuple[str, ...], depth: int,
             remote: bool) -> bool:
    code = value.text
    if key.endswith((".url", ".pushurl")) and code.startswith("ext::"):
        return _ext(ex, cmd, value, via, depth, remote)
    if key == "credential.helper" or key.endswith(".helper") and key.startswith("credential."):
        if code.startswith("!"):
            return _code(ex, Word(code[1:], value.dynamic), f"{how} {key}", via, depth, remote)
        if code.startswith("/"):
            return _code(ex, value, f"{how} {key}", via, depth, remote)
        return False
    if key == "core.hookspath" and ex.written and not value.dynamic:  # hooks written in this line run at the next
        hooks = code.rstrip("/") + "/"  # commit or checkout: `printf '#!/bin/sh\n…' > /tmp/.h/post-checkout && …`
        found = False
        for path, text in list(ex.written.items()):
            if path.startswith(hooks):
                ex.nested(text, via + (f"{how} core.hooksPath: {path}",), depth, remote)
                found = True
        return found
    if _CODE_KEY.match(key) and code.strip():
        return _code(ex, value, f"{how} {key}", via, depth, remote)
    return False


def _code(ex: Walk, value: Word, what: str, via: tuple[str, ...], depth: int, remote: bool) -> bool:
    if value.dynamic:
        ex.problem(f"{what} with a computed command")
    ex.nested(value.text, via + (what,), depth, remote)
    return True


def _ext(ex: Walk, cmd: SimpleCommand, url: Word, via: tuple[str, ...], depth: int, remote: bool) -> bool:
    if url.dynamic:
        ex.problem("git ext:: URL with a computed command")
    argv = ext_argv(url.text[len("ext::"):])
    if argv:
        ex.invoke(cmd, [literal(a) for a in argv], via + ("git ext::",), depth, remote)
    return True
