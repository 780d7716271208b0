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
clients to refresh, ``drop_connections`` cuts them. A click's trigger_id opens a modal (``views.open``, once,
within ``trigger_ttl``); ``submit_view``/``close_view`` press its Submit/Cancel. Block Kit: fake_slack_blocks.py.
"""
from __future__ import annotations

import base64
import copy
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

from fake_slack_blocks import block_errors, buttons, opened_view, stays_open, typed_state, view_errors
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import ServerConnection, serve

# the product's buttons' action_ids
APPROVE_ACTION, DENY_ACTION, DENY_REASON_ACTION = "phlegyas_approve", "phlegyas_deny", "phlegyas_deny_reason"
ACTIONS = {"approve": APPROVE_ACTION, "deny": DENY_ACTION, "deny_reason": DENY_REASON_ACTION}
BOT_ID = "B0PHBOT"
DEFAULT_CHANNELS: dict[str, tuple[str, bool]] = {
    "approvals": ("C0APPROVALS", True), "general": ("C0GENERAL", True), "secret": ("G0SECRET", False)}
DOWN_BODY = "<html><head><title>503 Service Unavailable</title></head><body>Service Unavailable</body></html>\n"
USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}$")

MAX_MESSAGE_TEXT = 40000  # chat.postMessage / chat.update answer msg_too_long past it


class SlackError(Exception):
    """A Web API refusal: raised inside a method, answered as ``{"ok": false, "error": ...}`` (HTTP 200)."""

    def __init__(self, error: str, **extra: Any) -> None:
        super().__init__(error)
        self.error, self.extra = error, extra


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
                 channels: dict[str, tuple] | None = None, ping_interval: float | None = 0.2,
                 trigger_ttl: float = 3.0) -> None:
        """``ping_interval``: how often the server pings each websocket. Slack pings too; here it also keeps
        the builtin client's ``close()`` from waiting out its 3 s socket timeout (its reader holds a lock).
        ``trigger_ttl``: how long after its click a trigger_id opens a modal (Slack: 3 seconds)."""
        self.ping_interval, self.trigger_ttl = ping_interval, trigger_ttl
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
        self.envelopes: list[dict] = []  # every envelope click(), submit_view() and close_view() sent, in order
        self.views: list[dict] = []  # each modal opened, as views.open answered, and "user", "trigger_id", "open"
        self.responses: list[tuple[str, str]] = []  # (id, body text) of each post to a click's response_url
        self.total_connections = 0  # websockets that got hello, ever: a reconnect makes it grow
        self._cond = threading.Condition()  # (an RLock) guards all of the above; notified on every change
        self._live: list[ServerConnection] = []
        self._tickets: set[str] = set()
        self._triggers: dict[str, dict] = {}  # trigger_id -> {"at" (monotonic), "user", "username", "used"}
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
        return self._deliver(payload, f"click ({action_id} {request_id})", timeout, via)

    def _deliver(self, payload: dict, what: str, timeout: float, via: str, *, respond: bool = False) -> dict:
        """``payload`` in an interactive envelope on one live connection (``via`` "newest" or "oldest"), then what
        ``click`` returns once acked. ``respond``: the ack may carry a response (as for a view_submission)."""
        envelope = {"envelope_id": str(uuid.uuid4()), "type": "interactive", "accepts_response_payload": respond,
                    "payload": payload}
        with self._cond:
            if not self._live:
                raise AssertionError(f"no live Socket Mode connection to send the {what} on")
            connection = self._live[-1] if via == "newest" else self._live[0]
            self.envelopes.append(envelope)
        sent = time.monotonic()
        try:
            connection.send(json.dumps(envelope))
        except ConnectionClosed as exc:
            raise AssertionError(f"the connection closed before the {what} could be sent: {exc}") from exc
        eid = envelope["envelope_id"]
        with self._cond:
            if not self._cond.wait_for(lambda: eid in self.acks, timeout):
                raise AssertionError(f"envelope {eid}, the {what}, not acked within {timeout}s")
            return {"envelope_id": eid, "ack": self.acks[eid], "acked_after_seconds": time.monotonic() - sent,
                    "payload": payload}

    def _trigger(self, user: str, username: str) -> str:
        """A new trigger_id, as an interaction payload carries: views.open takes it once, for ``trigger_ttl``."""
        trigger_id = f"{int(time.time() * 1000)}.{uuid.uuid4().int % 10**10}.{uuid.uuid4().hex}"
        self._triggers[trigger_id] = {"at": time.monotonic(), "user": user, "username": username, "used": False}
        return trigger_id

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
                "trigger_id": self._trigger(user, username),
                "team": {"id": team, "domain": self.team}, "enterprise": None, "is_enterprise_install": False,
                "container": container, "channel": {"id": channel["id"], "name": channel["name"]},
                "message": self._shown(message), "state": {"values": {}},
                "response_url": f"http://127.0.0.1:{self._http.server_address[1]}/response/{uuid.uuid4().hex}",
                "actions": [action]}

    # -- modals, from the test's side ------------------------------------------------------------

    def submit_view(self, view_id: str | None = None, values: dict[str, str] | None = None, *,
                    user: str | None = None, team: str | None = None, username: str | None = None,
                    timeout: float = 10, force: bool = False, via: str = "newest") -> dict:
        """Submit pressed on modal ``view_id`` (default: the latest opened; ``user`` default: its opener) with
        ``values`` typed in (see ``typed_state``; ``force``: what Slack would not submit): a view_submission
        envelope, then what ``click`` returns. Whether the modal then stays open: see ``stays_open``."""
        record = self._view(view_id)
        state = typed_state(record["blocks"], values or {}, force=force)
        with self._cond:
            payload = self._view_payload("view_submission", record, user, team, username, state)
        result = self._deliver(payload, f"view_submission of {record['id']}", timeout, via, respond=True)
        with self._cond:
            record["open"] = stays_open(result["ack"].get("payload"), record["blocks"])
            self._cond.notify_all()
        return result

    def close_view(self, view_id: str | None = None, *, user: str | None = None, team: str | None = None,
                   timeout: float = 10, force: bool = False, via: str = "newest") -> dict | None:
        """Cancel pressed on modal ``view_id`` (as ``submit_view``): it closes, and a view_closed envelope goes
        out, then what ``click`` returns; only if it asked notify_on_close (as Slack does), else None, or ``force``."""
        record = self._view(view_id)
        with self._cond:
            record["open"] = False
            self._cond.notify_all()
            payload = self._view_payload("view_closed", record, user, team, None)
        return self._deliver(payload, f"view_closed of {record['id']}", timeout, via) if (
            record["notify_on_close"] or force) else None

    def _view(self, view_id: str | None) -> dict:  # the record of the open modal view_id (None: the latest)
        with self._cond:
            record = next((v for v in reversed(self.views) if view_id in (None, v["id"])), None)
            if record is None or not record["open"]:
                raise AssertionError(f"no open modal {view_id or ''} in {[(v['id'], v['open']) for v in self.views]}")
        return record

    def _view_payload(self, kind: str, record: dict, user: str | None, team: str | None, username: str | None,
                      state: dict | None = None) -> dict:
        """A view_submission (``state``: its values) or a view_closed payload: who, where, the view as opened."""
        user, team = user or record["user"], team or self.team_id
        username = username or (self._triggers[record["trigger_id"]]["username"] if user == record["user"]
                                else "approver")
        view = copy.deepcopy({k: v for k, v in record.items() if k not in ("user", "trigger_id", "open")})
        extra = {"is_cleared": False} if state is None else {"trigger_id": self._trigger(user, username),
                                                             "response_urls": []}
        return {"type": kind, "team": {"id": team, "domain": self.team},
                "user": {"id": user, "username": username, "name": username, "team_id": team},
                "api_app_id": self.app_id, "token": "verification-token-unused",
                "view": view if state is None else {**view, "state": {"values": state}},
                "is_enterprise_install": False, "enterprise": None, **extra}

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
        for key, malformed in (("blocks", "invalid_blocks_format"), ("view", "invalid_arguments")):
            if isinstance(params.get(key), str):  # a form field holds them as JSON text
                try:
                    params[key] = json.loads(params[key]) if params[key].strip() else None
                except ValueError:
                    refusal = refusal or SlackError(malformed)
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
            "conversations.info": ("bot", self._info), "views.open": ("bot", self._views_open)}
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
            self._refuse("invalid_blocks", block_errors(blocks))
        if not text and not blocks:
            raise SlackError("no_text")
        if text is not None and len(str(text)) > MAX_MESSAGE_TEXT:
            raise SlackError("msg_too_long")
        if previous is not None:
            text = previous["text"] if text is None else text
            blocks = previous["blocks"] if blocks is None else blocks
        return (None if text is None else str(text)), blocks

    @staticmethod
    def _refuse(error: str, errors: list[str]) -> None:
        """``error``, with the list of what is wrong as Slack gives it (twice), if anything is."""
        if errors:
            raise SlackError(error, errors=errors, response_metadata={"messages": [f"[ERROR] {e}" for e in errors]})

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

    def _views_open(self, params: dict) -> dict:
        """A modal for whoever's click issued ``trigger_id``: the trigger is checked (issued, not exchanged yet,
        at most ``trigger_ttl`` old), then the view; a refused view leaves the trigger unused."""
        trigger_id = str(params.get("trigger_id") or "")
        if not trigger_id:
            raise SlackError("invalid_arguments", response_metadata={"messages": ["invalid `trigger_id`"]})
        trigger = self._triggers.get(trigger_id)
        if trigger is None or trigger["used"] or time.monotonic() - trigger["at"] > self.trigger_ttl:
            raise SlackError("invalid_trigger_id" if trigger is None else  # (reused: "already exchanged")
                             "exchanged_trigger_id" if trigger["used"] else "expired_trigger_id")
        view = copy.deepcopy(params.get("view"))
        self._refuse("invalid_arguments", view_errors(view))
        trigger["used"] = True
        view_id = f"V{len(self.views) + 1:03d}{uuid.uuid4().hex[:6].upper()}"  # (unique: views only grow)
        shown = opened_view(view, view_id, team_id=self.team_id, app_id=self.app_id, bot_id=BOT_ID)
        self.views.append({**copy.deepcopy(shown), "user": trigger["user"], "trigger_id": trigger_id, "open": True})
        return {"view": shown}
