"""The Game/State API: loading games, immutability, observations and hidden information."""

from __future__ import annotations

import json
import random

import pytest

from engine.catlady.actions import EndTurn, Line, PlaceToken, Take
from engine.catlady.game import State
from engine.catlady.position import sample_state, state_from_position
from engine.errors import EngineError
from engine.registry import latest_version, load_game, registered_games


def random_midgame(players: int, seed: int, moves: int) -> State:
    state = load_game(options={"players": players}).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


# -- loading ------------------------------------------------------------------------------


def test_the_registry_knows_cat_lady_and_its_versions():
    assert ("cat-lady", "1") in registered_games()
    assert latest_version("cat-lady") == "1"
    game = load_game()
    assert (game.name, game.version, game.num_players) == ("cat-lady", "1", 4)
    assert game.options == {"players": 4, "edition": "base", "scoring": {}}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "chess"}, "unknown game 'chess'"),
        ({"version": "0"}, "version '0' is not implemented"),
        ({"options": {"players": 5}}, "not 5"),
        ({"options": {"players": 1}}, "not 1"),
        ({"options": {"players": "4"}}, "must be an integer"),
        ({"options": {"colour": "red"}}, "unknown option"),
        ({"options": {"edition": "deluxe"}}, "unknown edition 'deluxe'"),
    ],
)
def test_bad_game_requests_are_refused_clearly(kwargs, message):
    with pytest.raises(EngineError, match=message):
        load_game(**kwargs)


def test_game_and_options_are_immutable():
    game = load_game()
    with pytest.raises(AttributeError):
        game.num_players = 3
    with pytest.raises(TypeError):
        game.options["players"] = 2


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True])
def test_seeds_are_non_negative_integers(seed):
    with pytest.raises(EngineError, match="seed"):
        load_game().new_initial_state(seed)


# -- states -------------------------------------------------------------------------------


def test_history_lists_every_applied_action():
    state = load_game(options={"players": 2}).new_initial_state(1)
    moves = [PlaceToken(Line.ROW_1), Take(Line.ROW_2), EndTurn(), Take(Line.COL_1)]
    for move in moves:
        state = state.apply(move)
    assert state.history == tuple(moves)


def test_states_branch_independently():
    root = load_game(options={"players": 2}).new_initial_state(1).apply(PlaceToken(Line.ROW_1))
    left = root.apply(Take(Line.ROW_2))
    right = root.apply(Take(Line.ROW_3))
    assert left.token is Line.ROW_2 and right.token is Line.ROW_3
    assert root.token is Line.ROW_1 and root.phase == "before-draft"
    assert left.grid != right.grid


def test_is_legal_agrees_with_legal_actions():
    state = load_game(options={"players": 3}).new_initial_state(4).apply(PlaceToken(Line.ROW_2))
    for action in state.legal_actions():
        assert state.is_legal(action)
    assert not state.is_legal(Take(Line.ROW_2))
    assert not state.is_legal(EndTurn())


def test_result_before_the_end_is_refused():
    with pytest.raises(EngineError, match="not over"):
        load_game().new_initial_state(1).result()


# -- observations -------------------------------------------------------------------------


def test_observation_is_json_and_shows_the_public_position():
    state = random_midgame(4, seed=3, moves=20)
    obs = state.observation(2)
    assert json.loads(json.dumps(obs)) == obs
    assert obs["seat"] == 2 and obs["players"] == 4
    assert obs["deck_size"] == state.deck_size
    assert len(obs["grid"]) == 9 and len(obs["tableaux"]) == 4
    assert obs["strays"] == list(state.face_up_strays)
    assert obs["token"] == str(state.token)
    mover = state.current_player
    assert state.observation(mover)["legal_actions"] == [str(a) for a in state.legal_actions()]
    assert state.observation((mover + 1) % 4)["legal_actions"] == []


def test_observation_counts_unseen_cards_without_their_order():
    state = random_midgame(2, seed=5, moves=12)
    obs = state.observation(0)
    assert sum(obs["unseen"].values()) == state.deck_size + 2
    on_table = (
        len([c for c in obs["grid"] if c])
        + sum(obs["discard"].values())
        + sum(len(t["cats"]) + len(t["hand"]) for t in obs["tableaux"])
    )
    assert on_table + sum(obs["unseen"].values()) == 74


def hidden_twin(state: State, rng: random.Random) -> State:
    """The same state with the hidden cards (deck order, removed cards, stray deck) shuffled."""
    twin = state._successor(EndTurn())
    twin._history = state._history
    hidden = list(state._deck[state._pos :] + state._removed)
    rng.shuffle(hidden)
    cut = len(hidden) - len(state._removed)
    twin._deck = state._deck[: state._pos] + tuple(hidden[:cut])
    twin._removed = tuple(hidden[cut:])
    strays = list(state._strays_hidden)
    rng.shuffle(strays)
    twin._strays_hidden = tuple(strays)
    return twin


@pytest.mark.parametrize(("players", "moves"), [(2, 0), (2, 15), (3, 30), (4, 45)])
def test_observation_never_reveals_deck_order_removed_cards_or_hidden_strays(players, moves):
    state = random_midgame(players, seed=players + moves, moves=moves)
    rng = random.Random(1)
    for _ in range(5):
        twin = hidden_twin(state, rng)
        assert twin._deck != state._deck or twin._removed != state._removed or players == 4
        for seat in range(players):
            assert twin.observation(seat) == state.observation(seat)
    text = json.dumps(state.observation(0))
    for stray in state._strays_hidden:
        assert state.game.edition.strays[stray].name not in text


def test_sampled_states_agree_with_the_observation_and_play_on():
    state = random_midgame(3, seed=8, moves=25)
    obs = state.observation(1)
    guess = sample_state(state.game, obs, random.Random(3))
    assert guess.observation(1) == obs
    assert guess.legal_actions() == state.legal_actions()
    while not guess.is_terminal():
        guess = guess.apply(guess.legal_actions()[0])


def test_positions_account_for_every_card_exactly_once():
    game = load_game(options={"players": 3})
    state = state_from_position(
        game,
        {"grid": ["cat/bronte"] + [None] * 8, "deck_size": 10, "tableaux": [{"hand": ["catnip"]}]},
    )
    cards = [c for c in state.grid if c is not None] + list(state._deck) + list(state._removed)
    cards += list(state.players[0].hand)
    assert sorted(cards) == sorted(game.edition.deck_for_players(3))
    with pytest.raises(EngineError, match="more 'cat/bronte' cards"):
        state_from_position(game, {"grid": ["cat/bronte", "cat/bronte"] + [None] * 7})


# -- documentation examples and the command line ------------------------------------------


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    from engine.__main__ import main

    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_plays_a_game_and_its_log_replays(capsys, tmp_path):
    log = tmp_path / "match.json"
    code, out, _ = run_cli(
        capsys,
        "play",
        "--players",
        "4",
        "--bots",
        "random",
        "greedy",
        "greedy",
        "random",
        "--seed",
        "7",
        "--log",
        str(log),
    )
    assert code == 0
    assert "4 players, seed 7: 32 turns" in out and "winner: seat" in out
    assert out.count("rank ") == 4
    code, out, _ = run_cli(capsys, "replay", str(log))
    assert code == 0 and out.startswith("ok: ") and "32 turns" in out


def test_cli_summarises_several_games_per_bot_and_per_seat(capsys, tmp_path):
    logs = tmp_path / "logs.jsonl"
    code, out, _ = run_cli(
        capsys,
        "play",
        "--players",
        "2",
        "--bots",
        "random",
        "greedy",
        "--games",
        "3",
        "--seed",
        "1",
        "--json",
        "--log",
        str(logs),
    )
    assert code == 0
    summary = json.loads(out)
    assert summary["games"] == 3
    assert summary["per_bot"]["greedy"]["seats_played"] == 3
    assert sum(row["wins"] for row in summary["per_seat"]) == pytest.approx(3)
    assert len(logs.read_text().splitlines()) == 3
    code, out, _ = run_cli(capsys, "replay", str(logs))
    assert code == 0 and out.count("ok: ") == 3


def test_cli_refuses_a_tampered_log_with_exit_code_2(capsys, tmp_path):
    log = tmp_path / "match.json"
    run_cli(capsys, "play", "--players", "2", "--bots", "random", "random", "--log", str(log))
    data = json.loads(log.read_text())
    data["result"]["players"][0]["total"] += 1
    log.write_text(json.dumps(data))
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 2 and "result differs" in err
    (tmp_path / "junk.json").write_text("{not json")
    assert run_cli(capsys, "replay", str(tmp_path / "junk.json"))[0] == 2
    assert run_cli(capsys, "replay", str(tmp_path / "missing.json"))[0] == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--players", "4", "--bots", "random", "random"],
        ["play", "--players", "5", "--bots"] + ["random"] * 5,
        ["play", "--players", "2", "--bots", "random", "wizard"],
        ["play", "--players", "2", "--bots", "random", "random", "--seed", "-1"],
        ["play", "--players", "2", "--bots", "random", "random", "--games", "0"],
        ["fly"],
    ],
)
def test_cli_refuses_bad_arguments(capsys, argv):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and err


def test_cli_dispatches_score_to_the_calculator(capsys, tmp_path):
    end = tmp_path / "end.json"
    player = {"toys": {}, "catnip": 0, "vp_tokens": 0, "lost_cats": 0, "spray_bottles": 0}
    end.write_text(
        json.dumps(
            {
                "players": [
                    {
                        **player,
                        "name": "Ann",
                        "cats": ["Bronte"],
                        "food": {"tuna": 2},
                        "costumes": 1,
                    },
                    {**player, "name": "Bob", "cats": [], "food": {}, "costumes": 0},
                ]
            }
        )
    )
    code, out, _ = run_cli(capsys, "score", str(end), "--json")
    assert code == 0
    assert json.loads(out)["winners"] == ["Ann"]
    assert run_cli(capsys, "score", str(tmp_path / "missing.json"))[0] == 2
