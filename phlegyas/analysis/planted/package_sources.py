"""Package sources redirected through project files: a write that makes the next auto-allowed
``npm ci``, ``pip install -r requirements.txt``, ``uv sync`` or ``bun install`` fetch code from somewhere
else than the default registry.

On the command line the same sources ask (``shell.handlers.package_specs``): ``npm i --registry …``,
``pip install -i …``, ``pip install git+https://…``, an ``npm:`` alias, a path outside the project. A file
that says so is the same install one step later, so writing it asks (``write.package_source``):

- the registry and index configuration files (``.npmrc``, ``.yarnrc``/``.yarnrc.yml``, ``bunfig.toml``,
  ``pip.conf``/``pip.ini``, ``uv.toml``, ``[tool.uv]`` and its friends in ``pyproject.toml``, a
  ``Pipfile``'s ``[[source]]``) whenever they set a registry, an index, a proxy or turn TLS checks off,
  or name a program the package manager runs (``script-shell``, ``node-options``, ``yarnPath``, ``plugins``);
  naming the default registry itself (``https://registry.npmjs.org/``, ``https://pypi.org/simple``)
  changes nothing and stays a plain edit;
- requirement files with index options (``-i``, ``--extra-index-url``, ``-f``, ``--trusted-host``) or a
  requirement from a URL, a VCS, an archive or a path outside the project;
- ``package.json`` dependencies (and ``overrides``/``resolutions``) from a URL, git, a GitHub shorthand,
  an ``npm:`` alias or a ``file:``/``link:`` path outside the project; and the same in ``pyproject.toml``
  (``x @ https://…``, ``{ git = … }``, ``{ path = "../.." }``).

Ordinary content — ``requests==2.31``, ``-r base.txt``, ``-e .``, ``"lodash": "^4.17.21"``,
``"workspace:*"``, ``"file:../shared"`` inside the project — stays a project edit. Every reader is
line-based or tolerant of fragments, so Write, Edit, MultiEdit and Bash redirects read the same.
"""
from __future__ import annotations

import json
import posixpath
import re
from typing import Final

from phlegyas.analysis import paths
from phlegyas.analysis.programs.popular_packages import lookalike
from phlegyas.analysis.shell.handlers.package_specs import npm_spec, pip_spec
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.redact import redact

PACKAGE_SOURCE: Final = "write.package_source"
_OFFICIAL_HOSTS: Final = frozenset({"registry.npmjs.org", "registry.npmjs.com", "registry.yarnpkg.com", "pypi.org",
                                    "pypi.python.org", "files.pythonhosted.org"})
_URL: Final = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*)://(?P<userinfo>[^/@\s]*@)?(?P<host>[^/:\s'\"?#]*)", re.I)
_USERINFO: Final = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)[^/@\s]*@", re.I)


def show(source: str) -> str:
    """A source as a reason shows it: no credentials (``https://user:token@host`` → ``https://…@host``),
    secrets blanked, cut short."""
    text = redact(_USERINFO.sub(lambda m: m.group("scheme") + "…@", source.strip()))
    return text if len(text) <= 80 else text[:77] + "..."


def _official(url: str) -> bool:
    """The default registry or index itself, over https and without credentials."""
    m = _URL.match(url.strip().strip("'\""))
    return (m is not None and m.group("scheme").lower() == "https" and not m.group("userinfo")
            and m.group("host").lower() in _OFFICIAL_HOSTS)


_WRAPPER_URL: Final = re.compile(r"^\s*(?:distributionUrl|wrapperUrl)\s*[=:]\s*(\S+)", re.M)
_OFFICIAL_WRAPPER: Final = re.compile(r"https://(?:services\.gradle\.org|repo(?:1)?\.maven\.apache\.org|"
                                      r"repo\.maven\.apache\.org|downloads\.gradle(?:-dn)?\.org)/")


_COMPOSE_POWER: Final = re.compile(r"privileged:\s*true|docker\.sock|network_mode:\s*[\"']?host|pid:\s*[\"']?host|"
                                   r"SYS_ADMIN|cap_add:\s*\[?\s*[\"']?ALL|^\s*-\s*[\"']?(?:/|~|\$HOME|/home/[^/:]+|"
                                   r"/root)/?:[^\n]*$", re.M)
_COMPOSE_POWERS: Final = {"privileged": "root's powers on this machine", "docker.sock": "control of Docker (root)",
                          "network_mode": "this machine's network", "pid": "every process of this machine",
                          "SYS_ADMIN": "root's powers on this machine", "ALL": "root's powers on this machine",
                          "/": "this machine's files (a host directory mounted)", "~": "the home directory",
                          "$HOME": "the home directory"}


def _power(text: str) -> str:
    return next((what for key, what in _COMPOSE_POWERS.items() if key in text), "this machine's files")


def package_sources(language: str, content: str, whole: bool, path: str, env: AnalysisEnv) -> list[str]:
    """Each place ``content`` (of ``path``, read as ``language``) points package installs at, as
    ``"<source> (<what it is>)"``."""
    base = posixpath.dirname(path) or "/"
    if language == "npmrc" or language == "yarnrc":
        return _npmrc(language, content)
    if language in ("pip", "uv", "bunfig", "pipfile", "pyproject"):
        return _toml_like(language, content, whole, base, env)
    if language == "req":
        return _requirements(content, base, env)
    if language == "npm":
        return _package_json(content, whole, base, env)
    if language == "gomod":
        return _go_mod(content, base, env)
    if language == "gemfile":
        return _gemfile(content, base, env)
    if language == "precommit":  # a fragment (`sed s|old-repo|new-repo|`) names a repository without `repo:`
        found = _PRE_COMMIT_REPO.findall(content) if whole else _ANY_URL.findall(content)
        return [f"{show(u)} (a pre-commit hook repository: its code runs at each commit)" for u in found]
    if language == "vscode":  # `"python.defaultInterpreterPath": "/tmp/py/bin/python"`: the editor runs it
        return [f"{show(v)} (a program the editor runs: {k})" for k, v in _EDITOR_PROGRAM.findall(content)
                if v.startswith(("/", "~", "$")) and not v.startswith("${workspaceFolder}") and _outside(v, base, env)]
    if language == "cargo":  # `[patch.crates-io] serde = { git = "…" }`: a crate's code from somewhere else
        return [f for table, key, value in _entries(content) if _CARGO_TABLE.search(table or "dependencies")
                for f in _python_refs("dependencies", key, value, base, env)
                + ([f"{show(_value(value))} (a registry other than crates.io)"] if key.lower() == "registry" or
                   "registry" in value and "{" in value else [])]
    if language == "wrapper":  # gradle-wrapper.properties, maven-wrapper.properties: ./gradlew and ./mvnw run it
        return [f"{show(url)} (the build tool ./gradlew or ./mvnw downloads and runs)" for url in _WRAPPER_URL.findall(
            content) if not _OFFICIAL_WRAPPER.match(url.replace("\\:", ":"))]
    if language == "compose":  # what `docker compose up` (asked for anyway) would give the containers
        return [f"{m.group(0).strip()} (the container gets {_power(m.group(0))})" for m in _COMPOSE_POWER.finditer(content)]
    if language == "gitmodules":
        return [f"{show(u)} (a submodule's repository: git submodule update checks out its code)"
                for u in _SUBMODULE_URL.findall(content)]
    if language == "toolchain":
        return [f"{show(v)} (a toolchain directory rustup runs the compiler from)"
                for v in _TOOLCHAIN_PATH.findall(content) if _outside(v, base, env)]
    if language == "ci" and _PWN_TRIGGER.search(content) and (_PR_HEAD.search(content) or not whole):
        return ["the pull request's own code (pull_request_target checks out the head, or may: a fork's code runs "
                "with the repository's secrets)"]
    if language == "ci" and "toJSON(secrets)" in content.replace(" ", ""):
        return ["the log (toJSON(secrets) prints every secret of the repository)"]
    if language == "ci" and "secrets." in content:  # a token handed to `uses: someone/action@main`
        return [f"{m.group(1)} (an action of another publisher at a moving ref, given the repository's secrets)"
                for m in _MOVING_ACTION.finditer(content)]
    return []


_PRE_COMMIT_REPO: Final = re.compile(r"""^\s*-?\s*repo\s*:\s*['"]?((?:https?|git|ssh)://[^\s'"]+|git@[^\s'"]+)""", re.M)
_ANY_URL: Final = re.compile(r"""(?:https?|git|ssh)://[^\s'"|]+|git@[^\s'"|]+""")
_EDITOR_PROGRAM: Final = re.compile(r'"([\w.-]*(?:[Pp]ath|[Ee]xecutable|[Ii]nterpreter|[Bb]inary|\.shell\.\w+|'
                                    r'[Cc]ommand))"\s*:\s*"([^"]+)"')
_MOVING_ACTION: Final = re.compile(r"\buses:\s*['\"]?((?!actions/|github/)[\w.-]+/[\w./-]+@(?:main|master|HEAD|latest|dev))\b")
_CARGO_TABLE: Final = re.compile(r"depend|patch|replace")
_SUBMODULE_URL: Final = re.compile(r"""^\s*url\s*=\s*(\S+)""", re.M)
_TOOLCHAIN_PATH: Final = re.compile(r"""^\s*path\s*=\s*['"]([^'"]+)['"]""", re.M)
_PWN_TRIGGER: Final = re.compile(r"\bpull_request_target\b|\bworkflow_run\b")
_PR_HEAD: Final = re.compile(r"pull_request\.head\.(?:sha|ref)|github\.head_ref|refs/pull/")
# (a workflow run with the base repository's secrets that checks out the contributor's code: "pwn request")


_GEM_SOURCE: Final = re.compile(r"""^\s*source\s*\(?\s*['"]([^'"]+)['"]""", re.M)
_GEM_OPTION: Final = re.compile(r"""\b(git|github|path)\s*[:=]>?\s*['"]([^'"]+)['"]""")
_RUBYGEMS: Final = frozenset({"https://rubygems.org", "https://rubygems.org/"})


def _gemfile(content: str, base: str, env: AnalysisEnv) -> list[str]:
    """``source "URL"`` other than rubygems.org, and gems taken from git, GitHub or a path outside the project."""
    out = [f"{m.group(1)} (a gem source)" for m in _GEM_SOURCE.finditer(content) if m.group(1) not in _RUBYGEMS]
    for m in _GEM_OPTION.finditer(content):
        kind, where = m.group(1), m.group(2)
        if kind != "path" or _outside(where, base, env):
            out.append(f"{where} (a gem's {kind})")
    return out


_GO_REPLACE: Final = re.compile(r"^\s*(?:replace\s+)?(?P<old>[^\s=()]+)(?:\s+v[^\s=]+)?\s*=>\s*(?P<new>\S+)", re.M)


def _go_mod(content: str, base: str, env: AnalysisEnv) -> list[str]:
    """``replace A => B v1.2.3`` (alone or in a ``replace ( … )`` block): A's code comes from module B, or
    from a directory B (fine inside the project)."""
    out = []
    for m in _GO_REPLACE.finditer(content):
        new = m.group("new")
        if new.startswith(("./", "../", "/")) and not _outside(new, base, env):
            continue
        out.append(f"{new} (a replace directive for {m.group('old')})")
    return out


def _outside(target: str, base: str, env: AnalysisEnv) -> bool:
    """A local path a requirement or dependency names, outside the project (``../../elsewhere``, ``/opt/x``)."""
    if target.startswith("file://"):
        target = target[len("file://"):]
    if "$" in target:
        return True
    where = paths.normalize(target, base, env.home)
    return env.project_root == "/" or not paths.is_within(where, env.project_root)


# -- .npmrc, .yarnrc, .yarnrc.yml -------------------------------------------------------------------------

_RC_LINES: Final = {
    "npmrc": (re.compile(r"^\s*(?P<key>[^=\s]+)\s*=\s*(?P<value>.*?)\s*$"),),
    "yarnrc": (re.compile(r"""^\s*(?:-\s+)?["']?(?P<key>[\w@:/.-]+?)["']?\s*:(?:\s+(?P<value>.*?))?\s*$"""),
                      re.compile(r"""^\s*"?(?P<key>[^"\s]+)"?\s+(?P<value>.+?)\s*$""")),
}
_RC_REGISTRY: Final = re.compile(r"(?:^|:)registry$|^npmRegistryServer$|^replace-registry-host$|^npmScopes$", re.I)
_RC_PROXY: Final = frozenset({"proxy", "https-proxy", "http-proxy", "httpproxy", "httpsproxy"})
_RC_TLS: Final = frozenset({"strict-ssl", "enablestrictssl"})
_RC_RUNS: Final = frozenset({"script-shell", "shell", "git", "node-options", "onload-script", "init-module", "editor",
                             "browser", "viewer", "globalconfig", "userconfig", "yarnpath", "yarn-path", "plugins",
                             "injectenvironmentfiles", "node-gyp", "python"})
"""Settings that name a program or script the package manager runs or loads (``script-shell`` runs every
``npm run``, ``yarnPath`` is yarn itself, ``node-options`` can ``--require`` a module)."""


def _value(text: str) -> str:
    text = re.sub(r"\s+[#;].*$", "", text.strip())
    return text.strip().strip("'\"")


def _in_project_path(value: str) -> bool:
    """``.yarn/releases/yarn-4.cjs``: a relative path that stays in the project (its file is judged when
    written); not ``/tmp/x``, ``~/x``, ``../x``, ``$X`` or a command with arguments."""
    return not value.startswith(("/", "~", "$")) and ".." not in value.split("/") and " " not in value


def _npmrc(language: str, content: str) -> list[str]:
    """``registry=…``, ``@scope:registry=…``, ``npmRegistryServer: …``, a proxy, ``strict-ssl=false`` and
    ``unsafeHttpWhitelist``; ``//host/:_authToken=…`` lines are credentials for a registry, not one."""
    out: list[str] = []
    for line in content.splitlines():
        if not line.strip() or line.lstrip().startswith(("#", ";")):
            continue
        m = next((got for got in (p.match(line) for p in _RC_LINES[language]) if got is not None), None)
        if m is None:
            continue
        key, value = m.group("key"), _value(m.group("value") or "")
        low = key.lower()
        if _RC_REGISTRY.search(key) and value and not _official(value):
            out.append(f"{show(value)} (a package registry other than the default)")
        elif low in _RC_PROXY and value:
            out.append(f"{show(value)} (a proxy every package download goes through)")
        elif low in _RC_TLS and value.lower() == "false":
            out.append(f"any registry ({key} false turns off TLS certificate checks)")
        elif low in _RC_RUNS and value and (low == "node-options" or not _in_project_path(value)):
            out.append(f"{show(value)} (a program or script the package manager runs: {key})")
        elif low == "unsafehttpwhitelist":
            out.append(f"{show(value) or 'the hosts listed'} (hosts allowed over plain http)")
    return out


# -- pip.conf, uv.toml, bunfig.toml, Pipfile, pyproject.toml ----------------------------------------------

_HEADER: Final = re.compile(r"^\s*\[\[?\s*(?P<name>[^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_ENTRY: Final = re.compile(r"^\s*(?P<key>[\"']?[\w.-]+[\"']?)\s*(?:=|:(?!//))\s*(?P<value>.*)$")
_INDEX_KEYS: Final = frozenset({"index-url", "index_url", "index", "extra-index-url", "extra_index_url", "find-links",
                                "find_links", "python-install-mirror", "pypy-install-mirror", "registry", "url"})
_TRUST_KEYS: Final = frozenset({"trusted-host", "trusted_host", "allow-insecure-host", "allow_insecure_host"})
_STRING: Final = re.compile(r""""((?:[^"\\]|\\.)*)"|'([^']*)'""")
_DIRECT_REF: Final = re.compile(r"^\s*[A-Za-z0-9][\w.-]*\s*(?:\[[^\]]*\])?\s*@\s*(?P<ref>[a-z][a-z0-9+.-]*://\S+|git\+\S+|"
                                r"file:\S+)", re.I)
_INLINE_SOURCE: Final = re.compile(r"""\b(?P<key>git|url|path)\s*=\s*(?:"(?P<d>[^"]*)"|'(?P<s>[^']*)')""")


def _entries(content: str) -> list[tuple[str, str, str]]:
    """(table, key, value) of INI/TOML ``key = value`` lines; continuation lines (indented, or inside an
    open array) join the value before them."""
    out: list[list[str]] = []
    table = ""
    for line in content.splitlines():
        body = line.strip()
        if not body or body.startswith(("#", ";")):
            continue
        header = _HEADER.match(line)
        if header is not None and not (out and out[-1][2].count("[") > out[-1][2].count("]")):
            table = header.group("name").strip().strip("\"'")
            continue
        entry = _ENTRY.match(line)
        if out and (line[0] in " \t" and entry is None or out[-1][2].count("[") > out[-1][2].count("]")
                    or out[-1][2].count("{") > out[-1][2].count("}")):
            out[-1][2] += "\n" + body
            continue
        if entry is not None:
            out.append([table, entry.group("key").strip("\"'"), entry.group("value").strip()])
    return [(t, k, v) for t, k, v in out]


def _strings(value: str) -> list[str]:
    found = [a if a or not b else b for a, b in _STRING.findall(value)]
    if found:
        return found
    return [w for w in re.split(r"[\s,]+", re.sub(r"\s[#;].*$", "", value)) if w]  # INI: bare, one per line


def _index_table(language: str, table: str, whole: bool) -> bool:
    """Whether the index keys of ``table`` configure where installs come from."""
    if language in ("pip", "uv"):
        return True
    if language == "bunfig":
        return table.startswith("install")
    if language == "pipfile":
        return table == "source"
    return (table.startswith(("tool.uv", "tool.poetry.source", "tool.pdm.source", "tool.pixi", "tool.rye.sources"))
            or not table and not whole)


def _toml_like(language: str, content: str, whole: bool, base: str, env: AnalysisEnv) -> list[str]:
    out: list[str] = []
    for table, key, value in _entries(content):
        low = key.lower()
        index_table = _index_table(language, table, whole)
        if index_table and low in _TRUST_KEYS:
            out.extend(f"{show(h)} ({key}: trusted without TLS checks)" for h in _strings(value))
        elif index_table and (low in _INDEX_KEYS or language == "bunfig" and table.startswith("install.scopes")):
            if low in ("url", "index", "registry") and language == "pyproject" and not table:
                continue  # a fragment's `url = …` without its table: not known to be an index
            found = _strings(value)
            urls = [s for s in found if "://" in s or s.startswith(("/", "./", "../", "~"))]
            urls = urls or [s for s in found[:1] if len(found) == 1 and s.startswith("$")]  # computed: `${INDEX}`
            out.extend(f"{show(u)} (a package index other than the default, {key})" for u in urls if not _official(u))
        elif low in ("verify_ssl", "verify-ssl", "cert-verify") and value.strip().lower() == "false":
            out.append(f"the index ({key} = false turns off TLS certificate checks)")
        elif low == "proxy" and language in ("pip", "uv"):
            out.append(f"{show(_value(value))} (a proxy every package download goes through)")
        if language in ("pyproject", "pipfile", "uv"):
            out.extend(_python_refs(table, key, value, base, env))
        if low in _CODE_KEYS and (language == "bunfig" or table.startswith("tool.hatch")):
            out.extend(f"{show(v)} (code loaded from outside the project, {key})" for v in _strings(value)
                       if v.startswith(("/", "~", "$HOME")) and _outside(v, base, env))
        if language == "pyproject" and low == "backend-path":  # an in-tree build backend: pip runs its module
            out.append(f"{show(value)} (an in-tree build backend, backend-path: pip install runs that module)")
    if language in ("pyproject", "pipfile"):  # requirement strings, a fragment's bare `"x>=1"` too
        out.extend(_python_strings(content, bool(out), base, env))
    return out


_CODE_KEYS: Final = frozenset({"preload", "path", "require", "plugins"})


_SEMVER_RANGE: Final = re.compile(r"[\^~<>=]*\s*v?\d[\w.*+-]*(?:\s*(?:\|\||-|\s)\s*[\^~<>=]*\s*v?\d[\w.*+-]*)*|\*|latest")
_REQUIREMENT: Final = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?:(?:[<>=!~]=?|===)\s*[\w.*+!-]+|@\s*\S+)")


def _python_strings(content: str, seen: bool, base: str, env: AnalysisEnv) -> list[str]:
    """Quoted requirements (``"reqeusts>=2.31"``, ``"requests @ git+https://…"``) wherever they stand: the
    name one typo from a popular package, or the direct reference (when no entry has reported it)."""
    out: list[str] = []
    for pair in _STRING.findall(content):
        text = pair[0] or pair[1]
        m = _REQUIREMENT.match(text)
        if m is None:
            continue
        imitated = lookalike(m.group(1), "pypi")
        if imitated is not None:
            out.append(f"{m.group(1)} (one typo from the popular {imitated}: a typosquat?)")
        ref = _DIRECT_REF.match(text)
        if ref is not None and not seen:
            out.append(f"{show(ref.group('ref'))} (a requirement from a direct reference, not the index)")
    return out


_DEP_TABLE: Final = re.compile(r"depend|sources|packages|group")


def _python_refs(table: str, key: str, value: str, base: str, env: AnalysisEnv) -> list[str]:
    """Requirements from a URL, a VCS or a path outside the project: ``"x @ https://…"`` strings,
    ``{ git = … }``/``{ url = … }``/``{ path = "../.." }`` tables, and ``git``/``url``/``path`` keys of a
    dependency's own table."""
    out = [f"{show(m.group('ref'))} (a requirement from a direct reference, not the index)"
           for s in _STRING.findall(value) for m in [_DIRECT_REF.match(s[0] or s[1])] if m is not None]
    if table and not _DEP_TABLE.search(table):
        return out
    pairs = [(m.group("key"), m.group("d") if m.group("d") is not None else m.group("s") or "")
             for m in _INLINE_SOURCE.finditer(value)] if "{" in value else []
    if table and key in ("git", "url", "path"):
        pairs.append((key, _value(value)))
    for kind, target in pairs:
        if kind in ("git", "url"):
            out.append(f"{show(target)} (a requirement from {'a git repository' if kind == 'git' else 'a URL'}, "
                       "not the index)")
        elif _outside(target, base, env):
            out.append(f"{show(target)} (a requirement from a path outside the project)")
    return out


# -- requirements files -------------------------------------------------------------------------------

_REQ_INDEX: Final = frozenset({"-i", "--index-url", "--extra-index-url", "-f", "--find-links"})
_REQ_FILES: Final = frozenset({"-r", "--requirement", "-c", "--constraint"})
_REQ_EDITABLE: Final = frozenset({"-e", "--editable"})


def _requirements(content: str, base: str, env: AnalysisEnv) -> list[str]:
    """``pip install -r``'s options and requirement lines (``#`` comments, ``\\`` continuations, ``;``
    markers and ``--hash`` options allowed)."""
    out: list[str] = []
    for raw in content.replace("\\\n", " ").splitlines():
        line = re.sub(r"(?:^|\s)#.*$", "", raw).strip()
        if not line:
            continue
        if line.startswith("-"):
            m = re.match(r"(?P<opt>--?[\w-]+)(?:=|\s+|(?<=^-[a-z]))(?P<value>\S*)", line)
            if m is None:
                continue
            opt, value = m.group("opt"), m.group("value")
            if opt in _REQ_INDEX and value and not _official(value):
                out.append(f"{show(value)} (a package index other than the default, {opt})")
            elif opt == "--trusted-host":
                out.append(f"{show(value)} (--trusted-host: trusted without TLS checks)")
            elif opt in _REQ_FILES and value and ("://" in value or _outside(value, base, env)):
                out.append(f"{show(value)} (requirements read from outside the project, {opt})")
            elif opt in _REQ_EDITABLE and value:
                out.extend(_requirement(value, base, env))
            continue
        spec = re.split(r"\s+--?[a-z]", line.split(";", 1)[0], maxsplit=1)[0].strip()
        out.extend(_requirement(spec, base, env))
    return out


def _requirement(spec: str, base: str, env: AnalysisEnv) -> list[str]:
    verdict = pip_spec(spec)
    if verdict.kind == "other" and verdict.why.startswith("installs"):
        why = verdict.why[verdict.why.rindex(" from ") + 1:] if " from " in verdict.why else verdict.why
        return [f"{show(spec)} ({why})"]
    if verdict.kind == "path" and _outside(verdict.path, base, env):
        return [f"{show(spec)} (a requirement from a path outside the project)"]
    return []


# -- package.json -------------------------------------------------------------------------------------

_DEP_SECTIONS: Final = ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "overrides",
                        "resolutions")
_PROTOCOL: Final = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|git\+|git@|github:|gitlab:|bitbucket:|gist:|npm:|file:|link:|portal:|"
                              r"\.\.?/|/|~/)", re.I)
_NOT_DEPS = frozenset({"url", "homepage", "repository", "bugs", "$schema", "funding", "registry", "directory",
                       "main", "module", "types", "typings", "browser", "bin", "exports", "files", "source", "style",
                       "unpkg", "jsdelivr", "email", "author", "icon", "license", "workspaces", "man", "imports",
                       "default", "import", "require", "node", "publishConfig", "config"})
_PAIR: Final = re.compile(r'"(?P<key>(?:[^"\\]|\\.)*)"\s*:\s*"(?P<value>(?:[^"\\]|\\.)*)"')
_PROJECT_PROTOCOLS: Final = ("workspace:", "catalog:", "patch:")


def _package_json(content: str, whole: bool, base: str, env: AnalysisEnv) -> list[str]:
    """Dependency specs of ``package.json`` (the sections above, ``pnpm.overrides`` too); in a fragment
    the dependency sections it shows, and elsewhere only specs that name another source outright."""
    data: object = None
    for text in ([content] if whole else ["{" + content.strip().strip(",") + "}", content]):
        try:
            data = json.loads(text)
            break
        except ValueError:
            data = None
    out: list[str] = []
    if isinstance(data, dict):
        sections = [data.get(s) for s in _DEP_SECTIONS]
        pnpm = data.get("pnpm")
        if isinstance(pnpm, dict):
            sections.append(pnpm.get("overrides"))
        for section in sections:
            if isinstance(section, dict):
                _walk_deps(section, base, env, out, 0)
        if not whole:
            for key, value in data.items():
                if isinstance(value, str) and key not in _NOT_DEPS and key not in _DEP_SECTIONS:
                    out.extend(_dep(key, value, base, env, strict=False))
        return out
    for m in _PAIR.finditer(content):
        key, value = m.group("key"), m.group("value")
        if key not in _NOT_DEPS:
            out.extend(_dep(key, value, base, env, strict=False))
    return out


def _walk_deps(section: dict[str, object], base: str, env: AnalysisEnv, out: list[str], depth: int) -> None:
    for key, value in section.items():
        if isinstance(value, str):
            out.extend(_dep(key, value, base, env, strict=True))
        elif isinstance(value, dict) and depth < 8:
            _walk_deps(value, base, env, out, depth + 1)  # npm overrides nest: {"foo": {"bar": "1.0.0"}}


def _dep(name: str, spec: str, base: str, env: AnalysisEnv, strict: bool) -> list[str]:
    """One dependency: ``strict`` when it is known to be one (all of npm's spec forms are read), else
    only a spec that names another source outright counts."""
    spec = spec.strip()
    if spec.startswith(_PROJECT_PROTOCOLS) and "://" not in spec or not spec:
        return []
    imitated = lookalike(name, "npm") if _SEMVER_RANGE.fullmatch(spec) else None
    if imitated is not None:  # `"crossenv": "^7.0.3"`: a version of a name one typo from a popular package
        return [f"{name} (one typo from the popular {imitated}: a typosquat?)"]
    if not strict and not _PROTOCOL.match(spec) or spec.startswith("$"):
        return []  # `"$lodash"` in overrides: the version of the project's own dependency
    local = re.match(r"(?:file:|link:|portal:)?(?=\.\.?/|/|~/|\.\.?$)", spec)
    verdict = npm_spec(spec[local.end():] if local is not None else "dependency@" + spec)
    if verdict.kind == "other":
        what = ("an alias that installs another package under this name" if spec.startswith("npm:")
                else "a source other than the registry")
        return [f"{show(spec)} ({name}: {what})"]
    if verdict.kind == "path" and _outside(verdict.path, base, env):
        return [f"{show(spec)} ({name}: a path outside the project)"]
    return []


__all__ = ["PACKAGE_SOURCE", "package_sources", "show"]
