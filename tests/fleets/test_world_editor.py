"""The world editor (issue 11, "a campaign made in the admin is a dead end"): a campaign built in
the browser from nothing to an opened turn, the check's problems with their places in words,
every bad edit refused with its code and nothing changed, and the export that `campaign_import`
reads back to the same world (docs/rulings.md R-51..R-55)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from campaign import lifecycle
from campaign.models import AuditEntry, Campaign, Membership, Turn
from campaign.resolution import turn_resolve
from campaign.scenario_files import read_scenario_document
from engine.naval import Problem, parse_scenario
from fleets.campaign_files import read_campaign_file
from fleets.importing import campaign_import
from fleets.mapping import world_document
from fleets.models import Faction, Fleet, Order, Port, Province, Ship, ShipType
from fleets.world_editor import (
    TABLES,
    WorldRefused,
    campaign_create,
    first_turn_open,
    world_check,
    world_delete,
    world_save,
)
from fleets.world_files import campaign_file_document, problem_place
from tests.concurrent import at_once
from tests.conftest import resolve_with_the_swedes_attacking

pytestmark = pytest.mark.django_db


@pytest.fixture
def mod(django_user_model) -> User:
    return django_user_model.objects.create_user("builder", "b@example.org", "pw", is_staff=True)


@pytest.fixture
def client_of(mod) -> Client:
    client = Client()
    client.force_login(mod)
    return client


def post(client: Client, name: str, *args: Any, **data: Any) -> Any:
    return client.post(reverse(name, args=args), data)


def add(client: Client, slug: str, table: str, **fields: Any) -> Any:
    """Post the editor's add form of a table (its fields carry the table's prefix)."""
    data = {f"{table}-{k}": v for k, v in fields.items()}
    data.setdefault(f"{table}-reason", "building the map")
    return client.post(reverse("world_add", args=[slug, table]), data)


def build_the_sound(client: Client, slug: str) -> None:
    """A tiny world, through the editor's forms: two sea provinces and a coast, a port, two
    factions at war, a ship type and a fleet of two ships docked in the port."""
    for key, kind, x in (
        ("kattegat", "sea", 300),
        ("oresund", "sea", 500),
        ("zealand", "land", 400),
    ):
        assert (
            add(
                client, slug, "province", key=key, name=key.title(), kind=kind, x=x, y=500
            ).status_code
            == 302
        )
    campaign = Campaign.objects.get(slug=slug)
    for a, b in (("kattegat", "oresund"), ("kattegat", "zealand"), ("oresund", "zealand")):
        assert add(client, slug, "adjacency", a=a, b=b).status_code == 302
    for key, name in (("danes", "Denmark–Norway"), ("swedes", "Sweden")):
        response = add(
            client, slug, "faction", key=key, name=name, colour="#c8102e", treasury=500, income=100
        )
        assert response.status_code == 302
    assert add(client, slug, "relation", low="swedes", high="danes", state="war").status_code == 302
    assert (
        add(client, slug, "ship-type", key="frigate", cost=120, attack=4, health=10).status_code
        == 302
    )
    response = client.post(
        reverse("world_add", args=[slug, "port"]),
        {
            "port-key": "copenhagen",
            "port-name": "Copenhagen",
            "port-province": "zealand",
            "port-owner": "danes",
            "port-waters": ["oresund", "kattegat"],
            "port-reason": "the capital",
        },
    )
    assert response.status_code == 302, response.content.decode()
    response = add(
        client,
        slug,
        "fleet",
        key="d1",
        owner="danes",
        at="port:copenhagen",
        mp_penalty=0,
        ships=2,
        ship_type="frigate",
        blockading="",
    )
    assert response.status_code == 302, response.content.decode()
    assert list(campaign.ships.order_by("position").values_list("key", flat=True)) == [
        "d1-1",
        "d1-2",
    ]


def test_a_campaign_built_in_the_browser_from_nothing_to_an_opened_turn(client_of, mod) -> None:
    response = client_of.post(
        reverse("world_campaign_new"),
        {"name": "The Sound", "slug": "the-sound", "turn_hours": 48, "fog_of_war": "on"},
    )
    assert response.status_code == 302
    campaign = Campaign.objects.get(slug="the-sound")
    assert Membership.objects.get(campaign=campaign, user=mod).role == "moderator"
    page = client_of.get(reverse("world", args=["the-sound"])).content.decode()
    assert "a campaign needs at least one faction" in page
    assert "Open the first turn</button>" not in page  # not while there are problems

    build_the_sound(client_of, "the-sound")
    page = client_of.get(reverse("world_check", args=["the-sound"])).content.decode()
    assert "No problems" in page
    assert "Open the first turn</button>" in page
    response = post(client_of, "world_open", "the-sound", reason="ready")
    assert response.status_code == 302
    turn = Turn.objects.get(campaign=campaign)
    assert (turn.number, turn.status) == (1, "open")
    opened = AuditEntry.objects.get(campaign=campaign, action="open")
    assert (opened.user, opened.reason) == (mod, "ready")
    edits = AuditEntry.objects.filter(campaign=campaign, action__startswith="world add")
    assert edits.count() == 3 + 3 + 2 + 1 + 1 + 1 + 1  # every row added, each with its reason
    assert set(edits.values_list("reason", flat=True)) == {"building the map", "the capital"}
    # The world is one the engine plays: a turn locks and resolves.
    Order.objects.create(
        turn=turn,
        faction=campaign.factions.get(key="danes"),
        slot="fleet:d1",
        payload={"fleet": "d1", "type": "move", "path": ["kattegat"]},
    )
    lifecycle.turn_lock(turn, user=mod)
    turn_resolve(turn_id=turn.pk)
    turn.refresh_from_db()
    assert turn.status == "resolved", turn.error
    # Open is offered no more, and refused if posted.
    response = post(client_of, "world_open", "the-sound")
    assert Turn.objects.filter(campaign=campaign).count() == 1


def test_the_check_names_each_problem_in_words_with_a_link(client_of, mod) -> None:
    campaign = campaign_create(user=mod, name="Broken", slug="broken")
    build_the_sound(client_of, "broken")
    # Made wrong behind the editor's back (the admin, an old import): a ship above its
    # maximum, a province turned to land under a port's waters.
    Ship.objects.filter(key="d1-2").update(health=99)
    Province.objects.filter(key="kattegat").update(kind="land")
    places = world_check(campaign).places
    words = {(p.words, p.message) for p in places}
    assert ("fleet d1, ship d1-2: its health", "99 is above the frigate's maximum of 10") in words
    assert (
        "port Copenhagen (copenhagen): its waters (kattegat)",
        "'kattegat' is land; a port's waters are sea provinces",
    ) in words
    page = client_of.get(reverse("world_check", args=["broken"])).content.decode()
    fleet = Fleet.objects.get(key="d1")
    assert reverse("world_row", args=["broken", "fleet", fleet.pk]) in page
    assert "fleets[0].ships[1].health" in page  # the path too, as the import reports it
    assert "Open the first turn</button>" not in page
    response = post(client_of, "world_open", "broken")
    assert response.status_code == 302
    assert not Turn.objects.filter(campaign=campaign).exists()


# -- every bad edit: its code, nothing changed -------------------------------------------------


@pytest.fixture
def sound(client_of, mod) -> Campaign:
    campaign = campaign_create(user=mod, name="The Sound", slug="the-sound")
    build_the_sound(client_of, "the-sound")
    return campaign


def snapshot(campaign: Campaign) -> tuple[Any, ...]:
    return (
        json.dumps(campaign_file_document(campaign), sort_keys=True),
        AuditEntry.objects.filter(campaign=campaign).count(),
        Turn.objects.filter(campaign=campaign).count(),
    )


def refused(code: str, action: Any, campaign: Campaign) -> WorldRefused:
    before = snapshot(campaign)
    with pytest.raises(WorldRefused) as caught:
        action()
    assert caught.value.code == code, caught.value
    assert snapshot(campaign) == before
    return caught.value


def test_no_reason_is_refused(sound, mod) -> None:
    row = Province.objects.get(campaign=sound, key="zealand")
    values = {"name": "Sjælland", "kind": "land", "x": 1, "y": 1}
    refused(
        "reason_required",
        lambda: world_save(
            campaign=sound, user=mod, table="province", row=row, values=values, reason="  "
        ),
        sound,
    )
    refused(
        "reason_required",
        lambda: world_delete(campaign=sound, user=mod, table="province", row=row, reason=""),
        sound,
    )


def test_a_taken_id_and_a_pair_given_twice_are_refused(sound, mod) -> None:
    values = {"key": "oresund", "name": "", "kind": "sea", "x": 1, "y": 1}
    refused(
        "key_taken",
        lambda: world_save(
            campaign=sound, user=mod, table="province", row=None, values=values, reason="r"
        ),
        sound,
    )
    p = {k: Province.objects.get(campaign=sound, key=k) for k in ("kattegat", "oresund")}
    refused(
        "key_taken",
        lambda: world_save(
            campaign=sound,
            user=mod,
            table="adjacency",
            row=None,
            values={"a": p["oresund"], "b": p["kattegat"]},
            reason="r",
        ),
        sound,
    )
    refused(
        "same_twice",
        lambda: world_save(
            campaign=sound,
            user=mod,
            table="adjacency",
            row=None,
            values={"a": p["oresund"], "b": p["oresund"]},
            reason="r",
        ),
        sound,
    )


def test_another_campaigns_row_is_refused(sound, mod, skirmish) -> None:
    elsewhere = Province.objects.get(campaign=skirmish, key="kattegat")
    here = Province.objects.get(campaign=sound, key="oresund")
    refused(
        "not_here",
        lambda: world_save(
            campaign=sound,
            user=mod,
            table="adjacency",
            row=None,
            values={"a": here, "b": elsewhere},
            reason="r",
        ),
        sound,
    )


def test_another_campaigns_id_in_a_form_is_not_a_choice(sound, client_of, skirmish) -> None:
    before = snapshot(sound)
    response = add(client_of, "the-sound", "adjacency", a="oresund", b="belt_sea")
    assert response.status_code == 400
    assert "not_here" in response.content.decode()
    assert snapshot(sound) == before


def test_the_pirates_are_reserved(sound, mod) -> None:
    values = {"key": "pirates", "name": "", "colour": "#000000", "treasury": 0, "income": 0}
    refused(
        "reserved",
        lambda: world_save(
            campaign=sound, user=mod, table="faction", row=None, values=values, reason="r"
        ),
        sound,
    )
    pirates = Faction.objects.get(campaign=sound, key="pirates")
    refused(
        "reserved",
        lambda: world_delete(campaign=sound, user=mod, table="faction", row=pirates, reason="r"),
        sound,
    )


def test_a_delete_that_would_take_more_is_refused_in_use(sound, mod, django_user_model) -> None:
    def delete(table: str, row: Any) -> Any:
        return lambda: world_delete(campaign=sound, user=mod, table=table, row=row, reason="r")

    error = refused("in_use", delete("province", Province.objects.get(key="zealand")), sound)
    assert "ports in it: copenhagen" in error.message
    refused("in_use", delete("province", Province.objects.get(key="oresund")), sound)  # waters
    refused("in_use", delete("port", Port.objects.get(key="copenhagen")), sound)  # d1 docked
    refused("in_use", delete("ship-type", ShipType.objects.get(key="frigate")), sound)
    swedes = Faction.objects.get(campaign=sound, key="swedes")
    player = django_user_model.objects.create_user("sven")
    Membership.objects.create(user=player, campaign=sound, role="player", faction=swedes)
    error = refused("in_use", delete("faction", swedes), sound)
    assert "players: sven" in error.message


def test_a_delete_takes_what_goes_with_it_and_names_it(sound, mod) -> None:
    fleet = Fleet.objects.get(campaign=sound, key="d1")
    world_delete(campaign=sound, user=mod, table="fleet", row=fleet, reason="no navy")
    entry = AuditEntry.objects.filter(action="world delete fleet").get()
    assert entry.detail["deleted_with"] == ["ship d1-1", "ship d1-2"]
    assert entry.reason == "no navy"
    assert not Ship.objects.filter(campaign=sound).exists()


@pytest.mark.parametrize("status", ["locked", "resolved", "failed"])
def test_the_world_is_frozen_while_a_turn_waits_to_be_published(sound, mod, status) -> None:
    first_turn_open(campaign=sound, user=mod)
    Turn.objects.filter(campaign=sound).update(status=status)
    row = Faction.objects.get(campaign=sound, key="danes")
    values = {"name": "Danes", "colour": "#c8102e", "treasury": 999, "income": 0}
    error = refused(
        "world_frozen",
        lambda: world_save(
            campaign=sound, user=mod, table="faction", row=row, values=values, reason="loan"
        ),
        sound,
    )
    assert f"Turn 1 is {status}" in error.message
    refused(
        "world_frozen",
        lambda: world_delete(
            campaign=sound, user=mod, table="relation", row=sound.relations.get(), reason="peace"
        ),
        sound,
    )


def test_once_under_way_an_edit_may_not_add_a_problem(sound, mod) -> None:
    first_turn_open(campaign=sound, user=mod)
    oresund = Province.objects.get(campaign=sound, key="kattegat")
    values = {"name": "Kattegat", "kind": "land", "x": 300, "y": 500}
    error = refused(
        "world_invalid",
        lambda: world_save(
            campaign=sound, user=mod, table="province", row=oresund, values=values, reason="r"
        ),
        sound,
    )
    assert any("port Copenhagen" in p.words for p in error.places)
    last = Ship.objects.filter(campaign=sound, key="d1-2").get()
    world_delete(campaign=sound, user=mod, table="ship", row=last, reason="sunk in a storm")
    first = Ship.objects.get(campaign=sound, key="d1-1")
    refused(
        "world_invalid",
        lambda: world_delete(campaign=sound, user=mod, table="ship", row=first, reason="r"),
        sound,
    )  # W5: a fleet has a ship


def test_the_first_turn_opens_once(sound, mod) -> None:
    turn = first_turn_open(campaign=sound, user=mod)
    assert turn.status == "open"
    assert turn.deadline is not None
    refused("already_open", lambda: first_turn_open(campaign=sound, user=mod), sound)


def test_a_world_with_problems_is_not_opened(mod) -> None:
    empty = campaign_create(user=mod, name="Empty", slug="empty")
    error = refused("world_invalid", lambda: first_turn_open(campaign=empty, user=mod), empty)
    assert {p.message for p in error.places} == {
        "a campaign needs at least one faction",
        "a campaign needs at least one sea province",
    }


def test_an_imported_campaigns_draft_turn_is_opened(skirmish, mod) -> None:
    Membership.objects.create(user=mod, campaign=skirmish, role="moderator")
    turn = first_turn_open(campaign=skirmish, user=mod)
    assert (turn.number, turn.status) == (1, "open")
    assert Turn.objects.filter(campaign=skirmish).count() == 1


def test_bad_form_input_is_refused_with_its_code(sound, client_of) -> None:
    before = snapshot(sound)
    cases = [
        ("province", {"key": "bad id!", "kind": "sea", "x": 1, "y": 1}, "bad_id"),
        ("province", {"key": "ok", "name": "a\nb", "kind": "sea", "x": 1, "y": 1}, "bad_name"),
        ("faction", {"key": "x", "colour": "red", "treasury": 0, "income": 0}, "bad_colour"),
        (
            "faction",
            {"key": "pirates", "colour": "#000000", "treasury": 0, "income": 0},
            "reserved",
        ),
        ("province", {"key": "ok", "kind": "sea", "x": 1, "y": 1, "reason": ""}, "reason_required"),
    ]
    for table, fields, code in cases:
        response = add(client_of, "the-sound", table, **fields)
        assert response.status_code == 400, (table, fields)
        assert code in response.content.decode(), (table, fields, code)
    assert snapshot(sound) == before


# -- export: read back to the same world ------------------------------------------------------


def same_world(exported: dict[str, Any], slug: str) -> Campaign:
    again = campaign_import(read_campaign_file({**exported, "slug": slug}))
    back = campaign_file_document(again)
    assert {**back, "slug": exported["slug"]} == exported
    return again


def test_the_export_of_a_built_campaign_imports_to_the_same_world(sound, client_of) -> None:
    response = client_of.get(reverse("world_export", args=["the-sound", "json"]))
    assert response["Content-Disposition"] == 'attachment; filename="the-sound.campaign.json"'
    exported = json.loads(response.content)
    again = same_world(exported, "the-sound-2")
    assert again.name == "The Sound"
    yaml_text = client_of.get(reverse("world_export", args=["the-sound", "yaml"])).content
    document = read_scenario_document("the-sound.campaign.yaml", yaml_text.decode())
    assert document == exported  # the import's own reader
    same_world(document, "the-sound-3")


def test_the_export_after_turns_imports_to_the_world_as_it_stands(skirmish, mod) -> None:
    turn = resolve_with_the_swedes_attacking(skirmish)
    lifecycle.turn_publish(turn, user=None)
    exported = campaign_file_document(skirmish)
    again = same_world(exported, "skirmish-later")
    assert world_document(again) == world_document(skirmish)
    parse_scenario(world_document(again))  # a world the engine reads


def test_the_admin_makes_a_campaigns_creator_its_moderator(client_of, mod) -> None:
    response = client_of.post(
        reverse("admin:campaign_campaign_add"),
        {
            "name": "Made in the admin",
            "slug": "admin-made",
            "turn_hours": 72,
            "reminder_hours": 24,
            "rules": "{}",
            "reason": "a new campaign",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    campaign = Campaign.objects.get(slug="admin-made")
    assert Membership.objects.get(campaign=campaign).user == mod
    assert client_of.get(reverse("world", args=["admin-made"])).status_code == 200


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("", "the campaign"),
        ("name", "the campaign's name"),
        ("settings.turn_hours", "the campaign's setting turn_hours"),
        ("rules.max_rounds", "the campaign's rule max_rounds"),
        ("map.provinces[1].x", "province Øresund (oresund): its position across"),
        ("map.adjacent[0][1]", "the adjacency kattegat – oresund: its second province"),
        ("map.ports[0].waters[0]", "port Copenhagen (copenhagen): its waters (oresund)"),
        ("factions[0].upkeep_priority[0]", "faction Danes (danes): its upkeep priority (d9)"),
        (
            "relations[0].state",
            "the relation between danes and swedes: its state (war, peace or alliance)",
        ),
        ("ship_types[0]", "ship type frigate"),
        ("fleets[0].ships[1].owner", "fleet d1, ship d1-2: its owner"),
        ("fleets[3]", "fleet no. 4"),
        ("fleets", "the starting fleets"),
    ],
)
def test_a_problems_place_in_words(path, words) -> None:
    document = {
        "map": {
            "provinces": [
                {"id": "kattegat", "name": "Kattegat"},
                {"id": "oresund", "name": "Øresund"},
            ],
            "adjacent": [["kattegat", "oresund"]],
            "ports": [{"id": "copenhagen", "name": "Copenhagen", "waters": ["oresund"]}],
        },
        "factions": [{"id": "danes", "name": "Danes", "upkeep_priority": ["d9"]}],
        "relations": [{"between": ["danes", "swedes"], "state": "war"}],
        "ship_types": [{"id": "frigate"}],
        "fleets": [{"id": "d1", "ships": [{"id": "d1-1"}, {"id": "d1-2"}]}],
    }
    assert problem_place(Problem(path, "wrong"), document).words == words


# -- at once: one connection each (tests/concurrent.py) ----------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_moderators_opening_at_once_open_one_turn(sound, mod) -> None:
    outcomes = at_once(*[lambda: first_turn_open(campaign=sound, user=mod)] * 2)
    opened = [o for o in outcomes if isinstance(o, Turn)]
    refusals = [o for o in outcomes if isinstance(o, WorldRefused)]
    assert len(opened) == 1, outcomes
    assert [r.code for r in refusals] == ["already_open"]
    assert Turn.objects.filter(campaign=sound).count() == 1
    assert AuditEntry.objects.filter(campaign=sound, action="open").count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_edit_and_a_lock_at_once_the_lock_stores_what_the_rows_hold(sound, mod) -> None:
    turn = first_turn_open(campaign=sound, user=mod)
    danes = Faction.objects.get(campaign=sound, key="danes")
    values = {"name": "Danes", "colour": "#c8102e", "treasury": 999, "income": 0}

    def edit() -> Any:
        return world_save(
            campaign=sound, user=mod, table="faction", row=danes, values=values, reason="loan"
        )

    outcomes = at_once(edit, lambda: lifecycle.turn_lock(turn, user=mod))
    turn.refresh_from_db()
    assert turn.status in ("locked", "resolved"), outcomes
    stored = next(f for f in turn.scenario["factions"] if f["id"] == "danes")["treasury"]
    danes.refresh_from_db()
    assert stored == danes.treasury  # the edit is in the locked world, or was not made at all
    if isinstance(outcomes[0], WorldRefused):
        assert outcomes[0].code == "world_frozen"
        assert danes.treasury == 500
    else:
        assert isinstance(outcomes[0], Faction), outcomes
        assert danes.treasury == 999


GARBAGE = [
    "",
    "\x00",
    "x" * 10_000,
    "-1",
    "9" * 30,
    "nan",
    "inf",
    "sea:",
    "port:nowhere",
    "é\u202e",
]


@pytest.mark.parametrize(
    "table", ["province", "adjacency", "port", "ship-type", "faction", "relation", "fleet", "ship"]
)
def test_garbage_in_every_field_is_refused_never_a_500(sound, client_of, table) -> None:
    from fleets.world_forms import FORMS

    before = snapshot(sound)
    fields = [f for f in FORMS[table](campaign=sound).fields if f != "reason"]
    row = (
        TABLES[table]
        .model._default_manager.filter(campaign=sound)
        .exclude(**({"key": "pirates"} if table == "faction" else {}))
        .first()
    )
    for value in GARBAGE:
        data = {f"{table}-{name}": value for name in fields} | {f"{table}-reason": "r"}
        for url in (
            reverse("world_add", args=["the-sound", table]),
            reverse("world_row", args=["the-sound", table, row.pk]),
        ):
            response = client_of.post(url, data)
            assert response.status_code == 400, (table, value, url)
    assert snapshot(sound) == before


def test_addresses_that_name_nothing_are_404(sound, client_of) -> None:
    for url in (
        "/c/the-sound/world/nowhere/new/",
        "/c/the-sound/world/nowhere/1/",
        f"/c/the-sound/world/province/{'9' * 30}/",
        f"/c/the-sound/world/province/{'9' * 30}/delete/",
        "/c/the-sound/world/export.xml",
        "/c/no-such-campaign/world/",
        f"/c/the-sound/world/faction/{Faction.objects.get(campaign=sound, key='pirates').pk}/",
    ):
        method = client_of.post if url.endswith("/delete/") else client_of.get
        assert method(url).status_code == 404, url


def test_an_empty_campaigns_other_pages_work(client_of, mod) -> None:
    """Home, desk, map and dashboard of a campaign with no world and no turn yet: no 500."""
    campaign = campaign_create(user=mod, name="Empty", slug="empty")
    for url in (
        reverse("home"),
        reverse("desk", args=["empty"]),
        reverse("campaign_map", args=["empty"]),
        reverse("turns", args=["empty"]),
        reverse("admin:campaign_dashboard", args=[campaign.pk]),
    ):
        response = client_of.get(url)
        assert response.status_code == 200, (url, response.content[:3000])
    dashboard = client_of.get(reverse("admin:campaign_dashboard", args=[campaign.pk]))
    assert reverse("world", args=["empty"]) in dashboard.content.decode()


def test_a_port_without_a_name_is_named_by_its_id(sound, mod) -> None:
    values = {
        "key": "helsingor",
        "name": "",
        "province": Province.objects.get(campaign=sound, key="zealand"),
        "owner": Faction.objects.get(campaign=sound, key="danes"),
        "waters": [Province.objects.get(campaign=sound, key="oresund")],
    }
    world_save(campaign=sound, user=mod, table="port", row=None, values=values, reason="r")
    assert Port.objects.get(campaign=sound, key="helsingor").name == "helsingor"
    assert world_check(sound).ok


def test_the_check_does_not_look_the_webhooks_host_up(sound, mod) -> None:
    """A host that does not resolve would be a problem of the file (and a lookup on every page
    of the editor): the check leaves the webhook to where it is entered and posted."""
    Campaign.objects.filter(pk=sound.pk).update(webhook_url="https://nowhere.invalid/hook")
    sound.refresh_from_db()
    assert world_check(sound).ok
    exported = campaign_file_document(sound)
    assert exported["settings"]["webhook_url"] == "https://nowhere.invalid/hook"


def test_an_edit_is_audited_with_its_old_and_new_values_and_reason(sound, client_of, mod) -> None:
    danes = Faction.objects.get(campaign=sound, key="danes")
    response = client_of.post(
        reverse("world_row", args=["the-sound", "faction", danes.pk]),
        {
            "faction-name": "Denmark–Norway",
            "faction-colour": "#c8102e",
            "faction-treasury": 650,
            "faction-income": 100,
            "faction-reason": "a loan from the Dutch",
        },
    )
    assert response.status_code == 302
    entry = AuditEntry.objects.filter(campaign=sound, action="world edit faction").get()
    assert (entry.user, entry.reason) == (mod, "a loan from the Dutch")
    assert entry.detail["object"] == "danes"
    assert entry.detail["changes"] == {"treasury": ["500", "650"]}
    danes.refresh_from_db()
    assert danes.treasury == 650
