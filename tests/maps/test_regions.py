"""The map of sea areas' regions (issue 20 §1, maps/regions.py): every province one closed
convex polygon holding its position, no two overlapping, a shared border only between adjacent
provinces, and every adjacency a border or a strait."""

from __future__ import annotations

import math
from typing import Any

import pytest

from bench.generate import Spec, generate
from maps.regions import GAP, Regions, regions
from tests.maps.helpers import area


def _sides(p: tuple[float, float], poly: tuple[tuple[float, float], ...]) -> list[float]:
    """The signed distance of `p` from each side of the convex `poly` (one sign inside)."""
    out = []
    for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1], strict=True):
        length = math.dist((ax, ay), (bx, by)) or 1.0
        out.append(((bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)) / length)
    return out


def _inside(p: tuple[float, float], poly: tuple[tuple[float, float], ...]) -> bool:
    signs = _sides(p, poly)
    return all(s >= -0.05 for s in signs) or all(s <= 0.05 for s in signs)


def check(pos: dict[str, tuple[float, float]], pairs: set[tuple[str, str]], got: Regions) -> None:
    assert set(got.polygons) == set(pos)
    for pid, poly in got.polygons.items():
        assert len(poly) >= 3
        assert area(poly) > 0
        assert _inside(pos[pid], poly)
    # Shared borders only where adjacent; every adjacency a border or a strait, never both.
    assert set(got.borders) <= pairs
    assert set(got.borders) | set(got.straits) == pairs
    assert not set(got.borders) & set(got.straits)
    for (a, b), (p, q) in got.borders.items():
        mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        assert _inside(mid, got.polygons[a])
        assert _inside(mid, got.polygons[b])
    # No overlap: a corner of one region never lies strictly inside another near it.
    for a, pa in got.polygons.items():
        for b, pb in got.polygons.items():
            if a >= b or math.dist(pos[a], pos[b]) > 300:
                continue
            for corner in pa:
                inner = [c for c in pb if math.dist(c, corner) > 0.05]  # shared corners are on both
                if len(inner) == len(pb):
                    assert not _strictly_inside(corner, pb), (a, b)
            if (a, b) not in pairs and (b, a) not in pairs:
                assert min(math.dist(c, d) for c in pa for d in pb) > 0 or GAP == 0


def _strictly_inside(p: tuple[float, float], poly: tuple[tuple[float, float], ...]) -> bool:
    signs = _sides(p, poly)
    return all(s > 0.05 for s in signs) or all(s < -0.05 for s in signs)


def _pairs(doc: dict[str, Any]) -> set[tuple[str, str]]:
    return {tuple(sorted(p)) for p in doc["map"]["adjacent"]}


def test_the_baltic_has_one_region_per_province(baltic: tuple[dict[str, Any], Any]) -> None:
    doc, layout = baltic
    pos = dict(layout.positions)
    got = regions(pos, _pairs(doc), (0, 0, 1000, 1000))
    check(pos, _pairs(doc), got)
    assert ("kattegat", "skagerrak") in got.borders


def test_a_generated_world_of_1000_provinces() -> None:
    doc = generate(Spec(fleets=10, sea=900, land=100))
    ids = [p["id"] for p in doc["map"]["provinces"]]
    side = math.ceil(math.sqrt(len(ids)))
    pos: dict[str, tuple[float, float]] = {
        pid: (20 + 31 * (n % side) + 7 * ((n // side) % 2), 20 + 31 * (n // side))
        for n, pid in enumerate(ids)
    }
    got = regions(pos, _pairs(doc), (0, 0, 1000, 1000))
    check(pos, _pairs(doc), got)  # its time is measured in `make bench` (bench/maps.py)


# -- fill points: land and sea that is no province (a campaign file's map.fill) ---------------


def _strip() -> tuple[dict[str, tuple[float, float]], set[tuple[str, str]]]:
    """Two seas side by side on a coast, a land province inland of the first."""
    pos = {"west": (100.0, 100.0), "east": (200.0, 100.0), "shore": (100.0, 200.0)}
    return pos, {("east", "west"), ("shore", "west")}


def _grid(kind: str, ys: range) -> list[tuple[str, tuple[float, float]]]:
    return [(kind, (float(x), float(y))) for x in range(0, 301, 20) for y in ys]


def test_fill_points_draw_ground_and_coasts_and_keep_the_borders() -> None:
    pos, pairs = _strip()
    kinds = {"west": "sea", "east": "sea", "shore": "land"}
    # Sea to the north, land to the south, leaving room round the provinces.
    fill = _grid("sea", range(0, 31, 30)) + _grid("land", range(270, 301, 30))
    plain = regions(pos, pairs, (0, 0, 300, 300), kinds=kinds)
    got = regions(pos, pairs, (0, 0, 300, 300), fill=fill, kinds=kinds)
    check(pos, pairs, got)
    assert not plain.ground
    assert not plain.coasts
    # The ground covers the frame: every site's cell, land and sea as given.
    assert sum(area(poly) for _, _, poly in got.ground) == pytest.approx(300 * 300, rel=1e-6)
    assert {(pid, kind) for pid, kind, _ in got.ground if pid} == set(kinds.items())
    assert {kind for pid, kind, _ in got.ground if pid is None} == {"land", "sea"}
    # A coast where the fill's land meets sea, none between two seas or on a drawn border.
    assert got.coasts
    for p, q in got.coasts:
        mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        assert not any(_on(mid, b) for b in got.borders.values())
    # The fill bounds the regions: the seas no longer reach the frame's top.
    assert min(y for _, y in got.polygons["west"]) > min(y for _, y in plain.polygons["west"])


def _on(p: tuple[float, float], seg: tuple[tuple[float, float], tuple[float, float]]) -> bool:
    (ax, ay), (bx, by) = seg
    cross = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)
    inside = min(ax, bx) - 0.01 <= p[0] <= max(ax, bx) + 0.01
    return abs(cross) < 0.01 * (math.dist(seg[0], seg[1]) or 1) and inside


def test_a_fill_point_between_two_adjacent_seas_makes_their_link_a_strait() -> None:
    pos, pairs = _strip()
    kinds = {"west": "sea", "east": "sea", "shore": "land"}
    got = regions(pos, pairs, (0, 0, 300, 300), fill=[("land", (150.0, 100.0))], kinds=kinds)
    check(pos, pairs, got)
    assert ("east", "west") in got.straits  # an island between them: still adjacent, drawn so


def test_a_weight_moves_the_border_and_every_region_keeps_its_position() -> None:
    pos, pairs = _strip()
    kinds = {"west": "sea", "east": "sea", "shore": "land"}
    fill = [("land", (150.0, 260.0))]
    even = regions(pos, pairs, (0, 0, 300, 300), fill=fill, kinds=kinds)
    heavy = regions(
        pos, pairs, (0, 0, 300, 300), fill=fill, kinds=kinds, weight={"west": 0.4 * 100**2}
    )
    check(pos, pairs, heavy)
    # The power diagram's bisector moves off the heavier province by (w_i - w_j) / 2d = 20.
    assert max(x for x, _ in heavy.polygons["west"]) == pytest.approx(
        max(x for x, _ in even.polygons["west"]) + 20, abs=0.05
    )
