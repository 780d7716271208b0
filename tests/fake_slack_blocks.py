"""What the loopback fake Slack (tests/fake_slack.py) checks in Block Kit: the blocks of a message and the
views of ``views.open``, with Slack's limits and error messages (``... [json-pointer:/blocks/0/text]``).

``block_errors`` and ``view_errors`` answer with a list of what Slack would say, empty when it would take
what it was given: chat.postMessage / chat.update then answer invalid_blocks, views.open invalid_arguments.
``buttons``, ``typed_state``: what a person can click, and what typing in a view sends; ``opened_view`` and
``stays_open``: a modal as views.open answers it, and whether the ack of its submission keeps it open.
"""
from __future__ import annotations

import time
import uuid
from typing import Any, Callable

# Block Kit limits Slack enforces: chat.postMessage / chat.update answer invalid_blocks past them.
MAX_BLOCKS, MAX_SECTION_TEXT, MAX_FIELD_TEXT, MAX_HEADER_TEXT = 50, 3000, 2000, 150
MAX_BUTTON_TEXT, MAX_BUTTON_VALUE, MAX_ID = 75, 2000, 255
BLOCK_TYPES = {"section", "actions", "context", "divider", "header", "image", "input", "rich_text", "markdown",
               "file", "video", "table"}
# an input block's label and hint, and its plain_text_input (the only input element checked in full)
MAX_LABEL, MAX_PLACEHOLDER, MAX_INPUT_LENGTH = 2000, 150, 3000
INPUT_ELEMENTS = {"plain_text_input", "static_select", "external_select", "users_select", "conversations_select",
                  "channels_select", "multi_static_select", "multi_external_select", "multi_users_select",
                  "multi_conversations_select", "multi_channels_select", "checkboxes", "radio_buttons",
                  "datepicker", "timepicker", "datetimepicker", "email_text_input", "url_text_input",
                  "number_input", "rich_text_input", "file_input"}
# a modal (views.open answers invalid_arguments past these)
MAX_VIEW_BLOCKS, MAX_VIEW_TITLE, MAX_PRIVATE_METADATA = 100, 24, 3000


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


def _kind_errors(obj: dict, at: str, **kinds: type | tuple[type, ...]) -> list[str]:
    """Fields of ``obj`` that, when given, must be of a JSON type (``bool`` is no integer, as in JSON)."""
    names = {bool: "a boolean", int: "an integer", str: "a string"}
    return [f"must be {names[kind]} [json-pointer:{at}/{key}]" for key, kind in kinds.items() if key in obj
            and (not isinstance(obj[key], kind) or (kind is int and isinstance(obj[key], bool)))]


def _input_errors(block: dict, at: str) -> list[str]:
    """An input block: a plain_text label, one element (a plain_text_input is checked in full), maybe a hint."""
    errors = _text_errors(block.get("label"), MAX_LABEL, f"{at}/label", plain_only=True)
    if "hint" in block:
        errors += _text_errors(block["hint"], MAX_LABEL, f"{at}/hint", plain_only=True)
    errors += _kind_errors(block, at, optional=bool, dispatch_action=bool)
    element, at = block.get("element"), f"{at}/element"
    if not isinstance(element, dict) or not isinstance(element.get("type"), str):
        return [*errors, f"missing required field: type [json-pointer:{at}]"]
    if element["type"] not in INPUT_ELEMENTS:
        return [*errors, f"unsupported type: {element['type']} [json-pointer:{at}/type]"]
    errors += _id_errors(element.get("action_id"), f"{at}/action_id", set())
    if element["type"] == "plain_text_input":
        errors += _kind_errors(element, at, multiline=bool, max_length=int, min_length=int, initial_value=str,
                               focus_on_load=bool)
        for key, least in (("max_length", 1), ("min_length", 0)):
            if isinstance(element.get(key), int) and not least <= element[key] <= MAX_INPUT_LENGTH:
                errors.append(f"must be between {least} and {MAX_INPUT_LENGTH} [json-pointer:{at}/{key}]")
        if "placeholder" in element:
            errors += _text_errors(element["placeholder"], MAX_PLACEHOLDER, f"{at}/placeholder", plain_only=True)
    return errors


def block_errors(blocks: Any, *, at: str = "/blocks", most: int = MAX_BLOCKS) -> list[str]:
    """Why Slack would refuse ``blocks`` (an empty list when it would take them); the messages mimic Slack's.
    ``at``: where they are (``/view/blocks`` in a view); ``most``: how many there may be (100 in a modal)."""
    if not isinstance(blocks, list):
        return [f"must be an array [json-pointer:{at}]"]
    errors = [f"no more than {most} items allowed [json-pointer:{at}]"] if len(blocks) > most else []
    block_ids: set[str] = set()
    for i, block in enumerate(blocks):
        here = f"{at}/{i}"
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            errors.append(f"missing required field: type [json-pointer:{here}]")
            continue
        kind = block["type"]
        if kind not in BLOCK_TYPES:
            errors.append(f"unsupported type: {kind} [json-pointer:{here}/type]")
        errors += _id_errors(block.get("block_id"), f"{here}/block_id", block_ids)
        if kind == "section":
            if "text" not in block and "fields" not in block:
                errors.append(f"must provide text or fields [json-pointer:{here}]")
            if "text" in block:
                errors += _text_errors(block["text"], MAX_SECTION_TEXT, f"{here}/text")
            errors += _items_errors(block, "fields", here, 10, lambda f, a: _text_errors(f, MAX_FIELD_TEXT, a),
                                    optional=True)
        elif kind == "header":
            errors += _text_errors(block.get("text"), MAX_HEADER_TEXT, f"{here}/text", plain_only=True)
        elif kind == "context":
            errors += _items_errors(block, "elements", here, 10, lambda e, a: [] if isinstance(e, dict) and e.get(
                "type") == "image" else _text_errors(e, MAX_SECTION_TEXT, a))
        elif kind == "actions":
            action_ids: set[str] = set()
            errors += _items_errors(block, "elements", here, 25, lambda e, a: _element_errors(e, a, action_ids))
        elif kind == "input":
            errors += _input_errors(block, here)
    return errors


def view_errors(view: Any) -> list[str]:
    """Why views.open would refuse ``view`` (a modal): its title, buttons, ids, metadata and blocks."""
    if not isinstance(view, dict):
        return ["must be an object [json-pointer:/view]"]
    if view.get("type") != "modal":
        return ["must be one of modal [json-pointer:/view/type]"]  # (views.publish takes "home"; not faked)
    errors = _text_errors(view.get("title"), MAX_VIEW_TITLE, "/view/title", plain_only=True)
    blocks = view.get("blocks")
    for key in ("submit", "close"):
        if key in view:
            errors += _text_errors(view[key], MAX_VIEW_TITLE, f"/view/{key}", plain_only=True)
    if "submit" not in view and isinstance(blocks, list) and any(
            isinstance(b, dict) and b.get("type") == "input" for b in blocks):
        errors.append("must provide submit when the view has input blocks [json-pointer:/view/submit]")
    errors += _kind_errors(view, "/view", callback_id=str, private_metadata=str, external_id=str,
                           clear_on_close=bool, notify_on_close=bool)
    for key, most in (("callback_id", MAX_ID), ("external_id", MAX_ID), ("private_metadata", MAX_PRIVATE_METADATA)):
        if isinstance(view.get(key), str) and len(view[key]) > most:
            errors.append(f"must be less than {most + 1} characters [json-pointer:/view/{key}]")
    return errors + block_errors(blocks, at="/view/blocks", most=MAX_VIEW_BLOCKS)


def buttons(blocks: Any) -> list[tuple[str, dict]]:
    """``(block_id, button)`` for every button of the actions blocks of ``blocks``, in order."""
    return [(block.get("block_id") or "b1", element) for block in (blocks if isinstance(blocks, list) else [])
            if isinstance(block, dict) and block.get("type") == "actions" for element in block.get("elements") or []
            if isinstance(element, dict) and element.get("type") == "button"]


def with_ids(blocks: list[dict]) -> list[dict]:
    """``blocks`` as a view shows them once opened: Slack gives each block a block_id, each input an action_id."""
    shown = [{**block, "block_id": block.get("block_id") or uuid.uuid4().hex[:5]} for block in blocks]
    for block in shown:
        if block["type"] == "input" and not block["element"].get("action_id"):
            block["element"] = {**block["element"], "action_id": uuid.uuid4().hex[:5]}
    return shown


def typed_state(blocks: list[dict], values: dict[str, str], *, force: bool = False) -> dict[str, dict]:
    """``state.values`` of a view whose plain_text_inputs were typed in (action_id -> text; one not typed in
    holds its initial_value, else None): ``{block_id: {action_id: {"type", "value"}}}``. AssertionError on
    what Slack's client would not submit (unless ``force``): a required input left empty, a text past
    max_length or short of min_length, a line break in a single-line input. Other inputs are left out."""
    inputs = [(b, b["element"]) for b in blocks if b.get("type") == "input"
              and b["element"].get("type") == "plain_text_input"]
    if unknown := set(values) - {element["action_id"] for _, element in inputs}:
        raise AssertionError(f"no plain_text_input has the action_id {sorted(unknown)}")
    state: dict[str, dict] = {}
    for block, element in inputs:
        text = values.get(element["action_id"], element.get("initial_value")) or None
        problem = ("is required" if text is None and not block.get("optional") else
                   "is past its max_length" if text and len(text) > element.get("max_length", MAX_INPUT_LENGTH)
                   else "is short of its min_length" if text and len(text) < element.get("min_length", 0)
                   else "holds a line break" if text and "\n" in text and not element.get("multiline") else "")
        if problem and not force:
            raise AssertionError(f"Slack would not submit the view: input {block['block_id']} {problem}")
        state.setdefault(block["block_id"], {})[element["action_id"]] = {"type": "plain_text_input", "value": text}
    return state


def opened_view(view: dict, view_id: str, *, team_id: str, app_id: str, bot_id: str) -> dict:
    """A valid modal ``view`` as views.open answers it once opened (with ids, see ``with_ids``)."""
    return {"id": view_id, "team_id": team_id, "type": "modal", "title": view["title"],
            "submit": view.get("submit"), "close": view.get("close"), "blocks": with_ids(view["blocks"]),
            "private_metadata": view.get("private_metadata", ""), "callback_id": view.get("callback_id", ""),
            "external_id": view.get("external_id", ""), "state": {"values": {}},
            "hash": f"{int(time.time())}.{uuid.uuid4().hex[:8]}", "clear_on_close": bool(view.get("clear_on_close")),
            "notify_on_close": bool(view.get("notify_on_close")), "previous_view_id": None, "root_view_id": view_id,
            "app_id": app_id, "app_installed_team_id": team_id, "bot_id": bot_id}


def stays_open(response: Any, blocks: list[dict]) -> bool:
    """Whether a modal stays open after the ack of its view_submission carried ``response`` (its payload):
    after ``{"response_action": "errors", "errors": {block_id: text}}`` it does, showing them (a key naming
    no input block fails: Slack would show its generic error instead); after "update" or "push" too (their
    views are not applied here); after anything else it closes."""
    action = response.get("response_action") if isinstance(response, dict) else None
    inputs = {block["block_id"] for block in blocks if block["type"] == "input"}
    if action == "errors" and not (isinstance(response.get("errors"), dict) and response["errors"]
                                   and set(response["errors"]) <= inputs):
        raise AssertionError(f"the ack's errors {response.get('errors')!r} are not keyed by input block_ids "
                             f"{sorted(inputs)}: Slack would show its generic error, not them")
    return action in ("errors", "update", "push")
