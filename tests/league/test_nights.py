"""Game nights against a real database: opening, attendance, draws, tables' games, points."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from django.core.exceptions import ValidationError

from league.clubs import services
from league.models import (
    AuditEntry,
    Game,
    GameNight,
    NightSeat,
    Participant,
    Player,
    PlayerRating,
)
from league.nights import selectors as night_selectors
from league.nights import services as nights
from league.results import checks
from league.results import seating as night_seating
from league.results import services as result_services

TODAY = dt.date(2026, 11, 20)


def open_night(league, users, present, **extra):
    values = {"played_on": TODAY, "edition": "base", "rounds": 2, "present": present}
    values.update(extra)
    return nights.night_open(league=league, by=users["olive"], **values)


def enter(table, users, by="olive"):
    """Enter the table's game: seat 1 wins, then in seat order."""
    ids = night_seating.table_setup(table)
    participants = [
        checks.ParticipantInput(
            player_id=pid, seat=seat, result={"total_vp": 30 - seat, "fed_cats": 3}
        )
        for seat, pid in enumerate(ids, start=1)
    ]
    return nights.table_game_record(
        table=table, logged_by=users[by], participants=participants, played_on=TODAY
    )


def test_seven_people_at_cat_lady_sit_at_a_table_of_four_and_one_of_three(users, league, seven):
    night = open_night(league, users, seven)
    drawn = nights.round_draw(night=night, by=users["olive"])
    sizes = sorted(t.seats.count() for t in drawn.tables.all())
    assert sizes == [3, 4]
    assert not drawn.sitting_out.exists()
    assert "First round" in drawn.explanation[0]


def test_first_round_by_rating_seats_the_strongest_together(users, league, seven, players):
    PlayerRating.objects.bulk_create(
        PlayerRating(league=league, player=p, rating=1800 - 50 * i) for i, p in enumerate(seven)
    )
    night = open_night(league, users, seven)
    drawn = nights.round_draw(night=night, by=users["olive"])
    first = drawn.tables.get(number=1)
    assert set(first.seats.values_list("player_id", flat=True)) == {p.pk for p in seven[:4]}


def test_second_round_keeps_tonights_tablemates_apart_and_rotates_the_starter(users, league, seven):
    night = open_night(league, users, seven, first_round=GameNight.FirstRound.RANDOM, seed=3)
    first = nights.round_draw(night=night, by=users["olive"])
    for table in first.tables.all():
        enter(table, users)
    second = nights.round_draw(night=night, by=users["olive"])
    view = night_selectors.night_view(night=night)
    round_one = [set(night_seating.table_setup(t)) for t in first.tables.all()]
    starters_one = {night_seating.table_setup(t)[0] for t in first.tables.all()}
    for table in second.tables.all():
        seated = night_seating.table_setup(table)
        # 7 people in tables of 4 and 3 twice: some pairs must meet again, but never a table
        # that is a whole table of round one.
        assert not any(set(seated) <= before for before in round_one)
        assert seated[0] not in starters_one
    assert len(view.rounds) == 2
    total = sum(s.points for s in view.standings)
    # A table of n shares n/2 points (each pair splits one point, spread over n - 1 mates).
    assert total == pytest.approx(4 / 2 + 3 / 2)


def test_the_next_round_waits_for_every_table_of_this_one(users, league, seven):
    night = open_night(league, users, seven)
    first = nights.round_draw(night=night, by=users["olive"])
    enter(first.tables.get(number=1), users)
    with pytest.raises(ValidationError) as caught:
        nights.round_draw(night=night, by=users["olive"])
    assert "table 2" in str(caught.value)


def test_no_round_past_the_nights_last(users, league, seven):
    night = open_night(league, users, seven, rounds=1)
    for table in nights.round_draw(night=night, by=users["olive"]).tables.all():
        enter(table, users)
    with pytest.raises(ValidationError, match="1 round"):
        nights.round_draw(night=night, by=users["olive"])


def test_someone_leaving_and_a_guest_arriving_between_rounds(users, league, seven, players):
    night = open_night(league, users, seven)
    for table in nights.round_draw(night=night, by=users["olive"]).tables.all():
        enter(table, users)
    nights.attendance_set(night=night, player=players["pat"], present=False, by=users["olive"])
    newcomer = nights.night_guest_add(night=night, name="Uma", by=users["olive"]).player
    second = nights.round_draw(night=night, by=users["olive"])
    seated = set(NightSeat.objects.filter(table__round=second).values_list("player_id", flat=True))
    assert players["pat"].pk not in seated
    assert newcomer.pk in seated
    assert len(seated) == 7


def test_undo_a_round_without_results_and_draw_it_again(users, league, seven, players):
    night = open_night(league, users, seven)
    nights.round_draw(night=night, by=users["olive"])
    nights.attendance_set(night=night, player=players["pat"], present=False, by=users["olive"])
    nights.round_undo(night=night, by=users["olive"])
    again = nights.round_draw(night=night, by=users["olive"])
    assert again.number == 1
    assert sorted(t.seats.count() for t in again.tables.all()) == [3, 3]


def test_a_round_with_results_cannot_be_undone(users, league, seven):
    night = open_night(league, users, seven)
    enter(nights.round_draw(night=night, by=users["olive"]).tables.first(), users)
    with pytest.raises(ValidationError, match="already has results"):
        nights.round_undo(night=night, by=users["olive"])


def test_a_lone_person_cannot_be_seated(users, league, players):
    night = open_night(league, users, [players["mia"]])
    with pytest.raises(ValidationError, match="at least 2"):
        nights.round_draw(night=night, by=users["olive"])
    assert not night.night_rounds.exists()


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"edition": "solitaire"}, "edition"),
        ({"edition": "nope"}, "edition"),
        ({"max_table": 6}, "max_table"),  # the base game seats 2 to 4
        ({"min_table": 4, "max_table": 3}, "max_table"),
        ({"rounds": 0}, "rounds"),
        ({"first_round": "by-hair-colour"}, "first_round"),
    ],
)
def test_opening_a_night_refuses_what_the_game_does_not_allow(users, league, seven, extra, field):
    with pytest.raises(ValidationError) as caught:
        open_night(league, users, seven, **extra)
    assert field in caught.value.message_dict
    assert not GameNight.objects.exists()


def test_box_of_treats_seats_up_to_six(users, league, seven):
    night = open_night(league, users, seven, edition="box-of-treats", min_table=3, max_table=6)
    drawn = nights.round_draw(night=night, by=users["olive"])
    assert sorted(t.seats.count() for t in drawn.tables.all()) == [3, 4]
    assert (night.min_table, night.max_table) == (3, 6)


def test_people_outside_the_league_cannot_be_present(users, league, players):
    with pytest.raises(ValidationError, match="Quinn"):
        open_night(league, users, [players["mia"], players["quinn"]])


def test_a_tables_game_is_a_rated_league_game_linked_to_the_table(users, league, seven):
    night = open_night(league, users, seven)
    table = nights.round_draw(night=night, by=users["olive"]).tables.get(number=1)
    game = enter(table, users)
    table.refresh_from_db()
    assert table.game == game
    assert all(p.rating_after is not None for p in game.participants.all())
    with pytest.raises(ValidationError, match="already entered"):
        enter(table, users)
    assert league.games.count() == 1
    assert AuditEntry.objects.filter(object_type="NightRound").exists()


def test_tonights_points_share_each_table_by_finishing_order(users, league, seven):
    night = open_night(league, users, seven)
    drawn = nights.round_draw(night=night, by=users["olive"])
    table = drawn.tables.get(number=1)
    enter(table, users)
    view = night_selectors.night_view(night=night)
    seated = night_seating.table_setup(table)
    points = {s.player_id: s.points for s in view.standings}
    assert [points[pid] for pid in seated] == pytest.approx([1, 2 / 3, 1 / 3, 0])
    assert view.standings[0].player_id == seated[0]


def test_table_points_count_a_tie_as_half():
    class P:
        def __init__(self, pid, rank):
            self.player_id, self.rank = pid, rank

    points = night_selectors.table_points([P(1, 1), P(2, 1), P(3, 3)])
    assert points == {1: 0.75, 2: 0.75, 3: 0.0}
    assert sum(points.values()) == pytest.approx(1.5)
    assert list(itertools.islice(points, 1)) == [1]


# --- a table's game is played by the people drawn to it ---------------------------------------


def results(ids):
    """Participants in the order given, seat 1 winning."""
    return [
        checks.ParticipantInput(
            player_id=pid, seat=seat, result={"total_vp": 30 - seat, "fed_cats": 3}
        )
        for seat, pid in enumerate(ids, start=1)
    ]


def written() -> tuple:
    """What a refused write leaves as it was: the games, their seats and results, the ratings
    and the change log."""
    return (
        sorted(Game.objects.values_list("pk", "played_on", "notes")),
        sorted(Participant.objects.values_list("game_id", "player_id", "seat", "score", "rank")),
        sorted(PlayerRating.objects.values_list("player_id", "rating", "games_played")),
        AuditEntry.objects.count(),
    )


def refused(table, users, ids) -> dict[str, list[str]]:
    """Enter ``ids`` as the table's players: the refusal's errors, having checked that nothing
    was written (no game, no participant, no rating, no change log entry)."""
    before = written()
    with pytest.raises(ValidationError) as caught:
        nights.table_game_record(
            table=table, logged_by=users["olive"], participants=results(ids), played_on=TODAY
        )
    assert written() == before
    table.refresh_from_db()
    assert table.game is None
    return caught.value.message_dict


def names(ids) -> list[str]:
    by_id = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    return [by_id[pid] for pid in ids]


def test_a_player_from_another_table_is_refused_and_nothing_is_written(users, league, seven):
    night = open_night(league, users, seven)
    drawn = nights.round_draw(night=night, by=users["olive"])
    first, second = drawn.tables.get(number=1), drawn.tables.get(number=2)
    enter(first, users)  # ratings exist: the refusal below must leave them as they are
    there, here = night_seating.table_setup(first), night_seating.table_setup(second)
    assert len(there) == 4 and len(here) == 3
    (stranger,), (left_out,) = names(there[:1]), names(here[2:])
    errors = refused(second, users, [*here[:2], there[0]])
    assert errors == {
        "participants.2.player": [f"{stranger} sat at table 1, not at table 2 of round 1."],
        "participants": [
            f"Everyone drawn to table 2 of round 1 is in its result: {left_out} is missing."
        ],
    }


def test_someone_not_drawn_tonight_is_refused_at_a_full_table(users, league, seven):
    night = open_night(league, users, seven)
    table = nights.round_draw(night=night, by=users["olive"]).tables.get(number=2)
    absent = services.guest_add(league=league, name="Uma", by=users["olive"]).player
    errors = refused(table, users, [*night_seating.table_setup(table), absent.pk])
    assert errors == {"participants.3.player": ["Uma was not drawn to table 2 of round 1."]}


def test_someone_sitting_out_the_round_is_refused(users, league, seven):
    night = open_night(league, users, seven[:5], min_table=4, max_table=4)
    drawn = nights.round_draw(night=night, by=users["olive"])
    (resting,) = drawn.sitting_out.all()
    table = drawn.tables.get()
    seated = night_seating.table_setup(table)
    errors = refused(table, users, [resting.pk, *seated[1:]])
    assert errors["participants.0.player"] == [f"{resting} sat out round 1."]
    assert errors["participants"] == [
        f"Everyone drawn to table 1 of round 1 is in its result: {names(seated[:1])[0]} is missing."
    ]


def test_everyone_drawn_to_the_table_is_in_its_result(users, league, seven):
    night = open_night(league, users, seven)
    table = nights.round_draw(night=night, by=users["olive"]).tables.get(number=1)
    seated = night_seating.table_setup(table)
    missing = names(seated[2:])
    errors = refused(table, users, seated[:2])
    assert errors == {
        "participants": [
            f"Everyone drawn to table 1 of round 1 is in its result: "
            f"{missing[0]} and {missing[1]} are missing."
        ]
    }


def test_the_same_players_in_other_seats_are_the_tables_players(users, league, seven):
    night = open_night(league, users, seven)
    table = nights.round_draw(night=night, by=users["olive"]).tables.get(number=1)
    reordered = list(reversed(night_seating.table_setup(table)))
    game = nights.table_game_record(
        table=table, logged_by=users["olive"], participants=results(reordered), played_on=TODAY
    )
    assert [p.player_id for p in game.participants.order_by("seat")] == reordered


def test_someone_who_leaves_during_a_round_still_plays_its_game(users, league, seven):
    """Leaving counts from the next round drawn: the game being played is the table's."""
    night = open_night(league, users, seven)
    table = nights.round_draw(night=night, by=users["olive"]).tables.get(number=1)
    seated = night_seating.table_setup(table)
    leaving = Player.objects.get(pk=seated[-1])
    nights.attendance_set(night=night, player=leaving, present=False, by=users["olive"])
    assert refused(table, users, seated[:-1])["participants"]
    game = enter(table, users)
    assert game.participants.filter(player=leaving).exists()


# --- a correction of a table's game keeps its players ------------------------------------------

KEPT = (
    "This game was played at table {table} of round 1 on the night of 2026-11-20: a correction "
    "keeps the players drawn to that table (their results and seats may change)."
)


def refused_correction(game, users, ids) -> dict[str, list[str]]:
    """Correct ``game`` to have ``ids`` as its players: the refusal's errors, having checked
    that nothing was written."""
    before = written()
    with pytest.raises(ValidationError) as caught:
        result_services.game_edit(
            game=game, by=users["olive"], participants=results(ids), notes="Fixed"
        )
    assert written() == before
    return caught.value.message_dict


def both_tables_entered(users, league, seven) -> tuple[Game, list[int], list[int]]:
    """A night's first round with both tables' games entered: table 1's game and the players
    drawn to table 1 and table 2, in seat order."""
    night = open_night(league, users, seven)
    drawn = nights.round_draw(night=night, by=users["olive"])
    first, second = drawn.tables.get(number=1), drawn.tables.get(number=2)
    game = enter(first, users)
    enter(second, users)
    return game, night_seating.table_setup(first), night_seating.table_setup(second)


def test_a_correction_cannot_put_someone_from_another_table_in_a_tables_game(users, league, seven):
    game, there, here = both_tables_entered(users, league, seven)
    (stranger,), (left_out,) = names(here[:1]), names(there[3:])
    errors = refused_correction(game, users, [*there[:3], here[0]])
    assert errors == {
        "participants.3.player": [f"{stranger} sat at table 2, not at table 1 of round 1."],
        "participants": [
            KEPT.format(table=1),
            f"Everyone drawn to table 1 of round 1 is in its result: {left_out} is missing.",
        ],
    }


def test_a_correction_cannot_add_or_leave_out_a_player_of_a_tables_game(users, league, seven):
    night = open_night(league, users, seven)
    table = nights.round_draw(night=night, by=users["olive"]).tables.get(number=2)
    game = enter(table, users)
    seated = night_seating.table_setup(table)
    absent = services.guest_add(league=league, name="Uma", by=users["olive"]).player
    assert refused_correction(game, users, [*seated, absent.pk]) == {
        "participants.3.player": ["Uma was not drawn to table 2 of round 1."],
        "participants": [KEPT.format(table=2)],
    }
    (left_out,) = names(seated[2:])
    assert refused_correction(game, users, seated[:2]) == {
        "participants": [
            KEPT.format(table=2),
            f"Everyone drawn to table 2 of round 1 is in its result: {left_out} is missing.",
        ]
    }


def test_a_correction_keeping_a_tables_players_changes_their_seats_and_results(
    users, league, seven
):
    night = open_night(league, users, seven)
    table = nights.round_draw(night=night, by=users["olive"]).tables.get(number=1)
    game = enter(table, users)
    reordered = list(reversed(night_seating.table_setup(table)))
    corrected = result_services.game_edit(
        game=game, by=users["olive"], participants=results(reordered), notes="Recounted"
    )
    rows = corrected.participants.order_by("seat")
    assert [(p.player_id, p.rank) for p in rows] == [(pid, n) for n, pid in enumerate(reordered, 1)]
    assert (
        result_services.game_edit(game=game, by=users["olive"], place="Club room").place
        == "Club room"
    )
    table.refresh_from_db()
    assert table.game_id == game.pk


# --- the same corrections through the admin ----------------------------------------------------


def admin_correction(client, game, ids) -> str:
    """POST the admin's change form of ``game`` with its rows given ``ids`` as players, seat 1
    winning; the response's HTML (a 302 has none)."""
    rows = list(game.participants.order_by("seat"))
    assert len(rows) == len(ids)
    data = {
        "league": game.league_id,
        "edition": game.edition,
        "played_on": game.played_on.isoformat(),
        "played_time": "",
        "season": "",
        "place": game.place,
        "notes": "Fixed in the admin",
        "details": "{}",
        "participants-TOTAL_FORMS": str(len(rows)),
        "participants-INITIAL_FORMS": str(len(rows)),
        "participants-MIN_NUM_FORMS": "0",
        "participants-MAX_NUM_FORMS": "1000",
    }
    for i, (row, pid) in enumerate(zip(rows, ids, strict=True)):
        data[f"participants-{i}-id"] = str(row.pk)
        data[f"participants-{i}-game"] = str(game.pk)
        data[f"participants-{i}-player"] = str(pid)
        data[f"participants-{i}-seat"] = str(i + 1)
        data[f"participants-{i}-result"] = f'{{"total_vp": {30 - i}, "fed_cats": 3}}'
    response = client.post(f"/admin/league/game/{game.pk}/change/", data)
    return response.content.decode() if response.status_code == 200 else str(response.status_code)


def test_the_admin_refuses_a_correction_that_brings_in_someone_from_another_table(
    client, users, league, seven
):
    users["olive"].is_staff = users["olive"].is_superuser = True
    users["olive"].save()
    client.force_login(users["olive"])
    game, there, here = both_tables_entered(users, league, seven)
    (stranger,) = names(here[:1])
    before = written()

    page = admin_correction(client, game, [*there[:3], here[0]])

    assert f"{stranger} sat at table 2, not at table 1 of round 1." in page
    assert "a correction keeps the players drawn to that table" in page
    assert written() == before
    # The players drawn there, in another order: a correction the admin saves.
    assert admin_correction(client, game, there[::-1]) == "302"
    game.refresh_from_db()
    assert game.notes == "Fixed in the admin"
    assert [p.player_id for p in game.participants.order_by("seat")] == there[::-1]
