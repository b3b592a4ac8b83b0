"""Forms of the organisers' pages: a new league, its settings, guests, invitations, seasons.
They parse input; the rules live in `league.clubs.services` and come back as field errors."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.text import slugify

from league.catalogue import GAME_CHOICES
from league.clubs.limits import CONFIRMATION_DAYS_RANGE, INITIAL_RATING_RANGE, K_FACTOR_RANGE
from league.models import League, Player
from league.rating_systems import ELO, SYSTEM_CHOICES

# What a page's service makes (a league, a season, a membership): never None.
Made = TypeVar("Made", bound=models.Model)

PROVISIONAL_GAMES_MAX = 100
# Addresses the league pages use themselves (/leagues/new/).
RESERVED_SLUGS = {"new"}


def apply_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Put a service's ValidationError beside the fields it names, the rest above the form."""
    for key, texts in error.message_dict.items():
        field = key if key in form.fields else None
        for text in texts:
            form.add_error(field, text)


def submit(form: forms.Form, save: Callable[[dict[str, Any]], Made]) -> Made | None:
    """The one shape of a page that writes through a service: what `save` made of the form's
    cleaned data if the form is valid. None when the form or the service refuses, with every
    error beside its field (`apply_service_errors`), for the page to be shown again."""
    if not form.is_valid():
        return None
    try:
        return save(form.cleaned_data)
    except ValidationError as exc:
        apply_service_errors(form, exc)
        return None


def refusals_said(request: HttpRequest, act: Callable[[], object]) -> bool:
    """Do `act` (a button with no form of its own: remove, close, promote); a service's refusal
    becomes an error message on the next page. True when it was done."""
    try:
        act()
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
        return False
    return True


class LeagueSettingsForm(forms.Form):
    name = forms.CharField(label="Name", max_length=120)
    description = forms.CharField(
        label="Description", required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    is_public = forms.BooleanField(
        label="Public",
        required=False,
        initial=True,
        help_text="Anyone can see a public league's standings and games; a private league only "
        "its members.",
    )
    provisional_games = forms.IntegerField(
        label="Provisional games",
        min_value=0,
        max_value=PROVISIONAL_GAMES_MAX,
        initial=5,
        help_text="Players with fewer rated games than this are marked provisional.",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    rating_system = forms.ChoiceField(
        label="Rating system",
        choices=SYSTEM_CHOICES,
        initial=ELO,
        required=False,  # left out: the league keeps its system (a new one uses Elo)
        help_text="Multiplayer Elo is the usual. OpenSkill also tracks how sure it is of each "
        "player and ranks on a cautious estimate (μ − 3σ), so newcomers start at 0 and climb. "
        "Changing it recomputes every rating of the league.",
    )

    def clean_rating_system(self) -> str | None:
        return self.cleaned_data.get("rating_system") or None


class LeagueSettingsPageForm(LeagueSettingsForm):
    """The settings page's form: the league's settings and how results become final."""

    confirmation = forms.ChoiceField(
        label="Results become final",
        choices=League.Confirmation.choices,
        initial=League.Confirmation.NONE,
        required=False,  # left out: the league keeps its rule
        widget=forms.RadioSelect,
        help_text="Waiting results are not rated until confirmed; a participant can dispute "
        "one instead, and an organiser settles it.",
    )
    confirmation_days = forms.IntegerField(
        label="Days to confirm",
        min_value=CONFIRMATION_DAYS_RANGE[0],
        max_value=CONFIRMATION_DAYS_RANGE[1],
        initial=7,
        required=False,
        help_text="A result nobody confirms or disputes in this time is confirmed automatically.",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def clean_confirmation(self) -> str | None:
        return self.cleaned_data["confirmation"] or None


class LeagueCreateForm(LeagueSettingsForm):
    slug = forms.SlugField(
        label="Web address",
        max_length=120,
        required=False,
        help_text="The league's address: /leagues/<em>this</em>/. Made from the name if empty.",
    )
    game = forms.ChoiceField(
        label="Game",
        choices=GAME_CHOICES,
        initial="cat-lady",
        help_text="Each game is logged with its edition.",
    )
    k_factor = forms.FloatField(
        label="K factor",
        min_value=K_FACTOR_RANGE[0],
        max_value=K_FACTOR_RANGE[1],
        initial=32,
        help_text="How far one game moves a rating (32 is usual). Fixed once games are rated.",
    )
    initial_rating = forms.FloatField(
        label="Starting rating",
        min_value=INITIAL_RATING_RANGE[0],
        max_value=INITIAL_RATING_RANGE[1],
        initial=1500,
    )
    field_order = [
        "name",
        "slug",
        "game",
        "description",
        "is_public",
        "k_factor",
        "initial_rating",
        "provisional_games",
        "rating_system",
    ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean returns
        if data.get("slug") in RESERVED_SLUGS:
            self.add_error("slug", f"{data['slug']!r} is reserved; choose another address.")
        if not data.get("slug") and data.get("name"):
            slug = slugify(data["name"])[:120]
            if not slug:
                self.add_error("slug", "Choose a web address: letters, digits and hyphens.")
            elif slug in RESERVED_SLUGS or League.objects.filter(slug=slug).exists():
                self.add_error("slug", f"The address {slug!r} is taken; choose another.")
            data["slug"] = slug
        return data


class GuestForm(forms.Form):
    name = forms.CharField(
        label="Guest's name",
        max_length=100,
        help_text="Someone without an account. They can claim this player later through an "
        "invitation, keeping their games.",
    )


class InvitationForm(forms.Form):
    player = forms.ModelChoiceField(
        label="For a guest (optional)",
        queryset=Player.objects.none(),
        required=False,
        empty_label="Anyone with the link",
        help_text="A link for one guest lets that person take over the guest and its games.",
    )
    email = forms.EmailField(
        label="Send it by e-mail to (optional)",
        required=False,
        max_length=254,
        help_text="We e-mail the link to this address. Leave it empty to copy the link and "
        "share it yourself.",
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args: Any, guests: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player = self.fields["player"]
        assert isinstance(player, forms.ModelChoiceField)  # declared as one above
        player.queryset = guests


class SeasonStartForm(forms.Form):
    name = forms.CharField(label="Season name", max_length=100)
    starts_on = forms.DateField(
        label="Starts on", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    ends_on = forms.DateField(
        label="Ends on",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text="You can close a season early.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Its own ids: the settings form on the same page also has a "name" field.
        kwargs.setdefault("auto_id", "id_season_%s")
        super().__init__(*args, **kwargs)
        today = timezone.localdate()
        self.fields["name"].initial = f"{today:%B %Y}"
        self.fields["starts_on"].initial = today
        self.fields["ends_on"].initial = today + dt.timedelta(days=90)
