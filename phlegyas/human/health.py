"""``phlegyas doctor``'s look at Slack approvals: configured or not, and when configured, whether Slack
accepts both tokens and the bot can see the approval channel (``auth.test``, the channel lookup,
``apps.connections.open``: nothing is posted; ``phlegyas slack test`` posts a harmless request)."""
from __future__ import annotations

from phlegyas.core.health import Check, ok, problem, warning
from phlegyas.human.slack_link import SlackConfigError, SlackError, call, identify, web_client

NAME = "Slack approvals"
SETUP = "examples/SLACK_SETUP.md"


def slack_check(settings) -> list[Check]:
    set_ = [name for name, value in (("SLACK_BOT_TOKEN", settings.slack_bot_token),
                                     ("SLACK_APP_TOKEN", settings.slack_app_token),
                                     ("SLACK_APPROVAL_CHANNEL", settings.slack_approval_channel)) if value]
    if not set_:
        return [ok(NAME, "off (set SLACK_BOT_TOKEN, SLACK_APP_TOKEN and SLACK_APPROVAL_CHANNEL to answer from Slack)")]
    if len(set_) < 3:
        missing = [n for n in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_APPROVAL_CHANNEL") if n not in set_]
        return [problem(NAME, f"half configured: {', '.join(set_)} set, {', '.join(missing)} not",
                        f"set {' and '.join(missing)} (see {SETUP}), or unset the others")]
    try:
        client = web_client(settings)
        identity = identify(client, settings)
        call(client, "apps.connections.open", "SLACK_APP_TOKEN", app_token=settings.slack_app_token)
    except SlackConfigError as exc:
        return [problem(NAME, str(exc), f"fix the variable it names (see {SETUP})")]
    except SlackError as exc:
        return [warning(NAME, f"Slack cannot be checked now: {exc}",
                        f"check the network or PHLEGYAS_SLACK_API_URL ({settings.slack_api_url})")]
    where = f"#{identity.channel_name}" if identity.channel_name else identity.channel_id
    checks = [ok(NAME, f"team {identity.team_id}, channel {where} ({identity.channel_id}), both tokens accepted; "
                       f"a click is waited for {settings.slack_approval_timeout_seconds} s")]
    if not settings.slack_approvers:
        checks.append(warning(NAME, f"SLACK_APPROVERS is not set: any member of {where} may approve",
                              "set SLACK_APPROVERS to the Slack user IDs allowed to answer"))
    return checks
