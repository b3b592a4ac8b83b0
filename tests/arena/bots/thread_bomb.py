import threading
import time


def choose(observation, legal_actions):
    started = 0
    try:
        for _ in range(100_000):
            threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
            started += 1
    except (RuntimeError, MemoryError) as exc:
        print(f"CONTAINED thread-bomb after {started} threads: {exc}", flush=True)
    else:
        print(f"ESCAPED thread-bomb: {started} threads", flush=True)
    return 0
