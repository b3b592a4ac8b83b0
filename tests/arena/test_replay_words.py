"""Every move of a replay in the live table's words (issue 27): cards by printed name, each
move with its rule, for whole seeded games of both games."""

from __future__ import annotations

import pytest

import engine
from arena.replay import build_replay
from arena.runner import run_match
from arena.words import move_words
from tests.arena.card_words import bare_numbers, card_names, label_problems

GAMES = [
    ("cat-lady", ["greedy", "random", "greedy", "random"], {}),
    (
        "cat-lady",
        ["random", "random", "random"],
        {"edition": "box-of-treats-placeholder", "shared_goals": True},
    ),
    ("cantankerous-cats", ["greedy", "random", "random", "greedy"], {}),
]


@pytest.fixture(
    scope="module",
    params=GAMES,
    ids=["cat-lady-base", "cat-lady-box-of-treats", "cantankerous-cats"],
)
def game_log(request):
    game, bots, options = request.param
    return run_match(game=game, seed=11, bots=bots, options=options or None)


@pytest.fixture(scope="module")
def replay(game_log):
    return build_replay(game_log)


@pytest.mark.parametrize(
    ("label", "bare"),
    [
        ("Bet #17 Demo Affection 2 (face down)", []),
        ("Attack Seat 2 with #17 Demo Affection 2", []),
        ("Take row 2: Tuna, an empty space, Tuna", []),
        ("Two lost cats for a 2-VP token", []),
        ("Shopping bag: 1 chicken, 1 tuna, 1 milk", []),
        ("buy-token 23 31 40", ["23", "31", "40"]),
        ("Bank #17", ["#17"]),
        ("Keep 17", ["17"]),
    ],
)
def test_the_check_tells_card_names_from_bare_numbers(label, bare):
    assert bare_numbers(label, {"#17 Demo Affection 2", "Tuna"}) == bare


def test_every_move_names_its_cards_by_printed_name(replay):
    names = card_names(replay)
    assert replay["frames"] and len(replay["moves"]) > 20
    problems = [problem for move in replay["moves"] for problem in label_problems(move, names)]
    assert problems == []


def test_every_label_is_the_tables_words_for_the_position_it_was_played_in(game_log, replay):
    engine_log = game_log["engine_log"]
    game = engine.load_game(
        engine_log["game"], version=engine_log["version"], options=engine_log["options"]
    )
    state = game.new_initial_state(engine_log["seed"])
    for move, raw in zip(replay["moves"], engine_log["actions"], strict=True):
        action = game.action_from_json(raw)
        words = move_words(game, state, action)
        assert (move["label"], move["rule"]) == (words["label"], words["rule"])
        assert move["rule"], move  # every move has its rule a tap away
        state = state.apply(action)


def test_the_engine_text_stays_for_the_board_and_the_api(replay):
    # board.js reads "take row 2" to mark the refilled line; bots' logs use the same text.
    assert all(move["text"] and move["text"] != move["label"] for move in replay["moves"])


def test_the_check_catches_the_engine_short_text(replay):
    names = card_names(replay)
    # The engine's text names a card by number or a line by place (a goal it names in full).
    card_moves = [
        m
        for m in replay["moves"]
        if any(c.isdigit() for c in m["text"]) and not any(name in m["text"] for name in names)
    ]
    assert card_moves
    for move in card_moves:
        assert label_problems({**move, "label": move["text"]}, names), move


def test_a_log_the_engine_cannot_replay_labels_moves_with_their_text(game_log):
    log = {**game_log, "engine_log": {**game_log["engine_log"], "version": "0.0-gone"}}
    replay = build_replay(log)
    assert replay["frames"] is None
    assert all(m["label"] == m["text"] and m["rule"] == "" for m in replay["moves"])
