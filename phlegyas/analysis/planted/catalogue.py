"""Files whose content a Tier-2-safe command runs later, as data: what each one is, how its content
is read, and which everyday command runs it.

A write into one of these is not an ordinary project edit: ``git commit`` runs the hooks, ``npm
install`` and ``npm test`` run ``package.json`` scripts, ``make`` runs recipes, ``pytest`` imports every
``conftest.py`` and applies ``addopts``, Python imports ``sitecustomize.py`` and ``*.pth`` lines at
start-up, ``pip install .`` runs ``setup.py``, ``cargo build`` compiles and runs ``build.rs``. Those
commands are auto-allowed, so whatever the write puts there runs with no one asked. Each kind names the
``language`` the judge reads its content in (see ``planted.extract``).

Two more families are judged by their content with a lighter hand. ``SOURCE_KINDS``: ordinary source
files (a test module, a package ``__init__.py``, ``jest.config.js``, ``CMakeLists.txt``, ``main.rs``, a Go
test) are run too — by ``pytest``, ``npx jest``, ``cmake``, ``cargo run``, ``go test`` — but agents write
them all day, so only a Tier 1 deny in their content counts (``planted.sources``). ``PACKAGE_KINDS``:
files that say where packages come from (``.npmrc``, ``pip.conf``, ``requirements.txt`` …) ask when
their content points installs at another source (``planted.package_sources``); ``package.json`` and
``pyproject.toml`` are read for that as well as for what they run.

``go generate`` directives are left out on purpose: ``go generate`` itself is never auto-allowed (it
runs arbitrary programs), so a directive waits for a person anyway.
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class PlantedKind:
    id: str
    what: str  # shown to people: "a git hook"
    runs_it: str  # the everyday command that runs the content
    language: str  # how ``planted.extract`` reads the content
    examples: tuple[str, ...]  # project-relative paths of this kind (tests run them)


_KINDS: Final = (
    PlantedKind("git_hook", "a git hook", "git commit, checkout, merge or push", "sh",
                       (".husky/pre-commit", ".husky/commit-msg", ".githooks/pre-push", ".git/hooks/pre-commit")),
    PlantedKind("pre_commit", "the pre-commit configuration", "git commit (through pre-commit)", "yaml:entry",
                       (".pre-commit-config.yaml", ".pre-commit-hooks.yaml")),
    PlantedKind("lefthook", "the lefthook configuration", "git commit (through lefthook)", "yaml:run",
                       ("lefthook.yml", ".lefthook.yml", "lefthook-local.yaml")),
    PlantedKind("npm_scripts", "npm scripts", "npm install, npm test or npm run", "npm",
                       ("package.json", "web/package.json")),
    PlantedKind("composer_scripts", "Composer scripts", "composer install, update or run-script", "npm",
                       ("composer.json",)),
    PlantedKind("makefile", "a Makefile", "make", "make", ("Makefile", "makefile", "GNUmakefile", "rules.mk")),
    PlantedKind("justfile", "a justfile", "just", "just", ("justfile", ".justfile", "Justfile")),
    PlantedKind("taskfile", "a Taskfile", "task", "yaml:cmds", ("Taskfile.yml", "taskfile.yaml")),
    PlantedKind("conftest", "a pytest conftest.py", "pytest", "py", ("conftest.py", "tests/unit/conftest.py")),
    PlantedKind("pytest_config", "the pytest/tox configuration", "pytest or tox", "ini",
                       ("pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml")),
    PlantedKind("python_startup", "a Python start-up hook", "every python start-up", "py",
                       ("sitecustomize.py", "usercustomize.py", "src/sitecustomize.py")),
    PlantedKind("pth", "a .pth file", "every python start-up", "pth", ("venv.pth", "lib/site-packages/x.pth")),
    PlantedKind("python_build", "a Python build or session file", "pip install . or nox", "py",
                       ("setup.py", "noxfile.py")),
    PlantedKind("envrc", "a direnv .envrc", "entering the directory (direnv)", "envrc", (".envrc",)),
    PlantedKind("ci", "a CI workflow", "the next push (CI)", "yaml:run",
                       (".github/workflows/ci.yml", ".github/workflows/release.yaml", ".gitlab-ci.yml")),
    PlantedKind("vscode_tasks", "the editor's tasks", "the editor (tasks.json)", "tasks", (".vscode/tasks.json",)),
    PlantedKind("build_rs", "a Cargo build script", "cargo build, test or check", "rust", ("build.rs",)),
    PlantedKind("cargo_config", "the Cargo configuration", "cargo build, test or run", "cargo",
                       (".cargo/config.toml", ".cargo/config")),
    PlantedKind("ruby_build", "a Gemfile or Rakefile", "bundle install or rake", "ruby",
                       ("Gemfile", "Rakefile", "lib/tasks/db.rake")),
    PlantedKind("shell_startup", "a shell start-up file", "the next shell that starts", "sh",
                       (".bashrc", ".zshrc", ".profile", ".bash_profile")),
    PlantedKind("cron", "a crontab", "the scheduler, on its own", "cron",
                       ("etc/cron.d/backup", "var/spool/cron/crontabs/u", "etc/crontab")),
    PlantedKind("service_unit", "a service or autostart entry", "the service manager or the next login", "unit",
                       (".config/systemd/user/app.service", "etc/systemd/system/x.service",
                        ".config/autostart/app.desktop")),
    PlantedKind("agent_instructions", "the agent's instructions", "the agent, which follows them", "md",
                       ("CLAUDE.md", "AGENTS.md", "GEMINI.md", ".cursorrules", ".github/copilot-instructions.md")),
    PlantedKind("ssh_config", "the ssh client configuration", "every ssh, scp or git over ssh", "sshconf",
                       (".ssh/config",)),
    PlantedKind("git_config", "a git configuration", "the next git command", "gitconfig",
                       (".git/config", ".gitconfig", ".config/git/config")),
    PlantedKind("editor_startup", "the editor's start-up file", "vim or nvim, when it starts", "vim",
                       (".vimrc", ".config/nvim/init.lua", ".config/nvim/init.vim", ".exrc", ".nvim.lua")),
    PlantedKind("pdbrc", "pdb's start-up file", "every breakpoint or python -m pdb here", "pdb", (".pdbrc",)),
    PlantedKind("system_startup", "a system-wide start-up script", "every login (root's too)", "sh",
                       ("etc/profile.d/x.sh", "etc/update-motd.d/99-stats", "etc/bash.bashrc", "etc/rc.local")),
    PlantedKind("apt_hooks", "apt's configuration", "every apt update or install, as root", "apt",
                       ("etc/apt/apt.conf.d/99-refresh",)),
    PlantedKind("pam", "a PAM configuration", "every login and sudo", "pam", ("etc/pam.d/common-session",)),
    PlantedKind("sshd_config", "the ssh server's configuration", "every ssh login to this machine", "sshd",
                       ("etc/ssh/sshd_config", "etc/ssh/sshd_config.d/50-x.conf")),
    PlantedKind("polkit", "a polkit rule", "every privileged action", "polkit", ("etc/polkit-1/rules.d/00-x.rules",)),
    PlantedKind("fetchrc", "the curl or wget configuration", "every curl or wget", "fetchrc", (".curlrc", ".wgetrc")),
    PlantedKind("system_hook", "a system hook script", "the system, as root, when its event comes", "sh",
                       ("etc/cron.hourly/x", "etc/cron.daily/x", "etc/NetworkManager/dispatcher.d/99-x",
                        "etc/network/if-up.d/x", "etc/init.d/x")),
    PlantedKind("logrotate", "a logrotate configuration", "logrotate, as root, every day", "logrotate",
                       ("etc/logrotate.d/app", "etc/logrotate.conf")),
    PlantedKind("udev", "a udev rule", "udev, as root, when a device comes or goes", "udev",
                       ("etc/udev/rules.d/99-x.rules",)),
    PlantedKind("session_env", "the session's environment", "every program of the next login", "envfile",
                       (".config/environment.d/99-x.conf", ".pam_environment", "etc/environment")),
    PlantedKind("tmux_config", "the tmux configuration", "the next tmux server", "tmux",
                       (".tmux.conf", ".config/tmux/tmux.conf")),
    PlantedKind("emacs_startup", "Emacs's start-up file", "Emacs, when it starts", "elisp",
                       (".emacs", ".emacs.d/init.el", ".config/emacs/init.el")),
    PlantedKind("dir_locals", "Emacs's directory-local settings", "Emacs, when it opens a file here", "dirlocals",
                       (".dir-locals.el", "src/.dir-locals-2.el")),
    PlantedKind("agent_settings", "an agent's or editor's settings", "the agent or editor (its hooks, MCP servers, "
                "terminals)", "agentjson", (".claude/settings.json", ".claude/settings.local.json", ".mcp.json",
                                            ".cursor/mcp.json", ".config/Code/User/settings.json",
                                            ".gemini/settings.json")),
    PlantedKind("install_sources", "a package manager's sources", "every later install (apt, maven, terraform, "
                "podman, gem, conda)", "pkgsrc", (".terraformrc", ".m2/settings.xml", "etc/apt/sources.list.d/x.list",
                                                 ".config/containers/registries.conf", ".gemrc", ".condarc")),
    PlantedKind("terraform", "Terraform configuration", "terraform plan or apply (external data, local-exec)", "tf",
                ("infra/main.tf",)),
    PlantedKind("launchd", "a launchd job", "macOS's launchd, at login or load", "plist",
                ("Library/LaunchAgents/com.x.plist",)),
    PlantedKind("hosts_file", "the hosts file", "every program that looks up a name (installs, git, the agent)",
                "hosts", ("etc/hosts",)),
    PlantedKind("aws_config", "the AWS CLI's configuration", "every aws command and SDK call (credential_process)",
                "awscfg", (".aws/config",)),
    PlantedKind("client_startup", "a client's start-up file", "the next gdb, psql or sqlite3 session", "clientrc",
                       (".gdbinit", ".psqlrc", ".sqliterc")),
    PlantedKind("path_shadow", "a program on PATH under a system command's name", "the next shell that runs that "
                "command (sudo, ssh, git …)", "shadow", (".local/bin/sudo", ".local/bin/ssh")),
    PlantedKind("tool_config", "a tool's configuration", "the test, lint, build or package tool that reads it",
                "toolcfg", ("jest.config.js", "vitest.config.ts", ".eslintrc.js", ".eslintrc.cjs", "vite.config.js",
                            ".mocharc.yml", ".rspec", ".irbrc", ".pnpmfile.cjs", "tsconfig.json",
                            "deno.json", ".rubocop.yml", ".pylintrc", "babel.config.js", "webpack.config.js")),
    PlantedKind("gitpod", "the Gitpod configuration", "every workspace started on the repository", "yaml:gitpod",
                       (".gitpod.yml",)),
    PlantedKind("devcontainer", "the dev container's configuration",
                "the editor opening the container (initializeCommand runs on this machine)", "devcontainer",
                       (".devcontainer/devcontainer.json", ".devcontainer.json")),
)
KINDS: Final[dict[str, PlantedKind]] = {k.id: k for k in _KINDS}

_SOURCE_KINDS: Final = (  # ordinary source files: only a Tier 1 deny in their content counts (``planted.sources``)
    PlantedKind("python_source", "a Python source file", "pytest, python or an import of it", "src:py",
                       ("tests/test_a.py", "tests/__init__.py", "src/pkg/__init__.py", "manage.py", "docs/conf.py")),
    PlantedKind("js_source", "a JavaScript or TypeScript file", "node, npm test, jest, vitest or a bundler", "src:js",
                       ("src/index.test.ts", "lib/a.mjs", "b.cjs",
                        "src/App.jsx", "src/App.tsx", "x.mts", "x.cts")),
    PlantedKind("ruby_source", "a Ruby source file", "ruby, rspec or rails", "src:ruby",
                       ("spec/a_spec.rb", "config/application.rb")),
    PlantedKind("shell_script", "a shell script", "the project's scripts", "src:sh",
                       ("scripts/setup.sh", "bin/x.bash")),
    PlantedKind("cmake", "a CMake file", "cmake (configure and build)", "src:cmake",
                       ("CMakeLists.txt", "cmake/deps.cmake")),
    PlantedKind("rust_source", "a Rust source file", "cargo run, test or build", "src:rust",
                       ("src/main.rs", "tests/it.rs")),
    PlantedKind("go_source", "a Go source file", "go test, go run or go build", "src:go",
                       ("x_test.go", "cmd/app/main.go")),
    PlantedKind("gradle", "a Gradle build script", "gradle or ./gradlew", "src:gradle",
                       ("build.gradle", "app/build.gradle.kts", "settings.gradle")),
    PlantedKind("msbuild", "an MSBuild project or targets file", "dotnet build or test", "src:msbuild",
                       ("Directory.Build.targets", "src/App/App.csproj", "Directory.Build.props")),
    PlantedKind("dockerfile", "a Dockerfile", "docker build (its RUN lines)", "src:docker",
                       ("Dockerfile", "docker/api.Dockerfile")),
    PlantedKind("notebook", "a notebook's code", "jupyter nbconvert --execute, or whoever runs it", "src:cell",
                       ("notebooks/explore.ipynb",)),
    PlantedKind("installed_tool", "a tool's entry point", "the project's commands (pytest, npx jest, ./gradlew, bin/rails)",
                "src:auto", (".venv/bin/pytest", "venv/bin/ruff", "node_modules/.bin/jest", "gradlew", "bin/rails")),
)
SOURCE_KINDS: Final[dict[str, PlantedKind]] = {k.id: k for k in _SOURCE_KINDS}

_PACKAGE_KINDS: Final = (  # where packages come from: a registry, an index, a requirement (``planted.package_sources``)
    PlantedKind("npm_config", "the npm/yarn/bun configuration", "npm, yarn, pnpm or bun install", "pkg:npmrc",
                       (".npmrc", "web/.npmrc")),
    PlantedKind("yarn_config", "the yarn configuration", "yarn install", "pkg:yarnrc", (".yarnrc", ".yarnrc.yml")),
    PlantedKind("bun_config", "the bun configuration", "bun install", "pkg:bunfig", ("bunfig.toml",)),
    PlantedKind("pip_config", "the pip configuration", "pip install", "pkg:pip", ("pip.conf", "pip.ini")),
    PlantedKind("uv_config", "the uv configuration", "uv sync, uv pip install or uv run", "pkg:uv", ("uv.toml",)),
    PlantedKind("requirements", "a requirements file", "pip install -r", "pkg:req",
                       ("requirements.txt", "requirements-dev.txt", "constraints.txt", "requirements/base.txt",
                        "requirements.in")),
    PlantedKind("pipfile", "the Pipfile", "pipenv install", "pkg:pipfile", ("Pipfile",)),
    PlantedKind("go_mod", "the Go module file", "go build, go test or go mod download", "pkg:gomod",
                       ("go.mod", "tools/go.mod")),
    PlantedKind("rust_toolchain", "the Rust toolchain file", "cargo (through rustup)", "pkg:toolchain",
                       ("rust-toolchain.toml", "rust-toolchain")),
    PlantedKind("gitmodules", "the submodules' list", "git submodule update", "pkg:gitmodules", (".gitmodules",)),
    PlantedKind("cargo_manifest", "the Cargo manifest", "cargo build, test or fetch", "pkg:cargo",
                       ("Cargo.toml", "crates/core/Cargo.toml")),
    PlantedKind("editor_settings", "the editor's settings", "the editor (its interpreter, terminal, tools)",
                "pkg:vscode", (".vscode/settings.json",)),
    PlantedKind("compose", "a Compose file", "docker compose up", "pkg:compose",
                ("docker-compose.yml", "docker-compose.override.yml", "compose.yaml")),
    PlantedKind("build_wrapper", "the build wrapper's properties", "./gradlew or ./mvnw (it downloads the build tool)",
                "pkg:wrapper", ("gradle/wrapper/gradle-wrapper.properties", ".mvn/wrapper/maven-wrapper.properties")),
)
PACKAGE_KINDS: Final[dict[str, PlantedKind]] = {k.id: k for k in _PACKAGE_KINDS}
_ALL: Final[dict[str, PlantedKind]] = {**KINDS, **SOURCE_KINDS, **PACKAGE_KINDS}

_BY_NAME: Final = {
    ".pre-commit-config.yaml": "pre_commit", ".pre-commit-hooks.yaml": "pre_commit",
    "lefthook.yml": "lefthook", "lefthook.yaml": "lefthook", ".lefthook.yml": "lefthook", ".lefthook.yaml": "lefthook",
    "lefthook-local.yml": "lefthook", "lefthook-local.yaml": "lefthook",
    "package.json": "npm_scripts", "composer.json": "composer_scripts", "Makefile": "makefile",
    "makefile": "makefile", "GNUmakefile": "makefile",
    "justfile": "justfile", "Justfile": "justfile", ".justfile": "justfile",
    "Taskfile.yml": "taskfile", "Taskfile.yaml": "taskfile", "taskfile.yml": "taskfile", "taskfile.yaml": "taskfile",
    "conftest.py": "conftest", "pytest.ini": "pytest_config", "tox.ini": "pytest_config",
    "setup.cfg": "pytest_config", "pyproject.toml": "pytest_config",
    "sitecustomize.py": "python_startup", "usercustomize.py": "python_startup",
    "setup.py": "python_build", "noxfile.py": "python_build", ".envrc": "envrc", ".gitlab-ci.yml": "ci",
    "build.rs": "build_rs", "Gemfile": "ruby_build", "Rakefile": "ruby_build", "rakefile": "ruby_build",
    ".bashrc": "shell_startup", ".zshrc": "shell_startup", ".profile": "shell_startup",
    ".bash_profile": "shell_startup", ".bash_login": "shell_startup", ".zprofile": "shell_startup",
    ".zshenv": "shell_startup", ".zlogin": "shell_startup", ".kshrc": "shell_startup", ".mkshrc": "shell_startup",
    "CMakeLists.txt": "cmake", ".npmrc": "npm_config", ".yarnrc": "yarn_config", ".yarnrc.yml": "yarn_config",
    ".yarnrc.yaml": "yarn_config", "bunfig.toml": "bun_config", "pip.conf": "pip_config", "pip.ini": "pip_config",
    "uv.toml": "uv_config", "Pipfile": "pipfile", "go.mod": "go_mod", "rust-toolchain.toml": "rust_toolchain",
    "rust-toolchain": "rust_toolchain", ".gitmodules": "gitmodules", "Cargo.toml": "cargo_manifest",
    "docker-compose.yml": "compose", "docker-compose.yaml": "compose", "docker-compose.override.yml": "compose",
    "docker-compose.override.yaml": "compose", "compose.yml": "compose", "compose.yaml": "compose",
    "compose.override.yml": "compose", "compose.override.yaml": "compose",
    "Dockerfile": "dockerfile", "gradle-wrapper.properties": "build_wrapper", "maven-wrapper.properties": "build_wrapper",
    "Containerfile": "dockerfile",
    "CLAUDE.md": "agent_instructions", "CLAUDE.local.md": "agent_instructions", "AGENTS.md": "agent_instructions",
    "GEMINI.md": "agent_instructions", ".cursorrules": "agent_instructions", ".windsurfrules": "agent_instructions",
    "copilot-instructions.md": "agent_instructions", "devcontainer.json": "devcontainer", ".gitpod.yml": "gitpod",
    ".devcontainer.json": "devcontainer",
}
_BY_SUFFIX: Final = (
    (".py", "python_source"), (".js", "js_source"), (".mjs", "js_source"), (".cjs", "js_source"),
    (".ts", "js_source"), (".mts", "js_source"), (".cts", "js_source"), (".jsx", "js_source"), (".tsx", "js_source"),
    (".rb", "ruby_source"), (".sh", "shell_script"), (".bash", "shell_script"), (".cmake", "cmake"),
    (".rs", "rust_source"), (".go", "go_source"), (".gradle", "gradle"), (".gradle.kts", "gradle"),
    (".csproj", "msbuild"), (".fsproj", "msbuild"), (".vbproj", "msbuild"), (".targets", "msbuild"),
    (".props", "msbuild"), (".tf", "terraform"), (".Dockerfile", "dockerfile"), (".dockerfile", "dockerfile"),
    (".ipynb", "notebook"),
)
_TOOL_CONFIGS: Final = frozenset({".rspec", ".irbrc", ".pryrc", ".pnpmfile.cjs", ".pnpmfile.js", "tsconfig.json",
                                  "jsconfig.json", "deno.json", "deno.jsonc", ".rubocop.yml", ".pylintrc", "pylintrc",
                                  ".coveragerc", "mypy.ini", ".babelrc", ".babelrc.js", ".swcrc", ".mocharc.yml",
                                  ".mocharc.yaml", ".mocharc.json", ".mocharc.js", ".mocharc.cjs"})
_TOOL_CONFIG: Final = re.compile(r"(?:[\w-]+\.config|\.eslintrc|\.prettierrc|\.stylelintrc|\.lintstagedrc|\.mocharc|"
                                 r"\.releaserc|tsconfig\.[\w-]+)\.(?:js|cjs|mjs|ts|cts|mts|json|jsonc)|"
                                 r"\.(?:eslintrc|prettierrc|stylelintrc|lintstagedrc)(?:\.ya?ml)?")
_REQUIREMENTS: Final = re.compile(r"(?:requirements|constraints)[\w.-]*\.(?:txt|in)")
_HOOK_DIRS: Final = frozenset({".husky", ".githooks"})
_VENDORED: Final = frozenset({"node_modules", ".venv", "venv", "target", "dist", "build", "__pycache__"})
"""Directories whose files no command of the project runs as its own: a package.json or conftest.py in
node_modules or a build tree is data. (A .pth file in a virtualenv is the exception, matched first.)"""


_ENVS: Final = frozenset({".venv", "venv"})
_WRAPPERS: Final = frozenset({"gradlew", "mvnw"})
_INSTALLED: Final = frozenset({"node_modules", ".venv", "venv"})
_INSTALLED_SOURCES: Final = frozenset({"python_source", "js_source", "ruby_source", "shell_script"})


def planted_kind(path: str, root: str = "") -> PlantedKind | None:
    """The kind of file ``path`` (absolute, normalized) is, when a safe command runs its content later;
    ``root`` is the project's: only the directories below it say whether a file is vendored (a project kept
    in ``~/build/app`` is not a build tree, nor is a home kept under one)."""
    parts = path.split("/")
    inside = not root or root == "/" or path.startswith(root.rstrip("/") + "/")
    below = path[len(root.rstrip("/")) + 1:].split("/") if root and root != "/" and inside else parts
    if not inside:
        below = parts[-1:]  # outside the project (~/.bashrc, /etc/cron.d/x) no directory makes a file vendored
    name = parts[-1]
    if name.endswith(".pth"):
        return KINDS["pth"]
    if name in ("sitecustomize.py", "usercustomize.py"):  # wherever it lies (a venv's site-packages too)
        return KINDS["python_startup"]
    if len(parts) >= 3 and parts[-3] == ".git" and parts[-2] == "hooks" and not name.endswith(".sample"):
        return KINDS["git_hook"]
    if ".git" in below:
        return KINDS["git_config"] if parts[-2:] == [".git", "config"] else None
    if len(parts) >= 2 and parts[-2] in _HOOK_DIRS and not name.startswith("."):
        return KINDS["git_hook"]
    if len(parts) >= 3 and parts[-3] == ".husky" and parts[-2] == "_":
        return KINDS["git_hook"]
    if (not inside or not root) and parent_is_home_bin(parts) and name in _SHADOWED:
        return KINDS["path_shadow"]
    if len(parts) >= 3 and (parts[-2] == "bin" and parts[-3] in _ENVS
                            or parts[-2] == ".bin" and parts[-3] == "node_modules"):
        return SOURCE_KINDS["installed_tool"]  # `pytest` and `npx jest` run it next
    if name in _WRAPPERS or len(parts) >= 2 and parts[-2] == "bin" and "." not in name and ".git" not in parts:
        return SOURCE_KINDS["installed_tool"]  # ./gradlew, bin/rails, bin/phpunit: run as the project's own tools
    vendored = _VENDORED.intersection(below[:-1])
    if vendored:
        if vendored.isdisjoint(_INSTALLED):
            return None
        for suffix, source in _BY_SUFFIX:  # an installed package's code: the tests import it
            if name.endswith(suffix) and len(name) > len(suffix) and source in _INSTALLED_SOURCES:
                return _ALL[source]
        return None
    system = _system_kind(parts)
    if system is not None:
        return KINDS[system]
    if parts[-2:-1] == ["cron.d"] or name == "crontab" and parts[-2:-1] == ["etc"] or "crontabs" in parts[:-1] \
            or len(parts) >= 3 and parts[-3:-1] == ["spool", "cron"]:
        return KINDS["cron"]
    if name.endswith((".service", ".socket", ".path")) and "systemd" in parts or \
            name.endswith(".desktop") and parts[-2:-1] == ["autostart"] or name.endswith(".conf") and "systemd" in \
            parts and len(parts) >= 2 and parts[-2].endswith((".service.d", ".socket.d", ".timer.d", ".path.d")):
        return KINDS["service_unit"]  # (a drop-in's `ExecStartPre=` runs as the unit's own does)
    if name.endswith(".plist") and len(parts) >= 2 and parts[-2] in ("LaunchAgents", "LaunchDaemons"):
        return KINDS["launchd"]
    if len(parts) >= 3 and parts[-3] == ".github" and parts[-2] == "workflows" and name.endswith((".yml", ".yaml")):
        return KINDS["ci"]
    if len(parts) >= 2 and parts[-2] == ".vscode" and name == "tasks.json":
        return KINDS["vscode_tasks"]
    if len(parts) >= 2 and parts[-2] == ".vscode" and name == "settings.json":
        return _ALL["editor_settings"]
    if len(parts) >= 2 and parts[-2] == ".cargo" and name in ("config.toml", "config"):
        return KINDS["cargo_config"]
    if name == "config" and parts[-2:-1] == [".aws"]:
        return KINDS["aws_config"]
    if name == ".lfsconfig":
        return KINDS["git_config"]  # git-lfs reads it as git config (its url is where large files go)
    if name == "config" and parts[-2:-1] in ([".ssh"], [".git"]) or name == ".gitconfig" or parts[-3:] == [
            ".config", "git", "config"]:
        return KINDS["ssh_config" if parts[-2:-1] == [".ssh"] else "git_config"]
    if name in _TOOL_CONFIGS or _TOOL_CONFIG.fullmatch(name):
        return KINDS["tool_config"]
    kind = _BY_NAME.get(name)
    if kind is not None:
        return _ALL[kind]
    if name.endswith(".mk"):
        return KINDS["makefile"]
    if name.endswith(".rake"):
        return KINDS["ruby_build"]
    if _REQUIREMENTS.fullmatch(name) or len(parts) >= 2 and parts[-2] == "requirements" and name.endswith(".txt"):
        return _ALL["requirements"]
    for suffix, source in _BY_SUFFIX:
        if name.endswith(suffix) and len(name) > len(suffix):
            return _ALL[source]
    return None


_GIT_HOOK_NAMES: Final = frozenset({
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit", "prepare-commit-msg",
    "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge", "pre-push", "pre-receive", "update",
    "post-receive", "post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite",
    "sendemail-validate", "fsmonitor-watchman"})
_EDITOR_FILES: Final = frozenset({".vimrc", "_vimrc", ".gvimrc", ".exrc", ".nvimrc", ".nvim.lua"})
_SHADOWED: Final = frozenset({"sudo", "su", "doas", "ssh", "scp", "git", "ls", "cat", "sh", "bash", "zsh", "env",
                              "python", "python3", "pip", "pip3", "node", "npm", "npx", "docker", "kubectl", "curl",
                              "passwd", "gpg", "ssh-add", "make", "cd", "apt", "apt-get", "systemctl", "pkexec"})


def parent_is_home_bin(parts: list[str]) -> bool:
    """``~/.local/bin/x`` or ``~/bin/x`` (``/home/u/…``, ``/root/…``, ``/Users/u/…``): a directory a login puts
    first on PATH."""
    return len(parts) >= 4 and (parts[-3:-1] == [".local", "bin"] or parts[-2] == "bin" and (
        parts[1] in ("home", "Users") and len(parts) == 5 or parts[1] == "root" and len(parts) == 4))


_EMACS_FILES: Final = frozenset({".emacs", ".emacs.el"})
_SYSTEM_HOOK_DIRS: Final = frozenset({"cron.hourly", "cron.daily", "cron.weekly", "cron.monthly", "init.d"})


def _system_kind(parts: list[str]) -> str | None:
    """The kinds found by their place: the editor's and the download tools' start-up files, system start-up
    scripts, apt/PAM/sshd/polkit configuration, and hooks in any ``hooks`` directory (a ``core.hooksPath``
    or ``init.templateDir`` one)."""
    name, parent = parts[-1], parts[-2] if len(parts) >= 2 else ""
    if name in _EDITOR_FILES or name in ("init.vim", "init.lua") and parent == "nvim":
        return "editor_startup"
    if name == ".pdbrc":
        return "pdbrc"
    if name in (".terraformrc", "terraform.rc", ".gemrc", ".condarc", "registries.conf") or parts[-2:] == [
            ".m2", "settings.xml"] or "sources.list.d" in parts[:-1] or parts[-2:] == ["apt", "sources.list"]:
        return "install_sources"
    if name in (".gdbinit", ".psqlrc", ".sqliterc") or name == "gdbinit" and parent == "gdb":
        return "client_startup"
    if name in (".bash_logout", ".zlogout") or name.endswith(".fish") and "fish" in parts[:-1]:
        return "shell_startup"
    if name in (".curlrc", ".wgetrc", "curlrc", "wgetrc") and (name.startswith(".") or parent in ("etc", "curl")):
        return "fetchrc"
    if name in (".dir-locals.el", ".dir-locals-2.el"):
        return "dir_locals"
    if name in _EMACS_FILES or name in ("init.el", "early-init.el") and parent in (".emacs.d", "emacs"):
        return "emacs_startup"
    if name == ".tmux.conf" or name == "tmux.conf" and parent == "tmux":
        return "tmux_config"
    if name == ".pam_environment" or parent == "environment.d" and name.endswith(".conf"):
        return "session_env"
    if parts[-2:] in ([".claude", "settings.json"], [".claude", "settings.local.json"], [".cursor", "mcp.json"],
                      [".gemini", "settings.json"], [".vscode", "mcp.json"], ["User", "settings.json"]) \
            or name in (".mcp.json", "claude_desktop_config.json", "mcp_config.json"):
        return "agent_settings"
    if "etc" in parts[:-1]:
        below = parts[parts.index("etc") + 1:]
        if below == ["environment"]:
            return "session_env"
        if below == ["hosts"]:
            return "hosts_file"
        if below[:1] in (["profile.d"], ["update-motd.d"]) or below in (["bash.bashrc"], ["zsh", "zshrc"],
                                                                        ["rc.local"], ["profile"]):
            return "system_startup"
        rc_dir = below[0].startswith("rc") and below[0].endswith(".d")
        if len(below) == 2 and (below[0] in _SYSTEM_HOOK_DIRS or rc_dir) \
                or below[:2] == ["NetworkManager", "dispatcher.d"] or below[:1] == ["network"] and len(below) == 3 \
                and below[1].startswith("if-") or below[:1] == ["ppp"] and below[1:2] in (["ip-up.d"], ["ip-down.d"]):
            return "system_hook"
        if below[:1] == ["logrotate.d"] or below == ["logrotate.conf"]:
            return "logrotate"
        if below[:2] == ["udev", "rules.d"]:
            return "udev"
        if below[:2] == ["apt", "apt.conf.d"] or below == ["apt", "apt.conf"]:
            return "apt_hooks"
        if below[:1] == ["pam.d"]:
            return "pam"
        if below[:1] == ["ssh"] and (name == "sshd_config" or parent == "sshd_config.d"):
            return "sshd_config"
        if below[:1] == ["polkit-1"] and name.endswith(".rules"):
            return "polkit"
    if parent == "hooks" and name in _GIT_HOOK_NAMES:
        return "git_hook"
    return None


def run_dir(path: str) -> str:
    """The directory the content runs in: the work tree's top for hooks, CI and editor files (the parent
    of ``.git``, ``.husky``, ``.github`` …), else the file's own directory."""
    parts = path.split("/")
    for marker in (".git", ".husky", ".githooks", ".github", ".vscode", ".cargo"):
        if marker in parts[:-1]:
            return "/".join(parts[:parts.index(marker)]) or "/"
    return posixpath.dirname(path) or "/"


__all__ = ["KINDS", "PACKAGE_KINDS", "SOURCE_KINDS", "PlantedKind", "planted_kind", "run_dir"]
