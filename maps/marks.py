"""SVG markup: escaped elements, number formatting and the map's small glyphs (anchor, star,
ship, arrow head). Every piece of text goes through `el`, which escapes it."""

from __future__ import annotations

import math
import re

Attr = str | float | int | None
# A raw string: the regex reads the escapes (mypyc takes no surrogates in a literal).
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_QUOTED = str.maketrans(
    {
        "&": "&amp;",
        "<": "&lt;",
        ">": "&gt;",
        '"': "&quot;",
        "\n": "&#10;",
        "\t": "&#9;",
        "\r": "&#13;",
    }
)

FONT = "'Helvetica Neue', Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif"
SEA = "#7fb2dc"
SEA_EDGE = "#3d78ad"
SEA_UNSEEN = "#c3ccd4"
SEA_UNSEEN_EDGE = "#8d99a4"
LAND = "#ecdcb4"
LAND_EDGE = "#a88d5e"
SEA_LINK = "#8fb8da"
LAND_LINK = "#bda77f"
PAPER = "#fbf9f3"  # behind text
BACKGROUND = "#f6f3ea"
INK = "#2b2b2b"
SEA_INK = "#1f4e79"
LAND_INK = "#5a4528"
BATTLE = "#d62828"


def num(value: float) -> str:
    """A coordinate with at most one decimal, the same text for the same number: "12.5",
    "12" (not "12.0"), "0" (not "-0")."""
    text = f"{value:.1f}"
    if text.endswith(".0"):  # the one decimal is a zero: dropped with its point
        text = text[:-2]
    return "0" if text == "-0" else text


def clean(text: str) -> str:
    """The text without the characters XML 1.0 cannot hold (control characters, surrogates)."""
    # Printable text holds none of them (they are control, surrogate or unassigned characters),
    # and most text is: the search is made only for the rest. A map writes some 20,000 values.
    return text if text.isprintable() else _NOT_XML.sub("", text)


def quoted(text: str) -> str:
    """An attribute's value as `el` writes it: what XML cannot hold dropped, the rest escaped."""
    return clean(text).translate(_QUOTED)


def el(tag: str, attrs: dict[str, Attr] | None = None, *children: str, text: str = "") -> str:
    """An element; attribute values and `text` are escaped, `children` are markup already."""
    parts = [tag]
    if attrs:
        for key, value in attrs.items():
            if value is None:
                continue
            if isinstance(value, float):
                shown = num(value)  # digits, a sign and a point: nothing to escape
            elif isinstance(value, int):
                shown = str(value)
            else:
                shown = quoted(str(value))
            parts.append(f'{key}="{shown}"')
    head = " ".join(parts)
    body = (clean(text).translate(_TEXT) if text else "") + "".join(children)
    return f"<{head}>{body}</{tag}>" if body else f"<{head}/>"


def title(text: str) -> str:
    return el("title", text=text)


def points(coords: list[tuple[float, float]]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in coords)


def readable_on(colour: str) -> str:
    """Black or white, whichever reads better on the colour (#rrggbb)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#1a1a1a" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def anchor(cx: float, cy: float, size: float, colour: str) -> str:
    """A port: a rounded square in the owner's colour with an anchor drawn on it."""
    s = size / 12
    ink = readable_on(colour)

    def p(x: float, y: float) -> str:
        return f"{num(cx + x * s)},{num(cy + y * s)}"

    d = (
        f"M{p(0, -2.6)}L{p(0, 4.2)}M{p(-2.4, -1.2)}L{p(2.4, -1.2)}"
        f"M{p(-3.8, 1.2)}Q{p(-3.4, 4.4)} {p(0, 4.4)}Q{p(3.4, 4.4)} {p(3.8, 1.2)}"
    )
    return (
        el(
            "rect",
            {
                "x": cx - size / 2,
                "y": cy - size / 2,
                "width": float(size),
                "height": float(size),
                "rx": 2.5 * s,
                "fill": colour,
                "stroke": "#ffffff",
                "stroke-width": 1.2,
            },
        )
        + el(
            "circle",
            {"cx": cx, "cy": cy - 3.6 * s, "r": 1.1 * s, "fill": "none", "stroke": ink},
        )
        + el(
            "path",
            {
                "d": d,
                "fill": "none",
                "stroke": ink,
                "stroke-width": 1.1 * s,
                "stroke-linecap": "round",
            },
        )
    )


def star(cx: float, cy: float, radius: float) -> str:
    """A battle: a red eight-pointed burst with a white edge."""
    corners = []
    for i in range(16):
        angle = math.pi * i / 8 - math.pi / 2
        reach = radius if i % 2 == 0 else radius * 0.48
        corners.append((cx + reach * math.cos(angle), cy + reach * math.sin(angle)))
    return el(
        "polygon",
        {
            "points": points(corners),
            "fill": BATTLE,
            "stroke": "#ffffff",
            "stroke-width": 1.5,
            "stroke-linejoin": "round",
        },
    )


def ship(cx: float, cy: float, ink: str) -> str:
    """A small sailing ship (hull, mast and sail) centred on the point."""

    def p(x: float, y: float) -> str:
        return f"{num(cx + x)},{num(cy + y)}"

    hull = f"M{p(-4.6, 1.2)}L{p(4.6, 1.2)}L{p(2.8, 4)}L{p(-2.8, 4)}Z"
    sail = f"M{p(-0.3, -4.4)}L{p(-0.3, 0.4)}L{p(-3.8, 0.4)}Z"
    jib = f"M{p(0.6, -3.2)}L{p(3.6, 0.4)}L{p(0.6, 0.4)}Z"
    return el("path", {"d": hull + sail + jib, "fill": ink})


def arrow_head_id(colour: str) -> str:
    """The marker's id names its colour, so two maps on one page can share it safely."""
    return f"admiralty-arrow-{colour.lstrip('#').lower()}"


def arrow_head(colour: str) -> str:
    return el(
        "marker",
        {
            "id": arrow_head_id(colour),
            "viewBox": "0 0 10 10",
            "refX": 7,
            "refY": 5,
            "markerWidth": 3.6,
            "markerHeight": 3.6,
            "orient": "auto",
            "markerUnits": "strokeWidth",
        },
        el("path", {"d": "M0,0L10,5L0,10L2.5,5Z", "fill": colour}),
    )
