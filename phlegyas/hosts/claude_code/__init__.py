"""Claude Code: the hook client, the resident decision server, the event decision and ``install``.

Nothing is imported here: the hook client (``hook``) is started for every tool call and must stay lean.
"""
