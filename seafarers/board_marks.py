"""SVG building blocks for the seafaring board: elements with every text and attribute escaped,
the colours, and the pieces' shapes. Pure functions returning strings."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

# Terrain fills, light enough for black numbers and dark-outlined pieces on top (B1, GD1). Each
# land hex also carries its terrain's word, so nothing rests on telling two colours apart.
TERRAIN_FILL = {
    "hills": "#c8794f",
    "forest": "#4f8a45",
    "pasture": "#a9d17a",
    "fields": "#efe0a8",
    "mountains": "#9c9c9c",
    "gold": "#f4cf3c",
    "desert": "#e8d9b0",
    "sea": "#8fc3e6",
}
# A seat's colour as its name says (seafarers/boards.py COLOURS: the seats' ids in seat order).
# Red and orange far apart (a deep red, an orange nearer amber), white a near-white drawn with
# the dark outline every piece has, so that it reads on the sea and on fields and sand; yellow is
# left out (it vanishes on fields and sand). Pairwise far apart in CIELAB, and each seat carries
# a mark of its own as well (docs/rulings.md S-49).
SEAT_COLOURS = {
    "red": "#c81e1e",
    "blue": "#0072b2",
    "white": "#f4f4f4",
    "orange": "#f28e00",
    "green": "#009e73",
    "brown": "#8c5a2e",
}
PALETTE = tuple(SEAT_COLOURS.values())
# Palette slot → a small white mark on every piece and on the key's swatch, so that two colours
# that look alike (red and orange, for many eyes) are told apart by shape as well. Red and
# orange, the near pair, have the most unlike marks: a dot and a cross.
GLYPHS = ("dot", "square", "triangle", "cross", "diamond", "bar")
GLYPH_OF = dict(zip(PALETTE, GLYPHS, strict=True))
INK = "#1b1b1b"
PAPER = "#fbf8f0"
LIKELY = "#b00020"  # 6 and 8, the likeliest rolls, as on the printed tokens
HIGHLIGHT = "#000000"
FONT = "DejaVu Sans, Verdana, sans-serif"

Attrs = Mapping[str, object]


def num(value: float) -> str:
    """Two decimals at most, no trailing zeros: the same float always gives the same text."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attr(value: object) -> str:
    if isinstance(value, float):
        return num(value)
    return escape(str(value), quote=True)


def el(tag: str, attrs: Attrs | None = None, *children: str, text: str | None = None) -> str:
    """One element; attributes in the order given, text escaped, children already markup."""
    head = tag + "".join(f' {k}="{_attr(v)}"' for k, v in (attrs or {}).items())
    inner = (escape(text, quote=False) if text is not None else "") + "".join(children)
    if not inner:
        return f"<{head}/>"
    return f"<{head}>{inner}</{tag}>"


def title(text: str) -> str:
    return el("title", text=text)


def points(pairs: list[tuple[float, float]]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in pairs)


def pips(number: int) -> int:
    """Dots under a number token: the ways two dice make it (36ths)."""
    return 6 - abs(7 - number)


def settlement_shape(x: float, y: float, fill: str) -> str:
    s = 7.0
    house = [
        (x - s, y + s),
        (x - s, y - s / 3),
        (x, y - s * 1.2),
        (x + s, y - s / 3),
        (x + s, y + s),
    ]
    return el(
        "polygon", {"points": points(house), "fill": fill, "stroke": INK, "stroke-width": 1.6}
    )


def city_shape(x: float, y: float, fill: str) -> str:
    s = 8.0
    outline = [
        (x - 1.3 * s, y + s),
        (x - 1.3 * s, y - s / 4),
        (x - 0.65 * s, y - s),
        (x, y - s / 4),
        (x + 1.3 * s, y - s / 4),
        (x + 1.3 * s, y + s),
    ]
    return el(
        "polygon", {"points": points(outline), "fill": fill, "stroke": INK, "stroke-width": 1.8}
    )


def ship_shape(x: float, y: float, angle: float, colour: str, *, closed: bool) -> str:
    """A hull with a sail. A closed ship (X5: it may no longer move) is filled with its owner's
    colour; an open one is white inside a thick band of that colour, edged with ink on both
    sides, so the two differ in shape of ink, not only in hue. The white seat's open ship is
    hollow instead, the sea showing through its white band: white inside white would look
    closed (docs/rulings.md S-49)."""
    hull = [(-9.0, -1.0), (9.0, -1.0), (6.0, 5.0), (-6.0, 5.0)]
    sail = [(-1.0, -2.0), (-1.0, -11.0), (7.0, -3.0)]
    if closed:
        layers = [{"fill": colour, "stroke": INK, "stroke-width": 1.6}]
    else:  # the ink under the band shows on both of its sides
        inside = "none" if colour == SEAT_COLOURS["white"] else "#ffffff"
        layers = [
            {"fill": inside, "stroke": INK, "stroke-width": 3.8},
            {"fill": "none", "stroke": colour, "stroke-width": 2.2},
        ]
    return el(
        "g",
        {"transform": f"translate({num(x)},{num(y)}) rotate({num(angle)})"},
        *(
            el("polygon", {"points": points(shape), **style})
            for style in layers
            for shape in (hull, sail)
        ),
    )


def robber_shape(x: float, y: float) -> str:
    return el(
        "g",
        {},
        el("circle", {"cx": x, "cy": y - 9.0, "r": 5.0, "fill": "#3a3a3a", "stroke": PAPER}),
        el(
            "path",
            {
                "d": f"M{num(x - 7)},{num(y + 9)} Q{num(x)},{num(y - 12)} "
                f"{num(x + 7)},{num(y + 9)} Z",
                "fill": "#3a3a3a",
                "stroke": PAPER,
            },
        ),
    )


def pirate_shape(x: float, y: float) -> str:
    """A black ship under a black flag: drawn larger than the players' ships."""
    hull = [(x - 13, y + 1), (x + 13, y + 1), (x + 8, y + 8), (x - 8, y + 8)]
    flag = [(x - 1, y - 1), (x - 1, y - 16), (x + 11, y - 12), (x - 1, y - 8)]
    style = {"fill": "#111111", "stroke": PAPER, "stroke-width": 1.2}
    return el(
        "g",
        {},
        el("polygon", {"points": points(hull), **style}),
        el("polygon", {"points": points(flag), **style}),
    )


# A place to act, drawn dashed so it reads as "not built yet", in the shape of what the action
# puts there: a bar along the side for a road, a boat for a ship, a ring for the rest (a
# settlement, a city, a thief's hex). Each visible shape has the class "ring" (the page fills
# it on hover and when chosen).
TARGET_STYLE = {
    "class": "ring",
    "fill": "#ffffff",
    "fill-opacity": 0.55,
    "stroke": "#000000",
    "stroke-width": 1.8,
    "stroke-dasharray": "3 2",
}


def road_target_shape(x: float, y: float, angle: float) -> str:
    """A short dashed bar lying along the side."""
    return el(
        "rect",
        {
            "x": -11.0,
            "y": -3.5,
            "width": 22.0,
            "height": 7.0,
            "transform": f"translate({num(x)},{num(y)}) rotate({num(angle)})",
            **TARGET_STYLE,
        },
    )


def ship_target_shape(x: float, y: float) -> str:
    """A dashed boat, hull and sail, upright whatever the side's direction."""
    boat = [(-8.0, 1.0), (8.0, 1.0), (5.0, 6.0), (-5.0, 6.0), (-8.0, 1.0), (-1.0, 1.0)]
    boat += [(-1.0, -9.0), (6.0, 1.0)]
    moved = [(x + dx, y + dy) for dx, dy in boat]
    return el("polygon", {"points": points(moved), "stroke-linejoin": "round", **TARGET_STYLE})


def ring_target_shape(x: float, y: float, radius: float) -> str:
    return el(
        "g",
        {},
        el("circle", {"cx": x, "cy": y, "r": radius, **TARGET_STYLE}),
        el("circle", {"cx": x, "cy": y, "r": 2.0, "fill": "#000000"}),
    )


def glyph_shape(glyph: str, x: float, y: float, size: float = 2.8) -> str:
    """A seat's mark centred on (x, y): white, outlined, `size` from its middle to its edge."""
    s = size
    style: dict[str, object] = {
        "class": f"glyph glyph-{glyph}",
        "fill": "#ffffff",
        "stroke": INK,
        "stroke-width": 0.8,
    }
    if glyph == "dot":
        return el("circle", {"cx": x, "cy": y, "r": s, **style})
    if glyph == "square":
        return el("rect", {"x": x - s, "y": y - s, "width": 2 * s, "height": 2 * s, **style})
    if glyph == "bar":
        return el(
            "rect", {"x": x - s * 1.2, "y": y - s / 2, "width": 2.4 * s, "height": s, **style}
        )
    shapes = {
        "triangle": [(0.0, -1.2), (1.1, 0.9), (-1.1, 0.9)],
        "diamond": [(0.0, -1.25), (1.0, 0.0), (0.0, 1.25), (-1.0, 0.0)],
        "cross": [
            (-0.4, -1.2),
            (0.4, -1.2),
            (0.4, -0.4),
            (1.2, -0.4),
            (1.2, 0.4),
            (0.4, 0.4),
            (0.4, 1.2),
            (-0.4, 1.2),
            (-0.4, 0.4),
            (-1.2, 0.4),
            (-1.2, -0.4),
            (-0.4, -0.4),
        ],
    }
    corners = [(x + dx * s, y + dy * s) for dx, dy in shapes[glyph]]
    return el("polygon", {"points": points(corners), **style})


# The table's marks for the two awards, drawn here rather than written as emoji (the road
# emoji is an empty box on a machine without an emoji font). 18 by 18 px, in the text's ink.
AWARD_MARKS = {
    # LR5: a route of pieces, corner to corner, a dot on each corner.
    "longest_route": (
        "Longest Trade Route (LR5)",
        [
            el(
                "polyline",
                {
                    "points": "2,15 7,9 11,11 16,4",
                    "fill": "none",
                    "stroke": "currentColor",
                    "stroke-width": 2.6,
                    "stroke-linejoin": "round",
                    "stroke-linecap": "round",
                },
            ),
            *(
                el("circle", {"cx": x, "cy": y, "r": 2.0, "fill": "currentColor"})
                for x, y in ((2, 15), (7, 9), (11, 11), (16, 4))
            ),
        ],
    ),
    # B17: two crossed swords, each with its guard near the hilt.
    "largest_army": (
        "Largest Army (B17)",
        [
            el(
                "path",
                {
                    "d": "M15,3 L4,14 M3,3 L14,14 M3.5,11 L7,14.5 M11,14.5 L14.5,11",
                    "fill": "none",
                    "stroke": "currentColor",
                    "stroke-width": 2.0,
                    "stroke-linecap": "round",
                },
            ),
        ],
    ),
}


def award_mark(award: str) -> str:
    """The mark of an award as a small inline SVG (its name as the title, for a screen reader
    and a hover)."""
    name, shapes = AWARD_MARKS[award]
    return el(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "class": f"award-mark {award.replace('_', '-')}",
            "width": 18,
            "height": 18,
            "viewBox": "0 0 18 18",
            "role": "img",
        },
        title(name),
        *shapes,
    )
