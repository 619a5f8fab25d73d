"""Names on the map: port names, then province names, each put where it covers least of what is
drawn, reads as belonging to its own place rather than a neighbour's, and, when a long name
fits nowhere on one line, on two."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from maps.draw import line
from maps.geometry import PORT_SIZE, Geometry, Point
from maps.layout import Layout
from maps.marks import INK, LAND_INK, PAPER, SEA_INK, Attr, el
from maps.model import MapModel
from maps.place import Box, Candidate, Placer, by_fields, ring, text_width
from maps.regions import contains

LABEL_SIZE = 11.0
PORT_LABEL_SIZE = 10.5
LABEL_WEIGHT = 2.0
REPAIR_ROUNDS = 6
REPAIR_BUDGET = 4000  # moves tried at most, whatever the map's size
CROWDED = 400  # labels


@dataclass(frozen=True, slots=True)
class Job:
    text: str
    kind: str  # sea | land | port
    at: Point
    gap: float  # the radius of what is named
    size: float
    province: str  # the province named, or the port's

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied as made (place.by_fields)


def _variants(text: str) -> list[tuple[str, ...]]:
    """The text on one line, and split in two at the space nearest its middle when long."""
    out: list[tuple[str, ...]] = [(text,)]
    if " " in text.strip() and len(text) > 12:
        spaces = [i for i, c in enumerate(text) if c == " "]
        cut = min(spaces, key=lambda i: (abs(len(text) / 2 - i), i))
        out.append((text[:cut], text[cut + 1 :]))
    return out


Option = tuple[Candidate, tuple[str, ...], float]


@dataclass(frozen=True, slots=True)
class LabelPlan:
    """What placing the labels needs that depends on the world and the layout only, not on what
    else is drawn (fleets, arrows): every label's places and fixed penalties, and which labels
    could touch. Worked out once, it serves every drawing of the same world for the same viewer
    (fleets/map_views.py keeps it with the world): placing is then `_arrange` alone."""

    jobs: list[Job]
    options: list[list[Option]]
    budget: int
    boxes: list[list[tuple[float, float, float, float]]]
    lower: list[list[float]]
    ranked: list[list[int]]
    near: list[list[int]]
    under: list[list[float]]  # what each place covers of the base (provinces, ports)
    hulls: list[Box]  # each label's places together
    bounds: Box  # the base's: the drawing's frame
    # Each place's cost over a drawing that puts nothing near the label (its penalty, what it
    # covers of the base and of the outside): `_arrange` counts the drawing's own boxes only
    # for the labels they reach.
    settled: list[list[float]]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied as made (place.by_fields)


def plan_labels(model: MapModel, geo: Geometry, layout: Layout, base: Placer) -> LabelPlan:
    """The plan; `base`: the placer of what lies under every drawing of this world (the
    drawing's placer counts it under its own boxes, `Placer.base`)."""
    jobs = [
        Job(
            layout.port_name(pid), "port", (x, y), PORT_SIZE / 2 + 1, PORT_LABEL_SIZE, port.province
        )
        for (pid, (x, y, _, _)), port in zip(geo.ports.items(), model.ports.values(), strict=True)
    ]
    jobs += [
        Job(
            layout.province_name(pid),
            model.kinds[pid],
            geo.pos[pid],
            geo.radius[pid],
            LABEL_SIZE,
            pid,
        )
        for pid in geo.pos
    ]
    crowded = len(jobs) > CROWDED  # then the quick way: fewer places tried, no repairs
    options = [_options(job, geo, 1 if crowded else 3) for job in jobs]
    boxes = [
        [(o[0].box.x0, o[0].box.y0, o[0].box.x1, o[0].box.y1) for o in opts] for opts in options
    ]
    lower = [[o[0].penalty + o[2] for o in opts] for opts in options]
    ranked = [sorted(range(len(low)), key=lambda k: (low[k], k)) for low in lower]
    # Each label's places together (Box.union over them all: the least and the most corners).
    hulls = [
        Box(
            min(b[0] for b in own),
            min(b[1] for b in own),
            max(b[2] for b in own),
            max(b[3] for b in own),
        )
        for own in boxes
    ]
    near = _neighbours(hulls)
    budget = 0 if crowded else REPAIR_BUDGET
    under = [[base.covered(o[0].box) for o in opts] for opts in options]
    bounds = base.bounds
    settled = [
        [
            low + (6 * (o[0].box.area - o[0].box.overlap(bounds)) + cover)
            for o, low, cover in zip(opts, lows, covers, strict=True)
        ]
        for opts, lows, covers in zip(options, lower, under, strict=True)
    ]
    return LabelPlan(
        jobs,
        options,
        budget,
        boxes,
        lower,
        ranked,
        near,
        under,
        hulls,
        bounds,
        settled,
    )


def place_labels(placer: Placer, plan: LabelPlan, clear: Iterable[Box] = ()) -> list[str]:
    """The labels' markup, each placed where it covers least (`plan`: plan_labels's for this
    model, geometry and layout over the placer's base).

    A name never lies on another name or on the boxes in `clear` (the fleets' badges): where
    its chosen place would, it takes its next best place that is free, and where none is (a
    crowded corner of a large world) it is left out — the region still names itself in its
    tooltip, and a name over a fleet or over another name helps no reader (issue 20 §1)."""
    taken = Placer(placer.bounds)
    for box in clear:
        taken.take(box)
    out: list[str] = []
    for i, (job, opts, k) in enumerate(
        zip(plan.jobs, plan.options, _arrange(plan, placer), strict=True)
    ):
        free = next(
            (m for m in (k, *plan.ranked[i]) if not taken.touches(_inner(opts[m][0].box))),
            None,
        )
        if free is None:
            continue
        spot, lines, _ = opts[free]
        placer.take(spot.box, LABEL_WEIGHT)
        taken.take(spot.box)
        out += _markup(job, spot, lines)
    return out


def _inner(box: Box) -> Box:
    """The box less its padding (half the 5 units added to a name's width, one unit high)."""
    return Box(box.x0 + 2.5, box.y0 + 1, box.x1 - 2.5, box.y1 - 1)


def _options(job: Job, geo: Geometry, steps: int) -> list[Option]:
    """Every place the label may go, with its fixed penalty (further out, on two lines, or
    outside its own region: then it reads as a neighbour's name)."""
    own = geo.regions.polygons.get(job.province, ())
    out: list[Option] = []
    for n, lines in enumerate(_variants(job.text)):
        w = max(text_width(t, job.size, bold=job.kind == "port") for t in lines) + 5
        h = job.size * (1.3 + 1.1 * (len(lines) - 1))
        for spot in ring(*job.at, job.gap + 1.5, w, h, steps=steps):
            extra = 6.0 * n
            if spot.step == 0 and own and not contains(own, (spot.box.cx, spot.box.cy)):
                extra += 45  # in a neighbour's region, and no leader line back to its own
            out.append((spot, lines, extra))
    return out


def _inside(box: Box, frame: Box) -> bool:
    return frame.x0 <= box.x0 and frame.y0 <= box.y0 and box.x1 <= frame.x1 and box.y1 <= frame.y1


def _corners(box: Box) -> tuple[float, float, float, float]:
    return box.x0, box.y0, box.x1, box.y1


def _neighbours(hulls: list[Box]) -> list[list[int]]:
    """For each label, the others whose places could touch its own (found through a grid)."""
    cell = 64.0
    grid: dict[tuple[int, int], list[int]] = {}
    spans = []
    for n, hull in enumerate(hulls):
        xs = range(math.floor(hull.x0 / cell), math.floor(hull.x1 / cell) + 1)
        ys = range(math.floor(hull.y0 / cell), math.floor(hull.y1 / cell) + 1)
        spans.append((xs, ys))
        for i in xs:
            for j in ys:
                grid.setdefault((i, j), []).append(n)
    corners = [(h.x0, h.y0, h.x1, h.y1) for h in hulls]
    out = []
    for n, ((x0, y0, x1, y1), (xs, ys)) in enumerate(zip(corners, spans, strict=True)):
        found: set[int] = set()
        for i in xs:
            for j in ys:
                found.update(grid[i, j])
        found.discard(n)
        near = []
        for m in sorted(found):
            a0, b0, a1, b1 = corners[m]
            if (x1 if x1 < a1 else a1) > (x0 if x0 > a0 else a0) and (y1 if y1 < b1 else b1) > (
                y0 if y0 > b0 else b0
            ):
                near.append(m)
        out.append(near)
    return out


def _arrange(plan: LabelPlan, placer: Placer) -> list[int]:
    """An option for each label, so that together they cover the least of the map and of each
    other: greedy first, then repairs. A costly label tries its cheaper places, moving the
    labels in the way to their best other places, and keeps the change if the sum improves.
    An option's cost is at least its penalty, which orders and cuts short every search."""
    options, budget = plan.options, plan.budget
    boxes, lower, ranked, near, under = plan.boxes, plan.lower, plan.ranked, plan.near, plan.under
    count = len(options)
    cache: list[dict[int, float]] = [{} for _ in range(count)]
    current = [-1] * count  # -1: not placed yet
    # The labels that none of the drawing's own boxes reach cost what the plan says, unless the
    # drawing's frame grew (the key beside the map) and their places reach out of the plan's.
    same = placer.bounds == plan.bounds
    reached = [
        placer.touches(hull)
        or not (same or (_inside(hull, plan.bounds) and _inside(hull, placer.bounds)))
        for hull in plan.hulls
    ]
    settled = plan.settled
    # A place costs at least its penalty and what it covers of the base.
    floor = [
        [low + cover for low, cover in zip(lows, covers, strict=True)]
        for lows, covers in zip(lower, under, strict=True)
    ]

    def fixed(i: int, k: int) -> float:
        if not reached[i]:
            return settled[i][k]
        value = cache[i].get(k)
        if value is None:
            over = placer.cost_over_base(options[i][k][0].box)
            value = cache[i][k] = lower[i][k] + (over + under[i][k])
        return value

    def cost(i: int, k: int) -> float:
        x0, y0, x1, y1 = boxes[i][k]
        clash = 0.0
        for j in near[i]:
            m = current[j]
            if m < 0:
                break  # not placed yet, nor any after it (placed in order, listed in order)
            a0, b0, a1, b1 = boxes[j][m]
            if a0 >= x1 or a1 <= x0 or b0 >= y1 or b1 <= y0:
                continue
            w = (x1 if x1 < a1 else a1) - (x0 if x0 > a0 else a0)
            clash += w * ((y1 if y1 < b1 else b1) - (y0 if y0 > b0 else b0))
        return fixed(i, k) + LABEL_WEIGHT * clash

    hulls = [(h.x0, h.y0, h.x1, h.y1) for h in plan.hulls]

    def best(i: int) -> int:
        """`cost` for each place tried, the neighbours placed read once: only those reaching
        the label's places at all, in `near`'s order (the same sum)."""
        hx0, hy0, hx1, hy1 = hulls[i]
        placed = []
        for j in near[i]:
            m = current[j]
            if m < 0:
                break  # as in `cost`
            a = boxes[j][m]
            if not (a[0] >= hx1 or a[2] <= hx0 or a[1] >= hy1 or a[3] <= hy0):
                placed.append(a)
        chosen, least = ranked[i][0], math.inf
        low, least_possible, own = lower[i], floor[i], boxes[i]
        for k in ranked[i]:
            if low[k] >= least - 1e-9:
                break
            if least_possible[k] >= least - 1e-9:
                continue  # its penalty and what it covers of the base already cost more
            x0, y0, x1, y1 = own[k]
            clash = 0.0
            for a0, b0, a1, b1 in placed:
                if a0 >= x1 or a1 <= x0 or b0 >= y1 or b1 <= y0:
                    continue
                w = (x1 if x1 < a1 else a1) - (x0 if x0 > a0 else a0)
                clash += w * ((y1 if y1 < b1 else b1) - (y0 if y0 > b0 else b0))
            value = fixed(i, k) + LABEL_WEIGHT * clash
            if value < least - 1e-9:
                chosen, least = k, value
        return chosen

    for i in range(count):
        current[i] = best(i)
    for _ in range(REPAIR_ROUNDS if budget > 0 else 0):
        costly = [i for i in range(count) if cost(i, current[i]) > 4]
        changed = False
        for i in sorted(costly, key=lambda i: (-cost(i, current[i]), i)):
            before = cost(i, current[i])
            for k in ranked[i]:
                if lower[i][k] >= before - 1 or budget <= 0:
                    break
                if fixed(i, k) >= before - 1:
                    continue
                budget -= 1
                saved = list(current)
                delta = cost(i, k) - before
                current[i] = k
                x0, y0, x1, y1 = boxes[i][k]
                for j in near[i]:
                    a0, b0, a1, b1 = boxes[j][current[j]]
                    if min(x1, a1) > max(x0, a0) and min(y1, b1) > max(y0, b0):  # in the way
                        was = cost(j, current[j])
                        current[j] = best(j)
                        delta += cost(j, current[j]) - was
                if delta < -1e-9:
                    changed = True
                    break
                current = saved
        if not changed:
            break
    return current


def _markup(job: Job, spot: Candidate, lines: tuple[str, ...]) -> list[str]:
    box, (x, y) = spot.box, job.at
    out = []
    if spot.step > 0:
        near = (min(max(x, box.x0), box.x1), min(max(y, box.y0), box.y1))
        d = math.dist((x, y), near) or 1.0
        start = (x + (near[0] - x) * job.gap / d, y + (near[1] - y) * job.gap / d)
        out.append(line(start, near, "#8a8a8a", 0.7))
    size = job.size
    first = box.cy + size * 0.36 - (len(lines) - 1) * size * 0.55
    attrs: dict[str, Attr] = {
        "font-size": size,
        "text-anchor": "middle",
        "fill": {"sea": SEA_INK, "land": LAND_INK}.get(job.kind, INK),
        "font-style": "italic" if job.kind == "sea" else None,
        "font-weight": "bold" if job.kind == "port" else None,
        "stroke": PAPER,
        "stroke-width": 3,
        "stroke-linejoin": "round",
        "paint-order": "stroke",
    }
    if len(lines) == 1:
        out.append(el("text", {"x": box.cx, "y": first, **attrs}, text=lines[0]))
    else:
        spans = [
            el("tspan", {"x": box.cx, "y": first + i * size * 1.1}, text=t)
            for i, t in enumerate(lines)
        ]
        out.append(el("text", attrs, *spans))
    return out
