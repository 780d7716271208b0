"""A loopback fake of Slack's Web API and Socket Mode, for tests that drive the real ``slack_sdk``.

Why a fake and not mocks: the approval flow's bugs live at the seams (a channel given by name where
Slack wants an ID, a token of the wrong type, an envelope not acked, a socket Slack asks to refresh). A
mock of ``WebClient`` agrees with whatever the code under test assumes; this fake answers as Slack does,
through the SDK's own HTTP and websocket code, so a wrong assumption fails here as it would there.

``FakeSlack`` serves both on 127.0.0.1 (ephemeral ports, threads of the test process): give
``WebClient(base_url=fake.api_url)`` to the code under test, then ``fake.click(request_id)`` sends the
block_actions envelope of a click and waits for its ack. Web API answers are HTTP 200 ``{"ok": ...}``
with Slack's error names; ``down = True`` makes them HTTP 503 with an HTML body (an outage) and refuses
new websockets. ``apps.connections.open`` hands out single-use ticket URLs; ``send_disconnect`` asks
clients to refresh, ``drop_connections`` cuts them.
"""
from __future__ import annotations

import base64
import itertools
import json
import re
import socket
import struct
import threading
import time
import uuid
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import ServerConnection, serve

APPROVE_ACTION, DENY_ACTION = "phlegyas_approve", "phlegyas_deny"  # the product's buttons' action_ids
ACTIONS = {"approve": APPROVE_ACTION, "deny": DENY_ACTION}
BOT_ID = "B0PHBOT"
DEFAULT_CHANNELS: dict[str, tuple[str, bool]] = {
    "approvals": ("C0APPROVALS", True), "general": ("C0GENERAL", True), "secret": ("G0SECRET", False)}
DOWN_BODY = "<html><head><title>503 Service Unavailable</title></head><body>Service Unavailable</body></html>\n"
USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}$")

# Block Kit limits Slack enforces: chat.postMessage / chat.update answer invalid_blocks past them.
MAX_BLOCKS, MAX_SECTION_TEXT, MAX_FIELD_TEXT, MAX_HEADER_TEXT = 50, 3000, 2000, 150
MAX_BUTTON_TEXT, MAX_BUTTON_VALUE, MAX_ID, MAX_MESSAGE_TEXT = 75, 2000, 255, 40000  # msg_too_long past the last
BLOCK_TYPES = {"section", "actions", "context", "divider", "header", "image", "input", "rich_text", "markdown",
               "file", "video", "table"}


class SlackError(Exception):
    """A Web API refusal: raised inside a method, answered as ``{"ok": false, "error": ...}`` (HTTP 200)."""

    def __init__(self, error: str, **extra: Any) -> None:
        super().__init__(error)
        self.error, self.extra = error, extra


def _text_errors(obj: Any, limit: int, at: str, *, plain_only: bool = False) -> list[str]:
    """What Slack would say about one text object: its type, and 1..``limit`` characters of text."""
    types = ("plain_text",) if plain_only else ("plain_text", "mrkdwn")
    if not isinstance(obj, dict) or obj.get("type") not in types:
        return [f"must be a text object of type {' or '.join(types)} [json-pointer:{at}]"]
    text = obj.get("text")
    if not isinstance(text, str) or not text:
        return [f"must be more than 0 characters [json-pointer:{at}/text]"]
    return [f"must be less than {limit + 1} characters [json-pointer:{at}/text]"] if len(text) > limit else []


def _id_errors(value: Any, at: str, seen: set[str]) -> list[str]:
    """A ``block_id`` (unique in the message) or an ``action_id`` (unique in its block)."""
    if value is not None and (not isinstance(value, str) or not 0 < len(value) <= MAX_ID or value in seen):
        return [f"must be unique, of 1 to {MAX_ID} characters [json-pointer:{at}]"]
    seen.add(value)
    return []


def _items_errors(block: dict, key: str, at: str, most: int, check: Callable[[Any, str], list[str]],
                  *, optional: bool = False) -> list[str]:
    """The list ``block[key]``: 1..``most`` items (or none at all if ``optional``), each passing ``check``."""
    items = block.get(key, [] if optional else None)
    if not isinstance(items, list) or len(items) > most or not (items or optional):
        return [f"must hold 1 to {most} items [json-pointer:{at}/{key}]"]
    return [e for j, item in enumerate(items) for e in check(item, f"{at}/{key}/{j}")]


def _element_errors(element: Any, at: str, action_ids: set[str]) -> list[str]:
    """An element of an actions block; buttons (all the product sends) are checked in full."""
    if not isinstance(element, dict) or not isinstance(element.get("type"), str):
        return [f"missing required field: type [json-pointer:{at}]"]
    errors = _id_errors(element.get("action_id"), f"{at}/action_id", action_ids)
    if element["type"] == "button":
        errors += _text_errors(element.get("text"), MAX_BUTTON_TEXT, f"{at}/text", plain_only=True)
        value = element.get("value", "")
        if not isinstance(value, str) or len(value) > MAX_BUTTON_VALUE:
            errors.append(f"must be less than {MAX_BUTTON_VALUE + 1} characters [json-pointer:{at}/value]")
        if element.get("style") not in (None, "primary", "danger"):
            errors.append(f"must be one of primary, danger [json-pointer:{at}/style]")
    return errors


def block_errors(blocks: Any) -> list[str]:
    """Why Slack would refuse ``blocks`` (an empty list when it would take them); the messages mimic Slack's."""
    if not isinstance(blocks, list):
        return ["must be an array [json-pointer:/blocks]"]
    errors = [f"no more than {MAX_BLOCKS} items allowed [json-pointer:/blocks]"] if len(blocks) > MAX_BLOCKS else []
    block_ids: set[str] = set()
    for i, block in enumerate(blocks):
        at = f"/blocks/{i}"
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            errors.append(f"missing required field: type [json-pointer:{at}]")
            continue
        kind = block["type"]
        if kind not in BLOCK_TYPES:
            errors.append(f"unsupported type: {kind} [json-pointer:{at}/type]")
        errors += _id_errors(block.get("block_id"), f"{at}/block_id", block_ids)
        if kind == "section":
            if "text" not in block and "fields" not in block:
                errors.append(f"must provide text or fields [json-pointer:{at}]")
            if "text" in block:
                errors += _text_errors(block["text"], MAX_SECTION_TEXT, f"{at}/text")
            errors += _items_errors(block, "fields", at, 10, lambda f, a: _text_errors(f, MAX_FIELD_TEXT, a),
                                    optional=True)
        elif kind == "header":
            errors += _text_errors(block.get("text"), MAX_HEADER_TEXT, f"{at}/text", plain_only=True)
        elif kind == "context":
            errors += _items_errors(block, "elements", at, 10, lambda e, a: [] if isinstance(e, dict) and e.get(
                "type") == "image" else _text_errors(e, MAX_SECTION_TEXT, a))
        elif kind == "actions":
            action_ids: set[str] = set()
            errors += _items_errors(block, "elements", at, 25, lambda e, a: _element_errors(e, a, action_ids))
    return errors


def buttons(blocks: Any) -> list[tuple[str, dict]]:
    """``(block_id, button)`` for every button of the actions blocks of ``blocks``, in order."""
    return [(block.get("block_id") or "b1", element) for block in (blocks if isinstance(blocks, list) else [])
            if isinstance(block, dict) and block.get("type") == "actions" for element in block.get("elements") or []
            if isinstance(element, dict) and element.get("type") == "button"]


class _ApiHandler(BaseHTTPRequestHandler):
    """One HTTP request: ``/api/<method>`` for the Web API, ``/response/<id>`` for a response_url."""

    fake: FakeSlack

    def log_message(self, format: str, *args: Any) -> None:  # the test output stays the tests'
        pass

    def do_POST(self) -> None:  # (http.server's naming; the SDK POSTs, GET is served alike)
        url = urlsplit(self.path)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if url.path.startswith("/response/"):  # a click's response_url: recorded; it changes no message here
            with self.fake._cond:
                self.fake.responses.append((url.path.rsplit("/", 1)[-1], body.decode("utf-8", "replace")))
            status, ctype, text = 200, "application/json", '{"ok": true}'
        elif url.path.startswith("/api/") and len(url.path) > len("/api/"):
            status, ctype, text = self.fake._web_api(url.path[len("/api/"):], self._params(url.query, body),
                                                     self.headers.get("Authorization", ""))
        else:
            status, ctype, text = 404, "text/plain", "not found\n"
        data = text.encode()
        self.send_response(status)
        for name, header in (("Content-Type", ctype), ("Content-Length", str(len(data)))):
            self.send_header(name, header)
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST

    def _params(self, query: str, body: bytes) -> dict[str, Any] | SlackError:
        """Query string, then a form or JSON body, as Slack reads them (the SDK sends all three)."""
        params: dict[str, Any] = {k: v[-1] for k, v in parse_qs(query, keep_blank_values=True).items()}
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype == "application/json" and body:
            try:
                params.update(dict(json.loads(body)))  # (an array or a scalar raises: no object either)
            except (TypeError, ValueError):
                return SlackError("invalid_json")
        elif ctype == "application/x-www-form-urlencoded" and body:
            form = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
            params.update({k: v[-1] for k, v in form.items()})
        return params


class FakeSlack:
    """Slack's Web API and Socket Mode on loopback; see the module docstring. Start it with ``with``."""

    def __init__(self, *, team_id: str = "T0PHLEGYAS", team: str = "phlegyas-test",
                 bot_token: str = "xoxb-1-fake-bot-token", app_token: str = "xapp-1-A0PHLEGYAS-1-fake-app-token",
                 app_id: str = "A0PHLEGYAS", bot_user_id: str = "U0PHBOT",
                 channels: dict[str, tuple] | None = None, ping_interval: float | None = 0.2) -> None:
        """``ping_interval``: how often the server pings each websocket. Slack pings too; here it also keeps
        the builtin client's ``close()`` from waiting out its 3 s socket timeout (its reader holds a lock)."""
        self.ping_interval = ping_interval
        self.team_id, self.team, self.app_id, self.bot_user_id = team_id, team, app_id, bot_user_id
        self.bot_token, self.app_token = bot_token, app_token
        # name -> (id, bot_is_member[, is_private]); private defaults to a G-prefixed id, as old private channels
        self.channels: list[dict[str, Any]] = [
            {"id": spec[0], "name": name, "member": bool(spec[1]),
             "private": bool(spec[2]) if len(spec) > 2 else spec[0].startswith("G")}
            for name, spec in (DEFAULT_CHANNELS if channels is None else channels).items()]
        self.down = False
        self.calls: list[tuple[str, dict]] = []
        self.messages: list[dict] = []  # {"channel", "ts", "text", "blocks", "thread_ts", "updates"}
        self.ephemerals: list[dict] = []
        self.acks: dict[str, dict] = {}
        self.envelopes: list[dict] = []  # every envelope click() sent, in order
        self.responses: list[tuple[str, str]] = []  # (id, body text) of each post to a click's response_url
        self.total_connections = 0  # websockets that got hello, ever: a reconnect makes it grow
        self._cond = threading.Condition()  # (an RLock) guards all of the above; notified on every change
        self._live: list[ServerConnection] = []
        self._tickets: set[str] = set()
        self._ts = itertools.count(1)
        self._threads: list[threading.Thread] = []
        self._http: Any = None  # ThreadingHTTPServer, and websockets' Server, once started
        self._ws: Any = None
        self.api_url, self.ws_port = "", 0

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> FakeSlack:
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), type("Handler", (_ApiHandler,), {"fake": self}))
        self.api_url = f"http://127.0.0.1:{self._http.server_address[1]}/api/"
        # compression=None: the SDK's builtin client cannot inflate, and offers no extension anyway
        self._ws = serve(self._ws_handler, "127.0.0.1", 0, process_request=self._ws_admit, compression=None,
                         close_timeout=1, open_timeout=5, ping_interval=self.ping_interval, ping_timeout=10)
        self.ws_port = self._ws.socket.getsockname()[1]
        for target in (lambda: self._http.serve_forever(poll_interval=0.05), self._ws.serve_forever):
            thread = threading.Thread(target=target, name="fake-slack", daemon=True)  # (a short poll: a quick stop)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self) -> None:
        if self._ws is not None:
            self._ws.shutdown()
            self._http.shutdown()
            self._http.server_close()
        for thread in self._threads:
            thread.join(5)
        self._ws, self._http, self._threads = None, None, []

    def __enter__(self) -> FakeSlack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- what tests look at ----------------------------------------------------------------------

    def channel_id(self, name: str) -> str:
        """The ID of channel ``name`` (with or without ``#``)."""
        return self._channel(name.lstrip("#"), by_name=True)["id"]

    def connections(self) -> int:
        """Live Socket Mode connections."""
        with self._cond:
            return len(self._live)

    def wait_for(self, predicate: Callable[[], Any], timeout: float = 10,
                 what: str | Callable[[], str] = "the condition") -> None:
        """Until ``predicate()`` is true; AssertionError after ``timeout``, saying ``what`` (or what it
        returns, then). The predicate runs outside the fake's lock: it may call code that calls the fake."""
        deadline = time.monotonic() + timeout
        while not predicate():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout}s waiting for {what() if callable(what) else what}")
            with self._cond:
                self._cond.wait(min(remaining, 0.05))

    def wait_connected(self, n: int = 1, timeout: float = 10) -> None:
        """Until exactly ``n`` Socket Mode connections are live (each got its hello)."""
        self.wait_for(lambda: self.connections() == n, timeout, lambda: f"{n} connection(s), {self.connections()} live")

    @staticmethod
    def current(message: dict) -> dict:
        """``message`` as it reads now: its last update's text and blocks, if it was updated."""
        latest = message["updates"][-1] if message["updates"] else message
        return {**message, "text": latest["text"], "blocks": latest["blocks"]}

    def message_for(self, request_id: str) -> dict | None:
        """The latest posted message that carries (or carried, before an update) a button valued
        ``request_id``, as it reads now (see ``current``); None if there is none."""
        with self._cond:
            for message in reversed(self.messages):
                versions = [message, *message["updates"]]
                if any(b.get("value") == request_id for v in versions for _, b in buttons(v["blocks"])):
                    return self.current(message)
        return None

    # -- Socket Mode, from the test's side -------------------------------------------------------

    def click(self, request_id: str, action: str = "approve", *, user: str = "U0APPROVER",
              username: str = "approver", team: str | None = None, timeout: float = 10,
              message: dict | None = None, force: bool = False, value: str | None = None,
              action_id: str | None = None, via: str = "newest") -> dict:
        """A user clicks Approve (``action="approve"``) or Deny on the message of ``request_id``: a
        block_actions envelope goes out on one live connection (``via`` "newest" or "oldest"); returns
        ``{"envelope_id", "ack", "acked_after_seconds", "payload"}`` once it is acked. The button is the
        one the message shows *now*, as a user can only click that; ``force=True`` clicks it even when
        gone (a stale client, a double click racing the update); ``value``/``action_id`` override what it
        carries; ``message`` (a dict with ``channel`` and ``ts``) names the message instead."""
        action_id = action_id or ACTIONS.get(action, action)

        def shown(m: dict) -> list[tuple[str, dict]]:  # the (block_id, button)s a user could click on m now
            return [(bid, b) for bid, b in buttons(self.current(m)["blocks"]) if b.get("action_id") == action_id
                    and (message is not None or b.get("value") == request_id)]
        with self._cond:
            if message is not None:
                found = next((m for m in self.messages if (m["channel"], m["ts"]) == (message["channel"],
                                                                                     message["ts"])), None)
            else:
                found = next((m for m in reversed(self.messages) if shown(m)), None)
                if found is None and force and (former := self.message_for(request_id)) is not None:
                    found = next(m for m in self.messages if m["ts"] == former["ts"])
            if found is None or not (shown(found) or force):
                raise AssertionError(f"no message shows a {action_id} button for {request_id} "
                                     f"(latest: {found and self.current(found)['text']!r})")
            gone = {"type": "button", "action_id": action_id, "value": request_id,  # (force: it is not shown)
                    "text": {"type": "plain_text", "text": "Approve" if action_id == APPROVE_ACTION else "Deny"}}
            block_id, button = (shown(found) or [("b1", gone)])[0]
            payload = self._block_actions(self.current(found), block_id, button, value, user, username,
                                          team or self.team_id)
            envelope = {"envelope_id": str(uuid.uuid4()), "type": "interactive", "accepts_response_payload": False,
                        "payload": payload}
            if not self._live:
                raise AssertionError("no live Socket Mode connection to send the click on")
            connection = self._live[-1] if via == "newest" else self._live[0]
            self.envelopes.append(envelope)
        sent = time.monotonic()
        try:
            connection.send(json.dumps(envelope))
        except ConnectionClosed as exc:
            raise AssertionError(f"the connection closed before the click could be sent: {exc}") from exc
        eid = envelope["envelope_id"]
        with self._cond:
            if not self._cond.wait_for(lambda: eid in self.acks, timeout):
                raise AssertionError(f"envelope {eid} ({action_id} {request_id}) not acked within {timeout}s")
            return {"envelope_id": eid, "ack": self.acks[eid], "acked_after_seconds": time.monotonic() - sent,
                    "payload": payload}

    def _block_actions(self, message: dict, block_id: str, button: dict, value: str | None, user: str,
                       username: str, team: str) -> dict:
        """The payload Slack sends for a button click, in the shape it has (ids the fake's own)."""
        channel = self._channel(message["channel"])
        action = {"action_id": button.get("action_id"), "block_id": block_id, "text": button.get("text"),
                  "value": button.get("value") if value is None else value, "type": "button",
                  "action_ts": f"{time.time():.6f}", **({"style": button["style"]} if "style" in button else {})}
        thread = {"thread_ts": message["thread_ts"]} if message["thread_ts"] else {}
        container = {"type": "message", "message_ts": message["ts"], "channel_id": channel["id"],
                     "is_ephemeral": False, **thread}
        return {"type": "block_actions", "user": {"id": user, "username": username, "name": username, "team_id": team},
                "api_app_id": self.app_id, "token": "verification-token-unused",
                "trigger_id": f"{int(time.time() * 1000)}.{uuid.uuid4().int % 10**10}.{uuid.uuid4().hex}",
                "team": {"id": team, "domain": self.team}, "enterprise": None, "is_enterprise_install": False,
                "container": container, "channel": {"id": channel["id"], "name": channel["name"]},
                "message": self._shown(message), "state": {"values": {}},
                "response_url": f"http://127.0.0.1:{self._http.server_address[1]}/response/{uuid.uuid4().hex}",
                "actions": [action]}

    def send_disconnect(self, reason: str = "refresh_requested") -> None:
        """Slack's "please reconnect": a disconnect message on every live connection, which stays open
        until the client closes it (Slack keeps it a few seconds, so in-flight acks still land)."""
        frame = json.dumps({"type": "disconnect", "reason": reason, "debug_info": {"host": "fake"}})
        for connection in self._snapshot():
            try:
                connection.send(frame)
            except ConnectionClosed:
                pass

    def drop_connections(self, *, reset: bool = True, timeout: float = 5) -> None:
        """Cut every live connection without a close frame, and wait until the fake has let go of them,
        so a later ``wait_connected`` counts only new ones. ``reset``: a TCP reset (a crashed server; the
        builtin client notices at once and reconnects on its next monitor tick, every ``ping_interval``);
        else a bare FIN (a half-dead peer: that client only gives up after five failed pings). A reset the
        client's monitor ping meets before its reader does (right after connecting) acts as a FIN."""
        dropped = self._snapshot()
        for connection in dropped:
            try:
                if reset:  # SO_LINGER 0: close() sends RST, before websockets' reader could send a FIN;
                    connection.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    connection.socket.close()
                    connection.close_socket()  # then that reader is woken, and lets the connection go
                else:
                    connection.socket.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.wait_for(lambda: not any(c in self._snapshot() for c in dropped), timeout, "the dropped connections")

    def _snapshot(self) -> list[ServerConnection]:
        with self._cond:
            return list(self._live)

    # -- Socket Mode, the server's side ----------------------------------------------------------

    def _ws_admit(self, connection: ServerConnection, request: Any) -> Any:
        """The handshake: 503 while down, 401 unless the URL holds a ticket issued and not yet used."""
        if self.down:
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "service unavailable\n")
        url = urlsplit(request.path)
        ticket = (parse_qs(url.query).get("ticket") or [""])[0]
        with self._cond:
            admitted = url.path == "/link/" and ticket in self._tickets
            self._tickets.discard(ticket)
        return None if admitted else connection.respond(HTTPStatus.UNAUTHORIZED, "invalid or used ticket\n")

    def _ws_handler(self, connection: ServerConnection) -> None:
        """One admitted connection: hello, then acks until it closes."""
        with self._cond:
            count = len(self._live) + 1
        try:
            connection.send(json.dumps({"type": "hello", "num_connections": count,
                                        "debug_info": {"host": "fake", "approximate_connection_time": 18060},
                                        "connection_info": {"app_id": self.app_id}}))
        except ConnectionClosed:
            return
        with self._cond:
            self._live.append(connection)
            self.total_connections += 1
            self._cond.notify_all()
        try:
            for frame in connection:
                self._on_frame(frame)
        except ConnectionClosed:
            pass
        finally:
            with self._cond:
                self._live.remove(connection)
                self._cond.notify_all()

    def _on_frame(self, frame: str | bytes) -> None:
        """An ack is a text frame ``{"envelope_id": ...}`` (maybe with a payload); anything else is ignored."""
        try:
            decoded = json.loads(frame) if isinstance(frame, str) else None
        except ValueError:
            return
        if isinstance(decoded, dict) and isinstance(decoded.get("envelope_id"), str):
            with self._cond:
                self.acks[decoded["envelope_id"]] = decoded
                self._cond.notify_all()

    # -- the Web API -----------------------------------------------------------------------------

    def _web_api(self, method: str, params: dict | SlackError, authorization: str) -> tuple[int, str, str]:
        """``(status, content type, body)`` for one call; records it (never its token)."""
        refusal, params = (params, {}) if isinstance(params, SlackError) else (None, params)
        token = authorization.removeprefix("Bearer ").strip() or str(params.get("token") or "")
        params.pop("token", None)  # (a token in the body is Slack's older way; never recorded either)
        if isinstance(params.get("blocks"), str):  # a form field holds them as JSON text
            try:
                params["blocks"] = json.loads(params["blocks"]) if params["blocks"].strip() else None
            except ValueError:
                refusal = refusal or SlackError("invalid_blocks_format")
        with self._cond:
            self.calls.append((method, dict(params)))
            self._cond.notify_all()
            if self.down:
                return 503, "text/html", DOWN_BODY
            try:
                if refusal is not None:
                    raise refusal
                answer = {"ok": True, **self._dispatch(method, params, token)}
            except SlackError as exc:
                answer = {"ok": False, "error": exc.error, **exc.extra}
        return 200, "application/json; charset=utf-8", json.dumps(answer)

    def _dispatch(self, method: str, params: dict, token: str) -> dict:
        methods: dict[str, tuple[str, Callable[[dict], dict]]] = {
            "auth.test": ("bot", self._auth_test), "apps.connections.open": ("app", self._connections_open),
            "chat.postMessage": ("bot", self._post_message), "chat.update": ("bot", self._update),
            "chat.postEphemeral": ("bot", self._post_ephemeral), "conversations.list": ("bot", self._list),
            "conversations.info": ("bot", self._info)}
        if method not in methods:
            raise SlackError("unknown_method", req_method=method)
        needed, implementation = methods[method]
        if not token:
            raise SlackError("not_authed")
        kind = {self.bot_token: "bot", self.app_token: "app"}.get(token)
        if kind is None:
            raise SlackError("invalid_auth")
        if kind != needed:
            raise SlackError("not_allowed_token_type")
        return implementation(params)

    def _auth_test(self, params: dict) -> dict:
        return {"url": f"https://{self.team}.slack.com/", "team": self.team, "user": "phlegyas",
                "team_id": self.team_id, "user_id": self.bot_user_id, "bot_id": BOT_ID,
                "is_enterprise_install": False}

    def _connections_open(self, params: dict) -> dict:
        ticket = uuid.uuid4().hex
        self._tickets.add(ticket)
        return {"url": f"ws://127.0.0.1:{self.ws_port}/link/?ticket={ticket}&app_id={self.app_id}"}

    def _channel(self, ref: Any, *, by_name: bool = False, postable: bool = False) -> dict:
        """The channel ``ref`` names — an ID, or (``by_name``) a name with or without ``#``. A private
        channel the bot is not in does not exist for it (channel_not_found); a public one it is not in
        can be read but not posted to (``postable``: not_in_channel)."""
        ref = str(ref or "")
        for channel in self.channels:
            if ref == channel["id"] or (by_name and ref.lstrip("#") == channel["name"]):
                if channel["private"] and not channel["member"]:
                    break
                if postable and not channel["member"]:
                    raise SlackError("not_in_channel")
                return channel
        raise SlackError("channel_not_found")

    def _content(self, params: dict, *, previous: dict | None = None) -> tuple[str | None, list | None]:
        """``(text, blocks)`` of a post or an update, checked as Slack checks them. An update keeps what
        it does not give (Slack keeps the blocks when ``blocks`` is absent)."""
        text, blocks = params.get("text"), params.get("blocks")
        if blocks is not None:
            errors = block_errors(blocks)
            if errors:
                raise SlackError("invalid_blocks", errors=errors,
                                 response_metadata={"messages": [f"[ERROR] {e}" for e in errors]})
        if not text and not blocks:
            raise SlackError("no_text")
        if text is not None and len(str(text)) > MAX_MESSAGE_TEXT:
            raise SlackError("msg_too_long")
        if previous is not None:
            text = previous["text"] if text is None else text
            blocks = previous["blocks"] if blocks is None else blocks
        return (None if text is None else str(text)), blocks

    def _next_ts(self) -> str:
        micros = 100 * next(self._ts)
        return f"{1_700_000_000 + micros // 1_000_000}.{micros % 1_000_000:06d}"

    def _message(self, channel_id: str, ts: Any) -> dict:
        for message in self.messages:
            if message["channel"] == channel_id and message["ts"] == str(ts or ""):
                return message
        raise SlackError("message_not_found")

    def _shown(self, message: dict) -> dict:
        """``message`` as Slack shows it in an answer or a payload: posted by the bot."""
        return {"type": "message", "user": self.bot_user_id, "bot_id": BOT_ID, "app_id": self.app_id,
                "team": self.team_id, "ts": message["ts"], "text": message["text"] or "",
                "blocks": message["blocks"] or [],
                **({"thread_ts": message["thread_ts"]} if message["thread_ts"] else {})}

    def _post_message(self, params: dict) -> dict:
        channel = self._channel(params.get("channel"), by_name=True, postable=True)
        text, blocks = self._content(params)
        message = {"channel": channel["id"], "ts": self._next_ts(), "text": text, "blocks": blocks,
                   "thread_ts": str(params.get("thread_ts") or "") or None, "updates": []}
        self.messages.append(message)
        return {"channel": channel["id"], "ts": message["ts"], "message": self._shown(message)}

    def _update(self, params: dict) -> dict:
        channel = self._channel(params.get("channel"))  # an ID only, as chat.update wants
        message = self._message(channel["id"], params.get("ts"))
        text, blocks = self._content(params, previous=self.current(message))
        message["updates"].append({"text": text, "blocks": blocks})
        return {"channel": channel["id"], "ts": message["ts"], "text": text or "",
                "message": self._shown(self.current(message))}

    def _post_ephemeral(self, params: dict) -> dict:
        channel = self._channel(params.get("channel"), by_name=True, postable=True)
        user = str(params.get("user") or "")
        if not USER_ID.match(user):
            raise SlackError("user_not_in_channel")
        text, blocks = self._content(params)
        self.ephemerals.append({"channel": channel["id"], "user": user, "text": text, "blocks": blocks})
        return {"message_ts": self._next_ts()}

    def _described(self, channel: dict) -> dict:
        return {"id": channel["id"], "name": channel["name"], "name_normalized": channel["name"],
                "is_channel": True, "is_group": False, "is_im": False, "is_mpim": False,
                "is_private": channel["private"], "is_member": channel["member"], "is_archived": False,
                "is_general": channel["name"] == "general"}

    def _list(self, params: dict) -> dict:
        """One page of channels; the cursor is an offset, opaque to the client as Slack's is."""
        types = {t.strip() for t in str(params.get("types") or "public_channel").split(",") if t.strip()}
        if types - {"public_channel", "private_channel", "mpim", "im"}:
            raise SlackError("invalid_types")
        try:
            limit = min(max(int(params.get("limit") or 100), 1), 1000)
        except (TypeError, ValueError):
            raise SlackError("invalid_limit") from None
        try:
            cursor = base64.b64decode(str(params.get("cursor") or ""), validate=True).decode()
            offset = int(cursor.removeprefix("offset:")) if cursor else 0
        except ValueError:  # (binascii.Error and UnicodeDecodeError are ValueErrors)
            raise SlackError("invalid_cursor") from None
        shown = [c for c in self.channels if ("private_channel" if c["private"] else "public_channel") in types
                 and (c["member"] or not c["private"])]
        more = offset + limit < len(shown)
        next_cursor = base64.b64encode(f"offset:{offset + limit}".encode()).decode() if more else ""
        return {"channels": [self._described(c) for c in shown[offset:offset + limit]],
                "response_metadata": {"next_cursor": next_cursor}}

    def _info(self, params: dict) -> dict:
        return {"channel": self._described(self._channel(params.get("channel")))}
