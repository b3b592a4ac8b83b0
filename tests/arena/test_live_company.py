"""Friends at a live table: seats left for friends, the invitation links that fill them (and
refuse in words), guests on the host's device, starting without the missing, calling the game
off, and who is rated."""

from __future__ import annotations

import datetime as dt
import json
import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.utils import timezone

from arena import tasks
from arena.common import SeatInput
from arena.live import wakeup
from arena.live.company.services import (
    company_start,
    company_wait,
    guest_seat,
    invitation_accept,
)
from arena.live.selectors import live_games_of, person_games, played_games
from arena.live.services import live_create, live_rematch, person_seat, rate_play_pool
from arena.models import LiveSeat, Match, MatchSeat, PlayRating

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    User = get_user_model()
    return {
        name: User.objects.create_user(name, password="pw-123456789")
        for name in ("pia", "ole", "eva")
    }


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _table(host, friends=(1,), players=3) -> Match:
    seats: list[SeatInput | None] = [None] * (len(friends) + 1)
    seats += [SeatInput(builtin="greedy")] * (players - len(seats))
    return live_create(user=host, game="cat-lady", seats=seats, seed=3, friends=friends)


def _refusal(error: pytest.ExceptionInfo[ValidationError]) -> str:
    return " ".join(m for messages in error.value.message_dict.values() for m in messages)


def test_seats_left_for_friends_wait_with_an_unguessable_link_each(people):
    match = _table(people["pia"], friends=(1, 2), players=3)
    invitations = list(match.invitations.order_by("seat"))
    assert [i.seat for i in invitations] == [1, 2]
    assert all(len(i.token) >= 40 for i in invitations)
    assert invitations[0].token != invitations[1].token
    assert match.seats_open_until is not None and match.seats_open_until > timezone.now()
    seats = list(match.seats.order_by("seat"))
    assert [(s.player, s.is_person) for s in seats] == [
        (people["pia"], True),
        (None, True),
        (None, True),
    ]
    assert list(match.live_seats.values_list("seat", "user__username")) == [(0, "pia")]


def test_a_table_without_friends_does_not_wait(people):
    match = _table(people["pia"], friends=(), players=2)
    assert match.seats_open_until is None and not match.invitations.exists()


def test_friends_must_be_seats_left_empty(people):
    with pytest.raises(ValidationError) as error:
        live_create(
            user=people["pia"],
            game="cat-lady",
            seats=[None, SeatInput(builtin="greedy")],
            friends=[1],
        )
    assert "exactly one seat yourself" in _refusal(error)


def test_the_link_seats_a_friend_and_the_last_one_closes_the_table(people):
    match = _table(people["pia"])
    token = match.invitations.get().token
    assert invitation_accept(token=token, user=people["ole"]).pk == match.pk
    match.refresh_from_db()
    assert match.seats_open_until is None
    assert MatchSeat.objects.get(match=match, seat=1).player == people["ole"]
    assert LiveSeat.objects.get(match=match, seat=1).user == people["ole"]
    # Opened again by the friend it seated: back to their table, nothing changes.
    assert invitation_accept(token=token, user=people["ole"]).pk == match.pk


@pytest.mark.parametrize(
    ("who", "setup", "words"),
    [
        ("eva", "used", "has been used already"),
        ("pia", "", "your own invitation link"),
        ("eva", "started", "has started"),
        ("eva", "over", "is over"),
        ("ole", "seated", "a seat at this table already"),
    ],
)
def test_a_link_is_refused_in_words(people, who, setup, words):
    match = _table(people["pia"], friends=(1, 2), players=3)
    first, second = match.invitations.order_by("seat")
    if setup == "used":
        invitation_accept(token=first.token, user=people["ole"])
    elif setup == "started":
        company_start(match=match, host=people["pia"])
    elif setup == "over":
        Match.objects.filter(pk=match.pk).update(status=Match.Status.FAILED)
    elif setup == "seated":
        invitation_accept(token=second.token, user=people["ole"])
    with pytest.raises(ValidationError) as error:
        invitation_accept(token=first.token, user=people[who])
    assert words in _refusal(error)
    assert MatchSeat.objects.get(match=match, seat=1).player == (
        people["ole"] if setup == "used" else None
    )


def test_an_unknown_link_is_refused(people):
    with pytest.raises(ValidationError) as error:
        invitation_accept(token="not-a-token", user=people["ole"])
    assert "not valid" in _refusal(error)


def test_a_guest_sits_on_the_hosts_device_and_is_not_a_second_host_seat(people):
    match = _table(people["pia"])
    live = guest_seat(match=match, host=people["pia"], seat=1, name="  Grandma   Jo ")
    assert (live.user, live.seat) == (people["pia"], 1)
    seat = MatchSeat.objects.get(match=match, seat=1)
    assert (seat.guest, seat.player, seat.label) == ("Grandma Jo", None, "Grandma Jo (guest)")
    assert person_seat(match, people["pia"]).seat == 0  # the host's own, by default
    assert person_seat(match, people["pia"], 1).seat == 1
    assert person_seat(match, people["ole"], 1) is None
    match.refresh_from_db()
    assert match.seats_open_until is None
    with pytest.raises(ValidationError) as error:
        invitation_accept(token=match.invitations.get().token, user=people["ole"])
    assert "has been used already" in _refusal(error)


@pytest.mark.parametrize(
    ("host", "seat", "name", "field", "words"),
    [
        ("pia", 1, "   ", "name", "Give the guest's name"),
        ("pia", 1, "x" * 31, "name", "under 31 characters"),
        ("pia", 1, "PIA", "name", "has that name"),
        ("pia", 0, "Jo", "seat", "not waiting for anyone"),
        ("ole", 1, "Jo", "match", "Only the host"),
    ],
)
def test_a_guest_is_refused_with_the_field_at_fault(people, host, seat, name, field, words):
    match = _table(people["pia"])
    with pytest.raises(ValidationError) as error:
        guest_seat(match=match, host=people[host], seat=seat, name=name)
    assert words in " ".join(error.value.message_dict[field])
    assert not MatchSeat.objects.filter(match=match).exclude(guest="").exists()


def test_the_host_starts_without_the_missing_friends(people):
    match = _table(people["pia"], friends=(1, 2), players=3)
    invitation_accept(token=match.invitations.get(seat=1).token, user=people["ole"])
    assert company_start(match=match, host=people["pia"]) == [2]
    seats = list(match.seats.order_by("seat"))
    assert [s.label for s in seats] == ["pia", "ole", "house:greedy"]
    assert company_wait(match.pk) == ""
    with pytest.raises(ValidationError) as error:
        company_start(match=match, host=people["pia"])
    assert "has started" in _refusal(error)


def test_a_table_nobody_fills_in_time_is_called_off_for_no_one(people, settings, monkeypatch):
    monkeypatch.setenv("ARENA_SANDBOX_MODE", "unsafe")
    match = _table(people["pia"], friends=(1, 2), players=3)
    invitation_accept(token=match.invitations.get(seat=1).token, user=people["ole"])
    Match.objects.filter(pk=match.pk).update(
        seats_open_until=timezone.now() - dt.timedelta(seconds=1),
        created_at=timezone.now() - dt.timedelta(minutes=10, seconds=1),
    )
    tasks._play(match.pk, match.dispatch)
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED
    assert "Nobody took seat 3 within 10 minutes" in match.failure
    assert "counts for no one" in match.failure
    assert not PlayRating.objects.exists()
    assert all(s.rating_after is None and not s.forfeited for s in match.seats.all())
    state = client_of(people["ole"]).get(f"/arena/play/{match.pk}/state/").json()
    assert state["status"] == "failed" and "called off" in state["failure"]


def test_guests_are_not_rated_and_accounts_are_in_the_tables_pool(people):
    match = _table(people["pia"], friends=(1,), players=3)
    guest_seat(match=match, host=people["pia"], seat=1, name="Jo")
    seats = list(match.seats.order_by("seat"))
    for seat, rank in zip(seats, (2, 1, 3), strict=True):
        seat.rank = rank
    rate_play_pool(match, seats)
    assert seats[1].rating_after is None  # the guest
    assert seats[0].rating_after is not None and seats[2].rating_after is not None
    pool = PlayRating.objects.order_by("builtin").values_list(
        "players", "user__username", "builtin"
    )
    assert list(pool) == [(3, "pia", ""), (3, None, "greedy")]


def test_a_rematch_leaves_the_other_peoples_seats_open_again(people):
    match = _table(people["pia"], friends=(1, 2), players=3)
    invitation_accept(token=match.invitations.get(seat=1).token, user=people["ole"])
    guest_seat(match=match, host=people["pia"], seat=2, name="Jo")
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    match.refresh_from_db()
    again = live_rematch(match=match, user=people["ole"])
    assert again.requested_by == people["ole"]
    # Every seat one place on: Jo's, Pia's (both open again), Ole's.
    assert [s.label for s in again.seats.order_by("seat")] == [
        "a person (no one seated)",
        "a person (no one seated)",
        "ole",
    ]
    assert sorted(again.invitations.values_list("seat", flat=True)) == [0, 1]
    assert list(live_games_of(people["pia"])) == [match]  # listed once, with two seats


# --- pages ------------------------------------------------------------------------------------


def test_an_invitation_opened_logged_out_leads_through_the_log_in_and_back(people):
    match = _table(people["pia"])
    url = f"/arena/play/join/{match.invitations.get().token}/"
    response = Client().get(url)
    assert response.status_code == 302 and f"next={url}" in response["Location"].replace("%2F", "/")
    login = Client().get(response["Location"]).content.decode()
    assert "/accounts/signup/?next=" + url.replace("/", "%2F") in login  # a sign-up comes back
    page = client_of(people["ole"]).get(url)
    assert page.status_code == 200
    assert "pia invites you to Cat Lady" in page.content.decode()
    taken = client_of(people["ole"]).post(url)
    assert taken.status_code == 302 and taken["Location"] == f"/arena/play/{match.pk}/"
    assert client_of(people["ole"]).get(taken["Location"]).status_code == 200


@pytest.mark.parametrize(
    ("who", "status", "words"),
    [("pia", 403, "your own invitation link"), ("eva", 400, "has been used already")],
)
def test_a_refused_invitation_says_why(people, who, status, words):
    match = _table(people["pia"])
    url = f"/arena/play/join/{match.invitations.get().token}/"
    if who == "eva":
        client_of(people["ole"]).post(url)
    response = client_of(people[who]).post(url)
    assert response.status_code == status
    assert words in response.content.decode()
    assert client_of(people["ole"]).get("/arena/play/join/nothing-here/").status_code == 404


def test_the_play_form_leaves_a_seat_for_a_friend(people):
    host = client_of(people["pia"])
    response = host.post(
        "/arena/play/",
        {"game": "cat-lady", "players": 3, "seat": "1", "opponent_1": "friend"}
        | {"opponent_2": "house:cat-lady:greedy"},
    )
    assert response.status_code == 302
    match = Match.objects.get()
    token = match.invitations.get(seat=1).token
    page = host.get(response["Location"]).content.decode()
    assert f"/arena/play/join/{token}/" in page
    assert "Start now" in page and "Seat the guest" in page
    assert "guests are not rated" in page
    state = host.get(f"/arena/play/{match.pk}/state/").json()
    assert state["company"]["gathering"] is True and state["company"]["open"] == [1]
    assert token not in json.dumps(state)  # the link is on the host's page only
    friend = client_of(people["ole"])
    friend.post(f"/arena/play/join/{token}/")
    page = friend.get(f"/arena/play/{match.pk}/").content.decode()
    assert token not in page and "Start now" not in page


def test_seating_a_guest_answers_400_with_the_field_or_403_to_a_guest_of_the_table(people):
    match = _table(people["pia"], friends=(1, 2), players=3)
    url = f"/arena/play/{match.pk}/guest/"
    host = client_of(people["pia"])
    blank = host.post(url, {"seat": "1", "name": ""})
    assert blank.status_code == 400 and blank.json()["fields"]["name"]
    assert host.post(url, {"seat": "x", "name": "Jo"}).json()["fields"]["seat"]
    invitation_accept(token=match.invitations.get(seat=2).token, user=people["ole"])
    assert client_of(people["ole"]).post(url, {"seat": "1", "name": "Jo"}).status_code == 403
    assert client_of(people["eva"]).post(url, {"seat": "1", "name": "Jo"}).status_code == 404
    assert client_of(people["ole"]).post(f"/arena/play/{match.pk}/start/").status_code == 403
    assert host.post(url, {"seat": "1", "name": "Jo"}).json() == {"ok": True, "seat": 1}
    again = host.post(f"/arena/play/{match.pk}/start/")
    assert again.status_code == 400 and "has started" in again.json()["fields"]["match"][0]


def test_the_hosts_device_passes_itself_to_the_guest_whose_turn_it_is(people):
    match = _table(people["pia"])
    guest_seat(match=match, host=people["pia"], seat=1, name="Jo")
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)
    LiveSeat.objects.filter(match=match, seat=1).update(asked_step=4, legal=[{"label": "x"}])
    host = client_of(people["pia"])
    own = host.get(f"/arena/play/{match.pk}/state/?seat=0").json()
    assert own["company"]["handover"] == {"seat": 1, "name": "Jo"}
    assert own["company"]["shared"] is True and own["asked_step"] is None
    guest = host.get(f"/arena/play/{match.pk}/state/?seat=1").json()
    assert guest["company"]["handover"] is None and guest["asked_step"] == 4
    page = host.get(f"/arena/play/{match.pk}/?seat=1").content.decode()
    assert f'data-move-url="/arena/play/{match.pk}/move/?seat=1"' in page
    assert "Jo (guest) (you)" in page
    # The move goes to the guest's seat, and nobody else holds it.
    moved = host.post(
        f"/arena/play/{match.pk}/move/?seat=1",
        json.dumps({"step": 4, "index": 0}),
        content_type="application/json",
    )
    assert moved.status_code == 200
    assert LiveSeat.objects.get(match=match, seat=1).answer == {"step": 4, "index": 0}
    assert client_of(people["ole"]).get(f"/arena/play/{match.pk}/?seat=1").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_waiting_worker_wakes_when_the_last_friend_sits_down(people):
    """The worker's wait ends as the seat is taken (rung, not looked at later), and plays."""
    match = _table(people["pia"])
    ended: list[tuple[str, float]] = []

    def wait() -> None:
        try:
            ended.append((company_wait(match.pk), time.monotonic()))
        finally:
            connection.close()

    waiter = threading.Thread(target=wait, daemon=True)
    waiter.start()
    time.sleep(0.5)
    assert waiter.is_alive()  # waiting: the seat is open
    seated = time.monotonic()
    invitation_accept(token=match.invitations.get().token, user=people["ole"])
    waiter.join(timeout=10)
    assert ended and ended[0][0] == ""
    assert ended[0][1] - seated < wakeup.SAFETY_S  # woken, not found on the next look


def test_a_host_who_seated_a_guest_has_one_row_in_their_game_list_at_their_own_seat(people):
    match = _table(people["pia"], friends=(0,))  # the guest moves first, before the host
    guest_seat(match=match, host=people["pia"], seat=0, name="Jo")

    rows = played_games(person_games(people["pia"]), people["pia"])
    assert [row.match.pk for row in rows] == [match.pk]
    assert rows[0].you.seat == 1
    assert [seat.label for seat in rows[0].opponents][:1] == ["Jo (guest)"]
    assert [m.pk for m in live_games_of(people["pia"])] == [match.pk]
