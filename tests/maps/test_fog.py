"""Fog of war on the map: a player's map holds the fleets `engine.fog` lets them see and nothing
of the others, not even hidden elements or titles; the seas they do not watch are shaded."""

from __future__ import annotations

from typing import Any

import pytest

from engine.naval import ScenarioError
from maps import map_svg
from tests.maps.helpers import CHAIN_LAYOUT, chain_world, fleet, groups, parse, title_of


def fogged_world() -> dict[str, Any]:
    # danes at s1 watch s1 and s2 (next to it); swedes own bastion (waters s4), so they are named
    # on the map anyway. The norsemen hold no port: their far fleet must leave no trace.
    return chain_world(
        [
            fleet("d1", "danes", "s1", ships=4),
            fleet("sw1", "swedes", "s2", ships=2),
            fleet("nx9", "norsemen", "s5", ships=3),
            fleet("sw7", "swedes", "bastion", docked=True),
        ]
    )


def test_far_enemy_fleets_leave_no_trace() -> None:
    svg = map_svg(fogged_world(), CHAIN_LAYOUT, viewer="danes")
    parse(svg)
    for secret in ("nx9", "norsemen", "sw7"):
        assert secret not in svg
    # Their ships' ids neither.
    assert "nx9-1" not in svg
    assert "sw7-1" not in svg


def test_own_and_adjacent_fleets_are_shown() -> None:
    root = parse(map_svg(fogged_world(), CHAIN_LAYOUT, viewer="danes"))
    shown = {g.get("data-fleet"): title_of(g) for g in groups(root, "fleet")}
    assert shown == {
        "d1": "d1: 4 ships of danes at s1",
        "sw1": "sw1: 2 ships of swedes at s2",
    }


def test_unwatched_seas_are_shaded() -> None:
    root = parse(map_svg(fogged_world(), CHAIN_LAYOUT, viewer="danes"))
    unseen = {g.get("data-province") for g in groups(root, "unseen")}
    assert unseen == {"s3", "s4", "s5"}
    sea = {g.get("data-province") for g in groups(root, "sea")}
    assert sea == {"s1", "s2", "s3", "s4", "s5"}


def test_the_moderator_sees_everything() -> None:
    svg = map_svg(fogged_world(), CHAIN_LAYOUT)
    root = parse(svg)
    assert {g.get("data-fleet") for g in groups(root, "fleet")} == {"d1", "sw1", "nx9", "sw7"}
    assert not groups(root, "unseen")


def test_fog_off_shows_every_fleet_to_a_player() -> None:
    root = parse(map_svg(fogged_world(), CHAIN_LAYOUT, viewer="danes", fog=False))
    assert {g.get("data-fleet") for g in groups(root, "fleet")} == {"d1", "sw1", "nx9", "sw7"}
    assert not groups(root, "unseen")


def test_a_docked_fleet_is_seen_from_its_ports_waters() -> None:
    doc = chain_world([fleet("d1", "danes", "s3"), fleet("sw7", "swedes", "bastion", docked=True)])
    root = parse(map_svg(doc, CHAIN_LAYOUT, viewer="danes"))
    # danes at s3 watch s2, s3, s4: bastion opens onto s4.
    assert {g.get("data-fleet") for g in groups(root, "fleet")} == {"d1", "sw7"}


def test_hidden_blockaders_and_their_orders_are_not_drawn() -> None:
    doc = chain_world(
        [
            fleet("d1", "danes", "s1"),
            fleet("nx9", "norsemen", "s4", blockading="bastion"),
        ]
    )
    orders = [{"fleet": "nx9", "type": "move", "path": ["s3", "s2"]}]
    svg = map_svg(doc, CHAIN_LAYOUT, viewer="danes", orders=orders)
    root = parse(svg)
    assert not groups(root, "blockade")
    assert not groups(root, "order")
    assert "nx9" not in svg
    assert "norsemen" not in svg


def test_other_factions_orders_stay_secret_even_for_visible_fleets() -> None:
    orders = [
        {"fleet": "d1", "type": "move", "path": ["s2"]},
        {"fleet": "sw1", "type": "move", "path": ["s3"]},
    ]
    for fog in (True, False):
        root = parse(map_svg(fogged_world(), CHAIN_LAYOUT, viewer="danes", fog=fog, orders=orders))
        assert [g.get("data-fleet") for g in groups(root, "order")] == ["d1"]


def test_fog_needs_a_valid_scenario() -> None:
    doc = chain_world([fleet("d1", "danes", "nowhere")])
    with pytest.raises(ScenarioError):
        map_svg(doc, CHAIN_LAYOUT, viewer="danes")
    # The moderator's map draws what it can.
    parse(map_svg(doc, CHAIN_LAYOUT))


def test_campaign_only_keys_do_not_stop_the_fog() -> None:
    doc = fogged_world()
    doc["map"]["provinces"][0].update(name="First Sea", x=100, y=300)
    doc["map"]["ports"][0]["name"] = "Haven"
    doc["factions"][0].update(name="Denmark", colour="#c8102e")
    doc["orders"] = [{"fleet": "d1", "type": "hold"}]
    svg = map_svg(doc, CHAIN_LAYOUT, viewer="danes")
    assert "nx9" not in svg
    assert "d1: 4 ships" in svg
