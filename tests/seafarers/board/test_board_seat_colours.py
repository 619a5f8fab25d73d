"""The seats are drawn in the colours they are named for (issue 20 §4: "white" was drawn pink,
"red" a vermillion close to orange): white is a near-white with a dark outline on every piece,
and the six colours are pairwise far apart (docs/rulings.md S-49)."""

from __future__ import annotations

import itertools

import pytest

from engine.seafarers import parse_scenario
from seafarers.board_marks import INK, SEAT_COLOURS
from seafarers.board_svg import board_svg, player_colours
from seafarers.boards import COLOURS
from tests.seafarers.board.helpers import SVG, crafted_doc, find, parse

# CIE76 distance in CIELAB above which two colours are told apart at a glance (about 2.3 is
# the least difference seen); the old vermillion and orange were 33 apart.
FAR_APART = 40.0


def lab(colour: str) -> tuple[float, float, float]:
    """sRGB "#rrggbb" to CIELAB (D65)."""
    rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(one: str, other: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(lab(one), lab(other), strict=True)) ** 0.5


def test_the_lab_distance_is_the_known_one() -> None:
    assert lab("#ffffff") == pytest.approx((100.0, 0.0, 0.0), abs=0.05)
    assert distance("#000000", "#ffffff") == pytest.approx(100.0, abs=0.05)
    assert distance("#d55e00", "#e69f00") < FAR_APART  # the old pair was too near


def test_every_seat_is_drawn_in_its_own_colour() -> None:
    assert tuple(SEAT_COLOURS) == COLOURS
    colours = player_colours([{"id": c} for c in COLOURS])
    assert colours == SEAT_COLOURS
    lightness, a, b = lab(colours["white"])
    assert lightness > 95  # white, not pink
    assert abs(a) < 2
    assert abs(b) < 2
    for one, other in itertools.combinations(COLOURS, 2):
        assert distance(colours[one], colours[other]) > FAR_APART, (one, other)
    assert distance(colours["red"], colours["orange"]) > FAR_APART


def test_a_seat_takes_its_colour_whatever_its_place() -> None:
    assert player_colours([{"id": "white"}, {"id": "red"}]) == {
        "white": SEAT_COLOURS["white"],
        "red": SEAT_COLOURS["red"],
    }
    # Other ids (a scenario file's) take the colours nobody is named for, in seat order.
    found = player_colours([{"id": "ann"}, {"id": "red"}, {"id": "bob"}])
    assert found == {"ann": SEAT_COLOURS["blue"], "red": SEAT_COLOURS["red"], "bob": "#f4f4f4"}


def test_white_pieces_are_white_with_a_dark_outline() -> None:
    """Every white piece on the board: its fill near-white, and ink round it (a building's
    stroke, a road's casing, a ship's edge), so that it reads on the sea and on light land."""
    doc = crafted_doc("white", "blue")
    root = parse(board_svg(parse_scenario(doc).state, viewer=None))
    white = SEAT_COLOURS["white"]
    kinds = set()
    for piece in find(root, "piece"):
        if piece.get("data-owner") != "white":
            continue
        kinds.add((piece.get("data-kind"), piece.get("data-closed")))
        shapes = [e for e in piece.iter() if "glyph" not in (e.get("class") or "")]
        drawn = [e for e in shapes if e.tag in (f"{SVG}polygon", f"{SVG}line")]
        colours = {e.get("fill") for e in drawn} | {e.get("stroke") for e in drawn}
        assert white in colours
        assert INK in {e.get("stroke") for e in drawn}, piece.get("data-kind")
        assert not colours - {white, INK, "none", None}  # no pink, nor any other hue
    assert kinds == {
        ("road", None),
        ("ship", "false"),
        ("ship", "true"),
        ("settlement", None),
        ("city", None),
    }


def test_a_white_open_ship_is_hollow_and_a_closed_one_filled() -> None:
    doc = crafted_doc("white", "blue")
    root = parse(board_svg(parse_scenario(doc).state, viewer=None))
    fills = {
        g.get("data-closed"): {p.get("fill") for p in g.iter(f"{SVG}polygon")} - {"#ffffff"}
        for g in find(root, "piece")
        if g.get("data-kind") == "ship" and g.get("data-owner") == "white"
    }
    assert fills == {"true": {SEAT_COLOURS["white"]}, "false": {"none"}}
