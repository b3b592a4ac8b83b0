"""Leaves a detached grandchild holding stdout open, then the bot itself exits."""

import os
import time


def choose(observation, legal_actions):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(3600)
        os._exit(0)
    print("CONTAINED holder-forked", flush=True)
    os._exit(0)
