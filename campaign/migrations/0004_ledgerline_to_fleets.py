"""LedgerLine leaves campaign's state for fleets' (fleets 0004); its table and rows stay."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0003_campaign_ruleset"),
        ("fleets", "0004_ledgerline_from_campaign"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="LedgerLine")],
            database_operations=[],
        ),
    ]
