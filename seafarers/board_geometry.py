"""Where things sit on a hex board's picture: hex centres, corners and sides in SVG units.

Pointy-top axial hexes (seafarers-format.md "Board"): a hex of size S (centre to corner) has its
centre at x = S·√3·(q + r/2), y = S·1.5·r; its N corner is straight above the centre. Nodes are
the format's canonical names `q,r,N|S`; an edge is the sorted pair of its two nodes, as the
engine's result documents write them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.seafarers.board import CORNERS, NEIGHBOUR, SIDE_CORNERS, SIDES, canonical_corner

SIZE = 40.0
ROOT3 = math.sqrt(3.0)
# Each corner's offset from the hex centre, in units of SIZE (y grows downwards).
CORNER_OFFSET = {
    "N": (0.0, -1.0),
    "NE": (ROOT3 / 2, -0.5),
    "SE": (ROOT3 / 2, 0.5),
    "S": (0.0, 1.0),
    "SW": (-ROOT3 / 2, 0.5),
    "NW": (-ROOT3 / 2, -0.5),
}

Point = tuple[float, float]
EdgeKey = tuple[str, str]


def hex_centre(q: int, r: int) -> Point:
    return (SIZE * ROOT3 * (q + r / 2), SIZE * 1.5 * r)


def corner_point(q: int, r: int, corner: str) -> Point:
    x, y = hex_centre(q, r)
    dx, dy = CORNER_OFFSET[corner]
    return (x + SIZE * dx, y + SIZE * dy)


def hex_corners(q: int, r: int) -> list[Point]:
    return [corner_point(q, r, c) for c in CORNERS]


def node_point(name: str) -> Point:
    """A canonical node `q,r,N|S` (any corner is accepted)."""
    q, r, corner = name.split(",")
    return corner_point(int(q), int(r), corner)


def edge_key(edge: str | Sequence[str]) -> EdgeKey:
    """An edge written `q,r,D` or as two nodes, as the sorted pair of its canonical nodes."""
    if isinstance(edge, str):
        q, r, side = edge.split(",")
        a, b = SIDE_CORNERS[side]
        pair = (canonical_corner(int(q), int(r), a), canonical_corner(int(q), int(r), b))
    else:
        pair = (_canonical(edge[0]), _canonical(edge[1]))
    first, second = sorted(pair)
    return (first, second)


def _canonical(node: str) -> str:
    q, r, corner = node.split(",")
    return canonical_corner(int(q), int(r), corner)


def edge_ends(key: EdgeKey) -> tuple[Point, Point]:
    return node_point(key[0]), node_point(key[1])


def edge_middle(key: EdgeKey) -> Point:
    (x1, y1), (x2, y2) = edge_ends(key)
    return ((x1 + x2) / 2, (y1 + y2) / 2)


def edge_angle(key: EdgeKey) -> float:
    """The edge's direction in degrees, folded into (-90, 90] so a ship drawn along it sits
    upright rather than upside down."""
    (x1, y1), (x2, y2) = edge_ends(key)
    angle = math.degrees(math.atan2(y2 - y1, x2 - x1))
    if angle > 90:
        angle -= 180
    elif angle <= -90:
        angle += 180
    return angle


@dataclass(frozen=True, slots=True)
class Frame:
    """The drawing's extent in SVG units (the board's hexes with a margin)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def frame(hexes: Iterable[tuple[int, int]], margin: float) -> Frame:
    points = [p for q, r in hexes for p in hex_corners(q, r)]
    if not points:
        return Frame(-margin, -margin, margin, margin)
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return Frame(min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)


def in_view(hexes: Sequence[Mapping[str, Any]], marks: Iterable[Point]) -> list[Mapping[str, Any]]:
    """The hexes worth drawing: the islands, the ring of sea around them, and any other sea
    hex something is on or by (a piece, a thief, a place to act). A board file may fill a wide
    hexagon with open water (small-isles: every hex within 4 of 0,0); that water is left out so
    the islands fill the picture, yet nothing on the board and no place to act is cut off (the
    pirate may go to any sea hex, X17, so while it moves its whole sea is drawn)."""
    land = {(h["q"], h["r"]) for h in hexes if h["terrain"] != "sea"}
    ring = land | {(q + dq, r + dr) for q, r in land for dq, dr in NEIGHBOUR.values()}
    near = list(marks)
    return [
        h
        for h in hexes
        if (h["q"], h["r"]) in ring or any(_touches(hex_centre(h["q"], h["r"]), p) for p in near)
    ]


def _touches(centre: Point, point: Point) -> bool:
    """A point in the hex or on its rim (a corner is SIZE from the centre)."""
    return math.dist(centre, point) <= SIZE * 1.01


def sides_of(q: int, r: int) -> list[EdgeKey]:
    """The hex's six sides, canonical."""
    return [edge_key(f"{q},{r},{side}") for side in SIDES]
