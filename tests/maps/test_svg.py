"""The SVG map: valid, self-contained XML; every province, port and fleet of the bundled Baltic
campaign; order arrows; battle markers from a real turn's events; the same bytes for the same
input; names escaped."""

from __future__ import annotations

import copy
import gc
import math
import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from engine.naval import adjudicate, parse_scenario
from engine.naval.fog import visible_fleets
from maps import Layout, map_svg
from maps.layout import PALETTE
from tests.maps.helpers import CHAIN_LAYOUT, SVG, chain_world, fleet, groups, parse, title_of

Baltic = tuple[dict[str, Any], Layout]


def label_texts(root: ET.Element) -> set[str]:
    """The names written on the map (a name on two lines joined again)."""
    out = set()
    for g in groups(root, "labels"):
        for text in g.iter(f"{SVG}text"):
            spans = text.findall(f"{SVG}tspan")
            out.add(" ".join(s.text or "" for s in spans) if spans else text.text or "")
    return out


def badge_box(g: ET.Element) -> tuple[float, float, float, float]:
    rect = g.find(f"{SVG}rect")
    assert rect is not None
    x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
    return x, y, x + float(rect.get("width", 0)), y + float(rect.get("height", 0))


def centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def test_the_map_is_valid_self_contained_svg() -> None:
    svg = map_svg(chain_world([fleet("d1", "danes", "s1", ships=4)]), CHAIN_LAYOUT)
    root = parse(svg)
    assert root[0].tag == f"{SVG}title"
    assert root[0].text == "Campaign map"
    assert root[1].tag == f"{SVG}desc"
    assert "1 fleets shown" in (root[1].text or "")
    assert root.get("width") == "1000"
    assert re.fullmatch(r"-?\d+ -?\d+ \d+ \d+", root.get("viewBox") or "")
    for forbidden in ("<script", "href", "http:", "https:", "@import", "<image", "<foreignObject"):
        assert forbidden not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert not svg.startswith("<?xml")  # ready to inline in HTML


def test_the_baltic_campaign_draws_every_province_port_and_fleet(baltic: Baltic) -> None:
    doc, layout = baltic
    parse_scenario(doc)  # the split gives a valid scenario
    svg = map_svg(doc, layout)
    root = parse(svg)
    provinces = {p["id"]: p["kind"] for p in doc["map"]["provinces"]}
    assert len(provinces) == 68
    drawn = {g.get("data-province"): g for g in groups(root, "province")}
    assert set(drawn) == set(provinces)
    assert {p for p, g in drawn.items() if "sea" in g.get("class", "").split()} == {
        p for p, kind in provinces.items() if kind == "sea"
    }
    assert len([k for k in provinces.values() if k == "sea"]) == 33
    names = label_texts(root)
    for pid in provinces:
        assert layout.province_name(pid) in names
    ports = {g.get("data-port") for g in groups(root, "port")}
    assert ports == {p["id"] for p in doc["map"]["ports"]}
    for pid in ports:
        assert layout.port_name(str(pid)) in names
    fleets = {g.get("data-fleet"): title_of(g) for g in groups(root, "fleet")}
    assert set(fleets) == {f["id"] for f in doc["fleets"]}
    assert fleets["dk-1"] == "dk-1: 6 ships of Denmark–Norway at Copenhagen (in port)"
    assert fleets["pi-2"] == "pi-2: 2 ships of Pirates at Skagerrak"
    assert root[0].text == "The Great Northern War at Sea"
    assert 'fill="#c8102e"' in svg  # the Danes' colour from the campaign file


def test_the_baltic_map_under_fog_matches_the_engine(baltic: Baltic) -> None:
    doc, layout = baltic
    world = parse_scenario(doc).world
    for viewer in ("denmark", "sweden", "prussia"):
        root = parse(map_svg(doc, layout, viewer=viewer))
        drawn = {g.get("data-fleet") for g in groups(root, "fleet")}
        assert drawn == set(visible_fleets(world, viewer))
    # Prussia at Pillau cannot see the Danish fleets in Copenhagen.
    svg = map_svg(doc, layout, viewer="prussia")
    assert "dk-1" not in svg


def test_move_orders_draw_arrows_in_the_owners_colour() -> None:
    layout = Layout(CHAIN_LAYOUT.positions, faction_colours={"danes": "#c8102e"})
    doc = chain_world(
        [
            fleet("d1", "danes", "s1"),
            fleet("d2", "danes", "s3"),
            fleet("d3", "danes", "s2"),
            fleet("d4", "danes", "s5"),
        ]
    )
    orders: list[dict[str, Any]] = [
        {"fleet": "d1", "type": "move", "path": ["s2", "s3"]},
        {"fleet": "d2", "type": "blockade", "port": "bastion", "path": ["s4"]},
        {"fleet": "d3", "type": "enter_port", "port": "haven", "path": ["s1"]},
        {"fleet": "d4", "type": "hold"},
        {"fleet": "ghost", "type": "move", "path": ["s1"]},
    ]
    root = parse(map_svg(doc, layout, orders=orders))
    arrows = {g.get("data-fleet"): g for g in groups(root, "order")}
    assert set(arrows) == {"d1", "d2", "d3"}
    markers = {m.get("id"): m for m in root.iter(f"{SVG}marker")}
    for fid, g in arrows.items():
        line = g.findall(f"{SVG}polyline")[-1]
        assert line.get("stroke") == "#c8102e"
        head = re.fullmatch(r"url\(#(.+)\)", line.get("marker-end") or "")
        assert head is not None
        assert head.group(1) in markers, fid
    points = [
        tuple(map(float, p.split(",")))
        for p in (arrows["d1"].findall(f"{SVG}polyline")[-1].get("points") or "").split()
    ]
    assert len(points) == 3  # from the fleet through s2 to s3
    assert math.dist(points[1], (300, 300)) < 1
    assert 10 < math.dist(points[2], (500, 300)) < 30  # stops at s3's edge for the head
    assert title_of(arrows["d1"]) == "d1 moves: s2 → s3"
    assert title_of(arrows["d3"]) == "d3 enters port: s1 → haven"
    assert "stroke-dasharray" in ET.tostring(arrows["d2"], encoding="unicode")


def test_battles_from_a_resolved_turn_are_marked() -> None:
    scenario = chain_world(
        [fleet("d1", "danes", "s1", ships=3), fleet("sw1", "swedes", "s2", ships=1)],
        orders=[{"fleet": "d1", "type": "move", "path": ["s2"]}],
        seed=3,
    )
    result = adjudicate(scenario)
    battles = [e for e in result["events"] if e["type"] == "battle"]
    assert battles
    after = {k: v for k, v in scenario.items() if k not in ("orders", "seed")}
    after["fleets"] = result["state"]["fleets"]
    root = parse(map_svg(after, CHAIN_LAYOUT, events=result["events"]))
    marks = groups(root, "battle")
    assert {g.get("data-province") for g in marks} == {e["province"] for e in battles}
    assert title_of(marks[0]) == "Battle at s2"
    assert marks[0].find(f"{SVG}polygon") is not None
    # No events, no markers.
    assert not groups(parse(map_svg(after, CHAIN_LAYOUT)), "battle")


def test_blockades_are_drawn_between_the_fleet_and_the_port() -> None:
    doc = chain_world([fleet("d1", "danes", "s4", blockading="bastion")])
    root = parse(map_svg(doc, CHAIN_LAYOUT))
    (mark,) = groups(root, "blockade")
    assert mark.get("data-port") == "bastion"
    assert mark.get("data-fleet") == "d1"
    assert title_of(mark) == "bastion blockaded by d1"
    (badge,) = groups(root, "fleet")
    assert title_of(badge) == "d1: 1 ship of danes at s4, blockading bastion"


def test_fleets_in_one_place_do_not_overlap_and_docked_fleets_sit_by_their_port() -> None:
    doc = chain_world(
        [fleet(f"d{i}", "danes", "s3", ships=i) for i in range(1, 6)]
        + [fleet("sw7", "swedes", "bastion", docked=True, ships=12)]
    )
    root = parse(map_svg(doc, CHAIN_LAYOUT))
    badges = {g.get("data-fleet"): badge_box(g) for g in groups(root, "fleet")}
    at_s3 = [badges[f"d{i}"] for i in range(1, 6)]
    for i, a in enumerate(at_s3):
        assert math.dist(centre(a), (500, 300)) < 80
        for b in at_s3[i + 1 :]:
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1])
    (port,) = [g for g in groups(root, "port") if g.get("data-port") == "bastion"]
    assert math.dist(centre(badges["sw7"]), centre(badge_box(port))) < 40


def test_same_input_same_bytes_whatever_the_order(baltic: Baltic) -> None:
    doc, layout = baltic
    orders = [
        {"fleet": "dk-1", "type": "move", "path": ["oresund", "arkona_basin"]},
        {"fleet": "se-1", "type": "blockade", "port": "stralsund", "path": ["bornholm_basin"]},
    ]
    events = [{"type": "battle", "province": "skagerrak"}, {"type": "moved", "fleet": "pi-2"}]
    first = map_svg(doc, layout, viewer="denmark", orders=orders, events=events)
    assert first == map_svg(doc, layout, viewer="denmark", orders=orders, events=events)
    shuffled = copy.deepcopy(doc)
    for key in ("provinces", "adjacent", "ports"):
        shuffled["map"][key].reverse()
    shuffled["map"]["adjacent"] = [pair[::-1] for pair in shuffled["map"]["adjacent"]]
    for key in ("fleets", "factions", "relations", "ship_types"):
        shuffled[key].reverse()
    again = map_svg(shuffled, layout, viewer="denmark", orders=orders[::-1], events=events[::-1])
    assert again == first


def test_names_are_escaped() -> None:
    nasty = 'Bay <of> "Fish" & Chips\'s'
    layout = Layout(
        positions=CHAIN_LAYOUT.positions,
        province_names={"s1": nasty},
        port_names={"haven": "<Rock> & Roll", "bastion": "Bell\x07 Tower\x00"},
        faction_names={"danes": "<b>Danes</b> & Co"},
        faction_colours={"danes": '"><script>alert(1)</script>'},
        title="Map <1> & 2",
    )
    doc = chain_world([fleet("d&<1>", "danes", "s1")])
    svg = map_svg(doc, layout)
    root = parse(svg)
    assert "<b>" not in svg
    assert "<script" not in svg
    assert "<of>" not in svg
    assert root[0].text == "Map <1> & 2"
    assert nasty in label_texts(root)
    assert "<Rock> & Roll" in label_texts(root)
    assert "Bell Tower" in label_texts(root)  # characters XML cannot hold are left out
    (badge,) = groups(root, "fleet")
    assert badge.get("data-fleet") == "d&<1>"
    assert title_of(badge) == f"d&<1>: 1 ship of <b>Danes</b> & Co at {nasty}"
    rect = badge.find(f"{SVG}rect")  # in a palette colour: the given one is not #rrggbb
    assert rect is not None
    assert rect.get("fill") in PALETTE


def test_width_sets_the_size_and_the_height_follows() -> None:
    doc = chain_world([])
    root = parse(map_svg(doc, CHAIN_LAYOUT, width=500))
    _, _, w, h = map(float, (root.get("viewBox") or "").split())
    assert root.get("width") == "500"
    assert abs(float(root.get("height") or 0) - 500 * h / w) <= 1


def test_provinces_without_a_position_are_still_drawn() -> None:
    doc = chain_world([fleet("d1", "danes", "s5")])
    doc["map"]["provinces"][0].update(x=120, y=80)  # s1 has its own position in the document
    root = parse(map_svg(doc, Layout()))
    drawn = {g.get("data-province"): g for g in groups(root, "province")}
    assert set(drawn) == {"s1", "s2", "s3", "s4", "s5", "home", "hold"}
    # s1's region holds its own position; the others, without one, still get a region each.
    region = drawn["s1"].find(f"{SVG}polygon")
    assert region is not None
    corners = [tuple(map(float, c.split(","))) for c in (region.get("points") or "").split()]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    assert min(xs) < 120 < max(xs)
    assert min(ys) < 80 < max(ys)
    assert all(g.find(f"{SVG}polygon") is not None for g in drawn.values())
    assert {g.get("data-fleet") for g in groups(root, "fleet")} == {"d1"}


def test_sea_borders_and_coasts_are_drawn_differently() -> None:
    # Issue 20 §1: adjacency reads as shared borders. The chain's four sea–sea adjacencies are
    # soft dashed borders, its two coasts (home–s1, hold–s4) firm lines.
    root = parse(map_svg(chain_world([]), CHAIN_LAYOUT))
    (links,) = groups(root, "links")
    lanes = [g for g in links if g.get("class") == "border sea-sea"]
    coasts = [ln for ln in links if ln.get("class") == "border land-sea"]
    assert (len(lanes), len(coasts)) == (4, 2)
    assert all(g.find(f"{SVG}circle") is None for g in groups(root, "province"))
    soft = lanes[0].findall(f"{SVG}line")[-1]
    assert soft.get("stroke-dasharray")
    assert not coasts[0].get("stroke-dasharray")
    assert soft.get("stroke") != coasts[0].get("stroke")
    (legend,) = groups(root, "legend")
    assert "Sea province" in "".join(legend.itertext())


def test_a_line_is_written_as_el_writes_it() -> None:
    """maps/draw.py `line` writes its markup out for speed: the same text as `el`'s, for
    coordinates and widths as floats and ints, signs, a negative zero, rounding at one
    decimal, and ids and colours with what XML must escape or cannot hold."""
    from maps.draw import line
    from maps.marks import el

    points = [((0.0, -0.0), (12.25, -3.95)), ((1, 2), (-7, 1000)), ((0.04, 5.05), (1e6, -1e-9))]
    extras = [
        {},
        {"dash": "3 2.5"},
        {"cls": "border sea-sea", "between": "oresund kattegat"},
        {"cls": 'a"b<c>&\x01', "between": "é\ud800\n", "dash": "2 3"},
    ]
    for a, b in points:
        for colour, width in (("#3d78ad", 2.4), ('"red"', 1), ("#fff", 0.95)):
            for extra in extras:
                expected = el(
                    "line",
                    {
                        "class": extra.get("cls"),
                        "data-between": extra.get("between"),
                        "x1": a[0],
                        "y1": a[1],
                        "x2": b[0],
                        "y2": b[1],
                        "stroke": colour,
                        "stroke-width": width,
                        "stroke-dasharray": extra.get("dash"),
                        "stroke-linecap": "round",
                    },
                )
                assert line(a, b, colour, width, **extra) == expected


def test_a_drawing_pauses_the_collector_and_leaves_it_as_it_found_it(baltic) -> None:
    """maps/collector.py: no collection runs while a map is drawn (the same drawing unpaused
    sets off several), the collector is on again after, also when the drawing fails, and a
    drawing that found it off leaves it off."""
    doc, layout = baltic
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(count)
    try:
        map_svg.__wrapped__(doc, layout)  # type: ignore[attr-defined]
        assert collections, "the drawing unpaused sets off no collection: nothing to show"
        collections.clear()
        map_svg(doc, layout)
        assert collections == []
        assert gc.isenabled()
    finally:
        gc.callbacks.remove(count)
    with pytest.raises(ValueError, match="width must be at least 1"):
        map_svg(doc, layout, width=0)
    assert gc.isenabled()
    gc.disable()
    try:
        map_svg(doc, layout)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_numbers_and_text_are_written_as_before_the_fast_paths() -> None:
    """maps/marks.py `num` and `clean` take shorter ways (a trailing ".0" cut, the search for
    what XML cannot hold made only in text that is not printable): the same text as the
    plain ways, for numbers of every size and sign and for every kind of character."""
    from maps.marks import clean, num

    not_xml = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

    def plain_num(value: float) -> str:
        text = f"{value:.1f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text

    rng = random.Random(20)
    values = [0.0, -0.0, 0.04, -0.04, 0.05, -0.05, 0.95, 9.96, -9.96, 10.0, 100.0, 1e20, -1e-9]
    values += [float("inf"), float("-inf"), float("nan"), 7, -3, 0]
    values += [rng.uniform(-2000, 2000) for _ in range(5000)]
    values += [round(rng.uniform(-50, 50), rng.randint(0, 3)) for _ in range(5000)]
    for value in values:
        assert num(value) == plain_num(value), value
    samples = [
        "",
        "Öresund",
        "Gävle & <Visby>",
        'a"b',
        "tab\there",
        "line\nbreak\r",
        "\x00\x1f\x7f",
    ]
    samples += ["\ud800 lone", "\ufffe\uffff", "\u2028\u00a0\u200b", "Рига", "🚢 flag"]
    samples += ["".join(chr(rng.randint(0, 0x2FFFF)) for _ in range(12)) for _ in range(3000)]
    for text in samples:
        assert clean(text) == not_xml.sub("", text), repr(text)
