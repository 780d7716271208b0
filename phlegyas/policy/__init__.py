"""Policy: settings (environment, ``.env``, ``[settings]``), policy files, and Claude Code's rule syntax.

Imports ``phlegyas.core`` and ``phlegyas.analysis`` (a Bash rule is matched against the parsed command).
"""
