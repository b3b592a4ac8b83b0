"""Forms of the arena pages: a new bot, a new version. They only read the input; the checks
that make a bot acceptable live in ``arena.services`` and come back as field errors."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from arena.runner import MAX_BOT_BYTES
from arena.services import game_label
from engine import registered_games

BOT_FILE_HELP = (
    f"One Python file (standard library only), at most {MAX_BOT_BYTES // 1024} KiB, defining "
    "choose(observation, legal_actions). It is checked, then plays a validation match "
    "against the house bot before it joins the ladders."
)


class BotFileField(forms.FileField):
    """Reads the uploaded file's bytes, one byte past the limit so the service can say how
    big is too big without reading a huge upload into memory."""

    def clean(self, data, initial=None):
        upload = super().clean(data, initial)
        if upload is None:
            return None
        upload.seek(0)
        return upload.read(MAX_BOT_BYTES + 1)


class VersionUploadForm(forms.Form):
    file = BotFileField(
        label="Bot file",
        help_text=BOT_FILE_HELP,
        widget=forms.ClearableFileInput(attrs={"accept": ".py,text/x-python"}),
    )

    def apply_service_errors(self, error: ValidationError) -> None:
        """Put a service's refusal beside the field it is about (the source is the file)."""
        for key, messages in error.message_dict.items():
            field_name = {"source": "file"}.get(key, key)
            for message in messages:
                self.add_error(field_name if field_name in self.fields else None, message)


def game_choices() -> list[tuple[str, str]]:
    """Every game the engine plays, labelled as on the ladders (a demo deck says so)."""
    names = sorted({name for name, _ in registered_games()}, key=lambda n: n != "cat-lady")
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


class PlayForm(forms.Form):
    """A live match: the game, the number of players, your seat and who fills the others.

    Opponent choices are ``house:<game>:<name>`` or ``v:<version id>`` (``arena.selectors``); the
    service checks they play the chosen game and are active."""

    game = forms.ChoiceField(label="Game", choices=game_choices, initial="cat-lady")
    players = forms.IntegerField(label="Players", min_value=2, max_value=6, initial=2)
    seat = forms.ChoiceField(
        label="Your seat", initial="1",
        choices=[("random", "Any seat (drawn at random)")]
        + [(str(n), f"Seat {n}") for n in range(1, 7)],
        help_text="Seat 1 moves first.")
    opponent_1 = forms.ChoiceField(label="Opponent 1", required=False)
    opponent_2 = forms.ChoiceField(label="Opponent 2", required=False)
    opponent_3 = forms.ChoiceField(label="Opponent 3", required=False)
    opponent_4 = forms.ChoiceField(label="Opponent 4", required=False)
    opponent_5 = forms.ChoiceField(label="Opponent 5", required=False)
    OPPONENTS = ("opponent_1", "opponent_2", "opponent_3", "opponent_4", "opponent_5")

    def __init__(self, *args, opponents: dict[str, list[tuple[str, str]]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        grouped = [("", "—")] + [
            (game_label(game), choices) for game, choices in opponents.items()]
        for name in self.OPPONENTS:
            self.fields[name].choices = grouped
        self.game_of = {value: game for game, choices in opponents.items()
                        for value, _ in choices}

    def clean(self):
        data = super().clean()
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
        for name in self.OPPONENTS[players - 1:]:
            data[name] = ""
        if data.get("seat") not in (None, "random") and int(data["seat"]) > players:
            self.add_error("seat", f"Choose a seat from 1 to {players}.")
        return data
