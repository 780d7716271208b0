"""The loopback fake Slack (tests/fake_slack.py) against the real ``slack_sdk``.

The product's Slack tests trust the fake to refuse what Slack refuses and to deliver clicks the way
Socket Mode does; these tests pin that down through the SDK's own ``WebClient`` and builtin
``SocketModeClient``, so a fake that drifted from what the SDK sends or expects fails here first.
"""
from __future__ import annotations

import json
import time
import urllib.request
from contextlib import contextmanager
from typing import Iterator

import pytest
from fake_slack import APPROVE_ACTION, DENY_ACTION, DENY_REASON_ACTION, FakeSlack
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.socket_mode import SocketModeClient
from slack_sdk.socket_mode.request import SocketModeRequest
from slack_sdk.socket_mode.response import SocketModeResponse
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

RID = "0b9c3f9e-8a53-4d55-9a43-9f6d1e0e6b1a"


def approval_blocks(rid: str = RID) -> list[dict]:
    """The shape of phlegyas' approval message: what was asked, and the two buttons carrying the id."""
    return [
        {"type": "header", "text": {"type": "plain_text", "text": "phlegyas asks: Bash"}},
        {"type": "section", "text": {"type": "mrkdwn", "text": "```terraform apply```"}},
        {"type": "actions", "block_id": "phlegyas_decision", "elements": [
            {"type": "button", "action_id": APPROVE_ACTION, "style": "primary", "value": rid,
             "text": {"type": "plain_text", "text": "Approve"}},
            {"type": "button", "action_id": DENY_ACTION, "style": "danger", "value": rid,
             "text": {"type": "plain_text", "text": "Deny"}}]},
    ]


@pytest.fixture
def fake() -> Iterator[FakeSlack]:
    with FakeSlack() as running:
        yield running


def web(fake: FakeSlack, token: str | None = None) -> WebClient:
    return WebClient(token=fake.bot_token if token is None else token, base_url=fake.api_url)


def error_of(call, *args, **kwargs) -> str:
    """The ``error`` Slack answered, which the SDK raises as a SlackApiError."""
    with pytest.raises(SlackApiError) as info:
        call(*args, **kwargs)
    return info.value.response["error"]


def post_approval(fake: FakeSlack, rid: str = RID) -> dict:
    return web(fake).chat_postMessage(channel="approvals", text="phlegyas asks", blocks=approval_blocks(rid)).data


@contextmanager
def socket_client(fake: FakeSlack, *, ack: bool = True, ping_interval: float = 1) -> Iterator[tuple]:
    """A connected builtin SocketModeClient that records (and acks, as an app must) every request.
    ``ping_interval`` is also how often its monitor looks for a dead connection to replace."""
    requests: list[SocketModeRequest] = []
    messages: list[dict] = []
    client = SocketModeClient(app_token=fake.app_token, web_client=WebClient(base_url=fake.api_url),
                              auto_reconnect_enabled=True, ping_interval=ping_interval)

    def on_request(client: SocketModeClient, request: SocketModeRequest) -> None:
        requests.append(request)
        if ack:
            client.send_socket_mode_response(SocketModeResponse(envelope_id=request.envelope_id))
    client.socket_mode_request_listeners.append(on_request)
    client.message_listeners.append(lambda client, message, raw: messages.append(message))
    try:
        client.connect()
        fake.wait_connected(1)
        yield client, requests, messages
    finally:
        client.close()


# -- the Web API --------------------------------------------------------------------------------

def test_auth_test_and_the_token_checks(fake):
    answer = web(fake).auth_test()
    assert answer["ok"] and answer["team_id"] == "T0PHLEGYAS" and answer["user_id"] == "U0PHBOT"
    assert answer["bot_id"] == "B0PHBOT" and answer["url"] == "https://phlegyas-test.slack.com/"
    assert error_of(web(fake, "xoxb-someone-else").auth_test) == "invalid_auth"
    assert error_of(web(fake, "").auth_test) == "not_authed"
    assert error_of(web(fake, fake.app_token).auth_test) == "not_allowed_token_type"
    assert error_of(web(fake, "").apps_connections_open, app_token=fake.bot_token) == "not_allowed_token_type"
    assert web(fake, "").apps_connections_open(app_token=fake.app_token)["url"].startswith("ws://127.0.0.1:")
    assert error_of(web(fake).api_call, "chat.scheduleMessage") == "unknown_method"
    assert [method for method, _ in fake.calls][:2] == ["auth.test", "auth.test"]
    assert "xoxb" not in repr(fake.calls) and "xapp" not in repr(fake.calls)  # a token is never recorded


def test_post_message_takes_a_name_or_an_id(fake):
    client = web(fake)
    answers = [client.chat_postMessage(channel=ref, text="hi") for ref in ("approvals", "#approvals", "C0APPROVALS")]
    assert {a["channel"] for a in answers} == {"C0APPROVALS"} == {fake.channel_id("#approvals")}
    stamps = [a["ts"] for a in answers]
    assert stamps[0] == "1700000000.000100" and stamps == sorted(set(stamps), key=float)
    assert [m["ts"] for m in fake.messages] == stamps and fake.messages[0]["text"] == "hi"
    thread = client.chat_postMessage(channel="C0GENERAL", text="reply", thread_ts=stamps[0])
    assert fake.messages[-1]["thread_ts"] == stamps[0] and thread["message"]["thread_ts"] == stamps[0]
    # blocks sent as a JSON string in a form body (an older client's way) are decoded
    client.api_call("chat.postMessage", data={"channel": "general", "blocks": json.dumps(approval_blocks())})
    assert fake.messages[-1]["blocks"] == approval_blocks() and fake.message_for(RID)["channel"] == "C0GENERAL"


@pytest.mark.filterwarnings("ignore:The top-level `text` argument is missing")  # (the SDK's advice)
@pytest.mark.parametrize("kwargs, error", [
    ({"channel": "secret", "text": "x"}, "channel_not_found"),  # private, the bot is not in it: invisible
    ({"channel": "G0SECRET", "text": "x"}, "channel_not_found"),
    ({"channel": "nowhere", "text": "x"}, "channel_not_found"),
    ({"channel": "approvals"}, "no_text"),
    ({"channel": "approvals", "blocks": approval_blocks() * 17}, "invalid_blocks"),  # 51 blocks
    ({"channel": "approvals", "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}]},
     "invalid_blocks"),
    ({"channel": "approvals", "blocks": [{"type": "header", "text": {"type": "plain_text", "text": "x" * 151}}]},
     "invalid_blocks"),
    ({"channel": "approvals", "text": "x" * 40001}, "msg_too_long"),
])
def test_post_message_refuses_as_slack_does(fake, kwargs, error):
    assert error_of(web(fake).chat_postMessage, **kwargs) == error
    assert not fake.messages


def test_a_public_channel_the_bot_is_not_in():
    with FakeSlack(channels={"random": ("C0RANDOM", False)}) as fake:
        assert error_of(web(fake).chat_postMessage, channel="random", text="x") == "not_in_channel"
        assert web(fake).conversations_info(channel="C0RANDOM")["channel"]["is_member"] is False


def test_update_wants_the_channel_id(fake):
    posted = post_approval(fake)
    client = web(fake)
    for name in ("approvals", "#approvals"):
        assert error_of(client.chat_update, channel=name, ts=posted["ts"], text="decided") == "channel_not_found"
    assert error_of(client.chat_update, channel="C0APPROVALS", ts="1.000001", text="x") == "message_not_found"
    done = [{"type": "section", "text": {"type": "mrkdwn", "text": "*APPROVED* by approver"}}]
    answer = client.chat_update(channel=posted["channel"], ts=posted["ts"], text="approved", blocks=done)
    assert (answer["channel"], answer["ts"], answer["text"]) == ("C0APPROVALS", posted["ts"], "approved")
    assert fake.messages[0]["updates"] == [{"text": "approved", "blocks": done}]
    assert fake.messages[0]["blocks"] == approval_blocks()  # the original stays as posted
    now = fake.message_for(RID)  # still found by the id its buttons carried, as it reads now
    assert now["ts"] == posted["ts"] and now["text"] == "approved" and now["blocks"] == done
    client.chat_update(channel="C0APPROVALS", ts=posted["ts"], text="approved, again")
    assert fake.message_for(RID)["blocks"] == done  # blocks left out are kept, as Slack keeps them
    assert fake.message_for("some-other-request") is None


def test_post_ephemeral_needs_a_user(fake):
    client = web(fake)
    assert error_of(client.chat_postEphemeral, channel="C0APPROVALS", user="", text="x") == "user_not_in_channel"
    assert error_of(client.chat_postEphemeral, channel="C0APPROVALS", user="nobody", text="x") == "user_not_in_channel"
    answer = client.chat_postEphemeral(channel="approvals", user="U0APPROVER", text="not yours to approve")
    assert answer["message_ts"]
    assert fake.ephemerals == [{"channel": "C0APPROVALS", "user": "U0APPROVER", "text": "not yours to approve",
                                "blocks": None}]


def test_conversations_list_paginates(fake):
    pages = [(page["channels"], page["response_metadata"]["next_cursor"])  # (the SDK reuses one response)
             for page in web(fake).conversations_list(limit=1, types="public_channel,private_channel")]
    assert [[c["name"] for c in channels] for channels, _ in pages] == [["approvals"], ["general"]]
    assert pages[0][1] and not pages[1][1]  # the private channel the bot is not in is not listed
    assert [m for m, _ in fake.calls] == ["conversations.list"] * 2 and fake.calls[1][1]["cursor"] == pages[0][1]
    first = pages[0][0][0]
    assert first == {**first, "id": "C0APPROVALS", "is_channel": True, "is_private": False, "is_member": True,
                     "is_archived": False}
    assert error_of(web(fake).conversations_list, cursor="not-a-cursor") == "invalid_cursor"
    assert web(fake).conversations_info(channel="C0GENERAL")["channel"]["name"] == "general"
    for ref in ("G0SECRET", "general", "C0NOPE"):
        assert error_of(web(fake).conversations_info, channel=ref) == "channel_not_found"


def test_private_channels_are_listed_when_asked_for_and_joined():
    channels = {"ops": ("G0OPS", True), "secret": ("G0SECRET", False), "general": ("C0GENERAL", True)}
    with FakeSlack(channels=channels) as fake:
        listed = web(fake).conversations_list(types="private_channel")["channels"]
        assert [(c["name"], c["is_private"]) for c in listed] == [("ops", True)]
        assert [c["name"] for c in web(fake).conversations_list()["channels"]] == ["general"]  # public by default


def test_down_is_a_503_the_sdk_raises_on(fake):
    fake.down = True
    with pytest.raises(SlackApiError) as info:
        web(fake).auth_test()
    assert info.value.response.status_code == 503
    assert info.value.response["error"].startswith("Received a response in a non-JSON format")
    assert fake.calls == [("auth.test", {})]  # it was tried
    with pytest.raises(SlackApiError):
        web(fake).chat_postMessage(channel="approvals", text="x")
    assert not fake.messages
    fake.down = False
    assert web(fake).auth_test()["ok"]


# -- Socket Mode --------------------------------------------------------------------------------

def test_hello_and_single_use_tickets(fake):
    url = web(fake, "").apps_connections_open(app_token=fake.app_token)["url"]
    assert url.startswith(f"ws://127.0.0.1:{fake.ws_port}/link/?ticket=") and url.endswith("&app_id=A0PHLEGYAS")
    with connect(url) as ws:
        hello = json.loads(ws.recv(timeout=5))
        assert hello == {"type": "hello", "num_connections": 1, "connection_info": {"app_id": "A0PHLEGYAS"},
                         "debug_info": {"host": "fake", "approximate_connection_time": 18060}}
        fake.wait_connected(1)
        with pytest.raises(InvalidStatus) as used:
            connect(url)  # a ticket opens one connection only
        assert used.value.response.status_code == 401
    fake.wait_connected(0)
    with pytest.raises(InvalidStatus) as unknown:
        connect(url.replace("ticket=", "ticket=0"))
    assert unknown.value.response.status_code == 401
    fresh = web(fake, "").apps_connections_open(app_token=fake.app_token)["url"]
    fake.down = True
    with pytest.raises(InvalidStatus) as down:
        connect(fresh)
    assert down.value.response.status_code == 503


def test_a_click_reaches_the_client_and_is_acked(fake):
    posted = post_approval(fake)
    with socket_client(fake) as (client, requests, messages):
        fake.wait_for(lambda: messages, what="the hello, handed to the client's listeners")
        assert messages[0]["type"] == "hello" and messages[0]["connection_info"] == {"app_id": "A0PHLEGYAS"}
        result = fake.click(RID, "approve")
        assert result["ack"] == {"envelope_id": result["envelope_id"]} and fake.acks[result["envelope_id"]]
        assert 0 <= result["acked_after_seconds"] < 3  # Slack wants the ack within 3 seconds
        request = requests[-1]
        assert (request.type, request.envelope_id) == ("interactive", result["envelope_id"])
        payload = request.payload
        assert payload["type"] == "block_actions" and payload["api_app_id"] == "A0PHLEGYAS"
        assert payload["user"] == {"id": "U0APPROVER", "username": "approver", "name": "approver",
                                   "team_id": "T0PHLEGYAS"}
        assert payload["team"] == {"id": "T0PHLEGYAS", "domain": "phlegyas-test"}
        assert payload["container"] == {"type": "message", "message_ts": posted["ts"], "channel_id": "C0APPROVALS",
                                        "is_ephemeral": False}
        assert payload["channel"] == {"id": "C0APPROVALS", "name": "approvals"}
        assert payload["message"]["ts"] == posted["ts"] and payload["message"]["blocks"] == approval_blocks()
        (action,) = payload["actions"]
        assert {k: action[k] for k in ("action_id", "block_id", "value", "style", "type")} == {
            "action_id": APPROVE_ACTION, "block_id": "phlegyas_decision", "value": RID, "style": "primary",
            "type": "button"}
        with urllib.request.urlopen(urllib.request.Request(  # recorded, not applied to the message
                payload["response_url"], data=b'{"text": "noted"}', headers={"Content-Type": "application/json"})):
            pass
        assert fake.responses == [(payload["response_url"].rsplit("/", 1)[-1], '{"text": "noted"}')]

        other = fake.click(RID, "deny", user="U0STRANGER", username="stranger", team="T0OTHER")
        (action,) = other["payload"]["actions"]
        assert (action["action_id"], action["style"]) == (DENY_ACTION, "danger")
        assert requests[-1].payload["user"]["team_id"] == "T0OTHER" and requests[-1].payload["team"]["id"] == "T0OTHER"
        assert len(fake.envelopes) == 2


def test_a_click_uses_the_message_as_it_reads_now(fake):
    posted = post_approval(fake)
    with socket_client(fake) as (client, requests, _):
        with pytest.raises(AssertionError, match="no message shows"):
            fake.click("never-asked")
        web(fake).chat_update(channel=posted["channel"], ts=posted["ts"], text="approved",
                              blocks=[{"type": "section", "text": {"type": "mrkdwn", "text": "*APPROVED*"}}])
        with pytest.raises(AssertionError, match="no message shows"):
            fake.click(RID)  # the buttons are gone: nobody can click them
        assert not requests
        stale = fake.click(RID, "approve", force=True)  # a click that raced the update
        assert stale["payload"]["actions"][0]["value"] == RID and stale["payload"]["message"]["text"] == "approved"
        forged = fake.click(RID, "deny", force=True, value="another-request")
        assert forged["payload"]["actions"][0]["value"] == "another-request"
        second = post_approval(fake, "second-request")
        by_message = fake.click("ignored", message={"channel": second["channel"], "ts": second["ts"]})
        assert by_message["payload"]["actions"][0]["value"] == "second-request"


def test_an_unacked_click_fails(fake):
    post_approval(fake)
    with socket_client(fake, ack=False) as (client, requests, _):
        with pytest.raises(AssertionError, match="not acked"):
            fake.click(RID, timeout=0.5)
        assert len(requests) == 1 and not fake.acks
    fake.wait_connected(0)
    with pytest.raises(AssertionError, match="no live Socket Mode connection"):
        fake.click(RID, timeout=0.5)


def test_disconnect_makes_the_client_reconnect(fake):
    post_approval(fake)
    with socket_client(fake) as (client, requests, _):
        fake.send_disconnect()
        fake.wait_for(lambda: fake.total_connections == 2 and fake.connections() == 1, what="a reconnect")
        assert [m for m, _ in fake.calls].count("apps.connections.open") == 2  # a new URL, a new ticket
        assert fake.click(RID)["ack"]


@pytest.mark.parametrize("reset", [True, False], ids=["reset", "fin"])
def test_a_dropped_connection_is_replaced(fake, reset):
    """The client's monitor (every ``ping_interval``) replaces a dead connection: at its next tick after a
    reset, after five failed pings when the peer only went quiet (a FIN)."""
    post_approval(fake)
    with socket_client(fake, ping_interval=0.25) as (client, requests, _):
        assert fake.click(RID)["ack"]  # the client is reading: a reset reaches its reader, not a ping
        started = time.monotonic()
        fake.drop_connections(reset=reset)
        assert fake.connections() == 0
        fake.wait_for(lambda: fake.total_connections == 2 and fake.connections() == 1, what="a reconnect")
        assert time.monotonic() - started < (2 if reset else 4)
        assert fake.click(RID)["ack"]


# -- modals -------------------------------------------------------------------------------------

REASON_BLOCK, REASON_INPUT = "phlegyas_reason", "reason"


def reason_modal(rid: str = RID, **extra) -> dict:
    """The shape of a "Deny with a reason" modal: one multiline input, the request id in private_metadata."""
    return {"type": "modal", "callback_id": "phlegyas_deny_reason", "private_metadata": rid,
            "title": {"type": "plain_text", "text": "Deny with a reason"},
            "submit": {"type": "plain_text", "text": "Deny"}, "close": {"type": "plain_text", "text": "Cancel"},
            "blocks": [{"type": "input", "block_id": REASON_BLOCK, "label": {"type": "plain_text", "text": "Why?"},
                        "element": {"type": "plain_text_input", "action_id": REASON_INPUT, "multiline": True,
                                    "max_length": 500, "placeholder": {"type": "plain_text", "text": "Say why"}}}],
            **extra}


def post_with_reason_button(fake: FakeSlack, rid: str = RID) -> dict:
    blocks = approval_blocks(rid)
    blocks[-1]["elements"].append({"type": "button", "action_id": DENY_REASON_ACTION, "value": rid,
                                   "text": {"type": "plain_text", "text": "Deny with a reason"}})
    return web(fake).chat_postMessage(channel="approvals", text="phlegyas asks", blocks=blocks).data


def test_deny_with_a_reason_through_a_modal(fake):
    """The product's flow: a click on "Deny with a reason" opens a modal with the click's trigger_id (after
    the ack, within 3 s); its submission carries what was typed in; an ack with errors keeps it open."""
    post_with_reason_button(fake)
    bot, opened, reasons = web(fake), [], []

    def on_request(client: SocketModeClient, request: SocketModeRequest) -> None:
        payload, response = request.payload, None
        if payload["type"] == "block_actions" and payload["actions"][0]["action_id"] == DENY_REASON_ACTION:
            client.send_socket_mode_response(SocketModeResponse(envelope_id=request.envelope_id))
            opened.append(bot.views_open(trigger_id=payload["trigger_id"],
                                         view=reason_modal(payload["actions"][0]["value"])).data)
            return
        if payload["type"] == "view_submission":
            reason = payload["view"]["state"]["values"][REASON_BLOCK][REASON_INPUT]["value"]
            if reason.strip():
                reasons.append((payload["view"]["private_metadata"], payload["user"]["id"], reason))
            else:
                response = {"response_action": "errors", "errors": {REASON_BLOCK: "Say why"}}
        client.send_socket_mode_response(SocketModeResponse(envelope_id=request.envelope_id, payload=response))
    with socket_client(fake, ack=False) as (client, requests, _):
        client.socket_mode_request_listeners.append(on_request)
        click = fake.click(RID, "deny_reason")
        fake.wait_for(lambda: opened, what="the modal, opened by the listener")
        (view,) = [answer["view"] for answer in opened]
        assert view["id"].startswith("V") and view["root_view_id"] == view["id"] and view["hash"]
        assert (view["type"], view["team_id"], view["app_id"], view["bot_id"]) == (
            "modal", "T0PHLEGYAS", "A0PHLEGYAS", "B0PHBOT")
        assert view["state"] == {"values": {}} and view["private_metadata"] == RID
        assert {k: view[k] for k in ("title", "submit", "close", "blocks", "callback_id")} == {
            k: reason_modal()[k] for k in ("title", "submit", "close", "blocks", "callback_id")}
        assert fake.views == [{**view, "user": "U0APPROVER", "trigger_id": click["payload"]["trigger_id"],
                               "open": True}]
        assert [m for m, _ in fake.calls][-1] == "views.open" and fake.calls[-1][1]["view"] == reason_modal()

        refused = fake.submit_view(values={REASON_INPUT: "   "})  # (a blank reason: the app asks for one)
        assert refused["ack"] == {"envelope_id": refused["envelope_id"], "payload": {
            "response_action": "errors", "errors": {REASON_BLOCK: "Say why"}}} == fake.acks[refused["envelope_id"]]
        assert fake.views[0]["open"] and not reasons  # Slack keeps the modal open, showing the error

        typed = "not on a Friday\nask again on Monday"
        result = fake.submit_view(view["id"], {REASON_INPUT: typed})
        assert result["ack"] == {"envelope_id": result["envelope_id"]} and result["acked_after_seconds"] < 3
        assert reasons == [(RID, "U0APPROVER", typed)] and not fake.views[0]["open"]
        payload = requests[-1].payload
        assert payload == result["payload"] and fake.envelopes[-1]["accepts_response_payload"] is True
        assert {k: payload[k] for k in ("type", "team", "user", "api_app_id", "response_urls",
                                        "is_enterprise_install", "enterprise")} == {
            "type": "view_submission", "team": {"id": "T0PHLEGYAS", "domain": "phlegyas-test"},
            "user": {"id": "U0APPROVER", "username": "approver", "name": "approver", "team_id": "T0PHLEGYAS"},
            "api_app_id": "A0PHLEGYAS", "response_urls": [], "is_enterprise_install": False, "enterprise": None}
        assert payload["trigger_id"] and payload["trigger_id"] != click["payload"]["trigger_id"]
        assert payload["view"] == {**view, "state": {"values": {REASON_BLOCK: {REASON_INPUT: {
            "type": "plain_text_input", "value": typed}}}}}
        with pytest.raises(AssertionError, match="no open modal"):
            fake.submit_view(values={REASON_INPUT: "twice"})  # it closed: nothing left to submit


def test_what_a_modal_submission_carries():
    """Who submits, what is typed in, and what Slack's client would not let through."""
    with FakeSlack(trigger_ttl=60) as fake:
        post_with_reason_button(fake)
        with socket_client(fake) as (client, requests, _):
            trigger = fake.click(RID, "deny_reason", user="U0OTHER", username="other")["payload"]["trigger_id"]
            modal = reason_modal(blocks=[
                *reason_modal()["blocks"],
                {"type": "input", "block_id": "ticket", "optional": True, "label": {"type": "plain_text", "text": "#"},
                 "element": {"type": "plain_text_input", "action_id": "ticket", "min_length": 3}},
                {"type": "input", "label": {"type": "plain_text", "text": "Note"},  # (no ids: Slack gives them)
                 "element": {"type": "plain_text_input", "initial_value": "none"}}])
            view = web(fake).views_open(trigger_id=trigger, view=modal)["view"]
            note = view["blocks"][2]
            assert note["block_id"] and note["element"]["action_id"] and fake.views[0]["user"] == "U0OTHER"
            for values, problem in [({}, "phlegyas_reason is required"),
                                    ({REASON_INPUT: "x" * 501}, "phlegyas_reason is past its max_length"),
                                    ({REASON_INPUT: "x", "ticket": "12"}, "ticket is short of its min_length"),
                                    ({REASON_INPUT: "x", "ticket": "1\n2\n3"}, "ticket holds a line break"),
                                    ({"nope": "x"}, "no plain_text_input has the action_id")]:
                with pytest.raises(AssertionError, match=problem):
                    fake.submit_view(values=values)
            assert not requests[1:]  # none of them was sent
            result = fake.submit_view(values={REASON_INPUT: "because"}, team="T0ELSE")
            assert result["payload"]["view"]["state"]["values"] == {
                REASON_BLOCK: {REASON_INPUT: {"type": "plain_text_input", "value": "because"}},
                "ticket": {"ticket": {"type": "plain_text_input", "value": None}},  # (optional, left empty)
                note["block_id"]: {note["element"]["action_id"]: {"type": "plain_text_input", "value": "none"}}}
            assert result["payload"]["user"] == {"id": "U0OTHER", "username": "other", "name": "other",
                                                 "team_id": "T0ELSE"}
            assert result["payload"]["team"]["id"] == "T0ELSE"
            trigger = fake.click(RID, "deny_reason")["payload"]["trigger_id"]
            web(fake).views_open(trigger_id=trigger, view=reason_modal())
            forced = fake.submit_view(values={}, user="U0STRANGER", force=True)  # a stale client, say
            assert forced["payload"]["view"]["state"]["values"][REASON_BLOCK][REASON_INPUT]["value"] is None
            assert forced["payload"]["user"]["id"] == "U0STRANGER" and forced["ack"]


def test_an_ack_with_errors_must_name_input_blocks(fake):
    post_with_reason_button(fake)
    with socket_client(fake, ack=False) as (client, requests, _):
        client.socket_mode_request_listeners.append(lambda client, request: client.send_socket_mode_response(
            SocketModeResponse(envelope_id=request.envelope_id, payload={
                "response_action": "errors", "errors": {REASON_INPUT: "keyed by the action_id: wrong"}}
                if request.payload["type"] == "view_submission" else None)))
        web(fake).views_open(trigger_id=fake.click(RID, "deny_reason")["payload"]["trigger_id"], view=reason_modal())
        with pytest.raises(AssertionError, match="generic error"):
            fake.submit_view(values={REASON_INPUT: "x"})


def test_a_trigger_opens_one_modal_and_only_soon():
    """Slack's trigger rules: issued by an interaction, exchanged once, within 3 s (here ``trigger_ttl``)."""
    assert FakeSlack().trigger_ttl == 3.0
    with FakeSlack(trigger_ttl=0.5) as fake:
        post_with_reason_button(fake)
        bot = web(fake)
        with socket_client(fake):
            assert error_of(bot.views_open, trigger_id="12345.98765.abcd2358fdea", view=reason_modal()) == (
                "invalid_trigger_id")
            with pytest.raises(SlackApiError) as missing:
                bot.views_open(view=reason_modal())
            assert missing.value.response["error"] == "invalid_arguments"
            trigger = fake.click(RID, "deny_reason")["payload"]["trigger_id"]
            assert error_of(web(fake, fake.app_token).views_open, trigger_id=trigger, view=reason_modal()) == (
                "not_allowed_token_type")
            assert bot.views_open(trigger_id=trigger, view=reason_modal())["ok"]
            assert error_of(bot.views_open, trigger_id=trigger, view=reason_modal()) == "exchanged_trigger_id"
            stale = fake.click(RID, "deny_reason")["payload"]["trigger_id"]
            time.sleep(0.6)
            assert error_of(bot.views_open, trigger_id=stale, view=reason_modal()) == "expired_trigger_id"
            assert len(fake.views) == 1


def bad(**changes) -> dict:
    view = reason_modal()
    for key, value in changes.items():
        if value is None:
            view.pop(key)
        else:
            view[key] = value
    return view


def input_block(**element) -> list[dict]:
    return [{"type": "input", "block_id": "b", "label": {"type": "plain_text", "text": "Why?"},
             "element": {"type": "plain_text_input", "action_id": "a", **element}}]


@pytest.mark.parametrize("view, pointer", [
    (bad(title={"type": "plain_text", "text": "x" * 25}), "/view/title/text"),  # 24 at most
    (bad(title=None), "/view/title"),
    (bad(title={"type": "mrkdwn", "text": "*no*"}), "/view/title"),
    (bad(submit={"type": "plain_text", "text": "x" * 25}), "/view/submit/text"),
    (bad(close={"type": "plain_text", "text": "x" * 25}), "/view/close/text"),
    (bad(submit=None), "/view/submit"),  # an input block wants a submit button
    (bad(type="home"), "/view/type"),
    (bad(callback_id="x" * 256), "/view/callback_id"),
    (bad(private_metadata="x" * 3001), "/view/private_metadata"),
    (bad(blocks=[{"type": "divider"}] * 101), "/view/blocks"),
    (bad(blocks=[{"type": "header", "text": {"type": "plain_text", "text": "x" * 151}}]), "/view/blocks/0/text/text"),
    (bad(blocks=[{**input_block()[0], "label": {"type": "plain_text", "text": "x" * 2001}}]),
     "/view/blocks/0/label/text"),
    (bad(blocks=[{**input_block()[0], "optional": "yes"}]), "/view/blocks/0/optional"),
    (bad(blocks=[{**input_block()[0], "element": {"type": "slider"}}]), "/view/blocks/0/element/type"),
    (bad(blocks=input_block(multiline="yes")), "/view/blocks/0/element/multiline"),
    (bad(blocks=input_block(max_length=0)), "/view/blocks/0/element/max_length"),
    (bad(blocks=input_block(max_length=True)), "/view/blocks/0/element/max_length"),
    (bad(blocks=input_block(placeholder={"type": "plain_text", "text": "x" * 151})),
     "/view/blocks/0/element/placeholder/text"),
    (bad(blocks=input_block(action_id="")), "/view/blocks/0/element/action_id"),
    (bad(blocks=[*input_block(), *input_block()]), "/view/blocks/1/block_id"),  # block_ids are unique
])
def test_views_open_refuses_what_slack_refuses(view, pointer):
    with FakeSlack(trigger_ttl=60) as fake:
        post_with_reason_button(fake)
        with socket_client(fake):
            trigger = fake.click(RID, "deny_reason")["payload"]["trigger_id"]
            with pytest.raises(SlackApiError) as info:
                web(fake).views_open(trigger_id=trigger, view=view)
            answer = info.value.response
            assert answer["error"] == "invalid_arguments" and not fake.views
            assert any(f"[json-pointer:{pointer}]" in e for e in answer["errors"]), answer["errors"]
            assert answer["response_metadata"]["messages"] == [f"[ERROR] {e}" for e in answer["errors"]]
            # a refused view leaves the trigger unused; a view sent as a JSON string (a form field) is decoded
            form = web(fake).api_call("views.open", data={"trigger_id": trigger, "view": json.dumps(reason_modal())})
            assert form["view"]["title"]["text"] == "Deny with a reason" and len(fake.views) == 1


def test_a_view_that_is_not_json(fake):
    post_with_reason_button(fake)
    with socket_client(fake):
        trigger = fake.click(RID, "deny_reason")["payload"]["trigger_id"]
        for view in ("{not json", ""):
            with pytest.raises(SlackApiError) as info:
                web(fake).api_call("views.open", data={"trigger_id": trigger, "view": view})
            assert info.value.response["error"] == "invalid_arguments"


def test_cancel_closes_the_modal(fake):
    """view_closed reaches the app (and is acked) for a modal that asked for it with notify_on_close."""
    post_with_reason_button(fake)
    with socket_client(fake) as (client, requests, _):
        for notify in (True, False):
            trigger = fake.click(RID, "deny_reason", user="U0OTHER", username="other")["payload"]["trigger_id"]
            web(fake).views_open(trigger_id=trigger, view=reason_modal(notify_on_close=notify))
        asked, quiet = fake.views
        assert fake.close_view(quiet["id"]) is None and not quiet["open"]  # Slack tells the app nothing
        assert requests[-1].payload["type"] == "block_actions"
        result = fake.close_view(asked["id"])
        assert result["ack"] == {"envelope_id": result["envelope_id"]} and not asked["open"]
        payload = requests[-1].payload
        assert payload == result["payload"] and fake.envelopes[-1]["accepts_response_payload"] is False
        assert (payload["type"], payload["is_cleared"], payload["view"]["id"]) == ("view_closed", False, asked["id"])
        assert payload["user"] == {"id": "U0OTHER", "username": "other", "name": "other", "team_id": "T0PHLEGYAS"}
        assert payload["view"]["notify_on_close"] is True and payload["api_app_id"] == "A0PHLEGYAS"
        with pytest.raises(AssertionError, match="no open modal"):
            fake.close_view(asked["id"])
        trigger = fake.click(RID, "deny_reason")["payload"]["trigger_id"]
        web(fake).views_open(trigger_id=trigger, view=reason_modal())
        assert fake.close_view(force=True)["payload"]["type"] == "view_closed"  # sent anyway, when forced

