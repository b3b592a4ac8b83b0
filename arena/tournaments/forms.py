"""The new-tournament form."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError

from arena.models import BotVersion, Tournament
from arena.tournaments.services import house_entrant_names
from arena.web import (
    MAX_SEATS,
    GameTaggedCheckboxes,
    apply_service_errors,
    choice_field,
    game_choices,
    game_name,
    house_bot_label,
    version_label,
)
from engine.registry import DEFAULT_GAME

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def house_choices() -> tuple[list[tuple[str, str]], dict[str, str]]:
    """Every game's house bots that may enter (``<game>:<name>``), and each one's game."""
    games = [name for name, _ in game_choices()]
    choices = [
        (f"{game}:{name}", house_bot_label(game, name))
        for game in games
        for name in house_entrant_names(game)
    ]
    return choices, {value: value.split(":", 1)[0] for value, _ in choices}


class TournamentForm(forms.Form):
    name = forms.CharField(label="Name", max_length=100)
    game = forms.ChoiceField(
        label="Game",
        choices=game_choices,
        initial=DEFAULT_GAME,
        required=False,  # the bots' game when not given
        help_text="Every entrant plays this game.",
    )
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
        label="Bots",
        required=False,
        help_text="Active bot versions of the game.",
    )
    house_entrants = forms.MultipleChoiceField(
        label="House bots",
        required=False,
        help_text="The arena's own bots play too, each in its own seats.",
    )
    field_order = [
        "name",
        "game",
        "format",
        "table_size",
        "rounds",
        "final_size",
        "seed",
        "entrants",
        "house_entrants",
    ]

    def __init__(self, *args: Any, user: User, versions: list[BotVersion], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.versions = {v.pk: v for v in versions}
        entrants = choice_field(self, "entrants")
        entrants.choices = [(str(v.pk), version_label(v, user)) for v in versions]
        entrants.widget = GameTaggedCheckboxes(games={str(v.pk): v.bot.game for v in versions})
        entrants.widget.choices = entrants.choices
        houses, house_games = house_choices()
        house = choice_field(self, "house_entrants")
        house.choices = houses
        house.widget = GameTaggedCheckboxes(games=house_games)
        house.widget.choices = houses

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        game = data.get("game")
        if game:
            others = [
                self.versions[int(pk)].bot.name
                for pk in data.get("entrants", [])
                if self.versions[int(pk)].bot.game != game
            ]
            if others:
                self.add_error("entrants", f"Not {game_name(game)} bots: {', '.join(others)}.")
            houses = [v for v in data.get("house_entrants", []) if not v.startswith(f"{game}:")]
            if houses:
                self.add_error(
                    "house_entrants",
                    f"Choose {game_name(game)}'s house bots "
                    f"(not {', '.join(v.replace(':', ' ') for v in houses)}).",
                )
        if not data.get("entrants") and not data.get("house_entrants"):
            self.add_error("entrants", "Entrants are required: choose bots, house bots or both.")
        return data

    def entrant_versions(self) -> list[BotVersion]:
        return [self.versions[int(pk)] for pk in self.cleaned_data["entrants"]]

    def house_entrant_names(self) -> list[str]:
        return [value.split(":", 1)[1] for value in self.cleaned_data["house_entrants"]]

    def apply_service_errors(self, error: ValidationError) -> None:
        apply_service_errors(self, error)
