"""The public map (issue 11, docs/rulings.md R-56): drawn for no faction, it shows what the
bulletin may — under fog of war no fleet at all (not their ids, owners or counts, not a blockade
line), the battles marked; without fog every fleet; never an order. And the PNG of it."""

from __future__ import annotations

import io
import json
import struct

import pytest

from maps.png import halo_first, svg_png
from maps.public import NOTE_FOG, NOTE_OPEN, public_map_svg
from tests.maps.helpers import CHAIN_LAYOUT, chain_world, fleet, groups, parse

BATTLE = {"type": "battle", "province": "s3", "step": 1}


def world():
    # The norsemen hold no port: under fog nobody's view would name them at all.
    return chain_world(
        [
            fleet("d1", "danes", "s1", ships=4),
            fleet("sw1", "swedes", "s3", ships=2, blockading="bastion"),
            fleet("nx9", "norsemen", "s5", ships=3),
            fleet("sw7", "swedes", "bastion", docked=True),
        ],
        orders=[{"fleet": "d1", "type": "move", "path": ["s2"]}],
    )


def test_under_fog_the_public_map_shows_no_fleet_only_ports_and_battles() -> None:
    svg = public_map_svg(world(), CHAIN_LAYOUT, fog=True, events=[BATTLE])
    root = parse(svg)
    assert groups(root, "fleet") == []
    assert groups(root, "blockade") == []
    assert groups(root, "order") == []
    for secret in ("d1", "sw1", "nx9", "sw7", "norsemen"):
        assert secret not in svg, secret
    assert len(groups(root, "battle")) == 1  # battles are public news
    assert NOTE_FOG in svg  # the key says whose view it is, not "All fleets shown"
    assert "All fleets shown" not in svg
    assert "haven" in svg
    assert "bastion" in svg


def test_without_fog_every_fleet_but_no_order() -> None:
    root = parse(svg := public_map_svg(world(), CHAIN_LAYOUT, fog=False, events=[BATTLE]))
    assert {g.get("data-fleet") for g in groups(root, "fleet")} == {"d1", "sw1", "nx9", "sw7"}
    assert groups(root, "order") == []  # orders are never public, even without fog
    assert NOTE_OPEN in svg


def test_the_same_turn_gives_the_same_public_map() -> None:
    first = public_map_svg(world(), CHAIN_LAYOUT, fog=True, events=[BATTLE])
    assert first == public_map_svg(world(), CHAIN_LAYOUT, fog=True, events=[BATTLE])


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_the_png_is_the_svg_at_one_and_a_half_pixels_per_unit() -> None:
    svg = public_map_svg(world(), CHAIN_LAYOUT, fog=True)
    width, height = png_size(svg_png(svg))
    svg_width = int(parse(svg).get("width"))
    assert width == round(svg_width * 1.5)
    assert height > 0


def test_no_external_resource_is_read() -> None:
    # unsafe=False: an external entity or file reference in an SVG is not fetched.
    hostile = (
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&x;</text></svg>'
    )
    try:
        png = svg_png(hostile)
    except Exception:  # refused outright: as good
        return
    assert png_size(png) == (15, 15)


def test_a_scale_that_is_not_positive_is_refused() -> None:
    with pytest.raises(ValueError, match="positive"):
        svg_png("<svg/>", scale=0)


def ink_pixels(png: bytes, ink: tuple[int, int, int]) -> int:
    from PIL import Image  # CairoSVG's own dependency

    data = Image.open(io.BytesIO(png)).convert("RGB").tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(
        1 for pixel in pixels if all(abs(a - b) < 40 for a, b in zip(pixel, ink, strict=True))
    )


def test_labels_keep_their_letters_over_their_halo_in_the_png() -> None:
    # The labels' paper-coloured halo is `paint-order: stroke`, which CairoSVG does not read: it
    # painted the halo over the letters, and the PNG's names were white smudges.
    svg = public_map_svg(world(), CHAIN_LAYOUT, fog=True)
    assert 'paint-order="stroke"' in svg
    spelled = halo_first(svg)
    assert "paint-order" not in spelled
    assert spelled.count("<text") == 2 * svg.count('paint-order="stroke"') + (
        svg.count("<text") - svg.count('paint-order="stroke"')
    )
    sea_ink = (0x1F, 0x4E, 0x79)  # maps.marks.SEA_INK, the sea provinces' names
    # At two and a half pixels a unit: the area map's chain is wider than its old row of dots.
    assert ink_pixels(svg_png(svg, scale=2.5), sea_ink) > 200


def test_the_png_the_bulletin_and_webhook_post_is_the_area_map() -> None:
    """Issue 20 §1: the forum export and the webhook post the public map's PNG (maps/png.py),
    drawn from the same area map: the bundled skirmish's sea areas and lands are there as
    regions, most of the picture sea and land, not dots on paper."""
    from collections import Counter
    from pathlib import Path

    from PIL import Image

    from maps import Layout
    from maps.marks import LAND, SEA

    doc = json.loads(Path("examples/baltic-skirmish.scenario.json").read_text(encoding="utf-8"))
    png = svg_png(public_map_svg(doc, Layout(), fog=True), scale=0.5)
    colours = Image.open(io.BytesIO(png)).convert("RGB").getcolors(maxcolors=1 << 24) or []
    pixels = Counter({rgb: n for n, rgb in colours})
    total = sum(pixels.values())

    def share(colour: str) -> float:
        want = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))

        def close(rgb: tuple[int, ...]) -> bool:
            return max(abs(a - b) for a, b in zip(rgb, want, strict=True)) < 12

        near = sum(n for rgb, n in pixels.items() if close(rgb))
        return near / total

    assert share(SEA) > 0.25, share(SEA)  # six sea areas
    assert share(LAND) > 0.20, share(LAND)  # five lands
