"""Where things go on the map: positions, radii, port markers, the fleets' badges and the order
arrows' lines, each placed clear of what is already there (`maps.place.Placer`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from maps.layout import Layout
from maps.model import Fleet, MapModel
from maps.place import Box, Placer, ring, text_width

Point = tuple[float, float]
BADGE_HEIGHT = 16.0
BADGE_SIZE = 10.5
PORT_SIZE = 13.0
MOVING_ORDERS = ("move", "enter_port", "blockade")
CROWDED = 400  # fleets: beyond, fewer places are tried for each badge


@dataclass(frozen=True, slots=True)
class Geometry:
    pos: dict[str, Point]
    radius: dict[str, float]
    ports: dict[str, tuple[float, float, float, float]]  # marker x, y; outward direction


@dataclass(frozen=True, slots=True)
class Badge:
    box: Box
    anchor: Point
    leader: bool


@dataclass(frozen=True, slots=True)
class Arrow:
    fleet: Fleet
    type: str
    points: list[Point]
    names: list[str]


def measure(model: MapModel, layout: Layout, doc: Mapping[str, Any]) -> Geometry:
    """Positions (the layout's; else the province's own x, y; else on a circle), radii (smaller
    where provinces crowd) and port markers (on the land's edge, facing their waters)."""
    raw: dict[str, Any] = {}
    game_map = doc.get("map")
    if isinstance(game_map, dict) and isinstance(game_map.get("provinces"), list):
        raw = {
            p["id"]: p
            for p in game_map["provinces"]
            if isinstance(p, dict) and isinstance(p.get("id"), str)
        }
    pos: dict[str, Point] = {}
    missing = []
    for pid in model.kinds:
        own = raw.get(pid, {})
        if pid in layout.positions:
            pos[pid] = layout.positions[pid]
        elif all(isinstance(own.get(k), int | float) for k in ("x", "y")):
            pos[pid] = (float(own["x"]), float(own["y"]))
        else:
            missing.append(pid)
    for i, pid in enumerate(missing):
        angle = 2 * math.pi * i / len(missing) - math.pi / 2
        pos[pid] = (500 + 400 * math.cos(angle), 500 + 400 * math.sin(angle))
    pos = dict(sorted(pos.items()))

    radius: dict[str, float] = {}
    for pid, here in pos.items():
        near = min((math.dist(here, p) for o, p in pos.items() if o != pid), default=100.0)
        top = 17.0 if model.kinds[pid] == "sea" else 13.0
        radius[pid] = max(6.0, min(top, 0.42 * near))

    ports: dict[str, tuple[float, float, float, float]] = {}
    used: dict[str, list[float]] = {}
    for port in model.ports.values():
        cx, cy = pos[port.province]
        waters = [pos[w] for w in port.waters]
        angle = -math.pi / 2
        if waters:
            mx = sum(x for x, _ in waters) / len(waters)
            my = sum(y for _, y in waters) / len(waters)
            if (mx, my) != (cx, cy):
                angle = math.atan2(my - cy, mx - cx)
        taken = used.setdefault(port.province, [])
        while any(abs((angle - a + math.pi) % (2 * math.pi) - math.pi) < 0.7 for a in taken):
            angle += 0.75
        taken.append(angle)
        ux, uy = math.cos(angle), math.sin(angle)
        r = radius[port.province]
        ports[port.id] = (cx + ux * r, cy + uy * r, ux, uy)
    return Geometry(pos, radius, ports)


def map_bounds(geo: Geometry) -> Box:
    if not geo.pos:
        return Box(0, 0, 400, 300)
    box = Box(math.inf, math.inf, -math.inf, -math.inf)
    for pid, (x, y) in geo.pos.items():
        box = box.union(Box.around(x, y, 2 * geo.radius[pid], 2 * geo.radius[pid]))
    box = Box(box.x0 - 44, box.y0 - 34, box.x1 + 44, box.y1 + 34)
    grow_x = max(0.0, 300 - (box.x1 - box.x0)) / 2
    grow_y = max(0.0, 240 - (box.y1 - box.y0)) / 2
    return Box(box.x0 - grow_x, box.y0 - grow_y, box.x1 + grow_x, box.y1 + grow_y)


def battle_spots(
    events: Iterable[Mapping[str, Any]], geo: Geometry
) -> dict[str, tuple[float, ...]]:
    """Each province with a battle: where its marker goes (upper left of the province)."""
    wanted = {
        e.get("province")
        for e in events
        if isinstance(e, Mapping)
        and e.get("type") == "battle"
        and isinstance(e.get("province"), str)
    }
    out: dict[str, tuple[float, ...]] = {}
    for pid in (p for p in geo.pos if p in wanted):  # geo.pos is sorted
        x, y = geo.pos[pid]
        r = geo.radius[pid]
        out[pid] = (x - 0.8 * r, y - 0.8 * r, 8.5)
    return out


def badge_width(fleet: Fleet) -> float:
    return 22 + text_width(str(fleet.ships), BADGE_SIZE, bold=True)


def place_fleets(model: MapModel, geo: Geometry, placer: Placer) -> dict[str, Badge]:
    """Each fleet's badge next to its sea province (or its port, when docked), clear of what
    is already drawn; the fleets of one place spread around it."""
    badges: dict[str, Badge] = {}
    steps = 4 if len(model.fleets) <= CROWDED else 2
    order = sorted(model.fleets.values(), key=lambda f: (f.docked, f.at, f.id))
    for fleet in order:
        if fleet.docked:
            x, y, ux, uy = geo.ports[fleet.at]
            gap, prefer = PORT_SIZE / 2 + 2, (ux, uy)
        else:
            (x, y), gap, prefer = geo.pos[fleet.at], geo.radius[fleet.at] + 2, (0.7, -0.7)
        spots = ring(x, y, gap, badge_width(fleet), BADGE_HEIGHT, steps=steps, prefer=prefer)
        spot = placer.choose(spots, weight=3)
        badges[fleet.id] = Badge(spot.box, (x, y), spot.step > 0)
    return badges


def _path(order: Mapping[str, Any], geo: Geometry) -> list[str]:
    """The order's path, keeping the provinces the map knows."""
    path = order.get("path")
    return (
        [p for p in path if isinstance(p, str) and p in geo.pos] if isinstance(path, list) else []
    )


def _port(order: Mapping[str, Any], geo: Geometry) -> str | None:
    """The port an enter_port or blockade order heads for, if the map knows it."""
    port = order.get("port")
    if order.get("type") == "move" or not isinstance(port, str) or port not in geo.ports:
        return None
    return port


def moving_orders(
    orders: Iterable[Mapping[str, Any]], model: MapModel, geo: Geometry, viewer: str | None
) -> list[Mapping[str, Any]]:
    """The orders that draw an arrow: moves, port entries and blockades of drawn fleets that go
    somewhere on the map; with a viewer, of that faction's own fleets only (the others' orders
    are secret, fog or not)."""
    chosen = [
        o
        for o in orders
        if isinstance(o, Mapping)
        and o.get("type") in MOVING_ORDERS
        and isinstance(o.get("fleet"), str)
        and o["fleet"] in model.fleets
        and (viewer is None or model.fleets[o["fleet"]].owner == viewer)
        and (_path(o, geo) or _port(o, geo))
    ]
    return sorted(chosen, key=lambda o: str(o["fleet"]))


def toward(a: Point, b: Point, by: float) -> Point:
    d = math.dist(a, b)
    if d <= by or d == 0:
        return a
    return (a[0] + (b[0] - a[0]) * by / d, a[1] + (b[1] - a[1]) * by / d)


def arrow_paths(
    orders: list[Mapping[str, Any]],
    model: MapModel,
    geo: Geometry,
    badges: dict[str, Badge],
    layout: Layout,
) -> list[Arrow]:
    """Each order's line: from the fleet's badge through its path (and on to the port)."""
    out = []
    for order in orders:
        fleet = model.fleets[order["fleet"]]
        badge = badges[fleet.id].box
        path = _path(order, geo)
        pts: list[Point] = [(badge.cx, badge.cy), *(geo.pos[p] for p in path)]
        names = [layout.province_name(p) for p in path]
        end_gap = geo.radius[path[-1]] + 3 if path else 0.0
        port = _port(order, geo)
        if port is not None:
            pts.append(geo.ports[port][:2])
            names.append(layout.port_name(port))
            end_gap = PORT_SIZE / 2 + 3
        if len(pts) < 2:
            continue
        pts[0] = toward(pts[0], pts[1], (badge.y1 - badge.y0) / 2 + 1)
        pts[-1] = toward(pts[-1], pts[-2], end_gap)
        out.append(Arrow(fleet, order["type"], pts, names))
    return out


def take_lines(placer: Placer, arrows: list[Arrow]) -> None:
    """Let labels keep off the arrows: small boxes along every segment."""
    for arrow in arrows:
        for a, b in itertools.pairwise(arrow.points):
            steps = max(1, int(math.dist(a, b) // 8))
            for i in range(steps + 1):
                x, y = a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps
                placer.take(Box.around(x, y, 7, 7), 2)
