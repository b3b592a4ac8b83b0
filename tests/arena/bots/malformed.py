"""Answers every way a bot can get the protocol wrong, in turn."""

answers = iter(
    [
        {"not": "an action"},
        "take row 99",
        {"type": "no-such-action"},
        {1, 2},  # not JSON at all
        None,
    ]
)


def choose(observation, legal_actions):
    try:
        return next(answers)
    except StopIteration:
        raise ValueError("out of bad ideas") from None
