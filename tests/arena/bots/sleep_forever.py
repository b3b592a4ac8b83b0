import time


def choose(observation, legal_actions):
    print("CONTAINED sleep-started", flush=True)
    time.sleep(3600)
