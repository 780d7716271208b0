"""Each agent host's hook dialect: how its events map to a ``ToolCall`` and how a decision is answered.

One module per host (``claude``, ``codex``, ``gemini``, ``copilot``, ``cursor``); they share only ``base``
and do not import each other. ``registry`` lists them and recognises a host from an event's shape.
"""
