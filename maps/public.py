"""The public map of a published turn: what the bulletin may show, for anyone (issue 11).

The bulletin (reports/bulletin.py) tells everyone the battles, blockades, mutinies and ports
changing hands, never movements (docs/rulings.md R-36, R-37). Its map is drawn for no faction:
- with fog of war (R-36), no fleet at all — the seas, the ports and their owners, and a marker
  where each battle was (battles are public news); where fleets stand is each faction's own
  knowledge, and the public is no faction (docs/rulings.md R-56);
- without fog, every fleet (everyone sees them all then), but no orders: orders are never public.
Its key names only what it draws (docs/rulings.md R-73): under fog no fleet and no blockade line.
Pure: no Django."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from maps.layout import Layout
from maps.svg import map_svg

NOTE_FOG = "Public: fleets hidden (fog)"
NOTE_OPEN = "Public: every fleet shown"


def public_world(world_doc: Mapping[str, Any], *, fog: bool) -> dict[str, Any]:
    """The document the public map is drawn from: under fog, without its fleets and orders (so
    no hidden fleet can reach the drawing, whatever the drawing does with them)."""
    doc = {k: v for k, v in world_doc.items() if k != "orders"}
    if fog:
        doc["fleets"] = []
    return doc


def public_map_svg(
    world_doc: Mapping[str, Any],
    layout: Layout,
    *,
    fog: bool,
    events: Sequence[Mapping[str, Any]] = (),
) -> str:
    """The public map as SVG: no viewer, no orders, battle markers from `events`."""
    return map_svg(
        public_world(world_doc, fog=fog),
        layout,
        viewer=None,
        fog=fog,
        events=[e for e in events if e.get("type") == "battle"],
        note=NOTE_FOG if fog else NOTE_OPEN,
    )
