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
from campaign.models import Campaign
from fleets.models import LedgerLine
from tests.conftest import resolve_with_the_swedes_attacking

BEFORE_RULESET = ("campaign", "0002_documents_as_json")
BEFORE_LEDGER_MOVED = [("campaign", "0003_campaign_ruleset"), ("fleets", "0003_ship_fillfactor")]


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
