"""`validate_order`: one order checked as an order form would (X23), with a plain message."""

from __future__ import annotations

import pytest

from engine.naval import validate_order
from tests.engine.naval.worlds import fleet, sea_lane, world_of

WORLD = world_of(
    sea_lane(
        fleet("b1", "blue", "west", ships=2),
        fleet("b2", "blue", "haven", docked=True),
        fleet("r1", "red", "east"),
        fleet("p1", "pirates", "east", adrift=True),
    )
)


@pytest.mark.parametrize(
    ("order", "code", "words"),
    [
        ({"fleet": "zz", "type": "hold"}, "unknown_fleet", "no fleet called zz"),
        ({"fleet": "b1", "type": "teleport"}, "invalid_order", "'teleport' is not an order type"),
        ({"fleet": "b1", "type": "move"}, "invalid_order", "path"),
        (
            {"fleet": "b1", "type": "move", "path": ["east"]},
            "not_adjacent",
            "east is not adjacent to west",
        ),
        ({"fleet": "b1", "type": "move", "path": ["isle"]}, "not_sea", "isle is land"),
        ({"fleet": "b1", "type": "move", "path": ["haven"]}, "unknown_province", "haven is a port"),
        (
            {"fleet": "b1", "type": "move", "path": ["atlantis"]},
            "unknown_province",
            "no province called atlantis",
        ),
        (
            {"fleet": "b1", "type": "move", "path": ["middle", "east", "middle"]},
            "no_movement_points",
            "costs 3 movement points; b1 has 2",
        ),
        ({"fleet": "b1", "type": "enter_port", "port": "nowhere"}, "unknown_port", "nowhere"),
        (
            {"fleet": "b1", "type": "enter_port", "port": "haven"},
            "not_in_waters",
            "not in the waters of haven",
        ),
        (
            {"fleet": "r1", "type": "enter_port", "port": "haven", "path": ["middle"]},
            "not_friendly_port",
            "belongs to blue",
        ),
        (
            {"fleet": "b1", "type": "blockade", "port": "haven", "path": ["middle"]},
            "not_hostile",
            "not at war with you",
        ),
        ({"fleet": "b2", "type": "support", "faction": "blue"}, "not_sea", "docked"),
        ({"fleet": "b1", "type": "support", "faction": "green"}, "invalid_order", "green"),
        ({"fleet": "b1", "type": "hold", "stance": "flee"}, "invalid_order", "stance"),
        ({"fleet": "b1", "type": "hold", "retreat": {"below": 2}}, "invalid_order", "retreat"),
        ({"fleet": "b1", "type": "hold", "retreat_to": ["mars"]}, "unknown_province", "mars"),
        (
            {"fleet": "b1", "type": "split", "ships": ["b1-1", "b1-2"], "new_fleet": "b9"},
            "invalid_order",
            "at least one ship",
        ),
        (
            {"fleet": "b1", "type": "split", "ships": ["r1-1"], "new_fleet": "b9"},
            "invalid_order",
            "not in b1",
        ),
        (
            {"fleet": "b1", "type": "split", "ships": ["b1-1"], "new_fleet": "r1"},
            "invalid_order",
            "already a fleet called r1",
        ),
        ({"fleet": "p1", "type": "move", "path": ["middle"]}, "invalid_order", "adrift"),
        (
            {"type": "hire", "faction": "red", "port": "haven", "ship_type": "frigate", "count": 1},
            "not_friendly_port",
            "belongs to blue",
        ),
        (
            {
                "type": "hire",
                "faction": "blue",
                "port": "haven",
                "ship_type": "galleon",
                "count": 1,
            },
            "unknown_ship_type",
            "galleon",
        ),
        (
            {
                "type": "hire",
                "faction": "blue",
                "port": "haven",
                "ship_type": "frigate",
                "count": 0,
            },
            "invalid_order",
            "count",
        ),
        (
            {
                "type": "hire",
                "faction": "blue",
                "port": "haven",
                "ship_type": "frigate",
                "count": 1,
                "fleet": "r1",
            },
            "not_commander",
            "not commanded by blue",
        ),
        (
            {"type": "buyout", "faction": "blue", "fleet": "b1", "adrift_fleet": "r1"},
            "not_adrift",
            "not adrift",
        ),
        (
            {"type": "buyout", "faction": "red", "fleet": "b1", "adrift_fleet": "p1"},
            "not_commander",
            "not commanded by red",
        ),
        (
            {"type": "buyout", "faction": "blue", "fleet": "b1", "adrift_fleet": "p1", "offer": 1},
            "invalid_order",
            "1 a ship for 1 ships is below the price of 5",
        ),
    ],
)
def test_refusals_have_a_code_and_plain_words(order, code, words) -> None:
    refusal = validate_order(WORLD, order)
    assert refusal is not None
    assert (refusal.code, words in refusal.message) == (code, True), refusal.message


@pytest.mark.parametrize(
    "order",
    [
        {"fleet": "b1", "type": "hold"},
        {
            "fleet": "b1",
            "type": "move",
            "path": ["middle", "east"],
            "stance": "evade",
            "retreat": {"after_round": 2},
            "prefer": "capture",
            "retreat_to": ["west"],
            "evade_to": ["middle"],
            "if_cornered": "attack",
        },
        {"fleet": "b1", "type": "enter_port", "port": "haven", "path": ["middle"]},
        {"fleet": "b2", "type": "move", "path": ["middle", "west"]},
        {"fleet": "r1", "type": "blockade", "port": "haven", "path": ["middle"]},
        {"fleet": "b1", "type": "split", "ships": ["b1-2"], "new_fleet": "b9"},
        {"fleet": "b1", "type": "support", "faction": "blue"},
        {"type": "hire", "faction": "blue", "port": "haven", "ship_type": "frigate", "count": 2},
        {"type": "repair", "fleet": "b2"},
        {"type": "buyout", "faction": "red", "fleet": "r1", "adrift_fleet": "p1", "offer": 9},
    ],
)
def test_good_orders_pass(order) -> None:
    assert validate_order(WORLD, order) is None


def test_validation_changes_nothing() -> None:
    before = [(f.id, f.at, [s.health for s in f.ships]) for f in WORLD.fleets.values()]
    validate_order(WORLD, {"fleet": "b1", "type": "move", "path": ["middle"]})
    assert before == [(f.id, f.at, [s.health for s in f.ships]) for f in WORLD.fleets.values()]


def test_path_faults_are_reported_in_x23_order() -> None:
    # X23: unknown province before not_sea before not_adjacent, wherever they lie in the path.
    order = {"fleet": "b1", "type": "move", "path": ["east", "isle"]}
    assert validate_order(WORLD, order).code == "not_sea"
    order = {"fleet": "b1", "type": "move", "path": ["isle", "atlantis"]}
    assert validate_order(WORLD, order).code == "unknown_province"
