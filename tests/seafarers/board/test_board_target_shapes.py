"""A road's and a ship's targets look different (issue: on a coast they were the same dashed
circle, told apart only by a hover tooltip, which a phone never shows): a road's is a bar along
the side (class "target road"), a ship's a boat ("target ship"), and each asks in its own words
before it is sent ("Build a road here?" / "Build a ship here?")."""

from __future__ import annotations

import json
import math

from engine.seafarers import legal_actions
from seafarers.board_geometry import hex_centre
from seafarers.board_svg import board_svg
from tests.seafarers.board.helpers import ODD, crafted, find, parse


def coast_targets():
    """The road and the ship targets on one coast side of the crafted board."""
    state = crafted()
    root = parse(board_svg(state, viewer=ODD, legal=legal_actions(state, ODD)))
    by_side: dict[str, dict[str, object]] = {}
    for a in find(root, "target"):
        action = json.loads(a.get("data-action") or "")
        by_side.setdefault(a.get("data-place") or "", {})[action["type"]] = a
    both = sorted(p for p, kinds in by_side.items() if {"build_road", "build_ship"} <= set(kinds))
    assert both, "the crafted board has a coast where red may build either"
    return [(p, by_side[p]["build_road"], by_side[p]["build_ship"]) for p in both]


def visible(a) -> list:
    """The target's drawn shapes, without its invisible tap disc."""
    return [e for e in a.iter() if "ring" in (e.get("class") or "").split()]


def test_a_road_target_is_a_bar_and_a_ship_target_a_boat() -> None:
    for _, road, ship in coast_targets():
        assert road.get("class") == "target road"
        assert ship.get("class") == "target ship"
        assert [e.tag.split("}")[1] for e in visible(road)] == ["rect"]
        assert [e.tag.split("}")[1] for e in visible(ship)] == ["polygon"]


def test_each_asks_in_its_own_words() -> None:
    for _, road, ship in coast_targets():
        assert road.get("data-confirm") == "Build a road here?"
        assert ship.get("data-confirm") == "Build a ship here?"
        assert road.get("data-where") == ship.get("data-where")
        assert "side of" in (road.get("data-where") or "") or "sea-lane" in (
            road.get("data-where") or ""
        )


def test_on_a_coast_the_road_stands_landward_and_the_ship_seaward() -> None:
    land = hex_centre(0, 0), hex_centre(1, 0)  # the crafted board's two land hexes

    def centre(a) -> tuple[float, float]:
        hit = next(e for e in a.iter() if e.get("class") == "hit")
        return float(hit.get("cx") or 0), float(hit.get("cy") or 0)

    for _, road, ship in coast_targets():
        to_land = [min(math.dist(centre(t), c) for c in land) for t in (road, ship)]
        assert to_land[0] < to_land[1]
