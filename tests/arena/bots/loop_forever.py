def choose(observation, legal_actions):
    print("CONTAINED loop-started", flush=True)
    while True:
        pass
