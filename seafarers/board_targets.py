"""Clickable targets for the viewer's legal actions that name a place (issue 13, the action
desk): one `<a>` per action, carrying the complete action as JSON in `data-action`, so the page
(htmx later) posts exactly what `legal_actions` listed and nothing else."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from seafarers.board_geometry import Point, edge_angle, edge_key
from seafarers.board_layers import place_point
from seafarers.board_marks import el, title
from seafarers.board_places import Places

# An invisible disc under each target and each ship that may move: the area a tap hits, in SVG
# units. 16 keeps each target's own middle clear of its neighbours' (a node and the middle of
# one of its sides are 20 apart) while the desk draws it 24 CSS px or more (its min_scale).
HIT_RADIUS = 16.0

# The action types that name a place, and the key holding it (move_ship: its destination).
PLACE_KEY = {
    "build_road": ("edge", "edge"),
    "build_ship": ("edge", "edge"),
    "move_ship": ("edge", "to"),
    "build_settlement": ("node", "node"),
    "build_city": ("node", "node"),
    "move_robber": ("hex", "hex"),
    "move_pirate": ("hex", "hex"),
}
VERB = {
    "build_road": "build a road at",
    "build_ship": "build a ship at",
    "move_ship": "move the ship to",
    "build_settlement": "build a settlement at",
    "build_city": "build a city at",
    "move_robber": "move the robber to",
    "move_pirate": "move the pirate to",
}


@dataclass(frozen=True, slots=True)
class Target:
    kind: str  # edge, node, hex
    place: str  # canonical: an edge's nodes joined by "|"
    action_json: str
    label: str
    source: str | None  # move_ship: the ship that moves


def action_json(action: Mapping[str, Any]) -> str:
    """An action as compact, key-sorted JSON (escaped when written into the attribute)."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _name(kind: str, value: Any) -> str:
    return "|".join(edge_key(value)) if kind == "edge" else str(value)


def _where(kind: str, name: str, places: Places) -> str:
    if kind == "hex":
        return places.hex(name)
    if kind == "node":
        return places.node(name)
    a, b = name.split("|")
    return places.edge((a, b))


def targets_of(
    legal: Sequence[Mapping[str, Any]], viewer: str | None, places: Places
) -> list[Target]:
    """The viewer's actions that name a place, sorted; none without a viewer, and none of
    another player's (a page never offers what the viewer may not send)."""
    out = []
    for action in legal:
        kind_key = PLACE_KEY.get(action.get("type", ""))
        if viewer is None or action.get("player") != viewer or kind_key is None:
            continue
        kind, key = kind_key
        name = _name(kind, action[key])
        label = f"{VERB[action['type']]} {_where(kind, name, places)}"
        source = None
        if action["type"] == "move_ship":
            source = "|".join(edge_key(action["from"]))
            a, b = source.split("|")
            label = f"move the ship at {places.edge((a, b))} to {_where(kind, name, places)}"
        if action.get("steal_from") is not None:
            label += f" and steal from {action['steal_from']}"
        out.append(Target(kind, name, action_json(action), label, source))
    return sorted(out, key=lambda t: (t.kind, t.place, t.action_json))


def draw_targets(targets: Sequence[Target], places: Places) -> list[str]:
    """Several actions on one place (a robber with a choice of victims, two ships able to reach
    one edge) are spread round it (`spread`), so each stays clickable on its own."""
    by_place: dict[tuple[str, str], list[Target]] = {}
    for t in targets:
        by_place.setdefault((t.kind, t.place), []).append(t)
    out = []
    for (kind, place), group in sorted(by_place.items()):
        x, y = place_point(kind, place)
        if kind == "hex":
            y += 25.0  # below the number token, clear of the terrain's word above it
        radius = 5.5 if kind != "hex" else 8.0
        for i, t in enumerate(group):
            tx, ty = spread(kind, place, (x, y), i, len(group))
            attrs: dict[str, object] = {
                "class": "target",
                "href": "#",
                "data-action": t.action_json,
                "data-place": t.place,
            }
            if t.source is not None:
                attrs["data-from"] = t.source
            out.append(
                el(
                    "a",
                    attrs,
                    title(t.label),
                    hit_area(tx, ty),
                    el(
                        "circle",
                        {
                            "class": "ring",
                            "cx": tx,
                            "cy": ty,
                            "r": radius,
                            "fill": "#ffffff",
                            "fill-opacity": 0.45,
                            "stroke": "#000000",
                            "stroke-width": 1.8,
                            "stroke-dasharray": "3 2",
                        },
                    ),
                    el("circle", {"cx": tx, "cy": ty, "r": 2.0, "fill": "#000000"}),
                )
            )
    sources = sorted({t.source for t in targets if t.source is not None})
    for source in sources:  # the ships that may move, ringed, so the destinations read as theirs
        a, b = source.split("|")
        x, y = place_point("edge", source)
        out.append(
            el(
                "g",
                {"class": "movable", "data-place": source},
                title(f"this ship may move: {places.edge((a, b))}"),
                hit_area(x, y),
                el(
                    "circle",
                    {
                        "class": "ring",
                        "cx": x,
                        "cy": y,
                        "r": 14.0,
                        "fill": "none",
                        "stroke": "#000000",
                        "stroke-width": 1.5,
                        "stroke-dasharray": "1.5 2",
                    },
                ),
            )
        )
    return out


def spread(kind: str, place: str, at: Point, i: int, n: int) -> Point:
    """Where the i-th of n targets on one place sits. On a side they stand across it (a road
    and a ship on one coast), clear of the corners' targets at its ends; elsewhere on a circle,
    far enough apart that each one's middle is outside the others' tap discs."""
    x, y = at
    if n == 1:
        return at
    gap = HIT_RADIUS + 6.0
    if kind == "edge":
        a, b = place.split("|")
        angle = math.radians(edge_angle((a, b)) + 90.0)
        off = (i - (n - 1) / 2) * gap
        return (x + off * math.cos(angle), y + off * math.sin(angle))
    radius = max(11.0, gap / (2 * math.sin(math.pi / n)))
    angle = 2 * math.pi * i / n - math.pi / 2
    return (x + radius * math.cos(angle), y + radius * math.sin(angle))


def hit_area(x: float, y: float) -> str:
    """The disc a tap on the place hits: drawn, so browsers hit-test it, but not seen."""
    return el(
        "circle",
        {"class": "hit", "cx": x, "cy": y, "r": HIT_RADIUS, "fill": "#ffffff", "fill-opacity": 0},
    )
