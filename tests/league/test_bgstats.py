"""BG Stats files in and out: reading (damaged files refused with their place), planning which
plays become games, importing in one transaction (twice creates nothing), exporting, and the
round trip into another league. The files are written by hand from the fields BG Stats
exports (see league/interop/reading.py)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from league.clubs import services
from league.interop import planning, reading
from league.interop import services as bgstats_import
from league.models import AuditEntry, Game, Player
from league.results import services as result_services

FIXTURE = Path(__file__).parent / "fixtures" / "bgstats_club.json"
# The command importing the club's file into the Tuesday Club as Olive.
IMPORT_AS_OLIVE = ("import_bgstats", "tuesday", str(FIXTURE), "--user", "olive")
# The shape of the public sample export (github.com/sqrtxander/bgstats-wrapped, sampleData.json:
# groups, tags, copies, teams, boards, newest play first) with its quirks in other games' plays
# and in Cat Lady's: a calculated score, the anonymous player twice, two players called Alex,
# a uuid again in small letters, a tie, a play without scores, an ignored play.
REALISTIC = Path(__file__).parent / "fixtures" / "bgstats_realistic.json"
TODAY = dt.date(2026, 11, 24)


def club_file() -> dict:
    return json.loads(FIXTURE.read_text())


def parse(data) -> reading.Export:
    return reading.parse_export(json.dumps(data))


# --- reading --------------------------------------------------------------------------------


def test_reads_players_places_games_and_plays():
    export = parse(club_file())
    assert export.players[2].name == "ned"
    assert export.locations == {1: "Club room"}
    assert export.games[10].bgg_id == 228504
    first = export.plays[0]
    assert first.played_at == dt.datetime(2026, 10, 6, 19, 30)
    assert [(s.player_ref, s.score, s.winner, s.start_player) for s in first.scores] == [
        (1, 31, True, False),
        (2, 28, False, True),
        (3, 19, False, False),
    ]
    assert export.plays[1].expansion_refs == (11,)


@pytest.mark.parametrize(
    ("damage", "where", "says"),
    [
        (lambda d: d.pop("plays"), "plays", "no 'plays' list"),
        (lambda d: d.pop("games"), "games", "no 'games' list"),
        (lambda d: d.update(players="Mia, ned"), "players", "must be a list"),
        (lambda d: d.update(plays={"a": 1}), "plays", "must be a list"),
    ],
)
def test_a_file_that_is_no_export_is_refused_with_the_place_of_each_problem(damage, where, says):
    data = club_file()
    damage(data)
    with pytest.raises(reading.BGStatsError) as caught:
        parse(data)
    assert where in caught.value.errors, caught.value.errors
    assert says in " ".join(caught.value.errors[where])


@pytest.mark.parametrize(
    ("damage", "unread", "says"),
    [
        # Olivia (id 4) plays in plays 1 and 3 only.
        (lambda d: d["players"][3].pop("name"), [1, 3], "players[3].name is missing."),
        (lambda d: d["players"][3].update(name=7), [1, 3], "players[3].name must be text"),
        (lambda d: d["players"][4].update(id=4), [1, 3], "id 4 is used twice in the file's"),
        # Red7 (games[2]) is play 4's game.
        (lambda d: d["games"][2].update(name=None), [4], "games[2].name is missing."),
    ],
)
def test_a_damaged_player_or_game_entry_leaves_out_only_the_plays_that_need_it(
    damage, unread, says
):
    data = club_file()
    damage(data)
    export = parse(data)
    assert [u.index for u in export.unread] == unread
    for play in export.unread:
        assert says in " ".join(play.reasons), play.reasons
    assert [p.index for p in export.plays] == [i for i in range(7) if i not in unread]


def test_an_unreadable_boardgamegeek_field_only_leaves_the_game_less_known():
    data = club_file()
    data["games"][2].update(bggId="n/a", bggName=["Red7"])
    data["games"][1].update(bggId=3.5)
    export = parse(data)
    assert export.unread == [] and (export.games[20].bgg_id, export.games[20].bgg_name) == (0, "")
    plan = planning.plan_import(export, game_key="cat-lady", today=TODAY)
    as_given = planning.plan_import(parse(club_file()), game_key="cat-lady", today=TODAY)
    assert plan.skipped_games == as_given.skipped_games == {"Red7": 1}
    assert plan.refused == as_given.refused and len(plan.plays) == len(as_given.plays)


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (lambda p: p.pop("uuid"), "uuid: is missing"),
        (lambda p: p.update(uuid="x" * 65), "1 to 64 characters"),
        (lambda p: p["playerScores"][0].update(playerRefId=99), "no player has id 99"),
        (lambda p: p.update(gameRefId=77), "no game has id 77"),
        (lambda p: p["playerScores"][0].update(score="thirty"), "whole number, not 'thirty'"),
        (lambda p: p["playerScores"][0].update(score="10+10+15"), "Mia's score is a calculation"),
        (lambda p: p["playerScores"][0].update(score=31.5), "whole number, not 31.5"),
        (lambda p: p["playerScores"][0].update(winner="yes"), "true or false"),
        (lambda p: p.update(playDate="6/10/2026"), "must look like 2026-11-20 19:30:00"),
        (lambda p: p.update(playerScores=[]), "each player's score"),
        (lambda p: p["playerScores"][1].update(playerRefId=1), "Mia is listed 2 times"),
        (
            lambda p: [s.update(playerRefId=5) for s in p["playerScores"][:2]],
            "anonymous player (Anonymous player) is 2 players of this play",
        ),
    ],
)
def test_a_play_that_cannot_be_read_is_left_out_with_its_reason(damage, says):
    data = club_file()
    damage(data["plays"][0])
    export = parse(data)
    assert [u.index for u in export.unread] == [0]
    assert says in " ".join(export.unread[0].reasons), export.unread[0].reasons
    assert [p.index for p in export.plays] == [1, 2, 3, 4, 5, 6]
    plan = planning.plan_import(export, game_key="cat-lady", today=TODAY)
    assert plan.refused[0].index == 0 and [p.play.index for p in plan.plays] == [1]


def test_an_ignored_play_that_cannot_be_read_is_skipped_as_ignored():
    data = club_file()
    data["plays"][0]["playerScores"][0]["score"] = "10+10+15"
    data["plays"][0]["ignored"] = True
    plan = planning.plan_import(parse(data), game_key="cat-lady", today=TODAY)
    assert 0 not in {r.index for r in plan.refused} and plan.ignored == 2


def test_a_play_that_is_not_a_record_is_left_out():
    data = club_file()
    data["plays"][0] = "play"
    assert parse(data).unread[0].reasons == ("This is not a record of a play.",)


def test_a_uuid_twice_in_letters_of_either_case_reads_the_play_once():
    data = club_file()
    data["plays"][1]["uuid"] = data["plays"][0]["uuid"].lower()
    export = parse(data)
    assert [p.index for p in export.plays] == [0, 2, 3, 4, 5, 6]
    assert "appears twice, letter case aside" in export.unread[0].reasons[0]


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (b"this is not json", "not a JSON file"),
        (b"\xff\xfe\x00garbage", "not a JSON file"),
        (b"[1, 2, 3]", "JSON object"),
        (b"[" * 100_000 + b"]" * 100_000, "not a JSON file"),
        (b" " * (reading.MAX_FILE_BYTES + 1), "larger than"),
    ],
)
def test_a_file_that_is_not_an_export_is_refused(raw, says):
    with pytest.raises(reading.BGStatsError) as caught:
        reading.parse_export(raw)
    assert says in str(caught.value)


# --- planning -------------------------------------------------------------------------------


def test_plan_lists_importable_refused_and_skipped_plays():
    plan = planning.plan_import(parse(club_file()), game_key="cat-lady", today=TODAY)
    assert [p.play.index for p in plan.plays] == [0, 1]
    first, second = plan.plays
    # Seat 1 is the start player, then BG Stats' seat order.
    assert [(s.player_ref, s.seat, s.result, s.rank) for s in first.seats] == [
        (2, 1, {"total_vp": 28}, 2),
        (1, 2, {"total_vp": 31}, 1),
        (3, 3, {"total_vp": 19}, 3),
    ]
    assert (first.edition, first.place, first.played_time) == ("base", "Club room", dt.time(19, 30))
    assert second.edition == "box-of-treats"
    refused = {r.index: " ".join(r.reasons) for r in plan.refused}
    assert refused[2] == "Mia, ned: Fed cats is needed to break the tie on total VP."
    assert "played by 2–4 players, not 5" in refused[3]
    assert "BG Stats marks Mia as winning, but by the game's rules Roberta won" in refused[6]
    assert plan.skipped_games == {"Red7": 1}
    assert plan.ignored == 1


def test_a_play_dated_in_the_future_is_refused():
    plan = planning.plan_import(
        parse(club_file()), game_key="cat-lady", today=dt.date(2026, 10, 10)
    )
    refused = {r.index: r.reasons for r in plan.refused}
    assert "in the future" in " ".join(refused[1])


def test_a_league_of_another_game_skips_cat_lady_plays():
    plan = planning.plan_import(parse(club_file()), game_key="cantankerous-cats", today=TODAY)
    assert plan.plays == [] and plan.skipped_games["Cat Lady"] == 6


def test_cantankerous_winner_below_nine_mischief_won_by_feral_victory():
    data = club_file()
    data["games"].append({"id": 30, "name": "Cantankerous Cats", "bggId": 0})
    data["plays"] = [
        {
            "uuid": "cc-1",
            "playDate": "2026-10-06 19:30:00",
            "gameRefId": 30,
            "playerScores": [
                {"playerRefId": 1, "score": "4", "winner": True},
                {"playerRefId": 2, "score": "7", "winner": False},
            ],
        }
    ]
    plan = planning.plan_import(parse(data), game_key="cantankerous-cats", today=TODAY)
    (planned,) = plan.plays
    assert planned.edition == "standard"
    assert planned.seats[0].result == {
        "mischief_points": 4,
        "winner": True,
        "win_type": "feral_victory",
    }
    assert [s.rank for s in planned.seats] == [1, 2]


def test_a_realistic_export_imports_what_it_can_and_lists_the_rest():
    export = reading.parse_export(REALISTIC.read_bytes())
    plan = planning.plan_import(export, game_key="cat-lady", today=TODAY)
    assert [p.play.index for p in plan.plays] == [2, 5, 9]
    box, alexes, plain = plan.plays
    assert box.edition == "box-of-treats" and box.play.notes == "Box of Treats night"
    names = {ref: p.name for ref, p in export.players.items()}
    assert [(names[s.player_ref], s.rank) for s in alexes.seats] == [
        ("Alex", 1),  # the second Alex started
        ("Quinn", 3),
        ("Alex", 2),
    ]
    left_out = {r.index: " ".join(r.reasons) for r in plan.refused}
    assert left_out == {
        3: "Sam's score is a calculation ('10+10+15'), not one total: Catleague needs the "
        "total VP.",
        4: "BG Stats' anonymous player (Anonymous player) is 2 players of this play: Catleague "
        "cannot tell them apart.",
        6: "The same play as the one of 2026-11-10 20:05 (its uuid "
        "5e1f3c2a-1006-4a6b-9c11-7d2e8f9a0b06 appears twice, letter case aside): only that one "
        "is read.",
        7: "Mia, Ned: Fed cats is needed to break the tie on total VP.",
        8: "Ned, Sam: Total VP is required.",
    }
    assert plan.refused[1].players == ("Alex", "Anonymous player", "Anonymous player")
    assert plan.skipped_games == {"Decrypto": 1, "Red7": 1, "No Thanks!": 1}
    assert plan.ignored == 1


def test_a_realistic_export_gives_clashing_names_distinct_guests(club, players, users):
    export = reading.parse_export(REALISTIC.read_bytes())
    found = bgstats_import.preview(league=club, export=export, today=TODAY)
    guests = {m.ref: (m.guest_name, m.clash) for m in found.players}
    assert guests[2] == ("Alex", "")
    assert guests[3] == (
        "Alex (BG Stats 2)",
        "Another BG Stats player in this file is also called “Alex”.",
    )
    # Quinn's name is a player's outside this league only: no clash (names are unique per
    # league, and the preview says nothing of other leagues' players).
    assert guests[6] == ("Quinn", "")
    mapping = {m.ref: None for m in found.players} | {4: players["mia"].pk, 7: players["ned"].pk}
    result = olive_imports(club, users, export, mapping)
    assert (result.created, result.refused, result.skipped) == (3, 5, 4)
    assert sorted(result.guests) == [
        "Alex",
        "Alex (BG Stats 2)",
        "Anonymous player",
        "Quinn",
        "Sam",
    ]
    assert players["quinn"].memberships.filter(league=club).count() == 0
    assert club.memberships.get(player__name="Quinn").player != players["quinn"]
    again = bgstats_import.preview(league=club, export=export, today=TODAY)
    assert (again.new, len(again.already)) == ([], 3)


# --- importing ------------------------------------------------------------------------------


@pytest.fixture
def club(league, players):
    return league


def olive_imports(league, users, export, mapping):
    """Olive imports a parsed export into league, its players mapped as given."""
    return bgstats_import.import_plays(
        league=league, export=export, mapping=mapping, by=users["olive"], today=TODAY
    )


def mapping_for(players):
    # Mia and ned are members; Olivia is Olive; Roberta becomes a new guest.
    return {1: players["mia"].pk, 2: players["ned"].pk, 3: None, 4: players["olive"].pk}


def test_preview_suggests_league_players_by_name(club, players):
    found = bgstats_import.preview(league=club, export=parse(club_file()), today=TODAY)
    suggested = {m.name: [p.name for p in m.suggestions] for m in found.players}
    assert suggested["Mia"][0] == "Mia"
    assert suggested["ned"][0] == "Ned"
    assert suggested["Olivia"][0] == "Olive"
    assert suggested["Roberta"] == []
    assert len(found.new) == 2 and found.already == []


def test_import_creates_the_games_once(club, players, users):
    export = parse(club_file())
    result = olive_imports(club, users, export, mapping_for(players))
    assert (result.created, result.refused, result.guests) == (2, 3, ["Roberta"])
    games = list(club.games.in_play_order())
    assert [g.bgstats_uuid for g in games] == [
        "1D000000-0000-4000-8000-000000000001",
        "1D000000-0000-4000-8000-000000000002",
    ]
    first = games[0]
    assert (first.played_on, first.played_time, first.place, first.notes) == (
        dt.date(2026, 10, 6),
        dt.time(19, 30),
        "Club room",
        "First night of the season",
    )
    table = [(p.player.name, p.seat, p.score, p.rank) for p in first.participants.order_by("seat")]
    assert table == [("Ned", 1, 28, 2), ("Mia", 2, 31, 1), ("Roberta", 3, 19, 3)]
    assert all(p.rating_after is not None for p in first.participants.all())
    assert games[1].edition == "box-of-treats"
    assert Player.objects.get(name="Roberta").memberships.filter(league=club).exists()
    assert AuditEntry.objects.filter(league=club, changes__imported_from="BG Stats").count() == 2

    again = olive_imports(club, users, export, mapping_for(players))
    assert (again.created, again.already) == (0, 2)
    assert club.games.count() == 2


def test_import_rates_as_if_the_games_were_logged_one_by_one(club, players, users):
    olive_imports(club, users, parse(club_file()), mapping_for(players))
    imported = {
        p.player.name: p.rating_after
        for p in Game.objects.get(bgstats_uuid__endswith="0002").participants.all()
    }
    report = result_services.ratings_rebuild(league=club)
    rebuilt = {
        p.player.name: p.rating_after
        for p in Game.objects.get(bgstats_uuid__endswith="0002").participants.all()
    }
    assert report.zero_sum and imported == pytest.approx(rebuilt)


@pytest.mark.parametrize(
    ("change", "field", "says"),
    [
        (lambda m, p: m.pop(3), "players.3", "Choose who Roberta is"),
        (lambda m, p: m.update({4: p["quinn"].pk}), "players.4", "not a member"),
        (lambda m, p: m.update({4: p["mia"].pk}), "players.4", "already mapped"),
    ],
)
def test_a_bad_mapping_is_refused_and_nothing_is_written(club, players, users, change, field, says):
    mapping = mapping_for(players)
    change(mapping, players)
    with pytest.raises(ValidationError) as caught:
        olive_imports(club, users, parse(club_file()), mapping)
    assert says in " ".join(caught.value.message_dict[field])
    assert club.games.count() == 0
    assert not Player.objects.filter(name="Roberta").exists()


def test_a_name_used_only_outside_the_league_becomes_a_guest_of_its_own(club, players, users):
    elsewhere = services.player_create(name="Roberta", by=users["pat"])  # someone else's guest
    found = bgstats_import.preview(league=club, export=parse(club_file()), today=TODAY)
    roberta = next(m for m in found.players if m.ref == 3)
    # Nothing in the preview depends on players of other (perhaps private) leagues.
    assert (roberta.guest_name, roberta.clash) == ("Roberta", "")
    result = olive_imports(club, users, parse(club_file()), mapping_for(players))
    assert result.guests == ["Roberta"]
    guest = club.memberships.get(player__name="Roberta").player
    assert guest != elsewhere and guest.created_by == users["olive"]


def test_a_new_guest_whose_name_the_league_has_gets_a_distinct_name(club, players, users):
    services.guest_add(league=club, name="roberta", by=users["olive"])  # already in the league
    found = bgstats_import.preview(league=club, export=parse(club_file()), today=TODAY)
    roberta = next(m for m in found.players if m.ref == 3)
    assert roberta.guest_name == "Roberta (BG Stats 2)"
    assert roberta.clash == "Tuesday Club already has a player called “Roberta”."
    result = olive_imports(club, users, parse(club_file()), mapping_for(players))
    assert result.guests == ["Roberta (BG Stats 2)"]
    guest = Player.objects.get(name="Roberta (BG Stats 2)")
    assert guest.memberships.filter(league=club).exists()
    assert club.games.filter(participants__player=guest).count() == 2


def test_guest_names_number_every_clash_with_the_first_free_number(club, players, users):
    services.guest_add(league=club, name="Sam", by=users["olive"])
    services.guest_add(league=club, name="Sam (BG Stats 2)", by=users["olive"])
    services.player_create(name="Bo", by=users["pat"])  # not in this league: no clash
    names = bgstats_import.guest_names(club, {1: "Alex", 2: "alex", 3: "Sam", 4: "Sam", 5: "Bo"})
    assert {ref: guest for ref, (guest, _) in names.items()} == {
        1: "Alex",
        2: "alex (BG Stats 2)",
        3: "Sam (BG Stats 3)",
        4: "Sam (BG Stats 4)",
        5: "Bo",
    }
    assert names[2][1] == "Another BG Stats player in this file is also called “alex”."
    assert names[1][1] == names[5][1] == ""


def test_a_new_guest_the_site_refuses_at_import_is_said_beside_that_player(
    club, players, users, monkeypatch
):
    # The name is free at the preview and taken by the time of the import (another session).
    monkeypatch.setattr(bgstats_import, "_name_taken", lambda league, name: False)
    services.guest_add(league=club, name="Roberta", by=users["olive"])
    with pytest.raises(ValidationError) as caught:
        olive_imports(club, users, parse(club_file()), mapping_for(players))
    assert "already has a player called 'Roberta'" in " ".join(
        caught.value.message_dict["players.3"]
    )
    assert club.games.count() == 0


def test_a_new_guest_with_an_overlong_name_is_refused(club, players, users):
    data = club_file()
    data["players"][2]["name"] = "R" * 101
    with pytest.raises(ValidationError) as caught:
        olive_imports(club, users, parse(data), mapping_for(players))
    assert "at most 100 characters" in " ".join(caught.value.message_dict["players.3"])
    assert club.games.count() == 0


def test_a_game_the_services_refuse_rolls_back_the_whole_import(club, players, users):
    # Ned leaves the league between the preview and the import: the services refuse his games.
    export = parse(club_file())
    club.memberships.filter(player=players["ned"]).delete()
    mapping = mapping_for(players)
    with pytest.raises(ValidationError) as caught:
        olive_imports(club, users, export, mapping)
    assert "not a member" in " ".join(caught.value.messages)
    assert club.games.count() == 0
    assert not Player.objects.filter(name="Roberta").exists()


# --- the management command -----------------------------------------------------------------


def test_command_imports_with_names_maps_and_guests(club, players, users, capsys):
    call_command(*IMPORT_AS_OLIVE, "--dry-run", "--map", "Olivia=Olive", "--new-guests")
    assert "2 plays to import" in capsys.readouterr().out and club.games.count() == 0
    call_command(*IMPORT_AS_OLIVE, "--map", "Olivia=Olive", "--new-guests")
    assert "Imported 2 games" in capsys.readouterr().out
    assert club.games.count() == 2


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        ([], "No league member for: Roberta, Olivia"),
        (["--map", "Olivia=Nobody"], "a league member"),
    ],
)
def test_command_refuses_unmatched_players(club, players, users, extra, says):
    with pytest.raises(CommandError, match=says):
        call_command(*IMPORT_AS_OLIVE, *extra)
    assert club.games.count() == 0


def test_command_refuses_a_damaged_file(club, users, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": [], "games": []}')
    with pytest.raises(CommandError, match="no 'plays' list"):
        call_command("import_bgstats", "tuesday", str(bad), "--user", "olive")
