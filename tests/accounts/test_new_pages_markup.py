"""Every new page: each form control has a label, and no id is used twice (two forms on one
page once shared an id, so a label pointed at the wrong field)."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model

from league.clubs import services


class _Controls(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.label_for: set[str] = set()
        self.controls: list[tuple[str, str]] = []  # (id, name)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "id" in attributes:
            self.ids.append(attributes["id"])
        if tag == "label" and "for" in attributes:
            self.label_for.add(attributes["for"])
        hidden = tag == "input" and attributes.get("type") in ("hidden", "submit")
        if tag in ("input", "select", "textarea") and not hidden:
            self.controls.append((attributes.get("id", ""), attributes.get("name", "")))


@pytest.fixture
def olive(db):
    user = get_user_model().objects.create_user("olive", "olive@example.org", "tabby-42-ginger")
    services.league_create(name="Club", slug="club", by=user)
    return user


@pytest.mark.parametrize(
    "url",
    [
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/accounts/me/",
        "/accounts/password/change/",
        "/leagues/new/",
        "/leagues/club/settings/",
        "/leagues/club/members/",
        "/arena/challenge/",
        "/arena/tournaments/new/",
        "/arena/my-bots/",
    ],
)
def test_every_control_is_labelled_and_ids_are_unique(client, olive, url):
    if not url.startswith(("/accounts/login", "/accounts/signup", "/accounts/password/reset")):
        client.force_login(olive)
    response = client.get(url)
    assert response.status_code == 200, url
    page = _Controls()
    page.feed(response.content.decode())
    duplicates = [i for i, n in Counter(page.ids).items() if n > 1]
    assert not duplicates, duplicates
    unlabelled = [name for control_id, name in page.controls if control_id not in page.label_for]
    assert not unlabelled, unlabelled
