"""Formatting filters for the league pages: signs, ordinals and result fields."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe

from league.catalogue import CAT_LADY_CATEGORIES, GAMES
from league.rating_systems import OPENSKILL

register = template.Library()


@register.filter
def signed(value, places: int = 1) -> str:
    """+12.3, −4.0 (a real minus sign), ±0.0; empty for None.

    >>> signed(12.34), signed(-4), signed(0.04)
    ('+12.3', '−4.0', '±0.0')
    """
    if value is None or value == "":
        return ""
    number = round(float(value), int(places))
    text = f"{abs(number):.{int(places)}f}"
    if number > 0:
        return f"+{text}"
    if number < 0:
        return f"−{text}"
    return f"±{text}"


@register.filter
def ordinal(value) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 22nd.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    if value is None or value == "":
        return ""
    number = int(value)
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


@register.filter
def percent(value, places: int = 0) -> str:
    """A 0–1 share as a percentage: 0.625 → 62.5 % with places=1."""
    if value is None or value == "":
        return ""
    return f"{float(value) * 100:.{int(places)}f}%"


@register.filter
def trend_word(value) -> str:
    """Words for a rating trend, for screen readers next to an arrow."""
    if value is None:
        return ""
    number = round(float(value), 1)
    if number > 0:
        return "rising"
    if number < 0:
        return "falling"
    return "steady"


@register.simple_tag
def result_details(game_key: str, result: dict) -> list[tuple[str, str]]:
    """A participant's recorded result fields as (label, value), in the catalogue's order.

    The headline number (shown as the score) and Cat Lady's score-pad lines (shown in their own
    table) are left out.
    """
    game = GAMES.get(game_key)
    if game is None:
        return [(key, str(value)) for key, value in result.items()]
    headline = headline_field(game_key)
    rows = []
    for field in game.fields:
        if field is headline or (game_key == "cat-lady" and field.name in CAT_LADY_CATEGORIES):
            continue
        value = result.get(field.name)
        if value is None:
            continue
        if field.kind == "bool":
            text = "yes" if value else "no"
        elif field.kind == "choice":
            text = str(value).replace("_", " ")
        else:
            text = str(value)
        rows.append((field.label, text))
    return rows


def headline_field(game_key: str):
    """The result field stored as a participant's `score`: the game's first whole-number field
    (total VP, cats collected, Mischief points), as `league.results.services` records it."""
    game = GAMES.get(game_key)
    if game is None:
        return None
    return next((f for f in game.fields if f.kind == "int"), None)


@register.filter
def score_label(game_key: str) -> str:
    """The name of a game's headline number: "Total VP", "Cats collected"..."""
    field = headline_field(game_key)
    return field.label if field is not None else "Score"


@register.filter
def headline(result: dict, game_key: str) -> str:
    """A result's headline number with its name: "Total VP 30"."""
    field = headline_field(game_key)
    if field is None or result.get(field.name) is None:
        return ""
    return f"{field.label} {result[field.name]}"


@register.filter
def choice_options(field) -> list[dict]:
    """The options of a radio or checkbox group as plain values, for templates that write the
    inputs themselves (rendering each option through Django's widget templates is slow for
    four seats of 35 cats). Each has id, value, label, checked."""
    value = field.value()
    chosen = {str(v) for v in value} if isinstance(value, list | tuple) else {str(value)}
    return [
        {
            "id": f"{field.auto_id}_{index}",
            "value": key,
            "label": label,
            "checked": str(key) in chosen,
        }
        for index, (key, label) in enumerate(field.field.choices)
    ]


_TREND_STEP = 0.05  # a trend this small shows as steady


@register.filter
def rating_in(value, league) -> str:
    """A rating as the league's system shows it: Elo in whole points, OpenSkill's μ − 3σ (a
    few dozen at most) with one decimal; empty for None."""
    if value is None or value == "":
        return ""
    return f"{float(value):.{1 if league.rating_system == OPENSKILL else 0}f}"


@register.simple_tag
def standings_rows(rows, league, my_player_id=None):
    """The standings table's body, written in Python: for a league of 500 players the template
    loop was the slowest part of the page (about 80 ms). Names are escaped; every other value
    is a number formatted here."""
    player_url = escape(reverse("league:player", args=[0]).removesuffix("0/"))
    query = escape(f"?league={league.slug}")
    provisional = (
        ' <span class="badge badge-provisional" title="Fewer than '
        f'{int(league.provisional_games)} rated games: the rating is still settling">'
        "provisional</span>"
    )
    # OpenSkill's conservative ratings run from 0 to a few dozen: a decimal tells players apart.
    places = 1 if league.rating_system == OPENSKILL else 0
    lines = []
    for row in rows:
        if row.trend > _TREND_STEP:
            trend_class, arrow = " up", "▲"
        elif row.trend < -_TREND_STEP:
            trend_class, arrow = " down", "▼"
        else:
            trend_class, arrow = "", "–"
        placement = f"{row.average_placement:.2f}" if row.average_placement is not None else "–"
        me = ' class="is-me"' if my_player_id and row.player_id == my_player_id else ""
        lines.append(
            f'<tr{me}><td class="num">{int(row.position)}</td><th scope="row">'
            f'<a href="{player_url}{int(row.player_id)}/{query}">{escape(row.player_name)}</a>'
            f"{provisional if row.provisional else ''}</th>"
            f'<td class="num rating">{row.rating:.{places}f}</td><td class="num">{int(row.games_played)}</td>'
            f'<td class="num">{int(row.wins)}</td><td class="num">{placement}</td>'
            f'<td class="num trend{trend_class}"><span aria-hidden="true">{arrow}</span> '
            f'{signed(row.trend)}<span class="visually-hidden"> ({trend_word(row.trend)})</span></td></tr>'
        )
    return mark_safe("\n".join(lines))
