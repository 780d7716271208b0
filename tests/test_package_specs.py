"""The package-argument parsers: which arguments are default-index names, local paths or other sources."""
from __future__ import annotations

import pytest

from phlegyas.analysis.programs import popular_packages
from phlegyas.analysis.programs.popular_packages import lookalike
from phlegyas.analysis.shell.handlers.package_specs import npm_spec, package_name, pip_spec

PIP = [
    ("requests", "name"), ("requests==2.31", "name"), ("requests[socks]>=2", "name"), ("Django>=4.2,<5", "name"),
    ("numpy~=1.26", "name"), ("zope.interface", "name"), ("my_pkg!=1.0", "name"),
    (".", "path"), ("./libs/a", "path"), (".[dev,test]", "path"), ("../other", "path"), ("/tmp/x", "path"),
    ("git+https://github.com/x/y", "other"), ("https://x.example/y.whl", "other"), ("/tmp/x.whl", "other"),
    ("dist/a-1.0.tar.gz", "other"), ("pkg @ https://x.example/p.zip", "other"), ("pkg@1.0", "other"),
    ("foo; os_name=='nt'", "other"), ("file:///tmp/x", "other"), ("git@github.com:x/y.git", "other"),
]
NPM = [
    ("lodash", "name"), ("lodash@4.17.21", "name"), ("@types/node@20", "name"), ("react@^18", "name"),
    ("typescript@>=5 <6", "name"), ("vitest@latest", "name"), ("pkg@workspace:*", "name"),
    ("./packages/a", "path"), ("../../other", "path"), ("file:../x", "path"), ("dep@file:./vendor/dep", "path"),
    ("lodash@npm:evil", "other"), ("user/repo", "other"), ("github:user/repo", "other"),
    ("https://x.example/a.tgz", "other"), ("./a-1.0.0.tgz", "other"), ("git+ssh://git@github.com/x/y", "other"),
    ("foo@user/repo#main", "other"), ("foo@git+https://x.example/r", "other"), ("@scope", "other"),
]


@pytest.mark.parametrize("text, kind", PIP)
def test_pip_spec(text: str, kind: str):
    got = pip_spec(text)
    assert got.kind == kind, (text, got)
    assert (got.why != "") == (kind == "other")


@pytest.mark.parametrize("text, kind", NPM)
def test_npm_spec(text: str, kind: str):
    got = npm_spec(text)
    assert got.kind == kind, (text, got)
    assert (got.why != "") == (kind == "other")


def test_poetry_and_uvx_versions_after_at():
    assert pip_spec("requests@^2.31", at_versions=True).kind == "name"
    assert pip_spec("ruff@0.5.0", at_versions=True).kind == "name"
    assert pip_spec("ruff@https://x.example/r.whl", at_versions=True).kind == "other"


def test_package_name_drops_versions_and_extras():
    assert package_name("@Scope/X@1.2") == "@scope/x"
    assert package_name("Ruff==0.5") == "ruff"
    assert package_name("zope_interface[x]>=1") == "zope-interface"
    assert package_name("evil-pkg") != package_name("tsc")


@pytest.mark.parametrize("text, registry, imitated", [
    ("reqeusts", "pypi", "requests"), ("jeIlyfish", "pypi", "jellyfish"), ("numpyy", "pypi", "numpy"),
    ("python-dateutils", "pypi", "python-dateutil"), ("crossenv", "npm", "cross-env"), ("lodahs", "npm", "lodash"),
    ("expresss", "npm", "express"), ("c0lors", "npm", "colors"),
])
def test_a_name_one_typo_from_a_popular_package_is_not_a_plain_name(text, registry, imitated):
    got = pip_spec(text) if registry == "pypi" else npm_spec(text)
    assert got.kind == "other" and imitated in got.why, got
    assert lookalike(text, registry) == imitated


@pytest.mark.parametrize("text, registry", [
    ("requests", "pypi"), ("requests==2.31.0", "pypi"), ("python-dateutil", "pypi"), ("types-requests", "pypi"),
    ("pytest-django", "pypi"), ("rich", "pypi"), ("httpx", "pypi"), ("django-environ", "pypi"), ("six", "pypi"),
    ("lodash", "npm"), ("react-dom", "npm"), ("@types/node", "npm"), ("vitest@1.6.0", "npm"), ("cross-env", "npm"),
])
def test_popular_and_unrelated_names_stay_plain(text, registry):
    assert (pip_spec(text) if registry == "pypi" else npm_spec(text)).kind == "name"


def test_every_popular_name_is_itself_no_lookalike():
    assert [n for n in popular_packages.PYPI if lookalike(n, "pypi")] == []
    assert [n for n in popular_packages.NPM if lookalike(n, "npm")] == []
