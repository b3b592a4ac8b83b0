"""A new version's gauntlet before it goes live: created after validation only when the bot
has an active version, its match set (deals x seat rotations x opponents), the Wilson interval,
the owner's promote / keep / "promote when not worse", the pages, and a small gauntlet played
for real through eager Celery."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client

from arena.gauntlet import services
from arena.gauntlet.interval import verdict, wilson
from arena.gauntlet.selectors import gauntlet_opponents, gauntlet_tallies
from arena.gauntlet.services import deal_seeds, matches_per_gauntlet
from arena.matches.services import match_fail
from arena.models import BotVersion, Gauntlet, GauntletMatch, LadderEntry, Match
from arena.submissions.services import bot_create, version_upload
from tests.arena.gauntlet_cast import finish, finish_every_deal, matches_against, on_trial

Opponent = GauntletMatch.Opponent


# --- the interval, pure ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [(5, 10, 0.2366, 0.7634), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (9, 12, 0.4677, 0.9111)],
)
def test_wilson_interval_on_known_numbers(wins, games, low, high):
    interval = wilson(wins, games)
    assert (round(interval.low, 4), round(interval.high, 4)) == (low, high)


def test_wilson_refuses_no_games_and_impossible_wins():
    with pytest.raises(ValueError, match="at least one game"):
        wilson(0, 0)
    with pytest.raises(ValueError):
        wilson(4, 3)


def test_verdict_says_worse_not_worse_and_better():
    assert verdict(wilson(1, 12), "v1").startswith("worse than v1: the interval’s upper end")
    assert verdict(wilson(6, 12), "v1").startswith("not worse than v1: the interval’s upper end")
    assert verdict(wilson(12, 12), "v1").startswith("better than v1: the interval’s lower end")
    assert wilson(2, 12).not_worse is False and wilson(3, 12).not_worse is True


# --- the match set ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_match_set_is_deals_by_seat_rotations_by_opponents():
    gauntlet = on_trial(deals=3)
    finish_every_deal(gauntlet, lambda match: 1)
    games = list(GauntletMatch.objects.filter(gauntlet=gauntlet).select_related("match"))
    assert len(games) == matches_per_gauntlet(3) == 3 * 2 * 3
    seeds = deal_seeds(gauntlet.seed, 3)
    for deal in range(3):
        of_deal = [g for g in games if g.deal == deal]
        assert len(of_deal) == 6
        assert {g.match.seed for g in of_deal} == {seeds[deal]}
        assert {g.match.duplicate_set for g in of_deal} == {f"gauntlet-{gauntlet.pk}-deal-{deal}"}
        for opponent in gauntlet_opponents("cat-lady"):
            pair = [g.match for g in of_deal if g.opponent == opponent]
            seat_of_v2 = sorted(
                next(s.seat for s in m.seats.all() if s.version_id == gauntlet.version_id)
                for m in pair
            )
            assert seat_of_v2 == [0, 1]  # played from both seats
    assert {g.match.kind for g in games} == {Match.Kind.GAUNTLET}
    assert {g.match.ladder_id for g in games} == {None}
    mcts = [s for g in games for s in g.match.seats.all() if s.builtin == "mcts"]
    assert len(mcts) == 6 and {s.strength for s in mcts} == {"medium"}
    replaced = [
        s for g in games for s in g.match.seats.all() if s.version_id == gauntlet.replaces_id
    ]
    assert len(replaced) == 6


def _queued_deals(gauntlet) -> list[int]:
    return sorted(
        set(GauntletMatch.objects.filter(gauntlet=gauntlet).values_list("deal", flat=True))
    )


@pytest.mark.django_db
def test_deals_are_queued_two_at_a_time_and_the_next_as_one_is_over(settings):
    gauntlet = on_trial(deals=4)
    assert settings.ARENA_GAUNTLET_DEALS_AT_ONCE == 2
    assert _queued_deals(gauntlet) == [0, 1]  # 12 matches, not 24
    first = list(
        Match.objects.filter(gauntlet_game__gauntlet=gauntlet, gauntlet_game__deal=0).order_by("pk")
    )
    for match in first[:-1]:
        finish(match, 1)
    assert _queued_deals(gauntlet) == [0, 1]  # deal 0 still has a match to play
    match_fail(match_id=first[-1].pk, reason="stuck: its worker was lost in each of 3 attempts")
    assert _queued_deals(gauntlet) == [0, 1, 2]  # over, failed match and all: the next one
    tallies = gauntlet_tallies(gauntlet)
    assert [(t.played, t.total) for t in tallies] == [(2, 8), (2, 8), (1, 8)]
    assert finish_every_deal(gauntlet, lambda match: 1) == 18
    assert _queued_deals(gauntlet) == [0, 1, 2, 3]
    gauntlet.refresh_from_db()
    assert gauntlet.finished


@pytest.mark.django_db
def test_once_the_old_version_is_kept_no_further_deal_is_queued():
    gauntlet = on_trial(deals=4)
    services.gauntlet_keep(gauntlet=gauntlet, by=gauntlet.version.bot.owner)
    assert finish_every_deal(gauntlet, lambda match: 0) == 12  # the two deals already queued
    assert _queued_deals(gauntlet) == [0, 1]
    gauntlet.refresh_from_db()
    assert gauntlet.finished
    assert [t.total for t in gauntlet_tallies(gauntlet)] == [4, 4, 4]  # what it played


@pytest.mark.django_db
def test_a_version_on_trial_stays_off_the_ladder():
    gauntlet = on_trial()
    v2 = gauntlet.version
    v2.refresh_from_db()
    assert v2.status == BotVersion.Status.TRIAL
    assert v2.bot.active_version_id == gauntlet.replaces_id
    assert not LadderEntry.objects.filter(version=v2).exists()


# --- counting ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_wins_ties_count_half_and_failed_matches_are_left_out():
    gauntlet = on_trial(deals=2)
    old = matches_against(gauntlet, Opponent.REPLACED)
    finish(old[0], 1)
    finish(old[1], 0.5)
    finish(old[2], 0)
    match_fail(match_id=old[3].pk, reason="stuck: its worker was lost in each of 3 attempts")
    greedy = matches_against(gauntlet, Opponent.GREEDY)
    finish(greedy[0], 1)
    tallies = {t.opponent: t for t in gauntlet_tallies(gauntlet)}
    against_old = tallies[Opponent.REPLACED]
    assert (against_old.total, against_old.played, against_old.failed) == (4, 3, 1)
    assert against_old.wins == 1.5 and against_old.rate == 0.5
    assert against_old.interval == wilson(1.5, 3)
    assert against_old.label == "v1"
    assert tallies[Opponent.GREEDY].played == 1 and tallies[Opponent.GREEDY].wins == 1
    assert tallies[Opponent.MCTS].interval is None and tallies[Opponent.MCTS].label.endswith(
        "mcts · medium"
    )
    gauntlet.refresh_from_db()
    assert not gauntlet.finished


@pytest.mark.django_db
def test_the_gauntlet_ends_with_its_last_match_even_a_failed_one():
    gauntlet = on_trial(deals=1)
    matches = list(Match.objects.filter(gauntlet_game__gauntlet=gauntlet).order_by("pk"))
    for match in matches[:-1]:
        finish(match, 1)
    gauntlet.refresh_from_db()
    assert not gauntlet.finished
    match_fail(match_id=matches[-1].pk, reason="EngineError: a setup the arena got wrong")
    gauntlet.refresh_from_db()
    assert gauntlet.finished
    assert sum(t.played for t in gauntlet_tallies(gauntlet)) == 5  # never counted as a loss


# --- the owner's decision ----------------------------------------------------------------------


def statuses(*versions: BotVersion) -> tuple[str, ...]:
    for version in versions:
        version.refresh_from_db()
    return tuple(version.status for version in versions)


@pytest.mark.django_db
def test_promote_puts_the_new_version_on_the_ladder_with_its_own_rating():
    gauntlet = on_trial()
    v1, v2 = gauntlet.replaces, gauntlet.version
    services.gauntlet_promote(gauntlet=gauntlet, by=v2.bot.owner)
    assert statuses(v1, v2) == (BotVersion.Status.RETIRED, BotVersion.Status.ACTIVE)
    v2.bot.refresh_from_db()
    assert v2.bot.active_version_id == v2.pk
    new_entries = LadderEntry.objects.filter(version=v2)
    assert new_entries.exists()
    assert {(e.rating, e.games) for e in new_entries} == {(1500.0, 0)}
    assert {e.rating for e in LadderEntry.objects.filter(version=v1)} == {1612.0}
    gauntlet.refresh_from_db()
    assert gauntlet.decision == Gauntlet.Decision.PROMOTED and gauntlet.decided_by == v2.bot.owner


@pytest.mark.django_db
def test_keep_the_old_one_retires_the_new_version_and_a_second_decision_is_refused():
    gauntlet = on_trial()
    v1, v2 = gauntlet.replaces, gauntlet.version
    services.gauntlet_keep(gauntlet=gauntlet, by=v2.bot.owner)
    assert statuses(v1, v2) == (BotVersion.Status.ACTIVE, BotVersion.Status.RETIRED)
    assert not LadderEntry.objects.filter(version=v2).exists()
    with pytest.raises(ValidationError, match="decided already"):
        services.gauntlet_promote(gauntlet=gauntlet, by=v2.bot.owner)
    v2.refresh_from_db()
    assert v2.status == BotVersion.Status.RETIRED


@pytest.mark.django_db
def test_only_the_owner_decides(django_user_model):
    gauntlet = on_trial()
    bob = django_user_model.objects.create_user("bob", password="pw-123456789")
    for decide in (services.gauntlet_promote, services.gauntlet_keep):
        with pytest.raises(PermissionDenied):
            decide(gauntlet=gauntlet, by=bob)
    with pytest.raises(PermissionDenied):
        services.gauntlet_auto_rule(gauntlet=gauntlet, by=bob, promote_when_not_worse=True)
    gauntlet.refresh_from_db()
    assert gauntlet.decision == Gauntlet.Decision.PENDING and not gauntlet.promote_when_not_worse


@pytest.mark.django_db
def test_promote_when_not_worse_promotes_at_the_end_when_not_shown_worse():
    gauntlet = on_trial(deals=2)
    services.gauntlet_auto_rule(
        gauntlet=gauntlet, by=gauntlet.version.bot.owner, promote_when_not_worse=True
    )
    for index, match in enumerate(Match.objects.filter(gauntlet_game__gauntlet=gauntlet)):
        finish(match, index % 2)  # half the games won: 2 of 4 against v1
    gauntlet.refresh_from_db()
    gauntlet.version.refresh_from_db()
    assert gauntlet.finished and gauntlet.decision == Gauntlet.Decision.PROMOTED
    assert gauntlet.decided_by is None
    assert gauntlet.decision_note.startswith("Promoted by the rule: not worse than v1")
    assert gauntlet.version.status == BotVersion.Status.ACTIVE


@pytest.mark.django_db
def test_promote_when_not_worse_keeps_the_old_one_when_shown_worse():
    gauntlet = on_trial(deals=6)
    services.gauntlet_auto_rule(
        gauntlet=gauntlet, by=gauntlet.version.bot.owner, promote_when_not_worse=True
    )
    finish_every_deal(
        gauntlet, lambda match: 0 if match.gauntlet_game.opponent == Opponent.REPLACED else 1
    )
    gauntlet.refresh_from_db()
    gauntlet.version.refresh_from_db()
    assert gauntlet.finished and gauntlet.decision == Gauntlet.Decision.PENDING
    assert gauntlet.decision_note.startswith("Not promoted by the rule: worse than v1")
    assert gauntlet.version.status == BotVersion.Status.TRIAL


@pytest.mark.django_db
def test_the_rule_cannot_be_set_once_the_gauntlet_is_over():
    gauntlet = on_trial(deals=1)
    for match in Match.objects.filter(gauntlet_game__gauntlet=gauntlet):
        finish(match, 1)
    with pytest.raises(ValidationError, match="over"):
        services.gauntlet_auto_rule(
            gauntlet=gauntlet, by=gauntlet.version.bot.owner, promote_when_not_worse=True
        )


# --- pages -------------------------------------------------------------------------------------


def _client(user=None, **kwargs) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_page_shows_each_opponent_with_its_interval_and_verdict():
    gauntlet = on_trial(deals=2)
    old = matches_against(gauntlet, Opponent.REPLACED)
    for match, score in zip(old, [1, 1, 0.5, 0], strict=True):
        finish(match, score)
    page = _client().get("/arena/bots/tabby/v2/gauntlet/").content.decode()
    assert "4 of 4" in page and "0 of 4" in page and "4 of 12" in page
    low, high = wilson(2.5, 4).low, wilson(2.5, 4).high
    assert (
        f"{low:.0%} – {high:.0%}" in page or f"{round(low * 100)}% – {round(high * 100)}%" in page
    )
    assert "Not worse than v1: the interval’s upper end" in page
    assert "promote when not worse" in page
    assert str(gauntlet.seed) not in page and "its seed was" not in page  # deals hidden
    assert 'http-equiv="refresh"' in page
    assert "Promote v2" not in page  # a visitor sees no decision form
    owner_page = _client(gauntlet.version.bot.owner).get("/arena/bots/tabby/v2/gauntlet/")
    assert "Promote v2" in owner_page.content.decode()
    bot_page = _client().get("/arena/bots/tabby/").content.decode()
    assert 'href="/arena/bots/tabby/v2/gauntlet/"' in bot_page


@pytest.mark.django_db
def test_a_version_without_a_gauntlet_has_no_page():
    on_trial()
    assert _client().get("/arena/bots/tabby/v1/gauntlet/").status_code == 404


@pytest.mark.django_db
def test_deciding_is_the_owners_post_with_its_csrf_token(django_user_model):
    gauntlet = on_trial()
    url = "/arena/bots/tabby/v2/gauntlet/decide/"
    bob = django_user_model.objects.create_user("bob", password="pw-123456789")
    assert _client(bob).post(url, {"action": "promote"}).status_code == 403
    assert _client().post(url, {"action": "promote"}).status_code == 403
    owner = gauntlet.version.bot.owner
    assert _client(owner).get(url).status_code == 405
    assert (
        _client(owner, enforce_csrf_checks=True).post(url, {"action": "promote"}).status_code == 403
    )
    refused = _client(owner).post(url, {"action": "launch"})
    assert refused.status_code == 400 and "Select a valid choice" in refused.content.decode()
    gauntlet.refresh_from_db()
    assert gauntlet.decision == Gauntlet.Decision.PENDING
    done = _client(owner).post(url, {"action": "promote"}, follow=True)
    assert "v2 is promoted" in done.content.decode()
    again = _client(owner).post(url, {"action": "keep"})
    assert again.status_code == 400 and "decided already: Promoted" in again.content.decode()


@pytest.mark.django_db
def test_setting_the_rule_after_the_end_is_refused_beside_the_field():
    gauntlet = on_trial(deals=3)  # 0 wins in 6 against v1: shown worse
    owner = _client(gauntlet.version.bot.owner)
    url = "/arena/bots/tabby/v2/gauntlet/decide/"
    assert owner.post(url, {"action": "rule", "promote_when_not_worse": "on"}).status_code == 302
    gauntlet.refresh_from_db()
    assert gauntlet.promote_when_not_worse
    finish_every_deal(
        gauntlet, lambda match: 0 if match.gauntlet_game.opponent == Opponent.REPLACED else 1
    )
    response = owner.post(url, {"action": "rule"})
    assert response.status_code == 400, response.content.decode()[-3000:]
    assert "The gauntlet is over, so the rule can no longer apply" in response.content.decode()
    assert "Not promoted by the rule" in response.content.decode()


# --- played for real ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_first_version_goes_live_without_a_gauntlet(
    authors, source, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        bot = bot_create(owner=authors["ada"], name="firsty", source=source("first_legal"))
    bot.refresh_from_db()
    assert bot.active_version is not None
    assert bot.active_version.status == BotVersion.Status.ACTIVE
    assert not Gauntlet.objects.exists()


@pytest.mark.django_db
def test_a_small_gauntlet_plays_for_real_after_validation(
    authors, source, eager_celery, django_capture_on_commit_callbacks, settings
):
    settings.ARENA_GAUNTLET_DEALS = 1
    with django_capture_on_commit_callbacks(execute=True):
        bot = bot_create(owner=authors["ada"], name="twice", source=source("first_legal"))
    v1 = bot.versions.get()
    with django_capture_on_commit_callbacks(execute=True):
        v2 = version_upload(bot=bot, source=source("last_legal_by_index"), by=authors["ada"])
    v2.refresh_from_db()
    bot.refresh_from_db()
    assert v2.status == BotVersion.Status.TRIAL and bot.active_version_id == v1.pk
    gauntlet = Gauntlet.objects.get(version=v2)
    matches = Match.objects.filter(gauntlet_game__gauntlet=gauntlet)
    assert matches.count() == 6
    assert set(matches.values_list("status", flat=True)) == {Match.Status.FINISHED}
    assert not matches.filter(seats__rating_before__isnull=False).exists()  # none rated
    gauntlet.refresh_from_db()
    assert gauntlet.finished and gauntlet.decision == Gauntlet.Decision.PENDING
    tallies = gauntlet_tallies(gauntlet)
    assert [(t.played, t.total) for t in tallies] == [(2, 2)] * 3
    assert all(t.interval is not None for t in tallies)
    page = _client().get("/arena/bots/twice/v2/gauntlet/").content.decode()
    assert "6 of 6" in page and str(gauntlet.seed) in page  # over: the seed may be shown


CANTANKEROUS_FIRST = "def choose(observation, legal_actions):\n    return 0\n"
CANTANKEROUS_LAST = "def choose(observation, legal_actions):\n    return len(legal_actions) - 1\n"


@pytest.mark.django_db
def test_a_cantankerous_gauntlet_meets_the_house_bots_that_game_has(
    authors, eager_celery, django_capture_on_commit_callbacks, settings
):
    # Cantankerous Cats has no house mcts: its gauntlet meets greedy and random instead (it
    # once failed to start, leaving the new version "validating" for ever).
    settings.ARENA_GAUNTLET_DEALS = 1
    with django_capture_on_commit_callbacks(execute=True):
        bot = bot_create(
            owner=authors["ada"], name="grumpy", source=CANTANKEROUS_FIRST, game="cantankerous-cats"
        )
    with django_capture_on_commit_callbacks(execute=True):
        v2 = version_upload(bot=bot, source=CANTANKEROUS_LAST, by=authors["ada"])
    v2.refresh_from_db()
    assert v2.status == BotVersion.Status.TRIAL, v2.rejection
    gauntlet = Gauntlet.objects.get(version=v2)
    matches = Match.objects.filter(gauntlet_game__gauntlet=gauntlet)
    assert matches.count() == matches_per_gauntlet(1) == 6
    assert set(matches.values_list("status", flat=True)) == {Match.Status.FINISHED}
    assert set(matches.values_list("game", flat=True)) == {"cantankerous-cats"}
    house = {s.builtin for m in matches for s in m.seats.all() if s.builtin}
    assert house == {"greedy", "random"}
    tallies = gauntlet_tallies(gauntlet)
    assert [t.opponent for t in tallies] == ["replaced", "greedy", "random"]
    assert [(t.played, t.total) for t in tallies] == [(2, 2)] * 3
    page = _client().get("/arena/bots/grumpy/v2/gauntlet/").content.decode()
    assert "house greedy and house random:" in page and "mcts" not in page
    assert "Against house:random" in page


@pytest.mark.django_db
def test_a_deal_stays_hidden_until_its_six_matches_are_over():
    gauntlet = on_trial(deals=2)
    deal = list(Match.objects.filter(gauntlet_game__gauntlet=gauntlet, gauntlet_game__deal=0))
    assert len(deal) == 6
    for match in deal[:-1]:
        finish(match, 1)
    page = _client().get(f"/arena/matches/{deal[0].pk}/").content.decode()
    first = Match.objects.get(pk=deal[0].pk)
    assert not first.deal_revealed and str(first.seed) not in page
    finish(deal[-1], 1)
    first.refresh_from_db()
    assert first.deal_revealed
    assert str(first.seed) in _client().get(f"/arena/matches/{first.pk}/").content.decode()
