"""Every kind of game (`test_corrections_kinds`) played at a game night's table, its result
entered on the table's page or through the night's API, or imported from a BG Stats file, is
corrected on the page and through the API and checked as `test_corrections_page_api` checks
a game logged there; the game keeps its night's table and round, or its BG Stats play (a
second import of the file adds nothing)."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest

from league.catalogue import check_results
from league.interop import reading, writing
from league.interop import services as bgstats
from league.models import Game, NightTable
from league.nights import services as nights
from league.results import seating
from tests.league.test_corrections import opened
from tests.league.test_corrections_kinds import DAY, HEADLINE, WAYS, Kind, cases
from tests.league.test_corrections_page_api import (
    LOGGED_HERE,
    cast_and_leagues,
    logged_then_corrected,
    submitted,
)
from tests.league.test_pages_entry import page

pytestmark = pytest.mark.django_db

PLAY_UUID = "5E1F3C0A-0B1D-4C6E-9F2A-7D8E9A0B1C2D"


@pytest.fixture
def fx(users, players, league, friday, as_user, api) -> dict[str, Any]:
    return cast_and_leagues(users, players, league, friday, as_user, api)


def _night_table(kind, league, players, users) -> NightTable:
    night = nights.night_open(
        league=league,
        by=users["olive"],
        played_on=DAY,
        edition=kind.edition,
        rounds=1,
        present=[players[name] for name in kind.cast],
    )
    return nights.round_draw(night=night, by=users["olive"]).tables.get()


def log_at_a_nights_table(kind, league, players, users, as_user, **_) -> Game:
    table = _night_table(kind, league, players, users)
    night = table.round.night_id
    client = as_user("mia")
    url, form = opened(
        client,
        f"/leagues/{league.slug}/nights/{night}/tables/{table.pk}/result/"
        f"?league={league.slug}&mode={kind.mode}",
    )
    data = submitted(kind, form, players, kind.logged)
    response = client.post(url, {**data, "action": "preview"})
    assert response.status_code == 200, re.findall(r"<p>(.*?)</p>", page(response))
    digest = re.search(r'name="previewed" value="(\w+)"', page(response)).group(1)
    response = client.post(url, {**data, "action": "save", "previewed": digest})
    assert response.status_code == 302 and response["Location"].endswith(f"/nights/{night}/")
    return Game.objects.get(night_table=table)


def log_through_the_nights_api(kind, league, players, users, api, **_) -> Game:
    table = _night_table(kind, league, players, users)
    names = {players[name].pk: name for name in kind.cast}
    body = {
        "participants": [
            {"player": pid, "seat": seat, "result": kind.logged[names[pid]]}
            for seat, pid in enumerate(seating.table_setup(table), start=1)
        ]
    }
    response = api("mia").post(
        f"/api/nights/{table.round.night_id}/tables/{table.pk}/result/", body, format="json"
    )
    assert response.status_code == 201, response.json()
    return Game.objects.get(pk=response.json()["id"], night_table=table)


def bgstats_file(kind: Kind, players) -> dict[str, Any]:
    """The game as a BG Stats file holds it: each player's headline score, winner and seat;
    what BG Stats has no field for (an edition other than the game's first, Maple St.'s turns
    and Mystery cards, how a Cantankerous Cats game was won, the cat player's VP) on the
    line Catleague's own export adds to the comments."""
    results = [kind.logged[name] for name in kind.cast]
    checked = check_results(kind.game, kind.edition, results, kind.details)
    seats = [
        writing.ExportSeat(
            player_id=players[name].pk,
            player_name=players[name].name,
            seat=seat,
            rank=rank,
            score=result[HEADLINE[kind.game]],
            result=result,
        )
        for seat, (name, result, rank) in enumerate(
            zip(kind.cast, checked.results, checked.ranks, strict=True), start=1
        )
    ]
    play = writing.ExportGame(
        id=1,
        uuid=PLAY_UUID,
        played_on=DAY,
        played_time=dt.time(19, 30),
        place="Club room",
        notes="",
        edition=kind.edition,
        seats=seats,
        details=kind.details,
    )
    return writing.write_export(league_slug="elsewhere", game_key=kind.game, games=[play])


def import_from_bgstats(kind, league, players, users, **_) -> Game:
    export = reading.parse_export(json.dumps(bgstats_file(kind, players)))
    by_name = {players[name].name: players[name].pk for name in kind.cast}
    mapping = {ref: by_name[p.name] for ref, p in export.players.items()}
    done = bgstats.import_plays(league=league, export=export, mapping=mapping, by=users["olive"])
    assert (done.created, done.refused, done.guests) == (1, 0, [])
    return Game.objects.get(league=league, bgstats_uuid=PLAY_UUID)


LOGGED_THERE = {
    "night-page": log_at_a_nights_table,
    "night-api": log_through_the_nights_api,
    "bgstats": import_from_bgstats,
}


@pytest.mark.parametrize(("kind", "way", "how"), cases(LOGGED_THERE))
def test_every_kind_of_game_of_a_night_or_a_bgstats_import_is_corrected(kind, way, how, fx):
    corrected = logged_then_corrected(kind, LOGGED_THERE[way], how, fx)
    if way.startswith("night"):
        assert corrected.night_round == 1
        assert NightTable.objects.get(game=corrected).round.night.played_on == DAY
    else:
        assert corrected.bgstats_uuid == PLAY_UUID
        export = reading.parse_export(json.dumps(bgstats_file(kind, fx["players"])))
        league = fx["leagues"][kind.game]
        assert bgstats.preview(league=league, export=export).new == []


def test_every_way_of_logging_is_corrected():
    assert {*LOGGED_HERE, *LOGGED_THERE} == set(WAYS)
