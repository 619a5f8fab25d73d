"""Drawn maps kept in the cache, addressed by what they are drawn from.

Drawing a campaign's map costs far more than reading what it shows: on the load bench's
500-fleet campaign the map took 41 % of the server's time, redrawn on every visit to the desk
(docs/benchmarks.md). The key is a hash of every input of the drawing — the world document, the
layout, who looks, fog, the orders drawn, the events marked — so a kept map can never be stale:
anything that changes the picture changes the key, and nothing needs invalidating. Entries expire
after MAP_CACHE_SECONDS. A cache that cannot be reached (Redis down) only means drawing again.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import orjson
from django.conf import settings
from django.core.cache import cache

from maps.layout import Layout

log = logging.getLogger(__name__)
LAYOUT_PARTS = ("positions", "province_names", "port_names", "faction_names", "faction_colours")


class SharedScenes(dict[Any, Any]):
    """A map's scenes (maps/svg.py `scenes`) for one world, layout, viewer and fog: kept in this
    dict and in the cache, so that another process finds what one drew. Addressed by the hash
    of the world and the layout (`world_layout_key`), as the maps are: never stale."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def _key(self, key: Any) -> str:
        digest = hashlib.sha256(f"{self.prefix}|{key!r}".encode()).hexdigest()
        return f"map-scene:{digest}"

    def get(self, key: Any, default: Any = None) -> Any:
        if key in self:
            return self[key]
        try:
            found = cache.get(self._key(key))
        except Exception as error:
            log.warning("map cache unreachable, drawing (%s)", error)
            return default
        if found is None:
            return default
        super().__setitem__(key, found)
        return found

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        try:
            cache.set(self._key(key), value, getattr(settings, "MAP_CACHE_SECONDS", 3600))
        except Exception as error:
            log.warning("map cache unreachable, not kept (%s)", error)


def _layout_parts(layout: Layout) -> list[Any]:
    """What of the layout a map is drawn from: its title, names, colours and fill points."""
    return [
        layout.title,
        *(sorted(dict(getattr(layout, p)).items()) for p in LAYOUT_PARTS),
        layout.fill,
    ]


def world_layout_key(world: Mapping[str, Any], layout: Layout) -> str:
    """The hash of the world document and the layout, the part of a map's key that is the same
    for every viewer (a caller that keeps the world computes it once per version)."""
    parts = {
        "world": world,
        "layout": _layout_parts(layout),
        # The campaign's own drawing, by its text's hash (maps/drawing.py).
        "drawing": layout.drawing.digest if layout.drawing is not None else None,
    }
    return hashlib.sha256(orjson.dumps(parts, option=orjson.OPT_SORT_KEYS)).hexdigest()


def map_layout_key(world: Mapping[str, Any], layout: Layout) -> str:
    """The hash of the world's map (its provinces with their positions, adjacencies and ports)
    and the layout: all that the map's geometry, labels' plan and land and sea are drawn from
    (maps/svg.py `shared`), so the same for every version of a world whose fleets moved."""
    parts = {
        "map": world.get("map"),
        "layout": _layout_parts(layout),
        "drawing": layout.drawing.digest if layout.drawing is not None else None,
    }
    return hashlib.sha256(orjson.dumps(parts, option=orjson.OPT_SORT_KEYS)).hexdigest()


def map_cached(
    draw: Callable[[], str],
    *,
    world: Mapping[str, Any],
    layout: Layout,
    viewer: str | None,
    fog: bool,
    orders: Sequence[Mapping[str, Any]] = (),
    events: Sequence[Mapping[str, Any]] = (),
    world_key: str | None = None,
) -> str:
    """The SVG `draw()` gives for these inputs, from the cache when it was drawn before.
    `world_key`: `world_layout_key(world, layout)` when the caller has it already (computed
    once per version of a kept world, fleets/world_cache.py), else it is computed here."""
    parts: dict[str, Any] = {
        "world": world_key or world_layout_key(world, layout),
        "viewer": viewer,
        "fog": fog,
        "orders": list(orders),
        # Of the events, the map marks only where battles were (maps.geometry.battle_spots).
        "battles": sorted({str(e.get("province")) for e in events if e.get("type") == "battle"}),
    }
    digest = hashlib.sha256(orjson.dumps(parts, option=orjson.OPT_SORT_KEYS)).hexdigest()
    key = f"map-svg:{digest}"
    try:
        svg = cache.get(key)
    except Exception as error:  # redis-py's ConnectionError, TimeoutError …
        log.warning("map cache unreachable, drawing (%s)", error)
        return draw()
    if svg is None:
        svg = draw()
        try:
            cache.set(key, svg, getattr(settings, "MAP_CACHE_SECONDS", 3600))
        except Exception as error:
            log.warning("map cache unreachable, not kept (%s)", error)
    return str(svg)
