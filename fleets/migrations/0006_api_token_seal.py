"""ApiToken.seal: whom the membership named when the key was made (issue 11). Keys made before
are sealed with their membership as it stands now, so they keep working until it changes."""

from django.db import migrations, models


def seal_existing(apps, schema_editor):
    ApiToken = apps.get_model("fleets", "ApiToken")
    for token in ApiToken.objects.select_related("membership"):
        m = token.membership
        token.seal = f"{m.user_id}:{m.role}:{m.faction_id or '-'}"
        token.save(update_fields=["seal"])


class Migration(migrations.Migration):
    dependencies = [
        ("fleets", "0005_world_from_campaign"),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="seal",
            field=models.CharField(default="", max_length=80),
        ),
        migrations.RunPython(seal_existing, migrations.RunPython.noop),
    ]
