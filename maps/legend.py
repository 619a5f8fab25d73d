"""The map's key: whose view it is, the factions drawn with their colours, and the symbols used.
It goes in the emptiest corner of the map, or in a column added on the right when none is free."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from maps.layout import Layout
from maps.marks import (
    FONT,
    INK,
    LAND,
    LAND_EDGE,
    PAPER,
    SEA,
    SEA_EDGE,
    SEA_UNSEEN,
    SEA_UNSEEN_EDGE,
    anchor,
    el,
    num,
    readable_on,
    ship,
    star,
)
from maps.model import MapModel
from maps.place import Box, Placer, by_fields, text_width

ROW = 17.0
SIZE = 10.5
PAD = 9.0
NEUTRAL = "#6d6d6d"


@dataclass(frozen=True, slots=True)
class Row:
    symbol: str  # head, note, faction, sea, land, unseen, port, fleet, battle, blockade, order
    text: str
    colour: str = NEUTRAL

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied as made (place.by_fields)


def legend_rows(
    model: MapModel,
    layout: Layout,
    viewer: str | None,
    fog: bool,
    battles: bool,
    orders: bool,
    note: str | None = None,
) -> list[Row]:
    """The key's lines. Factions listed are only those drawn (and the viewer): a faction whose
    fleets are all hidden and that holds no port is not named. A symbol has its line only when
    the map draws it (docs/rulings.md R-73): under fog the public map draws no fleet and so no
    blockade (the bulletin states blockades in words, R-56), and a faction's view may have no
    fleet in sight or no sea out of sight; the key lists none of those then. `orders`: whether
    the map draws order arrows (a crowded map's scene asks for the row either way and draws
    it only with arrows: `Legend.markup`)."""
    rows = [Row("head", layout.title)]
    if note is not None:
        rows.append(Row("note", note))
    elif viewer is None:
        rows.append(Row("note", "All fleets shown"))
    else:
        fogged = " (fog of war)" if fog else ""
        rows.append(Row("note", f"Seen by {layout.faction_name(viewer)}{fogged}"))
    shown = {f.owner for f in model.fleets.values()} | {p.owner for p in model.ports.values()}
    if viewer is not None:
        shown.add(viewer)
    for faction in sorted(shown):
        rows.append(Row("faction", layout.faction_name(faction), layout.colour(faction)))
    kinds = set(model.kinds.values())  # every province is drawn, with a position or without
    if "sea" in kinds:
        rows.append(Row("sea", "Sea province"))
    if "land" in kinds:
        rows.append(Row("land", "Land province"))
    watched = model.watched
    if watched is not None and any(
        kind == "sea" and pid not in watched for pid, kind in model.kinds.items()
    ):
        rows.append(Row("unseen", "Sea out of sight"))
    if model.ports:
        rows.append(Row("port", "Port (owner's colour)"))
    if model.fleets:
        rows.append(Row("fleet", "Fleet: number of ships"))
    if any(f.blockading for f in model.fleets.values()):
        rows.append(Row("blockade", "Blockade"))
    if battles:
        rows.append(Row("battle", "Battle this turn"))
    if orders:
        rows.append(Row("order", "Orders: movement"))
    return rows


def _size(rows: list[Row]) -> tuple[float, float]:
    """The width and height of a key of these rows."""
    widths = [
        text_width(r.text, SIZE + (2 if r.symbol == "head" else 0), bold=r.symbol == "head")
        + (0 if r.symbol in ("head", "note") else 24)
        for r in rows
    ]
    return max(widths) + 2 * PAD, ROW * len(rows) + 2 * PAD - 2


class Legend:
    """The key, placed at construction (taking its room in the placer)."""

    def __init__(self, rows: list[Row], placer: Placer) -> None:
        self.rows = rows
        w, h = _size(rows)
        b = placer.bounds
        corners = [
            Box(b.x0 + 8, b.y0 + 8, b.x0 + 8 + w, b.y0 + 8 + h),
            Box(b.x1 - 8 - w, b.y0 + 8, b.x1 - 8, b.y0 + 8 + h),
            Box(b.x0 + 8, b.y1 - 8 - h, b.x0 + 8 + w, b.y1 - 8),
            Box(b.x1 - 8 - w, b.y1 - 8 - h, b.x1 - 8, b.y1 - 8),
        ]
        costs = [placer.cost(c) for c in corners]
        best = min(range(4), key=lambda i: (costs[i], i))
        # The corner the key is held to, so that a key of fewer rows (Legend.markup) stays in it.
        self.right, self.bottom = best in (1, 3), best in (2, 3)
        if costs[best] > 0:
            # No free corner: a column on the right, as tall as the key needs.
            placer.bounds = Box(b.x0, b.y0, b.x1 + w + 12, max(b.y1, b.y0 + h + 16))
            corners[best] = Box(b.x1 + 4, b.y0 + 8, b.x1 + 4 + w, b.y0 + 8 + h)
            self.right = self.bottom = False
        self.box = corners[best]
        placer.take(self.box, 10)

    def markup(self, rows: list[Row] | None = None) -> str:
        """The key drawn; `rows`, when given, are drawn instead of all the rows placed (fewer of
        them: a crowded map's key is placed with the orders' row whether or not there are arrows,
        maps/svg.py). The box is sized to the rows drawn, held to its corner, so a map without
        arrows keeps no empty line for them (R-73); the room placed stays free of labels."""
        rows = self.rows if rows is None else rows
        box = self.box
        if rows != self.rows:
            w, h = _size(rows)
            x0 = box.x1 - w if self.right else box.x0
            y0 = box.y1 - h if self.bottom else box.y0
            box = Box(x0, y0, x0 + w, y0 + h)
        parts = [
            el(
                "rect",
                {
                    "x": box.x0,
                    "y": box.y0,
                    "width": box.x1 - box.x0,
                    "height": box.y1 - box.y0,
                    "rx": 4,
                    "fill": "#ffffff",
                    "fill-opacity": 0.92,
                    "stroke": "#c9c2b0",
                },
            )
        ]
        for i, row in enumerate(rows):
            y = box.y0 + PAD + ROW * i + ROW / 2 - 1
            parts.append(_symbol(row, box.x0 + PAD + 8, y))
            head = row.symbol == "head"
            x = box.x0 + PAD + (0 if row.symbol in ("head", "note") else 24)
            parts.append(
                el(
                    "text",
                    {
                        "x": x,
                        "y": y + SIZE * 0.36,
                        "font-size": SIZE + (2 if head else 0),
                        "font-weight": "bold" if head else None,
                        "font-style": "italic" if row.symbol == "note" else None,
                        "fill": INK,
                    },
                    text=row.text,
                )
            )
        return el("g", {"class": "legend", "font-family": FONT}, *parts)


def _symbol(row: Row, x: float, y: float) -> str:
    kind = row.symbol
    if kind == "faction":
        return el(
            "rect",
            {"x": x - 7, "y": y - 5, "width": 14.0, "height": 10.0, "rx": 2, "fill": row.colour},
        )
    if kind in ("sea", "land", "unseen"):
        fill, edge = {
            "sea": (SEA, SEA_EDGE),
            "land": (LAND, LAND_EDGE),
            "unseen": (SEA_UNSEEN, SEA_UNSEEN_EDGE),
        }[kind]
        return el("circle", {"cx": x, "cy": y, "r": 6, "fill": fill, "stroke": edge})
    if kind == "port":
        return anchor(x, y, 12, row.colour)
    if kind == "fleet":
        return el(
            "rect",
            {"x": x - 9, "y": y - 7, "width": 18, "height": 14, "rx": 7, "fill": row.colour},
        ) + ship(x, y - 0.3, readable_on(row.colour))
    if kind == "battle":
        return star(x, y, 7)
    if kind == "blockade":
        return el(
            "circle",
            {
                "cx": x,
                "cy": y,
                "r": 6,
                "fill": PAPER,
                "stroke": row.colour,
                "stroke-width": 2,
                "stroke-dasharray": "3 2",
            },
        )
    if kind == "order":
        return el(
            "path",
            {
                "d": f"M{num(x - 9)},{num(y)}h14m-5,-4l5,4l-5,4",
                "fill": "none",
                "stroke": row.colour,
                "stroke-width": 2,
                "stroke-linecap": "round",
                "stroke-linejoin": "round",
            },
        )
    return ""
