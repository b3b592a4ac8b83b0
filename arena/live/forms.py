"""The form that starts a live match: game, the person's seat and the opponents."""

from __future__ import annotations

from typing import Any

from django import forms

from arena.common import game_label
from arena.web import choice_field, game_choices

FRIEND = "friend"  # an opponent's seat left for a friend (arena.live.company)


class PlayForm(forms.Form):
    """A live match: the game, the number of players, your seat and who fills the others.

    Opponent choices are ``house:<game>:<name>[:<strength>]`` or ``v:<version id>``
    (``arena.live.selectors``, ``arena.live.strength``); the service checks they play the chosen
    game and are active."""

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
    rated = forms.BooleanField(
        label="Rated",
        required=False,
        initial=True,
        help_text="A rated game counts in the pool below and stands as played. Untick it to "
        "practise: an unrated game changes no rating, and you may take back your moves.",
    )

    def __init__(
        self, *args: Any, opponents: dict[str, list[tuple[str, str]]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        grouped = [("", "—"), (FRIEND, "A friend (a link to send, or a guest on this device)")] + [
            (game_label(game), choices) for game, choices in opponents.items()
        ]
        for name in self.OPPONENTS:
            choice_field(self, name).choices = grouped
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
            elif value != FRIEND and self.game_of.get(value) != game:
                self.add_error(name, "This bot plays another game.")
        for name in self.OPPONENTS[players - 1 :]:
            data[name] = ""
        if data.get("seat") not in (None, "random") and int(data["seat"]) > players:
            self.add_error("seat", f"Choose a seat from 1 to {players}.")
        return data
