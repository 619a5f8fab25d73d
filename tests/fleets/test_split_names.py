"""A split's new fleet is named in its faction's namespace (issue 11, docs/rulings.md R-61):
the Hanse's split named "s3" (the Swedish s3 is hidden from the Hanse by fog of war, R-36)
forms `hanse-s3`, answered exactly as a name no fleet has, and the split happens at resolution.
Before: "s3" was accepted when given and refused at resolution ("there is already a fleet
called s3"), which told the Hanse that a fleet of that name existed."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from campaign import lifecycle
from campaign.resolution import turn_resolve
from fleets.models import Fleet, Order
from fleets.services import token_issue

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"
ORDERS = f"/api/campaigns/{SLUG}/orders"


def split(name: str) -> dict:
    return {"fleet": "h1", "type": "split", "ships": ["adler"], "new_fleet": name}


def api_give(client, key: str, order: dict) -> tuple[int, dict]:
    response = client.post(
        ORDERS,
        json.dumps({"order": order}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )
    return response.status_code, response.json()


def desk_split(client, fleet: str, ships: list[str], name: str, **extra: str):
    data = {
        "type": "split",
        "split_ships": ships,
        "new_fleet": name,
        "stance": "engage",
        "retreat": "never",
        "prefer": "sink",
        "if_cornered": "surrender",
    }
    fields = {f"{fleet}-{k}": v for k, v in data.items()} | extra
    return client.post(
        reverse("fleet_order", args=[SLUG, fleet]), fields, headers={"HX-Request": "true"}
    )


@pytest.fixture
def hanse_key(people) -> str:
    return token_issue(membership=people["hanse"].memberships.get())


def test_a_hidden_fleets_name_is_answered_as_an_unknown_one(client, hanse_key) -> None:
    hidden = api_give(client, hanse_key, split("s3"))
    Order.objects.all().delete()
    unknown = api_give(client, hanse_key, split("zz9"))
    assert hidden == (
        201,
        {"slot": "fleet:h1", "order": split("hanse-s3"), "final_unmarked": False},
    )
    assert unknown == (
        201,
        {"slot": "fleet:h1", "order": split("hanse-zz9"), "final_unmarked": False},
    )


def test_the_split_into_a_hidden_fleets_name_happens_at_resolution(
    client, hanse_key, open_skirmish
) -> None:
    assert api_give(client, hanse_key, split("s3"))[0] == 201
    turn = lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    turn_resolve(turn_id=turn.pk)
    turn.refresh_from_db()
    refused = [r for r in turn.result["refused"] if "h1" in json.dumps(r) or "s3" in r["message"]]
    assert refused == []
    splits = [e for e in turn.result["events"] if e["type"] == "split"]
    assert [(e["fleet"], e["new_fleet"], e["ships"]) for e in splits] == [
        ("h1", "hanse-s3", ["adler"])
    ]
    lifecycle.turn_publish(turn, user=None)
    formed = Fleet.objects.get(campaign=open_skirmish, key="hanse-s3")
    assert formed.owner.key == "hanse"
    assert [s.key for s in formed.ships.all()] == ["adler"]
    assert Fleet.objects.get(campaign=open_skirmish, key="s3").owner.key == "swedes"


def test_on_the_desk_the_player_sees_the_name_the_fleet_will_have(client, people) -> None:
    client.force_login(people["hanse"])
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert "it will be called hanse-…" in page
    card = desk_split(client, "h1", ["adler"], "raiders").content.decode()
    assert "Order: <strong>Split off adler as hanse-raiders</strong>" in card
    assert Order.objects.get().payload["new_fleet"] == "hanse-raiders"
    # A name given with the prefix is kept; one of the faction's own fleets is refused as taken.
    desk_split(client, "h1", ["adler"], "hanse-raiders")
    assert Order.objects.order_by("-id").first().payload["new_fleet"] == "hanse-raiders"


def test_the_faction_hears_when_its_own_fleet_has_the_name(client, people, open_skirmish) -> None:
    Fleet.objects.filter(campaign=open_skirmish, key="h1").update(key="hanse-old")
    client.force_login(people["hanse"])
    card = desk_split(client, "hanse-old", ["adler"], "old").content.decode()
    assert "there is already a fleet called hanse-old (invalid_order)" in card
    assert not Order.objects.exists()


def test_the_moderators_split_keeps_the_id_given(client, people) -> None:
    """The moderator's orders are checked against the whole world (R-45): no namespace."""
    client.force_login(people["mod"])
    desk_split(client, "s3", ["hjorten"], "s9", reason="by letter")
    assert Order.objects.get().payload["new_fleet"] == "s9"


def test_two_splits_of_the_faction_may_not_form_one_name(client, people) -> None:
    """Before: both accepted, the second refused at resolution."""
    client.force_login(people["swedes"])
    desk_split(client, "s1", ["kronan"], "raiders")
    card = desk_split(client, "s3", ["hjorten"], "raiders").content.decode()
    assert (
        "there is already a fleet called swedes-raiders: s1 splits it off this turn (invalid_order)"
    ) in card
    assert Order.objects.count() == 1
    desk_split(client, "s1", ["kronan"], "raiders")  # its own slot again: a change, taken
    assert Order.objects.count() == 2
    client.post(reverse("fleet_withdraw", args=[SLUG, "s1"]))  # withdrawn: the name is free
    desk_split(client, "s3", ["hjorten"], "raiders")
    assert Order.objects.filter(slot="fleet:s3").exists()
