"""Accessibility checks on the rendered league pages: landmarks, labels, table headers,
named charts, and the colour contrast of the design tokens."""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from league.nights import services as nights
from tests.league.conftest import olive_opens_night, spring_season

SITE_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "site.css"


class Page(HTMLParser):
    """Collects what the checks need from one page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.label_for: set[str] = set()
        self.open_labels = 0
        self.wrapped_inputs: set[str] = set()
        self.tables: list[dict] = []
        self.current_table: dict | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "label":
            self.open_labels += 1
            if attributes.get("for"):
                self.label_for.add(attributes["for"])
        if tag in ("input", "select", "textarea") and self.open_labels and attributes.get("id"):
            self.wrapped_inputs.add(attributes["id"])
        if tag == "table":
            self.current_table = {"caption": False, "th": [], "aria": attributes.get("aria-label")}
            self.tables.append(self.current_table)
        if tag == "caption" and self.current_table is not None:
            self.current_table["caption"] = True
        if tag == "th" and self.current_table is not None:
            self.current_table["th"].append(attributes.get("scope"))

    def handle_endtag(self, tag):
        if tag == "label":
            self.open_labels -= 1
        if tag == "table":
            self.current_table = None

    def unlabelled_controls(self) -> list[str]:
        """Form controls nothing names: no <label for>, no wrapping label, no aria-label."""
        return [
            f"{tag} {attrs.get('name')}"
            for tag in ("input", "select", "textarea")
            for attrs in self.all(tag)
            if attrs.get("type") not in ("hidden", "submit")
            and attrs.get("id") not in self.label_for
            and attrs.get("id") not in self.wrapped_inputs
            and not attrs.get("aria-label")
        ]

    def all(self, tag: str) -> list[dict]:
        return [attrs for name, attrs in self.tags if name == tag]


def parse(response) -> Page:
    assert response.status_code in (200, 400), response.status_code
    page = Page()
    page.feed(response.content.decode())
    return page


@pytest.fixture
def pages(client, league, players, users, log_game):
    """Every league page with data on it, as (name, client response getter)."""
    game = log_game("olive", dt.date(2026, 3, 1), ("mia", 30, 5), ("ned", 22, 4))
    log_game("olive", dt.date(2026, 3, 8), ("ned", 30, 5), ("mia", 20, 4))
    spring_season(league, users)
    night = olive_opens_night(
        league,
        users,
        dt.date(2026, 3, 8),
        [players["mia"], players["ned"], players["pat"]],
        rounds=2,
    )
    nights.round_draw(night=night, by=users["olive"])
    urls = [
        "/",
        "/leagues/tuesday/nights/",
        f"/leagues/tuesday/nights/{night.pk}/",
        "/leagues/",
        "/leagues/tuesday/",
        f"/leagues/tuesday/?season={league.seasons.get().pk}",
        f"/leagues/tuesday/games/{game.pk}/",
        f"/players/{players['mia'].pk}/",
        "/accounts/login/",
    ]
    member_urls = [
        "/games/new/",
        "/games/new/?league=tuesday&edition=base&players=3&mode=cards:base",
        "/games/new/?league=tuesday&edition=base&players=3&mode=totals",
    ]

    def fetch():
        for url in urls:
            yield url, client.get(url)
        client.force_login(users["olive"])
        for url in ("/leagues/tuesday/nights/new/", f"/leagues/tuesday/nights/{night.pk}/"):
            yield f"organiser {url}", client.get(url)
        client.force_login(users["mia"])
        for url in member_urls:
            yield url, client.get(url)
        # A page with errors on it: a failed preview.
        yield (
            "failed preview",
            client.post(member_urls[1], {"played_on": "2026-03-03", "action": "preview"}),
        )

    return fetch


@pytest.mark.django_db
def test_every_page_has_language_title_landmarks_and_one_h1(pages):
    for url, response in pages():
        page = parse(response)
        assert page.all("html")[0].get("lang") == "en", url
        assert page.all("header") and page.all("main") and page.all("footer"), url
        assert any(n.get("aria-label") == "Main" for n in page.all("nav")), url
        assert len(page.all("h1")) == 1, url
        assert page.all("a")[0].get("href") == "#content", f"{url}: the skip link comes first"


@pytest.mark.django_db
def test_every_form_control_has_a_label(pages):
    for url, response in pages():
        assert not parse(response).unlabelled_controls(), url


@pytest.mark.django_db
def test_every_table_has_a_caption_and_scoped_headers(pages):
    for url, response in pages():
        page = parse(response)
        for table in page.tables:
            assert table["caption"] or table["aria"], f"{url}: a table without a caption"
            assert table["th"] and all(scope in ("col", "row") for scope in table["th"]), url


@pytest.mark.django_db
def test_charts_have_an_accessible_name_and_description(pages):
    for url, response in pages():
        page = parse(response)
        for svg in page.all("svg"):
            if svg.get("aria-hidden") == "true":
                continue
            assert svg.get("role") == "img" and svg.get("aria-labelledby"), url
            for ref in svg["aria-labelledby"].split():
                assert any(attrs.get("id") == ref for _, attrs in page.tags), (
                    f"{url}: missing {ref}"
                )


@pytest.mark.django_db
def test_invalid_fields_point_to_their_messages(pages):
    *_, (url, response) = pages()
    assert response.status_code == 400
    page = parse(response)
    invalid = [a for a in page.all("select") + page.all("input") if a.get("aria-invalid") == "true"]
    assert invalid
    ids = {attrs.get("id") for _, attrs in page.tags}
    for attrs in invalid:
        described = attrs.get("aria-describedby", "").split()
        assert any(ref.endswith("_error") and ref in ids for ref in described), attrs.get("name")


def _hex_luminance(colour: str) -> float:
    colour = colour.lstrip("#")
    channels = [int(colour[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((_hex_luminance(a), _hex_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_text_colours_meet_wcag_aa_contrast():
    tokens = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", SITE_CSS.read_text()))
    text_on_background = [
        ("ink", "page"),
        ("ink", "surface"),
        ("ink-soft", "surface"),
        ("muted", "surface"),
        ("muted", "page"),
        ("accent", "surface"),
        ("accent", "page"),
        ("good", "surface"),
        ("bad", "surface"),
        ("bad", "bad-soft"),
        ("warn-ink", "warn-soft"),
        ("accent-strong", "accent-soft"),
        ("surface", "accent"),
    ]
    for text, background in text_on_background:
        ratio = contrast(tokens[text], tokens[background])
        assert ratio >= 4.5, f"--{text} on --{background}: {ratio:.2f}:1"


def test_chart_lines_stand_out_from_white():
    from ratings.charts import PALETTE

    for colour in PALETTE:
        assert contrast(colour, "#ffffff") >= 3.0, colour  # WCAG 1.4.11, graphics
