"""A naval campaign's own settings — its rules and fog of war — are not edited while the turn
waits to be published (issue 11, docs/rulings.md R-65, as the world is: R-50).

They were columns of the platform's Campaign, edited on its change page whatever the turn's
state: a locked turn is resolved by the rules stored with it at the lock, so an edit in between
sat beside a result that did not count it, and fog turned off showed every faction the others'
fleets before the moderator had reviewed the turn. Now they are the naval app's row
(fleets.NavalSettings), edited on its own admin page, and refused there like the world."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import lifecycle
from campaign.models import AuditEntry, Turn
from campaign.resolution import turn_resolve
from fleets.models import NavalSettings

pytestmark = pytest.mark.django_db
Status = Turn.Status
NEW_RULES = '{"max_rounds": 2}'


def change_url(campaign) -> str:
    return reverse("admin:fleets_navalsettings_change", args=[campaign.pk])


def settings_form(*, fog: bool, rules: str = NEW_RULES) -> dict:
    form = {"rules": rules, "reason": "the players voted for a clear sky"}
    if fog:
        form["fog_of_war"] = "on"
    return form


def said(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


@pytest.fixture
def mod_client(client, people):
    client.force_login(people["mod"])  # staff, this campaign's moderator, not a superuser
    return client


def held(campaign) -> tuple[dict, bool]:
    row = NavalSettings.objects.get(campaign=campaign)
    return row.rules, row.fog_of_war


def test_lock_edit_refused_publish_then_the_edit_is_kept(mod_client, open_skirmish) -> None:
    imported = held(open_skirmish)
    assert imported[1] is True  # the skirmish is played with fog (its file says nothing)
    turn = lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    assert turn.scenario["rules"] == imported[0]  # the rules the turn is resolved by

    shown = said(mod_client.get(change_url(open_skirmish)))
    assert "Turn 1 is locked: its result is computed" in shown  # said before typing
    for state in (Status.LOCKED, Status.RESOLVED):
        if state == Status.RESOLVED:
            assert turn_resolve(turn_id=turn.pk) == "resolved"
        response = mod_client.post(change_url(open_skirmish), settings_form(fog=False))
        assert response.status_code == 200  # the form again, with the refusal
        page = said(response)
        assert f"Turn 1 is {state}: its result is computed from the world" in page
        assert "(world_frozen)" in page
        assert held(open_skirmish) == imported
    assert not AuditEntry.objects.filter(action="edit naval settings").exists()

    turn.refresh_from_db()
    lifecycle.turn_publish(turn, user=None)
    assert held(open_skirmish) == imported  # publishing left them as they were
    response = mod_client.post(change_url(open_skirmish), settings_form(fog=False))
    assert response.status_code == 302  # saved
    assert held(open_skirmish) == ({"max_rounds": 2}, False)
    entry = AuditEntry.objects.get(action="edit naval settings")
    assert entry.reason == "the players voted for a clear sky"
    assert entry.detail["changes"]["fog_of_war"] == ["True", "False"]
    # The next turn is resolved by the new rules.
    next_turn = Turn.objects.get(campaign=open_skirmish, number=2)  # its campaign read afresh
    lifecycle.turn_lock(next_turn, user=None)
    next_turn.refresh_from_db()
    assert next_turn.scenario["rules"] == {"max_rounds": 2}


def test_the_settings_are_not_on_the_platforms_campaign_page(mod_client, open_skirmish) -> None:
    page = mod_client.get(reverse("admin:campaign_campaign_change", args=[open_skirmish.pk]))
    form = page.context["adminform"].form
    assert "fog_of_war" not in form.fields
    assert "rules" not in form.fields
    assert "webhook_url" in form.fields  # the platform's own settings stay there


def test_another_campaigns_moderator_neither_sees_nor_edits_them(client, people) -> None:
    from campaign.models import Campaign

    skirmish = Campaign.objects.get(slug="skirmish-in-the-sound")
    before = held(skirmish)
    client.force_login(people["rival"])
    assert client.get(change_url(skirmish)).status_code == 302  # "does not exist", to the index
    client.post(change_url(skirmish), settings_form(fog=False))
    assert held(skirmish) == before
    listed = client.get(reverse("admin:fleets_navalsettings_changelist"))
    assert "skirmish-in-the-sound" not in listed.content.decode()


def test_no_settings_row_is_added_or_deleted_in_the_admin(mod_client, open_skirmish) -> None:
    assert mod_client.get(reverse("admin:fleets_navalsettings_add")).status_code == 403
    delete = reverse("admin:fleets_navalsettings_delete", args=[open_skirmish.pk])
    assert mod_client.post(delete, {"post": "yes"}).status_code == 403
    assert NavalSettings.objects.filter(campaign=open_skirmish).exists()


def test_the_import_writes_the_files_rules_and_fog_into_the_settings_row() -> None:
    from fleets.campaign_files import read_campaign_file
    from fleets.importing import campaign_import
    from tests.conftest import skirmish_campaign_document

    document = skirmish_campaign_document(slug="clear", settings={"fog_of_war": False})
    campaign = campaign_import(read_campaign_file(document))
    assert held(campaign) == (document["rules"], False)
    assert not hasattr(campaign, "fog_of_war")  # the platform's table has no naval setting
