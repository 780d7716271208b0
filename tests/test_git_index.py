"""Deleting a tracked, unchanged project file is an everyday edit git can undo (issue 11, item 8).

Real repositories made with the real ``git``, in a directory under the checkout's ``build/`` (not in
``/tmp``, where deleting a named file is allowed for another reason): index versions 2, 3 and 4, the
SHA-256 object format, worktrees, and each way a file stops being one git gives back.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from phlegyas.analysis import git_index
from phlegyas.analysis.report import analyze_command
from phlegyas.core.analysis import AnalysisEnv

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git program")


def git(cwd, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def home():
    """A home with a project in it, outside the temp directories."""
    parent = Path(__file__).resolve().parent.parent / "build"
    parent.mkdir(exist_ok=True)
    base = Path(tempfile.mkdtemp(prefix="test-git-index-", dir=parent))
    (base / "proj").mkdir()
    yield base
    shutil.rmtree(base, ignore_errors=True)


def repo(home, *init: str):
    proj = home / "proj"
    git(proj, "init", "-q", *init)
    (proj / "src").mkdir()
    (proj / "src" / "old.py").write_text("x = 1\n")
    (proj / "README.md").write_text("# hi\n")
    (proj / "run.sh").write_text("echo hi\n")
    os.chmod(proj / "run.sh", 0o755)
    git(proj, "add", ".")
    git(proj, "commit", "-qm", "init")
    return proj


def decide(home, command: str, cwd=None) -> tuple[str | None, list[str]]:
    proj = str(home / "proj")
    env = AnalysisEnv(cwd=str(cwd or proj), home=str(home), project_root=proj)
    out = analyze_command(command, env)
    return out.safe, [e for s in out.subcommands for e in s.effects]


@pytest.mark.parametrize("version", ["2", "3", "4"])
def test_a_tracked_unchanged_file_is_deleted_without_asking(home, version):
    proj = repo(home)
    if version == "3":  # git writes version 3 only for entries with extended flags: an intent-to-add one
        (proj / "planned.py").write_text("z = 1\n")
        git(proj, "add", "--intent-to-add", "planned.py")
    git(proj, "update-index", "--index-version", version)
    assert (proj / ".git" / "index").read_bytes()[4:8] == int(version).to_bytes(4, "big")
    if version == "3":
        assert decide(home, "rm planned.py")[0] is None  # git has no content for it yet
    safe, effects = decide(home, "rm src/old.py")
    assert safe == "project edit"
    assert any("git restore" in e for e in effects)
    assert decide(home, "rm -f README.md src/old.py run.sh")[0] == "project edit"
    assert decide(home, "unlink src/old.py")[0] == "project edit"
    assert decide(home, "rm old.py", cwd=proj / "src")[0] == "project edit"


def test_the_sha256_object_format(home):
    try:
        proj = repo(home, "--object-format=sha256")
    except subprocess.CalledProcessError:
        pytest.skip("this git has no SHA-256 repositories")
    assert decide(home, "rm src/old.py")[0] == "project edit"
    (proj / "src" / "old.py").write_text("x = 2\n")
    assert decide(home, "rm src/old.py")[0] is None


def test_what_git_cannot_give_back_still_asks(home):
    proj = repo(home)
    (proj / "src" / "old.py").write_text("x = 2\n")  # changed since it was staged: the change would be lost
    assert decide(home, "rm src/old.py")[0] is None
    git(proj, "add", "src/old.py")  # staged: the index holds this content now
    assert decide(home, "rm src/old.py")[0] == "project edit"
    (proj / "new.py").write_text("y = 1\n")  # untracked
    assert decide(home, "rm new.py")[0] is None
    assert decide(home, "rm README.md new.py")[0] is None  # one of them is not restorable
    os.symlink("README.md", proj / "link.md")
    git(proj, "add", "link.md")
    assert decide(home, "rm link.md")[0] is None  # a tracked symlink: not a plain file
    assert decide(home, "rm -r src")[0] is None  # a tree: not a named file
    assert decide(home, "rm src/*.py")[0] is None  # a pattern
    assert decide(home, "rm $F")[0] is None
    assert decide(home, "find . -name old.py -delete")[0] is None
    assert decide(home, "echo src/old.py | xargs rm")[0] is None
    assert decide(home, "sudo rm src/old.py")[0] is None
    assert decide(home, "rm .git/index")[0] is None  # git's own files are protected


def test_a_conflicted_file_is_not_restorable(home):
    proj = repo(home)
    git(proj, "checkout", "-qb", "other")
    (proj / "README.md").write_text("# other\n")
    git(proj, "commit", "-qam", "other")
    git(proj, "checkout", "-q", "-")
    (proj / "README.md").write_text("# main\n")
    git(proj, "commit", "-qam", "main")
    with pytest.raises(subprocess.CalledProcessError):
        git(proj, "merge", "-q", "other")
    assert decide(home, "rm README.md")[0] is None
    assert decide(home, "rm src/old.py")[0] == "project edit"


def test_a_linked_worktree_reads_its_own_index(home):
    proj = repo(home)
    git(proj, "worktree", "add", "-q", "wt")
    assert (proj / "wt" / ".git").is_file()
    assert decide(home, "rm wt/src/old.py")[0] == "project edit"
    (proj / "wt" / "src" / "old.py").write_text("changed\n")
    assert decide(home, "rm wt/src/old.py")[0] is None


def test_the_index_is_read_again_when_it_changes(home):
    proj = repo(home)
    assert git_index.restorable(str(proj / "README.md"), str(proj))
    git(proj, "rm", "-q", "--cached", "README.md")
    assert not git_index.restorable(str(proj / "README.md"), str(proj))


@pytest.mark.parametrize("data", [b"", b"DIRC", b"DIRC\0\0\0\x05\0\0\0\0", b"DIRC\0\0\0\x02\0\0\0\x01" + b"\0" * 30,
                                  b"NOPE" + b"\0" * 100, b"DIRC\0\0\0\x04\0\0\0\x01" + b"\0" * 62 + b"\xff\xff"])
def test_a_damaged_index_is_nothing_restorable(data):
    assert git_index.parse_index(data) in (None, {})


def test_outside_a_repository_or_the_project(home):
    proj = home / "proj"
    (proj / "a.txt").write_text("a\n")
    assert not git_index.restorable(str(proj / "a.txt"), str(proj))
    assert not git_index.restorable("/etc/passwd", str(proj))
    assert not git_index.restorable(str(proj / "a.txt"), "/")


def findings(home, command: str) -> list[str]:
    proj = str(home / "proj")
    out = analyze_command(command, AnalysisEnv(cwd=proj, home=str(home), project_root=proj))
    return [f.id for f in out.findings]


def test_restoring_a_file_without_uncommitted_edits_is_local_work(home):
    """``git restore [--source=REV] a.py`` / ``git checkout -- a.py`` copy the index (or REV) over the file:
    nothing is lost when the file already holds the index's content; an edited file, the index overwritten
    too (``-SW``, ``git checkout REV --``) or a list of paths still asks."""
    proj = repo(home)
    for command in ("git restore src/old.py", "git checkout -- src/old.py README.md"):
        assert findings(home, command) == [], command
        assert decide(home, command)[0] == "git local", command
    (proj / "src" / "old.py").write_text("x = 2\n")  # an uncommitted edit: restoring it throws it away
    for command in ("git restore src/old.py", "git checkout -- README.md src/old.py",
                    "git restore --source=HEAD~1 src/old.py"):
        assert findings(home, command) == ["git.discard_paths"], command
    git(proj, "add", "src/old.py")  # staged: the work tree is the index again
    assert findings(home, "git restore src/old.py") == []
    assert findings(home, "git restore --source=HEAD~1 README.md") == []  # the index still holds README.md
    assert decide(home, "git restore --source=HEAD~1 README.md")[0] == "git local"
    for command in ("git restore -SW --source=HEAD~1 README.md", "git restore -SW README.md",
                    "git checkout HEAD -- README.md", "git restore --pathspec-from-file=list.txt",
                    "git restore src/*.py", "git restore $F", "git restore src/missing.py"):
        assert "git.discard_paths" in findings(home, command), command
        assert decide(home, command)[0] is None, command
    assert findings(home, "git restore .") == ["git.discard_changes"]
    assert findings(home, "git restore --staged src/old.py") == []  # unstaging keeps the work tree
