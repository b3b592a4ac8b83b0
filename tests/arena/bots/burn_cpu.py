"""Burns SECONDS of its own CPU time (not wall-clock time) for each of its first MOVES moves,
then answers at once; pins itself to CORE when one is given. Load on the machine changes how
long a move takes, not how much CPU it uses."""

import os
import time

SECONDS = None
MOVES = None
CORE = None
moves = 0


def start(info):
    if CORE is not None:
        os.sched_setaffinity(0, {CORE})


def choose(observation, legal_actions):
    global moves
    moves += 1
    if MOVES is None or moves <= MOVES:
        end = time.process_time() + SECONDS
        while time.process_time() < end:
            pass
    return legal_actions[0]
