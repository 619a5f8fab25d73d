"""Markdown to HTML for the rulebook pages, and clause ids in other text turned into links.

The texts are the project's own (never user input), rendered by markdown-it with raw HTML off, so
nothing in them can inject markup. Each clause's list item gets its id as the HTML id, so
`/rules/naval/#E2` opens at clause E2.
"""

from __future__ import annotations

import re
from functools import cache

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeData, SafeString, mark_safe
from markdown_it import MarkdownIt

from rulebook.texts import BOOKS, book_text, clause_ids

_ANCHOR = re.compile(r"<li><strong>([A-Z]{1,2}\d{1,2})\b([^<]*)</strong>")
_ID_IN_TEXT = re.compile(r"\b([A-Z]{1,2}\d{1,2})\b")
_TAG = re.compile(r"(<[^>]*>)")


@cache
def book_html(key: str) -> str:
    html = MarkdownIt("commonmark", {"html": False}).enable("table").render(book_text(key))
    known = clause_ids(key)

    def anchor(match: re.Match[str]) -> str:
        clause = match.group(1)
        if clause not in known:
            return match.group(0)
        title = clause + match.group(2)
        return f'<li id="{clause}"><a class="clause" href="#{clause}"><strong>{title}</strong></a>'

    return _ANCHOR.sub(anchor, html)


def clause_links(text: object, key: str) -> SafeString:
    """`text` with every clause id of the ruleset in it linked to the rulebook page.

    Plain text is escaped first. HTML that is already safe (a form's error list) keeps its tags:
    only the text between them is looked at, so no attribute is ever rewritten."""
    known = clause_ids(key) if key in BOOKS else frozenset()
    base = reverse("rulebook", args=[key]) if known else ""

    def link(match: re.Match[str]) -> str:
        clause = match.group(1)
        if clause not in known:
            return clause
        return f'<a class="clause" href="{base}#{clause}" title="rule {clause}">{clause}</a>'

    html = str(text)  # a form's ErrorList renders itself as safe HTML
    if not isinstance(html, SafeData) and not isinstance(text, SafeData):
        html = escape(html)
    parts = _TAG.split(html)  # tags at odd places, text at even ones
    parts[::2] = [_ID_IN_TEXT.sub(link, part) for part in parts[::2]]
    return mark_safe("".join(parts))  # escaped above, or safe already; the links are ours
