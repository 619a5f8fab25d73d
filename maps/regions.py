"""The map of sea areas (issue 20 §1): each province a region, a closed convex polygon, so that
adjacency reads as shared borders.

The regions are the Voronoi diagram of the provinces' positions (`maps.geometry.measure`: the
layout's, the file's own x/y, or the default ones), clipped to the map's frame, with one change:
two provinces the world does not make adjacent never share a border. Each cell is the frame cut
by the half-plane of every near neighbour (a bisector); against a neighbour that is not adjacent
the bisector is moved toward the cell by `GAP / 2` (at most a quarter of the distance), so two
such cells keep a strip of the frame between them — drawn as a coast — and never touch. Two
adjacent provinces whose cells do not touch (the diagram put others between them) get a strait:
a connector between their nearest points. Plain Python, no dependency: the neighbours of a site
are found through a grid and widened until no farther site could cut its cell (a site farther
than twice the cell's reach cannot).

Fill points (a campaign file's `map.fill`, docs/campaign-format.md): land or open water that is
no province, so that a coast can be drawn where it is — a country's inland, the ocean off the
map's provinces. Each is a site like a province's position (a province's region stops at the
plain bisector with it), and with them the map has ground: every site's plain Voronoi cell in
its kind's colour, under the regions, so the frame is all land or sea (the strips between two
regions show what is there), and the coasts: every stretch where land meets sea that is no
drawn border.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from maps.place import by_fields

Point = tuple[float, float]
Segment = tuple[Point, Point]
GAP = 7.0  # the strip left between two regions that are not adjacent
SIDES = 12  # of the polygon that caps a region's reach
MIN_BORDER = 2.0  # a shared stretch shorter than this is no border: the pair gets a strait


@dataclass(frozen=True, slots=True)
class Regions:
    """`polygons`: each province's region, its corners in order (counter-clockwise on screen,
    the last corner joined to the first). `borders`: each adjacent pair sharing a border, with
    the shared stretch's two ends. `straits`: each adjacent pair whose regions do not touch,
    with the nearest points of the two (a connector drawn from one to the other). With fill
    points only: `ground`, each site's plain cell as (its province, or None for a fill point;
    its kind, "land" or "sea"; its corners), and `coasts`, where land meets sea in the ground
    but no border of two adjacent provinces is drawn."""

    polygons: dict[str, tuple[Point, ...]]
    borders: dict[tuple[str, str], Segment]
    straits: dict[tuple[str, str], Segment]
    ground: tuple[tuple[str | None, str, tuple[Point, ...]], ...] = ()
    coasts: tuple[Segment, ...] = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # pickled and copied as made (place.by_fields)


# A cell while it is cut: corners, and for each edge (corner k to k+1) the neighbour whose
# bisector it lies on (None: the frame).
_Cell = tuple[list[Point], list[int | None]]


def _clip(cell: _Cell, nx: float, ny: float, c: float, label: int | None) -> _Cell:
    """The cell's part where nx*x + ny*y <= c; the new edge labelled `label`."""
    pts, labels = cell
    n = len(pts)
    side = [nx * x + ny * y - c for x, y in pts]
    if max(side) <= 1e-9:
        return cell
    out: list[Point] = []
    out_labels: list[int | None] = []
    for k in range(n):
        a, b = pts[k], pts[(k + 1) % n]
        sa, sb = side[k], side[(k + 1) % n]
        if sa <= 1e-9:
            out.append(a)
            if sb <= 1e-9:
                out_labels.append(labels[k])
            else:  # leaving: the edge up to the line keeps its label, then the line's edge
                t = sa / (sa - sb)
                out_labels.append(labels[k])
                out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
                out_labels.append(label)
        elif sb <= 1e-9:  # entering
            t = sa / (sa - sb)
            out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
            out_labels.append(labels[k])
    # Drop corners that coincide (a cut through a corner).
    pts2: list[Point] = []
    labels2: list[int | None] = []
    for p, lab in zip(out, out_labels, strict=True):
        if pts2 and abs(p[0] - pts2[-1][0]) < 1e-9 and abs(p[1] - pts2[-1][1]) < 1e-9:
            labels2[-1] = lab
            continue
        pts2.append(p)
        labels2.append(lab)
    if len(pts2) > 1 and math.dist(pts2[0], pts2[-1]) < 1e-9:
        pts2.pop()
        labels2.pop()
    return pts2, labels2


def regions(
    pos: Mapping[str, Point],
    adjacent: Iterable[tuple[str, str]],
    frame: tuple[float, float, float, float],
    reach: Mapping[str, float] | None = None,
    fill: Sequence[tuple[str, Point]] = (),
    kinds: Mapping[str, str] | None = None,
    weight: Mapping[str, float] | None = None,
) -> Regions:
    """The regions of the provinces at `pos` inside `frame` (x0, y0, x1, y1), given which pairs
    are adjacent. Every province gets one non-empty convex polygon holding its position.

    `reach`: how far at most a province's region goes from its position (a regular polygon of
    `SIDES` sides round it, circumscribing that circle), so that a province at the edge of the
    world, or far from its neighbours, is not drawn to the frame's corner: what no region
    covers is left as the map's background (open water beyond the map, or nothing).

    `fill`: (kind, point) sites that are no province (see the module's notes); `kinds` gives
    each province's kind ("land" or "sea") for the ground and the coasts. `weight`: a
    province's weight in a power diagram (a fill point's is 0): its region reaches that much
    farther, the bisector with a site j moved by (w_i - w_j) / 2d away from it (maps.geometry
    gives a province its room up to the fill points round it; at most 0.4 d² more than a
    neighbour's, so that every region still holds its position)."""
    ids = sorted(pos)
    pts = [pos[i] for i in ids] + [p for _, p in fill]
    provinces = len(ids)
    wts = [float((weight or {}).get(pid, 0.0)) for pid in ids] + [0.0] * len(fill)
    index = {pid: n for n, pid in enumerate(ids)}
    adj: set[tuple[int, int]] = set()
    for a, b in adjacent:
        if a in index and b in index and a != b:
            i, j = index[a], index[b]
            adj.add((i, j) if i < j else (j, i))
    x0, y0, x1, y1 = frame
    count = len(pts)
    if provinces == 0:
        return Regions({}, {}, {})
    size = max(1.0, math.sqrt((x1 - x0) * (y1 - y0) / count))
    grid: dict[tuple[int, int], list[int]] = {}
    for n, (x, y) in enumerate(pts):
        grid.setdefault((math.floor(x / size), math.floor(y / size)), []).append(n)
    whole: _Cell = ([(x0, y0), (x0, y1), (x1, y1), (x1, y0)], [None, None, None, None])
    # The provinces heaviest first: a site looks past its grid squares only at those heavier
    # than itself (_site_cell), a prefix of this list, instead of at every province.
    heaviest = sorted(range(provinces), key=lambda j: (-wts[j], j))
    cells = [
        _site_cell(
            i,
            _cap(frame, *pts[i], reach[ids[i]]) if reach is not None and ids[i] in reach else whole,
            pts,
            wts,
            grid,
            size,
            adj,
            provinces,
            heaviest,
        )
        for i in range(provinces)
    ]
    out = _finish(ids, pts, cells, adj)
    if not fill:
        return out
    kind_of = [str((kinds or {}).get(pid, "sea")) for pid in ids] + [k for k, _ in fill]
    plain = [
        _site_cell(i, whole, pts, wts, grid, size, None, provinces, heaviest) for i in range(count)
    ]
    ground = tuple(
        (ids[i] if i < provinces else None, kind_of[i], _rounded(plain[i][0]))
        for i in range(count)
        if len(plain[i][0]) >= 3
    )
    coasts: list[Segment] = []
    for i, (corners, labels) in enumerate(plain):
        for k, other in enumerate(labels):
            if other is None or other < i or kind_of[i] == kind_of[other] or (i, other) in adj:
                continue
            start, end = corners[k], corners[(k + 1) % len(corners)]
            if math.dist(start, end) >= MIN_BORDER:
                coasts.append((_rounded([start])[0], _rounded([end])[0]))
    return Regions(out.polygons, out.borders, out.straits, ground, tuple(coasts))


def _rounded(corners: Iterable[Point]) -> tuple[Point, ...]:
    return tuple((round(x, 2), round(y, 2)) for x, y in corners)


def _site_cell(
    i: int,
    cell: _Cell,
    pts: list[Point],
    wts: list[float],
    grid: Mapping[tuple[int, int], list[int]],
    size: float,
    adj: set[tuple[int, int]] | None,
    provinces: int,
    heaviest: Sequence[int],
) -> _Cell:
    """Site i's cell: `cell` cut by every site near enough to cut it. With `adj`, a province's
    region (the bisector moved off a province not adjacent; a fill point's, the plain one);
    with None, the plain Voronoi cell. `heaviest`: the provinces, heaviest first."""
    px, py = pts[i]
    count = len(pts)
    gx, gy = math.floor(px / size), math.floor(py / size)
    seen = {i}
    ring = 0
    far = _reach(pts[i], cell)
    while True:
        found: list[tuple[float, int]] = []
        for cx, cy in grid_ring(gx, gy, ring):
            for j in grid.get((cx, cy), ()):
                if j not in seen:
                    found.append((math.dist(pts[i], pts[j]), j))
        for d, j in sorted(found):
            seen.add(j)
            plain = adj is None or j >= provinces
            cell, far = _cut_near(cell, far, i, j, d, pts, None if plain else adj, wts[i] - wts[j])
        if not cell[0]:
            return cell  # cut away whole (weights out of measure's bounds): nothing to draw
        # A site beyond the squares covered is at least ring * size away; a bisector (moved
        # by at most GAP / 2) that far off cannot cut a cell reaching no farther — a site no
        # heavier than this one's (weighed ones are the provinces': below).
        if len(seen) >= count or ring * size > 2 * far + GAP:
            break
        ring += 1
    # A heavier province's bisector is moved toward this site: it cuts while
    # d² - 2 d far - (w_j - w_i) < 0, nearer than d = far + sqrt(far² + w_j - w_i).
    # Taken in index order, as they were when every province was looked at.
    heavier = []
    for j in heaviest:
        if wts[j] <= wts[i]:
            break
        heavier.append(j)
    for j in sorted(heavier):
        if j in seen or not cell[0]:
            continue
        d = math.dist(pts[i], pts[j])
        if d < far + math.sqrt(far * far + wts[j] - wts[i]) + GAP:
            cell = _cut(cell, i, j, d, pts, adj, wts[i] - wts[j])
            far = _reach(pts[i], cell)
    return cell


def _reach(site: Point, cell: _Cell) -> float:
    """How far the cell's farthest corner is from its site (0 for a cell cut away)."""
    return max((math.dist(site, p) for p in cell[0]), default=0.0)


def _cut_near(
    cell: _Cell,
    far: float,
    i: int,
    j: int,
    d: float,
    pts: list[Point],
    adj: set[tuple[int, int]] | None,
    heavier: float,
) -> tuple[_Cell, float]:
    """`_cut`, and the cell's new reach, skipping a bisector that passes beyond the cell's
    farthest corner: it would leave the cell as it is (every corner well inside its half-plane,
    the margin far above rounding), so the cell is the same, unmeasured."""
    if d >= 1e-9:
        shift = heavier / (2 * d)
        if adj is not None and ((i, j) if i < j else (j, i)) not in adj:
            shift -= min(GAP / 2, d / 4)
        if d / 2 + shift > far + 1e-6:
            return cell, far
    cut = _cut(cell, i, j, d, pts, adj, heavier)
    return (cell, far) if cut is cell else (cut, _reach(pts[i], cut))


def _cap(frame: tuple[float, float, float, float], px: float, py: float, r: float) -> _Cell:
    """The regular polygon of `SIDES` sides circumscribing the circle of radius `r` round
    (px, py), cut to the frame; its edges are the frame's (no neighbour)."""
    out = r / math.cos(math.pi / SIDES)
    corners = [
        (
            px + out * math.cos(-2 * math.pi * k / SIDES),
            py + out * math.sin(-2 * math.pi * k / SIDES),
        )
        for k in range(SIDES)
    ]
    cell: _Cell = (corners, [None] * SIDES)
    x0, y0, x1, y1 = frame
    for nx, ny, c in ((-1.0, 0.0, -x0), (0.0, -1.0, -y0), (1.0, 0.0, x1), (0.0, 1.0, y1)):
        cell = _clip(cell, nx, ny, c, None)
    return cell


def grid_ring(gx: int, gy: int, ring: int) -> list[tuple[int, int]]:
    """The grid squares at exactly `ring` squares from (gx, gy)."""
    if ring == 0:
        return [(gx, gy)]
    out = [(x, y) for x in range(gx - ring, gx + ring + 1) for y in (gy - ring, gy + ring)]
    out += [(x, y) for y in range(gy - ring + 1, gy + ring) for x in (gx - ring, gx + ring)]
    return out


def _cut(
    cell: _Cell,
    i: int,
    j: int,
    d: float,
    pts: list[Point],
    adj: set[tuple[int, int]] | None,
    heavier: float = 0.0,
) -> _Cell:
    """The cell of site i cut by the bisector with site j, moved by the weights (`heavier`:
    w_i - w_j, a power diagram's); with `adj` and j a province not adjacent to i, moved toward
    i by the gap too (None: no gap)."""
    (ax, ay), (bx, by) = pts[i], pts[j]
    if d < 1e-9:  # the same place: split it by id, i left of j
        nx, ny, c = (1.0, 0.0, ax) if i < j else (-1.0, 0.0, -ax)
        return _clip(cell, nx, ny, c, j)
    nx, ny = (bx - ax) / d, (by - ay) / d
    c = nx * (ax + bx) / 2 + ny * (ay + by) / 2 + heavier / (2 * d)
    if adj is not None and ((i, j) if i < j else (j, i)) not in adj:
        c -= min(GAP / 2, d / 4)
    return _clip(cell, nx, ny, c, j)


def _overlap(a: tuple[Point, Point], b: tuple[Point, Point]) -> tuple[Point, Point] | None:
    """The common stretch of two segments on one line, or None."""
    (p, q), (r, s) = a, b
    length = math.dist(p, q)
    if length < 1e-9:
        return None
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length

    def at(pt: Point) -> float:
        return (pt[0] - p[0]) * ux + (pt[1] - p[1]) * uy

    lo = max(0.0, min(at(r), at(s)))
    hi = min(length, max(at(r), at(s)))
    if hi - lo < MIN_BORDER:
        return None
    return (p[0] + ux * lo, p[1] + uy * lo), (p[0] + ux * hi, p[1] + uy * hi)


def _edge_to(cell: _Cell, j: int) -> tuple[Point, Point] | None:
    pts, labels = cell
    for k, lab in enumerate(labels):
        if lab == j:
            return pts[k], pts[(k + 1) % len(pts)]
    return None


def contains(poly: tuple[Point, ...], p: Point) -> bool:
    """Whether `p` lies in the convex polygon (its corners counter-clockwise on screen, as
    `regions` gives them; on an edge counts as in)."""
    n = len(poly)
    if n < 3:
        return False
    px, py = p
    side = 0  # the sign of the first corner not on the point's line: every other must match
    ax, ay = poly[-1]
    for bx, by in poly:
        cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        if cross > 1e-9:
            if side < 0:
                return False
            side = 1
        elif cross < -1e-9:
            if side > 0:
                return False
            side = -1
        ax, ay = bx, by
    return True


def nearest_points(a: tuple[Point, ...], b: tuple[Point, ...]) -> tuple[Point, Point]:
    """The nearest points of two convex polygons that do not overlap (corner to edge): of the
    nearest pairs, the first in the order `a`'s corners to `b`'s edges, then `b`'s corners to
    `a`'s edges (each corner in order, each edge in order)."""
    dist = math.dist
    # The nearest of a's corners to b's first corner: no nearer than the nearest points, a
    # bound to start from.
    best = min([dist(p, b[0]) for p in a])
    found: tuple[Point, Point] | None = None
    rank = (2, 0, 0)  # where the pair found comes in the order above
    for side, poly, other in ((0, a, b), (1, b, a)):
        n = len(other)
        xs = [x for x, _ in other]
        ys = [y for _, y in other]
        left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
        # No point of `other` is nearer to a corner than its bounding box: the corners are
        # measured nearest box first, until one is farther than the best found (the margin
        # covers rounding: a corner skipped cannot even tie).
        bounds = []
        for m, (px, py) in enumerate(poly):
            gx = left - px if px < left else px - right if px > right else 0.0
            gy = top - py if py < top else py - bottom if py > bottom else 0.0
            bounds.append((gx * gx + gy * gy, m))
        bounds.sort()
        edges = None
        for low, m in bounds:
            if math.sqrt(low) > best * (1 + 1e-9) + 1e-9:
                break
            if edges is None:
                edges = []
                for k in range(n):
                    ax, ay = other[k]
                    bx, by = other[(k + 1) % n]
                    dx, dy = bx - ax, by - ay
                    edges.append((ax, ay, dx, dy, dx * dx + dy * dy))
            p = poly[m]
            px, py = p
            for k, (ax, ay, dx, dy, length2) in enumerate(edges):
                if length2 < 1e-12:
                    q = (ax, ay)
                else:
                    t = ((px - ax) * dx + (py - ay) * dy) / length2
                    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
                    q = (ax + dx * t, ay + dy * t)
                d = dist(p, q)
                if d < best or (d == best and (found is None or (side, m, k) < rank)):
                    best, rank = d, (side, m, k)
                    found = (q, p) if side else (p, q)
    assert found is not None
    return found


def _finish(
    ids: list[str], pts: list[Point], cells: list[_Cell], adj: set[tuple[int, int]]
) -> Regions:
    polygons = {
        pid: tuple((round(x, 2), round(y, 2)) for x, y in cells[n][0]) for n, pid in enumerate(ids)
    }
    borders: dict[tuple[str, str], tuple[Point, Point]] = {}
    straits: dict[tuple[str, str], tuple[Point, Point]] = {}
    for i, j in sorted(adj):
        a, b = _edge_to(cells[i], j), _edge_to(cells[j], i)
        common = _overlap(a, b) if a is not None and b is not None else None
        key = (ids[i], ids[j])
        if common is not None:
            borders[key] = common
        else:
            straits[key] = nearest_points(polygons[ids[i]], polygons[ids[j]])
    return Regions(polygons, borders, straits)
