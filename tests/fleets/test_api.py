"""The JSON API: a key per membership, the same checks and refusal codes as the desk."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from campaign import lifecycle
from fleets.models import Order
from fleets.services import token_issue

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"


@pytest.fixture
def keys(people):
    return {
        name: token_issue(membership=user.memberships.get())
        for name, user in people.items()
        if name != "stranger"
    }


def call(client, method: str, path: str, key: str | None, body=None):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return getattr(client, method)(
        f"/api{path}",
        data=json.dumps(body) if body else None,
        content_type="application/json",
        headers=headers,
    )


def test_a_key_reads_its_factions_state(client, keys) -> None:
    me = call(client, "get", "/me", keys["danes"]).json()
    assert me == {"campaign": SLUG, "role": "player", "faction": "danes"}
    state = call(client, "get", f"/campaigns/{SLUG}/state", keys["danes"]).json()
    assert state["faction"]["treasury"] == 600
    assert {f["id"] for f in state["fleets"]} == {"d1", "d2"}
    legal = call(client, "get", f"/campaigns/{SLUG}/fleets/d1/legal", keys["danes"]).json()
    assert legal["points"] == 2
    assert "kattegat" in legal["moves"]


def test_orders_through_the_api_use_the_same_checks(client, keys) -> None:
    given = call(
        client,
        "post",
        f"/campaigns/{SLUG}/orders",
        keys["danes"],
        {"order": {"fleet": "d1", "type": "move", "path": ["kattegat"]}},
    )
    assert given.status_code == 201
    assert given.json()["slot"] == "fleet:d1"
    refused = call(
        client,
        "post",
        f"/campaigns/{SLUG}/orders",
        keys["danes"],
        {"order": {"fleet": "d1", "type": "move", "path": ["atlantis"]}},
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "unknown_province"
    theirs = call(
        client,
        "post",
        f"/campaigns/{SLUG}/orders",
        keys["danes"],
        {"order": {"fleet": "s1", "type": "hold"}},
    )
    assert (theirs.status_code, theirs.json()["code"]) == (400, "not_commander")
    listed = call(client, "get", f"/campaigns/{SLUG}/orders", keys["danes"]).json()
    assert listed == [{"fleet": "d1", "type": "move", "path": ["kattegat"]}]
    gone = call(client, "delete", f"/campaigns/{SLUG}/orders/fleet:d1", keys["danes"])
    assert gone.status_code == 204
    assert call(client, "get", f"/campaigns/{SLUG}/orders", keys["danes"]).json() == []
    assert Order.objects.count() == 2  # the order and its withdrawal, nothing else


def test_garbage_is_refused_without_a_500(client, keys) -> None:
    for body in ({"order": "move"}, {"orders": {}}, {"order": {"type": 7}}):
        response = call(client, "post", f"/campaigns/{SLUG}/orders", keys["danes"], body)
        assert response.status_code in (400, 422), body
    response = client.post(
        f"/api/campaigns/{SLUG}/orders",
        data="{not json",
        content_type="application/json",
        headers={"Authorization": f"Bearer {keys['danes']}"},
    )
    assert response.status_code in (400, 422)
    assert not Order.objects.exists()


def test_keys_reach_only_their_own_campaign_and_fleets(client, keys) -> None:
    assert call(client, "get", "/me", None).status_code == 401
    assert call(client, "get", "/me", "not-a-key").status_code == 401
    assert call(client, "get", "/campaigns/another/state", keys["danes"]).status_code == 404
    legal = call(client, "get", f"/campaigns/{SLUG}/fleets/s1/legal", keys["danes"])
    assert legal.status_code == 404  # another faction's fleet
    gone = call(client, "delete", f"/campaigns/{SLUG}/orders/fleet:s1", keys["danes"])
    assert gone.status_code == 404


def test_a_new_key_replaces_the_old_one(client, people) -> None:
    old = token_issue(membership=people["danes"].memberships.get())
    new = token_issue(membership=people["danes"].memberships.get())
    assert call(client, "get", "/me", old).status_code == 401
    assert call(client, "get", "/me", new).status_code == 200


def test_the_openapi_schema_is_served(client) -> None:
    schema = client.get("/api/openapi.json").json()
    assert "/api/campaigns/{slug}/orders" in schema["paths"]


def test_the_key_page_shows_the_key_once(client, people) -> None:
    client.force_login(people["swedes"])
    page = client.post(reverse("api_key", args=[SLUG])).content.decode()
    assert "Authorization: Bearer" in page
    assert people["swedes"].memberships.get().api_token.digest not in page  # the hash stays


def test_closed_turns_refuse_orders(client, keys, open_skirmish) -> None:
    lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    response = call(
        client,
        "post",
        f"/campaigns/{SLUG}/orders",
        keys["danes"],
        {"order": {"fleet": "d1", "type": "hold"}},
    )
    assert response.status_code == 400
    assert "orders are closed" in response.json()["message"]
    assert response.json()["code"] == "turn_closed"
    withdrawn = call(client, "delete", f"/campaigns/{SLUG}/orders/fleet:d1", keys["danes"])
    assert (withdrawn.status_code, withdrawn.json()["code"]) == (400, "turn_closed")
    assert not Order.objects.exists()


def test_turn_closed_is_in_the_schema_s_code_enum(client) -> None:
    schema = client.get("/api/openapi.json").json()
    refused = schema["components"]["schemas"]["Refused"]["properties"]["code"]
    assert "turn_closed" in refused["enum"]


def test_the_docs_page_loads_its_scripts_from_the_site(client) -> None:
    page = client.get("/api/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "cdn" not in html.lower()
    assert "/static/ninja/swagger-ui-bundle.js" in html
    assert "/static/ninja/swagger-ui.css" in html
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-init.js"):
        assert finders.find(f"ninja/{asset}"), asset  # collectstatic serves it in production


def answer(response) -> tuple[int, str]:
    body = response.json()
    assert set(body) == {"code", "message"}, body
    assert body["message"]
    return response.status_code, body["code"]


def test_every_error_is_a_code_and_a_message(client, keys, settings) -> None:
    orders = f"/campaigns/{SLUG}/orders"
    assert answer(call(client, "get", "/me", None)) == (401, "unauthorized")
    assert answer(call(client, "get", "/me", "not-a-key")) == (401, "unauthorized")
    shape = call(client, "post", orders, keys["danes"], {"orders": {}})
    assert answer(shape) == (422, "invalid_request")
    assert "body.order: Field required" in shape.json()["message"]
    report = call(client, "get", f"/campaigns/{SLUG}/turns/0/report", keys["danes"])
    assert answer(report) == (422, "invalid_request")
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    for debug in (True, False):  # a 500 with DEBUG on, an HTML 400 without, before
        settings.DEBUG = debug
        big = {"order": {"fleet": "d1", "type": "hold", "note": "x" * 2000}}
        assert answer(call(client, "post", orders, keys["danes"], big)) == (413, "body_too_large")
    assert not Order.objects.exists()


@pytest.mark.parametrize(
    "order",
    [
        {
            "type": "hire",
            "faction": "danes",
            "port": "copenhagen",
            "ship_type": "frigate",
            "count": 10**30,
        },
        {
            "type": "hire",
            "faction": "danes",
            "port": "copenhagen",
            "ship_type": "frigate",
            "count": 21,
        },
        {
            "type": "hire",
            "faction": "danes",
            "port": "copenhagen",
            "ship_type": "frigate",
            "count": 0,
        },
        {"fleet": "d1", "type": "hold", "retreat": {"after_round": 10**30}},
    ],
)
def test_counts_are_bounded_as_on_the_desk(client, keys, order) -> None:
    refused = call(client, "post", f"/campaigns/{SLUG}/orders", keys["danes"], {"order": order})
    assert answer(refused) == (400, "invalid_order")
    assert not Order.objects.exists()


def test_a_hire_within_the_desk_s_bounds_is_given(client, keys, open_skirmish) -> None:
    open_skirmish.factions.filter(key="danes").update(treasury=10_000)  # 20 frigates: 2,400
    order = {
        "type": "hire",
        "faction": "danes",
        "port": "copenhagen",
        "ship_type": "frigate",
        "count": 20,
    }
    given = call(client, "post", f"/campaigns/{SLUG}/orders", keys["danes"], {"order": order})
    assert given.status_code == 201, given.json()
