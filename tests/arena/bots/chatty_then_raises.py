"""Writes 100 KB to stderr, then raises: its owner must still see the traceback at the end."""

import sys


def choose(observation, legal_actions):
    for line in range(2000):
        sys.stderr.write(f"chatter {line:04d} " + "." * 37 + "\n")  # 50 bytes a line
    raise RuntimeError("the real problem, said last")
