"""The commands in configuration files that other programs run later, for ``planted.extract``: ssh's and git's
client configuration, the editor's start-up files (``~/.vimrc``, ``init.lua``, a project's ``.nvim.lua`` or
``.exrc``), apt's hooks, PAM's
``pam_exec``, the ssh server's command settings, polkit rules and the download tools' own configuration.

Each reader puts the shell code the file will run into ``Content.snippets`` (judged like any command line)
what cannot be read as a command but still hands something away into ``Content.doubts`` (a person reads it:
a curl configuration that sends every download through a proxy), and what is a deny by itself into
``Content.denies``: a PAM module that runs a program at every login, a polkit rule that says yes to everyone.
"""
from __future__ import annotations

import re
from typing import Final, Protocol

from phlegyas.analysis.urls import FORGES, foreign_code_host, git_url_host


class _Content(Protocol):
    snippets: list[tuple[str, str]]
    doubts: list[str]
    denies: list[str]


_VIM_BANG: Final = re.compile(r"(?:^\s*|\|\s*|\bsilent!?\s+|\bautocmd\s+\S+\s+\S+\s+(?:silent!?\s+)?)!(?!=)([^\n]+)|"
                              r"\bexe(?:cute)?\s+(['\"])!((?:(?!\2).)+)\2", re.M)
"""``:!cmd`` takes the rest of its line, ``|`` included (vim hands it to the shell); ``exe "!cmd"`` its string."""
_VIM_CALL: Final = re.compile(r"\b(?:system|systemlist|os\.execute|io\.popen|jobstart|termopen|vim\.fn\.system|"
                              r"vim\.system)\s*\(\s*(\{[^}]*\}|\[[^\]]*\]|(['\"])(?:(?!\2).)*\2)")
_STRING: Final = re.compile(r"(['\"])((?:(?!\1).)*)\1")
_APT_HOOK: Final = re.compile(r"(?:Pre|Post)-Invoke(?:-Success)?|Pre-Install-Pkgs|Post-Install-Pkgs", re.I)
_SSHD_COMMAND: Final = re.compile(r"^\s*(?:AuthorizedKeysCommand|AuthorizedPrincipalsCommand|ForceCommand)\s+(.+?)\s*$",
                                  re.M | re.I)
_SSHD_GRANTS: Final = re.compile(r"^\s*(TrustedUserCAKeys\s+\S+|"
                                 r"AuthorizedKeysFile\s+(?:\S*\s+)*/(?:tmp|var/tmp|dev/shm)/\S*|"
                                 r"PermitEmptyPasswords\s+yes)", re.M | re.I)
_SSHD_GRANT_WHY: Final = (("trustedusercakeys", "whoever holds a certificate that key signs"),
                          ("authorizedkeysfile", "whoever can write a temporary directory"),
                          ("permitemptypasswords", "accounts without a password"))
_SENDS_FILE: Final = re.compile(r"^\s*-*(?:post[_-]file|body[_-]file|upload[_-]file|data(?:-binary|-urlencode)?|form|"
                                r"T)\s*[=\s]\s*['\"]?@?(\S+?)['\"]?\s*$", re.M | re.I)
_INSECURE: Final = re.compile(r"^\s*-*(?:insecure|k|check[_-]certificate\s*=\s*off|proxy\s*[=\s]|"
                              r"https?_proxy\s*=|use_proxy\s*=\s*on)", re.M | re.I)


_PAM_PERMIT: Final = re.compile(r"^\s*-?(?:auth|account)\s+(?:sufficient|\[[^]]*success=done[^]]*\])\s+pam_permit\.so")
_SSH_COMMAND: Final = re.compile(r"^\s*(?:ProxyCommand|LocalCommand|KnownHostsCommand|Match\s+exec)\s*=?\s*(.+?)\s*$",
                                 re.M | re.I)
_GIT_SECTION: Final = re.compile(r"^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+\"([^\"]*)\")?\s*\]")
_GIT_ENTRY: Final = re.compile(r"^\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*?)\s*$")
_GIT_COMMAND_KEYS: Final = frozenset({"core.fsmonitor", "core.sshcommand", "core.pager", "core.editor",
                                      "core.askpass", "core.hookspath", "sequence.editor", "diff.external",
                                      "credential.helper", "gpg.program", "pager.log", "pager.diff", "pager.show",
                                      "filter.*.clean", "filter.*.smudge", "filter.*.process", "diff.*.textconv",
                                      "diff.*.command", "merge.*.driver"})


def _git_value(value: str) -> str:
    """A git config value as git reads it: a comment dropped, surrounding double quotes and escapes undone."""
    value = value.strip()
    if value.startswith(("#", ";")):
        return ""
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return re.sub(r"[ \t]+[#;].*$", "", value)


def git_commands(text: str) -> list[str]:
    """The values of a git config that git runs as commands: aliases with ``!``, ``core.fsmonitor``,
    ``core.sshCommand``, pagers and editors, filters' ``clean``/``smudge``, diff drivers' ``textconv``."""
    out: list[str] = []
    section = ""
    for line in text.splitlines():
        m = _GIT_SECTION.match(line)
        if m:
            section = m.group(1).lower() + (".*" if m.group(2) else "")
            continue
        e = _GIT_ENTRY.match(line)
        if not e:
            continue
        key, value = f"{section}.{e.group(1).lower()}", _git_value(e.group(2))
        if value and (key in _GIT_COMMAND_KEYS or key.startswith("alias.") and value.startswith("!")):
            out.append(value[1:] if value.startswith("!") else value)
    return out


_URL_SECTION: Final = re.compile(r'^\s*\[\s*url\s+"([^"]+)"\s*\]', re.I)
_INSTEAD: Final = re.compile(r"^\s*(?:push)?insteadOf\s*=\s*\"?([^\"\s]+)", re.I)



def _url_rewrites(text: str) -> list[str]:
    """``[url "https://git.x.example/"] insteadOf = https://github.com/``: every fetch from a forge goes to
    another host (``tier1.git`` judges the same setting made with ``git config``)."""
    out, new = [], ""
    for line in text.splitlines():
        section = _URL_SECTION.match(line)
        if section or line.lstrip().startswith("["):
            new = section.group(1) if section else ""
            continue
        old = _INSTEAD.match(line)
        was, now = (git_url_host(old.group(1)), git_url_host(new)) if new and old else ("", "")
        if was in FORGES and now not in (was, ""):
            out.append(f"sends every fetch from {was} to {now} (url.insteadOf)")
    return out


def _lfs_elsewhere(text: str) -> list[str]:
    """``[lfs] url = https://lfs.evil.example/…``: every large file pushed or fetched (and the credentials git
    hands it) goes to a host that is neither a forge, a registry nor a private one."""
    out: list[str] = []
    section = ""
    for line in text.splitlines():
        if line.lstrip().startswith("["):
            section = line.strip().strip("[]").split()[0].lower() if line.strip().strip("[]") else ""
            continue
        key, eq, value = line.partition("=")
        if eq and section == "lfs" and key.strip().lower() in ("url", "pushurl"):
            host = git_url_host(value.strip().strip('"'))
            if host and foreign_code_host(host):
                out.append(f"sends the repository's large files, and the credentials for them, to {host} (lfs.url)")
    return out


def vim_commands(text: str) -> list[str]:
    """The shell commands a vimrc or init.lua runs: ``!cmd`` ex commands (in autocmds too), ``system('…')``,
    Lua's ``os.execute``/``io.popen``, ``jobstart({'sh', '-c', '…'})``."""
    out = [c.strip() for m in _VIM_BANG.finditer(text) if (c := m.group(1) or m.group(3) or "").strip()]
    for m in _VIM_CALL.finditer(text):
        arg = m.group(1)
        parts = [s for _, s in _STRING.findall(arg)]
        if arg[:1] in "{[":  # an argv: `{'sh', '-c', 'curl … | sh'}` runs its last word through the shell
            out.append(parts[-1] if len(parts) >= 3 and parts[1] == "-c" else " ".join(parts))
        elif parts:
            out.append(parts[0])
    return out


def read(language: str, text: str, out: _Content) -> None:
    """The snippets and doubts of ``text`` in one of this module's languages (else nothing)."""
    if language == "sshconf":  # `ProxyCommand sh -c "curl …"`: run by every ssh to a matching host
        for m in _SSH_COMMAND.finditer(text):
            value = m.group(1).replace("%%", "%")
            quoted = len(value) >= 2 and value[0] == value[-1] == '"'  # `Match exec "cmd"`: ssh's own quotes
            out.snippets.append(("sh", value[1:-1] if quoted else value))
    elif language == "gitconfig":  # `[core] fsmonitor = "curl … | sh"`: run by the next git status
        out.snippets.extend(("sh", v) for v in git_commands(text))
        out.denies.extend(_url_rewrites(text) + _lfs_elsewhere(text))
    elif language == "vim":
        out.snippets.extend(("sh", c) for c in vim_commands(text))
    elif language == "pdb":  # `.pdbrc`: `!stmt` (and an alias's `!stmt`) is Python run at every breakpoint
        for line in text.splitlines():
            body = re.sub(r"^\s*alias\s+\S+\s+", "", line).strip()
            if body.startswith("!") or line.strip() and not re.match(r"\s*(?:#|alias\b|[a-z]+\b\s*\S*$)", line):
                out.snippets.append(("py", body.lstrip("!").strip()))
    elif language == "apt":  # `APT::Update::Pre-Invoke { "curl … | sh"; };`
        for line in text.splitlines():
            if _APT_HOOK.search(line):
                out.snippets.extend(("sh", s) for _, s in _STRING.findall(line.split("{", 1)[-1]))
    elif language == "pam":  # `session optional pam_exec.so expose_authtok /tmp/x`: runs at every login
        for line in text.splitlines():
            if "pam_exec" in line and not line.lstrip().startswith("#"):
                program = [w for w in line.split() if w.startswith("/")]
                out.denies.append(f"makes every login run {program[0] if program else 'a program'} (pam_exec"
                                  f"{', handed the password' if 'expose_authtok' in line else ''})")
            elif _PAM_PERMIT.match(line):  # `auth sufficient pam_permit.so`: any password, or none, will do
                out.denies.append("lets anyone log in or sudo without a password (pam_permit)")
    elif language == "sshd":
        out.snippets.extend(("sh", m.group(1)) for m in _SSHD_COMMAND.finditer(text))
        out.denies.extend(f"lets in {why} ({m.group(1)})" for m in _SSHD_GRANTS.finditer(text)
                          for key, why in _SSHD_GRANT_WHY if m.group(1).lower().startswith(key))
    elif language == "polkit":
        if re.search(r"polkit\.Result\.YES", text):
            out.denies.append("grants administrator actions to anyone without a password (polkit.Result.YES)")
    elif language == "fetchrc":  # ~/.curlrc, ~/.wgetrc: read by every curl or wget from then on
        for m in _SENDS_FILE.finditer(text):
            out.snippets.append(("sh", f"curl -s -T {m.group(1)} https://every-request.invalid/"))
        if _INSECURE.search(text):
            out.doubts.append("every download goes through a proxy or without checking certificates")


LANGUAGES: Final = frozenset({"sshconf", "gitconfig", "vim", "pdb", "apt", "pam", "sshd", "polkit", "fetchrc"})
