"""One conformance test over every registered game and player count: random playouts end,
observations never carry hidden cards, the same seed gives the same log, and the whole
API is implemented (no optional capabilities)."""

from __future__ import annotations

import json
import random

import pytest

from engine.log import make_log, replay
from engine.registry import load_game, registered_games


def configurations():
    for name, version in registered_games():
        game = load_game(name, version=version)
        for players in game.edition.supported_players:
            yield pytest.param(name, version, players, id=f"{name}-v{version}-{players}p")


def random_playout(game, seed):
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    states = [state]
    while not state.is_terminal():
        assert len(states) < 1000, "playout does not end"
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


@pytest.mark.parametrize(("name", "version", "players"), list(configurations()))
def test_game_conforms(name, version, players):
    game = load_game(name, version=version, options={"players": players})
    for seed in (0, 1, 2):
        states = random_playout(game, seed)
        final = states[-1]
        assert final.current_player == -1 and final.legal_actions() == []
        json.dumps(final.result().to_json())

        # No hidden card in any observation: the deck order, removed cards and unrevealed
        # strays are not in the JSON except as the public multiset of unseen cards.
        for state in states[:: max(1, len(states) // 10)]:
            for seat in range(players):
                obs = state.observation(seat)
                text = json.dumps(obs)
                assert "deck" not in {k for k in obs if k != "deck_size"}
                for stray in state._strays_hidden:
                    assert game.edition.strays[stray].name not in text
                hidden = state._deck[state._pos:] + state._removed
                assert sum(obs["unseen"].values()) == len(hidden)

        # Same seed, same actions, same log; and the log replays.
        log = make_log(game, seed, final.history)
        assert make_log(game, seed, random_playout(game, seed)[-1].history) == log
        assert replay(json.loads(json.dumps(log))) == final
