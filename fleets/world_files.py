"""A campaign's world as a campaign file (docs/campaign-format.md), and a file's problems with
their places in words (issue 11: the world editor).

`campaign_file_document` writes the rows as they stand — before the first turn or after any
number of them — in the format `campaign_import` reads: importing the file (under another slug)
gives the same world. The world editor's check runs `read_campaign_file` on that very document,
the import's own code path, so a world the check passes is one the import would take.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import yaml

from campaign.models import Campaign
from engine.naval import Problem
from fleets.campaign_files import CAMPAIGN_FORMAT, NAVAL_SETTINGS, SETTINGS
from fleets.mapping import world_document
from fleets.models import Faction, MapDrawing, Port, Province


def campaign_file_document(campaign: Campaign) -> dict[str, Any]:
    """The campaign as a campaign file: its name and settings, the scenario's world from the rows
    (`world_document`, 9 queries) with the names, colours and positions a campaign adds, and
    the map's own drawing when it has one."""
    world = world_document(campaign)
    provinces = {
        key: (name, x, y)
        for key, name, x, y in Province.objects.filter(campaign=campaign).values_list(
            "key", "name", "x", "y"
        )
    }
    port_names = dict(Port.objects.filter(campaign=campaign).values_list("key", "name"))
    factions = {
        key: (name, colour)
        for key, name, colour in Faction.objects.filter(campaign=campaign).values_list(
            "key", "name", "colour"
        )
    }
    game_map = world["map"]
    for province in game_map["provinces"]:
        name, x, y = provinces[province["id"]]
        province.update(name=name, x=_number(x), y=_number(y))
    for port in game_map["ports"]:
        port["name"] = port_names[port["id"]]
        if not port["blockaded_by"]:
            del port["blockaded_by"]  # the fleets' `blockading` says it; left out when empty
    for faction in world["factions"]:
        name, colour = factions[faction["id"]]
        faction.update(name=name, colour=colour)
    naval = campaign.naval_settings  # fog of war is the naval settings' (fleets 0008)
    settings = {key: getattr(naval if key in NAVAL_SETTINGS else campaign, key) for key in SETTINGS}
    settings["webhook_url"] = settings["webhook_url"] or None
    document: dict[str, Any] = {
        "format": CAMPAIGN_FORMAT,
        "name": campaign.name,
        "slug": campaign.slug,
        "description": campaign.description,
        "settings": settings,
    }
    document.update((key, value) for key, value in world.items() if key != "format")
    drawing = MapDrawing.objects.filter(campaign=campaign).values_list("svg", flat=True).first()
    if drawing:
        document["map_svg"] = drawing  # the map's own drawing, as it was given
    if naval.map_fill:
        document["map"]["fill"] = naval.map_fill
    return document


# The file's encodings, with the content type the export page serves each with.
CONTENT_TYPES = {
    "json": "application/json; charset=utf-8",
    "yaml": "application/yaml; charset=utf-8",
}


def campaign_file_text(campaign: Campaign, encoding: str) -> str:
    """`campaign_file_document` as the file's text, JSON or YAML: the one writer of both the
    export page and `campaign_export --campaign-file`, so the two give the same bytes."""
    document = campaign_file_document(campaign)
    if encoding == "yaml":
        return yaml.dump(document, Dumper=_Dumper, allow_unicode=True, sort_keys=False)
    if encoding == "json":
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    raise ValueError(f"a campaign file is JSON or YAML, not {encoding!r}")


class _Dumper(yaml.SafeDumper):
    """YAML as `safe_dump` writes it, but text of several lines (the map's own drawing, a
    description) as a literal block: the SVG reads in the file as it reads in its own."""


def _text_block(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _text_block)


def _number(value: float) -> int | float:
    """A position as the file writes it: 412, not 412.0."""
    return int(value) if float(value).is_integer() else value


# -- a problem's place, in words ----------------------------------------------------------------

# The tables of a campaign file: where their items are, what one is called, and the editor's
# table it is edited in.
LISTS = {
    "map.provinces": ("province", "province"),
    "map.ports": ("port", "port"),
    "map.adjacent": ("adjacency", "adjacency"),
    "factions": ("faction", "faction"),
    "relations": ("relation", "relation"),
    "ship_types": ("ship type", "ship-type"),
    "fleets": ("fleet", "fleet"),
}
FIELD_WORDS = {
    "id": "its id",
    "kind": "its kind (sea or land)",
    "name": "its name",
    "x": "its position across",
    "y": "its position down",
    "province": "the province it lies in",
    "owner": "its owner",
    "waters": "its waters",
    "blockaded_by": "the fleets blockading it",
    "treasury": "its treasury",
    "income": "its income",
    "upkeep_priority": "its upkeep priority",
    "colour": "its colour",
    "between": "the factions it is between",
    "state": "its state (war, peace or alliance)",
    "cost": "its cost",
    "attack": "its attack",
    "health": "its health",
    "at": "where it is",
    "docked": "whether it is docked",
    "mp_penalty": "its movement penalty",
    "blockading": "the port it blockades",
    "adrift": "whether it is adrift",
    "ships": "its ships",
    "type": "its type",
}
TOP_WORDS = {
    "": "the campaign",
    "format": "the file's format",
    "name": "the campaign's name",
    "slug": "the campaign's address (slug)",
    "description": "the campaign's description",
    "settings": "the campaign's settings",
    "rules": "the campaign's rules",
    "map": "the map",
    "map.provinces": "the provinces",
    "map.ports": "the ports",
    "map.adjacent": "the adjacencies",
    "map.fill": "the map's fill (the land and sea round the provinces)",
    "factions": "the factions",
    "relations": "the relations",
    "ship_types": "the ship types",
    "fleets": "the starting fleets",
    "map_svg": "the map's own drawing",
}
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]|\[('[^']*'|\"[^\"]*\")\]")


@dataclass(frozen=True, slots=True)
class Place:
    """A problem as the world editor lists it: where, in words; what is wrong; and the row to
    edit (the editor's table and the row's id; empty for the campaign's own settings)."""

    words: str
    message: str
    path: str  # the path in the file, as the import reports it
    table: str = ""
    key: str = ""


def problem_places(problems: list[Problem], document: dict[str, Any]) -> list[Place]:
    return [problem_place(problem, document) for problem in problems]


def problem_place(problem: Problem, document: dict[str, Any]) -> Place:
    """Where the problem is, as a person reads it: "fleet d1, ship dannebrog: its health"."""
    steps = _steps(problem.path)
    words, table, key = _place(steps, document)
    return Place(words, problem.message, problem.path, table, key)


def _steps(path: str) -> list[str | int]:
    steps: list[str | int] = []
    head = re.match(r"[^.\[]*", path)
    rest = path
    if head and head.group():
        steps.append(head.group())
        rest = path[head.end() :]
    for match in _STEP.finditer(rest):
        name, index, quoted = match.groups()
        if index is not None:
            steps.append(int(index))
        else:
            steps.append(name if name is not None else quoted.strip("'\""))
    return steps


def _place(steps: list[str | int], document: dict[str, Any]) -> tuple[str, str, str]:
    if not steps:
        return TOP_WORDS[""], "", ""
    first = steps[0]
    if first in ("settings", "rules") and len(steps) > 1:
        what = "setting" if first == "settings" else "rule"
        return f"the campaign's {what} {steps[1]}", "", ""
    if first == "map" and len(steps) > 1 and isinstance(steps[1], str):
        list_name, rest = f"map.{steps[1]}", steps[2:]
    else:
        list_name, rest = str(first), steps[1:]
    if list_name not in LISTS or not rest or not isinstance(rest[0], int):
        return TOP_WORDS.get(list_name, list_name), "", ""
    noun, table = LISTS[list_name]
    item = _item(document, list_name, rest[0])
    words, key = _item_words(noun, list_name, item, rest[0])
    rest = rest[1:]
    if list_name == "fleets" and len(rest) >= 2 and rest[0] == "ships" and isinstance(rest[1], int):
        ships = item.get("ships") if isinstance(item, dict) else None
        ship = ships[rest[1]] if isinstance(ships, list) and rest[1] < len(ships) else None
        ship_id = ship.get("id") if isinstance(ship, dict) else None
        words += (
            f", ship {ship_id}" if isinstance(ship_id, str) else f", its ship no. {rest[1] + 1}"
        )
        rest = rest[2:]
    if rest and isinstance(rest[0], str):
        words += f": {FIELD_WORDS.get(rest[0], rest[0])}"
        if len(rest) > 1 and isinstance(rest[1], int):
            words += _entry(item, rest[0], rest[1])
    elif list_name == "map.adjacent" and rest:
        words += f": its {('first', 'second')[rest[0]] if rest[0] in (0, 1) else ''} province"
    return words, table, key


def _item(document: dict[str, Any], list_name: str, index: int) -> Any:
    where: Any = document
    for part in list_name.split("."):
        where = where.get(part) if isinstance(where, dict) else None
    return where[index] if isinstance(where, list) and 0 <= index < len(where) else None


def _item_words(noun: str, list_name: str, item: Any, index: int) -> tuple[str, str]:
    """ "port Copenhagen (copenhagen)", "the adjacency kattegat – zealand", and the row's id."""
    if list_name == "map.adjacent" and isinstance(item, list) and len(item) == 2:
        a, b = (str(p) for p in item)
        return f"the adjacency {a} – {b}", f"{a}~{b}"
    if list_name == "relations" and isinstance(item, dict):
        between = item.get("between")
        if isinstance(between, list) and len(between) == 2:
            a, b = (str(f) for f in between)
            return f"the relation between {a} and {b}", f"{a}~{b}"
    if isinstance(item, dict) and isinstance(item.get("id"), str):
        key, name = item["id"], item.get("name")
        shown = f"{name} ({key})" if isinstance(name, str) and name != key else key
        return f"{noun} {shown}", key
    return f"{noun} no. {index + 1}", ""


def _entry(item: Any, field: str, index: int) -> str:
    values = item.get(field) if isinstance(item, dict) else None
    if isinstance(values, list) and index < len(values) and isinstance(values[index], str):
        return f" ({values[index]})"
    return f" (no. {index + 1})"
