"""Uploads refused in words (a NUL byte and where it is, a size in MB against the limit), the
bot list's `?mine=`, seat numbers in the API, and the docs' curl examples sent through the
same URLs and fields."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from accounts.services import token_create
from arena.models import Bot, BotVersion, Match
from arena.submissions.services import bot_create, check_source, size_in_words

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

REPO = Path(__file__).resolve().parents[2]
STEADY = "def choose(observation, legal_actions):\n    return len(legal_actions) - 1\n"
NUL_AT_30 = b"def choose(o, l):\n    return 0\n\x00\n"
TWENTY_MB = 20 * 1024 * 1024
NUL_MESSAGE = (
    "The file holds a NUL byte (byte 0) at offset 31: a bot must be a UTF-8 Python text file."
)
SIZE_MESSAGE = "The file is 20.0 MB; the limit is 256 KB."


def test_sizes_are_said_in_the_unit_a_person_reads() -> None:
    assert size_in_words(TWENTY_MB) == "20.0 MB"
    assert size_in_words(256 * 1024) == "256 KB"
    assert size_in_words(300_032) == "293 KB"
    assert size_in_words(300_600) == "293.6 KB"
    assert size_in_words(12) == "12 bytes"


def test_a_nul_byte_is_named_with_its_offset_not_a_syntax_error_on_line_none() -> None:
    assert NUL_AT_30.index(b"\0") == 31
    with pytest.raises(ValidationError) as refused:
        check_source(NUL_AT_30)
    assert refused.value.message_dict == {"source": [NUL_MESSAGE]}


def test_a_twenty_megabyte_upload_on_the_page_gives_its_real_size(authors) -> None:
    client = Client()
    client.force_login(authors["ada"])
    big = SimpleUploadedFile("bot.py", b"#" * TWENTY_MB)
    response = client.post("/arena/bots/new/", {"name": "big", "game": "cat-lady", "file": big})
    assert response.status_code == 400
    errors = re.search(r'id="id_file_error">(.*?)</div>', response.content.decode(), re.S)
    assert errors and SIZE_MESSAGE in errors.group(1)
    assert not Bot.objects.exists()


def test_a_nul_byte_on_the_page_is_refused_beside_the_file(authors) -> None:
    client = Client()
    client.force_login(authors["ada"])
    response = client.post(
        "/arena/bots/new/",
        {"name": "nul", "game": "cat-lady", "file": SimpleUploadedFile("bot.py", NUL_AT_30)},
    )
    assert response.status_code == 400
    assert NUL_MESSAGE in response.content.decode()
    assert not Bot.objects.exists()


@pytest.mark.parametrize(("content", "message"), [(NUL_AT_30, NUL_MESSAGE), (None, SIZE_MESSAGE)])
def test_the_api_says_the_same_in_the_field_of_the_source(client_for, content, message) -> None:
    upload = SimpleUploadedFile("bot.py", content if content is not None else b"#" * TWENTY_MB)
    response = client_for("ada").post(
        "/api/arena/bots/", {"name": "bad", "file": upload}, format="multipart"
    )
    assert response.status_code == 400
    assert response.json()["fields"]["source"] == [message]
    assert not Bot.objects.exists()


# --- ?mine= ---------------------------------------------------------------------------------


@pytest.fixture
def two_bots(authors, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        bot_create(owner=authors["ada"], name="adas", source=STEADY)
        bot_create(owner=authors["bob"], name="bobs", source=STEADY)


def names_in(response) -> list[str]:
    assert response.status_code == 200, response.content
    return sorted(bot["name"] for bot in response.json()["results"])


def test_mine_lists_only_the_callers_bots_and_false_everyone_elses(client_for, two_bots) -> None:
    ada = client_for("ada")
    assert names_in(ada.get("/api/arena/bots/?mine=true")) == ["adas"]
    assert names_in(ada.get("/api/arena/bots/?mine=false")) == ["bobs"]
    assert names_in(ada.get("/api/arena/bots/")) == ["adas", "bobs"]
    assert names_in(client_for("bob").get("/api/arena/bots/?mine=true")) == ["bobs"]


def test_mine_without_a_login_asks_for_one_and_a_bad_value_is_a_400(client_for, two_bots) -> None:
    anonymous = client_for(None)
    response = anonymous.get("/api/arena/bots/?mine=true")
    assert response.status_code == 401
    assert "your own bots" in response.json()["detail"]
    assert names_in(anonymous.get("/api/arena/bots/?mine=false")) == ["adas", "bobs"]
    response = client_for("ada").get("/api/arena/bots/?mine=yes")
    assert response.status_code == 400 and "mine" in response.json()["fields"]


# --- the curl examples ----------------------------------------------------------------------


def curl_lines(path: Path) -> list[str]:
    text = path.read_text()
    blocks = re.findall(r"```sh\n(.*?)\n```", text, re.S)
    joined = [block.replace("\\\n", " ") for block in blocks]
    return [
        " ".join(line.split()) for block in joined for line in block.splitlines() if "curl" in line
    ]


def test_the_arena_curl_examples_work_through_the_same_urls_and_fields(
    authors, django_capture_on_commit_callbacks
) -> None:
    """docs/api.md's arena block, request by request: a token header, a multipart upload,
    ?mine=true, a JSON challenge and the log download (the README shows the same four)."""
    lines = [line for line in curl_lines(REPO / "docs" / "api.md") if "/api/arena/" in line]
    assert [
        re.search(r"/api/arena/[a-z/]*(<match id>/log/)?", line).group(0) for line in lines
    ] == [
        "/api/arena/bots/",
        "/api/arena/bots/",
        "/api/arena/matches/challenge/",
        "/api/arena/matches/<match id>/log/",
    ]
    readme = " ".join(curl_lines(REPO / "README.md"))
    for path in ("/api/arena/bots/ ", "bots/?mine=true", "matches/challenge/", "/log/"):
        assert path in readme, path
    _, key = token_create(user=authors["ada"], name="curl")
    client = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    # curl -F name=my-bot -F game=cat-lady -F file=@my_bot.py
    assert "-F name=my-bot -F game=cat-lady -F file=@my_bot.py" in lines[0]
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post(
            "/api/arena/bots/",
            {
                "name": "my-bot",
                "game": "cat-lady",
                "file": SimpleUploadedFile("my_bot.py", STEADY.encode()),
            },
            format="multipart",
        )
    assert created.status_code == 201, created.content
    # The answer comes before the validation match: the version shows its status meanwhile.
    versions = client.get(f"/api/arena/bots/{created.json()['id']}/versions/").json()
    assert [v["status"] for v in versions] == ["active"]
    version = versions[0]["id"]
    # curl "…/api/arena/bots/?mine=true"
    assert "?mine=true" in lines[1]
    assert names_in(client.get("/api/arena/bots/?mine=true")) == ["my-bot"]
    # curl -H "Content-Type: application/json" -d '{"seats": ["<version id>", "greedy"], "seed": 7}'
    body = json.loads(re.search(r"-d '(.*?)'", lines[2]).group(1).replace("<version id>", "0"))
    body["seats"][0] = str(version)
    with django_capture_on_commit_callbacks(execute=True):
        match = client.post("/api/arena/matches/challenge/", body, format="json")
    assert match.status_code == 201, match.content
    seats = match.json()["seats"]
    assert [(s["seat"], s["seat_number"]) for s in seats] == [(0, 1), (1, 2)]
    # curl -o match.json …/matches/<match id>/log/
    log = client.get(f"/api/arena/matches/{match.json()['id']}/log/")
    assert log.status_code == 200
    assert log["Content-Disposition"].startswith("attachment")
    played = Match.objects.get(pk=match.json()["id"])
    assert log.json()["seed"] == 7 and played.status == Match.Status.FINISHED
    # The admin names seats as the pages do, from 1; the log keeps its 0-based indexes.
    assert [str(seat) for seat in played.seats.all()] == [
        "seat 1: my-bot v1",
        "seat 2: house:greedy",
    ]
    assert {step["seat"] for step in log.json()["steps"]} == {0, 1}
    assert BotVersion.objects.get(pk=version).status == BotVersion.Status.ACTIVE
