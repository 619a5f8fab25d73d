"""The board's picture is cropped to the islands and the sea around them: the hexes drawn are
the land, its ring of sea and any sea hex something is on or by; the viewBox is their bounds
plus the paper margin (and the legend beside them), not the board file's wide frame of water."""

from __future__ import annotations

import pytest
import yaml

from engine.seafarers import State, legal_actions, parse_scenario
from engine.seafarers.board import NEIGHBOUR
from seafarers.board_geometry import hex_corners
from seafarers.board_legend import LEGEND_WIDTH
from seafarers.board_svg import MARGIN, board_svg
from tests.seafarers.board.helpers import ROOT, find, parse, target_actions

SMALL_ISLES = ROOT / "examples" / "small-isles.seafarers.yaml"


def small_isles(phase: str | None = None) -> State:
    doc = yaml.safe_load(SMALL_ISLES.read_text())
    if phase is not None:
        doc["turn"] = {"number": 3, "player": "red", "phase": phase}
    return parse_scenario(doc).state


def islands_and_their_sea(state: State) -> set[str]:
    """The land hexes, the sea hexes beside them, and the pirate's hex."""
    board = {h.id for h in state.board.hexes}
    land = [h for h in state.board.hexes if h.terrain != "sea"]
    ring = {f"{h.q + dq},{h.r + dr}" for h in land for dq, dr in NEIGHBOUR.values()}
    assert state.pirate is not None
    return {h.id for h in land} | (ring & board) | {state.board.hexes[state.pirate].id}


def drawn_hexes(root) -> dict[str, list[tuple[float, float]]]:
    out = {}
    for g in find(root, "hex"):
        polygon = next(e for e in g.iter() if e.tag.endswith("polygon"))
        pairs = [p.split(",") for p in (polygon.get("points") or "").split()]
        out[g.get("data-hex") or ""] = [(float(x), float(y)) for x, y in pairs]
    return out


def bounds(corners: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(xs) - MARGIN, min(ys) - MARGIN, max(xs) + MARGIN, max(ys) + MARGIN


def test_the_view_box_is_the_drawn_hexes_plus_the_margin() -> None:
    state = small_isles()
    root = parse(board_svg(state, viewer=None))
    drawn = drawn_hexes(root)
    expected = islands_and_their_sea(state)
    assert set(drawn) == expected
    x0, y0, x1, y1 = bounds([p for pts in drawn.values() for p in pts])
    q_r = [tuple(map(int, h.split(","))) for h in expected]
    assert (x0, y0, x1, y1) == pytest.approx(
        bounds([p for q, r in q_r for p in hex_corners(q, r)]), abs=0.01
    )
    vx, vy, vw, vh = (float(v) for v in (root.get("viewBox") or "").split())
    assert (vx, vy) == pytest.approx((x0, y0), abs=0.01)
    assert vw - LEGEND_WIDTH == pytest.approx(x1 - x0, abs=0.02)  # the legend beside the board
    assert vh == pytest.approx(y1 - y0, abs=0.02)  # the board is taller than its legend here


def test_open_water_far_from_land_is_left_out() -> None:
    state = small_isles()
    drawn = set(drawn_hexes(parse(board_svg(state, viewer=None))))
    assert len(drawn) < len(state.board.hexes)  # small-isles' wide hexagon of sea is cropped
    assert "-4,0" not in drawn  # three hexes west of the home island's fields


def test_every_place_to_act_stays_in_the_picture() -> None:
    """X17: the pirate may go to any other sea hex, so while it moves all the sea is drawn."""
    state = small_isles("robber")
    legal = legal_actions(state, "red")
    root = parse(board_svg(state, viewer="red", legal=legal))
    pirate_hexes = {a["hex"] for a in target_actions(root) if a["type"] == "move_pirate"}
    assert pirate_hexes
    assert pirate_hexes <= set(drawn_hexes(root))
