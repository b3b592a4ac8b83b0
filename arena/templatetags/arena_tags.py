"""Small formatting helpers for the arena templates."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def percent(value: float | None) -> str:
    """A fraction as a whole percentage; an en dash when there is nothing to measure.

    >>> percent(0.5), percent(None)
    ('50%', '–')
    """
    if value is None:
        return "–"
    return f"{value * 100:.0f}%"


@register.filter
def seat_name(seat: int | None) -> str:
    """Seats are numbered from 0 in logs and from 1 on screen."""
    return "–" if seat is None else f"Seat {seat + 1}"


@register.filter
def signed(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:+.0f}" if round(value) else "±0"


@register.filter
def short_hash(value: str | None) -> str:
    return (value or "")[:12]


@register.filter
def points(value: float | None) -> str:
    """Tournament points: at most two decimals, no trailing zeros (1, 1.5, 0.33)."""
    if value is None:
        return "–"
    return f"{value:.2f}".rstrip("0").rstrip(".")


@register.filter
def get_item(mapping: dict | None, key: str):
    """``mapping[key]``, or an en dash when it is missing (score-pad cells)."""
    if not mapping or key not in mapping:
        return "–"
    return mapping[key]
