"""The vocabulary of the gate: ToolCall, Verdict, Decision, Finding.

Plain dataclasses with no I/O. Adapters (hook, MCP server, CLI) translate a Verdict into their own
protocol at the edge; everything inside speaks these types.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

MODES = ("default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions")
MODE_ALIASES = {"manual": "default"}
"""Other names of a mode: Claude Code 2.1.332 calls ``default`` ``manual`` (and accepts both)."""


def canonical_mode(mode: str) -> str:
    """``mode`` under its name in MODES (an alias replaced; anything else unchanged, for the caller to check)."""
    return MODE_ALIASES.get(mode, mode)

TIERS = (
    "rules",
    "tier1_dangerous",
    "protected_path",
    "mode",
    "tier2_safe",
    "tier2_5_trusted",
    "tier3_ai",
    "human",
    "fallback",
    "error",
)


class Verdict(enum.IntEnum):
    """allow < ask < deny: the strictest verdict of a compound call wins (``max``)."""

    ALLOW = 0
    ASK = 1
    DENY = 2

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Verdict":
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"expected allow, ask or deny, got {text!r}") from None


class InvalidCall(ValueError):
    """The call is malformed: the gate denies it and says why."""


@dataclass(frozen=True)
class ToolCall:
    """One tool call an agent wants to make."""

    tool_name: str
    tool_input: dict[str, Any]
    cwd: str | None = None
    mode: str | None = None
    session_id: str | None = None
    agent_id: str | None = None
    workflow_id: str | None = None
    transcript_path: str | None = None
    tool_use_id: str | None = None

    @classmethod
    def from_json(cls, data: object, *, input_key: str = "tool_input") -> "ToolCall":
        """Build a call from a JSON object (a hook event, a --jsonl line, MCP arguments).

        ``{"command": "…"}`` alone is shorthand for a Bash call. Raises InvalidCall with a clear message.
        """
        if not isinstance(data, dict):
            raise InvalidCall(f"expected a JSON object, got {type(data).__name__}")
        if "tool_name" not in data and "command" in data:
            data = {**data, "tool_name": "Bash", input_key: {"command": data["command"]}}
        name = data.get("tool_name")
        if not isinstance(name, str) or not name.strip():
            raise InvalidCall("'tool_name' must be a non-empty string")
        tool_input = data.get(input_key, {})
        if not isinstance(tool_input, dict):
            raise InvalidCall(f"'{input_key}' must be an object, got {type(tool_input).__name__}")
        fields = {}
        for key, attr in (("cwd", "cwd"), ("permission_mode", "mode"), ("session_id", "session_id"),
                          ("agent_id", "agent_id"), ("workflow_id", "workflow_id"),
                          ("transcript_path", "transcript_path"), ("tool_use_id", "tool_use_id")):
            value = data.get(key)
            if value is not None and not isinstance(value, str):
                raise InvalidCall(f"'{key}' must be a string, got {type(value).__name__}")
            fields[attr] = canonical_mode(value) if attr == "mode" and value is not None else value
        return cls(tool_name=name, tool_input=tool_input, **fields)

    @property
    def command(self) -> str | None:
        """The shell command of a Bash call, else None."""
        if self.tool_name == "Bash":
            cmd = self.tool_input.get("command")
            return cmd if isinstance(cmd, str) else None
        return None


@dataclass(frozen=True)
class Finding:
    """One thing the analysis noticed in a call.

    ``id`` names the class (``delete.recursive_root``, ``git.force_push`` …); ``severity`` is the verdict
    the class carries by default (the policy may move it); ``subject`` is the subcommand or path it is
    about; ``message`` explains it to a person.
    """

    id: str
    severity: Verdict
    subject: str
    message: str

    def __init__(self, id: str, severity: Verdict, subject: str, message: str):  # noqa: A002
        # Hand-written (dataclass keeps it): one __dict__ store instead of one object.__setattr__ per field,
        # which is what makes a frozen dataclass slow to build. Keep it in step with the fields above.
        object.__setattr__(self, "__dict__", {"id": id, "severity": severity, "subject": subject, "message": message})

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "severity": str(self.severity), "subject": self.subject, "message": self.message}


@dataclass(frozen=True)
class Decision:
    """The gate's answer for one call; the audit log serializes exactly this."""

    verdict: Verdict
    tier: str
    reason: str
    rule: str | None = None
    findings: tuple[Finding, ...] = ()
    confidence: float | None = None
    elapsed_us: int = 0
    details: tuple[str, ...] = field(default=(), compare=False)
    audit: dict[str, Any] | None = field(default=None, compare=False)  # extra fields for the audit line (Tier 3 usage)

    def __init__(self, verdict: Verdict, tier: str, reason: str, rule: str | None = None,
                 findings: tuple[Finding, ...] = (), confidence: float | None = None, elapsed_us: int = 0,
                 details: tuple[str, ...] = (), audit: dict[str, Any] | None = None):
        # Hand-written for speed, as Finding's (two are built per call). Keep it in step with the fields above.
        object.__setattr__(self, "__dict__", {
            "verdict": verdict, "tier": tier, "reason": reason, "rule": rule, "findings": findings,
            "confidence": confidence, "elapsed_us": elapsed_us, "details": details, "audit": audit})

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"decision": str(self.verdict), "tier": self.tier, "reason": self.reason}
        if self.rule is not None:
            out["rule"] = self.rule
        if self.findings:
            out["findings"] = [f.to_json() for f in self.findings]
        if self.confidence is not None:
            out["confidence"] = self.confidence
        out["elapsed_us"] = self.elapsed_us
        return out
