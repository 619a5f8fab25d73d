"""A campaign's own drawing of its map (issue 20 §1): an SVG with one shape per province id, the
look of a hand-drawn variant map, read and checked here before it is kept, and made safe to
show to players (docs/rulings.md R-76–R-79).

`drawing_read(text)` reads the SVG (defusedxml: no entities, no external references), refuses
what may not be shown to a player — `<script>`, `<foreignObject>`, event handler attributes
(`onclick` …), references outside the drawing (`href`, `url(…)` to anything but its own `#id`),
and elements other than shapes, groups, text and paints — and keeps only what it knows: every
element and attribute it does not (Inkscape's, metadata, classes, `data-` attributes) is left
out of what is drawn. `drawing_problems(drawing, provinces)` checks it against a world: every
province drawn once, no shape for an id the world does not have. Each problem has a stable code
and words for the moderator who made the file (naming the ids is fine: they are the file's own).

A *province shape* is a `path`, `polygon`, `rect`, `circle`, `ellipse` or `g` with an `id`,
outside `defs` and the like (R-77). A `g` with an id that holds shapes with ids of their own is a
layer (Inkscape's `layer1`): its id is not read. A province's `g` holds its parts, without ids.

The drawing's coordinates are scaled to the map's frame, 1000 units wide (its `viewBox`, else
its `width` and `height`): the marks — fleets, ports, names, arrows — keep their size whatever
the drawing's. Where a province's marks go is its outline's middle (`maps.shapes.middle`), or the
shape's own `data-x`, `data-y` (in the drawing's coordinates) when it has them (R-78).
Pure: no Django.
"""

from __future__ import annotations

import functools
import hashlib
import re
import xml.etree.ElementTree as ET
from collections.abc import Collection
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

import defusedxml
import defusedxml.ElementTree as SafeET

from maps.marks import clean
from maps.shapes import (
    IDENTITY,
    Matrix,
    Point,
    apply,
    length,
    middle,
    multiply,
    numbers,
    shape_rings,
    transform,
)

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
MAX_BYTES = 2_000_000
MAX_DEPTH = 64
MAX_LISTED = 40  # problems listed; past them, one that counts the rest
WIDTH = 1000.0  # the drawing's width on the map's frame
PREFIX = "own-svg-"  # before every id kept: none meets the page's own (a fleet's card, say)

PROVINCE_SHAPES = frozenset({"path", "polygon", "rect", "circle", "ellipse", "g"})
# Drawn, and read for nothing else (their ids are not provinces).
ELEMENTS = PROVINCE_SHAPES | {
    "svg",
    "line",
    "polyline",
    "text",
    "tspan",
    "defs",
    "linearGradient",
    "radialGradient",
    "stop",
    "pattern",
    "clipPath",
    "mask",
    "use",
    "symbol",
    "marker",
}
NOT_DRAWN = frozenset({"defs", "clipPath", "mask", "pattern", "symbol", "marker"})
LEFT_OUT = frozenset({"metadata", "title", "desc"})  # read past: the map has its own titles
REFUSED = {
    "script": ("svg_script", "a <script> is not taken: the drawing is shown to players"),
    "foreignObject": (
        "svg_foreign_object",
        "a <foreignObject> is not taken: the drawing is shown to players",
    ),
}
PAINT = frozenset(
    {
        "fill",
        "fill-opacity",
        "fill-rule",
        "stroke",
        "stroke-width",
        "stroke-opacity",
        "stroke-dasharray",
        "stroke-dashoffset",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-miterlimit",
        "opacity",
        "style",
        "paint-order",
        "color",
        "filter",
    }
)
ATTRIBUTES = PAINT | {
    "transform",
    "d",
    "points",
    "x",
    "y",
    "width",
    "height",
    "rx",
    "ry",
    "cx",
    "cy",
    "r",
    "x1",
    "y1",
    "x2",
    "y2",
    "fx",
    "fy",
    "offset",
    "stop-color",
    "stop-opacity",
    "gradientUnits",
    "gradientTransform",
    "spreadMethod",
    "patternUnits",
    "patternContentUnits",
    "patternTransform",
    "viewBox",
    "preserveAspectRatio",
    "clip-path",
    "clip-rule",
    "mask",
    "clipPathUnits",
    "maskUnits",
    "maskContentUnits",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "dominant-baseline",
    "letter-spacing",
    "dx",
    "dy",
    "rotate",
    "visibility",
    "display",
    "href",
    "vector-effect",
    "marker-start",
    "marker-mid",
    "marker-end",
    "markerWidth",
    "markerHeight",
    "refX",
    "refY",
    "orient",
    "markerUnits",
    "shape-rendering",
}
# A style declaration is kept when its property is a paint or text one and its value plain.
STYLE_PROPERTIES = (PAINT - {"style", "filter"}) | {
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "stop-color",
    "stop-opacity",
    "display",
    "visibility",
}
_PLAIN_STYLE = re.compile(r"[#\w\s.,%'\"()+-]*")
_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE | re.DOTALL)
_SCRIPTED = re.compile(r"j\s*a\s*v\s*a\s*s\s*c\s*r\s*i\s*p\s*t\s*:|expression\s*\(", re.I)
_UNSAFE_ID = re.compile(r"[^A-Za-z0-9_.-]")
_QUOTES = {'"': "&quot;", "\n": "&#10;", "\t": "&#9;", "\r": "&#13;"}


@dataclass(frozen=True, slots=True)
class DrawingProblem:
    code: str  # stable, for tests and the moderator's eye
    message: str  # words, naming the file's own ids where it helps


class DrawingRefused(ValueError):
    """The drawing cannot be taken at all (not SVG, unsafe, too large): every problem found."""

    def __init__(self, problems: list[DrawingProblem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Shape:
    """A province's shape: its markup as kept (and as a plain copy for the fog's shade), its
    outline on the map's frame, and where its marks go."""

    markup: str
    shade: str
    rings: tuple[tuple[Point, ...], ...]
    middle: Point | None  # None: nothing readable was drawn


@dataclass(frozen=True, eq=False)
class Drawing:
    """A read drawing, its problems against a world still to be checked (`drawing_problems`).
    `parts`: the markup in order, a province's place as its id alone (`slots`)."""

    digest: str
    width: float  # on the map's frame: WIDTH
    height: float
    scale: float  # map units per drawing unit
    opening: str  # the drawing's group, with its matrix and the root's own paints
    parts: tuple[str, ...]
    slots: frozenset[int]  # the indexes of `parts` that are province ids
    shapes: dict[str, Shape] = field(default_factory=dict)
    twice: tuple[str, ...] = ()  # ids of more than one province shape
    layered: tuple[str, ...] = ()  # layers' ids, for a clearer word when one is a province's


@dataclass(slots=True)
class _Reading:
    problems: list[DrawingProblem] = field(default_factory=list)
    refused_tags: set[str] = field(default_factory=set)
    parts: list[str] = field(default_factory=list)
    slots: set[int] = field(default_factory=set)
    shapes: dict[str, Shape] = field(default_factory=dict)
    twice: list[str] = field(default_factory=list)
    layered: list[str] = field(default_factory=list)
    ns: str = SVG_NS
    frame: Matrix = IDENTITY  # the drawing's coordinates onto the map's frame

    def refuse(self, code: str, message: str) -> None:
        if DrawingProblem(code, message) not in self.problems:
            self.problems.append(DrawingProblem(code, message))


def drawing_read(text: object) -> Drawing:
    """The drawing read and made safe; `DrawingRefused` with every problem when it cannot be
    taken (R-76, R-79). The same text is read once per process (`_read`)."""
    if not isinstance(text, str):
        raise DrawingRefused([DrawingProblem("svg_not_text", "the drawing must be SVG text")])
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise DrawingRefused(
            [
                DrawingProblem(
                    "svg_too_large",
                    f"the drawing is {size:,} bytes; at most {MAX_BYTES:,} (2 MB) is taken",
                )
            ]
        )
    return _read(text)


@functools.lru_cache(maxsize=8)
def _read(text: str) -> Drawing:
    try:
        root = SafeET.fromstring(text.lstrip("\ufeff"))
    except defusedxml.DTDForbidden:
        raise _refused("svg_entities", "the drawing may not have a DOCTYPE") from None
    except defusedxml.EntitiesForbidden:
        raise _refused(
            "svg_entities", "the drawing may not declare entities (<!ENTITY …>)"
        ) from None
    except defusedxml.ExternalReferenceForbidden:
        raise _refused(
            "svg_external_ref", "the drawing may not refer to anything outside it"
        ) from None
    except ET.ParseError as error:
        line, column = getattr(error, "position", (0, 0))
        reason = str(error).split(":")[0]
        raise _refused(
            "svg_not_xml",
            f"the drawing is not well-formed XML: {reason} (line {line}, column {column + 1})",
        ) from None
    except (ValueError, UnicodeError) as error:
        raise _refused("svg_not_xml", f"the drawing is not well-formed XML ({error})") from None
    ns, tag = _name(root.tag)
    if tag != "svg" or ns not in (SVG_NS, ""):
        shown = f"<{tag}>" if not ns else f"<{tag}> (of {ns})"
        raise _refused(
            "svg_not_svg",
            f"the drawing is not an SVG: its outermost element is {shown}, not <svg> "
            f'(xmlns="{SVG_NS}")',
        )
    box = _view_box(root.attrib)
    if box is None:
        raise _refused(
            "svg_no_size",
            "the drawing has no size: give its <svg> a viewBox (or a width and a height)",
        )
    vx, vy, vw, vh = box
    scale = WIDTH / vw
    frame: Matrix = (scale, 0.0, 0.0, scale, -vx * scale, -vy * scale)
    reading = _Reading(ns=ns, frame=frame)
    own = _attributes(root, "svg", reading, paint=True)
    own = {k: v for k, v in own.items() if k in PAINT}
    matrix_text = "matrix(" + " ".join(f"{v:.6g}" for v in frame) + ")"
    opening = _open("g", {"class": "own-drawing", "transform": matrix_text, **own})
    for child in root:
        _walk(child, frame, 1, reading, in_province=False, drawn=True)
    if reading.problems:
        raise DrawingRefused(_capped(reading.problems))
    parts: list[str] = []
    slots: set[int] = set()
    for n, part in enumerate(reading.parts):
        if n in reading.slots:
            slots.add(len(parts))
            parts.append(part)
        elif parts and len(parts) - 1 not in slots:
            parts[-1] += part
        else:
            parts.append(part)
    return Drawing(
        digest=hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        width=WIDTH,
        height=vh * scale,
        scale=scale,
        opening=opening,
        parts=tuple(parts),
        slots=frozenset(slots),
        shapes=reading.shapes,
        twice=tuple(dict.fromkeys(reading.twice)),
        layered=tuple(reading.layered),
    )


def drawing_problems(drawing: Drawing, provinces: Collection[str]) -> list[DrawingProblem]:
    """The drawing against a world's provinces (R-77): every province drawn, once, and nothing
    drawn with an id the world does not know. Empty when the drawing fits."""
    known = set(provinces)
    problems: list[DrawingProblem] = []
    for pid, shape in drawing.shapes.items():
        if pid not in known:
            problems.append(
                DrawingProblem("svg_unknown_province", f"{pid!r} is not a province of this world")
            )
        elif shape.middle is None:
            problems.append(
                DrawingProblem("svg_empty_shape", f"the shape of {pid!r} draws nothing")
            )
    for pid in drawing.twice:
        if pid in known:
            problems.append(DrawingProblem("svg_drawn_twice", f"{pid!r} is drawn twice"))
    for pid in sorted(known - set(drawing.shapes)):
        if pid in drawing.layered:
            problems.append(
                DrawingProblem(
                    "svg_province_parts",
                    f"{pid!r} is a group holding shapes with ids of their own: the parts of a "
                    "province's group take no ids",
                )
            )
        else:
            problems.append(
                DrawingProblem("svg_not_drawn", f"{pid!r} is not drawn (no shape has it as its id)")
            )
    return _capped(problems)


def drawing_fits(drawing: Drawing, provinces: Collection[str]) -> bool:
    return set(drawing.shapes) == set(provinces) and not drawing_problems(drawing, provinces)


# -- reading ----------------------------------------------------------------------------------


def _refused(code: str, message: str) -> DrawingRefused:
    return DrawingRefused([DrawingProblem(code, message)])


def _capped(problems: list[DrawingProblem]) -> list[DrawingProblem]:
    if len(problems) <= MAX_LISTED:
        return problems
    rest = len(problems) - MAX_LISTED
    more = DrawingProblem("svg_more_problems", f"and {rest} more problem(s) of the same kinds")
    return [*problems[:MAX_LISTED], more]


def _name(qualified: object) -> tuple[str, str]:
    """(namespace, local name) of an ElementTree tag or attribute ("" for none)."""
    text = str(qualified)  # a comment's or processing instruction's tag is a function
    if text.startswith("{"):
        ns, _, local = text[1:].partition("}")
        return ns, local
    return "", text


def _view_box(attrs: dict[str, str]) -> tuple[float, float, float, float] | None:
    v = numbers(attrs.get("viewBox"))
    if len(v) == 4 and v[2] > 0 and v[3] > 0:
        return v[0], v[1], v[2], v[3]
    w, h = length(attrs.get("width")), length(attrs.get("height"))
    if w > 0 and h > 0:
        return 0.0, 0.0, w, h
    return None


def _has_ids(element: ET.Element, ns: str) -> bool:
    """Whether a shape with an id lies inside (a `g` holding such is a layer)."""
    for inner in element.iter():
        if inner is element:
            continue
        ins, tag = _name(inner.tag)
        if ins == ns and tag in PROVINCE_SHAPES and inner.get("id"):
            return True
    return False


def _walk(
    element: ET.Element,
    parent: Matrix,
    depth: int,
    reading: _Reading,
    *,
    in_province: bool,
    drawn: bool,
) -> list[tuple[str, list[list[Point]]]]:
    """Read one element: its markup into `reading.parts` (a province's place as a slot), its
    problems into `reading.problems`; returns the outlines drawn in it (for a province's `g`)."""
    if not isinstance(element.tag, str):
        return []  # a comment or a processing instruction
    ns, tag = _name(element.tag)
    if tag in REFUSED:
        reading.refuse(*REFUSED[tag])
        return []
    if ns != reading.ns or tag in LEFT_OUT:
        return []  # Inkscape's, Sodipodi's, RDF's … and metadata: read past
    if tag not in ELEMENTS:
        if tag not in reading.refused_tags:
            reading.refused_tags.add(tag)
            reading.refuse(
                "svg_element",
                f"<{tag}> is not taken: a drawing holds shapes (path, polygon, rect, circle, "
                "ellipse, g), lines, text and their paints",
            )
        return []
    if depth > MAX_DEPTH:
        reading.refuse("svg_too_deep", f"the drawing nests deeper than {MAX_DEPTH} elements")
        return []
    matrix = multiply(transform(element.get("transform")), parent)
    pid = element.get("id") or ""
    province = (
        drawn
        and not in_province
        and tag in PROVINCE_SHAPES
        and bool(pid)
        and not (tag == "g" and _has_ids(element, reading.ns))
    )
    if tag == "g" and pid and drawn and not in_province and not province:
        reading.layered.append(pid)
    if province:
        return _province(element, tag, pid, parent, depth, reading)
    attrs = _attributes(element, tag, reading, paint=True)
    reading.parts.append(_open(tag, attrs))
    if tag in ("text", "tspan") and element.text:
        reading.parts.append(_text(element.text))
    outlines: list[tuple[str, list[list[Point]]]] = []
    own = shape_rings(tag, dict(element.attrib))
    if own:
        outlines.append((tag, [[apply(matrix, p) for p in ring] for ring in own]))
    for child in element:
        outlines += _walk(
            child,
            matrix,
            depth + 1,
            reading,
            in_province=in_province,
            drawn=drawn and tag not in NOT_DRAWN,
        )
        if tag in ("text", "tspan") and child.tail:
            reading.parts.append(_text(child.tail))
    reading.parts.append(f"</{tag}>")
    return outlines


def _province(
    element: ET.Element, tag: str, pid: str, parent: Matrix, depth: int, reading: _Reading
) -> list[tuple[str, list[list[Point]]]]:
    """A province's shape: its markup kept whole (and as a plain copy for the fog's shade),
    its outline, and a slot in the drawing's parts where the map puts it."""
    before = len(reading.parts)
    outlines = _walk(element, parent, depth, reading, in_province=True, drawn=True)
    markup = "".join(reading.parts[before:])
    del reading.parts[before:]
    shade = _plain(element, reading.ns, depth)
    if pid in reading.shapes:
        reading.twice.append(pid)
        return outlines
    rings = [ring for _, found in outlines for ring in found if len(ring) >= 2]
    spot: Point | None = middle(rings) if rings else None
    given = numbers(element.get("data-x")), numbers(element.get("data-y"))
    if rings and len(given[0]) == 1 and len(given[1]) == 1:
        # In the drawing's coordinates, as the moderator reads them off the drawing.
        spot = apply(reading.frame, (given[0][0], given[1][0]))
    reading.shapes[pid] = Shape(markup, shade, tuple(tuple(r) for r in rings), spot)
    reading.slots.add(len(reading.parts))
    reading.parts.append(pid)
    return outlines


def _plain(element: ET.Element, ns: str, depth: int) -> str:
    """The shape's geometry alone, no paint and no id: the shade laid over an unseen sea."""
    ens, tag = _name(element.tag)
    if ens != ns or tag not in PROVINCE_SHAPES | {"line", "polyline"} or depth > MAX_DEPTH:
        return ""  # past MAX_DEPTH the drawing is refused (`_walk`)
    attrs = {
        k: v
        for k, v in element.attrib.items()
        if k in ATTRIBUTES and k not in PAINT and k not in ("href", "mask", "clip-path")
    }
    inner = "".join(_plain(child, ns, depth + 1) for child in element)
    return _open(tag, attrs) + inner + f"</{tag}>"


def _attributes(element: ET.Element, tag: str, reading: _Reading, *, paint: bool) -> dict[str, str]:
    """The attributes kept, each checked: event handlers and references outside the drawing
    refused (R-79), ids prefixed (and their references), the rest not known left out."""
    out: dict[str, str] = {}
    where = f"<{tag}" + (f" id={element.get('id')!r}>" if element.get("id") else ">")
    for qualified, value in element.attrib.items():
        ns, name = _name(qualified)
        if name.lower().startswith("on"):
            reading.refuse(
                "svg_event_handler",
                f"{name!r} on {where} is not taken: event handlers run scripts for the players",
            )
            continue
        if _SCRIPTED.search(value):
            reading.refuse(
                "svg_external_ref",
                f"{name!r} on {where} holds a script ('javascript:'), which is not taken",
            )
            continue
        if ns == XLINK_NS and name == "href":
            ns = ""
        if ns:
            continue  # inkscape:label, sodipodi:nodetypes, xml:space …
        if name == "id":
            out["id"] = PREFIX + _UNSAFE_ID.sub("_", value)
            continue
        if name == "href":
            if not value.startswith("#"):
                reading.refuse(
                    "svg_external_ref",
                    f"the href {value[:80]!r} on {where} leads outside the drawing: only the "
                    "drawing's own parts ('#id') may be referred to",
                )
                continue
            out["href"] = "#" + PREFIX + _UNSAFE_ID.sub("_", value[1:])
            continue
        if name not in ATTRIBUTES or (not paint and name in PAINT):
            continue
        if name == "style":
            value = _style(value, where, reading)
        if "url(" in value.lower():
            value = _urls(value, name, where, reading)
        if value:
            out[name] = value
    return out


def _urls(value: str, name: str, where: str, reading: _Reading) -> str:
    def own(found: re.Match[str]) -> str:
        target = found.group(2).strip()
        if not target.startswith("#"):
            reading.refuse(
                "svg_external_ref",
                f"{name!r} on {where} refers to {target[:80]!r}, outside the drawing: only "
                "the drawing's own parts (url(#id)) may be referred to",
            )
            return ""
        return f"url(#{PREFIX}{_UNSAFE_ID.sub('_', target[1:])})"

    return _URL.sub(own, value)


def _style(value: str, where: str, reading: _Reading) -> str:
    """The style's plain paint declarations; a reference outside the drawing is refused, any
    other declaration (or one with escapes, imports …) left out."""
    kept = []
    for declaration in value.split(";"):
        prop, _, raw = declaration.partition(":")
        prop, raw = prop.strip().lower(), raw.strip()
        if "url(" in raw.lower():
            raw = _urls(raw, f"style {prop}", where, reading)
        if prop in STYLE_PROPERTIES and raw and _PLAIN_STYLE.fullmatch(raw):
            kept.append(f"{prop}:{raw}")
    return ";".join(kept)


def _open(tag: str, attrs: dict[str, str]) -> str:
    parts = [tag]
    for key, value in attrs.items():
        parts.append(f'{key}="{escape(clean(value), _QUOTES)}"')
    return "<" + " ".join(parts) + ">"


def _text(text: str) -> str:
    return escape(clean(text))


__all__ = [
    "MAX_BYTES",
    "Drawing",
    "DrawingProblem",
    "DrawingRefused",
    "Shape",
    "drawing_fits",
    "drawing_problems",
    "drawing_read",
]
