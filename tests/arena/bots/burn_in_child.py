"""Sleeps while a child process it forked burns CPU: only counting the whole process tree
catches it on CPU time rather than on the wall-clock ceiling."""

import os
import time


def choose(observation, legal_actions):
    if os.fork() == 0:
        while True:
            pass
    time.sleep(3600)
