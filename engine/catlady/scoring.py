"""End-of-game scoring for Cat Lady, with each player's feeding chosen optimally.

Score-pad order (Premium score pad): fed cats, toys, costumes, catnip, VP tokens, food penalty.
Winner: most VP, then most fed cats, then shared.

How feeding is chosen (see docs/scoring.md for the long form):

1. For each player, :func:`engine.catlady.feeding.feeding_options` lists every Pareto-optimal feeding
   over (VP before cross-player terms, fed cats, leftover food), with what Hemingway would add.
2. Two terms depend on the other players: the most-leftover-food penalty and Hemingway's
   "strictly most fed cats". Start from each player's best own-VP option, then let players in
   seat order switch to their best response (own total, then fed cats, then less leftover;
   switching only on a strict improvement) until nobody switches. The search stops after
   ``engine.catlady.scorepad.MAX_ROUNDS`` rounds; if it has not settled, the last profile is used and the result says
   ``feeding_settled: false``.

>>> from engine.catlady.cards import load_edition
>>> score = score_game([Tableau("Kat", cats=("Bronte",), food={"tuna": 2}, costumes=1),
...                     Tableau("Julie", cats=(), food={"milk": 1})], edition=load_edition())
>>> [(p.name, p.total, p.rank) for p in score.players]
[('Kat', 9, 1), ('Julie', -4, 2)]
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache, partial
from typing import Any

from engine.catlady.cards import CardKind, CatSpec, Edition, ScoringConstants, normalise_name
from engine.catlady.feeding import FeedingOption, allocate_tokens, feeding_options
from engine.catlady.model import SHOPPING_BAG_FOOD
from engine.catlady.scorepad import (
    _BOX_OF_TREATS_COUNT_FIELDS,
    _COUNT_FIELDS,
    BREAKDOWN,
    BREAKDOWN_LABELS,
    DEFAULT_RULES,
    CatFeeding,
    GameScore,
    Plates,
    PlayerScore,
    ScoringRules,
    Tableau,
    pays_leftover_penalty,
    penalised_seats,
    ranks,
    settle,
    starting_effects,
    toy_sets_vp,
    with_starting_cards,
)
from engine.catlady.scoring_expansion import SharedGoal, needs_expansion_scoring, score_expansion
from engine.errors import ScoreInputError

# The score pad's values live in engine.catlady.scorepad; they are the scorer's public API here.
__all__ = [
    "BREAKDOWN",
    "BREAKDOWN_LABELS",
    "DEFAULT_RULES",
    "CatFeeding",
    "GameScore",
    "PlayerScore",
    "ScoringRules",
    "Tableau",
    "context_from_json",
    "score_game",
    "starting_effects",
    "tableaux_from_json",
    "toy_sets_vp",
    "with_starting_cards",
]


def score_game(
    tableaux: Sequence[Tableau],
    *,
    edition: Edition,
    rules: ScoringRules = DEFAULT_RULES,
    validate: bool = True,
    grid: Sequence[str] = (),
    goals: Sequence[Any] = (),
) -> GameScore:
    """Score the end of a game, feeding every player's cats optimally.

    Raises :class:`ScoreInputError` for an impossible end state (unknown cat, negative or
    impossible counts, more copies of a card than the deck holds for this many players).
    ``validate=False`` skips those checks, for callers (the game engine) whose states are
    correct by construction.

    >>> from engine.catlady.cards import load_edition
    >>> score = score_game([Tableau("Ann", cats=("Waffle", "Bronte"), food={"tuna": 4}),
    ...                     Tableau("Bob", food={"milk": 1})], edition=load_edition())
    >>> [f.describe() for f in score.players[0].feeding]
    ['Waffle: tuna, tuna, tuna, tuna -> 12 VP', 'Bronte: hungry -> -2 VP']
    """
    if validate:
        _validate(tableaux, edition)
    if needs_expansion_scoring(edition, tableaux, goals):
        return score_expansion(tableaux, edition=edition, rules=rules, grid=grid, goals=goals)
    consts = edition.scoring
    cats = [_cat_specs(edition, tuple(t.cats)) for t in tableaux]
    options: list[tuple[FeedingOption, ...]] = []
    for t, player_cats in zip(tableaux, cats, strict=True):
        options.append(
            feeding_options(
                player_cats,
                t.food,
                edition=edition,
                catnip=t.catnip,
                toys=sum(t.toys.values()),
                costumes=t.costumes,
                macak_optional=rules.macak_catnip_optional,
            )
        )
    choice, settled = _settle(options, rules, consts.most_leftover_food_vp)
    chosen = [opts[c] for opts, c in zip(options, choice, strict=True)]

    most_costumes = max((t.costumes for t in tableaux), default=0)
    tied_costumes = sum(1 for t in tableaux if t.costumes == most_costumes)
    penalised = penalised_seats([o.leftover for o in chosen], rules)
    most_fed = [
        max((o.fed for j, o in enumerate(chosen) if j != i), default=-1) for i in range(len(chosen))
    ]

    rows = []
    for i, (t, option) in enumerate(zip(tableaux, chosen, strict=True)):
        bonus = option.bonus if option.bonus and option.fed > most_fed[i] else 0
        catnip_vp = consts.catnip_vp(option.catnip, option.fed)
        line = {
            "fed_cats": option.vp - catnip_vp + bonus,
            "toys": toy_sets_vp([t.toys.get(k, 0) for k in edition.toy_types], consts.toy_set_vp),
            "costumes": _costume_vp(t.costumes, most_costumes, tied_costumes, consts, rules),
            "catnip": catnip_vp,
            "vp_tokens": consts.vp_token_vp * t.vp_tokens,
            "food_penalty": consts.most_leftover_food_vp if penalised[i] else 0,
        }
        rows.append((line, sum(line.values()), option, bonus))

    keys = [(total, option.fed) for _, total, option, _ in rows]
    seat_ranks = ranks(keys)
    players = []
    for i, (t, (line, total, option, bonus)) in enumerate(zip(tableaux, rows, strict=True)):
        # Taken now: the tableau's food dict is the caller's, and may change before it is read.
        food = dict(t.food)
        plates = Plates(partial(_describe_feeding, cats[i], option, bonus, food, edition))
        players.append(
            PlayerScore(
                name=t.name,
                total=total,
                fed_cat_count=option.fed,
                rank=seat_ranks[i],
                leftover_food=option.leftover,
                plates=plates,
                catnip_counted=option.catnip,
                fed_cats=line["fed_cats"],
                toys=line["toys"],
                costumes=line["costumes"],
                catnip=line["catnip"],
                vp_tokens=line["vp_tokens"],
                food_penalty=line["food_penalty"],
            )
        )
    return GameScore.from_players(players, edition=edition, rules=rules, feeding_settled=settled)


@lru_cache(maxsize=8192)
def _cat_specs(edition: Edition, names: tuple[str, ...]) -> tuple[CatSpec, ...]:
    """The cards behind a tableau's cat names (cached: bots score the same tableaux often)."""
    exact = _by_exact_name(edition)
    return tuple(exact.get(name) or edition.cat(name) for name in names)


@lru_cache(maxsize=64)
def _by_exact_name(edition: Edition) -> Mapping[str, CatSpec]:
    """Cats by their exact name, as the engine writes them (``edition.cat`` also normalises)."""
    specs = [c.cat for c in edition.deck if c.cat is not None] + list(edition.strays)
    return {spec.name: spec for spec in specs if edition.cat(spec.name) is spec}


def _settle(
    options: Sequence[Sequence[FeedingOption]], rules: ScoringRules, penalty: int
) -> tuple[list[int], bool]:
    """Best responses to a fixed point (:func:`engine.catlady.scorepad.settle`) over own VP with
    Hemingway's bonus and the leftover-food penalty."""

    def payoff(i: int, j: int, choice: Sequence[int]) -> tuple[int, int, int]:
        option = options[i][j]
        others = [options[k][choice[k]] for k in range(len(options)) if k != i]
        total = option.vp
        if option.bonus and all(option.fed > o.fed for o in others):
            total += option.bonus
        most_other = max((o.leftover for o in others), default=0)
        if pays_leftover_penalty(option.leftover, most_other, rules):
            total += penalty
        return (total, option.fed, -option.leftover)

    return settle([len(opts) for opts in options], payoff)


def _describe_feeding(
    cats: Sequence[Any],
    option: FeedingOption,
    bonus: int,
    food: Mapping[str, int],
    edition: Edition,
) -> tuple[tuple[CatFeeding, ...], dict[str, int]]:
    convert = 0
    for cat, meal in zip(cats, option.meals, strict=True):
        if meal is not None and cat.ability == "food_as_wild":
            convert += int(cat.params["count"])
    plates, leftover = allocate_tokens(option.meals, food, edition=edition, convert=convert)
    result = []
    for i, (cat, meal) in enumerate(zip(cats, option.meals, strict=True)):
        plate = list(plates[i])
        if meal is not None and meal.rest:
            # An "any food" cat (Cow) eats what is left, up to her share.
            hi = cat.params.get("max")
            room = option.any_eaten if hi is None else max(0, int(hi) - len(plate))
            for token in [*edition.foods, "wild"]:
                while room and leftover.get(token, 0):
                    leftover[token] -= 1
                    room -= 1
                    plate.append(("any" if token == "wild" else token, token))
        vp = option.cat_vp[i] + (bonus if i == option.bonus_cat else 0)
        result.append(CatFeeding(cat.name, meal is not None, vp, tuple(plate)))
    return tuple(result), {k: v for k, v in leftover.items() if v}


def _costume_vp(
    costumes: int, most: int, tied: int, consts: ScoringConstants, rules: ScoringRules
) -> int:
    """VP for ``costumes`` costume cards when the most anyone has is ``most``, had by ``tied``
    players: a penalty for none, the bonus (shared by a tie) for the most."""
    if costumes == 0:
        return consts.costume_none_vp
    if costumes < most:
        return 0
    share, rest = divmod(consts.costume_most_vp, tied)
    # Open question: a split that is not whole (rounded per ScoringRules.costume_split).
    return share + (1 if rest and rules.costume_split == "up" else 0)


# --- input: validation and parsing ---------------------------------------------------------


def _validate(tableaux: Sequence[Tableau], edition: Edition) -> None:
    """Refuse a score sheet no real game of ``edition`` could produce, naming the field."""
    n = len(tableaux)
    if n not in edition.player_counts:
        raise ScoreInputError(
            f"players: {n} players given; the {edition.name} edition is played by "
            f"{', '.join(map(str, edition.supported_players))} players"
        )
    names = [t.name for t in tableaux]
    for i, t in enumerate(tableaux):
        _check_player(i, t, names, edition)
    # The cat player's starting cards are not deck cards: check the deck part only.
    extra_strays = sum(starting_effects(t, edition).get("extra_strays", 0) for t in tableaux)
    deck_part = [_without_starting_cards(t, edition) for t in tableaux]
    strays_taken = _check_cats_dealt(deck_part, edition, extra_strays)
    _check_supply(deck_part, edition, strays_taken)


def _check_player(i: int, t: Tableau, names: Sequence[str], edition: Edition) -> None:
    """Seat ``i``'s sheet on its own (``names``: every player's, in seat order): a name of its
    own, known cards and tokens, counts."""
    n = len(names)
    where = f"players[{i}]"
    if not isinstance(t.name, str) or not t.name.strip():
        raise ScoreInputError(f"{where}.name: a player needs a name")
    if names.index(t.name) != i:
        raise ScoreInputError(f"{where}.name: {t.name!r} is used by two players")
    for k, cat in enumerate(t.cats):
        if not edition.has_cat(cat):
            raise ScoreInputError(f"{where}.cats[{k}]: unknown cat {cat!r}")
    for token, amount in t.food.items():
        if token not in edition.food_tokens:
            raise ScoreInputError(
                f"{where}.food.{token}: unknown food; use {', '.join(edition.food_tokens)}"
            )
        _check_count(amount, f"{where}.food.{token}")
    for toy, amount in t.toys.items():
        if toy not in edition.toy_types:
            raise ScoreInputError(
                f"{where}.toys.{toy}: unknown toy; use {', '.join(edition.toy_types)}"
            )
        _check_count(amount, f"{where}.toys.{toy}")
    for name in (*_COUNT_FIELDS, *_BOX_OF_TREATS_COUNT_FIELDS):
        _check_count(getattr(t, name), f"{where}.{name}")
    if (t.boxes or any(getattr(t, f) for f in _BOX_OF_TREATS_COUNT_FIELDS)) and not (
        edition.kinds
        & {CardKind.BOX, CardKind.CAT_BRUSH, CardKind.LASER_POINTER, CardKind.SHOPPING_BAG}
    ):
        raise ScoreInputError(
            f"{where}: boxes, cat brushes, laser pointers and shopping "
            f"bags are Box of Treats cards; the {edition.name} edition "
            "has none"
        )
    if (t.cat_player or t.starting_cards) and edition.solitaire is None:
        raise ScoreInputError(
            f"{where}.cat_player: the {edition.name} edition has no solitaire cards"
        )
    if t.cat_player and i != n - 1:
        raise ScoreInputError(f"{where}.cat_player: the cat player is the last of the two players")


def _check_cats_dealt(tableaux: Sequence[Tableau], edition: Edition, extra_strays: int) -> int:
    """No cat held more often than the deck for this many players has it, and no more strays
    than are dealt face up. Returns the number of strays taken."""
    n = len(tableaux)
    copies = edition.copies(n)
    by_key: dict[str, int] = {}
    strays_taken = 0
    for i, t in enumerate(tableaux):
        for k, name in enumerate(t.cats):
            spec = edition.cat(name)
            if spec.stray:
                strays_taken += 1
            by_key[spec.key] = by_key.get(spec.key, 0) + 1
            limit = 1 if spec.stray else copies.get(spec.key, 0)
            if by_key[spec.key] > limit:
                where = f"players[{i}].cats[{k}]"
                if limit == 0:
                    raise ScoreInputError(
                        f"{where}: {spec.name} is not in the deck for {n} players"
                    )
                raise ScoreInputError(f"{where}: more copies of {spec.name} than exist ({limit})")
    setup = edition.player_counts[n]
    if strays_taken > setup.strays_dealt + extra_strays:
        raise ScoreInputError(
            f"players[*].cats: {strays_taken} stray cats taken, but only "
            f"{setup.strays_dealt} are dealt face up"
        )
    return strays_taken


def _check_supply(tableaux: Sequence[Tableau], edition: Edition, strays_taken: int) -> None:
    """All players together hold no more cards and tokens than the game has: each kind of
    card against the deck for this many players, food against what can be gained, lost cats
    against those held, traded and paid for strays."""
    n = len(tableaux)
    copies = edition.copies(n)
    limits = _limits(edition, n)

    def limit_of(kind: str) -> int:
        return limits.get(f"kind:{kind}", 0)

    def total(field_name: str) -> int:
        return sum(getattr(t, field_name) for t in tableaux)

    for field_name, kind, label in (
        ("costumes", "costume", "costume"),
        ("catnip", "catnip", "catnip"),
        ("spray_bottles", "spray_bottle", "spray bottle"),
    ):
        if total(field_name) > limit_of(kind):
            raise ScoreInputError(
                f"players[*].{field_name}: {total(field_name)} {label} cards in "
                f"all, but the deck for {n} players has {limit_of(kind)}"
            )
    for toy in edition.toy_types:
        have = sum(t.toys.get(toy, 0) for t in tableaux)
        limit = limits.get(f"toy:{toy}", 0)
        if have > limit:
            raise ScoreInputError(
                f"players[*].toys.{toy}: {have} in all, but the deck for {n} players has {limit}"
            )
    for box in sorted({b for t in tableaux for b in t.boxes}):
        have = sum(1 for t in tableaux for b in t.boxes if b == box)
        key = next(
            (
                c.key
                for c in edition.deck
                if c.box is not None
                and (normalise_name(c.name) == normalise_name(box) or c.key == box)
            ),
            None,
        )
        if key is None:
            raise ScoreInputError(f"players[*].boxes: unknown box {box!r}")
        if have > copies.get(key, 0):
            raise ScoreInputError(
                f"players[*].boxes: {have} x {box!r}, but the deck for {n} "
                f"players has {copies.get(key, 0)}"
            )
    for field_name, kind in (
        ("cat_brushes", CardKind.CAT_BRUSH),
        ("laser_pointers", CardKind.LASER_POINTER),
        ("shopping_bags", CardKind.SHOPPING_BAG),
    ):
        if total(field_name) > limit_of(kind.value):
            raise ScoreInputError(
                f"players[*].{field_name}: {total(field_name)} in all, but "
                f"the deck for {n} players has {limit_of(kind.value)}"
            )
    for token in edition.food_tokens:
        have = sum(t.food.get(token, 0) for t in tableaux)
        limit = limits.get(f"food:{token}", 0)
        if have > limit:
            raise ScoreInputError(
                f"players[*].food.{token}: {have} tokens in all, but only "
                f"{limit} can be gained with {n} players"
            )
    per_trade = edition.scoring.lost_cats_per_trade
    # Box of Treats: each shopping bag played gives every opponent a VP token (RB-BOT), so
    # that many VP tokens may have cost no lost cats.
    bag_tokens = limit_of(CardKind.SHOPPING_BAG.value) * (n - 1)
    traded_tokens = max(0, total("vp_tokens") - bag_tokens)
    lost_used = total("lost_cats") + per_trade * (traded_tokens + strays_taken)
    if lost_used > limit_of("lost_cat"):
        bags = f" beyond the {bag_tokens} shopping bags can give" if bag_tokens else ""
        raise ScoreInputError(
            f"players[*].lost_cats: lost cats held plus {per_trade} per VP token{bags} and per "
            f"stray come to {lost_used}, but the deck for {n} players has "
            f"{limit_of('lost_cat')}"
        )
    if total("vp_tokens") > edition.components["vp_tokens"]:
        raise ScoreInputError(
            f"players[*].vp_tokens: {total('vp_tokens')} in all, but the game "
            f"has {edition.components['vp_tokens']}"
        )


def _without_starting_cards(t: Tableau, edition: Edition) -> Tableau:
    effects = starting_effects(t, edition)
    if not effects:
        return t
    food = {k: max(0, v - effects.get("food", {}).get(k, 0)) for k, v in t.food.items()}
    return replace(
        t,
        food=food,
        vp_tokens=max(0, t.vp_tokens - effects.get("vp_tokens", 0)),
        catnip=max(0, t.catnip - effects.get("catnip", 0)),
        costumes=max(0, t.costumes - effects.get("costumes", 0)),
    )


@lru_cache(maxsize=64)
def _limits(edition: Edition, n: int) -> dict[str, int]:
    """How many of each kind of card, toy and food token the deck for ``n`` players holds."""
    limits: dict[str, int] = {}
    for j in edition.deck_for_players(n):
        card = edition.deck[j]
        limits[f"kind:{card.kind.value}"] = limits.get(f"kind:{card.kind.value}", 0) + 1
        if card.toy:
            limits[f"toy:{card.toy}"] = limits.get(f"toy:{card.toy}", 0) + 1
        for token, amount in card.food.items():
            limits[f"food:{token}"] = limits.get(f"food:{token}", 0) + amount
    # Box of Treats: each shopping bag played gives 1 chicken, 1 tuna and 1 milk (RB-BOT).
    bags = limits.get(f"kind:{CardKind.SHOPPING_BAG.value}", 0)
    for token in SHOPPING_BAG_FOOD if bags else ():
        limits[f"food:{token}"] = limits.get(f"food:{token}", 0) + bags
    for token, cubes in edition.components["food_tokens"].items():
        limits[f"food:{token}"] = min(limits.get(f"food:{token}", 0), cubes)
    return limits


def _check_count(value: object, where: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScoreInputError(
            f"{where}: expected a whole number, got {json.dumps(value, default=str)}"
        )
    if value < 0:
        raise ScoreInputError(f"{where}: must not be negative (got {value})")


_PLAYER_FIELDS = frozenset(
    {
        "name",
        "cats",
        "food",
        "toys",
        *_COUNT_FIELDS,
        *_BOX_OF_TREATS_COUNT_FIELDS,
        "boxes",
        "cat_player",
        "starting_cards",
    }
)
_TOP_FIELDS = frozenset({"edition", "players", "grid", "goals", "custom_strays"})


def tableaux_from_json(obj: object, edition: Edition) -> list[Tableau]:
    """Parse the calculator's JSON input (already decoded) into tableaux.

    Accepts ``{"edition": ..., "players": [...]}`` or a bare list of players. Each player has
    ``name`` and ``cats`` (required) and optionally ``food``, ``toys``, ``costumes``,
    ``catnip``, ``vp_tokens``, ``lost_cats``, ``spray_bottles``. Cat and toy names are matched
    ignoring case and spacing. Raises :class:`ScoreInputError` naming the field, e.g.
    ``players[1].food.tuna``. Cross-player limits are checked by :func:`score_game`.

    >>> from engine.catlady.cards import load_edition
    >>> [t] = tableaux_from_json([{"name": "Kat", "cats": ["bronte"], "toys": {"Mouse Toy": 3}}],
    ...                          load_edition())
    >>> t.cats, dict(t.toys)
    (('Bronte',), {'mouse_toy': 3})
    """
    if isinstance(obj, dict):
        unknown = set(obj) - _TOP_FIELDS
        if unknown:
            raise ScoreInputError(f"unknown top-level field(s): {', '.join(sorted(unknown))}")
        if "players" not in obj:
            raise ScoreInputError("missing field 'players'")
        players = obj["players"]
        if not isinstance(players, list):
            raise ScoreInputError("players: expected a list of players")
    elif isinstance(obj, list):
        players = obj
    else:
        raise ScoreInputError("expected an object with 'players' or a list of players")
    toy_lookup = {normalise_name(k): k for k in edition.toy_types}
    toy_lookup.update({normalise_name(v): k for k, v in edition.toy_names.items()})
    result = []
    for i, raw in enumerate(players):
        where = f"players[{i}]"
        if not isinstance(raw, dict):
            raise ScoreInputError(f"{where}: expected an object")
        unknown = set(raw) - _PLAYER_FIELDS
        if unknown:
            raise ScoreInputError(
                f"{where}: unknown field(s) {', '.join(sorted(unknown))}; "
                f"fields are {', '.join(sorted(_PLAYER_FIELDS))}"
            )
        for required in ("name", "cats"):
            if required not in raw:
                raise ScoreInputError(f"{where}: missing field {required!r}")
        name = raw["name"]
        if not isinstance(name, str) or not name.strip():
            raise ScoreInputError(f"{where}.name: expected a non-empty string")
        cats_raw = raw["cats"]
        if not isinstance(cats_raw, list):
            raise ScoreInputError(f"{where}.cats: expected a list of cat names")
        cats = []
        for k, cat in enumerate(cats_raw):
            if not isinstance(cat, str) or not edition.has_cat(cat):
                raise ScoreInputError(f"{where}.cats[{k}]: unknown cat {json.dumps(cat)}")
            cats.append(edition.cat(cat).name)
        food = _counts(
            raw.get("food", {}), f"{where}.food", {t: t for t in edition.food_tokens}, "food token"
        )
        toys = _counts(raw.get("toys", {}), f"{where}.toys", toy_lookup, "toy")
        counts: dict[str, Any] = {}
        for name_ in (*_COUNT_FIELDS, *_BOX_OF_TREATS_COUNT_FIELDS):
            value = raw.get(name_, 0)
            _check_count(value, f"{where}.{name_}")
            counts[name_] = value
        counts["boxes"] = _names(
            raw.get("boxes", []),
            f"{where}.boxes",
            {
                **{normalise_name(c.name): c.name for c in edition.deck if c.box is not None},
                **{normalise_name(c.key): c.name for c in edition.deck if c.box is not None},
            },
            "box",
        )
        cat_player = raw.get("cat_player", False)
        if not isinstance(cat_player, bool):
            raise ScoreInputError(f"{where}.cat_player: expected true or false")
        counts["cat_player"] = cat_player
        starts = edition.solitaire.starting_cards if edition.solitaire else ()
        counts["starting_cards"] = _names(
            raw.get("starting_cards", []),
            f"{where}.starting_cards",
            {
                **{normalise_name(c.name): c.name for c in starts},
                **{normalise_name(c.key): c.name for c in starts},
            },
            "starting card",
        )
        if counts["starting_cards"] and not cat_player:
            raise ScoreInputError(f"{where}.starting_cards: only the cat player has starting cards")
        result.append(Tableau(name=name, cats=tuple(cats), food=food, toys=toys, **counts))
    return result


def _names(raw: object, where: str, lookup: Mapping[str, str], what: str) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise ScoreInputError(f"{where}: expected a list of names")
    result = []
    for k, item in enumerate(raw):
        canonical = lookup.get(normalise_name(str(item))) if isinstance(item, str) else None
        if canonical is None:
            known = ", ".join(sorted(set(lookup.values()))) or "none in this edition"
            raise ScoreInputError(f"{where}[{k}]: unknown {what} {json.dumps(item)}; use {known}")
        result.append(canonical)
    return tuple(result)


def context_from_json(
    obj: object,
    edition: Edition,
    tableaux: Sequence[Tableau],
) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """The calculator's game-level fields: ``grid`` (the cards left in the grid, by key or
    name, for Choupette) and ``goals`` (shared goals: ``{"goal": name, "players": [a, b]}``
    between neighbours in seat order). Raises :class:`ScoreInputError` naming the field."""
    if not isinstance(obj, dict):
        return (), ()
    grid = obj.get("grid", [])
    if not isinstance(grid, list) or not all(isinstance(g, str) for g in grid):
        raise ScoreInputError("grid: expected a list of card keys or names")
    if len(grid) > 9:
        raise ScoreInputError("grid: the grid has at most 9 cards")
    raw_goals = obj.get("goals", [])
    if not isinstance(raw_goals, list):
        raise ScoreInputError("goals: expected a list of {goal, players}")
    names = [t.name for t in tableaux]
    n = len(names)
    goals = []
    pairs: set[frozenset[int]] = set()
    by_name = {normalise_name(g.name): g for g in edition.goals}
    for k, item in enumerate(raw_goals):
        where = f"goals[{k}]"
        if n < 3:
            raise ScoreInputError(f"{where}: shared goals need 3 or more players")
        if any(t.cat_player for t in tableaux):
            raise ScoreInputError(f"{where}: shared goals are not used in solitaire")
        if not isinstance(item, dict) or set(item) != {"goal", "players"}:
            raise ScoreInputError(f"{where}: expected exactly 'goal' and 'players'")
        goal = by_name.get(normalise_name(str(item["goal"])))
        if goal is None:
            known = ", ".join(g.name for g in edition.goals) or "none in this edition"
            raise ScoreInputError(f"{where}.goal: unknown goal {item['goal']!r}; goals: {known}")
        seats = item["players"]
        if (
            not isinstance(seats, list)
            or len(seats) != 2
            or not all(isinstance(p, str) and p in names for p in seats)
        ):
            raise ScoreInputError(f"{where}.players: expected the names of two players")
        a, b = names.index(seats[0]), names.index(seats[1])
        if (a - b) % n not in (1, n - 1):
            raise ScoreInputError(
                f"{where}.players: a goal lies between neighbours "
                f"({seats[0]} and {seats[1]} are not)"
            )
        if frozenset((a, b)) in pairs:
            raise ScoreInputError(
                f"{where}.players: {seats[0]} and {seats[1]} already share a goal"
            )
        pairs.add(frozenset((a, b)))
        goals.append(SharedGoal(goal, (a, b)))
    return tuple(grid), tuple(goals)


def _counts(raw: object, where: str, lookup: Mapping[str, str], what: str) -> dict[str, int]:
    if not isinstance(raw, dict):
        raise ScoreInputError(f"{where}: expected an object of counts")
    result: dict[str, int] = {}
    for key, value in raw.items():
        canonical = lookup.get(key) or lookup.get(normalise_name(str(key)))
        if canonical is None:
            raise ScoreInputError(
                f"{where}.{key}: unknown {what}; use {', '.join(sorted(set(lookup.values())))}"
            )
        _check_count(value, f"{where}.{key}")
        result[canonical] = result.get(canonical, 0) + value
    return result
