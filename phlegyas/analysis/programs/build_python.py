"""Option specs of the Python test runners, linters, formatters and type checkers (pytest, tox, nox,
unittest, coverage, ruff, black, isort, mypy, pyright, pylint, flake8 …).

Every option a program accepts is listed where what its value is matters: a path written (reports,
caches), a file or directory loaded (configuration, plugins, the rootdir: ``load_flags``, which
``report`` refuses outside the project), code run (``pylint --init-hook``), a directory emptied
(``pytest --basetemp``). The rest are harmless flags (``flags``) or harmless values (``value_opts``);
an option in none of the sets is not understood, so the call is not automatic.
"""
from __future__ import annotations

from phlegyas.analysis.programs.spec import LINT_FORMAT, TEST_BUILD, E, Spec, mut, ro, subs

PY_TOOLS: dict[str, Spec] = {}
"""The Python build tools, in table order."""


def _add(names: str, spec: Spec) -> None:
    for name in names.split():
        PY_TOOLS[name] = spec


_HELP = "-h --help --version"

# -- pytest (and python -m pytest) -------------------------------------------------------------------
PYTEST = Spec(
    category=TEST_BUILD, operands="read", does="runs the project's tests", handler="pytest_opts",
    flags=E(f"{_HELP} -V -q --quiet -v --verbose -x --exitfirst -s -l --showlocals --no-showlocals --lf "
            "--last-failed --ff --failed-first --nf --new-first --sw --stepwise --sw-skip --stepwise-skip "
            "--sw-reset --stepwise-reset --co --collect-only --collectonly --pdb --trace --cache-clear --cache-show "
            "--runxfail --strict-markers --strict-config --strict --fixtures --funcargs --fixtures-per-test "
            "--markers --no-header --no-summary --no-fold-skipped --force-short-summary --noconftest "
            "--keep-duplicates --collect-in-virtualenv --continue-on-collection-errors --disable-warnings "
            "--disable-pytest-warnings --full-trace --doctest-modules --doctest-continue-on-failure "
            "--doctest-ignore-import-errors --setup-only --setup-show --setup-plan --pyargs --trace-config "
            "--disable-plugin-autoload --xfail-tb --hypothesis-show-statistics --hypothesis-explain "
            "--cov-append --cov-branch --no-cov --no-cov-on-fail --cov-reset --looponfail -f --forked "
            "--instafail --snapshot-update --create-db --reuse-db --nomigrations --migrations "
            "--self-contained-html --json-report --benchmark-skip --benchmark-only --benchmark-disable "
            "--benchmark-autosave --benchmark-enable --randomly-dont-reorganize --testmon --picked"),
    value_opts=E("-k -m -p -r -n -W -o --override-ini --pythonwarnings --numprocesses --maxprocesses --dist --tx "
                 "--maxfail --max-warnings --deselect --ignore --ignore-glob --tb --capture --show-capture --color "
                 "--code-highlight --assert --import-mode --doctest-glob --doctest-report --durations "
                 "--durations-min --verbosity --log-level --log-format --log-date-format --log-cli-level "
                 "--log-cli-format --log-cli-date-format --log-file-level --log-file-format --log-file-date-format "
                 "--log-file-mode --log-auto-indent --log-disable --junit-prefix --lfnf --last-failed-no-failures "
                 "--pdbcls --anyio-mode --asyncio-mode --hypothesis-profile --hypothesis-verbosity "
                 "--hypothesis-seed --cov --cov-report --cov-fail-under --cov-context --timeout --timeout-method "
                 "--reruns --reruns-delay --only-rerun --count --repeat-scope --randomly-seed --ds --dc "
                 "--benchmark-save --benchmark-columns --benchmark-sort --json-report-indent"),
    write_flags=E("--junitxml --junit-xml --resultlog --result-log --log-file --debug --html --json-report-file "
                  "--report-log --alluredir --benchmark-json --benchmark-storage"),
    load_flags=E("-c --config-file --inifile --rootdir --confcutdir --cov-config"),
    delete_flags=E("--basetemp"),
    mutate_flags=E("--pastebin"),
    examples=(("pytest -q tests/test_a.py", "safe"), ("pytest -k smoke -x", "safe"),
              ("pytest -q -x --maxfail=1 -p no:cacheprovider tests", "safe"), ("pytest -vv -rA --tb=short", "safe"),
              ("pytest --cov=src --cov-report=term-missing", "safe"), ("pytest -n auto --lf", "safe"),
              ("pytest --junitxml=build/junit.xml", "writes safe"), ("pytest --junitxml ~/.bashrc", "notsafe"),
              ("pytest --basetemp=/home/u", "deletes notsafe"), ("pytest --rootdir=/", "notsafe"),
              ("pytest -c /tmp/evil.ini", "notsafe"), ("pytest --cov-report=xml:/etc/cov.xml", "notsafe"),
              ("pytest --pastebin=all", "notsafe"), ("pytest --runslow", "notsafe"),
              ("pytest -o cache_dir=/home/u/.ssh", "notsafe"), ("pytest /tmp/test_evil.py", "notsafe"),
              ("pytest tests/test_a.py::TestA::test_b", "safe"), ("pytest -o addopts=-x -q", "safe")))
_add("pytest py.test", PYTEST)

UNITTEST = Spec(category=TEST_BUILD, operands="none", does="runs the project's tests", handler="unittest_discover",
                flags=E(f"{_HELP} -v --verbose -q --quiet -f --failfast -c --catch -b --buffer --locals"),
                value_opts=E("-k -p --pattern --durations"),
                load_flags=E("-s --start-directory -t --top-level-directory"),
                examples=(("python -m unittest discover -s tests -v", "safe"),
                          ("python -m unittest tests.test_a", "safe"),
                          ("python -m unittest discover /tmp/tests", "notsafe"),
                          ("python -m unittest discover -s /tmp/tests", "notsafe")))
"""``python -m unittest``: the module entry in ``runtimes`` names this program, so its handler runs."""
_add("unittest", UNITTEST)

_TOX_FLAGS = E(f"{_HELP} -v --verbose -q --quiet -r --recreate -n --notest -l --listenvs -a --listenvs-all "
               "--showconfig --sdistonly --skip-missing-interpreters --no-recreate-provision --parallel-live "
               "--parallel-no-spinner --develop --skip-pkg-install --no-recreate-pkg --list-dependencies --pre "
               "--no-list-dependencies -o --no-provision")
_add("build pyproject-build", Spec(  # pypa's build frontend: the project's own backend, in a fresh venv
    category=TEST_BUILD, operands="read", does="builds the project's sdist and wheel", handler="operands_load",
    flags=E("-s --sdist -w --wheel -n --no-isolation -x --skip-dependency-check -v --verbose -q --quiet --help "
            "--version"),
    value_opts=E("--installer -C --config-setting"), write_flags=E("-o --outdir"),
    examples=(("python -m build", "safe"), ("python -m build --wheel --outdir dist/", "safe"),
              ("python -m build -o /etc/x", "notsafe"), ("python -m build /tmp/evil", "notsafe"))))
_add("pre-commit", Spec(operands="none", flags=E(_HELP), subcommands=subs({}, (
    "run", Spec(category=TEST_BUILD, operands="none", does="runs the project's pre-commit hooks",
                flags=E("-a --all-files --show-diff-on-failure -v --verbose --help"),
                value_opts=E("--color --hook-stage --from-ref --to-ref -s -o --source --origin"),
                read_flags=E("--files"), load_flags=E("-c --config"))),
    ("--version help", ro(operands="none", flags=E(_HELP))),
    ("*", mut("changes the hooks or their configuration", operands="none"))),
    examples=(("pre-commit run --all-files", "safe"), ("pre-commit run ruff --files src/a.py", "safe"),
              ("pre-commit run --all-files --config /tmp/.pre-commit-config.yaml", "notsafe"),
              ("pre-commit install", "notsafe"), ("pre-commit autoupdate", "notsafe"))))
_NBCONVERT_FLAGS = ("--stdout --execute --inplace --no-input --no-prompt --allow-errors --clear-output --debug "
                    "--embed-images --sanitize-html --help --version")
_add("jupyter", Spec(operands="none", flags=E(_HELP), subcommands=subs({}, (
    "nbconvert", Spec(category=TEST_BUILD, operands="read", does="converts notebooks (with --execute, runs them)",
                      handler="operands_load",  # a notebook from outside the project is code it may run
                      flags=E(_NBCONVERT_FLAGS),
                      value_opts=E("--to --ExecutePreprocessor.timeout --ExecutePreprocessor.kernel_name "
                                   "--log-level --writer --output"),
                      write_flags=E("--output-dir"), load_flags=E("--template --template-file --config"))),
    ("--version --paths", ro(operands="none", flags=E("--version --paths --json"))),
    ("", ro(operands="none", flags=E(_HELP)))),
    examples=(("jupyter nbconvert --to script notebooks/eda.ipynb --stdout", "safe"),
              ("jupyter nbconvert --to notebook --execute notebooks/a.ipynb --output-dir build/nb", "safe"),
              ("jupyter nbconvert --to html --template /tmp/evil nb.ipynb", "notsafe"),
              ("jupyter nbconvert --to html --output-dir /etc nb.ipynb", "notsafe"),
              ("jupyter nbconvert --to html nb.ipynb --TemplateExporter.extra_template_basedirs=/tmp", "notsafe"),
              ("jupyter notebook --ip 0.0.0.0", "notsafe"))))
_add("tox", Spec(category=TEST_BUILD, operands="none", does="runs the project's test environments", handler="tox",
                 flags=_TOX_FLAGS,
                 value_opts=E("-e --env -p --parallel -f --factors -m --labels --hashseed --runner --colored "
                              "--exit-and-dump-after --skip-env --force-dep --discover-skip --result-json-indent"),
                 write_flags=E("--result-json --workdir"), load_flags=E("-c --conf --root --installpkg"),
                 exec_flags=E("-x --override --discover"), source_flags=E("-i --index-url"),
                 examples=(("tox -e py311", "safe"), ("tox -e lint -- -k smoke", "safe"),
                           ("tox -e py -- /tmp/test_evil.py", "notsafe"), ("tox -p auto -q", "safe"),
                           ("tox exec -e py -- rm -rf build", "notsafe"), ("tox -c /tmp/tox.ini", "notsafe"),
                           ("tox -x 'testenv.commands=id'", "executes notsafe"))))
_add("nox", Spec(category=TEST_BUILD, operands="none", does="runs the project's nox sessions", handler="tox",
                 flags=E(f"{_HELP} -l --list --list-sessions --json -r --reuse-existing-virtualenvs "
                         "--no-reuse-existing-virtualenvs -R -x --stop-on-first-error --no-stop-on-first-error "
                         "--error-on-missing-interpreters --no-error-on-missing-interpreters --error-on-external-run "
                         "--no-error-on-external-run --install-only --no-install --no-venv --non-interactive "
                         "--nocolor --forcecolor --no-color --force-color -v --verbose --add-timestamp --usage"),
                 value_opts=E("-s -e --session --sessions -p --python --pythons -t --tags -k --keywords "
                              "--default-venv-backend -db --force-venv-backend -fb --reuse-venv --extra-python "
                              "--extra-pythons --force-python -P"),
                 whole=E("-db -fb"), write_flags=E("--report --envdir"), load_flags=E("-f --noxfile"),
                 examples=(("nox -s tests", "safe"), ("nox -R -s lint", "safe"),
                           ("nox -f /tmp/noxfile.py", "notsafe"))))

# -- coverage ----------------------------------------------------------------------------------------
_COV_FLAGS = E(f"{_HELP} -m --show-missing --skip-covered --no-skip-covered --skip-empty -i --ignore-errors -q "
               "--quiet --pretty-print --show-contexts -a --append --keep --fail-under-none")
_COV_VALUES = E("--fail-under --precision --sort --format --debug --contexts --title --include --omit "
                "--data-file")
_add("coverage", Spec(operands="none", flags=E(_HELP), subcommands=subs({}, (
    "report html xml json lcov combine erase debug annotate", Spec(category=TEST_BUILD, operands="none",
                                                                   flags=_COV_FLAGS, value_opts=_COV_VALUES,
                                                                   write_flags=E("-d --directory -o"),
                                                                   load_flags=E("--rcfile"))),
    ("run", Spec(operands="none", handler="coverage_run", does="runs a program under coverage",
                 value_opts=E("--rcfile --source --include --omit --data-file --concurrency --context"))),
    ("help", ro(operands="none", flags=E(_HELP))),
    ("", ro(operands="none", flags=E(_HELP)))),
    examples=(("coverage report -m", "safe"), ("coverage run -m pytest", "safe"), ("coverage run evil.py", "notsafe"),
              ("coverage html -d htmlcov", "safe"), ("coverage xml -o /etc/cov.xml", "notsafe"),
              ("coverage report --rcfile=/tmp/x.rc", "notsafe"), ("coverage --version", "safe"))))

# -- ruff ----------------------------------------------------------------------------------------------
_RUFF_COMMON = f"{_HELP} -q --quiet -v --verbose -s --silent -n --no-cache --isolated --preview --no-preview " \
               "--force-exclude --no-force-exclude --respect-gitignore --no-respect-gitignore"
_RUFF_VALUES = E("--select --ignore --extend-select --extend-ignore --per-file-ignores --extend-per-file-ignores "
                 "--fixable --unfixable --extend-fixable --exclude --extend-exclude --target-version --line-length "
                 "--dummy-variable-rgx --output-format --stdin-filename --extension --color --range --add-noqa")
_RUFF_LOAD = E("--config")
_RUFF_WRITE = E("-o --output-file --cache-dir")
_RUFF_INFO = ro(operands="none", flags=E(_RUFF_COMMON + " --all"), value_opts=E("--output-format"),
                load_flags=_RUFF_LOAD)
_add("ruff", Spec(category=LINT_FORMAT, operands="none", flags=E(_RUFF_COMMON + " -V"),
                  subcommands=subs({}, ("check", Spec(
                      category=LINT_FORMAT, operands="read", value_opts=_RUFF_VALUES, load_flags=_RUFF_LOAD,
                      flags=E(_RUFF_COMMON + " --no-fix --no-unsafe-fixes --show-fixes --no-show-fixes --diff -w "
                                             "--watch --fix-only --no-fix-only --ignore-noqa --exit-zero -e "
                                             "--exit-non-zero-on-fix --statistics --show-files --show-settings"),
                      inplace_flags=E("--fix --unsafe-fixes --add-noqa"), readonly_flags=E("--diff"),
                      write_flags=_RUFF_WRITE, default_operand=".")),
                      ("format", Spec(category=LINT_FORMAT, operands="read", value_opts=_RUFF_VALUES,
                                      flags=E(_RUFF_COMMON + " --exit-non-zero-on-format"), load_flags=_RUFF_LOAD,
                                      write_flags=E("--cache-dir"), inplace=True, readonly_flags=E("--check --diff"),
                                      default_operand=".")),
                      ("version rule config linter help analyze clean", _RUFF_INFO), ("", _RUFF_INFO)),
                  examples=(("ruff check .", "readonly safe"), ("ruff check --fix src", "writes safe"),
                            ("ruff format --check .", "readonly safe"), ("ruff format", "writes safe"),
                            ("ruff check --select E,F --output-format=github src", "safe"),
                            ("ruff check --config /tmp/ruff.toml .", "notsafe"),
                            ("ruff --config /tmp/r.toml check", "notsafe"), ("ruff --version", "safe"),
                            ("ruff check -o ~/.profile .", "notsafe"), ("ruff rule E501", "readonly safe"))))

# -- formatters ------------------------------------------------------------------------------------------
_add("black", Spec(category=LINT_FORMAT, operands="read", inplace=True,
                   flags=E(f"{_HELP} --check --diff --color --no-color --fast --safe -q --quiet -v --verbose "
                           "-S --skip-string-normalization -C --skip-magic-trailing-comma --preview --unstable "
                           "--is-pyi --pyi --ipynb -x --skip-source-first-line --experimental-string-processing"),
                   value_opts=E("-l --line-length -t --target-version --include --exclude --extend-exclude "
                                "--force-exclude --stdin-filename --line-ranges -W --workers --required-version "
                                "--python-cell-magics --enable-unstable-feature -c --code"),
                   load_flags=E("--config"), readonly_flags=E("--check --diff -c --code --version -h --help"),
                   examples=(("black --check .", "readonly safe"), ("black src", "writes safe"),
                             ("black /etc/x.py", "notsafe"), ("black -l 100 --diff src", "readonly safe"),
                             ("black --config /tmp/pyproject.toml src", "notsafe"))))
_add("isort", Spec(category=LINT_FORMAT, operands="read", inplace=True,
                   flags=E(f"{_HELP} -V --check-only --check -c --diff -q --quiet -v --verbose --atomic "
                           "--float-to-top --force-sort-within-sections --fss --force-single-line-imports --sl "
                           "--combine-as --ca --trailing-comma --tc --skip-gitignore --filter-files --honor-noqa "
                           "--dont-follow-links --show-files --show-config --only-modified --om "
                           "--overwrite-in-place --color --stdout -d --case-sensitive --remove-redundant-aliases "
                           "--star-first --use-parentheses --up --ds --force-alphabetical-sort --fas "
                           "--order-by-type --ot --no-inline-sort --lines-between-types"),
                   value_opts=E("--profile -l --line-length -w --line-width -m --multi-line -s --skip --skip-glob "
                                "--sg --extend-skip --extend-skip-glob -p --project --known-local-folder -o "
                                "--thirdparty --src -j --jobs -a --add-import --rm --remove-import --py "
                                "--python-version --wrap-length --lines-after-imports --lai --sections "
                                "--section-default --ext --extension --supported-extension --blocked-extension -f "
                                "--future -b --known-standard-library --extra-builtin --known-first-party "
                                "--known-third-party --force-grid-wrap --indent --virtual-env --conda-env"),
                   load_flags=E("--settings-path --settings-file --sp --settings"),
                   readonly_flags=E("--check-only --check -c --diff --stdout -d --show-files --show-config "
                                    "--version -V -h --help"),
                   examples=(("isort --check-only .", "readonly safe"), ("isort --profile black src", "writes safe"),
                             ("isort --settings-path /tmp/x .", "notsafe"))))

_add("autopep8", Spec(category=LINT_FORMAT, operands="read",
                      flags=E(f"{_HELP} -i --in-place -d --diff -r --recursive -a --aggressive -v --verbose "
                              "--list-fixes --experimental --ignore-local-config --exit-code --hang-closing"),
                      value_opts=E("-j --jobs --max-line-length --select --ignore --exclude -p --pep8-passes "
                                   "--line-range --range --indent-size"),
                      load_flags=E("--global-config"), inplace_flags=E("-i --in-place"), readonly_flags=E("-d --diff"),
                      examples=(("autopep8 --in-place -a src/a.py", "writes safe"),
                                ("autopep8 -d a.py", "readonly safe"))))
_add("yapf", Spec(category=LINT_FORMAT, operands="read",
                  flags=E(f"{_HELP} -v -i --in-place -d --diff -r --recursive -p --parallel -vv --verbose -q --quiet "
                          "--no-local-style --print-modified"),
                  value_opts=E("-l --lines -e --exclude"), load_flags=E("--style"),
                  inplace_flags=E("-i --in-place"), readonly_flags=E("-d --diff"),
                  examples=(("yapf -ir src", "writes safe"), ("yapf --diff --style=google a.py", "readonly safe"))))
_add("autoflake", Spec(category=LINT_FORMAT, operands="read",
                       flags=E(f"{_HELP} -i --in-place -r --recursive -c --check --check-diff "
                               "--remove-all-unused-imports --remove-unused-variables --remove-duplicate-keys "
                               "--expand-star-imports --ignore-init-module-imports --ignore-pass-statements "
                               "--ignore-pass-after-docstring -s --stdout -q --quiet -v --verbose"),
                       value_opts=E("-j --jobs --exclude --imports"), load_flags=E("--config"),
                       inplace_flags=E("-i --in-place"), readonly_flags=E("-c --check --check-diff -s --stdout"),
                       examples=(("autoflake -i --remove-all-unused-imports a.py", "writes safe"),)))
_add("pyupgrade", Spec(category=LINT_FORMAT, operands="read", inplace=True,
                       flags=E(f"{_HELP} --py3-plus --py36-plus --py37-plus --py38-plus --py39-plus --py310-plus "
                               "--py311-plus --py312-plus --py313-plus --py314-plus --keep-percent-format --keep-mock "
                               "--keep-runtime-typing --exit-zero-even-if-changed"),
                       examples=(("pyupgrade --py311-plus src/a.py", "writes safe"),)))
_add("docformatter", Spec(category=LINT_FORMAT, operands="read",
                          flags=E(f"{_HELP} -i --in-place -c --check -r --recursive --force-wrap "
                                  "--pre-summary-newline --make-summary-multi-line --close-quotes-on-newline --blank "
                                  "--non-strict --black --diff"),
                          value_opts=E("--tab-width --wrap-summaries --wrap-descriptions -e --exclude --range "
                                       "--docstring-length --non-cap"),
                          load_flags=E("--config"), inplace_flags=E("-i --in-place"), readonly_flags=E("-c --check"),
                          examples=(("docformatter -c -r src", "readonly safe"),
                                    ("docformatter -i a.py", "writes safe"))))

# -- type checkers and linters -------------------------------------------------------------------------
_MYPY_FLAGS = E(
    f"{_HELP} -V -v --verbose --strict --ignore-missing-imports --no-implicit-optional --implicit-optional "
    "--check-untyped-defs --disallow-untyped-defs --disallow-incomplete-defs --disallow-untyped-calls "
    "--disallow-any-generics --disallow-untyped-decorators --disallow-subclassing-any --disallow-any-unimported "
    "--disallow-any-expr --disallow-any-decorated --disallow-any-explicit --no-implicit-reexport --implicit-reexport "
    "--warn-unused-ignores --no-warn-unused-ignores --warn-redundant-casts --warn-return-any --no-warn-return-any "
    "--warn-unreachable --warn-unused-configs --no-warn-unused-configs --warn-incomplete-stub --warn-no-return "
    "--no-warn-no-return --strict-equality --no-strict-equality --strict-optional --no-strict-optional "
    "--show-error-codes --hide-error-codes --show-column-numbers --show-error-context --show-error-end "
    "--show-traceback --tb --pretty --no-pretty --no-error-summary --error-summary --show-absolute-path "
    "--no-color-output --color-output --namespace-packages --no-namespace-packages --explicit-package-bases "
    "--no-site-packages --no-silence-site-packages --non-interactive --incremental --no-incremental --sqlite-cache "
    "--skip-version-check --skip-cache-mtime-checks --allow-untyped-globals --allow-redefinition "
    "--local-partial-types --strict-concatenate --extra-checks --show-error-code-links --raise-exceptions "
    "--fast-exit --no-fast-exit --exclude-gitignore --scripts-are-modules --follow-untyped-imports "
    "--allow-untyped-calls --allow-untyped-defs --allow-incomplete-defs --allow-subclassing-any "
    "--allow-any-generics --cache-fine-grained --force-uppercase-builtins --no-warn-unreachable "
    "--disallow-untyped-globals --no-check-untyped-defs --stats --inferstats")
_MYPY_REPORTS = E("--junit-xml --any-exprs-report --cobertura-xml-report --html-report --linecount-report "
                  "--linereport --lineprecision-report --memory-xml-report --txt-report --xml-report "
                  "--xslt-html-report --xslt-txt-report --cache-dir")
_add("mypy dmypy", Spec(category=LINT_FORMAT, operands="read", flags=_MYPY_FLAGS,
                        value_opts=E("-m --module -p --package -c --command --python-version --platform "
                                     "--always-true --always-false --exclude --follow-imports --package-root "
                                     "--soft-error-limit --output --untyped-calls-exclude --disable-error-code "
                                     "--enable-error-code --enable-incomplete-feature --custom-typing-module"),
                        write_flags=_MYPY_REPORTS, load_flags=E("--config-file --custom-typeshed-dir"),
                        exec_flags=E("--python-executable"), mutate_flags=E("--install-types"),
                        examples=(("mypy src", "safe"), ("mypy --strict --ignore-missing-imports src", "safe"),
                                  ("mypy --config-file /tmp/mypy.ini src", "notsafe"),
                                  ("mypy --install-types --non-interactive src", "notsafe"),
                                  ("mypy --html-report /etc/x src", "notsafe"))))
_add("pyright basedpyright", Spec(
    category=LINT_FORMAT, operands="read",
    flags=E(f"{_HELP} --outputjson --verbose -w --watch --stats --dependencies --skipunannotated --warnings --lib "
            "--ignoreexternal --threads"),
    value_opts=E("--level --pythonplatform --pythonversion --verifytypes --createstub"),
    load_flags=E("-p --project -t --typeshedpath --venvpath --typeshed-path --venv-path"),
    exec_flags=E("--pythonpath --python-path"),
    examples=(("pyright src", "safe"), ("pyright --outputjson -p pyproject.toml", "safe"),
              ("pyright --pythonpath /tmp/py src", "executes notsafe"))))
_add("pylint", Spec(
    category=LINT_FORMAT, operands="read",
    flags=E(f"{_HELP} --long-help -v --verbose -E --errors-only --exit-zero --generate-rcfile "
            "--generate-toml-config --list-msgs --list-msgs-enabled --list-groups --list-conf-levels "
            "--list-extensions --full-documentation --clear-cache-post-run --suggestion-mode --from-stdin"),
    value_opts=E("-s --score --persistent --fail-under --fail-on -j --jobs -f --output-format -r --reports "
                 "--msg-template --recursive --ignore --ignore-patterns --ignore-paths --max-line-length "
                 "--help-msg -e --enable -d --disable --confidence --good-names --bad-names --prefer-stubs "
                 "--py-version --limit-inference-results --source-roots --max-args --min-similarity-lines"),
    write_flags=E("--output"), load_flags=E("--rcfile"),
    exec_flags=E("--init-hook --load-plugins --extension-pkg-allow-list --extension-pkg-whitelist "
                 "--unsafe-load-any-extension"),
    examples=(("pylint src", "safe"), ("pylint --disable=C0114 -j 4 src/pkg", "safe"),
              ("pylint --init-hook='import os; os.system(\"id\")' x.py", "executes notsafe"),
              ("pylint --rcfile=/tmp/pylintrc src", "notsafe"),
              ("pylint --load-plugins=evil src", "executes notsafe"))))
_add("flake8", Spec(
    category=LINT_FORMAT, operands="read",
    flags=E(f"{_HELP} -v --verbose -q --quiet --count --exit-zero --show-source --no-show-source --statistics "
            "--benchmark --bug-report --isolated --disable-noqa --doctests --tee --hang-closing"),
    value_opts=E("-j --jobs --color --format --select --ignore --extend-ignore --extend-select --per-file-ignores "
                 "--max-line-length --max-doc-length --max-complexity --exclude --extend-exclude --filename "
                 "--stdin-display-name --indent-size --require-plugins --enable-extensions --builtins "
                 "--docstring-convention --import-order-style --application-import-names --inline-quotes "
                 "--min-python-version --max-function-length"),
    write_flags=E("--output-file"), load_flags=E("--config --append-config"),
    examples=(("flake8 .", "safe"), ("flake8 --max-line-length=120 --count src", "safe"),
              ("flake8 --config /tmp/x.cfg .", "notsafe"), ("flake8 --output-file ~/.bashrc .", "notsafe"))))

_LINT_FLAGS = E(f"{_HELP} -V -v --verbose -q --quiet --count --statistics --show-source --exit-zero --no-color "
                "-r --recursive --json --all --strict")
_LINT_VALUES = E("--format -f --select --ignore --exclude --max-line-length --max-complexity --min-confidence "
                 "--convention --severity --skip -s -x --exclude-dir -t --tests -l --level -i --confidence-level "
                 "--color -j --jobs --sort-by-size --min")
_add("pycodestyle pydocstyle pyflakes bandit vulture radon mccabe", Spec(
    category=LINT_FORMAT, operands="read", flags=_LINT_FLAGS, value_opts=_LINT_VALUES,
    write_flags=E("-o --output"), load_flags=E("-c --config --configfile --ini --rcfile"),
    examples=(("bandit -r src", "safe"), ("pycodestyle --max-line-length=120 src", "safe"),
              ("bandit -c /tmp/b.yaml -r src", "notsafe"), ("vulture --make-whitelist src", "notsafe"))))


# -- documentation, notebooks and migrations that only look ------------------------------------------------
_add("mkdocs", Spec(operands="none", flags=E(_HELP + " -V --version"), subcommands=subs({}, (
    "build", Spec(category=TEST_BUILD, operands="none", does="builds the project's documentation",
                  flags=E(_HELP + " -s --strict -c --clean --dirty -q --quiet -v --verbose --no-directory-urls"),
                  value_opts=E("-t --theme"), write_flags=E("-d --site-dir"), load_flags=E("-f --config-file"))),
    ("serve", Spec(category=TEST_BUILD, operands="none", does="serves the project's documentation",
                   flags=E(_HELP + " -s --strict --dirty --livereload --no-livereload -q -v --open"),
                   value_opts=E("-a --dev-addr -t --theme"), load_flags=E("-f --config-file"))),
    ("*", Spec(operands="none", does="runs a mkdocs command (gh-deploy publishes)", category=None))),
    examples=(("mkdocs build --strict", "safe"), ("mkdocs gh-deploy", "notsafe"),
              ("mkdocs build -f /tmp/m.yml", "notsafe"))))
_add("alembic", Spec(operands="none", flags=E(_HELP + " --version"), value_opts=E("-c --config -n --name -x"),
                     subcommands=subs({}, (
    "heads history current branches show check", ro(operands="none", flags=E(_HELP + " -v --verbose -i --indicate-current"),
                                                  value_opts=E("-r --rev-range"))),
    ("*", Spec(operands="none", does="changes the database schema (upgrade, downgrade, stamp …)", category=None))),
    examples=(("alembic heads", "readonly safe"), ("alembic history -r-5:current", "readonly safe"),
              ("alembic upgrade head", "notsafe"))))
_add("pipdeptree", ro(operands="none",
                      flags=E(_HELP + " -v -f --freeze -a --all -l --local-only -u --user-only -r --reverse -j --json "
                              "--json-tree --mermaid --license --exclude-dependencies"),
                      value_opts=E("-p --packages -e --exclude -d --depth -w --warn --encoding --graph-output"),
                      load_flags=E("--python --path"),  # another interpreter it runs, site directories it imports
                      examples=(("pipdeptree -p requests", "readonly safe"), ("pipdeptree -r -p urllib3", "readonly safe"),
                                ("pipdeptree --python /tmp/py/bin/python", "notsafe"))))
