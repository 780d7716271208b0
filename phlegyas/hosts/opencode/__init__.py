"""OpenCode: the JavaScript plugin that runs the phlegyas hook for every tool call, and ``install``."""
