"""A campaign's own drawing of its map (issue 20 §1, docs/rulings.md R-76–R-79): read and made
safe (maps/drawing.py), each refusal with its code and words; checked against a world; the map
drawn on its shapes (maps/own_svg.py) with the marks at the shapes' middles, the desk's click
targets on each shape and fog shading, never hiding, the seas."""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from PIL import Image

from maps import Layout, map_svg
from maps.drawing import (
    MAX_BYTES,
    DrawingRefused,
    drawing_fits,
    drawing_problems,
    drawing_read,
)
from maps.map_cache import world_layout_key
from maps.png import svg_png
from maps.shapes import middle, path_rings, transform
from tests.maps.helpers import CHAIN_LAYOUT, SVG, chain_world, fleet, groups, parse, title_of

CHAIN_SVG = (Path(__file__).parent / "drawings" / "chain.svg").read_text()
CHAIN_IDS = ["s1", "s2", "s3", "s4", "s5", "home", "hold"]
HEAD = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'


def chain_drawing() -> Layout:
    return Layout(drawing=drawing_read(CHAIN_SVG))


def codes(text: str) -> list[str]:
    with pytest.raises(DrawingRefused) as caught:
        drawing_read(text)
    return [p.code for p in caught.value.problems]


def refusal_words(text: str) -> str:
    with pytest.raises(DrawingRefused) as caught:
        drawing_read(text)
    return " | ".join(p.message for p in caught.value.problems)


# -- reading and refusing ------------------------------------------------------------------------


def test_the_chain_drawing_fits_the_chain_world() -> None:
    drawing = drawing_read(CHAIN_SVG)
    assert set(drawing.shapes) == set(CHAIN_IDS)
    assert drawing.layered == ("layer1",)  # a group of province shapes: its id is not read
    assert drawing_problems(drawing, CHAIN_IDS) == []
    assert drawing_fits(drawing, CHAIN_IDS)


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("<svg", "svg_not_xml", "not well-formed XML"),
        ("not a drawing at all", "svg_not_xml", "line 1"),
        ('<html xmlns="http://www.w3.org/1999/xhtml"/>', "svg_not_svg", "is not an SVG"),
        ('<svg xmlns="http://www.w3.org/2000/svg"/>', "svg_no_size", "give its <svg> a viewBox"),
        (
            '<!DOCTYPE svg [<!ENTITY lol "lol">]>' + HEAD + "<text>&lol;</text></svg>",
            "svg_entities",
            "may not declare entities",
        ),
        (HEAD + "<script>alert(1)</script></svg>", "svg_script", "<script> is not taken"),
        (
            HEAD + '<script xmlns="http://www.w3.org/1999/xhtml">alert(1)</script></svg>',
            "svg_script",
            "shown to players",
        ),
        (
            HEAD + "<foreignObject><p>hi</p></foreignObject></svg>",
            "svg_foreign_object",
            "<foreignObject> is not taken",
        ),
        (
            HEAD + '<rect id="a" width="5" height="5" onclick="alert(1)"/></svg>',
            "svg_event_handler",
            "'onclick' on <rect id='a'>",
        ),
        (
            HEAD.replace("<svg ", '<svg onload="alert(1)" ') + "</svg>",
            "svg_event_handler",
            "'onload'",
        ),
        (
            HEAD.replace("<svg ", '<svg xmlns:xlink="http://www.w3.org/1999/xlink" ')
            + '<use xlink:href="http://example.org/x.svg#a"/></svg>',
            "svg_external_ref",
            "leads outside the drawing",
        ),
        (
            HEAD + '<use href="javascript:alert(1)"/></svg>',
            "svg_external_ref",
            "'javascript:'",
        ),
        (
            HEAD + '<rect id="a" width="5" height="5" fill="url(http://evil.test/p)"/></svg>',
            "svg_external_ref",
            "refers to 'http://evil.test/p'",
        ),
        (
            HEAD + '<rect id="a" width="5" height="5" style="fill:url(\'//evil.test/p\')"/></svg>',
            "svg_external_ref",
            "outside the drawing",
        ),
        (HEAD + '<image href="#x" width="5" height="5"/></svg>', "svg_element", "<image>"),
        (HEAD + "<style>.fleet{display:none}</style></svg>", "svg_element", "<style>"),
        (
            HEAD + '<a href="#x"><rect width="1" height="1"/></a></svg>',
            "svg_element",
            "<a> is not taken",
        ),
        (HEAD + '<set attributeName="href" to="javascript:x"/></svg>', "svg_element", "<set>"),
    ],
)
def test_what_cannot_be_taken_is_refused_with_its_code_and_words(
    text: str, code: str, words: str
) -> None:
    assert code in codes(text)
    assert words in refusal_words(text)


def test_a_drawing_over_two_megabytes_is_refused_before_it_is_read() -> None:
    text = HEAD + "<!--" + "x" * MAX_BYTES + "--></svg>"
    assert codes(text) == ["svg_too_large"]
    assert "at most 2,000,000 (2 MB)" in refusal_words(text)


@pytest.mark.parametrize("province", ["", ' id="s1"'])
def test_a_drawing_nested_too_deep_is_refused(province: str) -> None:
    """Also a province's group nested far past Python's recursion limit: refused, no error."""
    text = HEAD + f"<g{province}>" + "<g>" * 5000 + "</g>" * 5001 + "</svg>"
    assert codes(text) == ["svg_too_deep"]


@pytest.mark.parametrize(
    ("svg", "code", "words"),
    [
        (CHAIN_SVG.replace('id="s5"', 'id="bay_x"'), "svg_unknown_province", "'bay_x' is not a "),
        (CHAIN_SVG.replace('id="s5"', 'id="bay_x"'), "svg_not_drawn", "'s5' is not drawn"),
        (CHAIN_SVG.replace('id="s4"', 'id="s3"'), "svg_drawn_twice", "'s3' is drawn twice"),
        (
            CHAIN_SVG.replace('<circle cx="40"', '<circle id="home_hill" cx="40"'),
            "svg_province_parts",
            "'home' is a group holding shapes with ids",
        ),
        (CHAIN_SVG.replace('x="300" y="0" width="100"', 'width="0"'), "svg_empty_shape", "'s4'"),
    ],
)
def test_a_drawing_is_checked_against_the_world(svg: str, code: str, words: str) -> None:
    drawing = drawing_read(svg)
    problems = drawing_problems(drawing, CHAIN_IDS)
    assert code in [p.code for p in problems]
    assert any(words in p.message for p in problems), problems
    assert not drawing_fits(drawing, CHAIN_IDS)


def test_many_problems_are_listed_forty_and_counted_past_them() -> None:
    shapes = "".join(f'<rect id="r{n}" width="1" height="1"/>' for n in range(60))
    problems = drawing_problems(drawing_read(HEAD + shapes + "</svg>"), [])
    assert len(problems) == 41
    assert problems[-1].message == "and 20 more problem(s) of the same kinds"


def test_what_is_kept_is_only_what_the_reader_knows() -> None:
    text = (
        HEAD.replace("<svg ", '<svg xmlns:ink="urn:ink" ')
        + '<rect id="a" class="fleet" data-fleet="d1" ink:label="x" width="5" height="5"'
        ' style="fill:red;behavior:url(#x);stroke:\\75rl(x)"/>'
        '<ink:thing><rect width="1" height="1"/></ink:thing><title>t</title></svg>'
    )
    shape = drawing_read(text).shapes["a"]
    # No class or data attribute of the file's own reaches the map: a shape is never taken for
    # a fleet by the desk's script, nor styled by the page's rules for them.
    assert shape.markup == '<rect id="own-svg-a" width="5" height="5" style="fill:red"></rect>'
    assert "ink" not in "".join(drawing_read(text).parts)


# -- the shapes' outlines ------------------------------------------------------------------------


def test_paths_are_read_with_every_command_absolute_and_relative() -> None:
    square = path_rings("M10 10 h20 v20 H10 z")
    assert square == [[(10, 10), (30, 10), (30, 30), (10, 30)]]
    curve = path_rings(
        "m0 0 c10 -10 20 -10 30 0 s20 10 30 0 q5 5 10 0 t10 0 l0 10 a5 5 0 0 1 -80 0z"
    )
    xs = [x for x, _ in curve[0]]
    assert max(xs) == pytest.approx(80)
    assert curve[0][-1] == (0, 10)
    assert path_rings("M0 0 L5 5 x 7") == [[(0, 0), (5, 5)]]  # what cannot be read is left out


def test_transforms_compose_as_svg_does() -> None:
    m = transform("translate(10 20) scale(2)")
    assert (m[0], m[3], m[4], m[5]) == (2, 2, 10, 20)
    r = transform("rotate(90 5 5)")
    assert (r[0] * 10 + r[2] * 5 + r[4], r[1] * 10 + r[3] * 5 + r[5]) == pytest.approx((5, 10))


def test_a_middle_lies_inside_its_shape_even_for_an_l() -> None:
    ell = [[(0.0, 0.0), (100.0, 0.0), (100.0, 10.0), (10.0, 10.0), (10.0, 100.0), (0.0, 100.0)]]
    x, y = middle(ell)
    assert 0 <= x <= 10 or 0 <= y <= 10  # on one of the L's arms, not in the empty corner


# -- the map on the drawing ------------------------------------------------------------------------


def test_the_map_is_drawn_on_the_drawings_shapes() -> None:
    doc = chain_world([fleet("d1", "danes", "s1", 2), fleet("w1", "swedes", "s4")])
    root = parse(map_svg(doc, chain_drawing()))
    own = groups(root, "own-drawing")
    assert len(own) == 1
    assert re.fullmatch(r"matrix\(2 0 0 2 -?0 -?0\)", own[0].get("transform", ""))
    provinces = {g.get("data-province"): g for g in groups(root, "province")}
    assert set(provinces) == set(CHAIN_IDS)
    # Each the drawing's own shape, in a group the desk's clicks find, titled with its name.
    s2 = provinces["s2"]
    assert title_of(s2) == "s2 (sea)"
    (shape,) = s2.findall(f"{SVG}path")
    assert shape.get("d") == "m100 0 h100 v100 h-100 z"
    assert shape.get("id") == "own-svg-s2"
    assert provinces["s1"].find(f"{SVG}path").get("fill") == "url(#own-svg-deep)"  # type: ignore[union-attr]
    assert provinces["home"].find(f"{SVG}g/{SVG}circle") is not None
    assert "land" in (provinces["home"].get("class") or "").split()
    # No generated region, border or strait.
    assert not root.findall(f".//{SVG}g[@class='province sea']/{SVG}polygon[@stroke-linejoin]")
    assert not groups(root, "border")
    assert not groups(root, "strait")
    # The drawing's own text is kept, outside every province.
    assert "The chain" in "".join(t.text or "" for t in root.iter(f"{SVG}text"))


def rect_centre(g: ET.Element) -> tuple[float, float]:
    """The middle of a fleet's badge or a port's mark (each drawn on a rect)."""
    rect = g.find(f"{SVG}rect")
    assert rect is not None
    x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
    return x + float(rect.get("width", 0)) / 2, y + float(rect.get("height", 0)) / 2


def test_the_marks_go_where_the_shapes_are() -> None:
    doc = chain_world([fleet("d1", "danes", "s5"), fleet("w1", "swedes", "s2")])
    root = parse(map_svg(doc, chain_drawing()))
    fleets = {g.get("data-fleet"): rect_centre(g) for g in groups(root, "fleet")}
    # s5 spans 400–500 of the 500-wide drawing (800–1000 on the map), s2 100–200 (200–400).
    assert 800 < fleets["d1"][0] < 1000
    assert 200 < fleets["w1"][0] < 400
    ports = {g.get("data-port"): rect_centre(g) for g in groups(root, "port")}
    # The bastion on hold's outline (its ellipse round 700, 300, radii 100 and 90, on the map),
    # toward s4 above it, just inside: not at the middle where hold's name goes.
    x, y = ports["bastion"]
    assert y < 300
    assert 70 < math.dist((x, y), (700, 300)) < 90
    # The haven just inside home's top edge (y 200 on the map), toward s1.
    assert 200 < ports["haven"][1] < 210


def test_a_shapes_own_spot_for_its_marks_is_taken() -> None:
    drawing = drawing_read(CHAIN_SVG)
    assert drawing.shapes["hold"].middle == (680.0, 320.0)  # data-x 340, data-y 160, scaled by 2


def test_fog_shades_the_unseen_seas_and_hides_no_land_or_sea() -> None:
    doc = chain_world([fleet("d1", "danes", "s1"), fleet("w1", "swedes", "s5")])
    root = parse(map_svg(doc, chain_drawing(), viewer="danes", fog=True))
    provinces = {g.get("data-province"): g for g in groups(root, "province")}
    assert set(provinces) == set(CHAIN_IDS)
    unseen = {pid for pid, g in provinces.items() if "unseen" in (g.get("class") or "")}
    assert unseen == {"s3", "s4", "s5"}  # the danes watch s1 and s2 (their fleet and port)
    for pid in unseen:
        (shade,) = groups(provinces[pid], "shade")
        assert shade[0].get("fill") is None  # a plain copy of the shape, painted by the shade
    assert not groups(provinces["s1"], "shade")
    assert {g.get("data-fleet") for g in groups(root, "fleet")} == {"d1"}


def test_the_same_drawing_gives_the_same_bytes_and_a_map_key_of_its_own() -> None:
    doc = chain_world([fleet("d1", "danes", "s1")])
    assert map_svg(doc, chain_drawing()) == map_svg(doc, chain_drawing())
    plain = world_layout_key(doc, Layout())
    assert world_layout_key(doc, chain_drawing()) != plain
    other = Layout(drawing=drawing_read(CHAIN_SVG.replace("#4f86b8", "#4f86b9")))
    assert world_layout_key(doc, other) != world_layout_key(doc, chain_drawing())


def test_a_drawing_that_no_longer_fits_the_world_is_not_used() -> None:
    doc = chain_world([fleet("d1", "danes", "s1")])
    doc["map"]["provinces"].append({"id": "s6", "kind": "sea"})
    doc["map"]["adjacent"].append(["s5", "s6"])
    positions = {**CHAIN_LAYOUT.positions, "s6": (950, 200)}
    layout = Layout(positions=positions, drawing=drawing_read(CHAIN_SVG))
    root = parse(map_svg(doc, layout))
    assert not groups(root, "own-drawing")
    assert {g.get("data-province") for g in groups(root, "province")} == {*CHAIN_IDS, "s6"}


def test_the_campaign_formats_example_drawing_fits_its_example_map() -> None:
    text = (Path(__file__).parents[2] / "docs" / "campaign-format.md").read_text()
    block = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    example = yaml.safe_load(block)
    provinces = [p["id"] for p in example["map"]["provinces"]]
    assert drawing_problems(drawing_read(example["map_svg"]), provinces) == []


def test_the_map_on_a_drawing_is_drawn_as_png_for_the_forum() -> None:
    """The bulletin's PNG (maps/png.py, CairoSVG) reads the drawing's markup: its shapes are
    painted with their own colours (s2's blue in its middle), not the generated map's."""
    png = svg_png(map_svg(chain_world([]), chain_drawing()), scale=1)
    assert png.startswith(b"\x89PNG")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    root = parse(map_svg(chain_world([]), chain_drawing()))
    x0, y0 = (float(v) for v in root.get("viewBox", "").split()[:2])
    assert image.getpixel((round(260 - x0), round(60 - y0))) == (0x4F, 0x86, 0xB8)
