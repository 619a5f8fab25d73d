"""Clickable targets for the viewer's legal actions that name a place (issue 13, the action
desk): one `<a>` per action, carrying the complete action as JSON in `data-action`, so the page
(htmx later) posts exactly what `legal_actions` listed and nothing else."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from seafarers.board_geometry import Point, edge_angle, edge_key, edge_middle
from seafarers.board_layers import place_point, seaward
from seafarers.board_marks import (
    el,
    ring_target_shape,
    road_target_shape,
    ship_target_shape,
    title,
)
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
# What a tap asks before it sends (the shape tells a road from a ship; the words say it too).
QUESTION = {
    "build_road": "Build a road here",
    "build_ship": "Build a ship here",
    "move_ship": "Move the ship here",
    "build_settlement": "Build a settlement here",
    "build_city": "Build a city here",
    "move_robber": "Move the robber here",
    "move_pirate": "Move the pirate here",
}
# The class after "target": what the action places.
PIECE = {
    "build_road": "road",
    "build_ship": "ship",
    "move_ship": "ship",
    "build_settlement": "settlement",
    "build_city": "city",
    "move_robber": "robber",
    "move_pirate": "pirate",
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
    action: str  # the action's type
    kind: str  # edge, node, hex
    place: str  # canonical: an edge's nodes joined by "|"
    action_json: str
    label: str
    source: str | None  # move_ship: the ship that moves
    question: str  # what a tap asks first: "Build a road here?"
    where: str  # the place in words, shown under the question


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


def place_label(action: Mapping[str, Any], places: Places) -> str | None:
    """An action that names a place, in the players' words ("build a road at the south side of
    hills 4", "move the ship at … to …", "move the robber to … and steal from blue"); None for
    one that names no place. The desk's targets and list, and the moderator's pages, say it so
    (issue 20 §4)."""
    kind_key = PLACE_KEY.get(str(action.get("type", "")))
    if kind_key is None:
        return None
    kind, key = kind_key
    where = _words(kind, action[key], places)
    label = f"{VERB[action['type']]} {where}"
    if action["type"] == "move_ship":
        label = f"move the ship at {_words('edge', action['from'], places)} to {where}"
    if action.get("steal_from") is not None:
        label += f" and steal from {action['steal_from']}"
    return label


def _words(kind: str, value: Any, places: Places) -> str:
    """A place as the action names it, in words; a graph board's (rule tests) as written."""
    if places.is_hex:
        return _where(kind, _name(kind, value), places)
    if kind == "edge":
        return places.edge(value)
    return places.node(str(value)) if kind == "node" else places.hex(str(value))


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
        where = _where(kind, name, places)
        label = place_label(action, places) or ""
        source = None
        if action["type"] == "move_ship":
            source = "|".join(edge_key(action["from"]))
        question = QUESTION[action["type"]]
        if action.get("steal_from") is not None:
            question += f" and steal from {action['steal_from']}"
        out.append(
            Target(
                action["type"],
                kind,
                name,
                action_json(action),
                label,
                source,
                question + "?",
                where,
            )
        )
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
        across = _across(kind, place, places)
        for i, t in enumerate(sorted(group, key=lambda t: (PIECE[t.action], t.action_json))):
            tx, ty = spread(kind, (x, y), across, i, len(group))
            attrs: dict[str, object] = {
                "class": f"target {PIECE[t.action]}",
                "href": "#",
                "data-action": t.action_json,
                "data-place": t.place,
                "data-confirm": t.question,
                "data-where": t.where,
            }
            if t.source is not None:
                attrs["data-from"] = t.source
            out.append(
                el(
                    "a",
                    attrs,
                    title(t.label),
                    hit_area(tx, ty),
                    target_shape(t, tx, ty),
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


def target_shape(t: Target, x: float, y: float) -> str:
    if t.action == "build_road":
        a, b = t.place.split("|")
        return road_target_shape(x, y, edge_angle((a, b)))
    if PIECE[t.action] == "ship":
        return ship_target_shape(x, y)
    return ring_target_shape(x, y, 8.0 if t.kind == "hex" else 5.5)


def _across(kind: str, place: str, places: Places) -> Point | None:
    """A side's unit normal pointing out to sea (from the land, on a coast), or None."""
    if kind != "edge":
        return None
    a, b = place.split("|")
    mx, my = edge_middle((a, b))
    sx, sy = seaward((a, b), places)
    angle = math.radians(edge_angle((a, b)) + 90.0)
    nx, ny = math.cos(angle), math.sin(angle)
    return (nx, ny) if (sx - mx) * nx + (sy - my) * ny >= 0 else (-nx, -ny)


def spread(kind: str, at: Point, across: Point | None, i: int, n: int) -> Point:
    """Where the i-th of n targets on one place sits. On a side they stand across it, clear of
    the corners' targets at its ends, the first landward: on a coast the road on the land, the
    ship on the sea. Elsewhere on a circle, far enough apart that each one's middle is outside
    the others' tap discs."""
    x, y = at
    if n == 1:
        return at
    gap = HIT_RADIUS + 6.0
    if across is not None:
        off = (i - (n - 1) / 2) * gap
        return (x + off * across[0], y + off * across[1])
    radius = max(11.0, gap / (2 * math.sin(math.pi / n)))
    angle = 2 * math.pi * i / n - math.pi / 2
    return (x + radius * math.cos(angle), y + radius * math.sin(angle))


def hit_area(x: float, y: float) -> str:
    """The disc a tap on the place hits: drawn, so browsers hit-test it, but not seen."""
    return el(
        "circle",
        {"class": "hit", "cx": x, "cy": y, "r": HIT_RADIUS, "fill": "#ffffff", "fill-opacity": 0},
    )
