"""`legal_orders`: what a fleet can do now; every option it offers is accepted (X23)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.naval import legal_orders, parse_scenario, validate_order
from tests.engine.naval.worlds import fleet, sea_lane, world_of

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "baltic-skirmish.scenario.json"


def offered_orders(world, fleet_id):
    legal = legal_orders(world, fleet_id)
    for path in legal.moves.values():
        yield {"fleet": fleet_id, "type": "move", "path": list(path)}
    for port, path in legal.enter_port.items():
        yield {"fleet": fleet_id, "type": "enter_port", "port": port, "path": list(path)}
    for port, path in legal.blockade.items():
        yield {"fleet": fleet_id, "type": "blockade", "port": port, "path": list(path)}
    for faction in legal.support:
        yield {"fleet": fleet_id, "type": "support", "faction": faction}
    for target in legal.merge_into:
        yield {"fleet": fleet_id, "type": "merge", "into": target}
    if legal.repair:
        yield {"type": "repair", "fleet": fleet_id}


def test_every_offered_order_is_accepted_on_the_example() -> None:
    world = parse_scenario(json.loads(EXAMPLE.read_text())).world
    offered = 0
    for fleet_id in world.fleets:
        for order in offered_orders(world, fleet_id):
            assert validate_order(world, order) is None, order
            offered += 1
    assert offered > 30


def test_moves_reach_two_steps_and_ports_need_a_point_to_enter() -> None:
    world = world_of(sea_lane(fleet("b1", "blue", "west")))
    legal = legal_orders(world, "b1")
    assert legal.points == 2
    assert legal.moves == {"middle": ("middle",), "east": ("middle", "east")}
    assert legal.enter_port == {"haven": ("middle",)}  # 1 to reach the water, 1 to enter (M3)
    assert legal.blockade == {}


def test_support_penalty_leaves_one_point() -> None:
    world = world_of(sea_lane(fleet("b1", "blue", "west", mp_penalty=1)))
    legal = legal_orders(world, "b1")
    assert legal.points == 1
    assert legal.moves == {"middle": ("middle",)}
    assert legal.enter_port == {}


def test_a_docked_fleet_sails_out_through_the_waters() -> None:
    world = world_of(sea_lane(fleet("b1", "blue", "haven", docked=True, ships=2)))
    legal = legal_orders(world, "b1")
    assert legal.moves == {
        "middle": ("middle",),
        "west": ("middle", "west"),
        "east": ("middle", "east"),
    }
    assert legal.support == ()  # X10: a docked fleet cannot support
    assert legal.can_split


def test_enemy_port_can_be_blockaded_not_entered() -> None:
    world = world_of(sea_lane(fleet("r1", "red", "west")))
    legal = legal_orders(world, "r1")
    assert legal.blockade == {"haven": ("middle",)}
    assert legal.enter_port == {}
    assert "blue" not in legal.support


def test_a_blockaded_port_cannot_be_entered_or_repair() -> None:
    doc = sea_lane(
        fleet("r1", "red", "middle", blockading="haven"),
        fleet("b1", "blue", "west"),
        {
            "id": "b2",
            "owner": "blue",
            "at": "haven",
            "docked": True,
            "ships": [{"id": "b2-1", "type": "frigate", "health": 3}],
        },
    )
    doc["map"]["ports"][0]["blockaded_by"] = ["r1"]
    world = world_of(doc)
    assert legal_orders(world, "b1").enter_port == {}
    assert legal_orders(world, "b2").repair == ()


def test_an_adrift_fleet_can_only_hold() -> None:
    world = world_of(
        sea_lane(fleet("p1", "pirates", "east", adrift=True), fleet("b1", "blue", "middle"))
    )
    legal = legal_orders(world, "p1")
    assert legal.adrift
    assert legal.moves == {}
    assert legal_orders(world, "b1").buyout == {"p1": 5}  # U4: upkeep 10, half of it 5


@pytest.mark.parametrize(("cost", "price"), [(100, 5), (105, 6), (90, 5), (10, 1)])
def test_buyout_price_is_half_the_rounded_upkeep_rounded_up(cost: int, price: int) -> None:
    # X22: cost 105 -> upkeep 10.5 -> 11 -> half 5.5 -> 6; cost 90 -> 9 -> 4.5 -> 5; 10 -> 1 -> 1
    doc = sea_lane(fleet("p1", "pirates", "east", adrift=True), fleet("b1", "blue", "middle"))
    doc["ship_types"][0]["cost"] = cost
    assert legal_orders(world_of(doc), "b1").buyout == {"p1": price}
