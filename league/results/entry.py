"""Scoring a Cat Lady table from its end-of-game cards, for the result-entry form.

The card data (decks) comes from the engine at run time: every bundled ``catlady-*.json`` file
is offered, with its own label and status, so a new edition appears when its data file lands.
The form gives each seat's cards and food; `score_table` builds the calculator's input
(`engine.tableaux_from_json`), scores it with the engine and turns the engine's
error paths (``players[1].food.tuna``) into the form's (seat 1, field ``food_tuna``).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import (
    BREAKDOWN,
    BREAKDOWN_LABELS,
    Edition,
    GameScore,
    Tableau,
    bundled_editions,
    load_edition,
    score_game,
    tableaux_from_json,
)
from engine.errors import EngineError

log = logging.getLogger(__name__)

# The score-pad lines of the engine, and the league result fields that record them.
PAD_FIELDS = {
    "fed_cats": "fed_cats_vp",
    "toys": "toys_vp",
    "costumes": "costumes_vp",
    "catnip": "catnip_vp",
    "vp_tokens": "vp_tokens_vp",
    "food_penalty": "food_penalty_vp",
}


def pad_label(key: str) -> str:
    """The score-pad name of one of the engine's lines (expansion lines included)."""
    return BREAKDOWN_LABELS.get(key) or _humanise(key)


_STATUS_NOTES = {
    "placeholder": "placeholder — not the published card list, not rated",
    "incomplete": "incomplete card data",
}


@dataclass(frozen=True)
class Deck:
    """One edition's card data as the form offers it."""

    name: str
    label: str
    status: str
    edition: Edition

    @property
    def is_placeholder(self) -> bool:
        """Placeholder or incomplete data: labelled as such wherever it is shown."""
        return self.status != "complete"

    @property
    def status_note(self) -> str:
        return _STATUS_NOTES.get(self.status, self.status)

    @property
    def playable(self) -> bool:
        # Incomplete data cannot score a game: some cats' facts are unknown.
        return self.status != "incomplete"

    @property
    def supported_players(self) -> tuple[int, ...]:
        return self.edition.supported_players


def available_decks() -> list[Deck]:
    """Every bundled Cat Lady card data file that loads, base first, then by name."""
    decks = []
    for name in bundled_editions():
        try:
            edition = load_edition(name)
        except EngineError as exc:  # a broken data file is left out, not fatal to the page
            log.warning("card data %s not offered: %s", name, exc)
            continue
        decks.append(Deck(name=name, label=edition.label, status=edition.status, edition=edition))
    decks.sort(key=lambda d: (d.name != "base", d.is_placeholder, d.name))
    return decks


def deck(name: str) -> Deck | None:
    return next((d for d in available_decks() if d.name == name), None)


# --- what a seat holds ----------------------------------------------------------------------


@dataclass(frozen=True)
class CountField:
    """A whole-number input of a seat's holdings: a food token, a toy type or a card count."""

    key: str  # the form field name
    label: str
    group: str  # "food" | "toys" | "counts"
    source: str  # the name in the calculator's JSON


def _humanise(name: str) -> str:
    words = name.replace("_", " ").split()
    return " ".join(w.upper() if w == "vp" else w for w in words).capitalize().replace("Vp ", "VP ")


def _holds_cards_of_this_edition(field_name: str, edition: Edition) -> bool:
    """Whether a count on the calculator's tableau is about a kind of card the edition has
    (``cat_brushes`` needs Box of Treats' cat brushes); VP tokens are in every box."""
    if field_name == "vp_tokens":
        return True
    kinds = {kind.value for kind in edition.kinds}
    return any(singular in kinds for singular in (field_name, field_name[:-1], field_name[:-2]))


def count_fields(edition: Edition) -> list[CountField]:
    """The numbers a seat enters for this edition, from its data (food tokens, toy types, card
    kinds) and from the calculator's tableau (its whole-number holdings), so the components of
    a new edition appear here without a change to the form."""
    fields = [
        CountField(f"food_{token}", f"{_humanise(token)} tokens", "food", token)
        for token in edition.food_tokens
    ]
    fields += [
        CountField(f"toy_{toy}", edition.toy_names.get(toy, _humanise(toy)), "toys", toy)
        for toy in edition.toy_types
    ]
    for f in dataclasses.fields(Tableau):
        if f.type in ("int", int) and _holds_cards_of_this_edition(f.name, edition):
            fields.append(CountField(f.name, _humanise(f.name), "counts", f.name))
    return fields


def box_choices(edition: Edition) -> list[tuple[str, str]]:
    """(value, label) of each kind of box card (Box of Treats), with the cat that fills it."""
    seen: set[str] = set()
    choices = []
    for card in edition.deck:
        if card.box is not None and card.name not in seen:
            seen.add(card.name)
            choices.append((card.name, f"{card.name} (filled by: {card.box.describe()})"))
    return choices


def _describe_needs(cat) -> str:
    parts = [f"{cat.vp} VP" if cat.vp is not None else "★ VP"]
    needs = ", ".join(f"{food} ×{n}" if n > 1 else food for food, n in cat.needs)
    if needs:
        parts.append(needs)
    return " · ".join(parts)


def cat_choices(edition: Edition) -> list[tuple[str, str]]:
    """(value, label) of every main-deck cat, in deck order; values are the names the
    calculator reads."""
    seen: set[str] = set()
    choices = []
    for card in edition.deck:
        if card.cat is not None and card.cat.name not in seen:
            seen.add(card.cat.name)
            choices.append((card.cat.name, f"{card.cat.name} ({_describe_needs(card.cat)})"))
    return choices


def stray_choices(edition: Edition) -> list[tuple[str, str]]:
    """(value, label) of every stray cat of the edition."""
    return [(s.name, f"{s.name} ({_describe_needs(s)})") for s in edition.strays]


# --- scoring a table -------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatHoldings:
    name: str
    cats: Sequence[str]  # main-deck cats
    strays: Sequence[str]
    counts: Mapping[str, int]  # CountField.key -> number
    boxes: Sequence[str] = ()


class TableError(ValueError):
    """The calculator refused the table. `errors` maps (seat index or None, field key or None)
    to messages: None seat means the whole table, None field the seat as a whole."""

    def __init__(self, errors: dict[tuple[int | None, str | None], list[str]]):
        self.errors = errors
        super().__init__("; ".join(m for ms in errors.values() for m in ms))


_PATH = re.compile(
    r"^players(?:\[(?P<seat>\d+|\*)\])?(?:\.(?P<rest>[\w.\[\]]+))?: (?P<message>.*)$", re.S
)


def _error_target(
    rest: str | None, fields: list[CountField], seat: SeatHoldings | None
) -> str | None:
    if rest is None:
        return None
    head, _, tail = rest.partition(".")
    if head.startswith("boxes"):
        return "boxes"
    if head.startswith("cats"):
        # The calculator sees one list, main-deck cats then strays; a table-wide cat error is
        # about the strays (only their number is limited across the table).
        index = head[5:-1]
        if seat is not None and index.isdigit():
            return "cats" if int(index) < len(seat.cats) else "strays"
        return "strays"
    if head in ("food", "toys") and tail:
        group = "food" if head == "food" else "toys"
        for f in fields:
            if f.group == group and f.source == tail:
                return f.key
        return None
    for f in fields:
        if f.group == "counts" and f.source == head:
            return f.key
    return None


def table_errors(exc: EngineError, seats: Sequence[SeatHoldings], edition: Edition) -> TableError:
    """Place one engine error on the seat and field it names; a table-wide limit
    (``players[*].food.tuna``) goes on that field of every seat that holds any."""
    fields = count_fields(edition)
    match = _PATH.match(str(exc))
    if match is None:
        return TableError({(None, None): [str(exc)]})
    message = match.group("message")
    seat = match.group("seat")
    if seat is None:
        return TableError({(None, None): [message]})
    holding = seats[int(seat)] if seat.isdigit() and int(seat) < len(seats) else None
    target = _error_target(match.group("rest"), fields, holding)
    if seat == "*":
        holders = [
            i
            for i, s in enumerate(seats)
            if target is not None
            and (
                getattr(s, target)
                if target in ("cats", "strays", "boxes")
                else s.counts.get(target, 0)
            )
        ]
        if not holders:
            return TableError({(None, None): [message]})
        return TableError({(i, target): [message] for i in holders})
    return TableError({(int(seat), target): [message]})


def score_table(seats: Sequence[SeatHoldings], edition: Edition) -> GameScore:
    """Score the table with the engine; raises `TableError` naming the seat and field."""
    fields = count_fields(edition)
    players: list[dict[str, Any]] = []
    for seat in seats:
        entry: dict[str, Any] = {
            "name": seat.name,
            "cats": [*seat.cats, *seat.strays],
            "food": {},
            "toys": {},
        }
        if seat.boxes:
            entry["boxes"] = list(seat.boxes)
        for f in fields:
            value = seat.counts.get(f.key) or 0
            if f.group == "food":
                entry["food"][f.source] = value
            elif f.group == "toys":
                entry["toys"][f.source] = value
            else:
                entry[f.source] = value
        players.append(entry)
    try:
        return score_game(tableaux_from_json({"players": players}, edition), edition=edition)
    except EngineError as exc:
        raise table_errors(exc, seats, edition) from exc


def league_results(score: GameScore) -> list[dict[str, int]]:
    """Each seat's result as the league records it: total VP, fed cats and, when the engine's
    score pad has exactly the six lines the league knows, each line."""
    results = []
    for player in score.players:
        result = {"total_vp": player.total, "fed_cats": player.fed_cat_count}
        if tuple(player.breakdown) == BREAKDOWN and set(BREAKDOWN) == set(PAD_FIELDS):
            result.update({PAD_FIELDS[k]: v for k, v in player.breakdown.items()})
        results.append(result)
    return results
