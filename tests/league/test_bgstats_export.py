"""The league's BG Stats export and its round trips: the same games back in another league
(ranks, tie-breaks and notes), and nothing new when the export (or any export) is imported
again into a league that has its plays, whatever the letter case of their uuids."""

from __future__ import annotations

import copy
import datetime as dt
import json

import pytest

from league.clubs import services
from league.interop import planning, reading
from league.interop import services as bgstats_import
from league.models import Game, Participant, Player
from league.results import checks
from league.results import services as result_services
from tests.league.test_bgstats import TODAY, club_file, mapping_for, olive_imports, parse

# --- exporting and the round trip ----------------------------------------------------------


def table_of(league):
    """Each game of the league as a round trip must keep it, with its seats' total VP."""
    return [
        (
            g.played_on,
            g.played_time,
            g.place,
            g.notes,
            g.edition,
            [
                (p.player.name, p.seat, p.result["total_vp"], p.rank)
                for p in g.participants.order_by("seat")
            ],
        )
        for g in league.games.in_play_order()
    ]


def test_export_then_import_into_another_league_gives_the_same_games(
    league, players, users, log_game
):
    day = dt.date(2026, 11, 3)
    seats = [("mia", 31, 5), ("ned", 28, 4), ("pat", 19, 2)]
    log_game(
        "olive", day, *seats, place="Club room", notes="Round one", played_time=dt.time(19, 45)
    )
    log_game("olive", day + dt.timedelta(days=7), ("pat", 30, 3), ("mia", 22, 6))
    exported = bgstats_import.export_league(league=league)
    play = exported["plays"][0]
    assert exported["games"][0]["bggId"] == 228504
    assert play["playDate"] == "2026-11-03 19:45:00"
    assert [s["score"] for s in play["playerScores"]] == ["31", "28", "19"]
    assert [s["startPlayer"] for s in play["playerScores"]] == [True, False, False]

    other = services.league_create(
        name="Thursday Club", slug="thursday", game="cat-lady", by=users["olive"]
    )
    export = reading.parse_export(json.dumps(exported))
    names = {p.id: p.name for p in export.players.values()}
    mapping = {}
    for ref, name in names.items():
        player = Player.objects.get(name=name)
        services.member_add(league=other, player=player, by=player.user)
        mapping[ref] = player.pk
    result = olive_imports(other, users, export, mapping)
    assert result.created == 2

    assert table_of(other) == table_of(league)
    # Only the total VP come back (the export carries no score pad).
    assert {tuple(p.result) for p in Participant.objects.filter(game__league=other)} == {
        ("total_vp",)
    }


def test_export_of_a_game_without_a_time_comes_back_without_one(league, players, users, log_game):
    log_game("olive", dt.date(2026, 11, 3), ("mia", 31, 5), ("ned", 28, 4))
    exported = bgstats_import.export_league(league=league)
    assert exported["plays"][0]["playDate"] == "2026-11-03 00:00:00"
    plan = planning.plan_import(
        reading.parse_export(json.dumps(exported)), game_key="cat-lady", today=TODAY
    )
    assert plan.plays[0].played_time is None


def test_export_is_stable_so_importing_it_twice_finds_the_plays(league, players, users, log_game):
    log_game("olive", dt.date(2026, 11, 3), ("mia", 31, 5), ("ned", 28, 4))
    first = bgstats_import.export_league(league=league)
    assert first == bgstats_import.export_league(league=league)
    copied = copy.deepcopy(first)
    assert reading.parse_export(json.dumps(copied)).plays[0].uuid == first["plays"][0]["uuid"]


@pytest.fixture
def club_night(log_game):
    """Three games: a tie on VP broken by fed cats (with notes), a tie fed cats cannot break,
    and a game without a time or a place."""
    day, room = dt.date(2026, 11, 3), "Club room"
    vp_tie = [("mia", 30, 5), ("ned", 30, 4), ("pat", 19, 2)]
    log_game("olive", day, *vp_tie, notes="Close one", place=room, played_time=dt.time(19, 30))
    full_tie = [("pat", 27, 3), ("mia", 27, 3), ("ned", 22, 1)]
    log_game("olive", day, *full_tie, place=room, played_time=dt.time(20, 30))
    log_game("olive", day + dt.timedelta(days=7), ("ned", 25, 2), ("mia", 21, 6))


def test_the_export_carries_the_fed_cats_a_tie_needs_and_each_game_uuid(
    league, players, users, club_night
):
    exported = bgstats_import.export_league(league=league)
    broken, shared, plain = exported["plays"]
    assert broken["comments"] == (
        'Close one\nCatleague: {"players": {"Mia": {"fed_cats": 5}, "Ned": {"fed_cats": 4}}}'
    )
    assert shared["comments"] == (
        'Catleague: {"players": {"Pat": {"fed_cats": 3}, "Mia": {"fed_cats": 3}}}'
    )
    assert plain["comments"] == ""
    uuids = {str(g.uuid).upper() for g in league.games.all()}
    assert {p["uuid"] for p in exported["plays"]} == uuids


def test_our_export_imported_again_adds_nothing_whatever_the_letter_case(
    league, players, users, club_night
):
    exported = bgstats_import.export_league(league=league)
    for play in exported["plays"]:
        play["uuid"] = play["uuid"].lower()
    found = bgstats_import.preview(league=league, export=parse(exported), today=TODAY)
    assert (found.new, len(found.already), found.players) == ([], 3, [])
    result = olive_imports(league, users, parse(exported), {})
    assert (result.created, result.already) == (0, 3)
    assert league.games.count() == 3


def test_our_export_round_trips_exactly_through_another_league(league, players, users, club_night):
    exported = bgstats_import.export_league(league=league)
    other = services.league_create(
        name="Thursday Club", slug="thursday", game="cat-lady", by=users["olive"]
    )
    export = parse(exported)
    mapping = {}
    for ref, bg_player in export.players.items():
        player = Player.objects.get(name=bg_player.name)
        services.member_add(league=other, player=player, by=player.user)
        mapping[ref] = player.pk
    result = olive_imports(other, users, export, mapping)
    assert result.created == 3 and result.refused == 0
    assert table_of(other) == table_of(league)
    assert [[p.rank for p in g.participants.order_by("seat")] for g in other.games.in_play_order()][
        :2
    ] == [[1, 2, 3], [1, 1, 3]]
    again = bgstats_import.export_league(league=other)
    assert again["plays"] == exported["plays"]  # same uuids, scores, ranks, tie-breaks, notes
    back = bgstats_import.preview(league=league, export=parse(again), today=TODAY)
    assert back.new == [] and len(back.already) == 3


def test_imported_plays_keep_their_bgstats_uuid_in_the_export(league, players, users):
    olive_imports(league, users, parse(club_file()), mapping_for(players))
    exported = bgstats_import.export_league(league=league)
    assert [p["uuid"] for p in exported["plays"]] == [
        "1D000000-0000-4000-8000-000000000001",
        "1D000000-0000-4000-8000-000000000002",
    ]
    lower = club_file()
    for play in lower["plays"]:
        play["uuid"] = play["uuid"].lower()
    found = bgstats_import.preview(league=league, export=parse(lower), today=TODAY)
    assert found.new == [] and len(found.already) == 2
    assert Game.objects.filter(league=league).count() == 2


CAT = "cat-lady"
MAPLE = "cat-ladies-of-maple-st"
CANTANKEROUS = "cantankerous-cats"


@pytest.mark.parametrize(
    ("game", "edition", "results", "details"),
    [
        (CAT, "premium", [{"total_vp": 24, "fed_cats": 3}, {"total_vp": 24, "fed_cats": 6}], {}),
        (CAT, "solitaire", [{"total_vp": 31}], {"cat_player_vp": 27}),
        (
            MAPLE,
            "standard",
            [
                {"cats_collected": 6, "turns_taken": 9, "unused_mystery_cards": 1},
                {"cats_collected": 6, "turns_taken": 8, "unused_mystery_cards": 0},
            ],
            {},
        ),
        (
            CANTANKEROUS,
            "standard",
            [
                {"mischief_points": 9, "winner": True, "win_type": "nine_mischief"},
                {"mischief_points": 5},
                {"mischief_points": 7},
            ],
            {},
        ),
        (
            CANTANKEROUS,
            "basic",
            [
                {"mischief_points": 3},
                {"mischief_points": 10, "winner": True, "win_type": "nine_mischief"},
            ],
            {},
        ),
    ],
)
def test_every_game_and_edition_round_trips_through_the_export(
    players, users, game, edition, results, details
):
    """What BG Stats cannot hold (an edition, Maple St.'s turns, how a Cantankerous Cats
    game was won, the solitaire cat player's VP) rides in the play's comments and comes back."""
    home, away = (
        services.league_create(
            name=f"{name} {game}", slug=f"{name}-{game}", game=game, by=users["olive"]
        )
        for name in ("home", "away")
    )
    cast = [players["olive"], players["mia"], players["ned"]][: len(results)]
    for player in cast[1:]:
        for lg in (home, away):
            services.member_add(league=lg, player=player, by=player.user)
    result_services.game_record(
        league=home,
        logged_by=users["olive"],
        played_on=dt.date(2026, 11, 3),
        edition=edition,
        details=details or None,
        participants=[
            checks.ParticipantInput(player_id=p.pk, seat=i + 1, result=r)
            for i, (p, r) in enumerate(zip(cast, results, strict=True))
        ],
    )
    export = parse(bgstats_import.export_league(league=home))
    mapping = {ref: Player.objects.get(name=p.name).pk for ref, p in export.players.items()}
    result = olive_imports(away, users, export, mapping)
    assert (result.created, result.refused) == (1, 0)
    (original,), (copied,) = home.games.all(), away.games.all()
    assert (copied.edition, copied.details) == (original.edition, original.details)
    assert [(p.player_id, p.result, p.rank) for p in copied.participants.order_by("seat")] == [
        (p.player_id, p.result, p.rank) for p in original.participants.order_by("seat")
    ]
    assert (
        bgstats_import.preview(
            league=home, export=parse(bgstats_import.export_league(league=away)), today=TODAY
        ).new
        == []
    )
