"""The MCP permission server: phlegyas as Claude Code's ``--permission-prompt-tool`` and as an
approvals API for orchestrators, over stdio.

Start it with ``phlegyas mcp``, ``python -m phlegyas.hosts.mcp.server``, or the seed's forms
``python -m phlegyas.approver_mcp`` and ``python path/to/phlegyas/approver_mcp.py`` (a thin shim).
Decisions are made for the server's working directory (Claude Code starts it in the project).

Tools (PROTOCOLS.md §3):

- ``permissions__approve(tool_name, input, tool_use_id?)``: one text block holding
  ``{"behavior": "allow", "updatedInput": …}`` or ``{"behavior": "deny", "message": …}``. An ask
  waits for a human up to ``APPROVAL_WAIT_SECONDS`` (the wait runs in a worker thread), else is denied.
- ``validate_operation(tool_name, input, workflow_id?, agent_id?)``: ``approved`` | ``denied`` |
  ``pending`` (a request parked in the shared store, returned at once).
- ``submit_approval``, ``poll_approval``, ``get_pending_approvals``, ``get_approval_stats``.

Stdout carries the protocol only: logs go to stderr. Bad arguments come back as tool errors with a
message (``is_error``), never a traceback.
"""
# No ``from __future__ import annotations`` here: the SDK reads the tools' annotations, which are
# built inside build_server (so importing this module does not import pydantic).
import argparse
import json
import logging
import os
import sys
import threading
import time
from dataclasses import replace
from typing import Annotated, Any, Callable, Mapping, Sequence

from phlegyas.core.engine import Gate
from phlegyas.core.model import Decision, InvalidCall, ToolCall, Verdict
from phlegyas.human.queue import ask_human, cannot_ask, details_for, no_human, resolution_entry, summary
from phlegyas.human.slack_link import SlackConfigError
from phlegyas.policy.settings import ConfigError, Settings
from phlegyas.runtime import load_runtime
from phlegyas.store.approvals import ApprovalError, ApprovalStore, PendingRequest
from phlegyas.store.audit import AuditError, AuditLog, compute_stats, empty_stats
from phlegyas.store.backends import audit_shipper, open_store

SERVER_NAME = "phlegyas"
SLACK_RETRY_SECONDS = 30.0
DECISION_WORDS = {"approve": True, "deny": False}
DEFAULT_MCP_APPROVER = "mcp-client"
_log = logging.getLogger("phlegyas.mcp")


class ArgumentError(ValueError):
    """A tool was called with arguments it cannot use; the message says what was expected."""


class ShuttingDown(Exception):
    """The server is stopping: a thread waiting for a human gives up."""


# --- the service: what each tool does, without MCP ------------------------------------------------

class ApprovalService:
    """The tools' logic over a runtime, an approvals store and an audit sink (all injected).

    ``permission`` may block while a human decides: callers run it in a worker thread. ``stop()``
    wakes every such thread so the process can exit.
    """

    def __init__(self, runtime, store_factory: Callable[[Callable[[float], None]], ApprovalStore], *,
                 audit=None, cwd: str):
        self.runtime = runtime
        self.cwd = cwd
        self.audit = audit
        self._stopping = threading.Event()
        self.store = store_factory(self._sleep)
        self._gates: dict[str, Any] = {}
        self.slack: Any = None  # human.slack.SlackApprovals once started (start_slack)
        self.shipper: Any = None  # store.pg_audit.Shipper with a shared database
        self._slack_retry_at = 0.0
        self._slack_lock = threading.Lock()

    @classmethod
    def from_environment(cls, environ: Mapping[str, str], cwd: str) -> "ApprovalService":
        """Settings from ``environ`` (raises config.ConfigError), the SQLite store and the audit log."""

        human_path = Settings.load(environ, cwd=cwd).person_wait_seconds > 0  # headless otherwise
        runtime = load_runtime(environ, cwd, interactive=human_path)
        settings = runtime.settings_for(cwd)  # the user policy's [settings] may name the database
        audit = AuditLog(settings.audit_log_file) if settings.enable_audit_log else None
        service = cls(runtime, lambda sleep: open_store(settings, pooled=True, sleep=sleep), audit=audit, cwd=cwd)
        service.shipper = audit_shipper(settings)  # the shared database gets this machine's audit rows
        return service

    def stop(self) -> None:
        self._stopping.set()
        if self.slack is not None:
            self.slack.close()
        if self.shipper is not None:
            self.shipper.close()

    # -- Slack -------------------------------------------------------------------------------------

    def start_slack(self) -> None:
        """Ask people in Slack too, when it is configured: identify, listen, and keep the messages current
        (also those posted before a restart). Raises SlackConfigError (naming the variable); Slack out of
        reach is logged and tried again when a request is next posted."""
        settings = self.runtime.settings_for(self.cwd)  # the user policy's [slack] counts
        if not settings.slack_configured:
            return
        from phlegyas.human.slack import SlackError, start_slack  # slack_sdk, only when configured

        try:
            self.slack = start_slack(settings, self.store, audit=self.audit, watch=True)
        except SlackConfigError:
            raise
        except SlackError as exc:
            self._slack_retry_at = time.monotonic() + SLACK_RETRY_SECONDS
            _log.warning("phlegyas MCP server: Slack is out of reach (%s); requests stay parked for the CLI "
                         "and the MCP tools, and Slack is tried again", exc)
            return
        channel = self.slack.identity
        _log.info("phlegyas MCP server: Slack approvals on (team %s, channel %s)", channel.team_id, channel.channel_id)

    def _channels(self) -> tuple[list[Any], list[str]]:
        """The channels a request is shown on now (Slack, once started), and why Slack is missing."""
        if self.slack is None and not self.runtime.settings_for(self.cwd).slack_configured:
            return [], []
        with self._slack_lock:
            if self.slack is None and time.monotonic() >= self._slack_retry_at:
                try:
                    self.start_slack()
                except Exception as exc:  # noqa: BLE001 - SlackConfigError after a token was revoked …
                    self._slack_retry_at = time.monotonic() + SLACK_RETRY_SECONDS
                    return [], [f"Slack failed: {exc}"]
        if self.slack is None:
            return [], ["Slack failed: Slack is out of reach (tried again shortly)"]
        return [self.slack], []

    def _sleep(self, seconds: float) -> None:
        if self._stopping.wait(seconds):
            raise ShuttingDown("the server is stopping")

    # -- decisions -------------------------------------------------------------------------------

    def permission(self, call: ToolCall) -> dict[str, Any]:
        """The permission-prompt answer for ``call``: allow with the input echoed, or deny with why."""
        decision, mode, ctx = self._decide(call)
        if decision.verdict is Verdict.ASK:
            decision = self._ask_human(call, decision, ctx)
        self._record(call, decision, mode, {"tool": "permissions__approve"})
        if decision.verdict is Verdict.ALLOW:
            return {"behavior": "allow", "updatedInput": call.tool_input}
        return {"behavior": "deny", "message": f"phlegyas ({decision.tier}): {decision.reason}"}

    def validate(self, call: ToolCall, timeout_seconds: object = None) -> dict[str, Any]:
        """``approved`` / ``denied`` now, or ``pending`` with a parked request for a human to resolve,
        posted to Slack when it is on (fire-and-forget: the answer is read with ``poll``). The request
        lives ``timeout_seconds`` (default SLACK_APPROVAL_TIMEOUT_SECONDS with Slack, else
        PENDING_TTL_SECONDS)."""
        ttl = _timeout(timeout_seconds)
        decision, mode, ctx = self._decide(call)
        status = {Verdict.ALLOW: "approved", Verdict.DENY: "denied", Verdict.ASK: "pending"}[decision.verdict]
        out: dict[str, Any] = {"status": status, "tier": decision.tier, "reason": decision.reason}
        if decision.verdict is Verdict.ASK:
            settings = self._settings(call)
            default = settings.slack_approval_timeout_seconds if settings.slack_configured else settings.pending_ttl_seconds
            request = self.store.create(call, decision, workflow_id=call.workflow_id, agent_id=call.agent_id,
                                        ttl=ttl or default)
            out.update(request_id=request.id, expires_at=request.to_json()["expires_at"])
            channels, problems = self._channels()
            for channel in channels:
                problem = channel.announce(request, details_for(decision, ctx._analysis if ctx else None))
                if problem:
                    problems.append(problem)
            if settings.slack_configured:
                out["slack"] = "; ".join(problems) if problems else "posted"
            if problems:
                out["reason"] = f"{decision.reason}; {'; '.join(problems)}"
        self._record(call, decision, mode, {"tool": "validate_operation", "status": status,
                                            "request_id": out.get("request_id")})
        return out

    def _decide(self, call: ToolCall) -> tuple[Decision, str, Any]:
        """The gate's decision, the mode it was made in and its context (None when the call was not
        analysed); a gate that cannot be built denies."""
        try:
            gate = self._gate(call.cwd or self.cwd)
        except Exception as exc:  # noqa: BLE001 - fail closed, naming the error
            _log.exception("cannot build the gate")
            why = f"internal error: cannot build the gate: {type(exc).__name__}: {exc}"
            return Decision(Verdict.DENY, "error", why), call.mode or "default", None
        decision, ctx = gate.explain(call)
        return decision, gate.mode_for(call), ctx

    def _gate(self, cwd: str):
        """The runtime's gate for ``cwd`` minus its human step, and interactive: an ask comes back here
        as an ask, and this adapter turns it into a wait (permissions__approve) or a request
        (validate_operation) without blocking the pipeline."""
        gate = self._gates.get(cwd)
        if gate is None:
            base = self.runtime.gate(cwd)
            gate = self._gates[cwd] = Gate(base.policy, base.checkers, analyzer=base.analyzer, parser=base.parser,
                                           env=base.env, interactive=True, default_mode=base.default_mode)
        return gate

    def _settings(self, call: ToolCall):
        """The settings for the call's project (its policy's ``[settings]`` over the environment)."""
        return self.runtime.settings_for(call.cwd or self.cwd)

    def _ask_human(self, call: ToolCall, asked: Decision, ctx) -> Decision:
        settings = self._settings(call)
        if settings.person_wait_seconds <= 0:
            return no_human(asked)
        channels, problems = self._channels()
        try:
            decision = ask_human(self.store, call, asked, wait_seconds=settings.person_wait_seconds,
                                 ttl_seconds=settings.pending_ttl_seconds, notify=_announce, channels=channels,
                                 details=details_for(asked, ctx._analysis if ctx is not None else None))
        except ApprovalError as exc:
            return cannot_ask(asked, exc)
        if problems:
            decision = replace(decision, reason=f"{decision.reason}; {'; '.join(problems)}")
        return decision

    # -- approvals ---------------------------------------------------------------------------------

    def submit(self, request_id: str, decision: str, reason: str | None, approver_id: str | None) -> dict[str, Any]:
        if not isinstance(decision, str) or decision.strip().lower() not in DECISION_WORDS:
            raise ArgumentError(f"decision must be 'approve' or 'deny', got {_show(decision)}")
        reason = optional_text(reason, "reason")
        approver_id = optional_text(approver_id, "approver_id")
        approver = approver_id if approver_id is not None and approver_id.strip() else DEFAULT_MCP_APPROVER
        request = self.store.resolve(request_id, DECISION_WORDS[decision.strip().lower()], reason=reason,
                                     approver_id=approver, via="mcp")
        self._record_resolution(request)
        return request.to_json()

    def poll(self, request_id: str) -> dict[str, Any]:
        return self.store.get(request_id).to_json()

    def pending(self, workflow_id: str | None, agent_id: str | None) -> dict[str, Any]:
        requests = self.store.list_pending(workflow_id=optional_text(workflow_id, "workflow_id"),
                                           agent_id=optional_text(agent_id, "agent_id"))
        return {"count": len(requests), "requests": [r.to_json() for r in requests]}

    def stats(self) -> dict[str, Any]:
        """The seed's shape — ``total``, ``approved``, ``denied``, ``by_tier``, ``by_tool`` from the audit
        log — then the rest of ``compute_stats`` and the approvals store's counts under ``store``."""
        out: dict[str, Any] = empty_stats()
        path = getattr(self.audit, "path", None)
        if path and os.path.exists(path):
            try:
                out = compute_stats(path)
            except AuditError as exc:
                out["audit_error"] = str(exc)
        out["store"] = self.store.stats()
        return out

    # -- audit -------------------------------------------------------------------------------------

    def _record(self, call: ToolCall, decision: Decision, mode: str, mcp: dict[str, Any]) -> None:
        extra = {**(decision.audit or {}), "mcp": {k: v for k, v in mcp.items() if v is not None}}
        self._write_audit(call, decision, mode, extra)

    def _record_resolution(self, request: PendingRequest) -> None:
        call, decision = resolution_entry(request, "mcp")
        extra = {**(decision.audit or {}), "mcp": {"tool": "submit_approval"}}
        self._write_audit(call, decision, request.mode or self.runtime.settings.mode, extra)

    def _write_audit(self, call: ToolCall, decision: Decision, mode: str, extra: dict[str, Any]) -> None:
        if self.audit is None:
            return
        try:
            self.audit.record(call, decision, mode=mode, extra=extra)
        except (AuditError, ValueError) as exc:
            _log.warning("audit log not written: %s", exc)
            return
        if self.shipper is not None:
            self.shipper.kick()


def _announce(request: PendingRequest, wait_seconds: float) -> None:
    _log.warning("waiting up to %g s for a human decision on %s: run `phlegyas approve %s` or "
                 "`phlegyas deny %s`", wait_seconds, summary(request), request.id, request.id)


def _timeout(value: object) -> float | None:
    """A ``timeout_seconds`` argument: None, or a number of seconds from 1 to a day."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 1 <= value <= 86400:
        raise ArgumentError(f"'timeout_seconds' must be a number of seconds from 1 to 86400, got {_show(value)}")
    return float(value)


def optional_text(value: object, name: str) -> str | None:
    """``value`` when it is a string or None; ArgumentError naming ``name`` otherwise."""
    if value is None or isinstance(value, str):
        return value
    raise ArgumentError(f"'{name}' must be a string, got {type(value).__name__}")


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def make_call(tool_name: object, tool_input: object, *, tool_use_id: object = None, workflow_id: object = None,
              agent_id: object = None, cwd: str) -> ToolCall:
    """The ToolCall of a tool's arguments; ArgumentError with a clear message when they do not fit."""
    if tool_input is None:
        raise ArgumentError("'input' is required: the tool's input, as an object")
    data = {"tool_name": tool_name, "input": tool_input, "tool_use_id": tool_use_id,
            "workflow_id": workflow_id, "agent_id": agent_id, "cwd": cwd}
    try:
        return ToolCall.from_json(data, input_key="input")
    except InvalidCall as exc:
        raise ArgumentError(str(exc)) from None


# --- the MCP server ---------------------------------------------------------------------------------

INSTRUCTIONS = (
    "phlegyas decides whether an AI agent's tool call may run. Claude Code calls permissions__approve "
    "as its --permission-prompt-tool. Orchestrators call validate_operation, then poll_approval on a "
    "pending request that a person resolves (phlegyas approve ID, or submit_approval).")


def build_server(service: ApprovalService):
    """An ``MCPServer`` whose six tools call ``service``.

    Parameters are typed loosely for validation and precisely in the published JSON schema, so a
    wrong type reaches ``make_call``/``ApprovalService`` and gets their one-line message.
    """
    import anyio.to_thread  # the optional SDK (phlegyas[mcp]) and its dependencies, only to serve
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import WithJsonSchema

    def text(description: str):
        return Annotated[Any, WithJsonSchema({"type": "string", "description": description})]

    def optional_text(description: str):
        schema = {"anyOf": [{"type": "string"}, {"type": "null"}], "description": description}
        return Annotated[Any, WithJsonSchema(schema)]

    ToolName = text("the tool the agent wants to call: Bash, Write, WebFetch, mcp__server__tool …")
    Input = Annotated[Any, WithJsonSchema({"type": "object", "additionalProperties": True,
                                           "description": "the tool's input, as the agent would send it"})]
    RequestId = text("the request id (a UUID) returned by validate_operation")
    WorkflowId = optional_text("the orchestrator's workflow id, to group and filter requests")
    AgentId = optional_text("the agent's id, to group and filter requests")

    from phlegyas import __version__  # here, beside the SDK's imports that build_server makes

    server = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, version=__version__)  # in the initialize answer

    def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (ArgumentError, ApprovalError) as exc:
            raise ToolError(str(exc)) from None

    @server.tool(name="permissions__approve", structured_output=False)
    async def permissions__approve(tool_name: ToolName, input: Input,
                                   tool_use_id: optional_text("Claude Code's tool_use_id") = None) -> str:
        """Decide a Claude Code permission prompt. Returns one text block: JSON
        {"behavior": "allow", "updatedInput": {...}} or {"behavior": "deny", "message": "..."}."""
        call = run(make_call, tool_name, input, tool_use_id=tool_use_id, cwd=service.cwd)
        try:
            result = await anyio.to_thread.run_sync(service.permission, call, abandon_on_cancel=True)
        except Exception as exc:  # noqa: BLE001 - fail closed, with the reason, never a crash
            _log.exception("permissions__approve failed")
            result = {"behavior": "deny", "message": f"phlegyas: internal error: {type(exc).__name__}: {exc}"}
        _log.info("permissions__approve %s -> %s", call.tool_name, result["behavior"])
        return json.dumps(result, ensure_ascii=False)

    Timeout = Annotated[Any, WithJsonSchema({"anyOf": [{"type": "number"}, {"type": "null"}], "description": (
        "how long a pending request waits for a person, in seconds (default SLACK_APPROVAL_TIMEOUT_SECONDS "
        "when Slack approvals are on, else PENDING_TTL_SECONDS)")})]

    @server.tool(name="validate_operation")
    def validate_operation(tool_name: ToolName, input: Input, workflow_id: WorkflowId = None,
                           agent_id: AgentId = None, timeout_seconds: Timeout = None) -> dict[str, Any]:
        """Decide a tool call: status approved or denied, or pending with a request_id a person must
        approve or deny (poll it with poll_approval); a pending request is posted to Slack when Slack
        approvals are on. Also returns the tier, the reason and, when pending, expires_at."""
        call = run(make_call, tool_name, input, workflow_id=workflow_id, agent_id=agent_id, cwd=service.cwd)
        result = run(service.validate, call, timeout_seconds)
        _log.info("validate_operation %s -> %s", call.tool_name, result["status"])
        return result

    @server.tool(name="submit_approval")
    def submit_approval(request_id: RequestId, decision: text('"approve" or "deny"'),
                        reason: optional_text("why (stored with the decision)") = None,
                        approver_id: optional_text("who decides") = None) -> dict[str, Any]:
        """Resolve a pending request: decision is "approve" or "deny". A request is resolved once;
        an expired or already resolved request is an error."""
        return run(service.submit, request_id, decision, reason, approver_id)

    @server.tool(name="poll_approval")
    def poll_approval(request_id: RequestId) -> dict[str, Any]:
        """The current state of a request: status pending, approved, denied or expired, and who
        resolved it, when and why."""
        return run(service.poll, request_id)

    @server.tool(name="get_pending_approvals")
    def get_pending_approvals(workflow_id: WorkflowId = None, agent_id: AgentId = None) -> dict[str, Any]:
        """The requests waiting for a person, oldest first (optionally one workflow's or agent's)."""
        return run(service.pending, workflow_id, agent_id)

    @server.tool(name="get_approval_stats")
    def get_approval_stats() -> dict[str, Any]:
        """Counts of requests by status, and the audit log's decision statistics."""
        return run(service.stats)

    return server


def _log_tier3(settings) -> None:
    """Say at start whether Tier 3 (AI) is on and, when it is off, why (the seed's server says so too)."""
    from phlegyas.ai.llm.base import off_reason  # the AI layer's note, only when the server starts

    note = off_reason(settings)
    if note is not None:
        _log.warning("phlegyas MCP server: %s", note)
    else:
        model = settings.llm_model if settings.llm_provider == "openai" else settings.claude_model
        _log.info("phlegyas MCP server: Tier 3 (AI) is on (%s, model %s)", settings.llm_provider, model)


def serve(environ: Mapping[str, str], cwd: str) -> int:
    """Run the server on stdio until the client closes it. Returns an exit status."""
    try:
        service = ApprovalService.from_environment(environ, cwd)
        server = build_server(service)
        service.start_slack()
    except (ConfigError, SlackConfigError) as exc:
        print(f"phlegyas mcp: configuration error: {exc}", file=sys.stderr)
        return 3
    except ImportError as exc:
        print(f"phlegyas mcp: the MCP server needs the mcp package ({exc}): pip install 'phlegyas[mcp]'",
              file=sys.stderr)
        return 3
    logging.getLogger().setLevel(service.runtime.settings.log_level)
    _log.info("phlegyas MCP server ready (decisions for %s)", cwd)
    _log_tier3(service.runtime.settings)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        service.stop()
    return 0


def configure_logging(level: str = "INFO") -> None:
    """Logs to stderr (stdout is the protocol), before the SDK would install its own handler."""
    logging.basicConfig(stream=sys.stderr, level=level, format="phlegyas-mcp %(levelname)s: %(message)s")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="approver_mcp", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cwd", metavar="DIR", help="decide calls for this project (default: the current dir)")
    args = parser.parse_args(argv)
    configure_logging()
    return serve(os.environ, os.path.abspath(args.cwd or os.getcwd()))


if __name__ == "__main__":
    sys.exit(main())
