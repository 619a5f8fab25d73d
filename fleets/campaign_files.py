"""Campaign files (docs/campaign-format.md): a scenario's world plus names, colours, positions
and the campaign's settings. Checked with the engine's own scenario parser, so every problem is
reported with its place in the file."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings as django_settings

from campaign.webhooks import WebhookRefused, vetted_addresses
from engine.naval import Problem, ScenarioError, parse_scenario
from engine.naval.scenario import TOP_KEYS as SCENARIO_KEYS
from maps.drawing import DrawingRefused, drawing_problems, drawing_read

CAMPAIGN_FORMAT = "naval-campaign/1"
# The scenario's world, without what belongs to one turn, plus what a campaign adds.
WORLD_KEYS = SCENARIO_KEYS - {"format", "seed", "dice", "orders"}
TOP_KEYS = WORLD_KEYS | {"format", "name", "slug", "description", "settings", "map_svg"}
SETTINGS = {
    "auto_resolve": bool,
    "turn_hours": int,
    "reminder_hours": int,
    "fog_of_war": bool,
    "resolve_early": bool,  # the naval settings' (R-90)
    "webhook_url": (str, type(None)),
    "language": str,  # the campaign's language (issue 22): a code of settings.LANGUAGES
}
# The settings that are the naval settings' row (fleets.NavalSettings), not the platform's.
NAVAL_SETTINGS = frozenset({"fog_of_war", "resolve_early"})
# What the database stores (campaign/models.py): a longer id or name, a larger number or a NUL
# character is refused here with its place, not left to fail as a database error at the import.
ID_LENGTH = 60
NAME_LENGTH = 120
CAMPAIGN_NAME_LENGTH = 200
URL_LENGTH = 200
LARGEST = 2**31 - 1
MAX_HOURS = 24 * 366  # a turn's deadline or a reminder at most a year away
# Every id a file defines ends up in URLs, form values, file names and printed reports: one
# safe pattern (what the bundled files and the tests use: "se-1", "arkona_basin", "swedes-s1").
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
ID_RULE = "letters, digits, '_', '.' and '-', starting with a letter or a digit"
# What no id or name may hold: control characters (line breaks and tabs too; NUL is reported on
# its own), line and paragraph separators, and the bidirectional controls that reorder the text
# shown around them.
UNSHOWABLE = re.compile(
    r"[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
MAX_FILL = 10_000  # fill points in a file's map.fill, land and sea together
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
    map_svg: str = ""  # the campaign's own drawing of its map (maps/drawing.py), checked
    map_fill: dict[str, list[list[float]]] = field(default_factory=dict)  # map.fill


def read_campaign_file(document: object) -> CampaignFile:
    """Check a campaign document; raise ScenarioError listing every problem with its path."""
    problems: list[Problem] = []
    if not isinstance(document, dict):
        raise ScenarioError([Problem("", "a campaign file is an object at the top")])
    doc = copy.deepcopy(document)
    for key in doc:
        if key not in TOP_KEYS:
            problems.append(Problem(str(key), f"unknown key {key!r}"))
    if doc.get("format") != CAMPAIGN_FORMAT:
        problems.append(Problem("format", f"must be {CAMPAIGN_FORMAT!r}"))
    _storable(doc, "", problems)
    name = doc.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(Problem("name", "a campaign needs a name"))
        name = ""
    elif len(name) > CAMPAIGN_NAME_LENGTH:
        problems.append(Problem("name", f"at most {CAMPAIGN_NAME_LENGTH} characters"))
    else:
        _check_showable(name, "name", problems)
    slug = doc.get("slug") or slugify(name)
    if not isinstance(slug, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,79}", slug):
        problems.append(Problem("slug", "letters, digits and hyphens, up to 80"))
    description = doc.get("description", "")
    if not isinstance(description, str | None):
        problems.append(Problem("description", "must be text"))
    settings = _settings(doc.get("settings"), problems)
    result = CampaignFile(str(name), str(slug), str(description or ""), settings, {})
    scenario = {k: v for k, v in doc.items() if k in WORLD_KEYS}
    scenario["format"] = "naval-scenario/1"
    _take_extras(scenario, result, problems)
    result.map_svg = _map_svg(doc.get("map_svg"), scenario, problems)
    _check_ids(scenario, problems)
    try:
        parse_scenario(scenario)
    except ScenarioError as error:
        problems.extend(error.problems)
    if problems:
        raise ScenarioError(problems)
    result.scenario = scenario
    return result


def _map_svg(value: object, scenario: dict[str, Any], problems: list[Problem]) -> str:
    """The file's own drawing (`map_svg`: the SVG's text, R-76), read and checked against the
    file's provinces (R-77, R-79); "" when it has none."""
    if value is None or value == "":
        return ""
    if not isinstance(value, str):
        problems.append(Problem("map_svg", "the drawing is the SVG's text"))
        return ""
    try:
        drawing = drawing_read(value)
    except DrawingRefused as refused:
        problems.extend(Problem("map_svg", p.message) for p in refused.problems)
        return ""
    game_map = scenario.get("map") if isinstance(scenario.get("map"), dict) else {}
    provinces = [
        p["id"]
        for p in _list(game_map.get("provinces"))
        if isinstance(p, dict) and isinstance(p.get("id"), str)
    ]
    problems.extend(Problem("map_svg", p.message) for p in drawing_problems(drawing, provinces))
    return value


def _storable(value: object, path: str, problems: list[Problem]) -> None:
    """Every string valid Unicode without NUL characters and every whole number within the
    database's range, wherever it is (iteratively: the reader refused a file nested too deep)."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str) and "\x00" in item:
            problems.append(Problem(where, "contains a NUL character"))
        elif isinstance(item, str) and not encodable(item):
            problems.append(Problem(where, "is not valid Unicode text (a lone surrogate)"))
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > LARGEST:
            problems.append(Problem(where, f"{item} is too large (at most {LARGEST})"))
        elif isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str) and ("\x00" in key or not encodable(key)):
                    problems.append(Problem(f"{where}[{key!r}]", "a key that cannot be stored"))
                    continue
                stack.append((child, f"{where}.{key}" if where else str(key)))
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{n}]") for n, child in enumerate(item))


def encodable(text: str) -> bool:
    """Whether the text can be stored: JSON and YAML let a lone surrogate (`"\\ud800"`) through."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_ids(scenario: dict[str, Any], problems: list[Problem]) -> None:
    """Ids fit their columns and ID_PATTERN (the engine has no limit of its own)."""
    game_map = scenario.get("map") if isinstance(scenario.get("map"), dict) else {}
    places = [
        ("map.provinces", _list(game_map.get("provinces"))),
        ("map.ports", _list(game_map.get("ports"))),
        ("factions", _list(scenario.get("factions"))),
        ("ship_types", _list(scenario.get("ship_types"))),
        ("fleets", _list(scenario.get("fleets"))),
    ]
    for n, fleet in enumerate(_list(scenario.get("fleets"))):
        if isinstance(fleet, dict):
            places.append((f"fleets[{n}].ships", _list(fleet.get("ships"))))
    for path, items in places:
        for i, item in enumerate(items):
            value = item.get("id") if isinstance(item, dict) else None
            if not isinstance(value, str) or "\x00" in value or not encodable(value):
                continue  # the parser or _storable reports it
            if len(value) > ID_LENGTH:
                problems.append(Problem(f"{path}[{i}].id", f"at most {ID_LENGTH} characters"))
            elif not ID_PATTERN.fullmatch(value):
                problems.append(Problem(f"{path}[{i}].id", f"{value!r}: an id is {ID_RULE}"))


def _url(value: object) -> bool:
    return (
        isinstance(value, str)
        and (value == "" or re.fullmatch(r"https?://\S+", value) is not None)
        and len(value) <= URL_LENGTH
    )


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
        elif kind is int and not 0 <= item <= MAX_HOURS:
            problems.append(Problem(f"settings.{key}", f"must be from 0 to {MAX_HOURS} hours"))
        elif key == "language" and item not in dict(django_settings.LANGUAGES):
            known = ", ".join(code for code, _ in django_settings.LANGUAGES)
            problems.append(Problem(f"settings.{key}", f"must be one of {known}"))
        elif key == "webhook_url" and item is not None and not _url(item):
            problems.append(
                Problem(f"settings.{key}", f"an http(s) address of at most {URL_LENGTH} characters")
            )
        elif key == "webhook_url" and item:
            try:
                vetted_addresses(item)
            except WebhookRefused as error:
                problems.append(Problem(f"settings.{key}", str(error)))
    return {k: v for k, v in value.items() if k in SETTINGS}


def _take_extras(scenario: dict[str, Any], out: CampaignFile, problems: list[Problem]) -> None:
    """Move the campaign-only keys out of the map and factions, checking them on the way."""
    game_map = scenario.get("map")
    if isinstance(game_map, dict):
        if "fill" in game_map:
            out.map_fill = _fill(game_map.pop("fill"), problems)
        for i, province in enumerate(_list(game_map.get("provinces"))):
            if not isinstance(province, dict):
                continue
            extras = {k: province.pop(k) for k in ("name", "x", "y") if k in province}
            _check_name(extras, f"map.provinces[{i}].name", problems)
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
        for i, port in enumerate(_list(game_map.get("ports"))):
            if isinstance(port, dict) and "name" in port:
                extras = {"name": port.pop("name")}
                _check_name(extras, f"map.ports[{i}].name", problems)
                if isinstance(port.get("id"), str):
                    out.port_names[port["id"]] = str(extras["name"])
    for n, faction in enumerate(_list(scenario.get("factions"))):
        if not isinstance(faction, dict):
            continue
        extras = {k: faction.pop(k) for k in ("name", "colour") if k in faction}
        _check_name(extras, f"factions[{n}].name", problems)
        colour = extras.get("colour", PALETTE[n % len(PALETTE)])
        if not isinstance(colour, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
            problems.append(Problem(f"factions[{n}].colour", 'a colour like "#c8102e"'))
        extras["colour"] = str(colour)
        if isinstance(faction.get("id"), str):
            out.faction_extras[faction["id"]] = extras


def _fill(value: object, problems: list[Problem]) -> dict[str, list[list[float]]]:
    """`map.fill`: land and sea that is no province, `{land: [[x, y], ...], sea: [...]}`, each
    point a position from 0 to 1000 (docs/campaign-format.md; drawn by maps/regions.py)."""
    if not isinstance(value, dict):
        problems.append(Problem("map.fill", "must be an object with lists `land` and `sea`"))
        return {}
    out: dict[str, list[list[float]]] = {}
    for kind, spots in value.items():
        if kind not in ("land", "sea"):
            problems.append(Problem(f"map.fill.{kind}", f"unknown key {kind!r}: land or sea"))
            continue
        if not isinstance(spots, list):
            problems.append(Problem(f"map.fill.{kind}", "must be a list of [x, y] positions"))
            continue
        kept: list[list[float]] = []
        for n, spot in enumerate(spots):
            if (
                isinstance(spot, list)
                and len(spot) == 2
                and all(
                    isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1000
                    for v in spot
                )
            ):
                kept.append(list(spot))
            else:
                problems.append(
                    Problem(f"map.fill.{kind}[{n}]", "a position [x, y], each from 0 to 1000")
                )
        out[kind] = kept
    if sum(len(v) for v in out.values()) > MAX_FILL:
        problems.append(Problem("map.fill", f"at most {MAX_FILL} points"))
    return out


def _check_name(extras: dict[str, Any], path: str, problems: list[Problem]) -> None:
    """A display name, if given, is text of at most NAME_LENGTH characters."""
    if "name" not in extras:
        return
    name = extras["name"]
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_LENGTH:
        problems.append(Problem(path, f"a name of 1 to {NAME_LENGTH} characters"))
    else:
        _check_showable(name, path, problems)


def _check_showable(text: str, path: str, problems: list[Problem]) -> None:
    """No control character, line break or bidirectional control in a name."""
    found = UNSHOWABLE.search(text)
    if found is not None:
        code = f"U+{ord(found.group()):04X}"
        problems.append(Problem(path, f"contains a control character ({code})"))


def _list(value: object) -> list[Any]:
    """The items of a list; anything else is the scenario parser's to report."""
    return value if isinstance(value, list) else []
