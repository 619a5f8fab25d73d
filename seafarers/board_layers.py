"""The board's layers: hexes with their tokens, harbours, pieces, the robber and the pirate, and
the ring on the last action's place. Each returns markup in a sorted order."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from seafarers.board_geometry import (
    SIZE,
    EdgeKey,
    Point,
    edge_angle,
    edge_key,
    edge_middle,
    hex_centre,
    hex_corners,
    node_point,
)
from seafarers.board_marks import (
    HIGHLIGHT,
    INK,
    LIKELY,
    TERRAIN_FILL,
    city_shape,
    el,
    glyph_shape,
    pips,
    pirate_shape,
    points,
    robber_shape,
    settlement_shape,
    ship_shape,
    title,
)
from seafarers.board_places import Places

HEX_EDGE = {"sea": "#5f7f94", "gold": "#9a7400"}  # gold's thick dark rim sets it off from fields
PIECE_ORDER = {"road": 0, "ship": 1, "settlement": 2, "city": 3}


def hex_point(hid: str) -> Point:
    q, r = hid.split(",")
    return hex_centre(int(q), int(r))


def draw_hex(h: Mapping[str, Any], places: Places) -> str:
    hid = f"{h['q']},{h['r']}"
    terrain = h["terrain"]
    polygon = el(
        "polygon",
        {
            "points": points(hex_corners(h["q"], h["r"])),
            "fill": TERRAIN_FILL[terrain],
            "stroke": HEX_EDGE.get(terrain, "#6b5a3a"),
            "stroke-width": 2.5 if terrain == "gold" else 1.0,
        },
    )
    parts = [title(places.hex(hid)), polygon]
    if terrain != "sea":
        x, y = hex_point(hid)
        parts.append(
            el(
                "text",
                {
                    "x": x,
                    "y": y - SIZE * 0.5,
                    "text-anchor": "middle",
                    "font-size": 7.5,
                    "fill": INK,
                    "fill-opacity": 0.75,
                    "class": "terrain",
                },
                text=terrain,
            )
        )
    number = h.get("number")
    if number is not None:
        parts.append(number_token(hex_point(hid), number))
    return el("g", {"class": "hex", "data-hex": hid, "data-terrain": terrain}, *parts)


def number_token(centre: Point, number: int) -> str:
    """The round token: 6 and 8 red and bold, dots for the chance as on the printed ones."""
    x, y = centre
    likely = number in (6, 8)
    colour = LIKELY if likely else INK
    dots = pips(number)
    spread = 3.2
    start = x - spread * (dots - 1) / 2
    return el(
        "g",
        {"class": "token", "data-number": number},
        el(
            "circle",
            {"cx": x, "cy": y, "r": 13.0, "fill": "#f7efd8", "stroke": INK, "stroke-width": 0.8},
        ),
        el(
            "text",
            {
                "x": x,
                "y": y + 3.0,
                "text-anchor": "middle",
                "font-size": 13 if likely else 11,
                "font-weight": "bold" if likely else "normal",
                "fill": colour,
            },
            text=str(number),
        ),
        *(
            el("circle", {"cx": start + i * spread, "cy": y + 8.0, "r": 1.1, "fill": colour})
            for i in range(dots)
        ),
    )


def seaward(key: EdgeKey, places: Places) -> Point:
    """Where a harbour's token goes: off the edge's middle into its sea hex (or outwards, away
    from the land hex, at the rim of the board)."""
    mx, my = edge_middle(key)
    sides = places.edge_hexes.get(key, ())
    sea = [h for h in sides if places.hex_terrain.get(h) == "sea"]
    if sea:
        sx, sy = hex_point(sea[0])
        return (mx + (sx - mx) * 0.5, my + (sy - my) * 0.5)
    if sides:
        lx, ly = hex_point(sides[0])
        return (mx + (mx - lx) * 0.5, my + (my - ly) * 0.5)
    return (mx, my)


def harbour_label(kind: str) -> tuple[str, str]:
    """The rate and what it applies to (X11: 3:1 any resource, 2:1 one resource)."""
    return ("3:1", "any") if kind == "generic" else ("2:1", kind)


def draw_harbours(harbours: Sequence[Mapping[str, Any]], places: Places) -> list[str]:
    out = []
    for key, kind in sorted((edge_key(h["edge"]), h["kind"]) for h in harbours):
        rate, what = harbour_label(kind)
        tx, ty = seaward(key, places)
        piers = [
            el(
                "line",
                {"x1": tx, "y1": ty, "x2": x, "y2": y, "stroke": "#7a5a2e", "stroke-width": 2.5},
            )
            for x, y in (node_point(key[0]), node_point(key[1]))
        ]
        out.append(
            el(
                "g",
                {"class": "harbour", "data-edge": "|".join(key), "data-kind": kind},
                title(f"harbour {rate} {what} at {places.edge(key)}"),
                *piers,
                el("circle", {"cx": tx, "cy": ty, "r": 11.5, "fill": "#ffffff", "stroke": INK}),
                el(
                    "text",
                    {
                        "x": tx,
                        "y": ty - 0.5,
                        "text-anchor": "middle",
                        "font-size": 8.5,
                        "font-weight": "bold",
                    },
                    text=rate,
                ),
                el(
                    "text",
                    {"x": tx, "y": ty + 7.5, "text-anchor": "middle", "font-size": 6.5},
                    text=what,
                ),
            )
        )
    return out


def _road(key: EdgeKey, colour: str) -> list[str]:
    (x1, y1), (x2, y2) = node_point(key[0]), node_point(key[1])
    # Shortened so two roads meeting at a corner stay apart, outlined for contrast on any land.
    fx1, fy1 = x1 + (x2 - x1) * 0.14, y1 + (y2 - y1) * 0.14
    fx2, fy2 = x2 + (x1 - x2) * 0.14, y2 + (y1 - y2) * 0.14
    ends = {"x1": fx1, "y1": fy1, "x2": fx2, "y2": fy2, "stroke-linecap": "round"}
    return [
        el("line", {**ends, "stroke": INK, "stroke-width": 8.0}),
        el("line", {**ends, "stroke": colour, "stroke-width": 5.0}),
    ]


def draw_pieces(
    players: Sequence[Mapping[str, Any]],
    colours: Mapping[str, str],
    places: Places,
    glyphs: Mapping[str, str] | None = None,
) -> list[str]:
    """Every route piece under every building, each group sorted by place, then owner; each
    piece carries its owner's seat mark (`glyphs`) beside the colour."""
    rows: list[tuple[int, str, str, str]] = []  # order, place, owner, markup
    for player in players:
        pid = player["id"]
        colour = colours[pid]
        glyph = (glyphs or {}).get(pid)
        for edge in player.get("roads", []):
            key = edge_key(edge)
            shapes = _road(key, colour) + _mark(glyph, edge_middle(key), 2.2)
            rows.append((0, "|".join(key), pid, _piece(pid, "road", key, places, shapes)))
        for ship in player.get("ships", []):
            key = edge_key(ship["edge"])
            closed = bool(ship.get("closed"))
            x, y = edge_middle(key)
            angle = edge_angle(key)
            hull = ship_shape(x, y, angle, colour, closed=closed)
            a = math.radians(angle)  # the hull's middle, 2 below the deck, turned with it
            shapes = [hull, *_mark(glyph, (x - 2 * math.sin(a), y + 2 * math.cos(a)), 2.2)]
            rows.append(
                (1, "|".join(key), pid, _piece(pid, "ship", key, places, shapes, closed=closed))
            )
        for kind, listed, building, (dx, dy) in (
            ("settlement", "settlements", settlement_shape, (0.0, 2.0)),
            ("city", "cities", city_shape, (5.2, 3.0)),
        ):
            for node in player.get(listed, []):
                x, y = node_point(node)
                shapes = [building(x, y, colour), *_mark(glyph, (x + dx, y + dy), 2.6)]
                markup = _piece(pid, kind, node, places, shapes)
                rows.append((PIECE_ORDER[kind], node, pid, markup))
    return [markup for *_, markup in sorted(rows)]


def _mark(glyph: str | None, at: Point, size: float) -> list[str]:
    return [] if glyph is None else [glyph_shape(glyph, at[0], at[1], size)]


def _piece(
    owner: str,
    kind: str,
    place: EdgeKey | str,
    places: Places,
    shapes: list[str],
    *,
    closed: bool | None = None,
) -> str:
    if isinstance(place, tuple):
        where, data = places.edge(place), "|".join(place)
    else:
        where, data = places.node(place), place
    state = ""
    attrs: dict[str, object] = {
        "class": "piece",
        "data-kind": kind,
        "data-owner": owner,
        "data-place": data,
    }
    if closed is not None:
        attrs["data-closed"] = "true" if closed else "false"
        state = "closed " if closed else "open "
    return el("g", attrs, title(f"{owner}'s {state}{kind} at {where}"), *shapes)


def draw_thieves(board: Mapping[str, Any], places: Places) -> list[str]:
    out = []
    robber = board.get("robber")
    if robber:
        x, y = hex_point(robber)
        out.append(
            el(
                "g",
                {"class": "robber", "data-hex": robber},
                title(f"the robber on {places.hex(robber)}"),
                robber_shape(x - SIZE * 0.42, y),
            )
        )
    pirate = board.get("pirate")
    if pirate:
        x, y = hex_point(pirate)
        out.append(
            el(
                "g",
                {"class": "pirate", "data-hex": pirate},
                title(f"the pirate on {places.hex(pirate)}"),
                pirate_shape(x, y),
            )
        )
    return out


def last_places(events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """The places the last action changed: ("edge"|"node"|"hex", canonical name), sorted."""
    found: set[tuple[str, str]] = set()
    for event in events:
        kind = event.get("type")
        if kind == "built":
            if "edge" in event:
                found.add(("edge", "|".join(edge_key(event["edge"]))))
            else:
                found.add(("node", event["node"]))
        elif kind == "ship_moved":
            found.add(("edge", "|".join(edge_key(event["to"]))))
        elif kind in ("robber_moved", "pirate_moved"):
            found.add(("hex", event["to"]))
    return sorted(found)


def place_point(kind: str, name: str) -> Point:
    if kind == "hex":
        return hex_point(name)
    if kind == "node":
        return node_point(name)
    a, b = name.split("|")
    return edge_middle((a, b))


def draw_last_action(events: Sequence[Mapping[str, Any]], places: Places) -> list[str]:
    out = []
    for kind, name in last_places(events):
        x, y = place_point(kind, name)
        if kind == "hex":
            where, radius = places.hex(name), SIZE * 0.8
        elif kind == "node":
            where, radius = places.node(name), 13.0
        else:
            a, b = name.split("|")
            where, radius = places.edge((a, b)), 15.0
        out.append(
            el(
                "g",
                {"class": "last-action", "data-place": name},
                title(f"last action here: {where}"),
                el(
                    "circle",
                    {
                        "cx": x,
                        "cy": y,
                        "r": radius,
                        "fill": "none",
                        "stroke": "#ffffff",
                        "stroke-width": 5.0,
                    },
                ),
                el(
                    "circle",
                    {
                        "cx": x,
                        "cy": y,
                        "r": radius,
                        "fill": "none",
                        "stroke": HIGHLIGHT,
                        "stroke-width": 2.0,
                        "stroke-dasharray": "4 2.5",
                    },
                ),
            )
        )
    return out


__all__ = [
    "draw_harbours",
    "draw_hex",
    "draw_last_action",
    "draw_pieces",
    "draw_thieves",
    "last_places",
    "place_point",
    "seaward",
]
