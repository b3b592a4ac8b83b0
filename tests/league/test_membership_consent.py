"""A player joins a league only by their own consent (an invitation they accept) or as a guest
the organiser entered; invitations, including one that hands a guest's history to an account."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from league.clubs import invitations, services
from league.models import AuditEntry, Invitation, Membership, Player
from tests.league.conftest import spring_season

D = dt.date(2026, 3, 3)


def test_an_organiser_cannot_add_a_player_who_has_a_login(league, players, users):
    with pytest.raises(ValidationError) as caught:
        services.member_add(league=league, player=players["quinn"], by=users["olive"])
    assert "invitation" in caught.value.message_dict["player"][0]
    assert not league.memberships.filter(player=players["quinn"]).exists()


def test_an_organiser_cannot_add_someone_elses_guest(league, users):
    guest = services.player_create(name="Stray", by=users["vic"])
    with pytest.raises(ValidationError):
        services.member_add(league=league, player=guest, by=users["olive"])


def test_a_guest_the_organiser_enters_joins_at_once(league, users):
    membership = services.guest_add(league=league, name="Gerry", by=users["olive"])
    assert membership.player.user is None and membership.player.created_by == users["olive"]
    assert membership.role == Membership.Role.MEMBER


def test_an_open_invitation_lets_anyone_with_the_link_join_themselves(league, players, users):
    invitation = invitations.invitation_create(league=league, by=users["olive"])
    membership = invitations.invitation_accept(invitation=invitation, user=users["quinn"])
    assert membership.player == players["quinn"] and membership.league == league
    vic = invitations.invitation_accept(invitation=invitation, user=users["vic"])
    assert vic.player.user == users["vic"]  # a player is made for a login without one
    with pytest.raises(ValidationError, match="already a member"):
        invitations.invitation_accept(invitation=invitation, user=users["vic"])


def test_an_expired_or_withdrawn_invitation_is_refused(league, users):
    expired = invitations.invitation_create(league=league, by=users["olive"])
    Invitation.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - dt.timedelta(1))
    with pytest.raises(ValidationError, match="expired"):
        invitations.invitation_accept(invitation=expired, user=users["vic"])
    withdrawn = invitations.invitation_create(league=league, by=users["olive"])
    invitations.invitation_revoke(invitation=withdrawn, by=users["olive"])
    with pytest.raises(ValidationError, match="withdrawn"):
        invitations.invitation_accept(invitation=withdrawn, user=users["vic"])
    assert not league.memberships.filter(player__user=users["vic"]).exists()


def test_claiming_a_guest_keeps_its_games_and_uses_the_link_up(league, players, users, log_game):
    guest = services.guest_add(league=league, name="Gerry", by=users["olive"]).player
    log_game("olive", D, (guest, 30, 5), ("mia", 20, 3))
    invitation = invitations.invitation_create(league=league, by=users["olive"], player=guest)
    membership = invitations.invitation_accept(invitation=invitation, user=users["vic"])
    guest.refresh_from_db()
    assert membership.player == guest and guest.user == users["vic"]
    assert guest.participations.count() == 1
    with pytest.raises(ValidationError, match="already been used"):
        invitations.invitation_accept(invitation=invitation, user=users["quinn"])
    assert AuditEntry.objects.filter(
        object_type="Player", object_id=guest.pk, changes__claimed_by="vic"
    ).exists()


def test_claiming_a_guest_replaces_an_own_player_without_games(league, users):
    own = services.player_create(name="Vic Alone", user=users["vic"])
    other = services.league_create(name="Other", slug="other", by=users["vic"])
    guest = services.guest_add(league=league, name="Gerry", by=users["olive"]).player
    invitation = invitations.invitation_create(league=league, by=users["olive"], player=guest)
    invitations.invitation_accept(invitation=invitation, user=users["vic"])
    assert not Player.objects.filter(pk=own.pk).exists()
    assert other.memberships.get().player == guest  # still organiser of their own league


def test_claiming_a_guest_is_refused_when_the_account_has_games_of_its_own(
    league, players, users, log_game
):
    guest = services.guest_add(league=league, name="Gerry", by=users["olive"]).player
    log_game("olive", D, ("mia", 30, 5), ("ned", 20, 3))
    invitation = invitations.invitation_create(league=league, by=users["olive"], player=guest)
    with pytest.raises(ValidationError, match="merge"):
        invitations.invitation_accept(invitation=invitation, user=users["mia"])
    guest.refresh_from_db()
    assert guest.user is None


def test_a_guest_invitation_is_only_for_a_guest_of_the_league(league, players, users):
    with pytest.raises(ValidationError, match="already has a login"):
        invitations.invitation_create(league=league, by=users["olive"], player=players["mia"])
    outsider = services.player_create(name="Outsider", by=users["olive"])
    with pytest.raises(ValidationError, match="not a guest"):
        invitations.invitation_create(league=league, by=users["olive"], player=outsider)


def test_roles_change_but_a_league_keeps_an_organiser(league, players, users):
    mia = league.memberships.get(player=players["mia"])
    services.member_set_role(membership=mia, role="organiser", by=users["olive"])
    olive = league.memberships.get(player=players["olive"])
    services.member_set_role(membership=olive, role="member", by=users["mia"])
    mia.refresh_from_db()
    with pytest.raises(ValidationError, match="at least one organiser"):
        services.member_set_role(membership=mia, role="member", by=users["mia"])


def test_closing_a_season_moves_later_games_out_of_it(league, players, users, log_game):
    season = spring_season(league, users)
    early = log_game("olive", dt.date(2026, 3, 2), ("mia", 30, 5), ("ned", 20, 3))
    late = log_game("olive", dt.date(2026, 3, 20), ("mia", 30, 5), ("ned", 20, 3))
    services.season_close(season=season, by=users["olive"], ends_on=dt.date(2026, 3, 10))
    early.refresh_from_db()
    late.refresh_from_db()
    assert early.season == season and late.season is None
    with pytest.raises(ValidationError):
        services.season_close(season=season, by=users["olive"], ends_on=dt.date(2026, 2, 1))
