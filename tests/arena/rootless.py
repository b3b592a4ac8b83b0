"""Run a match the way a worker that is not root does, from a test that runs as root.

The rootless sandbox mode refuses to run as root (an unprivileged namespace would map the bot
to uid 0 outside), so when the suite runs as root (as CI does) the match is played by a child
process that dropped to the ``nobody`` user, with the system Python (the virtualenv's may live
in root's private home) and this checkout and the virtualenv's packages on its path.
"""

from __future__ import annotations

import base64
import json
import os
import pwd
import site
import subprocess
import sys
from pathlib import Path
from typing import Any

from arena.runner import BotSpec
from arena.sandbox import Limits

ROOT = Path(__file__).resolve().parents[2]
NOBODY = "nobody"

_CHILD = """
import base64, json, sys
from arena.runner import BotSpec, run_match
from arena.sandbox import Limits
job = json.load(sys.stdin)
bots = [BotSpec(kind, name, base64.b64decode(source)) for kind, name, source in job["bots"]]
log = run_match(seed=job["seed"], bots=bots, limits=Limits.from_json(job["limits"]),
                mode="bwrap-rootless", game=job["game"])
json.dump(log, sys.stdout)
"""


def unprivileged_user() -> pwd.struct_passwd | None:
    """The user the child runs as: this process's own when it is not root, else ``nobody``."""
    if os.geteuid() != 0:
        return pwd.getpwuid(os.geteuid())
    try:
        return pwd.getpwnam(NOBODY)
    except KeyError:
        return None


def run_match_rootless(
    *, seed: int, bots: list[BotSpec], limits: Limits, game: str = "cat-lady"
) -> dict[str, Any]:
    """``run_match(..., mode="bwrap-rootless")`` played by an unprivileged process."""
    user = unprivileged_user()
    assert user is not None, f"no {NOBODY!r} user to drop to"
    job = {
        "seed": seed,
        "game": game,
        "limits": limits.to_json(),
        "bots": [[b.kind, b.name, base64.b64encode(b.source).decode()] for b in bots],
    }
    paths = [str(ROOT), *site.getsitepackages()]
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONPATH": os.pathsep.join(paths),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    env.update({k: v for k, v in os.environ.items() if k.startswith("CATLEAGUE_")})
    argv = [sys.executable if os.geteuid() != 0 else "/usr/bin/python3", "-c", _CHILD]
    if os.geteuid() == 0:
        argv = [
            "setpriv",
            f"--reuid={user.pw_uid}",
            f"--regid={user.pw_gid}",
            "--clear-groups",
            "--",
            *argv,
        ]
    done = subprocess.run(
        argv,
        input=json.dumps(job),
        capture_output=True,
        text=True,
        env=env,
        cwd="/tmp",
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"the rootless match failed:\n{done.stderr[-3000:]}"
    return json.loads(done.stdout)
