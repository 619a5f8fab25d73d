"""The seafaring API (issue 13 "API"; seafarers/api.py) on the database: a key per seat, the
state as the seat sees it (G5: never another seat's hand), legal actions, actions through the
services (expected index → `game_moved_on`), the log with G5's privacy, trade offers; every
answer that is not a success `{code, message}` with its code in the schema's enum."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.cache import cache

from seafarers.api import API_CODES, REFUSAL_CODES
from seafarers.keys import seat_key_issue
from seafarers.models import TradeOffer
from seafarers.services import seat_replace
from tests.seafarers.helpers import play_until
from tests.seafarers.offer_helpers import hand, seeded_isles, trade_turn

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
SEED = 5


@pytest.fixture
def isles(people):
    game = seeded_isles(people["mod"], seed=SEED)
    cache.clear()  # the bad-key counts of other tests
    return game


@pytest.fixture
def keys(isles):
    return {seat.player: seat_key_issue(seat=seat) for seat in isles.seats.all()}


def call(client, method, path, key, body=None, raw=None):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    data = raw if raw is not None else (json.dumps(body) if body is not None else None)
    return getattr(client, method)(
        f"/api/games{path}", data=data, content_type="application/json", headers=headers
    )


def test_a_key_reads_its_seat_and_never_another_hand(client, isles, keys):
    play_until(isles, lambda s: not s.in_setup() and sum(s.hands[1]) > 0 and sum(s.hands[0]) > 0)
    assert call(client, "get", "/me", keys["red"]).json() == {
        "game": "isles",
        "player": "red",
        "seat": 0,
    }
    answer = call(client, "get", "/isles/state", keys["red"])
    assert answer.status_code == 200
    body = answer.json()
    assert body["you"] == "red"
    assert body["log_length"] == isles.log_length
    players = {p["id"]: p for p in body["state"]["players"]}
    assert players["red"]["hand"] == hand(isles, "red")
    for other in ("blue", "white"):
        assert "hand" not in players[other]
        assert "dev_cards" not in players[other]
        assert players[other]["hand_count"] == sum(hand(isles, other).values())
    assert "seed" not in body["state"]
    assert isinstance(body["state"]["dev_deck"], int)
    # Nowhere in the whole answer is there another hand or card list.
    found = []

    def walk(value):
        if isinstance(value, dict):
            found.extend(value[k] for k in ("hand", "dev_cards") if k in value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(body)
    assert found == [players["red"]["hand"], players["red"]["dev_cards"]]


def test_legal_actions_and_an_action_sent_with_the_expected_index(client, isles, keys):
    legal = call(client, "get", "/isles/legal", keys["red"]).json()
    assert legal["player"] == "red"
    assert legal["actions"]
    assert all(a["player"] == "red" for a in legal["actions"])
    assert call(client, "get", "/isles/legal", keys["blue"]).json()["actions"] == []  # not blue's
    action = legal["actions"][0]
    sent = call(
        client, "post", "/isles/actions", keys["red"], {"action": action, "expected_index": 0}
    )
    assert sent.status_code == 201, sent.content
    assert sent.json()["index"] == 0
    isles.refresh_from_db()
    assert isles.log_length == 1
    # The same again with the old index: the game moved on, nothing applied twice.
    again = call(
        client, "post", "/isles/actions", keys["red"], {"action": action, "expected_index": 0}
    )
    assert (again.status_code, again.json()["code"]) == (400, "game_moved_on")
    # Another seat's action, the engine's refusal, a bare domestic trade.
    theirs = {"action": {**action, "player": "blue"}, "expected_index": 1}
    got = call(client, "post", "/isles/actions", keys["red"], theirs)
    assert (got.status_code, got.json()["code"]) == (400, "not_your_seat")
    nonsense = {"action": {"type": "fly", "player": "red"}, "expected_index": 1}
    got = call(client, "post", "/isles/actions", keys["red"], nonsense)
    assert (got.status_code, got.json()["code"]) == (400, "invalid_action")
    trade = {"type": "domestic_trade", "player": "red", "with": "blue", "give": {}, "get": {}}
    got = call(
        client, "post", "/isles/actions", keys["red"], {"action": trade, "expected_index": 1}
    )
    assert got.json()["code"] == "offer_required"
    isles.refresh_from_db()
    assert isles.log_length == 1


def test_the_log_keeps_private_details_to_those_concerned(client, isles, keys):
    """G5: a stolen card for the thief and the victim, a bought card for its buyer."""
    play_until(isles, lambda s: s.number >= 12)
    rows = list(isles.actions.order_by("index"))
    private = [
        (r.index, e) for r in rows for e in r.events if e["type"] in ("stolen", "dev_card_bought")
    ]
    assert private, "the seeded game has a steal or a bought card by turn 12"
    logs = {
        p: call(client, "get", "/isles/log", keys[p]).json()["actions"]
        for p in ("red", "blue", "white")
    }
    for viewer, actions in logs.items():
        assert [a["index"] for a in actions] == [r.index for r in rows]
        by_index = {a["index"]: a["events"] for a in actions}
        for index, event in private:
            seen = next(
                e
                for e in by_index[index]
                if e["type"] == event["type"] and e.get("player") == event.get("player")
            )
            concerned = (
                viewer in (event["by"], event["from"])
                if event["type"] == "stolen"
                else viewer == event["player"]
            )
            assert ("card" in seen) == concerned, (viewer, event)
    page = call(client, "get", "/isles/log?since=3&limit=2", keys["red"]).json()
    assert [a["index"] for a in page["actions"]] == [3, 4]


def test_offers_through_the_api(client, isles, keys):
    t = trade_turn(isles)
    made = call(
        client, "post", "/isles/offers", keys[t["current"]],
        {"to": t["other"], "give": t["give"], "get": t["get"]},
    )  # fmt: skip
    assert made.status_code == 201, made.content
    offer = made.json()
    assert (offer["from"], offer["to"], offer["status"]) == (t["current"], t["other"], "open")
    listed = call(client, "get", "/isles/offers", keys[t["other"]]).json()
    assert [o["id"] for o in listed["for_me"]] == [offer["id"]]
    third = next(p for p in keys if p not in (t["current"], t["other"]))
    assert call(client, "get", "/isles/offers", keys[third]).json()["for_me"] == []
    # Another seat cannot see or answer it: not found, as for an offer that does not exist.
    got = call(client, "post", f"/isles/offers/{offer['id']}/accept", keys[third])
    assert (got.status_code, got.json()["code"]) == (404, "not_found")
    got = call(client, "post", f"/isles/offers/{offer['id']}/accept", keys[t["current"]])
    assert (got.status_code, got.json()["code"]) == (400, "not_your_offer")
    accepted = call(client, "post", f"/isles/offers/{offer['id']}/accept", keys[t["other"]])
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["status"] == "accepted"
    assert TradeOffer.objects.get(pk=offer["id"]).action_index == accepted.json()["action_index"]
    again = call(client, "post", f"/isles/offers/{offer['id']}/decline", keys[t["other"]])
    assert (again.status_code, again.json()["code"]) == (400, "offer_closed")
    bad = call(
        client, "post", "/isles/offers", keys[t["current"]],
        {"to": t["other"], "give": t["give"], "get": t["give"]},
    )  # fmt: skip
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_trade")
    wrong = call(client, "post", "/isles/offers/1/haggle", keys[t["other"]])
    assert wrong.status_code in (404, 422)
    assert "code" in wrong.json()


def test_bad_keys_other_games_paths_methods_and_bodies_are_plain_refusals(
    client, isles, keys, people
):
    def problem(response, status, code):
        assert response.status_code == status, response.content
        body = response.json()
        assert set(body) == {"code", "message"}, body
        assert body["code"] == code, body

    problem(call(client, "get", "/isles/state", None), 401, "unauthorized")
    problem(call(client, "get", "/isles/state", "sea_wrong"), 401, "unauthorized")
    problem(call(client, "get", "/other-game/state", keys["red"]), 404, "not_found")
    problem(call(client, "get", "/isles/nothing/here", keys["red"]), 404, "not_found")
    problem(call(client, "post", "/no/such/path", None, {}), 404, "not_found")
    problem(call(client, "get", "/", None), 404, "not_found")
    problem(call(client, "delete", "/isles/state", keys["red"]), 405, "method_not_allowed")
    problem(call(client, "put", "/isles/actions", keys["red"], {}), 405, "method_not_allowed")
    problem(
        call(client, "post", "/isles/actions", keys["red"], raw="{not json"), 422, "invalid_request"
    )
    problem(
        call(client, "post", "/isles/actions", keys["red"], {"action": {}}), 422, "invalid_request"
    )
    problem(
        call(client, "post", "/isles/actions", keys["red"], {"action": {}, "expected_index": -1}),
        422,
        "invalid_request",
    )
    big = json.dumps(
        {"action": {"type": "roll", "player": "red", "x": "a" * 20_000}, "expected_index": 0}
    )
    problem(call(client, "post", "/isles/actions", keys["red"], raw=big), 413, "body_too_large")
    # A key of a player who no longer holds the seat stops working (seat_replace).
    seat_replace(game=isles, user=people["mod"], player="red", username="dee")
    problem(call(client, "get", "/isles/state", keys["red"]), 401, "unauthorized")
    assert call(client, "get", "/isles/state", keys["blue"]).status_code == 200


def test_many_bad_keys_from_one_address_are_throttled(client, isles, keys):
    for _ in range(20):
        call(client, "get", "/isles/state", "sea_guess")
    got = call(client, "get", "/isles/state", keys["red"])
    assert (got.status_code, got.json()["code"]) == (429, "api_key_throttled")
    assert int(got["Retry-After"]) > 0


def test_the_schema_lists_every_code_the_services_can_give(client):
    """Every `GameRefused("code"` of the services and the offers is in the schema's enum, so a
    refusal never fails the response's validation (a 500)."""
    raised = set()
    for module in ("seafarers/services.py", "seafarers/offers.py"):
        text = (ROOT / module).read_text()
        raised |= set(re.findall(r'GameRefused\(\s*"([a-z_]+)"', text))
    from seafarers import offers

    raised |= offers.CODES
    creating = {
        "bad_source",
        "unknown_board",
        "bad_seats",
        "unknown_user",
        "already_started",
        "reason_required",
        "nothing_to_undo",
        "cannot_pause",
        "not_paused",
    }  # fmt: skip  (the moderator's services: not reachable through a seat's key)
    assert raised - creating <= set(REFUSAL_CODES)
    schema = client.get("/api/games/openapi.json").json()
    schemas = schema["components"]["schemas"]
    assert set(schemas["Refused"]["properties"]["code"]["enum"]) == set(REFUSAL_CODES)
    assert set(schemas["Problem"]["properties"]["code"]["enum"]) == set(API_CODES)
    assert "/api/games/{slug}/actions" in schema["paths"]
