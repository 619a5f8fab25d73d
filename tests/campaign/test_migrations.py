"""Migrations on a database that holds a played campaign: every row is still there after them.

The campaign is played at today's schema (imported, a turn with a battle resolved and published),
then the database is taken back to before the migration under test and forward again, as a
database from before it is migrated on deploy. Both databases: run with DATABASE_URL set for
PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaign import lifecycle
from campaign.models import Campaign, Membership
from fleets.models import Adjacency, Faction, LedgerLine, Port, Province, Relation, ShipType
from tests.conftest import resolve_with_the_swedes_attacking

BEFORE_RULESET = ("campaign", "0002_documents_as_json")
BEFORE_LEDGER_MOVED = [("campaign", "0003_campaign_ruleset"), ("fleets", "0003_ship_fillfactor")]
BEFORE_WORLD_MOVED = [
    ("campaign", "0004_ledgerline_to_fleets"),
    ("fleets", "0004_ledgerline_from_campaign"),
]
WORLD = [Faction, Relation, Province, Adjacency, Port, ShipType]  # moved by fleets 0005


def every_row() -> dict[str, list[dict[str, Any]]]:
    """Each table's rows as {column: value}, in primary-key order (migrations' own excepted)."""
    rows = {}
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names(cursor)):
            if table == "django_migrations":
                continue
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)} ORDER BY 1")
            names = [column[0] for column in cursor.description]
            rows[table] = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    return rows


def migrate(*targets: tuple[str, str]) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(list(targets))


def latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def played(campaign: Campaign) -> dict[str, list[dict[str, Any]]]:
    """A turn with a battle resolved and published: battles, ledger, ships and orders."""
    turn = resolve_with_the_swedes_attacking(campaign)
    lifecycle.turn_publish(turn, user=None)
    rows = every_row()
    for table in ("battles_battle", "campaign_ledgerline", "fleets_ship", "fleets_order"):
        assert rows[table], table
    return rows


@pytest.mark.django_db(transaction=True)
def test_the_ruleset_column_comes_with_naval_and_keeps_every_row(skirmish) -> None:
    before = played(skirmish)
    for campaign in before["campaign_campaign"]:
        del campaign["ruleset"]  # the column under test

    migrate(BEFORE_RULESET)
    with connection.cursor() as cursor:
        columns = [
            c.name
            for c in connection.introspection.get_table_description(cursor, "campaign_campaign")
        ]
    assert "ruleset" not in columns
    migrate(*latest())

    after = every_row()
    assert [c["ruleset"] for c in after["campaign_campaign"]] == ["naval"]
    for campaign in after["campaign_campaign"]:
        del campaign["ruleset"]
    for table, rows in before.items():
        assert after[table] == rows, table
    assert Campaign.objects.get(pk=skirmish.pk).current_turn.number == 2


@pytest.mark.django_db(transaction=True)
def test_the_ledger_moves_to_fleets_with_its_table_and_rows(skirmish) -> None:
    """A model moved between apps, not its table: the rows, their content type and its
    permissions are the same rows after as before (every table compared)."""
    before = played(skirmish)
    migrate(*BEFORE_LEDGER_MOVED)
    old_state = MigrationExecutor(connection).loader.project_state(BEFORE_LEDGER_MOVED).apps
    assert old_state.get_model("campaign", "LedgerLine").objects.count() == len(
        before["campaign_ledgerline"]
    )
    migrate(*latest())
    assert every_row() == before
    assert LedgerLine.objects.count() == len(before["campaign_ledgerline"])
    assert ContentType.objects.get_for_model(LedgerLine).app_label == "fleets"


@pytest.mark.django_db(transaction=True)
def test_the_naval_world_moves_to_fleets_with_its_tables_and_rows(open_skirmish, people) -> None:
    """Factions, relations, provinces, adjacencies, ports (with their waters) and ship types: the
    models move between apps, their tables and rows do not; a player's seat is still their
    faction, and the content types (with their permissions) are the same rows, relabelled."""
    before = played(open_skirmish)
    for model in WORLD:
        assert before[model._meta.db_table], model  # the played campaign has rows of each
    assert before["campaign_port_waters"]
    seats = {m.user.username: m.faction.key for m in Membership.objects.filter(role="player")}
    waters = {port.key: sorted(w.key for w in port.waters.all()) for port in Port.objects.all()}
    world_types = {
        model: ContentType.objects.get(app_label="fleets", model=model._meta.model_name).pk
        for model in WORLD
    }

    migrate(*BEFORE_WORLD_MOVED)
    old_state = MigrationExecutor(connection).loader.project_state(BEFORE_WORLD_MOVED).apps
    for model in WORLD:
        old = old_state.get_model("campaign", model.__name__)
        assert old._meta.db_table == model._meta.db_table
        assert old.objects.count() == len(before[model._meta.db_table]), model
        assert ContentType.objects.get(pk=world_types[model]).app_label == "campaign"
    migrate(*latest())

    assert every_row() == before
    for model in WORLD:
        assert model.objects.count() == len(before[model._meta.db_table]), model
        assert ContentType.objects.get_for_model(model).pk == world_types[model]
        assert ContentType.objects.get_for_model(model).app_label == "fleets"
    assert {
        m.user.username: m.faction.key for m in Membership.objects.filter(role="player")
    } == seats
    assert {p.key: sorted(w.key for w in p.waters.all()) for p in Port.objects.all()} == waters
    assert Campaign.objects.get(pk=open_skirmish.pk).current_turn.number == 2


BEFORE_SETTINGS_MOVED = [("campaign", "0005_world_to_fleets"), ("fleets", "0007_public_map")]


@pytest.mark.django_db(transaction=True)
def test_the_naval_settings_move_to_fleets_with_their_values(skirmish) -> None:
    """Campaign.rules and Campaign.fog_of_war become the campaign's fleets.NavalSettings row
    (fleets 0008, campaign 0006): back before the move, the columns hold every value again;
    forward, the rows are as they were. A campaign of another ruleset has no row either way."""
    from fleets.models import NavalSettings

    NavalSettings.objects.filter(campaign=skirmish).update(
        rules={"max_rounds": 4, "fleet_limit": 9}, fog_of_war=False
    )
    Campaign.objects.create(name="A seafaring game", slug="sea", ruleset="seafarers")
    before = played(skirmish)
    assert before["fleets_navalsettings"] == [
        {
            "campaign_id": skirmish.pk,
            "rules": before["fleets_navalsettings"][0]["rules"],
            "fog_of_war": False,
            # fleets 0010's column, its default (none of the campaign file's map.fill)
            "map_fill": before["fleets_navalsettings"][0]["map_fill"],
            # fleets 0011's column, its default (R-90: off unless the moderator turns it on)
            "resolve_early": False,
        }
    ]

    migrate(*BEFORE_SETTINGS_MOVED)
    old_state = MigrationExecutor(connection).loader.project_state(BEFORE_SETTINGS_MOVED).apps
    old = {
        c.slug: (c.rules, c.fog_of_war)
        for c in old_state.get_model("campaign", "Campaign").objects.all()
    }
    assert old == {skirmish.slug: ({"max_rounds": 4, "fleet_limit": 9}, False), "sea": ({}, True)}
    with connection.cursor() as cursor:
        assert "fleets_navalsettings" not in connection.introspection.table_names(cursor)
    migrate(*latest())

    assert every_row() == before
    settings = NavalSettings.objects.get(campaign=skirmish)
    assert (settings.rules, settings.fog_of_war) == ({"max_rounds": 4, "fleet_limit": 9}, False)
    assert not NavalSettings.objects.filter(campaign__slug="sea").exists()
    assert Campaign.objects.get(pk=skirmish.pk).current_turn.number == 2
