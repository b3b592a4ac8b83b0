import signal
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)


def choose(observation, legal_actions):
    return 0


def end(result):
    time.sleep(3600)  # refuses to leave at the end of the match
