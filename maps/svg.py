"""The campaign map as one self-contained SVG (issue 4, "The map").

`map_svg` draws provinces at their layout positions (seas blue, land beige), their links, ports,
fleets with their ship counts, blockades, battles from a turn's events and arrows for orders.
With a viewer and fog, only the fleets `engine.fog` lets that faction see are drawn at all, and
the seas it does not watch are shaded. The same input always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any

from maps.collector import collector_paused
from maps.draw import (
    draw_arrows,
    draw_battles,
    draw_blockades,
    draw_fleets,
    draw_ground,
    draw_links,
    draw_ports,
    draw_provinces,
)
from maps.geometry import (
    PORT_SIZE,
    arrow_paths,
    battle_spots,
    map_bounds,
    measure,
    moving_orders,
    place_fleets,
    take_lines,
)
from maps.labels import place_labels, plan_labels
from maps.layout import Layout
from maps.legend import Legend, legend_rows
from maps.marks import BACKGROUND, FONT, arrow_head, el, title
from maps.model import MapModel, read_model
from maps.own_svg import own_drawing, own_geometry, own_provinces
from maps.place import Box, Placer, circle_box


@collector_paused
def map_svg(
    world_doc: Mapping[str, Any],
    layout: Layout,
    *,
    viewer: str | None = None,
    fog: bool = True,
    orders: Sequence[Mapping[str, Any]] = (),
    events: Sequence[Mapping[str, Any]] = (),
    width: int = 1000,
    note: str | None = None,
    kept: MutableMapping[Any, Any] | None = None,
    shared: MutableMapping[Any, Any] | None = None,
    scenes: MutableMapping[Any, Any] | None = None,
) -> str:
    """The map as an SVG document (a string, no XML declaration, ready to inline in HTML).

    `world_doc` is a naval-scenario/1 document (its map, factions and fleets; campaign-only keys
    are ignored). With `viewer` (a faction id) and `fog`, the document must be a valid scenario:
    only the fleets that faction may see are drawn (`engine.ScenarioError` otherwise). `orders`
    (move, enter_port, blockade) of drawn fleets become arrows: all of them for the moderator
    (no viewer), only the viewer's own otherwise. Every `battle` event in `events` puts a marker
    on its province (battles are public news). `width` is the SVG's width in pixels; the height
    follows the map's proportions.

    `kept`: a dict the caller keeps for this world document, layout, viewer and fog (and for
    nothing else): what the drawing works out from those alone — the model, the geometry, the
    labels' plan, the links, provinces and ports — is kept there and taken from it next time,
    so that a drawing with other orders or events redoes only what those change. `shared`: a
    dict the caller keeps for this world document and layout, whatever the viewer: the
    geometry and the labels' plan, which depend on the provinces and ports alone (the same for
    every viewer; fog hides fleets), are kept there for every viewer. `scenes`: where a crowded
    map's scenes are kept instead of `kept` (for this world, layout, viewer and fog too; the
    map view's is the shared cache, so that every process draws a viewer's scene once), and so
    are the viewer's model, links, provinces and ports (any map's, crowded or not). The
    bytes are the same with them or without. `note`, when given, is whose view the key and the
    description name instead (the public map's: maps/public.py)."""
    if width < 1:
        raise ValueError("width must be at least 1")
    kept = {} if kept is None else kept
    if "model" not in kept:
        # What depends on the viewer (the model and the parts drawn from it alone) is in the
        # scenes' store too when there is one: another process takes it from there.
        own = scenes.get(("viewer-parts",)) if scenes is not None else None
        model = own["model"] if own is not None else read_model(world_doc, viewer, fog)
        # All the geometry reads: the provinces, their links (the regions' borders) and ports.
        shape = (tuple(model.kinds.items()), model.links, tuple(model.ports.items()))
        # The campaign's own drawing when it fits this world, else regions from positions.
        drawing = own_drawing(layout, model)
        common: dict[Any, Any] | None = shared.get(shape) if shared is not None else None
        if common is None:
            geo = (
                measure(model, layout, world_doc)
                if drawing is None
                else own_geometry(model, drawing)
            )
            base = Placer(map_bounds(geo))  # what every drawing of this world has under the rest
            for pid, (x, y) in geo.pos.items():
                base.take(circle_box(x, y, geo.radius[pid]), 1.5)
            for x, y, _, _ in geo.ports.values():
                base.take(Box.around(x, y, PORT_SIZE, PORT_SIZE), 2)
            common = {"geo": geo, "base": base, "labels": plan_labels(model, geo, layout, base)}
            if shared is not None:
                shared[shape] = common
        geo = common["geo"]
        if own is None:
            # The land, the seas, their borders and the ports: drawn from the world's shape and
            # which seas the viewer looks over alone, so kept with the geometry for every viewer
            # who looks over the same (all of them without fog).
            static = common.get(("static", model.watched))
            if static is None:
                static = {
                    "ground": el("g", {"class": "ground"}, *draw_ground(model, geo)),
                    "links": el("g", {"class": "links"}, *draw_links(model, geo)),
                    "provinces": el(
                        "g",
                        {"class": "provinces"},
                        *(
                            draw_provinces(model, geo, layout)
                            if drawing is None
                            else own_provinces(model, drawing, layout)
                        ),
                    ),
                    "ports": el("g", {"class": "ports"}, *draw_ports(model, geo, layout)),
                }
                if shared is not None:
                    common[("static", model.watched)] = static
            own = {"model": model, **static}
            if scenes is not None:
                scenes[("viewer-parts",)] = own
        # What fleets' badges cover of the base where they were put: kept for every viewer.
        places = common.setdefault("badge-places", {})
        kept.update(own, geo=geo, base=common["base"], labels=common["labels"])
        kept["badge-places"] = places
    model, geo, plan = kept["model"], kept["geo"], kept["labels"]
    battles = battle_spots(events, geo)
    arrow_orders = moving_orders(orders, model, geo, viewer)
    # A crowded map's labels are placed the quick way (labels.CROWDED) and without keeping off
    # the arrows, so that all but the arrows is the same whatever the orders: the scene (fleets,
    # blockades, labels, legend) is kept per battles marked, and a drawing for other orders draws
    # only their arrows. Its key is placed with the orders' row, arrows or not, so one scene
    # serves both; without arrows the key is drawn without the row, its box that much shorter
    # (docs/rulings.md R-73), and the labels still keep off the room placed for it. A smaller
    # map's labels keep off arrows, and its key has the orders' row only with them.
    quick = plan.budget == 0 and note is None  # a noted (public) map's scene is its own
    scene_key = ("scene", tuple(sorted(battles.items())))
    store = kept if scenes is None else scenes
    scene = store.get(scene_key) if quick else None
    if scene is None:
        placer = Placer(map_bounds(geo), kept["base"])
        for x, y, r in battles.values():
            placer.take(Box.around(x, y, 2 * r, 2 * r), 2)
        legend = Legend(
            legend_rows(
                model, layout, viewer, fog, bool(battles), quick or bool(arrow_orders), note
            ),
            placer,
        )
        badges = place_fleets(model, geo, placer, kept["badge-places"])
        arrows = arrow_paths(arrow_orders, model, geo, badges, layout)
        if not quick:
            take_lines(placer, arrows)
        scene = {
            "badges": badges,
            "labels": el(
                "g",
                {"class": "labels"},
                *place_labels(placer, plan, (b.box for b in badges.values())),
            ),
            "bounds": placer.bounds,
            "blockades": el(
                "g", {"class": "blockades"}, *draw_blockades(model, geo, badges, layout)
            ),
            "fleets": el("g", {"class": "fleets"}, *draw_fleets(model, badges, layout)),
            "legend": legend.markup(),
            "legend-no-orders": (
                legend.markup([r for r in legend.rows if r.symbol != "order"]) if quick else ""
            ),
        }
        if quick:
            store[scene_key] = scene
    else:
        arrows = arrow_paths(arrow_orders, model, geo, scene["badges"], layout)
    bounds = scene["bounds"]

    defs = sorted({layout.colour(a.fleet.owner) for a in arrows})
    body = [
        title(layout.title),
        el("desc", text=description(model, layout, viewer, fog, battles, arrows, note)),
        el("defs", {}, *(arrow_head(c) for c in defs)) if defs else "",
        el(
            "rect",
            {
                "x": bounds.x0,
                "y": bounds.y0,
                "width": bounds.x1 - bounds.x0,
                "height": bounds.y1 - bounds.y0,
                "fill": BACKGROUND,
            },
        ),
        kept["ground"] if geo.regions.ground else "",
        kept["provinces"],
        kept["links"],
        scene["blockades"],
        kept["ports"],
        el("g", {"class": "orders"}, *draw_arrows(arrows, layout)),
        scene["labels"],
        el("g", {"class": "battles"}, *draw_battles(battles, layout)),
        scene["fleets"],
        scene["legend"] if arrow_orders or not quick else scene["legend-no-orders"],
    ]
    height = width * (bounds.y1 - bounds.y0) / (bounds.x1 - bounds.x0)
    return el(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": width,
            "height": round(height),
            "viewBox": f"{bounds.x0:.0f} {bounds.y0:.0f} "
            f"{bounds.x1 - bounds.x0:.0f} {bounds.y1 - bounds.y0:.0f}",
            "font-family": FONT,
            "class": "admiralty-map",
        },
        *body,
    )


def description(
    model: MapModel,
    layout: Layout,
    viewer: str | None,
    fog: bool,
    battles: Mapping[str, object],
    arrows: Sequence[object],
    note: str | None = None,
) -> str:
    seas = sum(1 for k in model.kinds.values() if k == "sea")
    lands = len(model.kinds) - seas
    text = (
        f"{seas} sea and {lands} land provinces, {len(model.ports)} ports, "
        f"{len(model.fleets)} fleets shown, {len(battles)} battle markers, "
        f"{len(arrows)} order arrows. "
    )
    if note is not None:
        return text + note + "."
    if viewer is None:
        return text + "Every fleet is shown."
    if not fog:
        return text + f"Seen by {layout.faction_name(viewer)}, without fog of war."
    return (
        text + f"Seen by {layout.faction_name(viewer)}: only the fleets it can see are shown; "
        "shaded seas are out of its sight."
    )
