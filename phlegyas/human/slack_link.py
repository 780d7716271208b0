"""The connection to Slack: the Web API client, who the bot is, and the approval channel's ID.

Everything here happens once, when a process starts asking people through Slack: ``auth.test`` says which
workspace (team) the bot token belongs to — a click from any other team is refused — and the channel
given by name in SLACK_APPROVAL_CHANNEL is looked up once and used by ID from then on (``chat.update``
refuses a name). A problem the configuration can fix is a ``SlackConfigError`` that names the variable;
Slack being out of reach is a ``SlackUnreachable``: the request stays parked for the CLI, the MCP tools
and the dashboard, and the reason says Slack failed.

``slack_sdk`` (``pip install 'phlegyas[slack]'``) is imported only here and in ``human.slack``, only when
Slack is configured.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from phlegyas.core.redact import redact

CHANNEL_ID = re.compile(r"[CG][A-Z0-9]{8,}")
SLACK_ERROR = re.compile(r"[a-z][a-z0-9_]{1,60}")
"""What Slack's own error codes look like (``channel_not_found``); the SDK puts other text there when the
answer was not Slack's (an HTML error page)."""
INSTALL_HINT = "Slack approvals need slack_sdk: pip install 'phlegyas[slack]'"
CONFIG_ERRORS = {
    "invalid_auth": "the token is not valid (revoked, mistyped, or from another app)",
    "not_authed": "no token was sent",
    "account_inactive": "the token's app or user was deactivated",
    "token_revoked": "the token was revoked",
    "token_expired": "the token expired",
    "not_allowed_token_type": "this is the wrong kind of token",
    "missing_scope": "the app lacks a scope",
}
WEB_TIMEOUT_SECONDS = 10
_log = logging.getLogger("phlegyas.slack")


class SlackError(Exception):
    """Slack approvals cannot work; the message says why, for a person (never a token)."""


class SlackConfigError(SlackError):
    """The configuration is wrong: a token Slack refuses, an unknown channel, a missing scope."""


class SlackUnreachable(SlackError):
    """Slack did not answer (network, an outage, an answer that is not Slack's)."""


@dataclass(frozen=True)
class Identity:
    """Who the bot is and where it asks: the team of the bot token, the bot's user, the channel's ID."""

    team_id: str
    team: str
    bot_user_id: str
    channel_id: str
    channel_name: str | None


def quiet_sdk_logs() -> None:
    """The SDK logs every reconnect at INFO and request details at DEBUG: keep it to warnings."""
    for name in ("slack_sdk", "slack_bolt"):
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET or logger.level < logging.WARNING:
            logger.setLevel(logging.WARNING)


def web_client(settings, token: str | None = None):
    """A ``slack_sdk.WebClient`` for the bot token (or ``token``), at PHLEGYAS_SLACK_API_URL."""
    try:
        from slack_sdk import WebClient  # the optional SDK (phlegyas[slack]), only when Slack is configured
    except ImportError as exc:
        raise SlackConfigError(f"{INSTALL_HINT} ({exc})") from None
    quiet_sdk_logs()
    return WebClient(token=token or settings.slack_bot_token, base_url=settings.slack_api_url,
                     timeout=WEB_TIMEOUT_SECONDS)


def call(client, method: str, variable: str, **params: Any) -> dict[str, Any]:
    """The data of Web API ``method`` (``chat.postMessage``: the SDK's ``chat_postMessage``). A refusal
    that configuration can fix raises SlackConfigError naming ``variable``; anything else (network, a broken answer, another error) raises SlackUnreachable
    or SlackError, with the method named and secrets redacted."""
    from slack_sdk.errors import SlackApiError  # the optional SDK, loaded by web_client already

    try:
        response = getattr(client, method.replace(".", "_"))(**params)
        return dict(response.data) if isinstance(response.data, dict) else {}
    except SlackApiError as exc:
        data = exc.response.data if exc.response is not None else None
        error = data.get("error") if isinstance(data, dict) else None
        if error in CONFIG_ERRORS:
            needed = data.get("needed") if isinstance(data, dict) else None
            extra = f" (needed: {needed})" if needed else ""
            # "VARIABLE is …", never "VARIABLE: …": a redactor reads "SLACK_BOT_TOKEN: x" as a token's value
            raise SlackConfigError(f"{variable} is not accepted: Slack's {method} answered {error} "
                                   f"({CONFIG_ERRORS[error]}){extra}") from None
        status = getattr(exc.response, "status_code", None)
        if isinstance(error, str) and SLACK_ERROR.fullmatch(error) and not (isinstance(status, int) and status >= 500):
            raise SlackError(f"Slack refused {method}: {error}") from None
        raise SlackUnreachable(f"Slack's {method} did not answer as Slack does (HTTP {status})") from None
    except Exception as exc:  # noqa: BLE001 - URLError, timeouts, TLS: Slack is out of reach
        raise SlackUnreachable(f"cannot reach Slack for {method}: {redact(str(exc)) or type(exc).__name__}") from None


def identify(client, settings) -> Identity:
    """``auth.test`` for the team and the bot, then the approval channel's ID (a name is looked up once)."""
    auth = call(client, "auth.test", "SLACK_BOT_TOKEN")
    team_id, bot = auth.get("team_id"), auth.get("user_id")
    if not isinstance(team_id, str) or not team_id or not isinstance(bot, str):
        raise SlackUnreachable("Slack's auth.test answer carries no team_id")
    channel_id, name = resolve_channel(client, settings.slack_approval_channel)
    return Identity(team_id=team_id, team=str(auth.get("team") or team_id), bot_user_id=bot,
                    channel_id=channel_id, channel_name=name)


def resolve_channel(client, channel: str) -> tuple[str, str | None]:
    """``(ID, name)`` of the approval channel: an ID is checked with ``conversations.info``; a name is
    found with ``conversations.list`` (public and private channels the bot can see, every page)."""
    variable = "SLACK_APPROVAL_CHANNEL"
    if CHANNEL_ID.fullmatch(channel):
        try:
            info = call(client, "conversations.info", variable, channel=channel)
        except SlackError as exc:
            if "channel_not_found" in str(exc):
                raise SlackConfigError(f"{variable} names no channel the bot can see ({channel}: invite the "
                                       "bot to it, or check the ID)") from None
            raise
        found = info.get("channel") if isinstance(info.get("channel"), dict) else {}
        _warn_not_member(found, channel)
        return channel, found.get("name") if isinstance(found.get("name"), str) else None
    cursor = ""
    for _ in range(1000):  # 200 per page: enough for any workspace, and never a loop on a bad cursor
        params: dict[str, Any] = {"types": "public_channel,private_channel", "exclude_archived": True, "limit": 200}
        if cursor:
            params["cursor"] = cursor
        page = call(client, "conversations.list", variable, **params)
        for item in page.get("channels") or ():
            if isinstance(item, dict) and item.get("name") == channel and isinstance(item.get("id"), str):
                _warn_not_member(item, channel)
                return item["id"], channel
        meta = page.get("response_metadata") or {}
        cursor = meta.get("next_cursor") if isinstance(meta, dict) else ""
        if not cursor:
            break
    raise SlackConfigError(f"{variable} names no channel the bot can see (#{channel}: create it, invite the bot "
                           "with /invite, or give the channel's ID)")


def _warn_not_member(channel: dict, shown: str) -> None:
    if channel.get("is_member") is False:
        _log.warning("phlegyas slack: the bot is not a member of #%s: invite it (/invite @your-app) or posting "
                     "fails with not_in_channel", channel.get("name") or shown)
