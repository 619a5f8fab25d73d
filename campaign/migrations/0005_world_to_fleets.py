"""The naval world's tables leave campaign's state for fleets' (fleets 0005); tables and rows
stay. The membership's seat, a naval faction, is fleets.Faction now (the same table)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0004_ledgerline_to_fleets"),
        ("fleets", "0005_world_from_campaign"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="membership",
                    name="faction",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="members",
                        to="fleets.faction",
                    ),
                ),
                # Those that point at the others first.
                migrations.DeleteModel(name="Relation"),
                migrations.DeleteModel(name="Adjacency"),
                migrations.DeleteModel(name="Port"),
                migrations.DeleteModel(name="Faction"),
                migrations.DeleteModel(name="Province"),
                migrations.DeleteModel(name="ShipType"),
            ],
            database_operations=[],
        ),
    ]
