"""Memberships in the admin (issue 11): adding one, changing its user, role or faction, and
deleting one each write an audit entry with the old and new values (names, not ids) and the
reason, which is required — on the delete page too; without it nothing changes. The list's bulk
delete, which asks no reason, is not offered."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import AuditEntry, Membership

pytestmark = pytest.mark.django_db


def url(name: str, *args) -> str:
    return reverse(f"admin:campaign_membership_{name}", args=args)


def form_of(membership: Membership, **changes) -> dict:
    data = {
        "user": membership.user.username,
        "campaign": membership.campaign_id,
        "role": membership.role,
        "faction": membership.faction_id or "",
        "reason": "Anna hands Denmark to Dagmar",
    }
    return {**data, **changes}


@pytest.fixture
def danes(people) -> Membership:
    return people["danes"].memberships.get()


@pytest.fixture
def mod_client(client, people):
    client.force_login(people["mod"])  # staff, this campaign's moderator, not a superuser
    return client


def test_a_change_of_player_is_audited_with_old_and_new(
    mod_client, people, danes, open_skirmish, django_user_model
) -> None:
    """Before: a membership changed hands with no trace in the audit log."""
    django_user_model.objects.create_user("dagmar", "d@example.org", "pw")
    response = mod_client.post(url("change", danes.pk), form_of(danes, user="dagmar"))
    assert response.status_code == 302, response.content.decode()[:2000]
    danes.refresh_from_db()
    assert danes.user.username == "dagmar"
    entry = AuditEntry.objects.get(action="edit membership")
    assert (entry.campaign, entry.user, entry.reason) == (
        open_skirmish,
        people["mod"],
        "Anna hands Denmark to Dagmar",
    )
    assert entry.detail["changes"] == {"user": ["danes", "dagmar"]}


def test_a_change_of_faction_is_audited(mod_client, people, danes, open_skirmish) -> None:
    hanse = people["hanse"].memberships.get()
    hanse.delete()  # the Hanse's seat is free
    faction = open_skirmish.factions.get(key="hanse")
    response = mod_client.post(
        url("change", danes.pk), form_of(danes, faction=faction.pk, reason="swap")
    )
    assert response.status_code == 302
    assert AuditEntry.objects.get(action="edit membership").detail["changes"] == {
        "faction": ["danes (danes)", "hanse (hanse)"]
    }


@pytest.mark.parametrize("reason", ["", "   "])
def test_a_change_without_a_reason_changes_nothing(
    mod_client, danes, open_skirmish, reason
) -> None:
    swedes = open_skirmish.factions.get(key="swedes")
    response = mod_client.post(
        url("change", danes.pk), form_of(danes, faction=swedes.pk, reason=reason)
    )
    assert response.status_code == 200  # the form again, with the problem
    assert "This field is required." in response.content.decode()
    danes.refresh_from_db()
    assert danes.faction.key == "danes"
    assert not AuditEntry.objects.filter(action__contains="membership").exists()


def test_an_added_membership_is_audited(mod_client, people, open_skirmish) -> None:
    people["hanse"].memberships.get().delete()
    hanse = open_skirmish.factions.get(key="hanse")
    data = {
        "user": "stranger",
        "campaign": open_skirmish.pk,
        "role": "player",
        "faction": hanse.pk,
        "reason": "a new player for the Hanse",
    }
    assert mod_client.post(url("add"), data).status_code == 302
    assert Membership.objects.get(user=people["stranger"]).faction == hanse
    entry = AuditEntry.objects.get(action="add membership")
    assert entry.reason == "a new player for the Hanse"
    assert entry.detail["changes"] == {
        "user": ["", "stranger"],
        "campaign": ["", open_skirmish.slug],
        "role": ["", "player"],
        "faction": ["", "hanse (hanse)"],
    }


def test_a_deletion_asks_a_reason_and_records_the_old_values(
    mod_client, people, danes, open_skirmish
) -> None:
    """Before: Django's delete page asked no reason, and the entry had the row's ids."""
    page = mod_client.get(url("delete", danes.pk)).content.decode()
    assert 'name="reason"' in page
    refused = mod_client.post(url("delete", danes.pk), {"post": "yes", "reason": " "})
    assert refused.status_code == 200
    assert "Say why the membership is deleted" in refused.content.decode()
    assert Membership.objects.filter(pk=danes.pk).exists()
    assert not AuditEntry.objects.filter(action="delete membership").exists()

    done = mod_client.post(url("delete", danes.pk), {"post": "yes", "reason": "left the game"})
    assert done.status_code == 302
    assert not Membership.objects.filter(pk=danes.pk).exists()
    entry = AuditEntry.objects.get(action="delete membership")
    assert (entry.campaign, entry.user, entry.reason) == (
        open_skirmish,
        people["mod"],
        "left the game",
    )
    assert entry.detail["changes"] == {
        "user": ["danes", ""],
        "campaign": [open_skirmish.slug, ""],
        "role": ["player", ""],
        "faction": ["danes (danes)", ""],
    }


def test_the_lists_bulk_delete_is_not_offered(mod_client, danes) -> None:
    page = mod_client.get(url("changelist")).content.decode()
    assert "delete_selected" not in page
    action = {"action": "delete_selected", "_selected_action": [danes.pk], "post": "yes"}
    mod_client.post(url("changelist"), action)
    assert Membership.objects.filter(pk=danes.pk).exists()


def test_the_change_page_shows_the_user_name_and_saving_it_unchanged_keeps_the_player(
    mod_client, people, danes, django_user_model
) -> None:
    """Before: the field showed the user's id, so saving the page unchanged handed the faction to
    an account whose user name is that id (or refused the form, when there was none)."""
    django_user_model.objects.create_user(str(people["danes"].pk), "id@example.org", "pw")
    page = mod_client.get(url("change", danes.pk)).content.decode()
    field = page[page.index('name="user"') :].split(">")[0]
    assert 'value="danes"' in field
    response = mod_client.post(url("change", danes.pk), form_of(danes, reason="nothing, really"))
    assert response.status_code == 302
    danes.refresh_from_db()
    assert danes.user == people["danes"]
    assert AuditEntry.objects.get(action="edit membership").detail["changes"] == {}
