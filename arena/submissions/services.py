"""Bots and their versions: create a bot, upload a version, check its source, validate it
against a house bot, and accept or reject it once its validation match is played."""

from __future__ import annotations

import ast
import hashlib
import random
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import models, transaction

from accounts import notifications
from arena.common import SeatInput, check_game, match_create
from arena.gauntlet.services import gauntlet_create
from arena.models import Bot, BotVersion, Ladder, LadderEntry, Match, MatchSeat
from arena.runner import MAX_BOT_BYTES

if TYPE_CHECKING:
    from django.contrib.auth.models import User


VALIDATION_OPPONENT = "random"


def size_in_words(size: int) -> str:
    """``20.0 MB``, ``300.5 KB``, ``12 bytes``: a size as a person reads it (1 KB = 1024 bytes,
    as the limit is set)."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    if size >= 1024:
        return f"{size / 1024:.1f} KB".replace(".0 KB", " KB")
    return f"{size} bytes"


def check_size(size: int) -> None:
    """Refuse a file over the limit, saying both sizes. Uploads read only the limit plus one
    byte, so callers pass the size the upload declares, not the length of what they read."""
    if size > MAX_BOT_BYTES:
        raise ValidationError(
            {
                "source": [
                    f"The file is {size_in_words(size)}; "
                    f"the limit is {size_in_words(MAX_BOT_BYTES)}."
                ]
            }
        )


def check_source(source: str | bytes) -> str:
    """The bot's text, or a ValidationError an author can act on. Nothing is executed here."""
    data = source.encode() if isinstance(source, str) else source
    check_size(len(data))
    if not data.strip():
        raise ValidationError({"source": ["The file is empty."]})
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError(
            {"source": [f"The file is not UTF-8 text ({exc.reason} at byte {exc.start})."]}
        ) from None
    # ast.parse refuses a NUL byte with "source code string cannot contain null bytes" (a
    # ValueError on 3.11, a SyntaxError without a line later): name the byte and where it is.
    if "\0" in text:
        offset = data.index(b"\0")
        raise ValidationError(
            {
                "source": [
                    f"The file holds a NUL byte (byte 0) at offset {offset}: "
                    "a bot must be a UTF-8 Python text file."
                ]
            }
        )
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


def _reject(version: BotVersion, reason: str) -> None:
    version.status = BotVersion.Status.REJECTED
    version.rejection = reason
    version.waiting_reason = ""
    version.save(update_fields=["status", "rejection", "waiting_reason"])
    notifications.bot_rejected(
        owner_id=version.bot.owner_id, bot=version.bot.name, version=version.number, reason=reason
    )


def settle_validation(seats: list[MatchSeat], log: dict[str, Any]) -> None:
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
        bot = (
            Bot.objects.select_for_update(of=("self",))
            .select_related("active_version")
            .get(pk=version.bot_id)
        )
        if bot.active_version is not None and bot.active_version_id != version.pk:
            # It replaces a version on the ladder only once its gauntlet says so.
            gauntlet_create(version=version, replaces=bot.active_version)
            continue
        version.status = BotVersion.Status.ACTIVE
        version.waiting_reason = ""
        version.save(update_fields=["status", "waiting_reason"])
        bot.active_version = version
        bot.save(update_fields=["active_version"])
        for ladder in Ladder.objects.filter(game=bot.game, active=True):
            LadderEntry.objects.get_or_create(ladder=ladder, version=version)
