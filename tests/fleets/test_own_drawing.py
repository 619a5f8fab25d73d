"""A campaign's own drawing of its map (issue 20 §1, docs/rulings.md R-76–R-79), end to end: a
campaign file with `map_svg` imported by the real command, its map (the real map view) drawn on
the file's shapes for the moderator and for a player under fog; every refusal in words with
nothing stored; the world editor's upload, replacement and removal; the export's round trip;
and a drawing that an edit of the world leaves behind."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from campaign.models import AuditEntry, Campaign
from engine.naval import parse_scenario
from engine.naval.fog import visible_fleets
from fleets.campaign_files import read_campaign_file
from fleets.importing import campaign_import
from fleets.mapping import world_document
from fleets.models import MapDrawing
from fleets.world_editor import WorldRefused, world_check, world_save
from tests.conftest import SKIRMISH, skirmish_campaign_document

pytestmark = pytest.mark.django_db
SVG_NS = "{http://www.w3.org/2000/svg}"
DRAWING = (Path(__file__).parent / "drawings" / "skirmish.svg").read_text()
PROVINCES = {p["id"] for p in SKIRMISH["map"]["provinces"]}
SLUG = "skirmish-in-the-sound"


def write_file(tmp_path: Path, **changes: Any) -> Path:
    path = tmp_path / "campaign.yaml"
    path.write_text(yaml.safe_dump(skirmish_campaign_document(**changes), allow_unicode=True))
    return path


def import_command(path: Path) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("campaign_import", str(path), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def the_map(client: Client, slug: str = SLUG) -> ET.Element:
    response = client.get(reverse("campaign_map", args=[slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    return ET.fromstring(response.content)


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG_NS}g") if cls in (g.get("class") or "").split()]


def provinces_of(root: ET.Element) -> dict[str, ET.Element]:
    return {str(g.get("data-province")): g for g in groups(root, "province")}


def drawn_on_the_drawing(root: ET.Element) -> None:
    """The map is the file's drawing: each province its own shape, in the desk's targets."""
    (own,) = groups(root, "own-drawing")
    provinces = provinces_of(root)
    assert set(provinces) == PROVINCES
    skagerrak = provinces["skagerrak"].find(f"{SVG_NS}path")
    assert skagerrak is not None
    assert skagerrak.get("d") == "M0 0 H300 V60 H120 L0 60 Z"
    assert provinces["zealand"].find(f"{SVG_NS}g/{SVG_NS}rect") is not None
    assert own.find(f".//{SVG_NS}text") is not None  # the drawing's own words, kept


def login(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


# -- the campaign file ---------------------------------------------------------------------------


def test_a_file_with_its_own_drawing_imports_and_the_map_is_drawn_on_it(
    tmp_path, django_user_model
) -> None:
    out, _ = import_command(write_file(tmp_path, map_svg=DRAWING))
    campaign = Campaign.objects.get(slug=out.split()[-1])
    assert MapDrawing.objects.get(campaign=campaign).svg == DRAWING  # kept as it was given
    mod = django_user_model.objects.create_user("mod", "m@example.org", "pw")
    campaign.memberships.create(user=mod, role="moderator")
    root = the_map(login(Client(), mod), campaign.slug)
    drawn_on_the_drawing(root)
    assert {g.get("data-fleet") for g in groups(root, "fleet")} == {
        f["id"] for f in SKIRMISH["fleets"]
    }


def test_a_player_under_fog_sees_every_shape_and_only_the_fleets_in_sight(people, client) -> None:
    campaign = Campaign.objects.get(slug=SLUG)
    MapDrawing.objects.create(campaign=campaign, svg=DRAWING)
    root = the_map(login(client, people["danes"]))
    drawn_on_the_drawing(root)  # fog hides fleets, never land or sea
    world = parse_scenario(world_document(campaign)).world
    assert {g.get("data-fleet") for g in groups(root, "fleet")} == set(
        visible_fleets(world, "danes")
    )
    unseen = {pid for pid, g in provinces_of(root).items() if groups(g, "shade")}
    assert unseen
    assert all("unseen" in (provinces_of(root)[pid].get("class") or "") for pid in unseen)


@pytest.mark.parametrize(
    ("svg", "words"),
    [
        ("<svg", "the drawing is not well-formed XML"),
        ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'>", "not well-formed XML"),
        ('<html xmlns="http://www.w3.org/1999/xhtml"/>', "the drawing is not an SVG"),
        (DRAWING.replace('id="smaland"', 'id="bay_x"'), "'bay_x' is not a province of this world"),
        (DRAWING.replace('id="smaland"', 'id="bay_x"'), "'smaland' is not drawn"),
        (DRAWING.replace('id="holstein"', 'id="jutland"'), "'jutland' is drawn twice"),
        (DRAWING.replace("<text ", "<script>x()</script><text "), "a <script> is not taken"),
        (
            DRAWING.replace('id="kattegat"', 'id="kattegat" onmouseover="x()"'),
            "'onmouseover' on <path id='kattegat'> is not taken",
        ),
        (
            DRAWING.replace('fill="url(#deep)"', 'fill="url(https://evil.test/p.svg#a)"'),
            "refers to 'https://evil.test/p.svg#a', outside the drawing",
        ),
        (
            DRAWING.replace("<text ", '<foreignObject width="1" height="1"/><text '),
            "a <foreignObject> is not taken",
        ),
        (DRAWING + "<!--" + "x" * 2_000_000 + "-->", "at most 2,000,000 (2 MB)"),
        (42, "the drawing is the SVG's text"),
    ],
)
def test_a_file_whose_drawing_is_refused_says_why_and_imports_nothing(
    tmp_path, svg: Any, words: str
) -> None:
    path = tmp_path / "campaign.json"  # JSON: the YAML reader takes at most 1 MB
    path.write_text(json.dumps(skirmish_campaign_document(map_svg=svg)))
    err = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("campaign_import", str(path), stdout=StringIO(), stderr=err)
    assert "not a valid campaign file" in str(caught.value)
    assert words in err.getvalue(), err.getvalue()
    assert not Campaign.objects.exists()
    assert not MapDrawing.objects.exists()


def test_a_file_with_no_drawing_or_an_empty_one_keeps_none(tmp_path) -> None:
    for n, value in enumerate((None, "")):
        doc = skirmish_campaign_document(map_svg=value, slug=f"c{n}")
        campaign_import(read_campaign_file(doc))
    assert Campaign.objects.count() == 2
    assert not MapDrawing.objects.exists()


def test_the_export_writes_the_drawing_and_reads_back_to_the_same(people, client) -> None:
    campaign = Campaign.objects.get(slug=SLUG)
    MapDrawing.objects.create(campaign=campaign, svg=DRAWING)
    login(client, people["mod"])
    for fmt, load in (("yaml", yaml.safe_load), ("json", json.loads)):
        response = client.get(reverse("world_export", args=[SLUG, fmt]))
        document = load(response.content.decode())
        assert document["map_svg"] == DRAWING
        copy = campaign_import(read_campaign_file({**document, "slug": f"copy-{fmt}"}))
        assert MapDrawing.objects.get(campaign=copy).svg == DRAWING


# -- the world editor ----------------------------------------------------------------------------


def upload(client: Client, content: bytes, reason: str = "the hand-drawn map") -> Any:
    return client.post(
        reverse("world_drawing", args=[SLUG]),
        {"svg": SimpleUploadedFile("map.svg", content, "image/svg+xml"), "reason": reason},
        follow=True,
    )


def said(response: Any) -> str:
    return " | ".join(str(m) for m in get_messages(response.wsgi_request))


def test_the_moderator_uploads_replaces_and_removes_the_drawing(people, client) -> None:
    campaign = Campaign.objects.get(slug=SLUG)
    login(client, people["mod"])
    assert "The map is drawn from the provinces' positions" in client.get(
        reverse("world", args=[SLUG])
    ).content.decode("utf-8")
    response = upload(client, DRAWING.encode())
    assert "now drawn on the campaign's own drawing" in said(response)
    page = response.content.decode()
    assert "The map is drawn on the campaign's own drawing (11 shapes" in page
    assert MapDrawing.objects.get(campaign=campaign).svg == DRAWING
    entry = AuditEntry.objects.filter(campaign=campaign).latest("pk")
    assert (entry.action, entry.reason, entry.detail["shapes"]) == (
        "world drawing add",
        "the hand-drawn map",
        11,
    )
    drawn_on_the_drawing(the_map(client))

    recoloured = DRAWING.replace("#d8c38e", "#cfb77f")
    upload(client, recoloured.encode(), reason="warmer lands")
    assert MapDrawing.objects.get(campaign=campaign).svg == recoloured
    assert AuditEntry.objects.filter(campaign=campaign).latest("pk").action == (
        "world drawing replace"
    )
    assert b"#cfb77f" in client.get(reverse("campaign_map", args=[SLUG])).content

    response = client.post(
        reverse("world_drawing_remove", args=[SLUG]), {"drawing-reason": "back"}, follow=True
    )
    assert "removed" in said(response)
    assert not MapDrawing.objects.filter(campaign=campaign).exists()
    assert not groups(the_map(client), "own-drawing")
    assert AuditEntry.objects.filter(campaign=campaign).latest("pk").action == (
        "world drawing remove"
    )


@pytest.mark.parametrize(
    ("content", "reason", "words"),
    [
        (
            DRAWING.replace('id="smaland"', 'id="bay_x"').encode(),
            "x",
            "The map's own drawing: 'bay_x' is not a province of this world (svg_unknown_province)",
        ),
        (DRAWING.replace('id="holstein"', 'id="jutland"').encode(), "x", "drawn twice"),
        (b"<svg", "x", "not well-formed XML"),
        (DRAWING.replace("<text ", "<script>x()</script><text ").encode(), "x", "(svg_script)"),
        (
            DRAWING.replace('id="scania"', 'id="scania" onclick="x()"').encode(),
            "x",
            "(svg_event_handler)",
        ),
        (
            DRAWING.replace("<text ", '<use href="http://evil.test/a.svg#b"/><text ').encode(),
            "x",
            "leads outside the drawing",
        ),
        (DRAWING.encode() + b" " * 2_000_001, "x", "at most 2,000,000 (2 MB) is taken"),
        ("<svg>é</svg>".encode("latin-1"), "x", "(not UTF-8): save it as plain SVG (svg_not_text)"),
        (DRAWING.encode(), "", "Say why"),
    ],
)
def test_a_refused_upload_says_why_and_changes_nothing(
    people, client, content: bytes, reason: str, words: str
) -> None:
    campaign = Campaign.objects.get(slug=SLUG)
    MapDrawing.objects.create(campaign=campaign, svg=DRAWING)
    audit = AuditEntry.objects.filter(campaign=campaign).count()
    login(client, people["mod"])
    response = upload(client, content, reason=reason)
    assert response.status_code == 200
    assert words in said(response), said(response)
    assert "not taken" in said(response) or "Say why" in said(response)
    assert MapDrawing.objects.get(campaign=campaign).svg == DRAWING
    assert AuditEntry.objects.filter(campaign=campaign).count() == audit


def test_only_the_moderator_uploads(people, client) -> None:
    login(client, people["danes"])
    response = client.post(
        reverse("world_drawing", args=[SLUG]),
        {"svg": SimpleUploadedFile("map.svg", DRAWING.encode()), "reason": "mine now"},
    )
    assert response.status_code == 404
    assert not MapDrawing.objects.exists()


# -- the world edited under the drawing ------------------------------------------------------------


def test_a_province_added_before_the_first_turn_leaves_the_drawing_behind(
    skirmish, django_user_model
) -> None:
    MapDrawing.objects.create(campaign=skirmish, svg=DRAWING)
    mod = django_user_model.objects.create_user("mod", "m@example.org", "pw")
    skirmish.memberships.create(user=mod, role="moderator")
    world_save(
        campaign=skirmish,
        user=mod,
        table="province",
        row=None,
        values={"key": "gotland", "name": "Gotland", "kind": "land", "x": 800, "y": 300},
        reason="an island",
    )
    problems = [(p.words, p.message) for p in world_check(skirmish).places]
    assert ("the map's own drawing", "'gotland' is not drawn (no shape has it as its id)") in (
        problems
    )
    client = login(Client(), mod)
    root = the_map(client, skirmish.slug)
    assert not groups(root, "own-drawing")  # the generated map, until the drawing fits again
    assert "gotland" in provinces_of(root)
    assert "no longer fits the world" in client.get(
        reverse("world", args=[skirmish.slug])
    ).content.decode("utf-8")


def test_under_way_an_edit_that_would_leave_the_drawing_behind_is_refused(people) -> None:
    campaign = Campaign.objects.get(slug=SLUG)
    MapDrawing.objects.create(campaign=campaign, svg=DRAWING)
    with pytest.raises(WorldRefused) as caught:
        world_save(
            campaign=campaign,
            user=people["mod"],
            table="province",
            row=None,
            values={"key": "gotland", "name": "Gotland", "kind": "land", "x": 800, "y": 300},
            reason="an island",
        )
    assert caught.value.code == "world_invalid"
    assert [p.message for p in caught.value.places] == [
        "'gotland' is not drawn (no shape has it as its id)"
    ]
    assert not campaign.provinces.filter(key="gotland").exists()
