"""The slot an order fills (X23, X33; docs/rulings.md R-33)."""

from __future__ import annotations

from fleets.services import order_slot


def test_a_buyout_slot_is_the_adrift_fleet_per_faction() -> None:
    """X33: one buyer fleet may bid for several adrift fleets; a second bid of the same faction
    for the same adrift fleet replaces the first."""
    bid = {"type": "buyout", "faction": "danes", "fleet": "d1", "adrift_fleet": "p1"}
    assert order_slot(bid) != order_slot(bid | {"adrift_fleet": "p2"})
    assert order_slot(bid) == order_slot(bid | {"fleet": "d2", "offer": 9})
    assert order_slot(bid) != order_slot(bid | {"faction": "swedes", "fleet": "s1"})


def test_repairs_and_fleet_orders_keep_their_slots() -> None:
    assert order_slot({"type": "repair", "fleet": "d1"}) == "repair:d1"
    assert order_slot({"type": "move", "fleet": "d1", "path": ["k"]}) == "fleet:d1"
