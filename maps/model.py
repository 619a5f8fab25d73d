"""What the map shows, read from a world document: provinces, links, ports and the fleets the
viewer may see (fog of war from `engine.fog`). Everything comes out sorted by id."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.naval import parse_scenario
from engine.naval.fog import visible_fleets, watched_seas
from engine.naval.scenario import (
    FACTION_KEYS,
    FLEET_KEYS,
    PORT_KEYS,
    PROVINCE_KEYS,
    SCENARIO_FORMAT,
    TOP_KEYS,
)


@dataclass(frozen=True, slots=True)
class Port:
    id: str
    province: str
    owner: str
    waters: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Fleet:
    id: str
    owner: str
    at: str  # a sea province, or a port when docked
    docked: bool
    ships: int
    blockading: str | None
    adrift: bool


@dataclass(frozen=True, slots=True)
class MapModel:
    kinds: dict[str, str]  # province -> "sea" | "land"
    links: tuple[tuple[str, str], ...]  # each pair once, (low id, high id)
    ports: dict[str, Port]
    fleets: dict[str, Fleet]  # only those the viewer may see
    watched: frozenset[str] | None  # the seas the viewer looks over; None without fog


def _items(value: object) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def scenario_part(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The document as a scenario the engine parses: no orders, no campaign-only keys."""
    out = {k: v for k, v in doc.items() if k in TOP_KEYS and k != "orders"}
    out.setdefault("format", SCENARIO_FORMAT)
    game_map = doc.get("map")
    if isinstance(game_map, dict):
        out["map"] = {
            "provinces": [
                {k: v for k, v in p.items() if k in PROVINCE_KEYS}
                for p in _items(game_map.get("provinces"))
            ],
            "adjacent": game_map.get("adjacent") or [],
            "ports": [
                {k: v for k, v in p.items() if k in PORT_KEYS}
                for p in _items(game_map.get("ports"))
            ],
        }
    if "factions" in doc:
        out["factions"] = [
            {k: v for k, v in f.items() if k in FACTION_KEYS} for f in _items(doc["factions"])
        ]
    if "fleets" in doc:
        out["fleets"] = [
            {k: v for k, v in f.items() if k in FLEET_KEYS} for f in _items(doc["fleets"])
        ]
    return out


def read_model(doc: Mapping[str, Any], viewer: str | None, fog: bool) -> MapModel:
    """The map's content. With a viewer and fog, the document must be a valid scenario (the
    engine decides what is visible; `engine.ScenarioError` otherwise) and only the fleets the
    viewer may see are kept; hidden fleets never reach the drawing."""
    raw_map = doc.get("map")
    game_map: Mapping[str, Any] = raw_map if isinstance(raw_map, dict) else {}
    kinds: dict[str, str] = {}
    for p in _items(game_map.get("provinces")):
        pid = _text(p.get("id"))
        if pid is not None:
            kinds[pid] = "sea" if p.get("kind") == "sea" else "land"
    links: set[tuple[str, str]] = set()
    for pair in game_map.get("adjacent") or []:
        if isinstance(pair, list | tuple) and len(pair) == 2:
            a, b = pair
            if a in kinds and b in kinds and a != b:
                links.add((a, b) if a < b else (b, a))
    ports: dict[str, Port] = {}
    for p in _items(game_map.get("ports")):
        pid, province, owner = _text(p.get("id")), _text(p.get("province")), _text(p.get("owner"))
        if pid is None or province not in kinds or owner is None:
            continue
        waters = tuple(sorted(w for w in p.get("waters") or [] if w in kinds))
        ports[pid] = Port(pid, str(province), owner, waters)

    fleets: dict[str, Fleet] = {}
    for f in _items(doc.get("fleets")):
        fid, owner, at = _text(f.get("id")), _text(f.get("owner")), _text(f.get("at"))
        docked = f.get("docked") is True
        if fid is None or owner is None or at is None:
            continue
        if (docked and at not in ports) or (not docked and at not in kinds):
            continue
        ships = f.get("ships")
        blockading = _text(f.get("blockading"))
        fleets[fid] = Fleet(
            fid,
            owner,
            at,
            docked,
            len(ships) if isinstance(ships, list) else 0,
            blockading if blockading in ports else None,
            f.get("adrift") is True,
        )

    watched: frozenset[str] | None = None
    if viewer is not None and fog:
        world = parse_scenario(scenario_part(doc)).world
        seen = set(visible_fleets(world, viewer))
        fleets = {fid: fleet for fid, fleet in fleets.items() if fid in seen}
        watched = watched_seas(world, viewer)

    return MapModel(
        dict(sorted(kinds.items())),
        tuple(sorted(links)),
        dict(sorted(ports.items())),
        dict(sorted(fleets.items())),
        watched,
    )
