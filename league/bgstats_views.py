"""The organisers' BG Stats pages: upload an export, preview the plays with a form mapping
BG Stats players to league players, import; and the export download. Views parse and check
who may act; `league.bgstats_import` does the work."""

from __future__ import annotations

import hashlib
import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from league import bgstats, bgstats_import
from league.catalogue import get_game
from league.models import League
from league.permissions import can_organise, can_view

NEW_GUEST = "new"


def _league(request, slug: str, *, organise: bool = False) -> League:
    league = get_object_or_404(League, slug=slug)
    if not can_view(league, request.user):
        raise Http404("No such league.")  # a private league is not admitted to exist
    if organise and not can_organise(league, request.user):
        raise PermissionDenied("Only this league's organisers may import games.")
    return league


def _session_key(league: League) -> str:
    return f"bgstats-import-{league.pk}"


class UploadForm(forms.Form):
    file = forms.FileField(
        label="BG Stats export file",
        help_text="The .json export file BG Stats writes "
        f"(at most {bgstats.MAX_FILE_BYTES // (1024 * 1024)} MB). Nothing is imported until you "
        "have checked the preview.",
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > bgstats.MAX_FILE_BYTES:
            raise ValidationError(
                f"The file is larger than {bgstats.MAX_FILE_BYTES // (1024 * 1024)} MB."
            )
        try:
            return bgstats.parse_export(upload.read())
        except bgstats.BGStatsError as exc:
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

    def __init__(self, *args, matches: list[bgstats_import.PlayerMatch], members, **kwargs):
        super().__init__(*args, **kwargs)
        self.matches = matches
        for match in matches:
            suggested = {p.pk for p in match.suggestions}
            choices = [(NEW_GUEST, f"New guest “{match.name}”")]
            choices += [(str(p.pk), f"{p.name} (suggested)") for p in match.suggestions]
            choices += [(str(p.pk), p.name) for p in members if p.pk not in suggested]
            self.fields[f"player_{match.ref}"] = forms.ChoiceField(
                label=f"{match.name} (in {match.plays} play{'s' if match.plays != 1 else ''})",
                choices=choices,
                initial=str(match.suggestions[0].pk) if match.suggestions else NEW_GUEST,
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
        request.session[_session_key(league)] = bgstats.to_file(form.cleaned_data["file"])
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
    export = bgstats.parse_export(json.dumps(stored))
    found = bgstats_import.preview(league=league, export=export)
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
                result = bgstats_import.import_plays(
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
                    "played_at": refused.play.played_at,
                    "players": ", ".join(
                        export.players[s.player_ref].name for s in refused.play.scores
                    ),
                    "reasons": refused.reasons,
                }
                for refused in found.plan.refused
            ],
        },
        status=400 if form.errors else 200,
    )


def _row(export: bgstats.Export, planned: bgstats.PlannedPlay, game_key: str) -> dict:
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
    body = json.dumps(bgstats_import.export_league(league=league), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{league.slug}-bgstats.json"'
    return response
