"""campaign_import and campaign_export: the bundled campaign, bad files, the round trip; the
campaign file from the command line (`--campaign-file`), the same bytes as the browser's export."""

from __future__ import annotations

import json
from io import BytesIO, StringIO, TextIOWrapper
from pathlib import Path

import pytest
import yaml
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from campaign import lifecycle
from campaign.models import Campaign, Membership
from campaign.resolution import turn_resolve
from engine.naval import adjudicate
from fleets.campaign_files import read_campaign_file
from fleets.importing import campaign_import
from fleets.mapping import world_document
from fleets.models import Faction, Fleet, Order, Port, Province, Ship
from tests.conftest import (
    SKIRMISH_ORDERS,
    resolve_with_the_swedes_attacking,
    skirmish_campaign_document,
)

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


# -- --campaign-file: the browser's campaign file, from the command line --------------------------


@pytest.fixture
def played(django_user_model) -> tuple[Campaign, Client]:
    """The skirmish under a name that is not ASCII, one turn resolved and published (so the file
    is the world as it stands, not as imported), and its moderator's browser."""
    campaign = campaign_import(read_campaign_file(skirmish_campaign_document(name=NAME)))
    lifecycle.turn_publish(resolve_with_the_swedes_attacking(campaign), user=None)
    moderator = django_user_model.objects.create_user("admiral", "a@example.org", "pw")
    Membership.objects.create(campaign=campaign, user=moderator, role=Membership.Role.MODERATOR)
    client = Client()
    client.force_login(moderator)
    return campaign, client


NAME = "Slaget i Øresund – 1710"


def browser_export(client: Client, slug: str, encoding: str) -> bytes:
    response = client.get(reverse("world_export", args=[slug, encoding]))
    assert response.status_code == 200
    return bytes(response.content)


def to_stdout(*args: str) -> bytes:
    """What the command writes to a real stdout, as bytes: an ASCII one, as under a C locale,
    so a name written through the locale's encoding would fail or change."""
    raw = BytesIO()
    out = TextIOWrapper(raw, encoding="ascii")
    call_command(*args, stdout=out, stderr=StringIO())
    out.flush()
    return raw.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize("encoding", ["json", "yaml"])
def test_the_campaign_file_is_the_browsers_export_byte_for_byte(
    played: tuple[Campaign, Client], encoding: str, tmp_path: Path
) -> None:
    campaign, client = played
    expected = browser_export(client, campaign.slug, encoding)
    assert NAME.encode() in expected  # the case the bytes could differ on
    assert b"naval-campaign/1" in expected  # a campaign file, not a turn's scenario
    path = tmp_path / f"out.{encoding}"
    out = run("campaign_export", campaign.slug, "--campaign-file", encoding, "-o", str(path))
    assert path.read_bytes() == expected
    assert out == f"Wrote the campaign file of {campaign.slug} to {path}\n"
    assert to_stdout("campaign_export", campaign.slug, "--campaign-file", encoding) == expected


@pytest.mark.django_db
@pytest.mark.parametrize("encoding", ["json", "yaml"])
def test_the_campaign_file_imports_back_to_the_same_campaign(
    played: tuple[Campaign, Client], encoding: str, tmp_path: Path
) -> None:
    campaign, _ = played
    slug = campaign.slug
    path = tmp_path / f"{slug}.campaign.{encoding}"
    run("campaign_export", slug, "--campaign-file", encoding, "-o", str(path))
    world = world_document(campaign)
    # As on another site, where the slug is free: the file is imported untouched, with its own
    # slug (the campaign's rows protect one another from a plain delete, so it moves aside).
    Campaign.objects.filter(pk=campaign.pk).update(slug=f"{slug}-before")
    imported = run("campaign_import", str(path))
    again = Campaign.objects.get(slug=imported.split()[-1])
    assert again.slug == slug
    assert again.pk != campaign.pk
    assert again.name == NAME
    assert world_document(again) == world
    # and exported again, the very same file
    assert to_stdout("campaign_export", slug, "--campaign-file", encoding) == path.read_bytes()


def refused(*args: str) -> str:
    """The command's refusal: exit status 2 and one line (manage.py prints a CommandError as
    that line, with no traceback)."""
    with pytest.raises(CommandError) as raised:
        run(*args)
    assert raised.value.returncode == 2
    message = str(raised.value)
    assert message
    assert "\n" not in message
    return message


@pytest.mark.django_db
def test_the_campaign_file_of_an_unknown_campaign_is_refused() -> None:
    assert refused("campaign_export", "atlantis", "--campaign-file", "json") == (
        "There is no campaign 'atlantis'."
    )


@pytest.mark.django_db
def test_a_seafaring_game_has_no_campaign_file(tmp_path: Path) -> None:
    run("campaign_import", str(ROOT / "examples" / "small-isles-opening.seafarers.json"))
    game = Campaign.objects.get(ruleset="seafarers")
    path = tmp_path / "game.json"
    message = refused("campaign_export", game.slug, "--campaign-file", "json", "-o", str(path))
    assert message == (
        f"{game.slug} is a game of Seafarers, which has no campaign file; "
        "without --campaign-file, campaign_export writes it as a scenario file."
    )
    assert not path.exists()


@pytest.mark.django_db
def test_a_campaign_file_of_a_past_turn_is_refused(skirmish) -> None:
    message = refused("campaign_export", skirmish.slug, "--campaign-file", "json", "--turn", "1")
    assert message.startswith("--turn does not go with --campaign-file")


@pytest.mark.django_db
@pytest.mark.parametrize("mode", [("--campaign-file", "yaml"), ()])
def test_an_unwritable_output_is_refused_in_one_line(skirmish, tmp_path: Path, mode) -> None:
    missing = tmp_path / "no-such-folder" / "out.json"
    assert refused("campaign_export", skirmish.slug, *mode, "-o", str(missing)) == (
        f"Cannot write {missing}: No such file or directory."
    )
    assert refused("campaign_export", skirmish.slug, *mode, "-o", str(tmp_path)) == (
        f"Cannot write {tmp_path}: Is a directory."
    )


def test_the_campaign_file_option_takes_only_json_or_yaml() -> None:
    with pytest.raises(CommandError, match="invalid choice: 'xml'"):
        run("campaign_export", "skirmish", "--campaign-file", "xml")


# -- map.fill: land and sea that is no province (docs/campaign-format.md) ---------------------


@pytest.mark.django_db
def test_the_fill_points_are_kept_drawn_from_and_exported_as_read() -> None:
    from fleets.map_views import _layout
    from fleets.world_files import campaign_file_document

    doc = skirmish_campaign_document()
    fill = {"land": [[10, 20], [30.5, 40]], "sea": [[900, 900]]}
    doc["map"]["fill"] = fill
    source = read_campaign_file(doc)
    assert "fill" not in source.scenario["map"]  # the rules never see them
    campaign = Campaign.objects.get(pk=campaign_import(source).pk)
    assert campaign.naval_settings.map_fill == fill
    assert _layout(campaign).fill == (("land", 10.0, 20.0), ("land", 30.5, 40.0), ("sea", 900, 900))
    exported = campaign_file_document(campaign)
    assert exported["map"]["fill"] == fill
    again = campaign_import(read_campaign_file({**exported, "slug": "again"}))
    assert Campaign.objects.get(pk=again.pk).naval_settings.map_fill == fill
    # A campaign without them exports none.
    plain = campaign_import(read_campaign_file({**skirmish_campaign_document(), "slug": "plain"}))
    assert "fill" not in campaign_file_document(plain)["map"]


def test_bad_fill_points_are_refused_each_with_its_place() -> None:
    from engine.naval import ScenarioError
    from fleets.world_files import problem_place

    doc = skirmish_campaign_document()
    doc["map"]["fill"] = {"land": [[10], [2000, 5], "x", [True, 3], [1, 2]], "lava": [], "sea": 5}
    with pytest.raises(ScenarioError) as raised:
        read_campaign_file(doc)
    paths = {p.path: p.message for p in raised.value.problems}
    for n in range(4):
        assert paths[f"map.fill.land[{n}]"] == "a position [x, y], each from 0 to 1000"
    assert "map.fill.land[4]" not in paths
    assert "unknown key 'lava'" in paths["map.fill.lava"]
    assert "list" in paths["map.fill.sea"]
    words = problem_place(raised.value.problems[0], doc).words
    assert words == "the map's fill (the land and sea round the provinces)"
    doc["map"]["fill"] = [[1, 2]]
    with pytest.raises(ScenarioError) as raised:
        read_campaign_file(doc)
    assert [p.path for p in raised.value.problems] == ["map.fill"]
