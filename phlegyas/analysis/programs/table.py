"""The program table assembled from its families, in one fixed order, and the look-ups by name.

``PROGRAMS`` holds the families' entries in the order they were always entered (readers, network, files,
system, git, packages, build, infra, runtimes); ``canonical``, ``resolve_path_program``, ``spec_for`` and
``table_spec`` find a program's entry by the name a command line writes.
"""
from __future__ import annotations

from typing import Final, Mapping

from phlegyas.analysis.programs.build import BUILD_TOOLS
from phlegyas.analysis.programs.files import FILE_TOOLS
from phlegyas.analysis.programs.git import GIT_TOOLS
from phlegyas.analysis.programs.infra import INFRA_TOOLS
from phlegyas.analysis.programs.network import NETWORK_TOOLS
from phlegyas.analysis.programs.packages import PACKAGE_TOOLS
from phlegyas.analysis.programs.readers import READERS
from phlegyas.analysis.programs.runtimes import RUNTIMES, SHELLS
from phlegyas.analysis.programs.spec import Spec
from phlegyas.analysis.programs.system import SYSTEM_TOOLS
from phlegyas.analysis.programs.wrappers import WRAPPERS

_P: Final[dict[str, Spec]] = {**READERS, **NETWORK_TOOLS, **FILE_TOOLS, **SYSTEM_TOOLS, **GIT_TOOLS, **PACKAGE_TOOLS,
                              **BUILD_TOOLS, **INFRA_TOOLS, **RUNTIMES}
PROGRAMS: Final[Mapping[str, Spec]] = _P


# -- names -----------------------------------------------------------------------------------------

_SYSTEM_BIN_DIRS: Final = frozenset({"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin",
                                     "/opt/homebrew/bin", "/opt/local/bin", "/usr/lib/git-core", "/snap/bin",
                                     "/home/linuxbrew/.linuxbrew/bin", "/usr/libexec", "/run/current-system/sw/bin"})
_PROJECT_TOOL_DIRS: Final = ("node_modules/.bin/", ".venv/bin/", "venv/bin/", "env/bin/", ".tox/", "vendor/bin/",
                             "bin/phpunit", "bin/rails/", "bin/rake/", "bin/rspec/")
_WRAPPER_SCRIPTS: Final = {"gradlew": "gradlew", "mvnw": "mvnw", "gradlew.bat": "gradlew"}


def canonical(name: str) -> str:
    """Aliases to the table's key: ``python3.12`` → ``python``, ``pip3`` → ``pip``, ``ruby3.2`` → ``ruby``.
    Asked about ten times per command: remembered for up to 4,096 names."""
    got = _CANONICAL.get(name)
    if got is None:
        got = _canonical(name)
        if len(_CANONICAL) < 4096:
            _CANONICAL[name] = got
    return got


_CANONICAL: Final[dict[str, str]] = {}


def _canonical(name: str) -> str:
    if name in _P or name in WRAPPERS or name in SHELLS:
        return name
    base = name.rstrip("0123456789.")
    if base.endswith("-"):
        base = base[:-1]
    if base in ("python", "pip", "pypy", "ruby", "perl", "php", "lua", "node", "pydoc", "easy_install", "gem",
                "clang", "gcc", "g++", "clang++", "tclsh", "wish", "irb", "idle", "java", "javac"):
        return base
    if name.startswith("python") or name.startswith("pypy"):
        return "python"
    return name


def resolve_path_program(written: str) -> tuple[str, bool]:
    """The program a path-qualified name runs, and whether it is a known tool rather than a local file.

    ``/usr/bin/rm`` → (``rm``, True); ``./gradlew`` → (``gradlew``, True);
    ``node_modules/.bin/eslint`` → (``eslint``, True); ``./deploy.sh`` → (``deploy.sh``, False).
    """
    if "/" not in written:
        return written, True
    head, _, base = written.rpartition("/")
    if not base:
        return written, False
    if (head or "/") in _SYSTEM_BIN_DIRS:
        return base, True
    if ".." in written.split("/") or written.startswith("~"):
        return base, False  # `../other/node_modules/.bin/jest`, `~/bin/gradlew`: not this project's own
    if base in _WRAPPER_SCRIPTS:
        return _WRAPPER_SCRIPTS[base], True
    for marker in _PROJECT_TOOL_DIRS:
        if marker in written + "/" and not written.startswith("/"):
            return base, True
    return base, False


def spec_for(name: str) -> Spec | None:
    return _P.get(canonical(name))


def table_spec(name: str) -> Spec:
    """The entry of a program the table is known to have (``awk``, ``sed``)."""
    return _P[name]


def all_examples() -> list[tuple[str, str, str]]:
    """Every ``(program, command line, expectation)`` of the tables, for the test suite."""
    out: list[tuple[str, str, str]] = []
    seen: set[int] = set()
    for table in (_P, WRAPPERS):
        for name, entry in table.items():
            if id(entry) in seen:
                continue
            seen.add(id(entry))
            for cmd, expect in entry.examples:
                out.append((name, cmd, expect))
    return out
