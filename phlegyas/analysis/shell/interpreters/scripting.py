"""Code in languages we cannot parse (JavaScript, Perl, Ruby, PHP, Lua, Tcl, R, Julia, PowerShell,
AppleScript): a tokenizer of string literals finds the literal arguments of their
``system``/``exec``/backtick/``child_process`` forms and of their file-deleting calls. Everything else
they do is "executes code".
"""
from __future__ import annotations

from phlegyas.analysis.shell.interpreters.code_report import CodeReport
from phlegyas.analysis.shell.interpreters.pure_scripts import pure_script

_LANG_SINKS: dict[str, dict[str, str]] = {
    # name → "shell" (a command line), "argv" (a program), "rm", "rmr", "rmdir", "write", "network"
    "js": {"execSync": "shell", "exec": "shell", "spawn": "argv", "spawnSync": "argv", "execFile": "argv",
           "execFileSync": "argv", "fork": "argv", "rmSync": "rmr", "rmdirSync": "rmdir", "unlinkSync": "rm",
           "rm": "rmr", "rmdir": "rmdir", "unlink": "rm", "writeFileSync": "write", "writeFile": "write",
           "appendFileSync": "write", "appendFile": "write", "createWriteStream": "write", "fetch": "network",
           "request": "network", "connect": "network", "createConnection": "network", "get": "network"},
    "perl": {"system": "shell", "exec": "shell", "qx": "shell", "unlink": "rm", "rmdir": "rmdir",
             "rmtree": "rmr", "remove_tree": "rmr", "open": "open", "IO::Socket::INET": "network",
             "LWP::UserAgent": "network", "HTTP::Tiny": "network", "Socket": "network"},
    "ruby": {"system": "shell", "exec": "shell", "spawn": "shell", "popen": "shell", "capture2": "shell",
             "capture3": "shell", "capture2e": "shell", "popen3": "shell", "rm_rf": "rmr", "rm_r": "rmr",
             "remove_dir": "rmr", "rm": "rm", "rm_f": "rm", "delete": "rm", "unlink": "rm", "write": "write",
             "TCPSocket": "network", "Net::HTTP": "network", "open-uri": "network", "Socket": "network"},
    "php": {"system": "shell", "exec": "shell", "shell_exec": "shell", "passthru": "shell", "popen": "shell",
            "proc_open": "shell", "pcntl_exec": "argv", "unlink": "rm", "rmdir": "rmdir", "file_put_contents": "write",
            "fsockopen": "network", "curl_exec": "network", "socket_create": "network", "stream_socket_client": "network"},
    "lua": {"execute": "shell", "popen": "shell", "remove": "rm", "rename": "mv", "socket": "network"},
    "tcl": {"exec": "argv", "open": "open", "file": "fileop", "socket": "network"},
    "r": {"system": "shell", "system2": "argv", "shell": "shell", "unlink": "rmr", "file.remove": "rm",
          "download.file": "network", "url": "network", "socketConnection": "network"},
    "julia": {"run": "backtick", "rm": "rm", "download": "network"},
    "pwsh": {"Invoke-Expression": "shell", "iex": "shell", "Start-Process": "argv", "Remove-Item": "rmr",
             "Invoke-WebRequest": "network", "Invoke-RestMethod": "network"},
    "applescript": {"do shell script": "shell"},
}
_BACKTICK_SHELL = frozenset({"perl", "ruby", "php", "julia"})


def _tokens(code: str) -> list[tuple[str, str]]:
    """A rough lexer: ("s", text) for string literals, ("b", text) for backticks, ("w", word), ("p", char)."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(code)
    while i < n:
        ch = code[i]
        if ch in "\"'`":
            j = i + 1
            buf: list[str] = []
            while j < n and code[j] != ch:
                if code[j] == "\\" and j + 1 < n:
                    nxt = code[j + 1]
                    buf.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
                    j += 2
                    continue
                buf.append(code[j])
                j += 1
            out.append(("b" if ch == "`" else "s", "".join(buf)))
            i = j + 1
        elif ch.isalnum() or ch in "_:.$@%-":
            j = i
            while j < n and (code[j].isalnum() or code[j] in "_:.-"):
                j += 1
            if j == i:
                j = i + 1
            out.append(("w", code[i:j]))
            i = j
        elif ch.isspace():
            i += 1
        else:
            out.append(("p", ch))
            i += 1
    return out


def _perl_qx(code: str, report: CodeReport) -> None:
    """Perl's ``qx{…}`` / ``qx(…)`` / ``qx/…/``."""
    start = 0
    pairs = {"{": "}", "(": ")", "[": "]", "<": ">"}
    while True:
        at = code.find("qx", start)
        if at < 0 or at + 2 >= len(code):
            return
        delim = code[at + 2]
        if delim.isalnum() or delim.isspace() or (at > 0 and (code[at - 1].isalnum() or code[at - 1] == "_")):
            start = at + 2
            continue
        end = code.find(pairs.get(delim, delim), at + 3)
        if end < 0:
            report.problems.append("unterminated qx")
            return
        report.shell.append(code[at + 3:end])
        start = end + 1


def analyze_literal_code(code: str, lang: str) -> CodeReport:
    """Find the literal commands and file operations in code we cannot parse (see the module docstring)."""
    report = CodeReport()
    verdict = pure_script(code, lang)
    if verdict.pure:
        report.pure = True  # only computes and prints (``node -p process.version``)
        report.notes.extend(("reads", path) for path in verdict.reads)
        return report
    report.notes.append(("executes", f"{lang} code"))
    sinks = _LANG_SINKS.get(lang, {})
    toks = _tokens(code)
    if lang == "perl":
        _perl_qx(code, report)
    for idx, (kind, text) in enumerate(toks):
        if kind == "b" and (lang in _BACKTICK_SHELL):
            report.shell.append(text)
            continue
        if kind != "w":
            continue
        word = text.rsplit(".", 1)[-1] if lang in ("js", "lua", "ruby") else text
        if lang == "ruby" and "::" in text:
            word = text.rsplit("::", 1)[-1].rsplit(".", 1)[-1]
        what = sinks.get(text) or sinks.get(word)
        if what is None:
            continue
        lits = _following_literals(toks, idx + 1)
        _literal_sink(what, lits, report, lang)
    return report


def _following_literals(toks: list[tuple[str, str]], i: int) -> list[str]:
    """String literals that directly follow a sink name: ``system("a")``, ``system "a", "b"``, ``exec(['a'])``."""
    out: list[str] = []
    depth = 0
    while i < len(toks):
        kind, text = toks[i]
        if kind == "p" and text in "([":
            depth += 1
        elif kind == "p" and text in ")]":
            depth -= 1
            if depth <= 0:
                break
        elif kind == "p" and text == ",":
            pass
        elif kind in ("s", "b"):
            out.append(text)
        elif kind == "p" and text in ";{}":
            break
        elif kind == "w" and depth == 0 and out:
            break
        elif kind == "w" and depth == 0 and not out and text not in ("=>", "do", "-"):
            break
        i += 1
        if len(out) > 16:
            break
    return out


def _literal_sink(what: str, lits: list[str], report: CodeReport, lang: str) -> None:
    if what == "network":
        report.notes.append(("network", lang))
        return
    if not lits:
        return
    if what in ("shell", "backtick"):
        report.shell.append(" ".join(lits) if lang != "applescript" else lits[0])
    elif what == "argv":
        report.argvs.append(lits)
    elif what == "rm":
        report.argvs.append(["rm", *lits[:1]])
    elif what == "rmr":
        report.argvs.append(["rm", "-r", *lits[:1]])
    elif what == "rmdir":
        report.argvs.append(["rmdir", *lits[:1]])
    elif what == "mv" and len(lits) >= 2:
        report.argvs.append(["mv", lits[0], lits[1]])
    elif what == "write":
        report.notes.append(("writes", lits[0]))
    elif what == "open":
        target = lits[0].strip()
        if target.endswith("|") or target.startswith("|"):
            report.shell.append(target.strip("|").strip())
        elif target.startswith((">", "+>", "+<")):
            report.notes.append(("writes", target.lstrip("+>< ")))
        elif len(lits) >= 2 and lits[0] in ("-|", "|-"):
            report.shell.append(" ".join(lits[1:]))
        elif len(lits) >= 2 and lits[0] in (">", ">>", "+<", "+>"):
            report.notes.append(("writes", lits[1]))
    elif what == "fileop" and lits and lits[0] == "delete":
        report.argvs.append(["rm", "-r", *lits[1:2]])
