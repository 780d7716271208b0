"""Tier 3: a language model judges the calls that rules and Tiers 1, 2 and 2.5 left open.

The model sees the call, what the analysis found, the project's context and the human's latest
messages (``ai.llm.prompt``), and answers with a structure: ``decision`` (approve | deny | ask_user),
``confidence`` (that the call is safe and aligned with the task, 0..1), ``reasoning``, ``risk``.

Verdict: approve with confidence >= the approval threshold -> allow; deny with confidence <= the
denial threshold -> deny; anything else (a decision that disagrees with its confidence, an answer
that does not parse, a timeout, an HTTP error) -> ask, with the cause in the reason. Then hard
floors: a Tier 1 finding or a protected path (any finding the policy rates ask or deny), or a call
the analysis could not understand, is never allowed, whatever the model said.

Verdicts are cached (``store.cache``) by the call and its context; a hit says "(cached)" and sends
no request. ``Tier3Checker.evaluate`` is a coroutine (the MCP server awaits it); ``check`` is the
synchronous checker the pipeline calls.
"""
from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import dataclass
from typing import Any, Coroutine

from phlegyas.ai.llm.backends import backend_from_settings
from phlegyas.ai.llm.base import LLMBackend, LLMError, LLMRequest
from phlegyas.ai.llm.pricing import estimate_cost
from phlegyas.ai.llm.prompt import ANSWER_SCHEMA, DECISIONS, PROMPT_VERSION, CallFacts, build_prompt, new_nonce
from phlegyas.ai.llm.transcript import last_user_messages
from phlegyas.core.model import Decision, Verdict
from phlegyas.store.backends import open_cache

TIER = "tier3_ai"
MAX_REASONING_CHARS = 500


@dataclass(frozen=True)
class Tier3Options:
    """How verdicts are drawn and what context the model gets."""

    approval_threshold: float = 0.8
    denial_threshold: float = 0.2
    project_name: str | None = None
    project_type: str | None = None
    current_task: str | None = None
    transcript_messages: int = 3
    deadline_seconds: float = 30.0  # the whole evaluation, retries included


@dataclass(frozen=True)
class Answer:
    """A structured answer that passed validation."""

    decision: str
    confidence: float
    reasoning: str
    risk: str


def parse_answer(raw: object) -> Answer | str:
    """The validated answer, or a string saying what is wrong with it."""
    if not isinstance(raw, dict):
        return "the answer is not an object"
    decision, confidence = raw.get("decision"), raw.get("confidence")
    if decision not in DECISIONS:
        return f"decision must be one of {', '.join(DECISIONS)}, got {_show(decision)}"
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        return f"confidence must be a number, got {_show(confidence)}"
    if not math.isfinite(confidence) or not 0.0 <= confidence <= 1.0:
        return f"confidence must be between 0 and 1, got {_show(confidence)}"
    reasoning, risk = raw.get("reasoning"), raw.get("risk")
    if not isinstance(reasoning, str) or not isinstance(risk, str):
        return "reasoning and risk must be strings"
    return Answer(decision, float(confidence), " ".join(reasoning.split())[:MAX_REASONING_CHARS],
                  " ".join(risk.split())[:40])


def map_verdict(answer: Answer, approval_threshold: float, denial_threshold: float) -> tuple[Verdict, str | None]:
    """The verdict for a valid answer, and why it is ask when the model did not simply ask."""
    c = answer.confidence
    if answer.decision == "approve":
        if c >= approval_threshold:
            return Verdict.ALLOW, None
        return Verdict.ASK, f"approve with confidence {c:g} < {approval_threshold:g} is not enough to allow"
    if answer.decision == "deny":
        if c <= denial_threshold:
            return Verdict.DENY, None
        return Verdict.ASK, f"deny with confidence {c:g} > {denial_threshold:g} disagrees with itself"
    return Verdict.ASK, None


def hard_floor(verdict: Verdict, ctx) -> tuple[Verdict, str | None]:
    """Raise ``verdict`` to what the analysis demands: a finding the policy rates ask or deny (Tier 1,
    protected paths) sets the minimum, and a call not fully understood is never allowed."""
    analysis = ctx.analysis
    override = getattr(ctx.policy, "severity", None)
    worst, why = Verdict.ALLOW, None
    for finding in analysis.findings:
        level = override(finding) if override is not None else finding.severity
        if level > worst:
            worst, why = level, f"{finding.message} [{finding.id}]"
    if worst > verdict:
        return worst, f"raised to {worst}: {why}"
    if verdict is Verdict.ALLOW and not analysis.understood:
        return Verdict.ASK, "raised to ask: the analysis could not fully understand the call"
    return verdict, None


def call_facts(ctx, options: Tier3Options) -> CallFacts:
    """What the model is shown about the call in ``ctx`` (an engine.Context)."""
    analysis, call = ctx.analysis, ctx.call
    findings = tuple(f"{f.id} ({f.severity}): {f.message}" for f in analysis.findings)
    effects = tuple(f"{sub.text}: {effect}" for sub in analysis.subcommands for effect in sub.effects)
    messages = tuple(last_user_messages(call.transcript_path, limit=options.transcript_messages))
    return CallFacts(tool_name=call.tool_name, tool_input=call.tool_input, cwd=call.cwd or ctx.env.cwd,
                     mode=ctx.mode, findings=findings, effects=effects, understood=analysis.understood,
                     project_name=options.project_name, project_type=options.project_type,
                     current_task=options.current_task, user_messages=messages)


def cache_key(facts: CallFacts, *, model: str, options: Tier3Options) -> str:
    """A hash of the normalized call (tool, canonical JSON input, cwd, mode, what the analysis saw)
    and its context (project, task, model, thresholds, prompt version). The human's messages are not
    part of it: a verdict holds for the same call in the same project until the TTL ends."""
    payload = {
        "prompt": PROMPT_VERSION, "tool": facts.tool_name, "input": facts.tool_input, "cwd": facts.cwd,
        "mode": facts.mode, "findings": facts.findings, "effects": facts.effects, "understood": facts.understood,
        "project": [facts.project_name, facts.project_type, facts.current_task], "model": model,
        "thresholds": [options.approval_threshold, options.denial_threshold],
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class Tier3Checker:
    """The pipeline step: ``check(ctx)`` (sync) or ``await evaluate(ctx)``; always a Decision."""

    tier = TIER  # adapters that skip slow tiers (the PreToolUse hook) recognise it by this

    def __init__(self, backend: LLMBackend, *, options: Tier3Options | None = None, cache=None):
        self.backend = backend
        self.options = options or Tier3Options()
        self.cache = cache  # store.cache.VerdictCache or anything with get/put

    def check(self, ctx) -> Decision:
        return run_sync(self.evaluate(ctx))

    async def evaluate(self, ctx) -> Decision:
        started = time.perf_counter()
        facts = call_facts(ctx, self.options)
        key = cache_key(facts, model=self.backend.model, options=self.options)
        hit = self.cache.get(key) if self.cache is not None else None
        unavailable = getattr(self.cache, "unavailable", None)
        if unavailable:  # the fleet's shared cache is out of reach: fail closed rather than guess
            return Decision(Verdict.DENY, TIER, f"Tier 3's shared verdict cache is out of reach ({unavailable}); "
                            "denied until the database is back", audit={"tier3": _usage(
                                self.backend.model, None, None, started)})
        answer = parse_answer(hit.get("answer")) if hit else None
        if isinstance(answer, Answer):
            usage = _usage(hit.get("model") or self.backend.model, None, None, started, cached=True)
            return self._decide(ctx, answer, usage, cached=True)
        return await self._ask_model(ctx, facts, key, started)

    async def _ask_model(self, ctx, facts: CallFacts, key: str, started: float) -> Decision:
        import asyncio  # lean start-up: ~50 ms, only when the model is asked

        system, user = build_prompt(facts, new_nonce())
        request = LLMRequest(system=system, user=user, schema=ANSWER_SCHEMA)
        model = self.backend.model
        try:
            reply = await asyncio.wait_for(self.backend.complete(request), self.options.deadline_seconds)
        except LLMError as exc:
            return _failure(str(exc), _usage(model, None, None, started))
        except asyncio.TimeoutError:
            return _failure(f"no answer within {self.options.deadline_seconds:g} s",
                            _usage(model, None, None, started))
        except Exception as exc:  # noqa: BLE001 - a broken backend asks, it never crashes the gate
            return _failure(f"internal error: {type(exc).__name__}: {exc}", _usage(model, None, None, started))
        usage = _usage(reply.model or model, reply.input_tokens, reply.output_tokens, started)
        if reply.answer is None:
            return _failure(reply.problem or "malformed answer: none given", usage)
        answer = parse_answer(reply.answer)
        if not isinstance(answer, Answer):
            return _failure(f"malformed answer: {answer}", usage)
        if self.cache is not None:
            self.cache.put(key, {"answer": reply.answer, "model": reply.model or model})
        return self._decide(ctx, answer, usage, cached=False)

    def _decide(self, ctx, answer: Answer, usage: dict, *, cached: bool) -> Decision:
        verdict, note = map_verdict(answer, self.options.approval_threshold, self.options.denial_threshold)
        verdict, floor = hard_floor(verdict, ctx)
        reason = f"AI ({answer.decision}, confidence {answer.confidence:g}, risk {answer.risk}): {answer.reasoning}"
        for extra in (note, floor):
            if extra:
                reason += f"; {extra}"
        if cached:
            reason += " (cached)"
        return Decision(verdict, TIER, reason, confidence=answer.confidence, audit={"tier3": usage})


def tier3_checker(settings) -> Tier3Checker | None:
    """The Tier 3 checker the settings ask for, or None when Tier 3 is off (no key or model)."""
    backend = backend_from_settings(settings)
    if backend is None:
        return None
    options = Tier3Options(
        approval_threshold=settings.approval_confidence_threshold,
        denial_threshold=settings.denial_confidence_threshold,
        project_name=settings.project_name, project_type=settings.project_type,
        current_task=settings.current_task,
        deadline_seconds=2 * settings.llm_timeout_seconds + 5,
    )
    return Tier3Checker(backend, options=options, cache=open_cache(settings))


def run_sync(coro: Coroutine[Any, Any, Decision]) -> Decision:
    """Run ``coro`` to completion from synchronous code: ``asyncio.run`` when no event loop runs in
    this thread, else in a worker thread with its own loop (the caller's loop is blocked meanwhile:
    an async caller should ``await evaluate()`` instead)."""
    import asyncio  # lean start-up: ~50 ms, only when the model is asked
    from concurrent.futures import ThreadPoolExecutor  # with asyncio, only when the model is asked

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="phlegyas-tier3") as pool:
        return pool.submit(asyncio.run, coro).result()


def _failure(cause: str, usage: dict) -> Decision:
    usage["error"] = cause
    return Decision(Verdict.ASK, TIER, f"Tier 3 (AI) could not decide: {cause}; a person must decide",
                    audit={"tier3": usage})


def _usage(model: str, input_tokens: int | None, output_tokens: int | None, started: float, *,
           cached: bool = False) -> dict[str, Any]:
    cost = 0.0 if cached else estimate_cost(model, input_tokens, output_tokens)
    return {"cached": cached, "cost_usd": cost, "input_tokens": 0 if cached else input_tokens,
            "output_tokens": 0 if cached else output_tokens, "model": model,
            "latency_ms": round((time.perf_counter() - started) * 1000, 1)}


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"
