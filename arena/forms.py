"""Forms of the arena pages: a new bot, a new version. They only read the input; the checks
that make a bot acceptable live in ``arena.services`` and come back as field errors."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError

from arena.models import BotVersion, Tournament
from arena.runner import MAX_BOT_BYTES
from arena.services import SeatInput, game_label
from engine import PlaySetup, play_setups, registered_games
from engine.registry import DEFAULT_GAME
from engine.strategies import names as strategy_names

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.forms.boundfield import BoundField

BOT_FILE_HELP = (
    f"One Python file (standard library only), at most {MAX_BOT_BYTES // 1024} KiB, defining "
    "choose(observation, legal_actions). It is checked, then plays a validation match "
    "against the house bot before it joins the ladders."
)


class BotFileField(forms.FileField):
    """Reads the uploaded file's bytes, one byte past the limit so the service can say how
    big is too big without reading a huge upload into memory."""

    def clean(self, data: Any, initial: Any = None) -> bytes | None:
        upload = super().clean(data, initial)
        if upload is None:
            return None
        upload.seek(0)
        head: bytes = upload.read(MAX_BOT_BYTES + 1)  # the stubs type File.read as Any
        return head


class VersionUploadForm(forms.Form):
    file = BotFileField(
        label="Bot file",
        help_text=BOT_FILE_HELP,
        widget=forms.ClearableFileInput(attrs={"accept": ".py,text/x-python"}),
    )

    def apply_service_errors(self, error: ValidationError) -> None:
        _apply_service_errors(self, error)


def _apply_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Put a service's refusal beside the field it is about (the source is the file)."""
    for key, messages in error.message_dict.items():
        field_name = {"source": "file"}.get(key, key)
        for message in messages:
            form.add_error(field_name if field_name in form.fields else None, message)


def _choice_field(form: forms.Form, name: str) -> forms.ChoiceField:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)  # declared as one on the form's class
    return field


def game_choices() -> list[tuple[str, str]]:
    """Every game the engine plays, labelled as on the ladders (a demo deck says so)."""
    names = sorted({name for name, _ in registered_games()}, key=lambda n: n != DEFAULT_GAME)
    return [(name, game_label(name)) for name in names]


class BotCreateForm(VersionUploadForm):
    name = forms.SlugField(
        label="Name",
        max_length=60,
        help_text="Letters, digits, hyphens and underscores; shown on the ladders.",
    )
    game = forms.ChoiceField(
        label="Game",
        choices=game_choices,
        initial="cat-lady",
        required=False,  # Cat Lady when not given
        help_text="The game the bot plays: its validation match, ladders and challenges.",
    )
    description = forms.CharField(
        label="Description",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    field_order = ["name", "game", "description", "file"]


# --- challenges and tournaments ------------------------------------------------------------

MAX_SEATS = 6
HOUSE_PREFIX = "house:"
VERSION_PREFIX = "version:"


def _version_label(version: BotVersion, user: User) -> str:
    who = "yours" if version.bot.owner_id == user.pk else f"by {version.bot.owner.username}"
    return f"{version.bot.name} v{version.number} ({who}, {version.bot.game})"


def seat_choices(user: User, versions: list[BotVersion]) -> list[tuple[str, Any]]:
    houses = [
        (f"{HOUSE_PREFIX}{game}:{name}", f"House bot: {name} ({game})")
        for game, _ in sorted(registered_games())
        for name in strategy_names(game)
    ]
    mine = [
        (f"{VERSION_PREFIX}{v.pk}", _version_label(v, user))
        for v in versions
        if v.bot.owner_id == user.pk
    ]
    others = [
        (f"{VERSION_PREFIX}{v.pk}", _version_label(v, user))
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

    def __init__(self, *args: Any, user: User, versions: list[BotVersion], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.versions = {v.pk: v for v in versions}
        _choice_field(self, "edition").choices = [("", "The game's default")] + [
            (s.edition, s.label.rsplit(",", 1)[0]) for s in _unique_editions() if s.playable
        ]
        choices = seat_choices(user, versions)
        for number in range(1, MAX_SEATS + 1):
            self.fields[f"seat{number}"] = forms.ChoiceField(
                label=f"Seat {number}",
                choices=choices,
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
                        f"{name} is a {house_game} house bot; this match plays {game}.",
                    )
                seats.append((f"seat{number}", SeatInput(builtin=name)))
            else:
                version = self.versions.get(int(value.removeprefix(VERSION_PREFIX)))
                if version is None:
                    self.add_error(f"seat{number}", "That bot version is not active any more.")
                    continue
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


def _unique_editions() -> list[PlaySetup]:
    seen: dict[str, PlaySetup] = {}
    for setup in play_setups():
        seen.setdefault(setup.edition, setup)
    return list(seen.values())


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
        _choice_field(self, "entrants").choices = [
            (str(v.pk), _version_label(v, user)) for v in versions
        ]

    def entrant_versions(self) -> list[BotVersion]:
        return [self.versions[int(pk)] for pk in self.cleaned_data["entrants"]]

    def apply_service_errors(self, error: ValidationError) -> None:
        _apply_service_errors(self, error)


class PlayForm(forms.Form):
    """A live match: the game, the number of players, your seat and who fills the others.

    Opponent choices are ``house:<game>:<name>`` or ``v:<version id>`` (``arena.selectors``); the
    service checks they play the chosen game and are active."""

    game = forms.ChoiceField(label="Game", choices=game_choices, initial="cat-lady")
    players = forms.IntegerField(label="Players", min_value=2, max_value=6, initial=2)
    seat = forms.ChoiceField(
        label="Your seat",
        initial="1",
        choices=[("random", "Any seat (drawn at random)")]
        + [(str(n), f"Seat {n}") for n in range(1, 7)],
        help_text="Seat 1 moves first.",
    )
    opponent_1 = forms.ChoiceField(label="Opponent 1", required=False)
    opponent_2 = forms.ChoiceField(label="Opponent 2", required=False)
    opponent_3 = forms.ChoiceField(label="Opponent 3", required=False)
    opponent_4 = forms.ChoiceField(label="Opponent 4", required=False)
    opponent_5 = forms.ChoiceField(label="Opponent 5", required=False)
    OPPONENTS = ("opponent_1", "opponent_2", "opponent_3", "opponent_4", "opponent_5")

    def __init__(
        self, *args: Any, opponents: dict[str, list[tuple[str, str]]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        grouped = [("", "—")] + [(game_label(game), choices) for game, choices in opponents.items()]
        for name in self.OPPONENTS:
            _choice_field(self, name).choices = grouped
        self.game_of = {value: game for game, choices in opponents.items() for value, _ in choices}

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean returns
        players, game = data.get("players"), data.get("game")
        if players is None or game is None:
            return data
        wanted = self.OPPONENTS[: players - 1]
        for name in wanted:
            value = data.get(name)
            if not value:
                self.add_error(name, "Choose who plays this seat.")
            elif self.game_of.get(value) != game:
                self.add_error(name, "This bot plays another game.")
        for name in self.OPPONENTS[players - 1 :]:
            data[name] = ""
        if data.get("seat") not in (None, "random") and int(data["seat"]) > players:
            self.add_error("seat", f"Choose a seat from 1 to {players}.")
        return data
