"""Every kind of game (`test_corrections_kinds`) logged on the *Log a game* page or through the
REST API is corrected on the page (as a browser sends the form it is shown: what the page
reopens with, some fields changed) and through the API, so that the winner changes and a 0 is
given; then what was stored, the game page, the API and the ratings (rebuilt, a later game's
included) are checked. The same checks serve the games of a night and of a BG Stats import
(`test_corrections_nights_bgstats`)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from league.catalogue import get_game
from league.clubs import services as clubs
from league.models import Game, League, Participant
from league.results import checks
from league.results import services as result_services
from tests.league.test_corrections import opened, preview_and_save
from tests.league.test_corrections_kinds import (
    CANTANKEROUS,
    CAT,
    DAY,
    HEADLINE,
    MAPLE,
    Kind,
    cases,
)
from tests.league.test_pages_entry import page

pytestmark = pytest.mark.django_db

LATER = dt.date(2026, 3, 10)


def cast_and_leagues(users, players, league, friday, as_user, api) -> dict[str, Any]:
    """What the ways of logging and correcting use: the cast, their clients, and a league of
    each game (Maple St.'s is made here), organised by Olive, with Mia and Ned as members."""
    maple = clubs.league_create(name="Maple", slug="maple", game=MAPLE, by=users["olive"])
    for name in ("mia", "ned"):
        clubs.member_add(league=maple, player=players[name], by=users[name])
    leagues = {CAT: league, CANTANKEROUS: friday, MAPLE: maple}
    return {"leagues": leagues, "players": players, "users": users, "as_user": as_user, "api": api}


@pytest.fixture
def fx(users, players, league, friday, as_user, api) -> dict[str, Any]:
    return cast_and_leagues(users, players, league, friday, as_user, api)


# --- the form a browser sends --------------------------------------------------------------------


def fill_seat(form: dict[str, list[str]], seat: int, kind: Kind, values: dict[str, Any]) -> None:
    """Give one seat's result (every result field: an absent one is emptied) or change some of
    its cards, as a person does on the page."""
    prefix = f"seat{seat}-"
    if kind.deck:
        for name, value in values.items():
            form[prefix + name] = list(value) if isinstance(value, list) else [str(value)]
        return
    for f in get_game(kind.game).fields:
        value = values.get(f.name)
        if f.kind == "bool":
            if value:
                form[prefix + f.name] = ["on"]
            else:
                form.pop(prefix + f.name, None)
        else:
            form[prefix + f.name] = ["" if value is None else str(value)]


def seat_players(form: dict[str, list[str]], players, kind: Kind) -> dict[int, str]:
    """Seat -> cast name, as the form has them."""
    names = {players[name].pk: name for name in kind.cast}
    return {n: names[int(form[f"seat{n}-player"][0])] for n in range(1, len(kind.cast) + 1)}


def submitted(kind: Kind, form: dict[str, list[str]], players, results) -> dict[str, list[str]]:
    for seat, name in seat_players(form, players, kind).items():
        fill_seat(form, seat, kind, results.get(name, {}))
    for name, value in kind.details.items():
        form[name] = [str(value)]
    return form


# --- the ways of logging a game ------------------------------------------------------------------


def log_on_page(kind, league, players, as_user, **_) -> Game:
    query = f"league={league.slug}&edition={kind.edition}&players={len(kind.cast)}&mode={kind.mode}"
    url, form = opened(as_user("mia"), f"/games/new/?{query}")
    form["played_on"] = [DAY.isoformat()]
    for seat, name in enumerate(kind.cast, start=1):
        form[f"seat{seat}-player"], form[f"seat{seat}-seat"] = [str(players[name].pk)], [str(seat)]
    return preview_and_save(as_user("mia"), url, submitted(kind, form, players, kind.logged))


def log_through_api(kind, league, players, api, **_) -> Game:
    body = {
        "league": league.pk,
        "played_on": DAY.isoformat(),
        "edition": kind.edition,
        "participants": [
            {"player": players[name].pk, "seat": seat, "result": kind.logged[name]}
            for seat, name in enumerate(kind.cast, start=1)
        ],
    }
    if kind.details:
        body["details"] = kind.details
    response = api("mia").post("/api/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return Game.objects.get(pk=response.json()["id"])


LOGGED_HERE = {"page": log_on_page, "api": log_through_api}


# --- the ways of correcting it -------------------------------------------------------------------


def correct_on_page(kind, game, league, players, as_user, **_) -> Game:
    """Olive opens *Correct this game*: the form shows what was stored (cards when the
    calculator scored it, every 0 as 0); she changes what was wrong and saves."""
    client = as_user("olive")
    url, form = opened(client, f"/leagues/{league.slug}/games/{game.pk}/edit/")
    assert parse_qs(urlsplit(url).query)["mode"] == [kind.mode]
    stored = {p.player_id: p for p in game.participants.all()}
    for seat, name in seat_players(form, players, kind).items():
        participant = stored[players[name].pk]
        assert form[f"seat{seat}-seat"] == [str(participant.seat)]
        if kind.deck:
            cards = participant.cards
            for group in ("cats", "strays", "boxes"):
                assert sorted(form.get(f"seat{seat}-{group}", [])) == sorted(cards[group])
            for key, count in cards["counts"].items():
                assert form[f"seat{seat}-{key}"] == [str(count)], key
        else:
            for key, value in participant.result.items():
                shown = ["on"] if value is True else [str(value)]
                assert form[f"seat{seat}-{key}"] == shown, (key, form)
    for key, value in game.details.items():
        assert form[key] == [str(value)]
    changes = kind.card_changes if kind.deck else kind.corrected
    return preview_and_save(client, url, submitted(kind, form, players, changes))


def correct_through_api(kind, game, players, api, **_) -> Game:
    """Olive sends the corrected results (and the game's fields) with PATCH; the API takes
    results, not cards."""
    seats = {p.player_id: p.seat for p in game.participants.all()}
    body: dict[str, Any] = {
        "participants": [
            {
                "player": players[name].pk,
                "seat": seats[players[name].pk],
                "result": kind.corrected[name],
            }
            for name in kind.cast
        ]
    }
    if kind.details:
        body["details"] = kind.details
    response = api("olive").patch(f"/api/games/{game.pk}/", body, format="json")
    assert response.status_code == 200, response.json()
    return Game.objects.get(pk=game.pk)


CORRECT = {"page": correct_on_page, "api": correct_through_api}


# --- what shows afterwards -----------------------------------------------------------------------


def ratings_state(league: League) -> tuple[list[tuple], list[tuple]]:
    """Every participant's rating change and every standing of the league, rounded."""

    def r(x):
        return None if x is None else round(x, 6)

    games = sorted(
        (p.game_id, p.player_id, p.rank, r(p.rating_before), r(p.rating_after))
        for p in Participant.objects.filter(game__league=league)
    )
    standings = sorted(
        (player, r(rating), played, wins)
        for player, rating, played, wins in league.ratings.values_list(
            "player_id", "rating", "games_played", "wins"
        )
    )
    return games, standings


def stored_cards(kind: Kind, name: str) -> dict[str, Any]:
    """The cards Mia or Ned held after the correction: the logged ones, changed."""
    held = {**kind.logged[name], **kind.card_changes.get(name, {})}
    return {
        "cats": sorted(held.get("cats", [])),
        "strays": sorted(held.get("strays", [])),
        "boxes": sorted(held.get("boxes", [])),
        "counts": {k: v for k, v in held.items() if not isinstance(v, list) and v},
    }


def shown_results(html: str) -> list[tuple[int, str, int]]:
    """(place, player, score) of each row of the game page's results table."""
    table = html[html.index('class="table-stack results-table"') :]
    table = table[: table.index("</table>")]
    rows = re.findall(
        r'data-label="Place">(\d+)(?:st|nd|rd|th).*?<a href="[^"]*">([^<]+)</a>.*?'
        r"<strong>(-?\d+)</strong>",
        table,
        re.S,
    )
    return [(int(place), name, int(score)) for place, name, score in rows]


PAD_LABELS = {
    "fed_cats_vp": "Fed cats",
    "toys_vp": "Toys",
    "costumes_vp": "Costumes",
    "catnip_vp": "Catnip",
    "vp_tokens_vp": "VP tokens",
    "food_penalty_vp": "Food penalty",
}


def shown_pad(html: str) -> dict[str, list[int]]:
    """The game page's score pad: each line's values, sorted (empty: no score pad shown)."""
    if 'class="score-pad"' not in html:
        return {}
    table = html[html.index('class="score-pad"') :]
    body = table[table.index("<tbody>") : table.index("</tbody>")]
    return {
        label: sorted(int(v) for v in re.findall(r'<td class="num">(-?\d+)</td>', cells))
        for label, cells in re.findall(r'<tr><th scope="row">([^<]+)</th>(.*?)</tr>', body)
    }


def logged_then_corrected(kind: Kind, log, how: str, fx: dict[str, Any]) -> Game:
    """Log the game with ``log``, log a later one, correct the first on the page or through
    the API (``how``), and check everything that shows it; returns the corrected game."""
    league = fx["leagues"][kind.game]
    players, users, as_user, api = fx["players"], fx["users"], fx["as_user"], fx["api"]
    ways = {"league": league, **fx}
    game = log(kind, **ways)
    assert game.edition == kind.edition and game.scored_with == kind.deck
    logged_ranks = {p.player.name.lower(): p.rank for p in game.participants.all()}
    assert logged_ranks != kind.ranks, "the correction changes the ranks"
    seats = {p.player_id: p.seat for p in game.participants.all()}
    # A later game of the same players, rated after this one: its ratings follow the correction.
    later = result_services.game_record(
        league=league,
        logged_by=users["olive"],
        played_on=LATER,
        edition=kind.edition,
        details=kind.details or None,
        participants=[
            checks.ParticipantInput(player_id=players[name].pk, seat=seat, result=result)
            for seat, (name, result) in enumerate(kind.corrected.items(), start=1)
        ],
    )
    before = ratings_state(league)

    corrected = CORRECT[how](kind, game, **ways)

    # What was stored: the corrected results and ranks, the same players in the same seats.
    assert corrected.pk == game.pk and corrected.edition == kind.edition
    assert corrected.details == kind.details
    rows = {p.player.name.lower(): p for p in corrected.participants.select_related("player")}
    assert {name: p.result for name, p in rows.items()} == kind.corrected
    assert {name: p.rank for name, p in rows.items()} == kind.ranks
    for name, p in rows.items():
        assert p.score == kind.corrected[name][HEADLINE[kind.game]]
        assert p.seat == seats[p.player_id]
    if kind.deck and how == "page":
        # Scored again from the changed cards, which are kept for the next correction.
        assert corrected.scored_with == kind.deck
        for name, p in rows.items():
            cards = p.cards
            kept = {g: sorted(cards[g]) for g in ("cats", "strays", "boxes")}
            kept["counts"] = {k: v for k, v in cards["counts"].items() if v}
            assert kept == stored_cards(kind, name)
    else:
        assert corrected.scored_with == "" and all(p.cards == {} for p in rows.values())

    # What the API shows.
    shown = api("ned").get(f"/api/games/{game.pk}/").json()
    assert shown["scored_with"] == corrected.scored_with and shown["details"] == kind.details
    assert {
        p["player"]: (p["result"], p["rank"], p["score"], p["rating_after"])
        for p in shown["participants"]
    } == {p.player_id: (p.result, p.rank, p.score, p.rating_after) for p in rows.values()}

    # What the game page shows: places and scores, and every score-pad line recorded (0s too).
    html = page(as_user("ned").get(f"/leagues/{league.slug}/games/{game.pk}/"))
    assert shown_results(html) == sorted((p.rank, p.player.name, p.score) for p in rows.values())
    if all("toys_vp" in result for result in kind.corrected.values()):
        assert shown_pad(html) == {
            label: sorted(result[key] for result in kind.corrected.values())
            for key, label in PAD_LABELS.items()
        }
    else:
        assert shown_pad(html) == {}
    if kind.deck and how == "page":
        # Corrected again, the game opens with the cards it was scored from this time.
        url, form = opened(as_user("olive"), f"/leagues/{league.slug}/games/{game.pk}/edit/")
        assert parse_qs(urlsplit(url).query)["mode"] == [kind.mode]
        for seat, name in seat_players(form, players, kind).items():
            held = stored_cards(kind, name)
            assert sorted(form.get(f"seat{seat}-cats", [])) == held["cats"]
            for key in ("food_tuna", "food_milk", "costumes"):
                assert form[f"seat{seat}-{key}"] == [str(held["counts"].get(key, 0))]

    # The ratings: rebuilt from the game on, as a rebuild from scratch makes them. The
    # standings change: a rating, or (solitaire, never rated) the number of wins.
    after = ratings_state(league)
    if kind.edition == "solitaire":
        assert after[1] != before[1]
        assert all(p.rating_after is None for p in rows.values())
        assert "This game is not rated" in html and "beat the cat player" not in html
        assert [(rating, wins) for _, rating, _, wins in after[1]] == [(1500.0, 0)]
    elif checks.scored_with_placeholder(corrected.scored_with):
        # Still scored with placeholder card data: recorded, never rated (corrected with
        # totals through the API, it is an ordinary game and rated below).
        assert not game.rated and all(p.rating_after is None for p in rows.values())
        assert "scored with placeholder card data" in html
        # The wins follow the correction; the ratings stay where the other game left them.
        assert after[1] != before[1]
        assert [s[:2] for s in after[1]] == [s[:2] for s in before[1]]
    else:
        assert after[1] != before[1]
        winner, loser = sorted(rows.values(), key=lambda p: p.rank)
        assert winner.rating_after > winner.rating_before and loser.rating_delta < 0
        assert "Rating before → after" in html
        # The later game starts from the corrected ratings.
        assert [g for g in after[0] if g[0] == later.pk] != [
            g for g in before[0] if g[0] == later.pk
        ]
    result_services.ratings_rebuild(league=league)
    assert ratings_state(league) == after
    return corrected


@pytest.mark.parametrize(("kind", "way", "how"), cases(LOGGED_HERE))
def test_every_kind_of_game_logged_on_the_page_or_through_the_api_is_corrected(kind, way, how, fx):
    logged_then_corrected(kind, LOGGED_HERE[way], how, fx)
