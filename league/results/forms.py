"""Forms of the result-entry pages: which game is being logged (setup), then the game itself.

The setup form is a GET form (league, edition, number of players, how results are entered);
the game form is one `GameForm` plus one `SeatForm` per player, built for that setup: the
league catalogue's result fields when totals are entered, the edition's cards, food and other
holdings when a Cat Lady table is scored by the engine.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from django import forms
from django.db.models import QuerySet
from django.forms.utils import flatatt
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from league.catalogue import Edition as CatalogueEdition
from league.catalogue import GameType, ResultField, get_game
from league.models import League, Player
from league.results import entry

if TYPE_CHECKING:
    from django.core.files.uploadedfile import UploadedFile
    from django.forms.boundfield import BoundField
    from django.forms.renderers import BaseRenderer
    from django.utils.datastructures import MultiValueDict
    from django.utils.safestring import SafeString

TOTALS = "totals"
_F = TypeVar("_F", bound=forms.Field)


class FastSelect(forms.Select):
    """A <select> written in Python: Django renders each <option> through a template, which
    takes about 50 ms for a league of 500 members in four seats."""

    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: BaseRenderer | None = None,
    ) -> SafeString:
        final = self.build_attrs(self.attrs, {**(attrs or {}), "name": name})
        chosen = "" if value is None else str(value)
        options = format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            (
                (key, mark_safe(" selected") if str(key) == chosen else "", label)
                for key, label in self.choices
            ),
        )
        return format_html("<select{}>{}</select>", flatatt(final), options)


CARDS_PREFIX = "cards:"


def _field(form: forms.Form, name: str, kind: type[_F]) -> _F:
    """The form's field ``name``, declared as a ``kind`` (which the stubs cannot tell)."""
    field = form.fields[name]
    assert isinstance(field, kind)
    return field


@dataclass(frozen=True)
class Setup:
    """What the game form is built for."""

    league: League
    game: GameType
    edition: CatalogueEdition
    players: int
    deck: entry.Deck | None  # None: totals are entered

    @property
    def mode(self) -> str:
        return TOTALS if self.deck is None else f"{CARDS_PREFIX}{self.deck.name}"

    def as_query(self) -> dict[str, str]:
        return {
            "league": self.league.slug,
            "edition": self.edition.key,
            "players": str(self.players),
            "mode": self.mode,
        }


class LeagueChoiceForm(forms.Form):
    league = forms.ModelChoiceField(
        queryset=League.objects.none(),
        to_field_name="slug",
        empty_label=None,
        widget=forms.RadioSelect,
        label="League",
        error_messages={"invalid_choice": "Choose one of the leagues you can log games in."},
    )

    def __init__(self, *args: Any, leagues: QuerySet[League], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _field(self, "league", forms.ModelChoiceField).queryset = leagues


def _deck_label(deck: entry.Deck) -> str:
    text = format_html("Cards and food, scored by the calculator — {}", deck.label)
    if deck.is_placeholder:
        text += format_html(' <span class="badge badge-placeholder">{}</span>', deck.status_note)
    return mark_safe(text)


def _edition_label(edition: CatalogueEdition) -> str:
    text = f"{edition.label} ({_span(edition)} players{'' if edition.rated else ', not rated'})"
    if edition.card_data_status() == "incomplete":
        # Totals from a real game are fine; only the card calculator needs the missing facts.
        text = format_html(
            '{} <span class="badge badge-placeholder">incomplete card data: enter totals</span>',
            text,
        )
    return text


class SetupForm(forms.Form):
    """League (fixed by the previous step), edition, number of players and how to enter results."""

    league = forms.CharField(widget=forms.HiddenInput)
    edition = forms.ChoiceField(label="Edition", widget=forms.RadioSelect)
    players = forms.IntegerField(label="Number of players")  # bounds set per game below
    mode = forms.ChoiceField(label="Results", widget=forms.RadioSelect)

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Not self.league: that name is the form's hidden field (the league's slug).
        self.chosen_league = league
        self.game = get_game(league.game)
        self.fields["league"].initial = league.slug
        _field(self, "edition", forms.ChoiceField).choices = [
            (e.key, _edition_label(e)) for e in self.game.editions
        ]
        self.fields["edition"].initial = self.game.editions[0].key
        low = min(e.min_players for e in self.game.editions)
        high = max(e.max_players for e in self.game.editions)
        self.fields["players"] = forms.IntegerField(
            label="Number of players",
            min_value=low,
            max_value=high,
            help_text=f"{low} to {high}, depending on the edition.",
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        self.fields["players"].initial = min(max(4, low), high)
        choices = [(TOTALS, "Each player's totals from the score pad")]
        self.decks: dict[str, entry.Deck] = {}
        if self.game.key == "cat-lady":
            for deck in entry.available_decks():
                self.decks[deck.name] = deck
                choices.append((f"{CARDS_PREFIX}{deck.name}", _deck_label(deck)))
            self.fields["mode"].help_text = (
                "With cards and food, the calculator works out every player's score and the "
                "best feeding, and shows the score pad before anything is saved."
            )
        _field(self, "mode", forms.ChoiceField).choices = choices
        self.fields["mode"].initial = f"{CARDS_PREFIX}base" if "base" in self.decks else TOTALS

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean returns
        edition_key, players, mode = data.get("edition"), data.get("players"), data.get("mode")
        if edition_key is None:
            return data
        edition = self.game.edition(edition_key)
        if players is not None and not edition.min_players <= players <= edition.max_players:
            self.add_error(
                "players", f"{edition.label} is played by {_span(edition)} players, not {players}."
            )
        if mode and mode.startswith(CARDS_PREFIX):
            deck = self.decks.get(mode.removeprefix(CARDS_PREFIX))
            if deck is None:
                self.add_error("mode", "That card data is not available.")
            elif not deck.playable:
                self.add_error(
                    "mode",
                    f"{deck.label} is {deck.status_note}: it cannot score a game yet. "
                    "Enter the totals instead.",
                )
            elif players is not None and players not in deck.supported_players:
                counts = ", ".join(map(str, deck.supported_players))
                self.add_error(
                    "mode",
                    f"The calculator's {deck.label} data scores games of {counts} players; "
                    "enter the totals for this game instead.",
                )
        return data

    def keep_table_setup(self) -> None:
        """A night's table: the edition and the number of players come with the table, so
        they travel as hidden fields and the page states them instead of asking."""
        self.fields["edition"].widget = forms.HiddenInput()
        self.fields["players"].widget = forms.HiddenInput()

    def table_setup_label(self) -> str:
        """ "Base game · 4 players": what a night's table was drawn for."""
        edition = self.game.edition(str(self["edition"].value()))
        players = self["players"].value()
        return f"{edition.label} · {players} player{'' if str(players) == '1' else 's'}"

    def setup(self) -> Setup:
        assert self.is_valid()
        mode = self.cleaned_data["mode"]
        return Setup(
            league=self.chosen_league,
            game=self.game,
            edition=self.game.edition(self.cleaned_data["edition"]),
            players=self.cleaned_data["players"],
            deck=self.decks[mode.removeprefix(CARDS_PREFIX)] if mode != TOTALS else None,
        )


def _span(edition: CatalogueEdition) -> str:
    if edition.min_players == edition.max_players:
        return str(edition.min_players)
    return f"{edition.min_players}–{edition.max_players}"


# --- the game itself -------------------------------------------------------------------------


def _catalogue_field(field: ResultField) -> forms.Field:
    """A Django form field for one of the league catalogue's result fields."""
    if field.kind == "int":
        return forms.IntegerField(
            min_value=field.minimum,
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            label=field.label,
            required=field.required,
            help_text=field.help,
        )
    if field.kind == "bool":
        return forms.BooleanField(label=field.label, required=False, help_text=field.help)
    if field.kind == "choice":
        return forms.TypedChoiceField(
            choices=[("", "—")] + [(c, c.replace("_", " ")) for c in field.choices],
            empty_value=None,
            label=field.label,
            required=field.required,
            help_text=field.help,
        )
    raise AssertionError(f"unknown field kind {field.kind}")


class GameForm(forms.Form):
    played_on = forms.DateField(
        label="Date played", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    played_time = forms.TimeField(
        label="Time",
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text="Optional; orders games played on the same day.",
    )
    place = forms.CharField(label="Where", max_length=120, required=False)
    notes = forms.CharField(label="Notes", required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, setup: Setup, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setup = setup
        self.fields["played_on"].initial = timezone.localdate()
        self.detail_names = []
        for field in setup.game.game_fields:
            if field.name == "cat_player_vp" and setup.edition.key != "solitaire":
                continue  # the cat player only exists in a solitaire game
            self.fields[field.name] = _catalogue_field(field)
            self.detail_names.append(field.name)

    def clean_played_on(self) -> dt.date:
        played_on: dt.date = self.cleaned_data["played_on"]
        if played_on > timezone.localdate():
            raise forms.ValidationError("A game cannot be played in the future.")
        return played_on

    def details(self) -> dict[str, Any]:
        return {
            name: self.cleaned_data[name]
            for name in self.detail_names
            if self.cleaned_data.get(name) is not None
        }


class SeatForm(forms.Form):
    """One player at the table: who, in which seat, and their result or their holdings."""

    player = forms.TypedChoiceField(label="Player", coerce=int, empty_value=None, widget=FastSelect)
    seat = forms.IntegerField(label="Seat")  # bounds set per table below

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        files: MultiValueDict[str, UploadedFile[Any]] | None = None,
        *,
        setup: Setup,
        index: int,
        members: list[Player],
        **kwargs: Any,
    ) -> None:
        super().__init__(data, files, prefix=f"seat{index + 1}", **kwargs)
        self.setup = setup
        self.index = index
        _field(self, "player", forms.ChoiceField).choices = [("", "Choose a player")] + [
            (p.pk, p.name) for p in members
        ]
        self.fields["seat"] = forms.IntegerField(
            label="Seat",
            min_value=1,
            max_value=setup.players,
            initial=index + 1,
            help_text="1 is the first player, then clockwise.",
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        self.result_names: list[str] = []
        self.count_fields: list[entry.CountField] = []
        if setup.deck is None:
            for field in setup.game.fields:
                self.fields[field.name] = _catalogue_field(field)
                self.result_names.append(field.name)
        else:
            edition = setup.deck.edition
            self.fields["cats"] = forms.MultipleChoiceField(
                label="Cats",
                required=False,
                choices=entry.cat_choices(edition),
                widget=forms.CheckboxSelectMultiple,
            )
            self.fields["strays"] = forms.MultipleChoiceField(
                label="Strays",
                required=False,
                choices=entry.stray_choices(edition),
                widget=forms.CheckboxSelectMultiple,
            )
            boxes = entry.box_choices(edition)
            if boxes:
                self.fields["boxes"] = forms.MultipleChoiceField(
                    label="Boxes",
                    required=False,
                    choices=boxes,
                    widget=forms.CheckboxSelectMultiple,
                    help_text="Box cards in front of this player.",
                )
            for f in entry.count_fields(edition):
                self.fields[f.key] = forms.IntegerField(
                    label=f.label,
                    min_value=0,
                    required=False,
                    initial=0,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0}),
                )
                self.count_fields.append(f)

    def grouped_counts(self) -> list[tuple[str, list[BoundField]]]:
        """The holdings' fields by group, for the template: food, toys, other cards."""
        titles = {"food": "Food tokens left", "toys": "Toys", "counts": "Other cards and tokens"}
        return [
            (titles[group], [self[f.key] for f in self.count_fields if f.group == group])
            for group in ("food", "toys", "counts")
            if any(f.group == group for f in self.count_fields)
        ]

    def result_fields(self) -> list[BoundField]:
        return [self[name] for name in self.result_names]

    def result(self) -> dict[str, Any]:
        """The seat's result fields as given: 0 is a value (a score-pad line of 0, no
        Mischief points); an empty field, or an unticked box, is left out."""
        return {
            name: value
            for name in self.result_names
            if (value := self.cleaned_data.get(name)) is not None and value is not False
        }

    def cards(self) -> dict[str, Any]:
        """What the calculator scores this seat from, as a correction reopens it
        (`initial_from_cards`)."""
        return {
            "cats": list(self.cleaned_data.get("cats") or []),
            "strays": list(self.cleaned_data.get("strays") or []),
            "boxes": list(self.cleaned_data.get("boxes") or []),
            "counts": {f.key: self.cleaned_data.get(f.key) or 0 for f in self.count_fields},
        }

    def holdings(self, name: str) -> entry.SeatHoldings:
        return entry.SeatHoldings(
            name=name,
            cats=self.cleaned_data.get("cats") or [],
            strays=self.cleaned_data.get("strays") or [],
            boxes=self.cleaned_data.get("boxes") or [],
            counts={f.key: self.cleaned_data.get(f.key) or 0 for f in self.count_fields},
        )


def initial_from_cards(cards: Mapping[str, Any]) -> dict[str, Any]:
    """A seat form's first values from the cards a game was scored with (`SeatForm.cards`)."""
    return {
        "cats": list(cards.get("cats", [])),
        "strays": list(cards.get("strays", [])),
        "boxes": list(cards.get("boxes", [])),
        **dict(cards.get("counts", {})),
    }
