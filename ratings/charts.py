"""Rating charts drawn on the server as inline SVG: no JavaScript, no CDN, readable without CSS.

`rating_chart` turns rating series into a `RatingChart` that knows where every point, tick and
label goes; ``templates/includes/rating_chart.html`` only writes those numbers out. Both the
league's player pages and the arena's bot pages use it.

>>> import datetime as dt
>>> chart = rating_chart(
...     [("Tuesday Club", [(dt.datetime(2026, 3, 1), 1516.0), (dt.datetime(2026, 3, 8), 1501.5)])],
...     width=400, height=200,
... )
>>> chart.is_empty, len(chart.series), len(chart.series[0].points)
(False, 1, 2)
>>> chart.series[0].points[0].label
'1 Mar 2026: 1516'
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html_join
from django.utils.safestring import SafeString

# Colour-blind-safe (Okabe–Ito), each at least 3:1 against white so lines stay visible.
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#7a6a00", "#56589e", "#a6473c")
# Point markers differ by series too, so colour is never the only way to tell lines apart.
MARKERS = ("circle", "square", "diamond", "triangle")

Point = tuple["dt.datetime | dt.date", float]
Series = tuple[str, Sequence[Point]]


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    when: dt.datetime
    rating: float
    label: str  # text for the point's <title> tooltip and the fallback table
    marker: str = "circle"

    @property
    def marker_path(self) -> str:
        """SVG path data for this point's marker, centred on the point."""
        x, y, r = self.x, self.y, 3.5
        if self.marker == "square":
            return f"M{x - r:.1f},{y - r:.1f}h{2 * r:.1f}v{2 * r:.1f}h{-2 * r:.1f}z"
        if self.marker == "diamond":
            return f"M{x:.1f},{y - r - 1:.1f}L{x + r + 1:.1f},{y:.1f}L{x:.1f},{y + r + 1:.1f}L{x - r - 1:.1f},{y:.1f}z"
        if self.marker == "triangle":
            return (
                f"M{x:.1f},{y - r - 1:.1f}L{x + r + 1:.1f},{y + r:.1f}L{x - r - 1:.1f},{y + r:.1f}z"
            )
        return f"M{x - r:.1f},{y:.1f}a{r},{r} 0 1,0 {2 * r:.1f},0a{r},{r} 0 1,0 {-2 * r:.1f},0z"


@dataclass(frozen=True)
class ChartSeries:
    label: str
    colour: str
    marker: str
    points: tuple[ChartPoint, ...]
    total_points: int  # before thinning: a long history is drawn with fewer points

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)

    @property
    def is_thinned(self) -> bool:
        return self.total_points > len(self.points)

    @property
    def markers_markup(self) -> SafeString:
        """Every point's marker with its <title> tooltip. Written here rather than looped over
        in the template: a long history has hundreds of points."""
        return format_html_join(
            "",
            '<path d="{}" fill="{}" stroke="#fff" stroke-width="1"><title>{}, {}</title></path>',
            ((p.marker_path, self.colour, self.label, p.label) for p in self.points),
        )

    @property
    def rows_markup(self) -> SafeString:
        """The points as table rows (date, rating) for the text alternative."""
        return format_html_join(
            "",
            '<tr><td>{}</td><td class="num">{}</td></tr>',
            ((_format_day(p.when), f"{p.rating:.0f}") for p in self.points),
        )


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class RatingChart:
    title: str
    description: str
    width: int
    height: int
    left: float
    top: float
    right: float
    bottom: float
    series: tuple[ChartSeries, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]

    @property
    def is_empty(self) -> bool:
        return not any(s.points for s in self.series)

    @property
    def plot_width(self) -> float:
        return self.right - self.left


def _as_datetime(value: dt.datetime | dt.date) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return value
    return dt.datetime(value.year, value.month, value.day)


def _comparable(value: dt.datetime) -> float:
    # Mixed aware and naive datetimes are compared on their wall-clock value.
    return value.replace(tzinfo=None).timestamp() if value.tzinfo else value.timestamp()


def _thin(points: list[tuple[dt.datetime, float]], limit: int) -> list[tuple[dt.datetime, float]]:
    """Keep at most `limit` points, evenly spread, always keeping the first and last."""
    if len(points) <= limit or limit < 2:
        return points
    step = (len(points) - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


def _nice_step(span: float, target_ticks: int) -> float:
    raw = span / max(target_ticks, 1)
    magnitude: float = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def _format_day(when: dt.datetime, with_year: bool = True) -> str:
    return f"{when.day} {when:%b %Y}" if with_year else f"{when.day} {when:%b}"


def _x_ticks(start: dt.datetime, end: dt.datetime, count: int) -> list[tuple[dt.datetime, str]]:
    span_days = (end - start).total_seconds() / 86400
    if span_days <= 0:
        return [(start, _format_day(start))]
    same_year = start.year == end.year
    ticks = []
    for i in range(count):
        when = start + (end - start) * (i / (count - 1))
        if span_days > 400:
            label = f"{when:%b %Y}"
        else:
            label = _format_day(when, with_year=not same_year or i in (0, count - 1))
        ticks.append((when, label))
    # Neighbouring ticks may round to the same label on a short span: keep the first of each.
    unique: list[tuple[dt.datetime, str]] = []
    for when, label in ticks:
        if not unique or unique[-1][1] != label:
            unique.append((when, label))
    return unique


def rating_chart(
    series: Sequence[Series],
    *,
    width: int = 600,
    height: int = 280,
    title: str = "Rating history",
    max_points: int = 300,
) -> RatingChart:
    """Lay out one line per series of (datetime or date, rating) pairs, in the given order.

    Points within a series are drawn in time order. A series longer than `max_points` is
    thinned evenly (first and last kept) so a player with thousands of games still gets a
    light page; `ChartSeries.total_points` says how many there were.

    >>> rating_chart([("Empty", [])]).is_empty
    True
    >>> flat = rating_chart([("Club", [(dt.date(2026, 1, 1), 1500.0)])], width=300, height=150)
    >>> [t.label for t in flat.y_ticks][:1], flat.series[0].points[0].x == flat.left + flat.plot_width / 2
    (['1490'], True)
    """
    left, right_pad, top, bottom_pad = 56.0, 16.0, 16.0, 40.0
    right, bottom = width - right_pad, height - bottom_pad
    prepared = _prepared(series, max_points)
    all_points = [p for _, points, _ in prepared for p in points]
    # What every chart of this size says, drawn or empty.
    framed = functools.partial(
        RatingChart,
        title=title,
        width=width,
        height=height,
        left=left,
        top=top,
        right=right,
        bottom=bottom,
    )
    if not all_points:
        return framed(
            description="No rated games yet.",
            series=tuple(
                ChartSeries(label, PALETTE[i % len(PALETTE)], MARKERS[i % len(MARKERS)], (), 0)
                for i, (label, _, _) in enumerate(prepared)
            ),
            x_ticks=(),
            y_ticks=(),
        )
    times = [_comparable(w) for w, _ in all_points]
    axis_low, axis_high, step = _rating_axis([r for _, r in all_points])
    scale = _Scale(left, top, right, bottom, min(times), max(times), axis_low, axis_high)
    chart_series = [
        ChartSeries(
            label=label,
            colour=PALETTE[index % len(PALETTE)],
            marker=MARKERS[index % len(MARKERS)],
            points=tuple(
                ChartPoint(
                    x=scale.x_of(w),
                    y=scale.y_of(r),
                    when=w,
                    rating=r,
                    label=f"{_format_day(w)}: {r:.0f}",
                    marker=MARKERS[index % len(MARKERS)],
                )
                for w, r in points
            ),
            total_points=total,
        )
        for index, (label, points, total) in enumerate(prepared)
    ]
    y_ticks = []
    value = axis_low
    while value <= axis_high + step / 2:
        y_ticks.append(Tick(position=scale.y_of(value), label=f"{value:.0f}"))
        value += step
    start = min(all_points, key=lambda p: _comparable(p[0]))[0]
    end = max(all_points, key=lambda p: _comparable(p[0]))[0]
    single_time = scale.first_time == scale.last_time
    tick_count = 2 if single_time else max(2, min(5, int((right - left) // 110)))
    x_ticks = [
        Tick(position=scale.x_of(w), label=label) for w, label in _x_ticks(start, end, tick_count)
    ]
    return framed(
        description=_description(chart_series),
        series=tuple(chart_series),
        x_ticks=tuple(x_ticks),
        y_ticks=tuple(y_ticks),
    )


def _prepared(
    series: Sequence[Series], max_points: int
) -> list[tuple[str, list[tuple[dt.datetime, float]], int]]:
    """Each series' label, its points in time order (thinned to ``max_points``) and how many
    points it had."""
    prepared = []
    for label, raw_points in series:
        points = sorted(
            ((_as_datetime(w), float(r)) for w, r in raw_points), key=lambda p: _comparable(p[0])
        )
        prepared.append((label, _thin(points, max_points), len(points)))
    return prepared


def _rating_axis(ratings: Sequence[float]) -> tuple[float, float, float]:
    """The rating axis' low and high ends and its tick step, on round numbers."""
    low, high = min(ratings), max(ratings)
    if high - low < 20:  # a flat line sits in the middle of a small band, not on an edge
        middle = (high + low) / 2
        low, high = middle - 10, middle + 10
    step = _nice_step(high - low, 4)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


@dataclass(frozen=True)
class _Scale:
    """Where a time and a rating go in the plot area."""

    left: float
    top: float
    right: float
    bottom: float
    first_time: float
    last_time: float
    axis_low: float
    axis_high: float

    def x_of(self, when: dt.datetime) -> float:
        if self.last_time == self.first_time:
            return self.left + (self.right - self.left) / 2
        return self.left + (self.right - self.left) * (_comparable(when) - self.first_time) / (
            self.last_time - self.first_time
        )

    def y_of(self, rating: float) -> float:
        return self.bottom - (self.bottom - self.top) * (rating - self.axis_low) / (
            self.axis_high - self.axis_low
        )


def _description(chart_series: Sequence[ChartSeries]) -> str:
    """The chart in words (its text alternative), one sentence per series."""
    parts = []
    for s in chart_series:
        if not s.points:
            parts.append(f"{s.label}: no rated games")
            continue
        first, last = s.points[0], s.points[-1]
        parts.append(
            f"{s.label}: {s.total_points} rated game{'s' if s.total_points != 1 else ''} "
            f"from {_format_day(first.when)} ({first.rating:.0f}) to {_format_day(last.when)} "
            f"({last.rating:.0f}), lowest {min(p.rating for p in s.points):.0f}, "
            f"highest {max(p.rating for p in s.points):.0f}"
        )
    return ". ".join(parts) + "."
