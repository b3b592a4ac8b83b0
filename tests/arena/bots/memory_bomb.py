bombed = False


def choose(observation, legal_actions):
    global bombed
    if not bombed:
        bombed = True
        hog = []
        try:
            while True:
                hog.append(bytearray(16 * 1024 * 1024))
        except MemoryError:
            mib = 16 * len(hog)
            hog.clear()
            print(f"CONTAINED memory-bomb stopped at {mib} MiB", flush=True)
    return 0
