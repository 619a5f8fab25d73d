"""Who may do what: every player page and action against an anonymous visitor, a player of the
faction, a player of another faction, someone outside the campaign, and the moderator."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaign import lifecycle
from campaign.resolution import turn_resolve
from fleets.models import Order

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"
HOLD = {
    "d1-type": "hold",
    "d1-stance": "engage",
    "d1-retreat": "never",
    "d1-prefer": "sink",
    "d1-if_cornered": "surrender",
}

# (name, method, url, data): every page and action about the Danish fleet d1 or the campaign.
PAGES = [
    ("desk", "get", reverse("desk", args=[SLUG]), None),
    ("order", "post", reverse("fleet_order", args=[SLUG, "d1"]), HOLD),
    ("withdraw", "post", reverse("fleet_withdraw", args=[SLUG, "d1"]), {}),
    ("repair", "post", reverse("economy_order", args=[SLUG, "repair"]), {"fleet": "d1"}),
    ("api key", "post", reverse("api_key", args=[SLUG]), {}),
    ("map", "get", reverse("campaign_map", args=[SLUG]), None),
    ("history", "get", reverse("turns", args=[SLUG]), None),
    ("report", "get", reverse("turn_report", args=[SLUG, 1]), None),
    ("report md", "get", reverse("turn_report_md", args=[SLUG, 1]), None),
    ("report bbcode", "get", reverse("turn_report_bbcode", args=[SLUG, 1]), None),
    ("turn map", "get", reverse("turn_map", args=[SLUG, 1]), None),
]
# Expected status per visitor: 302 = to the login page (anonymous) or back to the desk.
NAMES = [p[0] for p in PAGES]
MEMBER = {**dict.fromkeys(NAMES, 200), "order": 302, "withdraw": 302, "repair": 302}
EXPECTED = {
    "anonymous": dict.fromkeys(NAMES, 302),
    "stranger": dict.fromkeys(NAMES, 404),
    "danes": MEMBER,  # the faction's own player
    "swedes": {**MEMBER, "order": 404, "withdraw": 404, "repair": 404},  # another faction's
    "mod": MEMBER,
}


@pytest.fixture
def published(people, open_skirmish):
    """Turn 1 published (so there are reports), turn 2 open."""
    turn = open_skirmish.current_turn
    lifecycle.turn_lock(turn, user=None)
    turn_resolve(turn_id=turn.pk)
    turn.refresh_from_db()
    lifecycle.turn_publish(turn, user=None)
    return people


@pytest.mark.parametrize("visitor", sorted(EXPECTED))
@pytest.mark.parametrize(("page", "method", "url", "data"), PAGES, ids=[p[0] for p in PAGES])
def test_access(client, published, visitor, page, method, url, data) -> None:
    if visitor != "anonymous":
        client.force_login(published[visitor])
    response = getattr(client, method)(url, data or {})
    assert response.status_code == EXPECTED[visitor][page], response.content[:300]
    if visitor == "anonymous":
        assert response["Location"].startswith(reverse("login"))


def test_another_factions_fleet_is_never_ordered(client, published) -> None:
    client.force_login(published["swedes"])
    client.post(reverse("fleet_order", args=[SLUG, "d1"]), HOLD)
    client.post(
        reverse("economy_order", args=[SLUG, "hire"]),
        {"hire-port": "copenhagen", "hire-ship_type": "frigate", "hire-count": 1},
    )
    assert not Order.objects.filter(faction__key="danes").exists()
    assert not Order.objects.filter(payload__port="copenhagen").exists()


def test_a_player_reads_only_their_own_report(client, published) -> None:
    client.force_login(published["swedes"])
    own = client.get(reverse("turn_report_md", args=[SLUG, 1]) + "?faction=danes").content
    client.force_login(published["danes"])
    danish = client.get(reverse("turn_report_md", args=[SLUG, 1])).content
    assert own != danish  # ?faction= does not let a player read another faction's report


def test_htmx_posts_need_the_csrf_token(published) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(published["danes"])
    page = client.get(reverse("desk", args=[SLUG]))
    token = page.cookies["csrftoken"].value
    url = reverse("fleet_order", args=[SLUG, "d1"])
    assert client.post(url, HOLD, headers={"HX-Request": "true"}).status_code == 403
    allowed = client.post(url, HOLD, headers={"HX-Request": "true", "X-CSRFToken": token})
    assert allowed.status_code == 200
