"""Where things go on the map: positions, radii, port markers, the fleets' badges and the order
arrows' lines, each placed clear of what is already there (`maps.place.Placer`)."""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from maps.layout import Layout
from maps.model import Fleet, MapModel
from maps.place import Box, Placer, by_fields, ring, text_width
from maps.regions import Regions, grid_ring, regions

Point = tuple[float, float]
BADGE_HEIGHT = 16.0
BADGE_SIZE = 10.5
PORT_SIZE = 13.0
MOVING_ORDERS = ("move", "enter_port", "blockade")
CROWDED = 400  # fleets: beyond, fewer places are tried for each badge
REACH = 1.15  # a region's reach, in distances to the province's third nearest neighbour
CAP = 2.4  # and at most, in the median distance between nearest neighbours
FARTHEST = 150.0  # and at most this far on the 1000-wide drawing, however sparse the world
FILL_MARGIN = 12.0  # the frame round the outermost site, with fill points
FILL_REACH = 0.9  # how near a province's region comes to the fill points round it


@dataclass(frozen=True, slots=True)
class Geometry:
    pos: dict[str, Point]
    radius: dict[str, float]
    ports: dict[str, tuple[float, float, float, float]]  # marker x, y; outward direction
    regions: Regions  # each province's area (maps/regions.py)
    frame: tuple[float, float, float, float] | None = None  # a campaign's own drawing's (own_svg)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied as made (place.by_fields)


@dataclass(frozen=True, slots=True)
class Badge:
    box: Box
    anchor: Point
    leader: bool

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied as made (place.by_fields)


@dataclass(frozen=True, slots=True)
class Arrow:
    fleet: Fleet
    type: str
    points: list[Point]
    names: list[str]
    suggested: bool = False  # the pirates' suggested order (U3), not yet given

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied as made (place.by_fields)


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
    # Provinces stacked on one spot have no real position (a world imported without any keeps
    # 0, 0 for each, fleets/importing.py): they are spread like those without one.
    spots: dict[Point, list[str]] = {}
    for pid, here in pos.items():
        spots.setdefault(here, []).append(pid)
    for stacked in (ids for ids in spots.values() if len(ids) > 1):
        for pid in stacked:
            del pos[pid]
            missing.append(pid)
    pos.update(default_positions(sorted(missing), model.links))
    pos = dict(sorted(pos.items()))

    near = nearest(pos, 3)
    radius: dict[str, float] = {}
    for pid in pos:
        top = 17.0 if model.kinds[pid] == "sea" else 13.0
        radius[pid] = max(6.0, min(top, 0.42 * (near[pid][0] if near[pid] else 100.0)))
    # A region reaches a little past its third nearest neighbour (at least its mark's room):
    # far enough that neighbours meet, not so far that an edge province fills the frame.
    # And never more than a few typical spacings: an edge province is not drawn as a continent.
    spacing = sorted(d[0] for d in near.values() if d)
    most = min(FARTHEST, CAP * spacing[len(spacing) // 2]) if spacing else FARTHEST
    reach = {
        pid: max(3 * radius[pid], min(most, REACH * (near[pid][-1] if near[pid] else 100.0)))
        for pid in pos
    }
    top_reach = max(reach.values(), default=0.0)
    xs, ys = [x for x, _ in pos.values()], [y for _, y in pos.values()]
    frame = (
        (min(xs) - top_reach, min(ys) - top_reach, max(xs) + top_reach, max(ys) + top_reach)
        if pos
        else (0.0, 0.0, 400.0, 300.0)
    )
    fill = [(kind, (x, y)) for kind, x, y in layout.fill] if pos else []
    if fill:
        # With fill points the file draws the land and the sea round the provinces itself: the
        # frame is what the points span, and no region is capped (its neighbours bound it).
        xs += [x for _, (x, _) in fill]
        ys += [y for _, (_, y) in fill]
        frame = (
            min(xs) - FILL_MARGIN,
            min(ys) - FILL_MARGIN,
            max(xs) + FILL_MARGIN,
            max(ys) + FILL_MARGIN,
        )
    weight = fill_weights(pos, [p for _, p in fill]) if fill else None
    areas = regions(pos, model.links, frame, None if fill else reach, fill, model.kinds, weight)
    return Geometry(pos, radius, coast_ports(model, pos, radius, areas), areas)


def fill_weights(pos: Mapping[str, Point], fill: list[Point]) -> dict[str, float]:
    """With fill points, each province's weight in the power diagram of its region
    (maps/regions.py): its region reaches nearly to the fill points nearest it (FILL_REACH of
    the way), so that a province is the room the file leaves it between them, not half of it.
    A weight is at most 0.4 d² above any province's at d from it, so every region holds its
    position (and keeps it with the gap of a neighbour not adjacent)."""
    size = 40.0
    grid: dict[tuple[int, int], list[Point]] = {}
    for x, y in fill:
        grid.setdefault((math.floor(x / size), math.floor(y / size)), []).append((x, y))
    room: dict[str, float] = {}
    for pid, (x, y) in pos.items():
        gx, gy = math.floor(x / size), math.floor(y / size)
        best, ring_n = math.inf, 0
        while best > (ring_n - 1) * size and ring_n <= 2000 / size:
            for cell in grid_ring(gx, gy, ring_n):
                for p in grid.get(cell, ()):
                    best = min(best, math.dist(p, (x, y)))
            ring_n += 1
        room[pid] = (FILL_REACH * best) ** 2 if math.isfinite(best) else 0.0
    # The largest weights with w_a <= w_b + 0.4 d(a, b)² for every pair, at most each room:
    # shortest paths from the rooms (Dijkstra, each pair's 0.4 d² its edge).
    weight: dict[str, float] = {}
    todo = dict(room)
    while todo:
        pid = min(todo, key=lambda p: (todo[p], p))
        weight[pid] = here = todo.pop(pid)
        for other in todo:
            todo[other] = min(todo[other], here + 0.4 * math.dist(pos[pid], pos[other]) ** 2)
    return dict(sorted(weight.items()))


def coast_ports(
    model: MapModel, pos: Mapping[str, Point], radius: Mapping[str, float], areas: Regions
) -> dict[str, tuple[float, float, float, float]]:
    """Each port's marker on its land's coast: on the middle of the border the land shares with
    the port's first water that has one (the ports of one coast spread along it), facing that
    water; a port whose waters share no border with its land (a strait) sits on the edge of
    the land's mark, facing its waters, as on the map of marks."""
    ports: dict[str, tuple[float, float, float, float]] = {}
    used: dict[str, list[float]] = {}
    on_coast: dict[tuple[str, str], list[str]] = {}
    for port in model.ports.values():
        for water in port.waters:
            key = (port.province, water) if port.province < water else (water, port.province)
            if key in areas.borders:
                on_coast.setdefault(key, []).append(port.id)
                break
    for key, ids in on_coast.items():
        (ax, ay), (bx, by) = areas.borders[key]
        for n, pid in enumerate(ids):
            t = (n + 1) / (len(ids) + 1)
            land = model.ports[pid].province
            water = key[0] if key[1] == land else key[1]
            (lx, ly), (wx, wy) = pos[land], pos[water]
            d = math.dist((lx, ly), (wx, wy)) or 1.0
            ports[pid] = (ax + (bx - ax) * t, ay + (by - ay) * t, (wx - lx) / d, (wy - ly) / d)
    for port in model.ports.values():
        if port.id in ports:
            continue
        cx, cy = pos[port.province]
        ux, uy = port_direction(port, pos, used)
        r = radius[port.province]
        ports[port.id] = (cx + ux * r, cy + uy * r, ux, uy)
    return dict(sorted(ports.items()))


def default_positions(missing: list[str], links: Iterable[tuple[str, str]]) -> dict[str, Point]:
    """Positions for the provinces the layout and the file leave without one: evenly spread on
    a sunflower spiral round the drawing's middle (every point as far from its neighbours as
    the next: regions of one size, not the slivers a circle makes), taken in the order of a
    walk through the adjacencies from the lowest id, so that neighbours come one after the
    other and mostly land near each other. The same world always gets the same positions."""
    if not missing:
        return {}
    todo = set(missing)
    around: dict[str, list[str]] = {pid: [] for pid in missing}
    for a, b in links:
        if a in todo and b in todo:
            around[a].append(b)
            around[b].append(a)
    order: list[str] = []
    for start in sorted(missing):
        if start not in todo:
            continue
        todo.discard(start)
        queue = deque([start])
        while queue:
            here = queue.popleft()
            order.append(here)
            for nxt in sorted(around[here]):
                if nxt in todo:
                    todo.discard(nxt)
                    queue.append(nxt)
    spread = 450 / math.sqrt(len(order))
    golden = math.pi * (3 - math.sqrt(5))
    return {
        pid: (
            500 + spread * math.sqrt(k + 0.5) * math.cos(k * golden),
            500 + spread * math.sqrt(k + 0.5) * math.sin(k * golden),
        )
        for k, pid in enumerate(order)
    }


def nearest(pos: Mapping[str, Point], k: int) -> dict[str, list[float]]:
    """For each position, the distances to its `k` nearest others, nearest first (fewer when
    there are fewer others), found through a grid: no pair of far provinces is measured."""
    ids = list(pos)
    if len(ids) < 2:
        return {pid: [] for pid in ids}
    xs, ys = [x for x, _ in pos.values()], [y for _, y in pos.values()]
    area = max(1.0, (max(xs) - min(xs)) * (max(ys) - min(ys)))
    size = max(1.0, math.sqrt(area / len(ids)))
    grid: dict[tuple[int, int], list[Point]] = {}
    for x, y in pos.values():
        grid.setdefault((math.floor(x / size), math.floor(y / size)), []).append((x, y))
    want = min(k, len(ids) - 1)
    out: dict[str, list[float]] = {}
    for pid, (x, y) in pos.items():
        gx, gy = math.floor(x / size), math.floor(y / size)
        found: list[float] = []
        ring = 0
        own = False
        while True:
            for cell in grid_ring(gx, gy, ring):
                for p in grid.get(cell, ()):
                    if not own and p == (x, y):
                        own = True  # this province itself, once (another may share the spot)
                        continue
                    found.append(math.dist(p, (x, y)))
            found.sort()
            # Everything farther than `ring` squares is at least ring * size away.
            if len(found) >= want and found[want - 1] <= ring * size:
                break
            ring += 1
        out[pid] = found[:want]
    return out


def map_bounds(geo: Geometry) -> Box:
    if not geo.pos:
        return Box(0, 0, 400, 300)
    box = Box(math.inf, math.inf, -math.inf, -math.inf)
    for pid, (x, y) in geo.pos.items():
        box = box.union(Box.around(x, y, 2 * geo.radius[pid], 2 * geo.radius[pid]))
    box = Box(box.x0 - 44, box.y0 - 34, box.x1 + 44, box.y1 + 34)
    if geo.frame is not None:
        box = box.union(Box(*geo.frame))
    for poly in [*geo.regions.polygons.values(), *(g[2] for g in geo.regions.ground)]:
        xs, ys = [x for x, _ in poly], [y for _, y in poly]
        box = box.union(Box(min(xs) - 6, min(ys) - 6, max(xs) + 6, max(ys) + 6))
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


def place_fleets(
    model: MapModel,
    geo: Geometry,
    placer: Placer,
    kept: MutableMapping[Any, list[float | None]] | None = None,
) -> dict[str, Badge]:
    """Each fleet's badge next to its sea province (or its port, when docked), clear of what
    is already drawn; the fleets of one place spread around it. `kept`: a dict the caller
    keeps with the geometry and the placer's base, where what each badge's places cover of the
    base is kept (the same wherever the same badge is put again, in any drawing)."""
    kept = {} if kept is None else kept
    badges: dict[str, Badge] = {}
    steps = 4 if len(model.fleets) <= CROWDED else 2
    order = sorted(model.fleets.values(), key=lambda f: (f.docked, f.at, f.id))
    for fleet in order:
        if fleet.docked:
            x, y, ux, uy = geo.ports[fleet.at]
            gap, prefer = PORT_SIZE / 2 + 2, (ux, uy)
        else:
            (x, y), gap, prefer = geo.pos[fleet.at], geo.radius[fleet.at] + 2, (0.7, -0.7)
        width = badge_width(fleet)
        spots = ring(x, y, gap, width, BADGE_HEIGHT, steps=steps, prefer=prefer)
        key = (x, y, gap, width, steps, prefer)
        under = kept.get(key)
        if under is None:
            under = kept[key] = [None] * len(spots)
        spot = placer.choose(spots, weight=3, under=under)
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
        out.append(Arrow(fleet, order["type"], pts, names, bool(order.get("suggested"))))
    return out


def take_lines(placer: Placer, arrows: list[Arrow]) -> None:
    """Let labels keep off the arrows: small boxes along every segment."""
    for arrow in arrows:
        for a, b in itertools.pairwise(arrow.points):
            steps = max(1, int(math.dist(a, b) // 8))
            for i in range(steps + 1):
                x, y = a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps
                placer.take(Box.around(x, y, 7, 7), 2)


def port_direction(port: Any, pos: Mapping[str, Point], used: dict[str, list[float]]) -> Point:
    """The way from a port's land toward its waters (their middle; up when they have none),
    turned on while another port of the same land already points within 0.7 rad of it, so the
    ports of one land spread round it. `used`: each land's directions taken so far."""
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
    return math.cos(angle), math.sin(angle)
