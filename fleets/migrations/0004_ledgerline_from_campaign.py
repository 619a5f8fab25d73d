"""LedgerLine, a naval table, moves from campaign/ to fleets/ with its rows: the model only.

The table stays `campaign_ledgerline` (Meta.db_table), so nothing happens in the database: this
migration adds the model to fleets' state, campaign 0004 removes it from campaign's. The content
type follows the model, so its permissions stay attached (what RenameModel does for a model
renamed within one app).
"""

import django.db.models.deletion
from django.db import migrations, models

MODEL = "ledgerline"


def content_type_to(app_label: str, other: str):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        if not ContentType.objects.using(db).filter(app_label=app_label, model=MODEL).exists():
            ContentType.objects.using(db).filter(app_label=other, model=MODEL).update(
                app_label=app_label
            )

    return move


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0003_campaign_ruleset"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("fleets", "0003_ship_fillfactor"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="LedgerLine",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("kind", models.CharField(max_length=20)),
                        ("amount", models.IntegerField()),
                        (
                            "faction",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="ledger",
                                to="campaign.faction",
                            ),
                        ),
                        (
                            "turn",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="ledger",
                                to="campaign.turn",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "campaign_ledgerline",
                        "ordering": ["turn", "faction", "id"],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(
            content_type_to("fleets", "campaign"), content_type_to("campaign", "fleets")
        ),
    ]
