"""Geometry for the map: boxes, estimated text widths and a greedy placer that puts labels and
badges where they overlap least with what is already drawn (deterministic: ties go to the first
candidate)."""

from __future__ import annotations

import dataclasses
import math
import unicodedata
from collections.abc import MutableSequence, Sequence
from typing import Any, Final

# Advance widths of a Helvetica/Arial-like sans serif, in thousandths of the font size.
_WIDTHS = {
    **dict.fromkeys("ijl'|", 222),
    **dict.fromkeys(" .,:;!ftI/[]", 278),
    **dict.fromkeys("r()-", 333),
    **dict.fromkeys("ckvxyzsJ", 500),
    **dict.fromkeys("abdeghnopqu0123456789–L_#$?", 556),
    **dict.fromkeys("FTZ", 611),
    **dict.fromkeys("ABEKPSVXY&", 667),
    **dict.fromkeys("CDHNRUw", 722),
    **dict.fromkeys("GOQ", 778),
    **dict.fromkeys("mM", 833),
    **dict.fromkeys("W%", 944),
}


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """An estimate of the text's width in drawing units (letters with accents count as their
    base letter; anything unknown as a digit)."""
    total = 0
    for char in text:
        base = unicodedata.normalize("NFD", char)[:1] or char
        total += _WIDTHS.get(base, 556)
    return total * size / 1000 * (1.08 if bold else 1.0)


def by_fields(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    """How a frozen dataclass of the map is pickled and copied (its `__reduce__`): made again by
    its constructor from its fields. The compiled build (tools/compile_engine.py) makes each
    class a C type, whose default way — make the object, then set each field — a frozen class
    refuses; the map's parts are pickled into the cache (maps/map_cache.py) and copied."""
    return type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))


class Box:
    """An axis-aligned rectangle, immutable (its corners are Final), equal to and hashed as
    another of the same corners.

    A plain class where the map's other values are frozen dataclasses: a drawing of a large
    world makes some 70,000 boxes, and the compiled build (tools/compile_engine.py) makes a
    plain class's object ten times as fast as a frozen dataclass's, whose fields it sets one
    by one through `object.__setattr__`."""

    __slots__ = ("x0", "x1", "y0", "y1")

    def __init__(self, x0: float, y0: float, x1: float, y1: float) -> None:
        self.x0: Final = x0
        self.y0: Final = y0
        self.x1: Final = x1
        self.y1: Final = y1

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Box):
            return NotImplemented
        return (self.x0, self.y0, self.x1, self.y1) == (other.x0, other.y0, other.x1, other.y1)

    def __hash__(self) -> int:
        return hash((self.x0, self.y0, self.x1, self.y1))

    def __repr__(self) -> str:
        return f"Box(x0={self.x0!r}, y0={self.y0!r}, x1={self.x1!r}, y1={self.y1!r})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Box, (self.x0, self.y0, self.x1, self.y1)

    @classmethod
    def around(cls, cx: float, cy: float, width: float, height: float) -> Box:
        return cls(cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def area(self) -> float:
        return (self.x1 - self.x0) * (self.y1 - self.y0)

    def overlap(self, other: Box) -> float:
        w = min(self.x1, other.x1) - max(self.x0, other.x0)
        h = min(self.y1, other.y1) - max(self.y0, other.y0)
        return w * h if w > 0 and h > 0 else 0.0

    def grow(self, by: float) -> Box:
        return Box(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    def union(self, other: Box) -> Box:
        return Box(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
        )


# A box as the placer keeps it: (x0, y0, x1, y1, weight, handle); and its grid of them, by
# column, then row (two lookups of an int rather than one of a tuple made for it).
_Item = tuple[float, float, float, float, float, int]
_Grid = dict[int, dict[int, list[_Item]]]


def _placer(
    bounds: Box,
    base: Placer | None,
    grid: _Grid,
    dropped: set[int],
    count: int,
) -> Placer:
    placer = Placer(bounds, base)
    placer._grid, placer._dropped, placer._count = grid, dropped, count
    return placer


def circle_box(cx: float, cy: float, r: float) -> Box:
    """The square a circle mostly fills (its overlap stands for the circle's)."""
    return Box.around(cx, cy, 1.7 * r, 1.7 * r)


class Placer:
    """What is drawn so far, as weighted boxes in a grid of cells; `choose` picks and takes the
    candidate that covers the least of it (plus the candidate's own penalty). `base`: a placer
    of what every drawing of the same world has (the provinces and ports), counted under this
    one's boxes and never changed by it; a caller can keep it, and what labels cost over it,
    between drawings (maps/svg.py `kept`)."""

    CELL = 32.0

    def __init__(self, bounds: Box, base: Placer | None = None) -> None:
        self.bounds = bounds
        self.base = base
        # Per cell (column, then row): every box reaching into it.
        self._grid: _Grid = {}
        self._dropped: set[int] = set()
        self._count = 0

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled and copied as made, then filled (the compiled build's classes: by_fields).
        return _placer, (self.bounds, self.base, self._grid, self._dropped, self._count)

    def take(self, box: Box, weight: float = 1.0) -> int:
        """Record a box; the number returned can `drop` it again."""
        handle = self._count
        self._count += 1
        item = (box.x0, box.y0, box.x1, box.y1, weight, handle)
        c = self.CELL
        rows = range(math.floor(box.y0 / c), math.floor(box.y1 / c) + 1)
        for i in range(math.floor(box.x0 / c), math.floor(box.x1 / c) + 1):
            column = self._grid.setdefault(i, {})
            for j in rows:
                column.setdefault(j, []).append(item)
        return handle

    def drop(self, handle: int) -> None:
        self._dropped.add(handle)

    def cost(self, box: Box) -> float:
        """How much of what is drawn the box would cover (weighted), and of the outside."""
        return self.cost_over_base(box) + (self.base.covered(box) if self.base else 0.0)

    def cost_over_base(self, box: Box) -> float:
        """`cost` less what the base's boxes add (the caller has that already)."""
        return 6 * (box.area - box.overlap(self.bounds)) + self.covered(box)

    def covered(self, box: Box) -> float:
        """How much of this placer's own boxes the box would cover (weighted)."""
        total = 0.0
        c, grid, dropped = self.CELL, self._grid, self._dropped
        bx0, by0, bx1, by1 = box.x0, box.y0, box.x1, box.y1
        rows = range(math.floor(by0 / c), math.floor(by1 / c) + 1)
        for i in range(math.floor(bx0 / c), math.floor(bx1 / c) + 1):
            column = grid.get(i)
            if column is None:
                continue
            cx0 = i * c
            cx1 = cx0 + c
            for j in rows:
                items = column.get(j)
                if not items:
                    continue
                cy0 = j * c
                cy1 = cy0 + c
                for x0, y0, x1, y1, weight, handle in items:
                    ox0 = x0 if x0 > bx0 else bx0
                    # Count each overlap once: in the cell holding its top left corner.
                    if ox0 < cx0 or ox0 >= cx1:
                        continue
                    ox1 = x1 if x1 < bx1 else bx1
                    if ox1 <= ox0:
                        continue
                    oy0 = y0 if y0 > by0 else by0
                    if oy0 < cy0 or oy0 >= cy1:
                        continue
                    oy1 = y1 if y1 < by1 else by1
                    if oy1 <= oy0:
                        continue
                    if not dropped or handle not in dropped:
                        total += (ox1 - ox0) * (oy1 - oy0) * weight
        return total

    def touches(self, box: Box) -> bool:
        """Whether any of this placer's own boxes overlaps the box (whatever its weight)."""
        c, grid, dropped = self.CELL, self._grid, self._dropped
        bx0, by0, bx1, by1 = box.x0, box.y0, box.x1, box.y1
        rows = range(math.floor(by0 / c), math.floor(by1 / c) + 1)
        for i in range(math.floor(bx0 / c), math.floor(bx1 / c) + 1):
            column = grid.get(i)
            if column is None:
                continue
            for j in rows:
                for x0, y0, x1, y1, _, handle in column.get(j, ()):
                    if (
                        (x1 if x1 < bx1 else bx1) > (x0 if x0 > bx0 else bx0)
                        and (y1 if y1 < by1 else by1) > (y0 if y0 > by0 else by0)
                        and handle not in dropped
                    ):
                        return True
        return False

    def choose(
        self,
        candidates: Sequence[Candidate],
        weight: float = 1.0,
        under: MutableSequence[float | None] | None = None,
    ) -> Candidate:
        """The best candidate, taken with the weight: the least cost, ties going to the least
        penalty, then the earliest. A cost is at least the penalty, so candidates are tried by
        penalty and the search stops once no penalty left can beat the best cost found.
        `under`: what each candidate covers of the base, kept by the caller (None where not
        measured yet: measured when needed, and written there); a candidate is then measured
        only if that and its penalty could beat the best."""
        best, best_cost = candidates[0], math.inf
        order = sorted(range(len(candidates)), key=lambda k: candidates[k].penalty)  # stable
        for k in order:
            candidate = candidates[k]
            if candidate.penalty >= best_cost - 1e-9:
                break
            if under is None:
                cost = self.cost(candidate.box) + candidate.penalty
                if cost < best_cost - 1e-9:
                    best, best_cost = candidate, cost
                continue
            below = under[k]
            if below is None:  # not measured yet: measured now, and kept in `under`
                below = under[k] = self.base.covered(candidate.box) if self.base else 0.0
            if below + candidate.penalty >= best_cost - 1e-9:
                continue
            cost = self.cost_over_base(candidate.box) + below + candidate.penalty
            if cost < best_cost - 1e-9:
                best, best_cost = candidate, cost
        self.take(best.box, weight)
        return best


# Directions tried around an anchor, in order of preference: right, upper right, lower right,
# left, ... (a label reads best to the right of its place).
DIRECTIONS = tuple(
    (math.cos(math.radians(a)), math.sin(math.radians(a)))
    for a in (
        0,
        -45,
        45,
        180,
        -135,
        135,
        -90,
        90,
        -22.5,
        22.5,
        -157.5,
        157.5,
        -67.5,
        67.5,
        -112.5,
        112.5,
    )
)


class Candidate:
    """A place for a label or badge: its box, its penalty, and how far out it is (`step` 0:
    touching the anchor; more: further out, worth a leader line). A plain class, as `Box` is:
    a large world's names have some 17,000 places."""

    __slots__ = ("box", "penalty", "step")

    def __init__(self, box: Box, penalty: float, step: int) -> None:
        self.box: Final = box
        self.penalty: Final = penalty
        self.step: Final = step

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Candidate):
            return NotImplemented
        return (self.box, self.penalty, self.step) == (other.box, other.penalty, other.step)

    def __hash__(self) -> int:
        return hash((self.box, self.penalty, self.step))

    def __repr__(self) -> str:
        return f"Candidate(box={self.box!r}, penalty={self.penalty!r}, step={self.step!r})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Candidate, (self.box, self.penalty, self.step)


def ring(
    cx: float,
    cy: float,
    gap: float,
    width: float,
    height: float,
    *,
    steps: int = 3,
    prefer: tuple[float, float] | None = None,
) -> list[Candidate]:
    """Boxes of the given size around a point, their near edge `gap` away from it, then further
    out. With `prefer`, a unit direction, the directions closest to it come first."""
    out: list[Candidate] = []
    half_w, half_h = width / 2, height / 2
    for step in range(steps):
        reach = gap + step * max(height, 12)
        for n, (dx, dy) in enumerate(DIRECTIONS):
            # The box's near edge (not its centre) at `reach` along the direction.
            bx = cx + dx * reach + (half_w if dx > 0.3 else -half_w if dx < -0.3 else 0)
            by = cy + dy * reach + (half_h if dy > 0.3 else -half_h if dy < -0.3 else 0)
            if prefer is None:
                penalty = 0.4 * n
            else:
                penalty = 12 * (1 - dx * prefer[0] - dy * prefer[1]) + 0.01 * n
            # Box.around(bx, by, width, height), written out: a name has 16 to 48 places.
            box = Box(bx - half_w, by - half_h, bx + half_w, by + half_h)
            out.append(Candidate(box, penalty + 60 * step, step))
    return out
