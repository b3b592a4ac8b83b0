import glob
import os

PROJECT_FILE = None  # filled in by the test: a file of the project checkout


def _try(label, path):
    try:
        with open(path, "rb") as handle:
            data = handle.read(64)
    except OSError as exc:
        print(f"CONTAINED {label} {path}: {exc}", flush=True)
    else:
        print(f"ESCAPED {label} {path}: {data[:20]!r}", flush=True)


def choose(observation, legal_actions):
    if PROJECT_FILE:
        _try("project", PROJECT_FILE)
    _try("passwd", "/etc/passwd")
    _try("root-home", "/root/.bashrc")
    mine = os.path.dirname(os.path.abspath(__file__))
    found = glob.glob("/tmp/catleague-bot-*/bot.py") + glob.glob(
        "/run/catleague-sandbox/*/*/bot.py"
    )
    others = [p for p in found if os.path.dirname(p) != mine]
    print(f"CONTAINED other-bots-listing: {len(others)} found", flush=True)
    for path in others:
        _try("other-bot", path)
    return 0
