"""Cursor: where phlegyas's hooks are wired (the dialect is ``phlegyas.hosts.hook.dialects.cursor``)."""
