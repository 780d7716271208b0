"""Charts drawn on the server as SVG: nothing to download, nothing to run in the page (the CSP allows no
inline script), readable without JavaScript. Colours come from classes in ``static/app.css``; every label
is escaped. Each mark is an element with class ``point`` and a ``<title>`` (the browser's tooltip), so a
test can count what was drawn.
"""
from __future__ import annotations

from datetime import datetime, timezone
from html import escape

from markupsafe import Markup

VERDICTS = ("allow", "ask", "deny")
WIDTH, HEIGHT = 720, 220
LEFT, BOTTOM, TOP = 44, 26, 10


def _svg(body: list[str], label: str, width: int = WIDTH, height: int = HEIGHT) -> Markup:
    head = (f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}" '
            'xmlns="http://www.w3.org/2000/svg">')
    return Markup(head + "".join(body) + "</svg>")


def _day(epoch: float, bucket: str) -> str:
    moment = datetime.fromtimestamp(epoch, timezone.utc)
    return moment.strftime("%m-%d %H:00" if bucket == "hour" else "%Y-%m-%d")


def _axis(top: float, height: int) -> list[str]:
    """The y axis: 0 and the top value."""
    base = height - BOTTOM
    return [f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{base}"/>',
            f'<line class="axis" x1="{LEFT}" y1="{base}" x2="{WIDTH - 4}" y2="{base}"/>',
            f'<text class="tick" x="{LEFT - 6}" y="{base}" text-anchor="end">0</text>',
            f'<text class="tick" x="{LEFT - 6}" y="{TOP + 8}" text-anchor="end">{_num(top)}</text>']


def _num(value: float) -> str:
    if value >= 10_000:
        return f"{value / 1000:.0f}k"
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def stacked_verdicts(series: list[dict], bucket: str = "day") -> Markup:
    """Decisions over time, one bar per bucket stacked allow / ask / deny."""
    if not series:
        return empty("no decisions in this range")
    top = max(sum(int(p.get(v, 0)) for v in VERDICTS) for p in series) or 1
    span = min(48.0, (WIDTH - LEFT - 8) / len(series))  # a few buckets stay bars, not a wall
    base = HEIGHT - BOTTOM
    body = _axis(top, HEIGHT)
    for i, point in enumerate(series):
        x = LEFT + 2 + i * span
        y = float(base)
        for verdict in VERDICTS:
            count = int(point.get(verdict, 0))
            if not count:
                continue
            h = (base - TOP) * count / top
            y -= h
            body.append(f'<rect class="point bar v-{verdict}" x="{x:.1f}" y="{y:.1f}" width="{max(1.0, span - 2):.1f}" '
                        f'height="{h:.1f}"><title>{escape(_day(point["start"], bucket))}: {count} {verdict}</title></rect>')
    for i in sorted({0, len(series) // 2, len(series) - 1}):
        x = LEFT + 2 + i * span + span / 2
        body.append(f'<text class="tick" x="{x:.1f}" y="{HEIGHT - 8}" text-anchor="middle">'
                    f'{escape(_day(series[i]["start"], bucket))}</text>')
    return _svg(body, "decisions over time by verdict")


def hbars(items: list[tuple[str, float]], label: str, css: str = "bar") -> Markup:
    """Horizontal bars, one per (label, value), largest first as given."""
    if not items:
        return empty(f"no data for {label}")
    row = 22
    height = TOP + row * len(items) + 6
    top = max(v for _, v in items) or 1
    left = 190
    body = []
    for i, (name, value) in enumerate(items):
        y = TOP + i * row
        w = (WIDTH - left - 60) * value / top
        shown = name if len(name) <= 28 else name[:27] + "…"
        body.append(f'<text class="tick" x="{left - 6}" y="{y + 14}" text-anchor="end">{escape(shown)}</text>')
        body.append(f'<rect class="point {css}" x="{left}" y="{y + 3}" width="{max(1.0, w):.1f}" height="{row - 6}">'
                    f'<title>{escape(name)}: {_num(value)}</title></rect>')
        body.append(f'<text class="tick" x="{left + w + 6:.1f}" y="{y + 14}">{_num(value)}</text>')
    return _svg(body, label, height=height)


def points(series: list[tuple[float, float]], label: str, unit: str, *, line: bool = False) -> Markup:
    """Values over time: dots (a scatter), or a line through them."""
    if not series:
        return empty(f"no data for {label}")
    first, last = min(t for t, _ in series), max(t for t, _ in series)
    top = max(v for _, v in series) or 1
    base = HEIGHT - BOTTOM
    width = max(1.0, last - first)

    def xy(t: float, v: float) -> tuple[float, float]:
        return LEFT + 4 + (WIDTH - LEFT - 12) * (t - first) / width, base - (base - TOP) * v / top

    body = _axis(top, HEIGHT)
    if line and len(series) > 1:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(t, v) for t, v in series))
        body.append(f'<polyline class="line" points="{path}"/>')
    for t, v in series:
        x, y = xy(t, v)
        body.append(f'<circle class="point dot" cx="{x:.1f}" cy="{y:.1f}" r="3"><title>'
                    f'{escape(_day(t, "hour"))}: {_num(v)} {escape(unit)}</title></circle>')
    body.append(f'<text class="tick" x="{LEFT + 4}" y="{HEIGHT - 8}">{escape(_day(first, "day"))}</text>')
    body.append(f'<text class="tick" x="{WIDTH - 8}" y="{HEIGHT - 8}" text-anchor="end">{escape(_day(last, "day"))}</text>')
    return _svg(body, label)


def empty(text: str) -> Markup:
    return _svg([f'<text class="tick" x="{WIDTH / 2}" y="{40}" text-anchor="middle">{escape(text)}</text>'], text,
                height=60)
