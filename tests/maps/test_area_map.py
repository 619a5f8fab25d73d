"""The naval map as a map of sea areas (issue 20 §1): every province drawn as a region holding
its position, adjacency as shared borders (and straits), ports on their land's coast, and the
names clear of each other and of the fleets — on the bundled Baltic and on a generated world of
1,000 provinces that gives no positions at all."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from bench.generate import Spec, generate
from maps import Layout, map_svg
from maps.geometry import measure
from maps.marks import LAND, SEA, SEA_UNSEEN
from maps.model import read_model
from maps.place import text_width
from maps.regions import contains
from tests.maps.helpers import SVG, area, groups, parse
from tests.maps.test_regions import check

Box = tuple[float, float, float, float]
Baltic = tuple[dict[str, Any], Layout]


def corners(element: ET.Element) -> tuple[tuple[float, float], ...]:
    return tuple(
        (float(x), float(y))
        for x, y in (c.split(",") for c in (element.get("points") or "").split())
    )


def regions_of(root: ET.Element) -> dict[str, tuple[tuple[float, float], ...]]:
    out = {}
    for g in groups(root, "province"):
        polygon = g.find(f"{SVG}polygon")
        assert polygon is not None, g.get("data-province")
        out[str(g.get("data-province"))] = corners(polygon)
    return out


def segments(root: ET.Element, cls: str) -> dict[tuple[str, str], tuple[float, ...]]:
    """Each border's (or strait's) pair and its two ends, as drawn."""
    out: dict[tuple[str, str], tuple[float, ...]] = {}
    (links,) = groups(root, "links")
    for part in links:
        if (part.get("class") or "").split()[0] != cls:
            continue
        a, b = str(part.get("data-between")).split()
        first = part if part.tag == f"{SVG}line" else part.findall(f"{SVG}line")[-1]
        out[(a, b)] = tuple(float(first.get(k, 0)) for k in ("x1", "y1", "x2", "y2"))
    return out


def label_boxes(root: ET.Element) -> list[tuple[str, Box]]:
    """Each name's box as drawn: its lines' widths estimated as the map estimates them."""
    out = []
    for g in groups(root, "labels"):
        for text in g.iter(f"{SVG}text"):
            size = float(text.get("font-size", 0))
            bold = text.get("font-weight") == "bold"
            spans = text.findall(f"{SVG}tspan") or [text]
            words = [s.text or "" for s in spans]
            cx = float(spans[0].get("x", 0))
            top = min(float(s.get("y", 0)) for s in spans) - size * 0.75
            bottom = max(float(s.get("y", 0)) for s in spans) + size * 0.2
            half = max(text_width(w, size, bold=bold) for w in words) / 2
            out.append((" ".join(words), (cx - half, top, cx + half, bottom)))
    return out


def badge_boxes(root: ET.Element) -> list[tuple[str, Box]]:
    out = []
    for g in groups(root, "fleet"):
        rect = g.find(f"{SVG}rect")
        assert rect is not None
        x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
        box = (x, y, x + float(rect.get("width", 0)), y + float(rect.get("height", 0)))
        out.append((str(g.get("data-fleet")), box))
    return out


def overlap(a: Box, b: Box, slack: float = 1.0) -> bool:
    return (
        a[0] + slack < b[2] and b[0] + slack < a[2] and a[1] + slack < b[3] and b[1] + slack < a[3]
    )


def clashes(root: ET.Element) -> list[tuple[str, str]]:
    labels, badges = label_boxes(root), badge_boxes(root)
    out = [
        (a, b)
        for n, (a, box) in enumerate(labels)
        for b, other in labels[n + 1 :]
        if overlap(box, other)
    ]
    out += [(a, f) for a, box in labels for f, other in badges if overlap(box, other)]
    return out


def test_every_baltic_province_is_a_region_holding_its_place(baltic: Baltic) -> None:
    doc, layout = baltic
    root = parse(map_svg(doc, layout))
    drawn = regions_of(root)
    assert set(drawn) == {p["id"] for p in doc["map"]["provinces"]}
    for pid, poly in drawn.items():
        assert len(poly) >= 3
        assert contains(poly, layout.positions[pid]), pid
    # Nothing is drawn as a dot joined by lines any more.
    assert all(g.find(f"{SVG}circle") is None for g in groups(root, "province"))


def test_baltic_borders_only_where_the_rulebook_has_an_adjacency(baltic: Baltic) -> None:
    doc, layout = baltic
    root = parse(map_svg(doc, layout))
    pairs = {tuple(sorted(p)) for p in doc["map"]["adjacent"]}
    borders, straits = segments(root, "border"), segments(root, "strait")
    assert set(borders) <= pairs
    assert set(borders) | set(straits) == pairs  # every adjacency is shown, once
    assert not set(borders) & set(straits)
    assert len(borders) > 0.8 * len(pairs)  # mostly shared borders, a few straits
    # Known neighbours share a border: the Sound between Zealand and Scania, the Quark.
    assert ("kattegat", "skagerrak") in borders
    assert ("bothnian_sea_north", "the_quark") in borders
    # And provinces the rulebook does not join never touch: Jutland is not on the Baltic proper.
    assert ("bornholm_basin", "jutland") not in borders


def test_baltic_ports_sit_on_their_lands_coast(baltic: Baltic) -> None:
    doc, layout = baltic
    root = parse(map_svg(doc, layout))
    borders = segments(root, "border")
    markers = {g.get("data-port"): g for g in groups(root, "port")}
    on_coast = 0
    for port in doc["map"]["ports"]:
        land = port["province"]
        coasts = [
            borders[tuple(sorted((land, w)))]
            for w in port["waters"]
            if tuple(sorted((land, w))) in borders
        ]
        if not coasts:
            continue
        x, y = _marker_centre(markers[port["id"]])
        near = min(_to_segment((x, y), c) for c in coasts)
        assert near < 2.0, port["id"]  # the anchor is 13 units across
        on_coast += 1
    assert on_coast >= len(doc["map"]["ports"]) - 2


def _marker_centre(g: ET.Element) -> tuple[float, float]:
    """The anchor's centre: the middle of the boxes its shapes' coordinates span."""
    xs, ys = [], []
    for element in g.iter():
        for kx, ky in (("cx", "cy"), ("x", "y")):
            if element.get(kx) is not None and element.get(ky) is not None:
                w = float(element.get("width", 0))
                h = float(element.get("height", 0))
                xs.append(float(element.get(kx, 0)) + w / 2)
                ys.append(float(element.get(ky, 0)) + h / 2)
    assert xs
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def _to_segment(p: tuple[float, float], seg: tuple[float, ...]) -> float:
    ax, ay, bx, by = seg
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / ((dx * dx + dy * dy) or 1.0)))
    return math.dist(p, (ax + dx * t, ay + dy * t))


def test_baltic_names_clear_each_other_and_the_fleets(baltic: Baltic) -> None:
    doc, layout = baltic
    root = parse(map_svg(doc, layout, orders=doc.get("orders", [])))
    assert len(label_boxes(root)) >= len(doc["map"]["provinces"])
    assert clashes(root) == []


@pytest.mark.slow
def test_a_generated_world_of_1000_provinces_without_positions() -> None:
    doc = generate(Spec(fleets=200, sea=900, land=100))
    root = parse(map_svg(doc, Layout()))
    drawn = regions_of(root)
    assert len(drawn) == 1000
    # Spread evenly (a sunflower spiral, maps.geometry.default_positions), not on a circle:
    # no region is a sliver, all are of a size.
    areas = sorted(area(p) for p in drawn.values())
    assert areas[0] > 0.2 * areas[len(areas) // 2]
    pairs = {tuple(sorted(p)) for p in doc["map"]["adjacent"]}
    borders, straits = segments(root, "border"), segments(root, "strait")
    assert set(borders) <= pairs
    assert set(borders) | set(straits) == pairs
    assert clashes(root) == []


def test_provinces_stacked_on_one_spot_are_spread(baltic: Baltic) -> None:
    # A world imported without positions keeps 0, 0 for every province (fleets/importing.py):
    # drawn as slices of one spot, no region would be a region. They are spread instead.
    doc, layout = baltic
    flat = Layout(positions=dict.fromkeys(layout.positions, (0.0, 0.0)))
    drawn = regions_of(parse(map_svg(doc, flat)))
    areas = sorted(area(p) for p in drawn.values())
    assert len(drawn) == len(layout.positions)
    assert areas[0] > 0.2 * areas[len(areas) // 2]


# -- the bundled Baltic looks like the Baltic (issue 20 §1) -----------------------------------


def _projected(lon: float, lat: float) -> tuple[float, float]:
    """The bundled file's projection (its header): equirectangular at about 59°N."""
    return (lon - 5.0) * 38.2 + 8, (66.3 - lat) * 72 + 10


# Where a few provinces are: the real place each stands for (degrees east, north).
PLACES = {
    "kattegat": (11.5, 56.9),
    "oresund": (12.75, 55.85),
    "zealand": (11.8, 55.45),
    "jutland": (9.2, 56.4),
    "gotland": (18.5, 57.5),
    "uppland": (17.8, 59.8),
    "gulf_of_riga": (23.6, 57.5),
    "gulf_of_finland_east": (27.8, 60.1),
    "bothnian_bay": (23.5, 64.8),
    "ostrobothnia": (24.5, 63.5),
    "east_prussia": (21.0, 54.4),
    "mecklenburg": (12.2, 53.85),
}
# And what is there between them: land or sea, whichever region or ground covers it.
GROUND = {
    "land": [(8.0, 61.0), (14.5, 61.5), (15.0, 58.7), (27.0, 62.5), (25.5, 58.6), (17.0, 53.7)],
    "sea": [(5.8, 57.5), (20.3, 62.0), (19.5, 56.0), (24.5, 60.0), (22.8, 64.0)],
}


def test_the_baltic_provinces_stand_where_their_places_are(baltic: Baltic) -> None:
    _, layout = baltic
    for pid, (lon, lat) in PLACES.items():
        assert math.dist(layout.positions[pid], _projected(lon, lat)) < 12, pid


def test_the_baltic_is_land_and_sea_where_they_are(baltic: Baltic) -> None:
    doc, layout = baltic
    geo = measure(read_model(doc, None, False), layout, doc)
    check(dict(geo.pos), {tuple(sorted(p)) for p in doc["map"]["adjacent"]}, geo.regions)
    kinds = {p["id"]: p["kind"] for p in doc["map"]["provinces"]}
    for kind, spots in GROUND.items():
        for lon, lat in spots:
            at = _projected(lon, lat)
            under = [k for _, k, poly in geo.regions.ground if contains(poly, at)]
            over = [kinds[pid] for pid, poly in geo.regions.polygons.items() if contains(poly, at)]
            assert (over or under or ["nothing"])[0] == kind, (lon, lat)
    # Drawn under the regions, with its coasts.
    root = parse(map_svg(doc, layout))
    assert len(groups(root, "ground")) == 1
    assert root.findall(f".//{SVG}line[@class='coast']")


def test_the_baltic_ground_is_one_path_a_colour(baltic: Baltic) -> None:
    """maps/draw.py draw_ground: the cells of one colour are one path, a closed figure a cell
    (every cell of the ground once), so the bundled map is a quarter of a megabyte rather than
    half of one; a faction's shaded seas are a colour of their own."""
    doc, layout = baltic
    geo = measure(read_model(doc, None, False), layout, doc)
    for viewer, fog, colours in (
        (None, False, {LAND, SEA}),
        ("sweden", True, {LAND, SEA, SEA_UNSEEN}),
    ):
        svg = map_svg(doc, layout, viewer=viewer, fog=fog)
        (ground,) = groups(parse(svg), "ground")
        paths = ground.findall(f"{SVG}path")
        assert sorted(p.get("fill") for p in paths) == sorted(colours)
        assert all(p.get("stroke") == p.get("fill") for p in paths)
        assert sum(p.get("d", "").count("M") for p in paths) == len(geo.regions.ground)
        assert not ground.findall(f"{SVG}polygon")
        assert len(svg.encode()) < 300_000  # 458 KB when each cell was an element
