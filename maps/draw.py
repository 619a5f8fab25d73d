"""Drawing the map's parts as SVG markup, once everything has its place (`maps.geometry`)."""

from __future__ import annotations

from maps.geometry import BADGE_HEIGHT, BADGE_SIZE, PORT_SIZE, Arrow, Badge, Geometry, Point
from maps.layout import Layout
from maps.marks import (
    LAND,
    LAND_EDGE,
    LAND_LINK,
    PAPER,
    SEA,
    SEA_EDGE,
    SEA_LINK,
    SEA_UNSEEN,
    SEA_UNSEEN_EDGE,
    Attr,
    anchor,
    arrow_head_id,
    el,
    num,
    points,
    quoted,
    readable_on,
    ship,
    star,
    title,
)
from maps.model import Fleet, MapModel


def line(
    a: Point,
    b: Point,
    colour: str,
    width: float,
    dash: str | None = None,
    cls: str | None = None,
    between: str | None = None,
) -> str:
    """A line, as `el("line", {"class": cls, "data-between": between, "x1": …, "y1": …,
    "x2": …, "y2": …, "stroke": colour, "stroke-width": width, "stroke-dasharray": dash,
    "stroke-linecap": "round"})` writes it (tests/maps/test_svg.py holds the two to the same
    text), written out: a world of 1,000 provinces draws some 8,000 of them."""
    head = "<line"
    if cls is not None:
        head += f' class="{quoted(cls)}"'
    if between is not None:
        head += f' data-between="{quoted(between)}"'
    head += (
        f' x1="{num(a[0])}" y1="{num(a[1])}" x2="{num(b[0])}" y2="{num(b[1])}"'
        f' stroke="{quoted(colour)}" stroke-width="{num(width)}"'
    )
    if dash is not None:
        head += f' stroke-dasharray="{quoted(dash)}"'
    return head + ' stroke-linecap="round"/>'


def draw_links(model: MapModel, geo: Geometry) -> list[str]:
    """Adjacency as the regions show it (maps/regions.py): each shared border drawn by its kind
    — a coast (land–sea) firm, a border between two seas or two lands soft and dashed over a
    band of their colour that hides the two regions' own edges — and each strait (adjacent
    regions that do not touch) as a channel from one to the other."""
    out = []
    for (a, b), (p, q) in geo.regions.borders.items():
        kinds = "-".join(sorted((model.kinds[a], model.kinds[b])))
        cls = f"border {kinds}"
        if kinds == "land-sea":
            out.append(line(p, q, LAND_EDGE, 1.6, cls=cls, between=f"{a} {b}"))
        else:
            fill, soft = (SEA, SEA_EDGE) if kinds == "sea-sea" else (LAND, LAND_EDGE)
            seen = model.watched
            if kinds == "sea-sea" and seen is not None and a not in seen and b not in seen:
                fill = SEA_UNSEEN  # the band between two shaded seas is shaded too
            out.append(
                el(
                    "g",
                    {"class": cls, "data-between": f"{a} {b}"},
                    line(p, q, fill, 2.4),
                    line(p, q, soft, 0.9, "3 2.5"),
                )
            )
    for (a, b), (p, q) in geo.regions.straits.items():
        kinds = "-".join(sorted((model.kinds[a], model.kinds[b])))
        cls = f"strait {kinds}"
        between = f"{a} {b}"
        if kinds == "sea-sea":
            out.append(
                el(
                    "g",
                    {"class": cls, "data-between": between},
                    line(p, q, SEA_EDGE, 5.0),
                    line(p, q, SEA_LINK, 3.2),
                )
            )
        elif kinds == "land-land":
            out.append(line(p, q, LAND_LINK, 1.4, cls=cls, between=between))
        else:
            out.append(line(p, q, LAND_EDGE, 1.3, "2 3", cls, between))
    return out


def draw_ground(model: MapModel, geo: Geometry) -> list[str]:
    """With fill points (maps/regions.py): the land and the sea under the regions, each site's
    plain cell in its colour (a sea the viewer does not watch shaded), then the coasts where
    land meets sea and no border is drawn. Without them, nothing: the background shows.

    The cells of one colour are one path, a closed figure a cell (the bundled Baltic has some
    2,300 cells: as many elements, each with its colours, were four fifths of its map's
    bytes). Each cell's edge is drawn in its own colour, so no hairline of background shows
    between two cells; the coasts are drawn over where land meets sea."""
    if not geo.regions.ground:
        return []
    seen = model.watched
    figures: dict[str, list[str]] = {}  # colour -> its cells, in the ground's order
    for pid, kind, poly in geo.regions.ground:
        if kind == "sea":
            fill = SEA_UNSEEN if pid is not None and seen is not None and pid not in seen else SEA
        else:
            fill = LAND
        figures.setdefault(fill, []).append(f"M{points(list(poly))}Z")
    out = [
        el(
            "path",
            {
                "d": "".join(cells),
                "fill": fill,
                "stroke": fill,
                "stroke-width": 0.8,
                "stroke-linejoin": "round",
            },
        )
        for fill, cells in figures.items()
    ]
    out += [line(p, q, LAND_EDGE, 1.2, cls="coast") for p, q in geo.regions.coasts]
    return out


def draw_provinces(model: MapModel, geo: Geometry, layout: Layout) -> list[str]:
    """Each province as its region, sea blue (grey where the viewer does not look) and land
    sand, outlined in its own edge colour: where a region meets no neighbour the outline is
    its coast."""
    out = []
    for pid, poly in geo.regions.polygons.items():
        kind = model.kinds[pid]
        unseen = kind == "sea" and model.watched is not None and pid not in model.watched
        if kind == "sea":
            fill, edge = (SEA_UNSEEN, SEA_UNSEEN_EDGE) if unseen else (SEA, SEA_EDGE)
        else:
            fill, edge = LAND, LAND_EDGE
        what = "sea, out of sight" if unseen else kind
        out.append(
            el(
                "g",
                {"class": f"province {kind}" + (" unseen" if unseen else ""), "data-province": pid},
                title(f"{layout.province_name(pid)} ({what})"),
                el(
                    "polygon",
                    {
                        "points": points(list(poly)),
                        "fill": fill,
                        "stroke": edge,
                        "stroke-width": 1.1,
                        "stroke-linejoin": "round",
                    },
                ),
            )
        )
    return out


def draw_ports(model: MapModel, geo: Geometry, layout: Layout) -> list[str]:
    out = []
    for pid, port in model.ports.items():
        x, y, _, _ = geo.ports[pid]
        text = (
            f"{layout.port_name(pid)}: port of {layout.faction_name(port.owner)}"
            f" in {layout.province_name(port.province)}"
        )
        out.append(
            el(
                "g",
                {"class": "port", "data-port": pid},
                title(text),
                anchor(x, y, PORT_SIZE, layout.colour(port.owner)),
            )
        )
    return out


def draw_blockades(
    model: MapModel, geo: Geometry, badges: dict[str, Badge], layout: Layout
) -> list[str]:
    """A dashed ring round each blockaded port and a dashed line to each (drawn) blockader."""
    out = []
    for fleet in model.fleets.values():
        if fleet.blockading is None:
            continue
        x, y, _, _ = geo.ports[fleet.blockading]
        colour = layout.colour(fleet.owner)
        badge = badges[fleet.id].box
        text = f"{layout.port_name(fleet.blockading)} blockaded by {fleet.id}"
        ring_attrs: dict[str, Attr] = {
            "cx": x,
            "cy": y,
            "r": PORT_SIZE * 0.95,
            "fill": "none",
            "stroke": colour,
            "stroke-width": 2.2,
            "stroke-dasharray": "4 2.5",
        }
        out.append(
            el(
                "g",
                {"class": "blockade", "data-fleet": fleet.id, "data-port": fleet.blockading},
                title(text),
                line((badge.cx, badge.cy), (x, y), colour, 2, "5 3"),
                el("circle", ring_attrs),
            )
        )
    return out


def draw_arrows(arrows: list[Arrow], layout: Layout) -> list[str]:
    """Each order as a line in the owner's colour on a pale casing, with an arrow head (a
    blockade's dashed)."""
    out = []
    verb = {"move": "moves", "enter_port": "enters port", "blockade": "blockades"}
    for arrow in arrows:
        colour = layout.colour(arrow.fleet.owner)
        shape = {"points": points(arrow.points), "fill": "none", "stroke-linejoin": "round"}
        dash = "7 4" if arrow.type == "blockade" else None
        kind, whose = f"order {arrow.type}", ""
        if arrow.suggested:  # U3: dotted, until the moderator gives the pirates their orders
            kind, whose, dash = kind + " suggested", " (suggested for the pirates)", "2 5"
        out.append(
            el(
                "g",
                {"class": kind, "data-fleet": arrow.fleet.id},
                title(f"{arrow.fleet.id}{whose} {verb[arrow.type]}: {' → '.join(arrow.names)}"),
                el("polyline", {**shape, "stroke": PAPER, "stroke-width": 5, "opacity": 0.85}),
                el(
                    "polyline",
                    {
                        **shape,
                        "stroke": colour,
                        "stroke-width": 2.6,
                        "stroke-dasharray": dash,
                        "marker-end": f"url(#{arrow_head_id(colour)})",
                    },
                ),
            )
        )
    return out


def draw_battles(battles: dict[str, tuple[float, ...]], layout: Layout) -> list[str]:
    return [
        el(
            "g",
            {"class": "battle", "data-province": pid},
            title(f"Battle at {layout.province_name(pid)}"),
            star(x, y, r),
        )
        for pid, (x, y, r) in battles.items()
    ]


def fleet_title(fleet: Fleet, layout: Layout) -> str:
    ships = f"{fleet.ships} ship" + ("" if fleet.ships == 1 else "s")
    where = layout.port_name(fleet.at) if fleet.docked else layout.province_name(fleet.at)
    text = f"{fleet.id}: {ships} of {layout.faction_name(fleet.owner)} at {where}"
    if fleet.docked:
        text += " (in port)"
    if fleet.blockading:
        text += f", blockading {layout.port_name(fleet.blockading)}"
    if fleet.adrift:
        text += ", adrift"
    return text


def draw_fleets(model: MapModel, badges: dict[str, Badge], layout: Layout) -> list[str]:
    out = []
    for fid, fleet in model.fleets.items():
        badge = badges[fid]
        box, colour = badge.box, layout.colour(fleet.owner)
        ink = readable_on(colour)
        parts = [title(fleet_title(fleet, layout))]
        if badge.leader:
            parts.append(line(badge.anchor, (box.cx, box.cy), colour, 1.2))
        parts.append(
            el(
                "rect",
                {
                    "x": box.x0,
                    "y": box.y0,
                    "width": box.x1 - box.x0,
                    "height": box.y1 - box.y0,
                    "rx": BADGE_HEIGHT / 2,
                    "fill": colour,
                    "stroke": "#ffffff",
                    "stroke-width": 1.5,
                    "stroke-dasharray": "3 2" if fleet.adrift else None,
                },
            )
        )
        parts.append(ship(box.x0 + 9.5, box.cy - 0.3, ink))
        parts.append(
            el(
                "text",
                {
                    "x": box.x0 + 17,
                    "y": box.cy + BADGE_SIZE * 0.36,
                    "font-size": BADGE_SIZE,
                    "font-weight": "bold",
                    "fill": ink,
                },
                text=str(fleet.ships),
            )
        )
        out.append(el("g", {"class": "fleet", "data-fleet": fid}, *parts))
    return out
