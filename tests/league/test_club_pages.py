"""The organisers' pages: who may open them, what they write through the services, and bad
input shown beside its field with nothing written."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
from django.utils import timezone

from league.clubs import invitations, services
from league.models import AuditEntry, Game, Invitation, League, Player, Season
from tests.league.test_pages_entry import field_errors, page, previewed, totals_form

DAY = dt.date(2026, 3, 3)


@pytest.fixture
def private_club(users, players):
    club = services.league_create(name="Hidden", slug="hidden", by=users["olive"], is_public=False)
    services.member_add(league=club, player=players["mia"], by=users["mia"])
    return club


# --- who may do what ------------------------------------------------------------------------

ORGANISER_GETS = ["/leagues/{slug}/settings/", "/leagues/{slug}/changes/"]
ORGANISER_POSTS = [
    ("/leagues/{slug}/settings/", {"name": "Renamed", "provisional_games": 3}),
    ("/leagues/{slug}/seasons/", {"name": "S", "starts_on": "2026-01-01", "ends_on": "2026-02-01"}),
    ("/leagues/{slug}/members/guests/", {"name": "Sneaky guest"}),
    ("/leagues/{slug}/invitations/", {}),
]


@pytest.mark.parametrize("url", ORGANISER_GETS)
def test_organiser_pages_refuse_members_outsiders_and_visitors(as_user, league, players, url):
    url = url.format(slug=league.slug)
    assert as_user("olive").get(url).status_code == 200
    assert as_user("mia").get(url).status_code == 403
    assert as_user("vic").get(url).status_code == 403
    anonymous = as_user(None).get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize(("url", "data"), ORGANISER_POSTS)
def test_organiser_writes_are_refused_to_everyone_else_and_write_nothing(
    as_user, league, players, url, data
):
    url = url.format(slug=league.slug)
    before = AuditEntry.objects.count()
    assert as_user("mia").post(url, data).status_code == 403
    assert as_user("vic").post(url, data).status_code == 403
    assert as_user(None).post(url, data).status_code == 302
    assert AuditEntry.objects.count() == before
    league.refresh_from_db()
    assert league.name == "Tuesday Club" and not Player.objects.filter(name="Sneaky guest").exists()


def test_a_private_league_is_not_found_by_outsiders_on_any_page(as_user, private_club):
    for url in [
        "/leagues/hidden/members/",
        "/leagues/hidden/settings/",
        "/leagues/hidden/changes/",
        "/leagues/hidden/games.csv",
        "/leagues/hidden/standings.csv",
    ]:
        assert as_user("vic").get(url).status_code in (404, 302), url
        if url.endswith(".csv") or url.endswith("members/"):
            assert as_user(None).get(url).status_code == 404, url
    assert as_user("mia").get("/leagues/hidden/members/").status_code == 200


def test_member_actions_are_organiser_only(as_user, league, players):
    ned = league.memberships.get(player=players["ned"])
    for url, data in [
        (f"/leagues/tuesday/members/{ned.pk}/role/", {"role": "organiser"}),
        (f"/leagues/tuesday/members/{ned.pk}/remove/", {}),
    ]:
        assert as_user("mia").post(url, data).status_code == 403
        assert as_user("vic").post(url, data).status_code == 403
    ned.refresh_from_db()
    assert ned.role == "member"


# --- start a league, settings, seasons ----------------------------------------------------


def test_a_new_league_makes_its_creator_the_organiser(as_user, users, db):
    client = as_user("vic")
    response = client.post(
        "/leagues/new/",
        {
            "name": "Vic's Cats",
            "game": "cat-lady",
            "is_public": "on",
            "k_factor": 24,
            "initial_rating": 1500,
            "provisional_games": 3,
        },
    )
    league = League.objects.get(slug="vics-cats")
    assert response["Location"] == "/leagues/vics-cats/members/"
    assert league.k_factor == 24 and league.provisional_games == 3
    assert league.memberships.get().player.user == users["vic"]


@pytest.mark.parametrize(
    ("change", "field", "text"),
    [
        ({"name": ""}, "name", "required"),
        ({"k_factor": "0"}, "k_factor", "greater than or equal to 1"),
        ({"k_factor": "1e308"}, "k_factor", "less than or equal to 100"),
        ({"initial_rating": "inf"}, "initial_rating", "Enter a number"),
        ({"provisional_games": "-1"}, "provisional_games", "greater than or equal to 0"),
        ({"slug": "tuesday"}, "slug", "already exists"),
        ({"slug": "new"}, "slug", "reserved"),
        ({"game": "chess"}, "game", "valid choice"),
    ],
)
def test_bad_league_input_is_shown_beside_its_field_and_creates_nothing(
    as_user, league, change, field, text
):
    data = {
        "name": "Another",
        "slug": "another",
        "game": "cat-lady",
        "k_factor": 32,
        "initial_rating": 1500,
        "provisional_games": 5,
        **change,
    }
    response = as_user("vic").post("/leagues/new/", data)
    assert response.status_code == 400
    assert any(text in m for m in field_errors(page(response), f"id_{field}")), page(response)
    assert League.objects.count() == 1


def test_settings_change_through_the_service_with_an_audit_entry(as_user, league):
    response = as_user("olive").post(
        "/leagues/tuesday/settings/",
        {"name": "Tuesday Cats", "description": "Room 4", "provisional_games": 2},
    )
    assert response.status_code == 302
    league.refresh_from_db()
    assert (league.name, league.is_public, league.provisional_games) == ("Tuesday Cats", False, 2)
    assert AuditEntry.objects.filter(league=league, object_type="League", action="update").exists()


def test_bad_settings_are_shown_beside_the_field_and_change_nothing(as_user, league):
    response = as_user("olive").post(
        "/leagues/tuesday/settings/", {"name": "", "provisional_games": "many"}
    )
    assert response.status_code == 400
    assert field_errors(page(response), "id_name") and field_errors(
        page(response), "id_provisional_games"
    )
    league.refresh_from_db()
    assert league.name == "Tuesday Club"


def test_seasons_start_and_close_from_the_settings_page(as_user, league, players, users):
    client = as_user("olive")
    today = timezone.localdate()
    client.post(
        "/leagues/tuesday/seasons/",
        {
            "name": "Now",
            "starts_on": today - dt.timedelta(days=10),
            "ends_on": today + dt.timedelta(days=30),
        },
    )
    season = Season.objects.get(league=league)
    assert "Close today" in page(client.get("/leagues/tuesday/settings/"))
    client.post(f"/leagues/tuesday/seasons/{season.pk}/close/")
    season.refresh_from_db()
    assert season.ends_on == today


def test_overlapping_or_reversed_seasons_are_refused_beside_the_field(as_user, league):
    client = as_user("olive")
    response = client.post(
        "/leagues/tuesday/seasons/",
        {"name": "Back", "starts_on": "2026-03-01", "ends_on": "2026-02-01"},
    )
    assert response.status_code == 400
    assert "cannot end before it starts" in " ".join(
        field_errors(page(response), "id_season_ends_on")
    )
    assert not Season.objects.exists()


# --- members and invitations ---------------------------------------------------------------


def test_members_page_shows_roles_and_actions_only_to_organisers(as_user, league, players):
    organiser_view = page(as_user("olive").get("/leagues/tuesday/members/"))
    assert "Make organiser" in organiser_view and "Add a guest" in organiser_view
    assert "Who may do what" in organiser_view
    member_view = page(as_user("mia").get("/leagues/tuesday/members/"))
    assert "Make organiser" not in member_view and "Add a guest" not in member_view
    assert "You are a member of this league" in member_view


def test_organisers_add_guests_promote_and_remove_members(as_user, league, players):
    client = as_user("olive")
    client.post("/leagues/tuesday/members/guests/", {"name": "Gerry"})
    gerry = Player.objects.get(name="Gerry")
    assert gerry.user is None and league.memberships.filter(player=gerry).exists()
    mia = league.memberships.get(player=players["mia"])
    client.post(f"/leagues/tuesday/members/{mia.pk}/role/", {"role": "organiser"})
    mia.refresh_from_db()
    assert mia.role == "organiser"
    ned = league.memberships.get(player=players["ned"])
    client.post(f"/leagues/tuesday/members/{ned.pk}/remove/")
    assert not league.memberships.filter(pk=ned.pk).exists()


def test_a_taken_guest_name_is_shown_beside_the_field(as_user, league, players):
    response = as_user("olive").post("/leagues/tuesday/members/guests/", {"name": "mia"})
    assert response.status_code == 400
    assert "Tuesday Club already has a player called" in " ".join(
        field_errors(page(response), "id_name")
    )
    assert league.memberships.count() == 4


def test_an_invitation_link_lets_a_friend_join_after_logging_in(as_user, league, players, users):
    response = as_user("olive").post("/leagues/tuesday/invitations/", {})
    link = re.search(
        r'id="invitation-link" type="text" readonly value="([^"]+)"', page(response)
    ).group(1)
    path = link[link.index("/invitations/") :]
    visitor = page(as_user(None).get(path))
    assert "Create an account to join" in visitor
    assert as_user(None).post(path).status_code == 302
    assert not league.memberships.filter(player__user=users["vic"]).exists()
    joined = as_user("vic").post(path)
    assert joined["Location"] == "/leagues/tuesday/"
    assert league.memberships.filter(player__user=users["vic"], role="member").exists()


def test_a_guest_invitation_hands_the_guest_and_its_games_to_the_account(
    as_user, league, players, users, log_game
):
    gerry = services.guest_add(league=league, name="Gerry", by=users["olive"]).player
    log_game("olive", DAY, (gerry, 30, 5), ("mia", 20, 3))
    as_user("olive").post("/leagues/tuesday/invitations/", {"player": gerry.pk})
    invitation = Invitation.objects.get(player=gerry)
    assert "This invitation is for <strong>Gerry</strong>" in page(
        as_user("vic").get(f"/invitations/{invitation.token}/")
    )
    as_user("vic").post(f"/invitations/{invitation.token}/")
    gerry.refresh_from_db()
    assert gerry.user == users["vic"] and gerry.participations.count() == 1
    used = as_user("quinn").get(f"/invitations/{invitation.token}/")
    assert used.status_code == 410 and "already been used" in page(used)


def test_a_withdrawn_invitation_no_longer_works(as_user, league, users):
    invitation = invitations.invitation_create(league=league, by=users["olive"])
    as_user("olive").post(f"/leagues/tuesday/invitations/{invitation.pk}/revoke/")
    response = as_user("vic").post(f"/invitations/{invitation.token}/")
    assert response.status_code == 410
    assert not league.memberships.filter(player__user=users["vic"]).exists()
    assert as_user("vic").get("/invitations/no-such-token/").status_code == 404


def test_an_invitation_for_a_player_with_a_login_is_refused_beside_the_field(
    as_user, league, players
):
    response = as_user("olive").post("/leagues/tuesday/invitations/", {"player": players["mia"].pk})
    assert response.status_code == 400 and field_errors(page(response), "id_player")
    assert not Invitation.objects.exists()


# --- games: correct, delete; change log; exports -------------------------------------------


def test_an_organiser_corrects_a_game_with_the_result_form_and_ratings_follow(
    as_user, league, players, users, log_game
):
    game = log_game("olive", DAY, ("mia", 30, 5), ("ned", 20, 3))
    client = as_user("olive")
    form = page(client.get(f"/leagues/tuesday/games/{game.pk}/edit/"))
    assert "Correct the game of" in form and 'value="30"' in form
    url = (
        f"/leagues/tuesday/games/{game.pk}/edit/?league=tuesday&edition=base&players=2&mode=totals"
    )
    data = totals_form(DAY, (players["mia"], 10, 1), (players["ned"], 40, 6))
    digest = previewed(client, url, data)
    response = client.post(url, {**data, "action": "save", "previewed": digest})
    assert response["Location"] == f"/leagues/tuesday/games/{game.pk}/"
    ranks = dict(Game.objects.get(pk=game.pk).participants.values_list("player__name", "rank"))
    assert ranks == {"Mia": 2, "Ned": 1}
    assert league.ratings.get(player=players["ned"]).rating > league.initial_rating
    assert AuditEntry.objects.filter(
        object_type="Game", object_id=game.pk, action="update"
    ).exists()


def test_a_bad_correction_is_shown_beside_its_field_and_changes_nothing(
    as_user, league, players, users, log_game
):
    game = log_game("olive", DAY, ("mia", 30, 5), ("ned", 20, 3))
    url = (
        f"/leagues/tuesday/games/{game.pk}/edit/?league=tuesday&edition=base&players=2&mode=totals"
    )
    data = totals_form(DAY, (players["mia"], "lots", None), (players["ned"], 40, None))
    response = as_user("olive").post(url, {**data, "action": "preview"})
    assert response.status_code == 400 and field_errors(page(response), "id_seat1-total_vp")
    assert Game.objects.get(pk=game.pk).participants.get(player=players["mia"]).score == 30


def test_only_organisers_may_correct_or_delete_a_game(as_user, league, players, users, log_game):
    game = log_game("olive", DAY, ("mia", 30, 5), ("ned", 20, 3))
    for url in (
        f"/leagues/tuesday/games/{game.pk}/edit/",
        f"/leagues/tuesday/games/{game.pk}/delete/",
    ):
        assert as_user("mia").get(url).status_code == 403
        assert as_user("mia").post(url, {"action": "save"}).status_code == 403
        assert as_user("vic").post(url).status_code == 403
        assert as_user(None).post(url).status_code == 302
    assert Game.objects.filter(pk=game.pk).exists()
    assert "Correct this game" not in page(as_user("mia").get(f"/leagues/tuesday/games/{game.pk}/"))


def test_an_organiser_deletes_a_game_and_the_change_log_keeps_it(
    as_user, league, players, users, log_game
):
    game = log_game("olive", DAY, ("mia", 30, 5), ("ned", 20, 3))
    client = as_user("olive")
    assert "Delete the game" in page(client.get(f"/leagues/tuesday/games/{game.pk}/delete/"))
    client.post(f"/leagues/tuesday/games/{game.pk}/delete/")
    assert not Game.objects.filter(pk=game.pk).exists()
    log = page(client.get("/leagues/tuesday/changes/"))
    assert "The game of 3 Mar 2026 deleted" in log and "olive" in log
    # The record behind each line is the database's own, and says so.
    assert 'The stored record <span class="muted">(raw, with its field names)' in log


def test_csv_exports_list_every_seat_and_the_standings(as_user, league, players, users, log_game):
    log_game("olive", DAY, ("mia", 30, 5), ("ned", 20, 3))
    games = list(csv.reader(io.StringIO(page(as_user(None).get("/leagues/tuesday/games.csv")))))
    assert games[0][:3] == ["game_id", "played_on", "played_time"]
    assert [row[8] for row in games[1:]] == ["Mia", "Ned"]
    standings = list(
        csv.DictReader(io.StringIO(page(as_user(None).get("/leagues/tuesday/standings.csv"))))
    )
    assert [(row["position"], row["player"]) for row in standings[:2]] == [
        ("1", "Mia"),
        ("2", "Ned"),
    ]
