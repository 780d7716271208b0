"""An interpreter's command line (``python``, ``node``, ``perl``, ``ruby``, ``java`` … from
``programs.INTERPRETERS``): what it runs — inline code (``-c``, ``-e``, ``-pe``), a module (``-m``), a
script file, or a program read from stdin.

Inline and stdin code goes to ``shell.nested``; a ``python -m`` module the table knows runs as its own
program or spec.
"""
from __future__ import annotations

import base64
import binascii
import urllib.parse
from typing import Final

from phlegyas.analysis import programs as P
from phlegyas.analysis.shell.expansion import Run, Walk, literal
from phlegyas.analysis.shell.foreign_code import foreign_commands
from phlegyas.analysis.shell.interpreters import PURE_RUBY_LIBRARIES
from phlegyas.analysis.shell.interpreters.code_flows import code_flows
from phlegyas.analysis.shell.nested import STDIN_FILES, process_output, run_code, stdin_code
from phlegyas.analysis.shell.parse import SimpleCommand, Word
from phlegyas.analysis.shell.stdin import stdin_text
from phlegyas.analysis.shell.windows import windows_code, windows_command

SYNTAX_CHECKS: Final[dict[str, frozenset[str]]] = {
    "php": frozenset({"-l", "--syntax-check"}),
    "node": frozenset({"-c", "--check"}),
    "nodejs": frozenset({"-c", "--check"}),
    "ruby": frozenset({"-c", "-wc", "-cw", "-Wc", "-cW"}),
}
"""Options that make an interpreter only parse its script files (``php -l x.php``, ``node --check x.js``,
``ruby -c x.rb``). Not ``perl -c``: it runs ``BEGIN`` blocks and the ``use`` imports."""


def _syntax_check(key: str, args: list[Word]) -> list[Word] | None:
    """The files ``key ARGS`` only syntax-checks, or None when it is not such a call: the check option and
    script files, nothing else (no code option, no preloaded module, no computed word)."""
    checks = SYNTAX_CHECKS.get(key)
    if checks is None or not args or any(a.dynamic for a in args):
        return None
    files = [a for a in args if not a.text.startswith("-")]
    opts = [a.text for a in args if a.text.startswith("-")]
    if not files or not opts or any(o not in checks for o in opts):
        return None
    return files


def deno_eval(ex: Walk, cmd: SimpleCommand, name: str, args: list[Word], via: tuple[str, ...], depth: int,
              remote: bool, written: str) -> None:
    """``deno eval [OPTIONS] CODE [ARGS]`` (``args`` after ``eval``): CODE is judged as ``node -e CODE`` is,
    with the options that load code judged as node's ``-r``."""
    kept: list[Word] = []
    i = 0
    while i < len(args) and args[i].text.startswith("-") and args[i].text != "-":
        text = args[i].text
        if text == "--":
            i += 1
            break
        if text not in P.DENO_EVAL_FLAGS:
            kept.append(args[i])
            if text in P.DENO_EVAL.value_opts or text in P.DENO_EVAL.exec_opts:
                if i + 1 < len(args):
                    kept.append(args[i + 1])
                i += 1
        i += 1
    code = [literal("-e"), args[i]] if i < len(args) else []
    interpreter(ex, cmd, name, "deno", kept + code + args[i + 1:], via, depth, remote, written, P.DENO_EVAL)


def interpreter(ex: Walk, cmd: SimpleCommand, name: str, key: str, args: list[Word], via: tuple[str, ...],
                depth: int, remote: bool, written: str, it: P.Interpreter | None = None) -> None:
    """One interpreter run: its inline code, ``-m`` module, script file or stdin program (``it``: the
    interpreter's entry, when it is not ``INTERPRETERS[key]``)."""
    if it is None:
        it = P.INTERPRETERS[key]
    if key in ("node", "nodejs", "bun", "deno"):
        args = _data_url_code(args)
    run = ex.new_run(cmd, name, args, via, depth, remote, written, "interp")
    if it.lang in ("pwsh", "cmd"):  # Windows shells: their own option syntax and code (shell.windows)
        code, file = windows_command([a.text for a in args], it.lang)
        if ex.add(run) is None:
            return
        if code is not None:
            if any(a.dynamic for a in args):
                ex.problem(f"{name} runs computed code")
            run.notes.append(("executes", f"{it.lang} code"))
            windows_code(ex, code, via + (f"{name} {'/c' if it.lang == 'cmd' else '-Command'}",), depth, remote)
        elif file is not None:
            run.notes.append(("runs", file))
        else:
            run.notes.append(("executes", f"an interactive {name}"))
        return
    checked = _syntax_check(key, args)
    if checked is not None:
        run.kind = "query"  # parses the files, runs none of them
        run.notes.extend(("reads", w.text) for w in checked)
        ex.add(run)
        return
    codes: list[Word] = []
    module: Word | None = None
    script: Word | None = None
    inplace = False
    readonly = False
    reads_stdin = False
    i = 0
    n = len(args)
    while i < n:
        t = args[i].text
        if t == "--":
            i += 1
            break
        if t == "-":
            reads_stdin = True
            i += 1
            break
        if not t.startswith("-") or len(t) < 2:
            break
        if t in it.code_opts:
            if i + 1 < n:
                codes.append(args[i + 1])
            i += 2
            continue
        if t in it.module_opts:
            module = args[i + 1] if i + 1 < n else None
            i = n
            break
        if t in it.readonly_opts:
            readonly = True
            i += 1
            continue
        if t in it.exec_opts:
            if not _pure_library(it.lang, t, args[i + 1].text if i + 1 < n and not args[i + 1].dynamic else ""):
                run.notes.append(("executes", f"{name} {t}"))
            i += 2
            continue
        if t in it.value_opts:
            i += 2
            continue
        if t.startswith("--"):
            opt, eq, value = t.partition("=")
            if opt in it.code_opts and eq:
                codes.append(Word(value, args[i].dynamic))
            elif opt in it.exec_opts:
                run.notes.append(("executes", f"{name} {opt}"))
            i += 1
            continue
        consumed, stop = _cluster(t, args, i, it, codes, run, name)
        if "i" in t[1:2] or (it.lang in ("perl", "ruby") and "i" in t and not t.startswith("--")):
            inplace = inplace or _cluster_has_inplace(t)
        if stop == "module" and i + 1 < n:
            module = args[i + 1]
            i = n
            break
        i += consumed
    rest = args[i:]
    if module is None and not codes and rest and not reads_stdin and key != "java":
        script = rest[0]
    if key == "java":
        script = None
        if not readonly or rest:
            run.notes.append(("executes", "runs a Java program"))
        _java_source(ex, cmd, rest, via, depth, remote)
    added = ex.add(run) is not None
    if module is not None:
        if not added:  # past MAX_RUNS: already a problem, and the module's own run would be one too many
            return
        _python_module(ex, cmd, run, module, args[args.index(module) + 1:] if module in args else [], via, depth,
                       remote)
        return
    if codes:
        if any(c.dynamic for c in codes):
            ex.problem(f"{name} runs computed code")
            run.notes.append(("executes", f"computed {it.lang} code"))
            return
        if inplace:
            run.notes.extend(("writes", w.text) for w in rest)
        elif it.lang in ("perl", "ruby"):
            run.notes.extend(("reads", w.text) for w in rest)
        run_code(ex, run, it.lang, "\n".join(c.text for c in codes), via + (f"{name} -c",), depth, remote)
        return
    if script is not None and script.text.startswith("<(") and (produced := process_output(script.text)) is not None:
        run_code(ex, run, it.lang, produced, via + (f"{name} {script.text[:40]}",), depth, remote)  # python3 <(echo …)
        return
    if script is not None and it.lang == "python" and script.text.rsplit("/", 1)[-1] == "manage.py" and [
            w.text for w in rest[1:2]] == ["shell"]:  # `manage.py shell -c CODE`: the project's ORM, driven by CODE
        texts = [w.text for w in rest]
        given = texts[texts.index("-c") + 1] if "-c" in texts[:-1] else None
        for code in code_flows(given) if given is not None else ():
            ex.nested(code, via + ("manage.py shell -c",), depth, remote)
    if script is not None and it.lang == "python" and script.text.rsplit("/", 1)[-1] == "manage.py" and [
            w.text for w in rest[1:2]] == ["dbshell"] and "--" in [w.text for w in rest]:
        after = [w.text for w in rest[[w.text for w in rest].index("--") + 1:]]  # `dbshell -- -c 'DROP …'`: the
        ex.synthetic(["psql", *after], via + ("manage.py dbshell --",), depth, remote)  # database's client's args
    if script is not None:
        if (it.lang == "python" and _project_dev(script, rest[1:], "manage.py", _DJANGO_DEV)
                or it.lang == "php" and _project_dev(script, rest[1:], "artisan", _ARTISAN_DEV)):
            run.notes.append(("project_code", script.text))  # the project's tests or dev server, as `npm test`
            return
        if not script.dynamic and "/" in script.text and P.resolve_path_program(script.text)[1]:
            # `php vendor/bin/phpunit`, `node node_modules/.bin/jest`: the project's installed tool, as if run alone
            ex.invoke(cmd, [script, *rest[1:]], via + (name,), depth, remote)
            return
        run.notes.append(("runs", script.text))
        return
    if readonly:
        run.kind = "query"
        return
    if key == "java":
        return
    stdin_code(ex, run, name, cmd, via, depth, remote, it.lang)


def _java_source(ex: Walk, cmd: SimpleCommand, rest: list[Word], via: tuple[str, ...], depth: int,
                 remote: bool) -> None:
    """``java --source 17 /dev/stdin <<EOF``, ``java /tmp/X.java`` written earlier in the line: Java's
    single-file launch compiles and runs that source; what it hands a shell or deletes is read from it."""
    if not rest or rest[0].dynamic:
        return
    first = rest[0].text
    if first in STDIN_FILES or first == "-":
        text, _ = stdin_text(cmd, ex.ups_of)
    else:
        text = ex.written.get(first[2:] if first.startswith("./") else first) if first.endswith(".java") else None
    for code in foreign_commands("java", text or ""):
        ex.nested(code, via + (f"java {first}",), depth, remote)


_DJANGO_DEV: Final = frozenset({"test", "runserver", "check", "showmigrations", "makemigrations", "sqlmigrate"})
"""``manage.py`` commands that run the project's tests, dev server or checks (not ``migrate``, ``shell``,
``flush``, ``dbshell``: they change or open the database the settings name, which may not be a dev one)."""


_ARTISAN_DEV: Final = frozenset({"test", "serve", "route:list", "about", "model:show", "make:test", "make:model",
                                 "make:controller", "make:migration", "make:request", "make:resource", "make:seeder",
                                 "make:factory", "make:middleware", "make:component", "make:job", "make:event",
                                 "make:listener", "make:policy", "make:command", "make:mail", "make:notification"})
"""Laravel's ``php artisan`` commands of the same kind (not ``migrate``, ``db:wipe``, ``tinker``, nor
``config:show``, which prints the configuration's passwords and keys)."""


def _project_dev(script: Word, rest: list[Word], name: str, commands: frozenset[str]) -> bool:
    """``python manage.py test`` or ``php artisan test`` of the project's own ``manage.py`` or ``artisan``
    (a relative path without ``..``) with one of its development ``commands``."""
    text = script.text
    if script.dynamic or text.startswith(("/", "~")) or ".." in text or text.rsplit("/", 1)[-1] != name:
        return False
    if not rest or rest[0].dynamic or any(w.dynamic for w in rest):
        return False
    if any(w.text.startswith("--pythonpath") or w.text.startswith("--settings") and "/" in w.text for w in rest):
        return False  # `manage.py test --pythonpath=/tmp --settings=x`: settings (code) from outside the project
    dry = rest[0].text == "migrate" and any(w.text in ("--pretend", "--plan") for w in rest)  # prints, runs nothing
    return rest[0].text in commands or dry


def _cluster(t: str, args: list[Word], i: int, it: P.Interpreter, codes: list[Word], run: Run,
             name: str) -> tuple[int, str]:
    """``-pe 'code'``, ``-ne``, ``-pi.bak -e``, ``-MFoo``, ``-Ilib``: single-dash clusters."""
    j = 0
    while j + 1 < len(t):
        j += 1
        opt = "-" + t[j]
        remainder = t[j + 1:]
        if opt == "-i" and it.lang in ("perl", "ruby"):
            return 1, ""
        if opt in ("-l", "-0") and it.lang == "perl":
            while j + 1 < len(t) and (t[j + 1].isdigit() or (opt == "-0" and t[j + 1] in "xXabcdefABCDEF")):
                j += 1  # ``-l`` and ``-0`` take only an attached number: ``-lne`` is -l -n -e
            continue
        if opt in it.code_opts:
            if remainder:
                codes.append(Word(remainder, args[i].dynamic))
                return 1, ""
            if i + 1 < len(args):
                codes.append(args[i + 1])
            return 2, ""
        if opt in it.module_opts:
            return 1, "module"
        if opt in it.exec_opts:
            value = remainder or (args[i + 1].text if i + 1 < len(args) and not args[i + 1].dynamic else "")
            if not _pure_library(it.lang, opt, value):
                run.notes.append(("executes", f"{name} {opt}{remainder}"))
            return (1 if remainder else 2), ""
        if opt in it.value_opts:
            return (1 if remainder else 2), ""
        if opt == "-i" and it.lang in ("perl", "ruby"):
            return 1, ""
    return 1, ""


def _pure_library(lang: str, opt: str, value: str) -> bool:
    """``ruby -rjson``: a standard library that only defines data functions, loaded before the code."""
    return lang == "ruby" and opt == "-r" and value in PURE_RUBY_LIBRARIES


_PRELOADS: Final = frozenset({"--import", "--require", "-r", "--loader", "--experimental-loader", "--preload"})


def _data_url_code(args: list[Word]) -> list[Word]:
    """``node --import 'data:text/javascript,CODE'`` (or ``--require``, ``--loader``): CODE runs before the program,
    as ``-e CODE`` would (percent- or base64-encoded as a data URL says)."""
    out: list[Word] = []
    i = 0
    while i < len(args):
        t = args[i].text
        name, eq, value = t.partition("=")
        if name in _PRELOADS and (eq and value.startswith("data:") or not eq and i + 1 < len(args)
                                  and args[i + 1].text.startswith("data:")):
            url = value if eq else args[i + 1].text
            header, _, body = url.partition(",")
            if header.endswith(";base64"):
                try:
                    body = base64.b64decode(body + "=" * (-len(body) % 4)).decode("utf-8", "replace")
                except (ValueError, binascii.Error):
                    body = ""
            else:
                body = urllib.parse.unquote(body)
            out.extend([literal("-e"), Word(body, args[i].dynamic or not eq and args[i + 1].dynamic)])
            i += 1 if eq else 2
            continue
        out.append(args[i])
        i += 1
    return out


def _python_module(ex: Walk, cmd: SimpleCommand, run: Run, module: Word, rest: list[Word], via: tuple[str, ...],
                   depth: int, remote: bool) -> None:
    """``python -m MODULE``: a module the table knows runs as its program or spec; any other executes code."""
    if module.text in ("cProfile", "profile") and not module.dynamic:  # `-m cProfile -s cumtime x.py`: runs x.py
        i = 0
        while i < len(rest) and rest[i].text in ("-s", "--sort") and i + 1 < len(rest):
            i += 2
        if i < len(rest) and not rest[i].text.startswith("-"):
            ex.out.runs.remove(run)
            interpreter(ex, cmd, run.program, "python", rest[i:], via + (f"python -m {module.text}",), depth, remote,
                        run.written)
            return
    if module.text == "timeit" and not any(w.dynamic for w in rest):  # `-m timeit -s SETUP STMT…`: Python code
        code: list[str] = []
        i = 0
        while i < len(rest):
            t = rest[i].text
            if t in ("-n", "--number", "-r", "--repeat", "-u", "--unit") and i + 1 < len(rest):
                i += 2
                continue
            if t in ("-s", "--setup") and i + 1 < len(rest):
                code.append(rest[i + 1].text)
                i += 2
                continue
            if not t.startswith("-") or t == "-":
                code.append(t)
            i += 1
        ex.out.runs.remove(run)
        interpreter(ex, cmd, run.program, "python", [literal("-c"), literal("\n".join(code) or "pass")],
                    via + ("python -m timeit",), depth, remote, run.written)
        return
    known = P.PYTHON_MODULES.get(module.text)
    if known is None and not module.dynamic and all(part.isidentifier() for part in module.text.split(".")):
        run.notes.append(("runs", "python module " + module.text))  # the project's own, if it is there
        return  # (``project_scripts`` finds and judges it; any other module stays "runs a file")
    if known is None or module.dynamic:
        run.notes.append(("executes", f"runs the python module {module.text}"))
        return
    ex.out.runs.remove(run)
    if known.program is not None:
        ex.invoke(cmd, [literal(known.program), *rest], via + ("python -m",), depth, remote)
        return
    mod_run = ex.add(ex.new_run(cmd, run.program, rest, via + ("python -m",), depth, remote, run.written,
                                "module"))
    if mod_run is not None:
        mod_run.spec = known.spec
        mod_run.notes.append(("module", module.text))


def _cluster_has_inplace(t: str) -> bool:
    if t.startswith("--"):
        return False
    body = t[1:]
    for ch in body:
        if ch == "i":
            return True
        if ch in "eEIMmFlx0C":
            return False
    return False

