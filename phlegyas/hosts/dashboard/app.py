"""The dashboard's web app: Starlette routes over ``DashboardService``, Jinja2 pages (autoescaped), one
stylesheet and one script of our own under ``/static/``, behind ``security.Guard``.

Pages: ``/pending`` (live: the script follows ``/events``, server-sent events, and rebuilds the list with
DOM text nodes, never HTML from data), ``/history`` (filters, full-text search, keyset paging, one
decision per ``/history/{id}``), ``/stats`` (SVG charts drawn here), ``/trust`` (verify, revoke),
``/policy`` (read-only). State changes are POSTs with the session's CSRF token.
"""
from __future__ import annotations

import asyncio
import json
import os
from datetime import datetime, timezone
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from phlegyas.hosts.dashboard import charts
from phlegyas.hosts.dashboard.security import Guard
from phlegyas.hosts.dashboard.service import DashboardService
from phlegyas.store.approvals import ApprovalError, parse_request_id

EVENT_POLL_SECONDS = 0.5
HEARTBEAT_SECONDS = 15.0
PAGE_SIZE = 50
HERE = os.path.dirname(os.path.abspath(__file__))


def _when(epoch: float | None) -> str:
    if epoch is None:
        return "-"
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _templates() -> Environment:
    env = Environment(loader=PackageLoader("phlegyas.hosts.dashboard", "templates"),
                      autoescape=select_autoescape(["html"], default=True))
    env.filters["when"] = _when
    env.filters["pretty"] = lambda value: json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)
    return env


def build_app(service: DashboardService, *, token: str, hosts) -> Guard:
    """The ASGI app: the routes, behind the guard that holds ``token`` and accepts ``hosts``."""
    templates = _templates()

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = templates.get_template(name).render(csrf=request.scope.get("state", {}).get("csrf", ""),
                                                   current=request.url.path, status=status, **context)
        return HTMLResponse(html, status_code=status)

    async def home(request: Request) -> Response:
        return RedirectResponse("/pending", status_code=303)

    async def favicon(request: Request) -> Response:
        return RedirectResponse("/static/favicon.svg", status_code=301)

    async def pending(request: Request) -> Response:
        return page(request, "pending.html", data=await asyncio.to_thread(service.pending))

    async def pending_json(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(service.pending))

    async def events(request: Request) -> Response:
        async def stream():
            last, quiet = None, 0.0
            while not await request.is_disconnected():
                data = await asyncio.to_thread(service.pending)
                text = json.dumps(data, ensure_ascii=False, sort_keys=True)
                fingerprint = json.dumps([data["answered"], [{k: v for k, v in r.items() if k != "expires_in"}
                                                             for r in data["requests"]]], sort_keys=True)
                if fingerprint != last:
                    last, quiet = fingerprint, 0.0
                    yield f"event: pending\ndata: {text}\n\n"
                elif quiet >= HEARTBEAT_SECONDS:
                    quiet = 0.0
                    yield ": keep-alive\n\n"
                await asyncio.sleep(EVENT_POLL_SECONDS)
                quiet += EVENT_POLL_SECONDS

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"cache-control": "no-store", "x-accel-buffering": "no"})

    async def decide(request: Request) -> Response:
        if request.path_params["verdict"] not in ("approve", "deny"):
            return page(request, "error.html", message="no such action", status=404)
        approve = request.path_params["verdict"] == "approve"
        form = await request.form()
        reason = str(form.get("reason") or "").strip()[:1000]
        wants_json = "application/json" in request.headers.get("accept", "")
        try:
            rid = parse_request_id(request.path_params["request_id"])
            resolved = await asyncio.to_thread(service.resolve, rid, approve, reason)
        except ApprovalError as exc:
            if wants_json:
                return JSONResponse({"error": str(exc)}, status_code=409)
            return page(request, "error.html", message=str(exc), status=409)
        if wants_json:
            return JSONResponse(resolved.to_json())
        return RedirectResponse("/pending", status_code=303)

    async def history(request: Request) -> Response:
        q = request.query_params
        filters = {k: (q.get(k) or None) for k in ("text", "decision", "tier", "tool", "session", "agent", "machine")}
        since, until = _epoch(q.get("since")), _epoch(q.get("until"))
        before = _int(q.get("before"))

        def load():
            service.refresh_index()
            found = service.index.search(**filters, since=since, until=until, limit=PAGE_SIZE, before=before)
            return found, service.index.facets()

        found, facets = await asyncio.to_thread(load)
        shown = {k: v or "" for k, v in filters.items()}
        shown.update(since=q.get("since") or "", until=q.get("until") or "")
        nxt = None
        if found.next_before is not None:
            nxt = "?" + "&".join(f"{k}={_quote(v)}" for k, v in shown.items() if v) + f"&before={found.next_before}"
        # a fleet's log names the machine of each entry: then a column and a filter for it, else neither
        machines = bool(facets.get("machines")) or any(row.machine for row in found.rows) or bool(filters["machine"])
        return page(request, "history.html", rows=found.rows, facets=facets, filters=shown, next=nxt,
                    machines=machines, fleet_error=service.fleet_error)

    async def entry(request: Request) -> Response:
        row_id = _int(request.path_params["row_id"])
        found = await asyncio.to_thread(service.index.entry, row_id) if row_id is not None else None
        if found is None:
            return page(request, "error.html", message="no such audit entry", status=404)
        return page(request, "entry.html", entry=found, row_id=row_id)

    async def stats(request: Request) -> Response:
        bucket = "hour" if request.query_params.get("bucket") == "hour" else "day"

        def load():
            service.refresh_index()
            index = service.index
            totals = index.totals(top_tools=12)
            waits = index.human_waits()
            usage = index.tier3_usage(bucket=bucket)
            return {
                "totals": totals,
                "timeline": charts.stacked_verdicts(index.timeline(bucket=bucket), bucket),
                "tiers": charts.hbars(list(totals["by_tier"].items())[:12], "decisions by tier", "bar tier"),
                "tools": charts.hbars(list(totals["by_tool"].items()), "top tools", "bar tool"),
                "shapes": index.asked_shapes(20),
                "waits": waits,
                "waits_chart": charts.points([(t, s) for t, s in waits.get("points", [])], "human wait", "s"),
                "cost_chart": charts.points([(u["start"], u["cost_usd"]) for u in usage], "Tier 3 cost", "USD",
                                            line=True),
                "tokens_chart": charts.points([(u["start"], u["input_tokens"] + u["output_tokens"]) for u in usage],
                                              "Tier 3 tokens", "tokens", line=True),
                "usage": usage,
                "bucket": bucket,
            }

        return page(request, "stats.html", **await asyncio.to_thread(load))

    async def trust(request: Request) -> Response:
        entries, error = await asyncio.to_thread(service.trusted)
        return page(request, "trust.html", entries=entries, error=error, store=service.settings.trust_store)

    async def revoke(request: Request) -> Response:
        form = await request.form()
        path = str(form.get("path") or "")
        await asyncio.to_thread(service.revoke, path)
        return RedirectResponse("/trust", status_code=303)

    async def policy(request: Request) -> Response:
        return page(request, "policy.html", policy=await asyncio.to_thread(service.policy))

    routes = [
        Route("/", home),
        Route("/favicon.ico", favicon),
        Route("/pending", pending),
        Route("/api/pending", pending_json),
        Route("/events", events),
        Route("/requests/{request_id}/{verdict:str}", decide, methods=["POST"]),
        Route("/history", history),
        Route("/history/{row_id}", entry),
        Route("/stats", stats),
        Route("/trust", trust),
        Route("/trust/revoke", revoke, methods=["POST"]),
        Route("/policy", policy),
        Mount("/static", StaticFiles(directory=os.path.join(HERE, "static")), name="static"),
    ]
    app = Starlette(routes=routes)
    return Guard(app, token=token, hosts=hosts)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None


def _epoch(value: str | None) -> float | None:
    """A ``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM`` (UTC) from a filter field, as epoch seconds."""
    if not value:
        return None
    for fmt in ("%Y-%m-%dT%H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(value, fmt).replace(tzinfo=timezone.utc).timestamp()
        except ValueError:
            continue
    return None


def _quote(value: str) -> str:
    return quote(value, safe="")
