"""Every write to the arena's data. Celery tasks and API views call these and nothing else.

A match goes queued -> running -> finished (or failed). Claiming and recording both lock the
match row, and recording a match that is already finished does nothing: a worker killed mid-match
has its task delivered again, the match is replayed from the start with the same seed, and its
result is recorded exactly once.

Nothing stays queued for ever: a match whose message was lost (the broker restarted empty, or
was down when the match was written) or whose worker could not play it (no sandbox, the
database gone) is handed to the broker again by :func:`reap_stuck`. An infrastructure fault
never counts against a bot: the match waits (:func:`match_wait`) instead of failing.
"""

from __future__ import annotations

import ast
import datetime as dt
import hashlib
import itertools
import logging
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Count, F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

import engine
from accounts import notifications
from arena.models import (
    Bot,
    BotVersion,
    Ladder,
    LadderEntry,
    Match,
    MatchSeat,
    PlayRating,
    Tournament,
    WorkerBeat,
)
from arena.runner import MAX_BOT_BYTES
from arena.sandbox import Limits
from config.celery import app as celery_app
from engine.strategies import names as strategy_names
from ratings.elo import Seat, rate_game

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

logger = logging.getLogger(__name__)

VALIDATION_OPPONENT = "random"
MATCH_TASK = "arena.tasks.match_run"


@dataclass(frozen=True)
class SeatInput:
    """One seat of a match: a bot version, a house bot, or (live matches only) a person."""

    version: BotVersion | None = None
    builtin: str = ""
    player: User | None = None


def _enqueue(match: Match) -> None:
    """Hand the match (its ``dispatch`` already counted) to the broker once this transaction
    commits.

    The task is sent by name (the tasks module calls these services, not the other way).
    If the broker is down the write still stands: the failure is logged, the client gets its
    answer, and the reaper sends the match again later.
    """
    match_id, dispatch = match.pk, match.dispatch
    # Live matches wait for people: their own queue keeps them from holding up the others.
    queue = settings.ARENA_LIVE_QUEUE if match.kind == Match.Kind.LIVE else None

    def send() -> None:
        try:
            celery_app.signature(MATCH_TASK, args=(match_id, dispatch)).apply_async(queue=queue)
        except Exception:  # any broker error: the reaper queues it again
            logger.exception("match %s could not be queued; the reaper will retry", match_id)

    transaction.on_commit(send)


def default_limits() -> dict[str, Any]:
    return Limits(move_ms=1000, bank_ms=10_000, max_faults=5).to_json()


# --- bots and versions --------------------------------------------------------------------


def check_source(source: str | bytes) -> str:
    """The bot's text, or a ValidationError an author can act on. Nothing is executed here."""
    data = source.encode() if isinstance(source, str) else source
    if not data.strip():
        raise ValidationError({"source": ["The file is empty."]})
    if len(data) > MAX_BOT_BYTES:
        raise ValidationError(
            {"source": [f"The file is {len(data)} bytes; a bot may be at most {MAX_BOT_BYTES}."]}
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError(
            {"source": [f"The file is not UTF-8 text ({exc.reason} at byte {exc.start})."]}
        ) from None
    try:
        tree = ast.parse(text, filename="bot.py")
    except SyntaxError as exc:
        raise ValidationError(
            {"source": [f"Syntax error on line {exc.lineno}: {exc.msg}."]}
        ) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise ValidationError({"source": [f"The file cannot be parsed: {exc}."]}) from None
    if not any(isinstance(node, ast.FunctionDef) and node.name == "choose" for node in tree.body):
        raise ValidationError(
            {"source": ["A bot defines a top-level function choose(observation, legal_actions)."]}
        )
    return text


def check_game(game: str) -> str:
    """The game's name if the engine plays it, else a ValidationError listing the games."""
    known = sorted({name for name, _ in engine.registered_games()})
    if game not in known:
        raise ValidationError(
            {"game": [f"Unknown game {game!r}; the arena plays: {', '.join(known)}."]}
        )
    return game


def game_label(game: str) -> str:
    """A game's display name, saying when its default deck is a demo (never the real cards)."""
    label: str = engine.load_game(game).label
    return label


@transaction.atomic
def bot_create(
    *, owner: User, name: str, source: str | bytes, description: str = "", game: str = "cat-lady"
) -> Bot:
    check_game(game)
    if Bot.objects.filter(name=name).exists():
        raise ValidationError({"name": [f"A bot called {name!r} already exists."]})
    check_source(source)
    bot = Bot.objects.create(owner=owner, name=name, description=description, game=game)
    version_upload(bot=bot, source=source, by=owner)
    return bot


@transaction.atomic
def version_upload(*, bot: Bot, source: str | bytes, by: User) -> BotVersion:
    """Store a new immutable version and queue its validation match against a house bot."""
    text = check_source(source)
    bot = Bot.objects.select_for_update().get(pk=bot.pk)
    data = text.encode()
    number = (bot.versions.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    version = BotVersion.objects.create(
        bot=bot,
        number=number,
        source=text,
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
        author=by,
    )
    match_create(
        kind=Match.Kind.VALIDATION,
        seats=[SeatInput(version=version), SeatInput(builtin=VALIDATION_OPPONENT)],
        seed=random.SystemRandom().randrange(2**31),
        requested_by=by,
        game=bot.game,
    )
    return version


# Earlier releases rejected a version when its validation match could not be played at all
# (no sandbox on the worker): the bot was never at fault.
_OLD_INFRA_REJECTION = "The validation match could not be played:"


def versions_failed_by_the_arena() -> list[BotVersion]:
    """Versions to validate again: wrongly rejected for an infrastructure fault (and still
    their bot's latest), or validating while their validation match failed."""
    latest = {
        bot_id: number
        for bot_id, number in BotVersion.objects.values("bot_id")
        .annotate(latest=models.Max("number"))
        .values_list("bot_id", "latest")
    }
    rejected = [
        v
        for v in BotVersion.objects.filter(
            status=BotVersion.Status.REJECTED, rejection__startswith=_OLD_INFRA_REJECTION
        ).select_related("bot")
        if latest.get(v.bot_id) == v.number
    ]
    stalled = list(
        BotVersion.objects.filter(status=BotVersion.Status.VALIDATING)
        .exclude(
            seats__match__kind=Match.Kind.VALIDATION,
            seats__match__status__in=[
                Match.Status.QUEUED,
                Match.Status.RUNNING,
                Match.Status.FINISHED,
            ],
        )
        .select_related("bot")
    )
    return sorted({v.pk: v for v in rejected + stalled}.values(), key=lambda v: v.pk)


@transaction.atomic
def version_revalidate(*, version: BotVersion, by: User | None = None) -> Match:
    """Play a new validation match for ``version``, which waits (validating) meanwhile."""
    version = BotVersion.objects.select_for_update().select_related("bot").get(pk=version.pk)
    version.status = BotVersion.Status.VALIDATING
    version.rejection = ""
    version.waiting_reason = ""
    version.save(update_fields=["status", "rejection", "waiting_reason"])
    return match_create(
        kind=Match.Kind.VALIDATION,
        seats=[SeatInput(version=version), SeatInput(builtin=VALIDATION_OPPONENT)],
        seed=random.SystemRandom().randrange(2**31),
        requested_by=by,
        game=version.bot.game,
    )


# --- matches ------------------------------------------------------------------------------


@transaction.atomic
def match_create(
    *,
    kind: str,
    seats: Sequence[SeatInput],
    seed: int,
    ladder: Ladder | None = None,
    tournament: Tournament | None = None,
    tournament_round: int | None = None,
    duplicate_set: str = "",
    requested_by: User | AnonymousUser | None = None,
    game: str = "cat-lady",
    options: dict[str, Any] | None = None,
) -> Match:
    errors: dict[str, list[str]] = {}
    options = dict(options or {})
    if "players" in options:
        errors.setdefault("options", []).append("The player count is the number of seats.")
    if options and kind in (Match.Kind.LADDER, Match.Kind.TOURNAMENT, Match.Kind.VALIDATION):
        errors.setdefault("options", []).append(
            "Ranked and validation matches use the game's default options."
        )
    if kind != Match.Kind.LIVE and any(s.player is not None for s in seats):
        errors.setdefault("seats", []).append("Only live matches have people at the table.")
    versions = [s.version.pk for s in seats if s.version is not None]
    if len(versions) != len(set(versions)):
        errors.setdefault("seats", []).append("A bot version can take only one seat in a match.")
    for index, seat in enumerate(seats):
        if seat.version is not None and seat.version.bot.game != game:
            errors.setdefault(f"seats.{index}", []).append(
                f"{seat.version} plays {seat.version.bot.game}, not {game}."
            )
        if seat.builtin and seat.builtin not in strategy_names(game):
            errors.setdefault(f"seats.{index}", []).append(
                f"{game} has no house bot {seat.builtin!r} (house bots: "
                f"{', '.join(strategy_names(game))})."
            )
    if not errors:
        try:
            engine.load_game(game, options={**options, "players": len(seats)})
        except engine.EngineError as exc:
            errors.setdefault("options" if options else "seats", []).append(str(exc))
    if errors:
        raise ValidationError(errors)
    match = Match.objects.create(
        kind=kind,
        seed=seed,
        ladder=ladder,
        tournament=tournament,
        options=options,
        tournament_round=tournament_round,
        duplicate_set=duplicate_set,
        game=game,
        requested_by=requested_by
        if requested_by is not None and requested_by.is_authenticated
        else None,
        limits=default_limits(),
        dispatch=1,
        queued_at=timezone.now(),
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=index, version=s.version, builtin=s.builtin, player=s.player)
        for index, s in enumerate(seats)
    )
    _enqueue(match)
    return match


@transaction.atomic
def challenge_create(
    *,
    seats: Sequence[SeatInput],
    by: User,
    seed: int | None = None,
    game: str | None = None,
    options: dict[str, Any] | None = None,
) -> Match:
    """A match the user asked for. Its game is the bots' game (``game`` when only house bots
    play; default Cat Lady). ``options`` choose an unranked setup, e.g. Cat Lady's placeholder
    Box of Treats deck at 5-6 players, shared goals, or solitaire against the ``cat-player``
    house bot (``engine.play_setups``)."""
    for index, seat in enumerate(seats):
        if seat.version is not None and seat.version.status != BotVersion.Status.ACTIVE:
            raise ValidationError(
                {f"seats.{index}": [f"{seat.version} is {seat.version.status}, not active."]}
            )
    if game is None:
        games = [s.version.bot.game for s in seats if s.version is not None]
        game = games[0] if games else "cat-lady"
    check_game(game)
    return match_create(
        kind=Match.Kind.CHALLENGE,
        seats=seats,
        requested_by=by,
        game=game,
        options=options,
        seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
    )


def match_claim(
    match_id: int, dispatch: int | None = None, *, resume: bool = False
) -> Match | None:
    """Mark a match running (again, after a lost worker); None if it is already settled,
    ``dispatch`` is an older hand-over than the match's latest (a superseded message), or
    another worker is playing it: running, its heartbeat fresh (the broker delivered the
    message again while its worker lives). ``resume``: the worker that was playing it tries
    again after a database fault, so its own fresh heartbeat does not stop it."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status in (Match.Status.FINISHED, Match.Status.FAILED):
            return None
        if dispatch is not None and dispatch != match.dispatch:
            return None
        if (
            match.status == Match.Status.RUNNING
            and not resume
            and match.heartbeat_at is not None
            and match.heartbeat_at > timezone.now() - heartbeat_limit(match.kind)
        ):
            return None
        match.status = Match.Status.RUNNING
        match.attempts = F("attempts") + 1
        match.started_at = match.heartbeat_at = timezone.now()
        match.save(update_fields=["status", "attempts", "started_at", "heartbeat_at"])
    match.refresh_from_db()
    return match


def match_beat(*, match_id: int, dispatch: int) -> bool:
    """The worker playing hand-over ``dispatch`` of the match is alive: its heartbeat is now.
    False when the match is no longer that worker's to play (handed over again, or settled)."""
    beaten = Match.objects.filter(
        pk=match_id, dispatch=dispatch, status=Match.Status.RUNNING
    ).update(heartbeat_at=timezone.now())
    if beaten:
        return True
    now = Match.objects.filter(pk=match_id).values_list("dispatch", "status").first()
    # A match this connection cannot see (deleted) is left to the task to find out.
    return now is None or now == (dispatch, Match.Status.RUNNING)


@transaction.atomic
def match_record(*, match_id: int, log: dict[str, Any]) -> bool:
    """Store a finished match's log and its consequences. False if it was recorded before."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status == Match.Status.FINISHED:
        return False
    seats = list(match.seats.select_related("version", "version__bot").order_by("seat"))
    result = log["result"]
    forfeited = set(log.get("forfeited", []))
    for seat in seats:
        seat.score = result["scores"][seat.seat]
        seat.rank = result["ranks"][seat.seat]
        seat.faults = len(log["faults"][seat.seat])
        seat.forfeited = seat.seat in forfeited
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.log = log
    match.engine_version = log["version"]
    match.sandbox_mode = log.get("sandbox_mode") or ""
    match.failure = ""
    match.infra_failure = ""
    if match.kind == Match.Kind.VALIDATION:
        _settle_validation(seats, log)
    elif match.ladder is not None:
        _rate_ladder_match(match.ladder, seats)
    elif match.kind == Match.Kind.LIVE and not match.options:
        _rate_play_pool(match, seats)
    MatchSeat.objects.bulk_update(
        seats, ["score", "rank", "faults", "forfeited", "rating_before", "rating_after"]
    )
    match.save()
    if match.tournament_id is not None:
        _advance_tournament(match.tournament_id)
    return True


@transaction.atomic
def match_fail(*, match_id: int, reason: str) -> None:
    """The match cannot be played, for the arena's reasons (a bad setup, an engine error).

    A bot being validated is not rejected for it: its version keeps waiting, with the reason,
    and ``manage.py arena_requeue`` validates it again once the fault is mended.
    """
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status == Match.Status.FINISHED:
        return
    match.status = Match.Status.FAILED
    match.failure = reason[:2000]
    match.finished_at = timezone.now()
    match.save(update_fields=["status", "failure", "finished_at"])
    if match.kind == Match.Kind.VALIDATION:
        _versions_waiting(
            match,
            "The arena could not play this version's validation match "
            f"({reason[:300]}). It was not rejected; an operator can "
            "validate it again with manage.py arena_requeue.",
        )


@transaction.atomic
def match_wait(*, match_id: int, reason: str) -> None:
    """An infrastructure fault stopped a worker from playing the match (no sandbox, no free
    bot slot): back to the queue, the reason kept, and the attempt not counted. The reaper
    hands it to the broker again after ``INFRA_RETRY``, until a worker can play it."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status != Match.Status.RUNNING:
        return
    match.status = Match.Status.QUEUED
    match.infra_failure = reason[:2000]
    match.queued_at = timezone.now()
    # The attempt never started playing: only lost workers use up MAX_ATTEMPTS.
    match.attempts = max(match.attempts - 1, 0)
    match.save(update_fields=["status", "infra_failure", "queued_at", "attempts"])
    if match.kind == Match.Kind.VALIDATION:
        _versions_waiting(
            match,
            f"Waiting for the arena: {reason[:300]}. It will be validated "
            "automatically as soon as a worker can run it.",
        )


def _versions_waiting(match: Match, reason: str) -> None:
    BotVersion.objects.filter(
        seats__match=match,
        status=BotVersion.Status.VALIDATING,
    ).update(waiting_reason=reason)


MAX_ATTEMPTS = 3
# A queued match is handed to the broker again after this long: its message may be lost.
QUEUED_DEADLINE = dt.timedelta(minutes=5)
# A match waiting for the infrastructure is tried again sooner.
INFRA_RETRY = dt.timedelta(seconds=30)


def heartbeat_limit(kind: str) -> dt.timedelta:
    """How old a running match's heartbeat may grow before its worker counts as lost."""
    seconds = (
        settings.ARENA_LIVE_STALE_S if kind == Match.Kind.LIVE else settings.ARENA_MATCH_STALE_S
    )
    return dt.timedelta(seconds=seconds)


def reap_stuck(
    *,
    older_than: dt.timedelta,
    stale_after: dt.timedelta | None = None,
    live_stale_after: dt.timedelta | None = None,
    queued_older_than: dt.timedelta = QUEUED_DEADLINE,
    infra_retry: dt.timedelta = INFRA_RETRY,
) -> list[int]:
    """Send every match that is not settled and not moving to the broker again.

    Running with a heartbeat older than ``stale_after`` (``live_stale_after`` when a person
    sits at the table; either defaults to ``older_than``), or a bots-only match running past
    ``older_than`` whatever its heartbeat (a hung worker): its worker was lost; it is played
    again from the start with the same seed (a person's moves are replayed), or failed after
    MAX_ATTEMPTS. Queued past ``queued_older_than`` (or ``infra_retry`` when it waits for the
    infrastructure): its message was lost or never sent, or a worker could not claim it; a
    new hand-over supersedes the old message. Returns the matches touched.
    """
    now = timezone.now()
    live = Q(kind=Match.Kind.LIVE)
    silent = now - (older_than if stale_after is None else stale_after)
    live_silent = now - (older_than if live_stale_after is None else live_stale_after)
    running = list(
        Match.objects.alias(alive=Coalesce("heartbeat_at", "started_at"))
        .filter(
            (live & Q(alive__lt=live_silent))
            | (~live & (Q(alive__lt=silent) | Q(started_at__lt=now - older_than))),
            status=Match.Status.RUNNING,
        )
        .values_list("pk", "attempts")
    )
    queued = list(
        Match.objects.alias(since=Coalesce("queued_at", "created_at"))
        .filter(
            Q(since__lt=now - queued_older_than)
            | (~Q(infra_failure="") & Q(since__lt=now - infra_retry)),
            status=Match.Status.QUEUED,
        )
        .values_list("pk", flat=True)
    )
    for match_id, attempts in running:
        if attempts >= MAX_ATTEMPTS:
            match_fail(
                match_id=match_id,
                reason=f"stuck: its worker was lost or hung in each of {attempts} attempts",
            )
            continue
        logger.warning(
            "match %s lost its worker (attempt %s): playing it again", match_id, attempts
        )
        _requeue(match_id, Match.Status.RUNNING)
    for match_id in queued:
        _requeue(match_id, Match.Status.QUEUED)
    return [match_id for match_id, _ in running] + queued


@transaction.atomic
def _requeue(match_id: int, expected: str) -> None:
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status == expected:
        match.status = Match.Status.QUEUED
        match.dispatch += 1
        match.queued_at = timezone.now()
        match.save(update_fields=["status", "dispatch", "queued_at"])
        _enqueue(match)


# --- workers -------------------------------------------------------------------------------

# A worker not seen for this long is forgotten (its host was replaced or renamed).
WORKER_FORGOTTEN = dt.timedelta(days=1)


def worker_seen(*, hostname: str, queues: str = "", started: bool = False) -> None:
    """A worker says it is alive (``started``: it has just become ready)."""
    now = timezone.now()
    fields: dict[str, Any] = {"last_seen": now, "queues": queues[:255]}
    if started:
        fields["started_at"] = now
        WorkerBeat.objects.filter(last_seen__lt=now - WORKER_FORGOTTEN).delete()
    WorkerBeat.objects.update_or_create(
        hostname=hostname[:255], defaults=fields, create_defaults={**fields, "started_at": now}
    )


def worker_gone(*, hostname: str) -> None:
    """A worker stops: it is no longer counted as up."""
    WorkerBeat.objects.filter(hostname=hostname[:255]).delete()


def _reject(version: BotVersion, reason: str) -> None:
    version.status = BotVersion.Status.REJECTED
    version.rejection = reason
    version.waiting_reason = ""
    version.save(update_fields=["status", "rejection", "waiting_reason"])
    notifications.bot_rejected(
        owner_id=version.bot.owner_id, bot=version.bot.name, version=version.number, reason=reason
    )


def _settle_validation(seats: list[MatchSeat], log: dict[str, Any]) -> None:
    for seat in seats:
        version = seat.version
        if version is None:
            continue
        faults = log["faults"][seat.seat]
        if faults:
            first = faults[0]
            stderr = (log.get("stderr") or [""] * len(seats))[seat.seat].strip()
            reason = (
                f"{len(faults)} fault(s) in the validation match; the first, at step "
                f"{first['step']}: {first['status']} ({first['reason']})."
            )
            if stderr:
                reason += f"\nThe bot's stderr ended with:\n{stderr[-1500:]}"
            _reject(version, reason)
            continue
        bot = Bot.objects.select_for_update().get(pk=version.bot_id)
        if bot.active_version_id and bot.active_version_id != version.pk:
            BotVersion.objects.filter(pk=bot.active_version_id).update(
                status=BotVersion.Status.RETIRED
            )
        version.status = BotVersion.Status.ACTIVE
        version.waiting_reason = ""
        version.save(update_fields=["status", "waiting_reason"])
        bot.active_version = version
        bot.save(update_fields=["active_version"])
        for ladder in Ladder.objects.filter(game=bot.game, active=True):
            LadderEntry.objects.get_or_create(ladder=ladder, version=version)


def _rate_ladder_match(ladder: Ladder, seats: list[MatchSeat]) -> None:
    entries = {
        e.version_id: e
        for e in LadderEntry.objects.select_for_update().filter(
            ladder=ladder, version_id__in=[s.version_id for s in seats if s.version_id]
        )
    }
    rated = [
        (s, entries[s.version_id])
        for s in seats
        if s.version_id is not None and s.version_id in entries
    ]
    if len(rated) >= 2:
        changes = rate_game(
            [Seat(e.version_id, e.rating, _rank(s)) for s, e in rated], ladder.k_factor
        )
        for (seat, entry), change in zip(rated, changes, strict=True):
            seat.rating_before = change.rating_before
            seat.rating_after = change.rating_after
            entry.rating = change.rating_after
    for seat, entry in rated:
        entry.games += 1
        won = seat.rank == 1 and not seat.forfeited
        entry.wins += int(won)
        entry.forfeits += int(seat.forfeited)
        games, wins = entry.seat_record.get(str(seat.seat), [0, 0])
        entry.seat_record[str(seat.seat)] = [games + 1, wins + int(won)]
    LadderEntry.objects.bulk_update(
        entries.values(), ["rating", "games", "wins", "forfeits", "seat_record"]
    )


def _rank(seat: MatchSeat) -> int:
    # match_record ranks every seat before it rates a match.
    assert seat.rank is not None
    return seat.rank


PLAY_POOL_K = 24.0


def _rate_play_pool(match: Match, seats: list[MatchSeat]) -> None:
    """People against bots: every seat (people, versions, house bots) on one scale per game
    and player count. Games with only people or only bots do not count."""
    people = [s for s in seats if s.is_person and s.player_id is not None]
    if not people or len(people) == len(seats):
        return
    entries = []
    for seat in seats:
        who = (
            {"user_id": seat.player_id}
            if seat.is_person
            else {"version_id": seat.version_id}
            if seat.version_id
            else {"builtin": seat.builtin}
        )
        entry, _ = PlayRating.objects.select_for_update().get_or_create(
            game=match.game, players=len(seats), **who
        )
        entries.append(entry)
    changes = rate_game(
        [Seat(i, e.rating, _rank(s)) for i, (s, e) in enumerate(zip(seats, entries, strict=True))],
        PLAY_POOL_K,
    )
    for seat, entry, change in zip(seats, entries, changes, strict=True):
        seat.rating_before, seat.rating_after = change.rating_before, change.rating_after
        entry.rating = change.rating_after
        entry.games += 1
        entry.wins += int(seat.rank == 1 and not seat.forfeited)
        entry.save(update_fields=["rating", "games", "wins"])


# --- ladders -------------------------------------------------------------------------------


def ladders_ensure(game: str = "cat-lady") -> list[Ladder]:
    """One ladder per player count the game is played by (named with its demo deck, if any)."""
    check_game(game)
    label = game_label(game)
    ladders = []
    for players in engine.supported_players(game):
        ladder, _ = Ladder.objects.get_or_create(
            game=game,
            players=players,
            defaults={"name": f"{label}, {players} players"},
        )
        ladders.append(ladder)
    return ladders


def pick_table(entries: Sequence[LadderEntry], size: int, rng: random.Random) -> list[LadderEntry]:
    """Prefer the bots with the fewest games, then fill the table with the closest ratings."""
    if len(entries) < size:
        return []
    fewest = min(e.games for e in entries)
    anchors = [e for e in entries if e.games == fewest]
    anchor = rng.choice(anchors)
    others = sorted(
        (e for e in entries if e.pk != anchor.pk),
        key=lambda e: (abs(e.rating - anchor.rating), e.games, rng.random()),
    )
    return [anchor, *others[: size - 1]]


@transaction.atomic
def ladder_schedule(*, ladder: Ladder, rng: random.Random | None = None) -> list[Match]:
    """Queue one duplicate set: the same deck seed once per seat rotation of one table."""
    rng = rng or random.Random()
    entries = list(
        LadderEntry.objects.filter(
            ladder=ladder, version__status=BotVersion.Status.ACTIVE
        ).select_related("version")
    )
    table = pick_table(entries, ladder.players, rng)
    if not table:
        return []
    seed = rng.randrange(2**31)
    set_id = uuid.uuid4().hex
    matches = []
    for shift in range(ladder.players):
        rotated = table[shift:] + table[:shift]
        matches.append(
            match_create(
                kind=Match.Kind.LADDER,
                ladder=ladder,
                seed=seed,
                duplicate_set=set_id,
                seats=[SeatInput(version=e.version) for e in rotated],
                game=ladder.game,
            )
        )
    return matches


def ladder_tick(*, backlog: int = 4) -> int:
    """Keep each active ladder's queue topped up; called by Celery beat."""
    queued = 0
    for ladder in Ladder.objects.filter(active=True):
        waiting = ladder.matches.filter(
            status__in=[Match.Status.QUEUED, Match.Status.RUNNING]
        ).count()
        if waiting < backlog:
            queued += len(ladder_schedule(ladder=ladder))
    return queued


# --- tournaments ---------------------------------------------------------------------------


@transaction.atomic
def tournament_start(
    *,
    name: str,
    organiser: User,
    entrants: Sequence[BotVersion],
    table_size: int,
    format: str,
    rounds: int | None = None,
    seed: int | None = None,
    final_size: int = 0,
) -> Tournament:
    """Start a tournament and queue its first round.

    ``final_size`` (2 to 4, or 0 for none): after the regular rounds the top that many in the
    standings play one final table — one deal, once per seat rotation — and its result decides
    the top places; everyone else keeps their place from the standings.
    """
    errors: dict[str, list[str]] = {}
    games = sorted({v.bot.game for v in entrants})
    if len(games) > 1:
        errors["entrants"] = [f"Entrants play different games: {', '.join(games)}."]
    game = games[0] if games else "cat-lady"
    sizes = engine.supported_players(game)
    if table_size not in sizes:
        errors["table_size"] = [
            f"{game_label(game)} tables seat {min(sizes)} to {max(sizes)} bots."
        ]
    if len(entrants) < table_size:
        errors["entrants"] = [f"At least {table_size} entrants are needed."]
    inactive = [str(v) for v in entrants if v.status != BotVersion.Status.ACTIVE]
    if inactive:
        errors["entrants"] = [f"Not active: {', '.join(inactive)}."]
    if format not in Tournament.Format.values:
        errors["format"] = [f"Format must be one of: {', '.join(Tournament.Format.values)}."]
    if final_size and final_size not in sizes:
        errors["final_size"] = [
            f"A final table seats {min(sizes)} to {max(sizes)} bots (0: no final)."
        ]
    elif final_size > len(entrants):
        errors["final_size"] = [f"A final of {final_size} needs at least {final_size} entrants."]
    if errors:
        raise ValidationError(errors)
    if format == Tournament.Format.ROUND_ROBIN:
        rounds = 1
    tournament = Tournament.objects.create(
        name=name,
        organiser=organiser,
        format=format,
        table_size=table_size,
        game=game,
        rounds=rounds or 3,
        final_size=final_size,
        seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
    )
    tournament.entrants.set(entrants)
    _start_round(tournament)
    return tournament


def _tables_for_round(
    tournament: Tournament, standings: list[tuple[BotVersion, float]]
) -> list[list[BotVersion]]:
    entrants = [v for v, _ in standings]
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return [list(t) for t in itertools.combinations(entrants, tournament.table_size)]
    # Swiss: tables of neighbours in the standings; leftovers join the last table's size class.
    size = tournament.table_size
    tables = [entrants[i : i + size] for i in range(0, len(entrants), size)]
    if len(tables) > 1 and len(tables[-1]) < 2:
        tables[-2].extend(tables.pop())
    return [t for t in tables if len(t) >= 2]


def _start_round(tournament: Tournament) -> None:
    tournament.current_round += 1
    tournament.save(update_fields=["current_round"])
    standings = tournament_standings(tournament)
    if tournament.in_final:
        tables = [[v for v, _ in standings[: tournament.final_size]]]
    else:
        tables = _tables_for_round(tournament, standings)
    rng = random.Random(f"{tournament.seed}/{tournament.current_round}")
    for table in tables:
        seed = rng.randrange(2**31)
        set_id = uuid.uuid4().hex
        for shift in range(len(table)):
            rotated = table[shift:] + table[:shift]
            match_create(
                kind=Match.Kind.TOURNAMENT,
                tournament=tournament,
                tournament_round=tournament.current_round,
                seed=seed,
                duplicate_set=set_id,
                seats=[SeatInput(version=v) for v in rotated],
                game=tournament.game,
            )


def _points(
    tournament: Tournament, versions: Sequence[int], *, rounds: tuple[int, int]
) -> dict[int, float]:
    """Points per version from the finished matches of rounds ``rounds[0]..rounds[1]``: per
    match, (players - rank) / (players - 1), so a win is 1 and last place 0."""
    points: dict[int, float] = dict.fromkeys(versions, 0.0)
    first, last = rounds
    matches = Match.objects.filter(
        tournament=tournament, tournament_round__gte=first, tournament_round__lte=last
    )
    sizes = dict(matches.annotate(n=Count("seats")).values_list("pk", "n"))
    seats = MatchSeat.objects.filter(
        match__in=matches, match__status=Match.Status.FINISHED, version_id__in=versions
    )
    for match_id, version_id, rank in seats.values_list("match_id", "version_id", "rank"):
        n = sizes[match_id]
        assert rank is not None  # match_record ranks every seat of a finished match
        points[version_id] += (n - rank) / (n - 1)
    return points


def tournament_standings(
    tournament: Tournament, *, through_round: int | None = None
) -> list[tuple[BotVersion, float]]:
    """Entrants by points in the regular rounds (the final table is not part of them): per
    match, (players - rank) / (players - 1), so a win is 1, last 0."""
    last = tournament.rounds if through_round is None else min(through_round, tournament.rounds)
    versions = {v.pk: v for v in tournament.entrants.select_related("bot")}
    points = _points(tournament, list(versions), rounds=(1, last))
    return sorted(
        ((versions[pk], p) for pk, p in points.items()),
        key=lambda item: (-item[1], item[0].bot.name, item[0].number),
    )


def tournament_final_table(tournament: Tournament) -> list[tuple[BotVersion, float]] | None:
    """The final table's players by their points in it, ties broken by the regular standings
    (the better seed ahead); None when the tournament has no final or it has not started."""
    final_round = tournament.final_round
    if final_round is None or tournament.current_round < final_round:
        return None
    players = list(
        BotVersion.objects.filter(
            seats__match__tournament=tournament,
            seats__match__tournament_round=final_round,
        )
        .select_related("bot")
        .distinct()
    )
    seeding = {v.pk: index for index, (v, _) in enumerate(tournament_standings(tournament))}
    points = _points(tournament, [v.pk for v in players], rounds=(final_round, final_round))
    return sorted(
        ((v, points[v.pk]) for v in players),
        key=lambda item: (-item[1], seeding.get(item[0].pk, len(seeding))),
    )


@dataclass(frozen=True)
class Placing:
    place: int
    version: BotVersion
    points: float  # in the regular rounds
    final_points: float | None  # None: did not play the final table


def tournament_placings(tournament: Tournament) -> list[Placing]:
    """Final places: the final table's order first (when there is one), then everyone else in
    the order of the regular standings."""
    standings = tournament_standings(tournament)
    final = tournament_final_table(tournament) or []
    final_points = {v.pk: p for v, p in final}
    regular = {v.pk: p for v, p in standings}
    ordered = [v for v, _ in final] + [v for v, _ in standings if v.pk not in final_points]
    return [
        Placing(
            place=index + 1,
            version=v,
            points=regular.get(v.pk, 0.0),
            final_points=final_points.get(v.pk),
        )
        for index, v in enumerate(ordered)
    ]


def _advance_tournament(tournament_id: int) -> None:
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    pending = (
        tournament.matches.filter(
            tournament_round=tournament.current_round,
        )
        .filter(~Q(status__in=[Match.Status.FINISHED, Match.Status.FAILED]))
        .exists()
    )
    if pending or tournament.status == Tournament.Status.FINISHED:
        return
    last_round = tournament.final_round or tournament.rounds
    if tournament.current_round >= last_round:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        return
    _start_round(tournament)
