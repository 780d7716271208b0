"""Commands carried in a program's arguments (``programs.CARRIERS``): found and expanded like any other.

``git bisect run rm -rf /`` runs ``rm -rf /``: the carried command becomes runs of its own, reached through
the carrier (``via``: ``git bisect run``), so Tier 1 and Tier 2 judge it exactly as if it were written
plainly, and ``phlegyas check`` shows the chain. The carrier's own run is marked as executing a command,
so it is never Tier-2 safe by itself. Editors and debuggers take commands in their own languages: only what
starts a shell is read (vim's ``!cmd`` and ``system("cmd")``, gdb's ``shell cmd``/``!cmd`` and
``--args PROG …``, Emacs Lisp's ``(shell-command "cmd")``); anything else they are told to do is code the
gate does not read. ``docker run -v SRC:DST`` and ``--mount`` bind host paths: a path of the carried
command under DST is SRC on the host, and the command is then judged as running here.
"""
from __future__ import annotations

import re
import shlex
from typing import Final

from phlegyas.analysis.programs.carriers import CARRIERS as PROGRAM_CARRIERS
from phlegyas.analysis.programs.carriers import LANGUAGE_CARRIERS, Carrier
from phlegyas.analysis.shell.build_carriers import BUILD_LANGUAGES, build_language
from phlegyas.analysis.shell.carrier_languages import language
from phlegyas.analysis.shell.expansion import Run, Walk, literal, quote, text_of
from phlegyas.analysis.shell.git_carried import git_carried
from phlegyas.analysis.shell.options import parse_options
from phlegyas.analysis.shell.parse import SimpleCommand, Word

__all__ = ["CARRIERS", "carry"]

CARRIERS: Final[frozenset[str]] = frozenset(PROGRAM_CARRIERS) | frozenset(LANGUAGE_CARRIERS)
"""Every program ``carry`` reads."""


def carry(ex: Walk, cmd: SimpleCommand, run: Run, key: str, args: list[Word], via: tuple[str, ...], depth: int,
          remote: bool) -> None:
    """Expand what ``run`` (of program ``key``, one of ``CARRIERS``) carries."""
    if key == "git" and git_carried(ex, cmd, args, via, depth, remote):
        run.notes.append(("executes", "git runs a command given in a setting, URL or option (judged on its own)"))
    for carrier in _by_path_length(key):
        start = _after_path(args, carrier)
        if start is None:
            continue
        label = " ".join((run.program, *carrier.path)).strip()
        if _expand(ex, cmd, run, carrier, args[start:], label, via, depth, remote):
            run.notes.append(("executes", f"{label} runs a command it is given (judged on its own)"))
        return


_ORDERED: Final[dict[str, tuple[Carrier, ...]]] = {}


def _by_path_length(key: str) -> tuple[Carrier, ...]:
    """The program's carriers, longest subcommand path first (``tmux new-session`` before ``tmux -c``)."""
    got = _ORDERED.get(key)
    if got is None:
        every = PROGRAM_CARRIERS.get(key, ()) + LANGUAGE_CARRIERS.get(key, ())
        got = _ORDERED[key] = tuple(sorted(every, key=lambda c: -len(c.path)))
    return got


def _after_path(args: list[Word], c: Carrier) -> int | None:
    """The index in ``args`` just after the carrier's subcommand path, its global options skipped; None
    when the arguments name another subcommand."""
    if not c.path:
        return 0
    i, n = 0, len(args)
    while i < n:
        word = args[i]
        text = word.text
        if text == c.path[0] and not word.dynamic:
            end = i + len(c.path)
            if [w.text for w in args[i:end]] == list(c.path):
                return end
            return None
        if text.startswith("-") and len(text) > 1:
            i += 2 if text in c.global_values else 1
            continue
        return None
    return None


def _expand(ex: Walk, cmd: SimpleCommand, run: Run, c: Carrier, sub: list[Word], label: str,
            via: tuple[str, ...], depth: int, remote: bool) -> bool:
    """Expand the command(s) in ``sub`` (the words after the path); whether any was found."""
    found = False
    inner_via = via + (label,)
    stop = c.argv_from >= 0 or c.shell_from >= 0
    prefixed = frozenset(name for name, _ in c.prefixed)
    opt_argv: list[Word] = []
    if c.argv_opts:  # `nix develop -c CMD ARG…`: the words after the option are an argv
        cut = next((i for i, w in enumerate(sub) if w.text in c.argv_opts), -1)
        if cut >= 0:
            sub, opt_argv = sub[:cut], sub[cut + 1:]
    parsed = parse_options(sub, c.values | c.shell_opts | c.remote_opts | prefixed, c.whole, stop_at_operand=stop)
    mounts: list[tuple[str, str]] = []
    for opt, value in parsed.opts:
        if value is None:
            continue
        if opt in c.shell_opts or opt in c.remote_opts:
            if label == "ansible":  # `-m file -a 'path=/x state=absent'` deletes /x; only shell modules run `-a`
                value = _ansible_code(parsed.opts, value)
                if value is None:
                    continue
            found = _code(ex, value, f"{label} {opt}", via + (f"{label} {opt}",), depth,
                          remote or c.remote or opt in c.remote_opts) or found
        for name, prefix in c.prefixed:
            if opt == name and value.text.startswith(prefix):
                code = Word(value.text[len(prefix):], value.dynamic, value.glob, value.quoted)
                found = _code(ex, code, f"{label} {opt}", via + (f"{label} {opt}",), depth, remote) or found
        if opt in c.mounts:
            mounts.extend(_mount(value.text))
    operands = sub[parsed.rest:] if stop and parsed.rest >= 0 else ([] if stop else parsed.operands)
    if c.language in ("vim", "gdb", "lldb", "emacs"):
        found = _language(ex, cmd, run, c.language, parsed.opts, operands, sub, inner_via, depth, remote) or found
    elif c.language in BUILD_LANGUAGES:
        found = build_language(ex, cmd, c.language, sub, inner_via, depth, remote, run.program) or found
    elif c.language:
        found = language(ex, cmd, c.language, parsed.opts, operands, inner_via, depth, remote) or found
    argv: list[Word] = opt_argv
    texts = [w.text for w in sub]
    if argv:
        pass
    elif c.after_dashdash and "--" in texts:
        argv = sub[texts.index("--") + 1:]
    elif c.argv_from >= 0:
        argv = operands[c.argv_from:]
        if argv and argv[0].text.startswith("-") and c.mounts and c.argv_from > 0:  # `docker run … curlimages/curl
            tool = _IMAGE_TOOLS.get(operands[c.argv_from - 1].text.rsplit("/", 1)[-1].split(":", 1)[0])  # -F …`
            argv = [literal(tool), *argv] if tool else argv  # the image's entry point is that tool
    if c.assignments:
        while argv and "=" in argv[0].text and argv[0].text.split("=", 1)[0].isidentifier():
            argv = argv[1:]
    inner_remote = remote or c.remote and not mounts
    if len(argv) == 1 and not argv[0].dynamic and " " in argv[0].text.strip():
        ex.nested(argv[0].text, inner_via, depth, inner_remote)  # `xterm -e 'rm -rf ~'`: many run one word via sh
        found = True
    elif argv:
        if mounts:
            argv = [_host_word(w, mounts) for w in argv]
        ex.invoke(cmd, argv, inner_via, depth, inner_remote)
        found = True
    if c.shell_from >= 0 and len(operands) > c.shell_from:
        words = operands[c.shell_from:]
        if c.path[:1] in (("send-keys",), ("send",)):
            words = [w for w in words if w.text not in _TMUX_KEYS]
        if any(w.dynamic for w in words):
            ex.problem(f"{label} runs a computed command")
        ex.nested(text_of(words), inner_via, depth, inner_remote)
        found = True
    return found


_TMUX_KEYS: Final = frozenset({"Enter", "C-m", "C-j", "KPEnter", "Space", "Tab", "Escape", "C-c", "C-d"})


_ANSIBLE_SHELLS: Final = frozenset({"shell", "command", "raw", "script"})


_IMAGE_TOOLS: Final = {"curl": "curl", "kubectl": "kubectl", "aws-cli": "aws", "git": "git", "wget": "wget",
                       "httpie": "http", "rclone": "rclone", "terraform": "terraform", "helm": "helm", "gh": "gh"}
"""Images whose entry point is one tool (``curlimages/curl``, ``amazon/aws-cli``): arguments after them are its."""


def _ansible_code(opts: list[tuple[str, Word | None]], args: Word) -> Word | None:
    """The command an ad-hoc ansible module's ``-a`` amounts to: itself for the shell modules (the default
    is ``command``), ``rm -rf PATH`` for ``file … state=absent``; None for any other module."""
    module = next((v.text for o, v in opts if o in ("-m", "--module-name") and v is not None), "command")
    module = module.rsplit(".", 1)[-1]
    if module in _ANSIBLE_SHELLS:
        return args
    try:
        parts = shlex.split(args.text)
    except ValueError:
        parts = args.text.split()
    fields = dict(part.split("=", 1) for part in parts if "=" in part)
    target = fields.get("path") or fields.get("dest") or fields.get("name")
    if module == "file" and fields.get("state") == "absent" and target:
        return Word(f"rm -rf -- {quote(target)}", args.dynamic)
    absent = fields.get("state") == "absent"
    if module == "authorized_key" and fields.get("key") and not absent:  # a key that may log in as that user
        user = fields.get("user", "root")
        keys = "/root/.ssh/authorized_keys" if user == "root" else f"~{user}/.ssh/authorized_keys"
        return Word(f"printf '%s\\n' {quote(fields['key'])} >> {keys}", args.dynamic)
    added = fields.get("line") or fields.get("block")
    if module in ("lineinfile", "blockinfile") and target and not absent and added:
        return Word(f"printf '%s\\n' {quote(added)} >> {quote(target)}", args.dynamic)
    if module == "copy" and fields.get("dest") and "content" in fields:
        return Word(f"printf '%s' {quote(fields['content'])} > {quote(fields['dest'])}", args.dynamic)
    return None


def _code(ex: Walk, value: Word, what: str, via: tuple[str, ...], depth: int, remote: bool) -> bool:
    if value.dynamic:
        ex.problem(f"{what} with a computed command")
    ex.nested(value.text, via, depth, remote)
    return True


def _mount(text: str) -> list[tuple[str, str]]:
    """(host path, container path) of a ``-v SRC:DST[:opts]`` or ``--mount type=bind,source=S,target=T``."""
    if "=" in text and ("target=" in text or "dst=" in text or "destination=" in text):
        fields = dict(part.split("=", 1) for part in text.split(",") if "=" in part)
        src = fields.get("source") or fields.get("src")
        dst = fields.get("target") or fields.get("dst") or fields.get("destination")
        return [(src, dst)] if src and dst and src.startswith(("/", "~", "$")) else []
    parts = text.split(":")
    if len(parts) >= 2 and parts[0].startswith(("/", "~", "$", ".")) and parts[1].startswith("/"):
        return [(parts[0], parts[1])]
    return []


def _host_word(word: Word, mounts: list[tuple[str, str]]) -> Word:
    """``/host/home/u`` with ``-v /:/host`` → ``/home/u``: a path under a mount, named as the host has it."""
    text = word.text
    if any(c in text for c in " \t\n;|&<>@"):  # `sh -c "… >> /h/sudoers"`, `-F f=@/c/credentials`: host paths
        return Word(_host_code(text, mounts), word.dynamic, word.glob, word.quoted)
    key, eq, value = text.partition("=")
    if eq and value.startswith("/") and not key.startswith("/"):  # `of=/h/dev/sda`, `--file=/h/x`
        mapped = _host_word(Word(value, word.dynamic, word.glob, word.quoted), mounts)
        return Word(key + "=" + mapped.text, mapped.dynamic, word.glob, word.quoted)
    for src, dst in sorted(mounts, key=lambda m: -len(m[1])):
        dst = dst.rstrip("/") or "/"
        if text == dst or text.startswith(dst + "/"):
            rest = text[len(dst):] if dst != "/" else text
            host = src.rstrip("/") + ("/" + rest.lstrip("/") if rest.strip("/") else "")
            return Word(host or "/", word.dynamic or "$" in src, word.glob, word.quoted)
    return word


def _host_code(text: str, mounts: list[tuple[str, str]]) -> str:
    """Shell code run in the container with every path under a mount (``/h/sudoers`` with ``-v /etc:/h``)
    renamed as the host has it; a mount on ``/`` itself renames nothing (every path is under it)."""
    for src, dst in sorted(mounts, key=lambda m: -len(m[1])):
        dst = dst.rstrip("/")
        if dst and "$" not in src:
            host = (src.rstrip("/") or "/").replace("\\", "\\\\")  # a replacement string: backslashes doubled
            text = re.sub(rf"(?<![\w./~$-]){re.escape(dst)}(?=/|$|[\s'\";|&()<>,])", host, text)
    return text


# -- editors and debuggers: only what starts a shell is shell code -------------------------------------

_VIM_SYSTEM: Final = re.compile(r"""\bsystem(?:list)?\s*\(\s*(['"])((?:(?!\1).)*)\1""")
_VIM_BANG: Final = re.compile(r"^(?:(?:silent!?|sil!?|exe(?:cute)?|keepalt|noautocmd)\s+)*(?P<range>%|\d*,?\d*)\s*"
                              r"(?P<how>r(?:ead)?\s*|w(?:rite)?!?\s*|\.?\s*)?!(?P<code>.*)$", re.S)
_VIM_READ: Final = re.compile(r"^(?:(?:silent!?|sil!?)\s+)*(?:\d*\s*)?r(?:ead)?\s+(?P<file>[^!\s]\S*)\s*$")
_VIM_DELETE: Final = re.compile(r"""\bdelete\(\s*(?:(?:vim\.fn\.)?expand\(\s*)?(['"])((?:(?!\1).)+)\1\s*\)?\s*,"""
                                r"""\s*(['"])rf\3\s*\)""")
"""``call delete(expand("~/x"), "rf")``, ``lua vim.fn.delete(vim.fn.expand("~/x"), "rf")``: ``rm -rf``."""
_GDB_SHELL: Final = re.compile(r"^\s*(?:platform\s+shell\s+|shell\s+|!)(?P<code>.*)$", re.S)
_GDB_PYTHON: Final = re.compile(r"^\s*(?:python|py|python-interactive|pi)(?:\s+(?P<code>.*))?$", re.S)
_GDB_SYSTEM: Final = re.compile(r'^\s*(?:call|print|p|output)\b.*?\bsystem\s*\(\s*"((?:[^"\\]|\\.)*)"', re.S)
"""``call (int)system("rm -rf ~")``: the debugged process runs a shell command."""
_VIM_LUA: Final = re.compile(r"^(?:(?:silent!?|sil!?)\s+)*(?P<lang>lua|py3|python3|py|python)\s+(?P<code>.+)$", re.S)
"""``:lua os.execute(…)``, ``:py3 import os; …``: editor commands whose rest is Lua or Python code."""
_EMACS_DELETE: Final = re.compile(r"\((delete-directory|delete-file)\s+(?:\(expand-file-name\s+)?"
                                  r"\"((?:[^\"\\]|\\.)*)\"\)?(\s+[^\s()]+)?")
_EMACS_PROCESS: Final = re.compile(r"\(call-process\s+\"((?:[^\"\\]|\\.)*)\"\s+[^\s()]+\s+[^\s()]+\s+[^\s()]+"
                                   r"((?:\s+\"(?:[^\"\\]|\\.)*\")*)")
_PLAIN_PATH: Final = re.compile(r"[~A-Za-z0-9_./@+-]+")
_EMACS_SHELL: Final = re.compile(r"\((?:async-)?shell-command(?:-to-string)?\s+\"((?:[^\"\\]|\\.)*)\"|"
                                 r"\((?:call|start)-process-shell-command\s+(?:\"(?:[^\"\\]|\\.)*\"\s+\S+\s+)?"
                                 r"\"((?:[^\"\\]|\\.)*)\"")


def _language(ex: Walk, cmd: SimpleCommand, run: Run, language: str, opts: list[tuple[str, Word | None]],
              operands: list[Word], sub: list[Word], via: tuple[str, ...], depth: int, remote: bool) -> bool:
    commands: list[Word] = []
    if language == "vim":
        commands = [v for o, v in opts if o in ("-c", "--cmd") and v is not None]
        commands += [Word(w.text[1:], w.dynamic, w.glob, w.quoted) for w in operands if w.text.startswith("+")]
        if not commands:
            return False
        buffer = [w.text for w in operands if not w.text.startswith(("+", "-"))]  # the files the buffer holds
        for ex_cmd in commands:
            text = ex_cmd.text.strip().lstrip(":").strip()
            m = _VIM_BANG.match(text)
            read = _VIM_READ.match(text) if not m else None
            if read is not None:
                buffer.append(read.group("file"))
            codes = [m.group("code")] if m else [g[1] for g in _VIM_SYSTEM.findall(text)]
            if m and buffer and ((m.group("how") or "").startswith("w") or m.group("range")):
                codes = ["cat -- " + " ".join(buffer) + " | " + m.group("code")]  # `w !curl -d @- …`: the buffer
            lang = _VIM_LUA.match(text) if not m else None
            if lang is not None:  # read as `lua -e CODE` / `python3 -c CODE`
                runner = "lua -e " if lang.group("lang") == "lua" else "python3 -c "
                codes = [runner + quote(lang.group("code"))]
            codes += [f"rm -rf -- {p if _PLAIN_PATH.fullmatch(p) else quote(p)}" for _, p, _ in _VIM_DELETE.findall(text)]
            for code in codes:
                _code(ex, Word(code, ex_cmd.dynamic), "vim !", via, depth, remote)
        return True
    if language in ("gdb", "lldb"):
        commands = [v for o, v in opts if o in ("-ex", "--ex", "-iex", "--init-eval-command", "-eval-command",
                                                 "--eval-command", "-o", "--one-line", "-O", "--one-line-before-file",
                                                 "-k", "--one-line-on-crash") and v is not None]  # lldb's -o too
        texts = [w.text for w in sub]
        found = bool(commands) or any(o in ("-x", "--command", "-ix", "--init-command") for o, _ in opts)
        for c in commands:
            m = _GDB_SHELL.match(c.text)
            if m:
                _code(ex, Word(m.group("code"), c.dynamic), "gdb shell", via, depth, remote)
            called = _GDB_SYSTEM.match(c.text)
            if called:
                _code(ex, Word(called.group(1).replace('\\"', '"'), c.dynamic), "gdb call system", via, depth, remote)
            py = _GDB_PYTHON.match(c.text)
            if py:  # `-ex 'python import os; os.system(…)'`: Python code, read as `python3 -c`
                _code(ex, Word("python3 -c " + quote(py.group("code") or "import code; code.interact()"),
                               c.dynamic), "gdb python", via, depth, remote)
        if "--args" in texts:
            argv = sub[texts.index("--args") + 1:]
            if argv:
                ex.invoke(cmd, argv, via, depth, remote)
                found = True
        return found
    if language == "emacs":
        commands = [v for o, v in opts if o in ("--eval", "-eval", "--execute") and v is not None]
        for c in commands:
            for a, b in _EMACS_SHELL.findall(c.text):
                code = (a or b).encode("utf-8", "backslashreplace").decode("unicode_escape", "replace")
                _code(ex, Word(code, c.dynamic), "emacs shell-command", via, depth, remote)
            for fn, path, recursive in _EMACS_DELETE.findall(c.text):
                # `(delete-directory "~" t)`: Emacs expands `~` in file names, as a shell would unquoted
                target = path if _PLAIN_PATH.fullmatch(path) else quote(path)
                verb = "rm --" if fn == "delete-file" else ("rm -r --" if recursive.strip() not in ("", "nil")
                                                              else "rmdir --")
                _code(ex, Word(f"{verb} {target}", c.dynamic), f"emacs {fn}", via, depth, remote)
            for program, rest in _EMACS_PROCESS.findall(c.text):
                words = [program, *re.findall(r'"((?:[^"\\]|\\.)*)"', rest)]
                ex.invoke(cmd, [literal(a) for a in words], via + ("emacs call-process",), depth, remote)
        return bool(commands) or any(o in ("-l", "--load", "-f", "--funcall") for o, _ in opts)
    return False
