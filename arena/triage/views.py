"""A bot version's loss triage page: its faults first (the bot's own stderr and the runner's
reasons only for its owner), its biggest losses with a replay link opened at the decisive move,
and its head-to-head record against another version of the same bot.

Versions are public, as on the bot page: anyone may read a version's triage; a bot or version
that does not exist is a 404.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from arena.models import BotVersion
from arena.submissions.selectors import bot_versions, owns_bot
from arena.triage.decisive import SCORING_BUDGET_S
from arena.triage.forms import AgainstForm
from arena.triage.selectors import (
    MAX_FAULTS,
    MAX_LOSSES,
    biggest_losses,
    decisive_move_in,
    faults,
    head_to_head,
    unplayed_count,
)


def _version(name: str, number: int) -> BotVersion:
    return get_object_or_404(
        BotVersion.objects.select_related("bot__owner").defer("source"),
        bot__name=name,
        number=number,
    )


def version_triage(request: HttpRequest, name: str, number: int) -> HttpResponse:
    version = _version(name, number)
    owner = owns_bot(version.bot, request.user)
    others = [v for v in bot_versions(version.bot) if v.pk != version.pk]
    form = AgainstForm(request.GET if "against" in request.GET else None, others=others)
    other = form.chosen()
    context = {
        "bot": version.bot,
        "version": version,
        "owner": owner,
        "faults": faults(version, owner=owner),
        "max_faults": MAX_FAULTS,
        "losses": biggest_losses(version),
        "max_losses": MAX_LOSSES,
        "scoring_budget_s": SCORING_BUDGET_S,
        "unplayed": unplayed_count(version),
        "form": form,
        "others": others,
        "head_to_head": head_to_head(version, other) if other is not None else None,
    }
    return render(request, "arena/triage.html", context, status=400 if form.errors else 200)


def decisive_replay(request: HttpRequest, name: str, number: int, pk: int) -> HttpResponse:
    """The replay of a match the version lost, opened at its decisive move (worked out on the
    first click, then cached); the replay's start when there is none to show. 404 for a match
    the version did not play or whose deal is not revealed yet."""
    version = _version(name, number)
    shown, move = decisive_move_in(version, pk)
    if not shown:
        raise Http404("This version lost no match of that number that may be shown.")
    url = reverse("arena:match", args=[pk])
    return redirect(f"{url}#move={move}" if move is not None else f"{url}#replay")
