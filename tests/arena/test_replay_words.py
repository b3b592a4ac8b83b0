"""Every move of a replay in the live table's words (issue 27): cards by printed name, each
move with its rule, and every line the frames give people to read (events, Pounce choices,
legal moves) the same, seats counted from 1, for whole seeded games of both games."""

from __future__ import annotations

import pytest

import engine
from arena.replay import build_replay, expand_frames
from arena.runner import run_match
from arena.words import move_words
from tests.arena.card_words import bare_numbers, card_names, label_problems, line_problems

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
        ("Seat 1 pays 6 with #17 Demo Affection 2 (2 hearts)", []),
        ("turn 3: Seat 2 takes the Cat Toy and draws 1", []),
        ("Seat 4 draws 2 up to 5", []),
        ("Pounce window after Seat 1's #17 Demo Affection 2: Seats 2, 3 decide", []),
        ("Seat 2 scores +1 for Tuna: 3 Mischief", []),
        ("the Litter Box (59 cards) is shuffled", []),
        ("Seat 3 pounce attack Seat 1 with 70", ["70"]),
        ("Seat 2 pays 6 with 17 (6 hearts)", ["17"]),
    ],
)
def test_the_check_tells_card_names_from_bare_numbers(label, bare):
    assert bare_numbers(label, {"#17 Demo Affection 2", "Tuna"}) == bare


def test_every_move_names_its_cards_by_printed_name(replay):
    names = card_names(replay)
    assert replay["frames"] and len(replay["moves"]) > 20
    problems = [problem for move in replay["moves"] for problem in label_problems(move, names)]
    assert problems == []


def _lines_people_read(replay):
    """(where, line) for every line a replay's frames give people to read beside the board."""
    for index, frame in enumerate(expand_frames(replay)):
        for event in frame.get("events") or []:
            yield f"frame {index} event", event
        window = frame["hidden"].get("window") or {}
        for seat, choice in (window.get("choices") or {}).items():
            yield f"frame {index} Seat {int(seat) + 1}'s Pounce choice", choice
        for move in frame["legal_moves"]:
            yield f"frame {index} legal move", move
        for seat, own in enumerate(frame["own"]):
            if (own.get("window") or {}).get("my_choice"):
                yield f"frame {index} Seat {seat + 1}'s own choice", own["window"]["my_choice"]


def test_every_line_of_the_frames_names_cards_and_counts_seats_from_1(replay):
    names = card_names(replay)
    lines = list(_lines_people_read(replay))
    problems = [problem for where, line in lines for problem in line_problems(where, line, names)]
    assert problems == []


def test_the_line_check_catches_engine_seats_and_bare_card_numbers():
    names = {"#70 Demo Mischief 5"}
    assert (
        line_problems("event", "Seat 3 Pounce: attack Seat 1 with #70 Demo Mischief 5", names) == []
    )
    engine_text = line_problems("event", "seat 2 pounce attack 0 with 70", names)
    assert "event 'seat 2 pounce attack 0 with 70': bare number '70'" in engine_text
    assert "event 'seat 2 pounce attack 0 with 70': a seat counted from 0" in engine_text
    assert line_problems("event", "Seat 0 naps", names) == [
        "event 'Seat 0 naps': a seat counted from 0"
    ]


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


def test_the_legal_moves_line_lists_the_seat_to_moves_moves_in_the_tables_words(game_log, replay):
    engine_log = game_log["engine_log"]
    game = engine.load_game(
        engine_log["game"], version=engine_log["version"], options=engine_log["options"]
    )
    state = game.new_initial_state(engine_log["seed"])
    raw_actions = [game.action_from_json(raw) for raw in engine_log["actions"]]
    for frame, action in zip(expand_frames(replay), [*raw_actions, None], strict=True):
        view = frame["own"][frame["to_move"]] if action is not None else {}
        assert len(frame["legal_moves"]) == len(view.get("legal_actions", []))
        assert frame["legal_moves"] == [
            move_words(game, state, legal)["label"] for legal in state.legal_actions()
        ]
        if action is not None:
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
