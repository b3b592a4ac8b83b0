"""OpenSkill as a league's rating system: the library's numbers, stored with their history,
the same incremental and full rebuilds as Elo, switching systems, and the pages."""

from __future__ import annotations

import datetime as dt

import pytest
from openskill.models import PlackettLuce

from league.clubs import services
from league.models import PlayerRating
from league.rating_systems import ELO, OPENSKILL, Elo, OpenSkill, Skill, system_for
from league.results import ratings as rating_pass
from league.results import services as result_services
from tests.league.conftest import olive_saves_settings, record, seated

DAY = dt.date(2026, 10, 1)


def test_openskill_rates_as_the_library_does():
    system = OpenSkill()
    start = system.initial()
    assert (start.mu, start.sigma, start.rating) == (25.0, 25.0 / 3, pytest.approx(0.0))
    changes = system.rate([(1, start, 1), (2, start, 2), (3, start, 2)])
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 2])
    for change, (library,) in zip(changes, expected, strict=True):
        assert change.after.mu == pytest.approx(library.mu)
        assert change.after.sigma == pytest.approx(library.sigma)
        assert change.after.rating == pytest.approx(library.mu - 3 * library.sigma)
    winner, second, third = changes
    assert winner.after.mu > 25 > second.after.mu == pytest.approx(third.after.mu)
    assert all(c.after.sigma < c.before.sigma for c in changes)
    assert [c.actual for c in changes] == [1.0, 0.25, 0.25]
    assert [c.expected for c in changes] == pytest.approx([0.5, 0.5, 0.5])


def test_openskill_expects_more_of_the_stronger_player():
    strong = Skill(rating=0, mu=32.0, sigma=3.0)
    weak = Skill(rating=0, mu=20.0, sigma=3.0)
    first, second = OpenSkill().rate([(1, strong, 2), (2, weak, 1)])
    assert first.expected > 0.5 > second.expected
    assert first.after.mu < strong.mu and second.after.mu > weak.mu


def test_elo_strategy_is_the_league_elo():
    change, other = Elo(k_factor=32).rate([(1, Skill(1500), 1), (2, Skill(1500), 2)])
    assert (change.after.rating, other.after.rating) == (1516.0, 1484.0)


def test_an_unknown_system_is_refused():
    with pytest.raises(ValueError, match="unknown rating system"):
        system_for("glicko")


@pytest.fixture
def openskill_league(users):
    return services.league_create(
        name="Skill Club", slug="skill", game="cat-lady", by=users["olive"], rating_system=OPENSKILL
    )


@pytest.fixture
def cast(openskill_league, users):
    cast = {}
    for name in ("mia", "ned", "pat"):
        cast[name] = services.player_create(name=name.title(), user=users[name])
        services.member_add(league=openskill_league, player=cast[name], by=users[name])
    return cast


def play_three(league, users, cast):
    olive = users["olive"]
    record(league, olive, DAY, *seated(cast, ("mia", 31, 5), ("ned", 28, 4)))
    later = seated(cast, ("ned", 30, 3), ("pat", 22, 6), ("mia", 25, 2))
    record(league, olive, DAY + dt.timedelta(days=7), *later)
    # Backdated: replays the game after it.
    record(league, olive, DAY - dt.timedelta(days=7), *seated(cast, ("pat", 40, 5), ("mia", 20, 4)))


def test_a_league_on_openskill_stores_mu_sigma_and_the_conservative_rating(
    openskill_league, users, cast
):
    play_three(openskill_league, users, cast)
    for game in openskill_league.games.all():
        for p in game.participants.all():
            assert p.rating_after == pytest.approx(p.mu_after - 3 * p.sigma_after)
            assert p.rating_before == pytest.approx(p.mu_before - 3 * p.sigma_before)
    last = (
        cast["mia"]
        .participations.filter(game__league=openskill_league)
        .order_by("-game__played_on")
        .first()
    )
    standing = PlayerRating.objects.get(league=openskill_league, player=cast["mia"])
    assert standing.rating == pytest.approx(last.rating_after)
    assert standing.rated_games == 3


def test_openskill_incremental_ratings_equal_a_full_rebuild(openskill_league, users, cast):
    play_three(openskill_league, users, cast)

    def stored():
        return [
            value
            for _, *values in sorted(
                (p.pk, p.mu_after, p.sigma_after, p.rating_after)
                for g in openskill_league.games.all()
                for p in g.participants.all()
            )
            for value in values
        ]

    before = stored()
    report = result_services.ratings_rebuild(league=openskill_league)
    assert report.zero_sum  # nothing to check: OpenSkill is not zero-sum
    assert not report.zero_sum_expected
    assert stored() == pytest.approx(before)


def test_switching_the_rating_system_rebuilds_every_rating(league, players, users, log_game):
    log_game("olive", DAY, ("mia", 31, 5), ("ned", 28, 4))
    log_game("olive", DAY, ("ned", 33, 5), ("pat", 28, 4))
    elo = dict(PlayerRating.objects.filter(league=league).values_list("player_id", "rating"))
    olive_saves_settings(league, users, rating_system=OPENSKILL)
    league.refresh_from_db()
    assert league.rating_system == OPENSKILL
    skill = dict(PlayerRating.objects.filter(league=league).values_list("player_id", "rating"))
    assert all(-10 < r < 10 for r in skill.values())  # μ − 3σ after two games, not ~1500
    assert not league.games.filter(participants__mu_after__isnull=True).exists()
    assert league.audit.filter(action="rebuild", changes__rating_system=OPENSKILL).exists()

    olive_saves_settings(league, users, rating_system=ELO)
    back = dict(PlayerRating.objects.filter(league=league).values_list("player_id", "rating"))
    assert back == pytest.approx(elo)
    assert not league.games.filter(participants__mu_after__isnull=False).exists()


def test_an_unknown_rating_system_is_a_field_error(league, users):
    with pytest.raises(services.ValidationError) as caught:
        olive_saves_settings(league, users, name="x", rating_system="glicko")
    assert "rating_system" in caught.value.message_dict


# --- pages ----------------------------------------------------------------------------------


def test_organiser_switches_to_openskill_in_the_settings_form(
    client, league, players, users, log_game
):
    log_game("olive", DAY, ("mia", 31, 5), ("ned", 28, 4))
    client.force_login(users["olive"])
    url = f"/leagues/{league.slug}/settings/"
    page = client.get(url)
    assert "Rating system" in page.content.decode()
    response = client.post(
        url,
        {
            "name": league.name,
            "description": "",
            "is_public": "on",
            "provisional_games": 5,
            "rating_system": OPENSKILL,
        },
    )
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.rating_system == OPENSKILL
    bad = client.post(url, {"name": league.name, "provisional_games": 5, "rating_system": "x"})
    assert bad.status_code == 400 and "Select a valid choice" in bad.content.decode()

    standings = client.get(f"/leagues/{league.slug}/").content.decode()
    assert "μ − 3σ" in standings
    game = league.games.get()
    detail = client.get(f"/leagues/{league.slug}/games/{game.pk}/").content.decode()
    assert "OpenSkill" in detail and "σ 8.33 →" in detail
    assert "0.0 → 3.4" in detail  # μ − 3σ with a decimal, not rounded to whole points


def test_game_page_of_an_elo_league_still_explains_elo(client, league, players, users, log_game):
    game = log_game("olive", DAY, ("mia", 31, 5), ("ned", 28, 4))
    detail = client.get(f"/leagues/{league.slug}/games/{game.pk}/").content.decode()
    assert "K × (actual − expected)" in detail and "OpenSkill" not in detail


def test_rebuild_report_of_elo_still_checks_zero_sum(league, players, users, log_game):
    log_game("olive", DAY, ("mia", 31, 5), ("ned", 28, 4))
    report = rating_pass.rebuild_all(league)
    assert report.zero_sum_expected and report.zero_sum
