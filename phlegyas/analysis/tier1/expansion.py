"""Words bash decides only when the command runs, where an option or operand of the program could stand.

An unquoted expansion whose value is unknown (``$X``, ``${IFS}``, ``$(…)``) may vanish, split into several
words or become an option: ``find / ${IFS}-delete`` runs ``find / -delete``. A quoted one (``"$f"``) cannot
vanish or split but can still be ``-delete``. Such a word is *unknown*. Brace expansion is known: the
analysis does it first (``shell.braces``: ``dd if=/dev/zero {of=/dev/sda,}`` is ``dd … of=/dev/sda``), and
only a brace word it could not expand (quotes inside, or too many words) is unknown here.

- Tier 1 (``detect_unknown_words``, class ``shell.unknown_word``, ask): an unknown word in a program whose
  options or syntax can run, write, delete or send something (its table entry has a handler,
  subcommands, or flags that execute, write, rewrite, mutate or upload); the word could be that option.
  And in ``cd``/``pushd``: every relative path after it is then unknown.
- Tier 2 (``blocks_tier2``, used by ``analysis.report``): an unknown word keeps any program from being
  Tier-2 safe unless the program takes no operands and no such options (``echo "$x"``); an unknown path
  a program reads may be a secret (``cat "$f"``).

A word right after an option that takes a value is that value, whatever it holds (``grep -e "$p"``),
unless the option reads, writes, runs or sends what it names. ``$HOME`` and ``~`` are known (the paths are
normalized against the home directory), and literal variables of the same line (``d=/srv; rm -rf $d``)
are substituted before this runs.
"""
from __future__ import annotations

from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.globs import matches as glob_matches
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.options import may_be_option
from phlegyas.analysis.shell.parse import Word
from phlegyas.analysis.tier1.base import Out, add
from phlegyas.core.analysis import AnalysisEnv

_HOME: Final = ("$HOME", "${HOME}")
MOVES_CWD: Final = frozenset({"cd", "pushd"})
INERT_HANDLER: Final = "words_only"
"""The handler of ``echo`` and ``test``: it only says that their words are text, so it runs nothing."""
"""An unknown directory here makes every relative path after it unknown (``cd $X && cat id_rsa``)."""


def computed(word: Word) -> bool:
    """Whether the shell computes this word's value (``$dir/x``); ``$HOME``/``~`` alone are known."""
    if not word.dynamic:
        return False
    text = word.text
    for prefix in _HOME:
        if text.startswith(prefix):
            text = text[len(prefix):]
            break
    return "$" in text or "`" in text or "<(" in text or ">(" in text


def process_substitution(word: Word) -> bool:
    """Is ``word`` one whole ``<(…)``? Bash replaces it by one path (``/dev/fd/63``, a pipe from the commands
    inside, which are analysed on their own): it cannot vanish, split or become an option."""
    text = word.text
    if not word.dynamic or not text.startswith("<(") or not text.endswith(")"):
        return False
    depth = 0
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i == len(text) - 1
    return False


def is_unknown(word: Word) -> bool:
    """Whether bash decides this word's value (or how many words it becomes) only at run time."""
    if word.dynamic:
        return computed(word) and not process_substitution(word)
    # a brace word left as written: one ``shell.braces`` could not expand (quotes inside it, or too large)
    return word.glob and "{" in word.text and ("," in word.text or ".." in word.text)


_GLOB_OPTION_RUNS: Final = frozenset({"tar", "find", "zip"})
"""Handlers whose programs have options that run a command (``tar --to-command``, ``find -exec``,
``zip -TT``): a glob that may spell such an option is a Tier 1 question, not only a Tier 2 doubt (programs
whose entry lists ``exec_flags``, such as ``rsync -e``, are such programs without being named here)."""
_FIND_ACTIONS: Final = ("-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls")
"""find's primaries take no ``=value``: a glob spells one only when it matches the primary's name itself
(``*`` can, ``*.py`` cannot), unlike ``tar``'s ``--checkpoint-action=exec=sh x.py``."""


def _spells_option(program: str, word: Word) -> bool:
    if program in ("find", "gfind", "bfs"):
        return any(glob_matches(action, word.text) for action in _FIND_ACTIONS)
    return True


def _consequential(spec: P.Spec) -> frozenset[str]:
    """The options of ``spec`` whose value is read, written, run or sent."""
    return (spec.exec_flags | spec.write_flags | spec.read_flags | spec.upload_flags | spec.data_flags
            | spec.target_opts)


_PLAIN_VALUES: Final[dict[int, tuple[P.Spec, frozenset[str]]]] = {}


def _plain_values(spec: P.Spec) -> frozenset[str]:
    """The options of ``spec`` whose value is a plain value: computed once per table entry (the entry is
    kept with it, so a reused ``id`` is never mistaken for it)."""
    got = _PLAIN_VALUES.get(id(spec))
    if got is None or got[0] is not spec:
        got = _PLAIN_VALUES[id(spec)] = (spec, spec.value_opts - _consequential(spec))
    return got[1]


def unknown_words(spec: P.Spec | None, args: list[Word]) -> list[Word]:
    """The unknown words of ``args``, but for plain values of options that take one."""
    if spec is None:
        return [w for w in args if is_unknown(w)]
    if not any(is_unknown(w) for w in args):
        return []
    values = _plain_values(spec)
    out = []
    for i, word in enumerate(args):
        if not is_unknown(word):
            continue
        before = args[i - 1] if i else None
        if before is not None and not before.dynamic and before.text in values:
            continue  # ``-e "$pattern"``: the option's value, whatever it is
        out.append(word)
    return out


def option_sensitive(spec: P.Spec) -> bool:
    """Whether some option or syntax of the program runs, writes, deletes, mutates or sends something."""
    return bool(spec.handler not in (None, INERT_HANDLER) or spec.subcommands or spec.exec_flags or spec.write_flags or spec.inplace_flags
                or spec.inplace or spec.mutate_flags or spec.upload_flags or spec.data_flags
                or spec.operands in ("write", "delete", "mode", "move", "in_out", "target", "urls"))


def blocks_tier2(program: str, args: list[Word]) -> Word | None:
    """The first unknown word that keeps ``program ARGS`` from being Tier-2 safe, if any."""
    spec = P.spec_for(program)
    words = unknown_words(spec, args)
    if not words:
        return None
    if (spec is not None and spec.operands == "none" and not option_sensitive(spec) and not spec.read_flags
            and program not in MOVES_CWD):
        return None  # ``echo "$x"``: whatever the word is, the program only prints it
    return words[0]


def detect_unknown_words(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    spec = P.spec_for(inv.program)
    if spec is None or not (option_sensitive(spec) or inv.program in MOVES_CWD):
        return
    words = unknown_words(spec, inv.args)
    if words:
        shown = ", ".join(w.text for w in words[:3])
        add(out, "shell.unknown_word", inv,
            f"{inv.program} gets {shown}, which bash decides only when it runs: it may vanish, split into "
            f"several words or become an option of {inv.program}")
    elif spec.exec_flags or spec.handler in _GLOB_OPTION_RUNS:
        globs = [w for w in inv.args if may_be_option(w) and _spells_option(inv.program, w)]
        if globs:
            add(out, "shell.unknown_word", inv,
                f"{inv.program} gets {globs[0].text}, which may match a file named like an option of "
                f"{inv.program} (one that runs a command): name the files, or write ./{globs[0].text}")
