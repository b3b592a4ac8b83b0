"""One conformance test over every registered game and player count: random playouts end,
observations never carry hidden cards, the same seed gives the same log, and the whole
API is implemented (no optional capabilities)."""

from __future__ import annotations

import json
import random

import pytest

from engine.cantankerous.rules import Bets, PounceWindow
from engine.catlady.cards import bundled_editions, load_edition
from engine.log import make_log, replay
from engine.registry import load_game, registered_games

# A bound no legal game reaches (Cantankerous Cats stops at its turn limit), so a playout
# that hits it is a bug.
MAX_ACTIONS = 5000


def configurations():
    for name, version in registered_games():
        game = load_game(name, version=version)
        for players in game.supported_players:
            yield pytest.param(name, version, players, {}, id=f"{name}-v{version}-{players}p")
        if name == "cat-lady":
            yield from cat_lady_editions(version)


def cat_lady_editions(version):
    """Every other playable Cat Lady edition at each player count, with its variants (an
    incomplete edition cannot be played: load_game refuses it, tested elsewhere)."""
    for edition in bundled_editions():
        data = load_edition(edition)
        if edition == "base" or not data.playable:
            continue

        for players in data.supported_players:
            yield cat_lady_param(version, edition, players, f"{players}p")
        if data.goals:
            yield cat_lady_param(version, edition, 4, "4p-goals", shared_goals=True)
        if data.solitaire:
            yield cat_lady_param(version, edition, 2, "solitaire", solitaire=True)


def cat_lady_param(version, edition, players, suffix, **options):
    return pytest.param(
        "cat-lady",
        version,
        players,
        {"edition": edition, **options},
        id=f"cat-lady-v{version}-{edition}-{suffix}",
    )


def random_playout(game, seed):
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    states = [state]
    while not state.is_terminal():
        assert len(states) < MAX_ACTIONS, "playout does not end"
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def check_cat_lady_hidden(game, state, seat, obs):
    # The deck order, removed cards and unrevealed strays are not in the JSON except as
    # the public multiset of unseen cards.
    text = json.dumps(obs)
    assert "deck" not in {k for k in obs if k != "deck_size"}
    for stray in state._strays_hidden:
        assert game.edition.strays[stray].name not in text
    hidden = state._deck[state._pos :] + state._removed
    assert sum(obs["unseen"].values()) == len(hidden)
    assert "turn_deck" not in text  # solitaire: the order of the face-down turn cards


def check_cantankerous_hidden(game, state, seat, obs):
    # Deal the cards this seat cannot see (other hands, the Food Bowl) differently, keeping
    # every size and every card a pending bet or Pounce names: the observation must not move.
    committed = set()
    for frame in state._stack:
        if isinstance(frame, Bets):
            committed.update(card for _, card in frame.bets)
        if isinstance(frame, PounceWindow):
            committed.update(
                game.index_of[a.card]
                for _, a in frame.choices
                if getattr(a, "card", None) is not None
            )
    others = [s for s in range(game.num_players) if s != seat]
    pool = list(state._bowl) + [c for s in others for c in state._hands[s] if c not in committed]
    random.Random(len(pool)).shuffle(pool)
    other = type(state).__new__(type(state))
    for cls in type(state).__mro__:  # the game's slots and the base state's
        for slot in getattr(cls, "__slots__", ()):
            setattr(other, slot, getattr(state, slot))
    other._hands = [hand[:] for hand in state._hands]
    for s in others:
        other._hands[s] = [c if c in committed else pool.pop() for c in state._hands[s]]
    other._bowl = pool
    other._rng = state._rng ^ 0xDEADBEEF
    assert other.observation(seat) == obs
    assert "_rng" not in json.dumps(obs) and "bowl_order" not in obs


HIDDEN_CHECKS = {"cat-lady": check_cat_lady_hidden, "cantankerous-cats": check_cantankerous_hidden}


@pytest.mark.parametrize(("name", "version", "players", "options"), list(configurations()))
def test_game_conforms(name, version, players, options):
    game = load_game(name, version=version, options={"players": players, **options})
    for seed in (0, 1, 2):
        states = random_playout(game, seed)
        final = states[-1]
        assert final.current_player == -1 and final.legal_actions() == []
        json.dumps(final.result().to_json())
        result = final.result()
        assert [p.rank for p in result.players] and all(p.rank >= 1 for p in result.players)

        for state in states[:: max(1, len(states) // 10)]:
            for seat in range(players):
                obs = state.observation(seat)
                json.dumps(obs)
                HIDDEN_CHECKS[name](game, state, seat, obs)

        # Same seed, same actions, same log; and the log replays.
        log = make_log(game, seed, final.history)
        assert make_log(game, seed, random_playout(game, seed)[-1].history) == log
        assert replay(json.loads(json.dumps(log))) == final
