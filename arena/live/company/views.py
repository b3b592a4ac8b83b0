"""Pages and table endpoints for friends at a live table (:mod:`arena.live.company.services`): the
invitation a friend opens, seating a guest on the host's device, starting without the friends
who have not come, and what the table page says about them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from arena import web
from arena.common import game_label
from arena.live.company.services import GUEST_NAME_MAX, company_start, guest_seat, invitation_accept
from arena.models import LiveInvitation, Match
from config.api.errors import error_response


def company_page(request: HttpRequest, match: Match, company: dict[str, Any]) -> dict[str, Any]:
    """The table template's part about the company: each open seat's link (for the host)."""
    return {
        **company,
        "guest_name_max": GUEST_NAME_MAX,
        "links": [
            {
                "seat": item["seat"],
                "id": f"invite-{item['seat']}",
                "url": request.build_absolute_uri(reverse("arena:play-join", args=[item["token"]])),
            }
            for item in company["open"]
            if item["token"]
        ],
        "urls": {
            "guest": reverse("arena:play-guest", args=[match.pk]),
            "start": reverse("arena:play-start", args=[match.pk]),
            "table": reverse("arena:play-table", args=[match.pk]),
        },
    }


def company_state(company: dict[str, Any]) -> dict[str, Any]:
    """The table state's part about the company: no links (the page has them), only which
    seats are still open and whose turn it is on this device."""
    return {
        "gathering": company["gathering"],
        "host": company["host"],
        "seconds_left": company["seconds_left"],
        "open": [item["seat"] for item in company["open"]],
        "handover": company["handover"],
        "shared": len(company["device"]) > 1,
    }


def _hosted(request: HttpRequest, pk: int) -> Match | JsonResponse:
    """A live match the user hosts; 403 to another person at its table, and to anyone else
    a 404 that does not say whether it exists."""
    match = get_object_or_404(Match.objects.filter(kind=Match.Kind.LIVE), pk=pk)
    if match.requested_by_id == web.you(request).pk:
        return match
    if match.live_seats.filter(user=web.you(request)).exists():
        detail = "Only the host changes who sits at this table."
        return error_response(403, "permission_denied", detail)
    raise Http404


@login_required
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """A friend's invitation: who asks them to which game; taking the seat (POST) leads to
    the table. Opened logged out, the log-in (or sign-up) comes back here."""
    found = get_object_or_404(
        LiveInvitation.objects.select_related("match__requested_by"), token=token
    )
    match = found.match
    error, status = "", 200
    if request.method == "POST":
        try:
            invitation_accept(token=token, user=web.you(request))
        except ValidationError as refused:
            error = " ".join(refused.message_dict.get("token", refused.messages))
            own = match.requested_by_id == web.you(request).pk
            status = 403 if own else 400
        else:
            return redirect("arena:play-table", pk=match.pk)
    seats = list(match.seats.select_related("version__bot", "player").order_by("seat"))
    return render(
        request,
        "arena/play_invite.html",
        {
            "arena_section": "play",
            "match": match,
            "host": match.requested_by,
            "seat": found.seat,
            "seats": seats,
            "game_label": game_label(match.game),
            "error": error,
        },
        status=status,
    )


@require_POST
@web.json_endpoint(login=True)
def table_guest(request: HttpRequest, pk: int) -> JsonResponse:
    """The host seats a guest (a name) in an open seat: they play on the host's device."""
    match = _hosted(request, pk)
    if isinstance(match, JsonResponse):
        return match
    seat = request.POST.get("seat", "")
    if not seat.isdigit():
        return web.json_refusal(
            "No guest seated.", ValidationError({"seat": ["Choose an open seat."]})
        )
    try:
        guest_seat(
            match=match, host=web.you(request), seat=int(seat), name=request.POST.get("name", "")
        )
    except ValidationError as error:
        return web.json_refusal("No guest seated.", error)
    return JsonResponse({"ok": True, "seat": int(seat)})


@require_POST
@web.json_endpoint(login=True)
def table_start(request: HttpRequest, pk: int) -> JsonResponse:
    """The host starts now: house bots take the seats no friend has taken."""
    match = _hosted(request, pk)
    if isinstance(match, JsonResponse):
        return match
    try:
        seats = company_start(match=match, host=web.you(request))
    except ValidationError as error:
        return web.json_refusal("The table did not start.", error)
    return JsonResponse({"ok": True, "bots": seats})
