"""Play one match between bots and return its arena match log. A plain function: no Django, no Celery.

The engine runs here; each sandboxed bot sees only its own seat's observation. Built-in
strategies (``engine.strategies``) are trusted code from this repository and run in this
process with a random generator derived from the match seed, so they cost no sandbox start-up.

Time: a move may take ``limits.move_ms``; time beyond comes out of the seat's ``bank_ms``.
Both count ``limits.clock``: by default the CPU time of the bot's process tree, so a busy
worker costs no bot a move, with a wall-clock ceiling of ``limits.wall_factor`` times the
move's limit for a bot that sleeps or blocks. Each step records its wall-clock ``ms`` and,
for a sandboxed bot, its ``cpu_ms``.
An overrun, crash, invalid or illegal answer is a fault: the seat's fallback action (the
first legal action, in the engine's stable order) is played and recorded instead. After
``limits.max_faults`` faults the bot forfeits: it keeps its seat, plays fallback actions to the
end without being asked, and ranks below every bot that did not forfeit. The match always
finishes, and every bot process is killed before :func:`run_match` returns.

>>> log = run_match(seed=1, bots=["random", "greedy"])  # doctest: +SKIP
>>> log["result"]["ranks"]                               # doctest: +SKIP
[2, 1]
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import engine
from engine.errors import EngineError
from engine.strategies import get as get_strategy
from engine.strategies.match import bot_seed

from .botspec import MAX_BOT_BYTES, BotSpec, BotSpecError
from .sandbox import BotProcess, Limits, Mode, SandboxUnavailable, Status, resolve_mode

SCHEMA = "catleague.match-log/1"
PROTOCOL = "catleague.bot/1"

__all__ = ["MAX_BOT_BYTES", "SCHEMA", "BotSpec", "BotSpecError", "HumanSeat", "Limits"]
__all__ += ["StepObserver", "run_match"]


class HumanSeat(Protocol):
    """How the runner asks a person for a move (the arena keeps the question and the answer
    in its database; a test answers in-process). Same observation and legal actions as a bot.
    """

    def ask(
        self,
        *,
        step: int,
        observation: dict[str, Any],
        legal: list[dict[str, Any]],
        labels: list[str],
        timeout_s: float,
    ) -> dict[str, Any] | None:
        """Wait up to ``timeout_s`` for the person's answer: ``{"index": i}`` or
        ``{"action": ...}`` as a bot would send, ``{"resign": True}``, or None when none came
        (timeout, left)."""
        ...


# Called after every move with the move's number, its log entry and the new state, so a
# person at the table sees each move as it is made.
StepObserver = Callable[[int, dict[str, Any], Any], None]


def run_match(
    *,
    game: str = "cat-lady",
    version: str | None = None,
    seed: int,
    bots: Sequence[BotSpec | str],
    limits: Limits | None = None,
    mode: str | None = None,
    options: Mapping[str, Any] | None = None,
    humans: Mapping[int, HumanSeat] | None = None,
    on_step: StepObserver | None = None,
    recorded: Mapping[int, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Play one match and return its arena match log (schema ``catleague.match-log/1``).

    ``bots`` are seats in order (a :class:`BotSpec`, or text for :meth:`BotSpec.parse`);
    the player count is ``len(bots)``. ``mode`` is a sandbox mode name; None detects the
    strongest one (only needed when a seat is a bot file). A ``human`` seat is asked through
    ``humans[seat]`` with ``limits.human_move_ms`` per move; ``on_step`` sees every move as it
    is made. ``recorded`` (step → JSON action): built-ins' moves from an earlier play of this
    match, played without asking (no search): a built-in's move depends on its position alone
    (``engine.forward.move_rng``). Sandboxed bots keep state, so they are always asked.
    Raises :class:`BotSpecError`,
    :class:`~arena.sandbox.SandboxUnavailable` or :class:`engine.errors.EngineError` before
    any move is played when the match cannot be set up.
    """
    specs = [spec if isinstance(spec, BotSpec) else BotSpec.parse(spec) for spec in bots]
    limits = limits or Limits()
    options = dict(options or {})
    if options.setdefault("players", len(specs)) != len(specs):
        raise EngineError(
            f"options say {options['players']} players but {len(specs)} bots were given"
        )
    game_obj = engine.load_game(game, version=version, options=options)
    humans = dict(humans or {})
    for index, spec in enumerate(specs):
        if (spec.kind == "human") != (index in humans):
            raise BotSpecError(f"seat {index}: a human seat needs a HumanSeat, and only it")
    sandboxed = any(spec.kind == "file" for spec in specs)
    if sandboxed:
        sandbox_mode: Mode | None = resolve_mode(mode)
    else:
        sandbox_mode = None  # built-ins run in this process; a named mode must still exist
        if mode is not None and mode not in {m.value for m in Mode}:
            raise SandboxUnavailable(f"unknown sandbox mode {mode!r}")
    return _Match(game_obj, seed, specs, limits, sandbox_mode, humans, on_step, recorded).play()


class _Seat:
    def __init__(self, seat: int, spec: BotSpec, seed: int, game: str) -> None:
        self.seat = seat
        self.spec = spec
        self.process: BotProcess | None = None
        # Each game has its own built-ins ("greedy" differs); an unknown one raises here.
        self.strategy = (
            get_strategy(spec.name, game=game, **dict(spec.params))
            if spec.kind == "builtin"
            else None
        )
        # A built-in and a sandboxed bot in the same seat get the same generator: a one-way
        # hash of the seed, which tells neither anything about the deal.
        self.rng_seed = bot_seed(seed, seat)
        self.rng = random.Random(self.rng_seed)
        self.bank_ms = 0.0
        self.last_cpu_ms: float | None = None  # the CPU time of the bot's latest answer
        self.faults: list[dict[str, Any]] = []
        self.forfeited = False


class _Match:
    def __init__(
        self,
        game: Any,
        seed: int,
        specs: list[BotSpec],
        limits: Limits,
        mode: Mode | None,
        humans: Mapping[int, HumanSeat] | None = None,
        on_step: StepObserver | None = None,
        recorded: Mapping[int, dict[str, Any]] | None = None,
    ) -> None:
        self.game = game
        self.recorded = dict(recorded or {})
        self.seed = seed
        self.limits = limits
        self.mode = mode
        self.humans = dict(humans or {})
        self.on_step = on_step
        self.seats = [_Seat(i, spec, seed, game.name) for i, spec in enumerate(specs)]
        self.steps: list[dict[str, Any]] = []
        self.timing = {
            "sandbox_start_ms": 0.0,
            "bot_think_ms": 0.0,
            "engine_ms": 0.0,
            "teardown_ms": 0.0,
            "total_ms": 0.0,
        }

    def play(self) -> dict[str, Any]:
        started = time.perf_counter()
        try:
            self._start_bots()
            state = self._timed_engine(lambda: self.game.new_initial_state(self.seed))
            if self.on_step is not None:
                self.on_step(-1, {}, state)  # the opening position, before any move
            while not state.is_terminal():
                state = self._play_move(state)
                if self.on_step is not None:
                    self.on_step(len(self.steps) - 1, self.steps[-1], state)
            outcome = self._outcome(state)
            self._say_goodbye(outcome)
        finally:
            teardown = time.perf_counter()
            processes = [seat.process for seat in self.seats if seat.process is not None]
            for process in processes:
                process.end_input()  # all wind down together, then each is reaped or killed
            for process in processes:
                process.close(grace_ms=100)
            self.timing["teardown_ms"] = (time.perf_counter() - teardown) * 1000
        self.timing["total_ms"] = (time.perf_counter() - started) * 1000
        return self._log(state, outcome)

    # -- bots -------------------------------------------------------------------------------

    def _hello(self, seat: _Seat) -> dict[str, Any]:
        return {
            "type": "start",
            "protocol": PROTOCOL,
            "game": self.game.name,
            "version": self.game.version,
            "seat": seat.seat,
            "num_players": self.game.num_players,
            "options": dict(self.game.options),
            "rng_seed": seat.rng_seed,
            "limits": {
                key: getattr(self.limits, key)
                for key in (
                    "move_ms",
                    "bank_ms",
                    "clock",
                    "wall_factor",
                    "max_faults",
                    "memory_mb",
                    "cpu_seconds",
                )
            },
        }

    def _start_bots(self) -> None:
        begun = time.perf_counter()
        sandboxed = [seat for seat in self.seats if seat.spec.kind == "file"]
        for seat in sandboxed:
            assert self.mode is not None
            seat.bank_ms = float(self.limits.bank_ms)
            seat.process = BotProcess(seat.spec.source, mode=self.mode, limits=self.limits)
            seat.process.start(self._hello(seat))  # all start at once; their start-ups overlap
        for seat in sandboxed:
            assert seat.process is not None
            ready = seat.process.wait_ready()
            if ready.status is not Status.OK:
                self._fault(
                    seat, step=None, status=ready.status, reason=f"start-up: {ready.reason}"
                )
        self.timing["sandbox_start_ms"] += (time.perf_counter() - begun) * 1000

    def _ask_builtin(
        self, seat: _Seat, observation: dict[str, Any], legal: list[Any]
    ) -> tuple[Any, Status, str, float]:
        assert seat.strategy is not None
        begun = time.perf_counter()
        action = seat.strategy.choose(observation, legal, seat.rng)
        ms = (time.perf_counter() - begun) * 1000
        if action not in legal:
            return None, Status.ILLEGAL, f"built-in {seat.spec.name} chose {action}", ms
        return action, Status.OK, "", ms

    def _ask_sandboxed(
        self, seat: _Seat, state: Any, observation: dict[str, Any], legal: list[Any]
    ) -> tuple[Any, Status, str, float]:
        process = seat.process
        assert process is not None
        if not process.alive:
            # Killed after an earlier fault (or never started): a fresh process, same hello.
            begun = time.perf_counter()
            ready = process.restart()
            self.timing["sandbox_start_ms"] += (time.perf_counter() - begun) * 1000
            if ready.status is not Status.OK:
                return None, ready.status, f"restart: {ready.reason}", 0.0
        legal_json = self._timed_engine(lambda: [action.to_json() for action in legal])
        reply = process.request(
            {
                "type": "act",
                "seat": seat.seat,
                "turn": state.turn,
                "observation": observation,
                "legal_actions": legal_json,
            },
            timeout_ms=self.limits.move_ms + seat.bank_ms,
        )
        seat.last_cpu_ms = reply.cpu_ms
        seat.bank_ms = max(0.0, seat.bank_ms - max(0.0, reply.charged_ms - self.limits.move_ms))
        if reply.status is not Status.OK:
            return None, reply.status, reply.reason, reply.ms
        action, status, reason = self._read_choice(reply.message or {}, legal, legal_json)
        return action, status, reason, reply.ms

    def _ask_human(
        self, seat: _Seat, observation: dict[str, Any], legal: list[Any]
    ) -> tuple[Any, Status, str, float]:
        legal_json = self._timed_engine(lambda: [action.to_json() for action in legal])
        begun = time.perf_counter()
        answer = self.humans[seat.seat].ask(
            step=len(self.steps),
            observation=observation,
            legal=legal_json,
            labels=[str(action) for action in legal],
            timeout_s=self.limits.human_move_ms / 1000,
        )
        ms = (time.perf_counter() - begun) * 1000
        if answer is None:
            return None, Status.TIMEOUT, "no move within the time limit", ms
        if answer.get("resign") is True:
            # A resignation is a forfeit the person chose: fallback moves to the end, ranked
            # below everyone who played on; not a fault.
            seat.forfeited = True
            return None, Status.FORFEITED, "resigned", ms
        action, status, reason = self._read_choice(answer, legal, legal_json)
        return action, status, reason, ms

    def _read_choice(
        self, message: dict[str, Any], legal: list[Any], legal_json: list[dict[str, Any]]
    ) -> tuple[Any, Status, str]:
        if "error" in message:
            return None, Status.INVALID, f"the bot raised {str(message['error'])[:200]}"
        if "index" in message:
            index = message["index"]
            if not isinstance(index, int) or isinstance(index, bool):
                return None, Status.INVALID, f"index is not an integer: {index!r:.80}"
            if not 0 <= index < len(legal):
                return None, Status.ILLEGAL, f"index {index} is not in 0..{len(legal) - 1}"
            return legal[index], Status.OK, ""
        if "action" not in message:
            return None, Status.INVALID, 'no "action" or "index" in the answer'
        chosen = message["action"]
        if isinstance(chosen, dict) and chosen in legal_json:
            return legal[legal_json.index(chosen)], Status.OK, ""
        try:
            action = (
                self.game.parse_action(chosen)
                if isinstance(chosen, str)
                else self.game.action_from_json(chosen)
            )
        except EngineError as exc:
            return None, Status.INVALID, f"not an action: {str(exc)[:200]}"
        if action in legal:
            return action, Status.OK, ""
        return None, Status.ILLEGAL, f"{action} is not legal now"

    def _fault(self, seat: _Seat, *, step: int | None, status: Status, reason: str) -> None:
        seat.faults.append({"step": step, "status": str(status), "reason": reason})
        if len(seat.faults) >= self.limits.max_faults and not seat.forfeited:
            seat.forfeited = True
            if seat.process is not None:
                seat.process.kill()  # it will never be asked again

    # -- moves ------------------------------------------------------------------------------

    def _timed_engine(self, call: Any) -> Any:
        begun = time.perf_counter()
        try:
            return call()
        finally:
            self.timing["engine_ms"] += (time.perf_counter() - begun) * 1000

    def _play_move(self, state: Any) -> Any:
        seat = self.seats[state.current_player]
        legal = self._timed_engine(state.legal_actions)
        fallback = legal[0]  # the engine's order is stable, so the fallback is deterministic
        if seat.forfeited:
            action, status, reason, ms = None, Status.FORFEITED, "", 0.0
        else:
            observation = self._timed_engine(lambda: state.observation(seat.seat))
            replayed = self._recorded_move(seat, legal)
            if replayed is not None:
                action, status, reason, ms = replayed, Status.OK, "", 0.0
            elif seat.spec.kind == "builtin":
                action, status, reason, ms = self._ask_builtin(seat, observation, legal)
            elif seat.spec.kind == "human":
                action, status, reason, ms = self._ask_human(seat, observation, legal)
            else:
                action, status, reason, ms = self._ask_sandboxed(seat, state, observation, legal)
            self.timing["bot_think_ms"] += ms
            if status not in (Status.OK, Status.FORFEITED):
                self._fault(seat, step=len(self.steps), status=status, reason=reason)
        played = action if action is not None else fallback
        step = {
            "seat": seat.seat,
            "action": played.to_json(),
            "ms": round(ms, 3),
            "status": str(status),
            "reason": reason,
        }
        if seat.last_cpu_ms is not None:
            step["cpu_ms"] = round(seat.last_cpu_ms, 3)
            seat.last_cpu_ms = None
        self.steps.append(step)
        return self._timed_engine(lambda: state.apply(played))

    def _recorded_move(self, seat: _Seat, legal: list[Any]) -> Any:
        """The built-in's move recorded at this step, when it is legal here (else None)."""
        recorded = self.recorded.get(len(self.steps))
        if seat.spec.kind != "builtin" or recorded is None:
            return None
        return next((action for action in legal if action.to_json() == recorded), None)

    def _outcome(self, state: Any) -> dict[str, Any]:
        score = self._timed_engine(state.result)
        engine_ranks = [player.rank for player in score.players]
        # Forfeits rank below everyone who played on; among themselves, by the engine's ranks.
        keys = [(seat.forfeited, engine_ranks[seat.seat]) for seat in self.seats]
        ranks = [1 + sum(other < key for other in keys) for key in keys]
        return {
            "scores": [player.total for player in score.players],
            "engine_ranks": engine_ranks,
            "ranks": ranks,
            "winners": [
                i for i, rank in enumerate(ranks) if rank == 1 and not self.seats[i].forfeited
            ],
            "forfeited": [seat.seat for seat in self.seats if seat.forfeited],
            "score_sheet": score.to_json(),
        }

    def _say_goodbye(self, outcome: dict[str, Any]) -> None:
        summary = {key: outcome[key] for key in ("scores", "ranks", "winners", "forfeited")}
        for seat in self.seats:
            if seat.process is not None and seat.process.alive:
                seat.process.notify({"type": "end", "result": summary})

    def _log(self, state: Any, outcome: dict[str, Any]) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "game": self.game.name,
            "version": self.game.version,
            "seed": self.seed,
            "options": dict(self.game.options),
            "limits": self.limits.to_json(),
            "sandbox_mode": str(self.mode) if self.mode is not None else None,
            "players": [
                {
                    "seat": seat.seat,
                    "bot": seat.spec.name,
                    "kind": seat.spec.kind,
                    "sha256": seat.spec.sha256,
                    **({"params": dict(seat.spec.params)} if seat.spec.params else {}),
                }
                for seat in self.seats
            ],
            "steps": self.steps,
            "faults": [seat.faults for seat in self.seats],
            "forfeited": outcome["forfeited"],
            "stderr": [seat.process.stderr if seat.process else "" for seat in self.seats],
            "starts": [seat.process.starts if seat.process else 0 for seat in self.seats],
            "engine_log": engine.make_log(self.game, self.seed, list(state.history)),
            "result": {
                key: outcome[key]
                for key in ("scores", "engine_ranks", "ranks", "winners", "score_sheet")
            },
            "timing": {key: round(value, 3) for key, value in self.timing.items()},
        }
