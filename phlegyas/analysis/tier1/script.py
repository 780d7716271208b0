"""Findings that need the whole command line, not one invocation: fork bombs, a script downloaded and
then run, and a switch to a production context followed by a mutating command."""
from __future__ import annotations

import posixpath
import re
from typing import Callable, Final, Sequence

from phlegyas.analysis.paths import is_system_path
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Script, Word
from phlegyas.analysis.tier1.base import INTERPRETERS, SHELLS, Out, add, env_for, is_prod
from phlegyas.analysis.tier1.delete import detect_rm
from phlegyas.analysis.tier1.prod import KUBECTL_MUTATING
from phlegyas.analysis.tier1.words import path_of
from phlegyas.analysis.tier1.writes import DOWNLOADERS, program_writes, redirect_writes
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Verdict


def fork_bombs(script: Script, out: Out) -> None:
    """A function that calls itself twice (``:(){ :|:& };:``, ``b(){ b & b; }``) multiplies processes
    until the machine stalls."""
    if not script.functions:
        return
    for name in script.functions:
        calls = [i for i, c in enumerate(script.commands) if c.origin == "function" and c.program == name]
        piped = any(script.commands[i].upstream and any(script.commands[u].program == name
                                                        for u in script.commands[i].upstream) for i in calls)
        if len(calls) >= 2 or piped:
            add(out, "process.fork_bomb", script.source[:120],
                f"the function {name} calls itself {'through a pipe' if piped else 'twice'}: a fork bomb")
            return




def _download_outputs(inv: Invocation, env: AnalysisEnv) -> list[str]:
    texts = program_writes(inv) + redirect_writes(inv)
    return [p for p in (path_of(t, env) for t in texts) if p is not None]


_CLONE_VALUES: Final = frozenset({"-b", "--branch", "--depth", "-o", "--origin", "-c", "--config", "--reference", "-j",
                                  "--jobs", "--filter", "--template", "--separate-git-dir", "-u", "--upload-pack",
                                  "--shallow-since", "--shallow-exclude", "--server-option", "--bundle-uri"})


def _cloned_dir(inv: Invocation, env: AnalysisEnv) -> str | None:
    """The directory ``git clone URL [DIR]`` fills with the remote repository's files, normalized."""
    if inv.program != "git":
        return None
    args = [w for w in inv.args]
    if not args or args[0].text != "clone":
        return None
    operands: list[str] = []
    i = 1
    while i < len(args):
        t = args[i].text
        if t in _CLONE_VALUES:
            i += 2
            continue
        if not t.startswith("-") or t == "-":
            operands.append(t)
        i += 1
    if not operands:
        return None
    if len(operands) > 1:
        target = operands[1]
    else:
        target = operands[0].rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
        target = target[:-4] if target.endswith(".git") else target
    return path_of(target, env) if target else None


_EXTRACTORS = frozenset({"tar", "gtar", "bsdtar", "unzip", "7z", "7za", "unrar", "cpio", "gunzip", "bunzip2", "unxz",
                         "zstd", "unzstd", "ar", "pax"})


def _extracts(inv: Invocation, downloaded: dict[str, str], env: AnalysisEnv) -> str | None:
    """The downloader whose archive ``inv`` unpacks (a file it downloaded, or its output piped in)."""
    if inv.program not in _EXTRACTORS:
        return None
    if inv.program in ("tar", "gtar", "bsdtar"):
        first = inv.args[0].text if inv.args else ""
        if not any(w.text in ("-x", "--extract", "--get") for w in inv.args) and not (
                first and not first.startswith("--") and "x" in first.lstrip("-")):
            return None
    for up in inv.upstream:
        if up.program in DOWNLOADERS:
            return up.program
    for w in inv.args:
        p = path_of(w.text, env)
        if p is not None and p in downloaded:
            return downloaded[p]
    return None


_RUN_KEYS: Final = ("core.hookspath", "include.path", "core.fsmonitor", "core.sshcommand", "core.pager")


def _git_reads_path(inv: Invocation, env: AnalysisEnv) -> str | None:
    """What ``git config [--global] KEY VALUE`` (or ``git -c KEY=VALUE``) makes git run or read as its own
    configuration: core.hooksPath's directory, include.path's file, a program key's program."""
    texts = [w.text for w in inv.args]
    def runs(key: str) -> bool:
        return key.lower() in _RUN_KEYS or key.lower().startswith("includeif.")

    for i, t in enumerate(texts):
        key, eq, value = t.partition("=")
        if eq and runs(key):
            return path_of(value, env)
        if runs(t) and i + 1 < len(texts) and "config" in texts[:i]:
            return path_of(texts[i + 1], env)
    return None


_TRUST_STORES: Final = ("/usr/local/share/ca-certificates/", "/etc/pki/ca-trust/source/anchors/", "/etc/ssl/certs/",
                        "/etc/apt/trusted.gpg.d/", "/etc/apt/keyrings/", "/usr/share/keyrings/",
                        "/etc/pki/rpm-gpg/")
"""Where a certificate or a signing key makes every later TLS connection or package install trust its owner."""


def _trusts_download(inv: Invocation, downloaded: dict[str, str], env: AnalysisEnv) -> str | None:
    """A downloaded file (or a download piped in) put where certificates or package keys are trusted."""
    texts = [w.text for w in inv.args]
    named = program_writes(inv) + redirect_writes(inv) + [texts[i + 1] for i, t in enumerate(texts[:-1])
                                                          if t in ("-o", "--output")]  # `gpg --dearmor -o FILE`
    written = [p for p in (path_of(t, env) for t in named) if p is not None]
    into = next((p for p in written if p.startswith(_TRUST_STORES)), None)
    if into is None:
        return None
    fed = _downloader_upstream(inv) or next((downloaded[p] for p in (path_of(t, env) for t in texts)
                                             if p is not None and p in downloaded), None)
    return f"{into}, from what {fed} downloaded" if fed else None


def _extract_dir(inv: Invocation, env: AnalysisEnv) -> str | None:
    """Where an extractor unpacks: ``tar -C DIR``/``--directory=DIR``, ``unzip -d DIR``, else the working
    directory."""
    texts = [w.text for w in inv.args]
    for i, t in enumerate(texts):
        flag = ("-C", "--directory") if inv.program in ("tar", "gtar", "bsdtar") else ("-d",) if \
            inv.program == "unzip" else ("-o",) if inv.program in ("7z", "7za") else ()
        if t in flag and i + 1 < len(texts):
            return path_of(texts[i + 1], env)
        if t.startswith("--directory="):
            return path_of(t.split("=", 1)[1], env)
        if inv.program in ("7z", "7za") and t.startswith("-o") and len(t) > 2:
            return path_of(t[2:], env)
    return env.cwd


def _runs(inv: Invocation, env: AnalysisEnv) -> str | None:
    """The file ``inv`` executes as a program or script, normalized."""
    words = inv.command.words
    if not words:
        return None
    if inv.via and "/" not in words[0].text:  # `nohup /tmp/x`, `timeout 5 ./a`: the wrapped program's own word
        words = next((words[i:] for i, w in enumerate(words) if "/" in w.text and not w.dynamic
                      and w.text.rsplit("/", 1)[-1] == inv.program), words)
    first = words[0].text
    if "/" in first and not words[0].dynamic:
        return path_of(first, env)
    if inv.program in SHELLS or inv.program in INTERPRETERS or inv.program in ("source", "."):
        for w in inv.args:
            if not w.text.startswith("-"):
                return path_of(w.text, env)
    if inv.program in ("sqlite3", "duckdb") and (m := _LOADED.search(" ".join(w.text for w in inv.args))):
        lib = m.group(1) or m.group(2) or m.group(3)  # `load_extension('/tmp/x')`: native code, run in-process
        return path_of(lib if "." in lib.rsplit("/", 1)[-1] else lib + ".so", env)  # (sqlite adds the .so)
    return _builds_or_installs(inv, env)


_LOADED: Final = re.compile(r"""load_extension\(\s*['"]([^'"]+)['"]|(?:^|\s)\.load\s+(\S+)|LOAD\s+['"]([^'"]+)""")


_FILE_INSTALLERS: Final = {"apt-get": "install", "apt": "install", "dnf": "install", "yum": "install",
                           "zypper": "install", "pip": "install", "pip3": "install", "gem": "install",
                           "npm": "install", "pnpm": "add", "yarn": "add", "snap": "install", "flatpak": "install"}
_PACKAGE_FILE: Final = re.compile(r"\.(?:deb|rpm|whl|tar\.gz|tgz|gem|snap|flatpak|flatpakref|apk|pkg)$")


def _builds_or_installs(inv: Invocation, env: AnalysisEnv) -> str | None:
    """What a build or an install of a local file runs: ``apt-get install /tmp/u.deb`` (its maintainer scripts,
    as root), ``dpkg -i F``, ``rpm -i F``, ``pip install F.whl``; ``make -C DIR`` (DIR's Makefile);
    ``run-parts DIR`` (every program in DIR, as ``DIR/``)."""
    texts = [w.text for w in inv.args]
    plain = [t for t in texts if not t.startswith("-")]
    sub = _FILE_INSTALLERS.get(inv.program)
    if sub is not None and plain[:1] == [sub] or inv.program == "dpkg" and ("-i" in texts or "--install" in texts) \
            or inv.program == "rpm" and any(re.fullmatch(r"-[iU][a-z]*|--install|--upgrade", t) for t in texts):
        local = next((t for t in plain[1:] if "/" in t or _PACKAGE_FILE.search(t)), None) if sub is not None else \
            next((t for t in plain if "/" in t or _PACKAGE_FILE.search(t)), None)
        return path_of(local, env) if local is not None else None
    if inv.program in ("make", "gmake"):
        for i, t in enumerate(texts[:-1]):
            if t == "-C":
                where = path_of(texts[i + 1], env)
                return where.rstrip("/") + "/Makefile" if where is not None else None
            if t in ("-f", "--file", "--makefile"):
                return path_of(texts[i + 1], env)
    if inv.program == "run-parts" and plain:
        where = path_of(plain[-1], env)
        return where.rstrip("/") + "/" if where is not None else None
    return None


def computed_programs(invocations: Sequence[Invocation], env: AnalysisEnv, out: Out) -> None:
    """``$(cat f) -rf ~``: a program name the analysis cannot know may be ``rm``. When its arguments, given
    to rm, delete the root, the home directory or a system location (``delete.catastrophic``), that reading
    is denied like ``rm`` itself; any other reading is only not understood (ask)."""
    for inv in invocations:
        if inv.program or getattr(inv, "kind", "") != "dynamic" or not inv.args or not _rm_recursive(inv.args):
            continue
        found: Out = []
        candidate = Invocation("rm", inv.args, inv.command, inv.via, [], None, inv.remote)
        detect_rm(candidate, env_for(candidate, env), found)
        hit = next((f for f in found if f.id == "delete.catastrophic"), None)
        if hit is not None:
            head = getattr(inv, "written", "") or "the program name"
            add(out, "delete.catastrophic", inv, f"the program name {head[:40]} is computed and may be rm: "
                                                 f"{hit.message}")
            return


_RM_SHORT: Final = frozenset("fiIrRdv")
_RM_LONG: Final = frozenset({"--force", "--interactive", "--one-file-system", "--no-preserve-root", "--preserve-root",
                             "--recursive", "--dir", "--verbose"})


def _rm_recursive(args: Sequence) -> bool:
    """Whether ``args`` read as rm's are options rm accepts (it refuses to start on any other: ``$EDITOR -c
    f`` or ``$ ls -Fltr *`` is no rm) and ask for a recursive delete: the signature ``-rf ~`` leaves."""
    recursive = False
    for w in args:
        text = w.text
        if text == "--":
            break
        if text.startswith("--"):
            if text.split("=", 1)[0] not in _RM_LONG:
                return False
            recursive = recursive or text == "--recursive"
        elif text.startswith("-") and len(text) > 1:
            if not _RM_SHORT.issuperset(text[1:]):
                return False
            recursive = recursive or "r" in text or "R" in text
    return recursive


def download_then_run(invocations: Sequence[Invocation], env: AnalysisEnv, out: Out) -> None:
    """A file downloaded and then run in the same line, or an archive downloaded, unpacked and then a file
    of the project's tree run (``curl … | tar xz && ./a/install.sh``): remote code, unseen."""
    computed_programs(invocations, env, out)  # (the caller starts here for any run without a known program)
    downloaded: dict[str, str] = {}
    unpacked: str | None = None  # the downloader whose archive was unpacked into the working tree
    cloned: list[str] = []  # directories `git clone` filled
    read: dict[str, str] = {}  # variables `read` set from a download: name → the downloader
    for inv in invocations:
        if read and _runs_variable(inv, read, out):
            continue
        if inv.program == "read" and (source := _downloader_upstream(inv)) is not None:
            names = [w.text for w in inv.args if not w.text.startswith("-") and w.text.isidentifier()]
            for name in names or ["REPLY"]:
                read[name] = source
            continue
        if inv.program in DOWNLOADERS:
            for p in _download_outputs(inv, env):
                downloaded[p] = inv.program
            continue
        if inv.program == "git" and downloaded and (hooks := _git_reads_path(inv, env)) is not None and any(
                p == hooks or p.startswith(hooks.rstrip("/") + "/") for p in downloaded):  # a download made git's own
            add(out, "net.pipe_to_shell", inv, f"git config makes git run or read {hooks}, where a download just "
                                               "went, at every later git command: remote code, unseen")
            continue
        trusted = _trusts_download(inv, downloaded, env) if inv.program in ("cp", "install", "mv", "tee", "gpg",
                                                                              "dd", "apt-key") else None
        if trusted is not None:  # `curl -o /tmp/ca.crt … && sudo cp /tmp/ca.crt /usr/local/share/ca-certificates/`
            add(out, "priv.escalation", inv, f"{inv.program} trusts {trusted}: every later TLS connection or "
                                             "install then trusts whoever made it (a man in the middle)")
            continue
        if inv.program == "git":
            got_dir = _cloned_dir(inv, env)
            if got_dir is not None:
                cloned.append(got_dir.rstrip("/") + "/")
            continue
        if cloned:
            ran = _runs(inv, env)
            if ran is not None and any(ran.startswith(d) for d in cloned):
                add(out, "net.pipe_to_shell", inv, f"runs {ran}, from a repository git clone just fetched, unseen")
                continue
        got = _extracts(inv, downloaded, env)
        if got is not None:
            unpacked = got
            into = _extract_dir(inv, env_for(inv, env))  # (over ssh: the remote home)
            if into is not None and (into == env.home or into == "/" or is_system_path(into, env.home)):
                where = "the home directory" if into == env.home else into
                add(out, "net.pipe_to_shell", inv, f"{inv.program} unpacks what {got} downloads over {where}: its "
                                                   "start-up files, keys and programs become whatever the archive holds")
            continue
        if downloaded or unpacked:
            ran = _runs(inv, env)
            if ran is not None and ran.endswith("/") and any(p.startswith(ran) for p in downloaded):
                add(out, "net.pipe_to_shell", inv, f"runs every program in {ran}, where a download just went, unseen")
            elif ran is not None and ran in downloaded:
                add(out, "net.pipe_to_shell", inv, f"runs {ran}, which {downloaded[ran]} just downloaded, unseen")
            elif ran is not None and unpacked is not None and not is_system_path(ran, env.home):
                add(out, "net.pipe_to_shell", inv, f"runs {ran}, from an archive {unpacked} just downloaded, unseen")


def _downloader_upstream(inv: Invocation) -> str | None:
    """The downloader whose output reaches ``inv`` through pipes, if any."""
    seen: set[int] = set()
    todo = list(inv.upstream)
    while todo and len(seen) < 64:
        up = todo.pop()
        if id(up) in seen:
            continue
        seen.add(id(up))
        if up.program in DOWNLOADERS:
            return up.program
        todo.extend(up.upstream)
    return None


_CODE_RUNNERS: Final = SHELLS | INTERPRETERS | {"eval", "source", "."}


def _runs_variable(inv: Invocation, read: dict[str, str], out: Out) -> bool:
    """``curl … | while read l; do eval "$l"; done``: code taken from a variable ``read`` filled with a
    download."""
    if inv.program not in _CODE_RUNNERS:
        return False
    for w in inv.args:
        if not w.dynamic:
            continue
        for name, source in read.items():
            if re.search(r"\$\{?" + re.escape(name) + r"(?![A-Za-z0-9_])", w.text):
                add(out, "net.pipe_to_shell", inv, f"{inv.program} runs ${name}, read from what {source} downloads, "
                                                   "unseen")
                return True
    return False


_TF: Final = frozenset({"terraform", "tofu", "terragrunt"})
_TF_MUTATING: Final = frozenset({"apply", "destroy", "import", "taint", "untaint", "refresh"})


def _switch(inv: Invocation) -> str | None:
    """The production context a command switches to (``terraform workspace select prod``, ``kubectl
    config use-context prod``, ``export TF_WORKSPACE=prod``), or None."""
    program = inv.program
    if program in _TF or program == "kubectl":
        words = [w.text for w in inv.args if not w.text.startswith("-")]
        if program in _TF and words[:2] in (["workspace", "select"], ["workspace", "new"]) and len(words) > 2:
            return words[2] if is_prod(words[2]) else None
        if program == "kubectl" and words[:2] in (["config", "use-context"], ["config", "set-context"]):
            hits = [w.text for w in inv.args[2:] if is_prod(w.text)]
            return hits[0] if hits else None
    if program in ("export", "declare") or program == "" and inv.command.assignments:
        for key, value in inv.command.assignments:
            if key in ("TF_WORKSPACE", "KUBECONTEXT", "AWS_PROFILE", "ENV", "ENVIRONMENT", "STAGE", "DEPLOY_ENV",
                       "RAILS_ENV", "APP_ENV") and is_prod(value.text):
                return f"{key}={value.text}"
    return None


def _mutates(inv: Invocation) -> bool:
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    if inv.program in _TF:
        return bool(words) and words[0] in _TF_MUTATING
    if inv.program == "kubectl":
        return bool(words) and words[0] in KUBECTL_MUTATING
    if inv.program in ("helm",):
        return bool(words) and words[0] in ("install", "upgrade", "uninstall", "delete", "rollback")
    return False


LINE_STARTERS: Final = DOWNLOADERS | _TF | {"kubectl", "export", "declare", "", "git"}
"""The programs ``download_then_run`` and ``production_switch`` start from: without one, neither finds anything."""


def production_switch(invocations: Sequence[Invocation], out: Out) -> None:
    context = None
    for inv in invocations:
        got = _switch(inv)
        if got is not None:
            context = got
        elif context is not None and _mutates(inv) and not any(f.id == "prod.target" and f.subject == inv.command.text
                                                              for f in out):
            add(out, "prod.target", inv, f"{inv.program} changes production: the command line switched to {context}")


# -- links made in the line, then deleted through --------------------------------------------------------

_THROUGH_LINKS: Final = frozenset({"rm", "shred", "truncate", "chmod", "chown", "find", "rsync"})


def deleted_through_links(invocations: Sequence[Invocation], env: AnalysisEnv, out: Out,
                          judge: Callable[[Invocation, AnalysisEnv], list]) -> None:
    """``ln -sfn ~ /tmp/cache && rm -rf /tmp/cache/``: a symlink the line makes, then a path through it (a
    trailing slash, or a name below it) that a later command deletes or changes is judged as the path
    the link leads to (``judge`` is Tier 1 on one invocation)."""
    links: dict[str, str] = {}
    for inv in invocations:
        texts = [w.text for w in inv.args]
        if inv.program == "ln" and any(t.startswith("-") and "s" in t for t in texts) and not inv.via:
            ops = [w for w in inv.args if not w.text.startswith("-")]
            if len(ops) == 2 and not any(w.dynamic for w in ops):
                link = path_of(ops[1].text, env)
                relative = not ops[0].text.startswith(("/", "~", "$")) and link is not None
                target = path_of(posixpath.join(posixpath.dirname(link), ops[0].text) if relative else ops[0].text,
                                 env) if link is not None else None  # a relative target is read from the link's place
                if target is not None and link is not None:
                    links[link.rstrip("/")] = target.rstrip("/") or "/"
            continue
        if not links or inv.program not in _THROUGH_LINKS:
            continue
        changed = False
        args: list[Word] = []
        for w in inv.args:
            p = path_of(w.text, env) if not w.text.startswith("-") and not w.dynamic else None
            hit = next((k for k in links if p is not None and (p.startswith(k + "/") or w.text.endswith("/")
                                                               and p.rstrip("/") == k)), None)
            if hit is None or p is None:
                args.append(w)
                continue
            changed = True
            args.append(Word(links[hit] + p[len(hit):], False, w.glob, True))
        if changed:
            shadow = Invocation(inv.program, args, inv.command, via=inv.via)
            out.extend(f for f in judge(shadow, env) if f.severity >= Verdict.DENY)
