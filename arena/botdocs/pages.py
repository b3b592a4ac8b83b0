"""The bot programmer's documentation as site pages, rendered from the repository's markdown.

The markdown files in ``docs/`` stay the one source: GitHub shows them, these pages render
them. markdown-it-py (CommonMark, plus tables) renders with raw HTML off, so a doc can never
put markup or a script on the site: ``<b>`` shows as text. Headings get the anchors GitHub
gives them (``### Limits and faults`` -> ``#limits-and-faults``), so links between the docs
work in both places; a link to a doc that is not a page here keeps its text and names the file.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

__all__ = ["PAGES", "DocPage", "Heading", "RenderedPage", "page_by_slug", "render_page", "slugify"]


@dataclass(frozen=True)
class DocPage:
    slug: str  # "" for the first page
    file: str  # under docs/
    title: str  # in the pages' navigation


PAGES: tuple[DocPage, ...] = (
    DocPage("", "bots.md", "Writing a bot"),
    DocPage("forward-model", "bots-forward-model.md", "Thinking ahead: the forward model"),
    DocPage("reference", "bots-reference.md", "Observations, actions and the protocol"),
    DocPage("limits", "bots-limits.md", "Limits and faults"),
    DocPage("api", "api.md", "The API, with curl"),
    # The engines' own docs, which the reference sends readers to for every detail.
    DocPage("cat-lady-engine", "engine.md", "The Cat Lady engine in full"),
    DocPage("cantankerous-engine", "cantankerous.md", "Cantankerous Cats in full"),
)


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str


@dataclass(frozen=True)
class RenderedPage:
    page: DocPage
    title: str  # the document's first heading
    html: str  # safe: rendered with raw HTML off
    headings: tuple[Heading, ...]  # level 2 and 3, for the contents list


def page_by_slug(slug: str) -> DocPage | None:
    return next((page for page in PAGES if page.slug == slug), None)


def slugify(text: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens.

    >>> slugify("Cat Lady expansion setups (unranked)")
    'cat-lady-expansion-setups-unranked'
    >>> slugify("Thinking ahead: the engine as a forward model")
    'thinking-ahead-the-engine-as-a-forward-model'
    """
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _page_url(page: DocPage, base_url: str) -> str:
    return f"{base_url}{page.slug}/" if page.slug else base_url


def _relink(inline: Token, pages_by_file: dict[str, DocPage], base_url: str) -> None:
    """Links to another doc: to its page here when it is one, else plain text naming the file."""
    children: list[Token] = []
    dropped_open: list[str] = []  # files whose link_open was dropped, innermost last
    for child in inline.children or []:
        if child.type == "link_open":
            href = str(child.attrs.get("href", ""))
            target, _, anchor = href.partition("#")
            if target.endswith(".md") and "/" not in target and ":" not in target:
                page = pages_by_file.get(target)
                if page is None:
                    dropped_open.append(target)
                    continue
                child.attrs["href"] = _page_url(page, base_url) + (f"#{anchor}" if anchor else "")
            dropped_open.append("")
        elif child.type == "link_close" and dropped_open:
            target = dropped_open.pop()
            if target:
                note = Token("text", "", 0)
                note.content = f" (docs/{target})"
                children.append(note)
                continue
        children.append(child)
    inline.children = children


def _heading_text(inline: Token) -> str:
    return "".join(child.content for child in inline.children or [] if child.content)


def render_markdown(
    text: str, page: DocPage, pages: Sequence[DocPage], base_url: str
) -> RenderedPage:
    """``text`` as HTML for ``page``; ``base_url`` is the first page's URL (links between
    pages are made from it)."""
    md = _markdown()
    tokens = md.parse(text)
    pages_by_file = {p.file: p for p in pages}
    headings: list[Heading] = []
    title: str | None = None
    seen: dict[str, int] = {}
    for index, token in enumerate(tokens):
        if token.type == "inline":
            _relink(token, pages_by_file, base_url)
        if token.type != "heading_open":
            continue
        words = _heading_text(tokens[index + 1])
        anchor = slugify(words)
        if anchor in seen:  # GitHub numbers repeated headings: -1, -2...
            seen[anchor] += 1
            anchor = f"{anchor}-{seen[anchor]}"
        else:
            seen[anchor] = 0
        token.attrs["id"] = anchor
        level = int(token.tag[1])
        if title is None:
            title = words
        if level in (2, 3):
            headings.append(Heading(level, words, anchor))
    for token in tokens:
        if token.type == "fence":
            token.info = token.info.split()[0] if token.info.strip() else "text"
    html = md.renderer.render(tokens, md.options, {})
    # A "#" after each heading, to copy a link to it (the id comes from the heading's own words).
    html = re.sub(
        r'<(h[2-4]) id="([^"]+)">(.*?)</\1>',
        r'<\1 id="\2">\3 <a class="anchor" href="#\2" aria-label="Link to this section">#</a></\1>',
        html,
    )
    return RenderedPage(page=page, title=title or page.title, html=html, headings=tuple(headings))


@functools.cache
def _render_cached(path: Path, mtime: float, slug: str, base_url: str) -> RenderedPage:
    page = page_by_slug(slug)
    assert page is not None  # render_page looked it up
    return render_markdown(path.read_text(encoding="utf-8"), page, PAGES, base_url)


def render_page(docs_dir: Path, page: DocPage, base_url: str) -> RenderedPage:
    """A page, rendered once per version of its file."""
    path = docs_dir / page.file
    return _render_cached(path, path.stat().st_mtime, page.slug, base_url)
