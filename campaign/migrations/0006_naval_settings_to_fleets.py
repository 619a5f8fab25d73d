"""The naval settings (rules, fog of war) are fleets.NavalSettings now (fleets 0007 copied
every value there first; back, it copies them into these columns again)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0005_world_to_fleets"),
        ("fleets", "0008_navalsettings"),
    ]

    operations = [
        migrations.RemoveField(model_name="campaign", name="fog_of_war"),
        migrations.RemoveField(model_name="campaign", name="rules"),
    ]
