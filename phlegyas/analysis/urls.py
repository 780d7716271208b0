"""What a URL points at, for the calls that fetch one: a public web page, or something that is not.

``internal_reason(url)`` says why fetching ``url`` is not a plain read of the public web: a scheme other
than http(s) (``file:`` reads local files, ``gopher:``/``dict:`` talk raw protocols), a cloud metadata or
link-local address (``169.254.169.254``, ``fd00:ec2::254``, ``metadata.google.internal``: they hand out the
machine's credentials), or a service on this machine (``localhost``, ``127.0.0.0/8``, ``::1``, ``0.0.0.0``).
``secrets_in(text)`` names the secrets a URL, header or body carries (the formats ``core.redact`` knows).
"""
from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from phlegyas.core.redact import secret_kinds

WEB_SCHEMES = frozenset({"http", "https"})
METADATA_HOSTS = frozenset({
    "metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal",
    "metadata.azure.com", "metadata.tencentyun.com", "100.100.100.200",
})
LOCAL_HOSTS = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


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


def internal_reason(url: str) -> str | None:
    """Why fetching ``url`` is not a plain read of the public web, or None when it is one."""
    scheme, host = host_of(url)
    if scheme is None:
        return "a URL that cannot be read"
    if scheme not in WEB_SCHEMES:
        return f"the {scheme}: scheme, which is not a web page"
    if host is None:
        return "a URL without a host"
    if host in METADATA_HOSTS or host.endswith(".metadata.google.internal"):
        return f"{host}, a cloud metadata service (it hands out the machine's credentials)"
    if host in LOCAL_HOSTS or host.endswith(".localhost"):
        return f"{host}, a service on this machine"
    address = _address(host)
    if address is None:
        return None
    if address.is_link_local or str(address) == "fd00:ec2::254":
        return f"{host}, a link-local address (cloud metadata lives there)"
    if address.is_loopback or address.is_unspecified:
        return f"{host}, a service on this machine"
    return None


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    try:  # 2852039166, 0xa9fea9fe: whole-number forms curl and browsers read as IPv4
        return ipaddress.IPv4Address(int(host, 0)) if host.isdigit() or host.startswith("0x") else None
    except ValueError:
        return None


def secrets_in(text: str) -> list[str]:
    """The kinds of secret ``text`` carries, as words (``anthropic key``)."""
    return [kind.replace("_", " ") for kind in secret_kinds(text)]
