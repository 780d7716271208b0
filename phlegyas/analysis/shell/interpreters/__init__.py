"""Code handed to a language runtime or a text tool: what in it reaches the shell or the file system.

- Python is parsed for real (``ast``): ``os.system("…")``, ``subprocess.run([...])`` and friends give
  shell text or argv lists; ``shutil.rmtree(p)``, ``os.remove(p)`` … give synthetic commands
  (``rm -r p``); ``open(p, "w")`` a write; network modules a network note. Code that only computes and
  prints (a small allow-list of pure builtins, modules and methods) is reported ``pure``.
- JavaScript, Perl, Ruby, PHP, Lua, Tcl, R and others cannot be parsed here: a tokenizer of string
  literals finds the literal arguments of their ``system``/``exec``/backtick/``child_process`` forms
  and of their file-deleting calls. Everything else they do is "executes code".
- awk programs: ``system("…")``, ``print | "cmd"``, ``"cmd" | getline``, ``print > "file"``.
- sed scripts: the ``e`` command, the ``s///e`` flag, ``w file`` and ``s///w file``, ``r file``.

Each analysis returns a ``CodeReport``; ``shell.analyze`` turns it into invocations and notes.
"""
from phlegyas.analysis.shell.interpreters.code_report import CodeReport
from phlegyas.analysis.shell.interpreters.pure_scripts import PURE_RUBY_LIBRARIES
from phlegyas.analysis.shell.interpreters.python import PURE_MODULES, WELL_KNOWN, analyze_python
from phlegyas.analysis.shell.interpreters.scripting import analyze_literal_code
from phlegyas.analysis.shell.interpreters.text_tools import analyze_awk, analyze_sed

__all__ = [
    "CodeReport", "PURE_MODULES", "PURE_RUBY_LIBRARIES", "WELL_KNOWN", "analyze_awk", "analyze_literal_code",
    "analyze_python", "analyze_sed",
]
