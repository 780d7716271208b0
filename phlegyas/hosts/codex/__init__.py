"""Codex (OpenAI's coding agent): its hooks.json wiring; the hook dialect is phlegyas.hosts.hook.dialects.codex."""
