"""The package's shape (docs/ARCHITECTURE.md): layers checked by import-linter, no import circles, small
modules, a short package root, and function-level imports only where they keep start-up lean."""
from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import phlegyas

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(phlegyas.__file__).resolve().parent
SOURCE = ROOT / "phlegyas"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
MAX_MODULE_LINES = 600
ROOT_MODULES = {"__init__.py", "__main__.py", "runtime.py",  # the package, ``python -m phlegyas``, the wiring
                "tier1_dangerous.py", "tier2_safe.py", "approver_mcp.py",  # the seed's public paths
                "hook.py", "trust_cli.py"}  # the module paths of earlier installs (hook command, python -m)

needs_source = pytest.mark.skipif(
    PACKAGE != SOURCE or not LINT_IMPORTS.exists(),
    reason="checks the source tree (an editable install with the dev extras), not an installed wheel")


def _modules(root: Path):
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" not in path.parts:
            yield path


def lint_imports(cwd: Path, *args: str, pythonpath: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


@needs_source
def test_the_contracts_hold():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "Contracts: 8 kept, 0 broken." in result.stdout, result.stdout[-3000:]


def _scratch_copy(tmp_path: Path) -> Path:
    """The source tree and the contracts, copied, so that a planted import breaks only the copy."""
    shutil.copytree(SOURCE, tmp_path / "phlegyas", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _plant(tree: Path, module: str, line: str) -> None:
    path = tree / (module.replace(".", "/") + ".py")
    path.write_text(path.read_text() + f"\n{line}\n")


@needs_source
@pytest.mark.parametrize("module, line, contract, says", [
    # a circle between two modules of one package, in the allowed direction for the layers contract
    ("phlegyas.analysis.paths", "from phlegyas.analysis import dispatch", "acyclic", "phlegyas.analysis"),
    # a circle between two sub-packages of the analysis
    ("phlegyas.analysis.shell.syntax", "from phlegyas.analysis.tier1 import catalog", "acyclic", "phlegyas.analysis"),
    # a lower layer importing a higher one (the core reading the policy)
    ("phlegyas.core.engine", "from phlegyas.policy import settings", "layers", "phlegyas.core"),
    # one host adapter importing another
    ("phlegyas.hosts.mcp.server", "from phlegyas.hosts.claude_code import install", "hosts", "claude_code"),
    ("phlegyas.hosts.gemini.install", "from phlegyas.hosts.codex import install", "hosts", "codex"),
    # one host's hook dialect importing another's
    ("phlegyas.hosts.hook.dialects.codex", "from phlegyas.hosts.hook.dialects import claude", "dialects", "claude"),
    # the host-neutral hook importing a host's own package (which imports the hook): a circle
    ("phlegyas.hosts.hook.decide", "from phlegyas.hosts.claude_code import install", "acyclic", "phlegyas.hosts"),
    # the package importing a seed shim
    ("phlegyas.runtime", "import phlegyas.tier2_safe", "shims", "phlegyas.tier2_safe"),
    # a function-level import is still an import
    ("phlegyas.store.files", "def _late():\n    from phlegyas.cli import main", "layers", "phlegyas.store"),
])
def test_a_planted_import_breaks_its_contract(tmp_path, module, line, contract, says):
    tree = _scratch_copy(tmp_path)
    before = lint_imports(tree, "--contract", contract, pythonpath=tree)
    assert before.returncode == 0, before.stdout[-3000:]  # the copy keeps the contract until the plant
    _plant(tree, module, line)
    result = lint_imports(tree, "--contract", contract, pythonpath=tree)
    assert result.returncode != 0, result.stdout[-3000:]
    assert "BROKEN" in result.stdout and says in result.stdout, result.stdout[-3000:]


@needs_source
def test_no_module_is_long():
    long = {str(p.relative_to(ROOT)): n for p in _modules(SOURCE)
            if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines (split them by what they hold): {long}"


def test_the_package_root_is_short():
    names = {p.name for p in PACKAGE.iterdir() if p.suffix == ".py"}
    assert names == ROOT_MODULES, "the root holds the seed's shims and the wiring only; new code goes in a layer"
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert packages == {"core", "analysis", "policy", "store", "trust", "ai", "human", "hosts", "cli"}


def _late_imports(path: Path):
    """(line, text, comment) of every import inside a function of ``path``."""
    source = path.read_text()
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    text = lines[inner.lineno - 1]
                    yield inner.lineno, text.strip(), "#" in text


@needs_source
def test_function_level_imports_say_why():
    """Imports at the top, except those that keep start-up lean (the hook, the CLI's other subcommands)
    or load an optional SDK; each of those says so in a comment on its line."""
    silent = [f"{p.relative_to(ROOT)}:{line}: {text}" for p in _modules(SOURCE) for line, text, says in _late_imports(p)
              if not says and not _continues_a_commented_block(p, line)]
    assert not silent, "function-level imports without a comment saying why:\n" + "\n".join(silent)


def _continues_a_commented_block(path: Path, line: int) -> bool:
    """An import in a block of imports whose first one says why (``import anyio`` # …, then the SDK's others)."""
    lines = path.read_text().splitlines()
    index = line - 2
    while index >= 0 and lines[index].strip().startswith(("import ", "from ")):
        if "#" in lines[index]:
            return True
        index -= 1
    return False


def test_the_seed_paths_still_import():
    from phlegyas.tier1_dangerous import DangerousPatternDetector
    from phlegyas.tier2_safe import SafeOperationDetector, SafePatternStore

    assert DangerousPatternDetector().is_dangerous("Bash", {"command": "rm -rf /"})[0] is True
    assert SafeOperationDetector().is_safe("Bash", {"command": "git status"}) == (True, "git read")
    assert SafePatternStore.__module__ == "phlegyas.analysis.tier2"


SEED_HOOK = '''
import json, sys
from phlegyas.tier1_dangerous import DangerousPatternDetector
from phlegyas.tier2_safe import SafeOperationDetector

event = json.load(sys.stdin)
tool, data = event["tool_name"], event["tool_input"]
dangerous, reason = DangerousPatternDetector().is_dangerous(tool, data)
if dangerous:
    print(json.dumps({"decision": "block", "reason": reason}))
    sys.exit(2)
safe, category = SafeOperationDetector().is_safe(tool, data)
print(json.dumps({"decision": "approve" if safe else "ask", "reason": category}))
'''


@pytest.mark.parametrize("command, exit_status, decision", [
    ("rm -rf /", 2, "block"),
    ("git status", 0, "approve"),
    ("frobnicate --all", 0, "ask"),
])
def test_a_hook_script_written_against_the_seeds_api_runs(tmp_path, command, exit_status, decision):
    """The seed README's kind of hook: its own script importing the seed's two detectors."""
    script = tmp_path / "seed_hook.py"
    script.write_text(SEED_HOOK)
    event = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}}
    result = subprocess.run([sys.executable, "-P", str(script)], input=json.dumps(event),
                            capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert result.returncode == exit_status, result.stderr
    assert json.loads(result.stdout)["decision"] == decision


@pytest.mark.parametrize("module, says", [
    ("phlegyas.trust_cli", "phlegyas-trust"),  # the module path earlier docs gave for phlegyas-trust
    ("phlegyas.approver_mcp", "MCP permission server"),  # the seed's MCP module
    ("phlegyas.cli", "permission gate"),  # python -m phlegyas.cli, as before the CLI was a package
    ("phlegyas.cli.trust", "phlegyas-trust"),
    ("phlegyas.hosts.mcp.server", "MCP permission server"),
])
def test_every_module_path_that_ran_still_runs(tmp_path, module, says):
    result = subprocess.run([sys.executable, "-P", "-m", module, "--help"], capture_output=True, text=True,
                            cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.stderr
    assert says in result.stdout
