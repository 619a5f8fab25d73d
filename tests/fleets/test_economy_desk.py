"""Economy orders on the desk (issue 11, docs/rulings.md R-46): prices shown; a hire, repair or
buy-out checked against what the faction can spend when given (treasury + income, less its
other economy orders this turn), refused in plain words; each withdrawn or (a hire) changed;
their number bounded; the upkeep priority refused while orders are closed.

The Danes: treasury 600, income 120, so 720 to spend; d2 (docked in Copenhagen) has a frigate
at health 4 of 10, repaired for half a frigate's 120 (P2): 60.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from campaign import lifecycle
from fleets.mapping import orders_document
from fleets.models import Order
from fleets.services import order_submit, token_issue
from fleets.spending import MAX_ECONOMY_ORDERS

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"


def give(client, kind: str, data: dict) -> list[str]:
    response = client.post(reverse("economy_order", args=[SLUG, kind]), data, follow=True)
    return [str(m) for m in response.context["messages"]]


def hire(ship_type: str, count: int, slot: str = "") -> dict:
    return {"hire-port": "copenhagen", "hire-ship_type": ship_type, "hire-count": count} | (
        {"hire-slot": slot} if slot else {}
    )


def counted(turn) -> list[dict]:
    return [o for o in orders_document(turn) if o["type"] in ("hire", "repair", "buyout")]


def test_prices_and_what_can_be_spent_are_shown(client, people) -> None:
    client.force_login(people["danes"])
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert "Frigate: 120 a ship" in page
    assert "Ship of the line: 300 a ship" in page
    assert "Repair d2 for 60" in page
    assert "can spend <strong>720</strong> (600 in the treasury and 120 income" in page


def test_a_hire_the_faction_cannot_pay_is_refused_when_given(client, people, open_skirmish):
    """Before: accepted, and refused only at the economy phase."""
    client.force_login(people["danes"])
    said = give(client, "hire", hire("ship_of_the_line", 3))
    assert said == [
        "This hire costs 900; danes can spend 720 this turn (600 in the treasury and 120 "
        "income). (insufficient_funds)"
    ]
    assert not Order.objects.exists()


def test_the_turns_other_economy_orders_are_counted(client, people, open_skirmish) -> None:
    turn = open_skirmish.current_turn
    client.force_login(people["danes"])
    assert give(client, "hire", hire("ship_of_the_line", 2))[0].endswith("economy phase.")
    assert give(client, "repair", {"fleet": "d2"})[0].endswith("economy phase.")
    said = give(client, "hire", hire("frigate", 1))  # 600 + 60 + 120 = 780 > 720
    assert said == [
        "This hire costs 120; your other economy orders this turn cost 660, and danes can "
        "spend 720 this turn (600 in the treasury and 120 income). (insufficient_funds)"
    ]
    assert len(counted(turn)) == 2
    # The API is refused the same, with the same words.
    key = token_issue(membership=people["danes"].memberships.get())
    order = {"type": "hire", "faction": "danes", "port": "copenhagen", "ship_type": "frigate"}
    answer = client.post(
        f"/api/campaigns/{SLUG}/orders",
        json.dumps({"order": order | {"count": 1}}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "insufficient_funds"
    assert "your other economy orders this turn cost 660" in answer.json()["message"]


def test_a_hire_is_changed_in_its_slot_and_not_counted_twice(client, people, open_skirmish):
    turn = open_skirmish.current_turn
    client.force_login(people["danes"])
    give(client, "hire", hire("ship_of_the_line", 2))  # 600 of 720
    slot = Order.objects.get().slot
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert f'value="{slot}"' in page  # its change form and its withdraw button name the slot
    said = give(client, "hire", hire("frigate", 6, slot=slot))  # 720: the 600 is replaced
    assert said == ["Hire 6 × Frigate at copenhagen: changed for the economy phase."]
    assert counted(turn) == [
        {
            "type": "hire",
            "faction": "danes",
            "port": "copenhagen",
            "ship_type": "frigate",
            "count": 6,
        }
    ]


def test_each_economy_order_can_be_withdrawn(client, people, open_skirmish) -> None:
    turn = open_skirmish.current_turn
    client.force_login(people["danes"])
    give(client, "hire", hire("frigate", 1))
    give(client, "repair", {"fleet": "d2"})
    repair = Order.objects.get(slot="repair:d2")
    assert give(client, "withdraw", {"slot": repair.slot}) == ["Economy order withdrawn."]
    assert [o["type"] for o in counted(turn)] == ["hire"]
    hire_slot = Order.objects.get(payload__type="hire").slot
    give(client, "withdraw", {"slot": hire_slot})
    assert counted(turn) == []
    # What was withdrawn can be spent again.
    assert give(client, "hire", hire("ship_of_the_line", 2))[0].endswith("economy phase.")


def test_the_number_of_economy_orders_is_bounded(client, people, open_skirmish) -> None:
    """Before: any number (each hire takes a slot of its own)."""
    turn = open_skirmish.current_turn
    danes = open_skirmish.factions.get(key="danes")
    danes.treasury = 100_000
    danes.save(update_fields=["treasury"])
    order = {"type": "hire", "faction": "danes", "port": "copenhagen", "ship_type": "galley"}
    for _ in range(MAX_ECONOMY_ORDERS):
        assert isinstance(order_submit(turn=turn, faction=danes, order=order | {"count": 1}), Order)
    client.force_login(people["danes"])
    said = give(client, "hire", hire("galley", 1))
    assert said == [
        f"A faction gives at most {MAX_ECONOMY_ORDERS} economy orders a turn: withdraw one to "
        "give another. (too_many_orders)"
    ]
    assert len(counted(turn)) == MAX_ECONOMY_ORDERS
    # A change replaces one and is not one more.
    slot = Order.objects.filter(turn=turn).first().slot
    assert give(client, "hire", hire("galley", 2, slot=slot))[0].endswith("economy phase.")


def test_upkeep_priority_is_refused_while_the_turn_is_closed(client, people, open_skirmish):
    """Before: accepted while locked, and lost when the turn was published."""
    lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    client.force_login(people["danes"])
    said = give(client, "priority", {"priority": "d2, d1"})
    assert said == [
        "Turn 1 is locked: the upkeep priority is set while orders are open. (turn_closed)"
    ]
    assert open_skirmish.factions.get(key="danes").upkeep_priority == ["d1"]
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert 'name="priority"' not in page  # no form to fill while it would be refused


def test_upkeep_priority_is_saved_while_the_turn_is_open(client, people, open_skirmish):
    client.force_login(people["danes"])
    assert give(client, "priority", {"priority": "d2, d1"}) == ["Upkeep priority saved (U2)."]
    assert open_skirmish.factions.get(key="danes").upkeep_priority == ["d2", "d1"]
