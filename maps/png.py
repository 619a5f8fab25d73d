"""An SVG drawing as PNG, for a forum or Discord, which show no SVG (issue 11, the forum export).

CairoSVG (pinned in requirements.txt, already the seafaring board's: seafarers/board_png.py)
draws through Debian's libcairo2; nothing is fetched at run time. The SVG is ours (maps/svg.py:
names only as escaped text, no links to files or URLs) and is read with `unsafe=False`, so no
entity or external resource is ever fetched even if one slipped in. Pure: no Django."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

import cairosvg

SVG_NS = "http://www.w3.org/2000/svg"

# The map's SVG is 1000 units wide; forums show images about 1000-1500 pixels wide.
SCALE = 1.5
PAPER = "#ffffff"  # under the map's own background, where its bounds leave a margin


def svg_png(svg: str, *, scale: float = SCALE, background: str = PAPER) -> bytes:
    """The SVG drawn as PNG bytes, `scale` pixels per SVG unit."""
    if not scale > 0:
        raise ValueError("scale must be positive")
    png = cairosvg.svg2png(
        bytestring=halo_first(svg).encode("utf-8"),
        scale=scale,
        unsafe=False,
        background_color=background,
    )
    if not isinstance(png, bytes) or not png.startswith(b"\x89PNG\r\n\x1a\n"):
        raise TypeError("cairosvg returned no PNG")
    return png


def halo_first(svg: str) -> str:
    """The SVG with `paint-order: stroke` spelled out, which CairoSVG does not read: the map's
    labels are drawn with a paper-coloured halo under their letters (maps/labels.py), and
    CairoSVG painted the halo over them, leaving white smudges. Each such element becomes two:
    a copy with the stroke alone (the halo) and, after it, the element with its fill alone."""
    ET.register_namespace("", SVG_NS)
    root = ET.fromstring(svg)
    for parent in root.iter():
        for index in reversed(range(len(parent))):
            child = parent[index]
            if child.get("paint-order") != "stroke" or child.get("stroke") in (None, "none"):
                continue
            halo = copy.deepcopy(child)
            del halo.attrib["paint-order"]
            halo.set("fill", "none")
            for kind in ("stroke", "stroke-width", "stroke-linejoin", "paint-order"):
                child.attrib.pop(kind, None)
            parent.insert(index, halo)
    return ET.tostring(root, encoding="unicode")
