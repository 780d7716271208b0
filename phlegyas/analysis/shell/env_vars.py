"""Environment variables as data: which names are harmless with which values, and which carry options,
commands, code, paths or package sources that must be judged by what they hold.

A variable set for a command (``VAR=v cmd``, ``env VAR=v cmd``, ``export VAR=v; cmd``) changes what the
program does in ways its arguments do not show: ``PAGER='sh -c id' git log`` runs ``sh``,
``PYTEST_ADDOPTS=--basetemp=~ pytest`` empties the home directory, ``npm_config_registry=… npm ci``
installs someone else's packages. So Tier 2 allows an assignment only when its name is listed here as
harmless (with a value of the listed shape) or when what it carries is judged harmless by the same
rules as the program's own options (``shell.assignments``). Any other name is not understood.

The examples (command, labels) run in ``tests/test_env_vars.py`` like the program tables' examples.
"""
from __future__ import annotations

import re
import shlex
from typing import Final

from phlegyas.analysis.shell.parse import Word

# -- value shapes ----------------------------------------------------------------------------------
# any      any value, computed too: the program only shows or formats with it (GIT_AUTHOR_NAME, TZ)
# name     a literal name without a slash (a locale or terminal name, not a file of one: LANG=en_US.UTF-8)
# word     a literal word of letters, digits and . , : + @ % / = - _ (LANG=en_US.UTF-8, TERM=xterm-256color)
# number   a literal integer (COLUMNS=120)
# bool     a literal on/off word: 0 1 true false yes no on off, or empty
# flags    literal single-letter option groups only (LESS=-FRX)
# (a, b)   one of the literal values listed
_WORD: Final = re.compile(r"[A-Za-z0-9_.,:+@%/=*-]*")
_NAME: Final = re.compile(r"[A-Za-z0-9_.,:+@-]*")
_FLAGS: Final = re.compile(r"-[A-Za-z]+")
_BOOL: Final = ("", "0", "1", "true", "false", "yes", "no", "on", "off", "TRUE", "FALSE", "True", "False", "y", "n")


def _names(shape: str | tuple[str, ...], names: str) -> dict[str, str | tuple[str, ...]]:
    return {name: shape for name in names.split()}


HARMLESS: Final[dict[str, str | tuple[str, ...]]] = {
    # locale, time zone, terminal and colour: how output looks
    **_names("name", "LANG LANGUAGE LC_ALL TERM COLORTERM TERM_PROGRAM"),
    **_names("any", "TZ HISTTIMEFORMAT TIME_STYLE TIMEFORMAT QUOTING_STYLE LS_COLORS GREP_COLORS"),
    **_names("number", "COLUMNS LINES"),
    **_names("any", "NO_COLOR FORCE_COLOR CLICOLOR CLICOLOR_FORCE PY_COLORS CARGO_TERM_COLOR CARGO_TERM_VERBOSE "
                    "CARGO_TERM_PROGRESS_WHEN"),
    # continuous integration and non-interactive switches
    **_names("bool", "CI CONTINUOUS_INTEGRATION GITHUB_ACTIONS GITLAB_CI BUILDKITE TF_BUILD HUSKY "
                     "GIT_TERMINAL_PROMPT GIT_OPTIONAL_LOCKS GIT_FLUSH GIT_MERGE_AUTOEDIT GIT_CONFIG_NOSYSTEM "
                     "PIP_DISABLE_PIP_VERSION_CHECK PIP_NO_INPUT PIP_NO_COLOR UV_NO_PROGRESS "
                     "HOMEBREW_NO_AUTO_UPDATE HOMEBREW_NO_ANALYTICS HOMEBREW_NO_ENV_HINTS NEXT_TELEMETRY_DISABLED "
                     "DO_NOT_TRACK DOTNET_CLI_TELEMETRY_OPTOUT DOTNET_NOLOGO GATSBY_TELEMETRY_DISABLED "
                     "ASTRO_TELEMETRY_DISABLED CHECKPOINT_DISABLE PYTEST_DISABLE_PLUGIN_AUTOLOAD "
                     "TOKENIZERS_PARALLELISM HF_HUB_OFFLINE TRANSFORMERS_OFFLINE HF_DATASETS_OFFLINE "
                     "NUMBA_DISABLE_JIT CARGO_INCREMENTAL CGO_ENABLED NODE_NO_WARNINGS NODE_DISABLE_COLORS "
                     "PIP_QUIET PYTHONNOUSERSITE PYTHONSAFEPATH PYTHONFAULTHANDLER PYTHONDEVMODE PYTHONUTF8 "
                     "PYTHONUNBUFFERED PYTHONDONTWRITEBYTECODE PYTHONVERBOSE PYTHONOPTIMIZE PYTHONTRACEMALLOC "
                     "PYTHONINTMAXSTRDIGITS PYTHONNODEBUGRANGES VERBOSE "
                     "QUIET GIT_TRACE GIT_CURL_VERBOSE GIT_TRACE_PACKET GIT_TRACE_PERFORMANCE GIT_TRACE_SETUP "
                     "HYPOTHESIS_NO_PLUGINS"),
    ("PIP_PROGRESS_BAR"): ("on", "off", "raw", "ascii", "pretty"),
    ("PIP_ROOT_USER_ACTION"): ("warn", "ignore"),
    ("DEBIAN_FRONTEND"): ("noninteractive", "readline", "dialog", "teletype"),
    # log levels and build/test knobs that change how much is shown or how it is scheduled
    **_names("word", "RUST_LOG DEBUG LOG_LEVEL LOGLEVEL LOG_FORMAT NODE_DEBUG TF_CPP_MIN_LOG_LEVEL GRPC_VERBOSITY "
                     "PYTHONIOENCODING NODE_ENV RAILS_ENV RACK_ENV APP_ENV FLASK_ENV DJANGO_DEBUG MIX_ENV GOOS "
                     "GOARCH GOARM GOAMD64 GO111MODULE GODEBUG GOTRACEBACK CARGO_BUILD_TARGET PYTHONHASHSEED "
                     "SOURCE_DATE_EPOCH PORT HOST CUDA_VISIBLE_DEVICES"),
    **_names("number", "GOMAXPROCS OMP_NUM_THREADS MKL_NUM_THREADS OPENBLAS_NUM_THREADS NUMEXPR_MAX_THREADS "
                       "CARGO_BUILD_JOBS RUST_TEST_THREADS RUST_MIN_STACK NPROC JOBS UV_CONCURRENT_DOWNLOADS "
                       "PYTEST_XDIST_AUTO_NUM_WORKERS"),
    **_names(("0", "1", "full", "short"), "RUST_BACKTRACE RUST_LIB_BACKTRACE"),
    **_names("word", "DJANGO_SETTINGS_MODULE FLASK_APP ENVIRONMENT MPLBACKEND JAX_PLATFORMS BABEL_ENV"),
    **_names("bool", "FLASK_DEBUG COVERAGE PYTORCH_ENABLE_MPS_FALLBACK WANDB_DISABLED KMP_DUPLICATE_LIB_OK "
                     "DOCKER_BUILDKIT COMPOSE_DOCKER_CLI_BUILD SKIP_PREFLIGHT_CHECK ANALYZE GENERATE_SOURCEMAP "
                     "FAST_REFRESH DISABLE_ESLINT_PLUGIN INLINE_RUNTIME_CHUNK NEXT_TELEMETRY_DISABLED "
                     "TURBO_TELEMETRY_DISABLED"),
    ("WANDB_MODE"): ("offline", "disabled", "dryrun"),
    **_names("flags", "LESS MORE"),  # less -R …; not +commands, which may run or save
    ("GOTOOLCHAIN"): ("local",),  # another value downloads and runs a toolchain
    ("PYTHONBREAKPOINT"): ("0", ""),  # another value names a callable Python imports and calls
    # who a commit is by: shown, never run
    **_names("any", "GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL "
                    "GIT_COMMITTER_DATE USER LOGNAME"),
}
"""Names that only change how a program looks, logs or schedules its work, with the shape of value they
take (see the shapes above). ``LC_*`` names are harmless as ``name`` too."""

HARMLESS_PREFIXES: Final[tuple[tuple[str, str], ...]] = (("LC_", "name"),)

PYTHONWARNINGS: Final = "PYTHONWARNINGS"
"""``action:message:category:module:line``; a dotted category is imported, so only built-in categories."""

# -- commands a variable carries -------------------------------------------------------------------
CODE_VARS: Final = frozenset({
    "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "BAT_PAGER", "DELTA_PAGER", "GH_PAGER", "PSQL_PAGER",
    "EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GH_EDITOR", "SVN_EDITOR", "KUBE_EDITOR",
    "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "PROMPT_COMMAND", "LESSOPEN", "LESSCLOSE", "BROWSER",
    "CC", "CXX", "CPP", "LD", "AR", "AS", "NM", "RANLIB", "STRIP", "OBJCOPY", "FC", "MAKE", "CMAKE_C_COMPILER_LAUNCHER",
    "CARGO_TARGET_RUNNER",
})
"""Variables whose value programs run as a shell command line (``git`` runs ``$GIT_PAGER`` with ``sh -c``,
``make`` puts ``$CC`` into recipes): the value is expanded as shell code and judged like any command."""

PROGRAM_VARS: Final = frozenset({
    "GIT_SSH", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTC",
    "RUSTDOC", "CARGO", "CARGO_BUILD_RUSTC_WRAPPER", "CARGO_BUILD_RUSTC", "SHELL", "CONFIG_SHELL", "GIT_PROXY_COMMAND",
})
"""Variables whose value is one program that runs (``RUSTC_WRAPPER=/tmp/w cargo build`` runs ``/tmp/w``)."""

_CARGO_TARGET: Final = re.compile(r"CARGO_TARGET_[A-Z0-9_]+_(LINKER|RUNNER)")
"""``CARGO_TARGET_<triple>_LINKER`` and ``…_RUNNER``: a program cargo runs for that target."""

GIT_CODE_CONFIG = ("core.pager", "core.sshcommand", "core.editor", "core.fsmonitor", "sequence.editor",
                   "diff.external", "core.gitproxy", "pager.", "credential.helper", "alias.", "gpg.program",
                   "core.askpass", "merge.tool", "diff.tool", "mergetool.", "difftool.", "filter.", "uploadpack.",
                   "receive.procreceiverefs")
"""git configuration keys whose value git runs (``GIT_CONFIG_KEY_0=core.pager``): the value is expanded as code."""

# -- options a variable carries --------------------------------------------------------------------
OPTION_VARS: Final[dict[str, tuple[str, ...]]] = {
    "PYTEST_ADDOPTS": ("pytest",),
    "MAKEFLAGS": ("make",), "GNUMAKEFLAGS": ("make",), "MFLAGS": ("make",),
    "GOFLAGS": ("go", "build"),
}
"""Variables whose value is read as more options of a program in the table: judged by that program's
option spec, as if written on its command line."""

OWN_OPTION_VARS = frozenset({"NODE_OPTIONS", "RUSTFLAGS", "RUSTDOCFLAGS", "CARGO_BUILD_RUSTFLAGS",
                             "CARGO_ENCODED_RUSTFLAGS", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "FFLAGS",
                             "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "MAVEN_OPTS", "GRADLE_OPTS"})
"""Option variables of programs the table has no option spec for: ``shell.assignments`` checks them
against the lists below."""

NODE_LOADS: Final = frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader"})
"""Node options whose value is a module node loads before the program: code, judged by where it is."""
NODE_HARMLESS: Final = frozenset({
    "--enable-source-maps", "--no-warnings", "--no-deprecation", "--trace-warnings", "--trace-deprecation",
    "--trace-uncaught", "--throw-deprecation", "--pending-deprecation", "--experimental-vm-modules",
    "--experimental-specifier-resolution", "--experimental-modules", "--experimental-json-modules",
    "--experimental-wasm-modules", "--experimental-fetch", "--no-experimental-fetch", "--openssl-legacy-provider",
    "--use-openssl-ca", "--use-bundled-ca", "--max-old-space-size", "--max-semi-space-size", "--stack-size",
    "--max-http-header-size", "--unhandled-rejections", "--dns-result-order", "--preserve-symlinks",
    "--preserve-symlinks-main", "--no-experimental-global-navigator", "--expose-gc", "--abort-on-uncaught-exception",
    "--heapsnapshot-near-heap-limit", "--disable-warning", "--conditions", "-C", "--input-type", "--title",
    "--trace-exit", "--trace-sigint", "--report-on-fatalerror", "--no-addons", "--experimental-strip-types",
    "--experimental-transform-types", "--no-experimental-strip-types", "--experimental-require-module",
})
"""Node options that change limits, warnings and module resolution, never what code runs."""
NODE_VALUED = frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions",
                         "--title", "--disable-warning", "--input-type", "--stack-size", "--unhandled-rejections",
                         "--dns-result-order", "--max-old-space-size", "--max-semi-space-size"})

RUST_CODEGEN: Final = frozenset({"opt-level", "debuginfo", "target-cpu", "target-feature", "codegen-units", "lto",
                                 "panic", "debug-assertions", "overflow-checks", "strip", "force-frame-pointers",
                                 "instrument-coverage", "relocation-model", "embed-bitcode", "split-debuginfo",
                                 "symbol-mangling-version", "incremental", "prefer-dynamic", "code-model",
                                 "force-unwind-tables", "metadata", "extra-filename", "link-dead-code", "rpath"})
"""``-C key=value`` settings of rustc that change code generation; ``linker``, ``link-arg(s)`` and
``linker-plugin-lto`` (which run or feed another program) are not among them."""
RUST_VALUED: Final = frozenset({"-C", "--codegen", "-D", "--deny", "-A", "--allow", "-W", "--warn", "-F", "--forbid",
                                "--cfg", "--cap-lints", "--edition", "--crate-type", "--check-cfg"})

C_FLAG: Final = re.compile(r"-(O[0-3sgz]?|g[0-9]?|ggdb[0-9]?|W(?!l,|p,|a,)[A-Za-z0-9=+_-]*|w|pedantic|std=[a-z0-9+]+|"
                           r"m(arch|tune|cpu)=[A-Za-z0-9_-]+|m(64|32|sse[0-9.]*|avx[0-9]*|fma|popcnt)|f(no-)?[a-z0-9-]+(=[A-Za-z0-9_.-]+)?|"
                           r"D[A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_.\"-]*)?|U[A-Za-z_][A-Za-z0-9_]*|pthread|pipe|"
                           r"s|static|shared|rdynamic|l[A-Za-z0-9_+.-]+|DNDEBUG)")
"""C compiler flags that change warnings, optimisation, the target or macros. ``-fplugin=``, ``-B``,
``-specs=``, ``-wrapper`` and ``-Wl,``/``-Wp,``/``-Wa,`` (which load or run other programs) do not match
(``-fplugin`` is refused explicitly: it looks like an ``-f`` flag)."""
C_PATH_FLAGS: Final = ("-I", "-L", "-isystem", "-iquote", "-idirafter")
"""C flags naming a directory of headers or libraries: code compiled in, judged by where it is."""

JAVA_FLAG = re.compile(r"-(Xm[sx][0-9]+[kKmMgG]?|Xss[0-9]+[kKmMgG]?|XX:[+-][A-Za-z]+|XX:[A-Za-z]+=[0-9]+[kKmMgG%]?|"
                       r"Dfile\.encoding=[A-Za-z0-9_-]+|Duser\.(timezone|language|country)=[A-Za-z0-9_/+-]+|"
                       r"Djava\.awt\.headless=(true|false)|ea|da|server|Xshare:(auto|off|on))")
"""JVM options that set memory, encoding and assertions; ``-javaagent``, ``-agentpath``, ``-Xbootclasspath``
and other ``-D`` properties (which load code or reconfigure it) do not match."""

# -- paths a variable carries ----------------------------------------------------------------------
LOAD_PATH_VARS = frozenset({"PYTHONPATH", "NODE_PATH", "PERL5LIB", "PERLLIB", "RUBYLIB", "CLASSPATH", "GEM_PATH", "PKG_CONFIG_PATH",
                            "GOPATH", "PYTHONUSERBASE", "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR",
                            "GIT_OBJECT_DIRECTORY", "GIT_INDEX_FILE", "CARGO_HOME", "RUSTUP_HOME", "MANPATH",
                            "PYTHONSTARTUP", "TS_NODE_PROJECT"})
"""Variables whose value is a list of places code, configuration or a repository is loaded from:
each part is judged as a path loaded (inside the project it is fine, elsewhere or computed it is not).
Native library paths (``LD_LIBRARY_PATH``) are not among them: every program, a read-only one too, would
run the project's native code, so they are never automatic."""

WRITE_DIR_VARS: Final = frozenset({"CARGO_TARGET_DIR", "GOCACHE", "PIP_CACHE_DIR", "UV_CACHE_DIR", "XDG_CACHE_HOME",
                                   "PYTHONPYCACHEPREFIX", "COVERAGE_FILE", "RUFF_CACHE_DIR",
                                   "MYPY_CACHE_DIR", "TMPDIR", "TMP", "TEMP"})
"""Variables naming where a program writes its output or cache: judged as a write there."""

PRELOAD_VARS = frozenset({"LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV", "ZDOTDIR",
                          "PYTHONHOME", "PERL5OPT", "RUBYOPT", "GCONV_PATH", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR",
                          "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG",
                          "PYTHONINSPECT", "LESSKEY", "TERMINFO", "IFS", "PS4", "SHELLOPTS", "BASHOPTS", "CDPATH",
                          "GLOBIGNORE", "MALLOC_CHECK_", "HOSTALIASES", "LOCALDOMAIN", "RES_OPTIONS", "OPENSSL_CONF",
                          "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS",
                          "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
                          "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CONFIG_DIRS", "PIP_CONFIG_FILE"})
"""Variables that make programs load code or configuration (a library, a start-up file, a proxy or a
certificate authority that decides whom the network talks to) whatever their value: never automatic."""

INJECTION_VARS: Final = frozenset({"LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES"})
"""Tier 1 (``env.code_injection``): every program started loads this library first, whatever it is."""
STARTUP_FILE_VARS: Final = frozenset({"BASH_ENV", "ENV", "PYTHONSTARTUP"})
"""Tier 1: a shell or Python sources this file; from a temp directory, outside the project or computed."""
TIER1_PATH_VARS: Final = frozenset({"PYTHONPATH", "NODE_PATH", "PERL5LIB", "RUBYLIB", "LD_LIBRARY_PATH",
                                    "DYLD_LIBRARY_PATH"})
"""Tier 1: a search path for code that starts in a shared temp directory."""

# -- package sources -------------------------------------------------------------------------------
SOURCE_VARS = frozenset({"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_TRUSTED_HOST", "PIP_INDEX",
                         "UV_INDEX_URL", "UV_EXTRA_INDEX_URL", "UV_INDEX", "UV_DEFAULT_INDEX", "UV_FIND_LINKS",
                         "UV_INSECURE_HOST", "YARN_REGISTRY", "YARN_NPM_REGISTRY_SERVER", "BUN_CONFIG_REGISTRY",
                         "GOPROXY", "GONOSUMDB", "GONOSUMCHECK", "GOINSECURE", "GOSUMDB", "GONOPROXY", "GOPRIVATE",
                         "POETRY_REPOSITORIES", "PDM_PYPI_URL", "PIPENV_PYPI_MIRROR", "CONDA_CHANNELS",
                         "GEM_SOURCE", "BUNDLE_MIRROR", "COMPOSER_REPOSITORIES", "NUGET_SOURCE", "HEX_MIRROR",
                         "CARGO_NET_GIT_FETCH_WITH_CLI", "CARGO_HTTP_PROXY"})
SOURCE_PREFIXES: Final = ("CARGO_REGISTRIES_", "CARGO_REGISTRY_", "CARGO_SOURCE_", "POETRY_REPOSITORIES_",
                          "POETRY_HTTP_BASIC_", "BUNDLE_MIRROR__", "UV_INDEX_", "PIP_", "UV_", "YARN_", "PNPM_",
                          "BUN_CONFIG_")
"""Package managers' own variables: an index or registry override installs someone else's packages;
the rest set any option of the manager (``PIP_TARGET``, ``UV_PYTHON``), so none is automatic unless
listed as harmless above."""
NPM_CONFIG: Final = "npm_config_"
"""Every ``npm_config_*`` (any letter case) is an npm option: the registry, ``script-shell``, ``prefix`` …"""

PATH_VARS: Final = frozenset({"PATH"})
HOME_VARS: Final = frozenset({"HOME"})

EXAMPLES: tuple[tuple[str, str], ...] = (
    ("LANG=C sort a.txt", "safe"), ("LC_ALL=C.UTF-8 grep foo a.txt", "safe"), ("TZ=UTC date", "safe"),
    ("NO_COLOR=1 pytest", "safe"), ("RUST_BACKTRACE=1 cargo test", "safe"), ("CI=true npm test", "safe"),
    ("GIT_PAGER=cat git log", "safe"), ("PAGER=less git log", "safe"), ("PYTHONPATH=src pytest", "safe"),
    ("COLUMNS=200 ls", "safe"), ("GOOS=linux GOARCH=arm64 go build ./...", "safe"),
    ("env LANG=C sort a.txt", "safe"), ("export NODE_ENV=test; npm test", "safe"), ("X=1", "safe"),
    ("export OUT=dist; ls $OUT", "safe"), ("CARGO_TARGET_DIR=target/alt cargo build", "safe"),
    ("FOO=1 ls", "notsafe"), ("env FOO=1 ls", "notsafe"), ("export FOO=1; ls", "notsafe"),
    ("GIT_PAGER='sh -c id' git log", "executes notsafe"), ("RUSTC_WRAPPER=/tmp/w cargo build", "executes notsafe"),
    ("PYTEST_ADDOPTS='--basetemp=/home/u' pytest", "notsafe"), ("LD_PRELOAD=/tmp/x.so ls", "notsafe"),
    ("NODE_OPTIONS='--require /tmp/x.js' npm test", "notsafe"), ("npm_config_registry=http://x.example npm ci", "notsafe"),
    ("NPM_CONFIG_REGISTRY=http://x.example npm ci", "notsafe"), ("PIP_INDEX_URL=http://x.example pip install foo", "notsafe"),
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='sh -c id' git log", "executes notsafe"),
    ("PYTHONPATH=/tmp/x pytest", "notsafe"), ("HOME=/tmp/h git log", "notsafe"), ("PATH=/tmp:$PATH ls", "notsafe"),
    ("MAKEFLAGS='CC=/tmp/cc' make", "notsafe"), ("RUSTFLAGS='-C linker=/tmp/ld' cargo build", "notsafe"),
    ("LANG='$(id)' ls", "notsafe"), ("AWS_SECRET_ACCESS_KEY=abc aws s3 ls", "notsafe"),
)
"""(command, labels): ``safe`` it stays Tier-2 safe, ``notsafe`` it does not, ``executes`` code runs."""


def harmless_shape(name: str) -> str | tuple[str, ...] | None:
    """The shape of value ``name`` is harmless with, or None when it is not a harmless name."""
    shape = HARMLESS.get(name)
    if shape is None:
        for prefix, pshape in HARMLESS_PREFIXES:
            if name.startswith(prefix):
                return pshape
    return shape


def fits(shape: str | tuple[str, ...], value: Word) -> bool:
    """Does ``value`` have the harmless ``shape``?"""
    if shape == "any":
        return not _substituted(value.text)
    if value.dynamic:
        return False
    text = value.text
    if isinstance(shape, tuple):
        return text in shape
    if shape == "bool":
        return text in _BOOL
    if shape == "number":
        return text.isdigit()
    if shape == "flags":
        return all(_FLAGS.fullmatch(part) for part in text.split())
    if shape == "name":
        return _NAME.fullmatch(text) is not None
    return _WORD.fullmatch(text) is not None and ".." not in text


def _substituted(text: str) -> bool:
    """Does ``text`` run a command (``$(…)``, backquotes, process substitution) to compute the value?"""
    return "`" in text or "$(" in text or "<(" in text or ">(" in text


def is_program_var(name: str) -> bool:
    """Does ``name`` hold one program that runs (``RUSTC_WRAPPER``, ``CARGO_TARGET_<triple>_LINKER``)?"""
    return name in PROGRAM_VARS or _CARGO_TARGET.fullmatch(name) is not None and name.endswith("_LINKER")


def is_code_var(name: str) -> bool:
    """Does ``name`` hold a command line a program hands to a shell (``GIT_PAGER``, ``CC``, ``…_RUNNER``)?"""
    return name in CODE_VARS or _CARGO_TARGET.fullmatch(name) is not None and name.endswith("_RUNNER")


def is_source_var(name: str) -> bool:
    """Does ``name`` set where a package manager gets packages, or another of its options?"""
    return (name in SOURCE_VARS or name.startswith(SOURCE_PREFIXES) or name.lower().startswith(NPM_CONFIG))


def git_config_pairs(assignments: list[tuple[str, Word]]) -> list[tuple[str, Word, Word | None]]:
    """``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n`` as (index, key, value). Every key counts, whatever
    ``GIT_CONFIG_COUNT`` says: the count may be raised later on the line or be in the environment."""
    keys = {n[len("GIT_CONFIG_KEY_"):]: v for n, v in assignments if n.startswith("GIT_CONFIG_KEY_")}
    values = {n[len("GIT_CONFIG_VALUE_"):]: v for n, v in assignments if n.startswith("GIT_CONFIG_VALUE_")}
    return [(i, k, values.get(i)) for i, k in keys.items()]


def git_code_key(key: str) -> bool:
    """Is the git configuration ``key`` one whose value git runs as a command?"""
    return key.lower().startswith(GIT_CODE_CONFIG) or key.lower().endswith((".cmd", ".command", ".program",
                                                                            ".helper", ".driver", ".textconv",
                                                                            ".clean", ".smudge", ".process"))


_PAGERS: Final = frozenset({"cat", "less", "more", "most", "bat", "batcat", "delta", "diff-so-fancy", "tee"})
_LESS_FLAGS: Final = re.compile(r"-[RFXSrKiIMmnNsEe]+|--(RAW-CONTROL-CHARS|quit-if-one-screen|no-init|chop-long-lines)")
_EDITORS: Final = frozenset({"true", ":", "cat"})
_TOOLCHAIN = re.compile(r"([a-z0-9_]+-)*(gcc|g\+\+|clang|clang\+\+|cc|c\+\+|cpp|ld|ld\.lld|ld\.gold|lld|ar|llvm-ar|"
                        r"as|nm|llvm-nm|ranlib|llvm-ranlib|strip|llvm-strip|objcopy|llvm-objcopy|gfortran)(-[0-9.]+)?")
_SSH_OPTIONS = frozenset({"stricthostkeychecking", "userknownhostsfile", "identitiesonly", "identityfile", "batchmode",
                          "connecttimeout", "port", "user", "serveraliveinterval", "serveralivecountmax", "loglevel",
                          "passwordauthentication", "pubkeyauthentication", "hostkeyalgorithms", "addkeystoagent",
                          "identityagent", "controlmaster", "controlpersist", "controlpath", "compression"})
ROLES: dict[str, frozenset[str]] = {
    **{n: _PAGERS for n in ("PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "BAT_PAGER", "DELTA_PAGER", "GH_PAGER",
                     "PSQL_PAGER")},
    **{n: _EDITORS for n in ("EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GH_EDITOR", "SVN_EDITOR",
                      "KUBE_EDITOR")},
    **{n: frozenset({"true", "echo"}) for n in ("GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS")},
    **{n: frozenset({"sccache", "ccache"}) for n in ("RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC_WRAPPER",
                                                     "CMAKE_C_COMPILER_LAUNCHER")},
    "RUSTC": frozenset({"rustc"}), "CARGO_BUILD_RUSTC": frozenset({"rustc"}), "RUSTDOC": frozenset({"rustdoc"}),
    "CARGO": frozenset({"cargo"}), "MAKE": frozenset({"make", "gmake"}),
    **{n: frozenset({"bash", "sh", "zsh", "dash"}) for n in ("SHELL", "CONFIG_SHELL")},
    **{n: frozenset({"ssh"}) for n in ("GIT_SSH_COMMAND", "GIT_SSH")},
    "BROWSER": frozenset({"none", "true"}),  # BROWSER=none npm start: open nothing
}
"""The programs each command variable may name and stay automatic: a pager that only shows, an editor
that changes nothing, the usual compilers and caches, ``ssh`` with options that only pick a key or a
known-hosts file. Anything else (a shell, an interpreter, a path) runs code of the caller's choice."""
_COMPILER_VARS: Final = frozenset({"CC", "CXX", "CPP", "LD", "AR", "AS", "NM", "RANLIB", "STRIP", "OBJCOPY", "FC"})
_SYSTEM_DIRS: Final = ("/bin/", "/usr/bin/", "/usr/local/bin/")


def harmless_command(name: str, text: str) -> bool:
    """Is the literal command ``text`` of variable ``name`` one that stays automatic (see ``ROLES``)?"""
    try:
        words = shlex.split(text)
    except ValueError:
        return False
    if not words:
        return name in ROLES and ROLES[name] is _PAGERS  # GIT_PAGER= (no pager)
    if any(c in text for c in ";|&$`<>(){}\n"):
        return False
    head = words[0]
    for d in _SYSTEM_DIRS:
        if head.startswith(d) and "/" not in head[len(d):]:
            head = head[len(d):]
    if "/" in head:
        return False
    if head in ("ccache", "sccache") and len(words) > 1 and name in _COMPILER_VARS:
        head, words = words[1], words[1:]
    if name in _COMPILER_VARS or _CARGO_TARGET.fullmatch(name) and name.endswith("_LINKER"):
        return _TOOLCHAIN.fullmatch(head) is not None and all(w.startswith("-") and "plugin" not in w
                                                              and not w.startswith(("-B", "-specs", "-wrapper"))
                                                              for w in words[1:])
    allowed = ROLES.get(name)
    if allowed is None or head not in allowed:
        return False
    rest = words[1:]
    if head == "less":
        return all(_LESS_FLAGS.fullmatch(w) for w in rest)
    if head == "ssh":
        return _ssh_options(rest)
    if head in ("tee",):
        return False
    return not rest or head in ("echo", "bat", "batcat", "delta") and all(w.startswith("-") for w in rest)


def _ssh_options(words: list[str]) -> bool:
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("-i", "-p", "-l", "-o") and i + 1 < len(words):
            if w == "-o" and words[i + 1].split("=", 1)[0].strip().lower() not in _SSH_OPTIONS:
                return False
            i += 2
            continue
        if w.startswith("-o") and len(w) > 2:
            if w[2:].split("=", 1)[0].strip().lower() not in _SSH_OPTIONS:
                return False
        elif w not in ("-v", "-vv", "-q", "-T", "-4", "-6", "-A", "-C", "-x") and not w.startswith(("-i", "-p")):
            return False
        i += 1
    return True


def carried_commands(assignments: list[tuple[str, Word]]) -> list[tuple[str, str]]:
    """The shell code the assignments hand to programs, as (variable, code) pairs for the expansion to
    analyse like any command: ``GIT_PAGER='sh -c id'`` → ``sh -c id``; ``RUSTC_WRAPPER=/tmp/w`` → the
    program ``/tmp/w``; a git config value of a code key (``GIT_CONFIG_VALUE_0``) → its command.
    Computed values are left to ``shell.assignments``, which refuses them."""
    out: list[tuple[str, str]] = []
    for name, value in assignments:
        if value.dynamic or not value.text.strip():
            continue
        if name.startswith("BASH_FUNC_") and value.text.lstrip().startswith("()"):
            fn = name[len("BASH_FUNC_"):].rstrip("%()") or "f"  # bash 4.4+ `BASH_FUNC_ls%%`, older `…()`
            out.append((name, f"{fn} {value.text}\n{fn}"))  # an exported function: defined in every child bash
            continue
        if name.startswith("TF_CLI_ARGS"):  # `TF_CLI_ARGS_apply='-destroy -auto-approve'`: every such terraform
            sub = name[len("TF_CLI_ARGS_"):] if name.startswith("TF_CLI_ARGS_") else ""  # run gets these arguments
            out.append((name, f"terraform {sub} {value.text}".replace("  ", " ")))
            continue
        if harmless_command(name, value.text):
            continue  # nothing to expand: the judge allows it as it is
        if is_code_var(name):
            text = value.text
            if name in ("LESSOPEN", "LESSCLOSE"):
                text = text.lstrip("|-").replace("%s", "x")
            out.append((name, text))
        elif is_program_var(name):
            out.append((name, _quote(value.text)))
    for index, key, given in git_config_pairs(assignments):
        if given is None or given.dynamic or key.dynamic or not git_code_key(key.text):
            continue
        text = given.text[1:] if given.text.startswith("!") else given.text
        if text.strip():
            out.append((f"GIT_CONFIG_VALUE_{index}", text))
    return out


def _quote(text: str) -> str:
    """``text`` as one shell word: a program variable names one program, spaces and all."""
    return "'" + text.replace("'", "'\\''") + "'"
