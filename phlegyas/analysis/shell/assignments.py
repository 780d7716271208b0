"""Variable assignments that make programs run code: ``LD_PRELOAD=x prog``, ``PAGER='sh -c …' git log``,
``export PATH=…``; which variables are harmless, which take project-relative paths, which change ``PATH``."""
from __future__ import annotations

from phlegyas.analysis.shell.effect_types import Effects
from phlegyas.analysis.shell.parse import Word

EXEC_ENV_VARS = frozenset({
    "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "BASH_ENV", "ENV",
    "PROMPT_COMMAND", "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "LESSOPEN", "LESSCLOSE", "EDITOR",
    "VISUAL", "GIT_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS",
    "SUDO_ASKPASS", "GIT_PROXY_COMMAND", "GIT_EXEC_PATH", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG", "GIT_TEMPLATE_DIR", "PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB", "NODE_OPTIONS",
    "PYTHONSTARTUP", "PYTHONHOME", "PYTHONINSPECT", "PYTHONBREAKPOINT", "PS4", "SHELLOPTS", "BASHOPTS",
    "IFS", "CDPATH", "GLOBIGNORE", "HISTFILE", "TERMINFO", "ZDOTDIR", "GCONV_PATH", "MALLOC_CHECK_",
    "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "GIT_DIR", "GIT_WORK_TREE",
})
"""Environment variables whose value makes a program run code or load a library of the caller's choice."""
PATH_VARS = frozenset({"PATH"})
_EXEC_SUFFIXES = ("PAGER", "EDITOR", "VISUAL", "_CMD", "_COMMAND", "SHELL", "_PROGRAM", "_PROG", "_BIN", "_HOOK",
                  "_PRELOAD", "_OPTIONS", "_OPTS", "OPEN", "_EXEC", "_PATH", "_DIR", "_HOME", "_RC", "_LIBS",
                  "_LOADER", "_PLUGINS", "_INIT", "_STARTUP", "_CONFIG")
_HARMLESS_VARS = frozenset({"LANG", "LANGUAGE", "TZ", "TERM", "COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "CI",
                            "DEBUG", "NODE_ENV", "RUST_BACKTRACE", "RUST_LOG", "PYTHONUNBUFFERED",
                            "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "PYTHONWARNINGS", "PYTHONIOENCODING",
                            "PYTHONUTF8", "PYTEST_ADDOPTS", "GOFLAGS", "GOOS", "GOARCH", "CGO_ENABLED", "CARGO_TERM_COLOR",
                            "GIT_TERMINAL_PROMPT", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
                            "GIT_COMMITTER_EMAIL", "DEBIAN_FRONTEND", "HOME", "USER", "LOGNAME", "TMPDIR", "PWD",
                            "SOURCE_DATE_EPOCH", "NPM_CONFIG_LOGLEVEL", "VERBOSE", "LOG_LEVEL", "ENV_NAME", "PORT",
                            "HOST", "PS1", "HISTSIZE", "HISTFILESIZE", "MAKEFLAGS", "JOBS", "NUMBA_DISABLE_JIT"})
_PROJECT_PATH_VARS = frozenset({"PYTHONPATH", "NODE_PATH", "GOPATH", "MANPATH", "PKG_CONFIG_PATH", "RUBYLIB",
                                "PERL5LIB", "CLASSPATH", "GEM_PATH"})


_PACKAGE_TOOLS = ("PIP_", "UV_", "NPM_CONFIG_", "YARN_", "PNPM_", "BUN_CONFIG_", "POETRY_", "PDM_", "PIPENV_",
                  "CARGO_REGISTR", "BUNDLE_MIRROR", "CONDA_", "COMPOSER_")
_PACKAGE_SOURCE_WORDS = ("INDEX", "REGISTR", "FIND_LINKS", "TRUSTED_HOST", "INSECURE", "CONFIG", "MIRROR",
                         "REPOSITOR", "SOURCE", "CHANNEL", "PROXY", "SCRIPT_SHELL", "RCFILE", "_RC", "CERT", "CAFILE")
_GO_SOURCES = frozenset({"GOPROXY", "GOSUMDB", "GONOSUMDB", "GONOSUMCHECK", "GOINSECURE", "GOPRIVATE", "GONOPROXY"})


def _package_source(name: str) -> bool:
    """``PIP_INDEX_URL=…``, ``npm_config_registry=…``, ``GOPROXY=…``: a package manager's index, registry or
    configuration given on the line, which an install's options would have shown (issue 11, item 4)."""
    upper = name.upper()
    if upper in _GO_SOURCES:
        return True
    return upper.startswith(_PACKAGE_TOOLS) and any(w in upper for w in _PACKAGE_SOURCE_WORDS)


def check_assignment(name: str, eff: Effects, value: Word | None = None) -> None:
    if name in _HARMLESS_VARS or name.startswith(("LC_",)):
        return
    if _package_source(name):
        eff.blockers.append(f"sets {name}, which names where packages come from or configures the package manager")
        return
    if name in _PROJECT_PATH_VARS:
        if value is None or not _project_relative(value):
            eff.runs.append(f"executes code (sets {name} outside the project)")
        return
    if name in PATH_VARS:
        eff.blockers.append("changes PATH, so later program names may mean other programs")
    elif name in EXEC_ENV_VARS or name.startswith(("LD_", "DYLD_", "BASH_FUNC_")) or name.endswith(_EXEC_SUFFIXES):
        eff.runs.append(f"executes code (sets {name}, which makes programs run or load code)")


def _project_relative(value: Word) -> bool:
    """``PYTHONPATH=src:.``: every part relative, literal and not climbing out with ``..``."""
    if value.dynamic:
        return False
    return all(p and not p.startswith(("/", "~")) and ".." not in p.split("/") for p in value.text.split(":"))


def assignment_effects(assignments: list[tuple[str, Word]], eff: Effects) -> None:
    """``LD_PRELOAD=x prog``, ``PAGER='sh -c …' git log``: variables that run code."""
    for name, value in assignments:
        check_assignment(name, eff, value)
