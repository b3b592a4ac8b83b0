"""The kinds of game a correction must handle, and the ways each can be logged: the matrix that
`test_corrections_page_api` and `test_corrections_nights_bgstats` correct, kind by way.

Kinds: each game, edition and way of scoring that the result form and the API accept — Cat
Lady (base, Premium, Box of Treats) as totals, as a score pad, and as cards scored by the
calculator wherever card data can score (the base deck, for a base or Premium game; Box of
Treats' placeholder deck); Cat Lady solitaire against the cat player; Cat Ladies of Maple
St.; Cantankerous Cats, basic and standard. Ways of logging: the *Log a game* page, the REST
API, the result page of a game night's table, the night's API, and a BG Stats import. Each
game is corrected on the page and through the API.

Pairs that do not exist: cards cannot be sent through the API or held by a BG Stats file (the
API corrects a calculator game with totals instead); BG Stats holds a total, never a score
pad; a night's tables seat two or more, so no solitaire game is played at one; Premium's and
Box of Treats' own card data is incomplete and cannot score a game (tested below).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import pytest

from league.catalogue import GAMES
from league.results import entry as result_entry
from tests.league.conftest import score_pad
from tests.league.test_pages_entry import field_errors, page

DAY = dt.date(2026, 3, 3)
CAT, MAPLE, CANTANKEROUS = "cat-lady", "cat-ladies-of-maple-st", "cantankerous-cats"
# The result field that is each game's headline number (`Participant.score`, BG Stats' score).
HEADLINE = {CAT: "total_vp", MAPLE: "cats_collected", CANTANKEROUS: "mischief_points"}


@dataclass(frozen=True)
class Kind:
    """One kind of game: each player's result as logged and as corrected (by cast name).

    ``corrected`` is what is stored after the correction, whichever way it is made: the API
    sends it; the page gives it field by field or, for a game scored with cards (``mode``
    "cards:<deck>"), changes the cards by ``card_changes`` and the calculator scores them to
    exactly ``corrected``."""

    id: str
    game: str
    edition: str
    logged: dict[str, dict[str, Any]]  # results, or each seat's cards (mode "cards:...")
    corrected: dict[str, dict[str, Any]]
    ranks: dict[str, int]  # after the correction; the logged ranks differ
    mode: str = "totals"
    card_changes: dict[str, dict[str, Any]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def deck(self) -> str:
        return "" if self.mode == "totals" else self.mode.removeprefix("cards:")

    @property
    def cast(self) -> list[str]:
        return list(self.logged)


def _totals(edition: str) -> Kind:
    return Kind(
        id=f"cat-lady-{edition}-totals",
        game=CAT,
        edition=edition,
        logged={"mia": {"total_vp": 20, "fed_cats": 3}, "ned": {"total_vp": 10}},
        # Mia fed no cat: 0 VP and 0 fed cats are values, and Ned wins.
        corrected={"mia": {"total_vp": 0, "fed_cats": 0}, "ned": {"total_vp": 10}},
        ranks={"mia": 2, "ned": 1},
    )


def _pad(edition: str) -> Kind:
    return Kind(
        id=f"cat-lady-{edition}-score-pad",
        game=CAT,
        edition=edition,
        logged={
            "mia": score_pad(20, 4, (14, 0, 6, 0, 0, 0)),
            "ned": score_pad(10, 2, (12, 0, 0, 0, 0, -2)),
        },
        # Mia's cats were not fed (a fed-cats line of 0), Ned's food penalty was not due (0).
        corrected={
            "mia": score_pad(6, 0, (0, 0, 6, 0, 0, 0)),
            "ned": score_pad(12, 2, (12, 0, 0, 0, 0, 0)),
        },
        ranks={"mia": 2, "ned": 1},
    )


def _base_cards(edition: str) -> Kind:
    return Kind(
        id=f"cat-lady-{edition}-cards",
        game=CAT,
        edition=edition,
        mode="cards:base",
        logged={
            "mia": {
                "cats": ["Bronte"],
                "strays": ["Florence"],
                "food_tuna": 2,
                "food_chicken": 1,
                "food_milk": 1,
                "costumes": 1,
            },
            "ned": {"cats": ["Sparkle"], "food_tuna": 2, "toy_cat_tower": 2},
        },
        # Bronte was never Mia's, she had no tuna left and no costume: the calculator makes
        # her 0 VP, and Ned wins.
        card_changes={"mia": {"cats": [], "food_tuna": 0, "costumes": 0}},
        corrected={
            "mia": score_pad(0, 1, (2, 0, -2, 0, 0, 0)),
            "ned": score_pad(3, 1, (3, 2, -2, 0, 0, 0)),
        },
        ranks={"mia": 2, "ned": 1},
    )


KINDS = [
    _totals("base"),
    _pad("base"),
    _base_cards("base"),
    _totals("premium"),
    _pad("premium"),
    # Premium's own card data is incomplete; its main deck is the base game's, which scores.
    _base_cards("premium"),
    _totals("box-of-treats"),
    _pad("box-of-treats"),
    Kind(
        # Box of Treats' own card data is incomplete; its placeholder deck scores (labelled so).
        id="cat-lady-box-of-treats-placeholder-cards",
        game=CAT,
        edition="box-of-treats",
        mode="cards:box-of-treats-placeholder",
        logged={
            "mia": {
                "cats": ["Shadow", "Placeholder Gray Cat 1"],
                "boxes": ["Placeholder Gray Cat Box"],
                "food_treat": 1,
                "food_tuna": 3,
            },
            "ned": {"cats": ["Keaton"], "food_milk": 2},
        },
        # Ned had no milk left (0): Keaton goes hungry and Mia wins. The placeholder pad has a
        # Boxes line the league does not record, so total VP and fed cats are kept.
        card_changes={"ned": {"food_milk": 0}},
        corrected={"mia": {"total_vp": -1, "fed_cats": 2}, "ned": {"total_vp": -4, "fed_cats": 0}},
        ranks={"mia": 1, "ned": 2},
    ),
    Kind(
        id="cat-lady-solitaire",
        game=CAT,
        edition="solitaire",
        # The cat player scored 0: Mia's 12 beat it; corrected to 0, she did not.
        logged={"mia": {"total_vp": 12}},
        corrected={"mia": {"total_vp": 0}},
        ranks={"mia": 2},
        details={"cat_player_vp": 0},
    ),
    Kind(
        id="maple-st",
        game=MAPLE,
        edition="standard",
        logged={
            "mia": {"cats_collected": 6, "turns_taken": 9, "unused_mystery_cards": 1},
            "ned": {"cats_collected": 6, "turns_taken": 9, "unused_mystery_cards": 0},
        },
        # The tie on cats and turns is broken by unused Mystery cards: Mia had none left.
        corrected={
            "mia": {"cats_collected": 6, "turns_taken": 9, "unused_mystery_cards": 0},
            "ned": {"cats_collected": 6, "turns_taken": 9, "unused_mystery_cards": 2},
        },
        ranks={"mia": 2, "ned": 1},
    ),
    Kind(
        id="cantankerous-basic",
        game=CANTANKEROUS,
        edition="basic",
        logged={
            "mia": {"mischief_points": 9, "winner": True, "win_type": "nine_mischief"},
            "ned": {"mischief_points": 3},
        },
        corrected={
            "mia": {"mischief_points": 0},
            "ned": {"mischief_points": 10, "winner": True, "win_type": "nine_mischief"},
        },
        ranks={"mia": 2, "ned": 1},
    ),
    Kind(
        id="cantankerous-standard",
        game=CANTANKEROUS,
        edition="standard",
        logged={
            "mia": {"mischief_points": 9, "winner": True, "win_type": "nine_mischief"},
            "ned": {"mischief_points": 0},
        },
        # Ned won by a Feral victory with no Mischief points.
        corrected={
            "mia": {"mischief_points": 4},
            "ned": {"mischief_points": 0, "winner": True, "win_type": "feral_victory"},
        },
        ranks={"mia": 2, "ned": 1},
    ),
]

WAYS = ("page", "api", "night-page", "night-api", "bgstats")


def _logged_so(kind: Kind, way: str) -> bool:
    if kind.deck:
        return way in ("page", "night-page")  # cards are given on a page only
    # BG Stats holds each player's total, never a score pad; a night's tables seat two or more.
    pad_from_bgstats = way == "bgstats" and kind.id.endswith("-score-pad")
    solitaire_at_night = way.startswith("night") and kind.edition == "solitaire"
    return not (pad_from_bgstats or solitaire_at_night)


def cases(ways) -> list:
    """(kind, way of logging, way of correcting) for each way of ``ways`` that logs the kind."""
    return [
        pytest.param(kind, way, how, id=f"{kind.id}-by-{way}-corrected-on-{how}")
        for kind in KINDS
        for way in ways
        if _logged_so(kind, way)
        for how in ("page", "api")
    ]


def test_the_kinds_are_every_edition_and_way_of_scoring_the_forms_accept():
    """A new edition, or card data that can score, fails here until a kind corrects it."""
    editions = {(game.key, edition.key) for game in GAMES.values() for edition in game.editions}
    assert {(kind.game, kind.edition) for kind in KINDS} == editions
    for edition in GAMES[CAT].editions:
        if edition.max_players > 1:
            ways = {k.id for k in KINDS if k.game == CAT and k.edition == edition.key}
            assert {f"cat-lady-{edition.key}-{way}" for way in ("totals", "score-pad")} <= ways
    playable = {deck.name for deck in result_entry.available_decks() if deck.playable}
    assert {kind.deck for kind in KINDS if kind.deck} == playable
    assert len({kind.id for kind in KINDS}) == len(KINDS)


@pytest.mark.django_db
def test_incomplete_card_data_cannot_score_so_no_game_is_scored_with_it(as_user, league, players):
    """Premium's and Box of Treats' own card data is incomplete: the calculator is refused
    beside the field, so no game exists to be corrected with those cards."""
    client = as_user("mia")
    for edition, deck in (("premium", "premium"), ("box-of-treats", "box-of-treats")):
        url = f"/games/new/?league=tuesday&edition={edition}&players=2&mode=cards:{deck}"
        [message] = field_errors(page(client.get(url)), "id_mode")
        assert "incomplete card data: it cannot score a game yet" in message
        assert "Enter the totals instead." in message
