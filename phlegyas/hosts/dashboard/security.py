"""The dashboard's guard: who may look, who may change anything, and what a page may load.

An ASGI middleware in front of every route, pure ASGI (it passes server-sent events through unbuffered):

- the **Host** header must be one of the names the server was started for (a DNS-rebinding page sends
  its own name) → else 400;
- ``?token=`` (the URL ``phlegyas dashboard`` printed, a fresh random token per start) is exchanged once
  for a session: an HttpOnly, SameSite=Strict cookie, and a redirect to the same page without the token
  (so it leaves the address bar and the history) → a wrong token is 403;
- no session cookie → 401 (a page that says to open the printed URL);
- anything but GET/HEAD needs an **Origin** equal to the page's own (else 403) and the session's **CSRF
  token**, in the ``X-CSRF-Token`` header or the ``csrf`` form field (else 403);
- every answer carries a Content-Security-Policy without inline scripts or styles, ``nosniff``, no
  framing and no referrer.

The token lives only in this process and the person's browser: the gated agent never sees it (its
``phlegyas dashboard`` and its requests to the dashboard are ``gate.self_approval``, Tier 1).
"""
from __future__ import annotations

import hmac
import secrets
import threading
from http.cookies import SimpleCookie
from typing import Any, Awaitable, Callable, Iterable
from urllib.parse import parse_qs, urlencode

COOKIE = "phlegyas_session"
CSRF_FIELD = "csrf"
CSRF_HEADER = "x-csrf-token"
MAX_FORM_BYTES = 64 * 1024
SAFE_METHODS = frozenset({"GET", "HEAD"})
PUBLIC_PREFIXES = ("/static/", "/favicon.ico")
"""Served without a session: the stylesheet and the script hold nothing of the gate's."""
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"x-frame-options", b"DENY"), (b"referrer-policy", b"no-referrer"),
           (b"cross-origin-opener-policy", b"same-origin"), (b"cache-control", b"no-store")]

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The Host headers a browser sends for this server: the bound name, and the loopback names when it
    is bound to loopback (``localhost:P``, ``127.0.0.1:P``, ``[::1]:P``)."""
    names = {host}
    if host in ("127.0.0.1", "localhost", "::1"):
        names |= {"127.0.0.1", "localhost", "::1"}
    return frozenset(f"[{n}]:{port}" if ":" in n else f"{n}:{port}" for n in names)


class Sessions:
    """Sessions of this run: an id (the cookie) → its CSRF token. In memory: a restart logs everyone out."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._csrf: dict[str, str] = {}

    def new(self) -> str:
        session = secrets.token_urlsafe(32)
        with self._lock:
            self._csrf[session] = secrets.token_urlsafe(32)
        return session

    def csrf(self, session: str | None) -> str | None:
        if not session:
            return None
        with self._lock:
            return self._csrf.get(session)


class Guard:
    """The middleware; ``token`` is the one printed at start, ``hosts`` the Host headers accepted."""

    def __init__(self, app, *, token: str, hosts: Iterable[str]):
        self.app = app
        self.token = token
        self.hosts = frozenset(hosts)
        self.sessions = Sessions()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_headers(send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        host = headers.get("host", "")
        if host not in self.hosts:
            await _plain(send, 400, "unknown Host header: open the dashboard by the address it printed")
            return
        path = scope.get("path", "/")
        if path.startswith(PUBLIC_PREFIXES) and scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        if "token" in query:
            await self._login(scope, send, query, path)
            return
        session = _cookie(headers.get("cookie", ""))
        csrf = self.sessions.csrf(session)
        if csrf is None:
            await _plain(send, 401, "not logged in: open the URL that `phlegyas dashboard` printed "
                                    "(it holds a one-time token)")
            return
        if scope["method"] not in SAFE_METHODS:
            if headers.get("origin") != f"http://{host}":
                await _plain(send, 403, "refused: the request does not come from this dashboard's own page (Origin)")
                return
            body = await _body(receive)
            if body is None:
                await _plain(send, 413, "request too large")
                return
            sent = headers.get(CSRF_HEADER) or _form_field(headers, body, CSRF_FIELD)
            if not sent or not hmac.compare_digest(sent, csrf):
                await _plain(send, 403, "refused: missing or wrong CSRF token (reload the page)")
                return
            receive = _replay(body)
        scope.setdefault("state", {})["csrf"] = csrf
        await self.app(scope, receive, send)

    async def _login(self, scope: Scope, send: Send, query: dict[str, list[str]], path: str) -> None:
        given = query.get("token", [""])[0]
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            await _plain(send, 403, "wrong token: open the URL that `phlegyas dashboard` printed this time")
            return
        session = self.sessions.new()
        rest = urlencode([(k, v) for k, values in query.items() if k != "token" for v in values], doseq=False)
        location = path + (f"?{rest}" if rest else "")
        cookie = f"{COOKIE}={session}; HttpOnly; SameSite=Strict; Path=/"
        await send({"type": "http.response.start", "status": 303,
                    "headers": [(b"location", location.encode()), (b"set-cookie", cookie.encode()),
                                (b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})


def _cookie(header: str) -> str | None:
    try:
        jar = SimpleCookie(header)
    except Exception:  # noqa: BLE001 - a malformed Cookie header is no session
        return None
    morsel = jar.get(COOKIE)
    return morsel.value if morsel is not None else None


def _with_headers(send: Send) -> Send:
    async def wrapped(message: dict) -> None:
        if message["type"] == "http.response.start":
            present = {k.lower() for k, _ in message.get("headers", ())}
            message = dict(message, headers=[*message.get("headers", ()), *(h for h in HEADERS if h[0] not in present)])
        await send(message)

    return wrapped


async def _plain(send: Send, status: int, text: str) -> None:
    body = f"{status}: {text}\n".encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _body(receive: Receive) -> bytes | None:
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b"".join(chunks)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_FORM_BYTES:
            return None
        chunks.append(chunk)
        if not message.get("more_body"):
            return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> dict:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


def _form_field(headers: dict[str, str], body: bytes, name: str) -> str | None:
    if not headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        return None
    values = parse_qs(body.decode("utf-8", "replace")).get(name)
    return values[0] if values else None
