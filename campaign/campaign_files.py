"""Campaign files (docs/campaign-format.md): a scenario's world plus names, colours, positions
and the campaign's settings. Checked with the engine's own scenario parser, so every problem is
reported with its place in the file."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from engine import Problem, ScenarioError, parse_scenario
from engine.scenario import TOP_KEYS as SCENARIO_KEYS

CAMPAIGN_FORMAT = "naval-campaign/1"
# The scenario's world, without what belongs to one turn, plus what a campaign adds.
WORLD_KEYS = SCENARIO_KEYS - {"format", "seed", "dice", "orders"}
TOP_KEYS = WORLD_KEYS | {"format", "name", "slug", "description", "settings"}
SETTINGS = {
    "auto_resolve": bool,
    "turn_hours": int,
    "reminder_hours": int,
    "fog_of_war": bool,
    "webhook_url": (str, type(None)),
}
PALETTE = ["#c8102e", "#005293", "#f2a900", "#2e7d32", "#6a1b9a", "#00838f", "#8d6e63", "#ef6c00"]


@dataclass(slots=True)
class CampaignFile:
    """A checked campaign file: its scenario part and what a campaign adds to it."""

    name: str
    slug: str
    description: str
    settings: dict[str, Any]
    scenario: dict[str, Any]  # a valid naval-scenario/1 document (no orders)
    province_extras: dict[str, dict[str, Any]] = field(default_factory=dict)  # name, x, y
    port_names: dict[str, str] = field(default_factory=dict)
    faction_extras: dict[str, dict[str, str]] = field(default_factory=dict)  # name, colour


def read_campaign_file(document: object) -> CampaignFile:
    """Check a campaign document; raise ScenarioError listing every problem with its path."""
    problems: list[Problem] = []
    if not isinstance(document, dict):
        raise ScenarioError([Problem("", "a campaign file is an object at the top")])
    doc = copy.deepcopy(document)
    for key in doc:
        if key not in TOP_KEYS:
            problems.append(Problem(key, f"unknown key {key!r}"))
    if doc.get("format") != CAMPAIGN_FORMAT:
        problems.append(Problem("format", f"must be {CAMPAIGN_FORMAT!r}"))
    name = doc.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(Problem("name", "a campaign needs a name"))
        name = ""
    slug = doc.get("slug") or slugify(name)
    if not isinstance(slug, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,79}", slug):
        problems.append(Problem("slug", "letters, digits and hyphens, up to 80"))
    description = doc.get("description", "")
    settings = _settings(doc.get("settings"), problems)
    result = CampaignFile(str(name), str(slug), str(description or ""), settings, {})
    scenario = {k: v for k, v in doc.items() if k in WORLD_KEYS}
    scenario["format"] = "naval-scenario/1"
    _take_extras(scenario, result, problems)
    try:
        parse_scenario(scenario)
    except ScenarioError as error:
        problems.extend(error.problems)
    if problems:
        raise ScenarioError(problems)
    result.scenario = scenario
    return result


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:80]


def _settings(value: object, problems: list[Problem]) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.append(Problem("settings", "must be an object"))
        return {}
    for key, item in value.items():
        kind = SETTINGS.get(key)
        if kind is None:
            problems.append(Problem(f"settings.{key}", f"unknown key {key!r}"))
        elif not isinstance(item, kind) or (kind is int and isinstance(item, bool)):
            problems.append(Problem(f"settings.{key}", "has the wrong type"))
        elif kind is int and item < 0:
            problems.append(Problem(f"settings.{key}", "must be at least 0"))
    return {k: v for k, v in value.items() if k in SETTINGS}


def _take_extras(scenario: dict[str, Any], out: CampaignFile, problems: list[Problem]) -> None:
    """Move the campaign-only keys out of the map and factions, checking them on the way."""
    game_map = scenario.get("map")
    if isinstance(game_map, dict):
        for i, province in enumerate(_list(game_map.get("provinces"))):
            if not isinstance(province, dict):
                continue
            extras = {k: province.pop(k) for k in ("name", "x", "y") if k in province}
            for axis in ("x", "y"):
                value = extras.get(axis)
                if (
                    not isinstance(value, int | float)
                    or isinstance(value, bool)
                    or not (0 <= value <= 1000)
                ):
                    problems.append(
                        Problem(
                            f"map.provinces[{i}].{axis}", "a position from 0 to 1000 is required"
                        )
                    )
            if isinstance(province.get("id"), str):
                out.province_extras[province["id"]] = extras
        for port in _list(game_map.get("ports")):
            if isinstance(port, dict) and "name" in port:
                name = port.pop("name")
                if isinstance(port.get("id"), str):
                    out.port_names[port["id"]] = str(name)
    for n, faction in enumerate(_list(scenario.get("factions"))):
        if not isinstance(faction, dict):
            continue
        extras = {k: faction.pop(k) for k in ("name", "colour") if k in faction}
        colour = extras.get("colour", PALETTE[n % len(PALETTE)])
        if not isinstance(colour, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
            problems.append(Problem(f"factions[{n}].colour", 'a colour like "#c8102e"'))
        extras["colour"] = str(colour)
        if isinstance(faction.get("id"), str):
            out.faction_extras[faction["id"]] = extras


def _list(value: object) -> list[Any]:
    """The items of a list; anything else is the scenario parser's to report."""
    return value if isinstance(value, list) else []
