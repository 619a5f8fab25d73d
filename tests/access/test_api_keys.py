"""API keys (issue 11): a key belongs to a membership as it was when the key was made, and dies
with a deactivated user and with a change of the membership (another user, another faction);
the player sees the key's state on the desk; the API answers a path it does not have and a
method it does not take as `{code, message}` (404, 405), never HTML."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from campaign.models import Membership
from fleets.services import token_issue

pytestmark = pytest.mark.django_db
SLUG = "skirmish-in-the-sound"


def me(client, key: str):
    return client.get("/api/me", headers={"Authorization": f"Bearer {key}"})


@pytest.fixture
def danes_key(people) -> str:
    return token_issue(membership=people["danes"].memberships.get())


def test_a_deactivated_users_key_stops_working(client, people, danes_key) -> None:
    """Before: the key still worked."""
    assert me(client, danes_key).status_code == 200
    people["danes"].is_active = False
    people["danes"].save(update_fields=["is_active"])
    refused = me(client, danes_key)
    assert (refused.status_code, refused.json()["code"]) == (401, "unauthorized")
    # Back in service, the key works again: it was never the key that was wrong.
    people["danes"].is_active = True
    people["danes"].save(update_fields=["is_active"])
    cache.clear()  # (the failed try counted as a bad key from this address)
    assert me(client, danes_key).status_code == 200


def test_a_key_dies_when_the_membership_passes_to_another_user(
    client, people, danes_key, django_user_model
) -> None:
    """Before: the old player's key ordered for the faction's new player."""
    successor = django_user_model.objects.create_user("dagmar", "d@example.org", "pw")
    Membership.objects.filter(user=people["danes"]).update(user=successor)
    assert me(client, danes_key).status_code == 401
    new_key = token_issue(membership=successor.memberships.get())
    assert me(client, new_key).json()["faction"] == "danes"


def test_a_key_dies_when_the_membership_changes_faction(
    client, people, danes_key, open_skirmish
) -> None:
    Membership.objects.filter(user=people["danes"]).update(
        faction=open_skirmish.factions.get(key="hanse")
    )
    assert me(client, danes_key).status_code == 401


def test_the_player_sees_their_keys_state(client, people, danes_key) -> None:
    client.force_login(people["danes"])
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert "your API key works (made " in page
    assert "never used" in page
    me(client, danes_key)
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert "last used " in page
    other = people["hanse"].memberships.get()
    Membership.objects.filter(pk=other.pk).delete()  # the Hanse's seat is free: the Danes move
    Membership.objects.filter(user=people["danes"]).update(faction=other.faction)
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert "your API key no longer works</strong>: this membership has changed" in page


def test_a_desk_without_a_key_offers_one(client, people) -> None:
    client.force_login(people["danes"])
    page = client.get(reverse("desk", args=[SLUG])).content.decode()
    assert ">Make an API key</button>" in page


@pytest.mark.parametrize(
    "path", ["/api/nowhere", "/api/campaigns/x/y/z", "/api/me/", "/api/campaigns/skirmish/"]
)
def test_a_path_the_api_does_not_have_is_a_json_404(client, danes_key, path) -> None:
    """Before: Django's HTML 404 page."""
    for headers in ({}, {"Authorization": f"Bearer {danes_key}"}):
        response = client.get(path, headers=headers)
        assert response.status_code == 404
        assert response["Content-Type"].startswith("application/json")
        assert response.json()["code"] == "not_found"
        assert path in response.json()["message"]


def test_a_method_the_api_does_not_take_is_a_json_405(client, danes_key) -> None:
    """Before: a plain-text "Method not allowed"."""
    response = client.put(
        f"/api/campaigns/{SLUG}/orders", headers={"Authorization": f"Bearer {danes_key}"}
    )
    assert response.status_code == 405
    assert response.json() == {
        "code": "method_not_allowed",
        "message": f"PUT is not an operation of /api/campaigns/{SLUG}/orders: it takes GET, POST.",
    }
    assert set(response["Allow"].replace(" ", "").split(",")) == {"GET", "POST"}
    assert client.delete("/api/me").json()["code"] == "method_not_allowed"


def test_the_api_root_is_a_json_404(client) -> None:
    response = client.get("/api/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_a_naval_key_made_for_a_seafaring_campaign_opens_nothing(client, people) -> None:
    """R-71: each game's pages serve only its own campaigns. A naval key its moderator made for
    a seafaring campaign before that (the naval key page answered them) stops working."""
    from campaign.models import Campaign

    isles = Campaign.objects.create(name="Isles", slug="isles", ruleset="seafarers")
    membership = Membership.objects.create(
        user=people["mod"], campaign=isles, role=Membership.Role.MODERATOR
    )
    key = token_issue(membership=membership)
    refused = me(client, key)
    assert (refused.status_code, refused.json()["code"]) == (401, "unauthorized")
