"""Print end-game scoring speed: typical end states, and one large tableau.

Figures are printed, never asserted. Caches are cleared between measurements of distinct
states so that the figure is the cost of scoring a fresh end of game.

    .venv/bin/python scripts/bench_scoring.py [--states 2000] [--seed 1]
    .venv/bin/python scripts/bench_scoring.py --edition box-of-treats-placeholder --players 6 --states 50

The base game with 4 players deals the deck in threes (as drafting does); any other edition
or player count takes the end states of random games played by the engine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import feeding, feeding_general, load_game  # noqa: E402
from engine.cards import CardKind, load_edition  # noqa: E402
from engine.scoring import Tableau, score_game  # noqa: E402


def random_end_states(n_states: int, seed: int) -> list[list[Tableau]]:
    """Deal the 4-player deck round-robin in threes (like drafting) and hand out strays."""
    edition = load_edition()
    rng = random.Random(seed)
    states = []
    for _ in range(n_states):
        deck = list(edition.deck)
        rng.shuffle(deck)
        strays = rng.sample(edition.strays, 3)
        hands: list[dict] = [{"cats": [], "food": {}, "toys": {}, "costumes": 0, "catnip": 0}
                             for _ in range(4)]
        for turn in range(32):
            hand = hands[turn % 4]
            for card in deck[turn * 3:turn * 3 + 3]:
                if card.kind is CardKind.CAT:
                    hand["cats"].append(card.name)
                elif card.kind is CardKind.FOOD:
                    for token, n in card.food.items():
                        hand["food"][token] = hand["food"].get(token, 0) + n
                elif card.kind is CardKind.TOY:
                    hand["toys"][card.toy] = hand["toys"].get(card.toy, 0) + 1
                elif card.kind is CardKind.COSTUME:
                    hand["costumes"] += 1
                elif card.kind is CardKind.CATNIP:
                    hand["catnip"] += 1
        for stray in strays:
            if rng.random() < 0.6:
                rng.choice(hands)["cats"].append(stray.name)
        states.append([Tableau(name=f"p{i}", cats=tuple(h["cats"]), food=h["food"], toys=h["toys"],
                               costumes=h["costumes"], catnip=h["catnip"])
                       for i, h in enumerate(hands)])
    return states


def played_end_states(n_states: int, seed: int, edition_name: str,
                      players: int) -> list[tuple[list[Tableau], dict[str, Any]]]:
    """End states of random games (tableaux, plus the grid and shared goals to score with)."""
    game = load_game(options={"players": players, "edition": edition_name})
    rng = random.Random(seed)
    states = []
    for game_seed in range(seed, seed + n_states):
        state = game.new_initial_state(game_seed)
        while not state.is_terminal():
            state = state.apply(rng.choice(state.legal_actions()))
        extra: dict[str, Any] = {}
        if state._ext is not None:
            extra = {"grid": tuple(game.card_key(c) for c in state._grid if c is not None),
                     "goals": state.shared_goals()}
        states.append((list(state.tableaux()), extra))
    return states


def clear_caches() -> None:
    feeding._cached_options.cache_clear()
    feeding._layout.cache_clear()
    feeding._sets_rest.cache_clear()
    feeding_general._cached.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--states", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--edition", default="base", help="Cat Lady card data (default: base)")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    edition = load_edition(args.edition)
    if args.edition == "base" and args.players == 4:
        states = [(s, {}) for s in random_end_states(args.states, args.seed)]
        how = "dealt"
    else:
        states = played_end_states(args.states, args.seed, args.edition, args.players)
        how = "played"
    players = len(states[0][0])
    cats = sum(len(t.cats) for s, _ in states for t in s) / (players * len(states))
    print(f"{len(states)} random {players}-player end states ({how}, {edition.label}), "
          f"{cats:.1f} cats per player on average")

    for validate in (False, True):
        clear_caches()
        start = time.perf_counter()
        for state, extra in states:
            score_game(state, edition=edition, validate=validate, **extra)
        elapsed = time.perf_counter() - start
        print(f"  validate={validate!s:5}: {len(states) / elapsed:8.0f} games scored/s "
              f"({elapsed / len(states) * 1e6:.0f} us per {players}-player game, cold cache)")

    start = time.perf_counter()
    for state, extra in states:
        score_game(state, edition=edition, validate=False, **extra)
    elapsed = time.perf_counter() - start
    print(f"  same states again (warm cache): {len(states) / elapsed:8.0f} games scored/s")
    if args.edition != "base":
        return

    big = Tableau(name="big", cats=(
        "Waffle", "Cow", "Moonbeam", "Truffle", "LeVar Purrton", "Hemingway", "Florence",
        "Pablo Picatso", "Pumpkin", "Sox", "Chairman Meow", "Sir Cuddleface", "Keaton", "Bronte",
        "Henrietta Van Weedle"),
        food={"chicken": 6, "tuna": 6, "milk": 5, "wild": 3}, catnip=2, costumes=1,
        toys={"mouse_toy": 1})
    other = Tableau(name="other", cats=("Bell",), food={"chicken": 1}, costumes=1)
    runs = []
    for _ in range(5):
        clear_caches()
        start = time.perf_counter()
        result = score_game([big, other], edition=edition, validate=False)
        runs.append(time.perf_counter() - start)
    best = result.players[0]
    print(f"large tableau: 15 cats (Waffle, Cow, Moonbeam, Truffle, LeVar, ...) + 20 food: "
          f"{min(runs) * 1000:.1f} ms (best of 5, cold cache); total {best.total}, "
          f"{best.fed_cat_count} fed, {best.leftover_food} food left")


if __name__ == "__main__":
    main()
