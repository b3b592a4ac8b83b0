"""What the benchmarks share: the machine they ran on, and ``--baseline REV``.

``--baseline REV`` checks REV out into a temporary ``git worktree`` and runs the benchmark's
measurement alternately against that tree and the current one, each run in a fresh
subprocess (same interpreter, same arguments), so that both see the same load. Absolute
figures move from machine to machine and from minute to minute on a shared one; the ratio
of the two medians is the figure to quote.

The benchmarks of the Django project (league, pages, arena, Celery) run their worker with the
tree as its working directory and import everything (``config``, ``league``, ``arena``,
``engine``...) from it; each tree gets a scratch database of its own (``tree_database_url``),
so baseline and current never share data or migrations.
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
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
# The line of a worker's output that carries its figures (anything else it prints is chatter).
JSON_MARK = "benchlib-figures: "
_tree = REPO


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


def use_tree(tree: str | None) -> Path:
    """Import ``engine`` (and every other package of the project) from ``tree`` (a checkout)
    instead of this repository, and return the tree's root.

    For another tree this repository's root leaves ``sys.path`` (where a script put it), so
    nothing the tree lacks is found here instead. Call it before importing the project.
    """
    global _tree
    root = Path(tree).resolve() if tree else REPO
    if root != REPO:
        sys.path[:] = [p for p in sys.path if not p or Path(p).resolve() != REPO]
    sys.path.insert(0, str(root))
    _tree = root
    return root


def tree_root() -> Path:
    """The root of the tree the project is imported from (``use_tree``'s, else this one)."""
    return _tree


def rev_parse(where: Path, *args: str) -> str:
    """``git rev-parse ARGS`` in the checkout ``where``."""
    return subprocess.run(
        ["git", "rev-parse", *args], cwd=where, check=True, capture_output=True, text=True
    ).stdout.strip()


def tree_database_url(url: str, tree: str | None) -> str:
    """The scratch database ``url`` for ``tree``: unchanged for this repository; for another
    tree (a baseline) the same name with ``_base_`` and the tree's commit appended, so that
    baseline and current never share data or migrations (the name still contains "bench").
    """
    root = Path(tree).resolve() if tree else REPO
    if root == REPO:
        return url
    commit = rev_parse(root, "--short=10", "HEAD")
    parts = urllib.parse.urlsplit(url)
    suffix = f"_base_{commit}"
    name = parts.path.lstrip("/")[: 63 - len(suffix)] + suffix  # PostgreSQL's limit: 63
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


@contextlib.contextmanager
def baseline_worktree(rev: str) -> Iterator[Path]:
    """A temporary detached git worktree of ``rev``, removed afterwards."""
    commit = rev_parse(REPO, "--verify", f"{rev}^{{commit}}")
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
    """``argv`` less each of ``options`` and its value (``--option value`` or
    ``--option=value``)."""
    out = list(argv)
    for option in options:
        if option in out:
            i = out.index(option)
            del out[i : i + 2]
        out = [a for a in out if not a.startswith(option + "=")]
    return out


def _worker(
    script: str, argv: Sequence[str], where: Path, in_tree: bool, label: str
) -> dict[str, Any]:
    """One worker run of ``script`` on the tree ``where``: its figures."""
    begun = time.perf_counter()
    print(f"  {label} ...", end="", file=sys.stderr, flush=True)
    done = subprocess.run(
        [sys.executable, script, "--worker-json", "--tree", str(where), *argv],
        cwd=where if in_tree else None,
        capture_output=True,
        text=True,
    )
    print(f" {time.perf_counter() - begun:.0f} s", file=sys.stderr, flush=True)
    lines = done.stdout.splitlines()
    marked = [line for line in lines if line.startswith(JSON_MARK)]
    if done.returncode != 0 or not (marked or lines):
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-40:])
        sys.exit(f"{label}: the worker on {where} exited with {done.returncode}:\n{tail}")
    return json.loads(marked[-1].removeprefix(JSON_MARK) if marked else lines[-1])


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def compare(
    script: str,
    argv: Sequence[str],
    rev: str,
    rounds: int,
    describe: Callable[[str], str],
    *,
    in_tree: bool = False,
) -> None:
    """Run ``script --worker-json --tree T argv`` alternately on the baseline and the current
    tree, ``rounds`` times each, then print every figure's medians and their ratio.

    The worker prints one JSON object of figures; each key's ``describe(key)`` says whether
    bigger is better (``"rate"``), smaller is (``"time"``), or it is only a ``"count"``.
    Values that are not numbers (labels for the worker's own report) are left out. With
    ``in_tree`` each worker runs with its tree as the working directory. A progress line per
    run goes to stderr.
    """
    script = str(Path(script).resolve())  # the worker may start in another directory
    print(f"machine: {machine()}")
    with baseline_worktree(rev) as tree:
        short = rev_parse(tree, "--short", "HEAD")
        head = rev_parse(REPO, "--short", "HEAD")
        print(
            f"baseline {rev} = {short}; current = {head} (+ working tree); {rounds} rounds, "
            "alternating",
            flush=True,
        )
        runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "current": []}
        for round_ in range(1, rounds + 1):
            for label, where in (("baseline", tree), ("current", REPO)):
                runs[label].append(
                    _worker(script, argv, where, in_tree, f"{label} run {round_}/{rounds}")
                )
    print(f"machine after the runs: {machine()}")
    keys = [
        k
        for k, v in runs["current"][0].items()
        if _number(v) and all(_number(r.get(k)) for r in runs["baseline"] + runs["current"])
    ]
    width = max((len(k) for k in keys), default=6)
    print(f"{'figure':{width}}  {'baseline':>12}  {'current':>12}  {'speed-up':>8}   (medians)")
    for key in keys:
        old = statistics.median(r[key] for r in runs["baseline"])
        new = statistics.median(r[key] for r in runs["current"])
        kind = describe(key)
        if kind == "count" or not (old and new):
            print(f"{key:{width}}  {old:12.4g}  {new:12.4g}")
            continue
        ratio = new / old if kind == "rate" else old / new
        print(f"{key:{width}}  {old:12.4g}  {new:12.4g}  {ratio:7.2f}x")


def add_baseline_arguments(
    parser: argparse.ArgumentParser, *, rounds_option: str = "--rounds", default_rounds: int = 5
) -> None:
    """``--baseline REV``, ``--rounds N`` (or ``rounds_option``, where the script already
    has a ``--rounds``) and the worker's hidden options."""
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="also measure REV (a git revision) and print the speed-ups",
    )
    parser.add_argument(
        rounds_option,
        dest="baseline_rounds",
        metavar="N",
        type=int,
        default=default_rounds,
        help=f"with --baseline: runs of each, alternating (default {default_rounds})",
    )
    parser.add_argument("--worker-json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)


def run(
    script: str,
    args: argparse.Namespace,
    measure: Callable[[argparse.Namespace], dict[str, Any]],
    report: Callable[[argparse.Namespace, dict[str, Any]], int | None],
    describe: Callable[[str], str],
    *,
    in_tree: bool = False,
    rounds_option: str = "--rounds",
) -> int | None:
    """One benchmark run: compared with ``--baseline``, as a worker's JSON, or reported.

    Returns what ``report`` returns (an exit status, or None); a worker and a comparison
    return None. ``in_tree``: run workers in their tree (see ``compare``).
    """
    if args.baseline and not args.worker_json:  # (an abbreviated --baseline reaches workers)
        argv = without(sys.argv[1:], "--baseline", rounds_option)
        compare(script, argv, args.baseline, args.baseline_rounds, describe, in_tree=in_tree)
        return None
    use_tree(args.tree)
    figures = measure(args)
    if args.worker_json:
        print(JSON_MARK + json.dumps(figures), flush=True)
        return None
    return report(args, figures)
