"""The map on a campaign's own drawing (issue 20 §1, docs/rulings.md R-76–R-79): the provinces
are the drawing's shapes (maps/drawing.py) instead of the regions made from their positions
(maps/regions.py), and everything else — ports, fleets, arrows, names, battles, the key — is
drawn on top as on any map, placed from the shapes: each province's marks at its shape's middle,
each port on its land's outline facing its waters.

`map_svg` (maps/svg.py) asks `own_drawing` whether the layout brings a drawing that fits the
world drawn (every province drawn once, nothing else: `drawing_fits`); a drawing that no longer
fits — the world was edited since — is not used, and the map is the generated one (R-77).
Fog of war hides fleets, never land or sea: every viewer's map has every shape; the seas a
viewer does not watch are shaded over, their own look kept underneath. Pure: no Django.
"""

from __future__ import annotations

from maps.drawing import Drawing, drawing_fits
from maps.geometry import PORT_SIZE, Geometry, Point, nearest, port_direction
from maps.layout import Layout
from maps.marks import LAND, LAND_EDGE, SEA, SEA_EDGE, SEA_UNSEEN, el, title
from maps.model import MapModel
from maps.regions import Regions
from maps.shapes import hull, ray_exit

SHADE_OPACITY = 0.7  # of the unseen seas' shade over their own colours


def own_drawing(layout: Layout, model: MapModel) -> Drawing | None:
    """The layout's drawing when it fits the world drawn, else None (the generated map)."""
    drawing = layout.drawing
    if drawing is None or not drawing_fits(drawing, model.kinds):
        return None
    return drawing


def own_geometry(model: MapModel, drawing: Drawing) -> Geometry:
    """Positions at the shapes' middles, radii as on the generated map (smaller where provinces
    crowd), each province's region the convex hull of its outline (for the names' places: a
    name outside it reads as a neighbour's) and the ports on their lands' outlines. No shared
    borders nor straits are drawn: the drawing shows what is next to what."""
    pos: dict[str, Point] = {}
    for pid in model.kinds:
        spot = drawing.shapes[pid].middle
        assert spot is not None  # drawing_fits: every province's shape draws something
        pos[pid] = spot
    pos = dict(sorted(pos.items()))
    near = nearest(pos, 3)
    radius = {
        pid: max(
            6.0,
            min(
                17.0 if model.kinds[pid] == "sea" else 13.0,
                0.42 * (near[pid][0] if near[pid] else 100.0),
            ),
        )
        for pid in pos
    }
    polygons = {pid: hull(p for ring in drawing.shapes[pid].rings for p in ring) for pid in pos}
    ports = _ports(model, drawing, pos, radius)
    frame = (0.0, 0.0, drawing.width, drawing.height)
    return Geometry(pos, radius, ports, Regions(polygons, {}, {}), frame)


def _ports(
    model: MapModel, drawing: Drawing, pos: dict[str, Point], radius: dict[str, float]
) -> dict[str, tuple[float, float, float, float]]:
    """Each port where a line from its land's middle toward its waters leaves the land's
    outline, just inside it, facing the waters; the ports of one land spread round it."""
    out: dict[str, tuple[float, float, float, float]] = {}
    used: dict[str, list[float]] = {}
    for port in model.ports.values():
        cx, cy = pos[port.province]
        ux, uy = port_direction(port, pos, used)
        reach = ray_exit(drawing.shapes[port.province].rings, (cx, cy), (ux, uy))
        at = radius[port.province] if reach is None else reach - min(PORT_SIZE / 2, reach / 2)
        out[port.id] = (cx + ux * at, cy + uy * at, ux, uy)
    return dict(sorted(out.items()))


def own_provinces(model: MapModel, drawing: Drawing, layout: Layout) -> list[str]:
    """The drawing as the map's provinces: its markup as kept, each province's shape in a group
    the desk's clicks find (`province`, `data-province`: fleets/static/fleets/map-orders.js),
    titled, with the map's colours for what the shape does not paint itself, and a shade over
    each sea the viewer does not watch."""
    out = [drawing.opening]
    edge_width = f"{1.1 / drawing.scale:.4g}"  # the generated map's outlines, in drawing units
    for n, part in enumerate(drawing.parts):
        if n not in drawing.slots:
            out.append(part)
            continue
        pid, shape = part, drawing.shapes[part]
        kind = model.kinds[pid]
        unseen = kind == "sea" and model.watched is not None and pid not in model.watched
        fill, edge = (SEA, SEA_EDGE) if kind == "sea" else (LAND, LAND_EDGE)
        what = "sea, out of sight" if unseen else kind
        shade = (
            el(
                "g",
                {
                    "class": "shade",
                    "fill": SEA_UNSEEN,
                    "fill-opacity": SHADE_OPACITY,
                    "stroke": "none",
                },
                shape.shade,
            )
            if unseen
            else ""
        )
        out.append(
            el(
                "g",
                {
                    "class": f"province {kind}" + (" unseen" if unseen else ""),
                    "data-province": pid,
                    "fill": fill,
                    "stroke": edge,
                    "stroke-width": edge_width,
                },
                title(f"{layout.province_name(pid)} ({what})"),
                shape.markup,
                shade,
            )
        )
    out.append("</g>")
    return ["".join(out)]
