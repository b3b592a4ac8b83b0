"""The league's change log in the words of its pages: "Round 2 of the night of 3 Mar 2026
drawn", "Dispute on the game of 3 Mar 2026 settled", never "Created nightround #2".

The services write each audit entry as (action, object type, object id, changes); this module
turns a page of them into sentences, looking up the games and nights they name in one query
each, and links what still exists."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.dateformat import format as format_date
from django.utils.dateparse import parse_date

from league.models import AuditEntry, Game, GameNight, League, Membership
from league.rating_systems import SYSTEM_CHOICES

_CREATE, _UPDATE, _DELETE = "create", "update", "delete"
_CONFIRM, _DISPUTE, _REBUILD = "confirm", "dispute", "rebuild"

# The settings page's words for the league's fields.
_SETTINGS = {
    "name": "name",
    "description": "description",
    "is_public": "who can see it",
    "provisional_games": "provisional games",
    "rating_system": "rating system",
    "confirmation": "who confirms results",
    "confirmation_days": "days to confirm",
}


@dataclass(frozen=True)
class ChangeLine:
    """One change as the change log shows it."""

    entry: AuditEntry
    text: str
    link: str | None  # the page of what changed, while it exists


def _day(value: Any) -> str:
    day = value if isinstance(value, dt.date) else parse_date(str(value or ""))
    return format_date(day, "j M Y") if day is not None else "an unknown day"


@dataclass(frozen=True)
class _Known:
    """The games and nights a page of entries names, fetched once."""

    league: League
    games: Mapping[int, Game]
    nights: Mapping[int, GameNight]
    guest_memberships: set[int]  # memberships of players with no login

    def game(
        self, game_id: Any, snapshot: Mapping[str, Any] | None = None
    ) -> tuple[str, str | None]:
        """("the game of 3 Mar 2026", its URL) — from the stored game, or from the snapshot
        the entry kept of a game since deleted."""
        game = self.games.get(game_id) if isinstance(game_id, int) else None
        if game is not None:
            url = reverse("league:game", args=[self.league.slug, game.pk])
            return f"the game of {_day(game.played_on)}", url
        if snapshot and snapshot.get("played_on"):
            return f"the game of {_day(snapshot['played_on'])}", None
        return "a deleted game", None

    def night(self, night_id: Any) -> tuple[str, str | None]:
        night = self.nights.get(night_id) if isinstance(night_id, int) else None
        if night is None:
            return "a deleted game night", None
        url = reverse("league:night", args=[self.league.slug, night.pk])
        return f"the night of {_day(night.played_on)}", url


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _game(entry: AuditEntry, known: _Known) -> tuple[str, str | None]:
    changes = entry.changes
    what, url = known.game(entry.object_id, changes.get("before") or changes)
    if entry.action == _CREATE:
        source = changes.get("imported_from")
        return (f"{what} imported from {source}" if source else f"{what} logged"), url
    verbs = {_UPDATE: "corrected", _DELETE: "deleted", _DISPUTE: "disputed"}
    if entry.action == _CONFIRM:
        if changes.get("automatic"):
            reason = str(changes.get("reason") or "nobody answered in time")
            return f"{what} confirmed automatically: {reason[:1].lower()}{reason[1:]}", url
        by = " by an organiser" if changes.get("as") == "organiser" else ""
        return f"{what} confirmed{by}", url
    return f"{what} {verbs.get(entry.action, 'changed')}", url


def _dispute(entry: AuditEntry, known: _Known) -> tuple[str, str | None]:
    what, url = known.game(entry.changes.get("game"))
    outcome = {
        "confirmed": "settled: the result stands",
        "corrected": "settled: the result was corrected",
        "deleted": "settled: the game was deleted",
    }.get(str(entry.changes.get("resolution")), "settled")
    return f"Dispute on {what} {outcome}", url


def _night(entry: AuditEntry, known: _Known) -> tuple[str, str | None]:
    what, url = known.night(entry.object_id)
    changes = entry.changes
    if entry.action == _CREATE:
        return f"Game night of {_day(changes.get('played_on'))} opened", url
    if "present" in changes:
        state = "is here" if changes["present"] else "left"
        return f"{changes.get('player', 'Someone')} {state} at {what}", url
    return f"{what} changed", url


def _round(entry: AuditEntry, known: _Known) -> tuple[str, str | None]:
    what, url = known.night(entry.changes.get("night"))
    verb = "taken back" if entry.action == _DELETE else "drawn"
    return f"Round {entry.changes.get('round', '?')} of {what} {verb}", url


def _membership(entry: AuditEntry, known: _Known) -> tuple[str, str | None]:
    changes = entry.changes
    name = changes.get("player", "A player")
    role = changes.get("role")
    if entry.action == _CREATE:
        if entry.object_id in known.guest_memberships:
            return f"{name} added as a guest", None
        return f"{name} joined as {'an organiser' if role == 'organiser' else 'a member'}", None
    if entry.action == _DELETE:
        return f"{name} removed from the league", None
    if isinstance(role, Mapping):
        return (
            f"{name} made {'an organiser' if role.get('after') == 'organiser' else 'a member'}",
            None,
        )
    return f"{name} made {'an organiser' if role == 'organiser' else 'a member'}", None


def _league(entry: AuditEntry, known: _Known) -> tuple[str, str | None]:
    changes = entry.changes
    if entry.action == _CREATE:
        return f"League “{changes.get('name', known.league.name)}” started", None
    if entry.action == _REBUILD:
        system = dict(SYSTEM_CHOICES).get(changes.get("rating_system"), "the new rating system")
        return f"Ratings rebuilt with {system}", None
    fields = [_SETTINGS.get(name, name.replace("_", " ")) for name in changes]
    return f"Settings changed: {', '.join(fields) or 'nothing'}", None


def _season(entry: AuditEntry, known: _Known) -> tuple[str, str | None]:
    changes = entry.changes
    if entry.action == _CREATE:
        return (
            f"Season “{changes.get('name', '')}” started "
            f"({_day(changes.get('starts_on'))} to {_day(changes.get('ends_on'))})"
        ), None
    ends = changes.get("ends_on")
    if isinstance(ends, Mapping):
        return f"A season's end moved to {_day(ends.get('after'))}", None
    return "A season changed", None


def _invitation(entry: AuditEntry, known: _Known) -> tuple[str, str | None]:
    if entry.action == _DELETE:
        return "Invitation withdrawn", None
    person = entry.changes.get("player")
    return (f"Invitation made for {person}" if person else "Invitation link made"), None


def _player(entry: AuditEntry, known: _Known) -> tuple[str, str | None]:
    changes = entry.changes
    if "claimed_by" in changes:
        return f"Guest claimed by the account {changes['claimed_by']}", None
    name = changes.get("name")
    if isinstance(name, Mapping):
        return f"{name.get('before')} renamed {name.get('after')}", None
    return f"Player {name} added" if name else "A player changed", None


_DESCRIBE: dict[str, Callable[[AuditEntry, _Known], tuple[str, str | None]]] = {
    "Game": _game,
    "GameDispute": _dispute,
    "GameNight": _night,
    "NightRound": _round,
    "Membership": _membership,
    "League": _league,
    "Season": _season,
    "Invitation": _invitation,
    "Player": _player,
}


def _fallback(entry: AuditEntry, known: _Known) -> tuple[str, str | None]:
    """A kind of entry this module does not know yet still reads as words, not a class name."""
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in entry.object_type).strip()
    return f"{entry.get_action_display()}: {words}", None


def change_lines(league: League, entries: Iterable[AuditEntry]) -> list[ChangeLine]:
    """Each entry as a sentence of the league's pages, with a link to what changed."""
    entries = list(entries)
    game_ids: set[int] = set()
    night_ids: set[int] = set()
    membership_ids: set[int] = set()
    for entry in entries:
        if entry.object_type == "Game" and entry.object_id is not None:
            game_ids.add(entry.object_id)
        elif entry.object_type == "GameDispute" and isinstance(entry.changes.get("game"), int):
            game_ids.add(entry.changes["game"])
        elif entry.object_type == "GameNight" and entry.object_id is not None:
            night_ids.add(entry.object_id)
        elif entry.object_type == "NightRound" and isinstance(entry.changes.get("night"), int):
            night_ids.add(entry.changes["night"])
        elif entry.object_type == "Membership" and entry.object_id is not None:
            membership_ids.add(entry.object_id)
    known = _Known(
        league=league,
        games=Game.objects.filter(league=league).in_bulk(game_ids),
        nights=GameNight.objects.filter(league=league).in_bulk(night_ids),
        guest_memberships=set(
            Membership.objects.filter(
                pk__in=membership_ids, league=league, player__user__isnull=True
            ).values_list("pk", flat=True)
        ),
    )
    lines = []
    for entry in entries:
        text, link = _DESCRIBE.get(entry.object_type, _fallback)(entry, known)
        lines.append(ChangeLine(entry=entry, text=_capital(text), link=link))
    return lines
