"""Forms of the game-night pages. They parse input; `league.nights.services` holds the rules, whose
errors come back beside these fields."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils import timezone

from league.catalogue import get_game
from league.models import GameNight, League, Player
from league.nights.services import MAX_ROUNDS


class NightOpenForm(forms.Form):
    played_on = forms.DateField(
        label="Date", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    edition = forms.ChoiceField(label="Edition", widget=forms.RadioSelect)
    rounds = forms.IntegerField(
        label="Rounds",
        min_value=1,
        max_value=MAX_ROUNDS,
        initial=3,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    min_table = forms.IntegerField(
        label="Smallest table",
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text="Empty: what the edition allows.",
    )
    max_table = forms.IntegerField(
        label="Largest table",
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text="Empty: what the edition allows (fewer copies of the game? Narrow it).",
    )
    first_round = forms.ChoiceField(
        label="First round",
        choices=GameNight.FirstRound.choices,
        initial=GameNight.FirstRound.RATING,
        widget=forms.RadioSelect,
        help_text="Later rounds are Swiss-style: tonight's points, keeping tablemates apart.",
    )
    place = forms.CharField(label="Where", max_length=120, required=False)
    present = forms.ModelMultipleChoiceField(
        label="Who is here",
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Guests and late arrivals can be added on the night's page.",
    )

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        game = get_game(league.game)
        edition = cast(forms.ChoiceField, self.fields["edition"])
        edition.choices = [
            (e.key, f"{e.label} ({e.min_players}–{e.max_players} a table)")
            for e in game.editions
            if e.max_players >= 2
        ]
        edition.initial = game.editions[0].key
        self.fields["played_on"].initial = timezone.localdate()
        present = cast(forms.ModelMultipleChoiceField, self.fields["present"])
        present.queryset = Player.objects.filter(memberships__league=league).order_by("name")


class ArrivalForm(forms.Form):
    player = forms.ModelChoiceField(
        label="A member arrived", queryset=Player.objects.none(), empty_label="Choose who"
    )

    def __init__(self, *args, night: GameNight, **kwargs):
        super().__init__(*args, **kwargs)
        here = night.attendees.values_list("player_id", flat=True)
        player = cast(forms.ModelChoiceField, self.fields["player"])
        player.queryset = (
            Player.objects.filter(memberships__league=night.league)
            .exclude(pk__in=here)
            .order_by("name")
        )
