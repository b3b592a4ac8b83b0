"""Takebacks in unrated live games: refused in rated ones, and the table goes back to the
position before the person's last move, played again from the seed as after a lost worker."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError

import engine
from arena.common import SeatInput
from arena.live.company.services import COMPANY_TAKEBACK_REFUSAL, guest_seat, invitation_accept
from arena.live.services import DatabaseHumanSeat, LiveWriter, TableRewound, live_create
from arena.live.takeback import RATED_REFUSAL, live_takeback
from arena.models import LiveSeat, Match
from arena.runner import BotSpec, run_match
from arena.sandbox import Limits
from arena.tasks import HouseMoves, _specs
from engine.catlady.strategies.mcts import MonteCarloStrategy
from tests.arena.live_games import client_of

pytestmark = pytest.mark.django_db


class Stop(Exception):
    """The test's worker stops here (as a lost worker would)."""


@pytest.fixture
def pia():
    return get_user_model().objects.create_user("pia", password="pw-123456789")


def unrated_table(user, *, rated: bool = False) -> Match:
    return live_create(
        user=user,
        game="cat-lady",
        seats=[None, SeatInput(builtin="mcts")],
        strengths=["", "medium"],
        seed=7,
        rated=rated,
    )


def play_as_worker(match: Match, monkeypatch, on_question) -> None:
    """Play ``match`` as its worker does (the person's seat through the database, the table
    written after every move); whenever the person is asked, ``on_question(seat)`` answers
    (writes ``LiveSeat.answer``) or raises to stop the worker."""

    def wait(_seconds: float) -> bool:
        on_question(LiveSeat.objects.get(match=match))
        return True

    @contextlib.contextmanager
    def listening(_key):
        yield wait

    monkeypatch.setattr("arena.live.services.wakeup.listening", listening)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)  # claimed
    match.refresh_from_db()
    writer, house = LiveWriter(match), HouseMoves(match, {1})

    def observe(step: int, entry: dict[str, Any], state: Any) -> None:
        house(step, entry)
        writer(step, entry, state)

    run_match(
        game=match.game,
        seed=match.seed,
        bots=_specs(match),
        limits=Limits.from_json(match.limits),
        humans={0: DatabaseHumanSeat(match.pk, 0)},
        on_step=observe,
        recorded=house.moves,
    )


@pytest.fixture
def searches(monkeypatch) -> list[int]:
    """One entry per search the house mcts runs (its number of legal actions)."""
    counted: list[int] = []
    search = MonteCarloStrategy._search

    def counting(self, observation, legal_actions, rng):
        counted.append(len(legal_actions))
        return search(self, observation, legal_actions, rng)

    monkeypatch.setattr(MonteCarloStrategy, "_search", counting)
    return counted


def test_a_takeback_in_a_rated_game_is_refused_and_changes_nothing(pia):
    match = unrated_table(pia, rated=True)
    LiveSeat.objects.filter(match=match).update(moves={"2": {"index": 0}}, asked_step=4)
    with pytest.raises(PermissionDenied, match="only for unrated games"):
        live_takeback(match=match, user=pia)
    answer = client_of(pia).post(f"/arena/play/{match.pk}/takeback/")
    assert answer.status_code == 403 and answer.json()["fields"]["match"] == [RATED_REFUSAL]
    seat = LiveSeat.objects.get(match=match)
    assert (seat.moves, seat.asked_step, seat.takebacks) == ({"2": {"index": 0}}, 4, 0)


def test_nothing_to_take_back_is_said_beside_the_match(pia):
    match = unrated_table(pia)
    answer = client_of(pia).post(f"/arena/play/{match.pk}/takeback/")
    assert answer.status_code == 400
    assert answer.json()["fields"]["match"] == ["You have made no move to take back yet."]
    LiveSeat.objects.filter(match=match).update(moves={"resign": True, "2": {"index": 0}})
    with pytest.raises(ValidationError, match="resigned"):
        live_takeback(match=match, user=pia)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    with pytest.raises(ValidationError, match="over"):
        live_takeback(match=match, user=pia)
    other = get_user_model().objects.create_user("ole", password="pw-123456789")
    assert client_of(other).post(f"/arena/play/{match.pk}/takeback/").status_code == 404


def test_a_takeback_goes_back_to_the_position_before_the_last_move(pia, monkeypatch, searches):
    match = unrated_table(pia)
    seen: list[dict[str, Any]] = []

    def answer_twice_then_take_back(seat: LiveSeat) -> None:
        seen.append({"step": seat.asked_step, "board": seat.board, "log": seat.log})
        if len(seen) == 3:
            # The person takes back their second move while asked the third: the worker that
            # asked stops (its question was withdrawn).
            live_takeback(match=match, user=pia)
            return
        LiveSeat.objects.filter(pk=seat.pk).update(answer={"step": seat.asked_step, "index": 0})

    with pytest.raises(TableRewound):
        play_as_worker(match, monkeypatch, answer_twice_then_take_back)
    second = seen[1]["step"]
    seat = LiveSeat.objects.get(match=match)
    match.refresh_from_db()
    # The house bot's moves before the move taken back are kept; those after it are not.
    assert match.house_moves and all(int(step) < second for step in match.house_moves)
    assert searches, "the first play searched"
    searches.clear()
    assert (match.status, match.dispatch, match.attempts) == ("queued", 2, 0)
    assert seat.moves == {str(seen[0]["step"]): {"index": 0}}
    assert (seat.asked_step, seat.legal, seat.rewound_to, seat.takebacks) == (None, [], second, 1)
    assert seat.step == second - 1 and all(line["step"] < second for line in seat.log)
    state = client_of(pia).get(f"/arena/play/{match.pk}/state/").json()
    assert state["rewinding"].startswith("Taking back your move") and state["lost"] == ""
    assert state["can_take_back"] is True and state["takebacks"] == 1

    again: list[dict[str, Any]] = []

    def see_and_stop(seat: LiveSeat) -> None:
        again.append({"step": seat.asked_step, "board": seat.board, "log": seat.log})
        assert seat.rewound_to is None  # the table is back at the position
        raise Stop

    with pytest.raises(Stop):
        play_as_worker(match, monkeypatch, see_and_stop)
    # The second move is asked again, in the very position and with the log it was asked in,
    # and the house bot played its moves before it from the record, without searching.
    assert again == [seen[1]]
    assert searches == []


def test_recorded_house_moves_replay_without_search_and_change_no_later_move(searches):
    """A house bot's move depends on its position alone: replaying the first half of a match
    from its record (no search) leaves every later move as a full search played it."""
    bots = [BotSpec.builtin("mcts", {"iterations": 12}), BotSpec.builtin("greedy")]
    played = run_match(seed=11, bots=bots)
    full = len(searches)
    half = len(played["steps"]) // 2
    recorded = {step: entry["action"] for step, entry in enumerate(played["steps"][:half])}
    searches.clear()
    again = run_match(seed=11, bots=bots, recorded=recorded)
    assert [s["action"] for s in again["steps"]] == [s["action"] for s in played["steps"]]
    assert again["result"] == played["result"]
    assert 0 < len(searches) < full  # only the moves after the record were searched
    assert all(entry["ms"] == 0.0 for entry in again["steps"][:half])


def test_a_worker_whose_match_was_taken_back_writes_no_more(pia):
    match = unrated_table(pia)
    writer = LiveWriter(match)
    state = engine.load_game("cat-lady", options={"players": 2}).new_initial_state(7)
    writer(-1, {}, state)
    Match.objects.filter(pk=match.pk).update(dispatch=match.dispatch + 1)
    with pytest.raises(TableRewound):
        writer(-1, {}, state)


def test_a_move_sent_but_not_yet_taken_by_the_worker_is_the_one_taken_back(pia):
    match = unrated_table(pia)
    LiveSeat.objects.filter(match=match).update(
        moves={"0": {"index": 1}}, asked_step=4, answer={"step": 4, "index": 0}, step=3
    )
    live_takeback(match=match, user=pia)
    seat = LiveSeat.objects.get(match=match)
    assert (seat.moves, seat.rewound_to, seat.answer, seat.step) == (
        {"0": {"index": 1}},
        4,
        None,
        3,
    )


def test_with_a_friend_at_the_table_a_takeback_is_refused_in_words(pia):
    """A takeback rewinds every person's seat: with a friend on their own device it would undo
    the friend's moves, so it is refused; the friend cannot take back either."""
    ole = get_user_model().objects.create_user("ole", password="pw-123456789")
    match = live_create(
        user=pia, game="cat-lady", seats=[None, None], seed=7, rated=False, friends=[1]
    )
    invitation_accept(token=match.invitations.get().token, user=ole)
    LiveSeat.objects.filter(match=match, seat=0).update(moves={"0": {"index": 0}}, step=1)
    LiveSeat.objects.filter(match=match, seat=1).update(moves={"1": {"index": 0}}, step=1)
    for person in (pia, ole):
        answer = client_of(person).post(f"/arena/play/{match.pk}/takeback/")
        assert answer.status_code == 403
        assert answer.json()["fields"]["match"] == [COMPANY_TAKEBACK_REFUSAL]
        state = client_of(person).get(f"/arena/play/{match.pk}/state/").json()
        assert state["can_take_back"] is False
    moves = dict(LiveSeat.objects.filter(match=match).values_list("seat", "moves"))
    assert moves == {0: {"0": {"index": 0}}, 1: {"1": {"index": 0}}}  # nothing was undone


def test_a_host_with_a_guest_on_their_device_takes_back_the_devices_last_move(pia):
    match = live_create(
        user=pia, game="cat-lady", seats=[None, None], seed=7, rated=False, friends=[1]
    )
    guest_seat(match=match, host=pia, seat=1, name="Jo")
    LiveSeat.objects.filter(match=match, seat=0).update(moves={"0": {"index": 0}}, step=2)
    LiveSeat.objects.filter(match=match, seat=1).update(moves={"1": {"index": 1}}, step=2)
    state = client_of(pia).get(f"/arena/play/{match.pk}/state/").json()
    assert state["can_take_back"] is True
    answer = client_of(pia).post(f"/arena/play/{match.pk}/takeback/")
    assert answer.status_code == 200 and answer.json()["step"] == 1  # the guest's move
    seats = {s.seat: s for s in LiveSeat.objects.filter(match=match)}
    assert (seats[0].moves, seats[1].moves) == ({"0": {"index": 0}}, {})
    assert (seats[0].rewound_to, seats[1].rewound_to) == (1, 1)
    assert (seats[0].takebacks, seats[1].takebacks) == (0, 1)
