"""Bot pages: a bot (and a new version), a version's source (owner only), a new bot, my bots.

A bot's source, its fault reasons and its stderr are shown to its owner and nobody else.
"""

from __future__ import annotations

import functools
from pathlib import Path

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from arena.gauntlet.selectors import bot_gauntlets
from arena.live.selectors import play_ratings_of
from arena.models import Bot, BotVersion
from arena.submissions import services
from arena.submissions.forms import BotCreateForm, VersionUploadForm
from arena.submissions.selectors import (
    CHART_POINTS_DRAWN,
    bot_ladder_rates,
    bot_matches,
    bot_rating_series,
    bot_versions,
    own_bots,
    owner_fault_reports,
    owns_bot,
)
from arena.submissions.services import version_upload
from arena.web import form_page, you
from ratings.charts import rating_chart


@require_http_methods(["GET", "POST"])
def bot_detail(request: HttpRequest, name: str) -> HttpResponse:
    bot = get_object_or_404(Bot.objects.select_related("owner", "active_version"), name=name)
    owner = owns_bot(bot, request.user)
    form = VersionUploadForm()
    if request.method == "POST":
        if not owner:
            raise PermissionDenied("Only the bot's owner may upload versions.")
        user = request.user
        assert user.is_authenticated  # owns_bot is false for visitors
        form = VersionUploadForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                version = version_upload(bot=bot, source=form.cleaned_data["file"], by=user)
            except ValidationError as exc:
                form.apply_service_errors(exc)
            else:
                messages.success(request, f"Version {version.number} uploaded.")
                return redirect("arena:bot", name=bot.name)
    versions = bot_versions(bot)
    reports = owner_fault_reports(bot) if owner else []
    shown = bot.active_version or next(
        (v for v in versions if v.status == BotVersion.Status.RETIRED), None
    )
    context = {
        "bot": bot,
        "owner": owner,
        "versions": versions,
        "latest": versions[0] if versions else None,
        "stats_version": shown,
        "ladder_rates": bot_ladder_rates(shown),
        "chart": rating_chart(
            bot_rating_series(bot),
            width=720,
            height=260,
            max_points=CHART_POINTS_DRAWN,
            title=f"Rating of {bot.name} per ladder",
        ),
        "matches": bot_matches(bot),
        "against_people": play_ratings_of(versions=versions),
        "form": form,
        "fault_reports": reports,
        "gauntlets": bot_gauntlets(bot),
        "quiet_reports": sum(1 for r in reports if not r.faults and not r.stderr),
    }
    return render(request, "arena/bot.html", context, status=400 if form.errors else 200)


def version_source(request: HttpRequest, name: str, number: int) -> HttpResponse:
    version = get_object_or_404(
        BotVersion.objects.select_related("bot"), bot__name=name, number=number
    )
    if not owns_bot(version.bot, request.user):
        # Not a 403: to anyone else the source does not exist.
        raise Http404("No such source.")
    return render(request, "arena/version_source.html", {"version": version, "bot": version.bot})


@login_required
@require_http_methods(["GET", "POST"])
def bot_create(request: HttpRequest) -> HttpResponse:
    form = BotCreateForm()
    if request.method == "POST":
        form = BotCreateForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                bot = services.bot_create(
                    owner=you(request),
                    name=form.cleaned_data["name"],
                    description=form.cleaned_data["description"],
                    source=form.cleaned_data["file"],
                    game=form.cleaned_data["game"] or "cat-lady",
                )
            except ValidationError as exc:
                form.apply_service_errors(exc)
            else:
                messages.success(request, f"{bot.name} created; its first version is validating.")
                return redirect("arena:bot", name=bot.name)
    return form_page(request, "arena/bot_new.html", form, {"starter": _starter_source()})


@functools.cache
def _starter_source() -> str:
    return (Path(__file__).resolve().parents[1] / "botkit" / "starter_bot.py").read_text()


@login_required
def my_bots(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "arena/my_bots.html",
        {
            "arena_section": "mine",
            "bots": own_bots(request.user),
        },
    )
