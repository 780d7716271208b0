"""Code in languages we cannot parse (JavaScript, Perl, Ruby, PHP, Lua, Tcl, R, Julia, PowerShell,
AppleScript): a tokenizer of string literals finds the literal arguments of their
``system``/``exec``/backtick/``child_process`` forms and of their file-deleting calls. Everything else
they do is "executes code".
"""
from __future__ import annotations

import re
import shlex

from phlegyas.analysis.shell.interpreters import script_flow as S
from phlegyas.analysis.shell.interpreters.code_flows import code_flows
from phlegyas.analysis.shell.interpreters.code_report import CodeReport
from phlegyas.analysis.shell.interpreters.pure_scripts import pure_script
from phlegyas.analysis.shell.interpreters.tcl import analyze_tcl
from phlegyas.core.redact import secret_kind

_LANG_SINKS: dict[str, dict[str, str]] = {
    # name → "shell" (a command line), "argv" (a program), "rm", "rmr", "rmdir", "write", "network"
    "js": {"execSync": "shell", "exec": "shell", "spawn": "argv", "spawnSync": "argv", "execFile": "argv",
           "execFileSync": "argv", "fork": "argv", "rmSync": "rmr", "rmdirSync": "rmdir", "unlinkSync": "rm",
           "rm": "rmr", "rmdir": "rmdir", "unlink": "rm", "writeFileSync": "write", "writeFile": "write",
           "appendFileSync": "write", "appendFile": "write", "createWriteStream": "write", "fetch": "network",
           "request": "network", "connect": "network", "createConnection": "network", "get": "network",
           "eval": "code", "Function": "code", "runInThisContext": "code", "runInNewContext": "code",
           "axios": "network", "post": "network", "put": "network",
           # Deno's own API (`deno eval`): remove/removeSync recurse with `{recursive: true}`
           "removeSync": "rm", "remove": "rm", "Deno.Command": "argv", "Deno.run": "argv",
           "writeTextFileSync": "write", "writeTextFile": "write"},
    "perl": {"system": "shell", "exec": "shell", "qx": "shell", "unlink": "rm", "rmdir": "rmdir",
             "rmtree": "rmr", "remove_tree": "rmr", "open": "open", "IO::Socket::INET": "network",
             "LWP::UserAgent": "network", "HTTP::Tiny": "network", "Socket": "network", "eval": "code"},
    "ruby": {"system": "shell", "exec": "shell", "spawn": "shell", "popen": "shell", "capture2": "shell",
             "capture3": "shell", "capture2e": "shell", "popen3": "shell", "rm_rf": "rmr", "rm_r": "rmr",
             "remove_dir": "rmr", "rm": "rm", "rm_f": "rm", "delete": "rm", "unlink": "rm", "write": "write",
             "TCPSocket": "network", "Net::HTTP": "network", "open-uri": "network", "Socket": "network",
             "eval": "code", "instance_eval": "code", "HTTParty": "network", "Faraday": "network"},
    "php": {"system": "shell", "exec": "shell", "shell_exec": "shell", "passthru": "shell", "popen": "shell",
            "proc_open": "shell", "pcntl_exec": "argv", "unlink": "rm", "rmdir": "rmdir", "file_put_contents": "write",
            "fsockopen": "network", "curl_exec": "network", "socket_create": "network", "stream_socket_client": "network",
            "eval": "code", "curl_init": "network", "file_get_contents": "url", "fopen": "url"},
    "lua": {"execute": "shell", "popen": "shell", "remove": "rm", "rename": "mv", "socket": "network"},
    "r": {"system": "shell", "system2": "argv", "shell": "shell", "unlink": "rmr", "file.remove": "rm",
          "download.file": "network", "url": "network", "socketConnection": "network"},
    "julia": {"run": "backtick", "rm": "rm", "download": "network", "HTTP.post": "network", "HTTP.get": "network"},
    "pwsh": {"Invoke-Expression": "shell", "iex": "shell", "Start-Process": "argv", "Remove-Item": "rmr",
             "Invoke-WebRequest": "network", "Invoke-RestMethod": "network"},
}
_BACKTICK_SHELL = frozenset({"perl", "ruby", "php", "julia"})
_RUBY_SEND = re.compile(r"""(?:\.|\b)(?:public_|__)?send\(\s*[:'"]+(\w+)['"]?\s*,\s*|"""
                               r"""\bmethod\(\s*[:'"]+(\w+)['"]?\s*\)\s*\.\s*(?:call|\[\]|\.)\s*\(""")


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


_HOME_EXPRESSIONS: dict[str, re.Pattern[str]] = {
    "js": re.compile(r"""(?:require\(\s*['"](?:node:)?os['"]\s*\)|\bos)\.homedir\(\s*\)|"""
                     r"""\bos\.userInfo\(\s*\)\.homedir|\bprocess\.env(?:\.(?:HOME|USERPROFILE)\b|"""
                     r"""\[\s*['"](?:HOME|USERPROFILE)['"]\s*\])|\bDeno\.env\.get\(\s*['"]HOME['"]\s*\)|"""
                     r"""\bDeno\.homeDir\(\s*\)"""),
    "ruby": re.compile(r"""\bDir\.home\b(?:\(\s*\))?|\bENV\[\s*['"]HOME['"]\s*\]|"""
                       r"""\bFile\.expand_path\(\s*['"]~['"]\s*\)|\bGem\.user_home\b"""),
    "perl": re.compile(r"""\$ENV\{\s*['"]?HOME['"]?\s*\}|\(getpwuid\(\s*\$<\s*\)\)\[7\]|"""
                       r"""\bglob\(\s*['"]~['"]\s*\)|\bFile::HomeDir->my_home\b"""),
    "php": re.compile(r"""\bgetenv\(\s*['"]HOME['"]\s*\)|\$_(?:SERVER|ENV)\[\s*['"]HOME['"]\s*\]"""),
    "julia": re.compile(r"""\bhomedir\(\s*\)|\bENV\[\s*"HOME"\s*\]"""),
}
_STRING = r"""(?:'[^'\\]*'|"[^"\\]*")"""
_JOIN_CALL = re.compile(rf"""(?:\bpath|require\(\s*['"](?:node:)?path['"]\s*\))\.(?:join|resolve)\(\s*({_STRING}(?:\s*,\s*{_STRING})*)\s*\)|"""
                        rf"""\b(?:File\.join|File\.expand_path|join_paths|joinpath)\(\s*({_STRING}(?:\s*,\s*{_STRING})*)\s*\)""")
_CONCAT = re.compile(rf"""({_STRING})\s*(?:\+|\.)\s*({_STRING})""")


def _unquote(s: str) -> str:
    return s[1:-1]


def literal_paths(code: str, lang: str) -> str:
    """``code`` with the home directory's expressions written as the literal ``'~'`` (``os.homedir()``,
    ``process.env.HOME``, ``Dir.home``, ``$ENV{HOME}``, ``getenv('HOME')``) and joins or concatenations of
    literals folded into one (``path.join('~', '.ssh')`` → ``'~/.ssh'``), so that a path a call is given
    is read like the shell's (``fs.rmSync(os.homedir(), …)`` deletes ``~``)."""
    pattern = _HOME_EXPRESSIONS.get(lang)
    if pattern is None:
        return code
    out = pattern.sub("'~'", code)
    if out == code:
        return code
    for _ in range(4):
        folded = _JOIN_CALL.sub(lambda m: "'" + "/".join(_unquote(s.strip()).strip("/") if i else
                                                         _unquote(s.strip()).rstrip("/")
                                                         for i, s in enumerate(re.findall(_STRING, m.group(1) or m.group(2))))
                                + "'", out)
        folded = _CONCAT.sub(lambda m: "'" + _unquote(m.group(1)) + _unquote(m.group(2)) + "'", folded)
        if folded == out:
            break
        out = folded
    return out


_EVALS = {
    "js": re.compile(r"\beval\b|\bnew\s+Function\b|\bFunction\s*\(|\bvm\.run\w*|\bimport\s*\(\s*['\"]?(?:https?:|data:)"),
    "ruby": re.compile(r"\b(?:eval|instance_eval|class_eval|binding\.eval)\b"),
    "perl": re.compile(r"\beval\b|\bdo\s*\(?\s*\$"),
    "php": re.compile(r"\b(?:eval|assert|create_function)\s*\(|\b(?:include|require)(?:_once)?\s*\(?\s*['\"]https?:"),
    "r": re.compile(r"\bsource\s*\(|\beval\s*\(\s*parse\b|\bsource_url\b|\bsource_gist\b"),
    "lua": re.compile(r"\bload(?:string)?\s*\(|\bdofile\b|\bloadfile\b"),
}
_REMOTE_LOAD = re.compile(r"""\b(?:import|include|require|include_once|require_once|source)\s*\(?\s*['"]https?:|"""
                          r"""\bsource_(?:url|gist)\b""")
"""Loading code straight from a URL: JavaScript's ``import('https://…')``, PHP's ``include "https://…"``, R's
``source("https://…")``: the download and the evaluation in one."""
_DOWNLOADS = {
    "js": re.compile(r"\bfetch\s*\(|\bhttps?\.(?:get|request)\b|\brequire\(\s*['\"](?:node:)?https?['\"]\s*\)\s*\.\s*(?:get|request)\b|\baxios\b|\brequire\(\s*['\"](?:node-fetch|request|got)['\"]|"
                     r"\b(?:curl|wget)\s"),
    "ruby": re.compile(r"\bURI\.open\b|open-uri|\bNet::HTTP\b|\bopen\(\s*['\"]https?:|\b(?:curl|wget)\s|HTTParty|Faraday"),
    "perl": re.compile(r"\bLWP\b|\bHTTP::Tiny\b|\bget(?:store)?\s*\(?\s*['\"]https?:|\b(?:curl|wget)\s"),
    "php": re.compile(r"\b(?:file_get_contents|fopen|curl_exec)\s*\(\s*['\"]?https?:|\bcurl_exec\b|\b(?:curl|wget)\s"),
    "r": re.compile(r"\b(?:url|download\.file|readLines|GET|curl_fetch_memory)\s*\(\s*['\"]https?:|\b(?:curl|wget)\s"),
    "lua": re.compile(r"\bhttp\.request\b|\b(?:curl|wget)\s"),
}
_NETWORK = {
    "js": re.compile(r"\b(?:fetch|https?\.(?:request|get)|net\.(?:connect|createConnection)|dgram|axios|WebSocket|"
                     r"XMLHttpRequest|createSocket)\b"),
    "perl": re.compile(r"HTTP::Tiny|\bLWP\b|IO::Socket|\bNet::|\bsocket\s*\("),
    "ruby": re.compile(r"Net::HTTP|TCPSocket|UDPSocket|HTTParty|Faraday|URI\.open|\bSocket\b"),
    "php": re.compile(r"\bcurl_exec\b|\bfsockopen\b|stream_socket_client|file_get_contents\s*\(\s*['\"]https?:|"
                      r"\bmail\s*\("),
}
"""Code that talks to the network: with one, every file it names may be what it sends, so each is judged as
an upload (a secret's is exfiltration)."""
_URL = re.compile(r"""https?://[^\s'"`)]+""")


def remote_eval(code: str, lang: str) -> str | None:
    """The shell equivalent of code that downloads code and runs it (``eval(await (await fetch(u)).text())``,
    ``eval(URI.open(u).read)``): ``curl -s URL | LANG``, which Tier 1 judges as remote code; None when the
    code does not both evaluate code and download something."""
    evals, downloads = _EVALS.get(lang), _DOWNLOADS.get(lang)
    if evals is None or downloads is None or not evals.search(code) or not (
            downloads.search(code) or _REMOTE_LOAD.search(code)):
        return None
    url = _URL.search(code)
    runner = {"js": "node", "ruby": "ruby", "perl": "perl", "php": "php", "r": "Rscript", "lua": "lua"}[lang]
    return f"curl -s {url.group(0) if url else 'https://unknown.invalid/'} | {runner}"


def analyze_literal_code(code: str, lang: str, depth: int = 0) -> CodeReport:
    """Find the literal commands and file operations in code we cannot parse (see the module docstring)."""
    report = CodeReport()
    verdict = pure_script(code, lang)
    if verdict.pure:
        report.pure = True  # only computes and prints (``node -p process.version``)
        report.notes.extend(("reads", path) for path in verdict.reads)
        return report
    report.notes.append(("executes", f"{lang} code"))
    if lang == "tcl":  # its commands can be read exactly
        report.shell.extend(code_flows(code))  # a reverse shell, a secret sent, in any language's spelling
        analyze_tcl(code, report)
        return report
    if lang == "applescript":
        _do_shell_script(code, report)
        return report
    fetched = remote_eval(code, lang)
    if fetched is not None:
        report.shell.append(fetched)
    code = literal_paths(S.interpolated_home(S.join_literals(S.fold_constants(S.decode_literals(code, lang), lang),
                                                             lang), lang), lang)
    report.shell.extend(code_flows(code))  # a reverse shell, a secret sent, in any language's spelling
    if lang == "ruby":  # `Kernel.send(:system, "…")`, `method(:system).call("…")`: the method named
        code = _RUBY_SEND.sub(lambda m: f" {m.group(1) or m.group(2)}(", code)
    sinks = _LANG_SINKS.get(lang, {})
    toks = _tokens(code)
    if lang == "perl":
        _perl_qx(code, report)
    unseen_delete = recursive = False  # a delete of a computed path (a loop's item), and whether it recurses
    for idx, (kind, text) in enumerate(toks):
        if kind == "b" and (lang in _BACKTICK_SHELL):
            report.shell.append(text)
            continue
        if kind == "b" and lang == "js" and idx and toks[idx - 1][0] == "w" and toks[idx - 1][1].endswith("$"):
            report.shell.append(text)  # Bun's and zx's $`cmd`: a shell command (its ${…} filled in by JS)
            continue
        if kind != "w":
            continue
        word = text.rsplit(".", 1)[-1] if lang in ("js", "lua", "ruby") else text
        if lang == "ruby" and "::" in text:
            word = text.rsplit("::", 1)[-1].rsplit(".", 1)[-1]
        what = sinks.get(text) or sinks.get(word) or sinks.get(text.rsplit(".", 1)[0])  # `Net::HTTP.post_form`
        if what is None:
            continue
        if what in ("rm", "rmdir") and _RECURSIVE.search(_call_text(toks, idx + 1)):
            what = "rmr"  # `fs.rmdirSync(p, {recursive: true})`, julia's `rm(p, recursive=true)`
        lits = _following_literals(toks, idx + 1) if text != "Deno.Command" else _deno_command(toks, idx + 1)
        if what in ("rm", "rmr", "rmdir") and not lits:
            unseen_delete = True
            recursive = recursive or what == "rmr"
        if what == "code":
            _evaluated(lits, report, lang, depth)
            continue
        _literal_sink(what, lits, report, lang)
    network = _NETWORK.get(lang)
    if network is not None and network.search(code):  # a file of the code's, and the network: what it may send
        for kind, text in toks:
            if kind == "s" and text.startswith(("~/", "/")) and " " not in text and len(text) < 200:
                report.shell.append(f"curl -s -T {shlex.quote(text)} https://the-code-s-peer.invalid/")
    if _KILL_ALL.search(code):  # perl `kill 9, -1`, ruby `Process.kill(:KILL, -1)`, node `process.kill(-1)`
        report.argvs.append(["kill", "-KILL", "-1"])
    if unseen_delete or S.callable_delete(code, lang):
        report.argvs.extend(S.listing_delete(root, recursive) for root in S.listings(code, lang))
    if any(k == "network" for k, _ in report.notes):
        _sent_secrets(code, lang, report)
    return report


_RECURSIVE = re.compile(r"recursive[:=]true", re.IGNORECASE)
_KILL_ALL = re.compile(r"\b(?:posix_kill\s*\(\s*-1\b|kill\s*\(?\s*(?:[:'\"]?[\w-]+['\"]?\s*,\s*)?-1\b)")
"""A signal to pid -1: every process the user may signal (``kill 9, -1``, ``Process.kill(9, -1)``,
``process.kill(-1)``, ``posix_kill(-1, 9)``)."""


def _call_text(toks: list[tuple[str, str]], i: int) -> str:
    """The text of the parenthesised arguments that start at ``toks[i]``, without spaces."""
    out: list[str] = []
    depth = 0
    for kind, text in toks[i:i + 60]:
        out.append(text)
        if kind == "p" and text in "([{":
            depth += 1
        elif kind == "p" and text in ")]}":
            depth -= 1
            if depth <= 0:
                break
    return "".join(out)


def _evaluated(lits: list[str], report: CodeReport, lang: str, depth: int) -> None:
    """``eval("…")`` of a literal (a decoded payload, often): its code, analysed in turn."""
    if not lits or depth >= 3:
        return
    inner = analyze_literal_code(lits[0], lang, depth + 1)
    report.shell.extend(inner.shell)
    report.argvs.extend(inner.argvs)
    report.notes.extend(inner.notes)
    report.problems.extend(inner.problems)


def _sent_secrets(code: str, lang: str, report: CodeReport) -> None:
    """Code that reads files or the environment and talks to the network sends what it read: each read
    becomes the upload ``curl`` would make of it, so that Tier 1 judges a secret in it as exfiltration."""
    files, whole, names = S.read_sources(code, lang)
    found = _URL.search(code)
    url = found.group(0) if found else "https://unknown.invalid/"
    for path in files:
        report.argvs.append(["curl", "--data-binary", "@" + path, url])
    if whole:
        report.shell.append(f"env | curl --data-binary @- {shlex.quote(url)}")
    for name in names:
        if secret_kind(name) is not None and re.fullmatch(r"[A-Za-z_]\w{0,80}", name):
            report.shell.append(f'curl -d "${name}" {shlex.quote(url)}')


def _deno_command(toks: list[tuple[str, str]], i: int) -> list[str]:
    """``new Deno.Command("rm", {args: ["-rf", p]})``: the program, then the literals of its ``args`` array
    (none when an argument is computed: then only the program, which still reads as running code)."""
    program = _following_literals(toks, i)[:1]
    for j in range(i, min(len(toks) - 2, i + 40)):
        k = j + 1 if toks[j] == ("w", "args:") else j + 2 if toks[j] in (("w", "args"), ("s", "args")) and (
            toks[j + 1][1] == ":") else -1  # `args: [`, `"args": [`
        if k > 0 and toks[k] == ("p", "["):
            out: list[str] = []
            for kind, text in toks[k + 1:k + 40]:
                if kind == "p" and text == "]":
                    return program + out
                if kind == "s":
                    out.append(text)
                elif not (kind == "p" and text == ","):
                    return program
    return program


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
        elif kind == "w" and depth == 0 and not out and text not in ("=>", "do", "-", "glob", "File.expand_path"):
            break
        i += 1
        if len(out) > 16:
            break
    return out


_DO_SHELL = re.compile(r'do\s+shell\s+script\s+"((?:[^"\\]|\\.)*)"([^\n]*)', re.IGNORECASE)


def _do_shell_script(code: str, report: CodeReport) -> None:
    """AppleScript's ``do shell script "…"`` runs its string with ``sh``; ``with administrator privileges``
    as root. A string joined with ``&`` to something else is computed: the note that the code executes
    stays, which is never automatic."""
    for m in _DO_SHELL.finditer(code):
        rest = m.group(2)
        if rest.lstrip().startswith("&"):
            continue
        command = re.sub(r"\\(.)", r"\1", m.group(1))
        report.shell.append("sudo " + command if "administrator privileges" in rest.lower() else command)


def _literal_sink(what: str, lits: list[str], report: CodeReport, lang: str) -> None:
    if what == "url" and lits and "://" in lits[0]:  # PHP's `file_get_contents("https://…")`
        what = "network"
    if what == "network":
        report.notes.append(("network", lang))
        return
    if not lits:
        return
    if what in ("shell", "backtick"):
        report.shell.append(" ".join(lits))
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
