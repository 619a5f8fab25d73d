"""One digest of what the map draws, for tests/maps/test_compiled.py: `python -m
tests.maps.same_bytes` prints {"compiled": …, "drawings": …, "digest": …} for the build this
process runs (the compiled one, or the plain sources under ADMIRALTY_PURE_ENGINE=1).

What goes in: the bundled Baltic (fill points: a power diagram, its ground and coasts) and a
generated world of 300 provinces (no positions: the default layout, capped regions, straits),
each for the moderator and for a faction under fog, with orders and a battle, fresh and again
from what a first drawing kept, that kept part pickled and read back as the cache does
(maps/map_cache.py); and the geometry's regions, borders and straits themselves."""

from __future__ import annotations

import hashlib
import json
import pickle
from pathlib import Path
from typing import Any

import yaml

import maps
from bench.generate import Spec, generate
from maps import Layout, map_svg
from maps.geometry import measure
from maps.model import read_model
from tests.maps.helpers import split_campaign

ROOT = Path(__file__).resolve().parents[2]


def worlds() -> list[tuple[dict[str, Any], Layout]]:
    with open(ROOT / "examples" / "baltic.campaign.yaml", encoding="utf-8") as handle:
        baltic = split_campaign(yaml.safe_load(handle))
    return [baltic, (generate(Spec(fleets=60, sea=270, land=30)), Layout())]


def drawings() -> list[str]:
    out = []
    for doc, layout in worlds():
        faction = doc["factions"][0]["id"]
        moves = [o for o in doc.get("orders", []) if o.get("type") == "move"][:3]
        first_sea = next(p["id"] for p in doc["map"]["provinces"] if p.get("kind") == "sea")
        events = [{"type": "battle", "province": first_sea}]
        regions = measure(read_model(doc, None, True), layout, doc).regions
        out.append(repr((regions.polygons, regions.borders, regions.straits, regions.coasts)))
        for viewer, fog in ((None, False), (faction, True)):
            shared: dict[Any, Any] = {}
            kept: dict[str, Any] = {}
            out.append(map_svg(doc, layout, viewer=viewer, fog=fog, kept=kept, shared=shared))
            out.append(map_svg(doc, layout, viewer=viewer, fog=fog, orders=moves, events=events))
            again = pickle.loads(pickle.dumps(kept))
            out.append(map_svg(doc, layout, viewer=viewer, fog=fog, orders=moves, kept=again))
    return out


if __name__ == "__main__":
    drawn = drawings()
    digest = hashlib.sha256("\0".join(drawn).encode()).hexdigest()
    print(json.dumps({"compiled": maps.COMPILED, "drawings": len(drawn), "digest": digest}))
