"""What an HTTP client or a web tool is asked to fetch or send: secrets in the request, and addresses
that are not the public web.

- A secret in the arguments (``-H "Authorization: Bearer sk-ant-…"``, a key in the URL or the body, or a
  variable whose name says it holds one: ``-d "$NPM_TOKEN"``) is ``net.exfiltration`` (deny): the server
  at the other end gets it. The reason names the kind of secret, never the secret.
- A URL that is not a public web page (``file:``, ``gopher:``, cloud metadata, link-local, localhost, a
  private network) is ``net.internal_address`` (ask), and so is a request sent through a local socket
  (``curl --unix-socket /var/run/docker.sock``: the Docker API runs containers as root) or to a name
  pinned to such an address (``--resolve x:80:127.0.0.1``, ``--connect-to``). The project's dev server is
  the exception: a loopback address on a dev port (``urls.dev_server``, the policy's ``local_ports``).

A POST (or any request) to the dashboard's approve / deny / revoke endpoints on this machine or a private
network is ``gate.self_approval`` (deny): only a person answers the gate's requests.

An HTTP DELETE (``curl -X DELETE``, ``wget --method=DELETE``, ``http DELETE URL``) is ``net.http_delete``
(deny), except to the project's dev server.

``request_findings`` serves the web tools (WebFetch, WebSearch, scraper MCP tools) with the same rules.
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.environment import secret_variables
from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import Out, add, parse_opts
from phlegyas.analysis.tier1.uploads import CURL_LONG_VALUES, CURL_SHORT_VALUES
from phlegyas.analysis.urls import dev_server, gate_action, host_of, host_reason, internal_reason, secrets_in
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Finding

_CURL: Final = frozenset({"curl", "curlie"})
OWN_SERVICES: Final = {
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


_CURL_VALUES: Final = CURL_LONG_VALUES | frozenset({"--connect-to", "--abstract-unix-socket", "--doh-url", "--preproxy",
                                                     "--socks5", "--socks5-hostname", "--socks4", "--socks4a"})
_SOCKETS: Final = ("--unix-socket", "--abstract-unix-socket")
_HTTPIE: Final = frozenset({"http", "https", "httpie", "xh"})
_METHODS: Final = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_BARE_LOCAL: Final = re.compile(r"^(?:(?:localhost|\[[0-9A-Fa-f:.]+\]|\d+(?:\.\d+){1,3})(?::\d+)?(?:[/?#]|$)"
                                r"|(?:0x[0-9A-Fa-f]+|\d+)(?::\d+(?:[/?#]|$)|/))")
"""A URL written without its scheme that names this machine (``localhost:8080/x``, ``127.1``); a bare
number counts only with a port or a path (``wget --tries 100`` is a count, not the address 0.0.0.100)."""


def _urls(inv: Invocation) -> list[str]:
    """The URLs a request goes to, as written (a literal; computed words are judged elsewhere)."""
    if inv.program in _CURL:
        opts = parse_opts(inv.args, short_values=CURL_SHORT_VALUES, long_values=_CURL_VALUES)
        return [w.text for w in opts.operands if not w.dynamic] + opts.values("--url")
    if inv.program in _HTTPIE:
        first = next((w for w in inv.args if not w.text.startswith("-") and w.text not in _METHODS), None)
        if first is not None and not first.dynamic:
            text = first.text
            return ["localhost" + text if text.startswith(":") else text]  # httpie: ``:3000/x`` is localhost
        return []
    return [w.text for w in inv.args if not w.dynamic and not w.text.startswith("-")
            and ("://" in w.text or _BARE_LOCAL.match(w.text))]


def _routing(inv: Invocation) -> str | None:
    """Why curl's options send the request somewhere its URL does not say: a local socket, or a name
    pinned to a local or private address."""
    if inv.program not in _CURL:
        return None
    opts = parse_opts(inv.args, short_values=CURL_SHORT_VALUES, long_values=_CURL_VALUES)
    for socket in opts.values(*_SOCKETS):
        if "docker" in socket or "podman" in socket or "containerd" in socket:
            return f"the container engine's socket {socket} (its API runs containers as root)"
        return f"the local socket {socket}, a service on this machine"
    for pin in opts.values("--resolve"):
        address = pin.lstrip("+").split(":", 2)[-1].split(",", 1)[0].strip("[]")
        if address and (why := host_reason(address.lower())):
            return f"--resolve {pin}: {why}"
    for pin in opts.values("--connect-to"):
        fields = pin.split(":")
        if len(fields) >= 3 and fields[2] and (why := host_reason(fields[2].strip("[]").lower())):
            return f"--connect-to {pin}: {why}"
    return None


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
    routed = _routing(inv)
    if routed is not None:
        add(out, "net.internal_address", inv, f"{prog} talks to {routed}")
        return
    for url in _urls(inv):
        if gate_action(url):
            add(out, "gate.self_approval", inv, f"{prog} posts to the dashboard's {_action(url)} endpoint: only a "
                                                "person may answer the gate's requests")
            return
        why = internal_reason(url)
        if why is not None and not dev_server(url, env.local_ports):
            add(out, "net.internal_address", inv, f"{prog} fetches {url.split('?', 1)[0][:120]}: {why}")
            return


def request_findings(tool: str, tool_input: dict, local_ports: tuple[int, ...] = ()) -> list[Finding]:
    """The findings of a web tool's call: a secret in any of its strings, a URL that is not the web
    (the dev servers of ``urls.dev_server`` excepted, with the policy's ``local_ports``)."""
    out: Out = []
    for key, value in tool_input.items():
        if not isinstance(value, str):
            continue
        kinds = secrets_in(value)
        if kinds:
            add(out, "net.exfiltration", tool, f"{tool} sends a secret ({kinds[0]}) in its {key}")
            return out
    url = tool_input.get("url")
    if isinstance(url, str) and gate_action(url):
        add(out, "gate.self_approval", tool, f"{tool} calls the dashboard's {_action(url)} endpoint: only a person "
                                             "may answer the gate's requests")
        return out
    if isinstance(url, str):
        why = internal_reason(url)
        if why is not None and not dev_server(url, local_ports):
            add(out, "net.internal_address", tool, f"{tool} fetches {url.split('?', 1)[0][:120]}: {why}")
    return out


def _action(url: str) -> str:
    lowered = url.lower()
    return "revoke" if "revoke" in lowered else "deny" if "/deny" in lowered else "approve"


def detect_http_delete(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """curl -X DELETE, wget --method=DELETE, http DELETE URL."""
    prog = inv.program
    method = None
    if prog in ("curl", "curlie"):
        opts = parse_opts(inv.args, short_values=CURL_SHORT_VALUES, long_values=CURL_LONG_VALUES)
        method = opts.first("-X", "--request")
    elif prog in ("wget", "wget2"):
        for i, w in enumerate(inv.args):
            if w.text.startswith("--method="):
                method = w.text.split("=", 1)[1]
            elif w.text == "--method" and i + 1 < len(inv.args):
                method = inv.args[i + 1].text
    else:
        first = next((w.text for w in inv.args if not w.text.startswith("-")), None)
        method = first
    bulk = next((w.text for w in inv.args if "/_delete_by_query" in w.text), None)
    if bulk is not None and not dev_server(bulk, env.local_ports):  # Elasticsearch/OpenSearch: every match deleted
        add(out, "net.http_delete", inv, f"{prog} deletes every document the query matches ({bulk[:80]})")
        return
    if method and method.upper() == "DELETE":
        url = next((w.text for w in inv.args if "://" in w.text or w.text.startswith(("localhost", "www."))), "a URL")
        if url != "a URL" and dev_server(url, env.local_ports):
            return  # the project's own dev server: its test data (the request itself is judged by Tier 2)
        add(out, "net.http_delete", inv, f"{prog} sends an HTTP DELETE to {url}")
