"""The bot docs pages (/arena/docs/...) and the starter kit download."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from arena.botdocs.kit import KIT_FOLDER, starter_kit_zip
from arena.botdocs.pages import PAGES, page_by_slug, render_page

DOCS_DIR = settings.BASE_DIR / "docs"


@require_safe
def docs_page(request: HttpRequest, slug: str = "") -> HttpResponse:
    page = page_by_slug(slug)
    if page is None:
        raise Http404("No such page of the bot docs.")
    rendered = render_page(DOCS_DIR, page, reverse("arena:docs"))
    return render(
        request,
        "arena/docs_page.html",
        {"doc": rendered, "pages": PAGES, "arena_section": "docs"},
    )


@require_safe
def starter_kit(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(starter_kit_zip(), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{KIT_FOLDER}.zip"'
    return response
