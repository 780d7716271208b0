"""Version control: ``git`` and its subcommands, the ``git -c`` keys that cannot run a program, and ``gh``."""
from __future__ import annotations

from phlegyas.analysis.programs.spec import GIT_LOCAL, GIT_READ, WEB_READ, E, Spec, add, mut, ro, subs

GIT_HARMLESS_CONFIG = ("color.", "user.", "advice.", "log.", "format.", "diff.noprefix", "diff.renames",
                       "diff.algorithm", "core.quotepath", "core.autocrlf", "core.safecrlf", "init.defaultbranch",
                       "pull.rebase", "pull.ff", "merge.conflictstyle", "column.", "i18n.", "status.",
                       "safe.directory", "commit.gpgsign", "tag.gpgsign", "push.default", "fetch.prune",
                       "rebase.autostash", "gc.auto", "maintenance.auto", "protocol.version", "http.sslverify",
                       "core.abbrev", "blame.", "grep.", "branch.sort", "tag.sort", "versionsort.")
"""``git -c KEY=…`` prefixes that cannot run a program; any other key may (core.pager, alias.x=!…, …)."""

GIT_TOOLS: dict[str, Spec] = {}
"""git and gh, in the order of the program table."""


def _add(names: str, spec: Spec) -> None:
    add(GIT_TOOLS, names, spec)


_GIT_LOG = E("-n --max-count --skip --since --after --until --before --author --committer --grep --format "
             "--pretty --date -L -G -S --encoding --decorate-refs --abbrev -U --unified --diff-filter "
             "--relative --stat --color --word-diff --word-diff-regex -M -C -O --dst-prefix --src-prefix "
             "--line-prefix --submodule --ignore-submodules --inter-hunk-context --find-renames")
_git_read = ro(category=GIT_READ, operands="none", value_opts=_GIT_LOG, write_flags=E("--output"),
               exec_flags=E("--ext-diff-cmd"))
_git_local = Spec(category=GIT_LOCAL, operands="none", does="changes the repository",
                  value_opts=E("-m --message -F --file -C --reuse-message -c --reedit-message --author --date "
                               "--fixup --squash -t --template --cleanup --trailer --pathspec-from-file"))
GIT = Spec(
    operands="none", handler="git",
    value_opts=E("-C -c --git-dir --work-tree --namespace --config-env --super-prefix --exec-path --list-cmds"),
    subcommands=subs({}, (
        "status log diff show blame annotate shortlog describe rev-parse rev-list ls-files ls-tree cat-file "
        "show-ref for-each-ref name-rev merge-base whatchanged cherry count-objects fsck verify-commit "
        "verify-tag check-ignore check-attr check-ref-format var version help diff-tree diff-files diff-index "
        "range-diff show-branch get-tar-commit-id request-pull", _git_read),
        ("grep", ro(category=GIT_READ, operands="none", value_opts=_GIT_LOG | E("-e -f --max-depth -m --max-count"),
                    exec_flags=E("-O --open-files-in-pager"))),
        ("fetch ls-remote", Spec(readonly=True, category=GIT_READ, operands="none", network=True,
                                 value_opts=E("--depth --deepen --shallow-since --shallow-exclude -j --jobs "
                                              "--refmap -o --server-option --negotiation-tip"),
                                 exec_flags=E("--upload-pack"))),
        ("add", Spec(category=GIT_LOCAL, operands="none", does="stages changes",
                     value_opts=E("--chmod --pathspec-from-file"))),
        ("commit", _git_local),
        ("mv", Spec(category=GIT_LOCAL, operands="move", does="renames tracked files")),
        ("init", Spec(category=GIT_LOCAL, operands="none", does="creates a repository",
                      value_opts=E("-b --initial-branch --template --separate-git-dir --object-format --shared"))),
        ("pull", Spec(category=GIT_LOCAL, operands="none", network=True, does="merges remote changes",
                      handler="git_not_main", exec_flags=E("--upload-pack"),
                      value_opts=E("--depth -s --strategy -X --strategy-option --rebase"))),
        ("checkout", Spec(category=GIT_LOCAL, operands="none", does="switches branches", handler="git_checkout",
                          value_opts=E("-b -B --orphan --conflict --pathspec-from-file -t --track"))),
        ("switch", Spec(category=GIT_LOCAL, operands="none", does="switches branches", handler="git_switch",
                        value_opts=E("-c --create -C --force-create --orphan --conflict -t --track"))),
        ("branch", Spec(readonly=True, category=GIT_READ, operands="none", handler="git_branch",
                        value_opts=E("--contains --no-contains --merged --no-merged --points-at --sort --format "
                                     "--color --column --abbrev -u --set-upstream-to -t --track"))),
        ("tag", Spec(readonly=True, category=GIT_READ, operands="none", handler="git_tag",
                     value_opts=E("-n --contains --no-contains --merged --no-merged --points-at --sort --format "
                                  "--color --column -m --message -F --file -u --local-user"))),
        ("stash", Spec(readonly=True, category=GIT_READ, operands="none", handler="git_stash",
                       value_opts=E("-m --message --pathspec-from-file"))),
        ("remote", Spec(readonly=True, category=GIT_READ, operands="none", handler="git_remote")),
        ("config", Spec(readonly=True, category=GIT_READ, operands="none", handler="git_config",
                        value_opts=E("--file -f --blob --type --default --comment --value"))),
        ("worktree", Spec(readonly=True, category=GIT_READ, operands="none", handler="git_worktree")),
        ("restore", Spec(category=GIT_LOCAL, operands="none", handler="git_restore", does="restores files",
                         value_opts=E("-s --source --conflict --pathspec-from-file"))),
        ("reset", Spec(category=GIT_LOCAL, operands="none", handler="git_reset", does="moves HEAD or unstages",
                       value_opts=E("--pathspec-from-file"))),
        ("rm", Spec(category=GIT_LOCAL, operands="none", handler="git_rm", does="removes tracked files")),
        ("clean", Spec(operands="none", handler="git_clean", does="deletes untracked files",
                       value_opts=E("-e --exclude"))),
        ("format-patch", Spec(category=GIT_LOCAL, operands="none", does="writes patch files",
                              value_opts=E("-o --output-directory --subject-prefix -v --reroll-count --to --cc "
                                           "--in-reply-to --base"))),
        ("archive", ro(category=GIT_READ, operands="none", value_opts=E("--format --prefix"),
                       write_flags=E("-o --output"), exec_flags=E("--exec --remote"))),
        ("submodule", Spec(operands="none", handler="git_submodule", does="changes submodules")),
        ("push", Spec(operands="none", network=True, does="publishes commits to a remote",
                      exec_flags=E("--receive-pack --exec"), value_opts=E("-o --push-option --repo"))),
        ("clone", Spec(operands="none", network=True, does="clones a repository",
                       exec_flags=E("-u --upload-pack"),
                       value_opts=E("-b --branch --depth -o --origin --reference --separate-git-dir -j --jobs "
                                    "--filter --template -c --config"))),
        ("merge cherry-pick revert am apply bisect notes gc prune repack replace update-index update-ref "
         "symbolic-ref filter-branch filter-repo reflog maintenance sparse-checkout lfs bundle checkout-index",
         Spec(operands="none", does="rewrites repository state",
              value_opts=E("-m --message -s --strategy -X --strategy-option --onto"))),
        ("rebase", Spec(operands="none", does="rewrites repository state", exec_flags=E("-x --exec"),
                        value_opts=E("-s --strategy -X --strategy-option --onto"))),
        ("check-mailmap", _git_read),
        ("difftool mergetool instaweb daemon send-email credential credential-store credential-cache web--browse "
         "http-backend upload-pack receive-pack shell",
         Spec(operands="none", does="runs external programs or services", exec_flags=E("-x --extcmd -t --tool"))),
        ("", ro(category=GIT_READ, operands="none")),
    ),
    examples=(("git status", "readonly safe"), ("git log --oneline -5", "readonly safe"),
              ("git diff --output=/tmp/d", "writes"), ("git grep main", "readonly safe"),
              ("git add -A && git commit -m wip", "safe"), ("git checkout -b feature/x", "safe"),
              ("git checkout main", "notsafe"), ("git checkout -- src/a.py", "notsafe"),
              ("git switch -c feat", "safe"), ("git switch main", "notsafe"), ("git pull origin main", "notsafe"),
              ("git pull", "safe"), ("git fetch --all", "safe network"), ("git branch -a", "readonly safe"),
              ("git branch -D old", "mutates notsafe"), ("git stash list", "readonly safe"),
              ("git stash drop", "mutates notsafe"), ("git remote -v", "readonly safe"),
              ("git remote add x u", "mutates notsafe"), ("git config --get user.name", "readonly safe"),
              ("git config core.hooksPath .h", "mutates notsafe"), ("git push origin feat", "notsafe network"),
              ("git -c core.pager='sh -c id' log", "executes notsafe"), ("git -c alias.x='!sh' x", "executes notsafe"),
              ("git -c color.ui=always status", "readonly safe"), ("git fetch --upload-pack='sh -c id' o", "executes notsafe"),
              ("git reset --hard", "mutates notsafe"), ("git clean -fdx", "notsafe"), ("git tag -l", "readonly safe"),
              ("git frobnicate", "unknown notsafe"), ("git restore --staged a.py", "safe"),
              ("git grep -O'sh -c id' x", "executes notsafe")))
_add("git", GIT)

_gh_read = ro(category=WEB_READ, operands="none", network=True,
              value_opts=E("-R --repo -L --limit -s --state -a --assignee -A --author -l --label -B --base "
                           "-H --head -q --jq -t --template --json -w --web -b --branch -u --user -e --event "
                           "-c --commit -j --job"))
_add("gh", Spec(operands="none", network=True, handler="gh",
                value_opts=E("-R --repo --hostname"),
                subcommands=subs({}, (
                    "pr issue run workflow release repo gist label cache ruleset secret variable project "
                    "codespace ssh-key gpg-key org attestation",
                    Spec(operands="none", network=True, handler="gh_noun", does="changes GitHub state",
                         value_opts=_gh_read.value_opts)),
                    ("search status browse", _gh_read),
                    ("api", Spec(readonly=True, category=WEB_READ, operands="none", network=True, handler="gh_api",
                                 value_opts=E("-X --method -f --raw-field -F --field -H --header --input -q --jq "
                                              "-t --template --hostname -p --preview --cache"))),
                    ("auth", Spec(operands="none", network=True, handler="gh_auth", does="changes GitHub login")),
                    ("", ro(operands="none")),
                    ("*", mut("runs a gh command", operands="none", network=True))),
                examples=(("gh pr list", "readonly safe network"), ("gh pr view 12 --json title", "readonly safe"),
                          ("gh pr create -t x -b y", "mutates notsafe"), ("gh api repos/o/r/pulls", "readonly safe"),
                          ("gh api -X POST repos/o/r/issues -f title=x", "mutates notsafe"),
                          ("gh auth status", "readonly safe"), ("gh auth token", "notsafe"),
                          ("gh run list", "readonly safe"), ("gh gist create secret.txt", "notsafe"))))
