"""The games a league can record, what a result holds, and how results turn into ranks.

Pure Python (no ORM): each game validates one table's results and ranks the players.
Ranks are competition ranks: players who stay tied after every tie-break share a rank
and the next rank is skipped (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import load_edition


class ResultError(ValueError):
    """Results that cannot be recorded. `errors` maps a field path to its messages."""

    def __init__(self, errors: Mapping[str, list[str]]):
        self.errors = {key: list(messages) for key, messages in errors.items()}
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in self.errors.items()))


# No table game scores anywhere near this; it keeps every number a database integer can hold.
RESULT_NUMBER_LIMIT = 100_000


@dataclass(frozen=True)
class ResultField:
    name: str
    label: str
    kind: str  # "int" | "bool" | "choice"
    required: bool = True
    minimum: int | None = 0
    choices: tuple[str, ...] = ()
    help: str = ""

    def parse(self, raw: Any, path: str, errors: dict[str, list[str]]) -> Any:
        if raw is None or raw == "":
            if self.required:
                errors.setdefault(path, []).append(f"{self.label} is required.")
            return None
        if self.kind == "int":
            if isinstance(raw, bool) or not isinstance(raw, int | str):
                errors.setdefault(path, []).append(f"{self.label} must be a whole number.")
                return None
            try:
                value = int(raw)
            except (TypeError, ValueError):
                errors.setdefault(path, []).append(f"{self.label} must be a whole number.")
                return None
            if self.minimum is not None and value < self.minimum:
                errors.setdefault(path, []).append(
                    f"{self.label} cannot be less than {self.minimum}."
                )
                return None
            if abs(value) > RESULT_NUMBER_LIMIT:
                errors.setdefault(path, []).append(
                    f"{self.label} must be between -{RESULT_NUMBER_LIMIT} and {RESULT_NUMBER_LIMIT}."
                )
                return None
            return value
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            errors.setdefault(path, []).append(f"{self.label} must be true or false.")
            return None
        if self.kind == "choice":
            if raw in self.choices:
                return raw
            errors.setdefault(path, []).append(
                f"{self.label} must be one of: {', '.join(self.choices)}."
            )
            return None
        raise AssertionError(f"unknown field kind {self.kind}")


@dataclass(frozen=True)
class Edition:
    key: str
    label: str
    min_players: int
    max_players: int
    rated: bool = True
    # The engine's card data for this edition (engine/catlady/data/catlady-<name>.json), if it has one:
    # its status (complete / incomplete / placeholder) is shown wherever the edition is.
    card_data: str | None = None

    def card_data_status(self) -> str | None:
        if self.card_data is None:
            return None
        return load_edition(self.card_data).status


@dataclass(frozen=True)
class GameType:
    key: str
    name: str
    editions: tuple[Edition, ...]
    fields: tuple[ResultField, ...]
    game_fields: tuple[ResultField, ...] = ()
    # Checks a whole table and returns each player's rank, in input order.
    rank: Callable[[Sequence[dict[str, Any]], dict[str, Any], str], list[int]] = field(
        default=lambda results, game, edition: [1] * len(results)
    )
    validate: Callable[
        [Sequence[dict[str, Any]], dict[str, Any], str, dict[str, list[str]]], None
    ] = field(default=lambda results, game, edition, errors: None)

    def edition(self, key: str) -> Edition:
        for edition in self.editions:
            if edition.key == key:
                return edition
        raise KeyError(key)

    def describe(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "editions": [
                {
                    "key": e.key,
                    "label": e.label,
                    "min_players": e.min_players,
                    "max_players": e.max_players,
                    "rated": e.rated,
                    "card_data": e.card_data,
                    "card_data_status": e.card_data_status(),
                }
                for e in self.editions
            ],
            "result_fields": [_describe_field(f) for f in self.fields],
            "game_fields": [_describe_field(f) for f in self.game_fields],
        }


def _describe_field(f: ResultField) -> dict[str, Any]:
    described: dict[str, Any] = {
        "name": f.name,
        "label": f.label,
        "type": f.kind,
        "required": f.required,
    }
    if f.kind == "int" and f.minimum is not None:
        described["minimum"] = f.minimum
    if f.choices:
        described["choices"] = list(f.choices)
    if f.help:
        described["help"] = f.help
    return described


def competition_ranks(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    """Rank by descending key; equal keys share a rank (1, 1, 3).

    >>> competition_ranks([(10,), (12,), (10,)])
    [2, 1, 2]
    """
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    ranks = [0] * len(keys)
    for position, index in enumerate(order):
        if position and keys[order[position - 1]] == keys[index]:
            ranks[index] = ranks[order[position - 1]]
        else:
            ranks[index] = position + 1
    return ranks


# --- Cat Lady ---------------------------------------------------------------------------

CAT_LADY_CATEGORIES = (
    "fed_cats_vp",
    "toys_vp",
    "costumes_vp",
    "catnip_vp",
    "vp_tokens_vp",
    "food_penalty_vp",
)


def _cat_lady_validate(
    results: Sequence[dict[str, Any]],
    game: dict[str, Any],
    edition: str,
    errors: dict[str, list[str]],
) -> None:
    for index, result in enumerate(results):
        given = [name for name in CAT_LADY_CATEGORIES if result.get(name) is not None]
        if given and len(given) != len(CAT_LADY_CATEGORIES):
            missing = [name for name in CAT_LADY_CATEGORIES if result.get(name) is None]
            # The form's words (Toys VP), not the result's keys (toys_vp).
            labels = {f.name: f.label for f in CAT_LADY.fields}
            errors.setdefault(f"participants.{index}.{missing[0]}", []).append(
                "Give all six score-pad categories or none of them (missing: "
                + ", ".join(labels[name] for name in missing)
                + ")."
            )
        elif given and result.get("total_vp") is not None:
            category_sum = sum(int(result[name]) for name in CAT_LADY_CATEGORIES)
            if category_sum != result["total_vp"]:
                errors.setdefault(f"participants.{index}.total_vp", []).append(
                    f"The score-pad categories add up to {category_sum}, not {result['total_vp']}."
                )
        if result.get("food_penalty_vp") is not None and result["food_penalty_vp"] not in (0, -2):
            errors.setdefault(f"participants.{index}.food_penalty_vp", []).append(
                "The food penalty is 0 or -2."
            )
    totals = [r.get("total_vp") for r in results]
    if any(t is None for t in totals):
        return
    for index, result in enumerate(results):
        tied = [i for i, t in enumerate(totals) if t == totals[index] and i != index]
        if tied and result.get("fed_cats") is None:
            errors.setdefault(f"participants.{index}.fed_cats", []).append(
                "Fed cats is needed to break the tie on total VP."
            )
    if edition == "solitaire" and game.get("cat_player_vp") is None:
        errors.setdefault("details.cat_player_vp", []).append(
            "The cat player's VP is required in a solitaire game."
        )


def _cat_lady_rank(
    results: Sequence[dict[str, Any]], game: dict[str, Any], edition: str
) -> list[int]:
    if edition == "solitaire":
        # Solitaire: "you must gain more VP than the cat player in order to win".
        return [1 if r["total_vp"] > game["cat_player_vp"] else 2 for r in results]
    return competition_ranks([(r["total_vp"], r.get("fed_cats") or 0) for r in results])


CAT_LADY = GameType(
    key="cat-lady",
    name="Cat Lady",
    editions=(
        Edition("base", "Base game", 2, 4, card_data="base"),
        Edition("premium", "Premium edition", 2, 4, card_data="premium"),
        Edition("box-of-treats", "With Box of Treats", 2, 6, card_data="box-of-treats"),
        Edition("solitaire", "Solitaire (against the cat player)", 1, 1, rated=False),
    ),
    fields=(
        ResultField("total_vp", "Total VP", "int", minimum=None),
        ResultField(
            "fed_cats",
            "Fed cats",
            "int",
            required=False,
            help="Needed when total VP ties: the tie-break.",
        ),
        ResultField("fed_cats_vp", "Fed cats VP", "int", required=False, minimum=None),
        ResultField("toys_vp", "Toys VP", "int", required=False),
        ResultField("costumes_vp", "Costumes VP", "int", required=False, minimum=None),
        ResultField("catnip_vp", "Catnip VP", "int", required=False, minimum=None),
        ResultField("vp_tokens_vp", "VP tokens VP", "int", required=False),
        ResultField("food_penalty_vp", "Food penalty VP", "int", required=False, minimum=None),
    ),
    game_fields=(
        ResultField(
            "cat_player_vp",
            "Cat player's VP",
            "int",
            required=False,
            minimum=None,
            help="Solitaire only.",
        ),
    ),
    rank=_cat_lady_rank,
    validate=_cat_lady_validate,
)


# --- Cat Ladies of Maple St. ----------------------------------------------------------


def _maple_rank(results: Sequence[dict[str, Any]], game: dict[str, Any], edition: str) -> list[int]:
    # Most cats, then fewest turns, then most unused Mystery cards (FAQ), then shared.
    return competition_ranks(
        [(r["cats_collected"], -r["turns_taken"], r["unused_mystery_cards"]) for r in results]
    )


MAPLE_ST = GameType(
    key="cat-ladies-of-maple-st",
    name="Cat Ladies of Maple St.",
    editions=(Edition("standard", "Standard", 2, 4),),
    fields=(
        ResultField("cats_collected", "Cats collected", "int"),
        ResultField("turns_taken", "Turns taken", "int", minimum=1),
        ResultField("unused_mystery_cards", "Unused Mystery cards", "int"),
    ),
    rank=_maple_rank,
)


# --- Cantankerous Cats ------------------------------------------------------------------

WIN_MISCHIEF = "nine_mischief"
WIN_FERAL = "feral_victory"


def _cantankerous_validate(
    results: Sequence[dict[str, Any]],
    game: dict[str, Any],
    edition: str,
    errors: dict[str, list[str]],
) -> None:
    winners = [i for i, r in enumerate(results) if r.get("winner")]
    if len(winners) != 1:
        errors.setdefault("participants", []).append(
            f"Exactly one player wins a game of Cantankerous Cats ({len(winners)} marked as winner)."
        )
    for index, result in enumerate(results):
        how = result.get("win_type")
        if result.get("winner"):
            if how is None:
                errors.setdefault(f"participants.{index}.win_type", []).append(
                    "Say how the winner won."
                )
            elif how == WIN_FERAL and edition != "standard":
                errors.setdefault(f"participants.{index}.win_type", []).append(
                    "A Feral victory exists only in the Standard game."
                )
            elif (
                how == WIN_MISCHIEF
                and result.get("mischief_points") is not None
                and result["mischief_points"] < 9
            ):
                errors.setdefault(f"participants.{index}.mischief_points", []).append(
                    "A Mischief victory needs at least 9 Mischief points."
                )
        elif how is not None:
            errors.setdefault(f"participants.{index}.win_type", []).append(
                "Only the winner has a win type."
            )


def _cantankerous_rank(
    results: Sequence[dict[str, Any]], game: dict[str, Any], edition: str
) -> list[int]:
    return competition_ranks([(bool(r.get("winner")), r["mischief_points"]) for r in results])


CANTANKEROUS = GameType(
    key="cantankerous-cats",
    name="Cantankerous Cats",
    editions=(
        Edition("basic", "Basic game", 2, 6),
        Edition("standard", "Standard game", 2, 6),
    ),
    fields=(
        ResultField("winner", "Winner", "bool", required=False),
        ResultField(
            "win_type", "How they won", "choice", required=False, choices=(WIN_MISCHIEF, WIN_FERAL)
        ),
        ResultField("mischief_points", "Mischief points", "int"),
    ),
    rank=_cantankerous_rank,
    validate=_cantankerous_validate,
)


GAMES: dict[str, GameType] = {g.key: g for g in (CAT_LADY, MAPLE_ST, CANTANKEROUS)}
GAME_CHOICES = [(g.key, g.name) for g in GAMES.values()]


def get_game(key: str) -> GameType:
    try:
        return GAMES[key]
    except KeyError:
        raise ResultError({"game": [f"Unknown game {key!r}; known: {', '.join(GAMES)}."]}) from None


@dataclass(frozen=True)
class CheckedResults:
    results: list[dict[str, Any]]
    details: dict[str, Any]
    ranks: list[int]
    rated: bool


def check_results(
    game_key: str,
    edition_key: str,
    raw_results: Sequence[Mapping[str, Any]],
    raw_details: Mapping[str, Any] | None = None,
) -> CheckedResults:
    """Validate one table's results and rank it. Raises ResultError with every problem found.

    >>> check_results("cat-ladies-of-maple-st", "standard", [
    ...     {"cats_collected": 5, "turns_taken": 9, "unused_mystery_cards": 0},
    ...     {"cats_collected": 5, "turns_taken": 8, "unused_mystery_cards": 0}]).ranks
    [2, 1]
    """
    game = get_game(game_key)
    errors: dict[str, list[str]] = {}
    try:
        edition = game.edition(edition_key)
    except KeyError:
        raise ResultError(
            {
                "edition": [
                    f"{game.name} has no edition {edition_key!r}; "
                    f"choose from: {', '.join(e.key for e in game.editions)}."
                ]
            }
        ) from None
    count = len(raw_results)
    if not edition.min_players <= count <= edition.max_players:
        span = (
            str(edition.min_players)
            if edition.min_players == edition.max_players
            else f"{edition.min_players}–{edition.max_players}"
        )
        errors.setdefault("participants", []).append(
            f"{game.name} ({edition.label}) is played by {span} players, not {count}."
        )
    known = {f.name for f in game.fields}
    results: list[dict[str, Any]] = []
    for index, raw in enumerate(raw_results):
        unknown = sorted(set(raw) - known)
        for name in unknown:
            errors.setdefault(f"participants.{index}.{name}", []).append(
                f"{game.name} results have no field {name!r}."
            )
        results.append(
            {
                f.name: f.parse(raw.get(f.name), f"participants.{index}.{f.name}", errors)
                for f in game.fields
            }
        )
    details_raw = dict(raw_details or {})
    known_game = {f.name for f in game.game_fields}
    for name in sorted(set(details_raw) - known_game):
        errors.setdefault(f"details.{name}", []).append(
            f"{game.name} games have no field {name!r}."
        )
    details = {
        f.name: f.parse(details_raw.get(f.name), f"details.{f.name}", errors)
        for f in game.game_fields
        if details_raw.get(f.name) is not None or f.required
    }
    if not errors:
        game.validate(results, details, edition_key, errors)
    if errors:
        raise ResultError(errors)
    ranks = game.rank(results, details, edition_key)
    # Drop empty optional fields so stored results hold only what was given.
    compact = [{k: v for k, v in r.items() if v is not None} for r in results]
    return CheckedResults(results=compact, details=details, ranks=ranks, rated=edition.rated)
