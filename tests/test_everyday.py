"""Everyday work flows that must not need a person (issue 11, item 8), and the unsafe twins that must.

The pieces are tested on their own here — the token allow-list for JavaScript/Ruby/Perl one-liners,
Python's version imports and environment reads, the generated-directory list, the cache-only ``find``,
a whole ``<(…)`` word, the syntax-check options — and end to end in ``tests/cases/everyday.tsv``.
"""
from __future__ import annotations

import pytest

from phlegyas.analysis.generated import (
    GENERATED_EXAMPLES,
    cache_expression,
    generated_find,
    generated_target,
    is_generated_name,
)
from phlegyas.analysis.report import analyze_command
from phlegyas.analysis.shell.interpreters import analyze_python
from phlegyas.analysis.shell.interpreters.pure_scripts import pure_script
from phlegyas.analysis.shell.parse import Word
from phlegyas.analysis.tier1.expansion import is_unknown, process_substitution
from phlegyas.core.analysis import AnalysisEnv

ENV = AnalysisEnv(cwd="/home/u/proj", home="/home/u", project_root="/home/u/proj")


def safe(command: str) -> str | None:
    return analyze_command(command, ENV).safe


# -- JavaScript, Ruby, Perl: an allow-list over tokens ----------------------------------------------

PURE_SCRIPTS = [
    ("console.log(process.version)", "js", True),
    ("require('./package.json').version", "js", True),
    ("require('os').platform()", "js", True),
    ("const n = 3; console.log(n * 2)", "js", True),
    ("[1, 2].map((a, i) => a + i)", "js", True),
    ("console.log({name: 'x'})", "js", True),
    ("require('child_process').execSync('id')", "js", False),
    ("require('fs').readdirSync('/etc/shadow').map(f => f.x)", "js", False),
    ("require('./index.js')", "js", False),
    ("process.env.TOKEN", "js", False),
    ("Object.values(process)", "js", False),
    ("console['constructor']", "js", False),
    ("[].constructor.constructor('x')()", "js", False),
    ("eval('1')", "js", False),
    ("`${require('child_process')}`", "js", False),
    ("fetch('https://x.example')", "js", False),
    ("require('fs').readFileSync('a.json', 'utf8')", "js", True),
    ("require('fs').writeFileSync('a.json', '')", "js", False),
    ("require('fs').readFileSync(name)", "js", False),
    ("const fs = require('fs')", "js", False),
    ("puts RUBY_VERSION", "ruby", True),
    ("puts [1, 2].map { |x| x + 1 }.inspect", "ruby", True),
    ("require 'json'; puts JSON.generate({a: 1})", "ruby", True),
    ("puts Gem::VERSION", "ruby", True),
    ("require 'open3'; Open3.capture2('id')", "ruby", False),
    ("system('id')", "ruby", False),
    ("puts `id`", "ruby", False),
    ("puts %x(id)", "ruby", False),
    ('puts "#{`id`}"', "ruby", False),
    ("puts ENV['HOME']", "ruby", False),
    ("[1].each(&:system)", "ruby", False),
    ("1.send(:system, 'id')", "ruby", False),
    ("File.write('x', 1)", "ruby", False),
    ("print 1+1", "perl", True),
    ("print $]", "perl", True),
    ("print if /TODO/", "perl", True),
    ("print for 1..3", "perl", True),
    ("system('id')", "perl", False),
    ("print `id`", "perl", False),
    ('print "@{[ `id` ]}"', "perl", False),
    ("print $ENV{TOKEN}", "perl", False),
    ("print if /(?{ system('id') })/", "perl", False),
    ("s/a/b/e", "perl", False),
    ("&{'sys'}('id')", "perl", False),
    ('*{"CORE::GLOBAL::die"}{CODE}->()', "perl", False),
    ("unlink 'x'", "perl", False),
    ("print 1 # a comment", "perl", False),
    ("echo PHP_VERSION . PHP_EOL;", "php", True),
    ("$x = 2; echo $x * 3;", "php", True),
    ("system('id');", "php", False),
    ("$f = 'system'; $f('id');", "php", False),
    ("'system'('id');", "php", False),
    ("array_map('system', ['id']);", "php", False),
    ('echo "{$o->run()}";', "php", False),
    ("echo `id`;", "php", False),
    ("echo $_SERVER['HOME'];", "php", False),
    ("$$name = 1;", "php", False),
    ("$o->exec('id');", "php", False),
]


@pytest.mark.parametrize("code, lang, pure", PURE_SCRIPTS)
def test_script_purity_is_an_allow_list(code: str, lang: str, pure: bool):
    assert pure_script(code, lang).pure is pure


def test_a_required_json_file_is_a_read():
    assert pure_script("require('./package.json').version", "js").reads == ["./package.json"]


def test_a_file_read_through_fs_is_a_read():
    assert pure_script("require('fs').readFileSync('.env')", "js").reads == [".env"]


def test_a_secret_read_by_a_pure_script_still_asks():
    a = analyze_command("node -p \"require('fs').readFileSync('/etc/shadow')\"", ENV)
    assert a.safe is None and any(f.id == "sensitive.read" for f in a.findings)


def test_other_languages_are_never_pure():
    assert not pure_script("print(1)", "lua").pure


# -- Python: version imports, the environment ------------------------------------------------------

PYTHON = [
    ("import numpy; print(numpy.__version__)", True, ["numpy"]),
    ("import numpy as np; print(np.__version__)", True, ["numpy"]),
    ("from numpy import __version__; print(__version__)", True, ["numpy"]),
    ("import torch; print(torch.version.cuda)", True, ["torch"]),
    ("import requests; print(requests.__version__)", True, ["requests"]),
    ("import mypkg", True, ["mypkg"]),
    ("import numpy; numpy.save('x', 1)", False, ["numpy"]),
    ("import numpy; n = numpy; n.save('x', 1)", False, ["numpy"]),
    ("import torch; print(torch.__version__._secret)", False, ["torch"]),
    ("import numpy as np; print(np.arange(6).reshape(2, 3).sum())", True, ["numpy"]),  # a data library computes
    ("import pandas as pd; pd.read_csv('a.csv').to_csv('/etc/x')", False, ["pandas"]),  # but writes are writes
    ("import requests; requests.get('https://x.example')", False, ["requests"]),
    ("import os; print(os.getenv('HOME'))", True, []),
    ("import os; print(os.environ.get('PATH'))", True, []),
    ("import os; print(os.environ['USER'])", True, []),
    ("import os; print(os.environ)", False, []),
    ("import os; print(os.getenv('GITHUB_TOKEN'))", False, []),
    ("import os; k = 'HOME'; print(os.environ[k])", True, []),  # a name bound once to a literal is that literal
    ("import os; k = 'GITHUB_TOKEN'; print(os.environ[k])", False, []),
    ("import os, sys; k = sys.argv[1]; print(os.environ[k])", False, []),
    ("import os; k = 'HOME'; k = k + '_TOKEN'; print(os.environ[k])", False, []),
    ("from os import environ; print(dict(environ))", False, []),
]


@pytest.mark.parametrize("code, pure, imports", PYTHON)
def test_python_imports_and_environment(code: str, pure: bool, imports: list[str]):
    report = analyze_python(code)
    assert report.pure is pure
    assert report.imports == imports


def test_importing_a_network_module_for_its_version_uses_no_network():
    assert not any(k == "network" for k, _ in analyze_python("import requests; print(requests.__version__)").notes)
    assert any(k == "network" for k, _ in analyze_python("import requests; r = requests").notes)


def test_a_well_known_package_is_read_only_and_the_projects_own_is_project_code():
    assert safe('python -c "import numpy; print(numpy.__version__)"') == "read-only"
    assert safe('python -c "import mypkg; print(mypkg.__version__)"') == "test/build"
    assert safe("gen > mypkg.py && python -c 'import mypkg'") is None  # the write may plant code nobody sees
    assert safe("echo 'X = 1' > mypkg.py && python -c 'import mypkg'") == "test/build"  # shown and judged


# -- generated and cache directories ---------------------------------------------------------------

@pytest.mark.parametrize("command, generated", GENERATED_EXAMPLES)
def test_generated_examples(command: str, generated: bool):
    assert (safe(command) is not None) is generated


@pytest.mark.parametrize("text, dynamic, want", [
    ("build", False, True), ("./node_modules/", False, True), ("packages/web/dist", False, True),
    ("x.egg-info", False, True), ("*.egg-info", False, True), ("dist/*", False, True),
    ("src", False, False), ("build/../src", False, False), ("$X/build", True, False), (".git/build", False, False),
    ("*", False, False), ("src/*", False, False), ("b*ld", False, False), ("*/build", False, False),
    ("/home/u/other/build", False, False), ("/home/u/proj/build", False, True), (".", False, False),
    ("/home/u/proj", False, False),
])
def test_generated_target(text: str, dynamic: bool, want: bool):
    assert generated_target(text, dynamic, ENV.cwd, ENV.home, ENV.project_root) is want


def test_a_project_at_the_root_has_no_generated_directories():
    assert not generated_target("build", False, "/", "/home/u", "/")


def test_find_takes_only_the_unambiguous_cache_names():
    assert is_generated_name("__pycache__", by_find=True) and is_generated_name("x.pyc", by_find=True)
    assert is_generated_name("build") and not is_generated_name("build", by_find=True)


@pytest.mark.parametrize("args, want", [
    (". -name __pycache__ -exec rm -rf {} +", True),
    (". -type d -name __pycache__ -prune -exec rm -rf {} ;", True),
    (". -name *.pyc -delete", True),
    ("src tests -name .pytest_cache -exec rm -r {} +", True),
    (". -name *.py -delete", False),
    (". -name build -exec rm -rf {} +", False),
    (". -name __pycache__ -o -name src -delete", False),
    (". ! -name __pycache__ -delete", False),
    (". -name __pycache__ -exec rm -rf {} /etc ;", False),
    (". -name __pycache__ -exec sh -c x ;", False),
    (". -name __pycache__", False),
    ("/ -name __pycache__ -delete", False),
    (".. -name __pycache__ -delete", False),
    ("-delete", False),
])
def test_generated_find(args: str, want: bool):
    words = [(w, False) for w in args.split()]
    assert generated_find(words, ENV.cwd, ENV.home, ENV.project_root) is want


def test_the_expression_alone_decides_whether_find_exec_changes_every_file():
    assert cache_expression([(w, False) for w in "/anywhere -name __pycache__ -exec rm -rf {} +".split()])
    assert not cache_expression([(w, False) for w in ". -type d -exec chmod 755 {} ;".split()])
    assert safe("find . -type d -exec chmod 755 {} \\;") is None


@pytest.mark.parametrize("command, want", [
    ("find . -name __pycache__ -print0 | xargs -0 rm -rf", "safe write dir"),
    ("find src -name '*.pyc' | xargs rm -f", "safe write dir"),
    ("find . -name '*.py' | xargs rm -f", None),
    ("find . -name __pycache__ | xargs rm -rf src", None),
    ("find . -name __pycache__ -delete | xargs rm -rf", None),
    ("find .. -name __pycache__ | xargs rm -rf", None),
    ("find . -name __pycache__ | sort | xargs rm -rf", None),
    ("find . -name __pycache__ | xargs chmod -R 777", None),
])
def test_xargs_rm_of_a_cache_listing(command: str, want: str | None):
    assert safe(command) == want


def test_a_computed_find_word_is_never_a_cache_clean():
    words = [(".", False), ("-name", False), ("$N", True), ("-delete", False)]
    assert not generated_find(words, ENV.cwd, ENV.home, ENV.project_root)


# -- process substitution and syntax checks --------------------------------------------------------

@pytest.mark.parametrize("text, want", [
    ("<(sort a)", True), ("<(sort 'a)b')", True), ("<(sort a)x", False), ("x<(sort a)", False),
    ("<(a)<(b)", False), (">(sh)", False), ("$(cat f)", False),
])
def test_a_whole_process_substitution_is_a_known_word(text: str, want: bool):
    word = Word(text, dynamic=True)
    assert process_substitution(word) is want
    assert is_unknown(word) is not want


@pytest.mark.parametrize("command, want", [
    ("bash -n x.sh", "read-only"), ("sh -n x.sh", "read-only"), ("php -l x.php", "read-only"),
    ("node --check x.js", "read-only"), ("ruby -c x.rb", "read-only"),
    ("bash x.sh", None), ("bash -ni x.sh", None), ("bash +n x.sh", None), ("perl -c x.pl", None),
    ("node --check -r ./x.js y.js", None), ("php -l x.php -r 'system(1);'", None),
])
def test_syntax_checks_only_read(command: str, want: str | None):
    assert safe(command) == want


def test_a_syntax_check_reads_its_file_and_so_is_checked_for_secrets():
    a = analyze_command("bash -n /home/u/.ssh/id_rsa", ENV)
    assert a.safe is None
    assert any(f.id == "sensitive.read" for f in a.findings)


def test_perl_l_takes_only_an_attached_number():
    assert safe("perl -lne 'print if /x/' a.txt") == "read-only"
    assert safe("perl -l012 -ne 'print if /x/' a.txt") == "read-only"
