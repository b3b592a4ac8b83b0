"""The public league pages through Django's test client: what each page shows, and to whom."""

import datetime as dt
import re

import pytest

from league.clubs import services
from league.models import League
from league.results import checks, standings
from league.results import selectors as result_selectors
from league.results import services as result_services
from tests.league.conftest import log_solitaire, record, score_pad, spring_season

pytestmark = pytest.mark.django_db

D = dt.date(2026, 3, 1)


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def text(response) -> str:
    """The page's visible text with tags dropped and spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html(response)))


@pytest.fixture
def private_league(users, players):
    league = services.league_create(
        name="Secret Society", slug="secret", game="cat-lady", by=users["olive"], is_public=False
    )
    services.member_add(league=league, player=players["mia"], by=users["mia"])
    services.member_add(league=league, player=players["quinn"], by=users["quinn"])
    return league


def test_home_lists_leagues_with_counts_and_recent_games(client, league, players, users, log_game):
    log_game("olive", D, ("mia", 30, 5), ("ned", 2, 1))
    page = text(client.get("/"))
    assert "Tuesday Club" in page and "1 game · 2 players · last played 1 Mar 2026" in page
    assert "1st Mia 30 +16.0 2nd Ned 2 −16.0" in page


def test_private_league_is_hidden_from_visitors_and_shown_to_members(
    client, league, private_league, players, users
):
    record(private_league, users["olive"], D, (players["mia"], 30, 5), (players["quinn"], 2, 1))
    assert "Secret Society" not in html(client.get("/"))
    assert "Quinn" not in html(client.get("/"))
    assert client.get("/leagues/secret/").status_code == 404
    game = private_league.games.get()
    assert client.get(f"/leagues/secret/games/{game.pk}/").status_code == 404
    client.force_login(users["quinn"])
    assert "Secret Society" in html(client.get("/leagues/"))
    assert "Quinn" in html(client.get("/leagues/secret/"))


def test_standings_show_rating_provisional_mark_games_wins_placement_and_trend(
    client, league, players, users, log_game
):
    log_game("olive", D, ("mia", 30, 5), ("ned", 2, 1))
    page = html(client.get("/leagues/tuesday/"))
    mia_row = re.search(r"<tr[^>]*>\s*<td class=\"num\">1</td>.*?</tr>", page, re.S).group(0)
    assert "Mia" in mia_row and "1516" in mia_row and "provisional" in mia_row
    cells = re.findall(r"<td[^>]*>(.*?)</td>", mia_row, re.S)
    assert [re.sub(r"<[^>]+>|\s+", "", c) for c in cells[1:5]] == ["1516", "1", "1", "1.00"]
    assert "+16.0" in cells[5] and "(rising)" in cells[5]
    assert page.index(">Mia<") < page.index(">Ned<")
    assert '<th scope="col" class="num">Rating</th>' in page
    assert '<caption id="standings-caption">Standings' in page


def test_season_standings_and_games_count_only_that_season(
    client, league, players, users, log_game
):
    log_game("olive", dt.date(2026, 1, 10), ("ned", 30, 5), ("mia", 2, 1))
    spring = spring_season(league, users)
    log_game("olive", dt.date(2026, 3, 5), ("pat", 30, 5), ("mia", 2, 1))
    page = html(client.get(f"/leagues/tuesday/?season={spring.pk}"))
    assert "Standings for Spring" in page and 'aria-current="page">Spring</a>' in page
    standings = page[page.index("standings-caption") : page.index("</table>")]
    assert "Pat" in standings and "Mia" in standings and "Ned" not in standings
    games = page[page.index("Games in Spring") :]
    assert "5 Mar 2026" in games and "10 Jan 2026" not in games
    everything = html(client.get("/leagues/tuesday/"))
    assert "10 Jan 2026" in everything and "5 Mar 2026" in everything


@pytest.mark.parametrize("season", ["999999", "spring", "-1"])
def test_unknown_season_is_not_found(client, league, season):
    assert client.get(f"/leagues/tuesday/?season={season}").status_code == 404


def test_league_games_are_paginated(client, league, players, users, log_game):
    for day in range(1, 23):
        log_game("olive", dt.date(2026, 1, day), ("mia", day, 1), ("ned", 0, 0))
    first = html(client.get("/leagues/tuesday/"))
    assert ">22 Jan 2026<" in first and ">3 Jan 2026<" in first and ">2 Jan 2026<" not in first
    assert "Page 1 of 2" in first and 'href="?page=2#games"' in first
    second = html(client.get("/leagues/tuesday/?page=2"))
    assert ">2 Jan 2026<" in second and ">1 Jan 2026<" in second and ">22 Jan 2026<" not in second
    # A page past the end shows the last page rather than an error.
    assert "Page 2 of 2" in html(client.get("/leagues/tuesday/?page=99"))


def test_game_page_shows_results_rating_changes_and_why(client, league, players, users):
    game = result_services.game_record(
        league=league,
        logged_by=users["olive"],
        played_on=D,
        participants=[
            checks.ParticipantInput(
                player_id=players["ned"].pk,
                seat=1,
                result=score_pad(22, 4, (14, 3, 6, 1, 0, -2)),
            ),
            checks.ParticipantInput(
                player_id=players["mia"].pk,
                seat=2,
                result=score_pad(30, 5, (20, 8, -2, 4, 0, 0)),
            ),
        ],
    )
    page = text(client.get(f"/leagues/tuesday/games/{game.pk}/"))
    assert page.index("1st winner Mia") < page.index("2nd Ned")
    assert "Fed cats: 5" in page  # the tie-break detail beside the score
    assert "1500 → 1516 +16.0 0.50 → 1.00" in page
    assert "1500 → 1484 −16.0 0.50 → 0.00" in page
    assert "Why the ratings moved" in page and "K = 32" in page
    assert (
        "Mia finished ahead of 1 and behind 0 of 1 opponent: actual 1.00 against an expected 0.50 "
        "(rating 1500), so 32 × (1.00 − 0.50) = +16.0 — better than expected." in page
    )
    assert "Score pad" in page and "Costumes -2 6" in page and "Total 30 22" in page


@pytest.mark.parametrize(
    ("confirmation", "who", "queries"),
    [
        # The league, the game (with its logger's player), its participants with theirs.
        ("none", None, 3),
        # ... and, while the result waits, its open dispute and who confirmed it so far.
        ("another", None, 5),
        # ... and the session, the login, its role in the league and its player (the page's
        # header); whether they confirmed it already; who is asked to; how many games wait
        # for them (the menu's count, on every page).
        ("another", "ned", 12),
    ],
)
def test_game_page_reads_the_database_a_fixed_number_of_times(
    client, league, players, users, django_assert_num_queries, confirmation, who, queries
):
    League.objects.filter(pk=league.pk).update(confirmation=confirmation)
    league.refresh_from_db()
    cast = [(players[name], 30 - i, 3) for i, name in enumerate(("mia", "ned", "pat", "olive"))]
    game = record(league, users["mia"], D, *cast)
    if who is not None:
        client.force_login(users[who])
    with django_assert_num_queries(queries):
        page = html(client.get(f"/leagues/tuesday/games/{game.pk}/"))
    assert "Waiting for confirmation" in page if confirmation != "none" else "Waiting" not in page
    assert ("Confirm this result" in page) == (who == "ned")


def test_game_page_of_another_league_is_not_found(client, league, players, users, log_game):
    other = services.league_create(name="Friday", slug="friday", game="cat-lady", by=users["olive"])
    game = log_game("olive", D, ("mia", 30, 5), ("ned", 2, 1))
    assert client.get(f"/leagues/{other.slug}/games/{game.pk}/").status_code == 404
    assert client.get("/leagues/tuesday/games/999999/").status_code == 404


def test_unrated_solitaire_game_says_it_is_not_rated(client, league, players, users):
    game = log_solitaire(league, users, D, players["mia"], 25, 20)
    page = text(client.get(f"/leagues/tuesday/games/{game.pk}/"))
    assert (
        "unrated" in page and "not rated: solitaire games" in page and "beat the cat player" in page
    )


def test_player_page_has_chart_games_and_head_to_head(client, league, players, users, log_game):
    mia, ned, pat = players["mia"], players["ned"], players["pat"]
    log_game("olive", dt.date(2026, 1, 5), (mia, 30, 5), (ned, 20, 1), (pat, 10, 1))
    log_game("olive", dt.date(2026, 1, 12), (ned, 30, 5), (mia, 20, 1))
    log_game("olive", dt.date(2026, 1, 19), (mia, 25, 5), (pat, 25, 5))
    page = html(client.get(f"/players/{mia.pk}/"))
    assert '<svg class="chart-svg"' in page and "Mia&#x27;s rating over time" in page
    assert page.count("<polyline") == 1 and "Tuesday Club: 3 rated games from 5 Jan 2026" in page
    assert "Mia's games, newest first (3 in all)" in page
    h2h = text(client.get(f"/players/{mia.pk}/"))
    h2h = h2h[h2h.index("Head to head") :]
    assert "Ned 2 1 1 0 50%" in h2h and "Pat 2 1 0 1 50%" in h2h
    standing = text(client.get(f"/players/{mia.pk}/?league=tuesday"))
    assert "Current standing" in standing and "Tuesday Club" in standing


def test_player_page_hides_private_league_games_from_those_who_cannot_see_them(
    client, league, private_league, players, users, log_game
):
    mia, quinn = players["mia"], players["quinn"]
    log_game("olive", D, (mia, 30, 5), ("ned", 2, 1))
    record(private_league, users["olive"], D, (mia, 30, 5), (quinn, 2, 1))
    public_view = html(client.get(f"/players/{mia.pk}/"))
    assert "Secret Society" not in public_view and "Quinn" not in public_view
    assert "(1 in all)" in public_view
    # Quinn plays only in the private league: not shown to visitors at all.
    assert client.get(f"/players/{quinn.pk}/").status_code == 404
    assert client.get(f"/players/{mia.pk}/?league=secret").status_code == 404
    client.force_login(users["quinn"])
    member_view = html(client.get(f"/players/{mia.pk}/"))
    assert "Secret Society" in member_view and "(2 in all)" in member_view
    assert member_view.count("<polyline") == 2  # one line per league


def test_header_has_skip_link_navigation_and_log_in_link_for_visitors(client, league):
    page = html(client.get("/leagues/"))
    assert 'href="#content"' in page and 'id="content"' in page
    assert '<nav class="site-nav" aria-label="Main">' in page
    assert 'href="/leagues/" aria-current="page"' in page
    assert 'href="/accounts/login/?next=/leagues/"' in page and "Log out" not in page
    assert "Log a game" not in page
    assert "Tuesday Club" in page and "<footer" in page


def test_header_names_the_signed_in_player_and_logs_out_by_post(client, players, users):
    client.force_login(users["mia"])
    page = html(client.get("/"))
    assert "<strong>Mia</strong></a>" in page and "Signed in as" in page and "Log a game" in page
    assert '<form method="post" action="/accounts/logout/"' in page
    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and "_auth_user_id" not in client.session


def test_login_form_shows_its_error_and_labels(client, users):
    page = html(client.get("/accounts/login/"))
    assert '<label for="id_login">Username or e-mail' in page
    assert '<label for="id_password">Password' in page
    response = client.post("/accounts/login/", {"login": "mia", "password": "wrong"})
    assert "username and/or password you specified are not correct" in html(response)
    response = client.post("/accounts/login/", {"login": "mia", "password": "pw-123456789"})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(users["mia"].pk)


def test_logging_out_returns_home_with_a_log_in_link(client, users):
    client.force_login(users["mia"])
    page = html(client.post("/accounts/logout/", follow=True))
    assert "Signed in as" not in page and ">Log in</a>" in page


# --- the selectors behind the pages --------------------------------------------------------


def test_league_summaries_count_games_and_rated_players(
    league, private_league, players, users, log_game
):
    log_game("olive", D, ("mia", 30, 5), ("ned", 2, 1))
    log_game("olive", D + dt.timedelta(days=3), ("mia", 30, 5), ("pat", 2, 1))
    summaries = {
        s.league.slug: s for s in result_selectors.league_summaries(leagues=League.objects.all())
    }
    assert (summaries["tuesday"].games, summaries["tuesday"].players) == (2, 3)
    assert summaries["tuesday"].last_played_on == D + dt.timedelta(days=3)
    assert (
        summaries["secret"].games,
        summaries["secret"].players,
        summaries["secret"].last_played_on,
    ) == (0, 0, None)


def test_recent_games_are_newest_first_with_players_in_finishing_order(
    league, players, users, log_game
):
    log_game("olive", D, ("mia", 30, 5), ("ned", 2, 1))
    late = log_game("olive", D, ("ned", 10, 1), ("mia", 20, 1), played_time=dt.time(21, 0))
    games = list(result_selectors.recent_games(league=league))
    assert games[0].pk == late.pk
    assert [p.player.name for p in games[0].participants.all()] == ["Mia", "Ned"]
    assert [g.pk for g in result_selectors.latest_games(leagues=[league], limit=1)] == [late.pk]


def test_latest_games_merge_the_newest_of_every_league(
    league, private_league, players, users, log_game
):
    old = log_game("olive", D, ("mia", 30, 5), ("ned", 2, 1))
    new = record(
        private_league,
        users["olive"],
        D + dt.timedelta(days=1),
        (players["mia"], 3, 1),
        (players["quinn"], 2, 1),
    )
    newest = log_game("olive", D + dt.timedelta(days=2), ("pat", 3, 1), ("ned", 2, 1))
    both = [league, private_league]
    assert [g.pk for g in result_selectors.latest_games(leagues=both, limit=2)] == [
        newest.pk,
        new.pk,
    ]
    assert [g.pk for g in result_selectors.latest_games(leagues=both, limit=5)] == [
        newest.pk,
        new.pk,
        old.pk,
    ]
    assert [g.pk for g in result_selectors.latest_games(leagues=[league], limit=5)] == [
        newest.pk,
        old.pk,
    ]


def test_player_games_and_head_to_head_keep_to_the_given_leagues(
    league, private_league, players, users, log_game
):
    mia = players["mia"]
    log_game("olive", D, (mia, 30, 5), ("ned", 2, 1))
    record(private_league, users["olive"], D, (players["quinn"], 30, 5), (mia, 2, 1))
    ids = result_selectors.player_game_ids(player=mia, leagues=[league])
    assert [p.game.league.slug for p in result_selectors.player_game_rows(ids=ids)] == ["tuesday"]
    assert [
        h.opponent_name for h in result_selectors.head_to_head(player=mia, leagues=[league])
    ] == ["Ned"]
    both = result_selectors.head_to_head(player=mia, leagues=[league, private_league])
    assert {(h.opponent_name, h.ahead, h.behind) for h in both} == {("Ned", 1, 0), ("Quinn", 0, 1)}


def test_player_games_are_newest_first_in_play_order(league, players, users, log_game):
    mia, ned = players["mia"], players["ned"]
    first = log_game("olive", D, (mia, 30, 5), (ned, 2, 1))
    timed = log_game("olive", D, (mia, 30, 5), (ned, 2, 1), played_time=dt.time(20, 0))
    later = log_game("olive", D + dt.timedelta(days=1), (ned, 30, 5), (mia, 2, 1))
    ids = result_selectors.player_game_ids(player=mia, leagues=[league])
    rows = result_selectors.player_game_rows(ids=ids[:2])
    assert [r.game_id for r in rows] == [later.pk, timed.pk]
    assert [r.game_id for r in result_selectors.player_game_rows(ids=ids[2:])] == [first.pk]
    assert [p.player.name for p in rows[0].game.participants.all()] == ["Ned", "Mia"]


def test_player_standings_give_position_among_players(league, players, users, log_game):
    log_game("olive", D, ("mia", 30, 5), ("ned", 2, 1), ("pat", 1, 1))
    [standing] = result_selectors.player_standings(player=players["ned"], leagues=[league])
    assert (standing.row.position, standing.of, standing.row.games_played) == (2, 3, 1)
    assert result_selectors.player_standings(player=players["quinn"], leagues=[league]) == []


def test_cached_season_standings_follow_every_change_to_the_league(
    league, players, users, log_game
):
    spring = spring_season(league, users)
    log_game("olive", dt.date(2026, 3, 5), ("mia", 30, 5), ("ned", 2, 1))
    first = standings.standings(league=league, season=spring)
    assert [(r.player_name, r.games_played) for r in first] == [("Mia", 1), ("Ned", 1)]
    assert standings.standings(league=league, season=spring) == first  # from the cache
    game = log_game("olive", dt.date(2026, 3, 6), ("ned", 30, 5), ("pat", 2, 1))
    assert {
        r.player_name: r.games_played for r in standings.standings(league=league, season=spring)
    } == {"Mia": 1, "Ned": 2, "Pat": 1}
    result_services.game_delete(game=game, by=users["olive"])
    assert standings.standings(league=league, season=spring) == first
    # A game logged before the season re-rates the season's games: the standings follow.
    log_game("olive", dt.date(2026, 2, 1), ("ned", 30, 5), ("mia", 2, 1))
    after = {
        r.player_name: round(r.rating) for r in standings.standings(league=league, season=spring)
    }
    assert after != {r.player_name: round(r.rating) for r in first}


def test_player_page_lists_the_opponents_met_most_then_all_on_request(
    client, league, players, users, monkeypatch, log_game
):
    from league.clubs import pages as views

    monkeypatch.setattr(views, "HEAD_TO_HEAD_SHOWN", 2)
    mia = players["mia"]
    log_game("olive", D, (mia, 30, 5), ("ned", 20, 1), ("pat", 10, 1))
    log_game("olive", D, (mia, 30, 5), ("ned", 20, 1), ("olive", 10, 1))
    page = text(client.get(f"/players/{mia.pk}/"))
    h2h = page[page.index("Head to head") :]
    assert "Ned 2" in h2h and "Show all 3 opponents" in h2h
    assert "Olive 1" in h2h or "Pat 1" in h2h
    everyone = text(client.get(f"/players/{mia.pk}/?opponents=all"))
    everyone = everyone[everyone.index("Head to head") :]
    assert "Olive 1" in everyone and "Pat 1" in everyone and "Show all" not in everyone


def test_season_standings_are_the_same_by_array_aggregates_and_by_window_functions(
    league, players, users, monkeypatch, log_game
):
    """PostgreSQL reads a season's first and last ratings with ordered array aggregates; other
    databases with window functions. Both give the same standings."""
    from types import SimpleNamespace

    spring = spring_season(league, users)
    mia, ned, pat, olive = (players[n] for n in ("mia", "ned", "pat", "olive"))
    log_game("olive", dt.date(2026, 2, 1), (mia, 30, 5), (ned, 2, 1))
    log_game("olive", dt.date(2026, 3, 5), (ned, 30, 5), (mia, 20, 1), (pat, 3, 0))
    log_game("olive", dt.date(2026, 3, 5), (pat, 30, 5), (olive, 20, 1), played_time=dt.time(9))
    log_game("olive", dt.date(2026, 4, 1), (mia, 30, 5), (pat, 30, 4))
    log_solitaire(league, users, dt.date(2026, 4, 2), olive, 25, 20)
    from league.results.standings import _standings

    by_arrays = _standings(league=league, season=spring)
    monkeypatch.setattr(standings, "connection", SimpleNamespace(vendor="sqlite"))
    by_window = _standings(league=league, season=spring)
    assert by_arrays == by_window
    assert {r.player_name: r.games_played for r in by_arrays} == {
        "Mia": 2,
        "Ned": 1,
        "Pat": 3,
        "Olive": 2,
    }
