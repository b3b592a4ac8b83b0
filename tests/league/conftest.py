"""A small named cast for league tests: Olive organises the Tuesday Club; Mia, Ned and Pat are
members; Quinn has a player but is not a member; Vic is a visitor with a login and no player."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.clubs import services
from league.models import Player
from league.results import checks
from league.results import services as result_services


@pytest.fixture
def users(db):
    User = get_user_model()
    return {
        name: User.objects.create_user(name, f"{name}@example.org", "pw-123456789")
        for name in ("olive", "mia", "ned", "pat", "quinn", "vic")
    }


@pytest.fixture
def league(users):
    return services.league_create(
        name="Tuesday Club", slug="tuesday", game="cat-lady", by=users["olive"]
    )


@pytest.fixture
def players(users, league) -> dict[str, Player]:
    cast = {"olive": Player.objects.get(user=users["olive"])}
    cast["olive"].name = "Olive"
    cast["olive"].save()
    for name in ("mia", "ned", "pat"):
        cast[name] = services.player_create(name=name.title(), user=users[name])
        # Each joins by their own consent (as when accepting an invitation).
        services.member_add(league=league, player=cast[name], by=users[name])
    cast["quinn"] = services.player_create(name="Quinn", user=users["quinn"])
    return cast


@pytest.fixture
def as_user(client, users):
    """The test client logged in as one of the cast (None: logged out)."""

    def log_in(name: str | None):
        client.logout()
        if name is not None:
            client.force_login(users[name])
        return client

    return log_in


@pytest.fixture
def api(users):
    def client_for(name: str | None) -> APIClient:
        client = APIClient()
        if name is not None:
            client.force_authenticate(users[name])
        return client

    return client_for


# The six lines of a Cat Lady score pad, in the pad's order.
PAD = ("fed_cats_vp", "toys_vp", "costumes_vp", "catnip_vp", "vp_tokens_vp", "food_penalty_vp")


def pad_lines(*lines: int) -> dict[str, int]:
    """The six PAD lines of a score pad, given in the pad's order."""
    return dict(zip(PAD, lines, strict=True))


def score_pad(total: int, fed: int, lines: tuple[int, ...]) -> dict[str, int]:
    """A Cat Lady result with its whole score pad: total VP, fed cats and the PAD lines."""
    return {"total_vp": total, "fed_cats": fed, **pad_lines(*lines)}


def cat_lady_table(*entries):
    """[(player, total_vp, fed_cats), ...] -> participant inputs in seat order."""
    return [
        checks.ParticipantInput(
            player_id=p.pk, seat=i + 1, result={"total_vp": vp, "fed_cats": fed}
        )
        for i, (p, vp, fed) in enumerate(entries)
    ]


def seated(cast, *entries):
    """(cast name or Player, total VP, fed cats) entries -> the (Player, VP, fed) record takes."""
    return [(cast[who] if isinstance(who, str) else who, vp, fed) for who, vp, fed in entries]


def record(league, by, when: dt.date, *entries, **extra):
    return result_services.game_record(
        league=league, logged_by=by, played_on=when, participants=cat_lady_table(*entries), **extra
    )


@pytest.fixture
def log_game(league, users, players):
    """A Tuesday Club game in one line, by cast names: ``log_game("olive", DAY, ("mia", 30, 5),
    ("ned", 20, 3))`` is logged by Olive; each entry is (cast name or Player, total VP, fed
    cats), in seat order. Keyword arguments go to ``game_record`` (place, notes, played_time)."""

    def log(by: str, when: dt.date, *entries, **extra):
        return record(league, users[by], when, *seated(players, *entries), **extra)

    return log


def spring_season(league, users):
    """Olive opens the league's Spring season: 1 March to 31 May 2026."""
    return services.season_create(
        league=league,
        name="Spring",
        starts_on=dt.date(2026, 3, 1),
        ends_on=dt.date(2026, 5, 31),
        by=users["olive"],
    )


def set_rule(league, users, rule, days=7):
    """Olive sets who confirms a logged game (League.Confirmation), and within how many days."""
    return services.league_update(
        league=league,
        by=users["olive"],
        name=league.name,
        description="",
        is_public=True,
        provisional_games=5,
        confirmation=rule,
        confirmation_days=days,
    )
