"""git: global options that run code (``-c core.pager=…``), and the subcommand forms that change
branches, tags, stashes, remotes, configuration, worktrees or the working tree, or touch main/master."""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.programs.git import GIT_SETTABLE_CONFIG
from phlegyas.analysis.shell.effect_types import literal
from phlegyas.analysis.shell.handlers.base import Call, mutate, read_only
from phlegyas.analysis.shell.handlers.text import CREDENTIAL_PATTERN
from phlegyas.analysis.urls import host_of, host_reason, secrets_in

MAIN_BRANCHES: Final = frozenset({"main", "master", "origin/main", "origin/master", "upstream/main", "upstream/master"})
GIT_CODE_KEYS: Final = ("core.pager", "core.sshcommand", "core.editor", "core.fsmonitor", "core.hookspath",
                        "core.askpass", "sequence.editor", "diff.external", "gpg.program", "credential.helper",
                        "core.gitproxy", "pager.")


def git_config_key(text: str) -> str:
    return text.split("=", 1)[0].strip().lower()


def git(c: Call) -> None:
    """The global options, then what a subcommand's operands are beyond the option table's words."""
    top = c.top
    if top is not None:
        for opt, value in top.opts:
            if opt == "-c" and value is not None:
                key = git_config_key(value.text)
                if value.dynamic or not key.startswith(P.GIT_HARMLESS_CONFIG):
                    c.eff.runs.append(f"executes code (git -c {key})")
            elif opt == "--config-env" and value is not None:
                c.eff.runs.append(f"executes code (git {opt})")
            elif opt == "--exec-path" and value is not None:  # bare --exec-path only prints the directory
                c.eff.runs.append("executes code (git --exec-path: runs git's programs from that directory)")
            elif opt in ("--git-dir", "--work-tree", "-C") and value is not None:
                c.eff.loads.append(value)  # the repository's configuration there may name programs to run
    check = _BY_SUBCOMMAND.get(c.path[0]) if c.path else None
    if check is not None:
        check(c)


_BUILTIN_STRATEGIES: Final = frozenset({"ort", "recursive", "resolve", "octopus", "ours", "subtree"})


def _strategy(c: Call) -> None:
    """``-s NAME`` other than git's own strategies runs the program ``git-merge-NAME`` from PATH."""
    for value in c.parsed.values(("-s", "--strategy")):
        if value.dynamic or value.text not in _BUILTIN_STRATEGIES:
            c.eff.blockers.append(f"git {c.path[0]} -s {value.text} runs the program git-merge-{value.text}")


def _remote_helper(text: str) -> bool:
    """``ext::CMD`` and other ``X::`` transports hand the URL to a helper program; ``fd::`` reads a pipe."""
    head, sep, _ = text.partition("::")
    return bool(sep) and "/" not in head


def _remote_words(c: Call) -> None:
    for op in c.parsed.operands:
        if op.dynamic:
            c.eff.blockers.append(f"git {c.path[0]} with a computed remote or ref")
        elif _remote_helper(op.text) or op.text.startswith("-"):
            c.eff.runs.append(f"executes code (git {c.path[0]} {op.text}: a transport that runs a program)")


def _clone(c: Call) -> None:
    """``git clone -c KEY=VALUE`` stores KEY in the new repository before its checkout runs. The directory
    the clone makes (``DIR``, else the URL's last part) is written; the remote must be a public https or
    ssh one (a local path or ``file://`` reads this disk, an internal address is not the public web)."""
    _remote_words(c)
    for value in c.parsed.values(("-c", "--config")):
        key = git_config_key(value.text)
        if value.dynamic or not key.startswith(P.GIT_HARMLESS_CONFIG):
            c.eff.runs.append(f"executes code (git clone -c {key})")
    ops = c.parsed.operands
    if not ops or ops[0].dynamic:
        return
    url = ops[0].text
    scp = re.match(r"[A-Za-z0-9_.-]+@([A-Za-z0-9.-]+):", url)
    host = scp.group(1).lower() if scp else host_of(url)[1] if url.startswith(("https://", "ssh://")) else None
    kinds = secrets_in(url)
    if kinds:  # not named: the message would show the secret
        c.eff.blockers.append(f"git clone of a URL that carries a credential ({kinds[0]})")
    elif (why := "not a public https or ssh remote" if host is None else host_reason(host)) is not None:
        c.eff.blockers.append(f"git clone of {url}: {why}")
    name = url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    name = name[:-4] if name.endswith(".git") else name
    c.eff.writes.append(ops[1] if len(ops) > 1 else literal(name or "."))


def _fetching(c: Call) -> None:
    """``+SRC:DST`` force-updates the local ref DST, dropping the commits only it had."""
    _remote_words(c)
    for op in c.parsed.operands[1:]:
        if op.text.startswith("+") and ":" in op.text and op.text.rsplit(":", 1)[1]:
            c.eff.blockers.append(f"git {c.path[0]} {op.text} force-updates a local branch")
    if c.path[0] == "pull":
        _strategy(c)


def _diff(c: Call) -> None:
    """``git diff --no-index A B`` compares two files of the disk, and git implies ``--no-index`` when a
    path lies outside the work tree: such operands are files read."""
    outside = c.parsed.has(("--no-index",))
    for op in c.parsed.operands:
        if outside or op.dynamic or op.text.startswith(("/", "~", "../", "$")) or op.text == "..":
            c.eff.reads.append(op)


def _grep(c: Call) -> None:
    """``git grep`` prints the lines of the files it searches: the paths named (tracked files, or with
    ``--no-index`` any file, as grep) are reads, so ``git grep . -- .env`` shows a secret as ``cat`` would."""
    ops = c.parsed.operands
    if not c.parsed.has(("-e", "-f")):
        ops = ops[1:]
    if c.parsed.has(("--no-index",)):
        c.eff.reads.extend(ops or [literal(".")])
    else:
        c.eff.reads.extend(w for w in ops if not w.text.startswith(":"))  # `:(exclude)x` names no file


_BY_SUBCOMMAND = {"merge": _strategy, "rebase": _strategy, "cherry-pick": _strategy, "revert": _strategy,
                  "fetch": _fetching, "pull": _fetching, "ls-remote": _remote_words, "clone": _clone, "diff": _diff,
                  "grep": _grep}


def _is_main(text: str) -> bool:
    ref = text.lstrip("+")
    for part in ref.split(":"):
        if part in MAIN_BRANCHES or part.endswith(("/main", "/master")) or part in ("refs/heads/main",
                                                                                     "refs/heads/master"):
            return True
    return False


def git_pull(c: Call) -> None:
    """``git pull origin main`` merges main into the current branch: local work, as ``git merge origin/main``
    is. A computed remote or ref is not known."""
    for op in c.parsed.operands:
        if op.dynamic:
            c.eff.blockers.append(f"git {c.path[-1]} with a computed ref")


_REF_WORD: Final = re.compile(r"((HEAD|@|[0-9a-f]{7,40})([~^][0-9]*)*|@\{-[0-9]+\}|-|[A-Za-z0-9]+(-[A-Za-z0-9]+)+"
                              r"|v[0-9]+(\.[0-9]+)*(-[A-Za-z0-9.]+)?)$")
_BRANCH_PREFIXES = ("feature/", "feat/", "fix/", "bugfix/", "hotfix/", "release/", "chore/", "refactor/", "topic/",
                    "wip/", "dependabot/", "renovate/")
_BRANCH_NAMES: Final = frozenset({"develop", "development", "staging", "trunk", "gh-pages"})


def _surely_a_ref(text: str) -> bool:
    """``git checkout NAME`` switches to branch NAME, but overwrites the file or directory NAME (throwing
    away its uncommitted edits) when no such branch exists: only names no tracked file is likely to have
    count as refs: ``HEAD~2``, ``@{-1}``, ``-``, an abbreviated commit id, a version tag (``v1.2.0``),
    words joined by dashes (``fix-login``: a module or package directory has no dash in Python and rarely
    at the top of a project), ``feature/…`` and the like. ``src``, ``docs``, ``a.py``, ``my_pkg`` ask."""
    return bool(_REF_WORD.match(text)) or text in _BRANCH_NAMES or (
        text.startswith(_BRANCH_PREFIXES) and "." not in text.rsplit("/", 1)[-1])


def git_checkout(c: Call) -> None:
    new = c.parsed.values(("-b", "-B", "--orphan"))
    ops = c.parsed.operands
    if c.parsed.has(("-f", "--force", "-p", "--patch", "--ours", "--theirs", "-m", "--merge")):
        mutate(c, "overwrites working-tree changes")
    elif new:
        if any(_is_main(n.text) or n.dynamic for n in new):
            c.eff.blockers.append("creates a main/master branch")
    elif len(ops) == 1 and _is_main(ops[0].text):
        return  # the main branch: switching to it changes no work (git refuses when edits would be lost)
    elif len(ops) == 1 and not ops[0].dynamic and (
            _surely_a_ref(ops[0].text) or c.parsed.has(("-t", "--track", "-d", "--detach"))):
        return  # -t takes a remote branch and --detach a commit: neither is a path
    elif ops and c.args and c.args[0].text == "--" and not c.parsed.has(("--pathspec-from-file",)):
        return  # copies the index over the paths: Tier 1 asks unless none holds an uncommitted edit
    else:
        mutate(c, "checks out a branch or paths (may discard working-tree changes; git switch names only branches)")


def git_switch(c: Call) -> None:
    new = c.parsed.values(("-c", "--create", "-C", "--force-create", "--orphan"))
    if c.parsed.has(("-f", "--force", "--discard-changes", "-m", "--merge")):
        mutate(c, "discards working-tree changes")
    for t in new:
        if _is_main(t.text) or t.dynamic:
            c.eff.blockers.append(f"creates the branch {t.text}")
    for t in c.parsed.operands[:1]:
        if t.dynamic:
            c.eff.blockers.append(f"switches to {t.text}, a branch only known when it runs")


_BRANCH_MUTATE: Final = frozenset({"-D", "-M", "-f", "--force", "--edit-description", "-C"})
"""Options that throw work away or overwrite: ``-D`` deletes unmerged commits' only branch, ``-M``/``-C``
and ``-f`` overwrite an existing branch."""
_BRANCH_SAFE_CHANGE: Final = frozenset({"-d", "--delete", "-m", "--move"})
"""``-d`` deletes only a branch merged into HEAD or its upstream (git refuses the rest: nothing is lost),
``-m`` renames (git refuses to overwrite an existing branch)."""
_BRANCH_LIST = frozenset({"-l", "--list", "-a", "--all", "-r", "--remotes", "--contains", "--no-contains", "--merged",
                          "--no-merged", "--points-at", "--show-current", "-v", "-vv", "--verbose"})


def git_branch(c: Call) -> None:
    if c.parsed.has(_BRANCH_MUTATE) or c.parsed.has(("-d", "--delete")) and c.parsed.has(("-r", "--remotes")):
        mutate(c, "deletes, renames or overwrites branches")
    elif c.parsed.has(_BRANCH_SAFE_CHANGE):
        ops = c.parsed.operands
        if any(o.dynamic for o in ops) or any(_is_main(o.text) for o in ops):
            mutate(c, "deletes or renames a branch only known when it runs, or the main branch")
        else:
            c.eff.changes.append("deletes a merged branch or renames one (git refuses to lose commits or overwrite)")
            c.eff.category = P.GIT_LOCAL
    elif c.parsed.has(("-u", "--set-upstream-to", "--unset-upstream", "-c", "--copy", "-t",
                                 "--track")):
        c.eff.changes.append("changes branches")
        c.eff.category = P.GIT_LOCAL
    elif c.parsed.operands and not c.parsed.has(_BRANCH_LIST):
        c.eff.changes.append("creates a branch")
        c.eff.category = P.GIT_LOCAL
        if any(_is_main(o.text) for o in c.parsed.operands[:1]):
            c.eff.blockers.append("creates a main/master branch")


_TAG_LIST: Final = ("-l", "--list", "-n", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "-v",
                    "--verify")


def git_tag(c: Call) -> None:
    """Listing is a read; creating a tag (lightweight, or annotated with its message given) is a local
    change git refuses when the tag exists; deleting, forcing over, or a message from a file asks."""
    if c.parsed.has(_TAG_LIST) or not c.parsed.operands:
        return
    if c.parsed.has(("-d", "--delete", "-f", "--force", "-F", "--file", "-e", "--edit")) \
            or c.parsed.has(("-a", "--annotate", "-s", "--sign")) and not c.parsed.has(("-m", "--message")) \
            or any(o.dynamic for o in c.parsed.operands):
        mutate(c, "creates or deletes tags")
        return
    c.eff.changes.append(f"creates the tag {c.parsed.operands[0].text} (git refuses to move an existing one)")
    c.eff.category = P.GIT_LOCAL


_PATCH_CONTROL: Final = ("--continue", "--skip", "--abort", "--quit", "--show-current-patch", "-r", "--resolved",
                         "--stat", "--numstat", "--summary", "--check")


def git_patch(c: Call) -> None:
    """``git apply``/``git am`` write whatever the patch says into the work tree (a Makefile recipe, a
    conftest.py, a hook script): a patch file of the project is its own code, but one from elsewhere (an
    absolute path, ``..``, ``~``) or from stdin (``curl … | git apply``) is content nobody has seen."""
    if c.parsed.has(_PATCH_CONTROL):
        return
    ops = c.parsed.operands
    if not ops:
        c.eff.blockers.append(f"git {c.path[-1] if c.path else 'apply'} applies a patch from its input, unseen")
    for w in ops:
        if w.dynamic or w.text.startswith(("/", "~", "..")) or "/../" in w.text:
            c.eff.blockers.append(f"applies {w.text[:60]}, a patch from outside the project, unseen")
            return


def git_paths(c: Call) -> None:
    """What ``show``/``log``/``diff``/``blame``/``cat-file`` print is the content of the files they name: the
    path of ``REV:PATH`` (``git show HEAD:.env``) and every operand (a path after ``--``, or a word that may be
    one) is a read, so a secret there is judged as ``cat`` of it would be."""
    for opt, value in c.parsed.opts:  # `git log -S AKIA --all -p`: a hunt for credentials in the history
        if opt in ("-S", "-G", "--grep") and value is not None and CREDENTIAL_PATTERN.search(value.text):
            c.eff.secrets.append(f"credentials the history may hold (it searches for {value.text[:12]}…)")
    for w in c.parsed.operands:
        text = w.text
        if text.startswith("-"):
            continue
        rev, colon, path = text.partition(":")
        if colon and path and "/" not in rev:
            c.eff.reads.append(literal(path))
        elif not colon and not w.dynamic:
            c.eff.reads.append(w)


_URL_SCHEMES: Final = ("https://", "http://", "ssh://", "git://")


def _network_url(text: str) -> bool:
    """``https://host/o/r.git``, ``ssh://…``, ``git@host:o/r.git``: a remote on another host, not a
    program (``ext::sh -c …``) nor a path on this machine."""
    if text.startswith(_URL_SCHEMES):
        return len(text.split("://", 1)[1]) > 0
    user_host, colon, path = text.partition(":")
    return bool(colon) and "@" in user_host and "/" not in user_host and bool(path) and not path.startswith(":")


def git_remote(c: Call) -> None:
    """``git remote add NAME URL``: a plain name for a URL of another host."""
    ops = c.parsed.operands
    if len(ops) != 2 or ops[0].dynamic or ops[1].dynamic or ops[0].text.startswith("-"):
        c.eff.blockers.append("git remote add with other than a name and a URL")
    elif not _network_url(ops[1].text):
        c.eff.blockers.append(f"git remote add of {ops[1].text}, which is not an https or ssh URL")


_CONFIG_READ: Final = frozenset({"--get", "--get-all", "--get-regexp", "--list", "-l", "--get-urlmatch", "--get-color",
                                 "--get-colorbool", "--show-origin", "--show-scope", "--name-only"})
_CONFIG_WRITE = frozenset({"--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section",
                           "-e", "--edit"})


def git_config(c: Call) -> None:
    """Reading is safe; setting a key of ``GIT_SETTABLE_CONFIG`` (user.name, pull.rebase …) in the
    repository's or the user's file is a local change; any other key may name a program to run."""
    ops = c.parsed.operands
    texts = [w.text for w in ops]
    if c.parsed.has(("-e", "--edit")) or texts[:1] == ["edit"]:
        c.eff.runs.append("opens an editor")
        return
    verb = texts[0] if texts and texts[0] in ("get", "list", "set", "unset", "rename-section", "remove-section") \
        else None
    if verb in ("get", "list") or c.parsed.has(_CONFIG_READ) or (verb is None and len(ops) <= 1
                                                                 and not c.parsed.has(_CONFIG_WRITE)):
        asked = [w for w in (ops[1:] if verb else ops)[:1] if not w.dynamic]
        if asked and _CREDENTIAL_KEY.search(asked[0].text) and not asked[0].text.lower().endswith(".helper"):  # `git config --get-regexp 'http\..*\.extraheader'`
            c.eff.blockers.append(f"shows {asked[0].text}: git keeps credentials there (an auth header, a token)")
        elif any(w.dynamic for w in ops):
            c.eff.blockers.append("reads a git configuration key only known at run time")
        return
    words = ops[1:] if verb else ops
    if (verb not in (None, "set") or c.parsed.has(_CONFIG_SECTIONS) or c.parsed.has(("--system", "--blob"))
            or not words or words[0].dynamic or not git_config_key(words[0].text).startswith(GIT_SETTABLE_CONFIG)):
        mutate(c, "changes git configuration")
        return
    c.eff.changes.append(f"sets git configuration ({git_config_key(words[0].text)})")
    c.eff.category = P.GIT_LOCAL
    c.eff.writes.extend(c.parsed.values(("-f", "--file")))


_CREDENTIAL_KEY: Final = re.compile(r"extraheader|credential|password|passwd|token|secret|auth|cookie|proxyauth",
                                    re.I)
_CONFIG_SECTIONS: Final = frozenset({"--rename-section", "--remove-section", "-e", "--edit"})


def git_worktree(c: Call) -> None:
    """``git worktree add PATH``: creates PATH (git refuses one that exists and is not empty)."""
    ops = c.parsed.operands
    if not ops:
        c.eff.blockers.append("git worktree add without a path")
        return
    c.eff.writes.append(ops[0])
    if any(_is_main(n.text) or n.dynamic for n in c.parsed.values(("-b", "-B"))):
        c.eff.blockers.append("creates a main/master branch")


_FROM_ELSEWHERE: Final = ("-p", "--patch", "--ours", "--theirs", "-m", "--merge",
                           "--conflict", "--pathspec-from-file", "--overlay", "--no-overlay")


def git_restore(c: Call) -> None:
    """``git restore --staged a.py`` only unstages. ``git restore [--source=REV] a.py`` copies the index (or
    REV) over a.py: Tier 1 (``git.discard_paths``) asks unless a.py holds no uncommitted edit, so here it is
    local work. ``--staged --worktree`` together, a merge's sides, a patch, or paths read from a file discard
    what Tier 1 cannot see."""
    staged = c.parsed.has(("-S", "--staged"))
    if staged and not c.parsed.has(("-W", "--worktree")):
        return
    if staged or not c.parsed.operands or c.parsed.has(_FROM_ELSEWHERE):
        mutate(c, "discards working-tree changes")


def git_reset(c: Call) -> None:
    """--soft and --mixed (the default) keep the work tree, and the old commit stays in the reflog."""
    if c.parsed.has(("--hard", "--merge", "--keep")):
        mutate(c, "discards changes (git reset --hard, --merge or --keep)")


def git_rm(c: Call) -> None:
    if c.parsed.has(("-f", "--force")):
        mutate(c, "removes files with uncommitted changes (git rm -f)")


def git_clean(c: Call) -> None:
    if c.parsed.has(("-n", "--dry-run")) and not c.parsed.has(("-f", "--force")):
        read_only(c)
        c.eff.category = P.GIT_READ
