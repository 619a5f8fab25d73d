"""An open turn whose world was made wrong behind the editor's back (the admin, a hand-edited
row: R-51 does not hold those) still gets its dashboard and its pages, each saying what is
wrong, never a 500: the pirates' suggestions (U3) and the map need the engine to read the
world, and a world it refuses has neither (docs/rulings.md R-74)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaign import lifecycle
from campaign.models import AuditEntry, Membership
from fleets.models import Order, Ship

pytestmark = pytest.mark.django_db


@pytest.fixture
def mod(django_user_model, skirmish):
    user = django_user_model.objects.create_user("mod", "mod@example.org", "pw", is_staff=True)
    Membership.objects.create(user=user, campaign=skirmish, role=Membership.Role.MODERATOR)
    return user


@pytest.fixture
def broken(skirmish, mod) -> Any:
    """The skirmish's turn 1 open, then a ship above its type's maximum."""
    lifecycle.turn_open(skirmish.current_turn, user=mod)
    Ship.objects.filter(campaign=skirmish, key="dannebrog").update(health=99)
    return skirmish


def test_the_dashboard_of_a_broken_open_world_says_so(client, broken, mod):
    client.force_login(mod)
    response = client.get(reverse("admin:campaign_dashboard", args=[broken.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "The world has 1 problem" in page
    assert "fleet d1, ship dannebrog: its health: 99 is above" in page
    assert f'href="{reverse("world_check", args=[broken.slug])}"' in page
    assert "Give the pirates these orders" not in page


def test_the_pirates_orders_of_a_broken_world_are_refused_and_nothing_changes(client, broken, mod):
    client.force_login(mod)
    orders, entries = Order.objects.count(), AuditEntry.objects.count()
    response = client.post(
        reverse("admin:campaign_pirate_orders", args=[broken.pk]),
        {"turn": broken.current_turn.pk},
        follow=True,
    )
    assert response.status_code == 200
    assert "No pirate orders given: the world has 1 problem" in response.content.decode()
    assert (Order.objects.count(), AuditEntry.objects.count()) == (orders, entries)


def test_the_map_of_a_broken_world_is_an_answer_not_a_500(client, broken, mod):
    client.force_login(mod)
    response = client.get(reverse("campaign_map", args=[broken.slug]))
    assert response.status_code != 500


@pytest.fixture
def broken_people(people):
    """`people`'s campaign (its turn open), then the same ship made wrong."""
    Ship.objects.filter(key="dannebrog").update(health=99)
    return people


@pytest.mark.parametrize(
    ("who", "where"),
    [
        ("danes", "desk"),
        ("mod", "desk"),
        ("danes", "campaign_map"),
        ("swedes", "campaign_map"),
        ("danes", "turns"),
    ],
)
def test_a_players_page_of_a_broken_world_says_the_moderator_is_at_it(
    client, broken_people, who, where
):
    client.force_login(broken_people[who])
    response = client.get(reverse(where, args=["skirmish-in-the-sound"]))
    assert response.status_code in (200, 409), response.status_code
    if response.status_code == 409:
        page = response.content.decode()
        assert "world_invalid" in page
        # A player is not told what is wrong: the problem may name a fleet out of their sight.
        assert ("dannebrog" in page) == (who == "mod")


def test_an_order_to_a_broken_world_is_refused_and_nothing_changes(client, broken_people):
    client.force_login(broken_people["danes"])
    orders = Order.objects.count()
    response = client.post(
        reverse("fleet_order", args=["skirmish-in-the-sound", "d1"]),
        {"type": "move", "path": "kattegat"},
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert "Nothing done: This campaign&#x27;s world has a problem the rules cannot read" in page
    assert "dannebrog" not in page
    assert Order.objects.count() == orders


def test_the_api_of_a_broken_world_answers_world_invalid(client, broken_people):
    from fleets.services import token_issue

    key = token_issue(membership=broken_people["danes"].memberships.get())
    response = client.get(
        "/api/campaigns/skirmish-in-the-sound/state", headers={"Authorization": f"Bearer {key}"}
    )
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "world_invalid"
    assert body["message"].startswith("This campaign's world has a problem")  # a read: no "done"
    assert "dannebrog" not in body["message"]
