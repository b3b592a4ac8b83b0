import sys


def choose(observation, legal_actions):
    line = "y" * 65535 + "\n"
    for _ in range(65536):  # 4 GiB of stderr if nothing stopped it
        sys.stderr.write(line)
    return 0
