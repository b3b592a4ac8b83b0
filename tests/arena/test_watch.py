"""Watching a match as it plays (arena.watch): the spectator's view at every step of a match
of each game, the worker publishing it (throttled, nothing lost from the log), and the watch
page and its long-polled state for anyone, logged in or not.

What a spectator must never see (a hand, the deck's order, a seed) is attacked move by move
in tests/arena/test_hidden_information.py."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

import engine
from arena import tasks
from arena.common import SeatInput, match_create
from arena.models import Match, MatchWatch
from arena.replay import seat_view
from arena.runner import run_match
from arena.watch import services as watch_services
from arena.watch.board import SPECTATOR, spectator_view, watch_line

SEED = 424_242
GAMES = [("cat-lady", ["greedy", "random"]), ("cantankerous-cats", ["random", "random", "greedy"])]
# What only one seat sees, in either game: never in a spectator's view.
OWN_KEYS = {"hand", "legal_actions", "position", "cards", "seat"}


def _states(game_name: str, bots: list[str]) -> tuple[Any, list[Any], list[dict[str, Any]]]:
    """Every position of a recorded house-bot match, with the log entry of each move."""
    states: list[Any] = []
    entries: list[dict[str, Any]] = []

    def record(step: int, entry: dict[str, Any], state: Any) -> None:
        states.append(state)
        entries.append(entry)

    log = run_match(game=game_name, seed=SEED, bots=bots, on_step=record)
    game = engine.load_game(game_name, options={"players": len(bots)})
    assert len(states) == len(log["steps"]) + 1
    return game, states, entries


@pytest.mark.parametrize(("game_name", "bots"), GAMES)
def test_the_spectator_sees_at_every_step_only_what_every_seat_sees(game_name, bots):
    game, states, _ = _states(game_name, bots)
    for state in states:
        view = spectator_view(game, state)
        seats = [seat_view(game, state, seat) for seat in range(game.num_players)]
        assert not OWN_KEYS & set(view["view"]), sorted(view["view"])
        for key, value in view["view"].items():  # each part is what every seat sees alike
            assert all(seen["view"][key] == value for seen in seats), key
        # Card data only for cards every seat has seen.
        for seen in seats:
            assert set(view["meta"].get("cards", {})) <= set(seen["meta"].get("cards", {}))
        assert view["to_move"] == state.current_player
        assert view["renderer"] == seats[0]["renderer"]


def test_a_spectator_reads_a_face_down_bet_only_as_made():
    game, states, entries = _states("cantankerous-cats", ["random", "random", "greedy"])
    phases = {"bet": 0, "other": 0}
    for step, (before, entry) in enumerate(zip(states, entries[1:], strict=False)):
        action = game.action_from_json(entry["action"])
        line = watch_line(game, before, action, step=step, seat=entry["seat"], who="x", status="ok")
        full = engine.game_spec(game.name).describe_move(before, action)
        if before.phase == "bet":
            phases["bet"] += 1
            assert line["label"] == "Bet a card face down" != full["label"]
        elif before.phase not in ("keep", "pounce"):
            phases["other"] += 1
            assert line["label"] == full["label"]
    assert phases["bet"] >= 2 and phases["other"] >= 10
    assert SPECTATOR not in range(game.num_players)


@pytest.fixture
def challenge(monkeypatch):
    """A house-bot challenge, played at once by the worker's own code path (no broker)."""
    monkeypatch.setenv("ARENA_SANDBOX_MODE", "unsafe")  # house bots only: no bot process

    def make(game: str = "cat-lady", bots: tuple[str, ...] = ("greedy", "random")) -> Match:
        return match_create(
            kind=Match.Kind.CHALLENGE,
            seed=SEED,
            seats=[SeatInput(builtin=name) for name in bots],
            game=game,
        )

    return make


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("game_name", "bots"), GAMES)
def test_the_worker_publishes_every_move_when_unthrottled(game_name, bots, challenge, monkeypatch):
    monkeypatch.setattr(watch_services, "PUBLISH_EVERY_S", 0.0)
    seen: list[tuple[int, int]] = []
    publish = watch_services.WatchWriter._publish

    def record(self, step: int, state: Any) -> None:
        publish(self, step, state)
        row = MatchWatch.objects.get(match_id=self.match_id)
        seen.append((row.step, len(row.log)))

    monkeypatch.setattr(watch_services.WatchWriter, "_publish", record)
    match = challenge(game_name, tuple(bots))
    tasks._play(match.pk, match.dispatch)
    match.refresh_from_db()
    steps = len(match.log["steps"])
    assert match.status == Match.Status.FINISHED
    assert [step for step, _ in seen] == list(range(-1, steps))
    assert [lines for _, lines in seen] == [
        min(n, watch_services.LOG_LINES) for n in range(steps + 1)
    ]
    row = MatchWatch.objects.get(match=match)
    assert row.step == steps - 1
    assert [line["step"] for line in row.log] == list(range(steps - len(row.log), steps))
    assert [line["seat"] for line in row.log] == [s["seat"] for s in match.log["steps"]][
        -len(row.log) :
    ]
    assert row.board["view"] and row.board["renderer"]


@pytest.mark.django_db(transaction=True)
def test_a_throttled_worker_writes_the_end_and_loses_no_line(challenge, monkeypatch):
    monkeypatch.setattr(watch_services, "PUBLISH_EVERY_S", 3600.0)
    writes: list[int] = []
    publish = watch_services.WatchWriter._publish

    def record(self, step: int, state: Any) -> None:
        writes.append(step)
        publish(self, step, state)

    monkeypatch.setattr(watch_services.WatchWriter, "_publish", record)
    match = challenge()
    tasks._play(match.pk, match.dispatch)
    match.refresh_from_db()
    steps = len(match.log["steps"])
    assert writes == [steps - 1]  # an hour between writes: only the end
    row = MatchWatch.objects.get(match=match)
    assert [line["step"] for line in row.log] == list(
        range(steps - watch_services.LOG_LINES, steps)
    )


@pytest.mark.django_db
def test_the_watch_page_and_its_state_are_404_for_no_match():
    client = Client()
    assert client.get("/arena/matches/999999/watch/").status_code == 404
    assert client.get("/arena/matches/999999/watch/state/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_anyone_logged_out_watches_a_queued_then_finished_match(challenge, settings):
    settings.ARENA_LIVE_LONG_POLL_S = 1
    match = challenge()
    client = Client()
    page = client.get(f"/arena/matches/{match.pk}/watch/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "data-watch" in body and "csrfmiddlewaretoken" not in body
    assert f'href="/arena/matches/{match.pk}/"' in body
    assert (
        f"/arena/matches/{match.pk}/watch/"
        in client.get(f"/arena/matches/{match.pk}/").content.decode()
    )

    queued = client.get(f"/arena/matches/{match.pk}/watch/state/").json()
    assert queued["status"] == "queued" and queued["step"] is None and queued["result"] is None
    begun = time.monotonic()
    again = client.get(f"/arena/matches/{match.pk}/watch/state/?since={queued['version']}").json()
    assert again["version"] == queued["version"] and time.monotonic() - begun >= 0.9

    tasks._play(match.pk, match.dispatch)
    over = client.get(
        f"/arena/matches/{match.pk}/watch/state/?since={queued['version']}&meta=have"
    ).json()
    match.refresh_from_db()
    assert over["status"] == "finished" and over["step"] == len(match.log["steps"]) - 1
    assert over["meta"] is None and over["renderer"] == "cat-lady"
    assert over["result"]["ranks"] == match.log["result"]["ranks"]
    assert over["result"]["scores"] == match.log["result"]["scores"]
    assert over["legal"] == [] and over["asked_step"] is None
    assert over["log"][-1]["step"] == over["step"]


@pytest.mark.django_db(transaction=True)
def test_a_running_match_lists_a_watch_link(challenge):
    match = challenge()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)
    user = get_user_model().objects.create_user("wes", password="pw-123456789")
    client = Client()
    client.force_login(user)
    assert (
        f'href="/arena/matches/{match.pk}/watch/"' in client.get("/arena/matches/").content.decode()
    )
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    assert f"/arena/matches/{match.pk}/watch/" not in client.get("/arena/matches/").content.decode()
    state = json.loads(client.get(f"/arena/matches/{match.pk}/watch/state/").content)
    assert state["board"]["view"] is None  # never published: nothing drawn, nothing leaked


@pytest.mark.django_db(transaction=True)
def test_a_deal_still_played_at_another_table_is_not_watched_until_that_table_is_done(challenge):
    here, there = challenge(), challenge()
    Match.objects.filter(pk__in=[here.pk, there.pk]).update(
        duplicate_set="deal-1", status=Match.Status.RUNNING
    )
    MatchWatch.objects.create(match_id=here.pk, step=3, board={"view": {"grid": "x"}}, log=[{}])
    client = Client()
    state = client.get(f"/arena/matches/{here.pk}/watch/state/").json()
    assert state["board"]["view"] is None and state["log"] == [] and state["step"] is None
    assert "another table" in state["waiting"]
    page = client.get(f"/arena/matches/{here.pk}/").content.decode()
    # No button, and the page says why (and when it will be there).
    assert "Watch it as it plays" not in page and "you can watch once the other tables" in page
    watch_link = f'href="/arena/matches/{here.pk}/watch/"'
    assert watch_link not in client.get("/arena/matches/").content.decode()

    Match.objects.filter(pk=there.pk).update(status=Match.Status.FINISHED)
    state = client.get(f"/arena/matches/{here.pk}/watch/state/").json()
    assert state["board"]["view"] == {"grid": "x"} and state["step"] == 3 and not state["waiting"]
    page = client.get(f"/arena/matches/{here.pk}/").content.decode()
    assert "Watch it as it plays" in page and "you can watch once the other tables" not in page
    # The match list links a ladder's or a tournament's seating as soon as it may be watched.
    assert watch_link in client.get("/arena/matches/").content.decode()
