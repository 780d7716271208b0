"""The handlers by name, and the check that the program table names none that is missing."""
from __future__ import annotations

from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.handlers.archives import archive_generic, tar, unzip, zip_
from phlegyas.analysis.shell.handlers.base import Handler
from phlegyas.analysis.shell.handlers.build import (
    cargo_compiler_args,
    cargo_opts,
    cc_opts,
    cmake,
    dotnet_opts,
    flask_app,
    go_flags,
    go_run,
    javac_opts,
    no_operands,
    operands_load,
    pytest_opts,
    rustc_opts,
    tox,
    unittest_discover,
)
from phlegyas.analysis.shell.handlers.files import dd, mktemp, split
from phlegyas.analysis.shell.handlers.find import find, name_hunt
from phlegyas.analysis.shell.handlers.gh import gh, gh_api, gh_auth, gh_noun
from phlegyas.analysis.shell.handlers.git import (
    git,
    git_branch,
    git_checkout,
    git_clean,
    git_config,
    git_patch,
    git_paths,
    git_pull,
    git_remote,
    git_reset,
    git_restore,
    git_rm,
    git_switch,
    git_tag,
    git_worktree,
)
from phlegyas.analysis.shell.handlers.infra import (
    cloud,
    database,
    docker,
    docker_compose_top,
    docker_group,
    docker_read,
    kubectl_config,
    kubectl_read,
    tf_output,
    tf_state,
)
from phlegyas.analysis.shell.handlers.network import curl, httpie, port_probe, remote_copy, wget
from phlegyas.analysis.shell.handlers.packages import (
    build_goals,
    go_mod,
    npm_audit,
    npm_cache,
    npm_init,
    npm_install,
    npm_run,
    npm_script,
    package_globals,
    pip_config,
    pip_install,
    python_project_add,
    system_pkg,
    uv_packages,
    uv_pip_sync,
    uv_python,
    uv_version,
)
from phlegyas.analysis.shell.handlers.shell import history, runs_code, shell_state, source
from phlegyas.analysis.shell.handlers.system import assign_operand_mutates, ip, operand_mutates, service, system_config
from phlegyas.analysis.shell.handlers.text import awk, editor, jq, plus_command, search_globs, sed, tex, words_only

HANDLERS: dict[str, Handler] = {
    # archives
    "tar": tar, "zip": zip_, "unzip": unzip, "archive_generic": archive_generic,
    # build and test tools
    "pytest_opts": pytest_opts, "tox": tox, "cargo_opts": cargo_opts, "go_flags": go_flags, "go_run": go_run,
    "cc_opts": cc_opts, "javac_opts": javac_opts, "rustc_opts": rustc_opts, "cmake": cmake,
    "no_operands": no_operands, "operands_load": operands_load, "cargo_compiler_args": cargo_compiler_args,
    "flask_app": flask_app, "dotnet_opts": dotnet_opts, "unittest_discover": unittest_discover,
    # files
    "mktemp": mktemp, "dd": dd, "split": split,
    # find
    "find": find, "name_hunt": name_hunt,
    # gh
    "gh": gh, "gh_noun": gh_noun, "gh_api": gh_api, "gh_auth": gh_auth,
    # git
    "git": git, "git_pull": git_pull, "git_checkout": git_checkout, "git_switch": git_switch,
    "git_branch": git_branch, "git_paths": git_paths, "git_patch": git_patch, "git_tag": git_tag, "git_remote": git_remote,
    "git_config": git_config, "git_worktree": git_worktree, "git_restore": git_restore, "git_reset": git_reset,
    "git_rm": git_rm, "git_clean": git_clean,
    # infra
    "docker_group": docker_group, "docker_read": docker_read, "docker_compose_top": docker_compose_top, "docker": docker,
    "kubectl_read": kubectl_read, "kubectl_config": kubectl_config, "tf_state": tf_state, "tf_output": tf_output, "cloud": cloud,
    "database": database,
    # network
    "curl": curl, "wget": wget, "port_probe": port_probe, "httpie": httpie, "remote_copy": remote_copy,
    # packages
    "npm_run": npm_run, "npm_audit": npm_audit, "build_goals": build_goals, "system_pkg": system_pkg,
    "pip_config": pip_config, "npm_cache": npm_cache, "npm_init": npm_init, "go_mod": go_mod, "uv_python": uv_python,
    "npm_install": npm_install, "npm_script": npm_script, "pip_install": pip_install, "uv_packages": uv_packages,
    "uv_pip_sync": uv_pip_sync,
    "python_project_add": python_project_add, "uv_version": uv_version, "package_globals": package_globals,
    # the top level of yarn, pnpm and bun: the walk falls back to a project script there, and its options
    # before the subcommand are read like npm's
    "yarn_script": package_globals,
    # shell
    "shell_state": shell_state, "history": history, "source": source, "runs_code": runs_code,
    # system
    "operand_mutates": operand_mutates, "assign_operand_mutates": assign_operand_mutates, "ip": ip,
    "system_config": system_config, "service": service,
    # text
    "plus_command": plus_command, "sed": sed, "awk": awk, "editor": editor, "tex": tex, "jq": jq, "search_globs": search_globs,
    "words_only": words_only,
}
"""The handler implementations by the name a program-table entry gives (``Spec.handler``)."""


def check_handlers() -> list[str]:
    """Handler names used in the table that have no implementation (for the test suite)."""
    missing = []
    for name, spec in P.PROGRAMS.items():
        stack = [spec]
        while stack:
            s = stack.pop()
            if s.handler is not None and s.handler not in HANDLERS and s.handler not in _EXPANSION_HANDLERS:
                missing.append(f"{name}: {s.handler}")
            if s.subcommands:
                stack.extend(s.subcommands.values())
    return missing


_EXPANSION_HANDLERS: Final = frozenset({"trap", "stdin_code", "npx", "uv_run", "uv_tool", "coverage_run", "interp_here",
                                        "yarn_workspace", "formatter", "openssl", "openssl_in"})
"""Handlers that ``shell.analyze`` implements (they expand into other invocations) or that need nothing."""
