"""Build and package tools that run a program they are told to in one of their options
(``programs.carriers``' ``language``), read by ``shell.carriers``:

- ``gotool``: ``go build -toolexec CMD`` runs CMD in front of every compiler and linker call, ``go test
  -exec CMD`` / ``go run -exec CMD`` in front of the built program;
- ``helm``: ``--post-renderer PROG --post-renderer-args ARG …`` runs PROG on the rendered manifests;
- ``maven``: the exec plugin's goal ``exec:exec`` runs ``-Dexec.executable`` with ``-Dexec.args``
  (``exec:java`` runs a class: Java code the gate does not read);
- ``apt``: ``-o APT::Update::Pre-Invoke::=CMD`` and the other hook settings run CMD as root;
- ``rpm``: a macro ``%(CMD)`` in ``--eval`` or ``--define`` runs CMD, ``%{lua: …}`` runs Lua;
- ``cargo``: ``--config 'target.<triple>.runner=[…]'``, ``build.rustc-wrapper`` and the like name a
  program cargo runs.
"""
from __future__ import annotations

import re
import shlex
from typing import Final

from phlegyas.analysis.programs.foreign import FOREIGN, FOREIGN_LANGUAGES, FOREIGN_OPERANDS
from phlegyas.analysis.shell.expansion import Walk, literal
from phlegyas.analysis.shell.foreign_code import foreign_commands
from phlegyas.analysis.shell.interpreters.scripting import analyze_literal_code
from phlegyas.analysis.shell.parse import SimpleCommand, Word
from phlegyas.analysis.shell.stdin import stdin_text, substitution_output

_APT_HOOK: Final = re.compile(r"::(?:Pre|Post)-Invoke(?:-Success)?|::(?:Pre|Post)-Install-Pkgs", re.I)
_RPM_SHELL: Final = re.compile(r"%\(([^()]*(?:\([^()]*\)[^()]*)*)\)")
_RPM_LUA: Final = re.compile(r"%\{lua:(.*)\}", re.S)
_CARGO_PROGRAMS: Final = re.compile(r"(?:target\.[^.=]+(?:\.[^.=]+)*\.(?:runner|linker)|build\.rustc(?:-workspace)?"
                                    r"(?:-wrapper)?|build\.rustdoc|host\.(?:runner|linker)|"
                                    r"target\.'?cfg\(.*\)'?\.runner)"
                                    r"\s*=\s*(.+)$", re.S)
_TOML_STRING: Final = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'([^']*)'")
_GO_VALUES: Final = frozenset({"-o", "-p", "-C", "-tags", "-ldflags", "-gcflags", "-asmflags", "-mod", "-modfile",
                               "-pkgdir", "-buildmode", "-compiler", "-overlay", "-pgo", "-exec", "-toolexec"})
_PM2_VALUES: Final = frozenset({"--name", "-n", "--interpreter", "--cwd", "-i", "--instances", "--log", "-o", "-e",
                                "--output", "--error", "--cron", "--max-memory-restart", "--watch"})
BUILD_LANGUAGES: Final = frozenset({"foreign", "gotool", "gorun", "helm", "rubyun", "pm2", "maven", "apt", "rpm",
                                    "cargo", "curlconfig"})


def values(sub: list[Word], *names: str) -> list[Word]:
    """The values of options ``names`` in ``sub``: ``-x V``, ``-x=V`` and, for long ones, ``--x=V``."""
    out: list[Word] = []
    for i, w in enumerate(sub):
        for name in names:
            if w.text == name and i + 1 < len(sub):
                out.append(sub[i + 1])
            elif w.text.startswith(name + "="):
                out.append(Word(w.text[len(name) + 1:], w.dynamic, w.glob, w.quoted))
            elif name == "-o" and w.text.startswith("-o") and len(w.text) > 2 and w.text[2] != "=":
                out.append(Word(w.text[2:], w.dynamic, w.glob, w.quoted))  # apt's `-oKey=value`
    return out


def build_language(ex: Walk, cmd: SimpleCommand, name: str, sub: list[Word], via: tuple[str, ...], depth: int,
                   remote: bool, program: str = "") -> bool:
    """Expand the command ``sub`` (a build tool's words after its subcommand path) hands to a program;
    whether one was found."""
    codes: list[tuple[str, Word]] = []
    argvs: list[tuple[str, list[Word]]] = []
    if name == "foreign":  # code of a language the gate has no model of: what it hands to a shell or deletes
        texts = [w.text for w in sub]
        given = values(sub, *FOREIGN.get(program, ()))
        given += [w for w in sub if not w.text.startswith("-")] if program in FOREIGN_OPERANDS else []
        if program == "salt-call" and "cmd.run" in texts and texts.index("cmd.run") + 1 < len(sub):
            codes.append(("cmd.run", sub[texts.index("cmd.run") + 1]))
        piped, _ = stdin_text(cmd, ex.ups_of)
        given += [Word(piped)] if piped is not None else []
        for code in given:
            if program in FOREIGN_LANGUAGES:  # `rake -e 'FileUtils.rm_rf(ENV["HOME"])'`: Ruby, read as `ruby -e`
                report = analyze_literal_code(code.text, FOREIGN_LANGUAGES[program])
                codes.extend((f"{program} code", Word(c, code.dynamic)) for c in report.shell)
                argvs.extend((f"{program} code", [literal(a) for a in argv]) for argv in report.argvs)
                continue
            codes.extend((f"{program} code", Word(c, code.dynamic)) for c in foreign_commands(program, code.text))
    elif name == "rubyun":  # `ruby -run -e rm -- -rf DIR`: Ruby's un library runs the command it names
        texts = [w.text for w in sub]
        if "-run" in texts or any(t == "-r" and n == "un" for t, n in zip(texts, texts[1:])):
            verb = values(sub, "-e")
            after = sub[texts.index("--") + 1:] if "--" in texts else []
            if verb:
                argvs.append(("-run", [verb[0], *after]))
    elif name == "pm2":  # `pm2 start PROG [--name N] -- ARG…`: the process manager starts (and keeps) PROG ARG…
        texts = [w.text for w in sub]
        started = next((w for i, w in enumerate(sub) if not w.text.startswith("-") and (
            i == 0 or sub[i - 1].text not in _PM2_VALUES) and (i < texts.index("--") if "--" in texts else True)), None)
        if started is not None:
            argvs.append(("start", [started, *(sub[texts.index("--") + 1:] if "--" in texts else [])]))
    elif name in ("gotool", "gorun"):
        if name == "gorun":  # `go run [flags] PKG ARG…`: the words after the package are the program's own
            cut = next((i for i, w in enumerate(sub) if not w.text.startswith("-")
                        and (i == 0 or sub[i - 1].text not in _GO_VALUES)), len(sub))
            sub = sub[:cut]
            for w in sub:  # `cat > /tmp/r.go <<EOF … EOF && go run /tmp/r.go`: Go source written in this line
                source = ex.written.get(w.text[2:] if w.text.startswith("./") else w.text) if ex.written else None
                if source is not None and w.text.endswith(".go"):
                    codes.extend((f"{w.text} (written earlier in the line)", Word(c))
                                 for c in foreign_commands("go", source))
        codes.extend((opt, v) for opt in ("-toolexec", "--toolexec", "-exec", "--exec") for v in values(sub, opt))
    elif name == "helm":
        programs = values(sub, "--post-renderer")
        if programs:
            argvs.append(("--post-renderer", [programs[-1], *values(sub, "--post-renderer-args")]))
    elif name == "maven":
        texts = [w.text for w in sub]
        if any(t == "exec:exec" or t.endswith(":exec") and "exec-maven-plugin" in t for t in texts):
            defines = {t.split("=", 1)[0][2:]: w for t, w in zip(texts, sub) if t.startswith("-D") and "=" in t}
            executable, args = defines.get("exec.executable"), defines.get("exec.args")
            if executable is not None:
                value = executable.text.split("=", 1)[1]
                rest = args.text.split("=", 1)[1] if args is not None else ""
                codes.append(("exec:exec", Word(shlex.quote(value) + " " + rest,
                                                executable.dynamic or args is not None and args.dynamic)))
            else:
                ex.problem("mvn exec:exec runs a program the gate cannot see (exec.executable from the pom)")
        if any(t == "exec:java" or t.endswith(":java") and "exec-maven-plugin" in t for t in texts):
            ex.problem("mvn exec:java runs Java code the gate does not read")
    elif name == "apt":
        for v in values(sub, "-o", "--option"):
            key, eq, command = v.text.partition("=")
            if eq and _APT_HOOK.search(key) and command.strip():
                codes.append((key.rstrip(":"), Word(command, v.dynamic)))
    elif name == "rpm":
        for v in values(sub, "--eval", "-E", "--define", "-D"):
            codes.extend(("%(…)", Word(c, v.dynamic)) for c in _RPM_SHELL.findall(v.text))
            codes.extend(("%{lua:}", Word("lua -e " + shlex.quote(c), v.dynamic)) for c in _RPM_LUA.findall(v.text))
    elif name == "cargo":
        for v in values(sub, "--config"):
            m = _CARGO_PROGRAMS.match(v.text.strip())
            if m is None:
                continue
            words = [a or b for a, b in _TOML_STRING.findall(m.group(1))]
            if v.dynamic:
                ex.problem("cargo --config names a computed program")
            elif words:
                argvs.append(("--config", [literal(w) for w in words]))
    elif name == "curlconfig":  # `curl -K <(printf 'upload-file = "~/.ssh/id_rsa"\n…')`: its lines are options
        given = values(sub, "--config") + [sub[i + 1] for i, w in enumerate(sub[:-1]) if w.text.startswith("-")
                                           and not w.text.startswith("--") and w.text.endswith("K")]
        for v in given:
            t = v.text
            text = substitution_output("$(" + t[2:]) if t.startswith("<(") and t.endswith(")") else (
                ex.written.get(t[2:] if t.startswith("./") else t) if ex.written and not v.dynamic else None)
            if text is not None:
                argvs.append((f"{v.text[:30]}", [literal("curl"), *(literal(a) for a in curl_config(text))]))
    for what, code in codes:
        if code.dynamic:
            ex.problem(f"{name} {what} with a computed command")
        ex.nested(code.text, via + (f"{name} {what}",), depth, remote)
    for what, argv in argvs:
        if any(w.dynamic for w in argv):
            ex.problem(f"{name} {what} runs a computed command")
        ex.invoke(cmd, argv, via + (f"{name} {what}",), depth, remote)
    return bool(codes or argvs)


_CURL_LINE: Final = re.compile(r"""^\s*(-{0,2}[\w-]+)\s*(?:[=:]\s*|\s+|$)(.*?)\s*$""")


def curl_config(text: str) -> list[str]:
    """The options a curl config file (``-K``) gives: ``url = "x"``, ``upload-file: f``, ``--silent``."""
    out: list[str] = []
    for line in text.splitlines()[:200]:
        m = _CURL_LINE.match(line)
        if m is None or line.lstrip().startswith("#"):
            continue
        key, value = m.group(1), m.group(2)
        out.append(key if key.startswith("-") else ("-" if len(key) == 1 else "--") + key)
        if value:
            out.append(value[1:-1] if len(value) > 1 and value[0] == value[-1] == '"' else value)
    return out


__all__ = ["BUILD_LANGUAGES", "build_language", "curl_config"]
