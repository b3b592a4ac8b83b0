"""A small named cast for league tests: Olive organises the Tuesday Club; Mia, Ned and Pat are
members; Quinn has a player but is not a member; Vic is a visitor with a login and no player."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.clubs import services
from league.models import League, Player
from league.nights import services as nights
from league.results import checks
from league.results import seating as night_seating
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


@pytest.fixture
def friday(users, players):
    """Olive's Friday league plays Cantankerous Cats; Mia and Ned are its members."""
    league = services.league_create(
        name="Friday", slug="friday", game="cantankerous-cats", by=users["olive"]
    )
    for name in ("mia", "ned"):
        services.member_add(league=league, player=players[name], by=users[name])
    return league


@pytest.fixture
def seven(users, league, players):
    """Olive, Mia, Ned and Pat, with three guests Olive brings: seven people."""
    cast = members(players)
    for name in ("Rosa", "Sam", "Tom"):
        cast.append(services.guest_add(league=league, name=name, by=users["olive"]).player)
    return cast


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


def log_solitaire(league, users, when: dt.date, player, vp: int, cat_player_vp: int):
    """Olive logs a solitaire game: the player's VP against the cat player's (never rated)."""
    return result_services.game_record(
        league=league,
        logged_by=users["olive"],
        played_on=when,
        edition="solitaire",
        details={"cat_player_vp": cat_player_vp},
        participants=[checks.ParticipantInput(player_id=player.pk, result={"total_vp": vp})],
    )


def spring_season(league, users):
    """Olive opens the league's Spring season: 1 March to 31 May 2026."""
    return services.season_create(
        league=league,
        name="Spring",
        starts_on=dt.date(2026, 3, 1),
        ends_on=dt.date(2026, 5, 31),
        by=users["olive"],
    )


def members(players) -> list[Player]:
    """Olive, Mia, Ned and Pat: the Tuesday Club's four members."""
    return [players[name] for name in ("olive", "mia", "ned", "pat")]


def olive_opens_night(league, users, played_on, present, *, rounds, **options):
    """Olive opens a Cat Lady (base) game night on ``played_on`` for the ``present`` players."""
    return nights.night_open(
        league=league,
        by=users["olive"],
        played_on=played_on,
        edition="base",
        rounds=rounds,
        present=present,
        **options,
    )


def olive_saves_settings(league, users, **changes):
    """Olive saves the league's settings form with ``changes``; the fields the form requires
    keep the values the league has."""
    kept = {
        "name": league.name,
        "description": league.description,
        "is_public": league.is_public,
        "provisional_games": league.provisional_games,
    }
    return services.league_update(league=league, by=users["olive"], **(kept | changes))


def another_confirms(league) -> None:
    """The league asks another participant to confirm each logged game: set on the row itself,
    not through the settings service (so no audit entry or changelog line)."""
    League.objects.filter(pk=league.pk).update(confirmation=League.Confirmation.ANOTHER)
    league.refresh_from_db()


def mia_logs_a_night_of_two_rounds(league, users, players, played_on):
    """Olive runs a two-round night of the four members; Mia logs both tables' games. Returns
    the night and its games."""
    night = olive_opens_night(league, users, played_on, members(players), rounds=2)
    games = []
    for _ in range(2):
        table = nights.round_draw(night=night, by=users["olive"]).tables.get()
        participants = [
            checks.ParticipantInput(player_id=pid, seat=seat, result={"total_vp": 40 - seat})
            for seat, pid in enumerate(night_seating.table_setup(table), start=1)
        ]
        games.append(
            nights.table_game_record(
                table=table, logged_by=users["mia"], participants=participants, played_on=played_on
            )
        )
    return night, games


def set_rule(league, users, rule, days=7):
    """Olive sets who confirms a logged game (League.Confirmation), and within how many days."""
    return olive_saves_settings(
        league,
        users,
        description="",
        is_public=True,
        provisional_games=5,
        confirmation=rule,
        confirmation_days=days,
    )
