"""Text tools whose arguments can carry code: ``less +!cmd``, ``sed -i``/``-f``, awk programs and
``-i inplace``, TeX's shell escapes, editors or terminal sessions (which can run commands), jq's and yq's
two-word options and filters, and the words ``echo`` and ``test`` print or compare."""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.shell.handlers.base import Call
from phlegyas.analysis.shell.parse import Word


def plus_command(c: Call) -> None:
    for op in c.parsed.operands:
        if op.text.startswith("+") and "!" in op.text:
            c.eff.runs.append(f"executes code ({c.name} {op.text})")
            c.eff.reads.remove(op)
        elif op.text.startswith("+"):
            c.eff.reads.remove(op)


def sed(c: Call) -> None:
    """``-i`` may carry a suffix (``-i.bak``) or sit in a cluster (``-ni``): look at the raw words."""
    inplace = False
    for w in c.args:
        t = w.text
        if t == "--":
            break
        if t.startswith("--in-place"):
            inplace = True
        elif t.startswith("-") and not t.startswith("--"):
            head = t[1:].split("i", 1)
            if len(head) == 2 and all(ch in "nErsuz" for ch in head[0]):
                inplace = True
    files = c.parsed.values(("-f", "--file"))
    if files:
        eff_files = [f for f in files if f.text not in ("-", "/dev/stdin")]
        if eff_files:
            c.eff.runs.append("executes code (a sed script from a file)")
    if inplace:
        ops = c.parsed.operands if c.parsed.has(c.spec.pattern_opts) else c.parsed.operands[1:]
        c.eff.writes.extend(ops)
        _sed_suffix(c)


def _sed_suffix(c: Call) -> None:
    """``-i.bak``/``-ni~``: the letters after ``-i`` are a backup suffix, not flags; when every other option
    word is known, the "does not know" blockers that the suffix's letters caused are dropped."""
    spec = c.spec
    known = (spec.flags or frozenset()) | spec.value_opts | spec.pattern_opts | spec.inplace_flags
    for w in c.args:
        t = w.text
        if t == "--":
            break
        if not t.startswith("-") or t.startswith("--") or len(t) < 2:
            continue
        head = t[1:].split("i", 1)[0]
        letters = head if "i" in t[1:] else t[1:]
        if any("-" + ch not in known for ch in letters):
            return
    own = f"is an option phlegyas does not know for {c.name}"
    c.eff.blockers[:] = [b for b in c.eff.blockers if not b.endswith(own)]


def awk(c: Call) -> None:
    for opt, value in c.parsed.opts:
        if opt in ("-f", "--file", "-E", "--exec") and value is not None and value.text not in ("-", "/dev/stdin"):
            c.eff.runs.append("executes code (an awk program from a file)")
        elif opt in ("-i", "--include") and value is not None:
            if value.text == "inplace":
                ops = c.parsed.operands if c.parsed.has(c.spec.pattern_opts) else c.parsed.operands[1:]
                c.eff.writes.extend(o for o in ops if "=" not in o.text)
            else:
                c.eff.runs.append(f"loads awk code ({value.text})")
        elif opt in ("-l", "--load"):
            c.eff.runs.append("loads an awk extension")
        elif opt == "-W" and value is not None and value.text.split("=", 1)[0] not in _AWK_W_HARMLESS:
            c.eff.blockers.append(f"{c.name} -W {value.text} is an option phlegyas does not know for {c.name}")
    c.eff.reads[:] = [r for r in c.eff.reads if "=" not in r.text or r.text.startswith(("/", "."))]


_AWK_W_HARMLESS: Final = frozenset({"version", "V", "help", "usage", "copyright", "posix", "traditional", "compat",
                                    "sandbox", "lint", "interactive", "re-interval", "characters-as-bytes"})
"""``awk -W NAME``: the long options this spells that only change how awk reads its program. The others
(``-W exec file``, ``-W source=…``, ``-W dump-variables``, ``-W profile``) run or write something."""


def editor(c: Call) -> None:
    c.eff.runs.append(f"starts {c.name}, which can run commands")


_TEX_EXEC: Final = frozenset({"--shell-escape", "-shell-escape", "--enable-write18", "-enable-write18", "-R0", "-I",
                              "--filter", "-U", "--unsafe", "-e", "-pdflatex", "-latex", "-lualatex", "-xelatex",
                              "-usepretex"})


def tex(c: Call) -> None:
    for w in c.args:
        if w.text in _TEX_EXEC or w.text.startswith(("-R0", "-I", "--shell-escape", "-pdflatex=", "-latex=",
                                                     "--filter=", "-e")):
            c.eff.runs.append(f"executes code ({c.name} {w.text})")
            break
    for op in list(c.eff.reads):
        if op.text.startswith("\\") or "\\" in op.text:
            c.eff.reads.remove(op)
            c.eff.runs.append("executes code (inline TeX, which can write files or run commands)")


CREDENTIAL_PATTERN: Final = re.compile(r"AKIA|ASIA|\bgh[pousr]_|github_pat_|sk-ant-|\bxox[abprs]-|glpat-|AIza|"
                                       r"PRIVATE KEY|aws_secret_access_key|BEGIN (?:RSA|OPENSSH|EC|DSA)")
"""What a search looks for when it hunts credentials: token prefixes, private key headers."""


_SECRET_NAME: Final = re.compile(r"(?:API|SECRET|ACCESS|PRIVATE|AUTH)[_-]?KEY|_TOKEN\b|PASSW(?:OR)?D|CREDENTIAL", re.I)


def search_globs(c: Call) -> None:
    """``rg -g '.env*' '' .``, ``grep -r --include='*.pem' x .``: a name filter picks the files searched, so
    each directory searched is read as that glob under it (``./.env*``), and a glob spelling a secret's
    name is a secret read. Exclusions (``-g '!*.lock'``, ``--exclude``) pick nothing."""
    patterns = c.parsed.values(("-e", "--regexp")) or c.parsed.operands[:1]
    if any(CREDENTIAL_PATTERN.search(p.text) for p in patterns):  # `grep -rn AKIA .`: a hunt for keys
        c.eff.secrets.append(f"credentials the files may hold (it searches for {patterns[0].text[:12]}…)")
    elif c.name in ("grep", "egrep", "fgrep", "rgrep") and any(_SECRET_NAME.search(p.text) for p in patterns) and (
            c.parsed.has(("-r", "-R", "--recursive", "--dereference-recursive")) or c.name == "rgrep") and all(
            w.text.rstrip("/") in (".", "") for w in (c.parsed.operands if c.parsed.has(c.spec.pattern_opts)
                                                      else c.parsed.operands[1:])):  # `grep -rn API_KEY .` reads .env
        c.eff.secrets.append(f"the values of {patterns[0].text[:20]} in every file of the project, .env included")
    globs = [w for w in c.parsed.values(("-g", "--glob", "--iglob", "--include")) if not w.text.startswith("!")]
    if not globs:
        return
    ops = c.parsed.operands if c.parsed.has(c.spec.pattern_opts) else c.parsed.operands[1:]
    for where in [w.text.rstrip("/") for w in ops if not w.dynamic] or ["."]:
        for g in globs:  # a glob matches at any depth: `**/.env*` and `.env*` read alike
            name = g.text[3:] if g.text.startswith("**/") else g.text.lstrip("/")
            c.eff.reads.append(Word(f"{where}/{name}", g.dynamic, True, True))


def words_only(c: Call) -> None:
    """``echo`` and ``test`` obey only the options they know and print or compare every other word
    (``echo --- done``, ``[ "$a" = --help ]``): an unlisted option is text to them, not something phlegyas
    fails to understand."""
    own = f"is an option phlegyas does not know for {c.name}"
    c.eff.blockers[:] = [b for b in c.eff.blockers if not b.endswith(own)]


_JQ_TWO: Final = frozenset({"--arg", "--argjson", "--rawfile", "--slurpfile"})
"""jq options that take two words: a name, then a value (``--arg``) or a file it reads (``--rawfile``)."""
_JQ_FILES: Final = frozenset({"--rawfile", "--slurpfile"})
_JQ_MODULES: Final = re.compile(r"(?:^|[\s;|(])(?:import|include)\s+\"")
_YQ_LOAD: Final = re.compile(r"\bload(?:_str|_xml|_props|_base64|_yaml|_json)?\s*\(\s*(\"[^\"]*\")?")


def jq(c: Call) -> None:
    """jq, gojq, jaq and yq: ``--rawfile NAME FILE`` takes two words, which a one-value parse gets wrong,
    so the files read are worked out here from the raw words: the ``--rawfile``/``--slurpfile`` files, a
    ``-f`` program, and the inputs after the filter (none after ``--args``, whose words are strings). A
    filter that loads other files (``import``, yq's ``load()``) reads them. (A filter that shows the
    environment, ``env``/``$ENV``/``strenv()``, is ``analysis.environment``'s concern.)"""
    spec = c.spec
    one = (spec.value_opts | spec.read_flags | spec.load_flags | spec.pattern_opts) - _JQ_TWO
    args, eff = c.args, c.eff
    reads: list[Word] = []
    positional: list[Word] = []
    from_file = strings = False
    i, n = 0, len(args)
    while i < n:
        t = args[i].text
        if t == "--":
            positional.extend(args[i + 1:])
            break
        if t in _JQ_TWO:
            if t in _JQ_FILES and i + 2 < n:
                reads.append(args[i + 2])
            i += 3
            continue
        if t in ("--args", "--jsonargs"):
            strings = True
        elif t.startswith("--"):
            name, eq, value = t.partition("=")
            if name in spec.pattern_opts:
                from_file = True
            if not eq and name in one and i + 1 < n:
                if name in spec.pattern_opts or name in spec.read_flags:
                    reads.append(args[i + 1])
                i += 1
        elif t.startswith("-") and len(t) > 1:
            for j, ch in enumerate(t[1:], 1):
                name = "-" + ch
                if name in one:
                    if name in spec.pattern_opts:
                        from_file = True
                    if j == len(t) - 1 and i + 1 < n:
                        i += 1
                        if name in spec.pattern_opts or name in spec.read_flags:
                            reads.append(args[i])
                    break
        else:
            positional.append(args[i])
        i += 1
    program = None
    if not from_file and positional:
        program, positional = positional[0], positional[1:]
    eff.reads[:] = reads + ([] if strings else positional)
    if program is not None:
        _jq_program(c, program)


def _jq_program(c: Call, program: Word) -> None:
    eff, text = c.eff, program.text
    if program.dynamic:
        eff.blockers.append(f"{c.name} with a computed filter")
    if _JQ_MODULES.search(text):
        eff.blockers.append(f"{c.name} import/include loads other files")
    for m in _YQ_LOAD.finditer(text):
        if m.group(1) and len(m.group(1)) > 2:
            eff.reads.append(Word(m.group(1)[1:-1], program.dynamic))
        else:
            eff.blockers.append(f"{c.name} load() of a computed path")
