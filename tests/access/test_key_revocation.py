"""The moderator and the members' API keys (issue 11): the dashboard shows each key's state
(whose, made when, last used, working or not and why), and a revocation — with its reason,
audited — makes the key refused (401) from the next request on. A revocation without a reason,
of a membership with no key, or of another campaign's membership is refused with a message and
changes nothing."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from campaign.models import AuditEntry, Membership
from fleets.models import ApiToken
from fleets.services import NO_SUCH_KEY, REASON_REQUIRED, token_issue
from tests.conftest import RIVAL_SLUG

pytestmark = pytest.mark.django_db


def me(client, key: str):
    return client.get("/api/me", headers={"Authorization": f"Bearer {key}"})


def dashboard(open_skirmish) -> str:
    return reverse("admin:campaign_dashboard", args=[open_skirmish.pk])


def revoke(client, open_skirmish, membership_id, reason: str = "key posted on the forum"):
    url = reverse("admin:campaign_api_key_revoke", args=[open_skirmish.pk])
    return client.post(url, {"membership": membership_id, "reason": reason}, follow=True)


@pytest.fixture
def keys(people):
    """The Danes' and the Swedes' keys (the Hanse have none)."""
    return {
        name: token_issue(membership=people[name].memberships.get()) for name in ("danes", "swedes")
    }


def test_the_dashboard_shows_each_keys_state(client, people, keys, open_skirmish) -> None:
    me(client, keys["danes"])
    # The Swedes' seat passes to another player: their key no longer works (the seal).
    Membership.objects.filter(user=people["swedes"]).update(user=people["stranger"])
    client.force_login(people["mod"])
    page = client.get(dashboard(open_skirmish)).content.decode()
    section = page[page.index('id="api-keys"') :]
    danes = section[section.index("danes (danes)") :]
    assert "never" not in danes.split("</tr>")[0]  # used once, just now
    assert "works" in danes.split("</tr>")[0]
    swedes = section[section.index("swedes (stranger)") :].split("</tr>")[0]
    assert "no longer works</span>: this membership has changed" in swedes
    assert "(hanse)" not in section  # no key, no row


def test_a_revoked_key_is_refused_at_once(client, people, keys, open_skirmish) -> None:
    """Before: the moderator could neither see nor revoke a key."""
    assert me(client, keys["danes"]).status_code == 200
    danes = people["danes"].memberships.get()
    client.force_login(people["mod"])
    page = revoke(client, open_skirmish, danes.pk).content.decode()
    assert "The key is revoked" in page
    refused = me(client, keys["danes"])
    assert (refused.status_code, refused.json()["code"]) == (401, "unauthorized")
    assert me(client, keys["swedes"]).status_code == 200  # the others' keys still work
    entry = AuditEntry.objects.get(action="revoke api key")
    assert (entry.campaign, entry.user, entry.reason) == (
        open_skirmish,
        people["mod"],
        "key posted on the forum",
    )
    assert (entry.detail["user"], entry.detail["seat"], entry.detail["worked"]) == (
        "danes",
        "danes",
        True,
    )
    assert entry.detail["last_used"] is not None
    # The player makes a new key on the desk, and it works.
    cache.clear()  # (the refused try counted as a bad key from this address)
    assert me(client, token_issue(membership=danes)).status_code == 200


@pytest.mark.parametrize("reason", ["", "   "])
def test_a_revocation_needs_a_reason(client, people, keys, open_skirmish, reason) -> None:
    client.force_login(people["mod"])
    page = revoke(client, open_skirmish, people["danes"].memberships.get().pk, reason)
    assert REASON_REQUIRED in page.content.decode().replace("&#x27;", "'")
    assert me(client, keys["danes"]).status_code == 200
    assert not AuditEntry.objects.filter(action="revoke api key").exists()


def test_a_revocation_of_no_key_here_is_refused_alike(client, people, keys, open_skirmish):
    """A membership with no key, another campaign's membership with a key, and garbage are one
    answer: the moderator learns nothing of another campaign."""
    rival = people["rival"].memberships.get(campaign__slug=RIVAL_SLUG)
    rival_key = token_issue(membership=rival)
    client.force_login(people["mod"])
    for named in (people["hanse"].memberships.get().pk, rival.pk, "x", "9" * 40, "\x00"):
        response = revoke(client, open_skirmish, named)
        assert response.status_code == 200
        assert NO_SUCH_KEY in response.content.decode()
    assert ApiToken.objects.count() == 3
    assert me(client, rival_key).status_code == 200
    assert not AuditEntry.objects.filter(action="revoke api key").exists()


def test_only_the_campaigns_moderator_revokes(client, people, keys, open_skirmish) -> None:
    danes = people["danes"].memberships.get()
    url = reverse("admin:campaign_api_key_revoke", args=[open_skirmish.pk])
    data = {"membership": danes.pk, "reason": "mine"}
    client.force_login(people["rival"])
    assert client.post(url, data).status_code == 404
    client.force_login(people["danes"])  # a player: not staff, to the admin's login page
    assert client.post(url, data)["Location"].startswith(reverse("admin:login"))
    assert me(client, keys["danes"]).status_code == 200
