"""A complete Cat Lady bot: it plays a random legal action (replace choose() with your ideas).

Copy this file, change ``choose`` and test it locally:
    python3 play.py my_bot.py random greedy --seed 1 --sandbox unsafe   (the starter kit)
    bin/manage play my_bot.py random greedy --seed 1                  (a clone of the repository)
Standard library only. ``print()`` goes to your bot's log, not to the arena.
"""

import random

rng = random.Random(2024)  # seed your own RNG: the same seed replays the same match


def start(info):
    """Called once before the first move: info has game, version, seat, num_players, limits."""
    # info["seat"] is an index from 0; the arena's pages call it seat info["seat"] + 1.
    print(f"playing seat {info['seat'] + 1} of {info['num_players']}")


def choose(observation, legal_actions):
    """Return one of legal_actions (a JSON dict from the list) or its index."""
    return rng.choice(legal_actions)


def end(result):
    """Called once when the match is over (result: scores, ranks, winners)."""
    print("final ranks:", result["ranks"])
