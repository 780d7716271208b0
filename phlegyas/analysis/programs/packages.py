"""Language package managers and project runners: npm, yarn, pnpm, bun, npx; pip, pipx, uv, poetry & co, conda.

``SAFE_SCRIPT_WORDS`` are the script names ``npm run``/``yarn``/``pnpm``/``make`` may run safely.
"""
from __future__ import annotations

from phlegyas.analysis.programs.spec import (
    EMPTY,
    NAVIGATION,
    NET_READ,
    PKG_INSTALL,
    PROJECT_EDIT,
    TEST_BUILD,
    E,
    Spec,
    add,
    mut,
    ro,
    subs,
)

SAFE_SCRIPT_WORDS = frozenset({
    "test", "tests", "build", "lint", "format", "fmt", "check", "typecheck", "type-check", "types", "tsc",
    "compile", "coverage", "cov", "e2e", "unit", "integration", "spec", "validate", "verify", "prettier",
    "eslint", "stylelint", "pretest", "posttest", "prebuild", "postbuild", "clean-build", "lint-fix",
})
"""Script names (first segment before ``:``/``-``) that ``npm run``/``yarn``/``pnpm``/``make`` may run safely."""

PACKAGE_TOOLS: dict[str, Spec] = {}
"""Language package managers, in the order of the program table."""


def _add(names: str, spec: Spec) -> None:
    add(PACKAGE_TOOLS, names, spec)


_NPM_VALUES = E("-w --workspace --prefix -C --registry --tag --cache --userconfig --loglevel --omit --include")
_install = Spec(category=PKG_INSTALL, operands="none", network=True, does="installs packages",
                value_opts=_NPM_VALUES, readonly_flags=EMPTY, mutate_flags=E("-g --global --location"))
_npm_read = ro(operands="none", value_opts=_NPM_VALUES | E("--depth --json"))
_npm_test = Spec(category=TEST_BUILD, operands="none", value_opts=_NPM_VALUES, does="runs project scripts")
_npm_run = Spec(category=TEST_BUILD, operands="none", value_opts=_NPM_VALUES, handler="npm_run",
                does="runs a project script")
NPM = Spec(
    operands="none", value_opts=_NPM_VALUES,
    subcommands=subs({}, ("install i add ci install-ci-test it isntall in ins inst insta instal update up upgrade "
                          "uninstall remove rm un unlink r dedupe prune rebuild", _install),
                     ("test t tst install-test", _npm_test), ("run run-script rum urn", _npm_run),
                     ("ls list ll la view v info show outdated help config-get why explain search fund doctor "
                      "root bin prefix -v --version version-show pkg-get query audit-signatures", _npm_read),
                     ("audit", ro(category=NET_READ, operands="none", network=True, handler="npm_audit")),
                     ("config c", Spec(operands="none", handler="pip_config", does="changes npm configuration")),
                     ("cache", Spec(operands="none", handler="npm_cache", does="changes the npm cache")),
                     ("bugs docs home repo diff find-dupes help-search explore-ls completion pkg-ls sbom",
                      ro(operands="none", value_opts=_NPM_VALUES | E("--diff"))),
                     ("init create", Spec(category=PROJECT_EDIT, operands="none", does="creates package.json",
                                          handler="npm_init")),
                     ("exec x", Spec(operands="none", handler="npx", does="runs a package")),
                     ("start stop restart", Spec(operands="none", does="starts the project")),
                     ("publish unpublish deprecate dist-tag owner access adduser login logout token team org "
                      "hook star unstar version pack link set-script set profile edit explore",
                      mut("changes packages or the registry", operands="none", network=True)),
                     ("", ro(operands="none")), ("*", mut("runs an npm command", operands="none"))),
    examples=(("npm test", "safe"), ("npm run build", "safe"), ("npm run lint:fix", "safe"), ("npm ci", "safe"),
              ("npm install lodash", "safe network"), ("npm install -g evil", "notsafe"),
              ("npm run deploy", "notsafe"), ("npm ls", "readonly safe"), ("npm publish", "mutates notsafe"),
              ("npm exec -- rimraf /", "notsafe"), ("npm audit fix", "notsafe")))
_add("npm", NPM)
_add("yarn", Spec(operands="none", handler="yarn_script", value_opts=E("--cwd --cache-folder --modules-folder"),
                  subcommands=subs({}, ("install add remove upgrade up import", _install),
                                   ("", _install), ("test", _npm_test), ("run", _npm_run),
                                   ("list info why outdated licenses config-get bin --version -v", _npm_read),
                                   ("dlx exec node", Spec(operands="none", handler="npx", does="runs a package")),
                                   ("global publish login logout link unlink version pack init create set config "
                                    "policies plugin tag team owner", mut("changes packages", operands="none")),
                                   ("workspace workspaces", Spec(operands="none", handler="yarn_workspace"))),
                  examples=(("yarn", "safe"), ("yarn test", "safe"), ("yarn build", "safe"),
                            ("yarn add react", "safe"), ("yarn deploy", "notsafe"), ("yarn dlx cowsay", "notsafe"),
                            ("yarn global add x", "mutates notsafe"))))
_add("pnpm", Spec(operands="none", handler="yarn_script", value_opts=E("-C --dir -F --filter -w --workspace-root"),
                  subcommands=subs({}, ("install i add remove rm uninstall up update upgrade prune fetch import rebuild",
                                        _install), ("", _install),
                                   ("test t", _npm_test), ("run", _npm_run),
                                   ("list ls why outdated audit licenses root bin -v --version", _npm_read),
                                   ("exec dlx x create", Spec(operands="none", handler="npx", does="runs a package")),
                                   ("publish link unlink pack init setup env config store server",
                                    mut("changes packages", operands="none"))),
                  examples=(("pnpm install", "safe"), ("pnpm test", "safe"), ("pnpm run build", "safe"),
                            ("pnpm dlx foo", "notsafe"))))
_add("bun", Spec(operands="none", handler="yarn_script",
                 subcommands=subs({}, ("install i add remove rm update", _install), ("test", _npm_test),
                                  ("run", _npm_run), ("build", Spec(category=TEST_BUILD, operands="none",
                                                                   value_opts=E("--outdir --outfile --target"))),
                                  ("x exec create", Spec(operands="none", handler="npx", does="runs a package")),
                                  ("-e --eval -p --print", Spec(handler="interp_here", operands="none")),
                                  ("publish link unlink pm upgrade init", mut("changes packages", operands="none"))),
                 examples=(("bun install", "safe"), ("bun test", "safe"), ("bun x cowsay", "notsafe"))))
_add("npx pnpx bunx", Spec(operands="none", handler="npx", does="runs a package",
                           examples=(("npx tsc --noEmit", "safe"), ("npx eslint src", "safe"),
                                     ("npx some-random-pkg", "notsafe"), ("npx jest", "safe"))))

_PIP_VALUES = E("-r --requirement -c --constraint -e --editable -i --index-url --extra-index-url -f --find-links "
                "--target -t --prefix --root --python-version --platform --implementation --abi --src "
                "--upgrade-strategy --progress-bar --log --cache-dir --proxy --retries --timeout "
                "--trusted-host --cert --client-cert --python --config-settings -C --report")
PIP = Spec(operands="none", value_opts=_PIP_VALUES,
           subcommands=subs({}, ("install download wheel uninstall", Spec(
               category=PKG_INSTALL, operands="none", network=True, does="installs packages", value_opts=_PIP_VALUES,
               write_flags=E("--target -t --prefix --root -d --dest --wheel-dir -w --log --report"))),
               ("list show freeze check help search index inspect debug hash config-list --version -V cache-list",
                ro(operands="none", value_opts=_PIP_VALUES)),
               ("config cache", Spec(operands="none", handler="pip_config", does="changes pip configuration")),
               ("", ro(operands="none"))),
           examples=(("pip install -r requirements.txt", "safe network"), ("pip install -e .", "safe"),
                     ("pip list", "readonly safe"), ("pip install --target /usr/lib/x y", "notsafe"),
                     ("pip config set global.index-url http://x", "mutates notsafe")))
_add("pip", PIP)
_add("pipx", Spec(operands="none", subcommands=subs({}, ("run", Spec(operands="none", handler="npx", does="runs a package")),
                                                   ("list environment --version", ro(operands="none")),
                                                   ("*", mut("installs applications", operands="none", network=True))),
                  examples=(("pipx list", "readonly safe"), ("pipx install black", "notsafe"),)))
UV = Spec(operands="none", value_opts=E("--directory --project --python -p --config-file --cache-dir --color"),
          subcommands=subs({}, ("pip", PIP), ("sync add remove lock", Spec(
              category=PKG_INSTALL, operands="none", network=True, does="installs packages",
              value_opts=E("--group --extra --package --index --default-index --index-url --extra-index-url "
                           "--dev --optional -r --requirements --python -p --directory --project"))),
              ("venv", Spec(category=PROJECT_EDIT, operands="write", value_opts=E("-p --python --prompt --seed"),
                            default_operand=".venv")),
              ("run", Spec(operands="none", handler="uv_run", does="runs a command in the project environment")),
              ("tool", Spec(operands="none", handler="uv_tool", does="runs or installs tools")),
              ("tree version help --version self-version", ro(operands="none")),
              ("python", Spec(operands="none", handler="uv_python", does="installs Python versions")),
              ("build init", Spec(category=TEST_BUILD, operands="none", value_opts=E("-o --out-dir --package"))),
              ("publish cache self", mut("changes packages or caches", operands="none", network=True)),
              ("", ro(operands="none"))),
          examples=(("uv sync", "safe network"), ("uv pip install -e .", "safe"), ("uv run pytest -q", "safe"),
                    ("uv run python evil.py", "notsafe"), ("uv venv", "safe writes"), ("uv publish", "notsafe")))
_add("uv", UV)
_add("uvx", Spec(operands="none", handler="npx", does="runs a tool", examples=(("uvx ruff check .", "safe"),
                                                                             ("uvx cowsay", "notsafe"))))
_add("poetry pdm hatch rye pipenv", Spec(
    operands="none", value_opts=E("-C --directory -P --project --group -E --extras --with --without --only"),
    subcommands=subs({}, ("install add remove update lock sync", Spec(category=PKG_INSTALL, operands="none",
                                                                      network=True, does="installs packages",
                                                                      value_opts=E("--group -G -E --extras --with "
                                                                                   "--without --only"))),
                     ("build", Spec(category=TEST_BUILD, operands="none")),
                     ("check show version env info list graph requirements --version config-list", ro(operands="none")),
                     ("run", Spec(operands="none", handler="uv_run", does="runs a command in the project environment")),
                     ("shell", Spec(operands="none", handler="editor", does="starts a shell")),
                     ("publish config self init new", mut("changes packages or settings", operands="none")),
                     ("", ro(operands="none"))),
    examples=(("poetry install", "safe"), ("poetry run pytest", "safe"), ("poetry publish", "notsafe"),
              ("pipenv install", "safe"))))
_add("conda mamba micromamba", Spec(operands="none", subcommands=subs(
    {}, ("list info search env-list --version", ro(operands="none")),
    ("activate", Spec(readonly=True, category=NAVIGATION, operands="none")),
    ("deactivate", Spec(readonly=True, category=NAVIGATION, operands="none")),
    ("run", Spec(operands="none", handler="uv_run", does="runs a command in an environment")),
    ("*", mut("changes environments", operands="none", network=True))),
    examples=(("conda list", "readonly safe"), ("conda install numpy", "notsafe"))))
