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

Nothing a benchmark creates outlives it unless asked: it drops its scratch database at the
end, also after an error or Ctrl-C (a comparison both trees', and it removes the baseline's
worktree; ``--keep-db`` keeps the databases, ``drop_databases`` drops them). A benchmark
with a Celery worker removes what its run left in its Redis database (``clean_redis``), and
nothing else.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
# The line of a worker's output that carries its figures (anything else it prints is chatter).
JSON_MARK = "benchlib-figures: "
# Databases no benchmark may drop, whatever its URL says (a scratch name contains "bench").
PROTECTED_DATABASES = {"catleague", "test_catleague", "postgres", "template0", "template1"}
# After Ctrl-C, how long a worker gets to run its finally blocks (drop its database, stop
# its Celery worker, clean its Redis keys) before it is killed.
WORKER_GRACE_S = 90
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


def scratch_database_url(
    variable: str, default: str, tree: str | None, *, fall_back: bool = False
) -> str:
    """The scratch database of ``tree`` (None: this repository): the URL in the environment
    ``variable``, else ``default``; with ``fall_back``, ``default`` too when the named
    database's name lacks "bench" (never the development or test database)."""
    url = os.environ.get(variable, default)
    if fall_back and "bench" not in url.rsplit("/", 1)[-1]:
        url = default
    return tree_database_url(url, tree)


@contextlib.contextmanager
def baseline_worktree(rev: str) -> Iterator[Path]:
    """A temporary detached git worktree of ``rev``, removed afterwards."""
    commit = rev_parse(REPO, "--verify", f"{rev}^{{commit}}")
    path = Path(tempfile.mkdtemp(prefix="bench-baseline-")) / "tree"
    try:
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(path), commit],
            cwd=REPO,
            check=True,
        )
        yield path
    finally:
        if path.exists():
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(path)], cwd=REPO, check=False
            )
        with contextlib.suppress(OSError):
            path.parent.rmdir()


# --- scratch databases and Redis keys -------------------------------------------------------


def scratch_database_name(url: str) -> str:
    """The database name of ``url``, if it is a scratch one a benchmark may drop and create
    (it contains "bench" and is none of ``PROTECTED_DATABASES``); else exit."""
    name = urllib.parse.urlsplit(url).path.lstrip("/")
    if not name or name in PROTECTED_DATABASES or "bench" not in name:
        sys.exit(
            f"refusing to drop or re-create database {name!r}; "
            "use a scratch database whose name contains 'bench'."
        )
    return name


def maintenance_url(url: str) -> str:
    """``url`` with the server's ``postgres`` database, from which others are created and
    dropped."""
    return urllib.parse.urlunsplit(urllib.parse.urlsplit(url)._replace(path="/postgres"))


def drop_databases(urls: Iterable[str]) -> None:
    """Drop each scratch database of ``urls`` that exists, first closing this process's
    Django connections; connections of other processes are ended (``WITH (FORCE)``).

    Every name is checked (``scratch_database_name``) before any is dropped. A drop that
    fails is reported on stderr and the others are still tried: this runs in ``finally``
    blocks, where an exception would hide the one being handled.
    """
    import psycopg
    from psycopg import sql

    urls = list(dict.fromkeys(urls))
    names = [scratch_database_name(url) for url in urls]
    if "django.db" in sys.modules:
        with contextlib.suppress(Exception):  # settings that never loaded: nothing is open
            from django.db import connections

            connections.close_all()
    for url, name in zip(urls, names, strict=True):
        try:
            with psycopg.connect(maintenance_url(url), autocommit=True) as conn:
                conn.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )
        except psycopg.Error as error:
            print(f"could not drop the scratch database {name}: {error}", file=sys.stderr)


# kombu's Redis transport: a queue is a list (plus one per priority, suffixed with SEP and the
# priority), an exchange's bindings a set ``_kombu.binding.<exchange>`` of
# "routing key SEP pattern SEP queue" (also ``_kombu.binding_permanent.<exchange>``), expiring
# bindings (the workers' pidbox) have a deadline in the sorted set ``_kombu.binding_deadlines``,
# and a message being worked on waits in the hash ``unacked`` (indexed in ``unacked_index``).
_KOMBU_SEP = b"\x06\x16"
# The exchanges every Celery worker binds whatever its queues: its mailbox, replies, events.
_SHARED_EXCHANGES = ("celery.pidbox", "reply.celery.pidbox", "celeryev")
# Remove the deadline of each binding table (ARGV) that no longer exists, atomically, so a
# worker binding it again at that moment keeps its deadline.
_FORGET_DEADLINES = """
local removed = 0
for _, exchange in ipairs(ARGV) do
    if redis.call('EXISTS', '_kombu.binding.' .. exchange) == 0
            and redis.call('EXISTS', '_kombu.binding_permanent.' .. exchange) == 0 then
        removed = removed + redis.call('ZREM', KEYS[1], exchange)
    end
end
return removed
"""


def clean_redis(broker_url: str, token: str) -> list[str]:
    """Remove from the Redis database of ``broker_url`` what one benchmark run of Celery left
    there, and nothing else; print and return what was removed. Call it once the run's
    worker has stopped. A failure is reported on stderr, not raised (this runs in finally
    blocks, where an exception would hide the one being handled).

    ``token`` names the run: a random string that is part of each queue's name and of its
    worker's node name (``-n TOKEN@%h``, so the worker's pidbox queue carries it too). Removed:
    every key whose name contains it (the queues and their priority lists, their binding
    tables, the worker's pidbox queue); in the sets every worker shares
    (``_kombu.binding.celery.pidbox``...), only the members naming it; messages of its queues
    left unacknowledged by a killed worker; and the deadline of a binding table the run used
    that no longer exists (the worker deletes its table on shutdown but not the deadline). Keys
    of other runs and other databases are never touched: no FLUSHDB, no FLUSHALL.
    """
    import redis

    if len(token) < 8:
        raise ValueError(f"clean_redis: token {token!r} is too short to be the run's own")
    mark = token.encode()
    removed: list[str] = []

    def name(key: bytes) -> str:  # kombu's separator is two control characters
        return key.decode(errors="replace").encode("unicode_escape").decode()

    client = redis.Redis.from_url(broker_url)
    kwargs = client.connection_pool.connection_kwargs
    where = f"{kwargs.get('host', '?')}:{kwargs.get('port', '?')} db {kwargs.get('db', 0)}"
    try:
        for key in list(client.scan_iter(match=f"*{token}*", count=1000)):
            removed += [name(key)] * client.delete(key)
        for key in list(client.scan_iter(match="_kombu.binding*", count=1000)):
            if client.type(key) != b"set":
                continue
            ours = [m for m in client.smembers(key) if mark in m.rsplit(_KOMBU_SEP, 1)[-1]]
            if ours:
                client.srem(key, *ours)
                removed.append(f"{len(ours)} binding(s) in {name(key)}")
        unacked = []
        if client.type("unacked") == b"hash":
            for tag, payload in client.hscan_iter("unacked"):
                with contextlib.suppress(ValueError, TypeError):
                    _message, exchange, routing_key = json.loads(payload)
                    if token in f"{exchange}\n{routing_key}":
                        unacked.append(tag)
        if unacked:
            client.hdel("unacked", *unacked)
            client.zrem("unacked_index", *unacked)
            removed.append(f"{len(unacked)} unacknowledged message(s)")
        deadlines = "_kombu.binding_deadlines"
        exchanges = [
            m
            for m in (client.zrange(deadlines, 0, -1) if client.type(deadlines) == b"zset" else [])
            if mark in m or m.decode(errors="replace") in _SHARED_EXCHANGES
        ]
        if exchanges and client.eval(_FORGET_DEADLINES, 1, deadlines, *exchanges):
            removed.append(f"stale deadline(s) in {deadlines}")
    except redis.RedisError as error:
        done = f" (removed: {', '.join(removed)})" if removed else ""
        print(f"could not clean Redis {where} of {token}: {error!r}{done}", file=sys.stderr)
        return removed
    finally:
        client.close()
    print(f"removed from Redis {where}: {', '.join(removed) or 'nothing'}", flush=True)
    return removed


@contextlib.contextmanager
def cleaned_up(broker_url: str, token: str, drop: Callable[[], None] | None) -> Iterator[None]:
    """On the way out of the block, also on error or Ctrl-C: what the run named ``token``
    left in Redis removed (:func:`clean_redis`), then ``drop`` called (its scratch
    database dropped; None when ``--keep-db`` keeps it)."""
    try:
        yield
    finally:
        try:
            clean_redis(broker_url, token)
        finally:
            if drop is not None:
                drop()


@contextlib.contextmanager
def celery_worker(
    queue: str, concurrency: int, *, threads: bool = False
) -> Iterator[subprocess.Popen[bytes]]:
    """A Celery worker of the tree being measured on `queue` for the block, stopped after it
    (warm shutdown for 30 s, then killed). Named after its queue, so its pidbox queue carries
    the run's name and `clean_redis` finds it; the environment is this process's."""
    worker = subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue),
            *(["--pool", "threads"] if threads else []),
            *("-c", str(concurrency), "-n", f"{queue}@%h"),
            *("--without-heartbeat", "--without-mingle", "--without-gossip", "-l", "warning"),
        ],
        cwd=tree_root(),  # the worker imports config (and all else) from the tree
        env=os.environ.copy(),
    )
    try:
        yield worker
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


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
    with subprocess.Popen(
        [sys.executable, script, "--worker-json", "--tree", str(where), *argv],
        cwd=where if in_tree else None,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        try:
            stdout, stderr = process.communicate()
        except KeyboardInterrupt:
            _let_clean_up(process)
            raise
    print(f" {time.perf_counter() - begun:.0f} s", file=sys.stderr, flush=True)
    lines = stdout.splitlines()
    marked = [line for line in lines if line.startswith(JSON_MARK)]
    if process.returncode != 0 or not (marked or lines):
        tail = "\n".join((stdout + stderr).splitlines()[-40:])
        sys.exit(f"{label}: the worker on {where} exited with {process.returncode}:\n{tail}")
    return json.loads(marked[-1].removeprefix(JSON_MARK) if marked else lines[-1])


def _let_clean_up(process: subprocess.Popen[str]) -> None:
    """After Ctrl-C, pass the interrupt on to a worker (an interrupt may have been sent to
    this process alone) and give it the time to run its finally blocks (subprocess.run would
    kill it a quarter of a second later). A worker takes only its first interrupt
    (``_interrupt_once``), so one that Ctrl-C at a terminal reached too is not disturbed."""
    print(" interrupted; waiting for the worker to clean up", file=sys.stderr, flush=True)
    process.send_signal(signal.SIGINT)
    try:  # reading its output meanwhile, so that a full pipe cannot block its clean-up
        process.communicate(timeout=WORKER_GRACE_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()


def _interrupt_once(signum: int, frame: object) -> None:
    """A worker's SIGINT handler: the first interrupt stops the run (its finally blocks then
    drop the database and stop the Celery worker), later ones are ignored so as not to
    interrupt that clean-up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


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
    database: Callable[[str | None], str] | None = None,
    keep_db: bool = False,
) -> None:
    """Run ``script --worker-json --tree T argv`` alternately on the baseline and the current
    tree, ``rounds`` times each, then print every figure's medians and their ratio.

    The worker prints one JSON object of figures; each key's ``describe(key)`` says whether
    bigger is better (``"rate"``), smaller is (``"time"``), or it is only a ``"count"``.
    Values that are not numbers (labels for the worker's own report) are left out. With
    ``in_tree`` each worker runs with its tree as the working directory. A progress line per
    run goes to stderr.

    ``database(tree)`` is the URL of the scratch database a worker uses for ``tree`` (None:
    this repository), for benchmarks that have one. The workers then get ``--keep-db``, so
    that later rounds may reuse what the first built, and the comparison drops both trees'
    databases when it ends, however it ends, unless ``keep_db``.
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
        scratch = [database(str(tree)), database(None)] if database else []
        if scratch:
            names = ", ".join(scratch_database_name(url) for url in scratch)
            print(f"scratch databases: {names} ({'KEPT' if keep_db else 'dropped at the end'})")
            argv = [*argv, "--keep-db"]
        runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "current": []}
        try:
            for round_ in range(1, rounds + 1):
                for label, where in (("baseline", tree), ("current", REPO)):
                    runs[label].append(
                        _worker(script, argv, where, in_tree, f"{label} run {round_}/{rounds}")
                    )
        finally:
            if scratch and not keep_db:
                drop_databases(scratch)
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


def add_keep_db_argument(parser: argparse.ArgumentParser, *aliases: str) -> None:
    """``--keep-db`` (and ``aliases``, the option's older names): keep the scratch
    database(s) instead of dropping them at the end."""
    parser.add_argument(
        "--keep-db",
        *aliases,
        dest="keep_db",
        action="store_true",
        help="keep the scratch database (with --baseline, both trees'); by default it is "
        "dropped at the end, also after an error or Ctrl-C",
    )


def run(
    script: str,
    args: argparse.Namespace,
    measure: Callable[[argparse.Namespace], dict[str, Any]],
    report: Callable[[argparse.Namespace, dict[str, Any]], int | None],
    describe: Callable[[str], str],
    *,
    in_tree: bool = False,
    rounds_option: str = "--rounds",
    database: Callable[[str | None], str] | None = None,
) -> int | None:
    """One benchmark run: compared with ``--baseline``, as a worker's JSON, or reported.

    Returns what ``report`` returns (an exit status, or None); a worker and a comparison
    return None. ``in_tree``: run workers in their tree; ``database``: the scratch database
    of a tree, which a comparison drops at the end unless ``args.keep_db`` (see ``compare``;
    a single run's ``measure`` drops its own).
    """
    if args.baseline and not args.worker_json:  # (an abbreviated --baseline reaches workers)
        argv = without(sys.argv[1:], "--baseline", rounds_option)
        compare(
            script,
            argv,
            args.baseline,
            args.baseline_rounds,
            describe,
            in_tree=in_tree,
            database=database,
            keep_db=getattr(args, "keep_db", False),
        )
        return None
    if args.worker_json and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupt_once)
    use_tree(args.tree)
    figures = measure(args)
    if args.worker_json:
        print(JSON_MARK + json.dumps(figures), flush=True)
        return None
    return report(args, figures)
