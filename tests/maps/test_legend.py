"""The map's key lists only what that map draws (docs/rulings.md R-73): each symbol's line is
there exactly when the map has at least one of that symbol — under fog the public map draws no
fleet and no blockade, so its key names neither — and the key's box holds its lines and no empty
one (a crowded map without orders kept an empty line where the orders' would go)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest

from maps import Layout, map_svg
from maps.legend import PAD, ROW, Legend, Row
from maps.place import Box, Placer
from maps.public import public_map_svg
from tests.maps.helpers import CHAIN_LAYOUT, SVG, chain_world, fleet, groups, parse
from tests.maps.test_map_parts_kept import _crowded

# Each symbol's line in the key, and how to find that symbol drawn on the map.
LINES: dict[str, Callable[[ET.Element], bool]] = {
    "Sea province": lambda root: bool(groups(root, "sea")),
    "Land province": lambda root: bool(groups(root, "land")),
    "Sea out of sight": lambda root: bool(groups(root, "unseen")),
    "Port (owner's colour)": lambda root: bool(groups(root, "port")),
    "Fleet: number of ships": lambda root: bool(groups(root, "fleet")),
    "Blockade": lambda root: bool(groups(root, "blockade")),
    "Battle this turn": lambda root: bool(groups(root, "battle")),
    "Orders: movement": lambda root: bool(groups(root, "order")),
}
BATTLE = {"type": "battle", "province": "s3"}
MOVE = {"fleet": "d1", "type": "move", "path": ["s2"]}


def world() -> dict[str, Any]:
    """A blockade, a fleet in port, and danes who from s1 watch s1 and s2 only."""
    return chain_world(
        [
            fleet("d1", "danes", "s1", ships=4),
            fleet("sw1", "swedes", "s4", ships=2, blockading="bastion"),
            fleet("nx9", "norsemen", "s5", ships=3),
            fleet("sw7", "swedes", "bastion", docked=True),
        ]
    )


def key_lines(root: ET.Element) -> list[str]:
    (legend,) = groups(root, "legend")
    return [t.text or "" for t in legend.iter(f"{SVG}text")]


def key_box(root: ET.Element) -> tuple[float, float, float, float]:
    (legend,) = groups(root, "legend")
    rect = legend.find(f"{SVG}rect")
    assert rect is not None
    x, y, w, h = (float(rect.get(k, 0)) for k in ("x", "y", "width", "height"))
    return x, y, w, h


def assert_key_is_what_is_drawn(svg: str) -> list[str]:
    root = parse(svg)
    lines = key_lines(root)
    listed = {line for line in lines if line in LINES}
    drawn = {line for line, on_map in LINES.items() if on_map(root)}
    assert listed == drawn, f"listed only: {listed - drawn}; drawn only: {drawn - listed}"
    # The box holds its lines and no empty one.
    assert key_box(root)[3] == pytest.approx(ROW * len(lines) + 2 * PAD - 2)
    return lines


MAPS: dict[str, Callable[[], str]] = {
    "public, fog": lambda: public_map_svg(world(), CHAIN_LAYOUT, fog=True, events=[BATTLE]),
    "public, fog, no battle": lambda: public_map_svg(world(), CHAIN_LAYOUT, fog=True),
    "public, no fog": lambda: public_map_svg(world(), CHAIN_LAYOUT, fog=False, events=[BATTLE]),
    "moderator": lambda: map_svg(world(), CHAIN_LAYOUT, orders=[MOVE], events=[BATTLE]),
    "moderator, no orders": lambda: map_svg(world(), CHAIN_LAYOUT),
    "danes, fog": lambda: map_svg(world(), CHAIN_LAYOUT, viewer="danes", orders=[MOVE]),
    "swedes, fog, their blockade in sight": lambda: map_svg(world(), CHAIN_LAYOUT, viewer="swedes"),
    "danes, no fog": lambda: map_svg(world(), CHAIN_LAYOUT, viewer="danes", fog=False),
    # From s4 and their port's waters (s1) the danes watch every sea: nothing is out of sight.
    "danes watching every sea": lambda: map_svg(
        chain_world([fleet("d1", "danes", "s4")]), CHAIN_LAYOUT, viewer="danes"
    ),
    # The norsemen hold no port and have no fleet: no fleet is in their sight.
    "norsemen, nothing in sight": lambda: map_svg(
        chain_world([fleet("d1", "danes", "s1")]), CHAIN_LAYOUT, viewer="norsemen"
    ),
    "no fleet at all": lambda: map_svg(chain_world([]), CHAIN_LAYOUT, fog=False),
    "crowded, no orders": lambda: map_svg(*_crowded(), fog=False),
    "crowded, orders": lambda: map_svg(
        *_crowded(), fog=False, orders=[{"fleet": "f0", "type": "move", "path": ["s001"]}]
    ),
}


@pytest.mark.parametrize("name", MAPS)
def test_the_key_lists_exactly_the_symbols_the_map_draws(name: str) -> None:
    assert_key_is_what_is_drawn(MAPS[name]())


def test_under_fog_the_public_key_names_no_fleet_and_no_blockade() -> None:
    """The gap R-73 closes: the public map under fog draws no fleet (R-56), yet its key said
    "Fleet: number of ships". Without fog it draws them, and says so."""
    fogged = assert_key_is_what_is_drawn(MAPS["public, fog"]())
    assert "Fleet: number of ships" not in fogged
    assert "Blockade" not in fogged
    assert "Battle this turn" in fogged  # battles are public news
    assert "Port (owner's colour)" in fogged
    open_ = assert_key_is_what_is_drawn(MAPS["public, no fog"]())
    assert "Fleet: number of ships" in open_
    assert "Blockade" in open_


def test_a_crowded_map_without_orders_keeps_no_line_for_them() -> None:
    """One scene serves a crowded map with orders and without (maps/svg.py): the labels are the
    same either way, but the key without arrows is one line shorter, held to its corner."""
    doc, layout = _crowded()
    kept: dict[str, Any] = {}
    bare = parse(map_svg(doc, layout, fog=False, kept=kept))
    given = [{"fleet": "f0", "type": "move", "path": ["s001"]}]
    with_orders = parse(map_svg(doc, layout, fog=False, orders=given, kept=kept))
    assert key_lines(with_orders) == [*key_lines(bare), "Orders: movement"]
    x, y, w, h = key_box(bare)
    *corner, height = key_box(with_orders)  # the same corner and width, one line taller
    assert corner == [x, y, w]
    assert height == pytest.approx(h + ROW)
    labels = [ET.tostring(g) for g in groups(bare, "labels")]
    assert labels == [ET.tostring(g) for g in groups(with_orders, "labels")]


def test_a_shorter_key_stays_in_its_bottom_corner() -> None:
    """A key placed in a lower corner and drawn with fewer lines keeps its foot at the corner's
    margin (not a gap under it where the line would have been)."""
    placer = Placer(Box(0, 0, 1000, 1000))
    placer.take(Box(0, 0, 1000, 500), 5)  # the top corners taken: the key goes below
    rows = [Row("head", "Campaign map"), Row("sea", "Sea province"), Row("order", "Orders")]
    legend = Legend(rows, placer)
    assert legend.box.y1 == 992  # the lower left corner, 8 from the edge
    drawn = ET.fromstring(f'<svg xmlns="{SVG[1:-1]}">{legend.markup(rows[:2])}</svg>')
    rect = drawn.find(f"{SVG}g/{SVG}rect")
    assert rect is not None
    y, h = float(rect.get("y", 0)), float(rect.get("height", 0))
    assert y + h == pytest.approx(992)
    assert h == pytest.approx(ROW * 2 + 2 * PAD - 2)
    assert float(rect.get("x", 0)) == legend.box.x0


def test_a_no_fog_campaign_maps_key_is_unchanged(baltic: tuple[dict[str, Any], Layout]) -> None:
    """Without fog every fleet is drawn, and a campaign's map has seas, land and ports: its key
    has all the lines it had."""
    doc, layout = baltic
    lines = assert_key_is_what_is_drawn(public_map_svg(doc, layout, fog=False))
    for line in (
        "Sea province",
        "Land province",
        "Port (owner's colour)",
        "Fleet: number of ships",
    ):
        assert line in lines
