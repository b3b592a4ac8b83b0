"""The engine as a forward model for a bot: the same one the house bots search with.

A bot is told its game at the start (``start(info)``: game, rules version, options) and
sees one observation per decision. :func:`engine.forward_model` rebuilds the game from
either and gives a :class:`ForwardModel`, which turns an observation into a full state consistent with everything that seat knows (the
hidden cards drawn at random from what they could be: :meth:`ForwardModel.sample_state`),
and plays states forward. It never sees the true state or the match seed, and neither
does any house bot: they use this class and nothing else to look ahead.

Actions convert to and from the protocol's JSON without loss: :meth:`ForwardModel.action`
takes a JSON action (as in ``legal_actions``), an action's text or an action, and
``action.to_json()`` goes back.

>>> import random
>>> import engine
>>> game = engine.load_game(options={"players": 2})
>>> true_state = game.new_initial_state(seed=3)
>>> observation = true_state.observation(1)
>>> model = engine.forward_model(observation)
>>> guess = model.sample_state(observation, random.Random(0))
>>> guess.observation(1) == observation        # exactly what seat 1 knows...
True
>>> state = model.apply(guess, observation["legal_actions"][0])
>>> while not model.is_terminal(state):         # ...and a playout from there
...     state = model.apply(state, model.legal_actions(state)[0])
>>> len(model.scores(state))
2
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.actions import Action
from engine.contract import Game, GameState
from engine.random_bot import move_rng  # bots draw each decision's randomness from it

__all__ = ["ForwardModel", "Sampler", "move_rng"]

Sampler = Callable[[Any, Mapping[str, Any], random.Random], GameState]


class ForwardModel:
    """One game's rules, for looking ahead from a seat's observations: the game and the
    sampler its spec registers (``engine.forward_model(info)`` builds one by name)."""

    def __init__(self, game: Game, sampler: Sampler) -> None:
        self.game = game
        self._sample = sampler

    @property
    def num_players(self) -> int:
        return self.game.num_players

    def initial_state(self, seed: int) -> GameState:
        """A fresh deal from ``seed`` (for self-play; in a match, use :meth:`sample_state`)."""
        return self.game.new_initial_state(seed)

    def sample_state(self, observation: Mapping[str, Any], rng: random.Random) -> GameState:
        """A full state consistent with everything ``observation``'s seat knows; what it
        cannot know (deck order, cards removed unseen, strays never dealt, other players'
        hands and pending bets) is drawn from ``rng`` uniformly among what it could be.
        Raises :class:`~engine.errors.EngineError` for another game's observation."""
        return self._sample(self.game, observation, rng)

    def legal_actions(self, state: GameState) -> list[Action]:
        """What the player to move may do (empty when the game is over)."""
        return state.legal_actions()

    def current_player(self, state: GameState) -> int:
        """The seat to decide now, or -1 when the game is over."""
        return state.current_player

    def apply(self, state: GameState, action: Action | Mapping[str, Any] | str) -> GameState:
        """The state after ``action`` (an action, its JSON or its text); ``state`` itself
        never changes. Raises :class:`~engine.errors.IllegalActionError`."""
        return state.apply(self.action(action))

    def is_terminal(self, state: GameState) -> bool:
        return state.is_terminal()

    def scores(self, state: GameState) -> list[int]:
        """Each seat's total: the final result when the game is over, else the score as if
        it ended now."""
        result = state.result() if state.is_terminal() else state.score()
        return [player.total for player in result.players]

    def winners(self, state: GameState) -> list[int]:
        """The winning seats of a finished game (several on a full tie)."""
        return list(state.result().winners)

    def observation(self, state: GameState, seat: int) -> dict[str, Any]:
        """What ``seat`` would see in ``state`` (for bots that model their opponents)."""
        return state.observation(seat)

    def action(self, value: Action | Mapping[str, Any] | str) -> Action:
        """An action from its JSON form (as in ``legal_actions``), its text or itself.

        >>> from engine import forward_model
        >>> model = forward_model({"game": "cat-lady", "version": "1", "options": {"players": 2}})
        >>> model.action({"type": "take", "line": "row 2"}) == model.action("take row 2")
        True
        """
        if isinstance(value, Action):
            return value
        if isinstance(value, str):
            return self.game.parse_action(value)
        return self.game.action_from_json(value)
