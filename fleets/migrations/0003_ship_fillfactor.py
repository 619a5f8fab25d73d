"""PostgreSQL: half of each page of the ship table kept free (fillfactor 50).

Publishing a turn rewrites the health of most ships once. PostgreSQL writes a new version of each
row; when it fits on the same page and no indexed column changed, the update is "HOT" and none of
the table's six indexes is touched. With packed pages (the default fillfactor of 100) every
updated ship costs six index insertions: for a 2,000-fleet turn the health update took 57-80 ms,
with free room on the pages 10-19 ms (docs/benchmarks.md). Nothing to do on SQLite.
"""

from django.db import migrations


def set_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE fleets_ship SET (fillfactor = 50)")


def reset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE fleets_ship RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("fleets", "0002_api_token"),
    ]

    operations = [
        migrations.RunPython(set_fillfactor, reset_fillfactor),
    ]
