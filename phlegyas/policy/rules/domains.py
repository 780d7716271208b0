"""WebFetch rules (``WebFetch(domain:x.com)``, ``domain:*.x.com``): the host a URL reaches, read as a
browser reads it, with IDNA and numeric IPv4 forms made canonical on both sides.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from phlegyas.policy.rules.rule import Rule
from phlegyas.policy.rules.view import CallView, Matcher

_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?")
_C0_AND_SPACE = "".join(map(chr, range(0x21)))
_IPV4_PART = re.compile(r"0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):/*")


def _idna(host: str) -> str | None:
    try:
        return host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError:
        return None


@dataclass(frozen=True)
class DomainMatcher(Matcher):
    host: str
    subdomains: bool  # `*.example.com`: strictly below example.com

    @classmethod
    def compile(cls, spec: str, fail) -> "DomainMatcher":
        text = spec.strip()
        if not text.startswith("domain:"):
            raise fail("WebFetch takes domain:HOST, e.g. WebFetch(domain:example.com)")
        host = text[len("domain:"):].strip().lower()
        if not host:
            raise fail("WebFetch(domain:) needs a host name, e.g. domain:example.com or domain:*.example.com")
        subdomains = host.startswith("*.")
        base = host[2:] if subdomains else host
        if "*" in base:
            raise fail("a wildcard is only allowed as a leading *. (domain:*.example.com); "
                       "write WebFetch alone to match every URL")
        if any(ch in base for ch in "/:@?#[] "):
            raise fail("expected a host name like example.com, not a URL")
        canonical = _idna(base.rstrip("."))
        if not canonical or not all(_LABEL.fullmatch(label) for label in canonical.split(".")):
            raise fail(f"{base!r} is not a host name")
        return cls(_canonical_ipv4(canonical) or canonical, subdomains)

    def matches(self, rule: Rule, view: CallView, each: bool) -> bool:
        host = _url_host(view.call.tool_input.get("url"), strict=each)
        if host is None:
            return False
        if self.subdomains:
            return host.endswith("." + self.host)
        return host == self.host


def _url_host(url, *, strict: bool) -> str | None:
    """The host a fetch of ``url`` would reach, as a browser parses it (``\\`` counts as ``/``, the
    last ``@`` ends the userinfo, ``%xx`` is decoded). ``strict``: http(s) only, or None."""
    if not isinstance(url, str):
        return None
    text = re.sub(r"[\t\n\r]", "", url).strip(_C0_AND_SPACE)
    m = _SCHEME.match(text)
    scheme = m.group(1).lower() if m else ""
    if m is not None and scheme in ("http", "https"):
        text = f"{scheme}://{text[m.end():]}".replace("\\", "/")
    elif strict:
        return None
    elif not m or "://" not in text:
        text = "https://" + text.replace("\\", "/")
    try:
        host = urlsplit(text).hostname
    except ValueError:
        return None
    if not host:
        return None
    host = unquote(host).lower().rstrip(".")
    canonical = _idna(host)
    if canonical is None or (strict and not all(_LABEL.fullmatch(p) for p in canonical.split("."))
                             and not re.fullmatch(r"[0-9a-f:.]+", canonical)):
        return None
    return _canonical_ipv4(canonical) or canonical


def _canonical_ipv4(host: str) -> str | None:
    """``0x7f.1``, ``2130706433`` … → ``127.0.0.1`` (as a URL parser reads numeric hosts), else None."""
    parts = host.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers: list[int] = []
    for part in parts:
        if not _IPV4_PART.fullmatch(part):
            return None
        if part[:2].lower() == "0x":
            numbers.append(int(part[2:] or "0", 16))
        else:
            numbers.append(int(part, 8 if part.startswith("0") else 10))
    last = numbers.pop()
    if any(n > 255 for n in numbers) or last >= 256 ** (4 - len(numbers)):
        return None
    value = last
    for index, number in enumerate(numbers):
        value += number << (8 * (3 - index))
    return ".".join(str((value >> shift) & 255) for shift in (24, 16, 8, 0))
