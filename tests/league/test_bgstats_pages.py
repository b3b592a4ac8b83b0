"""The organisers' BG Stats pages: upload, preview with the player mapping form (errors beside
their fields), import, and the export download."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from league.models import Player
from tests.league.test_bgstats import FIXTURE, REALISTIC

UPLOAD = "/leagues/tuesday/import/bgstats/"
PREVIEW = "/leagues/tuesday/import/bgstats/preview/"


def upload(client, content: bytes, name: str = "BGStatsExport.json"):
    return client.post(UPLOAD, {"file": SimpleUploadedFile(name, content, "application/json")})


def test_upload_preview_and_import(client, league, players, users):
    client.force_login(users["olive"])
    assert client.get(UPLOAD).status_code == 200
    response = upload(client, FIXTURE.read_bytes())
    assert response.status_code == 302 and response["Location"] == PREVIEW
    page = client.get(PREVIEW)
    text = page.content.decode()
    assert page.status_code == 200
    assert "2 plays to import" in text
    assert "ned 28 (2nd); Mia 31 (1st); Roberta 19 (3rd)" in text
    assert "Fed cats is needed to break the tie on total VP." in text
    assert "Red7: 1 play" in text
    form = page.context["form"]
    assert form["player_1"].initial == str(players["mia"].pk)
    assert form["player_4"].initial == str(players["olive"].pk)  # Olivia looks like Olive
    assert form["player_3"].initial == "new"  # nobody like Roberta

    data = {name: form[name].initial for name in form.fields}
    response = client.post(PREVIEW, data)
    assert response.status_code == 302
    assert league.games.count() == 2
    assert Player.objects.filter(name="Roberta").exists()
    # The file is gone from the session: the preview asks for it again.
    assert client.get(PREVIEW)["Location"] == UPLOAD

    upload(client, FIXTURE.read_bytes())
    again = client.get(PREVIEW).content.decode()
    assert "0 plays to import, 2 imported before" in again


def test_a_file_that_is_not_json_is_refused_beside_the_field(client, league, users):
    client.force_login(users["olive"])
    response = upload(client, b"PK\x03\x04 a zip, not json")
    assert response.status_code == 400
    text = response.content.decode()
    assert 'id="id_file_error"' in text and "This is not a JSON file" in text


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (lambda d: d.update(players={"1": "Mia"}), "&#x27;players&#x27; must be a list."),
        (lambda d: d.pop("games"), "The file has no &#x27;games&#x27; list"),
        (lambda d: d.update(plays="none"), "&#x27;plays&#x27; must be a list."),
    ],
)
def test_a_damaged_file_is_refused_beside_the_field_with_nothing_written(
    client, league, users, damage, says
):
    client.force_login(users["olive"])
    data = json.loads(FIXTURE.read_text())
    damage(data)
    response = upload(client, json.dumps(data).encode())
    assert response.status_code == 400
    text = response.content.decode()
    assert 'id="id_file_error"' in text and says in text, text
    assert client.get(PREVIEW)["Location"] == UPLOAD  # nothing kept
    assert league.games.count() == 0


def test_a_realistic_export_is_previewed_with_what_is_left_out_and_why(
    client, league, players, users
):
    client.force_login(users["olive"])
    page = client.get(UPLOAD).content.decode()
    assert (
        "Getting the file out of BG Stats" in page and "Settings → Backup / Export → JSON" in page
    )
    assert "<code>BGStatsExport.json</code>" in page
    assert upload(client, REALISTIC.read_bytes()).status_code == 302
    page = client.get(PREVIEW)
    text = page.content.decode()
    assert "3 plays to import, 5 left out, 1 marked “ignored” in BG Stats (skipped)" in text
    assert "Sam&#x27;s score is a calculation (&#x27;10+10+15&#x27;)" in text
    assert "is 2 players of this play: Catleague cannot tell them apart." in text
    assert "Decrypto: 1 play" in text and "Red7: 1 play" in text
    form = page.context["form"]
    assert form["player_2"].label == "Alex (in 2 plays)"
    assert form["player_3"].label == "Alex, BG Stats player 2 of that name (in 1 play)"
    assert form["player_3"].help_text == (
        "Another BG Stats player in this file is also called “Alex”. A new guest would be "
        "“Alex (BG Stats 2)”."
    )
    assert "Quinn" in text and "called “Quinn”" not in text  # another league's name: not said
    assert form["player_7"].initial == str(players["ned"].pk)
    # Mia's name is taken by the member proposed for her: no warning, the choice says it.
    assert form["player_4"].help_text == ""
    assert ("new", "New guest “Mia (BG Stats 2)”") in form.fields["player_4"].choices
    data = {name: form[name].initial for name in form.fields}
    assert client.post(PREVIEW, data).status_code == 302
    assert league.games.count() == 3
    assert Player.objects.filter(name="Alex (BG Stats 2)").count() == 1
    assert league.memberships.filter(player__name="Quinn").exclude(player=players["quinn"]).exists()


def test_a_bad_mapping_is_shown_beside_the_player_and_nothing_is_imported(
    client, league, players, users
):
    client.force_login(users["olive"])
    upload(client, FIXTURE.read_bytes())
    form = client.get(PREVIEW).context["form"]
    data = {name: form[name].initial for name in form.fields}
    data["player_4"] = str(players["mia"].pk)  # Olivia mapped to Mia, who is player 1 already
    response = client.post(PREVIEW, data)
    assert response.status_code == 400
    text = response.content.decode()
    assert 'id="id_player_4_error"' in text and "already mapped to this player" in text
    assert league.games.count() == 0
    data["player_4"] = "12345"
    response = client.post(PREVIEW, data)
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()


def test_a_stale_preview_is_refused(client, league, players, users):
    client.force_login(users["olive"])
    upload(client, FIXTURE.read_bytes())
    form = client.get(PREVIEW).context["form"]
    data = {name: form[name].initial for name in form.fields}
    data["digest"] = "0" * 64
    response = client.post(PREVIEW, data)
    assert response.status_code == 400 and "Another file was uploaded" in response.content.decode()
    assert league.games.count() == 0


def test_only_organisers_import(client, league, players, users):
    assert client.get(UPLOAD)["Location"].startswith("/accounts/login/")
    client.force_login(users["mia"])
    assert client.get(UPLOAD).status_code == 403
    assert upload(client, FIXTURE.read_bytes()).status_code == 403
    assert client.get(PREVIEW).status_code == 403


def test_export_download_for_anyone_who_may_see_the_league(
    client, league, players, users, log_game
):
    log_game("olive", dt.date(2026, 11, 3), ("mia", 31, 5), ("ned", 28, 4))
    response = client.get("/leagues/tuesday/bgstats.json")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="tuesday-bgstats.json"'
    exported = json.loads(response.content)
    assert [p["name"] for p in exported["players"]] == ["Mia", "Ned"]
    assert len(exported["plays"]) == 1
    league.is_public = False
    league.save()
    assert client.get("/leagues/tuesday/bgstats.json").status_code == 404
    client.force_login(users["mia"])
    assert client.get("/leagues/tuesday/bgstats.json").status_code == 200
    page = client.get("/leagues/tuesday/").content.decode()
    assert "/leagues/tuesday/bgstats.json" in page and UPLOAD not in page
