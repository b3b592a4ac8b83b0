"""The pages of one game: its page (ratings explained, the score pad, confirmation), logging a
new game, correcting and deleting one; and confirming, disputing and settling results that wait
for confirmation (the league's setting): participants act from the game's page, organisers
settle disputes there too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from league.models import Game, GameDispute, League, Membership, Participant
from league.permissions import can_organise, can_view, role_in, visible_league
from league.results import checks, confirmation
from league.results import selectors as result_selectors
from league.results import services as result_services
from league.results.forms import LeagueChoiceForm
from league.results.result_form import Entry, loggable_leagues, result_form

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _you(request: HttpRequest) -> User:
    """The person on a @login_required page."""
    user = request.user
    assert user.is_authenticated
    return user


def game_detail(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    league = visible_league(request.user, slug)
    game = result_selectors.game_detail(game_id=game_id)
    if game is None or game.league_id != league.pk:
        raise Http404("No such game in this league.")
    participants = list(game.participants.all())
    role = role_in(league, request.user)
    organiser = role == Membership.Role.ORGANISER
    return render(
        request,
        "league/game_detail.html",
        {
            "league": league,
            "game": game,
            "participants": participants,
            "rated": any(p.rating_after is not None for p in participants),
            "explanations": _explanations(game, participants),
            "scored_with_placeholder": checks.scored_with_placeholder(game.scored_with),
            "breakdown": _score_pad(game, participants),
            "can_organise": organiser,
            "confirmation": state_for(request, game, organiser=organiser, member=role is not None),
        },
    )


@dataclass(frozen=True)
class RatingExplanation:
    """Why one player's rating moved, in the terms of `ratings.elo`."""

    participant: Participant
    opponents: int
    ahead: int
    level: int
    behind: int
    k_factor: float

    @property
    def points(self) -> float:
        return self.ahead + self.level / 2


def _explanations(game: Game, participants: list[Participant]) -> list[RatingExplanation]:
    rated = [p for p in participants if p.rating_after is not None]
    return [
        RatingExplanation(
            participant=p,
            opponents=len(rated) - 1,
            ahead=sum(1 for o in rated if o is not p and p.rank < o.rank),
            level=sum(1 for o in rated if o is not p and p.rank == o.rank),
            behind=sum(1 for o in rated if o is not p and p.rank > o.rank),
            k_factor=game.league.k_factor,
        )
        for p in rated
    ]


_CAT_LADY_PAD = (
    ("fed_cats_vp", "Fed cats"),
    ("toys_vp", "Toys"),
    ("costumes_vp", "Costumes"),
    ("catnip_vp", "Catnip"),
    ("vp_tokens_vp", "VP tokens"),
    ("food_penalty_vp", "Food penalty"),
)


def _score_pad(game: Game, participants: list[Participant]) -> list[tuple[str, list[Any]]] | None:
    """Cat Lady's score-pad lines, when every player's categories were recorded."""
    if game.game != "cat-lady" or not participants:
        return None
    if not all(
        all(p.result.get(key) is not None for key, _ in _CAT_LADY_PAD) for p in participants
    ):
        return None
    return [(label, [p.result[key] for p in participants]) for key, label in _CAT_LADY_PAD]


@login_required
def log_game(request: HttpRequest) -> HttpResponse:
    leagues = loggable_leagues(_you(request))
    context: dict[str, Any] = {"step": "league"}
    if not leagues.exists():
        return render(request, "league/result_entry.html", {"step": "no-league"}, status=403)
    league = None
    slug = request.GET.get("league")
    if slug:
        league = leagues.filter(slug=slug).first()
        if league is None:
            if League.objects.filter(slug=slug).exists() and can_view(
                League.objects.get(slug=slug), request.user
            ):
                return render(
                    request,
                    "league/result_entry.html",
                    {"step": "not-member", "league": League.objects.get(slug=slug)},
                    status=403,
                )
            raise Http404("No such league.")
    elif leagues.count() == 1:
        league = leagues.first()
    if league is None:
        context["league_form"] = LeagueChoiceForm(leagues=leagues)
        return render(request, "league/result_entry.html", context)
    return result_form(request, Entry(league=league, here=reverse("league:result-entry")))


def _organised_game(request: HttpRequest, slug: str, game_id: int) -> tuple[League, Game]:
    league = visible_league(request.user, slug)
    game = get_object_or_404(Game, pk=game_id, league=league)
    if not can_organise(league, request.user):
        raise PermissionDenied("Only this league's organisers may correct or delete its games.")
    return league, game


@login_required
def game_edit(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    league, game = _organised_game(request, slug, game_id)
    here = reverse("league:game-edit", args=[league.slug, game.pk])
    return result_form(request, Entry(league=league, here=here, editing=game))


@login_required
@require_http_methods(["GET", "POST"])
def game_delete(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    league, game = _organised_game(request, slug, game_id)
    if request.method == "POST":
        result_services.game_delete(game=game, by=_you(request))
        messages.success(request, "Game deleted and ratings rebuilt.")
        return redirect("league:detail", slug=league.slug)
    return render(request, "league/game_delete.html", {"league": league, "game": game})


# --- confirmation -----------------------------------------------------------------------------


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label="What is wrong?",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="The organisers read this and correct, confirm or delete the game.",
    )


class ResolveForm(forms.Form):
    note = forms.CharField(label="Note (optional)", max_length=2000, required=False)


@dataclass(frozen=True)
class ConfirmationState:
    """What the game page shows about a result's confirmation, and what this visitor may do."""

    game: Game
    confirmed_by: list[str]
    may_confirm: bool
    may_dispute: bool
    dispute: GameDispute | None
    may_resolve: bool
    dispute_form: DisputeForm
    resolve_form: ResolveForm


def state_for(request, game: Game, *, organiser: bool, member: bool) -> ConfirmationState | None:
    """None for a confirmed game: its page says nothing about confirmation, so nothing is read.
    ``organiser`` and ``member``: the visitor's role in the game's league (the page knows);
    the game's participants are read with their players (`result_selectors.game_detail` has them)."""
    if game.status == Game.Status.CONFIRMED:
        return None
    user = request.user
    waiting = game.status == Game.Status.PENDING
    # Only current members who played (or an organiser) dispute: the service's rule.
    participant = (
        user.is_authenticated
        and member
        and any(p.player.user_id == user.pk for p in game.participants.all())
    )
    already = user.is_authenticated and game.confirmations.filter(user=user).exists()
    dispute = (
        game.disputes.filter(resolved_at__isnull=True).select_related("raised_by__player").first()
    )
    return ConfirmationState(
        game=game,
        confirmed_by=result_selectors.confirmed_by(game=game),
        may_confirm=waiting
        and not already
        and (organiser or (user.is_authenticated and user.pk in checks.confirmers(game))),
        may_dispute=waiting and (participant or organiser),
        dispute=dispute,
        may_resolve=organiser and dispute is not None,
        dispute_form=DisputeForm(),
        resolve_form=ResolveForm(),
    )


def _game(request, slug: str, game_id: int) -> Game:
    league = get_object_or_404(League, slug=slug)
    if not can_view(league, request.user):
        raise Http404("No such league.")
    return get_object_or_404(Game, pk=game_id, league=league)


def _report(request, exc: ValidationError | PermissionDenied) -> None:
    # A refusal comes back to the game's page as a message: the page offers these buttons only
    # to who may use them, so a refusal means the page was out of date (removed meanwhile).
    for message in exc.messages if isinstance(exc, ValidationError) else [str(exc)]:
        messages.error(request, message)


@login_required
@require_POST
def confirm(request, slug, game_id):
    game = _game(request, slug, game_id)
    try:
        game = confirmation.game_confirm(game=game, by=request.user)
    except (ValidationError, PermissionDenied) as exc:
        _report(request, exc)
    else:
        messages.success(
            request,
            "Confirmed: the game is rated."
            if game.status == Game.Status.CONFIRMED
            else "Confirmed: the game still waits for the other players.",
        )
    return redirect("league:game", slug=slug, game_id=game_id)


@login_required
@require_POST
def dispute(request, slug, game_id):
    game = _game(request, slug, game_id)
    form = DisputeForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Say what is wrong with this result.")
        return redirect("league:game", slug=slug, game_id=game_id)
    try:
        confirmation.game_dispute(game=game, by=request.user, reason=form.cleaned_data["reason"])
    except (ValidationError, PermissionDenied) as exc:
        _report(request, exc)
    else:
        messages.success(request, "Disputed: the organisers will settle it.")
    return redirect("league:game", slug=slug, game_id=game_id)


@login_required
@require_POST
def games_confirm(request: HttpRequest) -> HttpResponse:
    """An organiser confirms the games they ticked in the list waiting for them (account page)."""
    back = reverse("accounts:home") + "#waiting"
    ids = [raw for raw in request.POST.getlist("games") if raw.isascii() and raw.isdigit()]
    visible = League.objects.visible_to(request.user)
    games = list(
        Game.objects.filter(pk__in=[int(raw) for raw in ids][:500], league__in=visible)
        .select_related("league")
        .order_by("played_on", "id")
    )
    if not games:
        messages.error(request, "Tick the games to confirm first.")
        return redirect(back)
    try:
        done = confirmation.games_confirm_many(games=games, by=_you(request))
    except (ValidationError, PermissionDenied) as exc:
        _report(request, exc)
    else:
        count = len(done.confirmed)
        messages.success(request, f"{count} game{'s' if count != 1 else ''} confirmed and rated.")
    return redirect(back)


@login_required
@require_POST
def resolve(request, slug, dispute_id):
    league = get_object_or_404(League, slug=slug)
    if not can_organise(league, request.user):
        raise PermissionDenied("Only this league's organisers settle disputes.")
    dispute_row = get_object_or_404(GameDispute, pk=dispute_id, league=league)
    form = ResolveForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    delete = request.POST.get("action") == "delete"
    game_id = dispute_row.game_id
    try:
        confirmation.dispute_resolve(dispute=dispute_row, by=request.user, delete=delete, note=note)
    except ValidationError as exc:
        _report(request, exc)
    else:
        messages.success(
            request, "Game deleted and ratings rebuilt." if delete else "Game confirmed and rated."
        )
        if delete or game_id is None:
            return redirect("league:detail", slug=slug)
    if game_id is None:
        return redirect("league:detail", slug=slug)
    return redirect("league:game", slug=slug, game_id=game_id)
