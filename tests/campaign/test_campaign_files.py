"""campaign_import and campaign_export: the bundled campaign, bad files, the round trip."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.core.management import CommandError, call_command

from campaign import lifecycle
from campaign.models import Campaign
from campaign.resolution import turn_resolve
from engine.naval import adjudicate
from fleets.models import Faction, Fleet, Order, Port, Province, Ship
from tests.conftest import SKIRMISH_ORDERS, skirmish_campaign_document

ROOT = Path(__file__).resolve().parents[2]
BALTIC = ROOT / "examples" / "baltic.campaign.yaml"


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.mark.django_db
def test_the_bundled_baltic_campaign_imports() -> None:
    out = run("campaign_import", str(BALTIC))
    slug = out.strip().splitlines()[-1].split()[-1]  # the slug is the last word, for scripts
    campaign = Campaign.objects.get(slug=slug)
    seas = Province.objects.filter(campaign=campaign, kind="sea").count()
    assert 25 <= seas <= 40
    assert 8 <= Port.objects.filter(campaign=campaign).count() <= 15
    assert 4 <= Faction.objects.filter(campaign=campaign).exclude(key="pirates").count() <= 6
    assert Fleet.objects.filter(campaign=campaign).count() > 10
    source = yaml.safe_load(BALTIC.read_text())
    assert Ship.objects.filter(campaign=campaign).count() == sum(
        len(f["ships"]) for f in source["fleets"]
    )
    kattegat = Province.objects.get(campaign=campaign, key="kattegat")
    assert kattegat.name == "Kattegat"
    assert 0 <= kattegat.x <= 1000
    assert campaign.current_turn.status == "draft"


@pytest.mark.django_db
def test_a_bad_campaign_file_lists_every_problem_with_its_place(tmp_path: Path) -> None:
    doc = skirmish_campaign_document()
    doc["map"]["provinces"][0]["x"] = 4000
    doc["fleets"][0]["at"] = "atlantis"
    doc["settings"] = {"auto_resolve": "sometimes"}
    doc["weather"] = "fair"
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(doc))
    err = StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("campaign_import", str(path), stdout=StringIO(), stderr=err)
    assert raised.value.returncode == 2
    text = err.getvalue()
    assert "weather: unknown key 'weather'" in text
    assert "settings.auto_resolve: has the wrong type" in text
    assert "map.provinces[0].x: a position from 0 to 1000 is required" in text
    assert "fleets[0].at: 'atlantis' is not a sea province" in text
    assert not Campaign.objects.exists()  # nothing half-imported


@pytest.mark.django_db
def test_importing_the_same_slug_twice_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "skirmish.json"
    path.write_text(json.dumps(skirmish_campaign_document()))
    run("campaign_import", str(path))
    with pytest.raises(CommandError, match="already a campaign"):
        run("campaign_import", str(path))
    assert Campaign.objects.count() == 1


@pytest.mark.django_db
def test_export_then_adjudicate_reproduces_the_stored_result(skirmish, tmp_path: Path) -> None:
    turn = lifecycle.turn_open(skirmish.current_turn, user=None)
    owners = dict(Fleet.objects.filter(campaign=skirmish).values_list("key", "owner__key"))
    factions = {f.key: f for f in skirmish.factions.all()}
    for n, order in enumerate(SKIRMISH_ORDERS):
        key = order["faction"] if order["type"] == "hire" else owners.get(order.get("fleet"))
        if key:
            Order.objects.create(turn=turn, faction=factions[key], slot=f"s{n}", payload=order)
    lifecycle.turn_lock(turn, user=None)
    turn_resolve(turn_id=turn.pk)
    turn.refresh_from_db()
    path = tmp_path / "turn1.json"
    run("campaign_export", skirmish.slug, "--turn", "1", "-o", str(path))
    exported = json.loads(path.read_text())
    assert exported["seed"] == turn.seed
    assert adjudicate(exported) == turn.result
    # and through the command line tool, as a moderator would check it
    out = StringIO()
    call_command("adjudicate", str(path), stdout=out)
    assert json.loads(out.getvalue()) == turn.result


@pytest.mark.django_db
def test_export_of_an_open_turn_is_the_world_and_orders_so_far(skirmish) -> None:
    exported = json.loads(run("campaign_export", skirmish.slug))
    assert exported["format"] == "naval-scenario/1"
    assert {f["id"] for f in exported["fleets"]} == {"d1", "d2", "h1", "s1", "s2", "s3", "p1"}
    assert exported["orders"] == []
    adjudicate(exported)  # a valid scenario


@pytest.mark.django_db
def test_export_of_an_unknown_campaign_or_turn_is_refused(skirmish) -> None:
    with pytest.raises(CommandError, match="no campaign"):
        run("campaign_export", "atlantis")
    with pytest.raises(CommandError, match="has no turn 9"):
        run("campaign_export", skirmish.slug, "--turn", "9")
