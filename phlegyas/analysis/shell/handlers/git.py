"""git: global options that run code (``-c core.pager=…``), and the subcommand forms that change
branches, tags, stashes, remotes, configuration, worktrees or the working tree, or touch main/master."""
from __future__ import annotations

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.handlers.base import Call, mutate, operand_texts, read_only

MAIN_BRANCHES = frozenset({"main", "master", "origin/main", "origin/master", "upstream/main", "upstream/master"})
GIT_CODE_KEYS = ("core.pager", "core.sshcommand", "core.editor", "core.fsmonitor", "core.hookspath",
                 "core.askpass", "sequence.editor", "diff.external", "gpg.program", "credential.helper",
                 "core.gitproxy", "pager.")


def git_config_key(text: str) -> str:
    return text.split("=", 1)[0].strip().lower()


def git(c: Call) -> None:
    top = c.top
    if top is None:
        return
    for opt, value in top.opts:
        if opt == "-c" and value is not None:
            key = git_config_key(value.text)
            if value.dynamic or not key.startswith(P.GIT_HARMLESS_CONFIG):
                c.eff.runs.append(f"executes code (git -c {key})")
        elif opt in ("--config-env", "--exec-path") and value is not None:
            c.eff.runs.append(f"executes code (git {opt})")
        elif opt in ("--git-dir", "--work-tree", "-C") and value is not None and value.dynamic:
            c.eff.blockers.append(f"git {opt} with a computed path")


def _is_main(text: str) -> bool:
    ref = text.lstrip("+")
    for part in ref.split(":"):
        if part in MAIN_BRANCHES or part.endswith(("/main", "/master")) or part in ("refs/heads/main",
                                                                                     "refs/heads/master"):
            return True
    return False


def git_not_main(c: Call) -> None:
    for op in c.parsed.operands:
        if _is_main(op.text):
            c.eff.blockers.append(f"git {c.path[-1]} of {op.text}")
        elif op.dynamic:
            c.eff.blockers.append(f"git {c.path[-1]} with a computed ref")


def git_checkout(c: Call) -> None:
    new = c.parsed.values(("-b", "-B", "--orphan"))
    ops = c.parsed.operands
    if c.parsed.has(("-f", "--force", "-p", "--patch", "--ours", "--theirs", "-m", "--merge")):
        mutate(c, "overwrites working-tree changes")
    elif new:
        if any(_is_main(n.text) or n.dynamic for n in new):
            c.eff.blockers.append("creates a main/master branch")
    elif len(ops) == 1 and ops[0].text == "-":
        return
    elif ops and len(ops) == 1 and _is_main(ops[0].text):
        c.eff.blockers.append(f"checks out {ops[0].text}")
    else:
        mutate(c, "checks out a branch or paths (may discard working-tree changes)")


def git_switch(c: Call) -> None:
    new = c.parsed.values(("-c", "--create", "-C", "--force-create", "--orphan"))
    if c.parsed.has(("-f", "--force", "--discard-changes", "-m", "--merge")):
        mutate(c, "discards working-tree changes")
    targets = new or c.parsed.operands[:1]
    for t in targets:
        if _is_main(t.text) or t.dynamic:
            c.eff.blockers.append(f"switches to {t.text}")


_BRANCH_MUTATE = frozenset({"-d", "-D", "--delete", "-m", "-M", "--move", "-f", "--force", "--edit-description"})
_BRANCH_LIST = frozenset({"-l", "--list", "-a", "--all", "-r", "--remotes", "--contains", "--no-contains", "--merged",
                          "--no-merged", "--points-at", "--show-current", "-v", "-vv", "--verbose"})


def git_branch(c: Call) -> None:
    if c.parsed.has(_BRANCH_MUTATE):
        mutate(c, "deletes, renames or overwrites branches")
    elif c.parsed.has(("-u", "--set-upstream-to", "--unset-upstream", "-c", "-C", "--copy", "-t",
                                 "--track")):
        c.eff.changes.append("changes branches")
        c.eff.category = P.GIT_LOCAL
    elif c.parsed.operands and not c.parsed.has(_BRANCH_LIST):
        c.eff.changes.append("creates a branch")
        c.eff.category = P.GIT_LOCAL
        if any(_is_main(o.text) for o in c.parsed.operands[:1]):
            c.eff.blockers.append("creates a main/master branch")


def git_tag(c: Call) -> None:
    listing = c.parsed.has(("-l", "--list", "-n", "--contains", "--no-contains", "--merged", "--no-merged",
                                      "--points-at", "-v", "--verify"))
    if c.parsed.operands and not listing or c.parsed.has(("-d", "--delete", "-f", "--force", "-a", "-s",
                                                                    "-m", "-F")):
        mutate(c, "creates or deletes tags")


def git_stash(c: Call) -> None:
    ops = operand_texts(c)
    verb = ops[0] if ops else "push"
    if verb in ("list", "show"):
        return
    if verb in ("drop", "clear"):
        mutate(c, "deletes stashed changes")
    else:
        c.eff.changes.append("stashes or applies changes")
        c.eff.category = P.GIT_LOCAL


def git_remote(c: Call) -> None:
    ops = operand_texts(c)
    if ops and ops[0] not in ("show", "get-url"):
        mutate(c, "changes git remotes")
        if ops[0] in ("update", "prune"):
            c.eff.network = True


_CONFIG_READ = frozenset({"--get", "--get-all", "--get-regexp", "--list", "-l", "--get-urlmatch", "--get-color",
                          "--get-colorbool", "--show-origin", "--show-scope", "--name-only"})
_CONFIG_WRITE = frozenset({"--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section",
                           "-e", "--edit"})


def git_config(c: Call) -> None:
    ops = operand_texts(c)
    if c.parsed.has(("-e", "--edit")) or ops[:1] == ["edit"]:
        c.eff.runs.append("opens an editor")
        return
    if c.parsed.has(_CONFIG_WRITE):
        mutate(c, "changes git configuration")
    elif ops[:1] in (["get"], ["list"]) or c.parsed.has(_CONFIG_READ) or len(ops) <= 1:
        return
    else:
        mutate(c, "changes git configuration")


def git_worktree(c: Call) -> None:
    ops = c.parsed.operands
    verb = ops[0].text if ops else "list"
    if verb == "list":
        return
    if verb == "add" and len(ops) > 1:
        c.eff.writes.append(ops[1])
        c.eff.changes.append("adds a worktree")
        c.eff.category = P.GIT_LOCAL
        return
    mutate(c, "changes worktrees")


def git_restore(c: Call) -> None:
    if not (c.parsed.has(("-S", "--staged")) and not c.parsed.has(("-W", "--worktree"))):
        mutate(c, "discards working-tree changes")


def git_reset(c: Call) -> None:
    ops = operand_texts(c)
    if c.parsed.has(("--hard", "--merge", "--keep")):
        mutate(c, "discards changes (git reset --hard)")
    elif ops and ops[0] not in ("HEAD", "--") and not c.parsed.has(("-q", "--quiet")) or (
            ops and ops[0] not in ("HEAD", "--")):
        mutate(c, "moves the branch")


def git_rm(c: Call) -> None:
    if not c.parsed.has(("--cached",)):
        mutate(c, "deletes tracked files")


def git_clean(c: Call) -> None:
    if c.parsed.has(("-n", "--dry-run")) and not c.parsed.has(("-f", "--force")):
        read_only(c)
        c.eff.category = P.GIT_READ


def git_submodule(c: Call) -> None:
    ops = operand_texts(c)
    verb = ops[0] if ops else "status"
    if verb in ("status", "summary"):
        read_only(c)
        c.eff.category = P.GIT_READ
    elif verb == "foreach":
        c.eff.runs.append("runs a command in every submodule")
    else:
        c.eff.network = True
