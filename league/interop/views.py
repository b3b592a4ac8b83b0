"""Games in and out: the organisers' BG Stats pages (upload an export, preview the plays with a
form mapping BG Stats players to league players, import), the BG Stats export download and the
CSV exports of games and standings. Views parse and check
who may act; `league.interop.services` does the work."""

from __future__ import annotations

import csv
import hashlib
import json
from typing import TYPE_CHECKING

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from league.catalogue import get_game
from league.interop import planning, reading, services, snapshot
from league.models import League
from league.permissions import visible_league
from league.results import selectors as result_selectors
from league.results import standings

if TYPE_CHECKING:
    from _csv import Writer  # what csv.writer returns; the module names no type for it

NEW_GUEST = "new"


def _league(request, slug: str, *, organise: bool = False) -> League:
    return visible_league(
        request.user,
        slug,
        organise=organise,
        refusal="Only this league's organisers may import games.",
    )


def _session_key(league: League) -> str:
    return f"bgstats-import-{league.pk}"


class UploadForm(forms.Form):
    file = forms.FileField(
        label="BG Stats export file",
        help_text="The .json export file BG Stats writes "
        f"(at most {reading.MAX_FILE_BYTES // (1024 * 1024)} MB). Nothing is imported until you "
        "have checked the preview.",
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > reading.MAX_FILE_BYTES:
            raise ValidationError(
                f"The file is larger than {reading.MAX_FILE_BYTES // (1024 * 1024)} MB."
            )
        try:
            return reading.parse_export(upload.read())
        except reading.BGStatsError as exc:
            raise ValidationError(
                [
                    f"{where}: {message}" if where != "file" else message
                    for where, found in list(exc.errors.items())[:20]
                    for message in found
                ]
            ) from exc


class MappingForm(forms.Form):
    """One choice per BG Stats player: a league member, or a new guest under their name."""

    digest = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args, matches: list[services.PlayerMatch], members, **kwargs):
        super().__init__(*args, **kwargs)
        self.matches = matches
        proposed: set[int] = set()
        seen: dict[str, int] = {}
        for match in matches:
            suggested = {p.pk for p in match.suggestions}
            choices = [(NEW_GUEST, f"New guest “{match.guest_name}”")]
            choices += [(str(p.pk), f"{p.name} (suggested)") for p in match.suggestions]
            choices += [(str(p.pk), p.name) for p in members if p.pk not in suggested]
            # Two BG Stats players of one name are two people: only the first is proposed
            # as the member of that name.
            first = next((p for p in match.suggestions if p.pk not in proposed), None)
            if first is not None:
                proposed.add(first.pk)
            seen[match.name.casefold()] = seen.get(match.name.casefold(), 0) + 1
            same_name = seen[match.name.casefold()]
            plays = f"in {match.plays} play{'s' if match.plays != 1 else ''}"
            self.fields[f"player_{match.ref}"] = forms.ChoiceField(
                label=f"{match.name} ({plays})"
                if same_name == 1
                else f"{match.name}, BG Stats player {same_name} of that name ({plays})",
                choices=choices,
                initial=str(first.pk) if first is not None else NEW_GUEST,
                # Said only when the member of that name is not the one proposed (the
                # choice "New guest" names the numbered guest anyway).
                help_text=f"{match.clash} A new guest would be “{match.guest_name}”."
                if match.clash and (first is None or first.name.casefold() != match.name.casefold())
                else "",
            )

    def mapping(self) -> dict[int, int | None]:
        return {
            m.ref: None
            if self.cleaned_data[f"player_{m.ref}"] == NEW_GUEST
            else int(self.cleaned_data[f"player_{m.ref}"])
            for m in self.matches
        }


def _digest(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


@login_required
@require_http_methods(["GET", "POST"])
def import_upload(request, slug):
    league = _league(request, slug, organise=True)
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        request.session[_session_key(league)] = snapshot.to_snapshot(form.cleaned_data["file"])
        return redirect("league:bgstats-preview", slug=league.slug)
    return render(
        request,
        "league/club/bgstats_import.html",
        {"league": league, "upload_form": form, "step": "upload"},
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def import_preview(request, slug):
    league = _league(request, slug, organise=True)
    stored = request.session.get(_session_key(league))
    if stored is None:
        messages.info(request, "Choose the BG Stats file to import first.")
        return redirect("league:bgstats-upload", slug=league.slug)
    try:
        export = snapshot.from_snapshot(stored)
    except (reading.BGStatsError, KeyError, TypeError, ValueError):
        # A session kept by an older version of this page: the file must be chosen again.
        request.session.pop(_session_key(league), None)
        messages.info(request, "Choose the BG Stats file to import again.")
        return redirect("league:bgstats-upload", slug=league.slug)
    found = services.preview(league=league, export=export)
    members = list(league.memberships.select_related("player").order_by("player__name"))
    form = MappingForm(
        request.POST or None,
        initial={"digest": _digest(stored)},
        matches=found.players,
        members=[m.player for m in members],
    )
    if request.method == "POST" and form.is_valid():
        if form.cleaned_data["digest"] != _digest(stored):
            form.add_error(
                None, "Another file was uploaded since this page was shown: check again."
            )
        else:
            try:
                result = services.import_plays(
                    league=league, export=export, mapping=form.mapping(), by=request.user
                )
            except ValidationError as exc:
                for key, found_messages in exc.message_dict.items():
                    field = f"player_{key.split('.', 1)[1]}" if key.startswith("players.") else None
                    for message in found_messages:
                        form.add_error(field if field in form.fields else None, message)
            else:
                request.session.pop(_session_key(league), None)
                guests = f" New guests: {', '.join(result.guests)}." if result.guests else ""
                messages.success(
                    request,
                    f"Imported {result.created} game{'s' if result.created != 1 else ''} from "
                    f"BG Stats; ratings rebuilt.{guests}",
                )
                return redirect("league:detail", slug=league.slug)
    return render(
        request,
        "league/club/bgstats_import.html",
        {
            "league": league,
            "step": "preview",
            "preview": found,
            "form": form,
            "new_rows": [_row(export, planned, league.game) for planned in found.new],
            "refused_rows": [
                {
                    "played_at": refused.played_at,
                    "players": ", ".join(refused.players),
                    "reasons": refused.reasons,
                }
                for refused in found.plan.refused
            ],
            "clashes": any(m.clash for m in found.players),
        },
        status=400 if form.errors else 200,
    )


def _row(export: reading.Export, planned: planning.PlannedPlay, game_key: str) -> dict:
    """One play of the preview as the page shows it: players in seat order with their score."""
    headline = next(f.name for f in get_game(game_key).fields if f.kind == "int")
    return {
        "played_on": planned.played_on,
        "played_time": planned.played_time,
        "place": planned.place,
        "edition": planned.edition,
        "seats": [
            (export.players[seat.player_ref].name, seat.result.get(headline), seat.rank)
            for seat in planned.seats
        ],
    }


def export_bgstats(request, slug):
    """The league's games in BG Stats' format, for BG Stats or another league to import."""
    league = _league(request, slug)
    body = json.dumps(services.export_league(league=league), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{league.slug}-bgstats.json"'
    return response


# --- CSV exports ------------------------------------------------------------------------------


def _csv_response(filename: str) -> tuple[HttpResponse, Writer]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, csv.writer(response)


def export_games(request: HttpRequest, slug: str) -> HttpResponse:
    """One row per player per game, oldest first: what a spreadsheet wants."""
    league = _league(request, slug)
    response, writer = _csv_response(f"{league.slug}-games.csv")
    writer.writerow(
        [
            "game_id",
            "played_on",
            "played_time",
            "season",
            "edition",
            "place",
            "rated",
            "seat",
            "player",
            "rank",
            "score",
            "rating_before",
            "rating_after",
            "result",
        ]
    )
    for game in result_selectors.games_for(league=league).reverse():
        for p in game.participants.all():
            writer.writerow(
                [
                    game.pk,
                    game.played_on,
                    game.played_time or "",
                    game.season.name if game.season else "",
                    game.edition,
                    game.place,
                    game.rated,
                    p.seat,
                    p.player.name,
                    p.rank,
                    p.score,
                    "" if p.rating_before is None else round(p.rating_before, 1),
                    "" if p.rating_after is None else round(p.rating_after, 1),
                    ";".join(f"{k}={v}" for k, v in sorted(p.result.items())),
                ]
            )
    return response


def export_standings(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    season = None
    if request.GET.get("season"):
        if not request.GET["season"].isdigit():
            raise Http404("No such season.")
        season = get_object_or_404(league.seasons, pk=int(request.GET["season"]))
    name = f"{league.slug}-{'season-' + str(season.pk) if season else 'all'}-standings.csv"
    response, writer = _csv_response(name)
    writer.writerow(
        [
            "position",
            "player",
            "rating",
            "provisional",
            "games",
            "wins",
            "average_placement",
            "last_played_on",
        ]
    )
    for row in standings.standings(league=league, season=season):
        writer.writerow(
            [
                row.position,
                row.player_name,
                round(row.rating, 1),
                row.provisional,
                row.games_played,
                row.wins,
                "" if row.average_placement is None else round(row.average_placement, 2),
                row.last_played_on or "",
            ]
        )
    return response
