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

from rulebook.texts import BOOKS, book_files, clause_ids

_ANCHOR = re.compile(r"<li><strong>([A-Z]{1,2}\d{1,2})\b([^<]*)</strong>")
_ID_IN_TEXT = re.compile(r"\b([A-Z]{1,2}\d{1,2})\b")
_TAG = re.compile(r"(<[^>]*>)")


def players_order(rules: str) -> str:
    """The rules file reordered as a player reads it (issue 20 §4): its title and terms, the rule
    sections, then where the rules come from (the intro's source paragraphs) and the readings
    (section X) below. Only the order changes: every line of the file is kept."""
    head, *sections = re.split(r"^(?=## )", rules, flags=re.MULTILINE)
    title, _, intro = head.partition("\n")
    paragraphs = [p for p in intro.strip().split("\n\n") if p.strip()]
    sources = [p for p in paragraphs if p.startswith("Source")]
    terms = [p for p in paragraphs if not p.startswith("Source")]
    rules_part = [s for s in sections if not s.startswith("## X.")]
    readings = [s for s in sections if s.startswith("## X.")]
    parts = [title, *terms, *(s.strip() for s in rules_part)]
    if sources:
        parts += ["## Where these rules come from", *sources]
    parts += [s.strip() for s in readings]
    return "\n\n".join(parts) + "\n"


@cache
def book_html(key: str) -> str:
    rules, *rest = book_files(key)
    text = "\n\n".join([players_order(rules), *rest])
    html = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    known = clause_ids(key)

    def anchor(match: re.Match[str]) -> str:
        clause = match.group(1)
        if clause not in known:
            return match.group(0)
        title = clause + match.group(2)
        return f'<li id="{clause}"><a class="clause" href="#{clause}"><strong>{title}</strong></a>'

    return _scrolling_tables(_ANCHOR.sub(anchor, html))


def _scrolling_tables(html: str) -> str:
    """Each table in a box of its own that scrolls sideways when the table is wider than the
    screen (issue 20 §3), so the page itself never does. With raw HTML off, `<table>` in the
    output is only ever a table markdown-it made: the texts' own angle brackets are escaped."""
    html = html.replace("<table>", '<div class="table-scroll"><table>')
    return html.replace("</table>", "</table></div>")


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
