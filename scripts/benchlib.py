"""What the engine benchmarks share: the machine they ran on, and ``--baseline REV``.

``--baseline REV`` checks REV out into a temporary ``git worktree`` and runs the benchmark's
measurement alternately against that tree and the current one, each run in a fresh
subprocess (same interpreter, same arguments), so that both see the same load. Absolute
figures move from machine to machine and from minute to minute on a shared one; the ratio
of the two medians is the figure to quote.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def machine() -> str:
    """CPU model, cores and load average, for every printed figure."""
    model = platform.processor() or "unknown cpu"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{model}, {os.cpu_count()} cores, load average {load}, Python {platform.python_version()}"
    )


def use_tree(tree: str | None) -> None:
    """Import ``engine`` from ``tree`` (a checkout) instead of this repository."""
    sys.path.insert(0, str(Path(tree).resolve() if tree else REPO))


@contextlib.contextmanager
def baseline_worktree(rev: str) -> Iterator[Path]:
    """A temporary detached git worktree of ``rev``, removed afterwards."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    path = Path(tempfile.mkdtemp(prefix="bench-baseline-")) / "tree"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(path), commit], cwd=REPO, check=True
    )
    try:
        yield path
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=REPO, check=False)
        with contextlib.suppress(OSError):
            path.parent.rmdir()


def without(argv: Sequence[str], *options: str) -> list[str]:
    """``argv`` less each of ``options`` and its value."""
    out = list(argv)
    for option in options:
        if option in out:
            i = out.index(option)
            del out[i : i + 2]
    return out


def compare(
    script: str, argv: Sequence[str], rev: str, rounds: int, describe: Callable[[str], str]
) -> None:
    """Run ``script --worker-json --tree T argv`` alternately on the baseline and the current
    tree, ``rounds`` times each, then print every figure's medians and their ratio.

    The worker prints one JSON object of figures; each key's ``describe(key)`` says whether
    bigger is better (``"rate"``), smaller is (``"time"``), or it is only a ``"count"``.
    """
    print(f"machine: {machine()}")
    with baseline_worktree(rev) as tree:
        short = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=tree,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=REPO,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        print(
            f"baseline {rev} = {short}; current = {head} (+ working tree); {rounds} rounds, "
            "alternating"
        )
        runs: dict[str, list[dict[str, float]]] = {"baseline": [], "current": []}
        for _ in range(rounds):
            for label, where in (("baseline", tree), ("current", REPO)):
                out = subprocess.run(
                    [sys.executable, script, "--worker-json", "--tree", str(where), *argv],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                runs[label].append(json.loads(out.strip().splitlines()[-1]))
    print(f"machine after the runs: {machine()}")
    width = max(len(k) for k in runs["current"][0])
    print(f"{'figure':{width}}  {'baseline':>12}  {'current':>12}  {'speed-up':>8}   (medians)")
    for key in runs["current"][0]:
        if key not in runs["baseline"][0]:
            continue
        old = statistics.median(r[key] for r in runs["baseline"])
        new = statistics.median(r[key] for r in runs["current"])
        kind = describe(key)
        if kind == "count" or not (old and new):
            print(f"{key:{width}}  {old:12.4g}  {new:12.4g}")
            continue
        ratio = new / old if kind == "rate" else old / new
        print(f"{key:{width}}  {old:12.4g}  {new:12.4g}  {ratio:7.2f}x")


def add_baseline_arguments(parser: argparse.ArgumentParser) -> None:
    """``--baseline REV``, ``--rounds N`` and the worker's hidden options."""
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="also measure REV (a git revision) and print the speed-ups",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="with --baseline: runs of each, alternating (default 5)",
    )
    parser.add_argument("--worker-json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)


def run(
    script: str,
    args: argparse.Namespace,
    measure: Callable[[argparse.Namespace], dict[str, float]],
    report: Callable[[argparse.Namespace, dict[str, float]], None],
    describe: Callable[[str], str],
) -> None:
    """One benchmark run: compared with ``--baseline``, as a worker's JSON, or reported."""
    if args.baseline:
        argv = without(sys.argv[1:], "--baseline", "--rounds")
        compare(script, argv, args.baseline, args.rounds, describe)
        return
    use_tree(args.tree)
    figures = measure(args)
    if args.worker_json:
        print(json.dumps(figures))
    else:
        report(args, figures)
