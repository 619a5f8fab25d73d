"""Helpers for the map tests: a campaign split into a scenario document and a Layout
(docs/campaign-format.md), a small chain-of-seas world to build scenarios on, SVG parsing."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from typing import Any

from maps import Layout, layout_from_rows

SVG = "{http://www.w3.org/2000/svg}"
SCENARIO_KEYS = ("rules", "map", "factions", "relations", "ship_types", "fleets")


def split_campaign(campaign: dict[str, Any]) -> tuple[dict[str, Any], Layout]:
    """A campaign document as a scenario document (the campaign-only keys taken out) and the
    layout made of those keys."""
    doc = {k: copy.deepcopy(campaign[k]) for k in SCENARIO_KEYS if k in campaign}
    doc["format"] = "naval-scenario/1"
    provinces = []
    for p in doc["map"]["provinces"]:
        provinces.append((p["id"], p.pop("name", ""), p.pop("x"), p.pop("y")))
    ports = [(p["id"], p.pop("name", "")) for p in doc["map"].get("ports", [])]
    factions = [(f["id"], f.pop("name", ""), f.pop("colour", "")) for f in doc["factions"]]
    fill = doc["map"].pop("fill", {})
    return doc, layout_from_rows(provinces, ports, factions, title=campaign["name"], fill=fill)


def chain_world(fleets: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """Five seas in a row, s1 … s5 (left to right), with a land province below s1 holding the
    danes' port `haven` (waters s1) and one below s4 holding the swedes' port `bastion`
    (waters s4). Danes and swedes are at war; the norsemen, who hold no port, at war with both."""
    doc: dict[str, Any] = {
        "format": "naval-scenario/1",
        "map": {
            "provinces": [{"id": f"s{i}", "kind": "sea"} for i in range(1, 6)]
            + [{"id": "home", "kind": "land"}, {"id": "hold", "kind": "land"}],
            "adjacent": [[f"s{i}", f"s{i + 1}"] for i in range(1, 5)]
            + [["home", "s1"], ["hold", "s4"]],
            "ports": [
                {"id": "haven", "province": "home", "owner": "danes", "waters": ["s1"]},
                {"id": "bastion", "province": "hold", "owner": "swedes", "waters": ["s4"]},
            ],
        },
        "factions": [{"id": "danes"}, {"id": "swedes"}, {"id": "norsemen"}],
        "relations": [
            {"between": ["danes", "swedes"], "state": "war"},
            {"between": ["danes", "norsemen"], "state": "war"},
            {"between": ["norsemen", "swedes"], "state": "war"},
        ],
        "ship_types": [{"id": "frigate", "cost": 100, "attack": 4, "health": 10}],
        "fleets": fleets,
    }
    doc.update(extra)
    return doc


def fleet(fid: str, owner: str, at: str, ships: int = 1, **extra: Any) -> dict[str, Any]:
    return {
        "id": fid,
        "owner": owner,
        "at": at,
        "ships": [{"id": f"{fid}-{n}", "type": "frigate"} for n in range(1, ships + 1)],
        **extra,
    }


CHAIN_LAYOUT = Layout(
    positions={
        "s1": (100, 300),
        "s2": (300, 300),
        "s3": (500, 300),
        "s4": (700, 300),
        "s5": (900, 300),
        "home": (100, 450),
        "hold": (700, 450),
    }
)


def parse(svg: str) -> ET.Element:
    """The SVG as XML (fails the test if it is not well-formed)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """The <g> elements whose class list holds `cls`."""
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def title_of(element: ET.Element) -> str:
    first = element[0]
    assert first.tag == f"{SVG}title", "a <title> is the element's first child"
    return first.text or ""


def area(poly: tuple[tuple[float, float], ...]) -> float:
    """The polygon's area (the shoelace formula)."""
    pairs = zip(poly, poly[1:] + poly[:1], strict=True)
    return abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in pairs)) / 2
