"""Arena pages under /arena/."""

from django.urls import include, path

from arena import views
from arena.gauntlet import views as gauntlet
from arena.ladders import views as ladders
from arena.live import views as live
from arena.live.company import views as company
from arena.matches import views as matches
from arena.submissions import views as submissions
from arena.tournaments import views as tournaments
from arena.triage import views as triage
from arena.watch import views as watch

app_name = "arena"

urlpatterns = [
    path("", views.home, name="home"),
    path("docs/", include("arena.botdocs.urls")),
    path("ladders/<int:pk>/", ladders.ladder_detail, name="ladder"),
    path("bots/new/", submissions.bot_create, name="bot-new"),
    path("my-bots/", submissions.my_bots, name="my-bots"),
    path("challenge/", matches.challenge_new, name="challenge"),
    path("tournaments/new/", tournaments.tournament_new, name="tournament-new"),
    path("bots/<slug:name>/", submissions.bot_detail, name="bot"),
    path(
        "bots/<slug:name>/v<int:number>/source/",
        submissions.version_source,
        name="version-source",
    ),
    path("bots/<slug:name>/v<int:number>/triage/", triage.version_triage, name="version-triage"),
    path("bots/<slug:name>/v<int:number>/gauntlet/", gauntlet.gauntlet_detail, name="gauntlet"),
    path(
        "bots/<slug:name>/v<int:number>/gauntlet/decide/",
        gauntlet.gauntlet_decide,
        name="gauntlet-decide",
    ),
    path(
        "bots/<slug:name>/v<int:number>/triage/lost/<int:pk>/",
        triage.decisive_replay,
        name="version-decisive",
    ),
    path("matches/", matches.matches_list, name="matches"),
    path("matches/<int:pk>/", matches.match_detail, name="match"),
    path("matches/<int:pk>/watch/", watch.watch, name="match-watch"),
    path("matches/<int:pk>/watch/state/", watch.watch_state, name="match-watch-state"),
    path("tournaments/<int:pk>/", tournaments.tournament_detail, name="tournament"),
    path("play/", live.play, name="play"),
    path("play/games/", live.games, name="play-games"),
    path("play/<int:pk>/", live.table, name="play-table"),
    path("play/<int:pk>/state/", live.table_state, name="play-state"),
    path("play/<int:pk>/move/", live.table_move, name="play-move"),
    path("play/<int:pk>/resign/", live.table_resign, name="play-resign"),
    path("play/<int:pk>/rematch/", live.table_rematch, name="play-rematch"),
    path("play/<int:pk>/guest/", company.table_guest, name="play-guest"),
    path("play/<int:pk>/start/", company.table_start, name="play-start"),
    path("play/join/<str:token>/", company.invitation, name="play-join"),
    path("play/<int:pk>/takeback/", live.table_takeback, name="play-takeback"),
]
