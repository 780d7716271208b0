"""Build and test tools: the family modules' entries (``build_python``, ``build_js``, ``build_native``)
assembled in table order, and the build-goal runners (make, mvn, gradle, ninja, bazel …), cmake, ctest
and the other ecosystems' test commands, written here.

``SAFE_GOALS`` are the make/mvn/gradle goals that build, test or check. A goal runner's options are
listed with what their value is: a makefile, build script, settings or init script it loads
(``load_flags``: refused from outside the project), code it evaluates (``make --eval``:
``exec_flags``), a log it writes.
"""
from __future__ import annotations

from typing import Any

from phlegyas.analysis.programs.build_js import JS_TOOLS
from phlegyas.analysis.programs.build_native import NATIVE_TOOLS
from phlegyas.analysis.programs.build_python import PY_TOOLS, PYTEST, UNITTEST
from phlegyas.analysis.programs.spec import LINT_FORMAT, PKG_INSTALL, TEST_BUILD, E, Spec, add, mut, ro, subs

BUILD_TOOLS: dict[str, Spec] = {**PY_TOOLS, **JS_TOOLS, **NATIVE_TOOLS}
"""Build and test tools, in the order of the program table."""


def _add(names: str, spec: Spec) -> None:
    add(BUILD_TOOLS, names, spec)


_HELP = "-h --help --version"

SAFE_GOALS = frozenset({
    "", "all", "build", "test", "tests", "check", "lint", "fmt", "format", "compile", "typecheck", "vet",
    "verify", "validate", "package", "assemble", "test-compile", "compilejava", "compiletestjava",
    "jar", "javadoc", "dependencies", "tasks", "projects", "properties", "help", "clean-build", "checkstyle",
    "spotlesscheck", "spotlessapply", "ktlintcheck", "ktlintformat", "detekt", "pmd", "spotbugs", "jacocotestreport",
    "dependency:tree", "dependency:resolve", "dependency:go-offline", "versions:display-dependency-updates",
    "help:effective-pom", "surefire-report:report", "site", "process-resources", "generate-sources",
    "coverage", "docs", "doc", "html", "dist", "wheel", "sdist", "release-build", "debug", "spec", "specs",
    "dependencyinsight", "buildenvironment", "outgoingvariants", "javatoolchains", "dependency:analyze",
    "dependency:list", "dependency:copy-dependencies", "generate-resources", "generate-test-sources",
    "process-test-resources", "integration-test", "help:describe", "spotless:check", "spotless:apply",
    "checkstyle:check", "jacoco:report", "versions:display-plugin-updates",
    "run", "dev", "serve", "start", "watch", "bench", "benchmark", "benchmarks", "e2e",
})
"""Goals and targets of make/mvn/gradle/ant/sbt that build, test or check, or run the project's own program or
development server at the trust of its tests (not deploy, publish or install system-wide)."""

MAKE_PROGRAM_VARS = frozenset({"SHELL", ".SHELLFLAGS", "MAKEFILES", "MAKEFLAGS", "MFLAGS", "MAKE", "CC", "CXX",
                                "CPP", "LD", "AR", "AS", "FC", "NM", "RANLIB", "STRIP", "OBJCOPY", "PYTHON", "GO",
                                "CARGO", "RUSTC", "NPM", "NODE", "JAVA", "JAVAC", "DOCKER", "INSTALL", "RM", "CP",
                                "MV", "MKDIR", "SED", "AWK", "PERL", "BASH", "SH", "CMAKE", "NINJA"})
"""``make VAR=value`` variables that name a program make runs (or how it runs recipes)."""

_GOALS: dict[str, Any] = dict(category=TEST_BUILD, operands="none", handler="build_goals", does="runs build targets")
_add("make gmake", Spec(
    **_GOALS,
    flags=E(f"{_HELP} -b -m -B --always-make -d --debug -e --environment-overrides -i --ignore-errors -k "
            "--keep-going -L --check-symlink-times -n --just-print --dry-run --recon -O --output-sync -p "
            "--print-data-base -q --question -r --no-builtin-rules -R --no-builtin-variables -s --silent --quiet "
            "--no-silent -S --no-keep-going --stop -t --touch --trace -v -w --print-directory "
            "--no-print-directory --warn-undefined-variables --shuffle"),
    value_opts=E("-j --jobs -l --load-average --max-load -o --old-file --assume-old -W --what-if --new-file "
                 "--assume-new --jobserver-auth --jobserver-style"),
    load_flags=E("-C --directory -f --file --makefile -I --include-dir"), exec_flags=E("-E --eval"),
    examples=(("make", "safe"), ("make test", "safe"), ("make -j4 build", "safe"), ("make -j 8 -k check", "safe"),
              ("make -s -C build test", "safe"), ("make install", "notsafe"), ("make -j install", "notsafe"),
              ("make deploy", "notsafe"), ("make -f /tmp/x.mk", "notsafe"),
              ("make --eval='$(shell id)' test", "executes notsafe"), ("make CC=/tmp/evil test", "notsafe"),
              ("make CFLAGS=-O2 DEBUG=1 test", "safe"), ("make CC=clang test", "safe"),
              ("make CC='ccache gcc'", "safe"), ("make 'CFLAGS=; id' test", "notsafe"),
              ("make -f - test", "notsafe"))))
_MVN_WHOLE = "-am -amd -fae -ff -fn -nsu -ntp -llr -pl -rf -gs -gt -emp -ep -cpu -npr -npu -up"
_add("mvn mvnw", Spec(
    **_GOALS,
    flags=E(f"{_HELP} -q --quiet -X --debug -e --errors -B --batch-mode -U --update-snapshots -o --offline -N "
            "--non-recursive -am --also-make -amd --also-make-dependents -fae --fail-at-end -ff --fail-fast -fn "
            "--fail-never -nsu --no-snapshot-updates -ntp --no-transfer-progress -V --show-version -v -C "
            "--strict-checksums -c --lax-checksums --color"),
    value_opts=E("-D --define -P --activate-profiles -pl --projects -rf --resume-from -T --threads -b --builder"),
    whole=E(_MVN_WHOLE), write_flags=E("-l --log-file"),
    load_flags=E("-f --file -s --settings -gs --global-settings -t --toolchains -gt --global-toolchains"),
    examples=(("mvn -q test", "safe"), ("mvn clean install -DskipTests", "safe"), ("mvn -B -ntp verify", "safe"),
              ("mvn deploy", "notsafe"), ("mvn -s /tmp/settings.xml test", "notsafe"),
              ("mvn test -Dmaven.repo.local=/tmp/repo", "notsafe"),
              ("mvn test -DargLine=-javaagent:/tmp/a.jar", "notsafe"))))
_add("gradle gradlew", Spec(
    **_GOALS,
    flags=E(f"{_HELP} -v --offline --refresh-dependencies --rerun-tasks --rerun --continue --parallel --no-parallel "
            "--build-cache --no-build-cache --configuration-cache --no-configuration-cache --daemon --no-daemon "
            "--no-scan -q --quiet -w --warn -i --info -d --debug -s --stacktrace -S --full-stacktrace --status "
            "--stop -? -m --dry-run --profile -a --no-rebuild --write-locks -t --continuous --foreground "
            "--watch-fs --no-watch-fs --configure-on-demand --all --export-keys"),
    value_opts=E("-x --exclude-task -D --system-prop -P --project-prop --max-workers --console --warning-mode "
                 "--priority --update-locks --dependency-verification -F -M --write-verification-metadata "
                 "--tests --configuration --dependency --group"),
    write_flags=E("-g --gradle-user-home --project-cache-dir"),
    load_flags=E("-b --build-file -c --settings-file -I --init-script -p --project-dir --include-build"),
    mutate_flags=E("--scan"),
    examples=(("./gradlew build", "safe"), ("gradle test --tests 'a.B' --offline", "safe"),
              ("./gradlew :app:test -x lint --no-daemon", "safe"), ("gradle publish", "notsafe"),
              ("gradle -I /tmp/init.gradle build", "notsafe"), ("gradle build --scan", "notsafe"),
              ("gradle test -Dorg.gradle.java.home=/tmp/jdk", "notsafe"))))
_add("ninja samu", Spec(
    **_GOALS, flags=E("-h --help --version -k -n -v --verbose --quiet"), value_opts=E("-j -l -d -w"),
    load_flags=E("-C -f"), exec_flags=E("-t"),
    examples=(("ninja -C build", "safe"), ("ninja -C build -j 8 test", "safe"), ("ninja -C build install", "notsafe"),
              ("ninja -t commands", "executes notsafe"))))
_BAZEL_OPTS = ("--config --compilation_mode -c --jobs -j --test_output --test_filter --test_arg --copt --cxxopt "
               "--linkopt --define --platforms --test_tag_filters --build_tag_filters --test_size_filters "
               "--test_timeout --runs_per_test --output_groups --output --color --curses --show_timestamps "
               "--test_env --action_env --symlink_prefix --target_pattern_file")
_add("bazel bazelisk", Spec(
    **_GOALS, flags=E(f"{_HELP} --keep_going -k --verbose_failures --nocache_test_results --cache_test_results "
                      "--build_tests_only --nobuild --noshow_progress --show_progress --subcommands -s --announce_rc "
                      "--nokeep_going --check_up_to_date --nobuild_runfile_links --incompatible_strict_action_env"),
    value_opts=E(_BAZEL_OPTS), load_flags=E("--bazelrc --output_base --output_user_root"),
    source_flags=E("--remote_cache --remote_executor --bes_backend --registry"),
    exec_flags=E("--run_under --script_path"),
    examples=(("bazel test //...", "safe"), ("bazel build -c opt //src:app --config=ci", "safe"),
              ("bazel test --run_under='sh -c id' //x", "executes notsafe"), ("bazel run //x", "notsafe"))))
_add("just", Spec(
    **_GOALS, flags=E(f"{_HELP} -V -l --list --summary -n --dry-run -q --quiet -v --verbose --unstable --yes "
                      "--dump --check --evaluate --no-dotenv --unsorted --highlight --no-highlight"),
    value_opts=E("--color --set -s --show --list-heading --list-prefix --shell-arg"), load_flags=E(
        "-f --justfile -d --working-directory --dotenv-path --dotenv-filename"), exec_flags=E("--shell --command -c"),
    examples=(("just test", "safe"), ("just --list", "safe"), ("just deploy", "notsafe"),
              ("just -f /tmp/justfile test", "notsafe"))))
_add("task rake mage ant sbt buck buck2 pants", Spec(
    **_GOALS, flags=E(f"{_HELP} -V -l --list -a --list-all -n --dry -T --tasks -P -t --trace -v --verbose -q "
                      "--quiet -s --silent -f --force -p --parallel --summary --status -k -keep-going -batch "
                      "-no-colors -noinput -emacs -debug -compile -keep -version"),
    value_opts=E("-D -C --concurrency -o --output -j --jobs -mem --color"),
    whole=E("-keep-going -batch -no-colors -noinput -emacs -debug -version -buildfile -propertyfile -logfile -mem "
            "-lib -keep -compile"),
    write_flags=E("-logfile"),
    load_flags=E("--taskfile --rakefile -R --rakelibdir -r --require -I -buildfile -file -propertyfile -lib -d "
                 "--dir"),
    examples=(("task test", "safe"), ("rake spec", "safe"), ("sbt test", "safe"), ("ant compile", "safe"),
              ("rake deploy", "notsafe"), ("rake -r /tmp/x.rb test", "notsafe"))))

# -- cmake, ctest, meson, ccache -----------------------------------------------------------------------
_CMAKE_FLAGS = ("-h --help --version -N --fresh --warn-uninitialized --check-system-vars --debug-find --trace "
                "--trace-expand --debug-trycompile --debug-output --list-presets --clean-first --verbose -v "
                "--use-stderr -L -LA -LH -LAH -Wdev -Wno-dev -Werror -Wno-error -Wdeprecated -Wno-deprecated "
                "--strip --no-warn-unused-cli")
_add("cmake", Spec(
    category=TEST_BUILD, operands="read", handler="cmake", does="configures or builds the project",
    flags=E(_CMAKE_FLAGS),
    value_opts=E("-G -D -U -T -A --target -t -j --parallel --config --preset --log-level --log-context "
                 "--trace-source --trace-format --profiling-format --component --workflow -E"),
    whole=E("-LA -LH -LAH -Wdev -Wno-dev -Werror -Wno-error -Wdeprecated -Wno-deprecated"),
    write_flags=E("--graphviz --system-information --trace-redirect --profiling-output --prefix"),
    load_flags=E("-S -B --build -C --toolchain"), exec_flags=E("-P --install --open"),
    examples=(("cmake -S . -B build", "safe"), ("cmake --build build -j 4", "safe"), ("cd build && cmake ..", "safe"),
              ("cmake ..", "notsafe"),
              ("cmake -DCMAKE_BUILD_TYPE=Release -G Ninja -B build", "safe"), ("cmake -E make_directory build", "safe"),
              ("cmake -E rm -rf /", "notsafe"), ("cmake -P x.cmake", "executes notsafe"),
              ("cmake -DCMAKE_C_COMPILER_LAUNCHER=/tmp/x -B build", "notsafe"),
              ("cmake -C /tmp/cache.cmake -B build", "notsafe"), ("cmake --install build", "notsafe"),
              ("cmake /tmp/evil", "notsafe"), ("cmake -S /tmp/evil -B build", "notsafe"),
              ("cmake --build /tmp/b", "notsafe"),
              ("cmake -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=/tmp/x.cmake ..", "notsafe"),
              ("cmake -DCMAKE_INSTALL_PREFIX=/usr/local -B build", "safe"))))
_add("ctest", Spec(
    category=TEST_BUILD, operands="none", does="runs the project's tests",
    flags=E("-h --help --version --output-on-failure -V --verbose -VV --extra-verbose -N --show-only -Q --quiet "
            "--rerun-failed --stop-on-failure --progress --schedule-random --force-new-ctest-process "
            "--print-labels --debug --no-compress-output --no-label-summary --no-subproject-summary -U --union "
            "--no-tests"),
    value_opts=E("-C --build-config -j --parallel -R --tests-regex -E --exclude-regex -L --label-regex -LE "
                 "--label-exclude -I --tests-information --repeat --repeat-until-fail --preset --timeout "
                 "--stop-time --test-load --max-width -FA -FS -FC --fixture-exclude-any --fixture-exclude-setup "
                 "--fixture-exclude-cleanup"),
    whole=E("-LE -VV -FA -FS -FC -SP"), load_flags=E("--test-dir"), read_flags=E("--resource-spec-file"),
    write_flags=E("-O --output-log --output-junit"),
    exec_flags=E("-S -SP --script -T --test-action -D --dashboard -M --test-model --build-and-test"),
    examples=(("ctest --output-on-failure", "safe"), ("ctest --test-dir build -j4 -R unit", "safe"),
              ("ctest -S /tmp/x.cmake", "executes notsafe"), ("ctest -T Submit", "notsafe"))))
_MESON_BUILD = Spec(category=TEST_BUILD, operands="none", does="builds or tests the project", handler="operands_load",
                    flags=E(f"{_HELP} -v --verbose --wipe --reconfigure --clean --print-errorlogs --no-rebuild "
                            "--list --quiet -q --benchmark --no-stdsplit --ninja-args"),
                    value_opts=E("-j --jobs --num-processes -D --buildtype --backend --suite --no-suite --setup "
                                 "--repeat --timeout-multiplier --warnlevel --werror --default-library -t --test-args "
                                 "--logbase"),
                    load_flags=E("-C --native-file --cross-file"), write_flags=E("--prefix"), exec_flags=E("--wrapper"))
_add("meson", Spec(operands="none", flags=E(_HELP), subcommands=subs({}, (
    "setup compile test configure introspect", _MESON_BUILD),
    ("", ro(operands="none", flags=E(_HELP))),
    ("*", mut("runs a meson command", operands="none"))),
    examples=(("meson setup build", "safe"), ("meson test -C build --print-errorlogs", "safe"),
              ("meson install -C build", "notsafe"), ("meson setup build /tmp/src", "notsafe"))))
_add("ccache sccache", Spec(
    category=TEST_BUILD, operands="none", handler="no_operands", does="manages the compiler cache",
    flags=E("-s --show-stats -z --zero-stats -C --clear -c --cleanup -p --show-config -V --version -h --help -x "
            "--show-compression --print-stats -v --verbose --start-server --stop-server"),
    value_opts=E("-M --max-size -F --max-files -k --get-config"), mutate_flags=E("-o --set-config"),
    examples=(("ccache -s", "safe"), ("sccache --show-stats", "safe"), ("ccache sh -c id", "notsafe"))))

# -- other ecosystems' test runners ----------------------------------------------------------------------
_add("mix", Spec(operands="none", flags=E(_HELP), subcommands=subs({}, (
    "test compile format credo dialyzer deps.get deps.compile deps.tree xref docs", Spec(
        category=TEST_BUILD, operands="read", does="builds or tests the project", handler="operands_load",
        flags=E(f"{_HELP} --cover --stale --failed --trace --max-failures --warnings-as-errors --force "
                 "--check-formatted "
                "--dry-run --no-deps-check --no-compile --all-warnings --color --no-color --strict"),
        value_opts=E("--seed --max-cases --partitions --only --exclude --include --formatter --timeout --format"))),
    ("phx.routes hex.outdated deps.unlock --check-unused hex.info", ro(operands="none", flags=E(_HELP + " --all"))),
    ("help", ro(operands="none", flags=E(_HELP))),
    ("*", mut("runs a mix task", operands="none"))),
    examples=(("mix test", "safe"), ("mix test --cover test/a_test.exs", "safe"),
              ("mix format --check-formatted", "safe"), ("mix dialyzer --format short", "safe"),
              ("mix phx.routes", "readonly safe"),
              ("mix run priv/seed.exs", "notsafe"), ("mix hex.publish", "notsafe"))))
_add("rails", Spec(operands="none", flags=E(_HELP + " --version -v"), subcommands=subs({}, (
    "test spec test:system test:all test:models zeitwerk:check", Spec(
        category=TEST_BUILD, operands="read", does="runs the project's tests", handler="operands_load",
        flags=E(f"{_HELP} -v --verbose -b --backtrace -f --fail-fast -d --defer-output -c --color --no-color "
                "--profile"),
        value_opts=E("-n --name -e --environment --seed -s -j --parallel"))),
    ("server s", Spec(category=TEST_BUILD, operands="none", does="runs the project's development server",
                      flags=E(f"{_HELP} -d --daemon --no-daemon -u --using --dev-caching --no-dev-caching"),
                      value_opts=E("-p --port -b --binding -e --environment -P --pid -C"))),
    ("routes about stats notes version", ro(operands="none", flags=E(_HELP + " --expanded -E"),
                                            value_opts=E("-c --controller -g --grep"))),
    ("", ro(operands="none", flags=E(_HELP + " --version -v"))),
    ("*", mut("runs a rails command (db:migrate, runner, console …)", operands="none"))),
    examples=(("rails test", "safe"), ("rails test test/models/user_test.rb", "safe"),
              ("rails routes", "readonly safe"),
              ("rails db:migrate", "notsafe"), ("rails runner 'User.delete_all'", "notsafe"),
              ("rails test /tmp/x_test.rb", "notsafe"))))
_SWIFT_BUILD = Spec(category=TEST_BUILD, operands="none", does="builds or tests the project",
                    flags=E(f"{_HELP} -v --verbose --very-verbose --parallel --enable-code-coverage --skip-build "
                            "--list-tests --disable-sandbox --show-bin-path --build-tests --quiet -q"),
                    value_opts=E("-c --configuration --filter --skip --product --target -j --jobs --num-workers "
                                 "--triple --arch --swift-sdk"),
                    write_flags=E("--scratch-path --build-path"), load_flags=E("--package-path"))
_add("swift", Spec(operands="none", flags=E(_HELP), subcommands=subs({}, (
    "build test", _SWIFT_BUILD),
    ("package", Spec(operands="none", flags=E(_HELP), subcommands=subs({}, (
        "resolve", Spec(category=PKG_INSTALL, operands="none", does="fetches the dependencies Package.resolved pins",
                        flags=E(_HELP + " -v --verbose"))),
        ("show-dependencies describe dump-package", ro(operands="none", flags=E(_HELP),
                                                       value_opts=E("--type --format"))),
        ("*", mut("changes the package", operands="none"))))),
    ("", ro(operands="none", flags=E(_HELP))),
    ("*", mut("runs a swift command", operands="none"))),
    examples=(("swift build", "safe"), ("swift test --parallel", "safe"), ("swift run evil", "notsafe"),
              ("swift package resolve", "safe"), ("swift package describe --type json", "readonly safe"),
              ("swift package edit Foo", "notsafe"))))
_DART_CHECK = Spec(category=TEST_BUILD, operands="read", does="analyses, formats or tests the project",
                    handler="operands_load",
                    flags=E(f"{_HELP} -v --verbose --fatal-infos --fatal-warnings --no-fatal-warnings "
                            "--set-exit-if-changed --coverage --no-pub --test-randomize-ordering-seed "
                            "--chain-stack-traces --fail-fast --run-skipped --no-sound-null-safety --machine "
                            "--suppress-analytics --no-suppress-analytics --offline --enforce-lockfile"),
                    value_opts=E("-n --name -N --plain-name -t --tags -x --exclude-tags -j --concurrency "
                                 "-p --platform -r --reporter --timeout --total-shards --shard-index "
                                 "--line-length -l --output -o --format --language-version --device-id -d"),
                    write_flags=E("--coverage-path --file-reporter"), inplace_flags=E("--fix --apply"))
"""``dart analyze|format|test`` and ``flutter analyze|test``: the project's own code, at the trust of its tests;
``format`` rewrites files in place (``--output=none``/``--set-exit-if-changed`` only checks)."""
_add("dart flutter", Spec(operands="none", flags=E(_HELP + " --version"), subcommands=subs({}, (
    "analyze test format", _DART_CHECK),
    ("pub", Spec(operands="none", flags=E(_HELP), subcommands=subs({}, (
        "get deps outdated", Spec(category=PKG_INSTALL, operands="none", does="fetches the project's dependencies",
                            flags=E(f"{_HELP} --offline --enforce-lockfile --no-precompile --json --dev-dependencies"
                                    " --no-dev-dependencies --transitive --up-to-date --show-all")),
        ),
        ("*", mut("changes the project's dependencies", operands="none"))))),
    ("doctor devices", ro(operands="none", flags=E(_HELP + " -v --verbose --machine"))),
    ("", ro(operands="none", flags=E(_HELP + " --version"))),
    ("*", mut("runs a dart or flutter command", operands="none"))),
    examples=(("flutter test", "safe"), ("flutter analyze", "safe"), ("dart test -r expanded", "safe"),
              ("dart format --output=none --set-exit-if-changed lib", "safe"), ("flutter pub get", "safe"),
              ("flutter doctor -v", "readonly safe"), ("dart run tool/gen.dart", "notsafe"),
              ("flutter pub add http", "notsafe"), ("flutter run", "notsafe"),
              ("dart test /tmp/x_test.dart", "notsafe"))))
_DENO_CHECK = Spec(category=LINT_FORMAT, operands="read", does="checks the project",
                   flags=E(f"{_HELP} -q --quiet --check --json --compact --watch --no-check --unstable --fix "
                           "--rules --doc --coverage --parallel --fail-fast --no-prompt --allow-none"),
                   value_opts=E("--ignore --filter --reporter --rules-tags --rules-include --rules-exclude "
                                "--line-width --indent-width --log-level --shuffle"),
                   load_flags=E("-c --config --import-map"),
                   inplace_flags=E("--fix"))
_add("deno", Spec(operands="none", flags=E(_HELP + " -V"), subcommands=subs({}, (
    "lint check doc", _DENO_CHECK),
    ("fmt", Spec(category=LINT_FORMAT, operands="read", inplace=True, readonly_flags=E("--check"),
                 flags=_DENO_CHECK.flags, value_opts=_DENO_CHECK.value_opts, load_flags=_DENO_CHECK.load_flags)),
    ("test", Spec(category=TEST_BUILD, operands="read", does="runs the project's tests", handler="operands_load",
                  flags=(_DENO_CHECK.flags or frozenset()) | E("-A --allow-all --allow-read --allow-env --allow-write --allow-net "
                                              "--allow-run --allow-sys --allow-ffi --trace-leaks --permit-no-files"),
                  value_opts=_DENO_CHECK.value_opts, load_flags=_DENO_CHECK.load_flags)),
    ("", ro(operands="none", flags=E(_HELP + " -V"))),
    ("*", mut("runs code", operands="none"))),
    examples=(("deno test", "safe"), ("deno lint", "safe"), ("deno fmt --check", "readonly safe"),
              ("deno run https://example.com/x.ts", "notsafe"), ("deno test https://example.com/x_test.ts", "notsafe"),
              ("deno eval 'Deno.exit()'", "notsafe"))))

__all__ = ["BUILD_TOOLS", "MAKE_PROGRAM_VARS", "PYTEST", "SAFE_GOALS", "UNITTEST"]

# -- development servers: the project's own app, at the trust of its tests ---------------------------------
_DEV_SERVER: dict[str, Any] = dict(category=TEST_BUILD, operands="none", does="runs the project's development server")
_add("flask", Spec(operands="none", flags=E(_HELP + " --debug --no-debug"), value_opts=E("-A --app"),
                   handler="flask_app",
                   subcommands=subs({}, (
                       "run", Spec(**_DEV_SERVER,
                                   flags=E("--help --reload --no-reload --debugger --no-debugger --with-threads "
                                           "--without-threads --debug --no-debug --eager-loading --lazy-loading"),
                                   value_opts=E("-h --host -p --port --extra-files --exclude-patterns"),
                                   read_flags=E("--cert --key"), load_flags=E("-e --env-file"))),
                       ("routes", ro(operands="none", flags=E("--help --all-methods"), value_opts=E("-s --sort"))),
                       ("", ro(operands="none", flags=E(_HELP))),
                       ("*", mut("runs a command of the Flask app", operands="none"))),
                   examples=(("flask run", "safe"), ("flask --app hello run --debug -p 5001", "safe"),
                             ("flask db upgrade", "notsafe"), ("flask shell", "notsafe"),
                             ("flask run --env-file /tmp/x.env", "notsafe"),
                             ("flask --app /tmp/evil.py run", "notsafe"))))
_add("uvicorn hypercorn", Spec(
    **_DEV_SERVER,
    flags=E("--help --version --reload --use-colors --no-use-colors --access-log --no-access-log --proxy-headers "
            "--no-proxy-headers --factory --server-header --no-server-header --date-header --no-date-header "
            "--ws-per-message-deflate"),
    value_opts=E("--host --port --fd --reload-dir --reload-include --reload-exclude --reload-delay --workers "
                 "--loop --http --ws --ws-max-size --ws-max-queue --ws-ping-interval --ws-ping-timeout --lifespan "
                 "--interface --root-path --limit-concurrency --limit-max-requests --backlog --timeout-keep-alive "
                 "--timeout-graceful-shutdown --log-level --forwarded-allow-ips --header -b --bind -w"),
    read_flags=E("--ssl-keyfile --ssl-certfile --ssl-ca-certs"), write_flags=E("--uds"),
    load_flags=E("--app-dir --env-file --log-config -c --config"),
    examples=(("uvicorn app:app --reload", "safe"), ("uvicorn main:app --host 127.0.0.1 --port 8000", "safe"),
              ("uvicorn app:app --app-dir /tmp/x", "notsafe"), ("uvicorn app:app --evil", "notsafe"))))
_add("gunicorn", Spec(
    **_DEV_SERVER,
    flags=E("-h --help -v --version --reload --preload --capture-output --check-config --print-config"),
    read_flags=E("--certfile --keyfile --ca-certs"),
    value_opts=E("-b --bind -w --workers -k --worker-class -t --timeout --graceful-timeout --keep-alive "
                 "--log-level --threads --max-requests --max-requests-jitter --reload-extra-file -n --name "
                 "--forwarded-allow-ips"),
    write_flags=E("--access-logfile --error-logfile --log-file -p --pid"),
    load_flags=E("-c --config --chdir --pythonpath --log-config"), mutate_flags=E("-D --daemon"),
    examples=(("gunicorn app:app -b 127.0.0.1:8000 -w 2", "safe"), ("gunicorn -c /tmp/g.py app:app", "notsafe"),
              ("gunicorn -D app:app", "notsafe"))))
