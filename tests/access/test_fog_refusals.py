"""Fog leaks through refusals (issue 11, docs/rulings.md R-45): an order naming a fleet the
faction cannot see is answered exactly as one naming a fleet that does not exist, on the desk
and through the API; a slot holding another faction's order answers as an empty slot.

The Hanse (h1 in the Kattegat, Lübeck on the Belt Sea) cannot see the Swedish s3, docked in
Kalmar on the Bornholm Basin, nor the pirates' p1 out there (R-36). `zz9` exists nowhere.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from fleets.mapping import orders_document
from fleets.models import NavalSettings, Order
from fleets.services import token_issue

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"
ORDERS = f"/api/campaigns/{SLUG}/orders"
HIDDEN = ("s3", "p1")


def post(client, key: str, order: dict) -> tuple[int, dict]:
    response = client.post(
        ORDERS,
        json.dumps({"order": order}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )
    return response.status_code, response.json()


@pytest.fixture
def hanse_key(people) -> str:
    return token_issue(membership=people["hanse"].memberships.get())


def as_if(answer: tuple[int, dict], hidden: str) -> tuple[int, dict]:
    """The answer with the hidden fleet's id put where the unknown one's stood."""
    status, body = answer
    text = json.dumps(body).replace(f'\\"{hidden}\\"', '\\"zz9\\"')  # in a message
    text = text.replace(f'"hanse-{hidden}"', '"hanse-zz9"')  # a split's new fleet
    return status, json.loads(text.replace(f'"{hidden}"', '"zz9"'))  # in the order echoed


def test_the_hanse_cannot_see_s3_and_p1(client, hanse_key) -> None:
    state = client.get(
        f"/api/campaigns/{SLUG}/state", headers={"Authorization": f"Bearer {hanse_key}"}
    ).json()
    seen = {f["id"] for f in state["visible"]}
    assert "s1" in seen  # in the Arkona Basin, next to the Belt Sea
    assert not seen & set(HIDDEN)


ORDERS_NAMING = {
    "an order for it": lambda f: {"fleet": f, "type": "hold"},
    "its repair": lambda f: {"type": "repair", "fleet": f},
    "a hire joining it": lambda f: {
        "type": "hire",
        "faction": "hanse",
        "port": "lubeck",
        "ship_type": "galley",
        "count": 1,
        "fleet": f,
    },
    "buying it out": lambda f: {
        "type": "buyout",
        "faction": "hanse",
        "fleet": "h1",
        "adrift_fleet": f,
    },
    "joining it": lambda f: {"fleet": "h1", "type": "merge", "into": f},
    "a split taking its name": lambda f: {
        "fleet": "h1",
        "type": "split",
        "ships": ["adler"],
        "new_fleet": f,
    },
}


@pytest.mark.parametrize("hidden", HIDDEN)
@pytest.mark.parametrize("what", sorted(ORDERS_NAMING))
def test_a_hidden_fleet_is_answered_as_one_that_does_not_exist(
    client, hanse_key, hidden, what
) -> None:
    """Before: "s3 is not commanded by hanse" (not_commander), "p1 is not adrift",
    "s3 belongs to swedes, not your ally", "there is already a fleet called s3"."""
    make = ORDERS_NAMING[what]
    seen = post(client, hanse_key, make(hidden))
    Order.objects.all().delete()  # a merge or split is accepted: start the other one afresh
    unknown = post(client, hanse_key, make("zz9"))
    assert as_if(seen, hidden) == unknown
    assert "swedes" not in json.dumps(seen[1])
    assert "kalmar" not in json.dumps(seen[1])


def test_a_hidden_fleet_on_the_order_is_refused_as_unknown(client, hanse_key) -> None:
    status, body = post(client, hanse_key, {"fleet": "s3", "type": "hold"})
    assert (status, body) == (
        400,
        {"code": "unknown_fleet", "message": 'there is no fleet called "s3"'},
    )
    assert not Order.objects.exists()


def test_without_fog_the_fleet_is_seen_and_refused_as_another_factions(
    client, hanse_key, open_skirmish
) -> None:
    NavalSettings.objects.filter(campaign=open_skirmish).update(fog_of_war=False)
    status, body = post(client, hanse_key, {"fleet": "s3", "type": "hold"})
    assert (status, body["code"]) == (400, "not_commander")


def desk_messages(client, kind: str, data: dict) -> list[str]:
    response = client.post(reverse("economy_order", args=[SLUG, kind]), data, follow=True)
    return [str(m) for m in response.context["messages"]]


def test_on_the_desk_a_hidden_fleet_is_answered_as_one_that_does_not_exist(client, people) -> None:
    client.force_login(people["hanse"])
    seen = desk_messages(client, "buyout", {"fleet": "h1", "adrift_fleet": "p1"})
    unknown = desk_messages(client, "buyout", {"fleet": "h1", "adrift_fleet": "zz9"})
    assert [m.replace('"p1"', '"zz9"') for m in seen] == unknown
    assert unknown == ['there is no fleet called "zz9" (unknown_fleet)']
    assert not Order.objects.exists()


def test_on_the_desk_another_factions_slot_answers_as_an_empty_one(
    client, people, open_skirmish
) -> None:
    """Before: "The order in repair:s3 is not hanse's." (not_commander)."""
    turn = open_skirmish.current_turn
    Order.objects.create(
        turn=turn,
        faction=open_skirmish.factions.get(key="swedes"),
        slot="repair:s3",
        payload={"type": "repair", "fleet": "s3"},
    )
    client.force_login(people["hanse"])
    theirs = desk_messages(client, "withdraw", {"slot": "repair:s3"})
    empty = desk_messages(client, "withdraw", {"slot": "repair:zz9"})
    assert theirs == empty == ["There was no economy order of yours to withdraw there."]
    assert Order.objects.count() == 1
    assert orders_document(turn) == [{"type": "repair", "fleet": "s3"}]


def test_a_hire_changed_in_another_factions_slot_is_a_new_hire(
    client, people, open_skirmish
) -> None:
    """A change names its slot: another faction's hire there is never replaced (R-41)."""
    turn = open_skirmish.current_turn
    swedes_hire = {
        "type": "hire",
        "faction": "swedes",
        "port": "gothenburg",
        "ship_type": "galley",
        "count": 1,
    }
    Order.objects.create(
        turn=turn,
        faction=open_skirmish.factions.get(key="swedes"),
        slot="hire:0123456789ab",
        payload=swedes_hire,
    )
    client.force_login(people["hanse"])
    data = {"hire-port": "lubeck", "hire-ship_type": "galley", "hire-count": 2}
    desk_messages(client, "hire", {**data, "hire-slot": "hire:0123456789ab"})
    counted = orders_document(turn)
    assert swedes_hire in counted
    assert sum(1 for o in counted if o.get("faction") == "hanse") == 1
    assert Order.objects.get(faction__key="hanse").slot != "hire:0123456789ab"
