"""Cantankerous Cats in the arena: the runner, sandboxed bots, manage.py play, ladders per
player count on the demo deck, validation, challenges and tournaments."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

import engine
from arena.common import SeatInput, game_label
from arena.ladders.services import ladder_schedule, ladders_ensure
from arena.matches.services import challenge_create
from arena.models import Bot, BotVersion, Ladder, LadderEntry, Match
from arena.runner import BotSpec, run_match
from arena.submissions.services import bot_create
from arena.tournaments.services import tournament_start
from engine.errors import EngineError
from tests.arena.bots import FAST_LIMITS, first_safe_mode
from tests.arena.tournaments import tournament_played

GAME = "cantankerous-cats"
STARTER = Path(__file__).resolve().parents[2] / "arena" / "botkit" / "cantankerous_starter_bot.py"
DEMO = "demo — not the published cards"


# -- the runner (no database) ---------------------------------------------------------------


def test_builtins_play_a_match_whose_engine_log_replays():
    log = run_match(game=GAME, seed=4, bots=["greedy", "random", "random"])
    assert log["game"] == GAME and log["options"]["deck"] == "demo"
    assert log["sandbox_mode"] is None
    result = log["result"]
    assert len(result["scores"]) == 3 and sorted(result["ranks"])[0] == 1
    sheet = result["score_sheet"]
    assert sheet["deck"] == DEMO and sheet["win_type"] in ("nine_mischief", "feral_victory")
    final = engine.replay(log["engine_log"])
    assert final.is_terminal() and [p.total for p in final.result().players] == result["scores"]
    assert [step["action"] for step in log["steps"]] == log["engine_log"]["actions"]


def test_builtin_greedy_is_the_games_own_strategy():
    wins = sum(
        run_match(game=GAME, seed=seed, bots=["greedy", "random", "random"])["result"]["winners"]
        == [0]
        for seed in range(8)
    )
    assert wins >= 5  # Cat Lady's greedy could not even read this game's observations


def test_a_strategy_the_game_lacks_is_refused_before_any_move():
    with pytest.raises(EngineError, match="unknown strategy 'mcts' for cantankerous-cats"):
        run_match(game=GAME, seed=1, bots=["mcts", "random"])


def test_game_options_reach_the_engine():
    log = run_match(game=GAME, seed=2, bots=["random", "random"], options={"variant": "basic"})
    assert log["options"]["variant"] == "basic"
    assert engine.replay(log["engine_log"]).game.variant == "basic"
    with pytest.raises(EngineError, match="played by 2-6 players, not 7"):
        run_match(game=GAME, seed=2, bots=["random"] * 7)


def test_six_sandboxed_and_builtin_seats_with_the_starter_bot():
    mode = first_safe_mode()
    starter = BotSpec.from_file(STARTER)
    log = run_match(
        game=GAME,
        seed=11,
        mode=mode,
        limits=FAST_LIMITS,
        bots=[starter, "greedy", "random", starter, "random", "greedy"],
    )
    assert log["faults"] == [[]] * 6, log["faults"]
    assert "deck demo" in log["stderr"][0] and "final ranks" in log["stderr"][0]
    assert engine.replay(log["engine_log"]).is_terminal()


# -- manage.py play -------------------------------------------------------------------------


def play(*args):
    out = StringIO()
    call_command("play", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_manage_py_play_runs_a_sandboxed_cantankerous_match(tmp_path):
    first_safe_mode()
    output = play(
        str(STARTER), "greedy", "random", "--game", GAME, "--seed", "3", "--log-dir", str(tmp_path)
    )
    assert "(cantankerous-cats v1, sandbox" in output
    log = json.loads((tmp_path / "match-cantankerous-cats-3.json").read_text())
    assert log["players"][0]["bot"] == "cantankerous_starter_bot.py"
    assert log["faults"][0] == []


def test_manage_py_play_takes_options_and_refuses_bad_ones(tmp_path):
    seeded = ("--game", GAME, "--seed", "1", "--log-dir", str(tmp_path))
    output = play("greedy", "random", *seeded, "--option", "variant=basic")
    assert "sandbox none: built-ins only" in output
    assert (
        json.loads((tmp_path / "match-cantankerous-cats-1.json").read_text())["options"]["variant"]
        == "basic"
    )
    with pytest.raises(CommandError, match="Cantankerous Cats is played by 2-6 players, not 7"):
        play(*["random"] * 7, *seeded)
    with pytest.raises(CommandError, match="option 'variant' must be one of basic, standard"):
        play("random", "random", *seeded, "--option", "variant=x")
    with pytest.raises(CommandError, match="invalid choice: 'chess'"):
        play("random", "random", "--game", "chess", "--seed", "1", "--log-dir", str(tmp_path))


# -- ladders, validation, challenges, tournaments (database) -------------------------------


@pytest.mark.django_db
def test_the_migration_made_one_demo_labelled_ladder_per_player_count():
    ladders = Ladder.objects.filter(game=GAME).order_by("players")
    assert [ladder.players for ladder in ladders] == [2, 3, 4, 5, 6]
    for ladder in ladders:
        assert ladder.name == f"Cantankerous Cats (deck: {DEMO}), {ladder.players} players"
    assert ladders_ensure(GAME) == list(ladders)  # same names: nothing new
    assert game_label(GAME) == f"Cantankerous Cats (deck: {DEMO})"
    assert Ladder.objects.filter(game="cat-lady").count() == 3


@pytest.mark.django_db
def test_ladders_ensure_refuses_an_unknown_game():
    with pytest.raises(ValidationError, match="Unknown game 'chess'"):
        ladders_ensure("chess")


def make_bot(owner, name, source, capture):
    with capture(execute=True):
        return bot_create(owner=owner, name=name, source=source, game=GAME)


@pytest.fixture
def grumpy(authors, eager_celery, django_capture_on_commit_callbacks):
    """Ada's copy of the Cantankerous starter bot, validated in the sandbox."""
    first_safe_mode()
    return make_bot(
        authors["ada"], "grumpy", STARTER.read_text(), django_capture_on_commit_callbacks
    )


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
def test_a_cantankerous_bot_is_validated_in_its_game_and_joins_its_ladders(grumpy):
    version = BotVersion.objects.get(bot=grumpy)
    assert version.status == "active", version.rejection
    validation = Match.objects.get(kind="validation")
    assert validation.game == GAME and validation.log["game"] == GAME
    ladders = {entry.ladder.players for entry in LadderEntry.objects.filter(version=version)}
    assert ladders == {2, 3, 4, 5, 6}
    assert not LadderEntry.objects.filter(version=version, ladder__game="cat-lady").exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
def test_a_ladder_schedules_rated_matches_of_its_game(authors, django_capture_on_commit_callbacks):
    first_safe_mode()
    for index in range(3):
        make_bot(
            authors["ada"],
            f"grumpy{index}",
            STARTER.read_text() + f"\n# {index}\n",
            django_capture_on_commit_callbacks,
        )
    ladder = Ladder.objects.get(game=GAME, players=3)
    with django_capture_on_commit_callbacks(execute=True):
        matches = ladder_schedule(ladder=ladder)
    assert len(matches) == 3  # one duplicate set: each seat rotation of the table
    for match in Match.objects.filter(ladder=ladder):
        assert match.status == "finished" and match.game == GAME, match.failure
        assert match.log["engine_log"]["options"]["deck"] == "demo"
    entries = LadderEntry.objects.filter(ladder=ladder)
    assert sorted(entry.games for entry in entries) == [3, 3, 3]
    assert abs(sum(entry.rating for entry in entries) - 3 * 1500) < 1e-6


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
def test_challenges_take_the_bots_game_and_refuse_mixed_games(
    grumpy, authors, django_capture_on_commit_callbacks
):
    version = grumpy.versions.get()
    with django_capture_on_commit_callbacks(execute=True):
        match = challenge_create(
            seats=[SeatInput(version=version)] + [SeatInput(builtin="greedy")] * 4,
            by=authors["ada"],
            seed=5,
        )
    match.refresh_from_db()
    assert match.game == GAME and match.status == "finished" and len(match.log["steps"]) > 0
    with pytest.raises(ValidationError, match="has no house bot 'mcts'"):
        challenge_create(
            seats=[SeatInput(version=version), SeatInput(builtin="mcts")],
            by=authors["ada"],
        )
    with pytest.raises(ValidationError, match="plays cantankerous-cats, not cat-lady"):
        challenge_create(
            seats=[SeatInput(version=version), SeatInput(builtin="random")],
            by=authors["ada"],
            game="cat-lady",
        )
    with django_capture_on_commit_callbacks(execute=True):
        houses = challenge_create(
            seats=[SeatInput(builtin="greedy")] * 6, by=authors["bob"], game=GAME, seed=1
        )
    assert houses.game == GAME and len(houses.seats.all()) == 6


@pytest.mark.django_db
def test_challenge_api_accepts_six_seats_and_a_game(client_for):
    response = client_for("ada").post(
        "/api/arena/matches/challenge/",
        {"seats": ["random"] * 6, "game": GAME, "seed": 3},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["game"] == GAME
    response = client_for("ada").post(
        "/api/arena/matches/challenge/", {"seats": ["random"] * 6, "seed": 3}, format="json"
    )
    assert response.status_code == 400  # no game given, no bot: Cat Lady, 2-4 players
    assert "is played by 2 to 4 players, not 6" in json.dumps(response.json()["fields"])


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
def test_bot_api_takes_a_game(client_for, django_capture_on_commit_callbacks):
    first_safe_mode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for("ada").post(
            "/api/arena/bots/",
            {"name": "grumpy", "game": GAME, "source": STARTER.read_text()},
            format="json",
        )
    assert response.status_code == 201 and response.json()["game"] == GAME
    response = client_for("ada").post(
        "/api/arena/bots/",
        {"name": "chessy", "game": "chess", "source": STARTER.read_text()},
        format="json",
    )
    assert response.status_code == 400 and "game" in response.json()["fields"]
    assert not Bot.objects.filter(name="chessy").exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
def test_tournament_tables_follow_the_games_player_counts(
    authors, django_capture_on_commit_callbacks
):
    first_safe_mode()
    versions = [
        make_bot(
            authors["ada"],
            f"grumpy{i}",
            STARTER.read_text() + f"\n# {i}\n",
            django_capture_on_commit_callbacks,
        ).versions.get()
        for i in range(5)
    ]
    round_robin = {"organiser": authors["ada"], "entrants": versions, "format": "round_robin"}
    with pytest.raises(ValidationError, match="tables seat 2 to 6 bots"):
        tournament_start(name="Too big", table_size=7, **round_robin)
    capture = django_capture_on_commit_callbacks
    tournament = tournament_played(capture, name="Cup", table_size=5, seed=3, **round_robin)
    assert tournament.game == GAME
    matches = Match.objects.filter(tournament=tournament)
    assert matches.count() == 5 and {m.game for m in matches} == {GAME}


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
def test_the_new_bot_page_offers_the_game_labelled_with_its_demo_deck(
    authors, django_capture_on_commit_callbacks
):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    first_safe_mode()
    client = Client()
    client.force_login(authors["ada"])
    page = client.get("/arena/bots/new/").content.decode()
    assert f"Cantankerous Cats (deck: {DEMO})" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/arena/bots/new/",
            {
                "name": "grumpy",
                "game": GAME,
                "file": SimpleUploadedFile("grumpy.py", STARTER.read_bytes()),
            },
        )
    assert response.status_code == 302
    bot = Bot.objects.get(name="grumpy")
    assert bot.game == GAME and bot.active_version.status == "active"
    response = client.post(
        "/arena/bots/new/",
        {
            "name": "chessy",
            "game": "chess",
            "file": SimpleUploadedFile("c.py", b"def choose(o, l):\n    return 0\n"),
        },
    )
    assert response.status_code == 400 and not Bot.objects.filter(name="chessy").exists()


@pytest.mark.django_db
def test_a_cantankerous_match_page_shows_the_moves_and_the_demo_deck(authors, client_for):
    from arena.replay import build_replay

    log = run_match(game=GAME, seed=6, bots=["greedy", "random"])
    replay = build_replay(log)
    assert replay["game"] == GAME and replay["moves"] and replay["result"]["ranks"]
    assert replay["moves"][0]["text"].startswith("bet ")


def test_replay_frames_hide_hands_per_seat_and_show_pounce_windows():
    from arena.replay import build_replay, expand_frames

    log = run_match(game=GAME, seed=3, bots=["greedy", "random", "random", "greedy"])
    replay = build_replay(log)
    assert replay["renderer"] == GAME and not replay["problem"]
    frames = expand_frames(replay)  # frames are sent as changes; make them whole
    assert len(frames) == len(replay["moves"]) + 1
    assert replay["meta"]["deck"]["name"] == DEMO and replay["meta"]["deck"]["demo"]
    final = engine.replay(log["engine_log"])
    assert frames[-1]["scores"] == list(final.points)
    for frame in frames:
        assert "hand" not in frame["public"] and "hands" not in frame["public"]
        for seat, own in enumerate(frame["own"]):
            if "hand" in own:
                assert own["hand"] == frame["hidden"]["hands"][seat]
        for cat, hand in zip(frame["public"]["cats"], frame["hidden"]["hands"], strict=True):
            assert cat["hand_size"] == len(hand)
    pounces = [
        f for f in frames if f["hidden"]["window"] and f["hidden"]["window"]["kind"] == "pounce"
    ]
    assert pounces, "this seed has Pounce windows"
    for frame in pounces:
        window = frame["hidden"]["window"]
        assert "choices" in window and "after_card" in window
        for own in frame["own"]:  # a seat sees its own choice only, never the others'
            assert "choices" not in (own.get("window") or {})
    mentioned = {n for f in frames for hand in f["hidden"]["hands"] for n in hand}
    assert {str(n) for n in mentioned} <= set(replay["meta"]["cards"])
