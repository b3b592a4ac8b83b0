"""The server-drawn rating chart: layout from ratings.charts, markup from the include."""

import datetime as dt
import re

from django.template.loader import render_to_string

from ratings.charts import rating_chart


def _series(*ratings, start=dt.date(2026, 1, 5)):
    return [(start + dt.timedelta(days=7 * i), r) for i, r in enumerate(ratings)]


def test_points_are_placed_left_to_right_in_time_and_higher_ratings_higher_up():
    chart = rating_chart(
        [("Club", list(reversed(_series(1500, 1520, 1490))))], width=400, height=200
    )
    points = chart.series[0].points
    assert [p.rating for p in points] == [1500, 1520, 1490]  # sorted by time, not input order
    assert points[0].x == chart.left and points[-1].x == chart.right
    assert points[1].y < points[0].y < points[2].y  # SVG y grows downwards
    assert all(chart.top <= p.y <= chart.bottom for p in points)


def test_y_axis_ticks_cover_every_rating_with_round_numbers():
    chart = rating_chart([("Club", _series(1433, 1611))])
    values = [int(t.label) for t in chart.y_ticks]
    assert values[0] <= 1433 and values[-1] >= 1611
    steps = {b - a for a, b in zip(values, values[1:], strict=False)}
    assert len(steps) == 1 and steps.pop() % 5 == 0


def test_x_axis_labels_are_dates():
    chart = rating_chart([("Club", _series(1500, 1510, 1505, 1530))])
    assert chart.x_ticks[0].label == "5 Jan 2026"
    assert chart.x_ticks[-1].label == "26 Jan 2026"
    long = rating_chart([("Club", [(dt.date(2024, 1, 1), 1500), (dt.date(2026, 6, 1), 1550)])])
    assert [t.label for t in long.x_ticks][0] == "Jan 2024"


def test_several_series_share_axes_and_differ_in_colour_and_marker():
    chart = rating_chart(
        [
            ("Tuesday", _series(1500, 1520)),
            ("Friday", _series(1400, 1380, start=dt.date(2026, 2, 1))),
        ]
    )
    tuesday, friday = chart.series
    assert tuesday.colour != friday.colour and tuesday.marker != friday.marker
    assert tuesday.points[0].x == chart.left and friday.points[-1].x == chart.right
    assert "Tuesday: 2 rated games" in chart.description and "Friday" in chart.description


def test_long_histories_are_thinned_keeping_first_and_last():
    ratings = [1500 + (i % 7) for i in range(1000)]
    chart = rating_chart([("Club", _series(*ratings))], max_points=50)
    series = chart.series[0]
    assert len(series.points) == 50 and series.total_points == 1000 and series.is_thinned
    assert series.points[0].when == dt.datetime(2026, 1, 5)
    assert series.points[-1].when == dt.datetime(2026, 1, 5) + dt.timedelta(days=7 * 999)
    assert "1000 rated games" in chart.description


def test_single_point_sits_in_the_middle_of_a_band():
    chart = rating_chart([("Club", [(dt.datetime(2026, 3, 1, 20, 30), 1500.0)])])
    point = chart.series[0].points[0]
    assert point.x == chart.left + chart.plot_width / 2
    assert chart.top < point.y < chart.bottom


def test_empty_chart_says_so():
    chart = rating_chart([("Club", [])])
    assert chart.is_empty
    html = render_to_string("includes/rating_chart.html", {"chart": chart})
    assert "<svg" not in html and "No rated games yet." in html


def test_include_renders_accessible_svg_with_tooltips_and_a_data_table():
    chart = rating_chart([("Tuesday <Club>", _series(1500, 1516, 1502))], title="Mia's rating")
    html = render_to_string("includes/rating_chart.html", {"chart": chart, "chart_id": "mia"})
    assert 'role="img"' in html and 'aria-labelledby="mia-title mia-desc"' in html
    assert '<title id="mia-title">Mia&#x27;s rating</title>' in html
    assert '<desc id="mia-desc">' in html
    assert html.count("<polyline") == 1
    assert len(re.findall(r"<path d=\"[^\"]+\"[^>]*><title>", html)) == 3
    assert "Tuesday &lt;Club&gt;, 12 Jan 2026: 1516" in html  # escaped, with the date
    assert '<th scope="col">Date</th>' in html and "<td>19 Jan 2026</td>" in html
    assert "Tuesday <Club>" not in html
