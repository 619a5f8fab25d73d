"""Malformed campaign files for `campaign_import` (issue 5): every problem reported with its place
in the file, exit status 2, and nothing imported — by the command and by the admin's page."""

from __future__ import annotations

import copy
import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import given
from hypothesis import strategies as st

from campaign.models import AuditEntry, Campaign
from engine.naval import ScenarioError
from fleets.campaign_files import ID_RULE, read_campaign_file
from fleets.models import Faction, Fleet, Province, Ship
from tests.conftest import skirmish_campaign_document
from tests.fuzz.mutations import mutated
from tests.fuzz.profile import FUZZ

pytestmark = pytest.mark.django_db
LINE = re.compile(r" \(line \d+\)$")
GOOD = skirmish_campaign_document()


def changed(change: Any) -> dict[str, Any]:
    doc = copy.deepcopy(GOOD)
    change(doc)
    return doc


def fleet(n: int) -> dict[str, Any]:
    return GOOD["fleets"][n]


# name -> (file contents, or a document to write as YAML; the problems expected, exactly)
CASES: dict[str, tuple[Any, list[str]]] = {
    "not YAML": ("format: [naval-campaign/1\n", None),
    "a list at the top": ([1, 2], ["a campaign file is an object at the top"]),
    "wrong format": (
        changed(lambda d: d.update(format="naval-scenario/1")),
        ["format: must be 'naval-campaign/1'"],
    ),
    "no name": (
        changed(lambda d: d.pop("name")),
        ["name: a campaign needs a name", "slug: letters, digits and hyphens, up to 80"],
    ),
    "unknown key": (
        changed(lambda d: d.update(weather="fair")),
        ["weather: unknown key 'weather'"],
    ),
    "no map": (
        changed(lambda d: d.pop("map")),
        ["map: is required"]
        + [
            f"fleets[{n}].at: "
            + (
                f"a docked fleet is at a port; {f['at']!r} is not one"
                if f.get("docked")
                else f"{f['at']!r} is not a sea province"
            )
            for n, f in enumerate(GOOD["fleets"])
        ],
    ),
    "treasury as text": (
        changed(lambda d: d["factions"][0].update(treasury="600")),
        ["factions[0].treasury: must be a whole number"],
    ),
    "negative treasury": (
        changed(lambda d: d["factions"][1].update(treasury=-5)),
        ["factions[1].treasury: must be at least 0"],
    ),
    "treasury too large for the database": (
        changed(lambda d: d["factions"][0].update(treasury=2**40)),
        [f"factions[0].treasury: {2**40} is too large (at most 2147483647)"],
    ),
    "duplicate fleet id": (
        changed(lambda d: d["fleets"][1].update(id="d1")),
        ["fleets[1].id: fleet 'd1' is listed twice"],
    ),
    "duplicate province id": (
        changed(lambda d: d["map"]["provinces"].append(copy.deepcopy(d["map"]["provinces"][0]))),
        ["map.provinces[11].id: province 'skagerrak' is listed twice"],
    ),
    "unknown ship type": (
        changed(lambda d: d["fleets"][3]["ships"][0].update(type="dragon")),
        ["fleets[3].ships[0].type: unknown ship type 'dragon'"],
    ),
    "fleet of an unknown faction": (
        changed(lambda d: d["fleets"][0].update(owner="venice")),
        ["fleets[0].owner: 'venice' is not a listed faction (X2)"],
    ),
    "adjacency to an unknown province": (
        changed(lambda d: d["map"]["adjacent"].append(["kattegat", "atlantis"])),
        ["map.adjacent[18][1]: unknown province 'atlantis'"],
    ),
    "port at sea": (
        changed(lambda d: d["map"]["ports"][0].update(province="oresund")),
        [
            "map.ports[0].province: 'oresund' is sea; a port lies on land (W2)",
            "map.ports[0].waters[0]: 'oresund' is not adjacent to 'oresund' (X1)",
            "map.ports[0].waters[1]: 'belt_sea' is not adjacent to 'oresund' (X1)",
        ],
    ),
    "port water not next to it": (
        changed(lambda d: d["map"]["ports"][1].update(waters=["bornholm_basin"])),
        ["map.ports[1].waters[0]: 'bornholm_basin' is not adjacent to 'scania' (X1)"],
    ),
    "a port's water twice": (  # an IntegrityError at the import before
        changed(lambda d: d["map"]["ports"][0]["waters"].append("oresund")),
        ["map.ports[0].waters[2]: 'oresund' is listed twice"],
    ),
    "position off the drawing": (
        changed(lambda d: d["map"]["provinces"][2].update(x=-1)),
        ["map.provinces[2].x: a position from 0 to 1000 is required"],
    ),
    "position missing": (
        changed(lambda d: d["map"]["provinces"][3].pop("y")),
        ["map.provinces[3].y: a position from 0 to 1000 is required"],
    ),
    "bad colour": (
        changed(lambda d: d["factions"][0].update(colour="red")),
        ['factions[0].colour: a colour like "#c8102e"'],
    ),
    "bad setting": (
        changed(lambda d: d.update(settings={"turn_hours": -1, "fog": True})),
        ["settings.turn_hours: must be from 0 to 8784 hours", "settings.fog: unknown key 'fog'"],
    ),
    "turn hours past any date": (
        changed(lambda d: d.update(settings={"turn_hours": 2**31 - 1})),
        ["settings.turn_hours: must be from 0 to 8784 hours"],
    ),
    "webhook not an address": (
        changed(lambda d: d.update(settings={"webhook_url": "ftp://x" + "y" * 300})),
        ["settings.webhook_url: an http(s) address of at most 200 characters"],
    ),
    "NUL in a name": (
        changed(lambda d: d["factions"][0].update(name="Dan\x00es")),
        ["factions[0].name: contains a NUL character"],
    ),
    "a lone surrogate in a name": (
        json.dumps(changed(lambda d: d["factions"][0].update(name="Dan\ud800es"))),
        ["factions[0].name: is not valid Unicode text (a lone surrogate)"],
    ),
    # Issue 11: an imported fleet id with "/" broke its player's desk (a 500).
    "a fleet id with a slash": (
        changed(lambda d: d["fleets"][0].update(id="d/1")),
        [
            "fleets[0].id: 'd/1': an id is " + ID_RULE,
            "factions[0].upkeep_priority[0]: unknown fleet 'd1'",
        ],
    ),
    "a ship id with a terminal escape": (
        changed(lambda d: d["fleets"][0]["ships"][0].update(id="\x1b[31mred")),
        ["fleets[0].ships[0].id: '\\x1b[31mred': an id is " + ID_RULE],
    ),
    "a ship id with a space": (
        changed(lambda d: d["fleets"][0]["ships"][1].update(id="norske love")),
        ["fleets[0].ships[1].id: 'norske love': an id is " + ID_RULE],
    ),
    "a port id starting with a dot": (
        changed(lambda d: d["map"]["ports"][0].update(id="..")),
        [
            "map.ports[0].id: '..': an id is " + ID_RULE,
            "fleets[1].at: a docked fleet is at a port; 'copenhagen' is not one",
        ],
    ),
    "a faction name with a bidirectional override": (
        changed(lambda d: d["factions"][0].update(name="Danes\u202eseloN")),
        ["factions[0].name: contains a control character (U+202E)"],
    ),
    "a province name with a line break": (
        changed(lambda d: d["map"]["provinces"][0].update(name="Skager\nrak")),
        ["map.provinces[0].name: contains a control character (U+000A)"],
    ),
    "a campaign name with a terminal escape": (
        changed(lambda d: d.update(name="Sound\x1b]0;owned\x07")),
        ["name: contains a control character (U+001B)"],
    ),
    "id too long": (
        changed(lambda d: d["fleets"][0].update(id="d" * 61)),
        [
            "fleets[0].id: at most 60 characters",
            "factions[0].upkeep_priority[0]: unknown fleet 'd1'",
        ],
    ),
    "name not text": (
        changed(lambda d: d["map"]["provinces"][0].update(name={"en": "Skagerrak"})),
        ["map.provinces[0].name: a name of 1 to 120 characters"],
    ),
    "fleet without ships": (
        changed(lambda d: d["fleets"][1].pop("ships")),
        ["fleets[1].ships: a fleet has at least one ship (W5)"],
    ),
    "ship of a list of owners": (
        changed(lambda d: d["fleets"][0]["ships"][0].update(owner=["danes"])),
        ["fleets[0].ships[0].owner: must be a faction id"],
    ),
}


def import_file(tmp_path: Path, contents: Any, name: str = "campaign.yaml") -> tuple[int, str]:
    path = tmp_path / name
    path.write_text(contents if isinstance(contents, str) else yaml.safe_dump(contents))
    err = StringIO()
    try:
        call_command("campaign_import", str(path), stdout=StringIO(), stderr=err)
    except CommandError as error:
        failed = error
    else:
        return 0, err.getvalue()
    return failed.returncode, err.getvalue() + str(failed)


def nothing_imported() -> None:
    for model in (Campaign, Faction, Province, Fleet, Ship, AuditEntry):
        assert not model.objects.exists(), model


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_malformed_campaign_file_lists_its_problems(tmp_path: Path, name: str) -> None:
    contents, expected = CASES[name]
    code, err = import_file(tmp_path, contents)
    assert code == 2, err
    assert "Traceback" not in err
    printed = [LINE.sub("", line.strip()) for line in err.splitlines() if line.startswith("  ")]
    if expected is None:
        assert printed[0].startswith("not valid YAML"), err
    else:
        assert sorted(printed) == sorted(expected), err
    nothing_imported()


def test_a_yaml_file_s_problems_carry_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "campaign.yaml"
    text = yaml.safe_dump(GOOD, sort_keys=False)
    text = text.replace("type: frigate", "type: dragon", 1)
    path.write_text(text)
    line = 1 + text.splitlines().index(next(t for t in text.splitlines() if "type: dragon" in t))
    code, err = import_file(tmp_path, text)
    assert code == 2
    assert f"unknown ship type 'dragon' (line {line})" in err
    missing = changed(lambda d: d["map"]["provinces"][3].pop("y"))
    code, err = import_file(tmp_path, yaml.safe_dump(missing, sort_keys=False))
    assert re.search(
        r"map.provinces\[3\].y: a position from 0 to 1000 is required \(line \d+\)", err
    )


def test_the_good_file_imports(tmp_path: Path) -> None:
    assert import_file(tmp_path, GOOD)[0] == 0
    assert Campaign.objects.count() == 1


def problems_or_campaign(doc: object) -> list[str] | None:
    try:
        read_campaign_file(doc)
    except ScenarioError as error:
        problems = error.problems
    else:
        return None
    assert problems
    assert all(p.path and p.message for p in problems), problems
    return [str(p) for p in problems]


@FUZZ
@given(mutated(GOOD))
def test_a_mutated_campaign_file_imports_whole_or_not_at_all(doc: dict[str, Any]) -> None:
    from fleets.importing import campaign_import

    with transaction.atomic():
        problems = problems_or_campaign(doc)
        if problems is None:
            campaign = campaign_import(read_campaign_file(doc))
            assert campaign.fleets.count() == len(doc["fleets"])
        else:
            nothing_imported()
        transaction.set_rollback(True)


@FUZZ
@given(mutated(GOOD, max_changes=2), st.sampled_from(["json", "yaml"]))
def test_a_mutated_file_through_the_command(tmp_path_factory, doc: Any, kind: str) -> None:
    path = tmp_path_factory.mktemp("fuzz") / f"campaign.{kind}"
    path.write_text(json.dumps(doc) if kind == "json" else yaml.safe_dump(doc))
    with transaction.atomic():
        code, err = import_file(path.parent, path.read_text(), name=path.name)
        assert code in (0, 2), err
        assert "Traceback" not in err
        if code == 2:
            nothing_imported()
        transaction.set_rollback(True)


def test_the_admin_import_page_answers_a_bad_file_with_its_problems(admin_client) -> None:
    bad = yaml.safe_dump(CASES["unknown ship type"][0]).encode()
    for name, data in [
        ("bad.yaml", bad),
        ("bytes.yaml", bytes(range(256))),
        ("deep.json", b"[" * 50_000 + b"]" * 50_000),
        ("nul.json", json.dumps(CASES["NUL in a name"][0]).encode()),
    ]:
        page = admin_client.post(
            "/admin/campaign/campaign/import/", {"file": SimpleUploadedFile(name, data)}
        )
        assert page.status_code == 200, name
        assert b"problem" in page.content.lower() or b"not" in page.content, name
    text = page.content.decode()
    assert "factions[0].name: contains a NUL character" in text
    assert not Campaign.objects.exists()
