"""Floods the protocol channel (real stdout, before catbot takes it over) with one endless line."""

import os

chunk = b"x" * (1 << 20)
os.write(2, b"CONTAINED flood-started\n")
for _ in range(4096):  # 4 GiB if nothing stopped it
    os.write(1, chunk)


def choose(observation, legal_actions):
    return 0
