"""Migrations on a database that holds a played campaign: every row is still there after them.

The campaign is played at today's schema (imported, a turn with a battle resolved and published),
then the database is taken back to before the migration under test and forward again, as a
database from before it is migrated on deploy."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaign import lifecycle
from campaign.models import Campaign
from tests.conftest import resolve_with_the_swedes_attacking

BEFORE_RULESET = ("campaign", "0002_documents_as_json")


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
    executor = MigrationExecutor(connection)
    return [key for key in executor.loader.graph.leaf_nodes() if key[0] == "campaign"]


@pytest.mark.django_db(transaction=True)
def test_the_ruleset_column_comes_with_naval_and_keeps_every_row(skirmish) -> None:
    turn = resolve_with_the_swedes_attacking(skirmish)
    lifecycle.turn_publish(turn, user=None)
    played = every_row()
    for campaign in played["campaign_campaign"]:
        del campaign["ruleset"]  # the column under test
    for table in ("battles_battle", "campaign_ledgerline", "fleets_ship", "fleets_order"):
        assert played[table], table  # a played campaign: battles, ledger, ships, orders

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
    for table, rows in played.items():
        assert after[table] == rows, table
    assert Campaign.objects.get(pk=skirmish.pk).current_turn.number == turn.number + 1
