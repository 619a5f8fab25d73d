"""Words, not ids (issue 11): the desk and the API's messages name factions, provinces, ports and
ship types as the campaign file names them; ids only where a machine needs them (form values,
slots, the API's documents)."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from campaign import lifecycle
from campaign.models import Membership
from fleets.campaign_files import read_campaign_file
from fleets.importing import campaign_import
from fleets.models import LedgerLine
from fleets.services import token_issue
from fleets.words import Words
from tests.conftest import skirmish_campaign_document

pytestmark = pytest.mark.django_db
SLUG = "named-sound"
PLACES = {
    "skagerrak": "Skagerrak",
    "kattegat": "Kattegat",
    "oresund": "Øresund",
    "belt_sea": "Belt Sea",
    "arkona_basin": "Arkona Basin",
    "bornholm_basin": "Bornholm Basin",
    "zealand": "Zealand",
}
PORTS = {"copenhagen": "København", "gothenburg": "Göteborg", "malmo": "Malmö", "lubeck": "Lübeck"}
FACTIONS = {"danes": "Denmark–Norway", "swedes": "Sweden", "hanse": "The Hanse"}


@pytest.fixture
def named(django_user_model):
    """The skirmish with the names a real campaign file gives; Sven plays Sweden, Dorte Denmark."""
    doc = skirmish_campaign_document(slug=SLUG, name="The Sound, named")
    for province in doc["map"]["provinces"]:
        province["name"] = PLACES.get(province["id"], province["id"].title())
    for port in doc["map"]["ports"]:
        port["name"] = PORTS.get(port["id"], port["id"].title())
    for faction in doc["factions"]:
        faction["name"] = FACTIONS[faction["id"]]
    campaign = campaign_import(read_campaign_file(doc))
    lifecycle.turn_open(campaign.current_turn, user=None)
    users = {}
    for username, key in (("sven", "swedes"), ("dorte", "danes")):
        users[key] = django_user_model.objects.create_user(username, f"{username}@x.org", "pw")
        Membership.objects.create(
            user=users[key],
            campaign=campaign,
            role=Membership.Role.PLAYER,
            faction=campaign.factions.get(key=key),
        )
    return campaign, users


def order_form(fleet: str, **fields: str) -> dict[str, str]:
    base = {"type": "hold", "stance": "engage", "retreat": "never", "prefer": "sink"}
    return {f"{fleet}-{k}": v for k, v in {**base, "if_cornered": "surrender", **fields}.items()}


def api_order(client, user, campaign, order: dict) -> dict:
    key = token_issue(membership=user.memberships.get(campaign=campaign))
    return client.post(
        f"/api/campaigns/{SLUG}/orders",
        json.dumps({"order": order}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    ).json()


def visible_text(html: str) -> str:
    """What a person reads: the page without its tags and attribute values."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]*>", " ", html)


def test_api_refusals_name_places_and_factions(client, named) -> None:
    """Before: "gulf ids": "belt_sea is not adjacent to arkona_basin"."""
    campaign, users = named
    far = api_order(
        client, users["swedes"], campaign, {"fleet": "s1", "type": "move", "path": ["kattegat"]}
    )
    assert far == {"code": "not_adjacent", "message": "Kattegat is not adjacent to Arkona Basin"}
    port = api_order(
        client,
        users["swedes"],
        campaign,
        {"fleet": "s1", "type": "enter_port", "port": "copenhagen"},
    )
    assert port["code"] == "not_friendly_port"
    assert port["message"] == "København belongs to Denmark–Norway, who is not your ally"
    theirs = api_order(client, users["swedes"], campaign, {"fleet": "d1", "type": "hold"})
    assert theirs == {"code": "not_commander", "message": "d1 is not commanded by Sweden."}
    unknown = api_order(
        client, users["swedes"], campaign, {"fleet": "s1", "type": "move", "path": [""]}
    )
    assert unknown["message"] == 'there is no province called ""'  # not "called " and nothing


def test_the_desk_names_everything_a_person_reads(client, named) -> None:
    _campaign, users = named
    client.force_login(users["swedes"])
    client.post(
        reverse("fleet_order", args=[SLUG, "s1"]),
        order_form("s1", type="move", destination="oresund"),
    )
    client.post(
        reverse("economy_order", args=[SLUG, "hire"]),
        {"hire-port": "gothenburg", "hire-ship_type": "galley", "hire-count": 2},
    )
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert "Order: <strong>Sail to Øresund</strong>" in page  # before: "move via Øresund"
    assert "Hire 2 × Galley at Göteborg: costs 120" in page  # before: "hire 2 × galley at …"
    assert "kronan (Ship of the line) health 20 of 20" in page
    assert '<option value="gothenburg">Göteborg</option>' in page  # before: gothenburg twice
    assert "Galley: 60 a ship" in page
    text = visible_text(page)
    for key in (*PLACES, *PORTS, *FACTIONS, "ship_of_the_line", "enter_port"):
        assert not re.search(rf"(?<![\w-]){key}(?![\w-])", text), key


def test_an_order_missing_its_choice_is_refused_in_words(client, named) -> None:
    _campaign, users = named
    client.force_login(users["swedes"])
    empty = client.post(
        reverse("fleet_order", args=[SLUG, "s1"]),
        order_form("s1", type="move"),
        headers={"HX-Request": "true"},
    ).content.decode()
    assert "Choose where to sail." in empty  # before: "there is no province called  (…)"


def test_the_ledger_reads_in_words(client, named) -> None:
    campaign, users = named
    first = campaign.current_turn
    lifecycle.turn_lock(first, user=None)
    from campaign.resolution import turn_resolve

    turn_resolve(turn_id=first.pk)
    first.refresh_from_db()
    lifecycle.turn_publish(first, user=None)
    assert LedgerLine.objects.filter(turn=first, kind="upkeep_paid").exists()
    client.force_login(users["swedes"])
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert "<td>Upkeep paid</td>" in page
    assert "<td>Income</td>" in page
    assert "upkeep_paid" not in page


def test_words_put_names_for_ids_and_leave_fleets_and_unknown_words() -> None:
    words = Words(factions={"swedes": "Sweden"}, places={"belt_sea": "Belt Sea"}, ship_types={})
    assert words.message("s1 is not adjacent to belt_sea") == "s1 is not adjacent to Belt Sea"
    assert words.message("swedes has 10.") == "Sweden has 10."
    assert words.message("there is no port called atlantis") == 'there is no port called "atlantis"'
    assert words.ship_type("ship_of_the_line") == "Ship of the line"


def test_the_dashboards_pirate_suggestions_read_in_words(client, named, django_user_model):
    """Before: the order's type and ids as stored ("hold", "move via bornholm_basin → …"); the
    skirmish's pirates hold, so the line is "Hold (evade)"."""
    campaign, _ = named
    mod = django_user_model.objects.create_user("mia", "m@x.org", "pw", is_staff=True)
    Membership.objects.create(user=mod, campaign=campaign, role=Membership.Role.MODERATOR)
    client.force_login(mod)
    page = client.get(reverse("admin:campaign_dashboard", args=[campaign.pk])).content.decode()
    line = re.search(r"<li><code>p1</code>: (.*?)</li>", page)
    assert line is not None
    words = line.group(1)
    assert words == "Hold (evade)"
    assert not re.search(r"\b(?:" + "|".join(PLACES) + r")\b", words)
