"""More configuration files that run commands later, for ``planted.extract``: logrotate's scripts, udev's
``RUN``, the session's environment files, tmux's ``run-shell`` and ``#(…)``, Emacs's start-up and
directory-local files, and the agents' and editors' JSON settings (hooks, MCP servers, terminal profiles).

As in ``planted.system_configs``, each reader puts the shell code the file will run into
``Content.snippets``, what a person must read into ``Content.doubts`` and what is a deny by itself into
``Content.denies`` (a session-wide ``LD_PRELOAD``, an agent told to skip its permission checks).
"""
from __future__ import annotations

import html
import json
import re
import shlex
from typing import Final, Protocol

from phlegyas.analysis.urls import foreign_code_host, host_of, known_code_host


class _Content(Protocol):
    snippets: list[tuple[str, str]]
    doubts: list[str]
    denies: list[str]


LOOSE: Final = "sh?"
"""A snippet that may or may not be a command (a line of an Edit's fragment read out of its context: a
line of a ``run: |`` block, or a branch name of a list): only a deny in it counts."""

_LOGROTATE_SCRIPT: Final = re.compile(r"^\s*(?:postrotate|prerotate|firstaction|lastaction|preremove)\s*$(.*?)"
                                      r"^\s*endscript\s*$", re.M | re.S)
_UDEV_RUN: Final = re.compile(r"\b(?:RUN|PROGRAM|IMPORT\{program\})\s*\+?=?=\s*\"([^\"]*)\"")
_ENV_LINE: Final = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:=|\s+DEFAULT=|\s+OVERRIDE=)"
                              r"\s*(.*?)\s*$",
                              re.M)
_PRELOADS: Final = frozenset({"LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES"})
_CODE_VARS: Final = frozenset({"BASH_ENV", "ENV", "PROMPT_COMMAND", "PYTHONSTARTUP", "PYTHONPATH", "NODE_OPTIONS",
                               "PERL5OPT", "PERL5LIB", "RUBYOPT", "GIT_SSH_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS",
                               "PAGER", "EDITOR", "VISUAL", "LD_LIBRARY_PATH", "PATH", "SUDO_ASKPASS",
                               "JAVA_TOOL_OPTIONS"})
_TMUX_RUNS: Final = frozenset({"run-shell", "run", "if-shell", "if"})
_TMUX_FORMAT: Final = re.compile(r"#\(([^)]*)\)")
_HOOK_HELPERS: Final = frozenset({"apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "otelHeadersHelper"})
_JSON_COMMAND: Final = re.compile(r'"command"\s*:\s*"((?:[^"\\]|\\.)*)"')
_ALIAS: Final = re.compile(r"""^\s*alias\s+([\w.-]+)=(?:'([^']*)'|"((?:[^"\\]|\\.)*)")""", re.M)
_TAKES_PASSWORDS: Final = frozenset({"ssh", "scp", "sftp", "ssh-add", "sudo", "su", "doas", "passwd", "gpg", "gpg2",
                                     "kinit", "mysql", "psql", "vault", "op", "pass", "git", "openssl", "age"})
_HARMLESS_FRONTS: Final = frozenset({"kitty", "kitten", "wezterm", "mosh", "autossh", "sshpass", "grc", "nocorrect",
                                     "noglob", "time", "nice"})
_JS_STRING: Final = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"")
_JS_EXEC: Final = re.compile(r"(?:\bexecSync|(?<![\w.$])exec|\b(?:child_process|childProcess|cp)\.exec)\s*\(\s*"
                             r"(?:'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"|`([^`$]*)`)")
_JS_SPAWN: Final = re.compile(r"\b(?:spawnSync|spawn|execFileSync|execFile)\s*\(\s*['\"]([^'\"]+)['\"]\s*,"
                              r"\s*\[([^\]]*)\]")
_OUTSIDE_CODE: Final = re.compile(r"(?:/tmp|/var/tmp|/dev/shm|~/\.|\$HOME/\.|\$\{HOME\}/\.)[^\s'\"`,;)\]]*"
                                  r"\.(?:js|cjs|mjs|ts|cts|mts|rb|py|sh|so|pl|lua|php|jar|dll|dylib)\b")
_SERVES_ALL: Final = re.compile(r"\ballow\s*:\s*\[\s*['\"]/['\"]")
_CLIENT_SHELL: Final = re.compile(r"^\s*(?:shell\s+|!|\\!\s*|\.shell\s+|\.system\s+)(.+?)\s*$", re.M)
_USES_OWNER: Final = re.compile(r"^\s*-?\s*uses\s*:\s*['\"]?([\w.-]+)/", re.M)
_ACTION_OWNERS: Final = frozenset({"actions", "github", "docker", "aws-actions", "azure", "google-github-actions",
                                   "hashicorp", "codecov", "softprops", "dtolnay", "pypa", "astral-sh", "oven-sh",
                                   "pnpm", "denoland", "gradle", "ruby", "shivammathur", "golangci", "goreleaser",
                                   "cachix", "peaceiris", "actions-rs", "swatinem", "taiki-e", "crazy-max"})
_SOURCE_LINE: Final = re.compile(r"registry|index|mirror|\burl\b|<url>|source|channels?|^\s*deb(?:-src)?\s|"
                                  r"[\w\]]\s*@\s*(?:git\+)?https?://|"
                                  r"(?:^|[\s\"'])(?:git\+)?https?://\S+\.(?:tar\.gz|tgz|whl|zip)\b|"
                                  r"\bextra-index|find-links|goproxy|location\s*=", re.I)
_URL: Final = re.compile(r"\bhttps?://[^\s'\"<>,\]]+")
_SCOPED: Final = re.compile(r"\s*@[\w.-]+:registry\s*=|\s*\"?@[\w.-]+\"?\s*:\s*\{?\s*$")
_BARE_LOCATION: Final = re.compile(r"^\s*location\s*=\s*[\"']([\w.-]+(?::\d+)?)(?:/[^\"']*)?[\"']")
_EVERYTHING: Final = frozenset({"Bash", "Bash(*)", "Bash(:*)", "Bash(**)", "*"})


def read(language: str, text: str, out: _Content) -> None:
    """The snippets, doubts and denies of ``text`` in one of this module's languages (else nothing)."""
    if language == "sh":
        out.denies.extend(credential_wrappers(text))
    elif language in ("cargo", "pkgsrc"):  # a registry or mirror elsewhere: every later install runs its code
        out.denies.extend(f"sends every later install to {h} (neither a package registry nor a code forge)"
                          for h in foreign_sources(text))
    elif language == "logrotate":  # `postrotate … endscript`: run through /bin/sh as root after each rotation
        out.snippets.extend(("sh", m.group(1)) for m in _LOGROTATE_SCRIPT.finditer(text))
    elif language == "udev":  # `RUN+="/bin/sh -c '…'"`: run as root for each matching device event
        out.snippets.extend(("sh", m.group(1)) for m in _UDEV_RUN.finditer(text))
    elif language == "envfile":
        _environment(text, out)
    elif language == "tmux":
        out.snippets.extend(("sh", c) for c in tmux_commands(text))
    elif language == "elisp":  # read as `emacs --eval`: shell-command, call-process, delete-directory …
        out.snippets.append(("sh", "emacs --batch --eval " + shlex.quote(text)))
    elif language == "dirlocals" and re.search(r"\beval\b", text):  # only an `eval` entry is code here
        out.snippets.append(("sh", "emacs --batch --eval " + shlex.quote(text)))
    elif language == "agentjson":
        _agent_settings(text, out)
    elif language == "toolcfg":
        _tool_config(text, out)
    elif language == "clientrc":  # gdb's `shell CMD`/`!CMD`, psql's `\! CMD`, sqlite3's `.shell`/`.system CMD`
        out.snippets.extend(("sh", m.group(1)) for m in _CLIENT_SHELL.finditer(text))
        if re.search(r"^\s*(?:python|source|\\i|\.read|\.load)\b", text, re.M):
            out.doubts.append("it runs code or reads files the gate does not see")
    elif language == "awscfg":  # `credential_process = CMD`: run (through no shell: an argv) for credentials
        out.snippets.extend(("sh", m.group(1)) for m in re.finditer(r"^\s*credential_process\s*=\s*(.+)$", text, re.M))
    elif language == "tf":  # `data "external"`'s program (an argv), `local-exec`'s command: run by plan or apply
        out.snippets.extend(("sh", c) for c in terraform_commands(text))
    elif language == "plist":  # `ProgramArguments` (an argv) or `Program`: what launchd starts
        out.snippets.extend(("sh", c) for c in launchd_commands(text))
    elif language == "hosts":  # `203.0.113.9 registry.npmjs.org`: a registry, forge or API answered elsewhere
        out.denies.extend(f"sends every connection to {name} to {address} instead" for address, name in
                          _hosts_redirects(text))
    elif language == "shadow":
        out.denies.append("puts a program first on PATH under the name of a command people type passwords into "
                          "or trust")


_TF_PROGRAM: Final = re.compile(r"\bprogram\s*=\s*\[((?:[^\]\"]|\"(?:[^\"\\]|\\.)*\")*)\]", re.S)
_TF_COMMAND: Final = re.compile(r"\bcommand\s*=\s*(?:\"((?:[^\"\\]|\\.)*)\"|<<-?(\w+)\n(.*?)\n\s*\3\b)", re.S)


def terraform_commands(text: str) -> list[str]:
    """What ``terraform plan``/``apply`` runs of a configuration: each ``external`` data source's
    ``program`` (an argv) and each ``local-exec`` provisioner's ``command`` (a shell line)."""
    out = [shlex.join(json.loads(f"[{m.group(1)}]")) for m in _TF_PROGRAM.finditer(text) if _json_list(m.group(1))]
    out.extend(json.loads(f'"{m.group(1)}"') if m.group(1) is not None else m.group(4)
               for m in _TF_COMMAND.finditer(text) if m.group(1) is None or _decodable(m.group(1)))
    return out


def _json_list(items: str) -> bool:
    try:
        return isinstance(json.loads(f"[{items}]"), list)
    except ValueError:
        return False


_PLIST_ARGS: Final = re.compile(r"<key>\s*ProgramArguments\s*</key>\s*<array>(.*?)</array>", re.S)
_PLIST_PROGRAM: Final = re.compile(r"<key>\s*Program\s*</key>\s*<string>(.*?)</string>", re.S)


def launchd_commands(text: str) -> list[str]:
    """The command lines a launchd job runs: its ``ProgramArguments`` array as one argv, or its ``Program``."""
    out = [shlex.join(html.unescape(s) for s in re.findall(r"<string>(.*?)</string>", m.group(1), re.S))
           for m in _PLIST_ARGS.finditer(text)]
    out.extend(shlex.quote(html.unescape(m.group(1))) for m in _PLIST_PROGRAM.finditer(text))
    return out


def _hosts_redirects(text: str) -> list[tuple[str, str]]:
    """(address, name) of hosts-file lines that answer a registry, forge or well-known API with an address
    other than this machine's or nowhere (``0.0.0.0 ads.example`` blocks; ``203.0.113.9 pypi.org`` redirects)."""
    out: list[tuple[str, str]] = []
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if len(words) < 2 or words[0] in ("127.0.0.1", "0.0.0.0", "::1", "::", "127.0.1.1"):
            continue
        out.extend((words[0], n) for n in words[1:] if known_code_host(n) or n.endswith(_API_SUFFIXES))
    return out[:5]


_API_SUFFIXES: Final = ("anthropic.com", "openai.com", "amazonaws.com", "googleapis.com", "azure.com", "docker.io",
                        "docker.com")


def foreign_sources(text: str) -> list[str]:
    """The hosts, neither a package registry nor a forge nor a private network, that lines of a package
    configuration send installs to (``registry = https://registry.evil.example``, ``<mirror><url>…``,
    ``network_mirror { url = … }``, ``deb [trusted=yes] http://203.0.113.9 …``)."""
    out: list[str] = []
    for line in text.splitlines():
        if not _SOURCE_LINE.search(line) or _SCOPED.match(line):  # (a scope's own registry serves only its packages)
            continue
        if re.match(r"\s*deb(?:-src)?\s", line) and not re.search(r"trusted=yes|allow-insecure=yes", line):
            continue  # a vendor's apt repository is signed: only one trusted without a signature counts
        urls = _URL.findall(line) + [f"https://{m}" for m in _BARE_LOCATION.findall(line)]  # registries.conf
        for url in urls:
            _, host = host_of(url)
            if host and foreign_code_host(host) and host not in out:
                out.append(host)
    return out


def credential_wrappers(text: str) -> list[str]:
    """``alias ssh='strace -o /tmp/.s ssh'`` in a start-up file: every later ssh (sudo, gpg …), and the password
    typed into it, goes through another program first."""
    out: list[str] = []
    for m in _ALIAS.finditer(text):
        name, value = m.group(1), m.group(2) if m.group(2) is not None else m.group(3)
        if name not in _TAKES_PASSWORDS:
            continue
        try:
            words = [w for w in shlex.split(value) if not re.match(r"[A-Za-z_][A-Za-z0-9_]*=", w)]
        except ValueError:
            words = value.split()
        while words and words[0] in ("command", "builtin", "exec", "env"):
            words = words[1:]
        first = words[0].rsplit("/", 1)[-1] if words else name
        if first != name and first not in _HARMLESS_FRONTS:
            out.append(f"puts {first} in front of every {name} run from now on, with the passwords typed into it")
    return out


def _environment(text: str, out: _Content) -> None:
    """``environment.d``, ``~/.pam_environment``, ``/etc/environment``: every program of the session gets
    these variables; a preloaded library runs inside each of them."""
    for m in _ENV_LINE.finditer(text):
        name, value = m.group(1), m.group(2).strip("'\"")
        if name in _PRELOADS and value:
            out.denies.append(f"preloads {value} into every program of the session ({name})")
        elif name in _CODE_VARS:
            out.doubts.append(f"sets {name}={value[:60]} for every program of the session")


def tmux_commands(text: str) -> list[str]:
    """The shell commands a tmux configuration runs: ``run-shell [-b] CMD``, ``if-shell CMD …`` (also inside
    a ``bind`` or ``set-hook``), and ``#(CMD)`` in a status format, run at every refresh."""
    out = [m.group(1) for m in _TMUX_FORMAT.finditer(text)]
    for line in text.splitlines():
        out.extend(_tmux_line(line, 0))
    return out


def _tmux_line(line: str, depth: int) -> list[str]:
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        return []
    out: list[str] = []
    for i, w in enumerate(words):
        if w in _TMUX_RUNS:
            rest = words[i + 1:]
            while rest and rest[0].startswith("-"):  # -b, -C, -t TARGET, -d DELAY
                rest = rest[2:] if rest[0] in ("-t", "-d") else rest[1:]
            if rest:
                out.append(rest[0])
            break
        if depth == 0 and i and " " in w and any(r in w.split() for r in _TMUX_RUNS):
            out.extend(_tmux_line(w, 1))  # `bind r run-shell "…"` quoted whole, or `set-hook -g x 'run …'`
    return out


def _tool_config(text: str, out: _Content) -> None:
    """A test, lint, build or package tool's configuration, which the tool loads (JavaScript ones run as code)
    on every run: the commands its code starts, code it loads from outside the project, the deno tasks it
    defines, and a dev server told to serve every file."""
    out.snippets.extend(("sh", a or b or c) for a, b, c in _JS_EXEC.findall(text))
    for m in _JS_SPAWN.finditer(text):
        args = [a or b for a, b in _JS_STRING.findall(m.group(2))]
        out.snippets.append(("sh", shlex.join([m.group(1), *args])))
    out.doubts.extend(f"loads {m.group(0)} from outside the project" for m in _OUTSIDE_CODE.finditer(text))
    if re.search(r'"importMap"\s*:\s*"https?://', text):
        out.doubts.append("it maps every import through a file on another host (a remote importMap)")
    if _SERVES_ALL.search(text):
        out.doubts.append("the dev server may serve any file of the machine (fs.allow /)")
    try:
        data = json.loads(text)
    except ValueError:
        return
    tasks = data.get("tasks") if isinstance(data, dict) else None
    if isinstance(tasks, dict):  # deno.json: `deno task NAME` runs the string through its shell
        for task in tasks.values():
            command = task.get("command") if isinstance(task, dict) else task
            if isinstance(command, str):  # (a task is the project's own command: only a deny in it counts)
                out.snippets.append((LOOSE, command))


def workflow_doubts(text: str) -> list[str]:
    """What a CI workflow hands away without running a command: a fork's pull request run with the secrets
    (``pull_request_target``), a token with every write permission, every secret given to a workflow of
    another repository."""
    out: list[str] = []
    if re.search(r"^\s*-?\s*pull_request_target\b", text, re.M):
        out.append("it runs pull requests from forks with the repository's secrets (pull_request_target)")
    for owner in _USES_OWNER.findall(text):
        near = next((o for o in _ACTION_OWNERS if o != owner.lower() and _one_edit(owner.lower(), o)), None)
        if near is not None:
            out.append(f"it runs the action of {owner}, one typo from {near} (a look-alike?)")
    if re.search(r"^\s*permissions\s*:\s*write-all\b", text, re.M):
        out.append("it gives the workflow's token every write permission (write-all)")
    if re.search(r"^\s*secrets\s*:\s*inherit\b", text, re.M) and re.search(r"^\s*uses\s*:\s*[\w.-]+/[\w.-]+/", text,
                                                                             re.M):
        out.append("it hands every secret to a workflow of another repository (secrets: inherit)")
    return out


def _one_edit(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by one letter added, dropped, changed or two swapped."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] \
            and a[diff[1]] == b[diff[0]]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _json_objects(text: str) -> list[dict]:
    """The JSON objects written out in ``text`` (a jq filter's ``{"command": …}``), outermost first."""
    found: list[dict] = []
    start = text.find("{")
    while start >= 0 and len(found) < 10:
        depth = 0
        for end in range(start, min(len(text), start + 4000)):
            depth += (text[end] == "{") - (text[end] == "}")
            if depth == 0:
                try:
                    value = json.loads(text[start:end + 1])
                except ValueError:
                    break
                if isinstance(value, dict):
                    found.append(value)
                break
        start = text.find("{", start + 1)
    return found


def _agent_settings(text: str, out: _Content) -> None:
    """Claude Code's ``settings.json`` (hooks, status line, helpers, permissions), ``.mcp.json`` and the other
    MCP lists (a server's ``command`` and ``args``), an editor's terminal profiles (``path`` and ``args``)."""
    try:
        data = json.loads(text)
    except ValueError:  # an Edit's fragment: its command strings, read for denies
        out.snippets.extend((LOOSE, json.loads(f'"{m.group(1)}"')) for m in _JSON_COMMAND.finditer(text)
                            if _decodable(m.group(1)))
        if "bypassPermissions" in text:
            out.denies.append("turns the agent's permission checks off (bypassPermissions)")
        if re.search(r'\ballow\b[^\n]{0,40}\[[^\]]*"(?:Bash|Bash\(\*\)|Bash\(:\*\)|Bash\(\*\*\)|\*)"', text):
            out.denies.append("allows the agent every shell command without asking")
        for piece in _json_objects(text):  # `.mcpServers.x={"command":"npx","args":[…]}`: a server entry
            _walk({"mcpServers": {"x": piece}} if "command" in piece else piece, out, 0)
        return
    _walk(data, out, 0)
    permissions = data.get("permissions") if isinstance(data, dict) else None
    if isinstance(permissions, dict):
        if permissions.get("defaultMode") == "bypassPermissions":
            out.denies.append("turns the agent's permission checks off (bypassPermissions)")
        allowed = permissions.get("allow")
        if isinstance(allowed, list) and _EVERYTHING.intersection(a for a in allowed if isinstance(a, str)):
            out.denies.append("allows the agent every shell command without asking")


def _walk(node: object, out: _Content, depth: int) -> None:
    if depth > 12:
        return
    if isinstance(node, list):
        for item in node:
            _walk(item, out, depth + 1)
        return
    if not isinstance(node, dict):
        return
    program = node.get("command") if isinstance(node.get("command"), str) else node.get("path")
    args = node.get("args")
    if isinstance(program, str) and isinstance(args, list) and all(isinstance(a, str) for a in args):
        out.snippets.append(("sh", shlex.join([program, *args])))  # an MCP server or a terminal profile: an argv
    elif isinstance(node.get("command"), str) and (node.get("type") == "command" or "args" not in node):
        out.snippets.append(("sh", node["command"]))  # a hook or the status line: a shell command line
    for key, value in node.items():
        if key in _HOOK_HELPERS and isinstance(value, str):
            out.snippets.append(("sh", value))
        elif isinstance(value, (dict, list)):
            _walk(value, out, depth + 1)


def _decodable(body: str) -> bool:
    try:
        json.loads(f'"{body}"')
    except ValueError:
        return False
    return True


LANGUAGES: Final = frozenset({"logrotate", "udev", "envfile", "tmux", "elisp", "dirlocals", "agentjson", "toolcfg",
                              "clientrc", "shadow", "pkgsrc", "awscfg", "hosts", "plist", "tf"})
