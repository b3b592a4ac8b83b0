"""Nothing from which a hidden card can be derived reaches anyone while a match runs.

A live match is played for real (the worker's own code path, in a thread; house bots in
process) while the person answers through HTTP. At several points of the game every API answer
and page that concerns the match is read as the person at the table, as another user and
anonymously, and each is attacked: every integer in it is tried as the deal's seed, and every
list in it is compared with the deck order, the removed cards, the face-down strays and the
other seats' hands. Once the match is over the seed is public again, which also shows that the
attack finds a seed where there is one.
"""

from __future__ import annotations

import functools
import html
import json
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

import engine
from arena import tasks
from arena.common import SeatInput, match_create
from arena.live import wakeup
from arena.live.services import LiveWriter, board_key, live_create
from arena.models import LiveSeat, Match, Tournament
from arena.replay import build_replay
from arena.runner import run_match
from arena.watch import services as watch_services

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 1_234_567
SEED_RANGE = range(0, 2**31)


@functools.cache
def _deal(game: str, players: int, seed: int) -> str:
    """The whole opening deal (every hidden card) of ``seed``, as comparable text."""
    state = engine.load_game(game, options={"players": players}).new_initial_state(seed)
    return json.dumps(state.full_view(), sort_keys=True)


def _secret_lists(state: Any, seat: int) -> list[list[Any]]:
    """The hidden parts of ``state`` as ``seat`` sees it, as lists a leak would carry."""
    view = state.full_view()
    secrets: list[list[Any]] = []
    for key in ("deck", "removed", "strays_face_down"):
        if isinstance(view.get(key), list) and len(view[key]) >= 2:
            secrets.append(view[key])
    for other, hand in enumerate(view.get("hands") or []):
        if other != seat and isinstance(hand, list) and len(hand) >= 2:
            secrets.append(hand)
    assert secrets, "the attack needs something hidden to look for"
    return secrets


def _secret_runs(state: Any, seat: int) -> list[tuple[list[Any], int, set[str]]]:
    """:func:`_secret_lists` with each list's runs of four (fewer if it is shorter): worked
    out once per position, not once per list of every body attacked."""
    secrets = []
    for secret in _secret_lists(state, seat):
        run = min(4, len(secret))
        secrets.append((secret, run, _runs(secret, run)))
    return secrets


def _lists_in(value: Any) -> Iterator[list[Any]]:
    if isinstance(value, list):
        yield value
        for item in value:
            yield from _lists_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _lists_in(item)


def _runs(items: list[Any], run: int) -> set[str]:
    """Every ``run`` consecutive items of ``items``, in order, as comparable text."""
    return {json.dumps(items[i : i + run]) for i in range(len(items) - run + 1)}


def _contains_run(haystack: list[Any], needle: list[Any], run: int) -> bool:
    """Whether ``haystack`` holds ``run`` consecutive items of ``needle`` in its order."""
    run = min(run, len(needle))
    return not _runs(haystack, run).isdisjoint(_runs(needle, run))


def leaks(
    body: str,
    *,
    game: str,
    players: int,
    seat: int,
    state: Any = None,
    secrets: list[tuple[list[Any], int, set[str]]] | None = None,
) -> list[str]:
    """What in ``body`` (JSON or HTML) gives the deal away: the seed, or a run of four hidden
    cards of ``state`` (the position at the time) in their hidden order. ``secrets``: the
    same position's :func:`_secret_runs`, when the caller attacks many bodies with it."""
    found = []
    true_deal = _deal(game, players, SEED)
    for number in sorted({int(n) for n in re.findall(r"\d{1,10}", body)}):
        if number in SEED_RANGE and _deal(game, players, number) == true_deal:
            found.append(f"the seed ({number})")
    try:
        data = json.loads(body)
    except ValueError:
        scripts = re.findall(r'<script[^>]*type="application/json"[^>]*>(.*?)</script>', body, re.S)
        data = [json.loads(text) for text in scripts]
    if secrets is None:
        secrets = _secret_runs(state, seat) if state is not None else []
    for value in _lists_in(data):
        shown: dict[int, set[str]] = {}  # the value's runs, by length
        for secret, run, hidden_runs in secrets:
            if run not in shown:
                shown[run] = _runs(value, run)
            if not shown[run].isdisjoint(hidden_runs):
                found.append(f"a hidden list {secret[:4]}...")
    if re.search(r'"(deck_order|strays_face_down|removed|hands)"\s*:', body):
        found.append("a field of the full view")
    return found


@pytest.fixture
def people():
    User = get_user_model()
    return {
        name: User.objects.create_user(name, password="pw-123456789") for name in ("pia", "ole")
    }


def _client(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _urls(match: Match) -> list[str]:
    return [
        f"/api/arena/matches/{match.pk}/",
        f"/api/arena/matches/{match.pk}/log/",
        "/api/arena/matches/",
        "/api/arena/matches/?kind=live",
        f"/arena/matches/{match.pk}/",
        "/arena/matches/",
        f"/arena/play/{match.pk}/",
        f"/arena/play/{match.pk}/state/",
        "/arena/play/",
        *_watch_urls(match.pk),
    ]


def _watch_urls(pk: int) -> list[str]:
    """The watch page and its state: the spectator's, whoever reads them (a person playing the
    match included: no seat's own cards there, not even the reader's)."""
    return [f"/arena/matches/{pk}/watch/", f"/arena/matches/{pk}/watch/state/"]


def _readers(people: dict[str, Any]) -> dict[str | None, Client]:
    """Pia, Ole and an anonymous visitor, each with a client kept for the whole test."""
    return {who: _client(people[who] if who else None) for who in ("pia", "ole", None)}


def _read_everything(
    match: Match,
    readers: dict[str | None, Client],
    *,
    seat: int,
    state: Any,
    seats: dict[str | None, int] | None = None,
) -> list[str]:
    """Every page and answer about ``match`` read by each reader; ``seats``: the seat whose
    own hand a reader may see (``seat`` for everyone by default)."""
    problems = []
    players = match.seats.count()
    watch_urls = _watch_urls(match.pk)
    secrets: dict[int, list[tuple[list[Any], int, set[str]]]] = {}
    # Readers often get the very same body (an API answer, the spectator's state): attacked
    # once per position and seat, as the attack's outcome depends on nothing else.
    attacked: dict[tuple[str, int], list[str]] = {}
    for who, client in readers.items():
        for url in _urls(match):
            mine = -1 if url in watch_urls else (seats or {}).get(who, seat)
            response = client.get(url)
            if response.status_code != 200:
                continue
            body = response.content.decode()
            if (body, mine) not in attacked:
                if mine not in secrets:
                    secrets[mine] = _secret_runs(state, mine)
                attacked[body, mine] = leaks(
                    body, game=match.game, players=players, seat=mine, secrets=secrets[mine]
                )
            for leak in attacked[body, mine]:
                problems.append(f"{who or 'anonymous'} reads {leak} at {url}")
    return problems


def _play_in_background(match: Match) -> threading.Thread:
    def play() -> None:
        try:
            tasks._play(match.pk, match.dispatch)
        finally:
            connection.close()

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    return thread


def _positions_written(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The positions the worker's table writer is given, in order, as the match is played."""
    positions: list[Any] = []
    write = LiveWriter.__call__

    def record(self: LiveWriter, step: int, entry: dict[str, Any], state: Any) -> None:
        positions.append(state)
        write(self, step, entry, state)

    monkeypatch.setattr(LiveWriter, "__call__", record)
    return positions


def _play_the_first_legal_move(person: Client, match: Match, step: int) -> None:
    person.post(
        f"/arena/play/{match.pk}/move/",
        json.dumps({"step": step, "index": 0}),
        content_type="application/json",
    )


OVER = (Match.Status.FINISHED, Match.Status.FAILED)


def _questions(match: Match, timeout_s: float = 30) -> Iterator[int]:
    """Each step the worker asks the match's one person to move at, until the match is over;
    answer each before asking for the next.

    Woken as the person's page is (the worker rings it after every move, question and end),
    not by polling; a ring lost would cost a look every ``wakeup.SAFETY_S``, not the test."""
    live_id = LiveSeat.objects.get(match=match).pk
    step = -1
    with wakeup.listening(board_key(live_id)) as wait:
        deadline = time.monotonic() + timeout_s
        while True:
            asked, status = (
                LiveSeat.objects.filter(pk=live_id).values_list("asked_step", "match__status").get()
            )
            if asked is not None and asked > step:
                step = asked
                yield step
                deadline = time.monotonic() + timeout_s
                continue
            if status in OVER:
                return
            if (left := deadline - time.monotonic()) <= 0:
                raise AssertionError("the worker never asked the person for a move")
            wait(min(left, wakeup.SAFETY_S))


@pytest.mark.parametrize(
    ("game", "opponents"),
    [("cat-lady", ["greedy"]), ("cantankerous-cats", ["random", "random"])],
)
def test_a_running_live_match_gives_nobody_its_deal(game, opponents, people, settings, monkeypatch):
    settings.ARENA_LIVE_PACE_MS = 0
    monkeypatch.setenv("ARENA_SANDBOX_MODE", "unsafe")  # house bots only: no bot process
    match = live_create(
        user=people["pia"],
        game=game,
        seats=[None, *[SeatInput(builtin=name) for name in opponents]],
        seed=SEED,
    )
    positions = _positions_written(monkeypatch)
    thread = _play_in_background(match)
    readers = _readers(people)
    person = readers["pia"]
    checked, problems = 0, []
    try:
        for step in _questions(match):
            if checked < 3 and step >= checked * 6:  # the opening, and two later positions
                problems += _read_everything(match, readers, seat=0, state=positions[-1])
                checked += 1
            _play_the_first_legal_move(person, match, step)
    finally:
        thread.join(timeout=60)
    assert checked == 3 and problems == []

    # Over: the seed is public again, and the attack above finds it where it is shown.
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    answer = Client().get(f"/api/arena/matches/{match.pk}/").json()
    assert answer["seed"] == SEED
    assert any(
        "the seed" in leak
        for leak in leaks(json.dumps(answer), game=game, players=len(opponents) + 1, seat=0)
    )


@pytest.mark.parametrize(("game", "bot"), [("cat-lady", "greedy"), ("cantankerous-cats", "random")])
def test_two_people_at_one_table_each_see_only_their_own_seat(
    game, bot, people, settings, monkeypatch
):
    """Pia hosts, Ole takes the seat her link leaves him, a bot plays the third: at several
    points of the game every page and answer is read by both (and anonymously), and neither
    carries the other's hand, the deck or the seed; each moves only in their own seat."""
    settings.ARENA_LIVE_PACE_MS = 0
    monkeypatch.setenv("ARENA_SANDBOX_MODE", "unsafe")  # house bots only: no bot process
    match = live_create(
        user=people["pia"],
        game=game,
        seats=[None, None, SeatInput(builtin=bot)],
        seed=SEED,
        friends=[1],
    )
    readers = _readers(people)
    clients = {0: readers["pia"], 1: readers["ole"]}
    token = match.invitations.get().token
    assert clients[1].post(f"/arena/play/join/{token}/").status_code == 302
    pia_seat = LiveSeat.objects.get(match=match, seat=0).pk
    positions = _positions_written(monkeypatch)
    thread = _play_in_background(match)
    answered = {0: -1, 1: -1}
    checked, problems = 0, []
    try:
        # Every question rings each person's page (Pia's among them), and so does the end.
        with wakeup.listening(board_key(pia_seat)) as wait:
            deadline = time.monotonic() + 120
            while (left := deadline - time.monotonic()) > 0:
                rows = LiveSeat.objects.filter(match=match).order_by("seat")
                seats = list(rows.values_list("seat", "asked_step", "match__status"))
                if seats[0][2] in OVER:
                    break
                asked = [(seat, step) for seat, step, _ in seats if step is not None]
                asked = [(seat, step) for seat, step in asked if step > answered[seat]]
                if not asked:
                    wait(min(left, wakeup.SAFETY_S))
                    continue
                seat_asked, step = asked[0]
                if checked < 4 and step >= checked * 4:
                    position = positions[-1]
                    hands = position.full_view().get("hands") or []
                    for seat, client in clients.items():
                        state = client.get(f"/arena/play/{match.pk}/state/").json()
                        assert state["you"] == seat
                        if hands and len(hands[1 - seat]) >= 2:  # Cantankerous Cats: hands held
                            other = hands[1 - seat]
                            assert not any(_contains_run(v, other, 4) for v in _lists_in(state))
                        if hands and len(hands[seat]) >= 4:  # the look finds a hand where shown
                            assert any(_contains_run(v, hands[seat], 4) for v in _lists_in(state))
                        # Neither sees (so neither moves in) the other's seat, even when asking
                        # for it by number, whichever of the two is asked now. Checked here, not
                        # at every move: the answer depends only on who asks for which seat of
                        # which match, and none of that changes while the game is played.
                        other_seat = f"/arena/play/{match.pk}/state/?seat={1 - seat}"
                        assert client.get(other_seat).status_code == 404
                    problems += _read_everything(
                        match, readers, seat=-1, state=position, seats={"pia": 0, "ole": 1}
                    )
                    checked += 1
                answered[seat_asked] = step
                moved = clients[seat_asked].post(
                    f"/arena/play/{match.pk}/move/",
                    json.dumps({"step": step, "index": 0}),
                    content_type="application/json",
                )
                assert moved.status_code == 200, moved.content
    finally:
        thread.join(timeout=60)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert checked == 4 and problems == []
    assert sorted(match.live_seats.values_list("seat", "user__username")) == [
        (0, "pia"),
        (1, "ole"),
    ]
    assert all(s.rating_after is not None for s in match.seats.all())  # both accounts rated


def _no_trace_of(hidden: list[dict[str, Any]], state: dict[str, Any]) -> list[str]:
    """What of the bots' hidden choices ``hidden`` the person's table ``state`` shows."""
    problems = []
    body = json.dumps(state)
    lines = {line["step"]: line for line in state["log"]}
    for move in hidden:
        line = lines.get(move["step"])
        text = json.dumps(line) if line else ""
        # A Pass's label ("Pass") may be the person's own: look for it in the bot's line.
        if (line and line["label"] == move["label"]) or (move["card"] and move["label"] in body):
            problems.append(f"step {move['step']}: {move['label']!r}")
        if re.search(r"#\d", text):
            problems.append(f"step {move['step']}: a card number in {text}")
        card = move["card"]
        if card is not None and state["step"] < move["revealed"]:
            if str(card) in state["cards"] or re.search(rf"\b{card}\b", text):
                problems.append(f"step {move['step']}: the bet card's number {card}")
            if move["name"] in text or move["card_label"] in body:
                problems.append(f"step {move['step']}: the bet card's name {move['name']}")
    return problems


def test_the_live_table_shows_other_seats_hidden_choices_only_as_made(
    people, settings, monkeypatch
):
    """Cantankerous Cats with the person in the last seat: both bots bet face down before the
    person is asked to bet. Their bets (and later a Feral's kept card or a Pounce choice)
    reach the person's table only as made, before and after the reveal, while it runs."""
    settings.ARENA_LIVE_PACE_MS = 0
    monkeypatch.setenv("ARENA_SANDBOX_MODE", "unsafe")  # house bots only: no bot process
    game = "cantankerous-cats"
    match = live_create(
        user=people["pia"],
        game=game,
        seats=[SeatInput(builtin="random"), SeatInput(builtin="random"), None],
        seed=SEED,
    )
    hidden: list[dict[str, Any]] = []  # the bots' moves the rules keep face down
    write = LiveWriter.__call__

    def record(self: LiveWriter, step: int, entry: dict[str, Any], state: Any) -> None:
        before = self.before
        if entry and entry["seat"] != 2 and before.phase in ("bet", "keep", "pounce"):
            action = self.game.action_from_json(entry["action"])
            card = getattr(action, "card", None) if before.phase == "bet" else None
            printed = self.game.deck.card(card) if card is not None else None
            hidden.append(
                {
                    "step": step,
                    "label": engine.game_spec(game).describe_move(before, action)["label"],
                    "card": card,
                    "name": printed.name if printed else "",
                    "card_label": printed.label if printed else "",
                    "revealed": 10**9,
                }
            )
        if any(event["type"] == "bets-revealed" for event in state.events):
            for move in hidden:
                move["revealed"] = min(move["revealed"], step)
        write(self, step, entry, state)

    monkeypatch.setattr(LiveWriter, "__call__", record)
    thread = _play_in_background(match)
    person = _client(people["pia"])
    states, problems = [], []
    try:
        for step in _questions(match):
            state = person.get(f"/arena/play/{match.pk}/state/").json()
            states.append(state)
            problems += _no_trace_of(hidden, state)
            _play_the_first_legal_move(person, match, step)
    finally:
        thread.join(timeout=60)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    # The first question: both bots' bets lie face down, not yet revealed, in the log.
    first = states[0]
    bets = [line for line in first["log"] if line["seat"] in (0, 1)]
    assert [line["label"] for line in bets] == ["Bet a card face down"] * 2
    assert all(move["revealed"] > first["step"] for move in hidden[:2])
    assert hidden[0]["card"] is not None and hidden[1]["card"] is not None
    assert problems == []


def test_a_deal_stays_hidden_while_another_seating_of_it_runs(people):
    seats = [SeatInput(builtin="random"), SeatInput(builtin="greedy")]
    first, second = (
        match_create(
            kind=Match.Kind.CHALLENGE, seed=SEED, duplicate_set="set-1", seats=s, game="cat-lady"
        )
        for s in (seats, seats[::-1])
    )
    Match.objects.filter(pk=first.pk).update(status=Match.Status.FINISHED, log={"seed": SEED})
    Match.objects.filter(pk=second.pk).update(status=Match.Status.RUNNING)
    owner = _client(people["pia"])
    for url in (f"/api/arena/matches/{first.pk}/", "/api/arena/matches/"):
        assert str(SEED) not in owner.get(url).content.decode()
    assert owner.get(f"/api/arena/matches/{first.pk}/log/").status_code == 404
    assert str(SEED) not in owner.get(f"/arena/matches/{first.pk}/").content.decode()

    Match.objects.filter(pk=second.pk).update(status=Match.Status.FINISHED)
    assert owner.get(f"/api/arena/matches/{first.pk}/").json()["seed"] == SEED


def test_a_replays_move_words_wait_for_every_seating_of_the_deal():
    """The replay names every bet in full ("Bet #64 ..."): a finished seating's page must not
    carry those words while another seating of the same deal still runs."""
    seats = [SeatInput(builtin="random"), SeatInput(builtin="greedy"), SeatInput(builtin="random")]
    first, second = (
        match_create(
            kind=Match.Kind.CHALLENGE,
            seed=SEED,
            duplicate_set="set-words",
            seats=s,
            game="cantankerous-cats",
        )
        for s in (seats, seats[::-1])
    )
    log = run_match(game="cantankerous-cats", seed=SEED, bots=["random", "greedy", "random"])
    labels = [move["label"] for move in build_replay(log)["moves"]]
    bets = [label for label in labels if label.startswith("Bet #")]
    assert len(bets) == 3
    Match.objects.filter(pk=first.pk).update(status=Match.Status.FINISHED, log=log)
    Match.objects.filter(pk=second.pk).update(status=Match.Status.RUNNING)
    page = Client().get(f"/arena/matches/{first.pk}/").content.decode()
    assert "replay-data" not in page
    assert not [label for label in labels if html.escape(label) in page]

    Match.objects.filter(pk=second.pk).update(status=Match.Status.FINISHED)
    page = Client().get(f"/arena/matches/{first.pk}/").content.decode()
    assert all(html.escape(bet) in page for bet in bets)


def test_a_tournament_seed_is_hidden_until_it_is_finished(people):
    tournament = Tournament.objects.create(
        name="Cup", format=Tournament.Format.ROUND_ROBIN, rounds=1, seed=SEED
    )
    url = f"/api/arena/tournaments/{tournament.pk}/"
    assert Client().get(url).json()["seed"] is None
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    assert Client().get(url).json()["seed"] == SEED


@pytest.mark.parametrize(
    ("game", "bots"), [("cat-lady", ["greedy", "random"]), ("cantankerous-cats", ["random"] * 3)]
)
def test_a_spectator_gets_nothing_hidden_at_any_move_of_a_bot_match(game, bots, monkeypatch):
    """A house-bot challenge watched move by move: the worker publishes every position
    (unthrottled) and each time the watch state is read anonymously (the page, too, at a few
    points) and attacked as above with every seat's hand counted as hidden; card data is
    given only for cards every seat has seen. At the end the answer has the result and still
    no seed (the replay behind the match page is where the deal shows)."""
    monkeypatch.setenv("ARENA_SANDBOX_MODE", "unsafe")  # house bots only: no bot process
    monkeypatch.setattr(watch_services, "PUBLISH_EVERY_S", 0.0)
    spectator = Client()
    answers: list[dict[str, Any]] = []
    problems: list[str] = []
    publish = watch_services.WatchWriter._publish

    def publish_and_read(self: watch_services.WatchWriter, step: int, state: Any) -> None:
        publish(self, step, state)
        page, state_url = _watch_urls(self.match_id)
        urls = [page, state_url] if step % 10 == 0 else [state_url]  # the answer is read last
        for url in urls:
            body = spectator.get(url).content.decode()
            for leak in leaks(body, game=game, players=len(bots), seat=-1, state=state):
                problems.append(f"move {step}: {leak} at {url}")
        answer = json.loads(body)
        answers.append(answer)
        seen = [state.observation(seat).get("cards") for seat in range(len(bots))]
        if all(isinstance(cards, dict) for cards in seen):
            by_all = set.intersection(*({str(card) for card in cards} for cards in seen))
            if not set(answer["cards"]) <= by_all:
                problems.append(f"move {step}: cards {set(answer['cards']) - by_all}")

    monkeypatch.setattr(watch_services.WatchWriter, "_publish", publish_and_read)
    match = match_create(
        kind=Match.Kind.CHALLENGE,
        seed=SEED,
        seats=[SeatInput(builtin=name) for name in bots],
        game=game,
    )
    tasks._play(match.pk, match.dispatch)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.failure
    assert [answer["step"] for answer in answers] == list(range(-1, len(match.log["steps"])))
    assert problems == []
    final = spectator.get(f"/arena/matches/{match.pk}/watch/state/")
    assert final.json()["result"]["ranks"] == match.log["result"]["ranks"]
    assert str(SEED) not in final.content.decode()
