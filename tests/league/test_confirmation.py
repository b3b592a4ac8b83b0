"""Results that wait for confirmation, against a real database: who confirms, disputes and their
resolution, rebuilds when a backdated game is confirmed, and the automatic confirmation."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from league import tasks
from league.clubs import services
from league.models import AuditEntry, Game, GameDispute, League, PlayerRating
from league.results import checks, confirmation, selectors
from league.results import services as result_services
from tests.league.conftest import record, set_rule

DAY = dt.date(2026, 11, 10)


def rating(league, player):
    row = PlayerRating.objects.filter(league=league, player=player).first()
    return None if row is None else row.rating


def test_results_are_final_at_once_by_default(users, league, players, log_game):
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    assert game.status == Game.Status.CONFIRMED
    assert rating(league, players["mia"]) > 1500


def test_a_waiting_game_is_neither_rated_nor_in_the_standings(users, league, players, log_game):
    set_rule(league, users, League.Confirmation.ANOTHER)
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    assert game.status == Game.Status.PENDING
    assert all(p.rating_after is None for p in game.participants.all())
    assert rating(league, players["mia"]) is None


def test_another_participant_confirms_and_the_game_is_rated(users, league, players, log_game):
    set_rule(league, users, League.Confirmation.ANOTHER)
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3), ("pat", 10, 1))
    with pytest.raises(PermissionDenied, match="You logged this game"):
        confirmation.game_confirm(game=game, by=users["mia"])
    with pytest.raises(PermissionDenied, match="Only the game's other participants"):
        confirmation.game_confirm(game=game, by=users["quinn"])
    confirmation.game_confirm(game=game, by=users["ned"])
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert rating(league, players["mia"]) > 1500
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.CONFIRM).get()
    assert entry.user == users["ned"] and entry.changes == {"as": "participant", "final": True}


def test_all_participants_must_confirm_when_the_league_says_so(users, league, players, log_game):
    set_rule(league, users, League.Confirmation.ALL)
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3), ("pat", 10, 1))
    confirmation.game_confirm(game=game, by=users["ned"])
    game.refresh_from_db()
    assert game.status == Game.Status.PENDING
    with pytest.raises(ValidationError, match="already confirmed"):
        confirmation.game_confirm(game=game, by=users["ned"])
    confirmation.game_confirm(game=game, by=users["pat"])
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


def test_organiser_rule_an_organisers_own_game_is_final_and_a_members_waits(
    users, league, players, log_game
):
    set_rule(league, users, League.Confirmation.ORGANISER)
    own = log_game("olive", DAY, ("mia", 30, 5), ("ned", 20, 3))
    assert own.status == Game.Status.CONFIRMED
    theirs = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    with pytest.raises(PermissionDenied, match="an organiser confirms"):
        confirmation.game_confirm(game=theirs, by=users["ned"])
    confirmation.game_confirm(game=theirs, by=users["olive"])
    theirs.refresh_from_db()
    assert theirs.status == Game.Status.CONFIRMED


def test_confirming_a_backdated_game_rebuilds_the_later_ratings(users, league, players, log_game):
    later = log_game("olive", DAY, ("ned", 30, 5), ("mia", 20, 3))
    before = {p.player_id: p.rating_before for p in later.participants.all()}
    assert before == {players["ned"].pk: 1500, players["mia"].pk: 1500}
    set_rule(league, users, League.Confirmation.ANOTHER)
    earlier = log_game("mia", DAY - dt.timedelta(days=3), ("mia", 30, 5), ("ned", 20, 3))
    later.refresh_from_db()
    assert {p.rating_before for p in later.participants.all()} == {1500}
    confirmation.game_confirm(game=earlier, by=users["ned"])
    after = {p.player_id: p.rating_before for p in later.participants.all()}
    assert after[players["mia"].pk] > 1500 > after[players["ned"].pk]


def test_a_dispute_waits_for_an_organiser_who_confirms_or_deletes(users, league, players, log_game):
    set_rule(league, users, League.Confirmation.ANOTHER)
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    with pytest.raises(ValidationError) as caught:
        confirmation.game_dispute(game=game, by=users["ned"], reason="  ")
    assert "reason" in caught.value.message_dict
    with pytest.raises(PermissionDenied, match="participants"):
        confirmation.game_dispute(game=game, by=users["pat"], reason="I saw it")
    dispute = confirmation.game_dispute(game=game, by=users["ned"], reason="I had 24 VP, not 20")
    game.refresh_from_db()
    assert game.status == Game.Status.DISPUTED
    with pytest.raises(ValidationError, match="organiser resolves"):
        confirmation.game_confirm(game=game, by=users["ned"])
    # The organiser corrects the score, then confirms: the resolution says so.
    result_services.game_edit(
        game=game,
        by=users["olive"],
        participants=[
            checks.ParticipantInput(
                player_id=players["mia"].pk, seat=1, result={"total_vp": 30, "fed_cats": 5}
            ),
            checks.ParticipantInput(
                player_id=players["ned"].pk, seat=2, result={"total_vp": 24, "fed_cats": 3}
            ),
        ],
    )
    resolved = confirmation.dispute_resolve(dispute=dispute, by=users["olive"], note="Recounted")
    assert resolved.resolution == GameDispute.Resolution.CORRECTED
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert rating(league, players["mia"]) > 1500
    with pytest.raises(ValidationError, match="already resolved"):
        confirmation.dispute_resolve(dispute=dispute, by=users["olive"])


def test_an_organisers_confirmation_of_a_disputed_game_settles_its_dispute(
    users, league, players, log_game
):
    set_rule(league, users, League.Confirmation.ANOTHER)
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    dispute = confirmation.game_dispute(game=game, by=users["ned"], reason="I had 24 VP, not 20")
    confirmation.game_confirm(game=game, by=users["olive"])
    game.refresh_from_db()
    dispute.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert rating(league, players["mia"]) > 1500
    assert dispute.resolution == GameDispute.Resolution.CONFIRMED
    assert dispute.resolved_by == users["olive"] and dispute.resolved_at is not None
    assert not GameDispute.objects.filter(league=league, resolved_at__isnull=True).exists()
    with pytest.raises(ValidationError, match="already confirmed"):
        confirmation.game_confirm(game=game, by=users["olive"])


def test_a_disputed_game_can_be_deleted(users, league, players, log_game):
    set_rule(league, users, League.Confirmation.ANOTHER)
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    dispute = confirmation.game_dispute(game=game, by=users["ned"], reason="We never played")
    confirmation.dispute_resolve(dispute=dispute, by=users["olive"], delete=True)
    dispute.refresh_from_db()
    assert dispute.resolution == GameDispute.Resolution.DELETED
    assert not Game.objects.exists()


def test_only_an_organiser_settles_a_dispute_whoever_calls_the_service(
    users, league, players, log_game
):
    set_rule(league, users, League.Confirmation.ANOTHER)
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    dispute = confirmation.game_dispute(game=game, by=users["ned"], reason="I had 24 VP, not 20")
    for member in (users["mia"], users["ned"]):
        with pytest.raises(PermissionDenied, match="organisers settle"):
            confirmation.dispute_resolve(dispute=dispute, by=member, delete=True)
    dispute.refresh_from_db()
    assert dispute.resolved_at is None
    assert Game.objects.filter(pk=game.pk, status=Game.Status.DISPUTED).exists()


def test_a_confirmed_game_cannot_be_disputed(users, league, players, log_game):
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    with pytest.raises(ValidationError, match="already confirmed"):
        confirmation.game_dispute(game=game, by=users["ned"], reason="wrong")


def test_nobody_confirms_within_the_window_and_the_task_confirms_it(
    users, league, players, log_game
):
    set_rule(league, users, League.Confirmation.ANOTHER, days=3)
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    disputed = log_game("mia", DAY, ("mia", 20, 5), ("ned", 25, 3))
    confirmation.game_dispute(game=disputed, by=users["ned"], reason="wrong")
    assert confirmation.games_confirm_overdue(now=timezone.now() + dt.timedelta(days=2)) == 0
    Game.objects.filter(pk__in=[game.pk, disputed.pk]).update(
        created_at=timezone.now() - dt.timedelta(days=4)
    )
    assert tasks.confirm_overdue_games() == 1
    game.refresh_from_db()
    disputed.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert disputed.status == Game.Status.DISPUTED  # waits for an organiser
    assert rating(league, players["mia"]) > 1500
    entry = AuditEntry.objects.get(action=AuditEntry.Action.CONFIRM, object_id=game.pk)
    assert entry.user is None
    assert entry.changes == {
        "automatic": True,
        "reason": "Nobody confirmed or disputed it within 3 days.",
    }


@pytest.mark.parametrize(
    ("rule", "days", "field"),
    [("sometimes", 7, "confirmation"), ("another", 0, "confirmation_days")],
)
def test_bad_confirmation_settings_are_refused(users, league, rule, days, field):
    with pytest.raises(ValidationError) as caught:
        set_rule(league, users, rule, days)
    assert field in caught.value.message_dict
    league.refresh_from_db()
    assert league.confirmation == League.Confirmation.NONE


# --- who may confirm, and games nobody at the table can confirm --------------------------------


@pytest.mark.parametrize("rule", [League.Confirmation.ANOTHER, League.Confirmation.ALL])
def test_a_member_removed_from_the_league_neither_confirms_nor_disputes(
    users, league, players, rule, log_game
):
    set_rule(league, users, rule)
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3), ("pat", 10, 1))
    services.member_remove(
        membership=league.memberships.get(player=players["ned"]), by=users["olive"]
    )
    assert checks.confirmers(game) == [users["pat"].pk]
    with pytest.raises(PermissionDenied, match="who are members"):
        confirmation.game_confirm(game=game, by=users["ned"])
    with pytest.raises(PermissionDenied, match="who are members"):
        confirmation.game_dispute(game=game, by=users["ned"], reason="I had 25")
    game.refresh_from_db()
    assert (game.status, game.confirmations.count(), game.disputes.count()) == ("pending", 0, 0)
    # The members still in the league are enough, whichever the rule.
    confirmation.game_confirm(game=game, by=users["pat"])
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert rating(league, players["mia"]) > 1500


def test_an_organiser_may_dispute_a_game_they_did_not_play_to_hold_it(
    users, league, players, log_game
):
    set_rule(league, users, League.Confirmation.ANOTHER)
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    confirmation.game_dispute(game=game, by=users["olive"], reason="Ned says he had 25")
    game.refresh_from_db()
    assert game.status == Game.Status.DISPUTED
    assert confirmation.games_confirm_overdue(now=timezone.now() + dt.timedelta(days=30)) == 0


@pytest.mark.parametrize("rule", [League.Confirmation.ANOTHER, League.Confirmation.ALL])
def test_an_organisers_table_of_guests_is_final_at_once(users, league, players, rule, log_game):
    set_rule(league, users, rule)
    guests = [
        services.guest_add(league=league, name=name, by=users["olive"]).player
        for name in ("Uma", "Val")
    ]
    game = log_game("olive", DAY, (guests[0], 30, 5), (guests[1], 20, 3))
    assert game.status == Game.Status.CONFIRMED
    assert rating(league, guests[0]) > 1500
    # With the organiser at the table and only guests besides, nobody else could confirm either.
    own = log_game("olive", DAY, ("olive", 30, 5), (guests[1], 20, 3))
    assert own.status == Game.Status.CONFIRMED
    # Another member at the table confirms, as the league asks.
    theirs = log_game("olive", DAY, ("mia", 30, 5), (guests[1], 20, 3))
    assert theirs.status == Game.Status.PENDING


def test_a_members_table_of_guests_waits_for_an_organiser(users, league, players, log_game):
    set_rule(league, users, League.Confirmation.ANOTHER)
    uma = services.guest_add(league=league, name="Uma", by=users["olive"]).player
    game = log_game("mia", DAY, ("mia", 30, 5), (uma, 20, 3))
    assert game.status == Game.Status.PENDING
    assert checks.confirmers(game) == []
    assert [g.pk for g in selectors.waiting_for(user=users["olive"])] == [game.pk]
    assert selectors.waiting_for(user=users["mia"]) == []
    confirmation.game_confirm(game=game, by=users["olive"])
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


# --- confirming many at once -------------------------------------------------------------------


def three_waiting(users, league, players):
    set_rule(league, users, League.Confirmation.ANOTHER)
    return [
        record(
            league,
            users["mia"],
            DAY - dt.timedelta(days=days),
            (players["mia"], 30, 5),
            (players["ned"], 20, 3),
        )
        for days in (2, 1, 0)
    ]


def test_an_organiser_confirms_a_list_and_each_game_is_rated_in_play_order(users, league, players):
    games = three_waiting(users, league, players)
    done = confirmation.games_confirm_many(games=list(reversed(games)), by=users["olive"])
    assert {g.pk for g in done.confirmed} == {g.pk for g in games}
    befores = [
        Game.objects.get(pk=g.pk).participants.get(player=players["mia"]).rating_before
        for g in games
    ]
    # The same ratings as three games confirmed one by one: each starts where the last ended.
    assert befores[0] == 1500 < befores[1] < befores[2]
    assert {e.changes["as"] for e in AuditEntry.objects.filter(action="confirm")} == {"organiser"}


def test_a_list_with_one_game_that_does_not_wait_confirms_nothing(users, league, players):
    games = three_waiting(users, league, players)
    confirmation.game_confirm(game=games[1], by=users["ned"])
    with pytest.raises(ValidationError) as caught:
        confirmation.games_confirm_many(games=games, by=users["olive"])
    assert caught.value.message_dict == {
        "games.1": [f"The game of {DAY.day - 1} Nov 2026 is already confirmed."]
    }
    assert [Game.objects.get(pk=g.pk).status for g in games] == ["pending", "confirmed", "pending"]


def test_only_an_organiser_confirms_a_list(users, league, players):
    games = three_waiting(users, league, players)
    with pytest.raises(PermissionDenied):
        confirmation.games_confirm_many(games=games, by=users["ned"])
    assert not Game.objects.filter(status=Game.Status.CONFIRMED).exists()


# --- what waits for whom -----------------------------------------------------------------------


def test_the_count_of_games_waiting_is_one_query_and_matches_the_list(
    users, league, players, django_assert_num_queries
):
    games = three_waiting(users, league, players)
    confirmation.game_confirm(game=games[0], by=users["ned"])
    for name, expected in (("ned", 2), ("mia", 0), ("olive", 0), ("quinn", 0)):
        with django_assert_num_queries(1):
            count = selectors.waiting_count(user=users[name])
        assert count == expected == len(selectors.waiting_for(user=users[name])), name
    services.member_remove(
        membership=league.memberships.get(player=players["ned"]), by=users["olive"]
    )
    assert selectors.waiting_count(user=users["ned"]) == 0
