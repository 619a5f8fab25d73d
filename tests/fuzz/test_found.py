"""What the fuzzers (and reading around what they found) showed, kept as plain regression cases:
each of these was a 500, a silent change or a refusal without a code before its fix."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from campaign import lifecycle
from fleets.models import Order
from fleets.services import order_submit, token_issue

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"


@pytest.fixture
def keys(people):
    return {
        name: token_issue(membership=people[name].memberships.get()) for name in ("danes", "swedes")
    }


def api(client, method: str, path: str, key: str, body: object = None, raw: bytes | None = None):
    return getattr(client, method)(
        f"/api/campaigns/{SLUG}{path}",
        data=raw if raw is not None else (json.dumps(body) if body is not None else None),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def test_a_faction_cannot_withdraw_anothers_economy_order(client, keys, open_skirmish) -> None:
    swedes = open_skirmish.factions.get(key="swedes")
    order_submit(
        turn=open_skirmish.current_turn, faction=swedes, order={"type": "repair", "fleet": "s1"}
    )
    refused = api(client, "delete", "/orders/repair:s1", keys["danes"])
    assert refused.status_code == 204  # as from an empty slot, as in tests/access
    theirs = api(client, "get", "/orders", keys["swedes"]).json()
    assert theirs == [{"type": "repair", "fleet": "s1"}]  # still counts
    assert Order.objects.count() == 1


def test_withdrawing_nothing_writes_nothing(client, keys) -> None:
    assert api(client, "delete", "/orders/fleet:d1", keys["danes"]).status_code == 204
    assert api(client, "delete", "/orders/hire:" + "x" * 500, keys["danes"]).status_code == 204
    assert not Order.objects.exists()


@pytest.mark.parametrize(
    "order",
    [
        {"fleet": "d1", "type": "hold", "weather": "fair"},  # broke the locked turn's scenario
        {"fleet": "d1", "type": "hold", "stance": ["engage"]},  # a TypeError in the engine
        {"fleet": "d1", "type": ["hold"]},
        {"fleet": "d1", "type": "hold", "retreat": {"below": 0.5, "x": [1]}},
        {"fleet": "d1", "type": "split", "ships": ["havfruen"], "new_fleet": "d\x009"},
        {"fleet": "d1", "type": "split", "ships": ["havfruen"], "new_fleet": "a/b"},
        {"fleet": "d1", "type": "split", "ships": ["havfruen"], "new_fleet": "x" * 61},
        {"fleet": "d1", "type": "split", "ships": ["havfruen"], "new_fleet": "d\ud8009"},
    ],
)
def test_an_order_the_turn_could_not_keep_is_refused(client, keys, order) -> None:
    refused = api(client, "post", "/orders", keys["danes"], {"order": order})
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid_order")
    assert not Order.objects.exists()


def test_a_body_that_is_not_json_is_a_refusal(client, keys) -> None:
    for raw in (b"\x00", b"{", b'{"order": 1' + b"0" * 5000 + b"}"):
        refused = api(client, "post", "/orders", keys["danes"], raw=raw)
        assert refused.status_code == 400
        assert refused.json()["code"] == "invalid_order"


@pytest.mark.parametrize(
    "path",
    [
        "/fleets/d%001/legal",
        "/orders/fleet:d%001",
        "/turns/99999999999999999999/report",
        "/turns/-1/report",
    ],
)
def test_odd_paths_are_answered(client, keys, path) -> None:
    method = "delete" if path.startswith("/orders/") else "get"
    response = api(client, method, path, keys["danes"])
    assert response.status_code in (204, 404, 422), response.content


def test_odd_desk_requests_are_answered(client, people) -> None:
    client.force_login(people["danes"])
    assert client.post(f"/c/{SLUG}/economy/steal/", {"fleet": "d1"}).status_code == 404
    assert client.post(f"/c/{SLUG}/economy/repair/", {"fleet": "d\x001"}).status_code == 404
    assert client.post(f"/c/{SLUG}/fleets/d%001/order/", {}).status_code == 404
    page = client.post(f"/c/{SLUG}/economy/hire/", {"hire-count": "-1"}, follow=True)
    assert "(invalid_order)" in page.content.decode()
    page = client.post(f"/c/{SLUG}/economy/priority/", {"priority": "s1"}, follow=True)
    assert "Not your fleets: s1. (not_commander)" in page.content.decode()


def test_a_withdrawal_after_the_turn_locked_is_refused(client, people, open_skirmish) -> None:
    client.force_login(people["danes"])
    lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    page = client.post(f"/c/{SLUG}/fleets/d1/withdraw/", headers={"HX-Request": "true"})
    assert page.status_code == 200
    assert "orders are closed. (turn_closed)" in page.content.decode()
    assert not Order.objects.exists()


def test_the_moderators_order_box_refuses_what_it_cannot_read(admin_client, open_skirmish):
    post = reverse("admin:campaign_moderator_order", args=[open_skirmish.pk])
    for faction, order in [
        ("danes", "[" * 100_000 + "]" * 100_000),
        ("danes", '{"fleet": 1' + "0" * 5000 + "}"),
        ("da\x00nes", '{"fleet": "d1", "type": "hold"}'),
    ]:
        page = admin_client.post(post, {"faction": faction, "order": order}, follow=True)
        assert page.status_code == 200
        text = page.content.decode()
        assert "not an order this tool reads" in text or "Choose a faction" in text
    assert not Order.objects.exists()
