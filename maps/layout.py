"""How a campaign's map is drawn: positions, display names and faction colours.

A `Layout` is the drawing's half of a campaign file (docs/campaign-format.md): the world document
says what is where, the layout says where that is on a 1000 × 1000 drawing and what it is called.
Everything it lacks has a default: names are ids, colours come from a fixed palette.
"""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from maps.drawing import Drawing

# The campaign files' palette (docs/campaign-format.md), for factions the layout gives no colour.
PALETTE = ("#c8102e", "#005293", "#f2a900", "#2e7d32", "#6a1b9a", "#00838f", "#8d6e63", "#ef6c00")
PIRATES = "pirates"
PIRATE_COLOUR = "#222222"
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def is_colour(value: object) -> bool:
    """A colour the map accepts: "#rrggbb" (nothing else ever reaches an SVG attribute)."""
    return isinstance(value, str) and _COLOUR.fullmatch(value) is not None


def _frozen(mapping: Mapping[str, object] | None) -> Mapping[str, object]:
    return MappingProxyType(dict(sorted((mapping or {}).items())))


@dataclass(frozen=True)
class Layout:
    """Positions `{province: (x, y)}` on a 1000 × 1000 drawing (0, 0 top left), display names
    for provinces, ports and factions, faction colours `{faction: "#rrggbb"}`; `drawing`,
    the campaign's own drawing of its map when it has one (maps/drawing.py, maps/own_svg.py:
    its shapes are the provinces, the positions unused); and fill points `(kind, x, y)`: land
    or sea that is no province, so that coasts are drawn where they are (a campaign file's
    `map.fill`, maps/regions.py)."""

    positions: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    province_names: Mapping[str, str] = field(default_factory=dict)
    port_names: Mapping[str, str] = field(default_factory=dict)
    faction_names: Mapping[str, str] = field(default_factory=dict)
    faction_colours: Mapping[str, str] = field(default_factory=dict)
    title: str = "Campaign map"
    drawing: Drawing | None = None
    fill: tuple[tuple[str, float, float], ...] = ()

    def __post_init__(self) -> None:
        positions = {
            str(k): (float(x), float(y)) for k, (x, y) in dict(self.positions or {}).items()
        }
        object.__setattr__(self, "positions", _frozen(positions))
        for name in ("province_names", "port_names", "faction_names"):
            values = {str(k): str(v) for k, v in dict(getattr(self, name) or {}).items()}
            object.__setattr__(self, name, _frozen(values))
        colours = {
            str(k): str(v).lower()
            for k, v in dict(self.faction_colours or {}).items()
            if is_colour(v)
        }
        object.__setattr__(self, "faction_colours", _frozen(colours))
        object.__setattr__(self, "fill", fill_points(self.fill))

    def province_name(self, province: str) -> str:
        return self.province_names.get(province) or province

    def port_name(self, port: str) -> str:
        return self.port_names.get(port) or port

    def faction_name(self, faction: str) -> str:
        if faction == PIRATES and faction not in self.faction_names:
            return "Pirates"
        return self.faction_names.get(faction) or faction

    def colour(self, faction: str) -> str:
        """The faction's colour; without one, pirates are near black and others get a palette
        colour chosen from the id (the same id always gets the same colour)."""
        given = self.faction_colours.get(faction)
        if given:
            return given
        if faction == PIRATES:
            return PIRATE_COLOUR
        return PALETTE[zlib.crc32(faction.encode("utf-8")) % len(PALETTE)]


FILL_KINDS = ("land", "sea")


def fill_points(value: object) -> tuple[tuple[str, float, float], ...]:
    """Fill points as the layout keeps them, `(kind, x, y)` sorted, from those or from a
    campaign file's `map.fill` (`{"land": [[x, y], ...], "sea": [...]}`, as stored); anything
    that is not one is left out (the campaign file's reader reports it: fleets/campaign_files)."""
    items: list[object] = []
    if isinstance(value, Mapping):
        for kind in FILL_KINDS:
            spots = value.get(kind)
            if isinstance(spots, list | tuple):
                items += [(kind, *spot) for spot in spots if isinstance(spot, list | tuple)]
    elif isinstance(value, list | tuple):
        items = list(value)
    out = set()
    for item in items:
        if (
            isinstance(item, tuple | list)
            and len(item) == 3
            and item[0] in FILL_KINDS
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in item[1:])
            and all(math.isfinite(v) for v in item[1:])
        ):
            out.add((str(item[0]), float(item[1]), float(item[2])))
    return tuple(sorted(out))


def layout_from_rows(
    provinces: Iterable[tuple[str, str, float, float]],
    ports: Iterable[tuple[str, str]] = (),
    factions: Iterable[tuple[str, str, str]] = (),
    *,
    title: str = "Campaign map",
    drawing: Drawing | None = None,
    fill: object = (),
) -> Layout:
    """A layout from plain rows, as the database gives them: provinces as (key, name, x, y),
    ports as (key, name), factions as (key, name, colour), and the fill points as stored
    (`fill_points`). Empty names fall back to the key; a colour that is not "#rrggbb" falls
    back to the palette."""
    positions: dict[str, tuple[float, float]] = {}
    province_names: dict[str, str] = {}
    for key, name, x, y in provinces:
        positions[key] = (float(x), float(y))
        if name:
            province_names[key] = name
    port_names = {key: name for key, name in ports if name}
    faction_names: dict[str, str] = {}
    colours: dict[str, str] = {}
    for key, name, colour in factions:
        if name:
            faction_names[key] = name
        if is_colour(colour):
            colours[key] = colour
    return Layout(
        positions,
        province_names,
        port_names,
        faction_names,
        colours,
        title,
        drawing=drawing,
        fill=fill_points(fill),
    )
