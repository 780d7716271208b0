"""Secrets in the flow of a command: credentials written into files that get committed, and secret
files read through a pipe.

Written: real-looking keys and password literals in the content of a Write/Edit, or of ``echo … >>
config.py`` and ``cat > settings.py <<EOF``. Content is data, not shell, so regular expressions are the
right tool here. Placeholders (``AKIAIOSFODNN7EXAMPLE``, ``your-api-key``, ``${TOKEN}``, ``os.environ[…]``)
do not count, and local configuration files that stay out of git (``.env``, ``.env.local``,
``*.example``) are exempt.

Read through a pipe: ``find ~/.ssh -type f | xargs cat`` reads what ``find`` lists, so the places the
listing program names are judged as if the reader had named them (``detect_piped_reads``).
"""
from __future__ import annotations

import posixpath
import re
from typing import Final

from phlegyas.analysis.paths import exposure_reason, holds_secrets, is_within, matches_pattern, normalize
from phlegyas.analysis.shell.handlers.find import find_start_dirs
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.stdin import substitution_output
from phlegyas.analysis.tier1.base import env_for, subject, upstream_closure
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding, Verdict

_KEY_PATTERNS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    ("an AWS access key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    ("an AWS secret key", re.compile(r"aws_?secret_?access_?key\s*[=:]\s*[\"']?[A-Za-z0-9/+=]{40}\b", re.I)),
    ("a private key", re.compile(r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----"
                                 r"\s*[A-Za-z0-9+/=:\-\s]{40}")),
    ("an Anthropic API key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,}")),
    ("an OpenAI API key", re.compile(r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_\-]{32,}")),
    ("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})")),
    ("a Slack token", re.compile(r"\bxox[baprs]-[0-9A-Za-z\-]{20,}")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    ("a Stripe live key", re.compile(r"\b[sr]k_live_[0-9A-Za-z]{20,}")),
    ("a GitLab token", re.compile(r"\bglpat-[0-9A-Za-z_\-]{20,}")),
    ("an npm token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
)
_LITERAL = re.compile(  # the name starts where a name starts: tried from every letter of a long word, it was quadratic
    r"(?<![A-Za-z0-9_.\-])(?P<name>[A-Za-z0-9_.\-]*(?:password|passwd|pwd|secret|api_?key|apikey|access_?token|auth_?token|"
    r"private_?key|client_?secret|token))[\"']?\s*(?::=|=>|=|:)\s*(?P<q>[\"'])(?P<value>[^\"'\s]{8,})(?P=q)",
    re.I)
_PLACEHOLDER_WORDS: Final = ("example", "changeme", "change_me", "placeholder", "your", "xxx", "***", "dummy", "sample",
                             "redacted", "fake", "test", "todo", "replace", "<", "{{", "${", "%s", "env(", "environ",
                             "getenv", "process.env", "secret_here", "password123", "...", "insert")


def _placeholder(value: str) -> bool:
    low = value.lower()
    if any(w in low for w in _PLACEHOLDER_WORDS):
        return True
    return len(set(low)) <= 3  # aaaaaaaa, 12121212


def find_secret(content: str, sent: bool = False) -> str | None:
    """What kind of real-looking credential ``content`` holds, or None. ``sent``: the content leaves the
    machine (a gist, a post), where a key of the documented example shape (``AKIAIOSFODNN7EXAMPLE``) counts too:
    nobody publishes an AWS key pair but to hand it on."""
    if not content or len(content) < 16:
        return None
    for what, pattern in _KEY_PATTERNS:
        for m in pattern.finditer(content):
            if sent or not _placeholder(m.group(0)):
                return what
    for m in _LITERAL.finditer(content):
        if not _placeholder(m.group("value")):
            return f"a hard-coded {m.group('name').lower()}"
    return None


_LOCAL_SUFFIXES: Final = (".example", ".sample", ".template", ".dist", ".local", ".tmpl")


def is_local_config(path: str) -> bool:
    """Files meant to stay out of version control, or to hold placeholders: ``.env*``, ``.envrc``,
    ``*.local``, ``*.example`` …"""
    name = posixpath.basename(path)
    if name.startswith(".env") or name in (".envrc", ".dev.vars", ".netrc", ".pgpass", ".npmrc", ".pypirc"):
        return True
    return name.endswith(_LOCAL_SUFFIXES) or ".local." in name or ".example." in name


def tracked_file(path: str, env: AnalysisEnv) -> bool:
    """A file inside the project that is likely committed (not local config, not under .git)."""
    return is_within(path, env.project_root) and not is_local_config(path) and "/.git/" not in path + "/"


# -- commands whose output is a credential --------------------------------------------------------------

_CREDENTIAL_COMMANDS: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    # program → (the words its operands start with, what it prints)
    "gh": ((("auth", "token"), "a GitHub token"),),
    "gpg": ((("--export-secret-keys",), "GPG private keys"), (("--export-secret-subkeys",), "GPG private keys")),
    "gpg2": ((("--export-secret-keys",), "GPG private keys"), (("--export-secret-subkeys",), "GPG private keys")),
    "glab": ((("auth", "token"), "a GitLab token"),),
    "aws": ((("configure", "export-credentials"), "AWS credentials"), (("sts", "get-session-token"), "AWS credentials"),
            (("sts", "assume-role"), "AWS credentials"), (("sts", "get-federation-token"), "AWS credentials"),
            (("ecr", "get-login-password"), "an AWS registry password"),
            (("secretsmanager", "get-secret-value"), "an AWS secret"),
            (("ssm", "get-parameter", "--with-decryption"), "an AWS parameter"),
            (("ssm", "get-parameters", "--with-decryption"), "AWS parameters"),
            (("ssm", "get-parameters-by-path", "--with-decryption"), "AWS parameters"), (("iam", "create-access-key"), "new AWS access keys"),
            (("secretsmanager", "batch-get-secret-value"), "AWS secrets"), (("kms", "decrypt"), "decrypted data"),
            (("lightsail", "get-instance-access-details"), "a server's SSH key"),
            (("ec2", "get-password-data"), "a server's administrator password"),
            (("iam", "create-login-profile"), "a new AWS console password"),
            (("lambda", "get-function-configuration"), "a function's environment (its secrets)"),
            (("lambda", "get-function"), "a function's environment and code"),
            (("ecs", "describe-task-definition"), "a task's environment (its secrets)"),
            (("rds", "describe-db-instances", "--show-master-password"), "a database password")),
    "terraform": ((("state", "pull"), "Terraform state (every resource's secrets)"),),
    "helm": ((("get", "values"), "a release's values (its passwords among them)"),
             (("get", "all"), "a release's values and manifests (secrets among them)")),
    "systemctl": ((("show-environment",), "the service manager's environment"),),
    "tofu": ((("state", "pull"), "Terraform state (every resource's secrets)"),),
    "pulumi": ((("stack", "export", "--show-secrets"), "a Pulumi stack's secrets"),
               (("config", "--show-secrets"), "a Pulumi stack's secrets"),
               (("stack", "output", "--show-secrets"), "a Pulumi stack's secrets")),
    "keepassxc-cli": ((("export",), "a KeePassXC database"), (("show",), "a KeePassXC entry"),
                      (("clip",), "a KeePassXC password")),
    "bw": ((("export",), "a Bitwarden vault"), (("get",), "a Bitwarden secret"), (("list", "items"), "Bitwarden items")),
    "doppler": ((("secrets", "download"), "Doppler secrets"), (("secrets", "get"), "a Doppler secret"),
                (("secrets",), "Doppler secrets")),
    "chamber": ((("read",), "a secret"), (("export",), "secrets"), (("env",), "secrets")),
    "aws-vault": ((("export",), "AWS credentials"),),
    "etcdctl": ((("get",), "etcd's keys (Kubernetes secrets among them)"),),
    "secret-tool": ((("lookup",), "a stored password"), (("search",), "stored passwords")),
    "age": ((("-d",), "decrypted secrets"), (("--decrypt",), "decrypted secrets")),
    "infisical": ((("export",), "Infisical secrets"), (("secrets",), "Infisical secrets")),
    "gcloud": ((("auth", "print-access-token"), "a Google Cloud access token"),
               (("auth", "print-identity-token"), "a Google Cloud identity token"),
               (("auth", "application-default", "print-access-token"), "a Google Cloud access token"),
               (("secrets", "versions", "access"), "a Google Cloud secret")),
    "az": ((("account", "get-access-token"), "an Azure access token"), (("keyvault", "secret", "show"), "an Azure secret"),
           (("keyvault", "secret", "download"), "an Azure secret"),
           (("ad", "sp", "create-for-rbac"), "a new Azure service principal's password"),
           (("ad", "sp", "credential", "reset"), "a new Azure service principal's password"),
           (("ad", "app", "credential", "reset"), "a new Azure application secret"),
           (("storage", "account", "keys", "list"), "Azure storage keys"),
           (("acr", "login", "--expose-token"), "an Azure registry token")),
    "doctl": ((("auth", "token"), "a DigitalOcean token"),),
    "heroku": ((("auth:token",), "a Heroku token"), (("authorizations:create",), "a Heroku token"),
               (("config",), "an app's configuration (its secrets)"), (("config:get",), "an app's secret")),
    "op": ((("read",), "a 1Password secret"), (("item", "get"), "a 1Password item")),
    "pass": ((("show",), "a password"),),
    "gopass": ((("show",), "a password"),),
    "vault": ((("read",), "a Vault secret"), (("kv", "get"), "a Vault secret"), (("print", "token"), "a Vault token"),
              (("token", "create"), "a new Vault token"), (("write", "auth/token/create"), "a new Vault token")),
    "security": ((("find-generic-password",), "a keychain password"), (("find-internet-password",), "a keychain password"),
                 (("dump-keychain",), "the keychain")),
    "kubectl": ((("config", "view", "--raw"), "kubeconfig credentials"), (("create", "token"), "a Kubernetes token")),
    **{f"docker-credential-{helper}": ((("get",), "a registry credential"),) for helper in (
        "desktop", "pass", "secretservice", "osxkeychain", "wincred", "ecr-login", "gcloud", "acr-env")},
    "git": ((("credential", "fill"), "a git credential"), (("credential-manager", "get"), "a git credential")),
    "npm": ((("token", "create"), "an npm token"),),
}
"""Programs whose output is itself a credential (``gh auth token``, ``gcloud auth print-access-token``)."""


_KUBE_VALUED: Final = frozenset({"--context", "-n", "--namespace", "--kubeconfig", "--cluster", "--user", "-s",
                                 "--server", "-l", "--selector", "--field-selector"})


def credential_output(prog: str, texts: list[str]) -> str | None:
    """What credential ``prog TEXTS`` prints, or None: a table of such commands, ``aws configure get`` of a
    secret key, ``kubectl get secret -o …``."""
    ops = [t for t in texts if not t.startswith("-")]
    if prog == "sops" and (any(t in ("-d", "--decrypt") for t in texts) or ops[:1] == ["decrypt"]):
        return "decrypted secrets"
    for start, what in _CREDENTIAL_COMMANDS.get(prog, ()):
        words = [s for s in start if not s.startswith("-")]
        if ops[:len(words)] == words and all(s in texts for s in start if s.startswith("-")):
            return what
    if prog == "aws" and ops[:2] == ["configure", "get"] and len(ops) > 2 and (
            "secret" in ops[2].lower() or "token" in ops[2].lower() or "key" in ops[2].lower()):
        return "an AWS secret key"
    if prog == "kubectl":  # `kubectl --context prod get secrets -A -o json`: the global options' values go
        ops = [t for i, t in enumerate(texts) if not t.startswith("-") and not (i and texts[i - 1] in _KUBE_VALUED)]
    if prog == "kubectl" and ops[:1] == ["get"] and len(ops) > 1 and ops[1].startswith("secret") and any(
            t in ("-o", "--output") or t.startswith(("-o", "--output=")) for t in texts):
        return "Kubernetes secrets"
    return None


# -- what uploaders send -------------------------------------------------------------------------------

def gh_uploads(texts: list[str]) -> tuple[list[str], bool]:
    """Files ``gh`` sends to GitHub (``gist create/edit`` files, ``release upload`` assets, body files,
    ``api --input``/``-F key=@file``) and whether it sends its stdin (``gist create -``, ``gist create`` of no
    file, ``secret set NAME`` without a value)."""
    words = [t for t in texts if not t.startswith("-")]
    out = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t in ("-F", "--body-file", "--input", "-a", "--add")
           and not (t == "-F" and "=" in texts[i + 1] and "@" not in texts[i + 1])]
    out = [o.split("=@", 1)[1] if "=@" in o else o for o in out]
    stdin = False
    if words[:2] in (["gist", "create"], ["gist", "new"]):
        given = [t for i, t in enumerate(texts) if (t == "-" or not t.startswith("-")) and not (
            i and texts[i - 1] in ("-f", "--filename", "-d", "--desc"))][2:]  # `-f key.asc -`: a name for stdin
        files = [w for w in given if w not in ("-", "/dev/stdin")]
        stdin = len(files) < len(given) or not files
        out.extend(files)
    elif words[:2] == ["release", "upload"]:
        out.extend(words[3:])
    elif words[:2] in (["secret", "set"], ["variable", "set"]):
        stdin = not any(t in ("-b", "--body", "-f", "--env-file") or t.startswith(("--body=", "-b", "--env-file="))
                        for t in texts)
        out.extend(texts[i + 1] for i, t in enumerate(texts[:-1]) if t in ("-f", "--env-file"))
    return out, stdin


def sftp_puts(inv: Invocation) -> list[str]:
    """The local files an ``sftp``/``ftp``/``lftp`` batch read from stdin uploads (``sftp host <<< 'put
    ~/.ssh/id_rsa'``, ``echo 'put x' | sftp host``, ``lftp -c 'open …; mirror -R ~/.ssh /loot'``)."""
    texts = [inv.stdin_text] if inv.stdin_text else []
    texts += [" ".join(w.text for w in up.args) for up in upstream_closure(inv) if up.program in ("echo", "printf")]
    args = [w.text for w in inv.args]
    texts += [args[i + 1] for i, t in enumerate(args[:-1])  # lftp -c/-e '…', tftp -c put …, smbclient -c '…'
              if t in ("-c", "-e") and inv.program == "lftp" or t in ("-c", "--command") and inv.program == "smbclient"]
    if inv.program == "tftp" and "-c" in args:
        texts.append(" ".join(args[args.index("-c") + 1:]))
    for i, t in enumerate(args[:-1]):  # `sftp -b <(printf 'put ~/.netrc\n') host`: a batch file printed in the line
        if t == "-b" and inv.program == "sftp" and args[i + 1].startswith("<(") and args[i + 1].endswith(")"):
            texts.append(substitution_output("$(" + args[i + 1][2:]) or "")
    files: list[str] = []
    for text in texts:
        for line in text.replace("\\n", "\n").replace(";", "\n").splitlines():
            words = line.split()
            if len(words) >= 2 and words[0].lstrip("-@") in ("put", "mput", "reput"):
                files.extend(w for w in words[1:2] if not w.startswith("-"))
            elif words[:1] == ["mirror"] and ("-R" in words or "--reverse" in words):  # lftp's upload of a tree
                files.extend([w for w in words[1:] if not w.startswith("-")][:1])
    return files



# -- secret files read through a pipe ------------------------------------------------------------------

_LISTERS: Final = frozenset({"find", "fd", "fdfind", "ls", "tree", "echo", "printf", "locate", "plocate", "du"})
"""Programs whose output is file names that ``xargs`` or ``parallel`` hands to the next program."""
_NAMES_ONLY = frozenset({"echo", "printf", "basename", "dirname", "ls", "stat", "du", "realpath", "readlink", "test",
                         "[", "true"})
"""Programs that, given file names, show or test the names, not the files' contents."""


def _listed_places(up: Invocation) -> list[str]:
    if up.program == "find":
        return [w.text for w in find_start_dirs(up.args)[0] if not w.dynamic]
    return [w.text for w in up.args if not w.dynamic and not w.text.startswith("-")]


def detect_piped_reads(inv: Invocation, env: AnalysisEnv, out: list[Finding]) -> None:
    """A program run by ``xargs``/``parallel`` reads the names its stdin brings: when the program that
    lists them names a secret place, or a directory holding secrets (``find ~ -name id_rsa``), reading
    what it lists is reading secrets (``sensitive.read``, ask)."""
    if not inv.via or not any(v.startswith(("xargs", "parallel")) for v in inv.via) or not inv.upstream:
        return
    if inv.program in _NAMES_ONLY:
        return
    env = env_for(inv, env)
    for up in upstream_closure(inv):
        if up.program not in _LISTERS:
            continue
        for text in _listed_places(up):
            path = normalize(text, env.cwd, env.home)
            why = exposure_reason(path, env.home) or holds_secrets(path, env.home) or next(
                (f"a secret place in your policy ({p})" for p in env.sensitive_paths
                 if matches_pattern(path, p, env.home)), None)
            if why is not None:
                out.append(Finding("sensitive.read", Verdict.ASK, subject(inv),
                                   f"{inv.program} reads what {up.program} lists under {path}: {why}"))
                return
