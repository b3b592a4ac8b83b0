"""The change log speaks the pages' words: a night's rounds, disputes, members and settings are
named as the pages name them, never as "Created nightround #2"."""

from __future__ import annotations

import datetime as dt

from league.clubs import changelog, services
from league.clubs import selectors as club_selectors
from league.nights import services as nights
from league.results import confirmation
from league.results import services as result_services
from tests.league.conftest import another_confirms, olive_opens_night, olive_saves_settings

DAY = dt.date(2026, 3, 3)


def lines(league):
    return [
        line.text
        for line in changelog.change_lines(league, club_selectors.audit_entries(league=league))
    ]


def test_a_night_its_rounds_and_a_dispute_read_as_the_pages_say_them(
    league, players, users, log_game
):
    olive, mia, ned, pat = (players[n] for n in ("olive", "mia", "ned", "pat"))
    night = olive_opens_night(league, users, DAY, [olive, mia, ned, pat], rounds=2)
    nights.round_draw(night=night, by=users["olive"])
    nights.round_undo(night=night, by=users["olive"])
    nights.round_draw(night=night, by=users["olive"])
    another_confirms(league)
    game = log_game("mia", DAY, (mia, 30, 5), (ned, 20, 3))
    dispute = confirmation.game_dispute(game=game, by=users["ned"], reason="I had 25.")
    confirmation.dispute_resolve(dispute=dispute, by=users["olive"])
    said = lines(league)
    assert said[:6] == [
        "Dispute on the game of 3 Mar 2026 settled: the result stands",
        "The game of 3 Mar 2026 disputed",
        "The game of 3 Mar 2026 logged",
        "Round 1 of the night of 3 Mar 2026 drawn",
        "Round 1 of the night of 3 Mar 2026 taken back",
        "Round 1 of the night of 3 Mar 2026 drawn",
    ]
    assert "Game night of 3 Mar 2026 opened" in said
    assert not any("nightround" in text.lower() or "#" in text for text in said)
    links = {line.text: line.link for line in changelog.change_lines(league, league.audit.all())}
    assert links["The game of 3 Mar 2026 logged"] == f"/leagues/tuesday/games/{game.pk}/"
    assert (
        links["Round 1 of the night of 3 Mar 2026 drawn"] == f"/leagues/tuesday/nights/{night.pk}/"
    )


def test_members_settings_and_a_deleted_game_read_as_the_pages_say_them(
    league, players, users, log_game
):
    game = log_game("olive", DAY, ("mia", 30, 5), ("ned", 20, 3))
    result_services.game_delete(game=game, by=users["olive"])
    membership = league.memberships.get(player=players["pat"])
    services.member_set_role(membership=membership, role="organiser", by=users["olive"])
    services.member_remove(
        membership=league.memberships.get(player=players["ned"]), by=users["olive"]
    )
    olive_saves_settings(league, users, name="Tuesday Cats")
    said = lines(league)
    assert said[:4] == [
        "Settings changed: name",
        "Ned removed from the league",
        "Pat made an organiser",
        "The game of 3 Mar 2026 deleted",
    ]
    assert "Pat joined as a member" in said
    services.guest_add(league=league, name="Rosa", by=users["olive"])
    assert lines(league)[0] == "Rosa added as a guest"
    assert "League “Tuesday Club” started" in said
