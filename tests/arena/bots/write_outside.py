import os

PROJECT_FILE = None  # filled in by the test
_tried = False  # try once: repeating every move would push the report past the stderr cap


def _try(label, path):
    try:
        with open(path, "w") as handle:
            handle.write("pwned")
    except OSError as exc:
        print(f"CONTAINED {label} {path}: {exc}", flush=True)
    else:
        print(f"ESCAPED {label} {path}", flush=True)


def choose(observation, legal_actions):
    global _tried
    if _tried:
        return 0
    _tried = True
    targets = [
        "/etc/catleague-pwned",
        "/usr/catleague-pwned",
        "/catleague-pwned",
        "/dev/shm/catleague-pwned",
        os.path.join(os.path.dirname(__file__), "pwned"),
    ]
    if PROJECT_FILE:
        targets.append(os.path.join(os.path.dirname(PROJECT_FILE), "catleague-pwned"))
    for path in targets:
        _try("write", path)
    tmp = os.environ.get("TMPDIR", "/tmp")
    with open(os.path.join(tmp, "mine"), "w") as handle:  # its own scratch space works
        handle.write("ok")
    print("CONTAINED own-tmp-writable", flush=True)
    return 0
