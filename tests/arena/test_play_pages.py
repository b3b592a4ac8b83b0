"""The live-table pages: who may see and move, and the form's errors beside its fields."""

from __future__ import annotations

import contextlib
import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

import engine
from arena.common import SeatInput
from arena.live.services import DatabaseHumanSeat, LiveWriter, live_answer, live_create
from arena.models import LiveSeat, Match, MatchSeat

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    User = get_user_model()
    return {
        name: User.objects.create_user(name, password="pw-123456789") for name in ("pia", "ole")
    }


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def table(people):
    return live_create(
        user=people["pia"], game="cat-lady", seats=[None, SeatInput(builtin="greedy")], seed=3
    )


def test_a_live_match_seats_the_person_and_waits_on_the_live_queue(table, people):
    seats = list(MatchSeat.objects.filter(match=table).order_by("seat"))
    assert seats[0].player == people["pia"] and seats[0].is_person and seats[0].label == "pia"
    assert (table.kind, table.status, table.dispatch) == ("live", "queued", 1)
    assert table.limits["human_move_ms"] == 180_000
    assert LiveSeat.objects.get(match=table).user == people["pia"]


@pytest.mark.parametrize(
    ("path", "anonymous"),
    [
        ("/arena/play/{pk}/", 302),  # the page: log in first
        ("/arena/play/{pk}/state/", 403),  # its JSON: not_authenticated, in the API's shape
    ],
)
def test_only_the_person_at_the_table_sees_it(table, people, path, anonymous):
    url = path.format(pk=table.pk)
    assert Client().get(url).status_code == anonymous
    assert client_of(people["ole"]).get(url).status_code == 404  # not even that it exists
    assert client_of(people["pia"]).get(url).status_code == 200


def test_a_move_is_taken_only_from_the_seat_when_asked(table, people):
    url = f"/arena/play/{table.pk}/move/"
    body = json.dumps({"step": 0, "index": 0})
    assert (
        client_of(people["ole"]).post(url, body, content_type="application/json").status_code == 404
    )
    pia = client_of(people["pia"])
    not_asked = pia.post(url, body, content_type="application/json")
    assert not_asked.status_code == 400
    assert "not your move" in not_asked.json()["fields"]["step"][0]
    assert pia.post(url, "not json", content_type="application/json").status_code == 400
    LiveSeat.objects.filter(match=table).update(
        asked_step=0, legal=[{"action": {"type": "end-turn"}, "label": "end-turn"}]
    )
    out_of_range = pia.post(
        url, json.dumps({"step": 0, "index": 3}), content_type="application/json"
    )
    assert out_of_range.status_code == 400 and "index" in out_of_range.json()["fields"]
    assert pia.post(url, body, content_type="application/json").json() == {
        "ok": True,
        "step": 0,
        "index": 0,
    }
    assert LiveSeat.objects.get(match=table).answer == {"step": 0, "index": 0}


def test_a_finished_match_takes_no_more_moves(table, people):
    Match.objects.filter(pk=table.pk).update(status="finished")
    table.refresh_from_db()
    with pytest.raises(Exception, match="over"):
        live_answer(match=table, user=people["pia"], step=0, index=0)


def test_the_play_form_puts_each_error_beside_its_field_and_writes_nothing(people):
    pia = client_of(people["pia"])
    page = pia.get("/arena/play/")
    assert page.status_code == 200 and "Take your seat" in page.content.decode()
    answer = pia.post(
        "/arena/play/",
        {
            "game": "cat-lady",
            "players": "3",
            "seat": "1",
            "opponent_1": "house:cantankerous-cats:greedy",
        },
    )
    form = answer.context["form"]
    assert form.errors["opponent_1"] == ["This bot plays another game."]
    assert form.errors["opponent_2"] == ["Choose who plays this seat."]
    too_far = pia.post(
        "/arena/play/",
        {"game": "cat-lady", "players": "2", "seat": "4", "opponent_1": "house:cat-lady:random"},
    )
    assert too_far.context["form"].errors["seat"] == ["Choose a seat from 1 to 2."]
    assert Match.objects.count() == 0
    started = pia.post(
        "/arena/play/",
        {"game": "cat-lady", "players": "2", "seat": "2", "opponent_1": "house:cat-lady:random"},
    )
    match = Match.objects.get()
    assert started.status_code == 302 and started["Location"] == f"/arena/play/{match.pk}/"
    assert LiveSeat.objects.get(match=match).seat == 1


def test_the_play_page_needs_a_login():
    assert Client().get("/arena/play/").status_code == 302


def test_live_matches_with_two_people_or_none_are_refused(people):
    with pytest.raises(Exception, match="exactly one seat"):
        live_create(user=people["pia"], game="cat-lady", seats=[None, None])
    with pytest.raises(Exception, match="seats 2 to 4"):
        live_create(user=people["pia"], game="cat-lady", seats=[None])


def test_the_table_offers_each_move_in_words_with_its_rule_and_what_it_takes(
    table, people, monkeypatch
):
    game = engine.load_game("cat-lady", options={"players": 2})
    state = game.new_initial_state(3)
    writer = LiveWriter(table)
    writer(-1, {}, state)
    step, played = 0, []
    while step < 2 or state.current_player != 0:
        seat, action = state.current_player, state.legal_actions()[0]
        played.append((state, action))
        state = state.apply(action)
        writer(step, {"seat": seat, "action": action.to_json(), "status": "ok"}, state)
        step += 1
    live = LiveSeat.objects.get(match=table)
    describe = engine.game_spec("cat-lady").describe_move
    expected = [describe(state, action) for action in state.legal_actions()]
    assert live.board["moves"] == expected
    assert expected and all(words["rule"] for words in expected)
    # Every log line names the cards as the move's position showed them, with its rule.
    assert [(line["label"], line["rule"]) for line in live.log] == [
        (describe(before, action)["label"], describe(before, action)["rule"])
        for before, action in played
    ]

    seen = {}

    def answer_while_asked(_seconds: float) -> bool:
        seen["state"] = client_of(people["pia"]).get(f"/arena/play/{table.pk}/state/").json()
        LiveSeat.objects.filter(match=table).update(answer={"step": step, "index": 0})
        return True

    @contextlib.contextmanager
    def listening(_key):
        yield answer_while_asked  # the seat waits here for its person's answer

    monkeypatch.setattr("arena.live.services.wakeup.listening", listening)
    Match.objects.filter(pk=table.pk).update(status=Match.Status.RUNNING)  # a worker plays it
    human = DatabaseHumanSeat(table.pk, 0)
    legal = [action.to_json() for action in state.legal_actions()]
    labels = [str(action) for action in state.legal_actions()]
    obs = state.observation(0)
    assert human.ask(step=step, observation=obs, legal=legal, labels=labels, timeout_s=5) == {
        "index": 0
    }
    assert seen["state"]["legal"] == [words["label"] for words in expected]
    assert seen["state"]["moves"] == expected


def test_a_rematch_seats_the_same_opponents_one_place_on(people):
    match = live_create(
        user=people["pia"],
        game="cat-lady",
        seats=[None, SeatInput(builtin="greedy"), SeatInput(builtin="random")],
        seed=3,
    )
    pia = client_of(people["pia"])
    url = f"/arena/play/{match.pk}/rematch/"
    early = pia.post(url)
    assert early.status_code == 400 and "first" in early.json()["fields"]["match"][0]
    assert client_of(people["ole"]).post(url).status_code == 404
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    answer = pia.post(url).json()
    again = Match.objects.get(pk=answer["match"])
    assert answer["url"] == f"/arena/play/{again.pk}/"
    seats = list(again.seats.order_by("seat"))
    assert [s.builtin for s in seats] == ["random", "", "greedy"]
    assert seats[1].player == people["pia"] and LiveSeat.objects.get(match=again).seat == 1
    assert (again.kind, again.status, again.game) == ("live", "queued", "cat-lady")


def test_the_table_offers_its_controls_as_the_game_allows(table, people):
    pia = client_of(people["pia"])
    page = pia.get(f"/arena/play/{table.pk}/").content.decode()
    for control in ('id="play-resign"', 'id="play-rematch"', 'id="play-takeback"', "play-sound"):
        assert control in page
    assert f'data-takeback-url="/arena/play/{table.pk}/takeback/"' in page
    assert 'data-rated="true"' in page and "Rated: this game counts" in page
    LiveSeat.objects.filter(match=table).update(moves={"0": {"index": 0}})
    state = pia.get(f"/arena/play/{table.pk}/state/").json()
    assert (state["rated"], state["can_take_back"], state["rewinding"]) == (True, False, "")
    Match.objects.filter(pk=table.pk).update(rated=False)
    assert pia.get(f"/arena/play/{table.pk}/state/").json()["can_take_back"] is True
    assert 'data-rated="false"' in pia.get(f"/arena/play/{table.pk}/").content.decode()
    assert pia.post(f"/arena/play/{table.pk}/resign/").json() == {"ok": True, "resigned": True}
    state = pia.get(f"/arena/play/{table.pk}/state/").json()
    assert state["resigned"] is True and state["can_take_back"] is False
