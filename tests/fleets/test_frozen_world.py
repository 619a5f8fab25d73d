"""The world is not edited while the turn waits to be published (issue 11, rulings R-50).

A locked, resolved or failed turn's result is computed from the world as it stood at the lock,
and publishing writes it over the rows: an edit in the admin made in between was accepted,
audited, and then silently lost. Now it is refused — the change form, an added row, the delete
page and the list's delete action — with a message saying why and what to do (reopen or roll
back first, or edit after publishing), and nothing changes; after publishing the rows hold the
result, and the edit is accepted and kept."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign import lifecycle
from campaign.models import AuditEntry, Turn
from campaign.transitions import transition
from fleets.models import Fleet, Relation, ShipType
from tests.conftest import resolve_with_the_swedes_attacking

pytestmark = pytest.mark.django_db
Status = Turn.Status


def url(name: str, *args) -> str:
    return reverse(f"admin:fleets_{name}", args=args)


def treasury_form(faction, treasury: int) -> dict:
    return {
        "campaign": faction.campaign_id,
        "key": faction.key,
        "name": faction.name,
        "colour": faction.colour,
        "treasury": treasury,
        "income": faction.income,
        "upkeep_priority": "[]",
        "reason": "loan from the Dutch",
    }


def said(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


@pytest.fixture
def mod_client(client, people):
    client.force_login(people["mod"])  # staff, this campaign's moderator, not a superuser
    return client


def locked(campaign) -> Turn:
    """The turn locked; its resolution (queued after the commit, which a test never reaches)
    has not run."""
    return lifecycle.turn_lock(campaign.current_turn, user=None)


@pytest.mark.parametrize(
    ("state", "what_to_do"),
    [
        ("locked", "Reopen the turn on the dashboard first (its orders stay)"),
        ("resolved", "Roll back its draft result on the dashboard first"),
        ("failed", "Reopen the turn on the dashboard first"),
    ],
)
def test_a_treasury_edit_is_refused_while_the_turn_waits(
    mod_client, open_skirmish, state, what_to_do
) -> None:
    """Before: accepted (302) and audited, then overwritten by publish."""
    if state == "resolved":
        resolve_with_the_swedes_attacking(open_skirmish)
    else:
        turn = locked(open_skirmish)
        if state == "failed":  # as the worker marks it (campaign/resolution.py)
            transition(turn, user=None, action="fail", error="the worker ran out of memory")
    assert open_skirmish.current_turn.status == state
    danes = open_skirmish.factions.get(key="danes")
    before = danes.treasury
    shown = said(mod_client.get(url("faction_change", danes.pk)))
    assert f"Turn 1 is {state}: its result is computed" in shown  # said before typing
    response = mod_client.post(url("faction_change", danes.pk), treasury_form(danes, 999))
    assert response.status_code == 200  # the form again, with the refusal
    page = said(response)
    assert f"Turn 1 is {state}: its result is computed from the world" in page
    assert "(world_frozen)" in page
    assert f"{what_to_do}, or make the edit after the turn is published." in page
    danes.refresh_from_db()
    assert danes.treasury == before
    assert not AuditEntry.objects.filter(action="edit faction").exists()


def test_after_publishing_the_rows_hold_the_result_and_the_edit_is_kept(
    mod_client, open_skirmish
) -> None:
    turn = resolve_with_the_swedes_attacking(open_skirmish)
    danes = open_skirmish.factions.get(key="danes")
    refused = mod_client.post(url("faction_change", danes.pk), treasury_form(danes, 999))
    assert refused.status_code == 200
    lifecycle.turn_publish(turn, user=None)
    result = {f["id"]: f["treasury"] for f in turn.result["state"]["factions"]}
    danes.refresh_from_db()
    assert danes.treasury == result["danes"] != 999  # the result's, as published
    # The next turn is open: the same edit is accepted, and nothing overwrites it.
    assert open_skirmish.current_turn.status == Status.OPEN
    response = mod_client.post(url("faction_change", danes.pk), treasury_form(danes, 999))
    assert response.status_code == 302
    danes.refresh_from_db()
    assert danes.treasury == 999
    assert AuditEntry.objects.get(action="edit faction").reason == "loan from the Dutch"


def test_reopened_the_edit_goes_into_the_next_lock(mod_client, open_skirmish) -> None:
    turn = locked(open_skirmish)
    danes = open_skirmish.factions.get(key="danes")
    refused = mod_client.post(url("faction_change", danes.pk), treasury_form(danes, 999))
    assert refused.status_code == 200
    lifecycle.turn_reopen(turn, user=None)
    response = mod_client.post(url("faction_change", danes.pk), treasury_form(danes, 999))
    assert response.status_code == 302
    turn = lifecycle.turn_lock(open_skirmish.current_turn, user=None)
    turn.refresh_from_db()
    treasuries = {f["id"]: f["treasury"] for f in turn.scenario["factions"]}
    assert treasuries["danes"] == 999  # the world the turn is resolved from has the edit


def test_adding_a_row_is_refused(mod_client, open_skirmish) -> None:
    locked(open_skirmish)
    data = {
        "campaign": open_skirmish.pk,
        "key": "galleon",
        "cost": 50,
        "attack": 3,
        "health": 3,
        "reason": "a new ship type",
    }
    response = mod_client.post(url("shiptype_add"), data)
    assert response.status_code == 200
    assert "(world_frozen)" in said(response)
    assert not ShipType.objects.filter(campaign=open_skirmish, key="galleon").exists()


def test_deleting_is_refused_on_the_page_and_from_the_list(mod_client, open_skirmish) -> None:
    locked(open_skirmish)
    fleet = Fleet.objects.get(campaign=open_skirmish, key="d1")
    page = mod_client.post(url("fleet_delete", fleet.pk), {"post": "yes"}, follow=True)
    assert page.redirect_chain[-1][0] == url("fleet_change", fleet.pk)
    assert "(world_frozen)" in said(page)
    assert Fleet.objects.filter(pk=fleet.pk).exists()
    relations = list(Relation.objects.filter(campaign=open_skirmish).values_list("pk", flat=True))
    assert relations
    action = {"action": "delete_selected", "_selected_action": relations, "post": "yes"}
    listed = mod_client.post(url("relation_changelist"), action, follow=True)
    assert "(world_frozen)" in said(listed)
    assert Relation.objects.filter(pk__in=relations).count() == len(relations)
    assert not AuditEntry.objects.filter(action__startswith="delete").exists()


def test_an_open_turn_leaves_the_world_to_the_moderator(mod_client, open_skirmish) -> None:
    relations = list(Relation.objects.filter(campaign=open_skirmish).values_list("pk", flat=True))
    action = {"action": "delete_selected", "_selected_action": relations, "post": "yes"}
    assert mod_client.post(url("relation_changelist"), action).status_code == 302
    assert not Relation.objects.filter(pk__in=relations).exists()


def test_a_ships_repair_in_its_fleets_page_is_refused(mod_client, open_skirmish) -> None:
    """The ships are edited in their fleet's page: the whole save is refused, ships included;
    the same post once the turn is reopened is saved."""
    turn = locked(open_skirmish)
    fleet = Fleet.objects.get(campaign=open_skirmish, key="d1")
    ship = fleet.ships.first()
    data = {
        "campaign": fleet.campaign_id,
        "key": fleet.key,
        "owner": fleet.owner_id,
        "province": fleet.province_id or "",
        "port": fleet.port_id or "",
        "mp_penalty": fleet.mp_penalty,
        "blockading": fleet.blockading_id or "",
        "reason": "repaired by hand",
        "ships-TOTAL_FORMS": 1,
        "ships-INITIAL_FORMS": 1,
        "ships-0-id": ship.pk,
        "ships-0-fleet": fleet.pk,
        "ships-0-key": ship.key,
        "ships-0-type": ship.type_id,
        "ships-0-owner": ship.owner_id,
        "ships-0-health": ship.health + 1,
        "ships-0-position": ship.position,
    }
    response = mod_client.post(url("fleet_change", fleet.pk), data)
    assert response.status_code == 200
    assert "(world_frozen)" in said(response)
    assert fleet.ships.get(pk=ship.pk).health == ship.health
    assert not AuditEntry.objects.filter(action__in=["edit fleet", "edit ships"]).exists()
    lifecycle.turn_reopen(turn, user=None)
    assert mod_client.post(url("fleet_change", fleet.pk), data).status_code == 302
    assert fleet.ships.get(pk=ship.pk).health == ship.health + 1
