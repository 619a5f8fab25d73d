"""The pirates' suggested orders (U3) on the moderator's map (issue 20 §2): drawn dotted while
the turn is open and the pirates have no order given; gone once one is given; never on a
faction's map (a suggestion is the moderator's to see).

The skirmish with the Swedes' strong s1 sent away to the Skagerrak: p1, alone in the Bornholm
Basin, is suggested to blockade Kalmar (U3: a hostile port whose waters no stranger holds)."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from campaign import lifecycle
from campaign.models import Membership
from engine.naval import parse_scenario, suggest_pirate_orders
from fleets.campaign_files import read_campaign_file
from fleets.importing import campaign_import
from fleets.mapping import world_document
from fleets.models import Order
from tests.conftest import skirmish_campaign_document

pytestmark = pytest.mark.django_db
SLUG = "quiet-sound"


@pytest.fixture
def quiet(django_user_model):
    document = skirmish_campaign_document(slug=SLUG, name="A quiet Sound")
    document["fleets"] = copy.deepcopy(document["fleets"])
    next(f for f in document["fleets"] if f["id"] == "s1")["at"] = "skagerrak"
    campaign = campaign_import(read_campaign_file(document))
    lifecycle.turn_open(campaign.current_turn, user=None)
    users = {}
    for name, faction in (("mod", None), ("sven", "swedes"), ("anna", "danes")):
        users[name] = django_user_model.objects.create_user(name, f"{name}@example.org", "pw")
        Membership.objects.create(
            user=users[name],
            campaign=campaign,
            role=Membership.Role.MODERATOR if faction is None else Membership.Role.PLAYER,
            faction=campaign.factions.get(key=faction) if faction else None,
        )
    return campaign, users


def map_of(client, user) -> str:
    client.force_login(user)
    return client.get(reverse("campaign_map", args=[SLUG])).content.decode()


def test_the_pirates_suggestions_are_drawn_for_the_moderator_only(client, quiet) -> None:
    campaign, users = quiet
    [suggestion] = suggest_pirate_orders(parse_scenario(world_document(campaign)).world)
    assert (suggestion["fleet"], suggestion["type"], suggestion["port"]) == (
        "p1",
        "blockade",
        "kalmar",
    )
    svg = map_of(client, users["mod"])
    assert 'class="order blockade suggested" data-fleet="p1"' in svg
    assert "p1 (suggested for the pirates) blockades" in svg
    for player in ("sven", "anna"):
        assert "suggested" not in map_of(client, users[player])

    Order.objects.create(
        turn=campaign.current_turn,
        faction=campaign.factions.get(key="pirates"),
        slot="fleet:p1",
        payload={"fleet": "p1", "type": "hold"},
    )
    assert "suggested" not in map_of(client, users["mod"])  # given: the suggestion is gone
