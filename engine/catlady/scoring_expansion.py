"""End-of-game scoring with expansion content: Premium strays, Box of Treats (treats, boxes,
gray cats, 5-6 players, shared goals), the solitaire cat player and custom strays.

:func:`engine.catlady.scoring.score_game` sends a game here when its edition or its end state uses
anything beyond the base game; base games keep the base scorer, so their results (and match
logs) are exactly what they were. The steps:

1. Each player's Pareto-optimal plans (:func:`engine.catlady.feeding_expansion.options_for`). With a
   fed Choupette, the plans for every choice of grid cards she may take are added.
2. Terms that depend on the other players are settled by best responses in seat order, as
   in the base scorer: the most-leftover-food penalty, Hemingway's "strictly most fed cats",
   the costume awards (Elvis changes costume counts) and shared goals (both partners' counts).
3. Scrappy (RB-PREM): after the penalty is settled on everyone's own food, a player whose
   Scrappy was fed feeds their hungry cats again, from their own leftover plus any part of
   one other player's leftover food (the player whose leftover helps most).
4. Score-pad lines, then ranks: most VP, then most fed cats. Against the solitaire cat
   player the human must score strictly more VP (RB-BOT).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from engine.catlady.cards import BoxRequirement, CardKind, CatSpec, Edition, Goal, normalise_name
from engine.catlady.feeding_expansion import FED, HUNGRY, TREAT, Holdings, Option, options_for
from engine.catlady.scorepad import (
    CatFeeding,
    GameScore,
    Plates,
    PlayerScore,
    ScoringRules,
    Tableau,
    pays_leftover_penalty,
    ranks,
    settle,
    with_starting_cards,
)
from engine.errors import ScoreInputError

__all__ = ["SharedGoal", "edition_is_expansion", "needs_expansion_scoring", "score_expansion"]


# Abilities the base scorer does not know.
_BASE_ABILITIES = frozenset(
    {
        "per_colour_fed",
        "colour_sets",
        "per_costume",
        "per_toy",
        "counts_as_catnip",
        "vp_per_food_fed",
        "most_fed_cats",
        "all_colours",
        "food_as_wild",
        "per_other_fed_cat_eating_food",
    }
)
_EXPANSION_KINDS = frozenset(
    {CardKind.BOX, CardKind.CAT_BRUSH, CardKind.LASER_POINTER, CardKind.SHOPPING_BAG}
)


@dataclass(frozen=True)
class SharedGoal:
    """A shared goal between two seats (Box of Treats)."""

    goal: Goal
    seats: tuple[int, int]


def needs_expansion_scoring(
    edition: Edition, tableaux: Sequence[Tableau], goals: Sequence[SharedGoal] = ()
) -> bool:
    """Whether the base scorer cannot score this game."""
    if goals or len(tableaux) > 4:
        return True
    if edition_is_expansion(edition):
        return True
    return any(t.cat_player or t.boxes or t.food.get("treat") for t in tableaux)


def edition_is_expansion(edition: Edition) -> bool:
    """Whether an edition has anything beyond the base game's cards and abilities."""
    if "treat" in edition.food_tokens or edition.kinds & _EXPANSION_KINDS:
        return True
    cats = [c.cat for c in edition.deck if c.cat is not None] + list(edition.strays)
    return any(
        (c.ability is not None and c.ability not in _BASE_ABILITIES) or c.needs_any or c.members
        for c in cats
    )


# --- from tableaux to holdings ---------------------------------------------------------------


@lru_cache(maxsize=64)
def _boxes_by_name(edition: Edition) -> Mapping[str, BoxRequirement]:
    boxes = {}
    for card in edition.deck:
        if card.box is not None:
            boxes[normalise_name(card.name)] = card.box
            boxes[normalise_name(card.key)] = card.box
    return boxes


@lru_cache(maxsize=8192)
def _spec(edition: Edition, name: str) -> CatSpec:
    """``edition.cat(name)``, cached: scoring looks the same names up again and again."""
    return edition.cat(name)


def _box_requirements(edition: Edition, names: Sequence[str]) -> tuple[BoxRequirement, ...]:
    boxes = _boxes_by_name(edition)
    result = []
    for name in names:
        box = boxes.get(normalise_name(name))
        if box is None:
            raise ScoreInputError(f"unknown box {name!r}")
        result.append(box)
    return tuple(result)


def _holdings(t: Tableau, edition: Edition, extra_cards: Sequence[Any] = ()) -> Holdings:
    cats = [_spec(edition, name) for name in t.cats]
    food = {k: int(v) for k, v in t.food.items() if v}
    toys = [int(t.toys.get(k, 0)) for k in edition.toy_types]
    costumes, catnip, lost, sprays = t.costumes, t.catnip, t.lost_cats, t.spray_bottles
    boxes = list(_box_requirements(edition, t.boxes))
    for card in extra_cards:  # Choupette's picks
        kind = card.kind
        if card.cat is not None:
            cats.append(card.cat)
        elif kind is CardKind.FOOD:
            for token, n in card.food.items():
                food[token] = food.get(token, 0) + n
        elif kind is CardKind.TOY:
            toys[edition.toy_types.index(card.toy)] += 1
        elif kind is CardKind.COSTUME:
            costumes += 1
        elif kind is CardKind.CATNIP:
            catnip += 1
        elif kind is CardKind.LOST_CAT:
            lost += 1
        elif kind is CardKind.SPRAY_BOTTLE:
            sprays += 1
        elif kind is CardKind.BOX:
            boxes.append(card.box)
    return Holdings(
        cats=tuple(cats),
        food_items=tuple(sorted(food.items())),
        toys=tuple(toys),
        costumes=costumes,
        catnip=catnip,
        lost_cats=lost,
        spray_bottles=sprays,
        boxes=tuple(boxes),
        wild_toys=t.wild_toys,
        cat_player=t.cat_player,
    )


@dataclass(frozen=True)
class _Choice:
    option: Option
    picks: tuple[str, ...] = ()  # Choupette's grid cards


def _player_choices(t: Tableau, edition: Edition, grid: Sequence[Any]) -> list[_Choice]:
    choices = [_Choice(o) for o in options_for(_holdings(t, edition), edition)]
    takers = [_spec(edition, c) for c in t.cats if _spec(edition, c).ability == "take_grid_cards"]
    if not takers or not grid:
        return choices
    # Cards that are worth nothing at the end to this player are never worth taking: the
    # hand cards that need a turn to play (unless an ability counts them, as Mr. Zoe does).
    discards = any(_spec(edition, c).ability == "discard_for_vp" for c in t.cats)
    useless = {CardKind.CAT_BRUSH, CardKind.LASER_POINTER, CardKind.SHOPPING_BAG}
    if not discards:
        useless |= {CardKind.SPRAY_BOTTLE, CardKind.LOST_CAT}
    useful = [card for card in grid if card.kind not in useless]
    # Two copies of a card are the same choice: keep at most as many of each as can be taken.
    count = sum(int(str(c.params["count"])) for c in takers)
    kept: dict[str, int] = {}
    pool = []
    for card in useful:
        if kept.get(card.key, 0) < count:
            kept[card.key] = kept.get(card.key, 0) + 1
            pool.append(card)
    count = min(len(pool), count)
    seen = set()
    for picks in itertools.combinations(range(len(pool)), count):
        cards = [pool[i] for i in picks]
        key = tuple(sorted(c.key for c in cards))
        if key in seen:
            continue
        seen.add(key)
        holdings = _holdings(t, edition, cards)
        for option in options_for(holdings, edition):
            # The picks only happen when Choupette is fed (normally, not with a treat).
            if all(
                option.plates[i].mode == FED
                for i, c in enumerate(holdings.cats)
                if c.ability == "take_grid_cards"
            ):
                choices.append(_Choice(option, tuple(c.name for c in cards)))
    return choices


# --- cross-player terms ---------------------------------------------------------------------


def _costume_vp(counts: Sequence[int], edition: Edition, rules: ScoringRules) -> list[int]:
    s = edition.scoring
    n = len(counts)
    holders = [c for c in counts if c > 0]
    most = max(holders, default=0)
    tied = sum(1 for c in counts if c == most and c > 0)
    second_rule = s.costume_second_min_players is not None and n >= s.costume_second_min_players
    result = []
    second = max((c for c in holders if c < most), default=0)
    tied_second = sum(1 for c in counts if c == second and c > 0)
    for c in counts:
        if c == 0:
            result.append(s.costume_none_vp)
        elif c == most:
            if second_rule:
                # RB-BOT: a tie for most splits most + second (9 VP), rounded up; else 6.
                pot = s.costume_most_vp + s.costume_second_vp if tied > 1 else s.costume_most_vp
                result.append(-(-pot // tied))
            else:
                share, rest = divmod(s.costume_most_vp, tied)
                result.append(share + (1 if rest and rules.costume_split == "up" else 0))
        elif second_rule and tied == 1 and c == second:
            result.append(-(-s.costume_second_vp // tied_second))  # rounded up (RB-BOT)
        else:
            result.append(0)
    return result


def _goal_stat(stat: str, option: Option, t: Tableau, edition: Edition) -> int:
    if stat == "fed_cats":
        return option.fed
    if stat == "costumes":
        return option.costumes
    if stat == "toys":
        return option.toys
    if stat == "catnip":
        return option.catnip
    if stat == "fed_multicoloured_cats":
        return option.multicoloured_fed
    if stat == "cats":
        return sum(_spec(edition, c).cat_count for c in t.cats)
    if stat == "boxes":
        return len(t.boxes)
    if stat == "vp_tokens":
        return t.vp_tokens
    raise ScoreInputError(f"unknown goal stat {stat!r}")  # pragma: no cover - data is checked


def _goal_vp(
    seat: int,
    chosen: Sequence[Option],
    tableaux: Sequence[Tableau],
    goals: Sequence[SharedGoal],
    edition: Edition,
) -> tuple[int, list[str]]:
    vp = 0
    met = []
    for shared in goals:
        if seat not in shared.seats:
            continue
        a, b = shared.seats
        g = shared.goal
        total = _goal_stat(g.stat, chosen[a], tableaux[a], edition) + _goal_stat(
            g.stat, chosen[b], tableaux[b], edition
        )
        if g.amount is not None and g.vp is not None and total >= g.amount:
            vp += g.vp
            met.append(g.name)
    return vp, met


def _cross_terms(
    seat: int,
    chosen: Sequence[Option],
    tableaux: Sequence[Tableau],
    goals: Sequence[SharedGoal],
    edition: Edition,
    rules: ScoringRules,
    leftovers: Sequence[int] | None = None,
) -> dict[str, int]:
    option = chosen[seat]
    others = [o for k, o in enumerate(chosen) if k != seat]
    bonus = option.bonus if option.bonus and all(option.fed > o.fed for o in others) else 0
    lefts = [o.leftover for o in chosen] if leftovers is None else list(leftovers)
    pays = pays_leftover_penalty(lefts[seat], max(lefts), rules)
    penalty = edition.scoring.most_leftover_food_vp if pays else 0
    costumes = _costume_vp([o.costumes for o in chosen], edition, rules)[seat]
    goal_vp, _ = _goal_vp(seat, chosen, tableaux, goals, edition)
    return {"bonus": bonus, "food_penalty": penalty, "costumes": costumes, "goals": goal_vp}


def _settle(
    choices: Sequence[Sequence[_Choice]],
    tableaux: Sequence[Tableau],
    goals: Sequence[SharedGoal],
    edition: Edition,
    rules: ScoringRules,
) -> tuple[list[int], bool]:
    """Best responses to a fixed point (:func:`engine.catlady.scorepad.settle`) over own VP with
    every cross-player term: Hemingway, the leftover-food penalty, costumes, shared goals."""

    def payoff(i: int, j: int, pick: Sequence[int]) -> tuple[int, int, int]:
        chosen = [choices[k][pick[k]].option for k in range(len(choices))]
        chosen[i] = choices[i][j].option
        terms = _cross_terms(i, chosen, tableaux, goals, edition, rules)
        option = chosen[i]
        return (option.vp + sum(terms.values()), option.fed, -option.leftover)

    return settle([len(c) for c in choices], payoff)


def _scrappy(
    i: int,
    chosen: list[Option],
    tableaux: Sequence[Tableau],
    edition: Edition,
    picked: Sequence[Any] = (),
) -> tuple[Option, str | None]:
    """Scrappy's second feeding (step 3 of the module docstring). ``picked``: the grid cards
    a Choupette-like cat took, which are part of the player's holdings (and plates)."""
    t = tableaux[i]
    option = chosen[i]
    holdings = _holdings(t, edition, picked)
    scrappy = [k for k, c in enumerate(holdings.cats) if c.ability == "borrow_leftover"]
    if not any(option.plates[k].mode == FED for k in scrappy):
        return option, None
    hungry = [k for k, p in enumerate(option.plates) if p.mode == HUNGRY]
    if not hungry:
        return option, None
    fixed = tuple((k, p) for k, p in enumerate(option.plates) if p.mode != HUNGRY)
    best, best_from, best_borrowed = option, None, {}
    for j, other in enumerate(chosen):
        if j == i or not other.leftover_food:
            continue
        pool = dict(option.leftover_food)
        for token, n in other.leftover_food.items():
            pool[token] = pool.get(token, 0) + n
        trial = replace(holdings, food_items=tuple(sorted(pool.items())), fixed=fixed)
        for candidate in options_for(trial, edition):
            if (candidate.vp, candidate.fed) > (best.vp, best.fed):
                borrowed = _borrowed(
                    option.leftover_food, candidate.leftover_food, other.leftover_food
                )
                best, best_from, best_borrowed = candidate, j, borrowed
    if best_from is None:
        return option, None
    result = replace(
        best,
        leftover=option.leftover,
        leftover_food=option.leftover_food,
        borrowed=best_borrowed,
        choices=(
            *best.choices,
            f"Scrappy: fed with seat {best_from}'s leftover "
            + ", ".join(f"{n} {k}" for k, n in best_borrowed.items()),
        ),
    )
    return result, f"seat {best_from}"


def _borrowed(
    own: Mapping[str, int], after: Mapping[str, int], theirs: Mapping[str, int]
) -> dict[str, int]:
    """Which of the other player's tokens were eaten (own leftover is eaten first)."""
    result = {}
    for token, n in theirs.items():
        pool = own.get(token, 0) + n
        used = pool - after.get(token, 0)
        from_theirs = max(0, used - own.get(token, 0))
        if from_theirs:
            result[token] = min(n, from_theirs)
    return result


# --- the score -----------------------------------------------------------------------------


def score_expansion(
    tableaux: Sequence[Tableau],
    *,
    edition: Edition,
    rules: ScoringRules,
    grid: Sequence[str] = (),
    goals: Sequence[SharedGoal] = (),
) -> GameScore:
    """Score a game with expansion content (see the module docstring). ``grid`` holds the
    keys or names of the cards left in the grid (for Choupette)."""
    tableaux = [with_starting_cards(t, edition) for t in tableaux]
    grid_cards = _grid_cards(edition, grid)
    choices = [_player_choices(t, edition, grid_cards) for t in tableaux]
    pick, settled = _settle(choices, tableaux, goals, edition, rules)
    chosen = [choices[i][pick[i]].option for i in range(len(tableaux))]
    picks = [choices[i][pick[i]].picks for i in range(len(tableaux))]
    penalty_leftovers = [o.leftover for o in chosen]
    for i in range(len(chosen)):
        chosen[i], _ = _scrappy(i, chosen, tableaux, edition, _grid_by_name(grid_cards, picks[i]))

    s = edition.scoring
    has_boxes = CardKind.BOX in edition.kinds
    cat_player_game = any(t.cat_player for t in tableaux)
    rows = []
    for i, (t, option) in enumerate(zip(tableaux, chosen, strict=True)):
        terms = _cross_terms(i, chosen, tableaux, goals, edition, rules, penalty_leftovers)
        items = 0
        if t.cat_player:
            # RB-BOT: 1 VP per cat brush, laser pointer and spray bottle the cat player has.
            items = s.cat_player_item_vp * (t.cat_brushes + t.laser_pointers + t.spray_bottles)
        line = {
            "fed_cats": option.lines["fed_cats"] + terms["bonus"],
            "toys": option.lines["toys"],
            "costumes": terms["costumes"],
            "catnip": option.lines["catnip"],
            "vp_tokens": s.vp_token_vp * t.vp_tokens,
            "food_penalty": terms["food_penalty"],
        }
        extra = {}
        if has_boxes:
            extra["boxes"] = option.lines["boxes"]
        if goals:
            extra["goals"] = terms["goals"]
        if cat_player_game:
            extra["items"] = items
        rows.append((line, extra, option, terms["bonus"]))

    totals = [sum(line.values()) + sum(extra.values()) for line, extra, _, _ in rows]
    keys = [(total, option.fed) for total, (_, _, option, _) in zip(totals, rows, strict=True)]
    if cat_player_game:
        # RB-BOT: "You must gain more VP than the cat player in order to win."
        keys = [
            (total, 1 if t.cat_player else 0) for total, t in zip(totals, tableaux, strict=True)
        ]
    seat_ranks = ranks(keys)
    players = []
    for i, (t, (line, extra, option, bonus)) in enumerate(zip(tableaux, rows, strict=True)):
        picked = _grid_by_name(grid_cards, picks[i])
        holdings = _holdings(t, edition, picked)
        holdings_cats = list(holdings.cats)
        feeding = _describe(holdings_cats, option, bonus, holdings.food, t.cat_player, edition)
        notes = list(option.choices)
        if picks[i]:
            takers = " and ".join(c.name for c in holdings_cats if c.ability == "take_grid_cards")
            notes.insert(0, f"{takers} takes " + " and ".join(picks[i]) + " from the grid")
        _, met = _goal_vp(i, chosen, tableaux, goals, edition)
        notes += [f"shared goal met: {name}" for name in met]
        players.append(
            PlayerScore(
                name=t.name,
                total=totals[i],
                fed_cat_count=option.fed,
                rank=seat_ranks[i],
                leftover_food=penalty_leftovers[i],
                plates=Plates.known(feeding, dict(option.leftover_food)),
                catnip_counted=option.catnip,
                extra_lines=extra,
                choices=tuple(notes),
                cat_player=t.cat_player,
                **line,
            )
        )
    return GameScore.from_players(players, edition=edition, rules=rules, feeding_settled=settled)


@lru_cache(maxsize=64)
def _grid_lookup(edition: Edition) -> Mapping[str, Any]:
    by_key: dict[str, Any] = {}
    for card in edition.deck:
        by_key.setdefault(normalise_name(card.key), card)
        by_key.setdefault(normalise_name(card.name), card)
    for stray in edition.strays:
        by_key.setdefault(normalise_name(stray.key), _StrayCard(stray))
        by_key.setdefault(normalise_name(stray.name), _StrayCard(stray))
    return by_key


def _grid_cards(edition: Edition, grid: Sequence[str]) -> list[Any]:
    by_key = _grid_lookup(edition)
    cards = []
    for k, name in enumerate(grid):
        card = by_key.get(normalise_name(str(name)))
        if card is None:
            raise ScoreInputError(f"grid[{k}]: unknown card {name!r}")
        cards.append(card)
    return cards


@dataclass(frozen=True)
class _StrayCard:
    """A stray put in the grid by a cat brush, as a card Choupette may take."""

    cat: Any

    @property
    def key(self) -> str:
        return str(self.cat.key)

    @property
    def name(self) -> str:
        return str(self.cat.name)

    kind = CardKind.CAT


def _grid_by_name(cards: Sequence[Any], names: Sequence[str]) -> list[Any]:
    remaining = list(cards)
    result = []
    for name in names:
        for card in remaining:
            if card.name == name:
                result.append(card)
                remaining.remove(card)
                break
    return result


def _describe(
    cats: Sequence[Any],
    option: Option,
    bonus: int,
    food: Mapping[str, int],
    cat_player: bool,
    edition: Edition,
) -> list[Any]:
    """Each cat's plate as (food, token) pairs: own tokens first, then wilds, then treats."""
    pool = {k: int(v) for k, v in food.items()}
    for token, n in option.borrowed.items():
        pool[token] = pool.get(token, 0) + n
    result = []
    for i, (cat, plate) in enumerate(zip(cats, option.plates, strict=True)):
        vp = option.cat_vp[i] + (bonus if i == option.bonus_cat else 0)
        if plate.mode == HUNGRY:
            result.append(CatFeeding(cat.name, False, vp))
            continue
        ate: list[tuple[str, str]] = []
        if plate.mode == TREAT:
            ate.append(("treat", "treat"))
            pool["treat"] = pool.get("treat", 0) - 1
        else:
            for kind, n in zip(edition.foods, plate.eaten, strict=True):
                for _ in range(n):
                    if pool.get(kind, 0) > 0:
                        token = kind
                    elif pool.get("wild", 0) > 0 and not cat_player:
                        token = "wild"
                    else:  # Moonbeam's conversions; every food is wild for the cat player
                        token = max((*edition.foods, "wild"), key=lambda k: pool.get(k, 0))
                    pool[token] = pool.get(token, 0) - 1
                    ate.append((kind, token))
            ate += [("catnip", "catnip")] * plate.catnip
        result.append(CatFeeding(cat.name, True, vp, tuple(ate)))
    return result
