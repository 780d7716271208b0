"""Slack approvals: a parked request posted with Approve / Deny buttons, clicks taken over Socket Mode,
and every message kept current — on the one approvals queue the CLI, the MCP tools and the dashboard use.

A process that asks people through Slack (the MCP server for its whole life; a PermissionRequest hook for
the length of its wait) holds one ``SlackApprovals``: ``start`` identifies the bot and the channel
(``slack_link``) and opens the app's Socket Mode connection; ``announce`` posts a request and remembers
the message in the store (``add_notice``); a click is checked (``handle``) and written into the store,
where the waiter sees it; ``settle`` and ``refresh`` turn a message whose request has ended — answered
here or anywhere else, expired, withdrawn — into the outcome, exactly once across processes
(``close_notice``).

Slack hands each envelope to one of the app's open connections, any of them: so every connection
accepts a click for any request in the store, and nothing depends on which process posted it. The state
lives in the store, so a reconnect or a restart loses nothing: a new process's watcher picks up the open
messages, and a click on one still counts while its request is pending.

A click is trusted only when it arrives on this app's own Socket Mode connection (the app token), comes
from the bot token's team (``auth.test``), from a user in SLACK_APPROVERS (when set), in the approval
channel, for a request that is pending and not expired. Anything else is refused, told to the clicker
(an ephemeral message) and logged. Tokens never reach a log, the audit log or a message.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from typing import Any, Sequence

from phlegyas.human.queue import resolution_entry
from phlegyas.human.slack_link import (
    Identity,
    SlackConfigError,
    SlackError,
    call,
    identify,
    quiet_sdk_logs,
    web_client,
)
from phlegyas.human.slack_message import (
    APPROVE_ACTION,
    DENY_ACTION,
    DENY_REASON_ACTION,
    REASON_BLOCK,
    REASON_CALLBACK,
    REASON_INPUT,
    outcome_blocks,
    reason_modal,
    request_blocks,
)
from phlegyas.store.approvals import (
    AlreadyResolved,
    ApprovalError,
    ApprovalStore,
    Expired,
    InvalidRequestId,
    NotFound,
    PendingRequest,
    parse_request_id,
)
from phlegyas.store.audit import AuditLog

NOTICE = "slack"
"""The store's notice channel for Slack messages (ref: the message's channel ID and ts)."""
REFRESH_SECONDS = 1.0
PING_SECONDS = 5.0
TIERS = {True: "tier3_slack_approved", False: "tier3_slack_denied"}
"""The audit tiers of an answer given in Slack (the seed's labels)."""
_log = logging.getLogger("phlegyas.slack")


def app_id_of(app_token: str | None) -> str | None:
    """The app ID inside an app-level token (``xapp-1-A0123ABCD-…``), or None."""
    parts = (app_token or "").split("-")
    return parts[2] if len(parts) > 3 and parts[2][:1] == "A" else None


class SlackApprovals:
    """One process's link to Slack. ``start`` first; ``close`` when done (threads and the connection)."""

    def __init__(self, settings, store: ApprovalStore, *, audit=None):
        self.settings = settings
        self.store = store
        self.audit = audit
        self.identity: Identity | None = None
        self.app_id = app_id_of(settings.slack_app_token)
        self._web: Any = None
        self._socket: Any = None
        self._watcher: threading.Thread | None = None
        self._stopping = threading.Event()
        self._finish_lock = threading.Lock()

    # -- lifecycle -----------------------------------------------------------------------------------

    def start(self, *, listen: bool = True, watch: bool = False) -> "SlackApprovals":
        """Identify the bot and the channel; with ``listen``, open Socket Mode; with ``watch``, keep the
        open messages current in a thread (long-lived processes). Raises SlackConfigError (naming the
        variable) or SlackUnreachable."""
        self._web = web_client(self.settings)
        self.identity = identify(self._web, self.settings)
        if not self.settings.slack_approvers:
            _log.warning("phlegyas slack: SLACK_APPROVERS is not set: any member of #%s may approve",
                         self.identity.channel_name or self.identity.channel_id)
        if listen:
            self._listen()
        if watch:
            self._watcher = threading.Thread(target=self._watch, name="phlegyas-slack-watch", daemon=True)
            self._watcher.start()
        return self

    def _listen(self) -> None:
        from slack_sdk.socket_mode import SocketModeClient  # the optional SDK (phlegyas[slack]), only to listen

        quiet_sdk_logs()
        # the first URL is fetched here, so that a refused app token is a start-up error naming it
        opened = call(self._web, "apps.connections.open", "SLACK_APP_TOKEN", app_token=self.settings.slack_app_token)
        client = SocketModeClient(app_token=self.settings.slack_app_token, web_client=self._web,
                                  logger=logging.getLogger("slack_sdk.socket_mode.phlegyas"),
                                  ping_interval=PING_SECONDS, auto_reconnect_enabled=True)
        client.socket_mode_request_listeners.append(self._on_request)
        client.wss_uri = opened.get("url")
        try:
            client.connect()
        except Exception as exc:  # noqa: BLE001 - the websocket did not open: say so, without the URL's ticket
            client.close()
            raise SlackError(f"cannot open Slack's Socket Mode connection: {type(exc).__name__}") from None
        self._socket = client

    def connected(self) -> bool:
        return self._socket is not None and self._socket.is_connected()

    def close(self, *, wait: bool = True) -> None:
        """Stop the watcher and close Socket Mode. The SDK takes about a second to close (its reader
        holds a lock while it waits on the socket): ``wait=False`` leaves that to a daemon thread, for a
        process about to exit with its answer (the hook)."""
        self._stopping.set()
        if self._socket is not None:
            socket, self._socket = self._socket, None
            if wait:
                _close_quietly(socket)
            else:
                threading.Thread(target=_close_quietly, args=(socket,), name="phlegyas-slack-close",
                                 daemon=True).start()
        if self._watcher is not None:
            self._watcher.join(5)
            self._watcher = None

    # -- asking ----------------------------------------------------------------------------------------

    def announce(self, request: PendingRequest, details: Sequence[str] = ()) -> str | None:
        """Post ``request``; None when posted, else what went wrong (the request stays parked)."""
        try:
            self.post(request, details)
        except (SlackError, ApprovalError) as exc:
            _log.warning("phlegyas slack: request %s not posted: %s", request.id, exc)
            return f"Slack failed: {exc}"
        return None

    def post(self, request: PendingRequest, details: Sequence[str] = ()) -> dict[str, str]:
        """``chat.postMessage`` the request and remember the message; returns its ``channel`` and ``ts``."""
        if self.identity is None:
            raise SlackError("Slack approvals were not started")
        blocks, text = request_blocks(request, list(details))
        data = call(self._web, "chat.postMessage", "SLACK_APPROVAL_CHANNEL", channel=self.identity.channel_id,
                    blocks=blocks, text=text)
        ts = data.get("ts")
        if not isinstance(ts, str):
            raise SlackError("Slack's chat.postMessage answer carries no ts")
        ref = {"channel": str(data.get("channel") or self.identity.channel_id), "ts": ts}
        self.store.add_notice(request.id, NOTICE, ref)
        _log.info("phlegyas slack: posted request %s (ts %s)", request.id, ts)
        return ref

    def settle(self, request: PendingRequest) -> None:
        """The request has ended (its waiter has its answer): show the outcome in its message now."""
        try:
            for current, ref in self.store.open_notices(NOTICE):
                if current.id == request.id and not current.is_pending:
                    self._finish(current, ref)
        except (ApprovalError, SlackError) as exc:
            _log.warning("phlegyas slack: message of request %s not updated: %s", request.id, exc)

    def refresh(self) -> int:
        """Show the outcome in every open message whose request has ended; returns how many changed."""
        done = 0
        for request, ref in self.store.open_notices(NOTICE):
            if not request.is_pending and self._finish(request, ref):
                done += 1
        return done

    def _watch(self) -> None:
        said = None
        while not self._stopping.wait(REFRESH_SECONDS):
            try:
                self.refresh()
                said = None
            except Exception as exc:  # noqa: BLE001 - the watcher keeps going; a problem is said once
                if str(exc) != said:
                    _log.warning("phlegyas slack: cannot refresh the messages: %s", exc)
                    said = str(exc)

    def _finish(self, request: PendingRequest, ref: dict[str, Any]) -> bool:
        """Turn the message into the outcome, once across processes (the notice is closed first and
        reopened when Slack refuses, so a later refresh tries again)."""
        with self._finish_lock:
            if not self.store.close_notice(request.id, NOTICE):
                return False
        blocks, text = outcome_blocks(request, request.resolved_via)
        try:
            call(self._web, "chat.update", "SLACK_APPROVAL_CHANNEL", channel=ref.get("channel"), ts=ref.get("ts"),
                 blocks=blocks, text=text)
        except SlackError as exc:
            _log.warning("phlegyas slack: message of request %s not updated (will retry): %s", request.id, exc)
            try:
                self.store.add_notice(request.id, NOTICE, ref)
            except ApprovalError:
                pass
            return False
        return True

    # -- clicks ----------------------------------------------------------------------------------------

    def _on_request(self, client, req) -> None:
        """Every envelope is acknowledged at once; an interactive one is then handled."""
        from slack_sdk.socket_mode.response import SocketModeResponse  # the optional SDK, loaded by now

        try:
            client.send_socket_mode_response(SocketModeResponse(envelope_id=req.envelope_id))
        except Exception as exc:  # noqa: BLE001 - Slack redelivers an unacknowledged envelope
            _log.warning("phlegyas slack: envelope not acknowledged: %s", type(exc).__name__)
        if req.type != "interactive" or not isinstance(req.payload, dict):
            return
        try:
            self.handle(req.payload)
        except Exception:  # noqa: BLE001 - one bad click never stops the listener
            _log.exception("phlegyas slack: a click could not be handled")

    def handle(self, payload: dict[str, Any]) -> str:
        """Decide what a ``block_actions`` payload (a button) or a ``view_submission`` (the reason modal)
        does; returns ``approved``, ``denied``, ``asked why``, ``ignored`` or ``refused: why`` (then the
        clicker is told and it is logged)."""
        user = _get(payload, "user", "id")
        if payload.get("type") == "view_submission":
            view = payload.get("view") if isinstance(payload.get("view"), dict) else {}
            if view.get("callback_id") != REASON_CALLBACK:
                return "ignored"
            assert self.identity is not None
            reason = _typed(view, REASON_BLOCK, REASON_INPUT)
            return self._decide(payload, user, self.identity.channel_id, view.get("private_metadata"), False,
                                reason or None)
        actions = payload.get("actions")
        action = actions[0] if isinstance(actions, list) and actions and isinstance(actions[0], dict) else {}
        action_id = action.get("action_id")
        if payload.get("type") != "block_actions" or action_id not in (APPROVE_ACTION, DENY_ACTION, DENY_REASON_ACTION):
            return "ignored"
        channel = _get(payload, "container", "channel_id") or _get(payload, "channel", "id")
        if action_id == DENY_REASON_ACTION:
            return self._ask_why(payload, user, channel, action.get("value"))
        return self._decide(payload, user, channel, action.get("value"), action_id == APPROVE_ACTION, None)

    def _ask_why(self, payload: dict[str, Any], user: str | None, channel: str | None, value: object) -> str:
        """"Deny with a reason…": the same checks as a click, then the modal (the deny comes with it)."""
        why, request = self._refusal(payload, user, channel, value)
        if why is None and request is not None:
            try:
                call(self._web, "views.open", "SLACK_BOT_TOKEN", trigger_id=payload.get("trigger_id"),
                     view=reason_modal(request))
                return "asked why"
            except SlackError as exc:
                why = f"the reason form did not open ({exc}); use Deny"
        self._refuse(user, channel, why or "unknown request", request)
        return f"refused: {why}"

    def _decide(self, payload: dict[str, Any], user: str | None, channel: str | None, value: object, approve: bool,
                reason: str | None) -> str:
        why, request = self._refusal(payload, user, channel, value)
        if why is None and request is not None:
            try:
                request = self.store.resolve(request.id, approve, approver_id=user, via="slack", reason=reason)
            except (AlreadyResolved, Expired) as exc:
                why, request = f"this request is already {exc.request.describe()}", exc.request
        if why is not None:
            self._refuse(user, channel, why, request)
            return f"refused: {why}"
        assert request is not None
        _log.info("phlegyas slack: request %s %s by %s", request.id, request.status, user)
        self._audit(request, payload)
        self.settle(request)
        return request.status

    def _refusal(self, payload: dict[str, Any], user: str | None, channel: str | None,
                 value: object) -> tuple[str | None, PendingRequest | None]:
        """Why this click may not decide anything (None when it may), and the request it names."""
        identity = self.identity
        assert identity is not None
        team = _get(payload, "team", "id") or _get(payload, "user", "team_id")
        if team != identity.team_id:
            return f"the click came from another workspace ({team or 'none'})", None
        app = payload.get("api_app_id")
        if self.app_id is not None and app is not None and app != self.app_id:
            return "the click is for another app", None
        if not user:
            return "the click names no user", None
        if self.settings.slack_approvers and user not in self.settings.slack_approvers:
            return "you are not one of the approvers (SLACK_APPROVERS)", None
        if channel != identity.channel_id:
            return "approvals are answered in the approval channel only", None
        try:
            request = self.store.get(parse_request_id(value))
        except InvalidRequestId:
            return "the button carries no phlegyas request id", None
        except NotFound:
            return "no such request in this phlegyas store (purged, or another PHLEGYAS_HOME)", None
        if not request.is_pending:
            return f"this request is already {request.describe()}", request
        return None, request

    def _refuse(self, user: str | None, channel: str | None, why: str, request: PendingRequest | None) -> None:
        rid = request.id if request is not None else "-"
        _log.warning("phlegyas slack: refused a click by %s on request %s: %s", user or "unknown", rid, why)
        if request is not None and not request.is_pending:
            self.settle(request)  # the message should already say how it ended; make sure it does
        if not user or not channel:
            return
        try:
            call(self._web, "chat.postEphemeral", "SLACK_APPROVAL_CHANNEL", channel=channel, user=user,
                 text=f"phlegyas did not take that click: {why}.")
        except SlackError as exc:
            _log.warning("phlegyas slack: could not tell %s: %s", user, exc)

    def _audit(self, request: PendingRequest, payload: dict[str, Any]) -> None:
        """The resolution's audit line: tier ``tier3_slack_approved`` / ``tier3_slack_denied``, the Slack
        user and the time the request waited."""
        if self.audit is None:
            return
        call_, decision = resolution_entry(request, "slack")
        waited = round(max(0.0, (request.resolved_at or time.time()) - request.created_at), 3)
        slack = {"user_id": request.approver_id, "username": _get(payload, "user", "username"),
                 "team_id": _get(payload, "team", "id"), "wait_seconds": waited}
        decision = replace(decision, tier=TIERS[request.status == "approved"],
                           audit={**(decision.audit or {}), "slack": {k: v for k, v in slack.items() if v}})
        try:
            self.audit.record(call_, decision, mode=request.mode or self.settings.mode, extra=decision.audit)
        except Exception as exc:  # noqa: BLE001 - AuditError, ValueError: the decision stands
            _log.warning("phlegyas slack: audit log not written: %s", exc)


def _close_quietly(socket) -> None:
    try:
        socket.close()
    except Exception:  # noqa: BLE001 - closing is best effort
        pass


def _typed(view: dict[str, Any], block: str, element: str) -> str:
    """What was typed into a modal's input (``view.state.values[block][element].value``), stripped."""
    values = (view.get("state") or {}).get("values") if isinstance(view.get("state"), dict) else None
    got = ((values or {}).get(block) or {}).get(element) if isinstance(values, dict) else None
    text = got.get("value") if isinstance(got, dict) else None
    return text.strip() if isinstance(text, str) else ""


def _get(payload: dict[str, Any], key: str, field: str) -> str | None:
    value = payload.get(key)
    got = value.get(field) if isinstance(value, dict) else None
    return got if isinstance(got, str) and got else None


def start_slack(settings, store: ApprovalStore, *, audit=None, watch: bool = False) -> SlackApprovals:
    """A started ``SlackApprovals`` (listening); raises SlackError, as ``start`` does."""
    slack = SlackApprovals(settings, store, audit=audit)
    try:
        return slack.start(listen=True, watch=watch)
    except BaseException:
        slack.close()
        raise


def wait_channels(settings):
    """``human.queue.OpenChannels`` for a process that asks through Slack only while it waits (the
    PermissionRequest hook): Slack is started for each wait and closed after it; when it cannot start,
    the request is still parked and the reason says why."""

    def open_channels(store: ApprovalStore):
        audit = AuditLog(settings.audit_log_file) if settings.enable_audit_log else None
        try:
            slack = start_slack(settings, store, audit=audit)
        except SlackError as exc:
            _log.warning("phlegyas slack: not asking in Slack: %s", exc)
            return [], [f"Slack failed: {exc}"], lambda: None
        return [slack], [], lambda: slack.close(wait=False)  # the answer first: the process exits anyway

    return open_channels


__all__ = ["NOTICE", "SlackApprovals", "SlackConfigError", "SlackError", "app_id_of", "start_slack", "wait_channels"]
