"""A naval campaign's settings leave the platform's table (campaign 0006 drops the columns):
Campaign.rules and Campaign.fog_of_war become a fleets.NavalSettings row per naval campaign,
with their values; back, the values return to the columns. A campaign of another ruleset never
read those columns (they held their defaults): it gets no row, and comes back with the defaults."""

import django.db.models.deletion
from django.db import migrations, models


def settings_to_fleets(apps, schema_editor):
    Campaign = apps.get_model("campaign", "Campaign")
    NavalSettings = apps.get_model("fleets", "NavalSettings")
    NavalSettings.objects.bulk_create(
        NavalSettings(campaign_id=pk, rules=rules, fog_of_war=fog)
        for pk, rules, fog in Campaign.objects.filter(ruleset="naval")
        .order_by("pk")
        .values_list("pk", "rules", "fog_of_war")
    )


def settings_to_campaign(apps, schema_editor):
    Campaign = apps.get_model("campaign", "Campaign")
    NavalSettings = apps.get_model("fleets", "NavalSettings")
    for row in NavalSettings.objects.order_by("pk"):
        Campaign.objects.filter(pk=row.campaign_id).update(
            rules=row.rules, fog_of_war=row.fog_of_war
        )


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0005_world_to_fleets"),
        ("fleets", "0007_public_map"),
    ]

    operations = [
        migrations.CreateModel(
            name="NavalSettings",
            fields=[
                (
                    "campaign",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="naval_settings",
                        serialize=False,
                        to="campaign.campaign",
                    ),
                ),
                ("rules", models.JSONField(blank=True, default=dict)),
                ("fog_of_war", models.BooleanField(default=True)),
            ],
            options={
                "verbose_name": "naval settings",
                "verbose_name_plural": "naval settings",
            },
        ),
        migrations.RunPython(settings_to_fleets, settings_to_campaign),
    ]
