"""What an HTTP client or a web tool is asked to fetch or send: secrets in the request, and addresses
that are not the public web.

- A secret in the arguments (``-H "Authorization: Bearer sk-ant-…"``, a key in the URL or the body, or a
  variable whose name says it holds one: ``-d "$NPM_TOKEN"``) is ``net.exfiltration`` (deny): the server
  at the other end gets it. The reason names the kind of secret, never the secret.
- A URL that is not a public web page (``file:``, ``gopher:``, cloud metadata, link-local, localhost) is
  ``net.internal_address`` (ask).

``request_findings`` serves the web tools (WebFetch, WebSearch, scraper MCP tools) with the same rules.
"""
from __future__ import annotations

from phlegyas.analysis.environment import secret_variables
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import Out, add, parse_opts
from phlegyas.analysis.tier1.network import CURL_LONG_VALUES, CURL_SHORT_VALUES
from phlegyas.analysis.urls import host_of, internal_reason, secrets_in
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding

_CURL = frozenset({"curl", "curlie"})
OWN_SERVICES = {
    "GITHUB": ("github.com", "githubusercontent.com"), "GH": ("github.com",), "GITLAB": ("gitlab.com",),
    "NPM": ("npmjs.org", "npmjs.com"), "OPENAI": ("openai.com",), "ANTHROPIC": ("anthropic.com",),
    "HF": ("huggingface.co",), "HUGGINGFACE": ("huggingface.co",), "SLACK": ("slack.com",),
    "STRIPE": ("stripe.com",), "PYPI": ("pypi.org",), "CLOUDFLARE": ("cloudflare.com",),
}
"""A credential sent to the service that issued it is how it is used, not a leak: the variable's first
word names the service (``$GITHUB_TOKEN`` to ``api.github.com``). Sent anywhere else, it is a leak."""


def own_service(name: str, hosts: list[str]) -> bool:
    """Whether every host of the request belongs to the service the variable ``name`` is for."""
    domains = OWN_SERVICES.get(name.split("_", 1)[0].upper())
    if not domains or not hosts:
        return False
    return all(any(h == d or h.endswith("." + d) for d in domains) for h in hosts)


def _urls(inv: Invocation) -> list[str]:
    if inv.program in _CURL:
        opts = parse_opts(inv.args, short_values=CURL_SHORT_VALUES, long_values=CURL_LONG_VALUES)
        return [w.text for w in opts.operands if not w.dynamic] + opts.values("--url")
    return [w.text for w in inv.args if not w.dynamic and "://" in w.text and not w.text.startswith("-")]


def detect_request(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    prog = inv.program
    for word in inv.args:
        kinds = secrets_in(word.text)
        if kinds:
            add(out, "net.exfiltration", inv, f"{prog} sends a secret ({kinds[0]}) in its arguments")
            return
        names = secret_variables(word.text) if word.dynamic else []
        if names:
            hosts = [h for h in (host_of(u)[1] for u in _urls(inv)) if h]
            names = [n for n in names if not own_service(n, hosts)]
        if names:
            add(out, "net.exfiltration", inv, f"{prog} sends ${names[0]}, a variable that holds a secret")
            return
    for url in _urls(inv):
        why = internal_reason(url)
        if why is not None:
            add(out, "net.internal_address", inv, f"{prog} fetches {url.split('?', 1)[0][:120]}: {why}")
            return


def request_findings(tool: str, tool_input: dict) -> list[Finding]:
    """The findings of a web tool's call: a secret in any of its strings, a URL that is not the web."""
    out: Out = []
    for key, value in tool_input.items():
        if not isinstance(value, str):
            continue
        kinds = secrets_in(value)
        if kinds:
            add(out, "net.exfiltration", tool, f"{tool} sends a secret ({kinds[0]}) in its {key}")
            return out
    url = tool_input.get("url")
    if isinstance(url, str):
        why = internal_reason(url)
        if why is not None:
            add(out, "net.internal_address", tool, f"{tool} fetches {url.split('?', 1)[0][:120]}: {why}")
    return out
