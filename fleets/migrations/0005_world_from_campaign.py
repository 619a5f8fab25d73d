"""The naval world's tables move from campaign/ to fleets/ with their rows: the models only.

Faction, Relation, Province, Adjacency, Port (with its waters) and ShipType keep their tables
(`campaign_faction`, …, `campaign_port_waters`: Meta.db_table), so nothing happens in the
database: this migration adds the models to fleets' state and points the fleets' links at them,
campaign 0005 points the membership's seat at fleets.Faction and removes the models from
campaign's state. Their content types follow the models, so permissions and the admin's history
stay attached (as for the ledger, fleets 0004).
"""

import django.db.models.deletion
from django.db import migrations, models

MODELS = ("faction", "relation", "province", "adjacency", "port", "shiptype")


def content_types_to(app_label: str, other: str):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        for model in MODELS:
            if not ContentType.objects.using(db).filter(app_label=app_label, model=model).exists():
                ContentType.objects.using(db).filter(app_label=other, model=model).update(
                    app_label=app_label
                )

    return move


def _id():
    return models.BigAutoField(
        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
    )


def _campaign(related_name: str):
    return models.ForeignKey(
        on_delete=django.db.models.deletion.CASCADE,
        related_name=related_name,
        to="campaign.campaign",
    )


CASCADE = django.db.models.deletion.CASCADE
PROTECT = django.db.models.deletion.PROTECT
SET_NULL = django.db.models.deletion.SET_NULL

STATE = [
    migrations.CreateModel(
        name="Faction",
        fields=[
            ("id", _id()),
            ("key", models.SlugField(max_length=60)),
            ("name", models.CharField(max_length=120)),
            ("colour", models.CharField(default="#777777", max_length=7)),
            ("treasury", models.IntegerField(default=0)),
            ("income", models.PositiveIntegerField(default=0)),
            ("upkeep_priority", models.JSONField(blank=True, default=list)),
            ("campaign", _campaign("factions")),
        ],
        options={
            "db_table": "campaign_faction",
            "ordering": ["key"],
            "constraints": [
                models.UniqueConstraint(fields=("campaign", "key"), name="faction_key_unique"),
                models.CheckConstraint(
                    condition=models.Q(("treasury__gte", 0)), name="treasury_not_negative"
                ),
            ],
        },
    ),
    migrations.CreateModel(
        name="Province",
        fields=[
            ("id", _id()),
            ("key", models.SlugField(max_length=60)),
            ("name", models.CharField(max_length=120)),
            ("kind", models.CharField(choices=[("sea", "Sea"), ("land", "Land")], max_length=4)),
            ("x", models.FloatField(default=0)),
            ("y", models.FloatField(default=0)),
            ("campaign", _campaign("provinces")),
        ],
        options={
            "db_table": "campaign_province",
            "ordering": ["key"],
            "constraints": [
                models.UniqueConstraint(fields=("campaign", "key"), name="province_key_unique")
            ],
        },
    ),
    migrations.CreateModel(
        name="ShipType",
        fields=[
            ("id", _id()),
            ("key", models.SlugField(max_length=60)),
            ("cost", models.PositiveIntegerField()),
            ("attack", models.PositiveIntegerField()),
            ("health", models.PositiveIntegerField()),
            ("campaign", _campaign("ship_types")),
        ],
        options={
            "db_table": "campaign_shiptype",
            "ordering": ["key"],
            "constraints": [
                models.UniqueConstraint(fields=("campaign", "key"), name="ship_type_key_unique")
            ],
        },
    ),
    migrations.CreateModel(
        name="Relation",
        fields=[
            ("id", _id()),
            (
                "state",
                models.CharField(
                    choices=[("war", "War"), ("peace", "Peace"), ("alliance", "Alliance")],
                    default="peace",
                    max_length=10,
                ),
            ),
            ("campaign", _campaign("relations")),
            (
                "low",
                models.ForeignKey(on_delete=CASCADE, related_name="+", to="fleets.faction"),
            ),
            (
                "high",
                models.ForeignKey(on_delete=CASCADE, related_name="+", to="fleets.faction"),
            ),
        ],
        options={
            "db_table": "campaign_relation",
            "constraints": [
                models.UniqueConstraint(
                    fields=("campaign", "low", "high"), name="relation_pair_unique"
                )
            ],
        },
    ),
    migrations.CreateModel(
        name="Adjacency",
        fields=[
            ("id", _id()),
            ("campaign", _campaign("adjacencies")),
            ("a", models.ForeignKey(on_delete=CASCADE, related_name="+", to="fleets.province")),
            ("b", models.ForeignKey(on_delete=CASCADE, related_name="+", to="fleets.province")),
        ],
        options={
            "db_table": "campaign_adjacency",
            "constraints": [models.UniqueConstraint(fields=("a", "b"), name="adjacency_unique")],
        },
    ),
    migrations.CreateModel(
        name="Port",
        fields=[
            ("id", _id()),
            ("key", models.SlugField(max_length=60)),
            ("name", models.CharField(max_length=120)),
            ("campaign", _campaign("ports")),
            (
                "province",
                models.ForeignKey(on_delete=CASCADE, related_name="ports", to="fleets.province"),
            ),
            (
                "owner",
                models.ForeignKey(on_delete=PROTECT, related_name="ports", to="fleets.faction"),
            ),
            # Its table is named from the port's: campaign_port_waters, as before.
            ("waters", models.ManyToManyField(related_name="port_waters", to="fleets.province")),
        ],
        options={
            "db_table": "campaign_port",
            "ordering": ["key"],
            "constraints": [
                models.UniqueConstraint(fields=("campaign", "key"), name="port_key_unique")
            ],
        },
    ),
    # The fleets' links, to the same tables as before.
    migrations.AlterField(
        model_name="fleet",
        name="owner",
        field=models.ForeignKey(on_delete=PROTECT, related_name="fleets", to="fleets.faction"),
    ),
    migrations.AlterField(
        model_name="fleet",
        name="province",
        field=models.ForeignKey(
            blank=True, null=True, on_delete=PROTECT, related_name="fleets", to="fleets.province"
        ),
    ),
    migrations.AlterField(
        model_name="fleet",
        name="port",
        field=models.ForeignKey(
            blank=True, null=True, on_delete=PROTECT, related_name="docked_fleets", to="fleets.port"
        ),
    ),
    migrations.AlterField(
        model_name="fleet",
        name="blockading",
        field=models.ForeignKey(
            blank=True, null=True, on_delete=SET_NULL, related_name="blockaders", to="fleets.port"
        ),
    ),
    migrations.AlterField(
        model_name="ship",
        name="owner",
        field=models.ForeignKey(on_delete=PROTECT, related_name="ships", to="fleets.faction"),
    ),
    migrations.AlterField(
        model_name="ship",
        name="type",
        field=models.ForeignKey(on_delete=PROTECT, related_name="ships", to="fleets.shiptype"),
    ),
    migrations.AlterField(
        model_name="order",
        name="faction",
        field=models.ForeignKey(on_delete=CASCADE, related_name="orders", to="fleets.faction"),
    ),
    migrations.AlterField(
        model_name="ledgerline",
        name="faction",
        field=models.ForeignKey(on_delete=CASCADE, related_name="ledger", to="fleets.faction"),
    ),
]


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0004_ledgerline_to_fleets"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("fleets", "0004_ledgerline_from_campaign"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=STATE, database_operations=[]),
        migrations.RunPython(
            content_types_to("fleets", "campaign"), content_types_to("campaign", "fleets")
        ),
    ]
