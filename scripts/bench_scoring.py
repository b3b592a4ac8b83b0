"""Print end-game scoring speed: typical 4-player end states, and one large tableau.

Figures are printed, never asserted. Caches are cleared between measurements of distinct
states so that the figure is the cost of scoring a fresh end of game.

    .venv/bin/python scripts/bench_scoring.py [--states 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import feeding  # noqa: E402
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--states", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    edition = load_edition()
    states = random_end_states(args.states, args.seed)
    cats = sum(len(t.cats) for s in states for t in s) / (4 * len(states))
    print(f"{len(states)} random 4-player end states, {cats:.1f} cats per player on average")

    for validate in (False, True):
        feeding._cached_options.cache_clear()
        start = time.perf_counter()
        for state in states:
            score_game(state, edition=edition, validate=validate)
        elapsed = time.perf_counter() - start
        print(f"  validate={validate!s:5}: {len(states) / elapsed:8.0f} games scored/s "
              f"({elapsed / len(states) * 1e6:.0f} us per 4-player game, cold cache)")

    start = time.perf_counter()
    for state in states:
        score_game(state, edition=edition, validate=False)
    elapsed = time.perf_counter() - start
    print(f"  same states again (warm cache): {len(states) / elapsed:8.0f} games scored/s")

    big = Tableau(name="big", cats=(
        "Waffle", "Cow", "Moonbeam", "Truffle", "LeVar Purrton", "Hemingway", "Florence",
        "Pablo Picatso", "Pumpkin", "Sox", "Chairman Meow", "Sir Cuddleface", "Keaton", "Bronte",
        "Henrietta Van Weedle"),
        food={"chicken": 6, "tuna": 6, "milk": 5, "wild": 3}, catnip=2, costumes=1,
        toys={"mouse_toy": 1})
    other = Tableau(name="other", cats=("Bell",), food={"chicken": 1}, costumes=1)
    runs = []
    for _ in range(5):
        feeding._cached_options.cache_clear()
        feeding._sets_rest.cache_clear()
        start = time.perf_counter()
        result = score_game([big, other], edition=edition, validate=False)
        runs.append(time.perf_counter() - start)
    best = result.players[0]
    print(f"large tableau: 15 cats (Waffle, Cow, Moonbeam, Truffle, LeVar, ...) + 20 food: "
          f"{min(runs) * 1000:.1f} ms (best of 5, cold cache); total {best.total}, "
          f"{best.fed_cat_count} fed, {best.leftover_food} food left")


if __name__ == "__main__":
    main()
