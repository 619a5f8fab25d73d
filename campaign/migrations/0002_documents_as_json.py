"""A turn's scenario and result (and their archived copies) as `json`, compressed with lz4.

See campaign/fields.py: on PostgreSQL these documents, only ever read and written whole, are kept
as the text sent (`json`) instead of being parsed into `jsonb`. Their values are megabytes, so
PostgreSQL compresses them (TOAST); its default method, pglz, took half the time of writing a
2,000-fleet turn's result (41 ms of which 21 ms compressing; lz4: 20 ms in all, and faster to read
back). lz4 is used where the server was built with it (PostgreSQL 14 and later, as Debian's). On
SQLite the columns stay text: the operations below change nothing there.
"""

from django.db import migrations

import campaign.fields

COLUMNS = [
    ("campaign_turn", "scenario"),
    ("campaign_turn", "result"),
    ("campaign_archivedresult", "scenario"),
    ("campaign_archivedresult", "result"),
]


def _has_lz4(schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
            "AND 'lz4' = ANY(enumvals)"
        )
        return cursor.fetchone() is not None


def compress_with(method):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        if method == "lz4" and not _has_lz4(schema_editor):
            return
        for table, column in COLUMNS:
            schema_editor.execute(
                f'ALTER TABLE "{table}" ALTER COLUMN "{column}" SET COMPRESSION {method}'
            )

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="archivedresult",
            name="result",
            field=campaign.fields.DocumentField(),
        ),
        migrations.AlterField(
            model_name="archivedresult",
            name="scenario",
            field=campaign.fields.DocumentField(),
        ),
        migrations.AlterField(
            model_name="turn",
            name="result",
            field=campaign.fields.DocumentField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="turn",
            name="scenario",
            field=campaign.fields.DocumentField(blank=True, null=True),
        ),
        migrations.RunPython(compress_with("lz4"), compress_with("default")),
    ]
