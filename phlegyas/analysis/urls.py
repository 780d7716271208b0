"""What a URL points at, for the calls that fetch one: a public web page, or something that is not.

``internal_reason(url)`` says why fetching ``url`` is not a plain read of the public web: a scheme other
than http(s) (``file:`` reads local files, ``gopher:``/``dict:`` talk raw protocols), a cloud metadata or
link-local address (``169.254.169.254``, ``fd00:ec2::254``, ``metadata.google.internal``: they hand out the
machine's credentials), a service on this machine (``localhost``, ``127.0.0.0/8`` in any of the forms curl
reads: ``127.1``, ``0x7f000001``, ``[::ffff:127.0.0.1]``; ``::1``, ``0.0.0.0``, names that resolve there
such as ``lvh.me`` or ``127.0.0.1.nip.io``), or a private network (``10.0.0.0/8``, ``192.168.0.0/16``,
``*.internal``, ``*.svc.cluster.local``).

``dev_server(url, ports)`` lifts that for the everyday case, the project's own dev server: a loopback
address on a port dev servers use (``DEV_PORTS``: Vite, Next, Rails, Django, Flask, webpack, Storybook …,
plus the policy's ``local_ports``), and a path that is not an admin or debug endpoint (``/admin``,
``/actuator``, ``/console`` …). The Docker API (2375), databases' ports, the node inspector (9229),
Jupyter (8888), Consul, Vault, etcd and the kubelet are not dev servers: they run code or hold secrets.
``secrets_in(text)`` names the secrets a URL, header or body carries (the formats ``core.redact`` knows).
"""
from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from typing import Final
from urllib.parse import unquote, urlsplit

from phlegyas.core.redact import secret_kinds

WEB_SCHEMES: Final = frozenset({"http", "https"})
METADATA_HOSTS: Final = frozenset({
    "metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal",
    "metadata.azure.com", "metadata.tencentyun.com", "100.100.100.200",
})
LOCAL_HOSTS = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback", "lvh.me",
                         "localtest.me", "vcap.me", "lacolhost.com", "host.docker.internal", "gateway.docker.internal",
                         "host.containers.internal"})
"""Names of this machine (the last ones: the host, seen from a container)."""
PRIVATE_SUFFIXES: Final = (".internal", ".local", ".lan", ".home.arpa", ".intranet", ".corp", ".svc", ".cluster.local")
PRIVATE_HOSTS: Final = frozenset({"kubernetes", "kubernetes.default"})
_EMBEDDED_IP: Final = re.compile(r"(?:^|[.-])(\d{1,3}(?:[.-]\d{1,3}){3})\.(?:nip\.io|sslip\.io|xip\.io|traefik\.me)$")

DEV_PORTS: Final = frozenset({
    1313,  # hugo
    3000, 3001, 3002, 3003,  # next, create-react-app, rails, express, remix, nuxt
    3333, 4000, 4200, 4321,  # adonis / jekyll, phoenix / angular / astro
    4173, 5173, 5174,  # vite preview, vite
    5000, 5001,  # flask, dotnet
    5500,  # live server
    6006,  # storybook
    8000, 8001, 8008, 8010,  # django, uvicorn, mkdocs, http.server
    8080, 8081, 8082,  # webpack, spring boot, tomcat, expo
    8787,  # wrangler
})
"""Ports of the dev servers an agent starts and then checks (``curl localhost:3000/health``)."""
ADMIN_PATHS: Final = frozenset({
    "admin", "_admin", "wp-admin", "actuator", "manager", "console", "h2-console", "jmx-console", "debug", "_debug",
    "__debug__", "env", ".env", "script", "jolokia", "heapdump", "phpmyadmin", "_profiler", "api-docs-admin",
    "scripttext", "scriptconsole", "manage", "management", "graphql-admin", "metrics-admin", "eval", "exec", "shell",
    "pprof", "vars",
})
"""Path segments of admin and debug endpoints (anywhere in the path: `/api/admin/users`): even on a dev port,
not a page to read unasked."""
HEALTH_PATHS: Final = frozenset({"actuator/health", "actuator/info", "actuator/health/liveness",
                                 "actuator/health/readiness", "debug/health"})
"""Status pages under those segments that show only up or down (Spring's health and info)."""


def host_of(url: str) -> tuple[str | None, str | None]:
    """(scheme, host) of ``url`` in lower case; a URL without a scheme is taken as http (curl does)."""
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        host = parts.hostname
    except ValueError:
        return None, None
    return parts.scheme.lower() or None, host.rstrip(".").lower() if host else None


GATE_ACTIONS: Final = re.compile(r"/+requests/+[^/?#]+/+(?:approve|deny)/*|/+trust/+revoke/*", re.IGNORECASE)
"""The paths of the dashboard's state changes (answer a request, revoke a trusted script)."""


def gate_action(url: str) -> bool:
    """Whether ``url`` is one of the dashboard's approve / deny / revoke endpoints on a machine that is not
    the public web (loopback, a private network): where the gate's own approvals are answered."""
    text = url.strip() if "://" in url else "http://" + url.strip()
    try:
        path = unquote(urlsplit(text).path)
    except ValueError:
        return False
    return bool(GATE_ACTIONS.fullmatch(path)) and internal_reason(url) is not None


def internal_reason(url: str) -> str | None:
    """Why fetching ``url`` is not a plain read of the public web, or None when it is one."""
    scheme, host = host_of(url)
    if scheme is None:
        return "a URL that cannot be read"
    if scheme not in WEB_SCHEMES:
        return f"the {scheme}: scheme, which is not a web page"
    if host is None:
        return "a URL without a host"
    return host_reason(host)


def host_reason(host: str) -> str | None:
    """Why ``host`` (lower case, no port) is not a host of the public web, or None."""
    if host in METADATA_HOSTS or host.endswith(".metadata.google.internal"):
        return f"{host}, a cloud metadata service (it hands out the machine's credentials)"
    if _local_name(host):
        return f"{host}, a service on this machine"
    if host in PRIVATE_HOSTS or host.endswith(PRIVATE_SUFFIXES):
        return f"{host}, a name of a private network (not the public web)"
    address = _address(host)
    if address is None:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_link_local or str(address) == "fd00:ec2::254":
        return f"{host}, a link-local address (cloud metadata lives there)"
    if address.is_loopback or address.is_unspecified:
        return f"{host}, a service on this machine"
    if address.is_private or address in _SHARED:
        return f"{host}, a private-network address (not the public web)"
    return None


_SHARED: Final = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT, also where some clouds keep metadata


def _local_name(host: str) -> bool:
    return host in LOCAL_HOSTS or host.endswith((".localhost", ".lvh.me", ".localtest.me", ".vcap.me"))


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address ``host`` spells: dotted, IPv6 in brackets, or the forms curl also reads as IPv4
    (``2852039166``, ``0xa9fea9fe``, ``127.1``, ``0177.0.0.1``), or one embedded in a wildcard-DNS name
    (``10.0.0.5.nip.io``)."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    embedded = _EMBEDDED_IP.search(host)
    if embedded is not None:
        try:
            return ipaddress.IPv4Address(embedded.group(1).replace("-", "."))
        except ValueError:
            return None
    return _inet_aton(host)


def _inet_aton(host: str) -> ipaddress.IPv4Address | None:
    """IPv4 as the C library's ``inet_aton`` reads it: 1 to 4 parts, each decimal, octal (``0177``) or
    hex (``0x7f``); the last part fills the bytes left."""
    parts = host.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers = []
    for part in parts:
        try:
            if part[:2].lower() == "0x":
                numbers.append(int(part[2:] or "0", 16))
            elif len(part) > 1 and part.startswith("0"):
                numbers.append(int(part, 8))
            elif part.isdigit():
                numbers.append(int(part))
            else:
                return None
        except ValueError:
            return None
    value = 0
    for number in numbers[:-1]:
        if number > 255:
            return None
        value = value * 256 + number
    room = 256 ** (4 - len(numbers) + 1)
    if numbers[-1] >= room:
        return None
    return ipaddress.IPv4Address(value * room + numbers[-1])


DEV_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0", "host.docker.internal", "host.containers.internal"})
"""Loopback, spelled plainly, and the host seen from a container (a dev server runs there too)."""


def dev_server(url: str, extra_ports: tuple[int, ...] = ()) -> bool:
    """Is ``url`` a plain page of a dev server on this machine: a loopback host, a dev port (``DEV_PORTS``
    or ``extra_ports``), http(s), and not an admin or debug path?"""
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        host, port = parts.hostname, parts.port
    except ValueError:
        return False
    if parts.scheme.lower() not in WEB_SCHEMES or host is None or port is None or parts.username or parts.password:
        return False
    host = host.rstrip(".").lower()
    if host not in DEV_HOSTS:
        return False
    if port not in DEV_PORTS and port not in extra_ports:
        return False
    path = parts.path.strip("/").lower()
    if _SECRET_SEGMENT.search(path):  # `localhost:8001/api/v1/namespaces/kube-system/secrets` (kubectl proxy)
        return False
    return not ADMIN_PATHS.intersection(path.split("/")) or path in HEALTH_PATHS


def secrets_in(text: str) -> list[str]:
    """The kinds of secret ``text`` carries, as words (``anthropic key``), base64-encoded ones included (a key
    sent as ``?d=LS0tLS1CRUdJTi…`` or as a DNS label is as gone as one sent in the clear)."""
    found = [kind.replace("_", " ") for kind in secret_kinds(text)]
    if found or len(text) < 24:
        return found
    plain = unquote(text) if "%" in text else text  # `?cfg=DATABASE_URL%3Dpostgres%3A%2F%2Fapp%3Apw%40db…`
    if _CONNECTION_PASSWORD.search(plain[plain.find("?"):] if "?" in plain else plain[plain.find("://") + 3:]):
        return ["a connection URL with its password"]
    for token in [*_BASE64_RUN.findall(text)[:8], *_BASE64_LABEL.findall(text)[:8]]:
        decoded = _decoded(token)
        if decoded is None:
            continue
        if any(marker in decoded for marker in _KEY_MARKERS):
            return ["a private key (base64-encoded)"]
        kinds = secret_kinds(decoded)
        if kinds:
            return [f"{kinds[0].replace('_', ' ')} (base64-encoded)"]
    return []


_SECRET_SEGMENT: Final = re.compile(r"(?:^|/)[^/]*(?:secret|credential|token|password|private[-_]?key)[^/]*(?:/|$)")
_CONNECTION_PASSWORD: Final = re.compile(r"\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|amqp|mssql)"
                                         r"://[^:/@\s]+:[^@/\s]{3,}@", re.I)
_BASE64_RUN: Final = re.compile(r"[A-Za-z0-9+/_-]{24,4096}={0,2}")
_BASE64_LABEL: Final = re.compile(r"(?<![A-Za-z0-9+_-])[A-Za-z0-9+_-]{24,255}")  # a DNS label or a path part
_KEY_MARKERS: Final = ("PRIVATE KEY-----", "openssh-key-v1", "aws_secret_access_key", "BEGIN PGP PRIVATE")


def _decoded(token: str) -> str | None:
    try:
        raw = base64.b64decode(token.replace("-", "+").replace("_", "/") + "=" * (-len(token) % 4))
    except (ValueError, binascii.Error):
        return None
    return raw.decode("latin-1")


FORGES: Final = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "git.sr.ht", "dev.azure.com")
"""Code forges a ``url.<base>.insteadOf`` rewrite of which sends every clone and fetch elsewhere."""


PACKAGE_HOSTS: Final = frozenset({
    "registry.npmjs.org", "registry.npmjs.com", "registry.yarnpkg.com", "npm.pkg.github.com", "jsr.io",
    "pypi.org", "pypi.python.org", "files.pythonhosted.org", "download.pytorch.org", "crates.io", "static.crates.io",
    "index.crates.io", "rubygems.org", "conda.anaconda.org", "repo.anaconda.com", "conda-forge.org",
    "prefix.dev", "api.nuget.org", "nuget.org", "luarocks.org", "proxy.golang.org", "sum.golang.org",
    "go.dev", "pkg.go.dev", "repo1.maven.org", "repo.maven.apache.org", "plugins.gradle.org", "packagist.org",
    "repo.packagist.org", "hex.pm", "repo.hex.pm", "pub.dev", "cache.nixos.org", "channels.nixos.org",
    "formulae.brew.sh", "ghcr.io", "deb.debian.org", "archive.ubuntu.com", "security.ubuntu.com", "cpan.org",
    "www.cpan.org", "cran.r-project.org", "hackage.haskell.org", "opam.ocaml.org"})
"""Package registries and indexes of the ecosystems phlegyas knows: code from them is what an install fetches
anyway (``tier1.install_sources`` judges code from anywhere else)."""


def known_code_host(host: str) -> bool:
    """A forge, a package registry or one of their subdomains (``raw.githubusercontent.com``,
    ``codeload.github.com``)."""
    host = host.lower().rstrip(".")
    known = (*FORGES, *PACKAGE_HOSTS, "githubusercontent.com", "jfrog.io", "cloudsmith.io", "fury.io", "pkg.dev",
             "packagecloud.io", "myget.org")
    return any(host == k or host.endswith("." + k) for k in known)


_DOCUMENTATION: Final = tuple(ipaddress.ip_network(n) for n in ("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24",
                                                                 "2001:db8::/32"))


def foreign_code_host(host: str) -> bool:
    """A host code should not come from: not a forge or a registry (``known_code_host``), and not this machine
    or a private network. The documentation ranges (``203.0.113.0/24`` …) route nowhere private: foreign."""
    if known_code_host(host):
        return False
    address = _address(host)
    if address is not None and any(address in n for n in _DOCUMENTATION if n.version == address.version):
        return True
    return host_reason(host) is None


def git_url_host(url: str) -> str:
    """The host of a git URL: ``https://github.com/x``, ``git@github.com:x``, ``ssh://git@host:22/x``."""
    rest = url.split("://", 1)[1] if "://" in url else url.split("@", 1)[-1]
    return rest.split("/", 1)[0].split(":", 1)[0].rsplit("@", 1)[-1].lower()
