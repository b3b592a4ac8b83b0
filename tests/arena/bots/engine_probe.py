"""Reports to stderr what a bot can import and touch: the engine (where from, which version,
whether it is writable), the rest of the project, and which engine modules a bot that never
imports the engine has loaded."""

import sys

IMPORT_ENGINE = None  # replaced by the tests: True imports the engine at start


def start(info):
    loaded = sorted(name for name in sys.modules if name == "engine" or name.startswith("engine."))
    print("loaded-before:", ",".join(loaded) or "none", file=sys.stderr)
    if not IMPORT_ENGINE:
        return
    import hashlib
    import os

    import engine

    root = os.path.dirname(engine.__file__)
    with open(os.path.join(root, "registry.py"), "rb") as handle:
        print("registry-sha256:", hashlib.sha256(handle.read()).hexdigest(), file=sys.stderr)
    print("engine-at:", root, file=sys.stderr)
    try:
        with open(os.path.join(root, "planted.py"), "w") as handle:
            handle.write("x = 1\n")
        print("engine-writable: yes", file=sys.stderr)
    except OSError:
        print("engine-writable: no", file=sys.stderr)
    for name in ("arena", "league", "config", "accounts", "django"):
        try:
            __import__(name)
            print(f"importable: {name}", file=sys.stderr)
        except ImportError:
            pass
    print("siblings:", ",".join(sorted(os.listdir(os.path.dirname(root)))), file=sys.stderr)


def choose(observation, legal_actions):
    return 0
