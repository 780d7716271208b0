"""Gemini CLI (``@google/gemini-cli``): where ``phlegyas install --agent gemini`` wires the BeforeTool hook."""
