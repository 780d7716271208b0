"""Build and test tools: test runners, linters, formatters, type checkers, coverage, cargo, go, dotnet,
make and other build-goal runners, cmake, compilers and linkers.

``SAFE_GOALS`` are the make/mvn/gradle goals that build, test or check.
"""
from __future__ import annotations

from phlegyas.analysis.programs.spec import (
    LINT_FORMAT,
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

BUILD_TOOLS: dict[str, Spec] = {}
"""Build and test tools, in the order of the program table."""


def _add(names: str, spec: Spec) -> None:
    add(BUILD_TOOLS, names, spec)


_TEST_RUNNER = Spec(category=TEST_BUILD, operands="read", does="runs the project's tests",
                    value_opts=E("-k -m -p -c --rootdir --basetemp --junitxml --junit-xml -n --numprocesses "
                                 "--maxfail --tb --cov --cov-report --cov-config --durations --log-level -o "
                                 "--override-ini --deselect --ignore --ignore-glob --confcutdir --timeout "
                                 "-t --testNamePattern --config --reporter --grep -g --project --shard -j --jobs "
                                 "--workers -e --environment -r --require"),
                    default_operand=None)
_add("pytest py.test jest vitest mocha ava karma jasmine tap playwright cypress tox nox phpunit rspec "
     "behave ward nosetests nose2 trial hypothesis-run pest",
     Spec(category=TEST_BUILD, operands="read", does="runs the project's tests", value_opts=_TEST_RUNNER.value_opts,
          delete_flags=E("--basetemp"),  # pytest empties it first (also reached through PYTEST_ADDOPTS)
          examples=(("pytest -q tests/test_a.py", "safe"), ("pytest -k smoke -x", "safe"),
                    ("npx vitest run", "safe"), ("tox -e py311", "safe"))))
_FMT_VALUES = E("-l --line-length --config --target-version -t --exclude --extend-exclude --include "
                "--settings-path --profile --select --ignore --extend-select --extend-ignore --format "
                "--output-format --max-line-length --rcfile --disable --enable -j --jobs --ext --cache-location "
                "--ignore-path --parser --plugin --max-warnings --rule --env --global --resolve-plugins-relative-to "
                "--stdin-filename --out-dir --outDir --outFile --project -p --rootDir --target --module --lib "
                "--jsx -c --show-error-codes --python-version --cache-dir --severity -s --shell --indent "
                "-S --style --error-format --exit-zero-even-if-changed --statistics-file --fix-only-rules")
_add("ruff", Spec(category=LINT_FORMAT, operands="none", value_opts=_FMT_VALUES,
                  subcommands=subs({}, ("check", Spec(category=LINT_FORMAT, operands="read", value_opts=_FMT_VALUES,
                                                      inplace_flags=E("--fix --unsafe-fixes --add-noqa"),
                                                      write_flags=E("-o --output-file"), default_operand=".")),
                                   ("format", Spec(category=LINT_FORMAT, operands="read", value_opts=_FMT_VALUES,
                                                   inplace=True, readonly_flags=E("--check --diff"),
                                                   default_operand=".")),
                                   ("version rule config linter --version help analyze", ro(operands="none")),
                                   ("*", Spec(category=LINT_FORMAT, operands="read", value_opts=_FMT_VALUES,
                                              inplace_flags=E("--fix"), default_operand="."))),
                  examples=(("ruff check .", "readonly safe"), ("ruff check --fix src", "writes safe"),
                            ("ruff format --check .", "readonly safe"), ("ruff format", "writes safe"))))
_add("black isort rustfmt stylua",
     Spec(category=LINT_FORMAT, operands="read", value_opts=_FMT_VALUES, inplace=True,
          readonly_flags=E("--check --diff -d --check-only -c --dry-run --version"),
          examples=(("black --check .", "readonly safe"), ("black src", "writes safe"),
                    ("black /etc/x.py", "notsafe"), ("isort --check-only .", "readonly safe"))))
_add("autopep8 yapf autoflake pyupgrade docformatter shfmt gofmt goimports clang-format dprint",
     Spec(category=LINT_FORMAT, operands="read", value_opts=_FMT_VALUES,
          inplace_flags=E("-i --in-place -w --write --overwrite"),
          readonly_flags=E("--check --diff -d -l --list --list-files --dry-run --version"),
          examples=(("gofmt -l .", "readonly safe"), ("gofmt -w main.go", "writes safe"),
                    ("clang-format -i a.c", "writes safe"), ("shfmt -d x.sh", "readonly safe"))))
_add("prettier eslint stylelint biome standard xo markdownlint markdownlint-cli2 rubocop golangci-lint "
     "clang-tidy swiftlint ktlint detekt",
     Spec(category=LINT_FORMAT, operands="read", value_opts=_FMT_VALUES,
          inplace_flags=E("--write -w --fix --apply --apply-unsafe -a -A --autocorrect --autocorrect-all "
                          "--fix-errors"),
          write_flags=E("-o --output-file --output"),
          exec_flags=E("--rulesdir --plugin-path"),
          examples=(("eslint src", "readonly safe"), ("prettier --write src", "writes safe"),
                    ("prettier --check .", "readonly safe"), ("eslint --fix .", "writes safe"))))
_add("mypy pyright pylint flake8 pycodestyle pydocstyle pyflakes bandit vulture radon mccabe tsc vue-tsc "
     "shellcheck hadolint yamllint jsonlint htmlhint jshint tflint checkov semgrep codespell cspell "
     "actionlint commitlint license-checker pip-audit safety deptry",
     Spec(category=LINT_FORMAT, operands="read", value_opts=_FMT_VALUES,
          write_flags=E("-o --output --outFile --outDir --out-dir --junit-xml --html-report --txt-report "
                        "--linecount-report --xml-report --cobertura-xml-report"),
          inplace_flags=E("-w --write-changes"),
          examples=(("mypy src", "safe"), ("tsc --noEmit", "safe"), ("flake8 .", "safe"),
                    ("shellcheck scripts/*.sh", "safe"), ("tsc --outDir /etc/x", "notsafe"))))
_add("coverage", Spec(operands="none", subcommands=subs({}, (
    "report html xml json lcov combine erase debug annotate", Spec(category=TEST_BUILD, operands="none",
                                                                   value_opts=E("-d --directory -o --data-file "
                                                                                "--rcfile --include --omit"))),
    ("run", Spec(operands="none", handler="coverage_run", does="runs a program under coverage",
                 value_opts=E("--rcfile --source --include --omit --data-file --concurrency --context"))),
    ("", ro(operands="none"))),
    examples=(("coverage report -m", "safe"), ("coverage run -m pytest", "safe"), ("coverage run evil.py", "notsafe"))))

_CARGO_VALUES = E("-p --package -j --jobs --target --target-dir --features -F --manifest-path --profile "
                  "--bin --example --test --bench --message-format --color -Z --config --exclude --lib-only")
_cargo_build = Spec(category=TEST_BUILD, operands="none", value_opts=_CARGO_VALUES, does="builds the project")
_add("cargo", Spec(operands="none", value_opts=E("--config -Z --color --manifest-path -C"),
                   subcommands=subs({}, ("build b check c test t bench doc clippy rustc rustdoc fix", _cargo_build),
                                    ("fmt", Spec(category=LINT_FORMAT, operands="none", value_opts=_CARGO_VALUES,
                                                 does="formats the project")),
                                    ("tree metadata search version locate-project pkgid verify-project read-manifest "
                                     "help --version -V --list", ro(operands="none", value_opts=_CARGO_VALUES)),
                                    ("add remove update generate-lockfile fetch vendor", Spec(
                                        category=PKG_INSTALL, operands="none", network=True, does="changes dependencies",
                                        value_opts=_CARGO_VALUES)),
                                    ("new init", Spec(category=PROJECT_EDIT, operands="write",
                                                      value_opts=E("--name --vcs --edition --registry"))),
                                    ("run r", Spec(operands="none", value_opts=_CARGO_VALUES,
                                                   does="runs the project's program")),
                                    ("", ro(operands="none")),
                                    ("*", mut("runs a cargo command", operands="none"))),
                   examples=(("cargo build --release", "safe"), ("cargo test", "safe"), ("cargo clippy -- -D warnings", "safe"),
                             ("cargo fmt --check", "safe"), ("cargo run", "notsafe"), ("cargo install x", "notsafe"),
                             ("cargo publish", "notsafe"))))
_add("rustc", Spec(category=TEST_BUILD, operands="read", value_opts=E("-o --out-dir --crate-type --crate-name "
                                                                      "--edition -C --codegen -L -l --cfg --target "
                                                                      "--emit -A -W -D -F --cap-lints --explain"),
                   write_flags=E("-o --out-dir"), examples=(("rustc main.rs", "safe"),)))
_add("go", Spec(operands="none", subcommands=subs({}, (
    "build test vet", Spec(category=TEST_BUILD, operands="none", does="builds the project",
                           value_opts=E("-o -run -bench -count -timeout -tags -p -ldflags -gcflags -mod -coverprofile "
                                        "-cpuprofile -memprofile -covermode -parallel -exec -toolexec -C -cover"),
                           whole=E("-o -run -bench -count -timeout -tags -p -ldflags -gcflags -mod -coverprofile "
                                   "-cpuprofile -memprofile -covermode -parallel -exec -toolexec -C -v -race -short "
                                   "-failfast -json -cover -x -n -a -trimpath"),
                           exec_flags=E("-exec -toolexec"), write_flags=E("-o"))),
    ("fmt", Spec(category=LINT_FORMAT, operands="none")),
    ("list version env doc help", ro(operands="none", value_opts=E("-f -json -m"), mutate_flags=E("-w -u"))),
    ("mod get work", Spec(category=PKG_INSTALL, operands="none", network=True, does="changes dependencies",
                          handler="go_mod")),
    ("run generate install tool clean bug telemetry", Spec(operands="none", does="runs or installs programs")),
    ("", ro(operands="none"))),
    examples=(("go test ./...", "safe"), ("go build -o bin/app ./cmd/app", "safe"), ("go vet ./...", "safe"),
              ("go mod tidy", "safe"), ("go run main.go", "notsafe"), ("go generate ./...", "notsafe"),
              ("go test -exec 'sh -c id' ./...", "executes notsafe"))))
_add("dotnet", Spec(operands="none", subcommands=subs({}, (
    "build test restore format publish pack clean msbuild", Spec(category=TEST_BUILD, operands="none",
                                                                 value_opts=E("-c --configuration -f --framework "
                                                                              "-r --runtime -o --output -v "
                                                                              "--verbosity --filter -l --logger"))),
    ("--info --version --list-sdks --list-runtimes help sln list", ro(operands="none")),
    ("add remove", Spec(category=PKG_INSTALL, operands="none", network=True, does="changes dependencies")),
    ("run watch tool new nuget workload dev-certs exec", Spec(operands="none", does="runs or installs programs")),
    ("", ro(operands="none"))),
    examples=(("dotnet build", "safe"), ("dotnet test", "safe"), ("dotnet run", "notsafe"))))
SAFE_GOALS = frozenset({
    "", "all", "build", "test", "tests", "check", "lint", "fmt", "format", "compile", "typecheck", "vet",
    "verify", "validate", "package", "assemble", "test-compile", "compilejava", "compiletestjava",
    "jar", "javadoc", "dependencies", "tasks", "projects", "properties", "help", "clean-build", "checkstyle",
    "spotlesscheck", "spotlessapply", "ktlintcheck", "ktlintformat", "detekt", "pmd", "spotbugs", "jacocotestreport",
    "dependency:tree", "dependency:resolve", "dependency:go-offline", "versions:display-dependency-updates",
    "help:effective-pom", "surefire-report:report", "site", "process-resources", "generate-sources",
    "coverage", "docs", "doc", "html", "dist", "wheel", "sdist", "release-build", "debug",
})
"""Goals and targets of make/mvn/gradle/ant/sbt that build, test or check (not deploy or install system-wide)."""
_add("make gmake mvn mvnw gradle gradlew ant sbt ninja rake just task mage bazel bazelisk buck pants",
     Spec(category=TEST_BUILD, operands="none", handler="build_goals", does="runs build targets",
          value_opts=E("-C --directory -f --file --makefile -j --jobs -l --load-average -o --old-file -W --what-if "
                       "-I --include-dir -P -pl --projects -D -s --settings -T --threads -q -b --builder "
                       "--project-dir -p --build-file --init-script -I -x --exclude-task --max-workers "
                       "-l --logger -t -f --justfile -d --working-directory --output_base --config"),
          examples=(("make", "safe"), ("make test", "safe"), ("make -j4 build", "safe"), ("make install", "notsafe"),
                    ("make deploy", "notsafe"), ("mvn -q test", "safe"), ("./gradlew build", "safe"),
                    ("gradle publish", "notsafe"), ("bazel test //...", "safe"))))
_add("cmake", Spec(category=TEST_BUILD, operands="read", handler="cmake", does="configures or builds the project",
                   value_opts=E("-S -B -G -D -U -C -T -A --build --target -t -j --parallel --config --install "
                                "--preset --toolchain --log-level --graphviz --system-information -P -E"),
                   exec_flags=E("-P -E --install"),
                   examples=(("cmake -S . -B build", "safe"), ("cmake --build build -j 4", "safe"),
                             ("cmake -E rm -rf /", "notsafe"), ("cmake -P x.cmake", "executes notsafe"))))
_add("meson ctest ccache sccache", Spec(category=TEST_BUILD, operands="none", does="builds or tests the project",
                                        value_opts=E("-C -j -R -E -L --output-on-failure --test-dir --preset -V"),
                                        examples=(("ctest --output-on-failure", "safe"),)))
_add("gcc g++ cc c++ clang clang++ javac kotlinc scalac swiftc tcc nasm as zig ghc-build",
     Spec(category=TEST_BUILD, operands="read", does="compiles code",
          value_opts=E("-o -I -L -l -D -U -x -std -include -isystem -MF -MT -MQ -d -cp -classpath --class-path "
                       "-sourcepath -source -target --release -encoding -processorpath -s -h"),
          whole=E("-wrapper -fplugin -specs -B -fuse-ld -cp -classpath -sourcepath -encoding -source -target "
                  "-processorpath"),
          write_flags=E("-o -d -MF"), exec_flags=E("-wrapper -fplugin -B -specs -processorpath"),
          examples=(("gcc -O2 -o build/app main.c", "safe"), ("gcc -wrapper /bin/sh,-s .", "executes notsafe"),
                    ("javac -d build src/A.java", "safe"))))
_add("ld ld.gold ld.lld", Spec(category=TEST_BUILD, operands="read", value_opts=E("-o -L -l -T -e -m"),
                               write_flags=E("-o"), exec_flags=E("--plugin -plugin"),
                               examples=(("ld -o a a.o", "safe"),)))
