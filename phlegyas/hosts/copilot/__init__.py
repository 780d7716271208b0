"""GitHub Copilot CLI: where phlegyas's preToolUse hook is wired (the dialect is ``phlegyas.hosts.hook.dialects.copilot``)."""
