"""A well-behaved, deterministic bot answering with an index, and chatty on stdout (print)."""


def choose(observation, legal_actions):
    print("thinking about", len(legal_actions), "actions")  # must land in stderr, not the protocol
    return len(legal_actions) - 1
