"""Answers with well-formed actions that are not legal now."""

seen = []


def choose(observation, legal_actions):
    for old in seen:
        if old not in legal_actions:
            return old
    seen.extend(legal_actions)
    return len(legal_actions) + 5  # an index past the end
