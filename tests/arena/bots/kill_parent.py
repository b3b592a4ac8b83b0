import os
import signal

RUNNER_PID = None  # filled in by the test


def _try(label, pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError as exc:
        print(f"CONTAINED {label} {pid}: {exc}", flush=True)
    else:
        print(f"SENT {label} {pid}", flush=True)


def choose(observation, legal_actions):
    if RUNNER_PID:
        _try("runner", RUNNER_PID)
    if os.getppid() > 1:
        _try("parent", os.getppid())
    return 0
