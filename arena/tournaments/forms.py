"""The new-tournament form."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError

from arena.models import BotVersion, Tournament
from arena.web import MAX_SEATS, apply_service_errors, choice_field, version_label

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class TournamentForm(forms.Form):
    name = forms.CharField(label="Name", max_length=100)
    format = forms.ChoiceField(
        label="Format",
        choices=Tournament.Format.choices,
        initial=Tournament.Format.SWISS,
        help_text="Round robin plays every table once (one round); "
        "Swiss pairs neighbours in the standings each round.",
    )
    table_size = forms.IntegerField(
        label="Bots per table",
        min_value=2,
        max_value=MAX_SEATS,
        initial=2,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    rounds = forms.IntegerField(
        label="Rounds (Swiss)",
        min_value=1,
        max_value=20,
        initial=3,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    final_size = forms.IntegerField(
        label="Final table",
        min_value=0,
        max_value=MAX_SEATS,
        initial=0,
        help_text="The top this many play a final table after the rounds; 0 for none.",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    seed = forms.IntegerField(
        label="Seed",
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    entrants = forms.MultipleChoiceField(
        label="Entrants",
        widget=forms.CheckboxSelectMultiple,
        help_text="Active bot versions of one game.",
    )
    field_order = ["name", "format", "table_size", "rounds", "final_size", "seed", "entrants"]

    def __init__(self, *args: Any, user: User, versions: list[BotVersion], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.versions = {v.pk: v for v in versions}
        choice_field(self, "entrants").choices = [
            (str(v.pk), version_label(v, user)) for v in versions
        ]

    def entrant_versions(self) -> list[BotVersion]:
        return [self.versions[int(pk)] for pk in self.cleaned_data["entrants"]]

    def apply_service_errors(self, error: ValidationError) -> None:
        apply_service_errors(self, error)
