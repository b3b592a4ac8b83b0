"""A complete Cantankerous Cats bot with a few rules of thumb (replace them with your ideas).

Copy this file, change ``choose`` and test it locally on the demo deck:
    python3 play.py my_bot.py greedy random --game cantankerous-cats --seed 1 --sandbox unsafe
Standard library only. ``print()`` goes to your bot's log, not to the arena.
"""


def start(info):
    """Called once before the first move: info has game, version, seat (an index from 0; the
    pages count from 1), num_players, options."""
    print(
        f"playing seat {info['seat'] + 1} of {info['num_players']}, deck {info['options']['deck']}"
    )


def choose(observation, legal_actions):
    """Return one of legal_actions (a JSON dict from the list) or its index.

    The first legal action is always a safe default: pass, done, picky-eater or a card.
    """
    cards = observation["cards"]  # facts of the cards in your hand, the houses and the table
    me = observation["cats"][observation["seat"]]

    def card(action):
        return cards.get(str(action.get("card")), {})

    def of_type(kind):
        return [a for a in legal_actions if a["type"] == kind]

    if observation["phase"] == "action":
        # Score the biggest Mischief card the Affection in our House can pay for...
        affordable = [a for a in of_type("score") if card(a)["cost"] <= me["affection"]]
        if affordable:
            return max(affordable, key=lambda a: card(a)["paws"])
        # ...else bank the biggest Affection card, else swap the hand.
        if of_type("bank"):
            return max(of_type("bank"), key=lambda a: card(a)["hearts"])
        return {"type": "picky-eater"}
    if observation["phase"] == "instant":
        # Instant Actions are free: bank or score whenever we may.
        free = [a for a in of_type("instant") if card(a).get("type") in ("affection", "mischief")]
        if free:
            return free[0]
    return legal_actions[0]


def end(result):
    """Called once when the match is over (result: scores, ranks, winners)."""
    print("final ranks:", result["ranks"])
