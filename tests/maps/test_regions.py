"""The map of sea areas' regions (issue 20 §1, maps/regions.py): every province one closed
convex polygon holding its position, no two overlapping, a shared border only between adjacent
provinces, and every adjacency a border or a strait."""

from __future__ import annotations

import math
from typing import Any

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
