"""Nothing private leaks by name: player names are unique within a league, not site-wide, so
no answer depends on a private league's players; the guests you enter through the API are
yours to read and rename; "(you)" marks only the person looking."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from league.clubs import invitations, services
from league.models import Membership, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def secret_guest(users):
    """Quinn's private league, with a guest called Secret who plays nowhere else."""
    hidden = services.league_create(
        name="Hidden", slug="hidden", by=users["quinn"], is_public=False
    )
    return services.guest_add(league=hidden, name="Secret", by=users["quinn"]).player


def test_a_private_guests_name_is_answered_like_any_other(api, players, secret_guest):
    for name in ("Secret", "secret", "Nobody Yet"):
        response = api("vic").post("/api/players/", {"name": name}, format="json")
        assert response.status_code == 201, response.json()
        assert response.json()["name"] == name
    assert Player.objects.filter(name__iexact="secret").count() == 3


def test_a_guest_you_create_is_yours_to_read_and_rename(api, users, players):
    created = api("vic").post("/api/players/", {"name": "Vic's friend"}, format="json").json()
    url = f"/api/players/{created['id']}/"
    assert api("vic").get(url).json() == created
    assert created["id"] in [p["id"] for p in api("vic").get("/api/players/").json()["results"]]
    renamed = api("vic").patch(url, {"name": "Wendy"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Wendy"
    # To anyone else it is a guest in no league they see: it does not exist.
    for who in ("mia", None):
        assert api(who).get(url).status_code == 404
        assert api(who).patch(url, {"name": "Mine"}, format="json").status_code in (401, 403, 404)
    assert Player.objects.get(pk=created["id"]).name == "Wendy"


def test_a_guest_someone_else_entered_is_seen_in_the_league_but_not_renamed(
    api, users, league, players
):
    guest = services.guest_add(league=league, name="Uma", by=users["olive"]).player
    assert api("mia").get(f"/api/players/{guest.pk}/").status_code == 200
    response = api("mia").patch(f"/api/players/{guest.pk}/", {"name": "Mine"}, format="json")
    assert response.status_code == 403 and response.json()["error"] == "permission_denied"
    assert (
        api("olive")
        .patch(f"/api/players/{guest.pk}/", {"name": "Uma B."}, format="json")
        .json()["name"]
        == "Uma B."
    )


def test_names_are_unique_within_a_league(api, users, league, players, secret_guest):
    # A second "Secret" joins a league of its own: the name is free there.
    services.guest_add(league=league, name="Secret", by=users["olive"])
    with pytest.raises(ValidationError) as caught:
        services.guest_add(league=league, name="SECRET", by=users["olive"])
    assert caught.value.message_dict == {
        "name": ["Tuesday Club already has a player called 'SECRET': choose another name."]
    }
    # Renaming into a name a league-mate has is refused, beside the name, through the API too.
    response = api("ned").patch(
        f"/api/players/{players['ned'].pk}/", {"name": "mia"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["fields"] == {
        "name": ["Tuesday Club already has a player called 'mia'."]
    }
    assert Player.objects.get(pk=players["ned"].pk).name == "Ned"


def test_joining_a_league_with_a_name_taken_there_says_what_to_do(users, league, players):
    vic = services.player_for_user(users["vic"])
    services.guest_add(league=league, name="VIC", by=users["olive"])
    invitation = invitations.invitation_create(league=league, by=users["olive"])
    with pytest.raises(ValidationError, match="choose another name on your account page"):
        invitations.invitation_accept(invitation=invitation, user=users["vic"])
    assert not Membership.objects.filter(league=league, player__user=users["vic"]).exists()
    services.player_rename(player=vic, name="Victor", by=users["vic"])
    invitations.invitation_accept(invitation=invitation, user=users["vic"])
    assert league.memberships.filter(player__name="Victor").exists()


def test_the_members_page_marks_only_the_person_looking(client, users, league, players):
    services.guest_add(league=league, name="Uma", by=users["olive"])
    html = client.get("/leagues/tuesday/members/").content.decode()
    assert "(you)" not in html
    client.force_login(users["mia"])
    html = client.get("/leagues/tuesday/members/").content.decode()
    assert html.count("(you)") == 1
    assert '>Mia</a> <span class="muted">(you)</span>' in html


def test_claiming_a_guest_whose_name_one_of_your_leagues_has_is_refused(users, league, players):
    own = services.league_create(name="Vic's", slug="vics", by=users["vic"])
    services.guest_add(league=own, name="Uma", by=users["vic"])
    guest = services.guest_add(league=league, name="uma", by=users["olive"]).player
    invitation = invitations.invitation_create(league=league, by=users["olive"], player=guest)
    with pytest.raises(ValidationError, match="Vic's already has a player called 'uma'"):
        invitations.invitation_accept(invitation=invitation, user=users["vic"])
    guest.refresh_from_db()
    assert guest.user_id is None
    assert own.memberships.filter(player__user=users["vic"]).exists()


def test_the_demo_league_brings_its_own_players_not_namesakes(users):
    from league.demo import seed_demo_league

    agatha = services.player_create(name="Agatha", user=users["vic"])
    league = seed_demo_league(games=2)
    assert league.memberships.filter(player__name="Agatha").count() == 1
    assert not league.memberships.filter(player=agatha).exists()


def test_renaming_a_guest_names_only_the_leagues_the_renamer_sees(api, users, league, players):
    # Vic entered a guest who has since been taken into Quinn's private league (as an
    # invitation or an organiser's move can), where someone is called Bea.
    guest = api("vic").post("/api/players/", {"name": "Vic's friend"}, format="json").json()
    hidden = services.league_create(
        name="Hidden", slug="hidden", by=users["quinn"], is_public=False
    )
    Membership.objects.create(league=hidden, player_id=guest["id"])
    services.guest_add(league=hidden, name="Bea", by=users["quinn"])
    response = api("vic").patch(f"/api/players/{guest['id']}/", {"name": "bea"}, format="json")
    assert response.status_code == 400
    assert response.json()["fields"] == {
        "name": ["A league you cannot see already has a player called 'bea'."]
    }
    # Someone who sees the league is told which.
    with pytest.raises(ValidationError, match="Hidden already has a player called 'bea'"):
        services.player_rename(
            player=Player.objects.get(pk=guest["id"]), name="bea", by=users["quinn"]
        )
