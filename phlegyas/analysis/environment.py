"""What a command shows of the environment: a dump of every variable, or a variable that holds a secret.

``printenv``, a bare ``env``, ``set``, ``export -p``, ``declare -p`` print every variable, API keys and
tokens included, into the agent's context; ``echo "$NPM_TOKEN"`` prints one. Neither is Tier-2 safe: the
report turns each into a ``shows …`` effect and a ``sensitive.read`` finding (ask). A variable is secret
when its name says so (``core.redact.secret_kind``: ``*_TOKEN``, ``*_SECRET*``, ``*PASSWORD``, ``API_KEY``…).

Programs reach the environment from their own code too: jq's ``$ENV`` and ``env`` (yq's ``env(NAME)``),
awk's ``ENVIRON``, Python's ``os.environ`` and ``os.getenv`` in ``python -c``, and BSD ``ps e``, which
prints every process's environment. A named variable counts when its name says it holds a secret; the
whole environment (``$ENV``, ``ENVIRON[k]``, ``print(os.environ)``) always counts.
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.shell.parse import Word
from phlegyas.core.redact import secret_kind

_VARIABLE: Final = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
_DUMP_FLAGS: Final = {
    "env": frozenset({"-0", "--null"}),
    "printenv": frozenset({"-0", "--null"}),
    "set": frozenset(),
    "export": frozenset({"-p"}),
    "declare": frozenset({"-p", "-x", "-px", "-xp", "-g"}),
    "typeset": frozenset({"-p", "-x", "-px", "-xp"}),
}
"""Programs that print every variable when given none of their other arguments, and the flags that do
not change that."""
HTTP_CLIENTS: Final = frozenset({"curl", "curlie", "wget", "wget2", "http", "https", "httpie", "xh"})
"""They send a secret variable rather than show it: ``tier1.fetch`` judges where it goes."""


def secret_variables(text: str) -> list[str]:
    """The variables of ``text`` whose names say they hold a secret (``$AWS_SECRET_ACCESS_KEY``), an
    access key's id among them: ``$AWS_ACCESS_KEY_ID`` is half of the credential and names the account
    (redaction leaves such names alone, as ``*_ID`` describes rather than holds a secret)."""
    return [name for name in _VARIABLE.findall(text) if secret_kind(name) is not None or _KEY_ID.search(name)]


_KEY_ID: Final = re.compile(r"ACCESS_?KEY_?ID$", re.I)


def shown_secrets(program: str, args: list[Word]) -> list[str]:
    """What ``program ARGS`` shows of secrets, as phrases for the report (empty when nothing)."""
    flags = _DUMP_FLAGS.get(program)
    if flags is not None and all(not w.dynamic and w.text in flags for w in args):
        return ["the whole environment (API keys and tokens included)"]
    reader = _CODE_READERS.get(program) or (_python if program.startswith(("python", "pypy")) else None)
    if reader is None and program not in ("printenv", "ps") and (program in HTTP_CLIENTS or not any(
            w.dynamic for w in args)):
        return []  # the common case: nothing reads the environment, and no word expands a variable
    out: list[str] = []
    if program == "printenv":
        out.extend(f"${w.text}, a variable that holds a secret" for w in args
                   if not w.dynamic and secret_kind(w.text) is not None)
    for word in args if program not in HTTP_CLIENTS else ():
        if word.dynamic:
            out.extend(f"${name}, a variable that holds a secret" for name in secret_variables(word.text))
            if "${!" in word.text:  # `${!v}`, `${!AWS*}`: variables picked when it runs, the secret ones too
                out.append(f"variables chosen at run time ({word.text[:40]}), secret ones possibly")
    if program == "ps" and _ps(args):
        out.append("the environment of every process it lists (API keys and tokens included)")
    if reader is not None:
        for name in reader(args):
            out.append(_WHOLE if name is None else f"${name}, a variable that holds a secret")
    return list(dict.fromkeys(out))


_WHOLE: Final = "the whole environment (API keys and tokens included)"
Names = list[str | None]
"""The variables a program's code reads: a name, or None for the whole environment."""


def _secret_or_whole(names: Names) -> Names:
    return [n for n in names if n is None or secret_kind(n) is not None]


def _program_text(args: list[Word], values: frozenset[str], twice: frozenset[str], from_file: frozenset[str],
                  inline: frozenset[str] = frozenset()) -> list[str]:
    """The program text(s) of a filter language's arguments: the values of ``inline`` options
    (``awk -e``), else the first operand, unless an option of ``from_file`` reads it from a file."""
    texts: list[str] = []
    i, n, file_given = 0, len(args), False
    while i < n:
        text = args[i].text
        if text == "--":
            i += 1
            break
        if not text.startswith("-") or text == "-":
            break
        if text in twice:
            i += 3
            continue
        if text in values or text in from_file or text in inline:
            if text in inline and i + 1 < n:
                texts.append(args[i + 1].text)
            file_given = file_given or text in from_file
            i += 2
            continue
        i += 1
    if not texts and not file_given and i < n:
        texts.append(args[i].text)
    return texts


_JQ_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*"')
_JQ_ENV = re.compile(r'(?<![\w.$])(?:\$ENV|env)\b(?!\s*:)(?:\s*\.\s*([A-Za-z_]\w*)|\s*\.?\[\s*"([^"\\]*)"\s*\])?')
_YQ_ENV: Final = re.compile(r"\b(?:str)?env\(\s*([A-Za-z_]\w*)?\s*\)|\benvsubst\b")
_JQ_VALUES: Final = frozenset({"--indent", "-L", "--library-path"})
_JQ_TWICE: Final = frozenset({"--arg", "--argjson", "--slurpfile", "--rawfile"})
_JQ_FILE: Final = frozenset({"-f", "--from-file"})


def _jq(args: list[Word]) -> Names:
    """``jq -n '$ENV'``, ``jq -n 'env.GITHUB_TOKEN'``, ``yq 'strenv(NPM_TOKEN)'``: what the filter reads."""
    names: Names = []
    for code in _program_text(args, _JQ_VALUES, _JQ_TWICE, _JQ_FILE):
        strings = [m.span() for m in _JQ_STRING.finditer(code)]
        for m in _JQ_ENV.finditer(code):
            if not any(a <= m.start() < b for a, b in strings):
                names.append(m.group(1) or m.group(2))
        for m in _YQ_ENV.finditer(code):
            names.append(m.group(1) if m.group(0).startswith(("env", "strenv")) else None)
    return _secret_or_whole(names)


_AWK_ENV: Final = re.compile(r'\bENVIRON\b(?:\s*\[\s*"([A-Za-z_]\w*)"\s*\])?')
_AWK_VALUES: Final = frozenset({"-F", "-v", "-i", "-l", "--assign", "--field-separator", "--include", "--load"})
_AWK_FILE: Final = frozenset({"-f", "-E", "--file", "--exec"})
_AWK_INLINE: Final = frozenset({"-e", "--source"})


def _awk(args: list[Word]) -> Names:
    """``awk 'BEGIN{print ENVIRON["AWS_SECRET_ACCESS_KEY"]}'``, ``for (k in ENVIRON)``."""
    names: Names = []
    for code in _program_text(args, _AWK_VALUES, frozenset(), _AWK_FILE, _AWK_INLINE):
        names.extend(m.group(1) for m in _AWK_ENV.finditer(code))
    return _secret_or_whole(names)


_PY_ENV: Final = re.compile(r"\b(?:os\.)?environb?\b(?:\s*(?:\.\s*get\s*\(|\[)\s*[rbuRBU]?['\"]([A-Za-z_]\w*)['\"])?")
_PY_GETENV: Final = re.compile(r"\bgetenvb?\s*\(\s*(?:[rbuRBU]?['\"]([A-Za-z_]\w*)['\"])?")


def _python(args: list[Word]) -> Names:
    """``python -c 'import os; print(os.environ)'``, ``os.getenv("OPENAI_API_KEY")``."""
    code = next((args[i + 1].text for i, w in enumerate(args[:-1]) if w.text == "-c"), None)
    if code is None or "environ" not in code and "getenv" not in code:
        return []
    names = [m.group(1) for m in _PY_ENV.finditer(code)] + [m.group(1) for m in _PY_GETENV.finditer(code)]
    return _secret_or_whole(names)


_PS_VALUES = frozenset({"-o", "-O", "-p", "-u", "-U", "-g", "-G", "-t", "-C", "-q", "--format", "--sort", "--pid",
                        "--ppid", "--user", "--group", "-k"})


def _ps(args: list[Word]) -> bool:
    """BSD ``ps e`` (``ps auxe``, ``ps eww``) prints each process's environment after its command."""
    previous = ""
    for word in args:
        text = word.text
        if not text.startswith("-") and text.isalpha() and "e" in text and previous not in _PS_VALUES:
            return True
        previous = text
    return False


_CODE_READERS: Final = {"jq": _jq, "gojq": _jq, "jaq": _jq, "yq": _jq, "awk": _awk, "gawk": _awk, "mawk": _awk,
                        "nawk": _awk}
