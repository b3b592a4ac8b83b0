"""A well-behaved, deterministic bot: always the first legal action."""


def choose(observation, legal_actions):
    return legal_actions[0]
