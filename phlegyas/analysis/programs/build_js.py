"""Option specs of the JavaScript/TypeScript test runners, linters and formatters (jest, vitest, mocha,
eslint, prettier, tsc, biome, stylelint …) and of the other ecosystems' linters.

What matters in a value: a config, plugin, formatter, environment or setup module is code the tool
loads (``load_flags``: refused from outside the project), a report or cache is a file written
(``write_flags``), ``--fix``/``--write`` rewrite the operands (``inplace_flags``).
"""
from __future__ import annotations

from phlegyas.analysis.programs.spec import LINT_FORMAT, TEST_BUILD, E, Spec, ro, subs

JS_TOOLS: dict[str, Spec] = {}
"""The JavaScript build tools and the other linters, in table order."""


def _add(names: str, spec: Spec) -> None:
    for name in names.split():
        JS_TOOLS[name] = spec


_HELP = "-h --help --version"

_add("jest", Spec(
    category=TEST_BUILD, operands="none", does="runs the project's tests",
    flags=E(f"{_HELP} -v --watch --watchAll --ci --no-ci --coverage --collectCoverage --runInBand -i --bail -b "
            "--verbose --silent --noStackTrace --onlyChanged -o --lastCommit --passWithNoTests --detectOpenHandles "
            "--forceExit --listTests --clearCache --clearMocks --resetMocks --restoreMocks --json --useStderr "
            "--updateSnapshot -u --no-cache --cache --debug --showConfig --errorOnDeprecated --expand -e "
            "--logHeapUsage --no-coverage --notify --onlyFailures -f --runTestsByPath --skipFilter "
            "--testLocationInResults --no-watchman --watchman --detectLeaks --injectGlobals --randomize --colors "
            "--no-colors --all --findRelatedTests --no-watch --no-watchAll"),
    value_opts=E("-t --testNamePattern --testPathPattern --testPathPatterns --testPathIgnorePatterns --testMatch "
                 "--testRegex --maxWorkers -w --maxConcurrency --testTimeout --coverageProvider --coverageReporters "
                 "--collectCoverageFrom --coverageThreshold --selectProjects --shard --seed "
                 "--changedSince --watchPathIgnorePatterns --notifyMode --workerIdleMemoryLimit"),
    write_flags=E("--outputFile --coverageDirectory --cacheDirectory"),
    load_flags=E("-c --config --rootDir --roots --setupFiles --setupFilesAfterEnv --globalSetup --globalTeardown "
                 "--testRunner --testSequencer --preset --projects --resolver --snapshotResolver --filter "
                 "--testEnvironment --env --testResultsProcessor --runner --prettierPath --reporters"),
    examples=(("jest --ci --coverage", "safe"), ("jest --reporters=default --reporters=jest-junit", "safe"),
              ("npx jest --reporters=/tmp/rep.js", "notsafe"), ("npx jest -t 'adds numbers' src/a.test.js", "safe"),
              ("jest --config /tmp/jest.config.js", "notsafe"), ("jest --outputFile=/etc/x.json", "notsafe"))))
_add("vitest", Spec(
    category=TEST_BUILD, operands="none", does="runs the project's tests",
    flags=E(f"{_HELP} -v --run --watch -w --ui --open --coverage --coverage.enabled --coverage.all -u --update "
            "--silent --passWithNoTests --threads --isolate --no-isolate --globals --dom --allowOnly "
            "--dangerouslyIgnoreUnhandledErrors --changed --typecheck --no-watch --clearScreen --no-color --color "
            "--hideSkippedTests --no-file-parallelism --file-parallelism --sequence.shuffle --sequence.concurrent "
            "--logHeapUsage --standalone --expandSnapshotDiff --no-coverage --browser --clearCache"),
    value_opts=E("-t --testNamePattern --environment --pool --maxWorkers --minWorkers --testTimeout "
                 "--hookTimeout --shard --bail --retry --exclude --project --mode --coverage.provider "
                 "--coverage.reporter --coverage.include --coverage.exclude --browser.name --sequence.seed"),
    write_flags=E("--outputFile --coverage.reportsDirectory"),
    load_flags=E("-c --config -r --root --dir --workspace --mergeReports --globalSetup --reporter"),
    exec_flags=E("--inspect --inspect-brk --api"),
    examples=(("vitest run", "safe"), ("npx vitest run --coverage src", "safe"),
              ("vitest run -c /tmp/v.config.ts", "notsafe"), ("vitest --inspect-brk", "notsafe"))))
_add("mocha", Spec(
    category=TEST_BUILD, operands="read", does="runs the project's tests", handler="operands_load",
    flags=E(f"{_HELP} -V --watch -w --recursive --exit --no-exit --bail -b --parallel -p --full-trace "
            "--check-leaks --allow-uncaught --async-only -A --forbid-only --forbid-pending --inline-diffs --diff "
            "--no-diff --sort -S --color -c --colors -C --no-colors --no-color --dry-run --fail-zero "
            "--list-interfaces --list-reporters --delay --invert -i --no-timeouts"),
    value_opts=E("-g --grep -f --fgrep -t --timeout --timeouts -s --slow -O --reporter-option "
                 "--reporter-options -u --ui --ignore --exclude -j --jobs --extension --retries "
                 "--watch-files --watch-ignore"),
    load_flags=E("-r --require --config --package --file --loader --import --spec -R --reporter"),
    exec_flags=E("-n --node-option"),
    examples=(("mocha --recursive test", "safe"), ("mocha -r ts-node/register 'test/**/*.spec.ts'", "safe"),
              ("mocha -r /tmp/hook.js test", "notsafe"), ("mocha -R /tmp/rep.js test", "notsafe"),
              ("mocha -R spec test", "safe"), ("mocha /tmp/evil.spec.js", "notsafe"),
              ("mocha -n 'require=/tmp/x.js'", "executes notsafe"))))
_add("ava karma jasmine tap playwright cypress phpunit rspec behave ward nosetests nose2 trial pest", Spec(
    category=TEST_BUILD, operands="read", does="runs the project's tests", handler="operands_load",
    flags=E(f"{_HELP} -v --verbose -q --quiet -x --exitfirst --fail-fast --bail --watch --serial --tap --headed "
            "--debug --no-color --color --coverage --ci --single-run --list --stop-on-failure --testdox "
            "--no-coverage --update-snapshots -u --only-changed --last-failed --forbid-only --pass-with-no-tests "
            "--parallel --compact --dirty --profile --only-failures --next-failure --dry-run --backtrace "
            "--warnings --no-profile --force-color --no-color"),
    value_opts=E("-g --grep --grep-invert -t --tag --tags -j --jobs --workers --shard --project --processes "
                 "--timeout --retries --repeat-each --match -m --filter --group --exclude-group --seed --format "
                 "--browser -b --spec -s --env -e --max-failures --testsuite --order-by --concurrency --example "
                 "--example-matches --order"),
    write_flags=E("-o --out --output --log-junit --coverage-html --coverage-clover --output-dir --junit-xml"),
    load_flags=E("-c --config --configuration --bootstrap --require -r --config-file --global-setup --reporter"),
    examples=(("npx playwright test --project=chromium", "safe"), ("rspec spec/models", "safe"),
              ("rspec -r /tmp/x.rb spec", "notsafe"), ("npx playwright test --reporter=/tmp/r.js", "notsafe"),
              ("npx playwright test --reporter=line", "safe"),
              ("phpunit --bootstrap /tmp/b.php", "notsafe"), ("rspec --require /tmp/x.rb", "notsafe"),
              ("rspec /tmp/evil_spec.rb", "notsafe"), ("bundle exec rspec --only-failures", "safe"))))

_add("pint", Spec(category=LINT_FORMAT, operands="read", inplace=True, readonly_flags=E("--test"),
                  flags=E(f"{_HELP} --test -v --verbose --dirty --bail --repair --parallel --no-cache"),
                  value_opts=E("--preset --format --diff --output-format"), load_flags=E("--config"),
                  default_operand=".",
                  examples=(("./vendor/bin/pint --test", "readonly safe"), ("vendor/bin/pint src", "writes safe"),
                            ("pint --config /tmp/pint.json", "notsafe"))))
_add("phpstan", Spec(operands="none", flags=E(_HELP), subcommands=subs({}, (
    "analyse analyze", ro(category=LINT_FORMAT, operands="read", handler="operands_load",
                          flags=E(f"{_HELP} --no-progress --no-interaction -v -vv -vvv --debug --xdebug --ansi "
                                  "--no-ansi --allow-empty-baseline"),
                          value_opts=E("-l --level --memory-limit --error-format"),
                          load_flags=E("-c --configuration -a --autoload-file -b --generate-baseline"))),
    ("", ro(operands="none", flags=E(_HELP)))),
    examples=(("vendor/bin/phpstan analyse src", "readonly safe"), ("phpstan analyse -l 8 src tests", "readonly safe"),
              ("phpstan analyse -a /tmp/autoload.php src", "notsafe"))))

_add("esbuild", Spec(
    category=TEST_BUILD, operands="read", does="bundles the project's code",
    flags=E(f"{_HELP} --bundle --minify --minify-whitespace --minify-identifiers --minify-syntax --sourcemap "
            "--splitting --watch --keep-names --allow-overwrite --preserve-symlinks --analyze --sources-content "
            "--ignore-annotations --jsx-dev --packages"),
    value_opts=E("--platform --target --format --log-level --jsx --jsx-factory --jsx-fragment --tree-shaking "
                 "--legal-comments --charset --global-name --outbase --out-extension --entry-names --chunk-names "
                 "--asset-names --public-path --main-fields --conditions --resolve-extensions --log-limit --color "
                 "--drop --pure --mangle-props --line-limit --supported --servedir --serve"),
    write_flags=E("--outfile --outdir --metafile"), load_flags=E("--tsconfig --inject --banner --footer"),
    examples=(("npx esbuild src/index.js --bundle --platform=node --outfile=dist/index.cjs", "safe"),
              ("esbuild src/app.ts --bundle --minify --sourcemap --outdir=dist", "safe"),
              ("esbuild src/a.js --outfile=/etc/x.js", "notsafe"),
              ("esbuild src/a.js --inject=/tmp/evil.js --bundle", "notsafe"))))

# -- eslint, prettier, tsc -------------------------------------------------------------------------------
_add("eslint", Spec(
    category=LINT_FORMAT, operands="read",
    flags=E(f"{_HELP} -v --fix-dry-run --cache --no-eslintrc --no-config-lookup --no-inline-config "
            "--report-unused-disable-directives --no-error-on-unmatched-pattern --exit-on-fatal-error --no-ignore "
            "--quiet --debug --env-info --color --no-color --no-warn-ignored --pass-on-no-patterns --stats "
            "--stdin --no-cache --report-unused-inline-configs"),
    value_opts=E("--ext --ignore-pattern --parser-options --env --global --rule --plugin --max-warnings "
                 "--cache-strategy --stdin-filename --fix-type --report-unused-disable-directives-severity "
                 "--concurrency --flag"),
    read_flags=E("--ignore-path --print-config"), write_flags=E("-o --output-file --cache-location"),
    load_flags=E("-c --config --resolve-plugins-relative-to --rulesdir --parser -f --format"),
    inplace_flags=E("--fix"), mutate_flags=E("--init"),
    examples=(("eslint src", "readonly safe"), ("eslint --fix .", "writes safe"),
              ("eslint --ext .ts,.tsx --max-warnings=0 src", "safe"), ("eslint -f json -o build/lint.json src", "safe"),
              ("eslint -c /tmp/x.js src", "notsafe"), ("eslint --rulesdir /tmp/rules src", "notsafe"),
              ("eslint -o ~/.bashrc src", "notsafe"))))
_add("prettier", Spec(
    category=LINT_FORMAT, operands="read",
    flags=E(f"{_HELP} -v --check -c --list-different -l --no-config --no-editorconfig --ignore-unknown -u "
            "--no-error-on-unmatched-pattern --cache --no-semi --semi --single-quote --jsx-single-quote "
            "--no-bracket-spacing --bracket-same-line --use-tabs --require-pragma --insert-pragma "
            "--vue-indent-script-and-style --no-color --color --debug-check --support-info "
            "--experimental-ternaries --with-node-modules --single-attribute-per-line"),
    value_opts=E("--parser --print-width --tab-width --trailing-comma --arrow-parens --prose-wrap --end-of-line "
                 "--quote-props --html-whitespace-sensitivity --embedded-language-formatting --object-wrap "
                 "--cache-strategy --log-level --loglevel --stdin-filepath --config-precedence --cursor-offset "
                 "--range-start --range-end"),
    read_flags=E("--ignore-path --find-config-path --file-info"), write_flags=E("--cache-location"),
    load_flags=E("--config --plugin --plugin-search-dir"),
    inplace_flags=E("--write -w"), readonly_flags=E("--check -c --list-different -l"),
    examples=(("prettier --write src", "writes safe"), ("prettier --check .", "readonly safe"),
              ("prettier --single-quote --print-width 100 -w 'src/**/*.ts'", "writes safe"),
              ("prettier --plugin /tmp/p.js --write src", "notsafe"), ("prettier --write /etc/hosts", "notsafe"))))
_add("tsc vue-tsc", Spec(
    category=LINT_FORMAT, operands="read",
    flags=E(f"{_HELP} -v --noEmit --watch -w --build -b --pretty --listFiles --listEmittedFiles --traceResolution "
            "--diagnostics --extendedDiagnostics --showConfig --all --init --strict --noImplicitAny "
            "--strictNullChecks --skipLibCheck --declaration -d --sourceMap --incremental --composite --allowJs "
            "--checkJs --esModuleInterop --resolveJsonModule --isolatedModules --noUnusedLocals "
            "--noUnusedParameters --noImplicitReturns --noFallthroughCasesInSwitch --emitDeclarationOnly "
            "--removeComments --noEmitOnError --preserveWatchOutput --force -f --clean --verbose --dry "
            "--experimentalDecorators --emitDecoratorMetadata --allowSyntheticDefaultImports "
            "--forceConsistentCasingInFileNames --noErrorTruncation --downlevelIteration --importHelpers "
            "--explainFiles --listFilesOnly --strictPropertyInitialization --useDefineForClassFields "
            "--verbatimModuleSyntax --allowImportingTsExtensions --noUncheckedIndexedAccess "
            "--exactOptionalPropertyTypes --noPropertyAccessFromIndexSignature --noImplicitOverride "
            "--noImplicitThis --alwaysStrict --inlineSourceMap --inlineSources --declarationMap "
            "--stopBuildOnErrors --noLib --noResolve --preserveSymlinks --strictFunctionTypes "
            "--strictBindCallApply --noStrictGenericChecks --suppressImplicitAnyIndexErrors"),
    value_opts=E("-t --target -m --module --lib --jsx --moduleResolution --baseUrl --types --typeRoots --locale "
                 "--maxNodeModuleJsDepth --newLine --moduleDetection --jsxFactory --jsxFragmentFactory "
                 "--jsxImportSource --watchFile --watchDirectory --fallbackPolling --excludeDirectories "
                 "--excludeFiles --ignoreDeprecations --rootDir --rootDirs --paths"),
    write_flags=E("--outDir --outFile --out --declarationDir --tsBuildInfoFile --generateCpuProfile "
                  "--generateTrace"),
    load_flags=E("-p --project"),
    examples=(("tsc --noEmit", "safe"), ("tsc -p tsconfig.build.json --noEmit", "safe"), ("tsc -b --verbose", "safe"),
              ("tsc --outDir /etc/x", "notsafe"), ("tsc -p /tmp/tsconfig.json", "notsafe"))))

_add("biome", Spec(
    category=LINT_FORMAT, operands="read", default_operand=".",
    flags=E(f"{_HELP} --verbose --no-errors-on-unmatched --error-on-warnings "
            "--staged --changed --colors --use-server --skip-errors"),
    value_opts=E("--max-diagnostics --reporter --diagnostic-level --log-level --since --stdin-file-path "
                 "--only --skip --vcs-root"),
    load_flags=E("--config-path"), inplace_flags=E("--write --fix --apply --apply-unsafe --unsafe"),
    examples=(("biome check src", "safe"), ("biome check --write src", "writes safe"),
              ("biome lint --config-path /tmp src", "notsafe"))))
_add("stylelint standard xo markdownlint markdownlint-cli2 rubocop clang-tidy swiftlint ktlint detekt "
     "golangci-lint staticcheck", Spec(
         category=LINT_FORMAT, operands="read",
         flags=E(f"{_HELP} -v -q --quiet --verbose --cache --allow-empty-input --color --no-color --strict "
                 "--display-cop-names -D -E -S -P --parallel -L --list-target-files -F --fail-fast "
                 "--force-exclusion --reporter-json --relative -tests --fast --new --print-issued-lines --show-cops"),
         value_opts=E("-f --format --formatter --max-warnings --ignore-pattern --ignore -i --only --except "
                      "--fail-level "
                      "-checks -checks= --checks -header-filter --header-filter --timeout -j --concurrency "
                      "--enable --disable --disable-all --enable-all --out-format --output.text.path "
                      "--new-from-rev --build-tags -tags -go -explain"),
         whole=E("-checks -header-filter -fix -tests -go -tags -explain -p -quiet -extra-arg -load -config-file"),
         read_flags=E("--ignore-path"), write_flags=E("-o --out --output --output-file -export-fixes --export-fixes"),
         load_flags=E("-c --config --config-file -config-file -r --require --custom-syntax -p -load"),
         exec_flags=E("--plugin-path --rulesdir -extra-arg --extra-arg"),
         inplace_flags=E("--fix -fix --fix-errors -fix-errors -a -A --autocorrect --autocorrect-all --auto-correct "
                         "--write -w "
                         "--apply --format-only"),
         examples=(("golangci-lint run ./...", "safe"), ("rubocop -a app", "writes safe"),
                   ("staticcheck ./...", "safe"), ("stylelint -c /tmp/x.js 'src/**/*.css'", "notsafe"),
                   ("clang-tidy -load /tmp/x.so a.c", "notsafe"))))
_add("cppcheck", Spec(
    category=LINT_FORMAT, operands="read",
    flags=E(f"{_HELP} -q --quiet -v --verbose --inconclusive --inline-suppr --check-config --force"),
    value_opts=E("--enable --std --suppress -j --language --platform --error-exitcode --template -D -U"),
    read_flags=E("-I --suppressions-list --includes-file --file-list"), write_flags=E("--output-file"),
    examples=(("cppcheck --enable=warning,style --quiet src/", "safe"),
              ("cppcheck --output-file=/etc/x src", "notsafe"))))
_add("shellcheck", Spec(
    category=LINT_FORMAT, operands="read",
    flags=E(f"{_HELP} -V -x --external-sources -a --check-sourced --norc --list-optional --color -C"),
    value_opts=E("-s --shell -S --severity -e --exclude -i --include -f --format -o --enable -W --wiki-link-count"),
    read_flags=E("-P --source-path --rcfile"),
    examples=(("shellcheck scripts/*.sh", "safe"), ("shellcheck -x -S warning -f gcc x.sh", "safe"))))
_add("hadolint yamllint jsonlint htmlhint jshint tflint checkov semgrep codespell cspell actionlint commitlint "
     "license-checker pip-audit safety deptry", Spec(
         category=LINT_FORMAT, operands="read",
         flags=E(f"{_HELP} -V -v --verbose -q --quiet -s --strict --no-color --color --no-warnings --count --summary "
                 "--json --compact --no-progress --offline --skip-download --error --check-filenames -r "
                 "--recursive --production --development --no-summary --quiet-mode"),
         value_opts=E("-f --format -d --ignore --skip -S -L --ignore-words-list --locale --language --framework "
                      "--check --severity --failure-threshold --exclude -x --extend-exclude --min --max --rule "
                      "-t --threshold --level --trusted-registry -D --dictionary --context -A --after-context "
                      "-B --before-context"),
         read_flags=E("-I --ignore-words"), write_flags=E("-o --output --output-file"),
         load_flags=E("-c --config --config-file --config-data --rcfile"),
         inplace_flags=E("-w --write-changes --fix"),
         examples=(("hadolint Dockerfile", "safe"), ("yamllint -s .github", "safe"),
                   ("codespell -w src", "writes safe"),
                   ("yamllint -c /tmp/y.yaml .", "notsafe"))))

# -- bundlers and frameworks' dev servers: the project's build at the trust of its tests --------------------
_VITE_BUILD = Spec(
    category=TEST_BUILD, operands="read", does="builds the project or serves it for development",
    flags=E(f"{_HELP} --open --strictPort --force --cors --emptyOutDir --no-emptyOutDir --sourcemap --minify "
            "--watch -w --clearScreen --debug -d --ssr --manifest --ssrManifest --host --profile"),
    value_opts=E("--mode -m --base --port --logLevel -l --filter -f --target --assetsDir --assetsInlineLimit "
                 "--outDir"),
    load_flags=E("-c --config --configLoader"),
    write_flags=E("--outDir"))
_add("vite", Spec(
    category=TEST_BUILD, operands="read", does="serves the project for development",
    flags=_VITE_BUILD.flags, value_opts=_VITE_BUILD.value_opts, load_flags=_VITE_BUILD.load_flags,
    subcommands={"build": _VITE_BUILD, "dev": _VITE_BUILD, "serve": _VITE_BUILD, "preview": _VITE_BUILD,
                 "optimize": _VITE_BUILD, "": _VITE_BUILD, "*": _VITE_BUILD},
    examples=(("vite build", "safe"), ("npx vite build --mode staging", "safe"), ("vite --port 5174", "safe"),
              ("vite build --config /tmp/x.mjs", "notsafe"), ("vite build --frobnicate", "notsafe"))))
_NEXT = Spec(
    category=TEST_BUILD, operands="none", does="builds the project or serves it for development",
    flags=E(f"{_HELP} --turbo --turbopack --profile --debug -d --no-lint --no-mangling --experimental-https "
            "--experimental-debug-memory-usage"),
    value_opts=E("-p --port -H --hostname --keepAliveTimeout"))
_add("next", Spec(
    category=TEST_BUILD, operands="none", flags=E(_HELP + " -v"),
    subcommands={"build": _NEXT, "dev": _NEXT, "start": _NEXT, "info": _NEXT,
                 "lint": Spec(category=LINT_FORMAT, operands="none", flags=E(f"{_HELP} --strict --quiet --no-cache"),
                              value_opts=E("-d --dir --file --max-warnings"), inplace_flags=E("--fix")),
                 "": _NEXT},
    examples=(("next build", "safe"), ("npx next dev -p 3001", "safe"), ("next lint --fix", "safe"),
              ("next export", "notsafe"), ("next build --frobnicate", "notsafe"))))
_WEBPACK = Spec(
    category=TEST_BUILD, operands="none", does="builds the project",
    flags=E(f"{_HELP} -w --watch --progress --no-watch --color --no-color --fail-on-warnings --analyze "
            "--disable-interpret --no-stats --json -j --hot --open --no-open"),
    value_opts=E("--mode --env --stats --devtool -d --entry --name --target -t --port --host --merge -m "
                 "--node-env --define-process-env-node-env"),
    load_flags=E("-c --config --config-name"),
    write_flags=E("-o --output-path"))
_add("webpack webpack-cli", Spec(
    category=TEST_BUILD, operands="none", does="builds the project", flags=_WEBPACK.flags,
    value_opts=_WEBPACK.value_opts, load_flags=_WEBPACK.load_flags, write_flags=_WEBPACK.write_flags,
    subcommands={"build": _WEBPACK, "bundle": _WEBPACK, "b": _WEBPACK, "watch": _WEBPACK, "serve": _WEBPACK,
                 "s": _WEBPACK, "": _WEBPACK},
    examples=(("webpack --mode production", "safe"), ("npx webpack serve", "safe"),
              ("webpack -c /tmp/evil.config.js", "notsafe"))))

# -- documentation and dependency checks -------------------------------------------------------------------
_add("typedoc", Spec(
    category=TEST_BUILD, operands="read", does="builds the project's API documentation",
    flags=E(f"{_HELP} --excludePrivate --excludeProtected --excludeExternals --excludeNotDocumented "
            "--includeVersion --disableSources --cleanOutputDir --treatWarningsAsErrors --skipErrorChecking"),
    value_opts=E("--entryPointStrategy --name --readme --theme --logLevel --sort --exclude --entryPoints"),
    write_flags=E("--out -o --json"), load_flags=E("--options --tsconfig --plugin"),
    examples=(("typedoc --out docs/api src/index.ts", "safe"), ("typedoc --plugin /tmp/p.js src", "notsafe"),
              ("typedoc --out /etc/x src", "notsafe"))))
_add("depcheck", Spec(
    category=LINT_FORMAT, operands="read", does="lists unused and missing dependencies",
    flags=E(f"{_HELP} --json --oneline --skip-missing --ignore-bin-package"),
    value_opts=E("--ignores --ignore-patterns --ignore-dirs --parsers --detectors --specials"),
    load_flags=E("--config"),
    examples=(("depcheck --ignores='@types/*'", "safe"), ("depcheck --config /tmp/x.json", "notsafe"))))
_add("storybook", Spec(
    category=TEST_BUILD, operands="none", does="builds or serves the project's component stories",
    flags=E(f"{_HELP} --quiet --ci --no-open --smoke-test --webpack-stats-json --test --debug-webpack --no-manager-cache"),
    value_opts=E("-p --port --host --loglevel"), write_flags=E("-o --output-dir"), load_flags=E("-c --config-dir"),
    examples=(("storybook build --quiet --output-dir storybook-static", "safe"),
              ("storybook build -c /tmp/sb", "notsafe"))))
