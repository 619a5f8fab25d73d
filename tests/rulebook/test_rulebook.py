"""The rulebooks on the site: the project's copies of the contract, clause anchors, linked ids."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils.safestring import mark_safe

from rulebook.render import book_html, clause_links, players_order
from rulebook.texts import BOOKS, TEXTS, book_files, clause_ids

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "rules"


@pytest.mark.parametrize("name", sorted(p.name for p in TEXTS.glob("*.md")))
def test_the_copy_is_the_contract(name: str) -> None:
    """The site serves the rules the engines implement: the copy equals ../shared/rules."""
    original = SHARED / name
    if not original.exists():
        pytest.skip("../shared/rules is not beside this checkout")
    assert (TEXTS / name).read_text(encoding="utf-8") == original.read_text(encoding="utf-8")


def test_every_book_file_is_kept() -> None:
    for book in BOOKS.values():
        for name in book.files:
            assert (TEXTS / name).is_file(), name


@pytest.mark.parametrize("key", sorted(BOOKS))
def test_every_clause_has_an_anchor(key: str) -> None:
    html = book_html(key)
    ids = clause_ids(key)
    assert len(ids) > 60  # W1 … X39; SH1 … X25
    for clause in ids:
        assert f'<li id="{clause}">' in html, clause


@pytest.mark.parametrize("key", sorted(BOOKS))
def test_every_table_scrolls_in_its_own_box(key: str) -> None:
    """Issue 20 §3: a table wider than a phone scrolls inside its wrapper, not the page."""
    html = book_html(key)
    assert html.count("<table>") > 0
    assert html.count('<div class="table-scroll"><table>') == html.count("<table>")
    assert html.count("</table></div>") == html.count("</table>")


def test_naval_clause_ids_are_the_rulebooks() -> None:
    ids = clause_ids("naval")
    assert {"W1", "M5", "E2", "D3", "R3", "B1", "P2", "U2", "U4", "T1", "X27", "X39"} <= ids
    assert "R40" not in ids
    assert "Z1" not in ids


def test_clause_links_escape_and_link_only_known_ids() -> None:
    html = clause_links("<b>E2</b> and Z9 and X39 & W1", "naval")
    assert "<b>" not in html
    assert "&lt;b&gt;" in html
    assert '<a class="clause" href="/rules/naval/#E2" title="rule E2">E2</a>' in html
    assert '<a class="clause" href="/rules/naval/#X39"' in html
    assert "Z9" in html
    assert "#Z9" not in html
    assert "&amp;" in html


def test_clause_links_leave_tags_of_safe_html_alone() -> None:
    template = Template('{% load rulebook %}{{ errors|clauses:"naval" }}')
    errors = '<ul class="errorlist" id="E2"><li>blockaded (B3)</li></ul>'
    out = template.render(Context({"errors": mark_safe(errors)}))
    assert out.startswith('<ul class="errorlist" id="E2"><li>blockaded (<a class="clause"')
    assert 'href="/rules/naval/#B3"' in out


def test_a_forms_error_list_stays_html() -> None:
    """A form's ErrorList is not a SafeString itself, but renders as safe HTML: it must keep its
    tags (escaping them showed the list's markup as text on the desk)."""
    from django.forms.utils import ErrorList

    out = clause_links(ErrorList(["blockaded (B3) & closed"]), "naval")
    assert out.startswith('<ul class="errorlist"><li>blockaded (<a class="clause"')
    assert "&amp; closed" in out


def test_unknown_ruleset_links_nothing() -> None:
    assert clause_links("E2", "chess") == "E2"


@pytest.mark.django_db
def test_the_rulebook_pages_are_public(client) -> None:
    for key in BOOKS:
        response = client.get(reverse("rulebook", args=[key]))
        assert response.status_code == 200
        assert b'<article class="rulebook">' in response.content
    page = client.get("/rules/naval/").content.decode()
    assert '<li id="X27">' in page
    assert "A war inside an alliance chain" in page
    assert client.get("/rules/chess/").status_code == 404


@pytest.mark.django_db
def test_the_desk_links_its_clause_ids(client, people) -> None:
    client.force_login(people["swedes"])
    page = client.get(reverse("desk", args=["skirmish-in-the-sound"])).content.decode()
    assert '<a class="clause" href="/rules/naval/#P2" title="rule P2">P2</a>' in page
    assert '<a class="clause" href="/rules/naval/#U2"' in page
    assert 'href="/rules/naval/"' in page  # the header's Rules link


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("key", "first", "source"), [("naval", "W1", "Source:"), ("seafarers", "SH1", "Sources:")]
)
def test_the_rules_page_opens_on_the_rules_and_the_sources_come_below(
    client, key: str, first: str, source: str
) -> None:
    """Issue 20 §4: a player opening the rules meets the rules first; where they come from and
    the readings (section X) follow, and no line of the rulebook is lost on the way."""
    page = client.get(reverse("rulebook", args=[key])).content.decode()
    rule, sources = page.index(f'<li id="{first}">'), page.index(source)
    assert rule < page.index("Where these rules come from") < sources < page.index("X. Rulings")
    rules = book_files(key)[0]
    reordered = players_order(rules)
    added = Counter(reordered.split()) - Counter(rules.split())
    assert added == Counter(["##", "Where", "these", "rules", "come", "from"])
    assert not Counter(rules.split()) - Counter(reordered.split())
