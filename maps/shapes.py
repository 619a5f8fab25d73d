"""The outline of an SVG shape as rings of points, roughly: enough to find where a province of a
campaign's own drawing is (maps/drawing.py) — its middle for the marks, its outline for the
ports and the labels — never to redraw it (the drawing's own markup is what is shown).

Read: `rect`, `circle`, `ellipse`, `polygon`, `polyline`, `line` and `path` (every command,
absolute and relative: M L H V Z, curves C S Q T sampled along their way, an arc A taken as a
straight line to its end), each under its `transform` and its groups' (matrix, translate,
scale, rotate, skewX, skewY). What cannot be read is left out, never an error: a shape with
nothing readable has no points. Plain Python, no dependency.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]  # a b c d e f, as SVG's matrix()
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
# A path's commands, each with the text of its numbers (what is before the first is no path).
_SEGMENT = re.compile(r"([MmLlHhVvCcSsQqTtAaZz])([^MmLlHhVvCcSsQqTtAaZz]*)")
_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
CURVE_STEPS = (0.25, 0.5, 0.75, 1.0)
ROUND = 16  # points on a circle's or an ellipse's outline


def numbers(text: str | None) -> list[float]:
    return [float(n) for n in NUMBER.findall(text or "")]


def length(text: str | None, default: float = 0.0) -> float:
    """An attribute's number ("12", "12px", "1e2"), else `default` (percentages included)."""
    if text is None or "%" in text:
        return default
    found = NUMBER.match(text.strip())
    return float(found.group()) if found else default


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """m then n applied after it: the matrix of `n · m` (a group's matrix is `m`'s parent's)."""
    a, b, c, d, e, f = n
    p, q, r, s, t, u = m
    return (
        a * p + c * q,
        b * p + d * q,
        a * r + c * s,
        b * r + d * s,
        a * t + c * u + e,
        b * t + d * u + f,
    )


def transform(text: str | None) -> Matrix:
    """The matrix of a `transform` attribute (its parts applied right to left, as SVG does)."""
    out = IDENTITY
    for name, raw in _TRANSFORM.findall(text or ""):
        v = numbers(raw)
        m: Matrix = IDENTITY
        if name == "matrix" and len(v) == 6:
            m = (v[0], v[1], v[2], v[3], v[4], v[5])
        elif name == "translate" and v:
            m = (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale" and v:
            m = (v[0], 0.0, 0.0, v[1] if len(v) > 1 else v[0], 0.0, 0.0)
        elif name == "rotate" and v:
            a = math.radians(v[0])
            cos, sin = math.cos(a), math.sin(a)
            cx, cy = (v[1], v[2]) if len(v) == 3 else (0.0, 0.0)
            m = (cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy)
        elif name == "skewX" and v:
            m = (1.0, 0.0, math.tan(math.radians(v[0])), 1.0, 0.0, 0.0)
        elif name == "skewY" and v:
            m = (1.0, math.tan(math.radians(v[0])), 0.0, 1.0, 0.0, 0.0)
        out = multiply(m, out)  # the later part applies first: out · m
    return out


def apply(m: Matrix, p: Point) -> Point:
    a, b, c, d, e, f = m
    return (a * p[0] + c * p[1] + e, b * p[0] + d * p[1] + f)


def path_rings(d: str | None) -> list[list[Point]]:
    """The path's subpaths as rings of points (curves sampled, arcs straight to their end)."""
    rings: list[list[Point]] = []
    ring: list[Point] = []
    x = y = 0.0
    start = (0.0, 0.0)
    last_control: Point | None = None
    for command, arguments in _SEGMENT.findall(d or ""):
        if command in "Zz":
            if ring:
                rings.append(ring)
            ring, (x, y), last_control = [], start, None
            continue
        upper, rel = command.upper(), command.islower()
        values = [float(n) for n in NUMBER.findall(arguments)]
        count = _ARGS[upper]
        for k in range(0, len(values) - count + 1, count):  # a command's numbers repeat it
            v = values[k : k + count]
            ox, oy = (x, y) if rel else (0.0, 0.0)
            control: Point | None = None
            if upper == "M":
                if ring:
                    rings.append(ring)
                x, y = ox + v[0], oy + v[1]
                start, ring = (x, y), [(x, y)]
                upper = "L"  # further pairs are lines
            elif upper in "LT":
                if upper == "T":
                    control = _reflect(last_control, (x, y))
                    ring += _quad((x, y), control, (ox + v[0], oy + v[1]))
                x, y = ox + v[0], oy + v[1]
                ring.append((x, y))
            elif upper == "H":
                x = ox + v[0]
                ring.append((x, y))
            elif upper == "V":
                y = oy + v[0]
                ring.append((x, y))
            elif upper == "C":
                c1, c2 = (ox + v[0], oy + v[1]), (ox + v[2], oy + v[3])
                end = (ox + v[4], oy + v[5])
                ring += _cubic((x, y), c1, c2, end)
                control, (x, y) = c2, end
            elif upper == "S":
                c1 = _reflect(last_control, (x, y))
                c2, end = (ox + v[0], oy + v[1]), (ox + v[2], oy + v[3])
                ring += _cubic((x, y), c1, c2, end)
                control, (x, y) = c2, end
            elif upper == "Q":
                c1, end = (ox + v[0], oy + v[1]), (ox + v[2], oy + v[3])
                ring += _quad((x, y), c1, end)
                control, (x, y) = c1, end
            elif upper == "A":
                x, y = ox + v[5], oy + v[6]
                ring.append((x, y))
            if not ring:
                ring = [(x, y)]
            last_control = control
    if ring:
        rings.append(ring)
    return [r for r in rings if r]


def _reflect(control: Point | None, here: Point) -> Point:
    if control is None:
        return here
    return (2 * here[0] - control[0], 2 * here[1] - control[1])


def _cubic(a: Point, b: Point, c: Point, d: Point) -> list[Point]:
    out = []
    for t in CURVE_STEPS:
        s = 1 - t
        out.append(
            (
                s**3 * a[0] + 3 * s * s * t * b[0] + 3 * s * t * t * c[0] + t**3 * d[0],
                s**3 * a[1] + 3 * s * s * t * b[1] + 3 * s * t * t * c[1] + t**3 * d[1],
            )
        )
    return out


def _quad(a: Point, b: Point, c: Point) -> list[Point]:
    out = []
    for t in CURVE_STEPS:
        s = 1 - t
        out.append(
            (
                s * s * a[0] + 2 * s * t * b[0] + t * t * c[0],
                s * s * a[1] + 2 * s * t * b[1] + t * t * c[1],
            )
        )
    return out


def shape_rings(tag: str, attrs: dict[str, str]) -> list[list[Point]]:
    """The outline of one shape element (its own coordinates, before any transform)."""
    if tag == "path":
        return path_rings(attrs.get("d"))
    if tag in ("polygon", "polyline"):
        v = numbers(attrs.get("points"))
        ring = [(v[i], v[i + 1]) for i in range(0, len(v) - 1, 2)]
        return [ring] if ring else []
    if tag == "rect":
        x, y = length(attrs.get("x")), length(attrs.get("y"))
        w, h = length(attrs.get("width")), length(attrs.get("height"))
        if w <= 0 or h <= 0:
            return []
        return [[(x, y), (x + w, y), (x + w, y + h), (x, y + h)]]
    if tag in ("circle", "ellipse"):
        cx, cy = length(attrs.get("cx")), length(attrs.get("cy"))
        if tag == "circle":
            rx = ry = length(attrs.get("r"))
        else:
            rx, ry = length(attrs.get("rx")), length(attrs.get("ry"))
        if rx <= 0 or ry <= 0:
            return []
        return [
            [
                (
                    cx + rx * math.cos(2 * math.pi * k / ROUND),
                    cy + ry * math.sin(2 * math.pi * k / ROUND),
                )
                for k in range(ROUND)
            ]
        ]
    if tag == "line":
        ends = [(length(attrs.get("x1")), length(attrs.get("y1")))]
        ends.append((length(attrs.get("x2")), length(attrs.get("y2"))))
        return [ends]
    return []


def inside(rings: Iterable[Sequence[Point]], p: Point) -> bool:
    """Whether `p` is inside the rings (even-odd, as a ray crossing their edges counts)."""
    x, y = p
    crossings = 0
    for ring in rings:
        n = len(ring)
        for k in range(n):
            (ax, ay), (bx, by) = ring[k], ring[(k + 1) % n]
            if (ay > y) != (by > y) and x < ax + (bx - ax) * (y - ay) / (by - ay):
                crossings += 1
    return crossings % 2 == 1


def middle(rings: Sequence[Sequence[Point]]) -> Point:
    """Where a province's marks go: its outline's area centroid when that lies inside it, else
    the middle of the widest stretch inside it across its bounding box's middle (an L or a
    crescent's centroid lies outside it), else the box's middle."""
    xs = [x for r in rings for x, _ in r]
    ys = [y for r in rings for _, y in r]
    box_middle = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    area = sx = sy = 0.0
    for ring in rings:
        n = len(ring)
        for k in range(n):
            (ax, ay), (bx, by) = ring[k], ring[(k + 1) % n]
            cross = ax * by - bx * ay
            area += cross
            sx += (ax + bx) * cross
            sy += (ay + by) * cross
    if abs(area) > 1e-9:
        centroid = (sx / (3 * area), sy / (3 * area))
        if inside(rings, centroid):
            return centroid
    y = box_middle[1]
    cuts = []
    for ring in rings:
        n = len(ring)
        for k in range(n):
            (ax, ay), (bx, by) = ring[k], ring[(k + 1) % n]
            if (ay > y) != (by > y):
                cuts.append(ax + (bx - ax) * (y - ay) / (by - ay))
    cuts.sort()
    stretches = [(cuts[i + 1] - cuts[i], cuts[i]) for i in range(0, len(cuts) - 1, 2)]
    if stretches:
        width, left = max(stretches)
        return (left + width / 2, y)
    return box_middle


def hull(points: Iterable[Point]) -> tuple[Point, ...]:
    """The convex hull, counter-clockwise on screen (as maps/regions.py's polygons are)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return tuple(pts)

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return tuple(lower[:-1] + upper[:-1])


def ray_exit(rings: Iterable[Sequence[Point]], start: Point, direction: Point) -> float | None:
    """How far from `start` along `direction` (a unit vector) the ray first crosses an edge of
    the rings: where a port on that side meets its coast. None when it crosses none."""
    (px, py), (dx, dy) = start, direction
    best: float | None = None
    for ring in rings:
        n = len(ring)
        for k in range(n):
            (ax, ay), (bx, by) = ring[k], ring[(k + 1) % n]
            ex, ey = bx - ax, by - ay
            denom = dx * ey - dy * ex
            if abs(denom) < 1e-12:
                continue
            t = ((ax - px) * ey - (ay - py) * ex) / denom
            u = ((ax - px) * dy - (ay - py) * dx) / denom
            if t > 1e-6 and 0 <= u <= 1 and (best is None or t < best):
                best = t
    return best
