"""`suggest_pirate_orders` (U3): pirates go for loot, avoid strong fleets; all suggestions legal."""

from __future__ import annotations

from engine.naval import suggest_pirate_orders, validate_order
from tests.engine.naval.worlds import fleet, sea_lane, world_of


def suggestions(*fleets):
    world = world_of(sea_lane(*fleets))
    orders = suggest_pirate_orders(world)
    for order in orders:
        assert validate_order(world, order) is None, order
    return {o["fleet"]: o for o in orders}


def test_pirates_attack_a_weaker_fleet_in_reach() -> None:
    orders = suggestions(fleet("p1", "pirates", "west", ships=3), fleet("b1", "blue", "east"))
    assert orders["p1"]["type"] == "move"
    assert orders["p1"]["path"] == ["middle", "east"]
    assert orders["p1"]["prefer"] == "capture"


def test_pirates_blockade_an_undefended_port_when_no_prey() -> None:
    orders = suggestions(fleet("p1", "pirates", "west", ships=2))
    assert orders["p1"] == {**orders["p1"], "type": "blockade", "port": "haven", "path": ["middle"]}


def test_pirates_avoid_a_stronger_fleet() -> None:
    orders = suggestions(fleet("p1", "pirates", "middle"), fleet("b1", "blue", "east", ships=5))
    assert orders["p1"]["type"] == "move"
    assert orders["p1"]["path"] == ["west"]
    assert orders["p1"]["stance"] == "evade"


def test_adrift_pirates_get_no_suggestion_and_others_are_left_alone() -> None:
    orders = suggestions(fleet("p1", "pirates", "west", adrift=True), fleet("b1", "blue", "east"))
    assert orders == {}


def test_suggestions_are_deterministic() -> None:
    fleets = [
        fleet("p2", "pirates", "east", ships=2),
        fleet("p1", "pirates", "west", ships=2),
        fleet("r1", "red", "middle"),
    ]
    assert suggestions(*fleets) == suggestions(*fleets)
    assert list(suggestions(*fleets)) == ["p1", "p2"]
