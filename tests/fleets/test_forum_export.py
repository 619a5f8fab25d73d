"""The forum export (issue 11; docs/rulings.md R-56–R-59): the export page gives the public
bulletin first — the thing to post, Markdown and BBCode with the public map's PNG as an image —
then the faction's private report, marked; the PNG's link works for anyone, logged out, and is a
404 that tells nothing for a wrong, replaced or rolled-back token, and for an unpublished turn
(which never has one); under fog of war the public map shows no fleet."""

from __future__ import annotations

import html
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import lifecycle
from campaign.models import AuditEntry, Turn
from campaign.resolution import turn_resolve
from fleets.models import NavalSettings, PublicMap
from fleets.public_maps import public_map_issue, turn_public_svg
from fleets.report_views import PUBLIC_MAP_MISSES
from maps.png import svg_png
from tests.conftest import RIVAL_SLUG, resolve_with_the_swedes_attacking

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"
PNG_LINK = re.compile(r"http://testserver/c/[\w-]+/turns/(\d+)/map/([\w-]+)\.png")


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()  # the link limiter counts in the cache
    yield
    cache.clear()


@pytest.fixture
def published(people, open_skirmish):
    """Turn 1 (the Swedes attack Øresund) published; turn 2 open. Returns the turn."""
    turn = resolve_with_the_swedes_attacking(open_skirmish)
    return lifecycle.turn_publish(turn, user=None)


def export_page(client, user, query=""):
    client.force_login(user)
    response = client.get(reverse("turn_export", args=[SLUG, 1]) + query)
    assert response.status_code == 200
    return response.content.decode()


def textarea(page: str, element_id: str) -> str:
    found = re.search(rf'<textarea id="{element_id}"[^>]*>(.*?)</textarea>', page, re.S)
    assert found, element_id
    return html.unescape(found.group(1))


def public_link(client, user) -> str:
    page = export_page(client, user)
    found = PNG_LINK.search(textarea(page, "bulletin-md"))
    assert found
    return found.group(0)


# ---- The export page ------------------------------------------------------------------------


def test_the_bulletin_comes_first_and_the_private_report_apart_and_marked(
    client, people, published
) -> None:
    page = export_page(client, people["danes"])
    bulletin, private = page.index('id="bulletin"'), page.index('id="private"')
    assert bulletin < private  # the thing to post first
    assert "this is the one to post" in page
    assert "Private — do not post" in page[private:]
    md, bbcode = textarea(page, "bulletin-md"), textarea(page, "bulletin-bbcode")
    # The bulletin embeds the public PNG as an image, in each syntax; the same link both times.
    (link,) = {m.group(0) for m in PNG_LINK.finditer(md + bbcode)}
    assert f"![Map of the turn](<{link}>)" in md
    assert f"[img]{link}[/img]" in bbcode
    assert md.startswith("# Skirmish in the Sound — turn 1")
    assert "Battle at" in md
    # Nothing of the faction's own report is in the bulletin: no treasury, no dice, no SVG link.
    for secret in ("Treasury", "Round 1", "map.svg", "PRIVATE"):
        assert secret not in md + bbcode, secret
    own_md, own_bbcode = textarea(page, "private-md"), textarea(page, "private-bbcode")
    assert own_md.startswith("> **PRIVATE — do not post.** The report of danes")
    assert own_bbcode.startswith("[b]PRIVATE — do not post.[/b] The report of danes")
    assert "Treasury" in own_md
    assert PNG_LINK.search(own_md) is None  # the public link is the bulletin's


def test_the_moderator_gets_the_bulletin_alone_or_chooses_a_faction(
    client, people, published
) -> None:
    page = export_page(client, people["mod"])
    assert 'id="bulletin"' in page
    assert 'id="private"' not in page
    assert "Replace the link" in page  # the moderator's form
    page = export_page(client, people["mod"], "?faction=swedes")
    assert textarea(page, "private-md").startswith(
        "> **PRIVATE — do not post.** The report of swedes"
    )
    assert "Replace the link" not in export_page(client, people["danes"])


def test_the_report_page_links_the_export(client, people, published) -> None:
    client.force_login(people["danes"])
    page = client.get(reverse("turn_report", args=[SLUG, 1])).content.decode()
    assert reverse("turn_export", args=[SLUG, 1]) in page
    assert "<textarea" not in page  # the texts live on the export page now


def test_the_text_files_bulletin_to_post_and_private_report(client, people, published) -> None:
    client.force_login(people["danes"])
    bulletin = client.get(reverse("turn_bulletin_md", args=[SLUG, 1])).content.decode()
    assert PNG_LINK.search(bulletin)
    assert "PRIVATE" not in bulletin
    bbcode = client.get(reverse("turn_bulletin_bbcode", args=[SLUG, 1])).content.decode()
    assert "[img]http://testserver/" in bbcode
    private = client.get(reverse("turn_report_md", args=[SLUG, 1]))
    assert private["Content-Type"] == "text/plain; charset=utf-8"
    assert private.content.decode().startswith("> **PRIVATE — do not post.**")
    assert "Public bulletin" not in private.content.decode()  # the report alone
    client.force_login(people["mod"])  # no faction chosen: there is no private report
    assert client.get(reverse("turn_report_md", args=[SLUG, 1])).status_code == 404


def test_a_faction_name_in_the_private_mark_is_escaped(client, people, published) -> None:
    published.campaign.factions.filter(key="danes").update(name="**Danes** [url=x]")
    page = export_page(client, people["danes"])
    assert textarea(page, "private-md").startswith(
        r"> **PRIVATE — do not post.** The report of \*\*Danes\*\*"
    )
    assert "[url=x]" not in textarea(page, "private-bbcode")


# ---- The public link --------------------------------------------------------------------------


def test_the_link_works_logged_out(client, people, published) -> None:
    link = public_link(client, people["danes"])
    anyone = Client()
    response = anyone.get(link)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert "public" in response["Cache-Control"]
    assert anyone.head(link).status_code == 200  # a proxy may ask with HEAD first
    assert anyone.post(link).status_code == 405


def test_every_member_gets_the_same_link(client, people, published) -> None:
    links = {public_link(Client(), people[who]) for who in ("danes", "swedes", "mod")}
    assert len(links) == 1
    assert PublicMap.objects.count() == 1


def test_under_fog_the_public_png_shows_no_fleet(client, people, published) -> None:
    assert published.campaign.naval_settings.fog_of_war
    response = Client().get(public_link(client, people["danes"]))
    svg = turn_public_svg(published)
    assert 'class="fleet"' not in svg
    for fleet in ("d1", "d2", "s1", "s2", "s3", "h1", "p1"):
        assert f'data-fleet="{fleet}"' not in svg
    assert 'class="battle"' in svg  # Øresund's battle is public news
    assert response.content == svg_png(svg)  # the PNG served is that drawing


def test_without_fog_the_public_png_shows_the_fleets(client, people, published) -> None:
    NavalSettings.objects.filter(campaign=published.campaign).update(fog_of_war=False)
    svg = turn_public_svg(Turn.objects.get(pk=published.pk))
    assert 'data-fleet="d2"' in svg
    assert 'class="order ' not in svg  # never an order's arrow


def test_the_png_is_drawn_once_and_kept(client, people, published) -> None:
    link = public_link(client, people["danes"])
    first = Client().get(link).content
    row = PublicMap.objects.get()
    assert bytes(row.png) == first
    PublicMap.objects.filter(pk=row.pk).update(png=b"\x89PNG\r\n\x1a\nkept")
    assert Client().get(link).content == b"\x89PNG\r\n\x1a\nkept"  # read back, not drawn


def test_a_kept_png_is_served_without_reading_the_turn_s_documents(
    client, people, published
) -> None:
    link = public_link(client, people["danes"])
    Client().get(link)  # drawn and kept
    with CaptureQueriesContext(connection) as queries:
        response = Client().get(link)
    assert response.status_code == 200
    assert len(queries) == 1  # the row, its turn and campaign: one query
    (sql,) = (q["sql"] for q in queries.captured_queries)
    assert '"result"' not in sql
    assert '"scenario"' not in sql


CSRF_FIELD = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')


def not_found(url: str) -> None:
    response = Client().get(url)
    assert response.status_code == 404
    assert b"PNG" not in response.content[:8]
    # The header's language switcher carries Django's CSRF field ("csrfmiddlewaretoken"): the
    # site's, not the link's; taken out before looking for anything the page might tell.
    text = CSRF_FIELD.sub("", response.content.decode())
    assert 'name="next" value="/"' in text  # the switcher does not echo the address asked for
    for secret in ("token", "revoked", "replaced", "rolled", "published", "Skirmish"):
        assert secret not in text, secret


def test_a_wrong_token_another_turn_or_campaign_is_a_404_that_tells_nothing(
    client, people, published
) -> None:
    link = public_link(client, people["danes"])
    token = PNG_LINK.search(link).group(2)
    not_found(link.replace(token, token[:-1] + ("A" if token[-1] != "A" else "B")))
    not_found(link.replace(f"/turns/1/map/{token}", f"/turns/2/map/{token}"))
    not_found(link.replace(SLUG, RIVAL_SLUG))
    not_found(link.replace(SLUG, "nowhere"))
    not_found(reverse("public_map", args=[SLUG, 1, "x" * 65]))
    not_found(f"/c/{SLUG}/turns/1/map/{token[:5]}%00{token[5:]}.png")  # a NUL: 404, not a 500
    not_found(f"/c/{SLUG}%00/turns/1/map/{token}.png")
    not_found(f"/c/{SLUG}/turns/99999999999999999999/map/{token}.png")


def test_an_unpublished_turn_never_has_a_link(client, people, published) -> None:
    current = published.campaign.current_turn
    assert current.number == 2
    assert current.status == Turn.Status.OPEN
    assert public_map_issue(current) is None
    client.force_login(people["danes"])
    assert client.get(reverse("turn_export", args=[SLUG, 2])).status_code == 404
    assert client.get(reverse("turn_bulletin_md", args=[SLUG, 2])).status_code == 404
    assert not PublicMap.objects.filter(turn=current).exists()


def test_the_moderator_replaces_the_link_with_a_reason(client, people, published) -> None:
    old = public_link(client, people["danes"])
    assert Client().get(old).status_code == 200
    client.force_login(people["mod"])
    url = reverse("public_map_replace", args=[SLUG, 1])
    response = client.post(url, {"reason": "  "}, follow=True)  # no reason: nothing changes
    assert "reason_required" in response.content.decode()
    assert public_link(Client(), people["danes"]) == old
    response = client.post(url, {"reason": "posted on the wrong forum"})
    assert response.status_code == 302
    new = public_link(Client(), people["danes"])
    assert new != old
    not_found(old)
    assert Client().get(new).status_code == 200
    entry = AuditEntry.objects.get(action="replace public map link")
    assert entry.reason == "posted on the wrong forum"
    assert entry.user == people["mod"]
    assert PNG_LINK.search(old).group(2) not in str(entry.detail)  # no token in the log


def test_a_player_cannot_replace_the_link(client, people, published) -> None:
    link = public_link(client, people["danes"])
    client.force_login(people["danes"])
    url = reverse("public_map_replace", args=[SLUG, 1])
    assert client.post(url, {"reason": "mine"}).status_code == 404
    assert client.get(url).status_code == 405
    assert public_link(Client(), people["danes"]) == link
    assert not AuditEntry.objects.filter(action="replace public map link").exists()


def test_a_rolled_back_turn_s_link_is_dead_and_its_new_publication_gets_another(
    client, people, published
) -> None:
    old = public_link(client, people["danes"])
    turn = lifecycle.turn_rollback(published, user=None, reason="an appeal")
    not_found(old)
    turn = lifecycle.turn_lock(Turn.objects.get(pk=turn.pk), user=None)
    turn_resolve(turn_id=turn.pk)
    lifecycle.turn_publish(Turn.objects.get(pk=turn.pk), user=None)
    new = public_link(Client(), people["danes"])
    assert new != old
    not_found(old)  # the old post's picture stays dead: it showed the rolled-back result
    assert Client().get(new).status_code == 200


def test_too_many_links_that_show_nothing_are_refused_for_a_while(
    client, people, published
) -> None:
    link = public_link(client, people["danes"])
    anyone = Client()
    wrong = reverse("public_map", args=[SLUG, 1, "nothing-here"])
    for _ in range(PUBLIC_MAP_MISSES.attempts):
        assert anyone.get(wrong).status_code == 404
    refused = anyone.get(wrong)
    assert refused.status_code == 429
    assert b"public_map_throttled" in refused.content
    assert 0 < int(refused["Retry-After"]) <= PUBLIC_MAP_MISSES.window
    assert anyone.get(link).status_code == 429  # that address, for the window
