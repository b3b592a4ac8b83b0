"""The score pad's values: a player's plates are worked out when first read, and only
then, from the holdings as they were scored."""

from __future__ import annotations

import pickle

from engine.catlady import scoring
from engine.catlady.cards import load_edition
from engine.catlady.scoring import Tableau, score_game


def _tableaux() -> list[Tableau]:
    return [
        Tableau("Ann", cats=("Waffle", "Bronte", "Bell"), food={"tuna": 4, "milk": 1, "wild": 1}),
        Tableau("Bob", cats=("Moonbeam", "Cooper"), food={"milk": 3, "chicken": 2}),
        Tableau("Cid", cats=("Chester",), food={"tuna": 1}),
        Tableau("Dee"),
    ]


def test_plates_are_worked_out_once_and_only_when_read(monkeypatch) -> None:
    calls = []
    describe = scoring._describe_feeding

    def counted(*args):
        calls.append(args[0])
        return describe(*args)

    monkeypatch.setattr(scoring, "_describe_feeding", counted)
    score = score_game(_tableaux(), edition=load_edition())
    assert [p.total for p in score.players] and calls == []
    ann, bob, *_ = score.players
    feeding = ann.feeding
    assert [f.cat for f in feeding] == ["Waffle", "Bronte", "Bell"]
    assert len(calls) == 1
    assert ann.feeding is feeding and ann.to_json()["feeding"] == [f.to_json() for f in feeding]
    assert len(calls) == 1  # read again: not worked out again
    bob.to_json()
    assert len(calls) == 2


def test_plates_come_from_the_food_scored_not_the_tableau_changed_after() -> None:
    tableaux = _tableaux()
    edition = load_edition()
    eager = score_game(tableaux, edition=edition)
    expected = [(p.feeding, dict(p.leftover)) for p in eager.players]
    lazy = score_game(tableaux, edition=edition)
    for t in tableaux:
        t.food.clear()  # the caller's dict, changed after scoring
    assert [(p.feeding, dict(p.leftover)) for p in lazy.players] == expected
    assert lazy == eager and hash(lazy.players[0].plates) == hash(eager.players[0].plates)


def test_a_score_pickles_with_its_plates() -> None:
    score = score_game(_tableaux(), edition=load_edition())
    again = pickle.loads(pickle.dumps(score))
    assert again == score
    assert again.to_json() == score.to_json()
