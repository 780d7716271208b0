"""Programs for the text tools awk and sed: what in them runs commands, writes or reads files.

- awk: ``system("…")``, ``print | "cmd"``, ``"cmd" | getline``, ``print > "file"``.
- sed: the ``e`` command, the ``s///e`` flag, ``w file`` and ``s///w file``, ``r file``.
"""
from __future__ import annotations

from phlegyas.analysis.shell.interpreters.code_report import CodeReport

# -- awk --------------------------------------------------------------------------------------------

def _awk_tokens(prog: str) -> list[tuple[str, str]]:
    """awk tokens: strings ("s"), regex literals ("r"), words ("w"), operators ("o"), newlines ("n")."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(prog)
    prev_operand = False
    while i < n:
        ch = prog[i]
        if ch == "#":
            while i < n and prog[i] != "\n":
                i += 1
            continue
        if ch == "\\" and i + 1 < n and prog[i + 1] == "\n":
            i += 2
            continue
        if ch == "\n":
            out.append(("n", "\n"))
            prev_operand = False
            i += 1
            continue
        if ch.isspace():
            i += 1
            continue
        if ch == '"':
            j = i + 1
            buf: list[str] = []
            while j < n and prog[j] != '"':
                if prog[j] == "\\" and j + 1 < n:
                    nxt = prog[j + 1]
                    buf.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\", "/": "/"}.get(nxt, "\\" + nxt))
                    j += 2
                    continue
                buf.append(prog[j])
                j += 1
            out.append(("s", "".join(buf)))
            prev_operand = True
            i = j + 1
            continue
        if ch == "/" and not prev_operand:
            j = i + 1
            while j < n and prog[j] != "/" and prog[j] != "\n":
                j += 2 if prog[j] == "\\" else 1
            out.append(("r", prog[i + 1:j]))
            prev_operand = True
            i = j + 1
            continue
        if ch.isalnum() or ch in "_$":
            j = i
            while j < n and (prog[j].isalnum() or prog[j] in "_$."):
                j += 1
            out.append(("w", prog[i:j]))
            prev_operand = True
            i = j
            continue
        two = prog[i:i + 2]
        if two in ("||", "&&", ">>", "|&", "==", "!=", "<=", ">=", "++", "--", "+=", "-=", "*=", "/=", "^=", "%="):
            out.append(("o", two))
            prev_operand = two in ("++", "--")
            i += 2
            continue
        out.append(("o", ch))
        prev_operand = ch in (")", "]")
        i += 1
    return out


def _fold_constants(toks: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Juxtaposed string literals are one (awk's concatenation), and a variable assigned once, a string
    literal, is that literal where it is used (``cmd="rm -rf ~"; cmd | getline``, ``system(c)``); one
    assigned twice, or read into by getline, stays computed."""
    named: list[tuple[str, str]] = []
    for tok in toks:  # `ENVIRON["HOME"]`: the shell's variable, as the shell code awk hands on would spell it
        if tok == ("o", "]") and len(named) >= 3 and named[-3] == ("w", "ENVIRON") and named[-2] == ("o", "[") \
                and named[-1][0] == "s" and named[-1][1].isidentifier():
            name = named[-1][1]
            del named[-3:]
            named.append(("s", "${" + name + "}"))
        else:
            named.append(tok)
    joined: list[tuple[str, str]] = []
    for tok in named:  # `"cu" "rl …"`: awk joins juxtaposed strings into one
        if tok[0] == "s" and joined and joined[-1][0] == "s":
            joined[-1] = ("s", joined[-1][1] + tok[1])
        else:
            joined.append(tok)
    toks = joined
    assigned: dict[str, list[str | None]] = {}
    for i, (kind, text) in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else ("", "")
        if kind == "w" and nxt[0] == "o" and nxt[1] in ("=", "+=", "-=", "*=", "/=", "^=", "%="):
            after = toks[i + 2] if i + 2 < len(toks) else ("", "")
            end = toks[i + 3] if i + 3 < len(toks) else ("n", "")
            literal = nxt[1] == "=" and after[0] == "s" and (end[0] == "n" or end in (("o", ";"), ("o", "}")))
            assigned.setdefault(text, []).append(after[1] if literal else None)
        elif kind == "w" and i > 0 and toks[i - 1] == ("w", "getline"):
            assigned.setdefault(text, []).append(None)
    consts = {name: values[0] for name, values in assigned.items() if len(values) == 1 and values[0] is not None}
    if not consts:
        return toks
    return [("s", consts[text]) if kind == "w" and text in consts and not (
        i + 1 < len(toks) and toks[i + 1][0] == "o" and toks[i + 1][1].endswith("=") and toks[i + 1][1] != "==")
        else (kind, text) for i, (kind, text) in enumerate(toks)]


_SHELL_NAMES = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "busybox sh"})


def _is_shell(command: str) -> bool:
    """A command line that is a shell reading its script from stdin (``sh``, ``/bin/bash -s``)."""
    words = command.split()
    if not words:
        return False
    name = words[0].rsplit("/", 1)[-1]
    return name in _SHELL_NAMES and all(w.startswith("-") and "c" not in w for w in words[1:])


def _printed_script(args: list[tuple[str, str]]) -> str | None:
    """The text a ``print`` of string literals writes (``print "a" "b"``, ``print("a")``); None when computed."""
    parts = [text for kind, text in args if kind == "s"]
    if not parts or any(kind not in ("s", "o") or (kind == "o" and text not in "(),") for kind, text in args):
        return None
    return " ".join(parts) if any(text == "," for _, text in args) else "".join(parts)


def analyze_awk(prog: str) -> CodeReport:
    """``system("…")``, pipes to and from commands, and output redirections in an awk program."""
    report = CodeReport()
    toks = _fold_constants(_awk_tokens(prog))
    in_print = False
    depth = 0
    printed = 0  # where the current print's arguments start
    sources: list[str] = []  # commands whose output getline reads
    fed: list[str] = []  # shells a print pipes computed text to
    for i, (kind, text) in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else ("", "")
        if kind == "w" and text in ("print", "printf"):
            in_print, depth, printed = True, 0, i + 1
        elif kind == "n" or (kind == "o" and text in (";", "{", "}")):
            in_print = False
        elif kind == "o" and text == "(":
            depth += 1
        elif kind == "o" and text == ")":
            depth -= 1
        if kind == "w" and text == "system":
            arg = toks[i + 2] if i + 2 < len(toks) and nxt == ("o", "(") else None
            after = toks[i + 3] if i + 3 < len(toks) else ("", "")
            if arg is not None and arg[0] == "s" and after == ("o", ")"):
                report.shell.append(arg[1])
            else:
                report.notes.append(("executes", "awk system() with a computed command"))
        elif kind == "o" and text in ("|", "|&"):
            if nxt[0] == "s" and (i + 2 >= len(toks) or toks[i + 2][0] in ("n", "o")):
                report.shell.append(nxt[1])
                script = _printed_script(toks[printed:i]) if in_print else None
                if script is not None and _is_shell(nxt[1]):
                    report.shell.append(script)  # `print "rm -rf ~" | "sh"`: the shell runs what is printed
                elif in_print and _is_shell(nxt[1]):
                    fed.append(nxt[1])  # the shell runs computed lines: perhaps what a command gave getline
            elif nxt == ("w", "getline"):
                prev = toks[i - 1] if i > 0 else ("", "")
                if prev[0] == "s":
                    report.shell.append(prev[1])
                    sources.append(prev[1])
                else:
                    report.notes.append(("executes", "awk pipe from a computed command"))
            else:
                report.notes.append(("executes", "awk pipe to a computed command"))
        elif kind == "o" and text in (">", ">>") and in_print and depth <= 0:
            if nxt[0] == "s":
                if nxt[1] not in ("/dev/stdout", "/dev/stderr", "/dev/null", "-"):
                    report.notes.append(("writes", nxt[1]))
            else:
                report.notes.append(("writes", "?"))
        elif kind == "o" and text == "<" and i > 0 and (toks[i - 1] == ("w", "getline") or (
                i > 1 and toks[i - 2] == ("w", "getline") and toks[i - 1][0] == "w")):  # getline [var] < file
            if nxt[0] == "s":
                report.notes.append(("reads", nxt[1]))
            else:
                report.notes.append(("executes", "awk getline from a computed file name"))
        elif kind == "w" and text.startswith("@load"):
            report.notes.append(("executes", "awk extension"))
        elif kind == "o" and text == "@" and nxt in (("w", "load"), ("w", "include")):
            report.notes.append(("executes", f"awk @{nxt[1]}"))
    if fed and sources:  # `("curl -s URL" | getline l) … print l | "sh"`: the shell runs what curl sent
        report.shell.append(f"{sources[0]} | {fed[0]}")
    return report


# -- sed --------------------------------------------------------------------------------------------

_SED_SIMPLE = frozenset("=dDgGhHlLnNpPxzFq Q")
_SED_HARMLESS_FILES = frozenset({"/dev/stdout", "/dev/stderr", "/dev/null"})


def analyze_sed(script: str) -> CodeReport:
    """The ``e``, ``w``, ``W``, ``r``, ``R`` commands and the ``s///e``, ``s///w`` flags of a sed script."""
    report = CodeReport()
    i, n = 0, len(script)

    def rest_of_line(j: int) -> tuple[str, int]:
        end = script.find("\n", j)
        end = n if end < 0 else end
        return script[j:end].strip(), end

    def skip_regex(j: int, delim: str) -> int:
        while j < n and script[j] != delim:
            if script[j] == "\\":
                j += 1
            elif script[j] == "\n" and delim != "\n":
                break
            j += 1
        return j + 1

    def file_target(kind: str, name: str) -> None:
        if not name or name in _SED_HARMLESS_FILES:
            return
        report.notes.append((kind, name))

    while i < n:
        ch = script[i]
        if ch in " \t\n;{}!":
            i += 1
            continue
        if ch == "#":
            _, i = rest_of_line(i)
            continue
        # addresses
        if ch.isdigit() or ch == "$":
            while i < n and (script[i].isdigit() or script[i] in "$,~+ "):
                i += 1
            continue
        if ch == "/":
            i = skip_regex(i + 1, "/")
            while i < n and script[i] in "IM":
                i += 1
            continue
        if ch == "\\" and i + 1 < n:
            i = skip_regex(i + 2, script[i + 1])
            continue
        if ch == ",":
            i += 1
            continue
        # commands
        if ch == "s" and i + 1 < n:
            delim = script[i + 1]
            j = skip_regex(i + 2, delim)
            replaced_at = j
            j = skip_regex(j, delim)
            replacement = script[replaced_at:j - 1]
            while j < n and script[j] not in ";\n}":
                flag = script[j]
                if flag == "e":
                    report.notes.append(("executes", "sed s///e runs the pattern space as a command"))
                    literal = replacement.replace("\\" + delim, delim) if delim != "\\" else replacement
                    if literal and "&" not in literal and "\\" not in literal:  # `s/x/rm -rf ~\/.ssh/e`: unescaped
                        report.shell.append(literal)  # `s/.*/rm -rf ~/e`: a matched line becomes that command
                elif flag == "w":
                    name, j = rest_of_line(j + 1)
                    file_target("writes", name)
                    break
                j += 1
            i = j
        elif ch == "y" and i + 1 < n:
            delim = script[i + 1]
            i = skip_regex(skip_regex(i + 2, delim), delim)
        elif ch in "aic":
            _, i = rest_of_line(i + 1)
            while i < n and script[i - 1:i] == "\\":
                _, i = rest_of_line(i + 1)
        elif ch in "wW":
            name, i = rest_of_line(i + 1)
            file_target("writes", name)
        elif ch in "rR":
            name, i = rest_of_line(i + 1)
            file_target("reads", name)
        elif ch == "e":
            cmd, i = rest_of_line(i + 1)
            if cmd:
                report.shell.append(cmd)
            else:
                report.notes.append(("executes", "sed e runs the pattern space as a command"))
        elif ch in "btT:":
            j = i + 1
            while j < n and script[j] not in ";\n":
                j += 1
            i = j
        elif ch == "v":
            j = i + 1
            while j < n and script[j] not in ";\n}":
                j += 1
            i = j
        elif ch in _SED_SIMPLE:
            i += 1
            while i < n and script[i].isdigit():
                i += 1
        else:
            report.problems.append(f"sed command {ch!r} not understood")
            return report
    return report
