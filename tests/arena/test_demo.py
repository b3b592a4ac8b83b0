"""The demo arena matches bin/serve loads: played once, finished, and replayable."""

import pytest
from django.contrib.auth import get_user_model

from arena.demo import DEMO_MATCHES, seed_demo_matches
from arena.models import Match

pytestmark = pytest.mark.django_db


def test_demo_matches_are_played_once_and_each_has_a_replay(client):
    demo = get_user_model().objects.create_user("demo", password="demo-password")
    first = seed_demo_matches(by=demo)
    again = seed_demo_matches(by=demo)
    assert [m.pk for m in again] == [m.pk for m in first]
    assert Match.objects.count() == len(DEMO_MATCHES)
    for match, (game, seats, seed, _) in zip(first, DEMO_MATCHES, strict=True):
        assert (match.status, match.game, match.seed) == ("finished", game, seed)
        assert sorted(s.rank for s in match.seats.all())[0] == 1
        assert len(match.log["steps"]) > 0 and len(match.seats.all()) == len(seats)
        page = client.get(f"/arena/matches/{match.pk}/")
        assert page.status_code == 200
        assert "Replay" in page.content.decode() or "Moves" in page.content.decode()
