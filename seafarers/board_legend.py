"""The board's key, beside it on the right: the players in seat order with their colours (the
current player marked), then the symbols. The same lines, as text, are the SVG's description."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from seafarers.board_marks import (
    GLYPH_OF,
    INK,
    LIKELY,
    SEAT_COLOURS,
    TERRAIN_FILL,
    city_shape,
    el,
    glyph_shape,
    pirate_shape,
    points,
    ring_target_shape,
    road_target_shape,
    robber_shape,
    settlement_shape,
    ship_shape,
    ship_target_shape,
)

LEGEND_WIDTH = 190.0
ROW = 24.0
SHOWN_NAME = 18  # characters of a name drawn; the title holds it whole


def legend_lines(
    doc: Mapping[str, Any],
    colours: Mapping[str, str],
    viewer: str | None,
    targets: bool,
    last: bool,
) -> list[str]:
    turn = doc["turn"]
    seen = f"Seen by {viewer}." if viewer is not None else "Seen by the moderator."
    lines = [seen, f"Turn {turn['number']}, {turn['player']} to act ({turn['phase']})."]
    lines.append(
        "Players in seat order: "
        + ", ".join(f"{pid} ({_colour_name(c)}, {_glyph(c)} mark)" for pid, c in colours.items())
        + "."
    )
    lines.append(
        "Settlements are houses, cities are larger; roads are bars; a closed ship is filled, "
        "an open one is outlined. Red numbers (6, 8) are the likeliest; dots count the chance."
    )
    if last:
        lines.append("The last action's place is ringed with a dashed circle.")
    if targets:
        # The moderator acting for a seat reads whose places these are, not "you".
        who = "you" if viewer is not None else turn["player"]
        lines.append(
            f"Dashed marks are the places where {who} may act: a bar for a road, a boat for a "
            "ship, a ring for a building or a thief's hex."
        )
    return lines


_NAMES = {fill: name for name, fill in SEAT_COLOURS.items()}


def _colour_name(colour: str) -> str:
    return _NAMES.get(colour, colour)


def _to_act(x: float, y: float) -> str:
    """A small pointer left of the swatch of the player to act (drawn: no font needed)."""
    return el(
        "polygon",
        {
            "class": "to-act",
            "points": points([(x - 11.0, y - 8.0), (x - 3.0, y - 3.0), (x - 11.0, y + 2.0)]),
            "fill": INK,
        },
    )


def _glyph(colour: str) -> str:
    """The seat's mark goes with its colour (board_svg.player_glyphs)."""
    return GLYPH_OF.get(colour, "dot")


def _short(name: str) -> str:
    return name if len(name) <= SHOWN_NAME else name[: SHOWN_NAME - 1] + "…"


def draw_legend(
    doc: Mapping[str, Any],
    colours: Mapping[str, str],
    viewer: str | None,
    x0: float,
    y0: float,
    targets: bool,
    last: bool,
) -> tuple[str, float]:
    """The key's markup and its height."""
    x = x0 + 14.0
    y = y0 + 24.0
    rows: list[str] = [_text(x, y, "Players", bold=True)]
    current = doc["turn"]["player"]
    for pid, colour in colours.items():
        y += ROW
        mark = " to act" if pid == current else ""
        you = " (you)" if pid == viewer else ""
        rows.append(
            el(
                "g",
                {
                    "class": "legend-player",
                    "data-player": pid,
                    "data-colour": colour,
                    "data-glyph": _glyph(colour),
                },
                el("title", text=f"{pid}{you}: {_colour_name(colour)}, {_glyph(colour)} mark"),
                el(
                    "rect",
                    {
                        "x": x,
                        "y": y - 10.0,
                        "width": 14.0,
                        "height": 14.0,
                        "fill": colour,
                        "stroke": INK,
                    },
                ),
                glyph_shape(_glyph(colour), x + 7.0, y - 3.0, 3.2),
                _to_act(x, y) if pid == current else "",
                _text(x + 22.0, y + 1.0, _short(pid) + you + mark),
            )
        )
    y += ROW * 1.5
    rows.append(_text(x, y, "Key", bold=True))
    for label, draw in _symbols(last, targets):
        y += ROW
        rows.append(draw(x + 8.0, y))
        rows.append(_text(x + 24.0, y + 4.0, label))
    return el("g", {"class": "legend"}, *rows), y + ROW - y0


Symbol = Callable[[float, float], str]
GREY = "#8a8a8a"


def _symbols(last: bool, targets: bool) -> list[tuple[str, Symbol]]:
    """Each symbol drawn centred on (x, y)."""
    out: list[tuple[str, Symbol]] = [
        ("settlement", lambda x, y: settlement_shape(x, y, GREY)),
        ("city", lambda x, y: city_shape(x, y, GREY)),
        (
            "road",
            lambda x, y: el(
                "line",
                {"x1": x - 8, "y1": y, "x2": x + 8, "y2": y, "stroke": GREY, "stroke-width": 5.0},
            ),
        ),
        ("open ship (may move)", lambda x, y: ship_shape(x, y + 2, 0.0, GREY, closed=False)),
        ("closed ship", lambda x, y: ship_shape(x, y + 2, 0.0, GREY, closed=True)),
        ("robber", robber_shape),
        ("pirate", lambda x, y: pirate_shape(x, y + 2)),
        (
            "harbour: its rate",
            lambda x, y: el(
                "circle", {"cx": x, "cy": y, "r": 8.0, "fill": "#ffffff", "stroke": INK}
            ),
        ),
        (
            "likeliest numbers",
            lambda x, y: el(
                "text",
                {
                    "x": x,
                    "y": y + 4,
                    "text-anchor": "middle",
                    "font-weight": "bold",
                    "font-size": 12,
                    "fill": LIKELY,
                },
                text="8",
            ),
        ),
        (
            "gold field: pick a card",
            lambda x, y: el(
                "rect",
                {
                    "x": x - 8,
                    "y": y - 7,
                    "width": 16.0,
                    "height": 14.0,
                    "fill": TERRAIN_FILL["gold"],
                    "stroke": INK,
                },
            ),
        ),
    ]
    if last:
        out.append(
            (
                "last action",
                lambda x, y: el(
                    "circle",
                    {
                        "cx": x,
                        "cy": y,
                        "r": 8.0,
                        "fill": "none",
                        "stroke": INK,
                        "stroke-width": 2.0,
                        "stroke-dasharray": "4 2.5",
                    },
                ),
            )
        )
    if targets:
        # Device-neutral words: the same key is read by a player with a mouse, one on a phone
        # and the moderator acting for a seat, so it names what may go there, not a gesture.
        out += [
            ("a road may go here", lambda x, y: road_target_shape(x, y, 0.0)),
            ("a ship may go here", lambda x, y: ship_target_shape(x, y + 1)),
            ("may be built or moved to", lambda x, y: ring_target_shape(x, y, 7.0)),
        ]
    return out


def _text(x: float, y: float, text: str, *, bold: bool = False) -> str:
    attrs: dict[str, object] = {"x": x, "y": y, "font-size": 11.5 if bold else 10.5, "fill": INK}
    if bold:
        attrs["font-weight"] = "bold"
    return el("text", attrs, text=text)
