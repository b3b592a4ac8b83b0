"""The challenge form: seats (house bots and active versions), game and options."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError

from arena.common import SeatInput
from arena.models import BotVersion
from arena.web import (
    MAX_SEATS,
    GameTaggedSelect,
    choice_field,
    game_choices,
    game_name,
    house_bot_label,
    unique_editions,
    version_label,
)
from engine import registered_games
from engine.strategies import names as strategy_names

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.forms.boundfield import BoundField


HOUSE_PREFIX = "house:"


VERSION_PREFIX = "version:"


def seat_games(versions: list[BotVersion]) -> dict[str, str]:
    """Each seat choice's game, for the page script that offers only the chosen game's."""
    games = {
        f"{HOUSE_PREFIX}{game}:{name}": game
        for game, _ in registered_games()
        for name in strategy_names(game)
    }
    games.update({f"{VERSION_PREFIX}{v.pk}": v.bot.game for v in versions})
    return games


def seat_choices(
    user: User, versions: list[BotVersion], game: str | None = None
) -> list[tuple[str, Any]]:
    """Every seat a challenge may fill, grouped; only ``game``'s when it is given."""
    games = [game] if game else sorted({name for name, _ in registered_games()})
    versions = [v for v in versions if v.bot.game in games]
    houses = [
        (f"{HOUSE_PREFIX}{name_of_game}:{name}", house_bot_label(name_of_game, name))
        for name_of_game in games
        for name in strategy_names(name_of_game)
    ]
    mine = [
        (f"{VERSION_PREFIX}{v.pk}", version_label(v, user))
        for v in versions
        if v.bot.owner_id == user.pk
    ]
    others = [
        (f"{VERSION_PREFIX}{v.pk}", version_label(v, user))
        for v in versions
        if v.bot.owner_id != user.pk
    ]
    choices: list[tuple[str, Any]] = [("", "Empty seat")]
    if mine:
        choices.append(("Your bots", mine))
    choices.append(("House bots", houses))
    if others:
        choices.append(("Other people's bots", others))
    return choices


class ChallengeForm(forms.Form):
    """Two to six seats and the game's options; the seats' game must agree (the service says
    which seat does not)."""

    game = forms.ChoiceField(label="Game", choices=game_choices, initial="cat-lady")
    edition = forms.ChoiceField(
        label="Cat Lady edition",
        required=False,
        help_text="Unranked setups: the placeholder Box of Treats deck seats up to 6.",
    )
    shared_goals = forms.BooleanField(label="Shared goals (Cat Lady expansions)", required=False)
    solitaire = forms.BooleanField(
        label="Solitaire: one bot against the cat-player house bot in the second seat",
        required=False,
    )
    seed = forms.IntegerField(
        label="Seed",
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text="The same seed deals the same cards; empty for a random deal.",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(
        self,
        *args: Any,
        user: User,
        versions: list[BotVersion],
        offer_game: str | None = None,
        **kwargs: Any,
    ) -> None:
        """``offer_game``: offer only that game's bots (a page opened for one game); a posted
        form offers every game's, so that a mismatch gets its own message from ``clean``."""
        super().__init__(*args, **kwargs)
        self.versions = {v.pk: v for v in versions}
        choice_field(self, "edition").choices = [("", "The game's default")] + [
            (s.edition, s.label.rsplit(",", 1)[0]) for s in unique_editions() if s.playable
        ]
        choices = seat_choices(user, versions, None if self.is_bound else offer_game)
        games = seat_games(versions)
        for number in range(1, MAX_SEATS + 1):
            self.fields[f"seat{number}"] = forms.ChoiceField(
                label=f"Seat {number}",
                choices=choices,
                widget=GameTaggedSelect(games=games),
                required=number <= 2,
                error_messages={"required": "A match needs at least two seats."},
            )

    def seat_fields(self) -> list[BoundField]:
        return [self[f"seat{n}"] for n in range(1, MAX_SEATS + 1)]

    def option_fields(self) -> list[BoundField]:
        return [self["edition"], self["shared_goals"], self["solitaire"]]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean returns
        game = data.get("game")
        seats: list[tuple[str, SeatInput]] = []
        for number in range(1, MAX_SEATS + 1):
            value = data.get(f"seat{number}")
            if not value:
                continue
            if value.startswith(HOUSE_PREFIX):
                house_game, name = value.removeprefix(HOUSE_PREFIX).split(":", 1)
                if game and house_game != game:
                    self.add_error(
                        f"seat{number}",
                        f"{name} is a {game_name(house_game)} house bot; "
                        f"this match plays {game_name(game)}.",
                    )
                seats.append((f"seat{number}", SeatInput(builtin=name)))
            else:
                version = self.versions.get(int(value.removeprefix(VERSION_PREFIX)))
                if version is None:
                    self.add_error(f"seat{number}", "That bot version is not active any more.")
                    continue
                if game and version.bot.game != game:
                    self.add_error(
                        f"seat{number}",
                        f"{version.bot.name} plays {game_name(version.bot.game)}; "
                        f"this match plays {game_name(game)}.",
                    )
                seats.append((f"seat{number}", SeatInput(version=version)))
        if len(seats) < 2 and not self.has_error("seat1") and not self.has_error("seat2"):
            self.add_error("seat2", "A match needs at least two seats.")
        self.seat_names = [name for name, _ in seats]
        self.seats = [seat for _, seat in seats]
        return data

    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = {}
        if self.cleaned_data.get("edition"):
            options["edition"] = self.cleaned_data["edition"]
        if self.cleaned_data.get("shared_goals"):
            options["shared_goals"] = True
        if self.cleaned_data.get("solitaire"):
            options["solitaire"] = True
        return options

    def apply_service_errors(self, error: ValidationError) -> None:
        """``seats.2`` goes beside the third filled seat, option errors beside the edition."""
        for key, messages in error.message_dict.items():
            field_name: str | None = None
            if (
                key.startswith("seats.")
                and key[6:].isdigit()
                and int(key[6:]) < len(self.seat_names)
            ):
                field_name = self.seat_names[int(key[6:])]
            elif key == "seats":
                field_name = "seat1"
            elif key == "options":
                field_name = "edition"
            elif key in self.fields:
                field_name = key
            for message in messages:
                self.add_error(field_name, message)
